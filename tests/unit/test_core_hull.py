"""ROC convex hull and iso-performance: the papers' slope examples, brute-force oracles."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roc_dash.core import roc_curve
from roc_dash.core.hull import (
    convex_hull,
    expected_cost,
    hull_of_curves,
    hull_of_points,
    interpolate_on_segment,
    iso_performance_slope,
    normalized_expected_cost,
    optimal_point,
    pc_pos,
    pc_pos_from_slope,
)

# Rates of real ROC points are multiples of 1/N; avoid subnormal floats whose products
# underflow to zero.
RATE = st.integers(0, 10_000).map(lambda k: k / 10_000)


class Pts:
    def __init__(self, pts, thresholds=None):
        self.fpr = np.array([p[0] for p in pts], dtype=float)
        self.tpr = np.array([p[1] for p in pts], dtype=float)
        self.thresholds = (np.arange(len(pts), 0, -1, dtype=float) if thresholds is None
                           else np.asarray(thresholds, dtype=float))


# Shaped like Fawcett (2006) figure 7: A is best at the conservative end, C at the liberal
# end, B and D are dominated by the hull of A and C.
A = Pts([(0, 0), (0.02, 0.4), (0.1, 0.6), (0.3, 0.75), (0.6, 0.85), (1, 1)])
B = Pts([(0, 0), (0.1, 0.45), (0.3, 0.7), (0.6, 0.88), (1, 1)])
C = Pts([(0, 0), (0.1, 0.3), (0.3, 0.9), (0.5, 0.97), (1, 1)])
D = Pts([(0, 0), (0.2, 0.2), (0.5, 0.6), (1, 1)])


def _brute_best(curves, slope):
    best = None
    for name, c in curves.items():
        for f, t in zip(c.fpr, c.tpr, strict=True):
            v = t - slope * f
            if best is None or v > best[0] + 1e-12:
                best = (v, name, f, t)
    return best


def test_hul001_journal_figure7_slope_10_selects_A_and_tenth_selects_C():
    curves = {"A": A, "B": B, "C": C, "D": D}
    hull = hull_of_curves(curves)
    assert set(hull.models[1:-1]) == {"A", "C"}  # B and D never optimal
    # m = 10: negatives ten times the positives, equal error costs.
    m = iso_performance_slope(cost_fp=1, cost_fn=1, prior_pos=1 / 11)
    assert m == pytest.approx(10)
    opt = optimal_point(hull, m)
    assert opt.model == "A" and (opt.fpr, opt.tpr) == (0.02, 0.4)
    # m = 1/10: balanced classes, a false negative ten times as costly.
    m = iso_performance_slope(cost_fp=1, cost_fn=10, prior_pos=0.5)
    assert m == pytest.approx(0.1)
    opt = optimal_point(hull, m)
    assert opt.model == "C" and (opt.fpr, opt.tpr) == (0.5, 0.97)
    for slope in (10, 0.1):
        v, name, f, t = _brute_best(curves, slope)
        o = optimal_point(hull, slope)
        assert (o.model, o.fpr, o.tpr) == (name, f, t)


def test_hul002_flach_slopes():
    # twice as many negatives as positives, equal costs -> slope 2
    assert iso_performance_slope(1, 1, 1 / 3) == pytest.approx(2)
    # three times as many positives as negatives -> slope 1/3
    assert iso_performance_slope(1, 1, 3 / 4) == pytest.approx(1 / 3)
    # twice as many negatives, false negatives 10 times as expensive -> slope 1/5
    assert iso_performance_slope(cost_fp=1, cost_fn=10, prior_pos=1 / 3) == pytest.approx(1 / 5)
    # and the three slopes select progressively more liberal hull vertices
    hull = hull_of_curves({"A": A, "C": C})
    picks = [optimal_point(hull, m) for m in (2, 1 / 3, 1 / 5)]
    assert [p.fpr for p in picks] == sorted(p.fpr for p in picks)
    for m, p in zip((2, 1 / 3, 1 / 5), picks, strict=True):
        assert p.tpr - m * p.fpr == pytest.approx(_brute_best({"A": A, "C": C}, m)[0])


def test_hul003_segment_of_exact_slope_is_reported():
    hull = hull_of_points([0.2, 0.6], [0.6, 0.8])  # segment slope 0.5 between the two
    opt = optimal_point(hull, 0.5)
    assert opt.on_segment and (opt.fpr, opt.tpr) == (0.2, 0.6) and opt.index_end == opt.index + 1
    assert interpolate_on_segment(hull, opt.index, 0.5) == pytest.approx((0.4, 0.7))
    assert not optimal_point(hull, 0.7).on_segment


def test_hul004_slope_and_pc_ranges_partition():
    hull = hull_of_curves({"A": A, "C": C})
    assert hull.slope_high[0] == np.inf and hull.slope_low[-1] == 0
    np.testing.assert_array_equal(hull.slope_low[:-1], hull.slope_high[1:])
    assert np.all(np.diff(hull.segment_slopes) < 0)  # strictly concave: no collinear vertex
    np.testing.assert_allclose(hull.pc_pos_high[:-1], hull.pc_pos_low[1:])
    assert hull.pc_pos_low[0] == 0 and hull.pc_pos_high[-1] == 1
    for k in range(len(hull)):
        lo, hi = hull.slope_low[k], hull.slope_high[k]
        mid = (lo + hi) / 2 if np.isfinite(hi) else lo + 10
        assert optimal_point(hull, mid).index == k


def test_hul005_pc_pos_is_one_over_one_plus_m():
    for cfp, cfn, p in [(1, 1, 0.5), (2, 7, 0.1), (5, 1, 0.9)]:
        m = iso_performance_slope(cfp, cfn, p)
        assert pc_pos(cfp, cfn, p) == pytest.approx(1 / (1 + m))
        assert pc_pos_from_slope(m) == pytest.approx(1 / (1 + m))


def test_hul006_expected_cost_and_normalised():
    cfp, cfn, p = 3.0, 5.0, 0.2
    ec = expected_cost(0.1, 0.7, cost_fp=cfp, cost_fn=cfn, prior_pos=p)
    assert ec == pytest.approx(p * 0.3 * cfn + (1 - p) * 0.1 * cfp)
    nec = normalized_expected_cost(0.1, 0.7, cost_fp=cfp, cost_fn=cfn, prior_pos=p)
    assert nec == pytest.approx(ec / (p * cfn + (1 - p) * cfp))
    pc = pc_pos(cfp, cfn, p)
    assert nec == pytest.approx(0.3 * pc + 0.1 * (1 - pc))


def test_hul007_hull_of_a_real_curve_keeps_thresholds():
    rng = np.random.default_rng(3)
    y = rng.random(500) < 0.4
    s = np.round(rng.normal(y * 1.2, 1), 2)
    curve = roc_curve(y, s)
    hull = convex_hull(curve, model="m")
    assert hull.fpr[0] == 0 and hull.tpr[0] == 0 and hull.fpr[-1] == 1 and hull.tpr[-1] == 1
    for f, t, thr in zip(hull.fpr, hull.tpr, hull.thresholds, strict=True):
        k = np.flatnonzero((curve.fpr == f) & (curve.tpr == t))
        assert k.size and curve.thresholds[k[0]] == thr
    assert set(hull.models) == {"m"}


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(RATE, RATE), min_size=1, max_size=60))
def test_hul008_hull_above_every_point_and_concave(points):
    x = np.array([p[0] for p in points])
    y = np.array([p[1] for p in points])
    hull = hull_of_points(x, y)
    assert np.all(np.diff(hull.fpr) >= 0) and np.all(np.diff(hull.tpr) >= 0)
    # concave: segment slopes non-increasing
    assert np.all(np.diff(hull.segment_slopes[np.isfinite(hull.segment_slopes)]) <= 1e-9)
    # above every point: the hull's value at each point's FPR is >= its TPR
    for xi, yi in zip(x, y, strict=True):
        top = np.interp(xi, hull.fpr, hull.tpr) if xi > 0 else hull.tpr[hull.fpr == 0].max()
        assert top >= yi - 1e-9
    # every hull vertex is one of the points or a trivial classifier
    pts = set(zip(x.tolist(), y.tolist(), strict=True)) | {(0.0, 0.0), (1.0, 1.0)}
    assert set(zip(hull.fpr.tolist(), hull.tpr.tolist(), strict=True)) <= pts
    # the optimum for any slope is the brute-force best point
    for m in (0.0, 0.3, 1.0, 4.0, 100.0):
        best = max(yy - m * xx for xx, yy in pts)
        o = optimal_point(hull, m)
        assert o.tpr - m * o.fpr == pytest.approx(best, abs=1e-9)


def test_hul009_bad_conditions():
    with pytest.raises(ValueError, match="prior"):
        iso_performance_slope(1, 1, 0.0)
    with pytest.raises(ValueError, match="costs"):
        iso_performance_slope(0, 1, 0.5)
    with pytest.raises(ValueError, match="unit square"):
        hull_of_points([1.5], [0.2])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(RATE, RATE), min_size=1, max_size=40))
def test_hul010_monotone_input_fast_path_equals_general(points):
    # A ROC-like monotone chain from (0, 0) takes a path without sorting; it must agree
    # with the general path (same points, shuffled).
    x = np.concatenate(([0.0], np.sort([p[0] for p in points])))
    y = np.concatenate(([0.0], np.sort([p[1] for p in points])))
    fast = hull_of_points(x, y)
    perm = np.random.default_rng(0).permutation(x.size)
    slow = hull_of_points(x[perm], y[perm])
    np.testing.assert_array_equal(fast.fpr, slow.fpr)
    np.testing.assert_array_equal(fast.tpr, slow.tpr)


def test_hul011_large_curve_blocked_path_equals_general():
    # More points than one block of the chain path: blocks are peeled separately.
    rng = np.random.default_rng(11)
    y = rng.random(300_000) < 0.3
    s = rng.normal(y * 1.0, 1)
    curve = roc_curve(y, s)
    fast = convex_hull(curve)
    perm = rng.permutation(len(curve))
    slow = hull_of_points(curve.fpr[perm], curve.tpr[perm], thresholds=curve.thresholds[perm])
    np.testing.assert_array_equal(fast.fpr, slow.fpr)
    np.testing.assert_array_equal(fast.tpr, slow.tpr)
    np.testing.assert_array_equal(fast.thresholds, slow.thresholds)
    # the hull is above the whole curve
    assert (np.interp(curve.fpr, fast.fpr, fast.tpr) >= curve.tpr - 1e-12).all()


def test_hul012_model_slope_ranges():
    from roc_dash.core.hull import model_slope_ranges

    hull = hull_of_curves({"A": A, "B": B, "C": C, "D": D})
    ranges = model_slope_ranges(hull)
    assert set(ranges) == {"A", "C"}
    # A owns the steep (conservative) slopes, C the shallow ones, and they meet
    (a_lo, a_hi), = ranges["A"]
    (c_lo, c_hi), = ranges["C"]
    assert (a_lo, a_hi) == pytest.approx((1.5, 20)) and (c_lo, c_hi) == pytest.approx((0.06, 1.5))
    for m, name in ((10, "A"), (0.1, "C")):
        assert optimal_point(hull, m).model == name
