"""The pooled curve and the folds' curves from one split of the rows (core.per_fold_curves).

The pooled curve of :func:`pooled_and_fold_curves` is merged from the folds' runs of equal
scores instead of sorting the rows again: it is checked against scikit-learn's
``roc_curve`` on all rows, against :func:`pooled_curve` array for array (the same numbers,
not merely close ones), and its per-score class counts against a count in the test.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_curve as sk_roc_curve

from roc_dash.core.roc.averaging import threshold_average
from roc_dash.core.roc.per_fold_curves import fold_curves, pooled_and_fold_curves, pooled_curve


def _data(n=3000, k=10, seed=0, decimals=2, signs=False):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    s = np.round(rng.normal(0, 1, n) + 0.8 * y, decimals)
    if not signs:
        s = 1 / (1 + np.exp(-s))
        s = np.round(s, decimals)
    folds = np.array([str(f) for f in rng.integers(1, k + 1, n)])
    return y, s, folds


def _assert_sklearn(curve, y, s, w=None):
    """``curve`` is scikit-learn's curve of the rows (every vertex kept)."""
    fpr, tpr, thr = sk_roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    np.testing.assert_allclose(curve.fpr, fpr, rtol=0, atol=1e-12)
    np.testing.assert_allclose(curve.tpr, tpr, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(curve.thresholds[1:], thr[1:])
    assert curve.thresholds[0] == np.inf


def _assert_same(a, b):
    for name in ("fpr", "tpr", "thresholds"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
    assert (a.n_pos, a.n_neg) == (b.n_pos, b.n_neg)


@pytest.mark.parametrize("signs", [False, True])
def test_pfc001_pooled_and_fold_curves_are_sklearns(signs):
    y, s, folds = _data(signs=signs)
    s[:20] = 0.0
    s[20:40] = -0.0  # one score with its sign: one vertex
    out = pooled_and_fold_curves(y, s, folds)
    _assert_sklearn(out.pooled, y, s)
    assert list(out.folds) == [str(k) for k in range(1, 11)]  # natural order: "2" < "10"
    for name, curve in out.folds.items():
        rows = folds == name
        _assert_sklearn(curve, y[rows], s[rows])
    assert out.one_class == {}


def test_pfc002_the_same_arrays_as_pooled_curve_and_fold_curves():
    y, s, folds = _data(n=5000, decimals=3, signs=True)
    out = pooled_and_fold_curves(y, s, folds)
    _assert_same(out.pooled, pooled_curve(y, s))
    old = fold_curves(y, s, folds)
    assert list(out.folds) == list(old)
    for name in old:
        _assert_same(out.folds[name], old[name])


def test_pfc003_class_counts_per_distinct_score_as_counted():
    y, s, folds = _data(n=2000, decimals=1)
    out = pooled_and_fold_curves(y, s, folds)
    distinct = np.unique(s)
    np.testing.assert_array_equal(out.positives, [np.sum(y & (s == v)) for v in distinct])
    np.testing.assert_array_equal(out.negatives, [np.sum(~y & (s == v)) for v in distinct])
    np.testing.assert_array_equal(out.pooled.thresholds[1:], distinct[::-1])


def test_pfc004_weights_sort_the_pooled_rows_and_match_sklearn():
    y, s, folds = _data(n=2000, k=4, seed=3)
    w = np.random.default_rng(4).integers(1, 4, y.size) / 2.0  # (sklearn drops zero weights)
    out = pooled_and_fold_curves(y, s, folds, weights=w)
    _assert_sklearn(out.pooled, y, s, w)
    for name, curve in out.folds.items():
        rows = folds == name
        _assert_sklearn(curve, y[rows], s[rows], w[rows])
    pos = [w[y & (s == v)].sum() for v in np.unique(s)]
    np.testing.assert_allclose(out.positives, pos, rtol=1e-12)


def test_pfc005_one_class_folds_are_listed_and_pooled_all_the_same():
    y, s, folds = _data(n=1500, k=5, seed=5)
    folds[(folds == "2") & y] = "9"  # fold 2 loses its positives ...
    folds[(folds == "4") & ~y] = "9"  # ... fold 4 its negatives
    out = pooled_and_fold_curves(y, s, folds)
    assert out.one_class == {"2": "positive", "4": "negative"}
    assert list(out.folds) == ["1", "3", "5", "9"]
    _assert_sklearn(out.pooled, y, s)
    with pytest.raises(ValueError, match="fold '2'"):  # fold_curves refuses such a fold
        fold_curves(y, s, folds)


def test_pfc006_one_fold_is_the_pooled_curve():
    y, s, _ = _data(n=500)
    out = pooled_and_fold_curves(y, s, np.full(y.size, "all"))
    assert out.folds == {"all": out.pooled}
    _assert_sklearn(out.pooled, y, s)


@pytest.mark.parametrize("decimals", [2, 9])
def test_pfc007_big_folds_hash_or_sort_their_rows_alike(decimals):
    # 2 decimals: each fold's 40,000 rows take the hashing path (few distinct scores);
    # 9: the sorting path. Either way the merged pooled curve is scikit-learn's.
    y, s, folds = _data(n=160_000, k=4, seed=7, decimals=decimals)
    out = pooled_and_fold_curves(y, s, folds)
    _assert_sklearn(out.pooled, y, s)
    _assert_same(out.pooled, pooled_curve(y, s))


def test_pfc008_bad_folds_and_one_class_rows_are_refused():
    y, s, folds = _data(n=100)
    folds = folds.astype(object)
    folds[3] = None
    with pytest.raises(ValueError, match="missing"):
        pooled_and_fold_curves(y, s, folds)
    with pytest.raises(ValueError, match="differ in length"):
        pooled_and_fold_curves(y, s, folds[:-1])
    with pytest.raises(ValueError, match="no positive"):
        pooled_and_fold_curves(np.zeros(10, bool), np.arange(10.0), np.arange(10) % 2)


_rows = st.lists(st.tuples(st.booleans(), st.sampled_from([-1.5, -0.0, 0.0, 0.25, 0.5, 2.0]),
                           st.integers(0, 3)), min_size=2, max_size=40).filter(
    lambda r: any(r_[0] for r_ in r) and not all(r_[0] for r_ in r))


@settings(max_examples=150, deadline=None)
@given(_rows)
def test_pfc009_any_ties_and_folds_give_pooled_curves_arrays(rows):
    y = np.array([r[0] for r in rows])
    s = np.array([r[1] for r in rows])
    folds = np.array([r[2] for r in rows])
    out = pooled_and_fold_curves(y, s, folds)
    _assert_same(out.pooled, pooled_curve(y, s))
    for name, curve in out.folds.items():
        rows_ = folds == int(name)
        _assert_same(curve, pooled_curve(y[rows_], s[rows_]))
    assert set(out.folds) | set(out.one_class) == {str(f) for f in np.unique(folds)}


def test_pfc010_threshold_average_samples_algorithm_5s_sorted_array():
    y, s, folds = _data(n=4000, decimals=4)
    curves = fold_curves(y, s, folds)
    for n_samples in (2, 7, 101):
        avg = threshold_average(curves, n_samples=n_samples)
        # Algorithm 5: T = every curve's finite thresholds, sorted descending, sampled
        # evenly (first and last included), +inf first
        t = np.sort(np.concatenate([c.thresholds[1:] for c in curves.values()]))[::-1]
        idx = ([t.size - 1] if n_samples == 2
               else np.round(np.linspace(0, t.size - 1, n_samples - 1)).astype(int))
        expected = np.concatenate(([np.inf], np.unique(t[idx])[::-1]))
        np.testing.assert_array_equal(avg.threshold, expected)
