"""ROC convex hull and iso-performance: the papers' slope examples, brute-force oracles."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roc_dash.core import roc_curve
from roc_dash.core.roc.hull import (
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
    hull = hull_of_points([0.2, 0.6], [0.6, 0.9])  # segment slope 0.75 between the two
    opt = optimal_point(hull, 0.75)
    assert opt.on_segment and (opt.fpr, opt.tpr) == (0.2, 0.6) and opt.index_end == opt.index + 1
    assert (opt.fpr_end, opt.tpr_end) == (0.6, 0.9)
    assert interpolate_on_segment(hull, opt.index, 0.5) == pytest.approx((0.4, 0.75))
    off = optimal_point(hull, 0.7)
    assert not off.on_segment and off.index_end is None and off.fpr_end is None


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
    from roc_dash.core.roc.hull import model_slope_ranges

    hull = hull_of_curves({"A": A, "B": B, "C": C, "D": D})
    ranges = model_slope_ranges(hull)
    assert set(ranges) == {"A", "C"}
    # A owns the steep (conservative) slopes, C the shallow ones, and they meet
    (a_lo, a_hi), = ranges["A"]
    (c_lo, c_hi), = ranges["C"]
    assert (a_lo, a_hi) == pytest.approx((1.5, 20)) and (c_lo, c_hi) == pytest.approx((0.06, 1.5))
    for m, name in ((10, "A"), (0.1, "C")):
        assert optimal_point(hull, m).model == name


# ---------------------------------------------------------------------------------------------
# Exact hulls of counts and ties on the iso line.


def exact_hull_counts(fp, tp, n_neg, n_pos):
    """Oracle: the upper hull of the count points (and (0, 0), (N, P)) by Andrew's monotone
    chain in Python integers, collinear points dropped."""
    best = {}
    for f, t in zip([0, *fp, n_neg], [0, *tp, n_pos], strict=True):
        best[f] = max(best.get(f, t), t)
    hull = []
    for f in sorted(best):
        p = (f, best[f])
        while len(hull) >= 2:
            (ax, ay), (bx, by) = hull[-2], hull[-1]
            if (bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax) >= 0:
                hull.pop()
            else:
                break
        hull.append(p)
    if hull[0] != (0, 0):
        hull.insert(0, (0, 0))
    return hull


def _counts(curve_or_hull, n_neg, n_pos):
    return (np.rint(np.asarray(curve_or_hull.fpr) * n_neg).astype(np.int64).tolist(),
            np.rint(np.asarray(curve_or_hull.tpr) * n_pos).astype(np.int64).tolist())


def _random_integer_data(rng):
    n = int(rng.integers(2, 120))
    y = rng.random(n) < rng.uniform(0.05, 0.95)
    y[:2] = [True, False]
    s = rng.integers(0, rng.integers(2, 40), n).astype(float)
    w = None
    if rng.random() < 0.5:
        w = rng.integers(0, rng.choice([3, 50, 10**6]), n).astype(float)
        w[:2] = np.maximum(w[:2], 1)
    return y, s, w


def test_hul013_hull_of_counts_is_exact():
    # The example: (2/3, 3/4) lies on the segment from (0, 1/4) to (1, 1).
    hull = convex_hull(roc_curve([1, 1, 0, 1, 1, 0, 0], [2, 0, 3, 4, 6, 1, 5]))
    assert list(zip(hull.fpr, hull.tpr, strict=True)) == [(0, 0), (0, 0.25), (1, 1)]
    rng = np.random.default_rng(13)
    for _ in range(300):
        y, s, w = _random_integer_data(rng)
        curve = roc_curve(y, s, weights=w)
        n_neg, n_pos = int(curve.n_neg), int(curve.n_pos)
        hull = convex_hull(curve, model="m")
        got = list(zip(*_counts(hull, n_neg, n_pos), strict=True))
        assert got == exact_hull_counts(*_counts(curve, n_neg, n_pos), n_neg, n_pos)
        # strictly decreasing slopes: no collinear vertex
        assert np.all(np.diff(hull.segment_slopes) < 0)


def test_hul014_ties_on_the_iso_line_detected_exactly():
    # With the data's prevalence as prior the slope is c(FP)N / (c(FN)P) up to rounding; a
    # hull segment is optimal as a whole exactly when c(FN)·ΔTP == c(FP)·ΔFP (counts).
    rng = np.random.default_rng(14)
    seen_ties = 0
    for _ in range(400):
        y, s, w = _random_integer_data(rng)
        curve = roc_curve(y, s, weights=w)
        n_neg, n_pos = int(curve.n_neg), int(curve.n_pos)
        hull = convex_hull(curve)
        fp, tp = _counts(hull, n_neg, n_pos)
        for cost_fp, cost_fn in ((1, 1), (2, 3), (5, 1), (1, 7), (3, 3)):
            p = n_pos / (n_pos + n_neg)
            m = cost_fp * (1 - p) / (cost_fn * p)  # as the app computes it
            for slope in (m, iso_performance_slope(cost_fp, cost_fn, p)):
                opt = optimal_point(hull, slope)
                # exact optimum: maximise c(FN)·TP − c(FP)·FP, leftmost first
                value = [cost_fn * t - cost_fp * f for f, t in zip(fp, tp, strict=True)]
                best = max(value)
                ends = [k for k, v in enumerate(value) if v == best]
                assert opt.index == ends[0]
                assert opt.on_segment == (len(ends) == 2)
                if opt.on_segment:
                    seen_ties += 1
                    assert opt.index_end == ends[1]
                    k = ends[1]
                    assert (opt.fpr_end, opt.tpr_end, opt.threshold_end) == (
                        hull.fpr[k], hull.tpr[k], hull.thresholds[k])
                    assert cost_fn * (tp[k] - tp[k - 1]) == cost_fp * (fp[k] - fp[k - 1])
                else:
                    assert opt.index_end is None and opt.fpr_end is None
    assert seen_ties > 50


def test_hul015_ties_at_extreme_imbalance_and_large_counts():
    # Few positives among very many (weighted) negatives or the reverse: p/(1-p) is far from 1
    # and the slope's rounding is largest; the tie must still be found, and only when the
    # counts say so. Hull: (0, 0) -> (0, P-k) -> (k + extra, P) -> (N, P); the middle segment
    # has ΔTP == ΔFP (a tie at the prevalence slope N/P) exactly when extra == 0.
    for n_pos, n_neg in ((1, 10**9), (10**9, 1), (3, 7 * 10**8), (123_457, 10**9 + 7),
                         (2**40 - 1, 3), (5, 2**40 - 5)):
        k = max(min(n_pos, n_neg) // 2, 1)
        for extra in (0, 1, -1):
            if k + extra < 0 or k + extra > n_neg or (k == 1 and extra == -1):
                continue
            y = np.array([True, True, False, False])
            s = np.array([5.0, 3.0, 3.0, 2.0])
            w = np.array([n_pos - k, k, k + extra, n_neg - k - extra], dtype=float)
            curve = roc_curve(y, s, weights=w)
            hull = convex_hull(curve)
            p = curve.n_pos / (curve.n_pos + curve.n_neg)
            for m in ((1 - p) / p, iso_performance_slope(1, 1, p)):
                opt = optimal_point(hull, m)
                fp, tp = _counts(hull, int(curve.n_neg), int(curve.n_pos))
                ties = [i for i in range(len(tp) - 1) if tp[i + 1] - tp[i] == fp[i + 1] - fp[i]]
                assert opt.on_segment == (extra == 0) == bool(ties), (n_pos, n_neg, extra)
                if ties:
                    assert (opt.index, opt.index_end) == (ties[0], ties[0] + 1)


def test_hul016_extreme_slopes():
    hull = hull_of_points([0.0, 0.2, 0.6], [0.5, 0.8, 1.0])
    # vertical first segment: infinite slope ties (0, 0) and (0, 0.5); the left end is kept
    opt = optimal_point(hull, np.inf)
    assert (opt.fpr, opt.tpr) == (0, 0) and opt.on_segment and (opt.fpr_end, opt.tpr_end) == (0, .5)
    # a huge finite slope: (0, 0.5) is strictly better than (0, 0) (nothing overflows)
    for m in (1e300, 1.7e308):
        opt = optimal_point(hull, m)
        assert (opt.fpr, opt.tpr) == (0, 0.5) and not opt.on_segment
    # slope 0: the first vertex with TPR 1, tied with (1, 1)
    opt = optimal_point(hull, 0.0)
    assert (opt.fpr, opt.tpr) == (0.6, 1.0) and opt.on_segment and opt.fpr_end == 1.0
    # a tiny positive slope moves TPR − m·FPR by less than 2**-44 of its terms' size over
    # the top segment: still a tie by the documented rule, reported at the left end
    opt = optimal_point(hull, 1e-300)
    assert (opt.fpr, opt.tpr) == (0.6, 1.0) and opt.on_segment
    opt = optimal_point(hull, 1e-3)
    assert (opt.fpr, opt.tpr) == (0.6, 1.0) and not opt.on_segment


def test_hul017_joint_hull_of_models_on_the_same_rows_is_exact():
    rng = np.random.default_rng(17)
    for _ in range(100):
        n = int(rng.integers(4, 60))
        y = rng.random(n) < 0.5
        y[:2] = [True, False]
        curves = {name: roc_curve(y, rng.integers(0, 6, n).astype(float)) for name in "abc"}
        n_neg, n_pos = int(curves["a"].n_neg), int(curves["a"].n_pos)
        hull = hull_of_curves(curves)
        fp, tp = [], []
        for c in curves.values():
            f, t = _counts(c, n_neg, n_pos)
            fp += f
            tp += t
        got = list(zip(*_counts(hull, n_neg, n_pos), strict=True))
        assert got == exact_hull_counts(fp, tp, n_neg, n_pos)
        p = n_pos / n
        opt = optimal_point(hull, (1 - p) / p)
        value = [t - f for f, t in got]
        ends = [k for k, v in enumerate(value) if v == max(value)]
        assert opt.index == ends[0] and opt.on_segment == (len(ends) == 2)
        if opt.on_segment:
            assert opt.model_end == hull.models[ends[1]]


def test_hul018_points_without_counts_still_work():
    # Arbitrary rates (no totals): a point within rounding of the chord of its neighbours is
    # not a vertex, a clear turn is; the thresholds and models ride along.
    third = 1 / 3
    hull = hull_of_points([third, 2 * third, 0.5], [0.5, 5 / 6, 0.6],
                          thresholds=[3.0, 2.0, 1.0], models=["a", "b", "c"])
    # (1/3, 1/2), (2/3, 5/6) and (1, 1)? no: slopes 1 and 1/2; (0, 0) -> (1/3, 1/2) is 3/2
    assert list(hull.models) == ["", "a", "b", ""] and list(hull.thresholds[1:3]) == [3.0, 2.0]
    # (0.1, 0.55), (0.2, 0.6), (0.3, 0.65) are collinear with (1, 1)? no, but with each other:
    x = np.array([0.1, 0.2, 0.3])
    hull = hull_of_points(x, 0.5 + 0.5 * x)
    assert list(hull.fpr) == [0.0, 0.1, 1.0]  # 0.2 and 0.3 lie on the segment to (1, 1)
    hull = hull_of_points(x, 0.5 + 0.5 * x + np.array([0, 1e-6, 0]))
    assert list(hull.fpr) == [0.0, 0.1, 0.2, 1.0]


def test_hul019_joint_hull_of_interleaved_curves_through_the_sequential_scan(monkeypatch):
    """The points of four models' curves, interleaved in FPR, zigzag: each peeling pass drops
    only a few of them, so the sequential scan after the passes does most of the work. Its
    hull equals scipy's (an independent implementation), and the scan really ran."""
    from scipy.spatial import ConvexHull

    from roc_dash.core.roc import hull as hull_module

    calls = []
    real = hull_module._Orientation.right_turn
    monkeypatch.setattr(hull_module._Orientation, "right_turn",
                        lambda self, *a: calls.append(1) or real(self, *a))
    rng = np.random.default_rng(1)
    curves = []
    for k in range(4):
        y = rng.random(5000) < 0.3
        curves.append(roc_curve(y, rng.normal(y * (0.6 + 0.5 * k), 1)))
    fpr = np.concatenate([c.fpr for c in curves])
    tpr = np.concatenate([c.tpr for c in curves])
    got = hull_of_points(fpr, tpr)
    assert len(calls) > 100, "the sequential scan did not run"
    pts = np.c_[np.r_[fpr, 1.0], np.r_[tpr, 0.0]]  # (1, 0) closes the polygon below
    ref = pts[ConvexHull(pts).vertices]
    ref = ref[(ref[:, 1] > 0) | (ref[:, 0] == 0)]
    ref = np.unique(ref, axis=0)
    np.testing.assert_allclose(np.c_[got.fpr, got.tpr], ref, atol=1e-12)
