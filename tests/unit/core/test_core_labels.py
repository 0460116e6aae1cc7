"""Label encodings of the Python API: the file reader's encodings, ``pos_label`` for the rest,
scikit-learn as the oracle."""

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score
from sklearn.metrics import roc_curve as sk_roc_curve

from roc_dash.core import accuracy_at_threshold, roc_auc, roc_curve
from roc_dash.core.labels import ENCODINGS, binary_labels, label_key

RNG = np.random.default_rng(7)
Y = RNG.random(200) < 0.4
S = np.round(RNG.normal(Y * 1.0, 1.0), 1)  # ties included
W = RNG.integers(0, 4, 200).astype(float)
W[np.flatnonzero(Y)[0]] = W[np.flatnonzero(~Y)[0]] = 1.0


def _encode(pos, neg):
    return np.where(Y, pos, neg)


@pytest.mark.parametrize("pos, neg", [
    (1, 0), (1, -1), (1.0, 0.0), (1.0, -1.0), ("1", "0"), ("+1", "-1"), ("1.0", "0"),
    ("true", "false"), ("TRUE", "False"), ("yes", "no"), ("Yes", "NO"), ("p", "n"),
    ("P", "N"), ("pos", "neg"), ("Pos", "NEG"), ("positive", "negative"),
    ("Positive", "Negative"), (" yes ", "no"),
])
def test_lbl001_known_encodings_match_sklearn(pos, neg):
    labels = _encode(pos, neg)
    expected = roc_auc_score(Y, S, sample_weight=W)
    assert roc_auc(labels, S, weights=W) == pytest.approx(expected, abs=1e-12)
    assert roc_auc(list(labels), S, weights=W) == pytest.approx(expected, abs=1e-12)
    assert roc_auc(labels.astype(object), S, weights=W) == pytest.approx(expected, abs=1e-12)
    # pandas input, and mixed spellings of the same two values
    mixed = pd.Series(labels).astype(object)
    mixed[mixed == pos] = pd.Series([pos, str(pos).upper()] * 200)[: int((mixed == pos).sum())].values
    assert roc_auc(mixed, S, weights=W) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("values, pos_label", [
    (("cat", "dog"), "dog"), (("cat", "dog"), "cat"), ((2, 7), 7), ((0, 1), 0),
    ((-1, 1), -1), (("yes", "no"), "no"), ((False, True), False), ((3.0, -2.0), 3.0),
])
def test_lbl002_pos_label_matches_sklearn(values, pos_label):
    a, b = values
    labels = np.where(Y, a, b)
    if isinstance(a, str):
        labels = labels.astype(object)
    w = W + 0.5  # scikit-learn drops zero-weight rows (and their thresholds)
    curve = roc_curve(labels, S, weights=w, pos_label=pos_label)
    fpr, tpr, thr = sk_roc_curve(labels, S, pos_label=pos_label, sample_weight=w,
                                 drop_intermediate=False)
    np.testing.assert_allclose(curve.fpr, fpr, atol=1e-12)
    np.testing.assert_allclose(curve.tpr, tpr, atol=1e-12)
    np.testing.assert_array_equal(curve.thresholds[1:], thr[1:])
    expected = roc_auc_score(labels == pos_label, S, sample_weight=W)
    assert roc_auc(labels, S, weights=W, pos_label=pos_label) == pytest.approx(expected)
    acc = accuracy_at_threshold(labels, S, 0.5, pos_label=pos_label)
    assert acc == pytest.approx(((S >= 0.5) == (labels == pos_label)).mean())
    # pos_label is compared like the values: case-insensitive text, 1 == 1.0 == "1"
    if isinstance(pos_label, str):
        assert roc_auc(labels, S, pos_label=pos_label.upper()) == pytest.approx(
            roc_auc_score(labels == pos_label, S))


def test_lbl003_errors_name_the_values_and_the_way_out():
    s = [0.9, 0.8, 0.3, 0.1]
    with pytest.raises(ValueError, match=r"'cat', 'dog'.*pass pos_label="):
        roc_curve(["cat", "dog", "cat", "dog"], s)
    with pytest.raises(ValueError, match=r"0, 2.*pass pos_label="):
        roc_auc(np.array([0, 2, 0, 2]), s)
    with pytest.raises(ValueError, match=r"3 distinct values \('a', 'b', 'c'\).*two classes"):
        roc_curve(["a", "b", "c", "a"], s, pos_label="a")
    with pytest.raises(ValueError, match=r"3 distinct values \(-1, 0, 1\)"):
        roc_curve([-1, 0, 1, 1], s)
    with pytest.raises(ValueError, match=r"pos_label='z' is not among the label values"):
        roc_curve([0, 1, 0, 1], s, pos_label="z")
    with pytest.raises(ValueError, match="missing"):
        roc_curve([0.0, 1.0, np.nan, 1.0], s)
    with pytest.raises(ValueError, match="missing"):
        roc_curve(["pos", None, "neg", "pos"], s)
    with pytest.raises(ValueError, match="single value, 'x'"):
        roc_curve(["x"] * 4, s)
    # one class of a known encoding: the usual message, naming the missing class
    with pytest.raises(ValueError, match="no negative"):
        roc_curve(["pos"] * 4, s)
    with pytest.raises(ValueError, match="no positive"):
        roc_curve([-1] * 4, s)
    # many values: the message lists the first few and the count
    with pytest.raises(ValueError, match=r"50 distinct values .*\(50 in all\)"):
        roc_curve(np.arange(50), np.arange(50.0))


def test_lbl004_booleans_and_numbers_take_the_fast_path(monkeypatch):
    b = np.array([True, False, True])
    assert binary_labels(b) is b  # no copy, no decoding
    # 0/1 and -1/+1 numbers never reach the hashing path
    monkeypatch.setattr(pd, "factorize", lambda *a, **k: pytest.fail("slow path taken"))
    for labels in (np.array([1, 0, 1]), np.array([1.0, 0.0, 1.0]), np.array([1, -1, 1]),
                   np.array([1, 0, 1], dtype=np.uint8), np.array([1.0, -1.0, 1.0])):
        np.testing.assert_array_equal(binary_labels(labels), b)


def test_lbl005_core_and_file_reader_share_one_encoding_table():
    from roc_dash.io import labels as io_labels

    assert io_labels.ENCODINGS is ENCODINGS
    assert io_labels.label_key is label_key
    assert [label_key(v) for v in (1, 1.0, "+1", " 1 ", True, "YES", np.int8(-1))] == [
        "1", "1", "1", "1", "true", "yes", "-1"]


def test_lbl006_every_public_function_taking_labels_decodes_them():
    from roc_dash.core import (
        auc_confidence_interval,
        auc_test_vs_chance,
        average_precision,
        delong_paired_test,
        fold_curves,
        partial_auc,
        pooled_curve,
    )

    labels = _encode("Positive", "negative")
    s2 = S + RNG.normal(0, 0.5, S.size)
    assert auc_confidence_interval(labels, S).auc == pytest.approx(roc_auc_score(Y, S))
    assert auc_test_vs_chance(labels, S).auc == pytest.approx(roc_auc_score(Y, S))
    assert delong_paired_test(labels, S, s2).auc_difference == pytest.approx(
        roc_auc_score(Y, S) - roc_auc_score(Y, s2))
    assert partial_auc(labels, S, max_fpr=0.3).mcclish == pytest.approx(
        roc_auc_score(Y, S, max_fpr=0.3))
    assert len(fold_curves(labels, S, np.arange(S.size) % 2)) == 2
    assert pooled_curve(labels, S).n_pos == Y.sum()
    from sklearn.metrics import average_precision_score

    assert average_precision(labels, S) == pytest.approx(average_precision_score(Y, S))
