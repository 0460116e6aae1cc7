"""The sorted keys' order: numpy sorts them as unsigned integers (faster than as float64),
which must be the order of before, when they were sorted read as float64.

Both orders agree exactly when every key is below ``0x7FF0_0000_0000_0000`` (then, read as
float64, each is a finite non-negative number, ordered as the integers are). Checked here on
the keys of adversarial scores, with the label in the lowest bit and with the rows' indices
(the weighted order), and the curve, area and hull made from them against the code before
(``bench/core_before.py``), bit for bit.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

from roc_dash.core import auc, convex_hull, roc_curve
from roc_dash.core.roc import _exact_paths

ROOT = Path(__file__).resolve().parents[4]
_spec = importlib.util.spec_from_file_location("core_before", ROOT / "bench" / "core_before.py")
before = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("core_before", before)
_spec.loader.exec_module(before)

MAX = np.finfo(np.float64).max
TINY = 5e-324


def _scores(rng, n):
    logit = rng.normal(size=n) * 3.0
    return {
        "probabilities": 1.0 / (1.0 + np.exp(-logit)),
        "logits": logit,
        "largest": np.where(rng.random(n) < 0.5, MAX, -MAX) * rng.random(n),
        "subnormals": rng.integers(-50, 50, n) * TINY,
        "signed zeros": np.where(rng.random(n) < 0.5, 0.0, -0.0) + (rng.random(n) < 0.1),
        "wide": logit * 10.0 ** rng.integers(-150, 150, n),
        "one ulp apart": np.nextafter(0.5, 1.0 + np.arange(n) % 7),
    }


def _float_order_equals_uint_order(keys: np.ndarray) -> None:
    assert int(keys.max()) < 0x7FF0_0000_0000_0000  # finite, non-negative as float64
    as_uint = np.sort(keys)
    as_float = np.sort(keys.view(np.float64)).view(np.uint64)
    assert np.array_equal(as_uint, as_float)
    assert np.array_equal(as_uint, keys)  # and they are sorted so


@pytest.mark.parametrize("index_keys", [False, True])
def test_kso001_keys_sorted_as_integers_in_the_order_of_before(index_keys):
    rng = np.random.default_rng(1)
    n = 5000
    y = rng.random(n) < 0.4
    for name, s in _scores(rng, n).items():
        bits = (n - 1).bit_length() if index_keys else 0
        keyed = _exact_paths.sorted_keys(y, s, index_bits=bits)
        if keyed is None:  # magnitudes too far apart for a key: another path takes them
            assert name == "wide", name
            continue
        _float_order_equals_uint_order(keyed.keys)


def test_kso002_curve_area_hull_from_integer_sorted_keys_equal_the_code_before():
    rng = np.random.default_rng(2)
    n = 200_000  # the hull's sampled chords (131,072 points) and blocks of 32,768 rows
    y = rng.random(n) < 0.3
    w = rng.uniform(0.1, 3.0, n)
    for name, s in _scores(rng, n).items():
        for weights in (None, w):
            c, c0 = roc_curve(y, s, weights=weights), before.roc_curve(y, s, weights=weights)
            for field in ("fpr", "tpr", "thresholds"):
                a, b = getattr(c, field), getattr(c0, field)
                assert np.array_equal(a.view(np.uint64), b.view(np.uint64)), (name, field)
            assert auc(c) == auc(c0), name
            h, h0 = convex_hull(c), before.convex_hull(c0)
            for field in ("fpr", "tpr", "thresholds", "slope_high", "slope_low"):
                a, b = getattr(h, field), getattr(h0, field)
                assert np.array_equal(a.view(np.uint64), b.view(np.uint64)), (name, field)


def _signed_rows_before(y, s, w):
    """The rows as complex numbers as ``weighted_order`` built them before (a masked copy)."""
    z = np.empty(s.size, dtype=np.complex128)
    z.real = s
    np.negative(w, out=z.imag)
    np.copyto(z.imag, w, where=y)
    return z


@pytest.mark.parametrize("block", [4, 1 << 15])
def test_kso003_signed_rows_by_the_sign_bit_equal_the_masked_copy(block, monkeypatch):
    # score + i * (w if positive else -w), the sign of the negatives' weights flipped by
    # XOR of the sign bit, block by block: the same bits as the masked copy of before, for
    # weights of +0.0 and -0.0 (a zero weight of either sign is allowed), subnormal and
    # huge weights, and a last block shorter than the others.
    monkeypatch.setattr(_exact_paths, "_BLOCK", block)
    rng = np.random.default_rng(3)
    n = 3 * block + 5
    y = rng.random(n) < 0.4
    s = rng.normal(size=n)
    w = rng.choice(np.array([0.0, -0.0, TINY, 1.0, 2.5, MAX, 1e-300]), n)
    got = _exact_paths.signed_rows(y, s, w)
    want = _signed_rows_before(y, s, w)
    assert np.array_equal(got.view(np.uint64), want.view(np.uint64))
    assert np.array_equal(np.signbit(got.imag), np.signbit(w) ^ ~y)  # negatives flipped


def test_kso004_weighted_curve_with_signed_zero_weights_equals_the_code_before():
    # Rows of weight -0.0 and +0.0 of both classes, among distinct and tied scores: the
    # weighted curve, area and hull as before, bit for bit (the order of tied rows follows
    # the signed weights, so their zeros' signs must be those of before).
    rng = np.random.default_rng(4)
    n = 200_000
    y = rng.random(n) < 0.3
    w = np.where(rng.random(n) < 0.05, np.where(rng.random(n) < 0.5, 0.0, -0.0),
                 rng.uniform(0.1, 3.0, n))
    logit = rng.normal(y * 1.0, 1.0)
    for s in (logit, np.where(rng.random(n) < 0.2, 0.5, logit)):
        c, c0 = roc_curve(y, s, weights=w), before.roc_curve(y, s, weights=w)
        for field in ("fpr", "tpr", "thresholds"):
            assert np.array_equal(getattr(c, field).view(np.uint64),
                                  getattr(c0, field).view(np.uint64)), field
        assert auc(c) == auc(c0)
        h, h0 = convex_hull(c), before.convex_hull(c0)
        assert np.array_equal(h.fpr.view(np.uint64), h0.fpr.view(np.uint64))
        assert np.array_equal(h.tpr.view(np.uint64), h0.tpr.view(np.uint64))


def _runs_before(z):
    """Each class's cumulative weights as ``runs_of_order`` summed them before: the parts
    by ``np.maximum`` and ``np.minimum`` of the signed weights, one complex cumulative sum."""
    p = np.empty(z.size, dtype=np.complex128)
    np.maximum(z.imag, 0.0, out=p.real)
    np.minimum(z.imag, 0.0, out=p.imag)
    np.negative(p.imag, out=p.imag)
    p[0] += 0j
    np.cumsum(p, out=p)
    return p.real, p.imag


@pytest.mark.parametrize("block", [4, 1 << 15])
def test_kso005_class_sums_by_the_sign_bit_equal_those_by_maximum_and_minimum(block,
                                                                               monkeypatch):
    # The classes' weights are split by the sign bit; a zero weight may then be +0.0 where
    # np.maximum gave -0.0: no sum changes, also when the rows of zero weight (of either
    # sign, of either class) come first, in every block, or are all the rows.
    monkeypatch.setattr(_exact_paths, "_BLOCK", block)
    rng = np.random.default_rng(5)
    n = 3 * block + 5
    for zeros in (0.0, 0.3, 1.0):
        y = rng.random(n) < 0.4
        w = rng.uniform(0.1, 3.0, n)
        w[rng.random(n) < zeros] = 0.0
        w[rng.random(n) < zeros / 2] = -0.0
        w[:3] = [-0.0, 0.0, -0.0]
        s = np.sort(rng.normal(size=n))  # ascending, distinct: the order runs_of_order takes
        z = _exact_paths.signed_rows(y, s, w)
        for distinct in (True, False):
            _, pos, neg = _exact_paths.runs_of_order(z, distinct=distinct)
            pos0, neg0 = _runs_before(z)
            assert np.array_equal(pos.view(np.uint64), pos0.view(np.uint64))
            assert np.array_equal(neg.view(np.uint64), neg0.view(np.uint64))


def _general_keys(y, s, monkeypatch):
    """The keys the general way (every block tested for its signs, ten passes)."""
    with monkeypatch.context() as mp:
        mp.setattr(_exact_paths._BothSigns, "keys", lambda self, *a: False)
        keyed = _exact_paths.sorted_keys(y, s)
    return None if keyed is None else keyed.keys


@pytest.mark.parametrize("block", [4, 64, 1 << 15])
def test_kso006_keys_of_both_signs_equal_the_general_way(block, monkeypatch):
    """After a block with a negative score, blocks take the both-signs keys (eight passes):
    the same keys as the general way, and a block holding a zero, a magnitude at or below
    the keys' floor, or one beyond the top (not finite) is made the general way (or the
    scores refused, as before)."""
    monkeypatch.setattr(_exact_paths, "_BLOCK", block)
    rng = np.random.default_rng(11)
    n = 7 * block + 3
    y = rng.random(n) < 0.4
    for name, s in _scores(rng, n).items():
        for late in (None, 0.0, -0.0, TINY, -TINY, np.inf, -np.inf, np.nan):
            s2 = s.copy()
            if late is not None:
                s2[5 * block + 1] = late  # in a block after the first negative ones
            if not np.isfinite(s2).all():
                assert _exact_paths.sorted_keys(y, s2) is None, (name, late)
                continue
            keyed = _exact_paths.sorted_keys(y, s2)
            want = _general_keys(y, s2, monkeypatch)
            assert (keyed is None) == (want is None), (name, late)
            if keyed is not None:
                assert np.array_equal(keyed.keys, want), (name, late)
                _float_order_equals_uint_order(keyed.keys)
            c, c0 = roc_curve(y, s2), before.roc_curve(y, s2)
            for field in ("fpr", "tpr", "thresholds"):
                assert np.array_equal(getattr(c, field).view(np.uint64),
                                      getattr(c0, field).view(np.uint64)), (name, late)


def test_kso007_the_both_signs_way_is_taken():
    """Logits take the both-signs keys on every block after the first negative one (a
    wrong key there would fail kso006; this shows kso006 tests that way)."""
    calls = []
    real = _exact_paths._BothSigns.keys

    def counted(self, *args):
        calls.append(real(self, *args))
        return calls[-1]

    rng = np.random.default_rng(2)
    s = rng.normal(size=3 * (1 << 15))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_exact_paths._BothSigns, "keys", counted)
        _exact_paths.sorted_keys(s > 0.3, s)
    assert len(calls) == 3 and all(calls)
