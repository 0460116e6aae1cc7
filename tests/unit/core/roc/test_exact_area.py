"""The area under an unweighted ROC curve is counted, not summed: the Mann-Whitney statistic
(pairs of a positive and a negative ranked the right way, ties one half; Fawcett 2004,
section 5) over all pairs, correctly rounded, whichever path made the curve.

The oracle is independent of the core: scipy's mid-ranks give the positives' rank sum ``R``
(exact in float64 here: halves of integers below 2**53), ``U = R - P (P + 1) / 2``, and
``fractions.Fraction`` rounds ``U / (P N)`` once. Trapezoids summed in floats (the way
before) miss it by an ulp or more on large curves (``eaa002`` shows they would fail).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy.stats import rankdata

from roc_dash.core import auc, roc_auc, roc_curve
from roc_dash.core.roc import _exact_paths, curves, hull
from roc_dash.core.roc.curves import roc_curve_with_counts


def mann_whitney_auc(y, s) -> float:
    """U / (P N), correctly rounded, from scipy's mid-ranks."""
    y = np.asarray(y, dtype=bool)
    ranks = rankdata(np.asarray(s, dtype=np.float64))  # ties share their mean rank
    p, n = int(y.sum()), int((~y).sum())
    twice_r = int(round(2 * float(ranks[y].sum())))
    return float(Fraction(twice_r - p * (p + 1), 2 * p * n))


def summed_by_trapezoids(curve) -> float:
    """The area as before: trapezoids of the rates, summed in floats (a copy of the curve
    made by ``dataclasses.replace`` carries no counted area)."""
    return auc(dataclasses.replace(curve))


def every_path(mp):
    """Sizes lowered so that a few dozen rows take the grid, the few-distinct keys and
    blocks of a few rows (runs of equal scores across blocks), as millions of rows do."""
    mp.setattr(curves, "_HASH_MIN_ROWS", 8)
    mp.setattr(curves, "_HASH_SAMPLE", 64)
    mp.setattr(hull, "_SAMPLED_CHAIN", 16)
    mp.setattr(_exact_paths, "_BLOCK", 4)


score = st.one_of(st.floats(allow_nan=False, allow_infinity=False),
                  st.sampled_from([0.0, -0.0, 1.0, -1.0, 5e-324, -5e-324]),
                  st.integers(-3, 3).map(float), st.integers(-30, 30).map(lambda k: k / 10))


@settings(max_examples=250, deadline=None)
@given(st.lists(st.tuples(st.booleans(), score), min_size=2, max_size=90), st.booleans())
def test_eaa001_unweighted_area_is_the_correctly_rounded_mann_whitney(data, small):
    y = np.array([r[0] for r in data])
    assume(y.any() and not y.all())
    s = np.array([r[1] for r in data], dtype=float)
    expected = mann_whitney_auc(y, s)
    with pytest.MonkeyPatch.context() as mp:
        if small:
            every_path(mp)
        assert auc(roc_curve(y, s)) == expected
        assert roc_auc(y, s) == expected
        assert auc(roc_curve_with_counts(y, s)[0]) == expected  # the runs' path (DeLong's)


@pytest.mark.parametrize("kind", ["logits", "probabilities", "ties across blocks", "grid"])
def test_eaa002_large_curves_exact_where_trapezoids_miss(kind):
    rng = np.random.default_rng(7)
    missed = 0
    for _ in range(6):
        n = int(rng.integers(100_000, 260_000))
        y = rng.random(n) < rng.uniform(0.05, 0.6)
        logit = rng.normal(y * 1.2, 1.0) * 2.0
        s = {"logits": logit, "probabilities": 1 / (1 + np.exp(-logit)),
             "ties across blocks": np.round(logit, 3) + (rng.random(n) < 0.5) * 1e-9,
             "grid": np.round(logit, 2)}[kind]
        c = roc_curve(y, s)
        expected = mann_whitney_auc(y, s)
        assert auc(c) == expected
        missed += summed_by_trapezoids(c) != expected
    if kind != "grid":  # the way before was off in the last bits on these
        assert missed > 0


def test_eaa006_frequency_weights_count_as_repeated_rows():
    """Whole weights (the query engines' groups carry their rows' count as a weight) give
    the area of the rows repeated, exactly: their sums are counts."""
    rng = np.random.default_rng(4)
    for n in (50, 40_000):
        y = rng.random(n) < 0.35
        s = np.round(rng.normal(y * 1.0), 2)
        w = rng.integers(0, 7, n).astype(float)
        w[0] = w[-1] = 1.0
        assert y[w > 0].any() and not y[w > 0].all()
        rows = np.repeat(np.arange(n), w.astype(int))
        assert auc(roc_curve(y, s, weights=w)) == mann_whitney_auc(y[rows], s[rows])


def test_eaa003_weighted_curves_keep_their_trapezoids():
    """Weighted sums are not whole counts: their area is summed as before."""
    rng = np.random.default_rng(3)
    y = rng.random(5_000) < 0.4
    s, w = rng.normal(y * 1.0), rng.uniform(0.1, 3.0, 5_000)
    c = roc_curve(y, s, weights=w)
    assert getattr(c, "_area", None) is None
    assert auc(c) == summed_by_trapezoids(c)
    # unit weights give the unweighted area to within the trapezoids' rounding
    assert auc(roc_curve(y, s, weights=np.ones(5_000))) == pytest.approx(
        mann_whitney_auc(y, s), abs=1e-14)


def test_eaa004_fawcett_figure_3_area():
    """Fawcett (2004), figure 3: 20 instances, 10 of each class, scores 0.9 .. 0.1; the
    pairs ranked right are 68 of 100 (AUC 0.68)."""
    y = np.array([1, 1, 0, 1, 1, 1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 0, 1, 0, 1, 0], dtype=bool)
    s = np.array([.9, .8, .7, .6, .55, .54, .53, .52, .51, .505, .4, .39, .38, .37, .36,
                  .35, .34, .33, .30, .1])
    assert auc(roc_curve(y, s)) == 0.68 == mann_whitney_auc(y, s)


@pytest.mark.parametrize("block", [1, 2, 3, 4, 5])
def test_eaa005_runs_of_equal_scores_across_whole_blocks(block, monkeypatch):
    """A run of equal scores that covers whole blocks (a block with no vertex), begins in
    one block and ends in a later one, or ends on a block's last row: its pairs count one
    half each, wherever the blocks cut it."""
    monkeypatch.setattr(_exact_paths, "_BLOCK", block)
    rng = np.random.default_rng(block)
    cases = [([0, 0, 0, 0, 1], [0.0] * 5), ([1, 0, 1, 0, 1, 0, 0, 1], [2, 1, 1, 1, 1, 1, 1, 0])]
    for _ in range(200):
        n = int(rng.integers(2, 30))
        cases.append((rng.random(n) < 0.5, rng.integers(0, rng.integers(1, 6), n)))
    for y, s in cases:
        y, s = np.asarray(y, dtype=bool), np.asarray(s, dtype=float)
        if y.all() or not y.any():
            continue
        assert auc(roc_curve(y, s)) == mann_whitney_auc(y, s), (y, s)
