"""Confidence regions of the chosen points on the ROC.

A light filled rectangle ``[FPR low, FPR high] × [TPR low, TPR high]`` around the optimum
and each pin, from their bootstrap intervals
(:class:`~roc_dash.core.decisions.point_intervals.PointUncertainty`). Each side is a marginal
percentile interval: the rectangle shows where the point moves from resample to resample, it
is not a joint confidence region of a stated level. The rectangles are layout shapes (plain
dicts, ``type: "rect"`` in data coordinates), not traces: a box that moves with a change of
costs or prior is then a layout-only change of the drawn figure (a trace sent anew, even
equal, makes plotly recompute every trace of the view). They lie in the ``"between"`` layer
(above the grid, below the traces); the ROC's ``edits.shapePosition`` (the iso line's drag)
would make them draggable whatever their layer, so the page's CSS lets the pointer through
them (``assets/style.css``). Their ``name`` is
``point-region-`` + the point's label, by which the page replaces them in a drawn figure.
"""

from __future__ import annotations

import math

from .style import OPTIMUM_COLOR, PIN_COLORS, rgba

__all__ = ["REGION_UID", "point_region_shapes"]

#: Prefix of the regions' shape names (+ "optimum" or the pin's letter).
REGION_UID = "point-region-"


def point_region_shapes(points) -> list[dict]:
    """Layout shapes (dicts) of the rectangles of ``points``, ``[(label, model, u)]`` with
    ``label`` ``""`` for the optimum or a pin's letter and ``u`` a
    :class:`~roc_dash.core.decisions.point_intervals.PointUncertainty`; points whose FPR or TPR
    interval is undefined are left out. On a log FPR axis the page clips ``x0``/``x1`` at the
    axis's floor (shape x positions are data values there too)."""
    shapes = []
    for label, _model, u in points:
        f, t = u.fpr, u.tpr
        limits = (f.low, f.high, t.low, t.high)
        if not all(math.isfinite(v) for v in limits):
            continue
        color = PIN_COLORS.get(label, PIN_COLORS[""]) if label else OPTIMUM_COLOR
        # no hover or click of its own (a shape has none): the curves and points over it
        # keep theirs; the numbers are in the operating card
        shapes.append({
            "type": "rect", "name": REGION_UID + (label or "optimum"),
            "xref": "x", "yref": "y", "x0": f.low, "x1": f.high, "y0": t.low, "y1": t.high,
            "fillcolor": rgba(color, 0.10),
            "line": {"color": rgba(color, 0.55), "width": 1, "dash": "dot"},
            "layer": "between",
        })
    return shapes
