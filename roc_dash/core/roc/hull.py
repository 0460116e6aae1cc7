"""The ROC convex hull (ROCCH) and iso-performance lines.

Implements Fawcett (2004) section 7.1 and the journal version (2006) section 6,
and Flach et al., "Decision support for data mining:
an introduction to ROC analysis and its applications" (2003) section 3:

* a classifier is potentially optimal if and only if it lies on the convex hull of the set of
  points in ROC space; the hull's vertices are the only operating points worth keeping;
* operating conditions become an iso-performance line of slope
  ``m = c(FP)·p(−) / (c(FN)·p(+))``; the optimal classifier is where the most north-west line
  of that slope touches the hull;
* each hull vertex is optimal over a range of slopes, between the slopes of its two hull
  segments, equivalently over a range of ``PC(+) = 1 / (1 + m)`` (Drummond & Holte).

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, section 7.1 (The ROC convex hull).

T. Fawcett, "An introduction to ROC analysis", Pattern Recognition Letters 27(8):861-874, 2006,
section 6.

P. Flach, H. Blockeel, C. Ferri, J. Hernández-Orallo, J. Struyf, "Decision support for data
mining: an introduction to ROC analysis and its applications", chapter 7 of D. Mladenić, N.
Lavrač, M. Bohanec, S. Moyle (eds.), "Data Mining and Decision Support: Integration and
Collaboration", Kluwer Academic Publishers, 2003, section 3.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ._exact_paths import above_sample_hull
from .curve_geometry import _cross, whole_counts
from .iso_performance import (  # noqa: F401 - re-exported
    _check_conditions,
    iso_performance_slope,
    pc_pos,
    pc_pos_from_slope,
    slope_from_pc_pos,
)

__all__ = [
    "RocHull", "HullOptimum", "convex_hull", "hull_of_points", "hull_of_curves",
    "iso_performance_slope", "pc_pos", "pc_pos_from_slope", "slope_from_pc_pos",
    "interpolate_on_segment", "model_slope_ranges", "vertex_models", "optimal_point",
    "optimal_vertex", "iso_gaps", "expected_cost", "normalized_expected_cost",
]

#: Relative tolerance of a tie on the iso line (see :func:`iso_gaps`).
TIE_RTOL = 2.0 ** -44


@dataclass(frozen=True, eq=False)
class RocHull:
    """Vertices of a ROC convex hull, from (0, 0) to (1, 1), slopes non-increasing.

    Attributes
    ----------
    fpr, tpr : ndarray of float64
        The hull vertices.
    thresholds : ndarray of float64
        Score threshold of the classifier at each vertex ("positive iff score >= t";
        ``+inf`` for the all-negative classifier, ``-inf`` for an added all-positive one,
        NaN for points given without thresholds).
    models : ndarray of object (str)
        Which model each vertex comes from ("" when the points carry no model).
    slope_high, slope_low : ndarray of float64
        Vertex ``k`` is optimal for every iso-performance slope ``m`` with
        ``slope_low[k] <= m <= slope_high[k]``: the slopes of the hull segments arriving at
        and leaving the vertex (``+inf`` above the first vertex, ``0`` below the last).
    """

    fpr: np.ndarray
    tpr: np.ndarray
    thresholds: np.ndarray
    models: np.ndarray
    slope_high: np.ndarray
    slope_low: np.ndarray

    def __len__(self) -> int:
        return int(self.fpr.size)

    @property
    def segment_slopes(self) -> np.ndarray:
        """Slope of each hull segment, left to right (non-increasing; ``inf`` if vertical)."""
        return self.slope_high[1:]

    @property
    def pc_pos_low(self) -> np.ndarray:
        """Lower end of the PC(+) range over which each vertex is optimal."""
        return pc_pos_from_slope(self.slope_high)

    @property
    def pc_pos_high(self) -> np.ndarray:
        """Upper end of the PC(+) range over which each vertex is optimal."""
        return pc_pos_from_slope(self.slope_low)


@dataclass(frozen=True)
class HullOptimum:
    """The hull vertex an iso-performance line of a given slope touches.

    When a hull segment has that slope (a tie on the iso line, see :func:`optimal_point`),
    every point of the segment is optimal: ``on_segment`` is True, ``index``/``index_end``
    are its two ends and ``fpr_end``, ``tpr_end``, ``threshold_end``, ``model_end`` describe
    the other end. The reported point (``index``, ``fpr``, ``tpr``, ``threshold``,
    ``model``) is always the segment's conservative (left, fewer cases flagged) end, and
    ``weight = 0`` is its interpolation weight (Fawcett 2004, section 7.4.1: use the
    classifier at ``index_end`` on a random fraction ``weight`` of the instances and the one
    at ``index`` on the rest). Off a segment the ``*_end`` attributes are ``None``.
    """

    slope: float
    index: int
    fpr: float
    tpr: float
    threshold: float
    model: str
    on_segment: bool = False
    index_end: int | None = None
    weight: float = 0.0
    fpr_end: float | None = None
    tpr_end: float | None = None
    threshold_end: float | None = None
    model_end: str | None = None


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
            tol = 2.0 * self.rtol * (self.sy * float(_largest(dx)) + self.sx * float(_largest(dy)))
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


#: ``a.max()`` without its Python wrapper (the peeling calls it on small arrays, pass after
#: pass).
_largest = np.maximum.reduce

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
        # the steps by slices, not np.diff: a pass is a dozen numpy calls on arrays that
        # shrink to a few hundred points, where each call's own cost is what counts
        dx, dy = xs[1:] - xs[:-1], ys[1:] - ys[:-1]
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
    """Indices of a ROC chain's upper-hull candidates (:func:`_blockwise_candidates`).

    Long chains are first thinned to the points not certainly below the hull of a sample of
    them (:func:`~roc_dash.core.roc._exact_paths.above_sample_hull`).
    """
    if x.size >= _SAMPLED_CHAIN:
        rows = above_sample_hull(x, y, _hull_of_sample)
        if rows.size <= x.size // 2:
            return rows[_chain_candidates(x[rows], y[rows])]
    return _blockwise_candidates(x, y)


def _blockwise_candidates(x: np.ndarray, y: np.ndarray) -> np.ndarray:
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


#: Chains of at least this many points are thinned by
#: :func:`~roc_dash.core.roc._exact_paths.above_sample_hull` first.
_SAMPLED_CHAIN = 1 << 17


def _hull_of_sample(sx: np.ndarray, sy: np.ndarray) -> np.ndarray:
    """Indices of a polyline close under the upper hull of a sampled chain (its vertices
    are sampled points): what :func:`_chain_candidates` keeps, peeled once more."""
    top = _chain_candidates(sx, sy)
    return top[_upper_hull(sx[top], sy[top], _CHAIN_FILTER)]


def _is_roc_chain(x: np.ndarray, y: np.ndarray) -> bool:
    """True when the points already run from (0, 0) with FPR and TPR non-decreasing."""
    if x.size == 0 or x[0] != 0 or y[0] != 0:
        return False
    rises = np.empty(min(x.size, _BLOCK), dtype=bool)  # block by block: cache-sized
    for a in range(0, x.size - 1, _BLOCK):
        b = min(a + _BLOCK, x.size - 1)
        for v in (x, y):
            if not np.greater_equal(v[a + 1:b + 1], v[a:b], out=rises[:b - a]).all():
                return False
    return True


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


def hull_of_points(fpr, tpr, *, thresholds=None, models=None, totals=None,
                   _chain: bool = False) -> RocHull:
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
    _chain : bool
        Private: the points are known to run from (0, 0) with both rates non-decreasing
        (a curve as :func:`~roc_dash.core.roc.curves.roc_curve` made it), so that is not
        checked again.
    """
    x = np.asarray(fpr, dtype=np.float64).ravel()
    y = np.asarray(tpr, dtype=np.float64).ravel()
    if x.shape != y.shape:
        raise ValueError("fpr and tpr differ in length")
    n = x.size
    chain = (_chain and n > 0) or _is_roc_chain(x, y)
    if n:
        if chain:  # from (0, 0), non-decreasing (so no NaN): the last point is the largest
            lo, hi = 0.0, max(x[-1], y[-1])
        else:
            lo, hi = min(x.min(), y.min()), max(x.max(), y.max())
        if not (np.isfinite(lo) and np.isfinite(hi)):
            raise ValueError("ROC points must be finite")
        if lo < 0 or hi > 1:
            raise ValueError("ROC points must lie in the unit square")

    # Index n is the all-negative classifier (0, 0), n + 1 the all-positive one (1, 1).
    if chain:
        top, origin = _ending_at_one(x, y, _chain_candidates(x, y)), 0
    else:
        top, origin = _unordered_candidates(x, y)
    return _hull_of_candidates(x, y, top, origin, totals=totals, thresholds=thresholds,
                               models=models)


def _coords(x: np.ndarray, y: np.ndarray, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Coordinates of point indices, the trivial classifiers included (index ``x.size`` is
    (0, 0), ``x.size + 1`` is (1, 1))."""
    n = x.size
    cx, cy = np.empty(idx.size), np.empty(idx.size)
    real = idx < n
    cx[real], cy[real] = x[idx[real]], y[idx[real]]
    cx[~real] = cy[~real] = idx[~real] == n + 1
    return cx, cy


def _ending_at_one(x: np.ndarray, y: np.ndarray, top: np.ndarray) -> np.ndarray:
    """A chain's candidates ending at (1, 1): the all-positive classifier (index
    ``x.size + 1``) replaces a last candidate at FPR 1 below it, or follows the last one."""
    if not (x[top[-1]] == 1 and y[top[-1]] == 1):
        top = np.append(top[:-1] if x[top[-1]] == 1 else top, x.size + 1)
    return top


def _unordered_candidates(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, int]:
    """Upper-hull candidates of points in any order and the index of their origin.

    Sort by fpr ascending, tpr descending, original order as the last key (stable); the
    trivial classifiers come last among equals, so real points win ties. The highest TPR of
    each FPR then goes through a floating-point filter before the final pass.
    """
    ext_x = np.concatenate((x, [0.0, 1.0]))
    ext_y = np.concatenate((y, [0.0, 1.0]))
    order = np.lexsort((-ext_y, ext_x))
    xs = ext_x[order]
    first = np.ones(xs.size, dtype=bool)
    first[1:] = xs[1:] != xs[:-1]  # the highest TPR of each FPR
    top = order[first]
    origin = int(order[(xs == 0) & (ext_y[order] == 0)][0])
    return top[_upper_hull(*_coords(x, y, top))], origin


def _hull_of_candidates(x, y, top, origin, *, totals, thresholds, models) -> RocHull:
    """The :class:`RocHull` of the candidate indices ``top`` (by FPR), by the final pass.

    See :func:`hull_of_points` for the exact and the tolerant orientation tests; ``origin``
    is the index of the point (0, 0), added below a vertical first segment.
    """
    n = x.size
    fx, fy, orient = _final_coordinates(*_coords(x, y, top), totals)
    kept = _upper_hull(fx, fy, orient)
    upper = top[kept]
    fx, fy = fx[kept], fy[kept]
    # The hull starts at the origin: add it below a vertical first segment.
    if _coords(x, y, upper[:1])[1][0] > 0:
        upper = np.concatenate(([origin], upper))
        fx, fy = np.concatenate(([0], fx)), np.concatenate(([0], fy))
    hx, hy = _coords(x, y, upper)
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
                          models=model or None, totals=_totals([curve]),
                          _chain=getattr(curve, "_rising", False))


def _totals(curves) -> tuple[float, float] | None:
    """``(N, P)`` shared by all the curves, or ``None`` (unknown or different)."""
    found = {(getattr(c, "n_neg", None), getattr(c, "n_pos", None)) for c in curves}
    if len(found) != 1:
        return None
    n_neg, n_pos = found.pop()
    return None if n_neg is None or n_pos is None else (float(n_neg), float(n_pos))


def hull_of_curves(curves: Mapping[str, object]) -> RocHull:
    """ROC convex hull across several models; each vertex knows its model and threshold.

    Fawcett (2006) section 6, figure 7a: classifiers below the joint hull (B and D there) are
    never optimal under any conditions and can be discarded. When every curve has the same
    totals ``n_neg``/``n_pos`` (models scored on the same rows) the hull is exact (see
    :func:`hull_of_points`); otherwise collinearity is decided with a small tolerance.
    """
    if not curves:
        return hull_of_points([], [])
    names = list(curves)
    fpr = np.concatenate([np.asarray(curves[n].fpr) for n in names])
    tpr = np.concatenate([np.asarray(curves[n].tpr) for n in names])
    thr = np.concatenate([np.asarray(getattr(curves[n], "thresholds",
                                             np.full(np.size(curves[n].fpr), np.nan)))
                          for n in names])
    models = np.concatenate([np.full(np.size(curves[n].fpr), n, dtype=object) for n in names])
    return hull_of_points(fpr, tpr, thresholds=thr, models=models,
                          totals=_totals(curves.values()))


def iso_gaps(hull: RocHull, slope: float) -> tuple[np.ndarray, np.ndarray]:
    """How far each hull segment rises above the iso line of ``slope`` through its left end,
    and the tolerance within which that counts as zero (a tie).

    For segment ``k`` from vertex ``k`` to ``k + 1``, with ``m = slope``:

    * ``m <= 1``: ``gap = (tpr[k+1] - tpr[k]) - m * (fpr[k+1] - fpr[k])`` and
      ``tol = TIE_RTOL * ((tpr[k] + tpr[k+1]) + m * (fpr[k] + fpr[k+1]))``;
    * ``m > 1`` (divided by ``m``, so nothing overflows, and ``m = inf`` works):
      ``gap = (tpr[k+1] - tpr[k]) / m - (fpr[k+1] - fpr[k])`` and
      ``tol = TIE_RTOL * ((tpr[k] + tpr[k+1]) / m + (fpr[k] + fpr[k+1]))``.

    The tolerance is relative to the magnitudes of the terms, far above the rounding of the
    rates and of a slope computed from costs and a prior (a few units in the last place),
    far below the gap of any segment of real data that is not a tie.
    """
    f, t = hull.fpr, hull.tpr
    m = float(slope)
    if m <= 1.0:
        gap = (t[1:] - t[:-1]) - m * (f[1:] - f[:-1])
        tol = TIE_RTOL * ((t[:-1] + t[1:]) + m * (f[:-1] + f[1:]))
    else:
        gap = (t[1:] - t[:-1]) / m - (f[1:] - f[:-1])
        tol = TIE_RTOL * ((t[:-1] + t[1:]) / m + (f[:-1] + f[1:]))
    return gap, tol


def optimal_point(hull: RocHull, slope: float) -> HullOptimum:
    """The hull vertex where the most north-west iso-performance line of ``slope`` touches.

    It maximises ``TPR − m·FPR`` over the hull (Fawcett 2004 section 7.1; Flach et al.
    section 3: "slide this line in the north-west direction until it touches the hull").

    The rule, ties included: walking the hull from (0, 0), the optimum is the first vertex
    ``k`` whose outgoing segment does not rise above the iso line through ``k``
    (``gap[k] <= tol[k]``, see :func:`iso_gaps`; the last vertex if there is none). If that
    segment lies on the iso line (``gap[k] >= -tol[k]``, a segment of exactly the slope), the
    whole segment is optimal: ``on_segment`` is True and both ends are reported, the point
    itself being the conservative (left, fewer cases flagged) end and the ``*_end``
    attributes the other (see :class:`HullOptimum`). The hull of a
    :class:`~roc_dash.core.roc.curves.RocCurve` is exact (no collinear vertices), so with the
    data's prevalence as prior and unit costs (``m = N/P``) a segment is reported as a tie
    exactly when its count steps are equal (``ΔTP == ΔFP``), whatever the rounding of ``m``.
    """
    if not slope >= 0:
        raise ValueError("the iso-performance slope must be non-negative")
    last = len(hull) - 1
    gap, tol = iso_gaps(hull, slope)
    below = np.flatnonzero(gap <= tol)
    k = int(below[0]) if below.size else last
    on_segment = bool(k < last and gap[k] >= -tol[k])
    end = k + 1 if on_segment else None
    return HullOptimum(
        slope=float(slope),
        index=k,
        fpr=float(hull.fpr[k]),
        tpr=float(hull.tpr[k]),
        threshold=float(hull.thresholds[k]),
        model=str(hull.models[k]),
        on_segment=on_segment,
        index_end=end,
        weight=0.0,
        fpr_end=None if end is None else float(hull.fpr[end]),
        tpr_end=None if end is None else float(hull.tpr[end]),
        threshold_end=None if end is None else float(hull.thresholds[end]),
        model_end=None if end is None else str(hull.models[end]),
    )


def optimal_vertex(curve, slope: float, *, hull: RocHull | None = None) -> int:
    """Index, among the vertices of ``curve``, of its optimal operating point under ``slope``.

    The one tie rule of roc-dash: the vertex is the one :func:`optimal_point` picks on the
    curve's convex hull (Fawcett 2004 section 7.1: the minimum of a linear cost over a curve's
    vertices lies at a hull vertex), so when several thresholds cost the same (a hull
    segment of exactly the iso slope, or a vertex lying on such a segment) it is the
    conservative one, flagging the fewest cases, whatever the rounding of the costs. Every
    view that names a model's optimum (summary, ROC, operating point, threshold view,
    report) therefore names the same threshold; an ``argmin`` of rounded costs did not (it
    could pick a vertex in the middle of a tie).

    Parameters
    ----------
    curve : RocCurve
        Any object with ``fpr``, ``tpr`` (and ``thresholds``), ordered from (0, 0).
    slope : float
        The iso-performance slope (:func:`iso_performance_slope`; with benefits, of the net
        costs).
    hull : RocHull, optional
        ``convex_hull(curve)`` when it is at hand (saves computing it again).
    """
    h = convex_hull(curve) if hull is None else hull
    opt = optimal_point(h, slope)
    f = np.asarray(curve.fpr, dtype=np.float64)
    t = np.asarray(curve.tpr, dtype=np.float64)
    hit = np.flatnonzero((f == opt.fpr) & (t == opt.tpr))
    if hit.size:
        return int(hit[0])
    # a trivial classifier the hull added (the curve lacks (0, 0) or (1, 1)): the nearest
    # vertex of the curve
    return int(np.argmin(np.abs(f - opt.fpr) + np.abs(t - opt.tpr)))


def interpolate_on_segment(hull: RocHull, index: int, weight: float) -> tuple[float, float]:
    """ROC point of the mix "classifier ``index+1`` on a fraction ``weight``, else ``index``".

    Fawcett (2004) section 7.4.1: randomly combining two classifiers' decisions yields any
    point on the segment joining them.
    """
    if not 0.0 <= weight <= 1.0:
        raise ValueError("weight must lie in [0, 1]")
    a, b = index, index + 1
    return (float(hull.fpr[a] + weight * (hull.fpr[b] - hull.fpr[a])),
            float(hull.tpr[a] + weight * (hull.tpr[b] - hull.tpr[a])))


def expected_cost(fpr, tpr, *, cost_fp: float = 1.0, cost_fn: float = 1.0,
                  prior_pos: float = 0.5):
    """Expected cost per instance ``p(+)·(1−TPR)·c(FN) + p(−)·FPR·c(FP)``."""
    _check_conditions(cost_fp, cost_fn, prior_pos)
    f, t = np.asarray(fpr, dtype=np.float64), np.asarray(tpr, dtype=np.float64)
    out = prior_pos * (1.0 - t) * cost_fn + (1.0 - prior_pos) * f * cost_fp
    return float(out) if out.ndim == 0 else out


def normalized_expected_cost(fpr, tpr, *, cost_fp: float = 1.0, cost_fn: float = 1.0,
                             prior_pos: float = 0.5):
    """Expected cost divided by its maximum ``p(+)c(FN) + p(−)c(FP)``.

    Equals Drummond & Holte's ``(1 − TPR)·PC(+) + FPR·(1 − PC(+))``, the height of the
    classifier's line in cost space (Fawcett 2004 section 7.5.2).
    """
    pc = pc_pos(cost_fp, cost_fn, prior_pos)
    f, t = np.asarray(fpr, dtype=np.float64), np.asarray(tpr, dtype=np.float64)
    out = (1.0 - t) * pc + f * (1.0 - pc)
    return float(out) if out.ndim == 0 else out


def vertex_models(hull: RocHull, curves: Mapping[str, object]) -> list[tuple[str, ...]]:
    """Per vertex of a joint hull, every model whose ROC curve passes through it: its own
    model, and any other whose curve has the very same point (``fpr`` and ``tpr`` equal), as
    a monotone recalibration of a model has (the same ROC curve, Fawcett 2004, section
    4: a ROC curve depends on the scores' order only). The trivial vertices hold no model.
    Models in the order of ``curves``."""
    names = [str(n) for n in curves]
    keys = np.asarray(hull.fpr, dtype=np.float64) + 1j * np.asarray(hull.tpr, np.float64)
    trivial = ((hull.fpr == 0) & (hull.tpr == 0)) | ((hull.fpr == 1) & (hull.tpr == 1))
    hits = []
    for name in names:
        c = curves[name]
        points = np.asarray(c.fpr, dtype=np.float64) + 1j * np.asarray(c.tpr, np.float64)
        hits.append(np.isin(keys, points))
    out = []
    for k in range(len(hull)):
        own = str(hull.models[k])
        if trivial[k] or not own:
            out.append(())
            continue
        out.append(tuple(n for n, hit in zip(names, hits, strict=True)
                         if n == own or hit[k]))
    return out


def model_slope_ranges(hull: RocHull, touching=None) -> dict[str, list[tuple[float, float]]]:
    """For each model on a joint hull, the iso-performance slope intervals over which one of
    its vertices is optimal (adjacent intervals merged). The trivial vertices (0, 0) and
    (1, 1) belong to no model. Models absent from the dict never own part of the hull: under
    no costs and class mix are they the best choice.

    ``touching`` (e.g. :func:`vertex_models`) gives per vertex the models counted as on it;
    by default the vertex's own model. With it, a model whose curve passes through another
    model's vertex (a tie: the same point) is optimal there too.
    """
    if touching is None:
        touching = [(str(m),) if str(m) else () for m in hull.models]
    ranges: dict[str, list[tuple[float, float]]] = {}
    rows = zip(touching, hull.fpr, hull.tpr, hull.slope_low, hull.slope_high, strict=True)
    for names, f, t, lo, hi in rows:
        trivial = (f == 0 and t == 0) or (f == 1 and t == 1)  # always negative / positive
        if trivial or hi <= lo:
            continue
        for name in names:
            spans = ranges.setdefault(name, [])
            if spans and np.isclose(spans[-1][0], hi):
                spans[-1] = (float(lo), spans[-1][1])
            else:
                spans.append((float(lo), float(hi)))
    return ranges
