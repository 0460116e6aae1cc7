"""The threshold view after a change of costs or prior, as a patch of the figure drawn.

The threshold view (:func:`roc_dash.figures.threshold.threshold_figure`) of one model is
redrawn on every change of costs or prior, yet most of it does not depend on them: the
drawn vertices (the cost line's ``customdata``: threshold, FPR, TPR), the TPR and FPR
lines, the axes' layout and the template. When the figure drawn shows the same model on the
same axis with the same vertices (:func:`threshold_record`, kept in the viz-data store),
:func:`threshold_patch` sends only what moved: the expected cost line, the precision and
share-flagged lines when the prior changed (and every x on the share-flagged axis), the
model's optimum, the flat band, the cost axis and the title's note. The patched figure is
the figure :func:`threshold_figure` draws (``tests/unit/app/test_cost_change.py`` applies the
patch and compares).
"""

from __future__ import annotations

import hashlib

import numpy as np
from dash import Patch

from ..core.analysis_types import Analysis
from ..core.decisions.economics import Economics
from ..figures.style import sendable
from ..figures.threshold import threshold_parts

__all__ = ["threshold_record", "threshold_patch", "patch_regions", "regions_drawn"]

#: The rate lines that depend on the prior (precision, share flagged): traces 3 and 4.
_PRIOR_LINES = (3, 4)
#: Layout entries that depend on the costs or the prior (each sent whole: they are small).
_LAYOUT_KEYS = ("shapes", "yaxis", "meta", "title")


def _vertices_key(traces: list[dict]) -> str:
    """A digest of the drawn vertices (the cost line's customdata rows)."""
    rows = np.ascontiguousarray(traces[0]["customdata"], dtype=np.float64)
    return hashlib.blake2b(rows.tobytes(), digest_size=8).hexdigest()


def threshold_record(fig, prior: float, drawn: dict | None = None) -> dict | None:
    """What the viz-data store keeps of the threshold view shown: its model, axis, number of
    traces, vertices and prior; None for a view that cannot be patched (no model, pins).
    ``fig`` may be the patch of ``drawn``: then only the prior is new."""
    if isinstance(fig, Patch):
        return {**drawn, "prior": prior} if isinstance(drawn, dict) else None
    meta = fig.layout.meta if isinstance(fig.layout.meta, dict) else {}
    if "model" not in meta or len(fig.layout.shapes) > 1 or len(fig.data) < 5:
        return None  # an empty view, or pins drawn on it (lines beyond the flat band)
    rows = fig.data[0].customdata
    traces = [{"customdata": rows}]
    return {"model": meta["model"], "axis": meta.get("axis"), "traces": len(fig.data),
            "vertices": _vertices_key(traces), "prior": prior}


def threshold_patch(analysis: Analysis, model: str, economics: Economics, drawn, *,
                    axis: str = "threshold", font: int = 14) -> Patch | None:
    """The patch turning the drawn threshold view (``drawn``: its :func:`threshold_record`)
    into this model's view under the analysis' conditions, or None when it must be drawn
    anew (another model, axis, set of vertices or optimum trace)."""
    if not (isinstance(drawn, dict) and drawn.get("model") == model
            and drawn.get("axis") == axis and model in {m.name for m in analysis.models}):
        return None
    traces, layout = threshold_parts(analysis, model, economics, axis=axis, font_size=font)
    if len(traces) != drawn.get("traces") or _vertices_key(traces) != drawn.get("vertices"):
        return None
    prior_moved = drawn.get("prior") != analysis.conditions.prior_pos
    patch = Patch()
    for k, trace in enumerate(traces):
        keys = (["name", "y"] if k == 0 else ["y"] if prior_moved and k in _PRIOR_LINES
                else ["x", "y", "customdata", "text"] if k >= 5 else [])
        if prior_moved and axis != "threshold" and k < 5:
            keys.append("x")  # the share flagged at each vertex depends on the prior
        values = sendable({key: trace[key] for key in keys})
        for key in keys:
            patch["data"][k][key] = values[key]
    values = sendable({key: layout[key] for key in _LAYOUT_KEYS})
    for key in _LAYOUT_KEYS:
        patch["layout"][key] = values[key]
    return patch


def regions_drawn(traces: list[dict]) -> list:
    """What the viz-data store keeps of the interval boxes drawn in the ROC view (their uids
    and corners), so that the intervals callback, arriving after the views with the same
    boxes, does not redraw the ROC view for nothing."""
    return [[t["uid"], list(t["x"]), list(t["y"])] for t in traces]


def patch_regions(roc: Patch, traces: list[dict], viz: dict) -> list | None:
    """Put the optimum's interval box (``traces``: none or one, no pins) into the ROC patch
    of a change of costs or prior, in the slot after the traces rendered (``viz["roc_traces"]``,
    where the intervals callback's boxes go when there is no pin), so the ROC view is redrawn
    once; an empty box of the same uid when there is none. Returns :func:`regions_drawn`, or
    None when the slot is unknown (nothing patched)."""
    from ..figures.point_regions import REGION_UID

    slot = viz.get("roc_traces") if isinstance(viz, dict) else None
    if not isinstance(slot, int) or len(traces) > 1:
        return None
    floor = viz.get("xlog")
    box = dict(traces[0]) if traces else {"type": "scatter", "uid": REGION_UID + "optimum",
                                          "x": [], "y": [], "mode": "lines",
                                          "showlegend": False, "hoverinfo": "skip"}
    if isinstance(floor, int | float):  # a log FPR axis: FPR = 0 at its floor (roc_axes)
        box["x"] = [max(v, floor) for v in box["x"]]
    roc["data"][slot] = box
    return regions_drawn(traces)
