"""Cost curves (Drummond & Holte 2000, 2006), the point-line dual of ROC space.

Fawcett (2004) section 7.5.2: the x axis is the probability-cost
``PC(+) = p(+)c(FN) / (p(+)c(FN) + p(−)c(FP))``, the y axis the normalised expected cost. A
ROC point (FPR, TPR) becomes the line ``NEC(PC) = (1 − TPR)·PC + FPR·(1 − PC)``; the convex
hull in ROC space becomes the lower envelope in cost space.

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, section 7.5.2 (Cost curves).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .hull import RocHull, hull_of_points, pc_pos_from_slope

__all__ = ["CostLines", "LowerEnvelope", "cost_lines", "lower_envelope", "envelope_cost_at",
           "TRIVIAL_CLASSIFIERS"]

#: The two trivial classifiers as ROC points: always negative (0, 0), always positive (1, 1).
TRIVIAL_CLASSIFIERS = {"always negative": (0.0, 0.0), "always positive": (1.0, 1.0)}


@dataclass(frozen=True, eq=False)
class CostLines:
    """One line per ROC point: ``NEC(PC) = intercept + slope·PC``.

    ``intercept = FPR`` (the cost at PC(+) = 0) and ``end = 1 − TPR`` (the cost at PC(+) = 1).
    """

    fpr: np.ndarray
    tpr: np.ndarray
    thresholds: np.ndarray

    @property
    def start(self) -> np.ndarray:
        """Normalised expected cost at PC(+) = 0, i.e. FPR."""
        return self.fpr

    @property
    def end(self) -> np.ndarray:
        """Normalised expected cost at PC(+) = 1, i.e. 1 − TPR."""
        return 1.0 - self.tpr

    def at(self, pc) -> np.ndarray:
        """Cost of every line at ``pc`` (scalar) or on a grid (array: lines × grid)."""
        p = np.asarray(pc, dtype=np.float64)
        return np.multiply.outer(self.end, p) + np.multiply.outer(self.fpr, 1.0 - p)


@dataclass(frozen=True, eq=False)
class LowerEnvelope:
    """The lower envelope of cost lines: piecewise linear through ``(pc_pos, cost)``.

    Between consecutive breakpoints the envelope is the line of one hull vertex,
    ``vertex_index[k]`` (an index into ``hull``), which is optimal for PC(+) in
    ``[pc_pos[k], pc_pos[k+1]]``.
    """

    pc_pos: np.ndarray
    cost: np.ndarray
    vertex_index: np.ndarray
    hull: RocHull

    @property
    def area(self) -> float:
        """Area under the envelope: the expected normalised cost when PC(+) is uniform."""
        return float(np.dot(np.diff(self.pc_pos), self.cost[1:] + self.cost[:-1]) / 2.0)


def cost_lines(curve) -> CostLines:
    """Cost-space lines of every vertex of a ROC curve (or any object with fpr/tpr)."""
    thresholds = getattr(curve, "thresholds", np.full(np.size(curve.fpr), np.nan))
    return CostLines(fpr=np.asarray(curve.fpr, dtype=np.float64),
                     tpr=np.asarray(curve.tpr, dtype=np.float64),
                     thresholds=np.asarray(thresholds, dtype=np.float64))


def lower_envelope(hull_or_curve) -> LowerEnvelope:
    """Lower envelope of the cost lines, the dual of the ROC convex hull.

    The hull vertex ``k`` is optimal for slopes in ``[slope_low[k], slope_high[k]]``, so its
    line is the envelope for ``PC(+) = 1/(1 + m)`` over the matching interval; the breakpoints
    are the images of the hull's segment slopes. A curve that is not a hull is hulled first.
    """
    hull = hull_or_curve if isinstance(hull_or_curve, RocHull) else hull_of_points(
        hull_or_curve.fpr, hull_or_curve.tpr,
        thresholds=getattr(hull_or_curve, "thresholds", None))
    # PC ranges: vertex k owns [pc(slope_high[k]), pc(slope_low[k])], increasing in k.
    lo = pc_pos_from_slope(hull.slope_high)
    hi = pc_pos_from_slope(hull.slope_low)
    owns = hi > lo  # vertices owning a range of positive width
    idx = np.flatnonzero(owns)
    breaks = np.concatenate((lo[idx], [1.0]))
    # The envelope's value at each breakpoint: the owning vertex's line there.
    vertex = np.concatenate((idx, [idx[-1]]))
    cost = (1.0 - hull.tpr[vertex]) * breaks + hull.fpr[vertex] * (1.0 - breaks)
    return LowerEnvelope(pc_pos=breaks, cost=cost, vertex_index=idx, hull=hull)


def envelope_cost_at(envelope: LowerEnvelope, pc) -> np.ndarray | float:
    """Normalised expected cost of the optimal classifier at ``PC(+) = pc``."""
    out = np.interp(pc, envelope.pc_pos, envelope.cost)
    return float(out) if np.ndim(out) == 0 else out
