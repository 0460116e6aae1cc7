"""Crossed slices: the groups of two columns crossed in one pass over the rows' codes, against
a plain Python construction row by row (each row's pair of values as text, counted, the
largest kept and the rest pooled by the documented rule, written here); the pooling rule on
ties; the Slices card's groups made once per data, model, columns and level (counted calls,
in one worker and from another worker's cache); and a crossed slice counted as big work by
rows times groups."""

from __future__ import annotations

import threading
from collections import Counter

import numpy as np
import pandas as pd
import pytest

from roc_dash.app import slicing
from roc_dash.app.features import slices as slices_feature
from roc_dash.app.features.slices import slices_outputs
from roc_dash.app.server import budget
from roc_dash.app.server.cache import SharedCache
from roc_dash.io.groups import (
    CROSS,
    MAX_GROUPS,
    MISSING_GROUP,
    OTHER_GROUP,
    largest_groups,
    pool_groups,
)
from roc_dash.io.slice_columns import SLICE_PREFIX, slice_choices, slice_groups, slice_width

STATE = {"cost_fp": 1.0, "cost_fn": 5.0, "prior": 0.2}


def _table(seed: int, n: int, values: int, *, extra_categories: int = 0,
           missing: float = 0.05, models: int = 1) -> tuple[pd.DataFrame, list, list]:
    """A canonical-like table with two slice columns ``a`` and ``b`` of ``values`` values
    each (as categories, ``extra_categories`` of them never used), ``b`` drawn near ``a``
    so that most pairs never occur, a share ``missing`` of empty cells in each; and the
    rows' values as plain Python lists (None: empty)."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, values, n)
    b = (a + rng.integers(0, max(2, values // 4), n)) % values
    a_text = [f"a{k:03d}" for k in a]
    b_text = [f"b{k}" for k in b]  # not zero-padded: names do not sort as numbers
    for text in (a_text, b_text):
        for i in np.flatnonzero(rng.random(n) < missing):
            text[i] = None
    labels = rng.random(n) < 0.3
    frame = pd.DataFrame({
        "label": labels, "score": np.round(rng.normal(size=n) + labels, 2),
        "model": pd.Categorical([f"m{k}" for k in rng.integers(0, models, n)]),
        "fold": "all", "weight": 1.0})
    for name, text in (("a", a_text), ("b", b_text)):
        used = sorted({t for t in text if t is not None})
        unused = [f"{name}-unused{k}" for k in range(extra_categories)]
        frame[SLICE_PREFIX + name] = pd.Categorical(text, categories=unused + used)
    return frame, a_text, b_text


def _by_hand(a_text, b_text, max_groups: int = MAX_GROUPS):
    """Each row's crossed group, pooled: the pair as text, the ``max_groups - 1`` largest
    pairs by rows kept (ties: the smaller name by Python's string order), the rest
    ``other``; and (pairs, pooled pairs, pooled rows)."""
    names = [f"{MISSING_GROUP if x is None else x}{CROSS}{MISSING_GROUP if y is None else y}"
             for x, y in zip(a_text, b_text, strict=True)]
    counts = Counter(names)
    if len(counts) <= max_groups:
        return names, None
    order = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    kept = {name for name, _ in order[:max_groups - 1]}
    pooled = order[max_groups - 1:]
    return ([n if n in kept else OTHER_GROUP for n in names],
            (len(counts), len(pooled), sum(c for _, c in pooled)))


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize(("n", "values", "extra", "max_groups"), [
    (400, 6, 0, MAX_GROUPS),      # few pairs: no pooling
    (3000, 30, 3, MAX_GROUPS),    # hundreds of pairs, many tied at the smallest kept count
    (3000, 30, 0, 7),             # a small cap
    (2500, 40, 2100, MAX_GROUPS),  # 2,140^2 possible pairs: counted by sorting, not a table
])
def test_xsl001_crossing_equals_the_row_by_row_pairs(seed, n, values, extra, max_groups):
    frame, a_text, b_text = _table(seed, n, values, extra_categories=extra)
    groups, notes = slice_groups(frame, ["a", "b"], max_groups=max_groups)
    expected, pooled = _by_hand(a_text, b_text, max_groups)
    assert groups.astype(str).tolist() == expected
    assert groups.index.equals(frame.index)
    assert len(set(groups.cat.categories)) == len(groups.cat.categories)
    if pooled is None:
        assert notes == ()
    else:
        pairs, n_pooled, rows = pooled
        assert notes == (f"The group column has {pairs:,} groups; the {max_groups - 1} "
                         f"largest are kept and the other {n_pooled:,} ({rows:,} rows) are "
                         f"pooled as '{OTHER_GROUP}'.",)
        # the documented rule, as pool_groups applies it to the pairs written as text
        as_text, note = pool_groups(pd.Series([
            f"{MISSING_GROUP if x is None else x}{CROSS}{MISSING_GROUP if y is None else y}"
            for x, y in zip(a_text, b_text, strict=True)]), max_groups)
        assert groups.astype(str).tolist() == as_text.tolist()
        assert notes == (note,)


def test_xsl002_pairs_that_read_alike_are_one_group():
    """``"x × y"`` crossed with ``"z"`` and ``"x"`` with ``"y × z"`` read alike: one group
    (made from the rows' text, a name is a group)."""
    a = ["x × y", "x", "x", "w"] * 5
    b = ["z", "y × z", "q", "z"] * 5
    frame = pd.DataFrame({SLICE_PREFIX + "a": pd.Categorical(a),
                          SLICE_PREFIX + "b": pd.Categorical(b)})
    groups, _ = slice_groups(frame, ["a", "b"])
    expected, _ = _by_hand(a, b)
    assert groups.astype(str).tolist() == expected
    assert groups.nunique() == 3


@pytest.mark.parametrize("seed", range(6))
def test_xsl003_largest_groups_is_the_sort_by_count_then_name(seed):
    rng = np.random.default_rng(seed)
    size = int(rng.integers(1, 300))
    counts = rng.integers(1, 4, size)  # many ties
    names = np.array([f"g{rng.integers(0, 10**6)}-{i}" for i in range(size)], dtype=object)
    keep = int(rng.integers(0, size + 2))
    asked = []

    def names_of(at):
        asked.append(len(at))
        return names[at]

    got = largest_groups(counts, names_of, keep)
    order = sorted(range(size), key=lambda i: (-counts[i], names[i]))
    assert sorted(got.tolist()) == sorted(order[:keep])
    if 0 < keep < size:  # only the groups tied at the smallest count kept are named
        assert asked == [int((counts == counts[order[keep - 1]]).sum())]


def test_xsl004_slice_width_is_the_product_of_the_values_at_most_the_rows():
    frame, a_text, b_text = _table(3, 500, 12, extra_categories=2)
    a_values = len(frame[SLICE_PREFIX + "a"].cat.categories) + 1  # and the empty cells
    b_values = len(frame[SLICE_PREFIX + "b"].cat.categories) + 1
    assert slice_width(frame, ["a", "b"]) == a_values * b_values
    assert slice_width(frame, ["a"]) == a_values
    assert slice_width(frame.iloc[:30], ["a", "b"]) == 30


def _counting(monkeypatch):
    """Count the calls of the crossing and of the groups' curves, wherever the card looks
    them up."""
    calls = Counter()
    for module in (slicing, slices_feature):
        for name in ("slice_groups", "group_rocs"):
            real = getattr(module, name, None)
            if real is None:
                continue

            def spy(*args, _real=real, _name=name, **kw):
                calls[_name] += 1
                return _real(*args, **kw)

            monkeypatch.setattr(module, name, spy)
    return calls


def test_xsl005_costs_prior_and_constraint_reuse_the_groups(monkeypatch, tmp_path):
    frame, _, _ = _table(4, 6000, 40, models=2)
    calls = _counting(monkeypatch)
    cache = SharedCache(tmp_path / "cache")
    key = ("dataset-1",)

    def memo(parts, make):  # as the card's callback (features/slices.register)
        return cache.get_or_make((*parts, key), make)

    def card(state=STATE, constraint="group_optima", columns=("a", "b"), priors=None):
        return slices_outputs(frame, "m0", state, constraint, memo=memo,
                              columns=list(columns), priors_text=priors)

    first = card()
    assert "50 groups" in first[0] and "pooled" in first[0]
    assert calls == Counter(slice_groups=1, group_rocs=1)
    changes = [dict(state={**STATE, "cost_fn": 9.0}), dict(state={**STATE, "prior": 0.4}),
               dict(constraint="equalized_odds"), dict(constraint="single_threshold"),
               dict(priors=f"{first[4].children[1].children[0].children[0].children}=0.3")]
    for change in changes:
        out = card(**change)
        assert out[0] == first[0]
    assert calls == Counter(slice_groups=1, group_rocs=1)  # made once
    # another worker (its own memory, the same shared cache) reads the groups made
    other = SharedCache(tmp_path / "cache")
    slices_outputs(frame, "m0", STATE, "equal_opportunity", columns=["a", "b"],
                   memo=lambda parts, make: other.get_or_make((*parts, key), make))
    assert calls == Counter(slice_groups=1, group_rocs=1)
    # what the groups depend on: the columns, the model and the intervals' level
    card(columns=("b", "a"))
    slices_outputs(frame, "m1", STATE, "group_optima", memo=memo, columns=["a", "b"])
    slicing.model_slices(frame, "m0", ["a", "b"], slice_choices(frame), 0.9, memo=memo)
    assert calls == Counter(slice_groups=4, group_rocs=4)


def test_xsl006_a_crossed_slice_is_big_work_by_rows_times_groups(monkeypatch):
    """With the worker's big-work slot held, a crossed slice of 2,000 rows into up to
    41 x 41 groups (more than ``ROC_DASH_HEAVY_ROWS`` = 10,000 rows x groups) waits for it
    and says so when the request's time is up; one column of the same rows (2,000 < 10,000)
    is not big and is answered."""
    frame, _, _ = _table(5, 2000, 40)
    monkeypatch.setenv("ROC_DASH_HEAVY_ROWS", "10000")
    monkeypatch.setenv("ROC_DASH_TIMEOUT", "0.3")
    held, done = threading.Event(), threading.Event()

    def hold():
        with budget.heavy_analysis(10**9, deadline=None):
            held.set()
            done.wait(30)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert held.wait(30)
        one = slices_outputs(frame, "m0", STATE, "group_optima", columns=["a"])
        crossed = slices_outputs(frame, "m0", STATE, "group_optima", columns=["a", "b"])
    finally:
        done.set()
        holder.join(30)
    assert "groups" in one[0] and one[1].data
    assert "another large analysis" in crossed[0] and not crossed[1].data
    again = slices_outputs(frame, "m0", STATE, "group_optima", columns=["a", "b"])
    assert "groups" in again[0] and again[1].data  # the slot free again: answered
    assert budget.slice_work(2000, 1) < 10_000 <= budget.slice_work(
        2000, slice_width(frame, ["a", "b"]))
