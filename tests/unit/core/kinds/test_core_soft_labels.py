"""ROC with soft (probabilistic) labels (Qin, ``../shared/papers/001_*``): the curve of
section 3, the AUC of equations 8-12 and Table 2 reproduced in exact fractions, ties as in
Fawcett (2004) section 4.1, hard labels bit for bit, and a DeLong-type interval checked by
simulation."""

from __future__ import annotations

import importlib.util
import itertools
import math
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy.stats import multivariate_normal, norm

from roc_dash.core.inference.statistics import auc_confidence_interval, delong_variance
from roc_dash.core.kinds.soft_labels import (
    soft_auc_interval,
    soft_auc_variance,
    soft_class_totals,
    soft_roc_auc,
    soft_roc_curve,
)
from roc_dash.core.roc.curves import auc, roc_auc, roc_curve

ROOT = Path(__file__).resolve().parents[4]
DEMO = ROOT / "roc_dash" / "data" / "soft_labels_demo.csv"

# Qin, Table 2: n_i = 1 - p_i of five examples in ranked order (highest score first), the
# perfect ranking R_p and three successive exchanges of neighbours, with the change in AUC
# (p_k - p_{k+1}) / (n+ n-) of each exchange and the AUC the paper prints.
TABLE2 = {
    "R_p": (("0.2", "0.4", "0.6", "0.8", "1.0"), None, F(0), "0.8333"),
    "R_x1": (("0.2", "0.4", "0.8", "0.6", "1.0"), ("R_p", 2), F(1, 30), "0.8000"),
    "R_x2": (("0.2", "0.8", "0.4", "0.6", "1.0"), ("R_x1", 1), F(1, 15), "0.7333"),
    "R_x3": (("0.2", "0.8", "0.4", "1.0", "0.6"), ("R_x2", 3), F(1, 15), "0.6667"),
}
TABLE2_AUC = {"R_p": F(5, 6), "R_x1": F(4, 5), "R_x2": F(11, 15), "R_x3": F(2, 3)}
RANK_SCORES = np.array([5.0, 4.0, 3.0, 2.0, 1.0])  # any decreasing scores give the ranking


def _table2_p(name):
    return [1 - F(n) for n in TABLE2[name][0]]


# ------------------------------------------------------------ Qin's formulas, literally


def _qin_totals(p):
    """Equation 8: n+ = sum p, n- = sum (1 - p) (= L - n+; the paper prints 1 - n+)."""
    return sum(p, F(0)), sum((1 - x for x in p), F(0))


def _qin_curve(p):
    """Section 3: TP_i = TP_{i-1} + p_i / n+, FP_i = FP_{i-1} + (1 - p_i) / n-."""
    n_pos, n_neg = _qin_totals(p)
    tp, fp = [F(0)], [F(0)]
    for x in p:
        tp.append(tp[-1] + x / n_pos)
        fp.append(fp[-1] + (1 - x) / n_neg)
    return fp, tp


def _qin_auc_eq10(p, k=None):
    """Equation 10: AUC_k = 1/(2 n+ n-) sum_{i<=k} (1 - p_i)(2 sum_{j<i} p_j + p_i)."""
    n_pos, n_neg = _qin_totals(p)
    k = len(p) if k is None else k
    total = sum(((1 - p[i]) * (2 * sum(p[:i], F(0)) + p[i]) for i in range(k)), F(0))
    return total / (2 * n_pos * n_neg)


def _qin_auc_eq11(p):
    """Equations 11-12: (sum p_i (1 - p_i) + 2 C) / (2 n+ n-), C = sum_{i>j} p_j (1 - p_i)."""
    n_pos, n_neg = _qin_totals(p)
    c = sum((p[j] * (1 - p[i]) for i in range(1, len(p)) for j in range(i)), F(0))
    return (sum((x * (1 - x) for x in p), F(0)) + 2 * c) / (2 * n_pos * n_neg)


def _brute_auc(p, s, w=None):
    """O(n^2) Mann-Whitney over positive and negative parts, ties (and self-pairs) 1/2."""
    p, s = np.asarray(p, float), np.asarray(s, float)
    w = np.ones(p.size) if w is None else np.asarray(w, float)
    a, b = w * p, w * (1 - p)
    kernel = (s[:, None] > s[None, :]) + 0.5 * (s[:, None] == s[None, :])
    return float(a @ kernel @ b / (a.sum() * b.sum()))


def _random(seed, n=200, ties=False, weights=False, hard_share=0.3):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=n)
    p = norm.cdf(1.5 * x)
    hard = rng.random(n) < hard_share
    p[hard] = (x[hard] > 0).astype(float)
    s = x + rng.normal(size=n)
    if ties:
        s = np.round(s * 2) / 2
    w = rng.integers(0, 4, n).astype(float) if weights else None
    return p, s, w


# ----------------------------------------------------------------------------- Table 2


@pytest.mark.parametrize("name", list(TABLE2))
def test_soft001_qin_table2_auc_in_fractions(name):
    p = _table2_p(name)
    assert _qin_totals(p) == (F(2), F(3))  # n+ = 2, n- = 3 ("n+ = 5 - 3 = 2")
    expected = TABLE2_AUC[name]
    # the paper's formulas, exactly
    assert _qin_auc_eq11(p) == expected
    assert _qin_auc_eq10(p) == expected
    assert _qin_auc_eq10(p, 1) == p[0] * (1 - p[0]) / (2 * 2 * 3)  # equation 9
    assert f"{float(expected):.4f}" == TABLE2[name][3]  # the printed value
    # the implementation
    probs = np.array([float(x) for x in p])
    assert abs(F(soft_roc_auc(probs, RANK_SCORES)) - expected) < F(1, 10**12)
    assert soft_class_totals(probs) == pytest.approx((2.0, 3.0), abs=1e-15)


@pytest.mark.parametrize("name", ["R_x1", "R_x2", "R_x3"])
def test_soft002_qin_table2_exchange_changes_auc_by_p_difference(name):
    _, (before, k), delta, _ = TABLE2[name]
    p_before = _table2_p(before)
    n_pos, n_neg = _qin_totals(p_before)
    swapped = list(p_before)
    swapped[k], swapped[k + 1] = swapped[k + 1], swapped[k]
    assert swapped == _table2_p(name)  # the exchange the table shows
    assert (p_before[k] - p_before[k + 1]) / (n_pos * n_neg) == delta  # its column
    assert TABLE2_AUC[before] - TABLE2_AUC[name] == delta
    got = (soft_roc_auc([float(x) for x in p_before], RANK_SCORES)
           - soft_roc_auc([float(x) for x in swapped], RANK_SCORES))
    assert abs(F(got) - delta) < F(1, 10**12)
    assert f"{float(delta):.4f}" == {"R_x1": "0.0333", "R_x2": "0.0667", "R_x3": "0.0667"}[name]


@pytest.mark.parametrize("name", list(TABLE2))
def test_soft003_curve_is_qins_construction(name):
    p = _table2_p(name)
    fp, tp = _qin_curve(p)
    curve = soft_roc_curve([float(x) for x in p], RANK_SCORES)
    np.testing.assert_allclose(curve.fpr, [float(x) for x in fp], rtol=0, atol=1e-15)
    np.testing.assert_allclose(curve.tpr, [float(x) for x in tp], rtol=0, atol=1e-15)
    np.testing.assert_array_equal(curve.thresholds, np.r_[np.inf, RANK_SCORES])
    assert (curve.n_pos, curve.n_neg) == pytest.approx((2.0, 3.0), abs=1e-15)
    # a perfect ranking with overlapping labels cannot reach AUC 1 (Qin, section 4)
    assert auc(curve) < 1.0


# ------------------------------------------------------------------- against the formulas


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_soft004_distinct_scores_equal_equation_11_and_qins_curve(seed):
    rng = np.random.default_rng(seed)
    p = np.round(rng.random(40), 3)
    p[:3] = [0.0, 1.0, 0.5]
    s = rng.permutation(40).astype(float)
    ranked = [F(x) for x in p[np.argsort(-s)]]
    assert soft_roc_auc(p, s) == pytest.approx(float(_qin_auc_eq11(ranked)), abs=1e-12)
    fp, tp = _qin_curve(ranked)
    curve = soft_roc_curve(p, s)
    np.testing.assert_allclose(curve.fpr, [float(x) for x in fp], rtol=0, atol=1e-12)
    np.testing.assert_allclose(curve.tpr, [float(x) for x in tp], rtol=0, atol=1e-12)


def test_soft005_ties_average_equation_11_over_the_orders_of_a_run():
    """One vertex per distinct score (Fawcett section 4.1): a tied run's area is the mean of
    Qin's area over every order of the run."""
    p = [F(9, 10), F(3, 10), F(7, 10), F(1, 2), F(0), F(1), F(1, 5)]
    s = np.array([3.0, 2.0, 2.0, 2.0, 1.0, 1.0, 0.0])
    runs = [[0], [1, 2, 3], [4, 5], [6]]
    values = []
    for orders in itertools.product(*(itertools.permutations(r) for r in runs)):
        ranked = [p[i] for order in orders for i in order]
        values.append(_qin_auc_eq11(ranked))
    mean = sum(values, F(0)) / len(values)
    assert len(set(values)) > 1  # the order inside a run matters to Qin's construction
    probs = np.array([float(x) for x in p])
    assert abs(F(soft_roc_auc(probs, s)) - mean) < F(1, 10**12)
    curve = soft_roc_curve(probs, s)
    assert len(curve) == 4 + 1
    # vertex at threshold t: soft mass scoring >= t
    n_pos, n_neg = probs.sum(), (1 - probs).sum()
    for t, f, tp in zip(curve.thresholds, curve.fpr, curve.tpr, strict=True):
        assert tp == pytest.approx(probs[s >= t].sum() / n_pos, abs=1e-15)
        assert f == pytest.approx((1 - probs[s >= t]).sum() / n_neg, abs=1e-15)


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_soft006_equals_brute_force_mann_whitney(ties, weighted):
    p, s, w = _random(3, n=150, ties=ties, weights=weighted)
    assert soft_roc_auc(p, s, weights=w) == pytest.approx(_brute_auc(p, s, w), abs=1e-12)


@pytest.mark.parametrize("ties", [False, True])
def test_soft007_curve_equals_weighted_curve_of_doubled_rows(ties):
    """Row i becomes a positive of weight w p and a negative of weight w (1 - p)."""
    p, s, w = _random(4, ties=ties, weights=True)
    n = p.size
    doubled = roc_curve(np.r_[np.ones(n, bool), np.zeros(n, bool)], np.r_[s, s],
                        weights=np.r_[w * p, w * (1 - p)])
    got = soft_roc_curve(p, s, weights=w)
    for field in ("fpr", "tpr", "thresholds"):
        np.testing.assert_array_equal(getattr(got, field), getattr(doubled, field))
    assert (got.n_pos, got.n_neg) == (doubled.n_pos, doubled.n_neg)
    assert got.n_pos == pytest.approx(np.dot(w, p), rel=1e-14)


# ------------------------------------------------------------------------- hard labels


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("kind", ["int", "float", "bool"])
def test_soft008_hard_labels_are_the_binary_curve_bit_for_bit(weighted, kind):
    p, s, w = _random(6, ties=True, weights=weighted, hard_share=1.0)
    y = p == 1.0
    labels = {"int": y.astype(int), "float": y.astype(float), "bool": y}[kind]
    if w is not None:
        w = w + 0.25  # fractional weights too
    curve = soft_roc_curve(labels, s, weights=w)
    binary = roc_curve(y, s, weights=w)
    for field in ("fpr", "tpr", "thresholds"):
        np.testing.assert_array_equal(getattr(curve, field), getattr(binary, field))
    assert (curve.n_pos, curve.n_neg) == (binary.n_pos, binary.n_neg)
    assert soft_roc_auc(labels, s, weights=w) == roc_auc(y, s, weights=w)
    # the doubled-rows construction is exact here too: its zero-weight copies add nothing
    n = s.size
    ones = np.ones(n) if w is None else w
    doubled = roc_curve(np.r_[np.ones(n, bool), np.zeros(n, bool)], np.r_[s, s],
                        weights=np.r_[ones * y, ones * ~y])
    np.testing.assert_array_equal(doubled.fpr, binary.fpr)
    np.testing.assert_array_equal(doubled.tpr, binary.tpr)


# ---------------------------------------------------------------------------- properties

ROWS = st.lists(
    st.tuples(
        st.one_of(st.sampled_from([0.0, 0.25, 0.5, 1.0]),
                  st.floats(0.0, 1.0, allow_nan=False)),
        st.integers(0, 5),  # few distinct scores: heavy ties
        st.integers(0, 3),
    ),
    min_size=2,
    max_size=40,
)
PROPS = settings(max_examples=150, deadline=None)


def _unpack(rows):
    p = np.array([r[0] for r in rows])
    s = np.array([r[1] for r in rows], dtype=float)
    w = np.array([r[2] for r in rows], dtype=float)
    return p, s, w


def _defined(p, w):
    return np.dot(w, p) > 1e-9 and np.dot(w, 1 - p) > 1e-9


@PROPS
@given(ROWS)
def test_soft009_property_range_symmetries_brute_force(rows):
    p, s, w = _unpack(rows)
    assume(_defined(p, w))
    a = soft_roc_auc(p, s, weights=w)
    assert -1e-12 <= a <= 1.0 + 1e-12
    assert a == pytest.approx(_brute_auc(p, s, w), abs=1e-9)
    # swapping the classes and reversing the ranking keeps the AUC ...
    assert soft_roc_auc(1.0 - p, -s, weights=w) == pytest.approx(a, abs=1e-9)
    # ... swapping the classes alone mirrors it
    assert soft_roc_auc(1.0 - p, s, weights=w) == pytest.approx(1.0 - a, abs=1e-9)
    # scoring by the soft label itself is a perfect ranking: no ranking does better
    assert a <= soft_roc_auc(p, p, weights=w) + 1e-9
    # weights are relative
    assert soft_roc_auc(p, s, weights=3.5 * w) == pytest.approx(a, abs=1e-12)


@PROPS
@given(ROWS)
def test_soft010_property_integer_weights_equal_repeated_rows(rows):
    p, s, w = _unpack(rows)
    assume(_defined(p, w))
    reps = w.astype(int)
    weighted = soft_roc_curve(p, s, weights=w)
    repeated = soft_roc_curve(np.repeat(p, reps), np.repeat(s, reps))
    assert auc(weighted) == pytest.approx(auc(repeated), abs=1e-12)
    # zero-weight rows leave repeated vertices (their scores); every other vertex matches
    moved = np.r_[True, (np.diff(weighted.fpr) > 0) | (np.diff(weighted.tpr) > 0)]
    np.testing.assert_allclose(weighted.fpr[moved], repeated.fpr, rtol=0, atol=1e-12)
    np.testing.assert_allclose(weighted.tpr[moved], repeated.tpr, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(weighted.thresholds[moved], repeated.thresholds)


@PROPS
@given(st.lists(st.floats(0.0, 1.0, allow_nan=False), min_size=3, max_size=25),
       st.data())
def test_soft011_property_exchange_of_neighbours(p_list, data):
    """Qin, section 4: exchanging neighbours k, k+1 of a ranking lowers the AUC by
    (p_k - p_{k+1}) / (n+ n-)."""
    p = np.array(p_list)
    n_pos, n_neg = p.sum(), (1 - p).sum()
    assume(n_pos > 1e-6 and n_neg > 1e-6)
    k = data.draw(st.integers(0, p.size - 2))
    s = np.arange(p.size, 0, -1, dtype=float)  # row i ranked i-th
    swapped = s.copy()
    swapped[[k, k + 1]] = swapped[[k + 1, k]]
    change = soft_roc_auc(p, s) - soft_roc_auc(p, swapped)
    assert change == pytest.approx((p[k] - p[k + 1]) / (n_pos * n_neg), abs=1e-9)


# -------------------------------------------------------------------------- validation


def test_soft012_labels_outside_unit_interval_or_nan_name_the_rows():
    s = np.arange(6.0)
    with pytest.raises(ValueError, match=r"probabilities in \[0, 1\] \(NaN is not\): 3 rows "
                                         r"are not, the first rows 1 \(1.5\), 2 \(nan\), "
                                         r"4 \(-0.1\)$"):
        soft_roc_curve([0.2, 1.5, np.nan, 0.4, -0.1, 0.5], s)
    many = np.full(8, 2.0)
    with pytest.raises(ValueError, match=r"8 rows are not, the first rows 0 \(2.0\), 1 \(2.0\)"
                                         r", 2 \(2.0\), 3 \(2.0\), 4 \(2.0\), \.\.\.$"):
        soft_roc_auc(many, np.arange(8.0))
    with pytest.raises(ValueError, match=r"numbers in \[0, 1\]: 1 rows are not numbers, the "
                                         r"first rows 1 \('high'\)"):
        soft_roc_auc(["0.2", "high", "0.5"], [1, 2, 3])
    with pytest.raises(ValueError, match=r"the first rows 0 \(inf\)"):
        soft_auc_interval(pd.Series([np.inf, 0.5]), [1.0, 2.0])


def test_soft013_no_positive_or_negative_mass():
    s = [1.0, 2.0, 3.0]
    with pytest.raises(ValueError, match=r"no positive mass \(n\+ = 0"):
        soft_roc_curve([0, 0, 0], s)
    with pytest.raises(ValueError, match=r"no negative mass \(n- = 0"):
        soft_roc_auc([1.0, 1.0, 1.0], s)
    with pytest.raises(ValueError, match=r"no positive mass"):  # positives weigh nothing
        soft_auc_interval([0.0, 0.7, 0.0], s, weights=[1.0, 0.0, 2.0])


def test_soft014_other_input_errors():
    with pytest.raises(ValueError, match=r"soft labels \(2\) and scores \(3\) differ"):
        soft_roc_auc([0.5, 0.5], [1, 2, 3])
    with pytest.raises(ValueError, match=r"scores must be finite .*the first rows 1 \(nan\)"):
        soft_roc_auc([0.5, 0.5], [1.0, np.nan])
    with pytest.raises(ValueError, match="weights must be finite and non-negative"):
        soft_roc_auc([0.5, 0.5], [1, 2], weights=[1, -1])
    with pytest.raises(ValueError, match=r"weights \(1\) and scores \(2\) differ"):
        soft_roc_auc([0.5, 0.5], [1, 2], weights=[1])
    with pytest.raises(ValueError, match="one-dimensional"):
        soft_roc_auc([[0.5, 0.5]], [[1, 2]])
    with pytest.raises(ValueError, match="empty"):
        soft_roc_auc([], [])
    with pytest.raises(ValueError, match=r"level must be in \(0, 1\)"):
        soft_auc_interval([0.3, 0.6], [1, 2], level=1.0)
    with pytest.raises(ValueError, match=r"soft total above one in each class .*n\+ = 0.8"):
        soft_auc_interval([0.5, 0.2, 0.1], [1, 2, 3])


# ----------------------------------------------------------------------- interval


def _brute_soft_variance(p, s, w=None):
    """The generalised DeLong variance of soft_auc_variance, from O(n^2) placements."""
    w = np.ones(p.size) if w is None else w
    a, b = w * p, w * (1 - p)
    n_pos, n_neg = a.sum(), b.sum()
    kernel = (s[:, None] > s[None, :]) + 0.5 * (s[:, None] == s[None, :])
    v10 = kernel @ b / n_neg  # negative mass below row i (own part included, one half)
    v01 = a @ kernel / n_pos  # positive mass above row j
    theta = a @ v10 / n_pos
    psi = (p * (v10 - theta) / math.sqrt(n_pos * (n_pos - 1))
           + (1 - p) * (v01 - theta) / math.sqrt(n_neg * (n_neg - 1)))
    return theta, float(np.dot(w, psi**2))


@pytest.mark.parametrize("weighted", [False, True])
def test_soft015_hard_labels_interval_is_delong_exactly(weighted):
    p, s, w = _random(8, ties=True, weights=weighted, hard_share=1.0)
    y = p == 1.0
    assert soft_auc_interval(p, s, weights=w, level=0.9) == auc_confidence_interval(
        y, s, weights=w, level=0.9)
    assert soft_auc_variance(p, s, weights=w) == delong_variance(y, s, weights=w)
    assert soft_auc_interval(p, s).method == "delong"


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_soft016_soft_variance_equals_its_quadratic_reference(ties, weighted):
    p, s, w = _random(9, n=120, ties=ties, weights=weighted)
    theta, variance = _brute_soft_variance(p, s, w)
    got = soft_auc_variance(p, s, weights=w)
    assert got.auc == pytest.approx(theta, abs=1e-12)
    assert got.auc == pytest.approx(soft_roc_auc(p, s, weights=w), abs=1e-12)
    assert got.variance == pytest.approx(variance, rel=1e-10)
    ci = soft_auc_interval(p, s, weights=w)
    assert ci.method == "soft_delong"
    assert ci.std_error == pytest.approx(math.sqrt(variance), rel=1e-10)
    assert ci.high - ci.auc == pytest.approx(norm.ppf(0.975) * ci.std_error, rel=1e-12)


def test_soft017_soft_variance_tends_to_delong_as_labels_harden():
    p, s, _ = _random(10, ties=True, hard_share=1.0)
    eps = 1e-9
    soft = soft_auc_variance(np.where(p == 1, 1 - eps, eps), s)
    hard = delong_variance(p == 1, s)
    assert soft.variance == pytest.approx(hard.variance, rel=1e-6)
    assert soft.auc == pytest.approx(hard.auc, abs=1e-7)


def test_soft018_soft_variance_integer_weights_equal_repeated_rows():
    p, s, w = _random(11, n=100, ties=True, weights=True)
    reps = w.astype(int)
    a = soft_auc_variance(p, s, weights=w)
    b = soft_auc_variance(np.repeat(p, reps), np.repeat(s, reps))
    assert a.auc == pytest.approx(b.auc, abs=1e-12)
    assert a.variance == pytest.approx(b.variance, rel=1e-10)
    assert (a.n_pos, a.n_neg) == pytest.approx((b.n_pos, b.n_neg), rel=1e-12)


def test_soft019_soft_interval_coverage_by_simulation():
    """Latent x ~ N(0, 1), soft label p = Phi(beta x), score s = x + sigma e. The population
    AUC is E[p1 (1 - p2) 1(s1 > s2)] / (E p E(1 - p)) = 4 P(U1 < 0, U2 < 0, U3 < 0) for the
    trivariate normal U1 = Z1 - beta X1, U2 = beta X2 - Z2, U3 = X2 - X1 + sigma (e2 - e1)."""
    beta, sigma = 1.5, 1.0
    cov = np.array([[1 + beta**2, 0.0, beta],
                    [0.0, 1 + beta**2, beta],
                    [beta, beta, 2 + 2 * sigma**2]])
    truth = 4.0 * multivariate_normal(mean=np.zeros(3), cov=cov).cdf(np.zeros(3))
    rng = np.random.default_rng(20240607)
    n, reps = 120, 600
    estimates, errors, naive, covered = [], [], [], 0
    for _ in range(reps):
        x = rng.normal(size=n)
        p = norm.cdf(beta * x)
        s = x + sigma * rng.normal(size=n)
        ci = soft_auc_interval(p, s)
        covered += ci.low <= truth <= ci.high
        estimates.append(ci.auc)
        errors.append(ci.std_error)
        if len(naive) < 100:  # the binary DeLong formula on doubled rows, for contrast
            y = np.r_[np.ones(n, bool), np.zeros(n, bool)]
            naive.append(delong_variance(y, np.r_[s, s], weights=np.r_[p, 1 - p]).std_error)
    assert 0.925 <= covered / reps <= 0.975
    spread = float(np.std(estimates, ddof=1))
    assert 0.88 <= float(np.mean(errors)) / spread <= 1.12
    assert abs(np.mean(estimates) - truth) < 0.2 * spread  # O(1/n) bias only
    # treating the parts as independent frequency-weighted rows overstates the error
    assert np.mean(naive) > 1.2 * np.mean(errors[:100])


# ----------------------------------------------------------------------------- demo file


def test_soft020_demo_file_format_and_values():
    assert DEMO.stat().st_size < 200 * 1024
    table = pd.read_csv(DEMO)
    assert list(table.columns) == ["model", "fold", "id", "label_prob", "score"]
    assert sorted(table["model"].unique()) == ["nearest neighbours", "ridge regression"]
    p = table["label_prob"]
    assert p.between(0, 1).all()
    assert (p == 0).any() and (p == 1).any() and ((p > 0) & (p < 1)).mean() > 0.3
    for _, rows in table.groupby("model"):
        assert rows["id"].is_unique
        ci = soft_auc_interval(rows["label_prob"], rows["score"])
        assert ci.method == "soft_delong"
        assert 0.7 < ci.auc < soft_roc_auc(rows["label_prob"], rows["label_prob"]) < 1.0
        assert ci.low < ci.auc < ci.high


def test_soft021_demo_file_is_what_the_script_writes():
    spec = importlib.util.spec_from_file_location(
        "make_example_data", ROOT / "scripts" / "make_example_data.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    expected = module.soft_labels_demo()
    pd.testing.assert_frame_equal(pd.read_csv(DEMO), expected, check_exact=False, rtol=0,
                                  atol=1e-5)
