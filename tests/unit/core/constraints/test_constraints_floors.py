"""A floor on a metric (flr001-flr012): the floors read from text, their half-planes against
the metrics themselves, the feasible region, the best threshold against scikit-learn's
TunedThresholdClassifierCV with a constraint scorer, the best hull point against a dense
sampling of the hull, the conservative choice against statsmodels' exact intervals, and
how sure a floor is to hold (the replicates of point_intervals reused)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.metrics import confusion_matrix, make_scorer
from sklearn.model_selection import TunedThresholdClassifierCV
from statsmodels.stats.proportion import proportion_confint

from roc_dash.core.constraints import (
    Floor,
    feasible_region,
    floor_confidence,
    floor_decision,
    metric_values,
    parse_floor,
    procedure_shares,
    replicate_choices,
    resample_thresholds,
)
from roc_dash.core.decisions.economics import Economics, expected_cost_per_case
from roc_dash.core.decisions.point_intervals import point_intervals
from roc_dash.core.decisions.uncertainty import uncertainty_from_bootstrap
from roc_dash.core.roc.curves import roc_curve
from roc_dash.core.roc.hull import convex_hull


def _data(n=600, seed=0, prevalence=0.3, shift=1.5, digits=None):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < prevalence
    s = rng.normal(size=n) + shift * y
    return y, (s if digits is None else np.round(s, digits))


def test_flr001_floors_from_text():
    assert parse_floor("precision>=0.9") == Floor("precision", ">=", 0.9)
    assert parse_floor(" recall ≥ 95% ") == Floor("recall", ">=", 0.95)
    assert parse_floor("FPR<=1%") == Floor("fpr", "<=", 0.01)
    assert parse_floor("fnr<=0.05") == Floor("recall", ">=", 0.95)
    assert parse_floor("queue_rate<=0.02") == Floor("flagged", "<=", 0.02)
    assert parse_floor("tnr>=0.8").text == "specificity ≥ 0.8"
    with pytest.raises(ValueError, match="is not a floor: a limit on precision keeps it high"):
        parse_floor("precision<=0.9")
    with pytest.raises(ValueError, match="unknown metric 'auc'"):
        parse_floor("auc>=0.8")
    with pytest.raises(ValueError, match="must lie in \\[0, 1\\]"):
        parse_floor("recall>=95")
    with pytest.raises(ValueError, match="write METRIC>=VALUE"):
        parse_floor("precision is high")


@pytest.mark.parametrize("text", ["precision>=0.7", "recall>=0.6", "specificity>=0.9",
                                  "fpr<=0.2", "npv>=0.85", "flagged<=0.3"])
def test_flr002_half_plane_is_the_metric(text):
    fl = parse_floor(text)
    rng = np.random.default_rng(1)
    f, t = rng.random(4000), rng.random(4000)
    v = metric_values(fl.metric, f, t, 0.3)
    want = v >= fl.value if fl.bound == ">=" else v <= fl.value
    ok = np.isfinite(v) & (np.abs(v - fl.value) > 1e-9)
    np.testing.assert_array_equal(fl.met(f, t, 0.3)[ok], want[ok])


def _inside(poly_f, poly_t, f, t):
    """Point in a convex polygon given counter-clockwise (closed)."""
    ok = np.ones(f.size, dtype=bool)
    for k in range(poly_f.size - 1):
        ax, ay, bx, by = poly_f[k], poly_t[k], poly_f[k + 1], poly_t[k + 1]
        ok &= (bx - ax) * (t - ay) - (by - ay) * (f - ax) >= -1e-12
    return ok


def test_flr003_feasible_region_is_where_every_floor_holds():
    floors = [parse_floor(x) for x in ("precision>=0.6", "recall>=0.4", "fpr<=0.3")]
    region = feasible_region(floors, 0.3)
    assert not region.empty and region.fpr[0] == region.fpr[-1]
    rng = np.random.default_rng(2)
    f, t = rng.random(20000), rng.random(20000)
    met = np.logical_and.reduce([fl.met(f, t, 0.3) for fl in floors])
    np.testing.assert_array_equal(_inside(region.fpr, region.tpr, f, t), met)
    # its PR outline meets the floors it can show
    assert (region.precision >= 0.6 - 1e-9).all() and (region.recall >= 0.4 - 1e-9).all()
    assert feasible_region([parse_floor("recall>=0.5"), parse_floor("flagged<=0.01")],
                           0.3).empty


class _Scores(ClassifierMixin, BaseEstimator):
    """A prefitted classifier whose probability is the one feature (the model's score)."""

    def fit(self, X, y):
        self.classes_ = np.array([0, 1])
        return self

    def predict_proba(self, X):
        s = np.asarray(X, dtype=float)[:, 0]
        return np.column_stack([1 - s, s])


@pytest.mark.parametrize("floors", [("precision>=0.75",), ("recall>=0.8",),
                                    ("fpr<=0.05",), ("precision>=0.6", "recall>=0.5"),
                                    ("npv>=0.9", "flagged<=0.5")])
@pytest.mark.slow  # minutes on a busy machine: the full tier (make test-all) runs it
def test_flr004_best_threshold_is_sklearns_tuned_threshold(floors):
    y, s = _data(n=800, seed=3)
    p = 1 / (1 + np.exp(-s))  # probabilities for the estimator; same order as s
    e = Economics(cost_fp=1.3, cost_fn=3.1)  # no two thresholds cost the same
    fd = floor_decision(roc_curve(y, p), floors, economics=e)
    fl = [parse_floor(f) for f in floors]

    def constrained_cost(yt, yp):
        tn, fp, fn, tp = confusion_matrix(yt, yp, labels=[0, 1]).ravel()
        tpr, fpr = tp / (tp + fn), fp / (fp + tn)
        if not all(bool(f.met(fpr, tpr, yt.mean())) for f in fl):
            return -np.inf
        return -(3.1 * fn + 1.3 * fp) / len(yt)

    tuned = TunedThresholdClassifierCV(
        _Scores().fit(p[:, None], y), scoring=make_scorer(constrained_cost), cv="prefit",
        refit=False, thresholds=np.unique(p)).fit(p[:, None], y.astype(int))
    if tuned.best_score_ == -np.inf:  # no single threshold meets them
        assert math.isnan(fd.threshold) and fd.index is None
        return
    assert fd.threshold == tuned.best_threshold_
    assert fd.expected_cost == pytest.approx(-tuned.best_score_, abs=1e-12)
    assert fd.cost_of_floors >= 0


def test_flr005_best_hull_point_beats_every_sampled_hull_point_meeting_the_floors():
    y, s = _data(n=500, seed=4, digits=1)
    curve = roc_curve(y, s)
    e = Economics(cost_fp=1.0, cost_fn=4.0)
    for floors in (["precision>=0.65"], ["fpr<=0.1"], ["recall>=0.7", "precision>=0.5"]):
        fd = floor_decision(curve, floors, economics=e)
        h = convex_hull(curve)
        u = np.linspace(0, 1, 2001)[:, None]
        f = (h.fpr[:-1] + u * np.diff(h.fpr)).ravel()
        t = (h.tpr[:-1] + u * np.diff(h.tpr)).ravel()
        ok = np.logical_and.reduce([parse_floor(x).met(f, t, fd.prior_pos) for x in floors])
        sampled = expected_cost_per_case(f[ok], t[ok], fd.prior_pos, e).min()
        assert fd.best_cost <= sampled + 1e-12
        assert fd.best_cost >= sampled - 1e-3  # and it is on the hull, not below it
        assert all(bool(parse_floor(x).met(fd.best.fpr, fd.best.tpr, fd.prior_pos))
                   for x in floors)
        # the randomised hull point never costs more than the best single threshold
        assert fd.best_cost <= fd.expected_cost + 1e-12


def test_flr006_infeasible_floors_say_what_the_model_reaches():
    y, s = _data(n=400, seed=5, shift=0.8)
    fd = floor_decision(roc_curve(y, s), ["precision>=0.95", "recall>=0.9"])
    assert not fd.feasible and fd.best is None and fd.index is None
    assert math.isnan(fd.threshold) and math.isnan(fd.expected_cost)
    assert "No threshold of the model meets every floor" in fd.notes[-1]
    assert "precision ≥ 0.95: the model reaches precision" in fd.notes[-1]
    # what it reaches: the best precision among thresholds with recall >= 0.9
    curve = roc_curve(y, s)
    ok = curve.tpr >= 0.9
    best = np.nanmax(metric_values("precision", curve.fpr[ok], curve.tpr[ok], fd.prior_pos))
    assert fd.closest["precision ≥ 0.95"] == pytest.approx(best)


def test_flr007_confident_choice_meets_the_floor_at_statsmodels_exact_bounds():
    y, s = _data(n=300, seed=6)
    curve = roc_curve(y, s)
    e = Economics(cost_fp=1.0, cost_fn=10.0)  # the optimum flags more: the floor binds
    fd = floor_decision(curve, ["fpr<=0.1"], economics=e, confidence=0.9)
    n_neg = int((~y).sum())
    fp = np.rint(curve.fpr * n_neg).astype(int)
    # one-sided upper bound at 0.9 = the upper limit of a two-sided interval at 0.8
    upper = np.array([proportion_confint(k, n_neg, alpha=0.2, method="beta")[1]
                      for k in fp])
    upper[fp == n_neg] = 1.0
    allowed = upper <= 0.1
    cost = expected_cost_per_case(curve.fpr, curve.tpr, fd.prior_pos, e)
    k = int(np.flatnonzero(allowed)[np.argmin(cost[allowed])])
    assert fd.index == k
    plain = floor_decision(curve, ["fpr<=0.1"], economics=e)
    assert plain.fpr > fd.fpr  # the estimates alone allow a riskier threshold


def test_flr008_intervals_and_shares_at_a_fixed_threshold():
    y, s = _data(n=500, seed=7)
    floors = ["recall>=0.6", "precision>=0.6"]
    fd = floor_decision(roc_curve(y, s), floors)
    fc = floor_confidence(y, s, floors, fd.threshold, n_boot=300, seed=3, procedure=False)
    u = uncertainty_from_bootstrap(y, s, fd.threshold, fd.prior_pos,
                                   Economics(1.0, 1.0), n_boot=300, seed=3)
    recall, precision = fc.holds
    flagged = s >= fd.threshold
    tp, n_pos = int((flagged & y).sum()), int(y.sum())
    assert recall.estimate == tp / n_pos
    lo, hi = proportion_confint(tp, n_pos, alpha=0.05, method="beta")
    assert (recall.exact_low, recall.exact_high) == pytest.approx((lo, hi))
    assert recall.bound == pytest.approx(proportion_confint(tp, n_pos, alpha=0.1,
                                                            method="beta")[0])
    assert recall.holds_share == pytest.approx(np.mean(u.tpr.values >= 0.6))
    assert precision.holds_share == pytest.approx(
        np.mean(u.precision.values[np.isfinite(u.precision.values)] >= 0.6))
    # precision at the data's own prevalence: TP of the flagged cases is binomial
    n_flag = int(flagged.sum())
    assert precision.bound == pytest.approx(proportion_confint(tp, n_flag, alpha=0.1,
                                                               method="beta")[0])
    assert precision.bound_method == "exact" and math.isnan(fc.procedure_all_share)
    assert fc.all_share == pytest.approx(np.mean((u.tpr.values >= 0.6)
                                                 & (u.precision.values >= 0.6)))


def test_flr009_a_binding_floor_holds_in_about_half_the_replicates():
    y, s = _data(n=2000, seed=8, shift=1.0)
    e = Economics(cost_fp=5.0, cost_fn=1.0)  # costs push below the floor: it binds
    fd = floor_decision(roc_curve(y, s), ["recall>=0.7"], economics=e)
    assert fd.cost_of_floors > 0
    fc = floor_confidence(y, s, ["recall>=0.7"], fd.threshold, economics=e, n_boot=400)
    hold = fc.holds[0]
    assert 0.3 < hold.holds_share < 0.75
    assert 0.25 < hold.procedure_share < 0.75
    assert not hold.holds_with_confidence  # the lower bound is below the floor
    safe = floor_decision(roc_curve(y, s), ["recall>=0.7"], economics=e, confidence=0.95)
    fc2 = floor_confidence(y, s, ["recall>=0.7"], safe.threshold, economics=e, n_boot=400,
                           confidence=0.95)
    assert fc2.holds[0].holds_with_confidence
    assert fc2.holds[0].holds_share > 0.9 and fc2.holds[0].procedure_share > 0.9


def test_flr010_replicates_are_those_of_point_intervals():
    y, s = _data(n=300, seed=9, digits=2)
    e = Economics(cost_fp=1.0, cost_fn=2.0)
    reps = resample_thresholds(y, s, n_boot=64, seed=11)
    k = replicate_choices(reps, ["recall>=0"], prior_pos=0.3, economics=e)
    ref = point_intervals(y, s, 0.3, e, n_boot=64, seed=11).optimum
    np.testing.assert_array_equal(reps.thresholds[k], ref.threshold.values)
    np.testing.assert_allclose(reps.tp_in[np.arange(64), k] / reps.n_pos, ref.tpr.values)


def test_flr011_procedure_shares_by_brute_force():
    y, s = _data(n=250, seed=10, digits=2)
    reps = resample_thresholds(y, s, n_boot=40, seed=2)
    floors = [parse_floor("precision>=0.6"), parse_floor("recall>=0.5")]
    e = Economics(cost_fp=2.0, cost_fn=1.0)
    shares, every, chosen = procedure_shares(reps, floors, prior_pos=0.3, economics=e)
    curve = roc_curve(y, s)  # all the data: the bootstrap's population
    held, made = [], 0
    for r in range(40):
        best, pick = math.inf, None
        for j in range(reps.thresholds.size):
            f, t = reps.fp_in[r, j] / reps.n_neg, reps.tp_in[r, j] / reps.n_pos
            if all(bool(fl.met(f, t, 0.3)) for fl in floors):
                c = expected_cost_per_case(f, t, 0.3, e)
                if c < best - 1e-12:
                    best, pick = c, j
        if pick is None:
            continue
        made += 1
        k = int(np.flatnonzero(curve.thresholds == reps.thresholds[pick])[0])
        held.append([bool(fl.met(curve.fpr[k], curve.tpr[k], 0.3)) for fl in floors])
    held = np.array(held)
    np.testing.assert_allclose(shares, held.mean(axis=0))
    assert every == pytest.approx(held.all(axis=1).mean())
    assert chosen == pytest.approx(made / 40)


def test_flr012_bad_input_is_named():
    y, s = _data(n=100, seed=11)
    curve = roc_curve(y, s)
    with pytest.raises(ValueError, match="give at least one floor"):
        floor_decision(curve, [])
    with pytest.raises(ValueError, match="confidence must lie strictly between 0 and 1"):
        floor_decision(curve, ["recall>=0.5"], confidence=1.5)
    with pytest.raises(ValueError, match="level must exceed 0.5"):
        floor_confidence(y, s, ["recall>=0.5"], 0.0, level=0.4)
