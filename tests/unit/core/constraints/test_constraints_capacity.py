"""A capacity as the constraint (cap001-cap009): queue rate, gains, lift and the CAP with
exact fractions; the KS statistic against scipy; precision@K and recall@K against
scikit-learn and a brute force over tie orders; the best point under the capacity against
Fawcett's budget on the hull and a brute force over thresholds."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from scipy.stats import ks_2samp
from sklearn.metrics import precision_recall_curve

from roc_dash.core.combining.capacity_mix import budget_operating_point
from roc_dash.core.constraints import at_k, capacity_point, gains_curve, ks_statistic
from roc_dash.core.decisions.economics import Economics, flagged_at_prior, regret_per_case
from roc_dash.core.roc.curves import auc, roc_curve
from roc_dash.core.roc.hull import convex_hull
from tests.conftest import binormal

# Fawcett (2004) table 1's 20 instances (scores with ties made by rounding to one digit)
LABELS = np.array([1, 1, 0, 1, 1, 1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 0, 1, 0, 1, 0], dtype=bool)
SCORES = np.round(np.array([.9, .8, .7, .6, .55, .54, .53, .52, .51, .505, .4, .39, .38,
                            .37, .36, .35, .34, .33, .30, .1]), 1)


def _exact_gains(y, s):
    """Per distinct score (descending), the exact queue rate and gain as fractions."""
    n, p = len(y), int(sum(y))
    out = [(Fraction(0), Fraction(0))]
    for t in sorted(set(s.tolist()), reverse=True):
        flagged = [yy for yy, ss in zip(y, s, strict=True) if ss >= t]
        out.append((Fraction(len(flagged), n), Fraction(int(sum(flagged)), p)))
    return out


def test_cap001_queue_rate_gain_lift_are_exact_fractions():
    curve = roc_curve(LABELS, SCORES)
    g = gains_curve(curve)
    exact = _exact_gains(LABELS, SCORES)
    assert len(g) == len(exact)
    for k, (q, gain) in enumerate(exact):
        assert g.queue_rate[k] == pytest.approx(float(q), abs=1e-15)
        assert g.gain[k] == pytest.approx(float(gain), abs=1e-15)
        if q > 0:
            pi = Fraction(int(LABELS.sum()), LABELS.size)
            assert g.lift[k] == pytest.approx(float(gain / q), rel=1e-14)
            assert g.precision[k] == pytest.approx(float(gain / q * pi), rel=1e-14)
    assert np.isnan(g.lift[0]) and np.isnan(g.precision[0])


def test_cap002_cap_area_and_accuracy_ratio_exact_and_equal_to_gini():
    curve = roc_curve(LABELS, SCORES)
    g = gains_curve(curve)
    exact = _exact_gains(LABELS, SCORES)
    area = sum((b[0] - a[0]) * (a[1] + b[1]) / 2 for a, b in itertools.pairwise(exact))
    pi = Fraction(int(LABELS.sum()), LABELS.size)
    ar = (area - Fraction(1, 2)) / (1 - pi / 2 - Fraction(1, 2))
    assert g.cap_area == pytest.approx(float(area), abs=1e-15)
    assert g.accuracy_ratio == pytest.approx(float(ar), abs=1e-14)
    assert g.accuracy_ratio == pytest.approx(2 * auc(curve) - 1, abs=1e-14)
    # at another prior the CAP changes but its accuracy ratio stays 2·AUC − 1
    other = gains_curve(curve, prior_pos=0.05)
    assert other.cap_area != pytest.approx(g.cap_area)
    assert other.accuracy_ratio == pytest.approx(2 * auc(curve) - 1, abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_cap003_ks_statistic_is_scipys(seed):
    rng = np.random.default_rng(seed)
    n = 300
    y = rng.random(n) < 0.3
    s = np.round(rng.normal(size=n) + (1 if seed % 2 else -0.7) * y, 1)  # ties; one reversed
    ks = ks_statistic(roc_curve(y, s))
    assert ks.statistic == pytest.approx(ks_2samp(s[y], s[~y]).statistic, abs=1e-12)
    assert ks.direction == (1 if seed % 2 else -1)
    assert abs(ks.tpr - ks.fpr) == pytest.approx(ks.statistic)


def test_cap004_ks_with_whole_weights_equals_repeated_rows():
    rng = np.random.default_rng(5)
    y = rng.random(80) < 0.4
    s = np.round(rng.normal(size=80) + y, 1)
    w = rng.integers(1, 4, 80)
    weighted = ks_statistic(roc_curve(y, s, weights=w))
    rep = np.repeat(np.arange(80), w)
    assert weighted.statistic == pytest.approx(ks_2samp(s[rep][y[rep]],
                                                        s[rep][~y[rep]]).statistic)


def test_cap005_precision_and_recall_at_k_are_sklearns_at_distinct_scores():
    n = 500
    y, s = binormal(1, n, 0.25, 1.2)
    curve = roc_curve(y, s)
    ks = np.arange(1, n + 1)
    got = at_k(curve, k=ks)
    prec, rec, thr = precision_recall_curve(y, s)
    order = np.sort(s)[::-1]
    for k in (1, 7, 50, 125, 260, 499, 500):
        t = order[k - 1]  # the k-th case's score: flagging >= t flags exactly k
        j = int(np.flatnonzero(thr == t)[0])
        assert got.precision[k - 1] == pytest.approx(prec[j], abs=1e-14)
        assert got.recall[k - 1] == pytest.approx(rec[j], abs=1e-14)
        assert got.threshold[k - 1] == t
    assert np.isnan(at_k(curve, k=0).precision)


def test_cap006_at_k_within_ties_is_the_mean_over_tie_orders():
    y = np.array([1, 0, 1, 1, 0, 0, 1], dtype=bool)
    s = np.array([0.9, 0.7, 0.7, 0.7, 0.7, 0.2, 0.1])
    curve = roc_curve(y, s)
    for k in range(0, 8):
        # brute force: every order of the tied rows equally likely
        tied = [1, 2, 3, 4]
        tps = []
        for perm in itertools.permutations(tied):
            order = [0, *perm, 5, 6]
            tps.append(Fraction(int(y[order[:k]].sum())))
        mean = sum(tps) / len(tps)
        got = at_k(curve, k=k)
        assert float(got.tp) == pytest.approx(float(mean), abs=1e-14)
        assert float(got.recall) == pytest.approx(float(mean / 4), abs=1e-14)
        if k:
            assert float(got.precision) == pytest.approx(float(mean / k), abs=1e-14)
    np.testing.assert_allclose(at_k(curve, fraction=[0.0, 1.0]).recall, [0.0, 1.0])


def test_cap007_capacity_point_is_fawcetts_budget_and_the_best_threshold_within_it():
    n = 2000
    y, s = binormal(2, n, 0.1, 1.5)
    curve = roc_curve(y, s)
    e = Economics(cost_fp=1.0, cost_fn=30.0)  # the optimum flags far more than the capacity
    cp = capacity_point(curve, capacity=80, n_total=1000, prior_pos=0.1, economics=e)
    ref = budget_operating_point(convex_hull(curve), budget=80, n_total=1000, prior_pos=0.1)
    assert (cp.mix.fpr, cp.mix.tpr, cp.mix.k) == (ref.fpr, ref.tpr, ref.k)
    assert cp.queue_rate == pytest.approx(0.08) and cp.binding
    assert cp.recall == pytest.approx(ref.tpr)
    assert cp.precision == pytest.approx(0.1 * ref.tpr / 0.08)
    assert cp.lift == pytest.approx(cp.precision / 0.1)
    # brute force: the vertex of least regret among those flagging at most 8 %
    flagged = flagged_at_prior(curve.fpr, curve.tpr, 0.1)
    regret = regret_per_case(curve.fpr, curve.tpr, 0.1, e)
    ok = flagged <= 0.08 + 1e-12
    k = int(np.flatnonzero(ok)[np.argmin(regret[ok])])
    assert cp.decision.threshold == curve.thresholds[k]
    # the capacity binds: the least-cost hull point uses all of it (Fawcett's point)
    assert cp.decision.best.fpr == pytest.approx(ref.fpr) and \
        cp.decision.best.tpr == pytest.approx(ref.tpr)


def test_cap008_a_capacity_that_does_not_bind_leaves_the_optimum():
    rng = np.random.default_rng(3)
    y = rng.random(1000) < 0.2
    s = rng.normal(size=1000) + 2 * y
    curve = roc_curve(y, s)
    cp = capacity_point(curve, fraction=0.6, economics=Economics(1.0, 1.0))
    assert not cp.binding
    assert cp.decision.threshold == cp.decision.optimum_threshold
    assert cp.decision.cost_of_floors == 0.0
    assert cp.mix.expected_cases == pytest.approx(600)  # Fawcett's point still uses it all


def test_cap009_bad_capacities_are_named():
    curve = roc_curve(LABELS, SCORES)
    with pytest.raises(ValueError, match="looks like a fraction"):
        capacity_point(curve, capacity=0.3)
    with pytest.raises(ValueError, match="exactly one of budget"):
        capacity_point(curve)
    with pytest.raises(ValueError, match="prior_pos must lie strictly between 0 and 1"):
        capacity_point(curve, capacity=5, prior_pos=1.5)
    with pytest.raises(ValueError, match="K must lie between 0 and the 20 cases"):
        at_k(curve, k=25)
