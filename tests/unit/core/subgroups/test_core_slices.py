"""Slices (issue 18): per-group curves against scikit-learn on each group's rows, DeLong
intervals against an O(P*N) reference, per-group optima against a loop over every threshold,
per-group rates against fairlearn's MetricFrame, the deployment rule against its definition."""

import math

import numpy as np
import pytest
from fairlearn.metrics import (
    MetricFrame,
    false_positive_rate,
    selection_rate,
    true_positive_rate,
)
from scipy.stats import norm
from sklearn.metrics import roc_auc_score
from sklearn.metrics import roc_curve as sk_roc_curve

from roc_dash.core.subgroups.slices import (
    group_deployment,
    group_rocs,
    slice_analysis,
    slice_optima,
)
from tests.oracles import delong_auc_variance

PREVALENCE = {"north": 0.15, "south": 0.4, "east": 0.3, "west": 0.55}
SEPARATION = {"north": 1.6, "south": 0.8, "east": 1.2, "west": 0.4}


def _data(seed, n=1500, ties=False, names=("north", "south", "east", "west")):
    """Groups differing in prevalence and in how well the score separates the classes."""
    rng = np.random.default_rng(seed)
    g = rng.choice(np.array(names), n, p=np.linspace(2, 1, len(names)) / np.linspace(
        2, 1, len(names)).sum())
    prev = np.array([PREVALENCE[x] for x in g])
    sep = np.array([SEPARATION[x] for x in g])
    y = rng.random(n) < prev
    s = rng.normal(size=n) + sep * y
    if ties:
        s = np.round(s * 2) / 2
    return y, s, g


def _naive_prior_rule(y, g, w, names, prior=None):
    """Shares and priors straight from the definition: each group keeps its share of each
    class; ``prior`` rescales the classes."""
    w = np.ones(y.size) if w is None else w
    pos = np.array([w[(g == k) & y].sum() for k in names])
    neg = np.array([w[(g == k) & ~y].sum() for k in names])
    p = pos.sum() / (pos.sum() + neg.sum()) if prior is None else prior
    mass_pos = p * pos / pos.sum()
    mass_neg = (1 - p) * neg / neg.sum()
    return mass_pos + mass_neg, mass_pos / (mass_pos + mass_neg)


def _naive_delong(y, s):
    """AUC and DeLong's standard error from every pair of the group's rows."""
    a, var = delong_auc_variance(y, s)
    return a, math.sqrt(var)


@pytest.mark.parametrize("ties", [False, True])
def test_slc001_group_curves_match_sklearn_on_each_groups_rows(ties):
    y, s, g = _data(1, ties=ties)
    rocs = group_rocs(y, s, g)
    assert [r.name for r in rocs] == sorted(set(g))
    for r in rocs:
        m = g == r.name
        fpr, tpr, thr = sk_roc_curve(y[m], s[m], drop_intermediate=False)
        np.testing.assert_allclose(r.curve.fpr, fpr, atol=1e-12)
        np.testing.assert_allclose(r.curve.tpr, tpr, atol=1e-12)
        np.testing.assert_allclose(r.curve.thresholds[1:], thr[1:])
        assert r.auc == pytest.approx(roc_auc_score(y[m], s[m]), abs=1e-12)
        assert r.rows == m.sum() and r.n_pos == y[m].sum() and r.n_neg == (~y[m]).sum()
        assert r.prevalence == pytest.approx(y[m].mean())
        # hull above every vertex of the curve (Fawcett 2004, section 7.1)
        top = np.interp(r.curve.fpr, r.hull.fpr, r.hull.tpr)
        assert (top >= r.curve.tpr - 1e-12).all()


def test_slc002_auc_interval_is_delong_of_the_group():
    y, s, g = _data(2, n=600)
    for r in group_rocs(y, s, g, level=0.9):
        m = g == r.name
        a, se = _naive_delong(y[m], s[m])
        z = norm.ppf(0.95)
        assert r.auc_interval.auc == pytest.approx(a, abs=1e-12)
        assert r.auc_interval.std_error == pytest.approx(se, rel=1e-9)
        assert r.auc_interval.low == pytest.approx(max(0.0, a - z * se), rel=1e-9)
        assert r.auc_interval.high == pytest.approx(min(1.0, a + z * se), rel=1e-9)


@pytest.mark.parametrize("prior", [None, 0.1, 0.6])
def test_slc003_group_optimum_is_the_cheapest_threshold(prior):
    y, s, g = _data(3, ties=True)
    cost_fp, cost_fn = 1.0, 4.0
    result = slice_analysis(y, s, g, cost_fp=cost_fp, cost_fn=cost_fn, prior_pos=prior)
    names = [o.name for o in result.optima]
    share, pri = _naive_prior_rule(y, g, None, names, prior)
    for o, w_g, p_g in zip(result.optima, share, pri, strict=True):
        m = g == o.name
        assert o.share == pytest.approx(w_g) and o.prior_pos == pytest.approx(p_g)
        best, best_t = math.inf, None
        for t in [np.inf, *sorted(set(s[m]), reverse=True)]:  # every rule "score >= t"
            flag = s[m] >= t
            tpr, fpr = flag[y[m]].mean(), flag[~y[m]].mean()
            c = p_g * (1 - tpr) * cost_fn + (1 - p_g) * fpr * cost_fp
            if c < best - 1e-12:
                best, best_t = c, t
        assert o.expected_cost == pytest.approx(best, abs=1e-12)
        assert o.optimum.threshold == best_t  # among equal costs the highest threshold
    assert result.expected_cost == pytest.approx(
        sum(o.share * o.expected_cost for o in result.optima))


def test_slc004_rates_at_the_optima_equal_fairlearn_metricframe():
    y, s, g = _data(4)
    result = slice_analysis(y, s, g, cost_fp=1.0, cost_fn=3.0)
    thresholds = {o.name: o.optimum.threshold for o in result.optima}
    y_pred = s >= np.array([thresholds[k] for k in g])
    frame = MetricFrame(metrics={"tpr": true_positive_rate, "fpr": false_positive_rate,
                                 "sel": selection_rate},
                        y_true=y, y_pred=y_pred, sensitive_features=g)
    for o in result.optima:
        row = frame.by_group.loc[o.name]
        assert o.optimum.tpr == pytest.approx(row["tpr"], abs=1e-12)
        assert o.optimum.fpr == pytest.approx(row["fpr"], abs=1e-12)
        p = result.roc(o.name).prevalence
        assert p * o.optimum.tpr + (1 - p) * o.optimum.fpr == pytest.approx(row["sel"])


def test_slc005_deployment_rule():
    pos, neg = np.array([10.0, 30.0, 60.0]), np.array([90.0, 70.0, 40.0])
    share, prior = group_deployment(pos, neg)  # the data's prevalence: the data's groups
    np.testing.assert_allclose(share, (pos + neg) / 300)
    np.testing.assert_allclose(prior, pos / (pos + neg))
    share, prior = group_deployment(pos, neg, prior_pos=0.2)
    assert (share * prior).sum() == pytest.approx(0.2)
    assert share.sum() == pytest.approx(1.0)
    # every group's odds move by one factor; each keeps its share of each class
    odds = prior / (1 - prior) / (pos / neg)
    np.testing.assert_allclose(odds, odds[0])
    np.testing.assert_allclose(share * prior / 0.2, pos / pos.sum())
    share, prior = group_deployment(pos, neg, prior_pos=0.2,
                                    group_priors=[0.5, np.nan, 0.01])
    np.testing.assert_allclose(share, (pos + neg) / 300)
    assert prior[0] == 0.5 and prior[2] == 0.01
    assert prior[1] == pytest.approx(group_deployment(pos, neg, prior_pos=0.2)[1][1])


def test_slc006_gaps_are_the_best_and_worst_groups():
    y, s, g = _data(6)
    result = slice_analysis(y, s, g, cost_fp=2.0, cost_fn=1.0)
    aucs = {r.name: roc_auc_score(y[g == r.name], s[g == r.name]) for r in result.rocs}
    assert result.auc_gap.best == max(aucs, key=aucs.get)
    assert result.auc_gap.worst == min(aucs, key=aucs.get)
    assert result.auc_gap.gap == pytest.approx(max(aucs.values()) - min(aucs.values()))
    costs = {o.name: o.expected_cost for o in result.optima}
    assert result.cost_gap.best == min(costs, key=costs.get)
    assert result.cost_gap.gap == pytest.approx(max(costs.values()) - min(costs.values()))


def test_slc007_single_class_and_small_groups_are_flagged_not_hidden():
    y, s, g = _data(7, n=800)
    g = g.astype(object)
    g[:25] = "tiny"
    y[:5], y[5:25] = True, False
    g[25:40] = "only-positive"
    y[25:40] = True
    result = slice_analysis(y, s, g, min_positives=10, min_negatives=10)
    tiny, alone = result.roc("tiny"), result.roc("only-positive")
    assert tiny.small and tiny.curve is not None
    assert alone.small and alone.curve is None and math.isnan(alone.auc)
    assert alone.n_pos == 15 and alone.n_neg == 0
    assert result.excluded == ("only-positive",)
    assert "only-positive" not in [o.name for o in result.optima]
    assert sum(o.share for o in result.optima) == pytest.approx(1.0)
    big = [r for r in result.rocs if r.name not in ("tiny", "only-positive")]
    assert not any(r.small for r in big)
    with pytest.raises(KeyError, match="only-positive"):
        result.optimum("only-positive")


def test_slc008_integer_weights_equal_repeated_rows():
    y, s, g = _data(8, n=400, ties=True)
    w = np.random.default_rng(8).integers(1, 4, y.size).astype(float)
    rep = np.repeat(np.arange(y.size), w.astype(int))
    a = slice_analysis(y, s, g, weights=w, cost_fn=2.0, prior_pos=0.3)
    b = slice_analysis(y[rep], s[rep], g[rep], cost_fn=2.0, prior_pos=0.3)
    for ra, rb in zip(a.rocs, b.rocs, strict=True):
        np.testing.assert_allclose(ra.curve.tpr, rb.curve.tpr)
        np.testing.assert_allclose(ra.curve.fpr, rb.curve.fpr)
        assert ra.auc_interval.std_error == pytest.approx(rb.auc_interval.std_error)
    for oa, ob in zip(a.optima, b.optima, strict=True):
        assert oa.optimum.threshold == ob.optimum.threshold
        assert oa.expected_cost == pytest.approx(ob.expected_cost)


def test_slc009_group_priors_move_each_groups_optimum():
    y, s, g = _data(9)
    rocs = group_rocs(y, s, g)
    base = slice_optima(rocs)
    moved = slice_optima(rocs, group_priors={"west": 0.9})
    assert moved.optimum("west").prior_pos == 0.9
    assert moved.optimum("west").optimum.fpr > base.optimum("west").optimum.fpr
    assert moved.optimum("north").prior_pos == pytest.approx(
        base.optimum("north").prior_pos)
    assert moved.group_priors == {"west": 0.9}


@pytest.mark.parametrize("call, message", [
    (lambda y, s, g: group_rocs(y, s, g[:-1]), "differ in length"),
    (lambda y, s, g: group_rocs(y, s, np.where(np.arange(g.size) == 3, None, g)),
     "1 missing values"),
    (lambda y, s, g: slice_analysis(y, s, g, group_priors={"nowhere": 0.5}),
     "not analysed"),
    (lambda y, s, g: slice_analysis(y, s, g, group_priors={"north": 1.5}),
     "strictly between 0 and 1"),
    (lambda y, s, g: slice_analysis(y, s, g, prior_pos=1.0), "strictly between"),
    (lambda y, s, g: slice_analysis(y, s, g, cost_fp=0.0), "positive and finite"),
    (lambda y, s, g: group_rocs(y, s, g, min_positives=-1), "min_positives"),
    (lambda y, s, g: slice_analysis(np.ones(g.size, bool), s, g), "no group has both"),
])
def test_slc010_bad_input_is_refused_with_a_message(call, message):
    y, s, g = _data(10, n=300)
    with pytest.raises(ValueError, match=message):
        call(y, s, g)
