"""Multi-class ROC (Fawcett 2004, section 7.3; Hand & Till 2001): class reference curves,
Provost-Domingos and macro AUC, Hand & Till's pairwise matrix and M.

Oracles: scikit-learn's ``roc_auc_score`` (ovr macro/weighted, ovo macro = Hand & Till's M),
an O(n^2) Mann-Whitney reference with ties one half, the binary functions for C = 2, and
repeated rows for weights."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score

from roc_dash.core.kinds import multiclass as mc
from roc_dash.core.roc.curves import roc_auc, roc_curve

ROOT = Path(__file__).resolve().parents[4]
DEMO = ROOT / "roc_dash" / "data" / "multiclass_demo.csv"


def _data(seed, n=240, n_classes=4, ties=False, weights=False, probabilities=True):
    """Random labels with informative scores; every class present."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    y[:n_classes] = np.arange(n_classes)
    logits = rng.normal(size=(n, n_classes)) + 1.3 * np.eye(n_classes)[y]
    s = np.exp(logits)
    if probabilities:
        s /= s.sum(axis=1, keepdims=True)
    if ties:
        s = np.round(s * 8) / 8  # a handful of distinct values per column
        if probabilities:
            s += 1e-3  # keep every row summing to a positive number
            s /= s.sum(axis=1, keepdims=True)
    w = None
    if weights:
        w = rng.integers(0, 4, n).astype(float)
        w[:n_classes] = 1.0
    return y, s, w


def _brute_pairwise(y, s, classes, w=None):
    """O(n^2) Mann-Whitney: Â(i|j) over the rows of classes i and j, column i, ties 1/2."""
    w = np.ones(len(y)) if w is None else np.asarray(w, dtype=float)
    y = np.asarray(y)
    c = len(classes)
    out = np.full((c, c), np.nan)
    for i, ci in enumerate(classes):
        for j, cj in enumerate(classes):
            if i == j:
                continue
            a, b = y == ci, y == cj
            si, sj = s[a, i][:, None], s[b, i][None, :]
            kernel = (si > sj) + 0.5 * (si == sj)
            wa, wb = w[a][:, None], w[b][None, :]
            out[i, j] = float((wa * wb * kernel).sum() / (w[a].sum() * w[b].sum()))
    return out


# ------------------------------------------------------------------------ scikit-learn oracle


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("ties", [False, True])
def test_mc001_matches_sklearn_ovr_and_ovo(seed, ties):
    y, s, _ = _data(seed, ties=ties)
    r = mc.multiclass_roc(y, s)
    assert isinstance(r, mc.MulticlassAnalysis)
    assert r.macro_auc == pytest.approx(
        roc_auc_score(y, s, multi_class="ovr", average="macro"), abs=1e-12)
    assert r.weighted_auc == pytest.approx(
        roc_auc_score(y, s, multi_class="ovr", average="weighted"), abs=1e-12)
    # scikit-learn's one-vs-one macro average is Hand & Till's M
    assert r.hand_till_m == pytest.approx(
        roc_auc_score(y, s, multi_class="ovo", average="macro"), abs=1e-12)
    per_class = roc_auc_score(y, s, multi_class="ovr", average=None)
    np.testing.assert_allclose(r.auc_per_class, per_class, rtol=0, atol=1e-12)


@pytest.mark.parametrize("seed", [3, 4])
def test_mc002_weighted_ovr_matches_sklearn_sample_weight(seed):
    y, s, w = _data(seed, weights=True, ties=seed == 4)
    w = w + np.random.default_rng(seed).random(w.size)  # fractional weights too
    r = mc.multiclass_roc(y, s, weights=w)
    for average, value in (("macro", r.macro_auc), ("weighted", r.weighted_auc)):
        assert value == pytest.approx(
            roc_auc_score(y, s, multi_class="ovr", average=average, sample_weight=w), abs=1e-12)
    np.testing.assert_allclose(r.prevalence, np.bincount(y, weights=w) / w.sum(), rtol=1e-14)


# ------------------------------------------------------------------ brute-force pairwise


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_mc003_pairwise_matrix_equals_brute_force(ties, weighted):
    y, s, w = _data(7, n=60, n_classes=5, ties=ties, weights=weighted, probabilities=False)
    classes = np.arange(5)
    expected = _brute_pairwise(y, s, classes, w)
    got = mc.pairwise_auc_matrix(y, s, weights=w)
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)
    assert np.isnan(np.diag(got)).all()
    r = mc.multiclass_roc(y, s, weights=w)
    np.testing.assert_array_equal(r.pairwise, got)
    sym = (expected + expected.T) / 2
    np.testing.assert_allclose(r.pairwise_symmetric, sym, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(r.pairwise_symmetric, r.pairwise_symmetric.T)
    upper = sym[np.triu_indices(5, k=1)]
    m = 2.0 / (5 * 4) * upper.sum()
    assert r.hand_till_m == pytest.approx(m, abs=1e-12)
    assert mc.hand_till_m(y, s, weights=w) == pytest.approx(m, abs=1e-12)


def test_mc004_class_reference_curves_are_binary_curves():
    y, s, _ = _data(11, ties=True)
    r = mc.multiclass_roc(y, s)
    curves = mc.one_vs_rest_curves(y, s)
    for c in range(4):
        direct = roc_curve(y == c, s[:, c])
        for got in (r.curves[c], curves[c], r.curve(c)):
            np.testing.assert_array_equal(got.fpr, direct.fpr)
            np.testing.assert_array_equal(got.tpr, direct.tpr)
            np.testing.assert_array_equal(got.thresholds, direct.thresholds)
            assert (got.n_pos, got.n_neg) == (direct.n_pos, direct.n_neg)
        assert r.auc_per_class[c] == roc_auc(y == c, s[:, c])
    # The class reference AUC of i is the mean of Â(i|j) over the other classes weighted by
    # their sizes: "i vs the rest" pools the pairwise comparisons.
    n = r.n_per_class
    for i in range(4):
        others = np.arange(4) != i
        pooled = np.dot(n[others], r.pairwise[i, others]) / n[others].sum()
        assert r.auc_per_class[i] == pytest.approx(pooled, abs=1e-12)
    assert r.weighted_auc == pytest.approx(np.dot(r.prevalence, r.auc_per_class), abs=1e-15)
    assert r.macro_auc == pytest.approx(r.auc_per_class.mean(), abs=1e-15)
    np.testing.assert_array_equal(r.n_per_class, np.bincount(y).astype(float))


# ------------------------------------------------------------------------------- weights


@pytest.mark.parametrize("ties", [False, True])
def test_mc005_integer_weights_equal_repeated_rows(ties):
    y, s, w = _data(5, n=150, ties=ties, weights=True)
    r = mc.multiclass_roc(y, s, weights=w)
    reps = w.astype(int)
    rr = mc.multiclass_roc(np.repeat(y, reps), np.repeat(s, reps, axis=0))
    np.testing.assert_allclose(r.pairwise, rr.pairwise, rtol=0, atol=1e-13)
    np.testing.assert_allclose(r.auc_per_class, rr.auc_per_class, rtol=0, atol=1e-13)
    np.testing.assert_allclose(r.prevalence, rr.prevalence, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(r.n_per_class, rr.n_per_class)
    for a, b in ((r.hand_till_m, rr.hand_till_m), (r.weighted_auc, rr.weighted_auc),
                 (r.macro_auc, rr.macro_auc)):
        assert a == pytest.approx(b, abs=1e-13)
    for ca, cb in zip(r.curves, rr.curves, strict=True):
        keep = np.r_[True, np.diff(ca.fpr) + np.diff(ca.tpr) > 0]  # zero-weight-only scores
        np.testing.assert_allclose(ca.fpr[keep], cb.fpr, rtol=0, atol=1e-14)
        np.testing.assert_allclose(ca.tpr[keep], cb.tpr, rtol=0, atol=1e-14)


def test_mc006_m_is_insensitive_to_the_class_distribution():
    """Hand & Till's M uses each pair's rows only, so reweighting a whole class leaves it (and
    the pairwise matrix) unchanged; the Provost-Domingos AUC moves with the prevalence
    (Fawcett 2004, section 7.3.2)."""
    y, s, _ = _data(21, n=300)
    base = mc.multiclass_roc(y, s)
    w = np.where(y == 2, 5.0, 1.0)
    shifted = mc.multiclass_roc(y, s, weights=w)
    np.testing.assert_allclose(shifted.pairwise, base.pairwise, rtol=0, atol=1e-13)
    assert shifted.hand_till_m == pytest.approx(base.hand_till_m, abs=1e-13)
    assert abs(shifted.weighted_auc - base.weighted_auc) > 1e-3
    assert abs(shifted.auc_per_class[0] - base.auc_per_class[0]) > 1e-4  # rest's mix changed


# ----------------------------------------------------------------------- labels and C = 2


def test_mc007_string_labels_and_given_class_order():
    y, s, _ = _data(9, n_classes=3, ties=True)
    names = np.array(["virginica", "setosa", "versicolor"])  # not sorted
    labels = names[y]
    r = mc.multiclass_roc(labels, s, classes=list(names))
    base = mc.multiclass_roc(y, s)
    np.testing.assert_array_equal(r.classes, names)
    np.testing.assert_array_equal(r.pairwise, base.pairwise)
    np.testing.assert_array_equal(r.auc_per_class, base.auc_per_class)
    assert r.hand_till_m == base.hand_till_m
    assert r.index("setosa") == 1
    np.testing.assert_array_equal(r.curve("versicolor").tpr, base.curves[2].tpr)
    with pytest.raises(KeyError):
        r.curve("daisy")
    # Default classes are the sorted labels: reorder the columns to match.
    order = np.argsort(names)
    d = mc.multiclass_roc(labels, s[:, order])
    np.testing.assert_array_equal(d.classes, names[order])
    np.testing.assert_allclose(d.pairwise, base.pairwise[np.ix_(order, order)], atol=0)
    assert d.hand_till_m == pytest.approx(base.hand_till_m, abs=1e-15)
    # pandas inputs: a Series of labels, a DataFrame of scores, categorical labels
    frame = pd.DataFrame(s[:, order], columns=names[order])
    cat = pd.Series(pd.Categorical(labels))
    p = mc.multiclass_roc(cat, frame)
    assert p.hand_till_m == d.hand_till_m
    assert mc.multiclass_auc(labels, s, classes=names, method="weighted") == r.weighted_auc


def test_mc008_mixed_hashable_labels():
    rng = np.random.default_rng(2)
    classes = [("a", 1), 7, "seven"]
    y = rng.integers(0, 3, 90)
    y[:3] = [0, 1, 2]
    labels = [classes[k] for k in y]
    s = rng.random((90, 3)) + np.eye(3)[y] * 0.4
    r = mc.multiclass_roc(labels, s, classes=classes)
    np.testing.assert_array_equal(r.pairwise, mc.multiclass_roc(y, s).pairwise)
    assert r.index(("a", 1)) == 0 and r.index("seven") == 2
    assert r.classes[0] == ("a", 1)
    with pytest.raises(ValueError, match="pass classes"):
        mc.multiclass_roc(labels, s)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_mc009_two_classes_reduce_to_the_binary_auc(seed):
    rng = np.random.default_rng(seed)
    y = rng.random(200) < 0.35
    y[:2] = [True, False]
    p1 = np.round(1 / (1 + np.exp(-(rng.normal(size=200) + 1.1 * y))), 2)  # ties
    labels = np.where(y, "pos", "neg")
    scores = np.column_stack([1.0 - p1, p1])
    r = mc.multiclass_roc(labels, scores, classes=["neg", "pos"])
    binary = roc_auc(y, p1)
    # complementary columns: every multi-class AUC is the binary AUC
    assert r.hand_till_m == pytest.approx(binary, abs=1e-12)
    assert r.weighted_auc == pytest.approx(binary, abs=1e-12)
    assert r.macro_auc == pytest.approx(binary, abs=1e-12)
    assert r.pairwise[1, 0] == pytest.approx(binary, abs=1e-12)
    assert r.pairwise[0, 1] == pytest.approx(binary, abs=1e-12)
    np.testing.assert_array_equal(r.curve("pos").tpr, roc_curve(y, p1).tpr)
    # arbitrary columns: Â(i|j) is the binary AUC of column i on the two classes, M their mean
    other = rng.normal(size=200) - 0.5 * y
    scores = np.column_stack([other, p1])
    r = mc.multiclass_roc(labels, scores, classes=["neg", "pos"])
    assert r.pairwise[1, 0] == pytest.approx(roc_auc(y, p1), abs=1e-12)
    assert r.pairwise[0, 1] == pytest.approx(roc_auc(~y, other), abs=1e-12)
    assert r.hand_till_m == pytest.approx((roc_auc(y, p1) + roc_auc(~y, other)) / 2, abs=1e-12)


# ------------------------------------------------------------------------------ bad input


def test_mc010_class_without_rows():
    y, s, _ = _data(1, n_classes=3)
    y = np.where(y == 1, 0, y)
    with pytest.raises(ValueError, match=r"class 1 has no rows .*undefined"):
        mc.multiclass_roc(y, s, classes=[0, 1, 2])
    names = np.array(["ant", "bee", "cat"])
    with pytest.raises(ValueError, match=r"class 'bee' has no rows"):
        mc.pairwise_auc_matrix(names[y], s, classes=names)
    w = np.where(y == 2, 0.0, 1.0)  # present but weightless
    with pytest.raises(ValueError, match=r"class 2 has no rows \(or zero total weight\)"):
        mc.hand_till_m(np.r_[y, 1], np.r_[s, s[:1]], classes=[0, 1, 2], weights=np.r_[w, 1.0])


def test_mc011_score_matrix_shape_mismatch():
    y, s, _ = _data(1, n=50, n_classes=3)
    with pytest.raises(ValueError, match=r"score matrix has shape \(50, 2\) but must be "
                                         r"\(50, 3\).*one column per class \(0, 1, 2\)"):
        mc.multiclass_roc(y, s[:, :2])
    with pytest.raises(ValueError, match=r"shape \(49, 3\) but must be \(50, 3\)"):
        mc.multiclass_roc(y, s[:49])
    with pytest.raises(ValueError, match=r"shape \(50,\) but must be \(50, 3\)"):
        mc.multiclass_roc(y, s[:, 0])
    with pytest.raises(ValueError, match=r"shape \(50, 3\) but must be \(50, 4\)"):
        mc.multiclass_roc(y, s, classes=[0, 1, 2, 3])


def test_mc012_nan_and_infinite_scores():
    y, s, _ = _data(1, n=50, n_classes=3)
    s[7, 2] = np.nan
    s[9, 0] = np.inf
    with pytest.raises(ValueError, match=r"scores must be finite: 2 NaN or infinite values, "
                                         r"the first at row 7, column 2 \(class 2\): nan"):
        mc.multiclass_roc(y, s)
    s[7, 2] = 0.5
    with pytest.raises(ValueError, match=r"row 9, column 0 \(class 'a'\): inf"):
        mc.one_vs_rest_curves(np.array(["a", "b", "c"])[y], s)


def test_mc013_other_input_errors():
    y, s, _ = _data(1, n=50, n_classes=3)
    with pytest.raises(ValueError, match=r"labels are not among the classes \(0, 1\): 2 "):
        mc.multiclass_roc(y, s[:, :2], classes=[0, 1])
    with pytest.raises(ValueError, match="classes must be distinct; repeated: 1"):
        mc.multiclass_roc(y, s, classes=[0, 1, 1])
    with pytest.raises(ValueError, match="at least two classes"):
        mc.multiclass_roc(np.zeros(5), np.ones((5, 1)))
    with pytest.raises(ValueError, match="weights must be finite and non-negative"):
        mc.multiclass_roc(y, s, weights=np.r_[-1.0, np.ones(49)])
    with pytest.raises(ValueError, match=r"weights \(3\) and labels \(50\) differ"):
        mc.multiclass_roc(y, s, weights=[1, 2, 3])
    with pytest.raises(ValueError, match="one-dimensional"):
        mc.multiclass_roc(s, s)
    with pytest.raises(ValueError, match="labels are empty"):
        mc.multiclass_roc([], np.ones((0, 2)), classes=[0, 1])
    with pytest.raises(ValueError, match="method must be one of"):
        mc.multiclass_auc(y, s, method="ovo")


def test_mc014_multiclass_auc_methods():
    y, s, w = _data(13, weights=True)
    r = mc.multiclass_roc(y, s, weights=w)
    assert mc.multiclass_auc(y, s, weights=w) == r.hand_till_m
    assert mc.multiclass_auc(y, s, weights=w, method="weighted") == r.weighted_auc
    assert mc.multiclass_auc(y, s, weights=w, method="macro") == r.macro_auc


# ------------------------------------------------------------------------------ properties

SMALL = st.integers(min_value=3, max_value=4).flatmap(
    lambda c: st.tuples(
        st.just(c),
        st.lists(st.tuples(st.integers(0, c - 1),
                           st.lists(st.integers(0, 4), min_size=c, max_size=c),
                           st.integers(0, 3)),
                 min_size=c, max_size=30),
    )
)


@settings(max_examples=120, deadline=None)
@given(SMALL)
def test_mc015_property_pairwise_equals_brute_force_and_class_permutation(case):
    c, rows = case
    y = np.array([r[0] for r in rows] + list(range(c)))  # every class present
    s = np.array([r[1] for r in rows] + [[2] * c] * c, dtype=float) / 4
    w = np.array([r[2] for r in rows] + [1] * c, dtype=float)
    r = mc.multiclass_roc(y, s, weights=w)
    np.testing.assert_allclose(r.pairwise, _brute_pairwise(y, s, np.arange(c), w),
                               rtol=0, atol=1e-12)
    assert 0.0 <= r.hand_till_m <= 1.0
    assert 0.0 <= r.weighted_auc <= 1.0
    perm = np.arange(c)[::-1]
    rp = mc.multiclass_roc(y, s[:, perm], classes=perm, weights=w)
    np.testing.assert_allclose(rp.pairwise, r.pairwise[np.ix_(perm, perm)], rtol=0, atol=1e-15)
    assert rp.hand_till_m == pytest.approx(r.hand_till_m, abs=1e-14)


# ----------------------------------------------------------------------------- demo file


def _load_script():
    spec = importlib.util.spec_from_file_location(
        "make_example_data", ROOT / "scripts" / "make_example_data.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_mc016_demo_file_format_and_sklearn_agreement():
    assert DEMO.stat().st_size < 200 * 1024
    table = pd.read_csv(DEMO)
    assert list(table.columns) == ["model", "fold", "id", "class", "score_class_0",
                                   "score_class_1", "score_class_2"]
    assert sorted(table["model"].unique()) == ["decision tree", "logistic regression"]
    for _, rows in table.groupby("model"):
        assert rows["id"].is_unique
        labels, scores, classes = mc.scores_from_table(rows)
        np.testing.assert_array_equal(classes, ["class_0", "class_1", "class_2"])
        r = mc.multiclass_roc(labels, scores, classes=classes)
        assert r.hand_till_m == pytest.approx(
            roc_auc_score(labels, scores, labels=classes, multi_class="ovo"), abs=1e-12)
        assert r.weighted_auc == pytest.approx(roc_auc_score(
            labels, scores, labels=classes, multi_class="ovr", average="weighted"), abs=1e-12)
        # an uneven, hard problem: the three summaries differ, the pairs differ widely
        assert len({round(r.hand_till_m, 4), round(r.macro_auc, 4),
                    round(r.weighted_auc, 4)}) == 3
        off = r.pairwise[~np.eye(3, dtype=bool)]
        assert off.max() - off.min() > 0.2


def test_mc017_demo_file_is_what_the_script_writes():
    expected = _load_script().multiclass_demo()
    table = pd.read_csv(DEMO)
    pd.testing.assert_frame_equal(table, expected, check_exact=False, rtol=0, atol=1e-5)


def test_mc018_scores_from_table_errors_and_numeric_classes():
    table = pd.DataFrame({"class": [3, 5, 3, 5], "score_3": [0.9, 0.2, 0.6, 0.4],
                          "score_5": [0.1, 0.8, 0.4, 0.6]})
    labels, scores, classes = mc.scores_from_table(table)
    np.testing.assert_array_equal(classes, ["3", "5"])
    np.testing.assert_array_equal(labels, ["3", "5", "3", "5"])
    assert mc.multiclass_roc(labels, scores, classes=classes).hand_till_m == 1.0
    with pytest.raises(ValueError, match="no column 'label'"):
        mc.scores_from_table(table, class_column="label")
    with pytest.raises(ValueError, match="found 1"):
        mc.scores_from_table(table[["class", "score_3"]])
