"""Confidence regions of the chosen points on the ROC.

A light filled rectangle ``[FPR low, FPR high] × [TPR low, TPR high]`` around the optimum
and each pin, from their bootstrap intervals
(:class:`~roc_dash.core.decisions.point_intervals.PointUncertainty`). Each side is a marginal
percentile interval: the rectangle shows where the point moves from resample to resample, it
is not a joint confidence region of a stated level. The traces are plain dicts with stable
uids (``point-region-`` + the point's label) so that the page can replace them in a drawn
figure without redrawing it.
"""

from __future__ import annotations

import math

from ..text.rounding import sig
from .style import OPTIMUM_COLOR, PIN_COLORS, plain, rgba

__all__ = ["REGION_UID", "point_region_traces"]

#: Prefix of the regions' trace uids (+ "optimum" or the pin's letter).
REGION_UID = "point-region-"


def point_region_traces(points) -> list[dict]:
    """Scatter traces (dicts) of the rectangles of ``points``, ``[(label, model, u)]`` with
    ``label`` ``""`` for the optimum or a pin's letter and ``u`` a
    :class:`~roc_dash.core.decisions.point_intervals.PointUncertainty`; points whose FPR or TPR
    interval is undefined are left out."""
    traces = []
    for label, model, u in points:
        f, t = u.fpr, u.tpr
        limits = (f.low, f.high, t.low, t.high)
        if not all(math.isfinite(v) for v in limits):
            continue
        color = PIN_COLORS.get(label, PIN_COLORS[""]) if label else OPTIMUM_COLOR
        name = f"pin {label}" if label else "optimum"
        # no hover or click of its own: the curves and points under it keep theirs (the
        # numbers are in the operating card)
        # a short name (legends, presentation mode); what the box is in its meta
        text = f"{name} intervals"
        meta = (f"{plain(model)}, {name}: {u.level:.0%} intervals, "
                f"FPR {sig(f.low)}–{sig(f.high)}, TPR {sig(t.low)}–{sig(t.high)}")
        traces.append({
            "type": "scatter", "uid": REGION_UID + (label or "optimum"),
            "x": [f.low, f.high, f.high, f.low, f.low],
            "y": [t.low, t.low, t.high, t.high, t.low],
            "mode": "lines", "fill": "toself", "fillcolor": rgba(color, 0.10),
            "line": {"color": rgba(color, 0.55), "width": 1, "dash": "dot"},
            "name": text, "meta": meta, "showlegend": False, "hoverinfo": "skip",
        })
    return traces
