"""One model's ROC curve per group, each group's optimum and its operating point under a
fairness constraint (:mod:`roc_dash.core.subgroups.slices`, :mod:`roc_dash.core.subgroups.group_thresholds`).

Per group, in its own colour: the ROC curve (thin), its convex hull (dotted), the group's own
optimum under the costs and its prior (an open circle) and, when a constraint is chosen, the
group's operating point under it (a filled diamond; a point under the hull is reached by
randomising, Hardt, Price & Srebro 2016). The diagonal is chance.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ..core.roc.curve_geometry import display_indices
from ..core.subgroups.group_thresholds import ConstrainedSolution
from ..core.subgroups.slices import SliceAnalysis
from ..text.rounding import HOVER as NUM
from ..text.rounding import sig
from .style import (
    MAX_VERTICES,
    REFERENCE_COLOR,
    base_layout_dict,
    color,
    fast_figure,
    format_threshold,
    model_style,
    plain,
    set_subtitle,
)

__all__ = ["slices_figure", "CONSTRAINT_NAMES", "drag_handles", "HANDLE_RADIUS", "ring_path"]

#: How each constraint of :data:`~roc_dash.core.subgroups.group_thresholds.CONSTRAINTS` is named.
CONSTRAINT_NAMES = {
    "single_threshold": "one threshold for all",
    "group_optima": "each group its own optimum",
    "equal_opportunity": "equal opportunity (equal TPR)",
    "equalized_odds": "equalized odds (equal TPR and FPR)",
    "demographic_parity": "demographic parity (equal share flagged)",
}


def _group_traces(index: int, roc, optimum) -> list[dict]:
    name = plain(roc.name)
    col = color(index)
    small = " (small)" if roc.small else ""
    c = roc.curve
    keep = display_indices(c.fpr, c.tpr, max_points=MAX_VERTICES)  # what the eye can see
    traces = [{
        # numpy arrays, not lists: plotly copies a figure's data once more (a deepcopy of
        # each trace), which for arrays is one memory copy instead of one call per point
        "type": "scatter", "x": c.fpr[keep], "y": c.tpr[keep],
        "name": f"{name}{small} (AUC {sig(roc.auc)})", "legendgroup": name,
        **model_style(index, width=2),
        # the threshold as text (format_threshold): a +inf sent as null would read "≥ 0"
        "text": np.array([format_threshold(t) for t in c.thresholds[keep].tolist()]),
        "meta": f"<b>{name}</b>",
        "hovertemplate": (f"%{{meta}}<br>threshold ≥ %{{text}}<br>FPR %{{x:{NUM}}}"
                          f"<br>TPR %{{y:{NUM}}}<extra></extra>"),
    }, {
        "type": "scatter", "x": roc.hull.fpr, "y": roc.hull.tpr, "mode": "lines",
        "name": f"{name} hull", "legendgroup": name, "showlegend": False,
        "line": {"color": col, "width": 1, "dash": "dot"}, "hoverinfo": "skip",
    }]
    if optimum is not None:
        o = optimum.optimum
        traces.append({
            "type": "scatter", "x": [o.fpr], "y": [o.tpr], "mode": "markers",
            "name": f"{name} optimum", "legendgroup": name, "showlegend": False,
            "marker": {"symbol": "circle-open", "size": 13, "color": col,
                       "line": {"width": 2.5, "color": col}},
            "hovertemplate": (f"<b>{name}</b>: its own optimum<br>threshold ≥ "
                              f"{format_threshold(o.threshold)}<br>FPR %{{x:{NUM}}}<br>"
                              f"TPR %{{y:{NUM}}}<extra></extra>"),
        })
    return traces


def _rule_threshold(rule) -> str:
    """The rule's threshold, or the two it mixes (a randomised rule has no single one)."""
    up, lo = format_threshold(rule.threshold_upper), format_threshold(rule.threshold_lower)
    if rule.threshold_upper == rule.threshold_lower and rule.randomised_share == 0:
        return f"threshold ≥ {up}"
    return f"no single threshold: mixes ≥ {up} and ≥ {lo}"


def _rule_trace(index: int, rule, constraint: str) -> dict:
    name = plain(rule.group)
    chance = (f"<br>{rule.randomised_share:.1%} of its cases decided at random"
              if rule.randomised_share > 0 else "")
    return {
        "type": "scatter", "x": [rule.fpr], "y": [rule.tpr], "mode": "markers",
        "name": f"{name} under {CONSTRAINT_NAMES[constraint]}", "legendgroup": name,
        "showlegend": False,
        "marker": {"symbol": "diamond", "size": 12, "color": color(index),
                   "line": {"width": 1.5, "color": "white"}},
        "hovertemplate": (f"<b>{name}</b> under {CONSTRAINT_NAMES[constraint]}<br>"
                          f"{_rule_threshold(rule)}<br>"
                          f"FPR %{{x:{NUM}}}<br>TPR %{{y:{NUM}}}<br>flagged "
                          f"{rule.flagged:.1%}{chance}<extra></extra>"),
    }


def slices_figure(analysis: SliceAnalysis, solution: ConstrainedSolution | None = None, *,
                  model: str = "", font_size: int = 14) -> go.Figure:
    """The per-group ROC figure of one model; ``solution`` adds each group's operating point
    under a constraint (a diamond), the groups' own optima are open circles. Curves of more
    than :data:`~.style.MAX_VERTICES` points are thinned for display
    (:func:`~roc_dash.core.roc.curve_geometry.display_indices`); the hulls are drawn whole."""
    optima = {o.name: o for o in analysis.optima}
    data: list[dict] = [{
        "type": "scatter", "x": [0, 1], "y": [0, 1], "mode": "lines", "name": "chance",
        "line": {"color": REFERENCE_COLOR, "dash": "dash", "width": 1}, "hoverinfo": "skip",
        "showlegend": False,
    }]
    order = {}
    for i, roc in enumerate(r for r in analysis.rocs if r.curve is not None):
        order[roc.name] = i
        data.extend(_group_traces(i, roc, optima.get(roc.name)))
    if solution is not None:
        data.extend(_rule_trace(order[r.group], r, solution.constraint)
                    for r in solution.rules if r.group in order)
    fig = fast_figure(data, base_layout_dict(
        x_title="False positive rate (within the group)",
        y_title="True positive rate (within the group)", font_size=font_size))
    text = (f"{plain(model)}: ○ each group's own optimum"
            + ("; ◆ under the constraint" if solution is not None else ""))
    return set_subtitle(fig, text, font_size)


#: Radius of a group's drag handle, in rates (the axes span [0, 1]).
HANDLE_RADIUS = 0.03


def drag_handles(analysis: SliceAnalysis, solution: ConstrainedSolution) -> list[dict]:
    """``layout.shapes`` for :func:`slices_figure`: a ring in the group's colour around each
    group's operating point under ``solution``, named after the group. With the graph's
    ``edits.shapePosition`` on, a ring can be dragged (its group's point moved by hand)."""
    order = [r.name for r in analysis.rocs if r.curve is not None]
    shapes = []
    for rule in solution.rules:
        if rule.group not in order:
            continue
        shapes.append({
            # a path, not a "circle": plotly moves a path shape wherever it is grabbed (its
            # outline too), where a circle grabbed by its outline is resized
            "type": "path", "path": ring_path(rule.fpr, rule.tpr), "xref": "x", "yref": "y",
            "name": rule.group,
            "line": {"color": color(order.index(rule.group)), "width": 1.5},
            "fillcolor": "rgba(255, 255, 255, 0.05)", "layer": "above"})
    return shapes


#: A quarter circle as a cubic Bézier: its control points at this fraction of the radius.
_KAPPA = 0.5522847498


def ring_path(x: float, y: float, r: float = HANDLE_RADIUS) -> str:
    """An SVG path of the circle of radius ``r`` (data units) centred on ``(x, y)``: four
    cubic Bézier quarters from its east point, anticlockwise. Its bounding box (every
    coordinate in it) is ``[x - r, x + r] × [y - r, y + r]``, so the centre of a moved ring
    is the middle of its coordinates' ranges (``assets/roc_dash.js`` slicesDrag)."""
    k = _KAPPA * r

    def p(a: float, b: float) -> str:
        return f"{float(a)!r},{float(b)!r}"

    return (f"M{p(x + r, y)}"
            f"C{p(x + r, y + k)} {p(x + k, y + r)} {p(x, y + r)}"
            f"C{p(x - k, y + r)} {p(x - r, y + k)} {p(x - r, y)}"
            f"C{p(x - r, y - k)} {p(x - k, y - r)} {p(x, y - r)}"
            f"C{p(x + k, y - r)} {p(x + r, y - k)} {p(x + r, y)}Z")
