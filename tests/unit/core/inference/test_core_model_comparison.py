"""k-model comparison (kmc001-kmc012): Holm and Benjamini-Hochberg against statsmodels'
``multipletests``, the DeLong matrix against a naive O(P·N) DeLong written here and
scikit-learn's AUCs, the partial-AUC bootstrap against scikit-learn on the resampled rows, and
each model's optimal slope / cost-ratio range against a hand-worked hull and a brute-force
sweep of the min-cost model over many slopes."""

import math

import numpy as np
import pytest
from scipy.stats import norm
from sklearn.metrics import roc_auc_score
from statsmodels.stats.multitest import multipletests

from roc_dash.core.inference.model_comparison import (
    BOOTSTRAP,
    DELONG,
    NEVER_OPTIMAL,
    benjamini_hochberg_adjust,
    compare_models,
    holm_adjust,
    optimal_ranges,
    pairwise_from_tests,
)
from roc_dash.core.inference.statistics import PairedAucTest
from roc_dash.core.roc.curves import RocCurve, roc_curve
from tests.oracles import delong_paired


def _models(seed, n=90, shifts=(1.0, 0.4, 0.8), ties=False):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    y[:2], y[2:4] = True, False
    scores = {}
    for k, shift in enumerate(shifts):
        s = rng.normal(size=n) + shift * y
        scores[f"m{k}"] = np.round(s * 2) / 2 if ties else s
    return y, scores


# ------------------------------------------------------------------------- multiplicity


def _p_value_cases():
    rng = np.random.default_rng(1)
    cases = [rng.random(size) ** 3 for size in (1, 2, 3, 6, 10, 15)]
    cases += [np.array([0.01, 0.01, 0.04, 0.04, 1.0, 0.0]), np.ones(4),
              np.array([0.5, 0.02, 0.5, 0.03, 0.5]), np.full(5, 0.011)]
    return cases


@pytest.mark.parametrize("p", _p_value_cases())
def test_kmc001_adjustments_equal_statsmodels(p):
    np.testing.assert_allclose(holm_adjust(p), multipletests(p, method="holm")[1],
                               rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(benjamini_hochberg_adjust(p),
                               multipletests(p, method="fdr_bh")[1], rtol=1e-12, atol=1e-15)


def test_kmc002_adjustments_skip_nan_and_refuse_non_p_values():
    p = np.array([0.01, np.nan, 0.04, 0.03, 0.5, 0.5])
    ok = ~np.isnan(p)
    for mine, method in ((holm_adjust, "holm"), (benjamini_hochberg_adjust, "fdr_bh")):
        got = mine(p)
        assert np.isnan(got[1])
        np.testing.assert_allclose(got[ok], multipletests(p[ok], method=method)[1])
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        holm_adjust([0.2, 1.5])


# ------------------------------------------------------------------------- DeLong matrix


def _naive_delong(y, a, b):
    """DeLong et al. (1988) paired test by direct O(P·N) comparisons and np.cov."""
    r = delong_paired(y, a, b)
    return r.diff, r.se, r.p


@pytest.mark.parametrize("ties", [False, True])
def test_kmc003_delong_matrix_equals_naive_delong_and_statsmodels(ties):
    y, scores = _models(3, ties=ties)
    r = compare_models(y, scores)
    names = list(scores)
    assert r.models == tuple(names) and r.method == DELONG and r.measure == "auc"
    np.testing.assert_allclose(r.estimate, [roc_auc_score(y, scores[n]) for n in names])
    raw = []
    for i in range(3):
        assert np.isnan(r.difference[i, i]) and np.isnan(r.p_holm[i, i])
        for j in range(i + 1, 3):
            diff, se, p = _naive_delong(y, scores[names[i]], scores[names[j]])
            assert r.difference[i, j] == pytest.approx(diff, rel=1e-10)
            assert r.difference[j, i] == pytest.approx(-diff, rel=1e-10)
            assert r.std_error[i, j] == r.std_error[j, i] == pytest.approx(se, rel=1e-9)
            assert r.z[i, j] == pytest.approx(diff / se, rel=1e-9)
            assert r.p_value[i, j] == pytest.approx(p, rel=1e-8)
            raw.append(r.p_value[i, j])
    upper = np.triu_indices(3, 1)
    np.testing.assert_allclose(r.p_holm[upper], multipletests(raw, method="holm")[1])
    np.testing.assert_allclose(r.p_bh[upper], multipletests(raw, method="fdr_bh")[1])
    np.testing.assert_array_equal(r.p_holm.T[upper], r.p_holm[upper])
    assert r.n_tests == 3 and r.untested == []


def test_kmc004_integer_weights_equal_repeated_rows():
    y, scores = _models(4, n=60, ties=True)
    w = np.random.default_rng(4).integers(1, 4, y.size)
    rep = np.repeat(np.arange(y.size), w)
    a = compare_models(y, scores, weights=w)
    b = compare_models(y[rep], {k: v[rep] for k, v in scores.items()})
    for name in ("difference", "std_error", "p_value", "p_holm", "p_bh"):
        np.testing.assert_allclose(getattr(a, name), getattr(b, name), rtol=1e-9)


def test_kmc005_untested_pairs_are_nan_and_outside_the_family():
    def t(a, b, p):
        return PairedAucTest(auc_a=a, auc_b=b, auc_difference=a - b, std_error=0.05,
                             z=(a - b) / 0.05, p_value=p, correlation=0.5)

    r = pairwise_from_tests(["A", "B", "C"], {("A", "B"): t(0.9, 0.8, 0.01),
                                              ("C", "B"): t(0.85, 0.8, 0.04)})
    assert r.untested == [("A", "C")] and r.n_tests == 2
    assert np.isnan(r.p_value[0, 2]) and np.isnan(r.p_holm[2, 0]) and np.isnan(r.p_bh[0, 2])
    assert r.difference[2, 1] == pytest.approx(0.05) and r.difference[1, 2] == pytest.approx(-0.05)
    np.testing.assert_allclose([r.p_holm[0, 1], r.p_holm[1, 2]],
                               multipletests([0.01, 0.04], method="holm")[1])
    np.testing.assert_allclose(r.estimate, [0.9, 0.8, 0.85])
    with pytest.raises(ValueError, match="not two of the models"):
        pairwise_from_tests(["A", "B"], {("A", "Z"): t(0.9, 0.8, 0.01)})


# ------------------------------------------------------------------------- bootstrap


def _naive_bootstrap_se(y, a, b, max_fpr, n_boot, seed):
    """Stratified bootstrap with the same draws as compare_models (per replicate: a
    multinomial over the positives, then over the negatives), the partial AUCs from
    scikit-learn on the resampled rows written out one by one."""
    rng = np.random.default_rng(seed)
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    diffs = []
    for _ in range(n_boot):
        rows = []
        for group in (pos, neg):
            counts = rng.multinomial(group.size, np.full(group.size, 1 / group.size))
            rows.extend(np.repeat(group, counts))
        rows = np.array(rows)
        diffs.append(roc_auc_score(y[rows], a[rows], max_fpr=max_fpr)
                     - roc_auc_score(y[rows], b[rows], max_fpr=max_fpr))
    return float(np.std(diffs, ddof=1))


def test_kmc006_partial_auc_bootstrap_equals_scikit_learn_on_resampled_rows():
    y, scores = _models(6, n=70, shifts=(1.0, 0.5))
    r = compare_models(y, scores, max_fpr=0.3, n_boot=40, seed=11)
    assert r.method == BOOTSTRAP and r.measure == "partial_auc_mcclish"
    assert (r.max_fpr, r.n_boot, r.seed) == (0.3, 40, 11)
    a, b = scores["m0"], scores["m1"]
    full = [roc_auc_score(y, a, max_fpr=0.3), roc_auc_score(y, b, max_fpr=0.3)]
    np.testing.assert_allclose(r.estimate, full, rtol=1e-12)
    assert r.difference[0, 1] == pytest.approx(full[0] - full[1], rel=1e-12)
    se = _naive_bootstrap_se(y, a, b, 0.3, 40, 11)
    assert r.std_error[0, 1] == pytest.approx(se, rel=1e-9)
    z = (full[0] - full[1]) / se
    assert r.p_value[0, 1] == pytest.approx(2 * norm.sf(abs(z)), rel=1e-8)


def test_kmc007_bootstrap_is_seeded_and_identical_models_do_not_differ():
    y, scores = _models(7, n=80)
    scores["copy"] = scores["m0"].copy()
    a = compare_models(y, scores, max_fpr=0.2, n_boot=30, seed=3)
    b = compare_models(y, scores, max_fpr=0.2, n_boot=30, seed=3)
    c = compare_models(y, scores, max_fpr=0.2, n_boot=30, seed=4)
    np.testing.assert_array_equal(a.std_error, b.std_error)
    assert a.std_error[0, 1] != c.std_error[0, 1]
    i, j = 0, 3  # m0 against its copy
    assert a.difference[i, j] == 0 and a.std_error[i, j] == 0
    assert a.z[i, j] == 0 and a.p_value[i, j] == 1


def test_kmc008_bad_input_is_named():
    y, scores = _models(8)
    with pytest.raises(ValueError, match="at least two model"):
        compare_models(y, {"only": scores["m0"]})
    with pytest.raises(ValueError, match="model 'm1'"):
        compare_models(y, {"m0": scores["m0"], "m1": scores["m1"][:-1]})
    with pytest.raises(ValueError, match="max_fpr"):
        compare_models(y, scores, max_fpr=0.0)
    with pytest.raises(ValueError, match="n_boot"):
        compare_models(y, scores, max_fpr=0.2, n_boot=1)


# ------------------------------------------------------------------------- optimal ranges


def _curve(points, n=10.0):
    f, t = (np.array(v, dtype=float) for v in zip(*points, strict=True))
    thresholds = np.concatenate(([np.inf], np.linspace(1, 0, f.size - 1)))
    return RocCurve(fpr=f, tpr=t, thresholds=thresholds, n_pos=n, n_neg=n)


def test_kmc009_hand_worked_three_models():
    """A = (0.1, 0.6), B = (0.5, 0.9), C = (0.3, 0.5): the joint hull runs (0,0) -> A (slope
    6) -> B (slope 0.3/0.4 = 0.75) -> (1,1) (slope 0.1/0.5 = 0.2), and C lies below it
    (at FPR 0.3 the hull is at 0.75). So A is optimal for slopes in [0.75, 6], B for
    [0.2, 0.75], C never; at prior 0.25 the cost ratio c(FP)/c(FN) = m·0.25/0.75 = m/3."""
    curves = {"A": _curve([(0, 0), (0.1, 0.6), (1, 1)]),
              "B": _curve([(0, 0), (0.5, 0.9), (1, 1)]),
              "C": _curve([(0, 0), (0.3, 0.5), (1, 1)])}
    r = optimal_ranges(curves, prior_pos=0.25)
    a, b, c = r.of("A"), r.of("B"), r.of("C")
    assert r.models == ("A", "B", "C")
    np.testing.assert_allclose([a.slope_low[0], a.slope_high[0]], [0.75, 6.0])
    np.testing.assert_allclose([b.slope_low[0], b.slope_high[0]], [0.2, 0.75])
    np.testing.assert_allclose([a.cost_ratio_low[0], a.cost_ratio_high[0]], [0.25, 2.0])
    np.testing.assert_allclose([b.cost_ratio_low[0], b.cost_ratio_high[0]], [0.2 / 3, 0.25])
    assert c.never_optimal and not a.never_optimal and NEVER_OPTIMAL.startswith("never")
    assert a.contains_slope(1.0) and not a.contains_slope(0.5) and b.contains_slope(0.5)
    with pytest.raises(ValueError, match="prior_pos"):
        optimal_ranges(curves, prior_pos=1.0)


def _brute_force_winners(curves, slope, rtol=1e-9):
    """The models whose best vertex maximises TPR − m·FPR above the trivial classifiers
    (0,0) and (1,1), several when they reach it at the very same ROC point (a tie); an
    empty set if a trivial one wins; None on a near-tie of different values."""
    values = {k: float(np.max(c.tpr - slope * c.fpr)) for k, c in curves.items()}
    trivial = max(0.0, 1.0 - slope)
    best = max(values.values())
    scale = rtol * (1 + slope)
    if abs(best - trivial) <= scale or any(0 < best - v <= scale for v in values.values()):
        return None
    return {k for k, v in values.items() if v == best} if best > trivial else set()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_kmc010_ranges_equal_a_brute_force_sweep_of_slopes(seed):
    y, scores = _models(seed, n=60, shifts=(1.2, 0.6, 1.0, 0.2))
    # m1's best positives pushed far up: strong at low FPR, so hulls interleave models
    scores["m1"] = np.where(y, scores["m1"] + 2.5 * (scores["m1"] > 1), scores["m1"])
    curves = {k: roc_curve(y, s) for k, s in scores.items()}
    r = optimal_ranges(curves, prior_pos=0.4)
    winners = set()
    for m in np.geomspace(1e-3, 1e3, 3001):
        want = _brute_force_winners(curves, m)
        if want is None:
            continue
        winners |= want
        owning = {x.model for x in r.ranges if x.contains_slope(m)}
        assert owning == want, (m, want, owning)
    assert {x.model for x in r.ranges if not x.never_optimal} == winners
    # the data make one model dominated, or optimal only where it ties with another (the
    # same ROC point: m3 and m0 reach TPR 1 at the same FPR with seed 1)
    assert any(x.never_optimal or x.ties_in_part for x in r.ranges)


def test_kmc011_cost_ratio_form_picks_the_min_cost_model():
    """At prior p, inside a model's cost-ratio interval, the threshold of least expected
    cost p·(1−TPR)·c(FN) + (1−p)·FPR·c(FP) over all models' thresholds is that model's."""
    y, scores = _models(5, n=80, shifts=(1.2, 0.6, 1.0))
    curves = {k: roc_curve(y, s) for k, s in scores.items()}
    p = 0.3
    r = optimal_ranges(curves, prior_pos=p)
    checked = 0
    for x in r.ranges:
        for lo, hi in zip(x.cost_ratio_low, x.cost_ratio_high, strict=True):
            ratio = math.sqrt(lo * hi) if lo > 0 and np.isfinite(hi) else (
                hi / 2 if lo == 0 else lo * 2)
            cost = {k: np.min(p * (1 - c.tpr) * 1.0 + (1 - p) * c.fpr * ratio)
                    for k, c in curves.items()}
            assert cost[x.model] == min(cost.values())  # the least (alone, or tied)
            checked += 1
    assert checked >= 2


def test_kmc012_given_hull_must_match_the_curves():
    from roc_dash.core.roc.hull import hull_of_curves

    curves = {"A": _curve([(0, 0), (0.1, 0.6), (1, 1)]),
              "B": _curve([(0, 0), (0.5, 0.9), (1, 1)])}
    hull = hull_of_curves(curves)
    assert optimal_ranges(curves, prior_pos=0.5, hull=hull).of("A").slope_high[0] == 6.0
    with pytest.raises(ValueError, match="not among the curves"):
        optimal_ranges({"A": curves["A"]}, prior_pos=0.5, hull=hull)
