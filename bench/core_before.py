"""The core's ROC curve and convex hull as they were before the sorted-keys path: the
reference that ``bench_core.py`` measures side by side with the current code, and the oracle
that the core's tests compare the current code with (bit for bit).

A verbatim copy of ``roc_curve`` (with the sort paths it chose from) from
``roc_dash/core/roc/curves.py`` and of ``convex_hull`` (with the hull helpers it used) from
``roc_dash/core/roc/hull.py`` at commit 04cd0df; only the imports are new.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from roc_dash.core._validation import check_binary_inputs
from roc_dash.core.roc.curve_geometry import _cross, whole_counts
from roc_dash.core.roc.curves import RocCurve
from roc_dash.core.roc.hull import RocHull

__all__ = ["roc_curve", "convex_hull", "curve_of_runs", "score_runs"]


def score_runs(y, s, w):
    """``[thresholds, positives_at_or_below, negatives_at_or_below]`` as before."""
    return [*_runs(y, s, w)]


_ONE = np.uint64(1)


# XOR turning ``bits << 1`` of a negative float into its order key (every bit but the label's).
_NEG_FLIP = np.uint64(0xFFFF_FFFF_FFFF_FFFE)


def _runs_by_label_key(y: np.ndarray, s: np.ndarray):
    """One sort of the scores with the label riding in the lowest bit of the sort key.

    Exact for every finite score. The scores are split by sign (negatives first); within
    each half the top (sign) bit of the IEEE pattern is constant, which frees one bit:

    * non-negative ``x``: key ``bits(x)``, which already orders them (``-0.0`` joins this
      half, and dropping its sign bit makes it ``+0.0``);
    * negative ``x``: key ``~bits(x)``, which reverses the order of the magnitudes.

    Either key is below ``2**63``, so ``key << 1 | label`` keeps every bit of the score: two
    rows share a key exactly when their scores are equal and so are their labels. Each half
    is sorted on its own (together about one ``np.sort`` of the scores) and the boundary
    between the halves is always the end of a run.

    Returns ``(thresholds, positives_at_or_below, negatives_at_or_below)``: the vertex
    thresholds (``+inf`` first, then the distinct scores descending) and, per distinct score
    ascending, the counts of each class scoring at or below it.
    """
    n = s.size
    bits = s.view(np.uint64)
    neg = np.less(s, 0.0)
    m = int(np.count_nonzero(neg))
    spare = neg.view(np.uint8)  # a byte per row, reused for the labels after the sort
    k = np.left_shift(bits, _ONE)  # drops the sign bit (so -0.0 -> +0.0) ...
    np.bitwise_or(k, y.view(np.uint8), out=k)  # ... and makes room for the label
    if 0 < m < n:  # both signs: negatives first, each half sorted on its own
        mixed = k
        k = np.empty(n, dtype=np.uint64)
        np.compress(neg, mixed, out=k[:m])
        np.logical_not(neg, out=neg)
        np.compress(neg, mixed, out=k[m:])
        del mixed
        k[:m] ^= _NEG_FLIP
        k[:m].sort()
        k[m:].sort()
    else:
        if m:
            k ^= _NEG_FLIP
        k.sort()
    change = np.empty(n, dtype=bool)
    label = spare
    np.bitwise_and(k, _ONE, out=label, casting="unsafe")
    k >>= _ONE
    np.not_equal(k[1:], k[:-1], out=change[:-1])
    change[-1] = True
    if 0 < m < n:
        change[m - 1] = True  # equal keys on either side of the sign boundary differ in sign
    run_end = np.flatnonzero(change)
    del change
    thresholds = np.empty(run_end.size + 1)
    thresholds[0] = np.inf
    keys = thresholds[1:].view(np.uint64)
    np.take(k, run_end[::-1], out=keys, mode="clip")  # "raise" would buffer `out`
    del k
    if m:  # the runs of negative scores come last (descending): undo their key
        negative_runs = keys[run_end.size - int(np.searchsorted(run_end, m)):]
        np.invert(negative_runs, out=negative_runs)
    cum = np.cumsum(label, dtype=np.int32 if label.size < 2**31 else np.int64)
    del label, spare, neg
    pos_le = cum[run_end].astype(np.int64)
    del cum
    run_end += 1  # instances at or below each distinct score ...
    run_end -= pos_le  # ... of which negatives
    return thresholds, pos_le, run_end


def sorted_run_ends(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each run of equal values of ``values`` (ascending, at least one) ends, and the
    ROC vertex thresholds they give: ``+inf``, then each run's value, highest first
    (``-0.0`` written as ``+0.0``). Fawcett 2004 §4, Algorithm 1: a point per distinct
    score, so that tied scores make one diagonal segment."""
    change = np.empty(values.size, dtype=bool)
    np.not_equal(values[1:], values[:-1], out=change[:-1])
    change[-1] = True
    run_end = np.flatnonzero(change)
    del change
    thresholds = np.empty(run_end.size + 1)
    thresholds[0] = np.inf
    np.take(values, run_end[::-1], out=thresholds[1:], mode="clip")  # "raise" buffers `out`
    thresholds[1:] += 0.0  # -0.0 -> +0.0
    return run_end, thresholds


def _runs_by_weight(y: np.ndarray, s: np.ndarray, w: np.ndarray):
    """Weighted variant of :func:`_runs_by_label_key`: one sort carrying label and weight.

    Each row becomes the complex number ``score + i * (w if positive else -w)``, and numpy
    sorts complex numbers by real part, then imaginary part: the scores ascending, with the
    label and weight travelling with each (a zero weight counts for neither class, whatever
    the sign of its zero). Float comparison is exact and ``-0.0 == 0.0``. About twice one
    ``np.sort`` of the scores, no gather afterwards.
    """
    z = np.empty(s.size, dtype=np.complex128)
    z.real = s
    np.negative(w, out=z.imag)
    np.copyto(z.imag, w, where=y)
    z.sort()
    run_end, thresholds = sorted_run_ends(z.real)
    # Separate cumulative sums of non-negative terms never decrease, so the rates below
    # are exactly non-decreasing and within [0, 1].
    part = np.maximum(z.imag, 0.0)
    pos_le = np.cumsum(part)[run_end]
    np.minimum(z.imag, 0.0, out=part)
    np.negative(part, out=part)
    del z
    neg_le = np.cumsum(part)[run_end]
    return thresholds, pos_le, neg_le


# Scores with few distinct values (rounded scores, integer scorecards, histograms) are grouped
# by hashing instead of sorted: one pass over the rows, then a sort of the distinct values
# only. Chosen when a sample puts the number of distinct scores at most _HASH_MAX_DISTINCT and
# an eighth of the rows (measured crossovers: about n/5 at 10^6 rows, beyond 2 * 10^5 at
# 10^7, where the hash table outgrows the cache and one sort of the rows is faster).
_HASH_MIN_ROWS = 1 << 15


_HASH_SAMPLE = 1 << 12


_HASH_MAX_DISTINCT = 1 << 17


def _distinct_estimate(s: np.ndarray) -> float:
    """Estimated number of distinct values of ``s`` (``inf`` below ``_HASH_MIN_ROWS`` rows).

    From a fixed pseudo-random sample of rows (with replacement) by Chao's (1984) estimator
    ``seen + f1 (f1 - 1) / (2 (f2 + 1))``, where ``f1`` and ``f2`` count the values seen once
    and twice: a long tail of values seen once stands for many unseen ones. Only the choice
    of path, hence the speed, depends on it: every path is exact.
    """
    n = s.size
    if n < _HASH_MIN_ROWS:
        return np.inf
    rows = np.random.default_rng(0).integers(0, n, _HASH_SAMPLE)
    _, counts = np.unique(s[rows], return_counts=True)
    f1 = int(np.count_nonzero(counts == 1))
    f2 = int(np.count_nonzero(counts == 2))
    return counts.size + f1 * (f1 - 1) / (2.0 * (f2 + 1))


def _runs_by_hash(y: np.ndarray, s: np.ndarray, w: np.ndarray | None, size_hint: int = 1024):
    """Variant of :func:`_runs_by_label_key` for few distinct scores: group, then sort groups.

    ``pandas.factorize`` numbers the distinct scores by hashing (exact float equality, so
    ``-0.0`` and ``+0.0`` are one score), ``np.bincount`` sums each class per score, and
    only the distinct scores are sorted.
    """
    codes, uniques = pd.factorize(s, sort=False, size_hint=size_hint)
    d = uniques.size
    if w is None:
        pos = np.bincount(codes[y], minlength=d)
        neg = np.bincount(codes, minlength=d)
        neg -= pos
    else:
        pos = np.bincount(codes, weights=np.where(y, w, 0.0), minlength=d)
        neg = np.bincount(codes, weights=np.where(y, 0.0, w), minlength=d)
    del codes
    order = np.argsort(uniques)
    thresholds = np.empty(d + 1)
    thresholds[0] = np.inf
    np.take(uniques, order[::-1], out=thresholds[1:])
    thresholds[1:] += 0.0  # -0.0 -> +0.0
    # Cumulative sums of non-negative terms never decrease: the rates stay monotone.
    return thresholds, np.cumsum(pos[order]), np.cumsum(neg[order])


def _runs_of_integers(y: np.ndarray, s: np.ndarray, w: np.ndarray | None):
    """Integer scores that float64 would merge (beyond 2**53): grouped by ``np.unique`` on
    the integers themselves, so every distinct score keeps its own vertex. The thresholds
    are their nearest float64 values (as scikit-learn's), so neighbours may share one."""
    uniques, codes = np.unique(s, return_inverse=True)
    d = uniques.size
    if w is None:
        pos = np.bincount(codes[y], minlength=d)
        neg = np.bincount(codes, minlength=d) - pos
    else:
        pos = np.bincount(codes, weights=np.where(y, w, 0.0), minlength=d)
        neg = np.bincount(codes, weights=np.where(y, 0.0, w), minlength=d)
    thresholds = np.empty(d + 1)
    thresholds[0] = np.inf
    thresholds[1:] = uniques[::-1].astype(np.float64)
    return thresholds, np.cumsum(pos), np.cumsum(neg)


def _runs(y: np.ndarray, s: np.ndarray, w: np.ndarray | None):
    """``(thresholds, positives_at_or_below, negatives_at_or_below)`` by the fastest exact path.

    Few distinct scores: :func:`_runs_by_hash`; otherwise one sort, :func:`_runs_by_label_key`
    (unweighted) or :func:`_runs_by_weight`; integers that float64 would merge:
    :func:`_runs_of_integers`.
    """
    if s.dtype.kind != "f":
        return _runs_of_integers(y, s, w)
    distinct = _distinct_estimate(s)
    if distinct <= min(_HASH_MAX_DISTINCT, s.size / 8):
        return _runs_by_hash(y, s, w, size_hint=2 * int(distinct) + 1024)
    if w is None:
        return _runs_by_label_key(y, s)
    return _runs_by_weight(y, s, w)


def _rates(counts_le: np.ndarray, total: float) -> np.ndarray:
    """Rates of the vertices, origin first: ``(total − count strictly below t) / total``."""
    out = np.empty(counts_le.size + 1)
    out[0] = 0.0
    np.subtract(total, counts_le[-2::-1], out=out[1:-1])
    out[1:-1] /= total
    out[-1] = 1.0
    return out


def curve_of_runs(runs: list) -> RocCurve:
    """The :class:`RocCurve` of ``runs = [thresholds, positives_at_or_below,
    negatives_at_or_below]`` (the sorted runs of equal scores, see :func:`roc_curve`); the
    list is emptied so that the counts can be freed as soon as their rates are made.

    For callers that need the runs' class counts too (the DeLong interval of
    :func:`roc_dash.core.inference.statistics.delong_variance_of_counts`): keep a reference to them.
    """
    thresholds, pos_le, neg_le = runs
    runs.clear()
    n_pos, n_neg = float(pos_le[-1]), float(neg_le[-1])
    if n_pos <= 0 or n_neg <= 0:
        missing = "positive" if n_pos <= 0 else "negative"
        raise ValueError(f"ROC curve undefined: no {missing} instances (or zero total weight)")
    # Vertex r (after the origin) counts the instances scoring >= thresholds[r]: the total
    # minus those at or below the next smaller distinct score.
    tpr = _rates(pos_le, n_pos)
    del pos_le
    fpr = _rates(neg_le, n_neg)
    del neg_le
    return RocCurve(fpr=fpr, tpr=tpr, thresholds=thresholds, n_pos=n_pos, n_neg=n_neg)


def roc_curve(labels, scores, *, weights=None, pos_label=None) -> RocCurve:
    """Compute the ROC curve of a scoring classifier.

    Fawcett (2004) section 4, Algorithm 2, vectorised: the scores are sorted once and the
    (weighted) numbers of positives and negatives scoring at or above every distinct score
    are cumulative sums over the sorted runs. Exactly one vertex is emitted per distinct
    score, so a run of equally scored instances of both classes produces one diagonal
    segment (section 4.1) whatever their order.

    Every finite score distribution (probabilities, logits and margins of either sign,
    integer scorecards, ``±0.0``, subnormals, the largest floats) takes a fast exact path:
    unweighted rows are sorted once with the label carried in a spare bit of an integer sort
    key holding every bit of the score (:func:`_runs_by_label_key`, about one ``np.sort``);
    weighted rows in one sort of complex numbers carrying label and weight
    (:func:`_runs_by_weight`, about two); and when a sample shows few distinct scores
    (rounded scores, histograms), the rows are grouped by hashing and only the distinct
    scores are sorted (:func:`_runs_by_hash`, less than one ``np.sort``).

    Parameters
    ----------
    labels : array-like, shape (n,)
        True class: booleans (``True`` for positive), or two values of a known encoding
        (0/1, -1/+1, true/false, yes/no, p/n, pos/neg, positive/negative; any case,
        numbers or text, the first of each pair positive), or any two values with
        ``pos_label``. See :func:`roc_dash.core.labels.binary_labels`.
    scores : array-like of float, shape (n,)
        Classifier scores; higher means more likely positive. Must be finite. Integer
        scores are ranked exactly, also beyond 2**53 where float64 would round distinct
        ones together (their thresholds are then the rounded values, as scikit-learn's).
    weights : array-like of float, shape (n,), optional
        Non-negative instance weights (counts or example-specific costs, section 7.2).
    pos_label : scalar, optional
        The label value of the positive class (scikit-learn's convention); every other
        value is negative. Needed when the labels are not a known encoding.

    Returns
    -------
    RocCurve
        ``fpr``, ``tpr`` and ``thresholds`` with one entry per distinct score plus the
        origin (threshold ``+inf``).

    Raises
    ------
    ValueError
        If either class is absent or has zero total weight (the ROC curve is undefined),
        if the labels are more than two classes or need ``pos_label``, or on malformed
        input.

    References
    ----------
    T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", 2004.
    """
    y, s, w = check_binary_inputs(labels, scores, weights, pos_label=pos_label,
                                  integers="keep")
    return curve_of_runs([*_runs(y, s, w)])


class _Orientation:
    """Which turns of a chain are strict right turns (the only possible upper-hull vertices).

    ``kind`` is

    * ``"exact"``: whole-number coordinates (counts) up to ``sx`` and ``sy``, compared
      exactly;
    * ``"robust"``: floating-point coordinates of magnitude up to ``sx`` and ``sy``; a turn
      within ``rtol`` of those magnitudes counts as straight (the point is dropped);
    * ``"filter"``: the same test, but a turn within the tolerance counts as a right turn
      (the point is kept for an exact pass later): only points certainly on the wrong side
      are dropped.
    """

    def __init__(self, kind: str, sx: float = 1.0, sy: float = 1.0, rtol: float = 2.0 ** -44,
                 *, monotone: bool = False):
        self.kind, self.sx, self.sy, self.rtol = kind, float(sx), float(sy), rtol
        self.monotone = monotone  # steps never negative: no absolute values needed
        self.bound = max(self.sx, self.sy)  # of whole-number coordinates ("exact")

    def right_turns(self, dx: np.ndarray, dy: np.ndarray) -> np.ndarray:
        """For the steps ``(dx, dy)`` between consecutive points of a chain: True at each
        interior point where the chain turns strictly right (clockwise)."""
        if self.kind == "exact":
            return _cross(dx[:-1], dy[:-1], dx[1:], dy[1:], self.bound) < 0
        turn = dx[:-1] * dy[1:]
        turn -= dy[:-1] * dx[1:]
        # |step| measured against the axes' magnitudes, summed over the two steps
        if self.monotone:  # cheaper, looser: the largest steps of the chain
            tol = 2.0 * self.rtol * (self.sy * float(dx.max()) + self.sx * float(dy.max()))
        else:
            tol = self.sy * np.abs(dx)
            tol += self.sx * np.abs(dy)
            tol = tol[:-1] + tol[1:]
            tol *= self.rtol
        if self.kind == "filter":
            return turn <= tol
        return turn < -tol

    def right_turn(self, dx0: float, dy0: float, dx1: float, dy1: float) -> bool:
        """:meth:`right_turns` of one interior point (steps ``(dx0, dy0)`` then
        ``(dx1, dy1)``) in plain Python arithmetic, for the sequential scan: the same
        operations in the same order, so the same answer bit for bit."""
        if self.kind == "exact":  # whole numbers: Python integers are exact at any size
            return int(dx0) * int(dy1) - int(dy0) * int(dx1) < 0
        turn = dx0 * dy1 - dy0 * dx1
        if self.monotone:
            tol = 2.0 * self.rtol * (self.sy * max(dx0, dx1) + self.sx * max(dy0, dy1))
        else:
            tol = ((self.sy * abs(dx0) + self.sx * abs(dy0))
                   + (self.sy * abs(dx1) + self.sx * abs(dy1))) * self.rtol
        if self.kind == "filter":
            return turn <= tol
        return turn < -tol


_FILTER = _Orientation("filter")


_CHAIN_FILTER = _Orientation("filter", monotone=True)


def _upper_hull(x: np.ndarray, y: np.ndarray, orient: _Orientation = _FILTER) -> np.ndarray:
    """Indices of the upper convex hull of points sorted by strictly increasing ``x``.

    Vectorised peeling: a point where the chain does not turn right (on or below the chord of
    its two current neighbours) is not a hull vertex (a mix of its neighbours dominates it),
    so all such points are dropped at once and the pass repeats until none is left. Each
    pass is O(n) and the remaining set shrinks geometrically on ROC data; a monotone-chain
    scan finishes pathological cases. ``orient`` decides what a right turn is (exact on
    integer counts, or with a tolerance on floats).
    """
    idx = np.arange(x.size)
    xs, ys = x, y
    for _ in range(64):
        if idx.size <= 2:
            return idx
        dx, dy = np.diff(xs), np.diff(ys)
        keep = np.empty(idx.size, dtype=bool)
        keep[0] = keep[-1] = True
        keep[1:-1] = orient.right_turns(dx, dy)
        if keep.all():
            return idx
        idx = idx[keep]
        xs, ys = x[idx], y[idx]
    # Fallback: Andrew's monotone chain on what is left, in plain Python scalars (a numpy
    # call per step cost ~20 us: 2.4 s of a 2-million-row analysis went here when locally
    # convex bumps below the hull peel one point per pass).
    xl, yl = x[idx].tolist(), y[idx].tolist()
    stack: list[int] = []
    turn = orient.right_turn
    for k in range(len(xl)):
        xk, yk = xl[k], yl[k]
        while len(stack) >= 2:
            a, b = stack[-2], stack[-1]
            if turn(xl[b] - xl[a], yl[b] - yl[a], xk - xl[b], yk - yl[b]):
                break
            stack.pop()
        stack.append(k)
    return idx[np.asarray(stack, dtype=np.intp)]


_BLOCK = 1 << 16


def _column_tops(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Indices of a monotone chain's points that can be hull vertices: the top of each
    column (equal FPR), skipping tops at the height of the previous one (those lie inside a
    horizontal run)."""
    last = np.empty(x.size, dtype=bool)
    last[-1] = True
    np.not_equal(x[1:], x[:-1], out=last[:-1])
    top = np.flatnonzero(last)
    if top.size > 2:
        ty = y[top]
        rises = np.empty(top.size, dtype=bool)
        rises[0] = rises[-1] = True
        np.greater(ty[1:-1], ty[:-2], out=rises[1:-1])
        top = top[rises]
    return top


def _chain_candidates(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Indices of a ROC chain's upper-hull candidates, found block by block.

    A point below the chord of two points of its own block is below the hull of the whole
    chain, so each block of ``_BLOCK`` points is peeled on its own (small, cache-resident
    temporaries) and only the survivors meet in the final pass. The peeling here is a
    floating-point filter: it drops only points certainly below a chord and keeps points on
    or near one for the final, exact pass.
    """
    parts = []
    for a in range(0, x.size, _BLOCK):
        bx, by = x[a:a + _BLOCK], y[a:a + _BLOCK]
        top = _column_tops(bx, by)
        parts.append(top[_upper_hull(bx[top], by[top], _CHAIN_FILTER)] + a)
    cand = np.concatenate(parts)
    # Columns split across blocks: keep each column's top once more.
    return cand[_column_tops(x[cand], y[cand])]


def _is_roc_chain(x: np.ndarray, y: np.ndarray) -> bool:
    """True when the points already run from (0, 0) with FPR and TPR non-decreasing."""
    if x.size == 0 or x[0] != 0 or y[0] != 0:
        return False
    return bool((x[1:] >= x[:-1]).all() and (y[1:] >= y[:-1]).all())


def _final_coordinates(cx: np.ndarray, cy: np.ndarray, totals):
    """Coordinates and orientation test for the final hull pass over candidate points.

    With ``totals = (N, P)`` and whole counts ``FPR·N`` and ``TPR·P``: the counts as
    integers, tested exactly (scaling the axes changes neither convexity nor collinearity).
    With totals but fractional (weighted) counts: the counts as floats, with a tolerance
    relative to the totals. Without totals: the rates, with a tolerance relative to 1.
    """
    if totals is not None:
        n_neg, n_pos = (float(v) for v in totals)
        if n_neg > 0 and n_pos > 0 and np.isfinite(n_neg) and np.isfinite(n_pos):
            fp, tp = whole_counts(cx, n_neg), whole_counts(cy, n_pos)
            if fp is not None and tp is not None:
                return fp, tp, _Orientation("exact", n_neg, n_pos)
            # Cumulative sums of fractional weights carry rounding of order n·eps·total.
            return cx * n_neg, cy * n_pos, _Orientation("robust", n_neg, n_pos, 2.0 ** -40)
    return cx, cy, _Orientation("robust")


def hull_of_points(fpr, tpr, *, thresholds=None, models=None, totals=None) -> RocHull:
    """ROC convex hull of arbitrary points in ROC space.

    The trivial classifiers (0, 0) (always negative) and (1, 1) (always positive) are always
    potentially optimal and are added when absent. Among points with equal FPR only the
    highest TPR can be on the hull; collinear points are not vertices, so the segment slopes
    are strictly decreasing.

    Orientation is decided exactly when the points are rates of whole counts
    (``totals`` given and ``FPR·N``, ``TPR·P`` whole numbers: unweighted data or integer
    weights): the final pass compares integer cross products of the counts. Otherwise a
    point within a relative ``2**-44`` of the chord of its neighbours (``2**-40`` of the
    totals for fractional weighted counts) counts as collinear. Large chains are first
    thinned by a floating-point filter that drops only points certainly below a chord.

    Parameters
    ----------
    fpr, tpr : array-like of float
        Points in ROC space (any order). A ROC curve (ordered from the origin) is used as it
        is, without sorting.
    thresholds : array-like of float, optional
        Score threshold of each point (carried to the hull vertices).
    models : str or array-like of str, optional
        Model of each point, or one model for all (carried to the hull vertices).
    totals : (float, float), optional
        ``(N, P)``: the (weighted) numbers of negatives and positives of which ``fpr`` and
        ``tpr`` are fractions (common to all points), for the exact test.
    """
    x = np.asarray(fpr, dtype=np.float64).ravel()
    y = np.asarray(tpr, dtype=np.float64).ravel()
    if x.shape != y.shape:
        raise ValueError("fpr and tpr differ in length")
    n = x.size
    if n:
        lo, hi = min(x.min(), y.min()), max(x.max(), y.max())
        if not (np.isfinite(lo) and np.isfinite(hi)):
            raise ValueError("ROC points must be finite")
        if lo < 0 or hi > 1:
            raise ValueError("ROC points must lie in the unit square")

    def coords(idx):
        """Coordinates of point indices, the trivial classifiers included."""
        cx, cy = np.empty(idx.size), np.empty(idx.size)
        real = idx < n
        cx[real], cy[real] = x[idx[real]], y[idx[real]]
        cx[~real] = cy[~real] = idx[~real] == n + 1
        return cx, cy

    # Index n is the all-negative classifier (0, 0), n + 1 the all-positive one (1, 1).
    if _is_roc_chain(x, y):
        top = _chain_candidates(x, y)
        if not (x[top[-1]] == 1 and y[top[-1]] == 1):
            top = np.append(top[:-1] if x[top[-1]] == 1 else top, n + 1)
        origin = 0
    else:
        # Sort by fpr ascending, tpr descending, original order as the last key (stable);
        # the trivial classifiers come last among equals, so real points win ties.
        ext_x = np.concatenate((x, [0.0, 1.0]))
        ext_y = np.concatenate((y, [0.0, 1.0]))
        order = np.lexsort((-ext_y, ext_x))
        xs = ext_x[order]
        first = np.ones(xs.size, dtype=bool)
        first[1:] = xs[1:] != xs[:-1]  # the highest TPR of each FPR
        top = order[first]
        origin = int(order[(xs == 0) & (ext_y[order] == 0)][0])
        top = top[_upper_hull(*coords(top))]  # floating-point filter before the final pass

    fx, fy, orient = _final_coordinates(*coords(top), totals)
    kept = _upper_hull(fx, fy, orient)
    upper = top[kept]
    fx, fy = fx[kept], fy[kept]
    # The hull starts at the origin: add it below a vertical first segment.
    if coords(upper[:1])[1][0] > 0:
        upper = np.concatenate(([origin], upper))
        fx, fy = np.concatenate(([0], fx)), np.concatenate(([0], fy))
    hx, hy = coords(upper)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if orient.kind == "exact":
            # Slopes from the exact count differences: (ΔTP / P) / (ΔFP / N).
            n_neg, n_pos = (float(v) for v in totals)
            dfp, dtp = np.diff(fx).astype(np.float64), np.diff(fy).astype(np.float64)
            seg = np.where(dfp > 0, (dtp * n_neg) / (dfp * n_pos), np.inf)
        else:
            dx, dy = np.diff(hx), np.diff(hy)
            seg = np.where(dx > 0, dy / dx, np.inf)
    real = upper < n
    hull_thresholds = np.where(upper == n, np.inf, -np.inf)
    hull_models = np.full(upper.size, "", dtype=object)
    if thresholds is not None:
        hull_thresholds[real] = np.asarray(thresholds, dtype=np.float64).ravel()[upper[real]]
    else:
        hull_thresholds[real] = np.nan
    if isinstance(models, str):
        hull_models[real] = models
    elif models is not None:
        hull_models[real] = np.asarray(models, dtype=object).ravel()[upper[real]]
    return RocHull(
        fpr=hx,
        tpr=hy,
        thresholds=hull_thresholds,
        models=hull_models,
        slope_high=np.concatenate(([np.inf], seg)),
        slope_low=np.concatenate((seg, [0.0])),
    )


def convex_hull(curve, *, model: str = "") -> RocHull:
    """ROC convex hull of one curve (any object with ``fpr``, ``tpr`` and ``thresholds``).

    Fawcett (2004) section 7.1: only the hull's vertices are potentially optimal operating
    points of the classifier, whatever the costs and class distribution. A
    :class:`~roc_dash.core.roc.curves.RocCurve` carries its totals ``n_neg``/``n_pos``, so the hull
    of unweighted (or integer-weighted) data is exact: no collinear vertex, exact segment
    slopes (see :func:`hull_of_points`).
    """
    return hull_of_points(curve.fpr, curve.tpr, thresholds=getattr(curve, "thresholds", None),
                          models=model or None, totals=_totals([curve]))


def _totals(curves) -> tuple[float, float] | None:
    """``(N, P)`` shared by all the curves, or ``None`` (unknown or different)."""
    found = {(getattr(c, "n_neg", None), getattr(c, "n_pos", None)) for c in curves}
    if len(found) != 1:
        return None
    n_neg, n_pos = found.pop()
    return None if n_neg is None or n_pos is None else (float(n_neg), float(n_pos))
