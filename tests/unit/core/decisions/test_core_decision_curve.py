"""Decision curves (dcu001-dcu010): net benefit against a naive loop over rows, treat-all
against its formula, the hull's net benefit against a brute force over every threshold and
against the minimum expected cost of roc_dash.core.roc.hull's optimum, and (hypothesis) the hull
never below the model."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roc_dash.core.decisions.decision_curve import (
    DEFAULT_THRESHOLD_PROBABILITIES,
    decision_curve,
    decision_curve_from_curve,
    hull_net_benefit,
    net_benefit,
    threshold_probability,
    treat_all_net_benefit,
)
from roc_dash.core.decisions.operating import vertex_at_threshold
from roc_dash.core.roc.curves import roc_curve
from roc_dash.core.roc.hull import (
    convex_hull,
    expected_cost,
    hull_of_curves,
    iso_performance_slope,
    optimal_point,
)


def _data(seed, n=60, *, decimals=2, weights=False):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    y[:2], y[2:4] = True, False
    s = np.round(1 / (1 + np.exp(-(rng.normal(size=n) + 1.2 * y - 0.8))), decimals)
    w = rng.uniform(0.2, 3.0, n) if weights else None
    return y, s, w


def _naive_nb(y, s, w, p_t):
    """Vickers & Elkin (2006): TP/n − FP/n · p_t/(1 − p_t), treating iff score >= p_t."""
    w = np.ones(s.size) if w is None else w
    n = w.sum()
    out = []
    for p in p_t:
        tp = sum(w[i] for i in range(s.size) if y[i] and s[i] >= p)
        fp = sum(w[i] for i in range(s.size) if not y[i] and s[i] >= p)
        out.append(tp / n - fp / n * p / (1 - p))
    return np.array(out)


@pytest.mark.parametrize("weights", [False, True])
@pytest.mark.parametrize("seed", range(6))
def test_dcu001_model_net_benefit_matches_a_naive_loop(seed, weights):
    """Scores rounded to the grid's two decimals: many lie exactly on a p_t (treated)."""
    y, s, w = _data(seed, weights=weights)
    grid = np.concatenate(([0.0], DEFAULT_THRESHOLD_PROBABILITIES))
    dc = decision_curve(y, s, grid, weights=w)
    np.testing.assert_allclose(dc.net_benefit, _naive_nb(y, s, w, grid), rtol=1e-12,
                               atol=1e-14)
    assert dc.prior_pos == dc.data_prior == pytest.approx(np.average(y, weights=w))


def test_dcu002_treat_all_and_none_and_a_deployment_prior():
    y, s, w = _data(1, weights=True)
    grid = DEFAULT_THRESHOLD_PROBABILITIES
    pi = np.average(y, weights=w)
    dc = decision_curve(y, s, weights=w)
    np.testing.assert_allclose(dc.treat_all, pi - (1 - pi) * grid / (1 - grid), rtol=1e-12)
    # treating everyone is the model at a threshold below every score
    all_treated = _naive_nb(y, np.ones(s.size), w, grid)
    np.testing.assert_allclose(dc.treat_all, all_treated, rtol=1e-12, atol=1e-14)
    np.testing.assert_array_equal(dc.treat_none, 0.0)
    # a deployment prior π': TP/n -> π'·TPR, FP/n -> (1 − π')·FPR, rates from the rows
    pi2 = 0.05
    shifted = decision_curve(y, s, weights=w, prior_pos=pi2)
    tpr = np.array([w[y & (s >= p)].sum() / w[y].sum() for p in grid])
    fpr = np.array([w[~y & (s >= p)].sum() / w[~y].sum() for p in grid])
    np.testing.assert_allclose(shifted.net_benefit, pi2 * tpr - (1 - pi2) * fpr * grid
                               / (1 - grid), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(shifted.treat_all, treat_all_net_benefit(grid, prior_pos=pi2))
    assert shifted.data_prior == pytest.approx(pi)


@pytest.mark.parametrize("weights", [False, True])
@pytest.mark.parametrize("seed", range(6))
def test_dcu003_hull_net_benefit_is_the_best_threshold(seed, weights):
    """Brute force: the best of every rule 'treat iff score >= t' over all t (and treat
    none), by the naive formula, at each p_t; no hull involved."""
    y, s, w = _data(seed, 40, decimals=(2, 3)[seed % 2], weights=weights)
    grid = DEFAULT_THRESHOLD_PROBABILITIES
    dc = decision_curve(y, s, weights=w)
    candidates = np.concatenate((np.unique(s), [np.inf]))
    ww = np.ones(s.size) if w is None else w
    n = ww.sum()
    best = [max(ww[y & (s >= t)].sum() / n - ww[~y & (s >= t)].sum() / n * p / (1 - p)
                for t in candidates) for p in grid]
    np.testing.assert_allclose(dc.hull.net_benefit, best, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("prior", [None, 0.02, 0.5, 0.9])
@pytest.mark.parametrize("seed", range(4))
def test_dcu004_hull_net_benefit_is_the_minimum_expected_cost(seed, prior):
    """At the cost ratio's p_t = c(FP)/(c(FP)+c(FN)): NB = π − EC_min / c(FN), EC_min the
    expected cost of roc_dash.core.roc.hull's optimum at the slope of those costs and prior."""
    y, s, _ = _data(seed, 80, decimals=3)
    curve = roc_curve(y, s)
    hull = convex_hull(curve)
    pi = curve.n_pos / (curve.n_pos + curve.n_neg) if prior is None else prior
    for c_fp, c_fn in ((1.0, 1.0), (1.0, 9.0), (3.0, 2.0), (0.2, 50.0), (7.0, 0.5)):
        p_t = threshold_probability(c_fp, c_fn)
        opt = optimal_point(hull, iso_performance_slope(c_fp, c_fn, pi))
        ec = expected_cost(opt.fpr, opt.tpr, cost_fp=c_fp, cost_fn=c_fn, prior_pos=pi)
        h = hull_net_benefit(hull, [p_t], prior_pos=pi)
        assert h.net_benefit[0] == pytest.approx(pi - ec / c_fn, rel=1e-12, abs=1e-14)
        assert h.threshold[0] == opt.threshold  # the same vertex, tie rule included


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(4, 80), decimals=st.integers(1, 4),
       weighted=st.booleans(), prior=st.one_of(st.none(), st.floats(0.01, 0.99)))
def test_dcu005_hull_never_below_the_model(seed, n, decimals, weighted, prior):
    y, s, w = _data(seed, n, decimals=decimals, weights=weighted)
    grid = np.concatenate(([0.0], DEFAULT_THRESHOLD_PROBABILITIES, [0.999]))
    dc = decision_curve(y, s, grid, weights=w, prior_pos=prior)
    assert np.all(dc.hull.net_benefit >= dc.net_benefit - 1e-12)
    assert np.all(dc.hull.net_benefit >= -1e-12)  # treat none is a hull vertex
    assert np.all(dc.hull.net_benefit >= dc.treat_all - 1e-12)  # so is treat all


def test_dcu006_scores_that_are_not_probabilities_get_the_hull_only():
    rng = np.random.default_rng(2)
    y = rng.random(200) < 0.4
    s = rng.normal(size=200) * 3 + 2 * y
    dc = decision_curve(y, s)
    assert not dc.in_unit_interval
    assert np.isnan(dc.net_benefit).all() and np.isnan(dc.tpr).all()
    assert "not probabilities" in dc.notes[0]
    assert np.isfinite(dc.hull.net_benefit).all()
    # the hull only needs the ranking: a monotone rescaling changes nothing
    squashed = decision_curve(y, 1 / (1 + np.exp(-s)))
    np.testing.assert_allclose(dc.hull.net_benefit, squashed.hull.net_benefit, rtol=1e-12,
                               atol=1e-15)


def test_dcu007_threshold_probability_of_a_cost_ratio():
    assert threshold_probability(1, 9) == pytest.approx(0.1)
    assert threshold_probability(2, 2) == 0.5
    for c_fp, c_fn in ((1.0, 4.0), (3e300, 1e300), (1e308, 1.7e308), (1e-300, 1.0)):
        p = threshold_probability(c_fp, c_fn)
        assert p / (1 - p) == pytest.approx(c_fp / c_fn, rel=1e-12)
    for bad in ((0, 1), (1, -2), (math.inf, 1), (1, math.nan), ("1", 1), (True, 1)):
        with pytest.raises(ValueError, match="must be a positive finite number"):
            threshold_probability(*bad)


def test_dcu008_joint_hull_is_the_best_model_hull():
    """The joint hull's net benefit is the maximum of the models' hull net benefits."""
    y, s, _ = _data(3, 120, decimals=3)
    rng = np.random.default_rng(9)
    s2 = np.round(np.clip(s + rng.normal(0, 0.2, s.size), 0, 1), 3)
    curves = {"a": roc_curve(y, s), "b": roc_curve(y, s2)}
    pi = curves["a"].n_pos / (curves["a"].n_pos + curves["a"].n_neg)
    joint = hull_net_benefit(hull_of_curves(curves), prior_pos=pi)
    each = [decision_curve_from_curve(c).hull.net_benefit for c in curves.values()]
    np.testing.assert_allclose(joint.net_benefit, np.maximum(*each), rtol=1e-12, atol=1e-14)
    owners = set(joint.model) - {""}
    assert owners <= {"a", "b"} and owners


def test_dcu009_bad_inputs():
    y, s, _ = _data(0)
    with pytest.raises(ValueError, match=r"must lie in \[0, 1\)"):
        decision_curve(y, s, [0.1, 1.0])
    with pytest.raises(ValueError, match=r"must lie in \[0, 1\)"):
        decision_curve(y, s, [-0.1])
    with pytest.raises(ValueError, match=r"must lie in \[0, 1\)"):
        decision_curve(y, s, [np.nan])
    with pytest.raises(ValueError, match="no threshold probabilities"):
        decision_curve(y, s, [])
    with pytest.raises(ValueError, match="prior_pos must lie strictly between 0 and 1"):
        decision_curve(y, s, prior_pos=0.0)
    with pytest.raises(ValueError, match="prior_pos must lie strictly between 0 and 1"):
        hull_net_benefit(convex_hull(roc_curve(y, s)), prior_pos=None)


def test_dcu010_vertex_at_threshold_on_a_grid_is_the_scalar_rule():
    y, s, _ = _data(5, 100)
    curve = roc_curve(y, s)
    grid = np.concatenate(([-1.0, 0.0], np.unique(s), DEFAULT_THRESHOLD_PROBABILITIES, [2.0]))
    k = vertex_at_threshold(curve, grid)
    assert k.tolist() == [vertex_at_threshold(curve, float(t)) for t in grid]
    assert isinstance(vertex_at_threshold(curve, 0.5), int)
    assert net_benefit(0.0, 0.0, 0.3, prior_pos=0.2) == 0.0
