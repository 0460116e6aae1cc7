"""The folds' thresholds behind a vertical average (fth001-fth004): against a naive loop over
each fold's vertices and against the rule "positive iff score >= t" counted on the rows."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import roc_curve as sk_roc_curve

from roc_dash.core.roc.averaging import fold_curves, vertical_average
from roc_dash.core.roc.fold_thresholds import thresholds_at_fpr


def _folds(seed=3, k=4, n=120):
    rng = np.random.default_rng(seed)
    y = rng.random(k * n) < 0.35
    s = np.round(rng.normal(1.2 * y, 1.0), 1)  # rounded: ties within each fold
    f = np.repeat(np.arange(k), n)
    return y, s, f


def _naive(curve, x):
    """Threshold of the last vertex whose FPR is <= x: a plain loop over the vertices."""
    best = None
    for fpr, t in zip(curve.fpr.tolist(), curve.thresholds.tolist(), strict=True):
        if fpr <= x:
            best = t
    return best


def test_fth001_matches_a_naive_loop_over_vertices():
    y, s, f = _folds()
    curves = fold_curves(y, s, f)
    grid = vertical_average(curves, n_samples=51).fpr
    ft = thresholds_at_fpr(curves, grid)
    naive = np.array([[_naive(c, x) for x in grid] for c in curves.values()])
    assert ft.n_curves == 4 and ft.thresholds.shape == (4, 51)
    assert np.array_equal(ft.thresholds, naive)
    for j in range(grid.size):
        col = naive[:, j]
        assert ft.low[j] == min(col) and ft.high[j] == max(col)
        assert ft.mean[j] == pytest.approx(sum(col) / len(col)) or np.isinf(ft.mean[j])


def test_fth002_each_threshold_is_the_lowest_keeping_fpr_within_budget():
    """Counted on each fold's rows: the rule at the returned threshold has FPR <= x, and the
    next lower distinct score (scikit-learn's threshold list) exceeds x."""
    y, s, f = _folds(seed=8)
    curves = fold_curves(y, s, f)
    grid = np.linspace(0, 1, 23)
    ft = thresholds_at_fpr(curves, grid)
    for i, fold in enumerate(curves):
        yy, ss = y[f == int(fold)], s[f == int(fold)]
        neg = ~yy
        sk_fpr, _, sk_t = sk_roc_curve(yy, ss, drop_intermediate=False)
        for j, x in enumerate(grid):
            t = ft.thresholds[i, j]
            assert np.mean(ss[neg] >= t) <= x + 1e-12
            lower = sk_t[sk_t < t]
            if lower.size:  # a lower threshold admits more negatives than x allows
                assert np.mean(ss[neg] >= lower.max()) > x
        assert np.isfinite(sk_fpr).all()


def test_fth003_one_fold_gives_its_own_thresholds_and_zero_range():
    y, s, _ = _folds(k=1)
    curves = fold_curves(y, s, np.zeros(y.size, dtype=int))
    ft = thresholds_at_fpr(curves, [0.0, 0.25, 1.0])
    assert np.array_equal(ft.low, ft.high) and np.array_equal(ft.mean, ft.low)
    # all rows flagged at FPR 1: the smallest score
    assert ft.mean[-1] == s.min()


def test_fth004_rejects_bad_input():
    y, s, f = _folds()
    curves = fold_curves(y, s, f)
    with pytest.raises(ValueError, match=r"fpr values must lie in \[0, 1\]"):
        thresholds_at_fpr(curves, [0.2, 1.5])
    with pytest.raises(ValueError, match="non-empty 1-D"):
        thresholds_at_fpr(curves, [])
    with pytest.raises(ValueError, match="no curves"):
        thresholds_at_fpr({}, [0.1])
