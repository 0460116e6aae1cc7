"""Geometry on a computed ROC curve: its tie bounds (optimistic and pessimistic staircases),
whole counts from rates, collinear points removed without changing the curve, the DET view,
and the points worth drawing.

Split from :mod:`.curves` (which builds the curve); Fawcett (2004), sections 4-5
for ties and the staircase.

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, sections 4-5.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .curves import RocCurve

__all__ = ["RocBounds", "DetCurve", "tie_bounds", "whole_counts", "reduce_collinear", "det_curve",
           "display_indices"]


@dataclass(frozen=True, eq=False)
class RocBounds:
    """Optimistic and pessimistic step curves around the expected curve (Fawcett fig. 6).

    In a run of tied scores the instances may come in any order; the optimistic curve
    takes the run's positives first (up, then right), the pessimistic curve its negatives
    first (right, then up). The expected curve (:func:`roc_curve`) is their average, the
    diagonal of each run's rectangle.
    """

    optimistic_fpr: np.ndarray
    optimistic_tpr: np.ndarray
    pessimistic_fpr: np.ndarray
    pessimistic_tpr: np.ndarray

    @property
    def optimistic_auc(self) -> float:
        return float(np.dot(np.diff(self.optimistic_fpr),
                            self.optimistic_tpr[1:] + self.optimistic_tpr[:-1]) / 2.0)

    @property
    def pessimistic_auc(self) -> float:
        return float(np.dot(np.diff(self.pessimistic_fpr),
                            self.pessimistic_tpr[1:] + self.pessimistic_tpr[:-1]) / 2.0)


def tie_bounds(curve: RocCurve) -> RocBounds:
    """Optimistic and pessimistic bounds of a curve's tied runs (Fawcett 2004, section 4.1).

    Every segment of the expected curve that moves both right and up is a run of tied
    scores; it is replaced by its upper-left (optimistic: the run's positives first) or
    lower-right (pessimistic: its negatives first) L. Segments that move only up or only
    right are kept as they are, so a curve without ties is its own bound on both sides. The
    bounds are the staircases of the rows sorted by score with ties broken by the label
    (positives first, or negatives first), reduced to their corners: the points where the
    staircase turns, plus (0, 0) and (1, 1). Their areas bracket the AUC:
    ``pessimistic_auc <= auc(curve) <= optimistic_auc``, equal to it when there are no ties.
    """
    f, t = curve.fpr, curve.tpr
    # Interleave a corner point before every vertex after the origin.
    n = f.size
    of = np.empty(2 * n - 1)
    ot = np.empty(2 * n - 1)
    pf = np.empty(2 * n - 1)
    pt = np.empty(2 * n - 1)
    of[0::2], ot[0::2], pf[0::2], pt[0::2] = f, t, f, t
    of[1::2], ot[1::2] = f[:-1], t[1:]  # up first
    pf[1::2], pt[1::2] = f[1:], t[:-1]  # right first
    return RocBounds(*_staircase_corners(of, ot), *_staircase_corners(pf, pt))


def _staircase_corners(x: np.ndarray, y: np.ndarray):
    """The corners of a monotone staircase (every step vertical, horizontal or empty).

    Repeated points are dropped first; of what is left, a point is a corner unless the steps
    arriving and leaving are both vertical or both horizontal. Exact: only equality tests
    on the given coordinates, no arithmetic.
    """
    idx = np.flatnonzero(_distinct_runs(x, y))
    if idx.size > 2:
        xs, ys = x[idx], y[idx]
        vertical = xs[1:] == xs[:-1]
        horizontal = ys[1:] == ys[:-1]
        straight = (vertical[:-1] & vertical[1:]) | (horizontal[:-1] & horizontal[1:])
        idx = np.concatenate((idx[:1], idx[1:-1][~straight], idx[-1:]))
    return x[idx], y[idx]


def _distinct_runs(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Mask keeping one point of each run of equal consecutive points of a polyline.

    The first point of each run is kept, except in the last run, whose last point is kept:
    so the first and the last point of the polyline are always kept.
    """
    keep = np.ones(x.size, dtype=bool)
    if x.size > 1:
        same = x[1:] == x[:-1]
        same &= y[1:] == y[:-1]
        keep[1:] = ~same
        if same[-1]:  # the polyline ends on a repeated point: keep the last of that run
            start = int(np.flatnonzero(~same)[-1]) + 1 if not same.all() else 0
            keep[start] = start == 0
            keep[-1] = True
    return keep


# Counts are treated as whole numbers (and compared exactly as integers) when every one lies
# this close to an integer, relative to the total; beyond 2**40 rows they are not.
_WHOLE_RTOL = 2.0 ** -44


_WHOLE_MAX = 2.0 ** 40


def whole_counts(rates: np.ndarray, total: float) -> np.ndarray | None:
    """The counts ``rates * total`` rounded to whole numbers, when they are whole, else None.

    Rates of unweighted data (or integer weights) are ``count / total`` rounded once, so the
    product is within a few units in the last place of ``total`` of the integer count and
    rounding recovers it exactly. The result is a float64 array holding exact integers
    (at most ``2**40``), for :func:`_cross` with ``bound=total``.
    """
    total = float(total)
    if not (0 < total <= _WHOLE_MAX and total == np.floor(total)):
        return None
    c = np.multiply(rates, total)
    r = np.rint(c)
    c -= r
    if c.size and max(float(c.max()), -float(c.min())) > total * _WHOLE_RTOL:
        return None
    return r


def _cross(ax, ay, bx, by, bound: float | None = None) -> np.ndarray:
    """``ax*by - ay*bx`` elementwise.

    With ``bound``, the inputs are whole numbers of magnitude at most ``bound`` (< 2**53)
    and the result is exact in sign: plain floating point below ``2**26`` (every product is
    exact), ``int64`` below ``2**31``, otherwise floating point where its sign is certain
    and Python integers elsewhere. Without ``bound``: plain floating point.
    """
    if bound is None or bound < 2.0 ** 26:
        return ax * by - ay * bx
    if bound < 2.0 ** 31:  # products below 2**62: int64 is exact
        ax, ay, bx, by = (np.asarray(v).astype(np.int64) for v in (ax, ay, bx, by))
        return ax * by - ay * bx
    p, q = np.multiply(ax, by, dtype=np.float64), np.multiply(ay, bx, dtype=np.float64)
    out = np.sign(p - q)
    unsure = np.flatnonzero(np.abs(p - q) <= (np.abs(p) + np.abs(q)) * 2.0 ** -50)
    for i in unsure.tolist():
        v = int(ax[i]) * int(by[i]) - int(ay[i]) * int(bx[i])
        out[i] = (v > 0) - (v < 0)
    return out


def _non_collinear(x: np.ndarray, y: np.ndarray, bound: float | None = None) -> np.ndarray:
    """Mask of the vertices of a polyline worth keeping: the same picture, the same area.

    Repeated consecutive points are dropped first (:func:`_distinct_runs`); of the distinct
    points left, one lying on the straight segment between its neighbours (collinear with
    them and between them) is dropped. A point where the polyline turns back on itself
    (collinear but not between its neighbours, e.g. the tip of a spike of precision) is
    kept. The first and last points are always kept. With whole-number coordinates up to
    ``bound`` (counts) the test is exact; with other floats a point is dropped only when the
    floating-point cross product is exactly zero, so rounding can keep a redundant point but
    (short of underflow) never drop a corner.
    """
    keep = _distinct_runs(x, y)
    distinct = bool(keep.all())
    idx = None if distinct else np.flatnonzero(keep)
    size = x.size if distinct else idx.size
    if size > 2:
        xs, ys = (x, y) if distinct else (x[idx], y[idx])
        dx, dy = np.diff(xs), np.diff(ys)
        drop = _cross(dx[:-1], dy[:-1], dx[1:], dy[1:], bound) == 0
        if not ((dx >= 0).all() and (dy >= 0).all()):  # monotone: straight means forward
            dxf, dyf = dx.astype(np.float64, copy=False), dy.astype(np.float64, copy=False)
            drop &= (dxf[:-1] * dxf[1:] + dyf[:-1] * dyf[1:]) > 0
        if distinct:
            keep[1:-1] = ~drop
        else:
            keep[idx[1:-1][drop]] = False
    return keep


def _count_coordinates(curve: RocCurve):
    """``(FP, TP, bound)`` of a curve's vertices: whole counts with their bound when they are
    whole (exact tests), else the float counts and ``None``."""
    fp = whole_counts(curve.fpr, curve.n_neg)
    tp = whole_counts(curve.tpr, curve.n_pos) if fp is not None else None
    if tp is None:
        return curve.fp, curve.tp, None
    return fp, tp, max(curve.n_neg, curve.n_pos)


def reduce_collinear(curve: RocCurve) -> RocCurve:
    """Drop repeated vertices and the vertices lying on the straight segment of their
    neighbours.

    Lossless: the same picture and the same area (trapezoids over a straight segment add
    up, and a repeated vertex adds nothing). Repeated vertices come from scores carried only
    by zero-weight rows; of a run of them the first (highest threshold) is kept, except at
    the end of the curve, where the last is (the curve still ends at the smallest score).
    Collinearity is tested on the (weighted) counts ``FP`` and ``TP``: exactly, in integers,
    when they are whole numbers (unweighted data, integer weights), so no vertex is ever
    lost to rounding; otherwise a vertex is dropped only when the floating-point cross
    product is exactly zero. The thresholds of the kept vertices are kept.
    """
    keep = _non_collinear(*_count_coordinates(curve))
    return RocCurve(fpr=curve.fpr[keep], tpr=curve.tpr[keep], thresholds=curve.thresholds[keep],
                    n_pos=curve.n_pos, n_neg=curve.n_neg)


@dataclass(frozen=True, eq=False)
class DetCurve:
    """Detection error trade-off: FNR against FPR on normal-deviate axes (Martin et al. 1997).

    ``fpr``/``fnr`` are the rates; ``fpr_deviate``/``fnr_deviate`` their probits
    ``Φ⁻¹(rate)`` (±inf at 0 and 1). Only vertices with both rates strictly inside (0, 1)
    are finite on the plot.
    """

    fpr: np.ndarray
    fnr: np.ndarray
    thresholds: np.ndarray
    fpr_deviate: np.ndarray
    fnr_deviate: np.ndarray


def det_curve(curve: RocCurve) -> DetCurve:
    """DET points of a ROC curve (Fawcett 2004, section 7.5.1), FPR ascending.

    As in scikit-learn's ``det_curve``: the curve starts at the last vertex with no false
    positive and stops at the first vertex with no false negative, so it runs between the
    axes' ends without repeating them.
    """
    from scipy.special import ndtri

    first = int(np.searchsorted(curve.fpr, 0.0, side="right")) - 1
    last = int(np.searchsorted(curve.tpr, 1.0, side="left"))
    sl = slice(first, last + 1)
    f, fn = curve.fpr[sl], 1.0 - curve.tpr[sl]
    return DetCurve(fpr=f, fnr=fn, thresholds=curve.thresholds[sl],
                    fpr_deviate=ndtri(f), fnr_deviate=ndtri(fn))


def display_indices(x, y, *, max_points: int = 2000) -> np.ndarray:
    """Indices of a polyline's vertices worth drawing: at most ``max_points``.

    First the lossless reduction (drop repeated vertices, then vertices on the segment of their
    neighbours; see :func:`_non_collinear`). If more
    remain, the plane is cut into cells of side ``1/k`` (``k = max_points // 4`` for a
    monotone curve such as ROC, smaller for a winding one such as precision until at most
    ``max_points`` remain) and only the first and last vertex of each run of vertices in the
    same cell are kept: the drawn line never strays more than one cell (about ``4/max_points``
    of the axis, under a pixel at ordinary sizes) from the true curve. The first and last
    vertices are always kept.
    """
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    idx = np.flatnonzero(_non_collinear(x, y))
    if idx.size <= max_points:
        return idx
    k = max(max_points // 4, 1)
    while True:
        kept = _first_and_last_per_cell(x[idx], y[idx], k)
        if kept.sum() <= max_points or k == 1:
            return idx[kept]
        k = max(int(k * 0.7), 1)  # a winding path (e.g. precision) crosses more cells


def _first_and_last_per_cell(x: np.ndarray, y: np.ndarray, k: int) -> np.ndarray:
    cell = np.floor(x * k).astype(np.int64) * (k + 1) + np.floor(y * k).astype(np.int64)
    boundary = np.zeros(x.size, dtype=bool)
    boundary[0] = boundary[-1] = True
    change = cell[1:] != cell[:-1]
    boundary[1:] |= change  # first of a run
    boundary[:-1] |= change  # last of a run
    return boundary
