"""Checks written once and shared: the weights of every core input kind, and the numbers the
server reads from its environment."""

from __future__ import annotations

import numpy as np
import pytest

from roc_dash.app.server import env_settings, limits, retention, shared_state
from roc_dash.core._validation import (
    check_binary_inputs,
    check_level,
    check_weights,
    weighted_rows,
)
from roc_dash.core.kinds import leaves, multiclass, soft_labels
from roc_dash.core.roc.curves import roc_curve


def test_shc001_one_weights_check_for_every_kind():
    y, s = np.array([1, 0, 1, 0]), np.array([0.9, 0.1, 0.6, 0.4])
    assert check_weights(None, 4) is None
    w = check_weights([1, 2, 3, 4], 4)
    assert w.dtype == np.float64 and w.tolist() == [1.0, 2.0, 3.0, 4.0]
    with pytest.raises(ValueError, match=r"^weights \(3\) and labels \(4\) differ in length$"):
        check_weights([1, 2, 3], 4, "labels")
    for bad in ([1, -1, 1, 1], [1, np.nan, 1, 1], [1, np.inf, 1, 1]):
        with pytest.raises(ValueError, match="^weights must be finite and non-negative$"):
            check_weights(bad, 4)
    # every kind says the same, naming what the weights go with
    with pytest.raises(ValueError, match=r"weights \(3\) and scores \(4\) differ"):
        roc_curve(y, s, weights=[1, 1, 1])
    with pytest.raises(ValueError, match=r"weights \(3\) and scores \(4\) differ"):
        check_binary_inputs(y, s, [1, 1, 1])
    with pytest.raises(ValueError, match=r"weights \(3\) and scores \(4\) differ"):
        soft_labels.soft_roc_curve([1.0, 0.0, 0.7, 0.2], s, weights=[1, 1, 1])
    with pytest.raises(ValueError, match=r"weights \(3\) and soft labels \(4\) differ"):
        soft_labels.soft_class_totals([1.0, 0.0, 0.7, 0.2], weights=[1, 1, 1])
    scores = np.array([[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6], [0.5, 0.3, 0.2]])
    with pytest.raises(ValueError, match=r"weights \(3\) and labels \(4\) differ"):
        multiclass.hand_till_m(["a", "b", "c", "a"], scores, weights=[1, 1, 1])
    with pytest.raises(ValueError, match="weights must be finite and non-negative"):
        leaves.leaves_from_rows(["x", "y", "x", "y"], y, weights=[1, -1, 1, 1])


def test_shc002_one_reading_of_the_environment(monkeypatch):
    assert limits.env_number is retention.env_number is env_settings.env_number
    assert shared_state.env_number is env_settings.env_number
    monkeypatch.setenv("ROC_DASH_TEST_NUMBER", "2.5")
    assert env_settings.env_number("ROC_DASH_TEST_NUMBER", 7) == 2.5
    for bad in ("x", "0", "-3"):
        monkeypatch.setenv("ROC_DASH_TEST_NUMBER", bad)
        assert env_settings.env_number("ROC_DASH_TEST_NUMBER", 7) == 7
    monkeypatch.delenv("ROC_DASH_TEST_NUMBER")
    assert env_settings.env_number("ROC_DASH_TEST_NUMBER", 7) == 7


def test_shc003_chunk_stream_reads_like_one_buffer():
    import io

    from roc_dash.io.decoding import _ChunkStream

    pieces = [b"", b"abc", b"", b"", b"defgh", b"i", b"", b"jklmnopq", b""]
    whole = b"".join(pieces)
    for sizes in ([1] * 20, [2, 5, 0, 3, 100], [4, -1], [-1], [0, 7, 7, 7]):
        stream, oracle = _ChunkStream(iter(pieces)), io.BytesIO(whole)
        got = [stream.read(n) for n in sizes]
        assert got == [oracle.read(n) for n in sizes]
    for width in (1, 3, 8, 64):
        stream, oracle = _ChunkStream(iter(pieces)), io.BytesIO(whole)
        while True:
            a, b = bytearray(width), bytearray(width)
            n = stream.readinto(a)
            assert n == oracle.readinto(b) and a[:n] == b[:n]
            if n == 0:
                break
    assert _ChunkStream(iter([])).read() == b"" and _ChunkStream(iter([b""])).read(5) == b""


def test_shc004_weighted_rows_drops_zero_weights_and_needs_both_classes():
    """What the bootstraps of point intervals and floor confidence resample, checked once."""
    y, s, w = weighted_rows([1, 0, 1, 0], [0.9, 0.1, 0.6, 0.4], [2, 0, 1, 3])
    assert y.tolist() == [True, True, False] and s.tolist() == [0.9, 0.6, 0.4]
    assert w.tolist() == [2.0, 1.0, 3.0]
    y, s, w = weighted_rows([1, 0], [0.2, 0.3])
    assert y.tolist() == [True, False] and w is None
    with pytest.raises(ValueError, match="^both classes must be present with positive weight$"):
        weighted_rows([1, 0, 1], [0.9, 0.1, 0.6], [1, 0, 1])


def test_shc005_one_level_check_for_the_auc_intervals():
    """The DeLong, soft-label and cross-validated AUC intervals refuse a level alike."""
    from roc_dash.core.inference.cross_validation import cross_validated_auc
    from roc_dash.core.inference.statistics import auc_confidence_interval, wald_auc_interval
    from roc_dash.core.kinds.soft_labels import soft_auc_interval

    assert check_level(0.9) == 0.9 and isinstance(check_level(1 - 0.5), float)
    y, s = [1, 0, 1, 0], [0.9, 0.1, 0.6, 0.4]
    calls = (check_level,
             lambda lvl: wald_auc_interval(0.7, 0.1, level=lvl),
             lambda lvl: auc_confidence_interval(y, s, level=lvl),
             lambda lvl: soft_auc_interval([0.9, 0.2, 0.7, 0.1], s, level=lvl),
             lambda lvl: cross_validated_auc(y, s, [1, 1, 2, 2], level=lvl))
    for bad in (0, 1, 1.5, -0.1):
        for call in calls:
            with pytest.raises(ValueError, match=f"^level must be in \\(0, 1\\), got {bad!r}$"):
                call(bad)
