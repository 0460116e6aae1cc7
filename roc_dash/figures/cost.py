"""Cost-curve view (Drummond & Holte; Fawcett 2004 section 7.5.2).

x: probability-cost PC(+); y: normalised expected cost. Each model's lower envelope (the dual
of its ROC convex hull), the joint envelope, the two trivial classifiers and, as
``layout.shapes[0]``, the vertical marker at the current PC(+) with the cost read off in
``layout.annotations[1]``. ``layout.annotations[0]`` marks a point hovered in another view and
``layout.shapes[1]`` draws that point's cost line; ``layout.annotations[2]`` is the optimum's
star (:mod:`.marks`).
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ..core.analysis_types import Analysis
from ..core.decisions.operating import OperatingSummary
from ..core.roc.cost_curves import envelope_cost_at, lower_envelope
from ..text.rounding import HOVER as NUM
from ..text.rounding import sig
from .marks import star_key, star_note
from .roc import model_index
from .style import (
    FAST,
    HULL_COLOR,
    ISO_COLOR,
    PIN_COLORS,
    PINNED_COLOR,
    REFERENCE_COLOR,
    base_layout_dict,
    fast_figure,
    format_threshold,
    hover_annotation,
    model_style,
    pin_list,
    pin_trace,
    plain,
    point_data,
    style_index,
)

__all__ = ["cost_figure"]


def _envelope_trace(analysis, name, env, style, *, label):
    hull = env.hull
    owners = np.concatenate((env.vertex_index, [env.vertex_index[-1]]))
    names = [str(m) or name for m in hull.models[owners]]
    data, text = point_data([model_index(analysis, n) for n in names], names,
                            hull.thresholds[owners], hull.fpr[owners], hull.tpr[owners])
    return {"type": "scatter", "x": env.pc_pos, "y": env.cost, "mode": "lines+markers",
            "name": label, "line": style.get("line", style),
            "marker": style.get("marker", {"size": 4}), "customdata": data,
            "text": text,
            "hovertemplate": (f"%{{text}}<br>PC(+) %{{x:{NUM}}}<br>normalised cost %{{y:{NUM}}}"
                              "<extra></extra>")}


def optimum_text(analysis: Analysis) -> str:
    """The optimum marker's hover text: the model and its threshold."""
    opt = analysis.optimal
    return (f"optimum: <b>{plain(opt.model or 'trivial')}</b><br>threshold ≥ "
            f"{format_threshold(opt.threshold)}")


def star_hover(analysis: Analysis, cost: float) -> str:
    """The optimum star's hover text: the model, its threshold and the cost there."""
    return f"{optimum_text(analysis)}<br>normalised cost {sig(cost)}"


def read_off_offset(pc: float, cost: float) -> tuple[int, int]:
    """Where the read-off box sits relative to the optimum it points at (``ax``, ``ay`` in
    px): below it, where no curve is (nothing lies under the joint lower envelope) and no pin
    is (pins at PC(+) cost at least the optimum, so they sit above it); beside it, far from
    the PC(+) line, when the optimum is too near the bottom. Towards the middle of the plot.
    assets/roc_dash.js ``readOffOffset`` mirrors it for slider drags."""
    side = 1 if pc <= 0.7 else -1
    return (side * 60, 50) if cost >= 0.15 else (side * 115, -22)


def cost_read_off(analysis: Analysis) -> dict:
    """Where the current PC(+) meets the joint lower envelope: the read-off annotation's
    ``x``, ``y``, ``text`` (the optimum's normalised expected cost) and offset."""
    pc = analysis.conditions.pc_pos
    cost = float(envelope_cost_at(lower_envelope(analysis.hull), pc))
    ax, ay = read_off_offset(pc, cost)
    return {"x": pc, "y": cost, "text": f"PC(+) = {sig(pc)}<br>cost {sig(cost)}", "ax": ax,
            "ay": ay}


def cost_figure(analysis: Analysis, *, operating: OperatingSummary | None = None,
                font_size: int = 14, colors: dict[str, int] | None = None,
                pins=None) -> go.Figure:
    """The cost view, built as plain dicts and wrapped once (:func:`~.style.fast_figure`)."""
    pc = analysis.conditions.pc_pos
    data = [
        {"type": "scatter", "x": [0, 1], "y": [0, 1], "mode": "lines", "name": "always negative",
         "line": {"color": REFERENCE_COLOR, "dash": "dot", "width": 1.5},
         "hovertemplate": (f"always negative: threshold +∞ (nothing flagged)<br>"
                           f"PC(+) %{{x:{NUM}}}<br>normalised cost %{{y:{NUM}}}<extra></extra>")},
        {"type": "scatter", "x": [0, 1], "y": [1, 0], "mode": "lines", "name": "always positive",
         "line": {"color": REFERENCE_COLOR, "dash": "dash", "width": 1.5},
         "hovertemplate": (f"always positive: threshold −∞ (everything flagged)<br>"
                           f"PC(+) %{{x:{NUM}}}<br>normalised cost %{{y:{NUM}}}<extra></extra>")}]
    for i, m in enumerate(analysis.models):
        data.append(_envelope_trace(analysis, m.name, lower_envelope(m.hull),
                                    model_style(style_index(colors, m.name, i)),
                                    label=f"{plain(m.name)} lower envelope"))
    joint = lower_envelope(analysis.hull)
    cost_here = cost_read_off(analysis)["y"]
    if analysis.models:
        data.append(_envelope_trace(analysis, "trivial", joint,
                                    {"color": HULL_COLOR, "width": 3, "dash": "solid"},
                                    label=f"best of all (area {sig(joint.area)})"))
    shapes = [
        {"type": "line", "x0": pc, "x1": pc, "y0": 0, "y1": 1,
         "line": {"color": ISO_COLOR, "width": 2}, "name": "current PC(+)"},
        {"type": "line", "x0": 0, "y0": 0, "x1": 1, "y1": 0, "visible": False,
         "line": {"color": "#333", "width": 1.5, "dash": "dot"}, "name": "hovered line"}]
    # the star is an annotation (figures.marks), the legend's entry a trace without points
    data.append(star_key(name="optimum at PC(+)", size=14, color=ISO_COLOR))
    layout = base_layout_dict(x_title="Probability cost PC(+)",
                              y_title="Normalised expected cost", font_size=font_size,
                              square=False, y_range=(-0.01, 0.6))
    read = {**cost_read_off(analysis), "showarrow": True, "arrowhead": 2,
            "bgcolor": "white", "bordercolor": ISO_COLOR, "font": {"color": ISO_COLOR},
            "name": "read-off"}
    star = star_note(pc, cost_here, star_hover(analysis, cost_here), size=14,
                     color=ISO_COLOR)
    layout.update(shapes=shapes, annotations=[hover_annotation(), read, star],
                  meta={"pc_pos": pc, "cost": cost_here})
    fig = fast_figure(data, layout)
    for op in pin_list(operating, pins):
        c = PIN_COLORS.get(op.label, PINNED_COLOR)
        y_here = op.fpr + (1 - op.tpr - op.fpr) * pc
        fig.add_trace(go.Scatter(
            **FAST, x=[0, 1], y=[op.fpr, 1 - op.tpr], mode="lines",
            name=f"pinned {plain(op.label)}: cost line", line={"color": c, "width": 2.5},
            legendgroup=f"pin {op.label}",
            hovertemplate=(f"pinned {plain(op.label)}: {plain(op.model)}, threshold ≥ "
                           f"{format_threshold(op.threshold)}<br>PC(+) %{{x:{NUM}}}<br>"
                           f"normalised cost %{{y:{NUM}}}<extra></extra>")))
        fig.add_trace(pin_trace(pc, y_here, op, font_size=font_size))
        fig.data[-1].showlegend = False
    return fig
