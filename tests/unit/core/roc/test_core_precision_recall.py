"""Precision-recall under class skew: counts, scikit-learn, Davis-Goadrich, PRG."""

from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy.integrate import quad
from sklearn.metrics import average_precision_score
from sklearn.metrics import precision_recall_curve as sk_precision_recall_curve

from roc_dash.core.roc.curves import roc_curve
from roc_dash.core.roc.pr_interpolation import (
    achievable_pr_curve,
    interpolate_pr,
    interpolated_precision,
)
from roc_dash.core.roc.precision_recall import (
    PrCurve,
    average_precision,
    average_precision_from_curve,
    baseline_precision,
    iso_f1_curves,
    pr_auc_interpolated,
    pr_curve,
    precision_recall_curve,
)
from roc_dash.core.roc.precision_recall_gain import PrgCurve, prg_auc, prg_curve


def _data(seed, n=300, *, levels=25, weighted=False, zero_weights=False, separation=1.0):
    """Labels, tied scores (rounded to ``levels`` values) and optional weights."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    s = np.round((rng.normal(size=n) + separation * y) * levels / 6) / levels
    w = None
    if weighted:
        w = rng.gamma(2.0, 1.0, n)
        if zero_weights:
            w[rng.random(n) < 0.15] = 0.0
    return y, s, w


def _direct_counts(y, s, w, thresholds):
    """(TP, FP) of "positive iff score >= t" for every t, straight from the rows."""
    w = np.ones(s.size) if w is None else w
    called = s[None, :] >= thresholds[:, None]
    return (called & y).astype(float) @ w, (called & ~y).astype(float) @ w


def _pairs(recall, precision):
    pts = np.round(np.column_stack((recall, precision)), 12)
    return np.unique(pts, axis=0)


def _upper_hull(points):
    """ROC convex hull (monotone chain over the upper side), as a bare fpr/tpr object."""
    hull = []
    for p in sorted(set(points) | {(0.0, 0.0), (1.0, 1.0)}):
        while len(hull) >= 2:
            (x1, y1), (x2, y2) = hull[-2], hull[-1]
            if (x2 - x1) * (p[1] - y1) - (y2 - y1) * (p[0] - x1) >= 0:
                hull.pop()
            else:
                break
        hull.append(p)
    fpr, tpr = (np.array(v) for v in zip(*hull, strict=True))
    return SimpleNamespace(fpr=fpr, tpr=tpr)


# ---------------------------------------------------------------------------------------------
# Vertices: counts and scikit-learn
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("weighted", [False, True])
def test_pr001_vertices_equal_counts_and_sklearn(seed, weighted):
    y, s, w = _data(seed, weighted=weighted, zero_weights=weighted)
    curve = roc_curve(y, s, weights=w)
    pr = precision_recall_curve(curve)
    assert isinstance(pr, PrCurve) and len(pr) == len(curve)
    np.testing.assert_array_equal(pr.thresholds, curve.thresholds)
    np.testing.assert_allclose(pr.fpr, curve.fpr, rtol=0, atol=1e-15)
    # Every vertex but the origin, against counts taken from the rows.
    tp, fp = _direct_counts(y, s, w, curve.thresholds[1:])
    defined = tp + fp > 0
    np.testing.assert_allclose(pr.recall[1:], tp / tp[-1], rtol=0, atol=1e-12)
    np.testing.assert_allclose(pr.precision[1:][defined], tp[defined] / (tp + fp)[defined],
                               rtol=0, atol=1e-12)
    assert np.all(pr.precision[1:][~defined] == 1.0)  # zero-weight rows on top
    assert pr.recall[0] == 0.0 and pr.precision[0] == 1.0  # sklearn's convention
    assert pr.prevalence == pytest.approx(curve.n_pos / (curve.n_pos + curve.n_neg))
    # scikit-learn: reversed order, zero-weight rows dropped, (0, 1) appended -> as sets.
    sk_p, sk_r, _ = sk_precision_recall_curve(y, s, sample_weight=w)
    np.testing.assert_array_equal(_pairs(pr.recall, pr.precision), _pairs(sk_r, sk_p))
    # the convenience wrapper is the same thing
    again = pr_curve(y, s, weights=w)
    np.testing.assert_array_equal(again.precision, pr.precision)
    with np.errstate(invalid="ignore"):
        f1 = 2 * pr.precision * pr.recall / (pr.precision + pr.recall)
    np.testing.assert_allclose(pr.f1[1:], np.nan_to_num(f1[1:]), atol=1e-15)


# ---------------------------------------------------------------------------------------------
# Average precision
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("levels", [2, 5, 40])
def test_pr002_average_precision_matches_sklearn(seed, levels):
    y, s, w = _data(seed, n=400, levels=levels, weighted=True, zero_weights=seed % 2 == 0)
    assert average_precision(y, s) == pytest.approx(average_precision_score(y, s), abs=1e-12)
    assert average_precision(y, s, weights=w) == pytest.approx(
        average_precision_score(y, s, sample_weight=w), abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 6), st.integers(0, 3)),
                min_size=2, max_size=60))
def test_pr003_average_precision_hypothesis(rows):
    y = np.array([r[0] for r in rows])
    s = np.array([r[1] for r in rows], dtype=float)
    w = np.array([r[2] for r in rows], dtype=float)
    assume(w[y].sum() > 0 and w[~y].sum() > 0)
    assert average_precision(y, s, weights=w) == pytest.approx(
        average_precision_score(y, s, sample_weight=w), abs=1e-12)
    assume(y.any() and not y.all())
    assert average_precision(y, s) == pytest.approx(average_precision_score(y, s), abs=1e-12)


# ---------------------------------------------------------------------------------------------
# Skew
# ---------------------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 8), st.floats(0.1, 5.0)),
                min_size=2, max_size=50))
def test_pr004_own_prevalence_equals_direct_pr(rows):
    y = np.array([r[0] for r in rows])
    assume(y.any() and not y.all())
    s = np.array([r[1] for r in rows], dtype=float)
    w = np.array([r[2] for r in rows])
    curve = roc_curve(y, s, weights=w)
    direct = precision_recall_curve(curve)
    pi = w[y].sum() / w.sum()
    skewed = precision_recall_curve(curve, prevalence=pi)
    assert skewed.prevalence == pi
    np.testing.assert_allclose(skewed.recall, direct.recall)
    np.testing.assert_allclose(skewed.precision, direct.precision, rtol=1e-12, atol=1e-14)
    assert average_precision_from_curve(curve, prevalence=pi) == pytest.approx(
        average_precision_from_curve(curve), rel=1e-12)
    assert pr_auc_interpolated(curve, prevalence=pi) == pytest.approx(
        pr_auc_interpolated(curve), rel=1e-12)


@pytest.mark.parametrize("k", [2, 10, 50])
def test_pr005_replicated_negatives_equal_prevalence(k):
    # Fawcett (2004) figure 5: ten times the negatives leaves ROC alone, moves PR.
    y, s, _ = _data(7, n=200, levels=10)
    y_rep = np.concatenate([y] + [np.zeros((~y).sum(), dtype=bool)] * (k - 1))
    s_rep = np.concatenate([s] + [s[~y]] * (k - 1))
    p, n = y.sum(), (~y).sum()
    replicated = pr_curve(y_rep, s_rep)
    skewed = pr_curve(y, s, prevalence=p / (p + k * n))
    np.testing.assert_array_equal(replicated.recall, skewed.recall)
    np.testing.assert_allclose(replicated.precision, skewed.precision, rtol=1e-12)
    assert replicated.prevalence == pytest.approx(skewed.prevalence)
    # ... and is not the balanced-data curve
    assert np.abs(replicated.precision - pr_curve(y, s).precision).max() > 0.1
    curve = roc_curve(y, s)
    pi = p / (p + k * n)
    assert average_precision(y_rep, s_rep) == pytest.approx(
        average_precision_from_curve(curve, prevalence=pi), rel=1e-12)
    assert pr_auc_interpolated(roc_curve(y_rep, s_rep)) == pytest.approx(
        pr_auc_interpolated(curve, prevalence=pi), rel=1e-12)


# ---------------------------------------------------------------------------------------------
# Davis-Goadrich interpolation
# ---------------------------------------------------------------------------------------------


def _davis_goadrich_example():
    """P = 20, N = 2000 with ROC vertices (TP, FP) = (5, 5) and (10, 30)."""
    y = np.array([True] * 5 + [False] * 5 + [True] * 5 + [False] * 25
                 + [True] * 10 + [False] * 1970)
    s = np.array([0.9] * 10 + [0.8] * 30 + [0.1] * 1980)
    return roc_curve(y, s)


def test_pr006_davis_goadrich_classic_segment():
    curve = _davis_goadrich_example()
    np.testing.assert_allclose(curve.tp, [0, 5, 10, 20])
    np.testing.assert_allclose(curve.fp, [0, 5, 30, 2000])
    # Halfway in ROC space: TP = 7.5, FP = 17.5 -> recall 0.375, precision 7.5 / 25 = 0.3,
    # where the straight PR line from (0.25, 0.5) to (0.5, 0.25) would claim 0.375.
    assert interpolated_precision(curve, 0.375) == pytest.approx(0.3, abs=1e-15)
    # Davis & Goadrich's table: one more positive costs 5 more negatives.
    recalls = [0.25, 0.3, 0.35, 0.4, 0.45, 0.5]
    expected = [5 / 10, 6 / 16, 7 / 22, 8 / 28, 9 / 34, 10 / 40]
    np.testing.assert_allclose(interpolated_precision(curve, recalls), expected, rtol=1e-14)
    # The dense curve: every interior point of that segment is below the PR chord.
    dense = interpolate_pr(curve)
    on_seg = (dense.segment == 1) & (dense.fraction > 0)
    assert on_seg.sum() >= 3
    r, p = dense.recall[on_seg], dense.precision[on_seg]
    chord = 0.5 + (r - 0.25) * (0.25 - 0.5) / 0.25
    assert np.all(p < chord - 1e-3)
    tp, fp = 5 + 5 * dense.fraction[on_seg], 5 + 25 * dense.fraction[on_seg]
    np.testing.assert_allclose(p, tp / (tp + fp), rtol=1e-13)
    np.testing.assert_allclose(r, tp / 20, rtol=1e-13)
    # The segment from the origin has constant precision 1/2, which the curve starts with.
    assert (dense.recall[0], dense.precision[0]) == (0.0, 0.5)
    assert np.all(dense.precision[dense.recall <= 0.25] == 0.5)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("prevalence", [None, 0.01, 0.3, 0.9])
def test_pr007_interpolated_points_lie_on_roc_segments(seed, prevalence):
    y, s, w = _data(seed, n=250, levels=8, weighted=True)  # no zero weights: distinct vertices
    curve = roc_curve(y, s, weights=w)
    dense = interpolate_pr(curve, prevalence=prevalence, tol=1e-6)
    pi = curve.n_pos / (curve.n_pos + curve.n_neg) if prevalence is None else prevalence
    assert dense.prevalence == pytest.approx(pi)
    k, x = dense.segment, dense.fraction
    nxt = np.minimum(k + 1, len(curve) - 1)
    tpr = curve.tpr[k] + x * (curve.tpr[nxt] - curve.tpr[k])
    fpr = curve.fpr[k] + x * (curve.fpr[nxt] - curve.fpr[k])
    np.testing.assert_allclose(dense.recall, tpr, rtol=0, atol=1e-14)
    with np.errstate(invalid="ignore"):
        expected = pi * tpr / (pi * tpr + (1 - pi) * fpr)
    expected[0] = dense.precision[0]  # the origin's limit, checked below
    np.testing.assert_allclose(dense.precision, expected, rtol=1e-12)
    first = np.flatnonzero(curve.tp + curve.fp > 0)[0]
    assert dense.precision[0] == pytest.approx(
        precision_recall_curve(curve, prevalence=prevalence).precision[first], rel=1e-14)
    from_pr = interpolate_pr(precision_recall_curve(curve, prevalence=prevalence), tol=1e-6)
    np.testing.assert_allclose(from_pr.precision, dense.precision, rtol=1e-12)
    # every vertex is there, in order, and some curvature was resolved
    assert np.all(np.diff(dense.recall) >= 0)
    assert set(range(len(curve))) == set(k[x == 0].tolist())
    assert len(dense) > len(curve) + 5
    # interpolated_precision agrees with the dense points
    np.testing.assert_allclose(
        interpolated_precision(curve, dense.recall[1:], prevalence=prevalence),
        _max_at_recall(dense)[1:], rtol=1e-12)


def _max_at_recall(dense):
    """Highest precision among the points of equal recall, for every point."""
    _, inverse = np.unique(dense.recall, return_inverse=True)
    best = np.full(inverse.max() + 1, -np.inf)
    np.maximum.at(best, inverse, dense.precision)
    return best[inverse]


def test_pr008_output_size_is_capped():
    rng = np.random.default_rng(3)
    n = 6000
    y = rng.random(n) < 0.2
    s = rng.normal(size=n) + 0.8 * y
    curve = roc_curve(y, s)  # ~6000 vertices: more than the cap
    dense = interpolate_pr(curve, prevalence=0.01, max_points=4000)
    assert len(dense) == len(curve)  # the vertices are all kept, nothing is added
    s2 = np.round(s, 1)
    curve2 = roc_curve(y, s2)
    dense2 = interpolate_pr(curve2, prevalence=0.01, max_points=300, points_per_segment=1000,
                            tol=1e-12)
    assert len(curve2) < len(dense2) <= 300
    few = interpolate_pr(curve2, points_per_segment=2, max_points=10**6, tol=1e-12)
    assert len(few) <= 3 * len(curve2)
    # the top-ranked instance is negative: PR starts at (0, 0), the vertex array at (0, 1)
    y3 = np.array([False, True, True, False])
    c3 = roc_curve(y3, [4.0, 3.0, 2.0, 1.0])
    assert (interpolate_pr(c3).recall[0], interpolate_pr(c3).precision[0]) == (0.0, 0.0)
    assert precision_recall_curve(c3).precision[0] == 1.0


# ---------------------------------------------------------------------------------------------
# Area under the interpolated curve
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("prevalence", [None, 0.002, 0.2, 0.7])
def test_pr009_closed_form_area_equals_numeric_integration(seed, prevalence):
    y, s, w = _data(seed, n=200, levels=6 + seed, weighted=seed % 2 == 1)
    curve = roc_curve(y, s, weights=w)
    exact = pr_auc_interpolated(curve, prevalence=prevalence)
    dense = interpolate_pr(curve, prevalence=prevalence, tol=1e-9, points_per_segment=20000,
                           max_points=10**6)
    assert exact == pytest.approx(np.trapezoid(dense.precision, dense.recall), abs=1e-6)
    # and segment by segment with quadrature of the counts formula
    pi = curve.n_pos / (curve.n_pos + curve.n_neg) if prevalence is None else prevalence
    total = 0.0
    for k in range(len(curve) - 1):
        t0, t1, f0, f1 = curve.tpr[k], curve.tpr[k + 1], curve.fpr[k], curve.fpr[k + 1]
        if t1 == t0:
            continue

        def prec(r, t0=t0, t1=t1, f0=f0, f1=f1):
            f = f0 + (r - t0) / (t1 - t0) * (f1 - f0)
            return pi * r / (pi * r + (1 - pi) * f)

        total += quad(prec, t0, t1, epsabs=1e-13, epsrel=1e-12)[0]
    assert exact == pytest.approx(total, abs=1e-9)
    # Linear interpolation in PR space is not the same number.
    pr = precision_recall_curve(curve, prevalence=prevalence)
    linear = pr.recall[1] * pr.precision[1] + np.trapezoid(pr.precision[1:], pr.recall[1:])
    assert abs(linear - exact) > 1e-3 * exact


@pytest.mark.parametrize("prevalence", [None, 0.01, 0.5])
def test_pr010_area_of_perfect_and_random_classifiers(prevalence):
    y = np.array([True] * 30 + [False] * 70)
    perfect = roc_curve(y, np.where(y, 1.0, 0.0))
    assert pr_auc_interpolated(perfect, prevalence=prevalence) == 1.0
    pi = 0.3 if prevalence is None else prevalence
    constant = roc_curve(y, np.zeros(100))
    assert pr_auc_interpolated(constant, prevalence=prevalence) == pytest.approx(pi, rel=1e-14)
    rng = np.random.default_rng(11)
    y_big = rng.random(40000) < 0.3
    noise = roc_curve(y_big, rng.random(40000))
    pi_big = y_big.mean() if prevalence is None else prevalence
    # A random ranking: the curve hugs the baseline except at the very start.
    assert pr_auc_interpolated(noise, prevalence=prevalence) == pytest.approx(pi_big, abs=0.02)
    assert baseline_precision(pi) == pi


# ---------------------------------------------------------------------------------------------
# Achievable PR curve
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("prevalence", [0.05, 0.35, 0.8])
def test_pr011_achievable_curve_dominates_every_model(prevalence):
    curves = [roc_curve(*_data(seed, n=150, levels=12, separation=0.5 + seed)[:2])
              for seed in range(3)]
    points = {(float(f), float(t)) for c in curves for f, t in zip(c.fpr, c.tpr, strict=True)}
    hull = _upper_hull(points)
    achievable = achievable_pr_curve(hull, prevalence=prevalence)
    assert achievable.recall[0] == 0.0 and achievable.recall[-1] == 1.0
    assert np.isnan(precision_recall_curve(hull, prevalence=prevalence).thresholds).all()
    strictly_better = 0
    for c in curves:
        model = interpolate_pr(c, prevalence=prevalence)
        best = interpolated_precision(hull, model.recall, prevalence=prevalence)
        assert np.all(best >= model.precision - 1e-12)
        strictly_better += np.sum(best > model.precision + 1e-3)
        # and the hull's area is at least the model's
        assert pr_auc_interpolated(hull, prevalence=prevalence) >= pr_auc_interpolated(
            c, prevalence=prevalence) - 1e-12
    assert strictly_better > 0
    # A hull carries no class totals: the prevalence must be given.
    with pytest.raises(ValueError, match="prevalence"):
        achievable_pr_curve(hull, prevalence=None)


# ---------------------------------------------------------------------------------------------
# Iso-F1, PRG, validation
# ---------------------------------------------------------------------------------------------


def test_pr012_iso_f1_curves():
    curves = iso_f1_curves((0.2, 0.5, 0.9), n=101)
    assert [c.level for c in curves] == [0.2, 0.5, 0.9]
    for c in curves:
        f = c.level
        assert c.recall.size == c.precision.size == 101
        np.testing.assert_allclose(2 * c.recall * c.precision / (c.recall + c.precision), f,
                                   rtol=1e-13)
        assert c.recall[0] == pytest.approx(f / (2 - f)) and c.precision[0] == 1.0
        assert c.recall[-1] == 1.0 and c.precision[-1] == pytest.approx(f / (2 - f))
        assert np.all(np.diff(c.recall) > 0) and np.all(np.diff(c.precision) < 0)
        # symmetric in recall and precision
        np.testing.assert_allclose(np.sort(c.recall), np.sort(c.precision), rtol=1e-12)
    assert len(iso_f1_curves()) == 4


def test_pr013_prg_known_points():
    y = np.array([True] * 25 + [False] * 75)  # pi = 1/4
    perfect = prg_curve(roc_curve(y, np.where(y, 1.0, 0.0)))
    assert isinstance(perfect, PrgCurve) and perfect.prevalence == 0.25
    # crossing at recall gain 0 (recall = pi) on the vertical segment, precision 1
    np.testing.assert_allclose(perfect.recall_gain, [0, 1, 1])
    np.testing.assert_allclose(perfect.precision_gain, [1, 1, 0])  # prec = rec = 1 -> 1, 1
    assert perfect.is_crossing.tolist() == [True, False, False]
    assert perfect.precision[-1] == 0.25  # always positive: precision pi -> gain 0
    assert prg_auc(perfect) == 1.0
    diagonal = prg_curve(roc_curve(y, np.zeros(100)))
    np.testing.assert_allclose(diagonal.precision_gain, 0.0, atol=1e-15)
    assert prg_auc(diagonal) == pytest.approx(0.0, abs=1e-15)
    # one vertex by hand: TP = 20, FP = 15 -> prec = 4/7, rec = 0.8
    s = np.concatenate((np.r_[np.ones(20), np.zeros(5)], np.r_[np.ones(15), np.zeros(60)]))
    g = prg_curve(roc_curve(y, s))
    i = np.flatnonzero(~g.is_crossing)[0]
    prec, rec = 4 / 7, 0.8
    assert g.precision[i] == pytest.approx(prec) and g.recall[i] == pytest.approx(rec)
    assert g.precision_gain[i] == pytest.approx((prec - 0.25) / (0.75 * prec))
    assert g.recall_gain[i] == pytest.approx((rec - 0.25) / (0.75 * rec))


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("prevalence", [None, 0.1, 0.6])
def test_pr014_prg_curve_against_gain_formulas_and_dense_area(seed, prevalence):
    y, s, w = _data(seed, n=200, levels=10, weighted=True, separation=0.4 + seed)
    curve = roc_curve(y, s, weights=w)
    g = prg_curve(curve, prevalence=prevalence)
    pi = g.prevalence
    np.testing.assert_allclose(g.precision_gain, (g.precision - pi) / ((1 - pi) * g.precision),
                               atol=1e-12)
    np.testing.assert_allclose(g.recall_gain, (g.recall - pi) / ((1 - pi) * g.recall),
                               atol=1e-12)
    assert g.recall_gain[0] == 0.0 and g.recall_gain[-1] == 1.0
    assert np.all(np.diff(g.recall_gain) >= -1e-15) and np.all(g.recall_gain >= 0)
    assert np.all(g.precision_gain[g.is_crossing][1:] == 0.0)
    np.testing.assert_array_equal(g.in_unit_square, g.precision_gain >= 0)
    assert np.isnan(g.thresholds[g.is_crossing]).all()
    pr = precision_recall_curve(curve, prevalence=prevalence)
    vertex = ~g.is_crossing
    np.testing.assert_allclose(g.precision[vertex], pr.precision[pr.recall >= pi], rtol=1e-13)
    # AUPRG by brute force: sample every ROC segment densely, map to PRG, integrate over
    # recall gain >= 0 (a straight ROC segment is a straight PRG segment, so this is exact).
    x = np.linspace(0, 1, 201)
    tpr = (curve.tpr[:-1, None] + x * np.diff(curve.tpr)[:, None]).ravel()
    fpr = (curve.fpr[:-1, None] + x * np.diff(curve.fpr)[:, None]).ravel()
    j = np.searchsorted(tpr, pi)  # first sample at recall >= pi; add the point at pi
    f_pi = fpr[j - 1] + (pi - tpr[j - 1]) / (tpr[j] - tpr[j - 1]) * (fpr[j] - fpr[j - 1])
    tpr, fpr = np.r_[pi, tpr[j:]], np.r_[f_pi, fpr[j:]]
    prec = pi * tpr / (pi * tpr + (1 - pi) * fpr)
    rg = (tpr - pi) / ((1 - pi) * tpr)
    pg = (prec - pi) / ((1 - pi) * prec)
    brute = np.trapezoid(pg, rg)
    assert prg_auc(curve, prevalence=prevalence) == pytest.approx(brute, abs=1e-6)
    assert prg_auc(g) == prg_auc(curve, prevalence=prevalence)


def test_pr015_validation():
    curve = roc_curve([True, False, True], [0.9, 0.5, 0.1])
    for bad in (0.0, 1.0, -0.1, float("nan")):
        with pytest.raises(ValueError, match="prevalence"):
            precision_recall_curve(curve, prevalence=bad)
        with pytest.raises(ValueError, match="prevalence"):
            baseline_precision(bad)
    with pytest.raises(TypeError):
        interpolate_pr(object(), prevalence=0.5)
    bad_order = SimpleNamespace(fpr=np.array([0.0, 1.0, 0.5]), tpr=np.array([0.0, 1.0, 1.0]))
    with pytest.raises(ValueError, match="non-decreasing"):
        pr_auc_interpolated(bad_order, prevalence=0.5)
    with pytest.raises(ValueError, match="prevalence differs"):
        prg_auc(prg_curve(curve), prevalence=0.5)
    with pytest.raises(ValueError):
        iso_f1_curves((0.0,))


def test_pr016_prg_crossings_by_hand():
    # pi = 1/2; ROC vertices (0, 0), (0.2, 0.6), (0.8, 0.7), (1, 1).
    y = np.array([True] * 6 + [False] * 2 + [True] + [False] * 6 + [True] * 3 + [False] * 2)
    s = np.array([3.0] * 8 + [2.0] * 7 + [1.0] * 5)
    g = prg_curve(roc_curve(y, s))
    # Recall gain 0 where TPR = 1/2 on the first segment (FPR = 1/6): precision gain 2/3.
    # Precision gain 0 where FPR = TPR = 0.68 on the second one: recall gain 0.18 / 0.34.
    np.testing.assert_allclose(g.recall_gain, [0, 1 / 3, 9 / 17, 4 / 7, 1], rtol=1e-14)
    np.testing.assert_allclose(g.precision_gain, [2 / 3, 2 / 3, 0, -1 / 7, 0], atol=1e-15)
    assert g.is_crossing.tolist() == [True, False, True, False, False]
    assert g.in_unit_square.tolist() == [True, True, True, False, True]
    np.testing.assert_allclose(g.recall, [0.5, 0.6, 0.68, 0.7, 1.0], rtol=1e-14)
    np.testing.assert_allclose(g.precision, [0.75, 0.75, 0.5, 7 / 15, 0.5], rtol=1e-14)
    np.testing.assert_array_equal(np.isnan(g.thresholds), g.is_crossing)
    # AUPRG: trapezoids, the part below precision gain 0 counting negatively.
    expected = 2 / 9 + 10 / 153 - 5 / 1666 - 3 / 98
    assert prg_auc(g) == pytest.approx(expected, rel=1e-13)


def test_pr017_segment_mean_weight_series_and_formula_agree():
    from roc_dash.core.roc.precision_recall import _mean_weight

    def direct(u):
        return ((1 + u) * np.log1p(u) - u) / u**2

    # Across the switch from the Taylor series to the closed form, and at both ends.
    u = np.array([1e-3, 3e-3, 9.99e-3, 1.001e-2, 0.1, 1.0, 1e3])
    np.testing.assert_allclose(_mean_weight(u), direct(u), rtol=1e-11)
    assert _mean_weight(np.array([0.0]))[0] == 0.5  # the trapezoid
    assert _mean_weight(np.array([1e300]))[0] < 1e-297  # D_A -> 0: the end point's value


@pytest.mark.parametrize("weighted", [False, True])
def test_pr018_pos_label_string_labels_equal_boolean_labels(weighted):
    rng = np.random.default_rng(18)
    y = rng.random(300) < 0.3
    s = np.round(rng.normal(y * 1.0, 1.0), 1)
    w = rng.uniform(0.5, 2.0, y.size) if weighted else None
    text = np.where(y, "spam", "ham")
    expected = pr_curve(y, s, weights=w)
    got = pr_curve(text, s, weights=w, pos_label="spam")
    for field in ("recall", "precision", "thresholds"):
        np.testing.assert_array_equal(getattr(got, field), getattr(expected, field))
    got = pr_curve(list(text), s, weights=w, pos_label="SPAM", prevalence=0.1)
    np.testing.assert_array_equal(got.precision,
                                  pr_curve(y, s, weights=w, prevalence=0.1).precision)
    assert average_precision(text, s, weights=w, pos_label="spam") == \
        average_precision(y, s, weights=w)
    # pos_label naming the other class: the other class's average precision.
    assert average_precision(text, -s, weights=w, pos_label="ham") == \
        average_precision(~y, -s, weights=w)
    for fn in (pr_curve, average_precision):
        with pytest.raises(ValueError, match="pos_label"):
            fn(text, s, weights=w)
