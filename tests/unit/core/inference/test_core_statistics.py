"""AUC statistics: partial AUC against scikit-learn, DeLong against an O(P*N) reference,
Hanley-McNeil on its paper's worked example, interval coverage by simulation, cost/accuracy."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import norm
from sklearn.metrics import roc_auc_score

from roc_dash.core.decisions.threshold_costs import cost_at_thresholds
from roc_dash.core.inference.statistics import (
    AucInterval,
    accuracy_at_thresholds,
    auc_confidence_interval,
    auc_test_vs_chance,
    delong_paired_test,
    delong_variance,
    gini,
    partial_auc,
    partial_auc_from_curve,
)
from roc_dash.core.roc.curves import best_accuracy, roc_auc, roc_curve
from tests.oracles import delong_auc_variance as _naive_delong
from tests.oracles import delong_paired

# Fawcett (2004), figure 3: twenty instances, ten positive and ten negative.
FIG3_CLASS = "ppnpppnnpnpnpnnnpnpn"
FIG3_SCORE = [0.9, 0.8, 0.7, 0.6, 0.55, 0.54, 0.53, 0.52, 0.51, 0.505,
              0.4, 0.39, 0.38, 0.37, 0.36, 0.35, 0.34, 0.33, 0.30, 0.1]

# Hanley & McNeil (1982), Table 1: CT ratings (1 = definitely normal ... 5 = definitely
# abnormal) of 58 truly normal and 51 truly abnormal patients; the paper reports
# A = 0.893 with standard error 0.032.
HM_NORMAL = [33, 6, 6, 11, 2]
HM_ABNORMAL = [3, 2, 2, 11, 33]


def _fig3():
    return np.array([c == "p" for c in FIG3_CLASS]), np.array(FIG3_SCORE)


def _random_data(seed, n=300, ties=False, weights=False, shift=0.8):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    y[:2] = True
    y[2:4] = False
    s = rng.normal(size=n) + shift * y
    if ties:
        s = np.round(s * 2) / 2  # about a dozen distinct values: heavy ties across classes
    w = rng.integers(0, 5, n).astype(float) if weights else None
    if w is not None:
        w[:4] = 1.0
    return y, s, w


# ------------------------------------------------------------------ naive O(P*N) references


def _naive_paired(y, sa, sb):
    """Unweighted DeLong paired test: difference, its standard error, z, p, correlation."""
    r = delong_paired(y, sa, sb)
    return r.diff, r.se, r.z, r.p, r.corr


# ---------------------------------------------------------------------------------- tests


def test_sta001_gini():
    assert gini(0.5) == 0.0
    assert gini(1.0) == 1.0
    assert gini(0.0) == -1.0
    assert gini(0.8) == pytest.approx(0.6)


@pytest.mark.parametrize("max_fpr", [0.05, 0.1, 0.3, 0.5, 0.77, 1.0])
@pytest.mark.parametrize("ties,weighted", [(False, False), (True, False), (True, True),
                                           (False, True)])
def test_sta002_partial_auc_mcclish_equals_sklearn(max_fpr, ties, weighted):
    for seed in range(3):
        y, s, w = _random_data(seed, ties=ties, weights=weighted)
        if weighted:
            w = w + np.random.default_rng(seed).random(w.size)  # fractional weights too
        got = partial_auc(y, s, max_fpr=max_fpr, weights=w)
        expected = roc_auc_score(y, s, max_fpr=max_fpr, sample_weight=w)
        assert got.mcclish == pytest.approx(expected, abs=1e-12)
        assert got.fpr_max == max_fpr
        assert 0.0 <= got.raw <= max_fpr + 1e-15


def _numeric_partial_area(y, s, max_fpr, grid=200_001):
    """Trapezoid rule on a fine FPR grid; vertical steps resolved by the top at the left end."""
    curve = roc_curve(y, s)
    fpr, tpr = curve.fpr, curve.tpr
    xs, first = np.unique(fpr, return_index=True)
    last = np.r_[first[1:] - 1, fpr.size - 1]
    bottom, top = tpr[first], tpr[last]
    f = np.linspace(0.0, max_fpr, grid)
    k = np.clip(np.searchsorted(xs, f, side="right") - 1, 0, xs.size - 2)
    t = (f - xs[k]) / (xs[k + 1] - xs[k])
    values = top[k] + t * (bottom[k + 1] - top[k])
    return float(np.sum((values[1:] + values[:-1]) * np.diff(f)) / 2)


@pytest.mark.parametrize("max_fpr", [0.1, 0.25, 0.6])
@pytest.mark.parametrize("ties", [False, True])
def test_sta003_partial_auc_raw_matches_numeric_integration(max_fpr, ties):
    y, s, _ = _random_data(7, n=150, ties=ties)
    got = partial_auc(y, s, max_fpr=max_fpr)
    assert got.raw == pytest.approx(_numeric_partial_area(y, s, max_fpr), abs=2e-6)


def test_sta004_partial_auc_edges():
    y, s, w = _random_data(3, ties=True, weights=True)
    curve = roc_curve(y, s, weights=w)
    full = partial_auc_from_curve(curve, 1.0)
    assert full.raw == pytest.approx(roc_auc(y, s, weights=w), abs=1e-15)
    assert full.mcclish == pytest.approx(full.raw, abs=1e-15)
    assert partial_auc_from_curve(curve, 0.2) == partial_auc(y, s, max_fpr=0.2, weights=w)
    # Chance diagonal -> 0.5, perfect -> 1 at any max_fpr.
    tied = partial_auc([1, 0, 1, 0], [0.3, 0.3, 0.3, 0.3], max_fpr=0.4)
    assert tied.raw == pytest.approx(0.08) and tied.mcclish == pytest.approx(0.5)
    perfect = partial_auc([1, 1, 0, 0], [0.9, 0.8, 0.2, 0.1], max_fpr=0.3)
    assert perfect.raw == pytest.approx(0.3) and perfect.mcclish == pytest.approx(1.0)
    for bad in (0.0, -0.1, 1.5, float("nan")):
        with pytest.raises(ValueError):
            partial_auc_from_curve(curve, bad)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("ties", [False, True])
def test_sta005_delong_variance_equals_naive_reference(seed, ties):
    y, s, _ = _random_data(seed, n=120 + 40 * seed, ties=ties)
    got = delong_variance(y, s)
    a, var = _naive_delong(y, s)
    assert got.auc == pytest.approx(a, abs=1e-13)
    assert got.auc == pytest.approx(roc_auc_score(y, s), abs=1e-13)
    assert got.variance == pytest.approx(var, rel=1e-10)
    assert got.std_error == pytest.approx(math.sqrt(var), rel=1e-10)
    assert (got.n_pos, got.n_neg) == (y.sum(), (~y).sum())


@pytest.mark.parametrize("seed", range(4))
def test_sta006_weighted_delong_equals_repeated_rows(seed):
    y, s, w = _random_data(seed, n=150, ties=True, weights=True)
    reps = w.astype(int)
    got = delong_variance(y, s, weights=w)
    rep = delong_variance(np.repeat(y, reps), np.repeat(s, reps))
    assert got.auc == pytest.approx(rep.auc, abs=1e-13)
    assert got.variance == pytest.approx(rep.variance, rel=1e-10)
    assert (got.n_pos, got.n_neg) == (rep.n_pos, rep.n_neg)
    # Fractional weights: the weighted textbook formula.
    fw = w + np.random.default_rng(seed).random(w.size)
    a, var = _naive_delong(y, s, fw)
    got = delong_variance(y, s, weights=fw)
    assert got.auc == pytest.approx(a, abs=1e-13)
    assert got.variance == pytest.approx(var, rel=1e-10)
    # The interval and the chance test go through the same weighting.
    ci = auc_confidence_interval(y, s, weights=w)
    ci_rep = auc_confidence_interval(np.repeat(y, reps), np.repeat(s, reps))
    assert (ci.low, ci.high) == pytest.approx((ci_rep.low, ci_rep.high), abs=1e-12)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("ties", [False, True])
def test_sta007_paired_test_equals_naive_covariance(seed, ties):
    y, sa, _ = _random_data(seed, n=200, ties=ties)
    rng = np.random.default_rng(100 + seed)
    sb = 0.6 * sa + rng.normal(size=sa.size) * 0.8 + 0.3 * y
    if ties:
        sb = np.round(sb * 2) / 2
    got = delong_paired_test(y, sa, sb)
    diff, se, z, p, corr = _naive_paired(y, sa, sb)
    assert got.auc_a == pytest.approx(roc_auc_score(y, sa), abs=1e-13)
    assert got.auc_b == pytest.approx(roc_auc_score(y, sb), abs=1e-13)
    assert got.auc_difference == pytest.approx(diff, abs=1e-13)
    assert got.std_error == pytest.approx(se, rel=1e-9)
    assert got.z == pytest.approx(z, rel=1e-9)
    assert got.p_value == pytest.approx(p, rel=1e-8, abs=1e-14)
    assert got.correlation == pytest.approx(corr, rel=1e-9)
    # Swapping the models flips the sign only.
    swapped = delong_paired_test(y, sb, sa)
    assert swapped.z == pytest.approx(-got.z, rel=1e-12)
    assert swapped.p_value == pytest.approx(got.p_value, rel=1e-12)


def test_sta008_paired_identical_scores_zero_variance():
    y, s, w = _random_data(11, ties=True, weights=True)
    fw = w + 0.37
    for weights in (None, w, fw):
        same = delong_paired_test(y, s, s.copy(), weights=weights)
        assert same.auc_difference == 0.0
        assert same.std_error == 0.0
        assert same.z == 0.0
        assert same.p_value == 1.0
        assert same.correlation == pytest.approx(1.0)
        # A strictly increasing transform ranks identically: the same components, exactly.
        mono = delong_paired_test(y, s, np.exp(3 * s) - 2.0, weights=weights)
        assert (mono.auc_difference, mono.std_error, mono.p_value) == (0.0, 0.0, 1.0)
    # Zero SE but different AUCs: a perfect model (every component 1) against a constant one
    # (every component 1/2) -- the component differences are constant, so SE = 0.
    y2 = np.array([True, True, True, False, False, False])
    res = delong_paired_test(y2, [3.0, 2.0, 2.5, 1.0, 0.0, 0.5], np.zeros(6))
    assert res.auc_difference == 0.5
    assert res.std_error == 0.0
    assert res.z == math.inf and res.p_value == 0.0
    assert math.isnan(res.correlation)


def test_sta009_paired_strictly_better_model_small_p():
    rng = np.random.default_rng(5)
    n = 600
    y = rng.random(n) < 0.5
    latent = rng.normal(size=n) + 1.5 * y
    good = latent + 0.3 * rng.normal(size=n)
    bad = latent + 2.0 * rng.normal(size=n)
    res = delong_paired_test(y, good, bad)
    assert res.auc_a > res.auc_b
    assert res.z > 3
    assert res.p_value < 1e-3
    assert 0 < res.correlation < 1
    # Same data, models swapped: a is worse, z negative.
    assert delong_paired_test(y, bad, good).z < -3


def _hm_table_rows():
    ratings = np.arange(1, 6, dtype=float)
    y = np.r_[np.zeros(sum(HM_NORMAL), bool), np.ones(sum(HM_ABNORMAL), bool)]
    s = np.r_[np.repeat(ratings, HM_NORMAL), np.repeat(ratings, HM_ABNORMAL)]
    return y, s


def test_sta010_hanley_mcneil_worked_example():
    y, s = _hm_table_rows()
    ci = auc_confidence_interval(y, s, method="hanley_mcneil")
    assert ci.method == "hanley_mcneil" and ci.level == 0.95
    # The paper's values.
    assert round(ci.auc, 3) == 0.893
    assert round(ci.std_error, 3) == 0.032
    # The formula computed by hand from A, P = 51, N = 58.
    a, p, n = ci.auc, 51, 58
    q1, q2 = a / (2 - a), 2 * a**2 / (1 + a)
    se = math.sqrt((a * (1 - a) + (p - 1) * (q1 - a**2) + (n - 1) * (q2 - a**2)) / (p * n))
    assert ci.std_error == pytest.approx(se, rel=1e-12)
    assert ci.low == pytest.approx(a - 1.959963984540054 * se, rel=1e-12)
    assert ci.high == pytest.approx(a + 1.959963984540054 * se, rel=1e-12)
    # The aggregated table (one row per rating and class, counts as weights) is the same.
    ratings = np.arange(1, 6, dtype=float)
    agg = auc_confidence_interval(
        np.r_[np.zeros(5, bool), np.ones(5, bool)], np.r_[ratings, ratings],
        method="hanley_mcneil", weights=np.r_[HM_NORMAL, HM_ABNORMAL],
    )
    assert (agg.auc, agg.std_error) == pytest.approx((ci.auc, ci.std_error), rel=1e-13)


def test_sta011_delong_on_aggregated_table_and_level():
    y, s = _hm_table_rows()
    rows = auc_confidence_interval(y, s)
    ratings = np.arange(1, 6, dtype=float)
    agg = auc_confidence_interval(
        np.r_[np.zeros(5, bool), np.ones(5, bool)], np.r_[ratings, ratings],
        weights=np.r_[HM_NORMAL, HM_ABNORMAL],
    )
    assert agg.std_error == pytest.approx(rows.std_error, rel=1e-12)
    assert rows.std_error == pytest.approx(math.sqrt(_naive_delong(y, s)[1]), rel=1e-12)
    wide = auc_confidence_interval(y, s, level=0.99)
    assert wide.low < rows.low < rows.auc < rows.high < wide.high
    assert wide.high - wide.auc == pytest.approx(norm.ppf(0.995) * rows.std_error, rel=1e-12)


def test_sta012_delong_interval_coverage_binormal():
    rng = np.random.default_rng(20240601)
    d = 1.2
    true_auc = norm.cdf(d / math.sqrt(2))  # binormal, equal unit variances
    n, reps, covered = 200, 200, 0
    for _ in range(reps):
        y = rng.random(n) < 0.4
        s = rng.normal(size=n) + d * y
        ci = auc_confidence_interval(y, s)
        covered += ci.low <= true_auc <= ci.high
    assert 0.90 <= covered / reps <= 0.99


def test_sta013_test_vs_chance():
    y, s, _ = _random_data(2, n=250, ties=True)
    res = auc_test_vs_chance(y, s)
    a, var = _naive_delong(y, s)
    z = (a - 0.5) / math.sqrt(var)
    assert res.auc == pytest.approx(a, abs=1e-13)
    assert res.z == pytest.approx(z, rel=1e-10)
    assert res.p_value == pytest.approx(2 * norm.sf(abs(z)), rel=1e-8, abs=1e-15)
    # Uninformative scores: large p.
    rng = np.random.default_rng(1)
    noise = auc_test_vs_chance(rng.random(400) < 0.5, rng.normal(size=400))
    assert noise.p_value > 0.05
    # Zero standard error: perfectly separated (AUC 1) and all tied (AUC exactly 0.5).
    perfect = auc_test_vs_chance([1, 1, 0, 0], [0.9, 0.8, 0.2, 0.1])
    assert (perfect.auc, perfect.z, perfect.p_value) == (1.0, math.inf, 0.0)
    reversed_ = auc_test_vs_chance([0, 0, 1, 1], [0.9, 0.8, 0.2, 0.1])
    assert (reversed_.auc, reversed_.z, reversed_.p_value) == (0.0, -math.inf, 0.0)
    tied = auc_test_vs_chance([1, 0, 1, 0, 0], np.full(5, 0.4), weights=[0.7, 1.3, 2.9, 1.1, 3])
    assert (tied.auc, tied.z, tied.p_value) == (0.5, 0.0, 1.0)


def test_sta014_interval_clipping_and_validation():
    ci = auc_confidence_interval([1, 1, 1, 0, 0, 0, 0], [5, 6, 7, 1, 2, 3, 6.5])
    assert isinstance(ci, AucInterval)
    assert 0.0 <= ci.low <= ci.auc <= ci.high <= 1.0
    assert ci.high == 1.0  # auc + 1.96 SE > 1 is clipped
    assert ci.auc + 1.959963984540054 * ci.std_error > 1.0
    perfect = auc_confidence_interval([1, 1, 0, 0], [0.9, 0.8, 0.2, 0.1], method="hanley_mcneil")
    assert (perfect.auc, perfect.low, perfect.high, perfect.std_error) == (1.0, 1.0, 1.0, 0.0)
    y, s, _ = _random_data(0)
    with pytest.raises(ValueError, match="level"):
        auc_confidence_interval(y, s, level=1.0)
    with pytest.raises(ValueError, match="method"):
        auc_confidence_interval(y, s, method="bootstrap")
    with pytest.raises(ValueError, match="more than one"):
        delong_variance([1, 0, 0, 0], [0.4, 0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="more than one"):
        delong_variance(y, s, weights=np.full(y.size, 1e-3))
    with pytest.raises(ValueError):
        delong_variance([0, 0, 0], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="differ in length"):
        delong_paired_test(y, s, s[:-1])
    # Hanley-McNeil has no P > 1 requirement.
    one = auc_confidence_interval([1, 0, 0, 0], [0.4, 0.1, 0.5, 0.3], method="hanley_mcneil")
    assert one.auc == pytest.approx(2 / 3) and one.std_error > 0


def _direct_counts(y, s, w, t):
    w = np.ones(y.size) if w is None else w
    called = s >= t
    return w[y & called].sum(), w[~y & called].sum(), w[y].sum(), w[~y].sum()


@pytest.mark.parametrize("weighted", [False, True])
def test_sta015_cost_and_accuracy_match_direct_counts(weighted):
    y, s, w = _random_data(4, n=120, ties=True, weights=weighted)
    curve = roc_curve(y, s, weights=w)
    acc = accuracy_at_thresholds(curve)
    costs = cost_at_thresholds(curve, cost_fp=2.0, cost_fn=5.0, prior_pos=0.1)
    default = cost_at_thresholds(curve)
    assert acc.shape == costs.shape == (len(curve),)
    for k in (0, 1, 3, len(curve) // 2, len(curve) - 1):
        tp, fp, p, n = _direct_counts(y, s, w, curve.thresholds[k])
        assert acc[k] == pytest.approx((tp + n - fp) / (p + n), abs=1e-12)
        expected = 0.1 * (1 - tp / p) * 5.0 + 0.9 * (fp / n) * 2.0
        assert costs[k] == pytest.approx(expected, abs=1e-12)
        prior = p / (p + n)
        assert default[k] == pytest.approx(prior * (1 - tp / p) + (1 - prior) * fp / n,
                                           abs=1e-12)
    np.testing.assert_allclose(default, 1.0 - acc, atol=1e-12)
    with pytest.raises(ValueError):
        cost_at_thresholds(curve, prior_pos=1.5)
    with pytest.raises(ValueError):
        cost_at_thresholds(curve, cost_fp=-1.0)


def test_sta016_fawcett_figure3_accuracy():
    y, s = _fig3()
    curve = roc_curve(y, s)
    acc = accuracy_at_thresholds(curve)
    k = int(np.argmax(acc))
    assert acc[k] == pytest.approx(0.70)
    assert curve.thresholds[k] == 0.54
    assert k == best_accuracy(curve).index
    # Threshold +inf: everything negative, accuracy N / (P + N) = 0.5.
    assert acc[0] == 0.5 and acc[-1] == 0.5
    cost = cost_at_thresholds(curve)
    assert int(np.argmin(cost)) == k and cost[k] == pytest.approx(0.30)


@settings(max_examples=40, deadline=None)
@given(
    data=st.lists(
        st.tuples(st.booleans(), st.integers(0, 6), st.integers(0, 6), st.integers(0, 3)),
        min_size=4,
        max_size=30,
    )
)
def test_sta017_integer_weights_equal_repeated_rows_property(data):
    y = np.array([d[0] for d in data])
    sa = np.array([d[1] for d in data], dtype=float)
    sb = np.array([d[2] for d in data], dtype=float)
    w = np.array([d[3] for d in data])
    yr, sar, sbr = np.repeat(y, w), np.repeat(sa, w), np.repeat(sb, w)
    if yr.sum() < 2 or (~yr).sum() < 2:
        with pytest.raises(ValueError):
            delong_variance(y, sa, weights=w)
        return
    got = delong_paired_test(y, sa, sb, weights=w)
    rep = delong_paired_test(yr, sar, sbr)
    assert got.auc_a == pytest.approx(rep.auc_a, abs=1e-12)
    assert got.auc_b == pytest.approx(rep.auc_b, abs=1e-12)
    assert got.std_error == pytest.approx(rep.std_error, rel=1e-9, abs=1e-12)
    assert got.p_value == pytest.approx(rep.p_value, rel=1e-7, abs=1e-9)
    single = delong_variance(y, sa, weights=w)
    assert single.variance == pytest.approx(_naive_delong(yr, sar)[1], rel=1e-9, abs=1e-15)


def _string_labels():
    rng = np.random.default_rng(18)
    y = rng.random(300) < 0.4
    s = np.round(rng.normal(y * 0.9, 1.0), 1)
    s2 = np.round(s + rng.normal(0.0, 0.7, y.size), 1)
    w = rng.uniform(0.5, 2.0, y.size)
    text = np.where(y, "Malignant", "benign")  # not a known encoding: needs pos_label
    return y, text, s, s2, w


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("name", ["partial_auc", "delong_variance", "auc_confidence_interval",
                                  "hanley_mcneil", "auc_test_vs_chance", "delong_paired_test"])
def test_sta018_pos_label_string_labels_equal_boolean_labels(name, weighted):
    y, text, s, s2, w = _string_labels()
    kw = {"weights": w} if weighted else {}
    call = {
        "partial_auc": lambda lab, **k: partial_auc(lab, s, max_fpr=0.3, **k),
        "delong_variance": lambda lab, **k: delong_variance(lab, s, **k),
        "auc_confidence_interval": lambda lab, **k: auc_confidence_interval(lab, s, **k),
        "hanley_mcneil": lambda lab, **k: auc_confidence_interval(
            lab, s, method="hanley_mcneil", **k),
        "auc_test_vs_chance": lambda lab, **k: auc_test_vs_chance(lab, s, **k),
        "delong_paired_test": lambda lab, **k: delong_paired_test(lab, s, s2, **k),
    }[name]
    expected = call(y, **kw)
    # Any spelling of the positive value, and the text array as a list.
    assert call(text, pos_label="Malignant", **kw) == expected
    assert call(list(text), pos_label="malignant", **kw) == expected
    with pytest.raises(ValueError, match="pos_label"):
        call(text, **kw)
    with pytest.raises(ValueError, match="not among the label values"):
        call(text, pos_label="other", **kw)


def test_sta019_pos_label_naming_the_other_class_mirrors_the_auc():
    y, text, s, _, _ = _string_labels()
    a = delong_variance(text, s, pos_label="Malignant")
    b = delong_variance(text, -s, pos_label="benign")
    assert b.auc == pytest.approx(a.auc, abs=1e-12)
    assert b.variance == pytest.approx(a.variance, rel=1e-9)
    # Numeric labels other than 0/1: 2 = positive.
    assert delong_variance(np.where(y, 2, 7), s, pos_label=2) == delong_variance(y, s)
