"""The hull of an unweighted curve searched among the staircase's upper-left corners only.

With distinct scores the curve steps up for a positive row and right for a negative one; a
strict vertex of its convex hull can only be a vertex entered by a step up and left by a step
right. The vertex pass marks those (and every vertex of a block of rows with ties, and each
block's first and last vertex, whose steps may belong to runs across the blocks' boundaries),
and ``convex_hull`` searches the marked ones only. The hull must be the one of every point,
bit for bit, as the code before (``bench/core_before.py``) computes it.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roc_dash.core import convex_hull, roc_curve
from roc_dash.core.roc import _exact_paths, hull

from .test_core_exact_paths import assert_same_curve, assert_same_hull, before

BLOCK = 8  # rows per block, lowered so that a few dozen rows cross several blocks


def staircase_corners(c) -> np.ndarray:
    """Per vertex: entered by a step up and left by a step right (the origin and the last
    vertex always)."""
    x, t = c.fpr, c.tpr
    out = np.ones(x.size, dtype=bool)
    out[1:-1] = (t[1:-1] > t[:-2]) & (x[2:] > x[1:-1])
    return out


def hull_vertices(c, h) -> list[int]:
    """Indices in the curve of the hull's vertices (thresholds are distinct per vertex)."""
    at = {float(v): i for i, v in enumerate(c.thresholds)}
    return [at[float(v)] for v in h.thresholds]


def searched_sizes(monkeypatch) -> list[int]:
    """Records the number of points each outermost candidate search is given."""
    sizes, real = [], hull._chain_candidates
    depth = [0]

    def recording(x, y):
        if depth[0] == 0:
            sizes.append(x.size)
        depth[0] += 1
        try:
            return real(x, y)
        finally:
            depth[0] -= 1

    monkeypatch.setattr(hull, "_chain_candidates", recording)
    return sizes


def labels(kind: str, n: int, rng) -> np.ndarray:
    if kind == "random":
        return rng.random(n) < 0.3
    if kind == "alternating":
        return np.arange(n) % 2 == 0
    if kind == "positives first":
        return np.arange(n) >= n // 2  # scores rise with the row: these are the top ones
    return np.arange(n) % 5 == 0


@pytest.mark.parametrize("kind", ["random", "alternating", "positives first", "fifths"])
def test_hcr001_corners_marked_are_the_upper_left_corners_and_block_ends(monkeypatch, kind):
    monkeypatch.setattr(_exact_paths, "_BLOCK", BLOCK)
    rng = np.random.default_rng(1)
    n = 203  # the last block is short
    y = labels(kind, n, rng)
    s = np.arange(n, dtype=float) * 0.25 - 7.0
    c = roc_curve(y, s)
    expected = staircase_corners(c)
    expected[1::BLOCK] = True  # each block's first vertex (vertex 1 is row 0's) ...
    expected[BLOCK::BLOCK] = True  # ... and its last
    assert np.array_equal(c._corners, expected)
    h = convex_hull(c)
    assert c._corners[hull_vertices(c, h)].all()
    assert_same_hull(h, before.convex_hull(before.roc_curve(y, s)))


def test_hcr002_a_long_curve_hull_searched_among_a_fifth_of_its_points(monkeypatch):
    # 300,000 distinct scores of a weak model (30 % positives): about n p (1 - p) corners,
    # the sampled chords' pass runs on them, and the hull is the one of every point.
    rng = np.random.default_rng(2)
    n = 300_000
    y = rng.random(n) < 0.3
    logit = rng.normal(y * 1.0, 1.0) * 2.0
    sizes = searched_sizes(monkeypatch)
    for s in (logit, 1.0 / (1.0 + np.exp(-logit)), -logit):
        c = roc_curve(y, s)
        c0 = before.roc_curve(y, s)
        assert_same_curve(c, c0)
        sizes.clear()
        h = convex_hull(c)
        assert_same_hull(h, before.convex_hull(c0))
        marked = int(np.count_nonzero(c._corners))
        assert sizes == [marked]
        assert marked < 0.25 * n
        assert c._corners[hull_vertices(c, h)].all()


def tie_cases(rng):
    n = 40
    y = np.arange(n) % 3 == 0
    distinct = rng.permutation(np.linspace(-3.0, 5.0, n))
    order = np.argsort(distinct)[::-1]  # highest score first, as the rows are sorted
    for at in (BLOCK - 1, BLOCK, 2 * BLOCK + 1, n - 2):
        tied = distinct.copy()
        tied[order[at + 1]] = tied[order[at]]
        yield at, y, tied


def test_hcr003_blocks_with_ties_mark_all_their_vertices(monkeypatch):
    monkeypatch.setattr(_exact_paths, "_BLOCK", BLOCK)
    rng = np.random.default_rng(3)
    for at, y, s in tie_cases(rng):
        c = roc_curve(y, s)
        c0 = before.roc_curve(y, s)
        assert_same_curve(c, c0)
        assert len(c) == s.size  # one vertex fewer than rows + 1
        # sorted rows at and at + 1 share a score: the block of row at has a row that ends
        # no run (its last, when the run crosses into the next block), and all its vertices
        # (one fewer than its rows) are marked
        block = at // BLOCK
        first = 1 + block * BLOCK
        rows_in_block = min(BLOCK, s.size - block * BLOCK)
        assert c._corners[first:first + rows_in_block - 1].all(), at
        assert_same_hull(convex_hull(c), before.convex_hull(c0))
    # mostly ties: no marks (the hull searches every point, as before)
    y = np.arange(400) % 3 == 0
    c = roc_curve(y, np.round(np.linspace(0.0, 30.0, 400)))
    assert not hasattr(c, "_corners")
    assert_same_hull(convex_hull(c), before.convex_hull(before.roc_curve(
        y, np.round(np.linspace(0.0, 30.0, 400)))))


rows = st.one_of(*(st.lists(st.tuples(st.booleans(), st.integers(-k, k)), min_size=2,
                           max_size=120) for k in (10, 300, 10**6)))


@settings(max_examples=150, deadline=None)
@given(rows, st.sampled_from([4, 8, 16]))
def test_hcr004_any_labels_and_ties_every_hull_vertex_is_marked(data, block):
    # Scores from a small pool (ties of either class, across the blocks' boundaries), small
    # blocks and the sampled chords' sizes lowered: the hull is the code before's, and
    # every vertex of it is marked.
    y = np.array([r[0] for r in data])
    s = np.array([r[1] for r in data], dtype=float) / 8.0
    if y.all() or not y.any():
        return
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_exact_paths, "_BLOCK", block)
        mp.setattr(hull, "_SAMPLED_CHAIN", 16)
        mp.setattr(_exact_paths, "_SAMPLE_STEP", 4)
        mp.setattr(_exact_paths, "_SUB_STEP", 2)
        c = roc_curve(y, s)
        h = convex_hull(c)
    c0 = before.roc_curve(y, s)
    assert_same_curve(c, c0)
    assert_same_hull(h, before.convex_hull(c0))
    corners = getattr(c, "_corners", None)
    if corners is not None:
        assert corners[hull_vertices(c, h)].all()
        assert corners[staircase_corners(c)].all()
