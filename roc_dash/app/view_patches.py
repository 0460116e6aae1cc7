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

__all__ = ["threshold_record", "threshold_patch", "patch_regions", "regions_drawn", "mark_indices",
           "marks_known", "patch_roc", "patch_pr_star", "patch_cost", "figure_parts",
           "changed_parts"]

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


def regions_drawn(shapes: list[dict]) -> list:
    """What the viz-data store keeps of the interval boxes drawn in the ROC view (their names
    and corners), so that the intervals callback, arriving after the views with the same
    boxes, does not redraw the ROC view for nothing."""
    return [[s["name"], [s["x0"], s["x1"]], [s["y0"], s["y1"]]] for s in shapes]


def patch_regions(roc: Patch, shapes: list[dict], viz: dict) -> list | None:
    """Put the optimum's interval box (``shapes``: none or one, no pins; layout shapes,
    :mod:`..figures.point_regions`) into the ROC patch of a change of costs or prior, in the
    slot after the shapes rendered (``viz["roc_shapes"]``, where the intervals callback's
    boxes go), so the ROC view is redrawn once and only its layout changes (``data`` is not
    touched: plotly recomputes no trace); a hidden box of the same name when there is none;
    nothing when the box drawn (``viz["regions"]``) is the same. Returns
    :func:`regions_drawn`, or None when the slot is unknown (nothing patched)."""
    from ..figures.point_regions import REGION_UID

    slot = viz.get("roc_shapes") if isinstance(viz, dict) else None
    if not isinstance(slot, int) or len(shapes) > 1:
        return None
    if viz.get("regions") == regions_drawn(shapes):
        return viz["regions"]
    floor = viz.get("xlog")
    box = (dict(shapes[0]) if shapes
           else {"type": "rect", "name": REGION_UID + "optimum", "visible": False,
                 "xref": "x", "yref": "y", "x0": 0, "x1": 0, "y0": 0, "y1": 0,
                 "layer": "between"})
    if isinstance(floor, int | float):  # a log FPR axis: FPR = 0 at its floor (roc_axes)
        box["x0"], box["x1"] = max(box["x0"], floor), max(box["x1"], floor)
    roc["layout"]["shapes"][slot] = box
    return regions_drawn(shapes)


# ------------------------------------------- the marks a change of costs or prior moves -------
def mark_indices(figures) -> dict:
    """What the viz-data store keeps to move the optimum's marks of the ROC, PR and cost
    views (``figures``): per view the index of its star annotation (``optimum_note``,
    :mod:`..figures.marks`) or, in the views that draw it as a trace (DET, PRG, decision
    curve), of that trace (``optimum_trace``); the ROC's ring annotation (``ring_note``)."""
    from ..figures.marks import RING_NOTE, STAR_NOTE, note_index
    from ..figures.roc import OPTIMUM_UID

    return {
        "optimum_trace": [next((k for k, t in enumerate(f.data) if t.uid == OPTIMUM_UID),
                               None) for f in figures],
        "optimum_note": [note_index(f.layout.annotations, STAR_NOTE) for f in figures],
        "ring_note": (note_index(figures[0].layout.annotations, RING_NOTE)
                      if figures else None),
    }


def marks_known(viz: dict, det: bool) -> bool:
    """Whether the viz-data store says where each view's star is (and the ROC's ring on ROC
    axes), so that a change of costs or prior can be patched."""
    traces, notes = viz.get("optimum_trace"), viz.get("optimum_note")
    if not (isinstance(traces, list) and isinstance(notes, list)
            and len(traces) == len(notes) == 3):
        return False
    if not all(isinstance(t, int) or isinstance(n, int) for t, n in zip(traces, notes,
                                                                          strict=True)):
        return False
    return det or isinstance(viz.get("ring_note"), int)


def _patch_trace(patch, index: int, marker: dict) -> None:
    """Patch the optimum's marker trace ``index`` (DET, PRG, decision curve)."""
    from ..figures.style import customdata_rows

    for k, v in marker.items():
        patch["data"][index][k] = customdata_rows(v) if k == "customdata" else list(v)


def patch_roc(analysis: Analysis, viz: dict, *, det: bool, title: str):
    """The ROC view's patch for new conditions: the optimum's star, and on ROC axes the
    iso line and the ring around the optimal vertex (annotations and a shape: layout only);
    the iso curve (trace ``viz["iso_trace"]``) of a log FPR (floor ``viz["xlog"]``) or DET
    view, and the star trace of a DET view."""
    import uuid

    from ..figures.marks import move_note, note_x
    from ..figures.roc import iso_shapes, optimum_marker, roc_star

    roc = Patch()
    opt = analysis.optimal
    iso, xlog = viz.get("iso_trace"), viz.get("xlog")
    if det:
        _patch_trace(roc, viz["optimum_trace"][0], optimum_marker(analysis, det=True))
    else:
        x = note_x(opt.fpr, xlog)
        move_note(roc, viz["optimum_note"][0], x, opt.tpr, hovertext=roc_star(analysis)[2])
        move_note(roc, viz["ring_note"], x, opt.tpr)
    if isinstance(iso, int):
        _patch_iso(roc, analysis, iso, det=det, xlog=xlog)
    elif not det:
        line, _ = iso_shapes(analysis)
        for k, v in line.items():
            roc["layout"]["shapes"][0][k] = v
    roc["layout"]["meta"]["slope"] = analysis.conditions.slope
    roc["layout"]["meta"]["conditions"] = title
    roc["layout"]["editrevision"] = uuid.uuid4().hex[:8]
    return roc


def _patch_iso(roc, analysis: Analysis, iso: int, *, det: bool, xlog) -> None:
    """Patch the iso curve of a log FPR (FPR = 0 at the floor ``xlog``) or DET view for new
    conditions (see :mod:`..figures.roc_axes`)."""
    from ..figures.roc_axes import det_iso_trace, iso_trace

    curve = det_iso_trace(analysis) if det else iso_trace(analysis, x_min=float(xlog))
    roc["data"][iso]["x"] = curve["x"]
    roc["data"][iso]["y"] = curve["y"]


def patch_pr_star(analysis: Analysis, viz: dict, *, pr_mode: str, title: str):
    """The PR (or PRG) view's patch for new costs at the same prior: its star."""
    from ..figures.marks import move_note
    from ..figures.precision_recall import optimum_marker, pr_star

    pr = Patch()
    note = viz["optimum_note"][1]
    if isinstance(note, int) and pr_mode != "prg":
        x, y, text = pr_star(analysis)
        move_note(pr, note, x, y, hovertext=text)
    else:
        _patch_trace(pr, viz["optimum_trace"][1], optimum_marker(analysis, mode=pr_mode))
    pr["layout"]["meta"]["conditions"] = title
    return pr


def patch_cost(analysis: Analysis, viz: dict, *, title: str):
    """The cost view's patch for new conditions: the read-off line, star and box."""
    from ..figures.cost import cost_read_off, optimum_text, star_hover
    from ..figures.marks import move_note

    cost = Patch()
    read = cost_read_off(analysis)
    cost["layout"]["shapes"][0]["x0"] = read["x"]
    cost["layout"]["shapes"][0]["x1"] = read["x"]
    note = viz["optimum_note"][2]
    if isinstance(note, int):
        move_note(cost, note, read["x"], read["y"], hovertext=star_hover(analysis, read["y"]))
    else:  # a decision curve drawn before (its star a trace), redrawn whole after this
        index = viz["optimum_trace"][2]
        cost["data"][index]["x"] = [read["x"]]
        cost["data"][index]["y"] = [read["y"]]
        cost["data"][index]["text"] = [optimum_text(analysis)]
    for k, v in read.items():
        cost["layout"]["annotations"][1][k] = v
    cost["layout"]["meta"]["pc_pos"] = read["x"]
    cost["layout"]["meta"]["cost"] = read["y"]
    cost["layout"]["meta"]["conditions"] = title
    return cost


# ------------------------------------------- a view drawn anew, sent as what changed ---------
#: Layout entries sent on every such patch: a cost change's patch (the star, ``meta``) or the
#: page (the hover mark, ``annotations[0]``) may have changed them since they were recorded.
_ALWAYS_SENT = ("annotations", "meta")


def _digest(value) -> str:
    from dash._utils import to_json

    return hashlib.blake2b(to_json(value).encode(), digest_size=6).hexdigest()


def figure_parts(fig) -> dict:
    """What the viz-data store keeps of a figure drawn whole (the PR view), so that the
    same view drawn anew for another prior can be sent as the parts that changed
    (:func:`changed_parts`): a digest of each trace's and the layout's top-level values as
    sent. ``fig`` may be given as its ``to_dict()`` (made once for both functions)."""
    d = fig if isinstance(fig, dict) else fig.to_dict()
    return {"data": [{k: _digest(v) for k, v in t.items()} for t in d["data"]],
            "layout": {k: _digest(v) for k, v in d["layout"].items()}}


def changed_parts(fig, drawn, parts: dict):
    """``fig`` (a view drawn anew, ``parts`` its :func:`figure_parts`) as a patch of the one
    drawn (``drawn``: its parts as recorded): only the trace values and layout entries whose
    digest differs, and :data:`_ALWAYS_SENT`. The prior moves a PR curve's precisions but
    not its recalls, the iso-F1 curves, the axes or the template: a prior change sends ~20 %
    of the figure, and plotly keeps what it decoded of the rest (``plotly_keep.js``). None
    (send ``fig`` whole) when nothing is recorded or the traces or their keys differ."""
    if not (isinstance(drawn, dict) and isinstance(drawn.get("data"), list)
            and isinstance(drawn.get("layout"), dict)
            and len(drawn["data"]) == len(parts["data"])
            and all(isinstance(a, dict) and a.keys() == b.keys()
                    for a, b in zip(drawn["data"], parts["data"], strict=True))
            and drawn["layout"].keys() == parts["layout"].keys()):
        return None
    d = fig if isinstance(fig, dict) else fig.to_dict()
    patch = Patch()
    for k, (old, new) in enumerate(zip(drawn["data"], parts["data"], strict=True)):
        for key, digest in new.items():
            if old[key] != digest:
                patch["data"][k][key] = d["data"][k][key]
    for key, digest in parts["layout"].items():
        if key in _ALWAYS_SENT or drawn["layout"][key] != digest:
            patch["layout"][key] = d["layout"][key]
    return patch
