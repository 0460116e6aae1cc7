"""The fast slices path (issue 18, scale) against the straightforward per-group computation,
on random data with tied scores and weights: each group's curve against scikit-learn on the
group's rows, its DeLong interval against an O(P*N) loop over every pair, the counts-based
DeLong variance against the row-based one, and one threshold for all against a loop over
every distinct score computing every group's rates from its rows."""

import math

import numpy as np
import pytest
from scipy.stats import norm
from sklearn.metrics import roc_auc_score
from sklearn.metrics import roc_curve as sk_roc_curve

from roc_dash.core.inference.statistics import delong_variance, delong_variance_of_counts
from roc_dash.core.subgroups.group_thresholds import group_thresholds
from roc_dash.core.subgroups.slices import group_rocs, slice_analysis
from tests.oracles import delong_auc_variance as _brute_delong

SEEDS = [0, 1, 2, 3, 4]


def _data(seed: int, n: int = 900, groups: int = 5):
    """Groups of different size, prevalence and separation; scores rounded (ties within
    and across groups) and positive frequency weights."""
    rng = np.random.default_rng(seed)
    g = rng.integers(0, groups, n)
    y = rng.random(n) < rng.uniform(0.15, 0.6, groups)[g]
    s = np.round(rng.normal(size=n) + rng.uniform(0.2, 2.0, groups)[g] * y, 1)
    w = rng.choice([0.5, 1.0, 2.0, 3.0], n)
    return y, s, np.array([f"g{k}" for k in g], dtype=object), w


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("weighted", [False, True])
def test_sfp001_group_curves_and_intervals_equal_the_per_group_computation(seed, weighted):
    y, s, g, w = _data(seed)
    w = w if weighted else np.ones_like(s)
    rocs = group_rocs(y, s, g, weights=w if weighted else None, level=0.9)
    assert [r.name for r in rocs] == sorted(set(g))
    for r in rocs:
        rows = g == r.name
        fpr, tpr, thr = sk_roc_curve(y[rows], s[rows], sample_weight=w[rows],
                                     drop_intermediate=False)
        np.testing.assert_allclose(r.curve.fpr, fpr, atol=1e-12)
        np.testing.assert_allclose(r.curve.tpr, tpr, atol=1e-12)
        np.testing.assert_array_equal(r.curve.thresholds[1:], thr[1:])
        assert r.auc == pytest.approx(roc_auc_score(y[rows], s[rows],
                                                    sample_weight=w[rows]), abs=1e-12)
        a, var = _brute_delong(y[rows], s[rows], w[rows])
        half = norm.ppf(0.95) * math.sqrt(var)
        assert r.auc_interval.auc == pytest.approx(a, abs=1e-12)
        assert r.auc_interval.std_error == pytest.approx(math.sqrt(var), rel=1e-9)
        assert r.auc_interval.low == pytest.approx(max(0.0, a - half), abs=1e-12)
        assert r.auc_interval.high == pytest.approx(min(1.0, a + half), abs=1e-12)
        assert r.rows == int(rows.sum())
        assert r.n_pos == pytest.approx(w[rows & y].sum(), rel=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_sfp002_delong_of_counts_equals_delong_of_rows(seed):
    y, s, _, w = _data(seed, n=400)
    rows = delong_variance(y, s, weights=w)
    scores = np.unique(s)
    pos = np.array([w[y & (s == v)].sum() for v in scores])
    neg = np.array([w[~y & (s == v)].sum() for v in scores])
    counts = delong_variance_of_counts(pos, neg)
    assert counts.auc == pytest.approx(rows.auc, abs=1e-12)
    assert counts.variance == pytest.approx(rows.variance, rel=1e-9)
    assert (counts.n_pos, counts.n_neg) == pytest.approx((rows.n_pos, rows.n_neg))
    # a distinct score holding no row of a class adds nothing
    padded = delong_variance_of_counts(np.r_[0.0, pos, 0.0], np.r_[0.0, neg, 0.0])
    assert padded.variance == pytest.approx(rows.variance, rel=1e-9)


def test_sfp003_delong_of_counts_refuses_bad_counts():
    with pytest.raises(ValueError, match="one length"):
        delong_variance_of_counts([1.0, 2.0], [1.0])
    with pytest.raises(ValueError, match="finite counts"):
        delong_variance_of_counts([1.0, -2.0], [3.0, 1.0])
    with pytest.raises(ValueError, match="more than one instance"):
        delong_variance_of_counts([1.0, 0.0], [3.0, 1.0])


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("costs", [(1.0, 1.0, None), (1.0, 5.0, 0.2), (4.0, 1.0, 0.6)])
def test_sfp004_single_threshold_equals_a_loop_over_every_score(seed, costs):
    y, s, g, w = _data(seed)
    cost_fp, cost_fn, prior = costs
    analysis = slice_analysis(y, s, g, weights=w, cost_fp=cost_fp, cost_fn=cost_fn,
                              prior_pos=prior)
    got = group_thresholds(analysis, ("single_threshold",)).solution("single_threshold")
    best_cost, best_t = math.inf, None
    for t in np.r_[np.inf, np.unique(s)[::-1]]:  # highest first: ties keep the highest
        total = 0.0
        for o in analysis.optima:
            rows = g == o.name
            tpr = w[rows & y & (s >= t)].sum() / w[rows & y].sum()
            fpr = w[rows & ~y & (s >= t)].sum() / w[rows & ~y].sum()
            total += o.share * (o.prior_pos * (1 - tpr) * cost_fn
                                + (1 - o.prior_pos) * fpr * cost_fp)
        if best_t is None or total < best_cost - 1e-12 * max(1.0, abs(best_cost)):
            best_cost, best_t = total, t
    assert got.common_threshold == best_t
    assert got.expected_cost == pytest.approx(best_cost, rel=1e-12, abs=1e-15)
