"""Datasets combined for the views: the model column stays one small code per row.

Before, a dataset whose model names collided with an earlier one's had its model column
turned into text (``astype(str).replace``) and the parts concatenated as text objects: each
row a Python string, ~60 MB while ten 45,000-row uploads were combined under
``bench/load_test.py``. The combined column is now categorical; its values must be exactly
what the text version gave (rebuilt independently here).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from roc_dash.io.side_by_side import combine_datasets, distinct_model_names


def _table(rng, n, models, *, categorical):
    model = rng.choice(models, size=n)
    frame = pd.DataFrame({"label": rng.integers(0, 2, n),
                          "model": pd.Categorical(model) if categorical else model,
                          "score": rng.random(n)})
    return frame


def _text_version(tables):
    """The old way, written out: names mapped per row as text, parts concatenated."""
    names = distinct_model_names(
        [(label, [str(m) for m in pd.unique(t["model"])]) for label, t in tables])
    out = []
    for (_, t), mapping in zip(tables, names, strict=True):
        out.extend(mapping[str(m)] for m in t["model"])
    return out


@pytest.mark.parametrize("categorical", [True, False])
def test_cbm001_model_column_is_categorical_and_matches_text_renaming(categorical):
    rng = np.random.default_rng(7)
    tables = [(f"run{k}.csv", _table(rng, 500 + 37 * k, ["lr", "gbm", f"only{k}"],
                                     categorical=categorical)) for k in range(4)]
    combined, renamed = combine_datasets(tables)
    assert isinstance(combined["model"].dtype, pd.CategoricalDtype)
    assert combined["model"].astype(str).tolist() == _text_version(tables)
    # every other column as concatenated, the dataset column as before
    for column in ("label", "score"):
        np.testing.assert_array_equal(combined[column].to_numpy(),
                                      np.concatenate([t[column].to_numpy() for _, t in tables]))
    assert combined["dataset"].astype(str).tolist() == [
        label for label, t in tables for _ in range(len(t))]
    assert list(combined.columns[:3]) == ["label", "model", "score"]  # the column keeps its place
    # "lr" and "gbm" of later datasets are shown tagged with their dataset, and say so
    assert {(r.dataset, r.original) for r in renamed} >= {("run1.csv", "lr"), ("run3.csv", "gbm")}
    # the stored tables are untouched
    assert all(t["model"].astype(str).isin(["lr", "gbm", f"only{k}"]).all()
               for k, (_, t) in enumerate(tables))


def test_cbm002_categories_in_order_of_first_appearance_none_unused():
    rng = np.random.default_rng(3)
    tables = [("a.csv", _table(rng, 300, ["x", "y"], categorical=True)),
              ("b.csv", _table(rng, 200, ["y", "z"], categorical=False))]
    combined, _ = combine_datasets(tables)
    column = combined["model"]
    first_seen = list(dict.fromkeys(column.astype(str)))
    assert list(column.cat.categories) == first_seen
    assert set(column.cat.codes.unique()) == set(range(len(first_seen)))


def test_cbm003_memory_of_the_combined_model_column_is_small():
    rng = np.random.default_rng(1)
    tables = [(f"u{k}.csv", _table(rng, 45_000, ["score"], categorical=True)) for k in range(10)]
    combined, _ = combine_datasets(tables)
    text = pd.Series(_text_version(tables), dtype=object)
    ours = combined["model"].memory_usage(deep=True)
    theirs = text.memory_usage(deep=True)
    assert ours < theirs / 10, (ours, theirs)
    assert combined["model"].astype(str).tolist() == text.tolist()
