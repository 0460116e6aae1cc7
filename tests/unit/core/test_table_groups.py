"""``groups_of`` splits a table as ``DataFrame.groupby`` does (the oracle), faster."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from roc_dash.core.table_groups import groups_of


def _table(n=2000, seed=0, missing=False):
    rng = np.random.default_rng(seed)
    model = rng.choice(["b", "a", "c d", "é"], n).astype(object)
    if missing:
        model[rng.random(n) < 0.05] = None
    return pd.DataFrame({
        "label": rng.random(n) < 0.3, "score": rng.random(n),
        "model": pd.array(model, dtype="str"),
        "fold": pd.array(rng.choice(["1", "2", "10"], n), dtype="str"),
        "weight": rng.random(n)}, index=rng.permutation(n) + 7)


@pytest.mark.parametrize("missing", [False, True])
def test_tgr001_same_groups_rows_and_order_as_groupby(missing):
    table = _table(missing=missing)
    want = {str(k): g.drop(columns="model")
            for k, g in table.groupby("model", sort=False, observed=True)}
    got = groups_of(table, "model")
    assert list(got) == list(want)  # order of first appearance
    for name in want:
        pd.testing.assert_frame_equal(got[name], want[name])


def test_tgr002_one_value_and_errors():
    table = _table()
    table["model"] = pd.array(["only"] * len(table), dtype="str")
    got = groups_of(table, "model")
    assert list(got) == ["only"]
    pd.testing.assert_frame_equal(got["only"], table.drop(columns="model"))
    with pytest.raises(ValueError, match="no column 'group'"):
        groups_of(table, "group")


@pytest.mark.parametrize("n_codes", [1, 3, 40_000])
def test_tgr003_rows_by_code_against_a_loop(n_codes):
    from roc_dash.core.table_groups import rows_by_code

    rng = np.random.default_rng(n_codes)
    codes = rng.integers(-1, n_codes, 5000)
    got = rows_by_code(codes, n_codes)
    assert len(got) == n_codes
    for k in range(min(n_codes, 50)):
        np.testing.assert_array_equal(got[k], np.flatnonzero(codes == k))
    assert sum(len(r) for r in got) == int((codes >= 0).sum())


@pytest.mark.parametrize("order", ["appearance", "shuffled", "unused", "missing"])
def test_tgr004_codes_of_is_factorize(order):
    from roc_dash.core.table_groups import codes_of

    rng = np.random.default_rng(4)
    values = rng.choice(["b", "c", "a", "d"], 3000)
    seen = list(pd.unique(values))
    categories = {"appearance": seen, "shuffled": sorted(seen),
                  "unused": seen + ["zz"], "missing": seen}[order]
    column = pd.Series(pd.Categorical(values, categories=categories))
    if order == "missing":
        column[5] = np.nan
    codes, names = codes_of(column)
    want_codes, want_names = pd.factorize(column, sort=False)
    np.testing.assert_array_equal(codes, want_codes)
    assert list(names) == list(want_names)
    codes, names = codes_of(pd.Series(values))  # text: factorized
    assert list(names) == seen
