"""Unweighted rows: the curve's thresholds and rates as the thirds of one block.

``sorted_keys(..., room=True)`` makes the keys the first third of a block whose other two
thirds take the rates (``vertices_of_keys``); with ties the block is shrunk in place. Checked
against the separate arrays of ``room=False`` on the same rows, bit for bit, and against the
code before (``bench/core_before.py``) through ``roc_curve``.
"""

from __future__ import annotations

import numpy as np
import pytest

from roc_dash.core import roc_curve
from roc_dash.core.roc import _exact_paths

from .test_core_exact_paths import assert_same_curve, before

BLOCK = 8  # rows per block, lowered so that a few dozen rows cross several blocks


def cases(rng):
    """``(name, labels, scores)``: distinct, ties across block boundaries, all equal."""
    n = 40
    y = np.arange(n) % 3 == 0
    distinct = rng.permutation(np.linspace(-3.0, 5.0, n))
    yield "distinct", y, distinct
    yield "two rows", np.array([True, False]), np.array([0.5, 0.25])
    yield "all equal", y, np.full(n, 0.5)
    order = np.argsort(distinct)
    for at in (BLOCK - 1, BLOCK, 2 * BLOCK + 1, n - 2):
        tied = distinct.copy()
        tied[order[at + 1]] = tied[order[at]]
        yield f"tie at sorted row {at}", y, tied
    yield "signed zeros", y, np.where(np.arange(n) % 2 == 0, 0.0, -0.0)
    yield "rounded", y, np.round(distinct, 0)


def same_bits(a, b) -> bool:
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return a.shape == b.shape and np.array_equal(a.view(np.uint64), b.view(np.uint64))


@pytest.mark.parametrize("counts", [False, True])
def test_rbk001_rates_in_the_keys_block_equal_separate_arrays(monkeypatch, counts):
    monkeypatch.setattr(_exact_paths, "_BLOCK", BLOCK)
    rng = np.random.default_rng(4)
    for name, y, s in cases(rng):
        n_pos = int(np.count_nonzero(y))
        apart = _exact_paths.vertices_of_keys(_exact_paths.sorted_keys(y, s), n_pos,
                                              counts=counts)
        keyed = _exact_paths.sorted_keys(y, s, room=True)
        block = keyed.keys.base
        together = _exact_paths.vertices_of_keys(keyed, n_pos, counts=counts)
        assert len(together) == len(apart)
        for got, expected in zip(together, apart, strict=True):
            if got is None or np.ndim(got) == 0:
                assert got == expected, name
                continue
            assert same_bits(got, expected), name
            assert got.base is block, name  # the block's thirds, shrunk in place
        assert block.size == 3 * together[0].size, name
        assert together[0].size == np.unique(s).size + 1, name


def test_rbk002_roc_curve_of_the_block_equals_the_code_before(monkeypatch):
    monkeypatch.setattr(_exact_paths, "_BLOCK", BLOCK)
    rng = np.random.default_rng(5)
    for name, y, s in cases(rng):
        c = roc_curve(y, s)
        assert c.fpr.base is c.tpr.base is c.thresholds.base, name
        assert_same_curve(c, before.roc_curve(y, s))
