"""Averaging ROC curves over folds: Fawcett (2004) section 6, Algorithms 4 and 5."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from roc_dash.core.roc.averaging import (
    ScoreScaleWarning,
    average_by_fold,
    check_score_scales,
    fold_curves,
    pooled_curve,
    roc_point_at_threshold,
    simultaneous_band,
    threshold_average,
    tpr_for_fpr,
    vertical_average,
)
from roc_dash.core.roc.curves import RocCurve, roc_curve


def _curve(points, thresholds=None):
    """A hand-made RocCurve through ``points``."""
    fpr = np.array([p[0] for p in points], dtype=float)
    tpr = np.array([p[1] for p in points], dtype=float)
    if thresholds is None:
        thresholds = np.concatenate(([np.inf], np.linspace(1.0, 0.0, len(points) - 1)))
    return RocCurve(fpr=fpr, tpr=tpr, thresholds=np.asarray(thresholds, float),
                    n_pos=1.0, n_neg=1.0)


def _tpr_for_fpr_loop(curve, x):
    """Fawcett Algorithm 4's TPR_FOR_FPR, transcribed literally (0-based)."""
    npts = len(curve.fpr)
    i = 0
    while i < npts - 1 and curve.fpr[i + 1] <= x:
        i += 1
    if curve.fpr[i] == x:
        return curve.tpr[i]
    slope = (curve.tpr[i + 1] - curve.tpr[i]) / (curve.fpr[i + 1] - curve.fpr[i])
    return curve.tpr[i] + slope * (x - curve.fpr[i])


def _folds_data(k=10, n=400, seed=1, separation=1.0):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    s = 1 / (1 + np.exp(-(rng.normal(0, 1, n) + separation * y)))
    s = np.round(s, 2)  # ties
    folds = np.arange(n) % k
    rng.shuffle(folds)
    return y, s, folds


# Small score samples with many ties, both classes present.
_rows = st.lists(st.tuples(st.booleans(), st.integers(0, 8)), min_size=2, max_size=30).filter(
    lambda r: any(lab for lab, _ in r) and not all(lab for lab, _ in r)
)


@settings(max_examples=60, deadline=None)
@given(rows=_rows, k=st.integers(1, 5),
       extra=st.lists(st.floats(0, 1, allow_nan=False), max_size=10))
def test_avg001_identical_copies_vertical_is_the_curve(rows, k, extra):
    y = np.array([r[0] for r in rows])
    s = np.array([r[1] for r in rows]) / 8.0
    curve = roc_curve(y, s)
    grid = np.concatenate((np.linspace(0, 1, 21), curve.fpr, extra))
    avg = vertical_average([curve] * k, fpr_grid=grid)
    expected = [_tpr_for_fpr_loop(curve, x) for x in grid]
    np.testing.assert_allclose(avg.tpr_mean, expected, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(avg.tpr_std, 0.0)
    np.testing.assert_array_equal(avg.tpr_low, avg.tpr_mean)
    np.testing.assert_array_equal(avg.tpr_high, avg.tpr_mean)
    assert avg.n_curves == k and avg.band == "pointwise"
    sim = simultaneous_band([curve] * k, fpr_grid=grid, n_boot=50)
    np.testing.assert_array_equal(sim.tpr_low, sim.tpr_high)


@settings(max_examples=60, deadline=None)
@given(rows=_rows, k=st.integers(1, 5), n_samples=st.integers(2, 40))
def test_avg002_identical_copies_threshold_gives_vertices(rows, k, n_samples):
    y = np.array([r[0] for r in rows])
    s = np.array([r[1] for r in rows]) / 8.0
    curve = roc_curve(y, s)
    avg = threshold_average([curve] * k, n_samples=n_samples)
    vertices = set(zip(curve.fpr.tolist(), curve.tpr.tolist(), strict=True))
    for point in zip(avg.fpr_mean.tolist(), avg.tpr_mean.tolist(), strict=True):
        assert point in vertices
    assert (avg.fpr_mean[0], avg.tpr_mean[0]) == (0.0, 0.0)
    assert (avg.fpr_mean[-1], avg.tpr_mean[-1]) == (1.0, 1.0)
    assert avg.threshold[0] == np.inf and (np.diff(avg.threshold) < 0).all()
    assert len(avg.threshold) <= n_samples
    for lo, hi, mean in ((avg.fpr_low, avg.fpr_high, avg.fpr_mean),
                         (avg.tpr_low, avg.tpr_high, avg.tpr_mean)):
        np.testing.assert_array_equal(lo, mean)
        np.testing.assert_array_equal(hi, mean)
    assert avg.warning is None


def test_avg003_hand_made_vertical_mean():
    a = _curve([(0, 0), (0, 0.5), (1, 1)])
    b = _curve([(0, 0), (0.5, 1), (1, 1)])
    avg = vertical_average([a, b], fpr_grid=[0.0, 0.25, 0.5, 0.75, 1.0])
    # At 0, curve a rises vertically from (0, 0) to (0, 0.5): its TPR there is 0.5.
    expected = [(0.5 + 0.0) / 2, (0.625 + 0.5) / 2, (0.75 + 1.0) / 2, (0.875 + 1.0) / 2, 1.0]
    np.testing.assert_allclose(avg.tpr_mean, expected)
    assert avg.tpr_std[-1] == 0.0 and avg.tpr_low[-1] == avg.tpr_high[-1] == 1.0
    # The default grid is 101 evenly spaced FP rates from 0 to 1.
    default = vertical_average([a, b])
    assert default.fpr.size == 101 and default.fpr[0] == 0.0 and default.fpr[-1] == 1.0
    assert default.tpr_mean[25] == pytest.approx(0.5625)


def test_avg004_vertical_segment_takes_max_tpr():
    c = _curve([(0, 0), (0.5, 0.2), (0.5, 0.8), (1, 1)])
    got = tpr_for_fpr(c, [0.25, 0.5, 0.75])
    # At 0.5 the top of the vertical segment; before it the line to its bottom (0.5, 0.2)
    # -- np.interp on the max-TPR points would give 0.4 at 0.25; after it from the top.
    np.testing.assert_allclose(got, [0.1, 0.8, 0.9])
    # A real curve with vertical steps (consecutive positives) and a tied diagonal run.
    y = np.array([1, 1, 0, 1, 0, 1, 0, 0], bool)
    s = np.array([0.9, 0.8, 0.7, 0.6, 0.5, 0.5, 0.4, 0.3])
    curve = roc_curve(y, s)
    grid = np.unique(np.concatenate((curve.fpr, np.linspace(0, 1, 17))))
    np.testing.assert_allclose(tpr_for_fpr(curve, grid),
                               [_tpr_for_fpr_loop(curve, x) for x in grid])
    assert tpr_for_fpr(curve, [0.0])[0] == 0.5  # rises vertically from (0, 0) to (0, 0.5)


def test_avg005_pointwise_t_interval_matches_scipy():
    y, s, folds = _folds_data(k=7, seed=3)
    curves = fold_curves(y, s, folds)
    avg = vertical_average(curves, n_samples=11, level=0.9)
    j = 3  # FP rate 0.3
    tprs = np.array([_tpr_for_fpr_loop(c, avg.fpr[j]) for c in curves.values()])
    low, high = stats.t.interval(0.9, len(tprs) - 1, loc=tprs.mean(), scale=stats.sem(tprs))
    assert avg.tpr_mean[j] == pytest.approx(tprs.mean())
    assert avg.tpr_std[j] == pytest.approx(tprs.std(ddof=1))
    assert (avg.tpr_low[j], avg.tpr_high[j]) == pytest.approx((low, high))
    assert avg.critical_value == pytest.approx(stats.t.ppf(0.95, 6))
    assert (avg.tpr_low >= 0).all() and (avg.tpr_high <= 1).all()


def test_avg006_threshold_average_equals_direct_counts():
    y, s, folds = _folds_data(k=5, seed=4)
    curves = fold_curves(y, s, folds)
    avg = threshold_average(curves, n_samples=21, level=0.95)

    def direct(t):
        fp, tp = [], []
        for f in np.unique(folds):
            yf, sf = y[folds == f], s[folds == f]
            fp.append(np.sum((sf >= t) & ~yf) / np.sum(~yf))
            tp.append(np.sum((sf >= t) & yf) / np.sum(yf))
        return np.array(fp), np.array(tp)

    for j in (0, 5, 10, len(avg.threshold) - 1):
        fp, tp = direct(avg.threshold[j])
        assert avg.fpr_mean[j] == pytest.approx(fp.mean())
        assert avg.tpr_mean[j] == pytest.approx(tp.mean())
        half = stats.t.ppf(0.975, 4) * stats.sem(tp)
        assert avg.tpr_high[j] == pytest.approx(min(1.0, tp.mean() + half))
        half = stats.t.ppf(0.975, 4) * stats.sem(fp)
        assert avg.fpr_low[j] == pytest.approx(max(0.0, fp.mean() - half))
    assert (avg.fpr_mean[0], avg.tpr_mean[0]) == (0.0, 0.0)
    assert (avg.fpr_mean[-1], avg.tpr_mean[-1]) == (1.0, 1.0)
    assert avg.threshold[-1] == s.min() and avg.threshold[1] == s.max()
    # Thresholds between and beyond the scores: "positive iff score >= t".
    for t in (0.4567, 0.5, s.max() + 1, s.min() - 1, 0.123):
        fp, tp = direct(t)
        points = [roc_point_at_threshold(curves[str(f)], t) for f in np.unique(folds)]
        np.testing.assert_allclose([p[0] for p in points], fp)
        np.testing.assert_allclose([p[1] for p in points], tp)


def test_avg007_score_scale_warning():
    rng = np.random.default_rng(0)
    y = np.arange(200) % 3 == 0
    prob = np.clip(0.5 + 0.3 * (y - 0.4) + rng.normal(0, 0.15, 200), 0.001, 0.999)
    margin = (prob - 0.5) * 100  # [-50, 50]
    big = 100 + prob * 900  # [100, 1000]
    c_prob = roc_curve(y, prob)
    for other in (margin, big):
        with pytest.warns(ScoreScaleWarning, match="incommensurate"):
            avg = threshold_average({"nb": c_prob, "svm": roc_curve(y, other)})
        assert avg.warning is not None and "'nb'" in avg.warning and "'svm'" in avg.warning
    # Two folds of one model plus a different model class: flagged too.
    half = np.arange(200) < 100
    mixed = [roc_curve(y[half], prob[half]), roc_curve(y[~half], prob[~half]),
             roc_curve(y, margin)]
    assert check_score_scales(mixed) is not None
    assert check_score_scales(mixed[:2]) is None
    # Folds of one model: no warning.
    yf, sf, folds = _folds_data(k=10, n=300, seed=5)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ScoreScaleWarning)
        avg = threshold_average(fold_curves(yf, sf, folds))
    assert avg.warning is None
    assert check_score_scales(fold_curves(yf, sf, folds)) is None
    # Vertical averaging does not depend on scores and never warns.
    with warnings.catch_warnings():
        warnings.simplefilter("error", ScoreScaleWarning)
        vertical_average([c_prob, roc_curve(y, big)])


def test_avg008_simultaneous_band_contains_pointwise_and_is_deterministic():
    y, s, folds = _folds_data(k=10, n=600, seed=6)
    curves = fold_curves(y, s, folds)
    point = vertical_average(curves)
    sim = simultaneous_band(curves, n_boot=500, seed=7)
    assert sim.band == "simultaneous" and point.band == "pointwise"
    np.testing.assert_array_equal(sim.tpr_mean, point.tpr_mean)
    assert (sim.tpr_low <= point.tpr_low).all() and (sim.tpr_high >= point.tpr_high).all()
    assert sim.critical_value >= point.critical_value
    assert (sim.tpr_high - sim.tpr_low).sum() > (point.tpr_high - point.tpr_low).sum()
    again = simultaneous_band(curves, n_boot=500, seed=7)
    np.testing.assert_array_equal(sim.tpr_low, again.tpr_low)
    np.testing.assert_array_equal(sim.tpr_high, again.tpr_high)
    short = vertical_average(curves, band="simultaneous", n_boot=500, seed=7)
    np.testing.assert_array_equal(short.tpr_high, sim.tpr_high)
    assert (sim.tpr_low >= 0).all() and (sim.tpr_high <= 1).all()


def test_avg009_pooled_curve_is_roc_of_all_rows():
    y, s, folds = _folds_data(k=5, seed=8)
    w = np.random.default_rng(8).uniform(0.5, 2, y.size)
    for weights in (None, w):
        pooled = pooled_curve(y, s, weights=weights)
        direct = roc_curve(np.concatenate([y[folds == f] for f in range(5)]),
                           np.concatenate([s[folds == f] for f in range(5)]),
                           weights=None if weights is None else
                           np.concatenate([weights[folds == f] for f in range(5)]))
        for name in ("fpr", "tpr", "thresholds"):
            np.testing.assert_allclose(getattr(pooled, name), getattr(direct, name))
    via = average_by_fold(y, s, folds, method="pooled")
    np.testing.assert_array_equal(via.tpr, pooled_curve(y, s).tpr)


def test_avg010_fold_curves_split_rows_and_name_bad_fold():
    y, s, folds = _folds_data(k=4, seed=9)
    labels = np.array(["b", "a", "d", "c"])[folds]
    w = np.random.default_rng(9).uniform(0.5, 2, y.size)
    curves = fold_curves(y, s, labels, weights=w)
    assert list(curves) == sorted(set(labels.tolist()))  # natural order, not first seen
    numbered = fold_curves(y, s, np.array([10, 2, 1, 3])[folds], weights=w)
    assert list(numbered) == ["1", "2", "3", "10"]  # numbers by value
    for name, c in curves.items():
        m = labels == name
        ref = roc_curve(y[m], s[m], weights=w[m])
        np.testing.assert_array_equal(c.tpr, ref.tpr)
        np.testing.assert_array_equal(c.thresholds, ref.thresholds)
        assert c.n_pos == pytest.approx(ref.n_pos)
    bad = labels.copy()
    bad[~y] = np.where(bad[~y] == "c", "a", bad[~y])  # fold "c" keeps only positives
    with pytest.raises(ValueError, match="fold 'c'"):
        fold_curves(y, s, bad)
    with pytest.raises(ValueError, match="differ in length"):
        fold_curves(y, s, labels[:-1])


def test_avg011_single_curve_collapses_and_inputs_checked():
    y, s, folds = _folds_data(k=3, seed=10)
    one = fold_curves(y, s, folds)["0"]
    v = vertical_average([one], n_samples=11)
    np.testing.assert_allclose(v.tpr_mean, tpr_for_fpr(one, v.fpr))
    assert np.isnan(v.critical_value) and v.n_curves == 1
    np.testing.assert_array_equal(v.tpr_low, v.tpr_high)
    t = threshold_average([one], n_samples=5)
    np.testing.assert_array_equal(t.fpr_low, t.fpr_high)
    with pytest.raises(ValueError):
        vertical_average([])
    with pytest.raises(ValueError):
        vertical_average([one], level=1.5)
    with pytest.raises(ValueError):
        vertical_average([one], fpr_grid=[0.5, 1.5])
    with pytest.raises(ValueError):
        threshold_average([one], n_samples=1)
    with pytest.raises(ValueError):
        average_by_fold(y, s, folds, method="median")


def test_avg012_average_by_fold_dispatches():
    y, s, folds = _folds_data(k=5, seed=11)
    curves = fold_curves(y, s, folds)
    v = average_by_fold(y, s, folds, method="vertical", n_samples=21)
    np.testing.assert_array_equal(v.tpr_mean, vertical_average(curves, n_samples=21).tpr_mean)
    t = average_by_fold(y, s, folds, method="threshold", n_samples=21)
    np.testing.assert_array_equal(t.fpr_mean, threshold_average(curves, n_samples=21).fpr_mean)


def test_avg013_simultaneous_band_floor_and_bootstrap_quantile():
    # With 3 folds every resample's studentized deviation is at most 2 < t_{0.975, 2}: the
    # bootstrap quantile is floored at the pointwise critical value, so the bands coincide.
    y, s, folds = _folds_data(k=3, seed=12)
    curves = fold_curves(y, s, folds)
    sim = simultaneous_band(curves, n_boot=200)
    point = vertical_average(curves)
    assert sim.critical_value == pytest.approx(stats.t.ppf(0.975, 2))
    np.testing.assert_allclose(sim.tpr_low, point.tpr_low)
    # With 10 folds the sup over the grid exceeds the pointwise quantile: an independent
    # bootstrap (other seed, more resamples) agrees on the critical value within noise.
    y, s, folds = _folds_data(k=10, n=600, seed=6)
    curves = fold_curves(y, s, folds)
    sim = simultaneous_band(curves, n_samples=51, n_boot=400, seed=1)
    grid = np.linspace(0, 1, 51)
    tprs = np.array([[_tpr_for_fpr_loop(c, x) for x in grid] for c in curves.values()])
    mean, se = tprs.mean(0), tprs.std(0, ddof=1) / np.sqrt(10)
    rng = np.random.default_rng(123)
    sups = []
    for _ in range(2000):
        b = tprs[rng.integers(0, 10, 10)].mean(0)
        ok = se > 1e-12
        sups.append(np.max(np.abs(b - mean)[ok] / se[ok]))
    assert sim.critical_value > stats.t.ppf(0.975, 9)
    assert sim.critical_value == pytest.approx(np.quantile(sups, 0.95), rel=0.1)
    half = sim.critical_value * se
    np.testing.assert_allclose(sim.tpr_high, np.clip(mean + half, 0, 1), atol=1e-12)


def _assert_same_curve(a: RocCurve, b: RocCurve):
    for field in ("fpr", "tpr", "thresholds"):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
    assert (a.n_pos, a.n_neg) == (b.n_pos, b.n_neg)


@pytest.mark.parametrize("weighted", [False, True])
def test_avg014_pos_label_string_labels_equal_boolean_labels(weighted):
    rng = np.random.default_rng(14)
    n = 400
    y = rng.random(n) < 0.4
    s = np.round(rng.normal(y * 1.0, 1.0), 1)
    folds = rng.integers(0, 4, n)
    w = rng.uniform(0.5, 2.0, n) if weighted else None
    text = np.where(y, "churn", "stay")  # not a known encoding
    expected = fold_curves(y, s, folds, weights=w)
    got = fold_curves(text, s, folds, weights=w, pos_label="churn")
    assert list(got) == list(expected)
    for name in expected:
        _assert_same_curve(got[name], expected[name])
    _assert_same_curve(pooled_curve(text, s, weights=w, pos_label="Churn"),
                       pooled_curve(y, s, weights=w))
    _assert_same_curve(average_by_fold(text, s, folds, method="pooled", weights=w,
                                       pos_label="churn"),
                       average_by_fold(y, s, folds, method="pooled", weights=w))
    for method in ("vertical", "threshold"):
        a = average_by_fold(text, s, folds, method=method, weights=w, pos_label="churn")
        b = average_by_fold(y, s, folds, method=method, weights=w)
        np.testing.assert_array_equal(a.tpr_mean, b.tpr_mean)
    for call in (lambda: fold_curves(text, s, folds, weights=w),
                 lambda: pooled_curve(text, s, weights=w),
                 lambda: average_by_fold(text, s, folds, weights=w)):
        with pytest.raises(ValueError, match="pos_label"):
            call()


def test_avg015_pos_label_decoded_over_all_rows_not_per_fold():
    # A fold holding only "stay" rows is named as one-class, not misread as the positive one.
    y = np.array(["churn", "stay", "stay", "stay", "churn", "stay"])
    s = np.array([0.9, 0.2, 0.4, 0.3, 0.8, 0.1])
    folds = np.array(["a", "a", "b", "b", "a", "a"])
    with pytest.raises(ValueError, match="fold 'b'.*no positive"):
        fold_curves(y, s, folds, pos_label="churn")
