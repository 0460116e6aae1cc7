"""Weighted rows with every score distinct: the runs' pass skips finding where runs end.

``weighted_order`` tells whether every score is distinct (no two sorted keys share their
high bits); ``runs_of_order`` then takes each row as a run. Checked against the general path
on the same rows and against the code before (``bench/core_before.py``), bit for bit, with
ties placed at the blocks' boundaries, one row, all-equal scores, signed zeros and weights of
zero.
"""

from __future__ import annotations

import numpy as np
import pytest

from roc_dash.core import auc, convex_hull, roc_curve
from roc_dash.core.roc import _exact_paths

from .test_core_exact_paths import assert_same_curve, assert_same_hull, before

BLOCK = 8  # rows per block, lowered so that a few dozen rows cross several blocks


def ordered(y, s, w):
    """``(z, distinct)`` of :func:`~roc_dash.core.roc._exact_paths.weighted_order`."""
    distinct = []
    z = _exact_paths.weighted_order(y, s, w, distinct=distinct)
    assert len(distinct) == 1
    return z, distinct[0]


def same_bits(a, b) -> bool:
    return a.shape == b.shape and np.array_equal(a.view(np.uint64), b.view(np.uint64))


def cases(rng):
    """``(name, scores, all distinct)`` of 40 rows each (five blocks of ``BLOCK``)."""
    n = 40
    distinct = rng.permutation(np.linspace(-3.0, 5.0, n))
    yield "distinct", distinct, True
    yield "one row", np.array([0.25]), True
    yield "all equal", np.full(n, 0.5), False
    signed_zeros = distinct.copy()
    signed_zeros[[3, 17]] = 0.0, -0.0  # equal scores, different bits
    yield "signed zeros", signed_zeros, False
    for at in (BLOCK - 1, BLOCK, 2 * BLOCK + 1, n - 2):  # a tie across each boundary
        order = np.argsort(distinct)
        tied = distinct.copy()
        tied[order[at + 1]] = tied[order[at]]  # the sorted rows at and after `at`
        yield f"tie at sorted row {at}", tied, False
    close = distinct.copy()
    close[0] = np.nextafter(close[1], np.inf)  # one ulp apart: distinct, keys share bits
    yield "one ulp apart", close, True
    close[2] = close[1]  # and a tie in the same group of shared bits
    yield "one ulp apart and a tie", close, False


@pytest.mark.parametrize("zero_weights", [False, True])
def test_wdr001_the_distinct_flag_and_its_runs_equal_the_general_path(monkeypatch,
                                                                     zero_weights):
    monkeypatch.setattr(_exact_paths, "_BLOCK", BLOCK)
    rng = np.random.default_rng(1)
    for name, s, all_distinct in cases(rng):
        y = rng.random(s.size) < 0.5
        w = rng.uniform(0.1, 3.0, s.size)
        if zero_weights:
            w[::3] = 0.0
        z, flag = ordered(y, s, w)
        # equal scores (signed zeros, ties across blocks) are seen; scores one ulp apart
        # (keys sharing their high bits) are not taken for a tie
        assert flag == all_distinct, name
        general = _exact_paths.runs_of_order(z.copy())
        runs = _exact_paths.runs_of_order(z, distinct=flag)
        assert runs[0].size == np.unique(s).size + 1, name
        for got, expected in zip(runs, general, strict=True):
            assert same_bits(got, expected), name


def test_wdr002_a_wrong_flag_would_be_seen():
    # The check above can fail: taking tied rows as distinct gives other runs.
    rng = np.random.default_rng(2)
    s = np.round(rng.normal(0.0, 1.0, 200), 1)
    y = rng.random(200) < 0.5
    w = rng.uniform(0.1, 3.0, 200)
    z, flag = ordered(y, s, w)
    assert not flag
    wrong = _exact_paths.runs_of_order(z.copy(), distinct=True)
    right = _exact_paths.runs_of_order(z)
    assert wrong[0].size == 201 and right[0].size == np.unique(s).size + 1 < 201


def test_wdr003_weighted_distinct_curve_area_hull_equal_the_code_before(monkeypatch):
    monkeypatch.setattr(_exact_paths, "_BLOCK", BLOCK)
    rng = np.random.default_rng(3)
    for name, s, _ in cases(rng):
        if s.size < 2:
            continue
        y = np.arange(s.size) % 3 == 0  # both classes
        w = rng.uniform(0.0, 2.0, s.size)
        w[::4] = 0.0
        c, c0 = roc_curve(y, s, weights=w), before.roc_curve(y, s, weights=w)
        assert_same_curve(c, c0)
        assert auc(c) == auc(c0), name
        assert_same_hull(convex_hull(c), before.convex_hull(c0))
