"""Thresholds under fairness constraints (issue 18), checked three independent ways:

* exactly, against a linear programme (scipy's HiGHS) over every random mix of each group's
  threshold classifiers (the feasible set of a group is the convex hull of its ROC points);
* by brute force on small data: a loop over every threshold (one threshold for all) and a
  grid of common rates with each group's best pair of thresholds and mixing weight;
* against fairlearn's ``ThresholdOptimizer`` and ``MetricFrame``.

How the objectives relate. ``ThresholdOptimizer`` maximises a score of the predictions on
the data: ``accuracy_score`` = 1 − (errors / n), or ``balanced_accuracy_score`` =
(TPR + TNR) / 2 of the pooled rates. roc-dash minimises the expected cost per case
``C = sum_g w_g [p_g (1 − TPR_g) c(FN) + (1 − p_g) FPR_g c(FP)]``. With unit costs and the
data's own prevalence (``prior_pos=None``: every group keeps its share and prevalence) ``C``
is the error rate, so ``C = 1 − accuracy``; with unit costs and ``prior_pos=0.5`` (each group
keeps its share of each class) ``C = (1 − TPR)/2 + FPR/2 = 1 − balanced accuracy``. Under
its "simple" constraints (demographic parity, true-positive-rate parity) fairlearn's
``balanced_accuracy_score`` is instead the size-weighted mean of the groups' balanced
accuracies, ``sum_g (n_g / n) (TPR_g + TNR_g) / 2``: that is ``1 − C`` with a prior of 1/2
in every group (``group_priors``; the groups keep their share of cases). Demographic parity
is compared on accuracy only, as a prior of 1/2 per group would also move the share flagged
that roc-dash equalises (at the deployment prior). So each comparison below is on the shared
objective. fairlearn searches a grid of 1,001 rates (``grid_size``), roc-dash solves
exactly: its cost may be lower by up to one grid step's worth, never higher, and its rates
agree within a few grid steps.
"""

import math

import numpy as np
import pytest
from fairlearn.metrics import (
    MetricFrame,
    false_positive_rate,
    selection_rate,
    true_positive_rate,
)
from fairlearn.postprocessing import ThresholdOptimizer
from scipy.optimize import linprog
from sklearn.base import BaseEstimator, ClassifierMixin

from roc_dash.core.subgroups.group_thresholds import CONSTRAINTS, group_thresholds
from roc_dash.core.subgroups.slices import slice_analysis


def _data(seed, n=2000, groups=3, ties=False):
    """Groups differing in size, prevalence and score quality."""
    rng = np.random.default_rng(seed)
    names = np.array([f"g{k}" for k in range(groups)])
    g = rng.choice(names, n, p=np.linspace(2, 1, groups) / np.linspace(2, 1, groups).sum())
    k = np.searchsorted(names, g)
    prev = rng.uniform(0.15, 0.6, groups)[k]
    sep = rng.uniform(0.3, 2.0, groups)[k]
    y = rng.random(n) < prev
    y[:groups], y[groups:2 * groups] = True, False  # both classes in every group
    g[:groups] = g[groups:2 * groups] = names
    s = rng.normal(size=n) + sep * np.where(y, 1.0, 0.0)
    if ties:
        s = np.round(s, 1)
    return y, s, g


def _curves(analysis):
    return [(o, analysis.roc(o.name).curve) for o in analysis.optima]


def _weights(analysis):
    a = np.array([analysis.cost_fn * o.share * o.prior_pos for o in analysis.optima])
    b = np.array([analysis.cost_fp * o.share * (1 - o.prior_pos) for o in analysis.optima])
    return a, b


def _lp_cost(analysis, constraint):
    """The exact optimum as a linear programme: group g mixes its threshold classifiers
    (curve vertices) with weights lambda >= 0 summing to 1; common rates are variables."""
    curves = _curves(analysis)
    a, b = _weights(analysis)
    sizes = [len(c) for _, c in curves]
    n_var = sum(sizes) + 3  # + common TPR, FPR, share flagged
    c = np.zeros(n_var)
    rows, rhs = [], []

    def row(sl, values, common=None):
        r = np.zeros(n_var)
        r[sl] = values
        if common is not None:
            r[n_var - 3 + common] = -1.0
        rows.append(r)
        rhs.append(0.0 if common is not None else 1.0)

    start = 0
    for g, (o, curve) in enumerate(curves):
        sl = slice(start, start + sizes[g])
        c[sl] = -a[g] * curve.tpr + b[g] * curve.fpr
        row(sl, 1.0)
        if constraint in ("equal_opportunity", "equalized_odds"):
            row(sl, curve.tpr, 0)
        if constraint == "equalized_odds":
            row(sl, curve.fpr, 1)
        if constraint == "demographic_parity":
            row(sl, o.prior_pos * curve.tpr + (1 - o.prior_pos) * curve.fpr, 2)
        start += sizes[g]
    res = linprog(c, A_eq=np.array(rows), b_eq=rhs,
                  bounds=[(0, None)] * (n_var - 3) + [(0, 1)] * 3, method="highs")
    assert res.success
    return res.fun + a.sum()


def _flag_probability(rule, s):
    """Each case's probability of being flagged under a rule, from its score bands."""
    between = 0.0 if math.isnan(rule.p_between) else rule.p_between
    return np.where(s >= rule.threshold_upper, rule.p_upper,
                    np.where(s >= rule.threshold_lower, between, rule.p_lower))


@pytest.mark.parametrize("seed", range(12))
def test_gth001_every_constraint_solved_exactly_as_a_linear_programme(seed):
    rng = np.random.default_rng(100 + seed)
    y, s, g = _data(seed, n=int(rng.integers(40, 300)), groups=int(rng.integers(2, 5)),
                    ties=bool(seed % 2))
    analysis = slice_analysis(y, s, g, cost_fp=float(rng.uniform(0.3, 3)),
                              cost_fn=float(rng.uniform(0.3, 3)),
                              prior_pos=None if seed % 3 == 0 else float(rng.uniform(0.1, 0.9)))
    result = group_thresholds(analysis)
    for constraint in ("group_optima", "equal_opportunity", "equalized_odds",
                       "demographic_parity"):
        lp = _lp_cost(analysis, constraint if constraint != "group_optima" else "none")
        assert result.solution(constraint).expected_cost == pytest.approx(lp, abs=1e-9)


@pytest.mark.parametrize("seed", range(6))
def test_gth002_each_rule_delivers_its_rates_and_the_constraint_holds(seed):
    y, s, g = _data(seed, n=700, groups=3, ties=seed % 2 == 0)
    result = group_thresholds(slice_analysis(y, s, g, cost_fn=2.5))
    for sol in result.solutions:
        for rule in sol.rules:
            m = g == rule.group
            p = _flag_probability(rule, s[m])
            assert p[y[m]].mean() == pytest.approx(rule.tpr, abs=1e-12)
            assert p[~y[m]].mean() == pytest.approx(rule.fpr, abs=1e-12)
            assert p.mean() == pytest.approx(rule.flagged, abs=1e-12)  # data prior
            assert ((p > 0) & (p < 1)).mean() == pytest.approx(rule.randomised_share,
                                                               abs=1e-12)
    spread = {c: result.solution(c).rules for c in CONSTRAINTS}
    assert np.ptp([r.tpr for r in spread["equal_opportunity"]]) < 1e-12
    assert np.ptp([r.tpr for r in spread["equalized_odds"]]) < 1e-12
    assert np.ptp([r.fpr for r in spread["equalized_odds"]]) < 1e-12
    assert np.ptp([r.flagged for r in spread["demographic_parity"]]) < 1e-12
    assert len({r.threshold_upper for r in spread["single_threshold"]}) == 1
    assert not result.solution("single_threshold").randomised


def test_gth003_one_threshold_for_all_by_brute_force():
    y, s, g = _data(3, n=500, ties=True)
    cost_fp, cost_fn = 1.0, 3.0
    analysis = slice_analysis(y, s, g, cost_fp=cost_fp, cost_fn=cost_fn, prior_pos=0.25)
    sol = group_thresholds(analysis).solution("single_threshold")
    best, best_t = math.inf, None
    for t in [np.inf, *sorted(set(s), reverse=True)]:
        c = 0.0
        for o in analysis.optima:
            m = g == o.name
            flag = s[m] >= t
            c += o.share * (o.prior_pos * (1 - flag[y[m]].mean()) * cost_fn
                            + (1 - o.prior_pos) * flag[~y[m]].mean() * cost_fp)
        if c < best - 1e-12:
            best, best_t = c, t
    assert sol.expected_cost == pytest.approx(best, abs=1e-12)
    assert sol.common_threshold == best_t
    assert sol.expected_cost >= group_thresholds(analysis).solution(
        "group_optima").expected_cost


def _best_fpr_at(curve, key, target):
    """Brute force over pairs of thresholds (i, j) and the mixing weight that puts their
    mix at ``key == target``: the lowest FPR (and its TPR) among them."""
    best = (math.inf, math.nan)
    for i in range(len(curve)):
        for j in range(i, len(curve)):
            ki, kj = key[i], key[j]
            if not min(ki, kj) <= target <= max(ki, kj):
                continue
            q = 0.0 if kj == ki else (target - ki) / (kj - ki)
            f = curve.fpr[i] + q * (curve.fpr[j] - curve.fpr[i])
            t = curve.tpr[i] + q * (curve.tpr[j] - curve.tpr[i])
            if f < best[0] - 1e-15 or (abs(f - best[0]) <= 1e-15 and t > best[1]):
                best = (f, t)
    return best


@pytest.mark.parametrize("constraint", ["equal_opportunity", "demographic_parity"])
def test_gth004_common_rate_by_a_grid_over_thresholds_and_mixing_weights(constraint):
    y, s, g = _data(4, n=120, groups=2, ties=True)
    analysis = slice_analysis(y, s, g, cost_fp=1.0, cost_fn=2.0)
    sol = group_thresholds(analysis).solution(constraint)
    a, b = _weights(analysis)

    def cost(level):
        total = 0.0
        for k, (o, curve) in enumerate(_curves(analysis)):
            key = curve.tpr if constraint == "equal_opportunity" else (
                o.prior_pos * curve.tpr + (1 - o.prior_pos) * curve.fpr)
            f, t = _best_fpr_at(curve, key, level)
            total += a[k] * (1 - t) + b[k] * f
        return total

    common = sol.common_tpr if constraint == "equal_opportunity" else sol.common_flagged
    assert cost(common) == pytest.approx(sol.expected_cost, abs=1e-12)
    grid = [cost(v) for v in np.linspace(0, 1, 201)]
    assert min(grid) >= sol.expected_cost - 1e-12  # the grid never beats the exact optimum
    assert min(grid) <= sol.expected_cost + 0.01


def test_gth005_equalized_odds_by_a_grid_of_common_points():
    """A point (x, y) is feasible for a group when some mix of two thresholds reaches
    (x, y') with y' >= y (ignoring the score on a share of cases lowers y' to y along
    the line to (x, x))."""
    y, s, g = _data(5, n=150, groups=3, ties=True)
    analysis = slice_analysis(y, s, g)
    sol = group_thresholds(analysis).solution("equalized_odds")
    a, b = _weights(analysis)
    best = math.inf
    for x in np.linspace(0, 1, 401):
        top = min(_best_fpr_at_x(curve, x) for _, curve in _curves(analysis))
        best = min(best, a.sum() * (1 - top) + b.sum() * x)
    assert best >= sol.expected_cost - 1e-12
    assert best <= sol.expected_cost + 0.01


def _best_fpr_at_x(curve, x):
    """Highest TPR at FPR exactly ``x`` among mixes of two thresholds."""
    top = -math.inf
    for i in range(len(curve)):
        for j in range(i, len(curve)):
            fi, fj = curve.fpr[i], curve.fpr[j]
            if not min(fi, fj) <= x <= max(fi, fj):
                continue
            q = 0.0 if fj == fi else (x - fi) / (fj - fi)
            top = max(top, curve.tpr[i] + q * (curve.tpr[j] - curve.tpr[i]))
    return top


class _Scores(BaseEstimator, ClassifierMixin):
    """A 'model' whose prediction is the score in the first column (prefit)."""

    def fit(self, X, y):
        self.fitted_ = True
        return self

    def predict(self, X):
        return np.asarray(X)[:, 0]


def _fairlearn(y, s, g, constraints, objective):
    X = s[:, None]
    opt = ThresholdOptimizer(estimator=_Scores().fit(X, y), constraints=constraints,
                             objective=objective, prefit=True, predict_method="predict")
    opt.fit(X, y.astype(int), sensitive_features=g)
    return opt._pmf_predict(X, sensitive_features=g)[:, 1]  # P(flag) of each case


def _balanced_accuracy(y, flag, g=None):
    """Pooled balanced accuracy, or (``g``) the size-weighted mean of the groups'."""
    if g is None:
        return (flag[y].mean() + 1 - flag[~y].mean()) / 2
    return sum((g == k).mean() * _balanced_accuracy(y[g == k], flag[g == k])
               for k in np.unique(g))


@pytest.mark.parametrize("constraint, fl_constraint, objective, prior", [
    ("equalized_odds", "equalized_odds", "accuracy_score", None),
    ("equalized_odds", "equalized_odds", "balanced_accuracy_score", 0.5),
    ("demographic_parity", "demographic_parity", "accuracy_score", None),
    ("equal_opportunity", "true_positive_rate_parity", "accuracy_score", None),
    ("equal_opportunity", "true_positive_rate_parity", "balanced_accuracy_score", "groups"),
])
def test_gth006_matches_fairlearn_threshold_optimizer(constraint, fl_constraint, objective,
                                                      prior):
    y, s, g = _data(6, n=4000)
    flag = _fairlearn(y, s, g, fl_constraint, objective)
    half = {k: 0.5 for k in np.unique(g)} if prior == "groups" else None
    analysis = slice_analysis(y, s, g, prior_pos=None if half else prior, group_priors=half)
    sol = group_thresholds(analysis).solution(constraint)
    if objective == "accuracy_score":
        theirs = 1 - (flag[y].sum() + (1 - flag[~y]).sum()) / y.size
    else:
        theirs = 1 - _balanced_accuracy(y, flag, g if half else None)
    assert sol.expected_cost <= theirs + 1e-9      # exact: never worse than the grid
    assert sol.expected_cost >= theirs - 1e-4      # and within its grid's reach
    for rule in sol.rules:  # rates within two steps of its grid (1/1000)
        m = g == rule.group
        assert rule.tpr == pytest.approx(flag[m & y].mean(), abs=2e-3)
        assert rule.fpr == pytest.approx(flag[m & ~y].mean(), abs=2e-3)
        if constraint == "demographic_parity":
            assert rule.flagged == pytest.approx(flag[m].mean(), abs=2e-3)


def test_gth007_rates_equal_metricframe_at_the_same_thresholds_and_mixes():
    y, s, g = _data(7, n=3000)
    result = group_thresholds(slice_analysis(y, s, g, cost_fn=2.0))
    for sol in result.solutions:
        # each case twice: flagged with weight P(flag), not flagged with weight 1 - P(flag)
        p = np.empty(y.size)
        for rule in sol.rules:
            m = g == rule.group
            p[m] = _flag_probability(rule, s[m])
        yy, gg = np.concatenate([y, y]), np.concatenate([g, g])
        pred = np.concatenate([np.ones(y.size, bool), np.zeros(y.size, bool)])
        w = np.concatenate([p, 1 - p])
        params = {"sample_weight": w}
        frame = MetricFrame(metrics={"tpr": true_positive_rate, "fpr": false_positive_rate,
                                     "sel": selection_rate},
                            y_true=yy, y_pred=pred, sensitive_features=gg,
                            sample_params={"tpr": params, "fpr": params, "sel": params})
        for rule in sol.rules:
            row = frame.by_group.loc[rule.group]
            assert rule.tpr == pytest.approx(row["tpr"], abs=1e-9), sol.constraint
            assert rule.fpr == pytest.approx(row["fpr"], abs=1e-9), sol.constraint
            assert rule.flagged == pytest.approx(row["sel"], abs=1e-9), sol.constraint


def test_gth008_costs_are_ordered_and_identical_groups_cost_nothing():
    y, s, g = _data(8, n=1500)
    result = group_thresholds(slice_analysis(y, s, g, cost_fp=1.0, cost_fn=5.0))
    free = result.solution("group_optima").expected_cost
    for sol in result.solutions:
        assert sol.expected_cost >= free - 1e-12
        assert sol.cost_of_constraint == pytest.approx(sol.expected_cost - free, abs=1e-12)
    # the same rows in two groups: every constraint is met by the one optimum, for free
    y2, s2 = np.concatenate([y, y]), np.concatenate([s, s])
    g2 = np.repeat(["a", "b"], y.size)
    twin = group_thresholds(slice_analysis(y2, s2, g2, cost_fp=1.0, cost_fn=5.0))
    for sol in twin.solutions:
        assert sol.cost_of_constraint == pytest.approx(0.0, abs=1e-12), sol.constraint
        assert not sol.randomised or sol.constraint == "single_threshold"


def test_gth009_equalized_odds_randomises_the_better_group_as_hardt_et_al():
    """Two groups, one scored better: equalized odds brings it down to the other's curve
    by ignoring its score on a share of cases (Hardt, Price & Srebro 2016, figure 1)."""
    rng = np.random.default_rng(9)
    n = 4000
    g = np.repeat(["good", "poor"], n // 2)
    y = rng.random(n) < 0.4
    s = rng.normal(size=n) + np.where(g == "good", 2.0, 0.5) * y
    sol = group_thresholds(slice_analysis(y, s, g)).solution("equalized_odds")
    good, poor = sol.rule("good"), sol.rule("poor")
    assert good.ignore_share > 0 and poor.ignore_share == 0
    assert good.randomised_share == pytest.approx(1.0)  # every case may be flipped by chance
    assert good.p_lower == pytest.approx(good.ignore_share * sol.common_fpr)
    assert sol.randomised


def test_gth010_excluded_groups_and_bad_constraints():
    y, s, g = _data(10, n=600)
    g = g.astype(object)
    g[:20] = "negatives only"
    y[:20] = False
    analysis = slice_analysis(y, s, g)
    result = group_thresholds(analysis, constraints=("equalized_odds",))
    assert result.excluded == ("negatives only",)
    assert "negatives only" not in result.groups
    assert [s.constraint for s in result.solutions] == ["equalized_odds"]
    with pytest.raises(ValueError, match="unknown constraints"):
        group_thresholds(analysis, constraints=("parity",))
    with pytest.raises(KeyError, match="no solution"):
        result.solution("single_threshold")


def test_gth011_one_group_every_constraint_is_its_optimum():
    y, s, _ = _data(11, n=500)
    g = np.full(y.size, "all")
    result = group_thresholds(slice_analysis(y, s, g, cost_fn=3.0))
    for sol in result.solutions:
        assert sol.expected_cost == pytest.approx(
            result.solution("group_optima").expected_cost, abs=1e-12)
