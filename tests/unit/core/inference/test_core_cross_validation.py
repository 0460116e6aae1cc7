"""Cross-validated AUC (cva001-cva009): fold AUC and AP against scikit-learn, the LeDell et
al. (2015) influence-curve interval against a naive loop over the formula (and, without ties,
against ``ci.cvAUC``'s strict-inequality form), weights against repeated rows, and the
interval's coverage on binormal data with a known AUC."""

import math

import numpy as np
import pytest
from scipy.stats import norm
from sklearn.metrics import average_precision_score, roc_auc_score

from roc_dash.core.inference.cross_validation import (
    CV_AUC_METHOD,
    cross_validated_auc,
    cross_validated_auc_from_curves,
)
from roc_dash.core.roc.averaging import fold_curves


def _data(seed, n=160, ties=False, k=4):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    folds = np.arange(n) % k
    rng.shuffle(folds)
    y[:2 * k] = np.arange(2 * k) < k  # both classes in every fold
    folds[:2 * k] = np.tile(np.arange(k), 2)
    s = rng.normal(size=n) + 0.9 * y
    if ties:
        s = np.round(s * 2) / 2
    return y, s, folds


def _psi(a, b):
    """Mann-Whitney kernel: 1 if a > b, 1/2 if tied, 0 otherwise."""
    return 1.0 if a > b else 0.5 if a == b else 0.0


def _strict(a, b):
    """``ci.cvAUC``'s ``.empr``: strict inequality, a tie counts 0."""
    return 1.0 if a > b else 0.0


def _naive(y, s, folds, w=None, level=0.95, kernel=_psi):
    """The LeDell et al. (2015) interval, written out with loops over folds, rows and pairs."""
    n_rows = len(y)
    w = np.ones(n_rows) if w is None else np.asarray(w, float)
    total = sum(w)
    p = sum(w[i] for i in range(n_rows) if y[i]) / total
    aucs, mean_squares = [], []
    for f in dict.fromkeys(folds.tolist()):
        rows = [i for i in range(n_rows) if folds[i] == f]
        pos = [i for i in rows if y[i]]
        neg = [i for i in rows if not y[i]]
        wp, wn = sum(w[i] for i in pos), sum(w[j] for j in neg)
        a = sum(w[i] * w[j] * _psi(s[i], s[j]) for i in pos for j in neg) / (wp * wn)
        aucs.append(a)
        acc = 0.0
        for i in rows:
            if y[i]:
                ic = (sum(w[j] * kernel(s[i], s[j]) for j in neg) / wn - a) / p
            else:
                ic = (sum(w[k] * kernel(s[k], s[i]) for k in pos) / wp - a) / (1 - p)
            acc += w[i] * ic * ic
        mean_squares.append(acc / sum(w[i] for i in rows))
    cv = sum(aucs) / len(aucs)
    se = math.sqrt(sum(mean_squares) / len(mean_squares) / total)
    z = norm.ppf(0.5 + level / 2)
    return cv, se, max(0.0, cv - z * se), min(1.0, cv + z * se)


@pytest.mark.parametrize("ties", [False, True])
def test_cva001_fold_auc_and_ap_equal_scikit_learn(ties):
    y, s, folds = _data(1, ties=ties)
    r = cross_validated_auc(y, s, folds)
    names = list(dict.fromkeys(folds.tolist()))
    assert r.folds.tolist() == [str(f) for f in names]
    want_auc = [roc_auc_score(y[folds == f], s[folds == f]) for f in names]
    want_ap = [average_precision_score(y[folds == f], s[folds == f]) for f in names]
    np.testing.assert_allclose(r.auc, want_auc, rtol=1e-12)
    np.testing.assert_allclose(r.average_precision, want_ap, rtol=1e-12)
    np.testing.assert_array_equal(r.n_pos, [y[folds == f].sum() for f in names])
    np.testing.assert_array_equal(r.n_neg, [(~y[folds == f]).sum() for f in names])
    assert r.auc_mean == pytest.approx(np.mean(want_auc), rel=1e-12)
    assert r.auc_sd == pytest.approx(np.std(want_auc, ddof=1), rel=1e-10)
    assert r.ap_mean == pytest.approx(np.mean(want_ap), rel=1e-12)
    assert r.ap_sd == pytest.approx(np.std(want_ap, ddof=1), rel=1e-10)
    assert r.n_folds == len(names) and r.method == CV_AUC_METHOD
    assert "averaged over 4 folds" in r.basis and "pooled" in r.basis


def test_cva002_weighted_fold_auc_and_ap_equal_scikit_learn():
    y, s, folds = _data(2, ties=True)
    w = np.random.default_rng(2).uniform(0.2, 3.0, y.size)
    r = cross_validated_auc(y, s, folds, weights=w)
    for k, f in enumerate(dict.fromkeys(folds.tolist())):
        m = folds == f
        assert r.auc[k] == pytest.approx(roc_auc_score(y[m], s[m], sample_weight=w[m]),
                                         rel=1e-12)
        assert r.average_precision[k] == pytest.approx(
            average_precision_score(y[m], s[m], sample_weight=w[m]), rel=1e-12)
        assert r.n_pos[k] == pytest.approx(w[m & y].sum())
    cv, se, low, high = _naive(y, s, folds, w=w)  # fractional weights as frequencies
    assert (r.auc_mean, r.std_error, r.ci_low, r.ci_high) == pytest.approx(
        (cv, se, low, high), rel=1e-10)


@pytest.mark.parametrize("seed,ties,level", [(3, False, 0.95), (4, True, 0.95),
                                             (5, True, 0.8)])
def test_cva003_interval_equals_naive_formula(seed, ties, level):
    y, s, folds = _data(seed, n=120, ties=ties, k=3)
    r = cross_validated_auc(y, s, folds, level=level)
    cv, se, low, high = _naive(y, s, folds, level=level)
    assert r.auc_mean == pytest.approx(cv, rel=1e-12)
    assert r.std_error == pytest.approx(se, rel=1e-10)
    assert (r.ci_low, r.ci_high) == pytest.approx((low, high), rel=1e-10)
    assert r.level == level


def test_cva004_without_ties_equals_ci_cvauc_strict_form():
    """``ci.cvAUC`` counts ties as 0; with distinct scores that is the same number."""
    y, s, folds = _data(6, n=100, k=5)
    assert np.unique(s).size == s.size
    r = cross_validated_auc(y, s, folds)
    _, se, low, high = _naive(y, s, folds, kernel=_strict)
    assert r.std_error == pytest.approx(se, rel=1e-10)
    assert (r.ci_low, r.ci_high) == pytest.approx((low, high), rel=1e-10)


def test_cva005_integer_weights_equal_repeated_rows():
    y, s, folds = _data(7, n=90, ties=True, k=3)
    w = np.random.default_rng(7).integers(1, 4, y.size)
    r = cross_validated_auc(y, s, folds, weights=w)
    rep = np.repeat(np.arange(y.size), w)
    e = cross_validated_auc(y[rep], s[rep], folds[rep])
    for name in ("auc", "average_precision", "n_pos", "n_neg"):
        np.testing.assert_allclose(getattr(r, name), getattr(e, name), rtol=1e-12)
    for name in ("auc_mean", "auc_sd", "std_error", "ci_low", "ci_high"):
        assert getattr(r, name) == pytest.approx(getattr(e, name), rel=1e-10)
    # and the naive formula with the weights as frequencies agrees too
    assert r.std_error == pytest.approx(_naive(y, s, folds, w=w)[1], rel=1e-10)


def test_cva006_interval_covers_the_true_auc_on_binormal_data():
    """200 seeded runs of 5-fold predictions from a fixed binormal scorer: positives
    N(1, 1), negatives N(0, 1), true AUC Φ(1/√2). The nominal 95 % interval should cover it
    in roughly 95 % of runs (loose bounds: a wrong variance, say the pooled one divided by
    the number of folds, or a missing 1/p, lands far outside)."""
    rng = np.random.default_rng(2015)
    truth = norm.cdf(1 / math.sqrt(2))
    n, runs, covered = 250, 200, 0
    for _ in range(runs):
        y = rng.random(n) < 0.3
        s = rng.normal(size=n) + y
        folds = np.empty(n, dtype=int)
        for cls in (True, False):  # stratified folds
            rows = np.flatnonzero(y == cls)
            folds[rows] = rng.permutation(rows.size) % 5
        r = cross_validated_auc(y, s, folds)
        covered += r.ci_low <= truth <= r.ci_high
    assert 0.85 <= covered / runs <= 0.99


def test_cva007_from_fold_curves_equals_from_rows_and_uses_no_rows():
    y, s, folds = _data(8, ties=True)
    w = np.random.default_rng(8).uniform(0.5, 2.0, y.size)
    curves = fold_curves(y, s, folds, weights=w)
    a = cross_validated_auc_from_curves(curves, level=0.9)
    b = cross_validated_auc(y, s, folds, weights=w, level=0.9)
    np.testing.assert_array_equal(a.auc, b.auc)
    assert (a.std_error, a.ci_low, a.ci_high) == (b.std_error, b.ci_low, b.ci_high)
    with pytest.raises(ValueError, match="at least two folds"):
        cross_validated_auc_from_curves({"1": curves[next(iter(curves))]})


def test_cva008_bad_input_is_named():
    y, s, folds = _data(9)
    with pytest.raises(ValueError, match="at least two folds"):
        cross_validated_auc(y, s, np.zeros(y.size))
    lonely = folds.astype(object)
    lonely[np.flatnonzero(~y)[:1]] = "only-negative"
    with pytest.raises(ValueError, match="only-negative"):
        cross_validated_auc(y, s, lonely)
    with pytest.raises(ValueError, match="level"):
        cross_validated_auc(y, s, folds, level=1.0)
    with pytest.raises(ValueError, match="differ in length"):
        cross_validated_auc(y, s, folds[:-1])
    with pytest.raises(ValueError, match="missing"):
        cross_validated_auc(y, s, np.where(folds == 0, None, folds).astype(object))


def test_cva009_perfect_folds_have_a_zero_width_interval():
    y = np.tile([True, False], 20)
    s = y + np.linspace(0, 0.5, 40)
    r = cross_validated_auc(y, s, np.arange(40) % 3)
    assert r.auc_mean == 1.0 and r.std_error == 0.0 and r.ci_low == r.ci_high == 1.0
