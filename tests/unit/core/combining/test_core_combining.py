"""Combining classifiers (Fawcett 2004 section 7.4): interpolation to a budget, concavity
repair (Flach & Wu 2003), logical combinations."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roc_dash.core.combining.capacity_mix import budget_line, budget_operating_point, mix_for_budget
from roc_dash.core.combining.concavity_repair import (
    flach_wu_decisions,
    repair_concavities,
    repair_point,
    repair_scores,
)
from roc_dash.core.combining.logical_combining import (
    combine_thresholded,
    decision_point,
    logical_combination,
)
from roc_dash.core.roc.curves import auc, roc_curve
from roc_dash.core.roc.hull import convex_hull, hull_of_curves, hull_of_points

COIL = dict(n_total=4000, prior_pos=0.06)
A, B = (0.1, 0.2), (0.25, 0.6)


# ---------------------------------------------------------------- 7.4.1 interpolation


def test_cmb001_coil_example_exact():
    m = mix_for_budget(A, B, budget=800, **COIL)
    assert m.k == pytest.approx(94 / 165, abs=1e-12)
    # exact: g(A) = 424, g(B) = 1084 cases, k = 376/660
    assert Fraction(800 - 424, 1084 - 424) == Fraction(94, 165)
    assert m.fpr == pytest.approx(0.1 + 0.15 * 94 / 165, abs=1e-12)
    assert m.tpr == pytest.approx(0.2 + 0.4 * 94 / 165, abs=1e-12)
    assert (round(m.fpr, 4), round(m.tpr, 4)) == (0.1855, 0.4279)
    assert m.expected_cases == pytest.approx(800) and not m.clamped
    assert m.expected_tp == pytest.approx(240 * m.tpr)
    assert "u < k = 0.5697" in m.how and "(0.25, 0.6)" in m.how
    # the paper's rounded reading of the figure: C ~ (.18, .42), k ~ .53
    assert (0.18 - 0.1) / (0.25 - 0.1) == pytest.approx(0.53, abs=0.01)
    # the constraint line of figure 10: FPR x 3760 + TPR x 240 = 800
    line = budget_line(budget=800, **COIL)
    np.testing.assert_allclose(line.fpr * 3760 + line.tpr * 240, 800)


def test_cmb002_coil_on_the_hull_beats_the_paper_mix():
    # A lies below the hull of {(0,0), B}: the hull's answer mixes "act on none" with B
    hull = hull_of_points([A[0], B[0]], [A[1], B[1]])
    assert len(hull) == 3  # (0,0), B, (1,1)
    m = budget_operating_point(hull, budget=800, **COIL)
    assert (m.index_a, m.index_b) == (0, 1)
    assert m.k == pytest.approx(800 / 1084, abs=1e-12)
    assert m.tpr == pytest.approx(0.6 * 800 / 1084) and m.tpr > 0.4279
    assert m.expected_cases == pytest.approx(800)


def test_cmb003_budget_edge_cases():
    hull = hull_of_points([A[0], B[0]], [A[1], B[1]])
    zero = budget_operating_point(hull, budget=0, **COIL)
    assert (zero.fpr, zero.tpr, zero.k, zero.clamped) == (0.0, 0.0, 0.0, False)
    assert "all-negative" in zero.note
    everything = budget_operating_point(hull, budget=4000, **COIL)
    assert (everything.fpr, everything.tpr, everything.clamped) == (1.0, 1.0, False)
    over = budget_operating_point(hull, budget=5000, **COIL)
    assert (over.fpr, over.tpr, over.k, over.clamped) == (1.0, 1.0, 0.0, True)
    assert "exceeds the 4,000 cases" in over.note
    assert over.expected_cases == pytest.approx(4000)
    # a share of the cases instead of a count
    share = budget_operating_point(hull, fraction=0.2, **COIL)
    assert share.budget == pytest.approx(800) and share.k == pytest.approx(800 / 1084)
    with pytest.raises(ValueError, match=r"looks like a fraction .* fraction=0.2 for 800 cases"):
        budget_operating_point(hull, budget=0.2, **COIL)
    with pytest.raises(ValueError, match="exactly one of budget"):
        budget_operating_point(hull, **COIL)
    with pytest.raises(ValueError, match="non-negative"):
        budget_operating_point(hull, budget=-5, **COIL)
    with pytest.raises(ValueError, match="prior_pos"):
        budget_operating_point(hull, budget=5, n_total=10, prior_pos=1.0)
    # between two given classifiers: outside their range k clamps and says so
    low = mix_for_budget(A, B, budget=300, **COIL)
    assert (low.k, low.clamped, (low.fpr, low.tpr)) == (0.0, True, A)
    assert "below the range" in low.note
    high = mix_for_budget(A, B, budget=2000, **COIL)
    assert (high.k, high.clamped, (high.fpr, high.tpr)) == (1.0, True, B)


def test_cmb004_budget_on_a_model_hull_uses_its_thresholds():
    rng = np.random.default_rng(4)
    y = rng.random(2000) < 0.3
    s = np.round(rng.normal(y * 1.2, 1.0), 2)
    curve = roc_curve(y, s)
    hull = hull_of_curves({"m": curve})
    n, p = 2000, float(y.mean())
    m = budget_operating_point(hull, budget=500, n_total=n, prior_pos=p)
    assert m.expected_cases == pytest.approx(500)
    assert m.model_a == m.model_b == "m" and m.threshold_a > m.threshold_b
    assert "Equivalently" in m.how and f"{m.threshold_a:.6g}" in m.how
    # realised on the rows: act on every case >= t_A and a random k of [t_B, t_A)
    between = (s >= m.threshold_b) & (s < m.threshold_a)
    acted = (s >= m.threshold_a).sum() + m.k * between.sum()
    assert acted == pytest.approx(500, rel=1e-9)
    # highest TPR on the line: no curve vertex meeting the budget beats it
    g = curve.fpr * n * (1 - p) + curve.tpr * n * p
    assert (curve.tpr[g <= 500 + 1e-9] <= m.tpr + 1e-12).all()


# ---------------------------------------------------------------- 7.4.2 concavities


def test_cmb010_paper_description_b_prime_is_a_plus_c_minus_b():
    # figure 11: B makes a concavity (slope BC > slope AB)
    a, b, c = (0.1, 0.3), (0.4, 0.4), (0.5, 0.8)
    assert (c[1] - b[1]) / (c[0] - b[0]) > (b[1] - a[1]) / (b[0] - a[0])
    bp = repair_point(a, b, c)
    assert bp == pytest.approx((0.2, 0.7))
    # above AC, at the reflection of B through the midpoint of AC; AB' now has the steep slope
    mid = ((a[0] + c[0]) / 2, (a[1] + c[1]) / 2)
    assert ((b[0] + bp[0]) / 2, (b[1] + bp[1]) / 2) == pytest.approx(mid)
    assert (bp[1] - a[1]) / (bp[0] - a[0]) == pytest.approx((c[1] - b[1]) / (c[0] - b[0]))
    with pytest.raises(ValueError, match="nested"):
        repair_point(b, a, c)


def _concave_rows():
    # ranking: 2 positives, then a run of 3 negatives, then 3 positives (the concavity),
    # then the rest
    y = np.array([1, 1, 0, 0, 0, 1, 1, 1, 0, 1, 0, 0])
    s = np.arange(y.size, 0, -1, dtype=float)
    return y, s


def test_cmb011_flach_wu_decisions_on_rows_land_at_a_plus_c_minus_b():
    y, s = _concave_rows()
    curve = roc_curve(y, s)
    ta, tb, tc = 11.0, 8.0, 5.0  # A after the 2 top positives, B after 3 negatives, C ...
    pa, pb, pc = (decision_point(y, s >= t) for t in (ta, tb, tc))
    got = decision_point(y, flach_wu_decisions(s, ta, tb, tc))
    assert got == pytest.approx(repair_point(pa, pb, pc), abs=1e-15)
    # B' copies A above t_A and C below t_C
    d = flach_wu_decisions(s, ta, tb, tc)
    assert d[s >= ta].all() and not d[s < tc].any()
    with pytest.raises(ValueError, match="t_A >= t_B >= t_C"):
        flach_wu_decisions(s, tc, tb, ta)
    assert curve.fpr.size == s.size + 1


def test_cmb012_constructed_concavity_found_and_repaired():
    y, s = _concave_rows()
    curve = roc_curve(y, s)
    r = repair_concavities(curve)
    assert len(r) == 2
    # first concavity: A at (0, 2/6) [t = 11], C at (3/6, 5/6) [t = 5], deepest B (3/6, 2/6)
    assert r.threshold_a[0] == 11 and r.threshold_c[0] == 5 and r.threshold_b[0] == 8
    assert (r.fpr_a[0], r.tpr_a[0], r.fpr_c[0], r.tpr_c[0]) == (0, 2 / 6, 3 / 6, 5 / 6)
    assert (r.fpr_b[0], r.tpr_b[0]) == (0.5, 2 / 6)
    assert (r.fpr_repaired[0], r.tpr_repaired[0]) == pytest.approx((0.0, 5 / 6))
    assert r.area_gain[0] == pytest.approx(2 * 0.5 * 0.5 * 0.5)
    # every repaired vertex is A + C - B of its concavity
    for v, k, f, t in zip(r.vertex, r.vertex_concavity, r.vertex_fpr_repaired,
                          r.vertex_tpr_repaired, strict=True):
        a, c = r.start[k], r.end[k]
        mirror = a + c - v
        assert (f, t) == pytest.approx((curve.fpr[a] + curve.fpr[c] - curve.fpr[mirror],
                                        curve.tpr[a] + curve.tpr[c] - curve.tpr[mirror]))
    # the repaired scores give the repaired curve exactly, with more area
    fixed = roc_curve(y, repair_scores(s, r))
    np.testing.assert_array_equal(fixed.fpr, r.curve.fpr)
    np.testing.assert_array_equal(fixed.tpr, r.curve.tpr)
    assert auc(fixed) == pytest.approx(auc(curve) + r.area_gain.sum())
    # B' of each concavity is on the repaired curve, above the old hull
    assert (r.fpr_repaired[0], r.tpr_repaired[0]) in set(zip(fixed.fpr, fixed.tpr, strict=True))


def test_cmb013_convex_curve_has_no_concavity():
    # ties make diagonal segments of decreasing slope: (0, 2/3), (1/3, 1)
    y = np.array([1, 1, 0, 1, 0, 0])
    s = np.array([3, 3, 2, 2, 1, 1], dtype=float)
    r = repair_concavities(roc_curve(y, s))
    assert len(r) == 0 and r.vertex.size == 0
    np.testing.assert_array_equal(repair_scores(s, r), s)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 12), st.sampled_from([0.5, 1.25, 3.7])),
                min_size=4, max_size=60), st.booleans())
def test_cmb014_repair_properties(rows, weighted):
    y = np.array([r[0] for r in rows] + [True, False])
    s = np.array([r[1] for r in rows] + [5, 7], dtype=float)
    w = np.array([r[2] for r in rows] + [1.0, 1.0]) if weighted else None
    curve = roc_curve(y, s, weights=w)
    r = repair_concavities(curve)
    fixed = roc_curve(y, repair_scores(s, r), weights=w)
    np.testing.assert_allclose(fixed.fpr, r.curve.fpr, atol=1e-12)
    np.testing.assert_allclose(fixed.tpr, r.curve.tpr, atol=1e-12)
    assert auc(fixed) >= auc(curve) - 1e-12
    assert auc(fixed) == pytest.approx(auc(curve) + r.area_gain.sum(), abs=1e-12)
    # the repaired hull is on or above the old hull
    old, new = convex_hull(curve), convex_hull(fixed)
    assert (np.interp(old.fpr, new.fpr, new.tpr) >= old.tpr - 1e-12).all()
    # each deepest B' = A + C - B, from the rows
    for k in range(len(r)):
        d = flach_wu_decisions(s, r.threshold_a[k], r.threshold_b[k], r.threshold_c[k])
        assert decision_point(y, d, weights=w) == pytest.approx(
            (r.fpr_repaired[k], r.tpr_repaired[k]), abs=1e-12)


# ---------------------------------------------------------------- 7.4.3 logical combinations


def test_cmb020_independence_formulas_and_bounds():
    lc = logical_combination(0.2, 0.7, 0.3, 0.6)
    assert (lc.and_fpr, lc.and_tpr) == pytest.approx((0.06, 0.42))
    assert (lc.or_fpr, lc.or_tpr) == pytest.approx((1 - 0.8 * 0.7, 1 - 0.3 * 0.4))
    assert (lc.and_fpr_high, lc.and_tpr_high) == (0.2, 0.6)
    assert (lc.and_fpr_low, lc.and_tpr_low) == pytest.approx((0.0, 0.3))  # Frechet
    paper = logical_combination(0.2, 0.7, 0.3, 0.6, bounds="paper")
    assert paper.and_tpr_low == 0.0
    assert (lc.or_fpr_low, lc.or_fpr_high, lc.or_tpr_low, lc.or_tpr_high) == pytest.approx(
        (0.3, 0.5, 0.7, 1.0))
    # expected points outside the hull of c1 and c2 (section 7.4.3)
    hull = hull_of_points([0.2, 0.3], [0.7, 0.6])
    for f, t in ((lc.and_fpr, lc.and_tpr), (lc.or_fpr, lc.or_tpr)):
        assert t > np.interp(f, hull.fpr, hull.tpr)
    many = logical_combination(np.array([0.1, 0.5]), 0.5, 0.5, np.array([0.2, 0.9]))
    np.testing.assert_allclose(many.and_fpr, [0.05, 0.25])


def test_cmb021_independent_scores_meet_the_independence_formula():
    rng = np.random.default_rng(21)
    n = 400_000
    y = rng.random(n) < 0.35
    sa = rng.normal(np.where(y, 1.0, 0.0), 1.0)  # independent given the class
    sb = rng.normal(np.where(y, 0.8, 0.0), 1.0)
    got = combine_thresholded(y, sa, sb, 0.6, 0.2)
    e = got.expected
    tol = 4 * np.sqrt(0.25 / (n * 0.35))
    assert got.and_tpr == pytest.approx(e.and_tpr, abs=tol)
    assert got.and_fpr == pytest.approx(e.and_fpr, abs=tol)
    assert got.or_tpr == pytest.approx(e.or_tpr, abs=tol)
    assert got.or_fpr == pytest.approx(e.or_fpr, abs=tol)
    # dependent models (the same score twice) are far from it: AND = the stricter one
    same = combine_thresholded(y, sa, sa, 0.6, 0.2)
    assert (same.and_fpr, same.and_tpr) == (same.fpr_a, same.tpr_a)
    assert same.and_tpr > same.expected.and_tpr + 0.1


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 5), st.integers(0, 5),
                          st.integers(1, 3)), min_size=2, max_size=50),
       st.integers(0, 6), st.integers(0, 6), st.booleans())
def test_cmb022_actual_positions_inside_the_bounding_rectangles(rows, ta, tb, weighted):
    y = np.array([r[0] for r in rows] + [True, False])
    sa = np.array([r[1] for r in rows] + [3, 3], dtype=float)
    sb = np.array([r[2] for r in rows] + [2, 4], dtype=float)
    w = np.array([r[3] for r in rows] + [1, 1], dtype=float) if weighted else None
    got = combine_thresholded(y, sa, sb, ta, tb, weights=w)
    e, eps = got.expected, 1e-12
    assert e.and_fpr_low - eps <= got.and_fpr <= e.and_fpr_high + eps
    assert e.and_tpr_low - eps <= got.and_tpr <= e.and_tpr_high + eps
    assert e.or_fpr_low - eps <= got.or_fpr <= e.or_fpr_high + eps
    assert e.or_tpr_low - eps <= got.or_tpr <= e.or_tpr_high + eps
    # the single points agree with decision_point
    assert (got.fpr_a, got.tpr_a) == pytest.approx(decision_point(y, sa >= ta, weights=w))
