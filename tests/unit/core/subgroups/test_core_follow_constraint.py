"""A group's point moved by hand, the other groups following the constraint (issue 18, the
Slices card's drag): :func:`roc_dash.core.subgroups.group_thresholds.follow_constraint` against a
brute-force search over densely sampled hulls and over the raw scores, each rule's rates and
the total cost recomputed case by case from its score bands."""

from __future__ import annotations

import math

import numpy as np
import pytest

from roc_dash.core.subgroups.group_thresholds import (
    CONSTRAINTS,
    follow_constraint,
    group_thresholds,
)
from roc_dash.core.subgroups.slices import slice_analysis

COST_FP, COST_FN = 1.0, 3.0
TOL = 2e-3  # the dense samples are 1/4000 of a segment apart


def _data(seed, n=1500, groups=3):
    rng = np.random.default_rng(seed)
    names = np.array([f"g{k}" for k in range(groups)])
    g = rng.choice(names, n, p=np.linspace(2, 1, groups) / np.linspace(2, 1, groups).sum())
    k = np.searchsorted(names, g)
    y = rng.random(n) < rng.uniform(0.15, 0.6, groups)[k]
    y[:groups], y[groups:2 * groups] = True, False
    g[:groups] = g[groups:2 * groups] = names
    s = np.round(rng.normal(size=n) + rng.uniform(0.3, 2.0, groups)[k] * y, 2)
    return y, s, g


def _dense(hull, steps=4000):
    """Points along the hull polyline, every segment cut into ``steps``."""
    t = np.linspace(0.0, 1.0, steps + 1)
    xs = [hull.fpr[i] + t * (hull.fpr[i + 1] - hull.fpr[i]) for i in range(hull.fpr.size - 1)]
    ys = [hull.tpr[i] + t * (hull.tpr[i + 1] - hull.tpr[i]) for i in range(hull.tpr.size - 1)]
    return np.concatenate(xs or [hull.fpr]), np.concatenate(ys or [hull.tpr])


def _flag_probability(rule, s):
    between = 0.0 if math.isnan(rule.p_between) else rule.p_between
    return np.where(s >= rule.threshold_upper, rule.p_upper,
                    np.where(s >= rule.threshold_lower, between, rule.p_lower))


def _check_rules_case_by_case(solution, y, s, g):
    """Each rule's rates, and the total expected cost per case, from its score bands."""
    cost = np.zeros(y.size)
    for rule in solution.rules:
        m = g == rule.group
        q = _flag_probability(rule, s[m])
        assert q[y[m]].mean() == pytest.approx(rule.tpr, abs=1e-9)
        assert q[~y[m]].mean() == pytest.approx(rule.fpr, abs=1e-9)
        cost[m] = np.where(y[m], (1 - q) * COST_FN, q * COST_FP)
    assert cost.mean() == pytest.approx(solution.expected_cost, rel=1e-9)


@pytest.mark.parametrize("constraint", CONSTRAINTS)
@pytest.mark.parametrize("seed", range(4))
def test_fol001_followers_match_a_brute_force_search(constraint, seed):
    y, s, g = _data(seed)
    analysis = slice_analysis(y, s, g, cost_fp=COST_FP, cost_fn=COST_FN)
    rng = np.random.default_rng(100 + seed)
    names = [o.name for o in analysis.optima]
    for _ in range(3):
        moved = names[int(rng.integers(len(names)))]
        drop = rng.uniform(0.0, 1.0, 2)
        sol = follow_constraint(analysis, constraint, moved, float(drop[0]), float(drop[1]))
        _check_rules_case_by_case(sol, y, s, g)
        dense = {n: _dense(analysis.roc(n).hull) for n in names}
        rules = {r.group: r for r in sol.rules}
        mine = rules[moved]
        if constraint == "single_threshold":  # the moved group's nearest vertex, by scores
            m = g == moved
            ts = np.concatenate([[np.inf], np.unique(s[m])[::-1]])
            pts = np.array([[(s[m][~y[m]] >= t).mean(), (s[m][y[m]] >= t).mean()] for t in ts])
            t = ts[np.argmin(((pts - drop) ** 2).sum(axis=1))]
            for n in names:
                mn = g == n
                assert rules[n].tpr == pytest.approx((s[mn][y[mn]] >= t).mean(), abs=1e-12)
                assert rules[n].fpr == pytest.approx((s[mn][~y[mn]] >= t).mean(), abs=1e-12)
            continue
        if constraint != "equalized_odds":  # the moved group: its hull point nearest the drop
            xs, ys = dense[moved]
            k = np.argmin((xs - drop[0]) ** 2 + (ys - drop[1]) ** 2)
            assert (mine.fpr, mine.tpr) == pytest.approx((xs[k], ys[k]), abs=TOL)
        for n in names:
            xs, ys = dense[n]
            r = rules[n]
            if constraint == "group_optima" and n != moved:
                o = next(o for o in analysis.optima if o.name == n).optimum
                assert (r.fpr, r.tpr) == pytest.approx((o.fpr, o.tpr), abs=1e-12)
            elif constraint == "equal_opportunity":
                assert r.tpr == pytest.approx(mine.tpr, abs=1e-9)
                if n != moved:  # the moved one may sit on the hull's flat top (TPR 1)
                    assert r.fpr == pytest.approx(xs[ys >= mine.tpr - 1e-12].min(), abs=TOL)
            elif constraint == "demographic_parity":
                assert r.flagged == pytest.approx(mine.flagged, abs=1e-9)
                p = r.prior_pos
                k = np.argmin(np.abs(p * ys + (1 - p) * xs - mine.flagged))
                assert (r.fpr, r.tpr) == pytest.approx((xs[k], ys[k]), abs=TOL)
        if constraint == "equalized_odds":  # the highest common point under every hull
            xs, ys = dense[moved]
            k = np.argmin((xs - drop[0]) ** 2 + (ys - drop[1]) ** 2)
            x = xs[k]
            top = min(dense[n][1][dense[n][0] <= x + 1e-12].max() for n in names)
            for r in sol.rules:
                assert (r.fpr, r.tpr) == pytest.approx((x, min(ys[k], top)), abs=TOL)


@pytest.mark.parametrize("constraint", CONSTRAINTS[1:])
def test_fol002_no_drag_beats_the_constrained_optimum_and_its_point_gives_it(constraint):
    y, s, g = _data(7)
    analysis = slice_analysis(y, s, g, cost_fp=COST_FP, cost_fn=COST_FN)
    best = group_thresholds(analysis).solution(constraint)
    for rule in best.rules:
        again = follow_constraint(analysis, constraint, rule.group, rule.fpr, rule.tpr)
        if constraint != "equalized_odds" or rule.ignore_share == 0:
            assert again.expected_cost == pytest.approx(best.expected_cost, rel=1e-9)
    name = analysis.optima[0].name
    grid = np.linspace(0, 1, 41)
    costs = [follow_constraint(analysis, constraint, name, float(a), float(b)).expected_cost
             for a in grid for b in grid]
    assert min(costs) >= best.expected_cost - 1e-12
    assert min(costs) == pytest.approx(best.expected_cost, rel=0.02)  # a grid gets close


def test_fol003_bad_arguments_are_refused():
    y, s, g = _data(1)
    analysis = slice_analysis(y, s, g)
    with pytest.raises(ValueError, match="unknown constraint 'fair'"):
        follow_constraint(analysis, "fair", "g0", 0.1, 0.5)
    with pytest.raises(ValueError, match="no group 'g9'"):
        follow_constraint(analysis, "equal_opportunity", "g9", 0.1, 0.5)
    with pytest.raises(ValueError, match=r"rates in \[0, 1\]"):
        follow_constraint(analysis, "equal_opportunity", "g0", 1.5, 0.5)
