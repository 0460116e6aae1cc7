"""Relative superiority graphs and the LC index (Fawcett 2004 s7.5.3; Adams & Hand 1999)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roc_dash.core.combining.superiority import (
    distribution_from_arrays,
    lc_index,
    ratio_to_unit,
    relative_superiority,
    triangular_distribution,
    unit_to_ratio,
)
from roc_dash.core.roc.curves import roc_curve
from roc_dash.core.roc.hull import hull_of_points

# A is the conservative model (good at low FPR), B its mirror image through the anti-diagonal
# (good at high TPR): the paper's picture of two classifiers each superior in one region.
A_PTS = (np.array([0.1]), np.array([0.5]))
B_PTS = (np.array([0.5]), np.array([0.9]))


def _direct_sign(u, model_a, model_b, p):
    """Sign from the definition: min over hull vertices of p·u·(1−TPR) + (1−p)(1−u)·FPR."""
    def best(model):
        h = hull_of_points(*model)
        cost = (p * np.multiply.outer(u, 1 - h.tpr)
                + (1 - p) * np.multiply.outer(1 - u, h.fpr))
        return cost.min(axis=1)
    d = best(model_a) - best(model_b)
    return np.where(d < -1e-12, 1, np.where(d > 1e-12, -1, 0))


def test_sup001_ratio_map():
    assert ratio_to_unit(1.0) == 0.5 and ratio_to_unit(np.inf) == 1.0 and ratio_to_unit(0) == 0
    np.testing.assert_allclose(ratio_to_unit([3.0, 1 / 3]), [0.75, 0.25])
    np.testing.assert_allclose(unit_to_ratio(ratio_to_unit([0.2, 5.0, 40.0])), [0.2, 5.0, 40.0])
    assert unit_to_ratio(1.0) == np.inf
    with pytest.raises(ValueError):
        ratio_to_unit(-1)


def test_sup002_qualitative_example_conservative_vs_liberal():
    g = relative_superiority(A_PTS, B_PTS, prior_pos=0.5)
    # tie while both are best off "always negative" (u < 1/6) or "always positive" (u > 5/6);
    # A wins while false positives dominate the cost, B once false negatives do
    np.testing.assert_allclose(g.edges, [0, 1 / 6, 0.5, 5 / 6, 1], atol=1e-15)
    assert g.sign.tolist() == [0, 1, -1, 0]
    assert g.sign_at(0.3) == 1 and g.sign_at(0.7) == -1 and g.sign_at(0.05) == 0
    np.testing.assert_allclose(g.ratio_edges[:4], [0, 0.2, 1, 5])
    u, sign = g.step()
    assert u.size == sign.size == 2 * g.sign.size
    # an expert sure that false alarms are the costlier error prefers A, and vice versa
    assert lc_index(A_PTS, B_PTS, triangular_distribution(0.25, 0.4, 0.8),
                    prior_pos=0.5).lc == pytest.approx(1.0)
    assert lc_index(A_PTS, B_PTS, triangular_distribution(1.5, 3.0, 4.5),
                    prior_pos=0.5).lc == pytest.approx(-1.0)


def test_sup003_exact_lc_by_hand():
    # triangular on u over (0, 0.5), mode 0.25: F(1/6) = (1/6)^2 / (0.5 * 0.25) = 2/9
    dist = triangular_distribution(0, 0.25, 0.5, scale="unit")
    assert dist.cdf(1 / 6) == pytest.approx(2 / 9)
    r = lc_index(A_PTS, B_PTS, dist, prior_pos=0.5)
    assert r.lc == pytest.approx(7 / 9, abs=1e-12)
    assert (r.prob_a_better, r.prob_b_better, r.prob_equal) == pytest.approx((7 / 9, 0, 2 / 9))


def test_sup004_symmetric_crossing_gives_zero_under_a_symmetric_distribution():
    # B is A reflected through the anti-diagonal: cost_B(u) = cost_A(1 - u) at p = 1/2
    rng = np.random.default_rng(7)
    y = rng.random(3000) < 0.5
    s = rng.normal(y * 1.0, np.where(y, 0.5, 1.5))  # unequal spreads: a skewed curve
    a = roc_curve(y, s)
    b_pts = (1 - a.tpr[::-1], 1 - a.fpr[::-1])
    for dist in (triangular_distribution(0.2, 0.5, 0.8, scale="unit"),
                 triangular_distribution(1 / 4, 1.0, 4.0),  # symmetric on u: 0.2, .5, .8
                 distribution_from_arrays([0.1, 0.3, 0.5, 0.7, 0.9], [0, 2, 1, 2, 0])):
        r = lc_index((a.fpr, a.tpr), b_pts, dist, prior_pos=0.5)
        assert r.lc == pytest.approx(0.0, abs=1e-9)
        assert r.prob_a_better == pytest.approx(r.prob_b_better, abs=1e-9)
        assert r.prob_a_better > 0.3  # a real crossing, not a tie
    g = relative_superiority((a.fpr, a.tpr), b_pts, prior_pos=0.5)
    np.testing.assert_allclose(g.edges, 1 - g.edges[::-1], atol=1e-9)
    assert g.sign.tolist() == (-g.sign[::-1]).tolist()


def test_sup005_dominating_model_has_lc_one():
    strong = ([0.0, 0.1], [0.9, 1.0])  # hull (0,0) (0,.9) (.1,1) (1,1)
    weak = ([0.2], [0.6])
    for dist in (triangular_distribution(0.01, 1.0, 100.0),
                 distribution_from_arrays([0.0, 1.0], [1.0, 1.0]),
                 distribution_from_arrays([0.0, 0.05, 1.0], [0.0, 5.0, 0.0])):
        for p in (0.05, 0.5, 0.9):
            r = lc_index(strong, weak, dist, prior_pos=p)
            assert r.lc == pytest.approx(1.0, abs=1e-12)
            assert lc_index(weak, strong, dist, prior_pos=p).lc == pytest.approx(-1.0, abs=1e-12)
    g = relative_superiority(strong, weak, prior_pos=0.3)
    assert g.sign.tolist() == [1] and g.edges.tolist() == [0.0, 1.0]
    same = lc_index(weak, weak, triangular_distribution(1, 2, 3), prior_pos=0.3)
    assert (same.lc, same.prob_equal) == (0.0, pytest.approx(1.0))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.floats(0.1, 0.9))
@pytest.mark.slow
def test_sup006_graph_matches_the_definition_and_lc_matches_monte_carlo(seed, p):
    rng = np.random.default_rng(seed)
    def model():
        f = np.sort(rng.integers(0, 21, 6)) / 20
        t = np.sort(rng.integers(0, 21, 6)) / 20
        return f, t
    a, b = model(), model()
    g = relative_superiority(a, b, prior_pos=p)
    # sign on a fine grid of interval midpoints agrees with the definition
    u = np.concatenate([np.linspace(lo, hi, 7)[1:-1] for lo, hi in zip(g.edges[:-1], g.edges[1:],
                                                                       strict=True)])
    np.testing.assert_array_equal(g.sign_at(u), _direct_sign(u, a, b, p))
    # LC against Monte Carlo under a triangular belief
    lo, hi = np.sort(rng.uniform(0.02, 0.98, 2))
    if hi - lo < 0.05:  # a belief at least 0.05 wide, inside the unit interval
        lo = min(lo, 0.93)
        hi = lo + 0.05
    mode = rng.uniform(lo, hi)
    dist = triangular_distribution(lo, mode, hi, scale="unit")
    r = lc_index(a, b, dist, prior_pos=p)
    samples = rng.triangular(lo, mode, hi, 200_000)
    mc = _direct_sign(samples, a, b, p)
    assert r.lc == pytest.approx(mc.mean(), abs=4 * max(mc.std(), 1e-3) / np.sqrt(samples.size))
    assert r.prob_a_better + r.prob_b_better + r.prob_equal == pytest.approx(1.0)


def test_sup007_distributions():
    d = triangular_distribution(2.0, 5.0, 10.0)  # c(FN)/c(FP): 2 to 10, most likely 5
    np.testing.assert_allclose(d.u, [2 / 3, 5 / 6, 10 / 11])
    np.testing.assert_allclose(d.ratio, [2, 5, 10])
    x = np.linspace(0, 1, 100_001)
    assert np.trapezoid(d.pdf(x), x) == pytest.approx(1.0, abs=1e-4)
    assert d.cdf(d.mode) == pytest.approx((d.mode - d.low) / (d.high - d.low))
    assert (d.cdf(0.0), d.cdf(1.0)) == (0.0, 1.0)
    left = triangular_distribution(0.2, 0.2, 0.6, scale="unit")
    assert left.cdf(0.4) == pytest.approx(0.75)
    arr = distribution_from_arrays([0.2, 0.4, 0.6], [1.0, 3.0, 1.0])  # normalised
    assert arr.cdf(0.6) == pytest.approx(1.0) and arr.cdf(0.4) == pytest.approx(0.5)
    with pytest.raises(ValueError, match="low <= mode <= high"):
        triangular_distribution(5, 2, 10)
    with pytest.raises(ValueError, match="low < high"):
        triangular_distribution(3, 3, 3)
    with pytest.raises(ValueError, match="strictly increasing"):
        distribution_from_arrays([0.5, 0.2], [1, 1])
    with pytest.raises(ValueError, match="no mass"):
        distribution_from_arrays([0.2, 0.5], [0, 0])
    with pytest.raises(ValueError, match="prior_pos is needed"):
        relative_superiority(A_PTS, B_PTS)


def test_sup008_prior_defaults_to_the_curves_prevalence():
    rng = np.random.default_rng(8)
    y = rng.random(500) < 0.2
    a = roc_curve(y, rng.normal(y * 1.0, 1.0))
    b = roc_curve(y, rng.normal(y * 0.7, 0.6))
    g = relative_superiority(a, b)
    assert g.prior_pos == pytest.approx(y.mean())
    g2 = relative_superiority(a, b, prior_pos=float(y.mean()))
    np.testing.assert_allclose(g.edges, g2.edges)
