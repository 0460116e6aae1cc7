"""The decision modules of core (economics, threshold_costs, optimality, decision_summary,
uncertainty, optimum_frequency): money, the chosen point, its robustness, its uncertainty.

Every number is checked against an independent computation: confusion counts from the raw
rows, brute force over all thresholds, the hull's own optimum, per-fold numpy.
"""

import dataclasses
import math

import numpy as np
import pytest

from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import analyse, with_conditions
from roc_dash.core.decisions import economics as econ
from roc_dash.core.decisions import optimum_frequency as optimum_wins
from roc_dash.core.decisions import uncertainty
from roc_dash.core.decisions.decision_summary import decision_summary
from roc_dash.core.decisions.operating import summarise_operating_point, vertex_at_threshold
from roc_dash.core.decisions.optimality import optimality_range
from roc_dash.core.decisions.optimum_frequency import (
    optimum_frequency,
    optimum_frequency_bootstrap,
    optimum_frequency_of,
)
from roc_dash.core.decisions.threshold_costs import flatness, thin_profile, threshold_profile
from roc_dash.core.decisions.uncertainty import (
    decision_uncertainty,
    uncertainty_from_bootstrap,
    uncertainty_from_folds,
)
from roc_dash.core.roc.curves import roc_curve
from roc_dash.core.roc.hull import convex_hull, expected_cost, iso_performance_slope, optimal_point

P_DEMO = 0.27


@pytest.fixture(scope="module")
def base(demo):
    return analyse(demo, Conditions())


def _rows(table, model):
    g = table[table["model"] == model]
    return (g["label"].to_numpy(bool), g["score"].to_numpy(float), g["fold"].to_numpy())


def _brute(y, s, p, e):
    """Thresholds (+inf, then every distinct score descending) with the expected value of
    "flag iff score >= t" from confusion counts of the raw rows."""
    thr = np.concatenate(([np.inf], np.unique(s)[::-1]))
    flag = s[:, None] >= thr[None, :]
    n_pos, n_neg = y.sum(), (~y).sum()
    tp = (flag & y[:, None]).sum(axis=0)
    fp = (flag & ~y[:, None]).sum(axis=0)
    fn, tn = n_pos - tp, n_neg - fp
    value = (p * (tp / n_pos * e.benefit_tp - fn / n_pos * e.cost_fn)
             + (1 - p) * (tn / n_neg * e.benefit_tn - fp / n_neg * e.cost_fp))
    return thr, tp / n_pos, fp / n_neg, value


# ------------------------------------------------------------------------------ economics

@pytest.mark.parametrize("kwargs, match", [
    ({"cost_fp": 0, "cost_fn": 1}, "cost_fp"),
    ({"cost_fp": 1, "cost_fn": -2}, "cost_fn"),
    ({"cost_fp": 1, "cost_fn": math.inf}, "cost_fn"),
    ({"cost_fp": math.nan, "cost_fn": 1}, "cost_fp"),
    ({"cost_fp": 1, "cost_fn": 1, "benefit_tp": -1}, "benefit_tp"),
    ({"cost_fp": 1, "cost_fn": 1, "benefit_tn": math.nan}, "benefit_tn"),
    ({"cost_fp": 1, "cost_fn": 1, "population": 0}, "population"),
    ({"cost_fp": 1, "cost_fn": 1, "population": -5}, "population"),
])
def test_dec001_economics_validation(kwargs, match):
    with pytest.raises(ValueError, match=match):
        econ.Economics(**kwargs)


def test_dec002_net_costs_and_per_period():
    e = econ.Economics(cost_fp=2, cost_fn=5, benefit_tp=3, benefit_tn=0.5, unit="€",
                       population=1000)
    assert econ.net_costs(e) == (2.5, 8.0)
    assert econ.net_slope(0.2, e) == pytest.approx(2.5 * 0.8 / (8.0 * 0.2))
    assert e.per_period(0.25) == 250.0
    assert econ.Economics(cost_fp=1, cost_fn=1).per_period(0.25) is None
    np.testing.assert_array_equal(e.per_period(np.array([1.0, 2.0])), [1000.0, 2000.0])


def test_dec003_expected_cost_equals_confusion_counts(demo):
    y, s, _ = _rows(demo, "naive Bayes")
    curve = roc_curve(y, s)
    for e in (econ.Economics(cost_fp=1, cost_fn=4),
              econ.Economics(cost_fp=3, cost_fn=7, benefit_tp=2, benefit_tn=0.25)):
        for t in (np.inf, 0.9, 0.5, 0.2, float(s.min()), -1.0):
            k = vertex_at_threshold(curve, t)
            f, r = curve.fpr[k], curve.tpr[k]
            flag = s >= t
            tp, fp = (flag & y).sum(), (flag & ~y).sum()
            fn, tn = (~flag & y).sum(), (~flag & ~y).sum()
            n_pos, n_neg = tp + fn, fp + tn
            manual = (P_DEMO * (fn * e.cost_fn - tp * e.benefit_tp) / n_pos
                      + (1 - P_DEMO) * (fp * e.cost_fp - tn * e.benefit_tn) / n_neg)
            cost = econ.expected_cost_per_case(f, r, P_DEMO, e)
            assert cost == pytest.approx(manual, rel=1e-12, abs=1e-14)
            assert econ.expected_value_per_case(f, r, P_DEMO, e) == -cost  # exact
            # cost = regret against a perfect classifier − its value
            best = P_DEMO * e.benefit_tp + (1 - P_DEMO) * e.benefit_tn
            assert cost == pytest.approx(econ.regret_per_case(f, r, P_DEMO, e) - best, abs=1e-14)
    # without benefits: bit for bit the hull's expected cost, arrays too
    e = econ.Economics(cost_fp=1.7, cost_fn=3.1)
    np.testing.assert_array_equal(
        econ.expected_cost_per_case(curve.fpr, curve.tpr, P_DEMO, e),
        expected_cost(curve.fpr, curve.tpr, cost_fp=1.7, cost_fn=3.1, prior_pos=P_DEMO))


def test_dec004_net_cost_optimum_maximises_value_with_benefits(base, demo):
    p = base.conditions.prior_pos
    differs = 0
    for e in (econ.Economics(cost_fp=1, cost_fn=1, benefit_tp=10),
              econ.Economics(cost_fp=4, cost_fn=1, benefit_tn=3),
              econ.Economics(cost_fp=2, cost_fn=3, benefit_tp=1, benefit_tn=5)):
        for m in base.models:
            y, s, _ = _rows(demo, m.name)
            _, tpr, fpr, value = _brute(y, s, p, e)
            opt = optimal_point(m.hull, econ.net_slope(p, e))
            assert econ.expected_value_per_case(opt.fpr, opt.tpr, p, e) == pytest.approx(
                value.max(), rel=1e-12, abs=1e-14)
            # the profile's cheapest vertex is the brute-force best too
            prof = threshold_profile(m.curve, p, e)
            assert -prof.best_cost == pytest.approx(value.max(), rel=1e-12, abs=1e-14)
            # ignoring the benefits (gross costs) would choose a worse point here
            gross = optimal_point(m.hull, iso_performance_slope(e.cost_fp, e.cost_fn, p))
            differs += econ.expected_value_per_case(gross.fpr, gross.tpr, p, e) < value.max() - 1e-9
    assert differs > 0


# -------------------------------------------------------------------------- threshold profile

@pytest.mark.parametrize("cond", [Conditions(), Conditions(cost_fn=5, prior_pos=0.1),
                                  Conditions(cost_fp=2, cost_fn=1),
                                  Conditions(cost_fn=4, prior_pos=0.2)])
def test_dec005_profile_minimum_equals_analysis_optimum(base, cond):
    a = with_conditions(base, cond)
    p = a.conditions.prior_pos
    e = econ.Economics.from_conditions(a.conditions)
    for m in a.models:
        prof = threshold_profile(m.curve, p, e)
        assert len(prof) == len(m.curve)
        assert prof.best_cost == pytest.approx(m.optimal.expected_cost, rel=1e-12)
        # the minimum up to rounding, at the vertex the model's hull names (one tie rule)
        assert prof.best_cost == pytest.approx(prof.expected_cost.min(), rel=1e-12)
        assert prof.best_threshold == m.optimal.threshold
        np.testing.assert_allclose(prof.flagged, p * m.curve.tpr + (1 - p) * m.curve.fpr)
        assert math.isnan(prof.precision[0]) and prof.flagged[0] == 0
        assert prof.precision[-1] == pytest.approx(p)  # everything flagged
        assert (prof.normalized_cost >= 0).all() and (prof.normalized_cost <= 1).all()
        np.testing.assert_array_equal(prof.expected_value, -prof.expected_cost)
    # with benefits: the analysis under the net costs finds the same optimum
    e = econ.Economics(cost_fp=1, cost_fn=2, benefit_tp=3, benefit_tn=1)
    a = with_conditions(base, econ.net_conditions(base.conditions, e))
    for m in a.models:
        prof = threshold_profile(m.curve, a.conditions.prior_pos, e)
        baseline = a.conditions.prior_pos * 3 + (1 - a.conditions.prior_pos) * 1
        assert prof.best_cost == pytest.approx(m.optimal.expected_cost - baseline, rel=1e-12)


def test_dec006_flatness_is_the_run_within_tolerance(base):
    p = base.conditions.prior_pos
    e = econ.Economics(cost_fp=1, cost_fn=3)
    for m in base.models:
        prof = threshold_profile(m.curve, p, e)
        fl = prof.flatness
        cost = prof.expected_cost
        assert fl.cost_limit == pytest.approx(cost.min() * 1.05)
        assert fl.start <= prof.best <= fl.stop
        assert (cost[fl.start:fl.stop + 1] <= fl.cost_limit).all()
        if fl.start > 0:
            assert cost[fl.start - 1] > fl.cost_limit
        if fl.stop < len(prof) - 1:
            assert cost[fl.stop + 1] > fl.cost_limit
        outside = np.r_[cost[:fl.start], cost[fl.stop + 1:]]
        assert fl.elsewhere == bool((outside <= fl.cost_limit).any())
        assert (fl.threshold_low, fl.threshold_high) == (prof.threshold[fl.stop],
                                                         prof.threshold[fl.start])
        assert fl.flagged_low <= prof.best_flagged <= fl.flagged_high
        wide, exact = flatness(prof, 0.5), flatness(prof, 0.0)
        assert wide.start <= fl.start and wide.stop >= fl.stop
        assert (cost[exact.start:exact.stop + 1] == cost.min()).all()
        with pytest.raises(ValueError, match="within"):
            flatness(prof, -0.1)


def test_dec007_thin_profile_keeps_optimum_and_flat_ends():
    rng = np.random.default_rng(1)
    y = rng.random(60_000) < 0.2
    s = rng.normal(size=y.size) + 1.2 * y
    curve = roc_curve(y, s)
    prof = threshold_profile(curve, 0.1, econ.Economics(cost_fp=1, cost_fn=6))
    thin = thin_profile(prof, max_points=2000)
    assert len(thin) <= 2003 and len(thin) < len(prof)
    assert thin.best_threshold == prof.best_threshold
    assert thin.best_cost == prof.best_cost
    assert thin.flatness.threshold_low == prof.flatness.threshold_low
    assert thin.flatness.threshold_high == prof.flatness.threshold_high
    assert thin.threshold[0] == np.inf and thin.threshold[-1] == prof.threshold[-1]
    assert thin_profile(thin, max_points=5000) is thin


# ------------------------------------------------------------------------------ sensitivity

def _slope_index(hull, p, e):
    return optimal_point(hull, econ.net_slope(p, e)).index


@pytest.mark.parametrize("benefits", [(0.0, 0.0), (4.0, 1.0)])
def test_dec008_optimality_ranges_flip_just_outside(base, benefits):
    b_tp, b_tn = benefits
    p = 0.3
    e0 = econ.Economics(cost_fp=2, cost_fn=3, benefit_tp=b_tp, benefit_tn=b_tn)
    d = 1e-6
    checked = 0
    for hull in [base.hull] + [m.hull for m in base.models]:
        for k in range(len(hull)):
            rng_ = optimality_range(hull, k, p, e0)
            # the ratio c'(FN)/c'(FP), at fixed prior
            r = rng_.ratio
            for value, inside in ((r.low * (1 + d), True), (r.low * (1 - d), False),
                                  (r.high * (1 - d), True), (r.high * (1 + d), False)):
                if not (0 < value < math.inf) or r.low >= r.high:
                    continue
                e = econ.Economics(cost_fp=1, cost_fn=value)
                assert (_slope_index(hull, p, e) == k) == inside
                checked += 1
            # the prior, at the fixed (net) costs
            q = rng_.prior
            w = q.high - q.low
            for value, inside in ((q.low + d * w, True), (q.low - d * w, False),
                                  (q.high - d * w, True), (q.high + d * w, False)):
                if not 0 < value < 1 or w <= 0:
                    continue
                assert (_slope_index(hull, value, e0) == k) == inside
                checked += 1
            # c(FN) in money, with c(FP), the benefits and the prior fixed; then c(FP) likewise
            for cost in ("cost_fn", "cost_fp"):
                c = getattr(rng_, cost)
                for value, inside in ((c.low * (1 + d), True), (c.low * (1 - d), False),
                                      (c.high * (1 - d), True), (c.high * (1 + d), False)):
                    if not (0 < value < math.inf) or c.low >= c.high:
                        continue
                    e = dataclasses.replace(e0, **{cost: value})
                    assert (_slope_index(hull, p, e) == k) == inside
                    checked += 1
    assert checked > 100


def test_dec009_optimality_range_open_ends(base):
    hull = base.models[0].hull
    e = econ.Economics(cost_fp=1, cost_fn=1)
    first = optimality_range(hull, 0, 0.3, e)  # (0, 0): flag nothing
    assert first.ratio.low == 0 and first.ratio.low_open and not first.ratio.high_open
    assert first.prior.low == 0 and first.prior.low_open
    assert first.conservative_model is None and math.isnan(first.conservative_threshold)
    last = optimality_range(hull, len(hull) - 1, 0.3, e)  # (1, 1): flag everything
    assert last.ratio.high == math.inf and last.ratio.high_open and not last.ratio.low_open
    assert last.prior.high == 1 and last.prior.high_open
    assert last.liberal_model is None
    opt = optimal_point(hull, econ.net_slope(0.3, e))
    mid = optimality_range(hull, opt.index, 0.3, e)
    assert mid.optimal_now and mid.ratio.contains_value and mid.prior.contains_value
    assert mid.liberal_threshold == hull.thresholds[opt.index + 1]
    with pytest.raises(IndexError):
        optimality_range(hull, len(hull), 0.3, e)


# ---------------------------------------------------------------------------------- summary

@pytest.mark.parametrize("cond", [Conditions(cost_fn=5, prior_pos=0.1),
                                  Conditions(cost_fp=2, cost_fn=1),
                                  Conditions(cost_fn=4, prior_pos=0.2),
                                  Conditions(cost_fn=3)])
def test_dec010_summary_runner_up_delta(base, cond):
    a = with_conditions(base, cond)
    e = econ.Economics.from_conditions(a.conditions, population=20_000)
    s = decision_summary(a, economics=e)
    assert not s.pinned and s.model == a.optimal.model
    assert s.threshold == a.optimal.threshold
    assert s.expected_cost == pytest.approx(a.optimal.expected_cost, rel=1e-12)
    others = sorted((m.optimal.expected_cost, m.name) for m in a.models if m.name != s.model)
    assert s.runner_up == others[0][1] or s.runner_up_cost == pytest.approx(others[0][0])
    assert s.runner_up_cost == pytest.approx(others[0][0], rel=1e-12)
    assert s.delta_cost == pytest.approx(others[0][0] - a.optimal.expected_cost, abs=1e-14)
    assert s.delta_cost >= -1e-15 and s.excess_cost == 0
    assert s.cost_per_period == pytest.approx(20_000 * s.expected_cost)
    assert s.delta_per_period == pytest.approx(20_000 * s.delta_cost)
    assert s.flagged_per_period == pytest.approx(20_000 * s.flagged)
    p = a.conditions.prior_pos
    assert s.flagged == pytest.approx(p * s.tpr + (1 - p) * s.fpr)
    assert s.precision == pytest.approx(p * s.tpr / s.flagged)
    assert s.recall == s.tpr
    assert s.sensitivity is not None and s.sensitivity.optimal_now
    assert s.own_sensitivity is not None and s.own_sensitivity.optimal_now
    assert s.sensitivity.ratio.contains_value and s.sensitivity.prior.contains_value
    # a tie on the iso line: the optimum is the conservative end of a segment of slope m,
    # i.e. the slope is at its vertex's slope_low (the high ends of ratio and prior)
    sens = s.sensitivity
    assert s.tied == sens.slope.at_low == sens.ratio.at_high == sens.prior.at_high


def test_dec011_summary_follows_pin(base):
    a = with_conditions(base, Conditions(cost_fn=4, prior_pos=0.2))
    e = econ.Economics.from_conditions(a.conditions, population=1000)
    pin = {"model": "decision tree", "threshold": 0.5}
    s = decision_summary(a, pin, e)
    ref = summarise_operating_point("decision tree", a.model("decision tree").curve, 0.5,
                                    cost_fp=1, cost_fn=4, prior_pos=0.2)
    assert s.pinned and s.model == "decision tree" and s.threshold == ref.threshold
    assert (s.fpr, s.tpr) == (ref.fpr, ref.tpr)
    assert s.precision == pytest.approx(ref.precision)
    assert s.flagged == pytest.approx(ref.flagged)
    assert s.expected_cost == pytest.approx(ref.expected_cost, rel=1e-12)
    assert s.excess_cost == pytest.approx(ref.expected_cost - a.optimal.expected_cost)
    assert s.excess_per_period == pytest.approx(1000 * s.excess_cost)
    assert s.optimal_model == a.optimal.model
    best_other = min(m.optimal.expected_cost for m in a.models if m.name != "decision tree")
    assert s.delta_cost == pytest.approx(best_other - ref.expected_cost)
    # nothing flagged: precision undefined, said so, no division by zero
    s = decision_summary(a, {"model": "naive Bayes", "threshold": None}, e)
    assert s.nothing_flagged and math.isnan(s.precision) and s.flagged == 0
    assert s.threshold == math.inf and s.notes
    # an unknown model's pin is ignored
    assert not decision_summary(a, {"model": "nope", "threshold": 0.1}, e).pinned


def test_dec012_summary_with_benefits_matches_net_analysis(base):
    e = econ.Economics(cost_fp=1, cost_fn=1, benefit_tp=6, benefit_tn=0.5)
    s = decision_summary(base, economics=e)
    net = with_conditions(base, econ.net_conditions(base.conditions, e))
    assert (s.model, s.threshold) == (net.optimal.model, net.optimal.threshold)
    p = base.conditions.prior_pos
    assert s.expected_cost == pytest.approx(
        net.optimal.expected_cost - (p * 6 + (1 - p) * 0.5), rel=1e-12)
    assert s.sensitivity.uses_benefits and s.sensitivity.optimal_now


# ------------------------------------------------------------------------------ uncertainty

def test_dec013_fold_uncertainty_equals_manual(base, demo):
    p, e = 0.2, econ.Economics(cost_fp=1, cost_fn=4)
    for m in base.models:
        y, s, folds = _rows(demo, m.name)
        t = float(np.median(s))
        u = uncertainty_from_folds(m.folds, t, p, e, pooled=m.curve)
        tpr, fpr = [], []
        for f in m.folds:
            sel = folds.astype(str) == f
            yy, flag = y[sel], s[sel] >= t
            tpr.append((flag & yy).sum() / yy.sum())
            fpr.append((flag & ~yy).sum() / (~yy).sum())
        tpr, fpr = np.array(tpr), np.array(fpr)
        cost = p * (1 - tpr) * 4 + (1 - p) * fpr * 1
        np.testing.assert_allclose(u.tpr.values, tpr, rtol=1e-12)
        np.testing.assert_allclose(u.fpr.values, fpr, rtol=1e-12)
        np.testing.assert_allclose(u.expected_cost.values, cost, rtol=1e-12)
        assert u.expected_cost.mean == pytest.approx(cost.mean())
        assert u.expected_cost.std == pytest.approx(cost.std(ddof=1))
        assert u.n == 10 and u.tpr.interval == "range"  # 10 folds: min/max
        assert (u.tpr.low, u.tpr.high) == (tpr.min(), tpr.max())
        assert u.tpr.point == pytest.approx(((s >= t) & y).sum() / y.sum())
        assert u.method == "folds" and u.names == tuple(m.folds)


def _synthetic(n, seed=0, prevalence=0.3):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < prevalence
    return y, rng.normal(size=n) + 1.0 * y


def test_dec014_bootstrap_interval_contains_point_and_shrinks():
    e = econ.Economics(cost_fp=1, cost_fn=3)
    widths = []
    for n in (400, 40_000):
        y, s = _synthetic(n)
        u = uncertainty_from_bootstrap(y, s, 0.5, 0.3, e, n_boot=1000, seed=3)
        for sp in (u.tpr, u.fpr, u.expected_cost, u.flagged, u.precision):
            assert sp.interval == "percentile" and sp.low <= sp.point <= sp.high
        flag = s >= 0.5
        assert u.tpr.point == (flag & y).sum() / y.sum()
        # the bootstrap spread of a rate is the binomial standard error
        se = math.sqrt(u.tpr.point * (1 - u.tpr.point) / y.sum())
        assert u.tpr.std == pytest.approx(se, rel=0.15)
        widths.append(u.expected_cost.high - u.expected_cost.low)
    assert widths[1] < widths[0] / 5  # ~ 1/sqrt(100)


def test_dec015_bootstrap_weighted_paths():
    y, s = _synthetic(3000, seed=5)
    e = econ.Economics(cost_fp=1, cost_fn=2)
    plain = uncertainty_from_bootstrap(y, s, 0.4, 0.3, e, n_boot=300, seed=9)
    # equal weights: the same groups and the same draws, so the same replicates
    twice = uncertainty_from_bootstrap(y, s, 0.4, 0.3, e, weights=np.full(y.size, 2.0),
                                       n_boot=300, seed=9)
    np.testing.assert_allclose(twice.tpr.values, plain.tpr.values, rtol=1e-12)
    # continuous weights: grouped draws, and the row-index fallback with m-out-of-n
    w = np.random.default_rng(2).uniform(0.5, 1.5, y.size)
    grouped = uncertainty_from_bootstrap(y, s, 0.4, 0.3, e, weights=w, n_boot=1000, seed=1)
    assert not grouped.notes
    point = ((s >= 0.4) & y) @ w / (w @ y)
    assert grouped.tpr.point == pytest.approx(point)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(uncertainty, "_BUDGET", 10_000)
        fallback = uncertainty_from_bootstrap(y, s, 0.4, 0.3, e, weights=w, n_boot=1000,
                                              seed=1)
    assert "m-out-of-n" in fallback.notes[0]
    assert fallback.tpr.point == grouped.tpr.point
    assert fallback.tpr.std == pytest.approx(grouped.tpr.std, rel=0.15)
    assert fallback.expected_cost.std == pytest.approx(grouped.expected_cost.std, rel=0.15)


def test_dec016_decision_uncertainty_chooses_folds_or_bootstrap(base, demo):
    e = econ.Economics(cost_fp=1, cost_fn=2)
    m = base.models[0]
    assert decision_uncertainty(m, 0.5, 0.3, e).method == "folds"
    one = demo.assign(fold="all")
    single = analyse(one, Conditions()).model(m.name)
    with pytest.raises(ValueError, match="single fold"):
        decision_uncertainty(single, 0.5, 0.3, e)
    y, s, _ = _rows(demo, m.name)
    u = decision_uncertainty(single, 0.5, 0.3, e, labels=y, scores=s, n_boot=100)
    assert u.method == "bootstrap" and u.n == 100
    k = vertex_at_threshold(single.curve, 0.5)
    assert (u.fpr.point, u.tpr.point) == pytest.approx((single.curve.fpr[k],
                                                        single.curve.tpr[k]))
    for bad in (0, 2001):
        with pytest.raises(ValueError, match="n_boot"):
            uncertainty_from_bootstrap(y, s, 0.5, 0.3, e, n_boot=bad)
    # nothing flagged in any replicate: precision undefined, no error
    u = uncertainty_from_bootstrap(y, s, None, 0.3, e, n_boot=50)
    assert u.precision.n == 0 and math.isnan(u.precision.mean) and u.flagged.high == 0


# ----------------------------------------------------------------------- optimum frequency

def test_dec017_optimum_frequency_matches_fold_hulls(base):
    for cond in (Conditions(), Conditions(cost_fn=5, prior_pos=0.1)):
        a = with_conditions(base, cond)
        p = a.conditions.prior_pos
        freq = optimum_frequency_of(a)
        assert sum(freq.fractions.values()) == pytest.approx(1.0)
        assert freq.n == 10 and freq.method == "folds"
        manual = dict.fromkeys(freq.fractions, 0.0)
        for f in a.models[0].folds:
            costs = {}
            for m in a.models:
                hull = convex_hull(m.folds[f])
                o = optimal_point(hull, a.conditions.slope)
                costs[m.name] = expected_cost(o.fpr, o.tpr, cost_fp=cond.cost_fp,
                                              cost_fn=cond.cost_fn, prior_pos=p)
            low = min(costs.values())
            win = [k for k, v in costs.items() if np.isclose(v, low, rtol=1e-12, atol=0)]
            for k in win:
                manual[k] += 1 / len(win) / 10
        assert freq.fractions == pytest.approx(manual)


def _fold_models(seed=0):
    rng = np.random.default_rng(seed)
    good, noise = {}, {}
    for f in range(5):
        y = rng.random(300) < 0.3
        good[str(f)] = roc_curve(y, y + rng.normal(scale=0.1, size=y.size))
        noise[str(f)] = roc_curve(y, rng.normal(size=y.size))
    return good, noise


def test_dec018_optimum_frequency_dominating_and_ties():
    good, noise = _fold_models()
    e = econ.Economics(cost_fp=1, cost_fn=2)
    freq = optimum_frequency({"good": good, "noise": noise}, 0.3, e)
    assert freq.fractions == {"good": 1.0, "noise": 0.0}
    tie = optimum_frequency({"a": noise, "b": noise}, 0.3, e)
    assert tie.fractions == {"a": 0.5, "b": 0.5}
    partial = optimum_frequency({"good": good, "noise": dict(list(noise.items())[:3])}, 0.3, e)
    assert partial.n == 3 and partial.notes
    with pytest.raises(ValueError, match="no fold"):
        optimum_frequency({"a": {"1": good["0"]}, "b": {"2": good["1"]}}, 0.3, e)


def test_dec019_optimum_frequency_bootstrap(demo, base):
    rng = np.random.default_rng(4)
    y = rng.random(500) < 0.3
    good = y + rng.normal(scale=0.1, size=y.size)
    noise = rng.normal(size=y.size)
    e = econ.Economics(cost_fp=1, cost_fn=2)
    freq = optimum_frequency_bootstrap(y, {"good": good, "noise": noise}, 0.3, e, n_boot=50)
    assert freq.fractions == {"good": 1.0, "noise": 0.0} and freq.n == 50
    tie = optimum_frequency_bootstrap(y, {"a": noise, "b": noise.copy()}, 0.3, e, n_boot=20)
    assert tie.fractions == {"a": 0.5, "b": 0.5}
    # the demo: models scored on the same rows, paired by id
    wide = demo.pivot(index="id", columns="model", values="score")
    labels = demo.groupby("id")["label"].first().loc[wide.index].to_numpy(bool)
    scores = {c: wide[c].to_numpy() for c in wide.columns}
    f1 = optimum_frequency_bootstrap(labels, scores, P_DEMO, e, n_boot=200, seed=1)
    f2 = optimum_frequency_bootstrap(labels, scores, P_DEMO, e, n_boot=200, seed=1)
    assert f1.fractions == f2.fractions
    assert sum(f1.fractions.values()) == pytest.approx(1.0)
    # white box: replay the replicates' row draws and find each winner by brute force
    # (a fresh ROC curve of the resampled rows per model)
    n_boot, n = 20, labels.size
    f3 = optimum_frequency_bootstrap(labels, scores, P_DEMO, e, n_boot=n_boot, seed=7)
    idx = np.random.default_rng(7).integers(0, n, size=(n_boot, n))
    wins = dict.fromkeys(scores, 0.0)
    for r in idx:
        best = {k: min(econ.regret_per_case(c.fpr, c.tpr, P_DEMO, e)) for k, c in
                ((k, roc_curve(labels[r], v[r])) for k, v in scores.items())}
        low = min(best.values())
        tied = [k for k, v in best.items() if np.isclose(v, low, rtol=1e-12, atol=0)]
        for k in tied:
            wins[k] += 1 / len(tied)
    assert f3.wins == pytest.approx(wins)


def test_dec020_frequency_bootstrap_subsamples_large_data(monkeypatch):
    monkeypatch.setattr(optimum_wins, "MAX_ROWS", 1000)
    y, s = _synthetic(5000, seed=2)
    freq = optimum_frequency_bootstrap(y, {"a": s, "b": -s}, 0.3,
                                       econ.Economics(cost_fp=1, cost_fn=1), n_boot=30)
    assert freq.notes and "1,000 of the 5,000" in freq.notes[0]
    assert freq.fractions["a"] == 1.0


def test_dec021_no_models_gives_none(base):
    empty = dataclasses.replace(base, models=[])
    assert decision_summary(empty) is None
