"""Overlays of combined classifiers on the ROC view, and the relative superiority view.

Pure functions of :mod:`roc_dash.core.assembly.combining_views` results (Fawcett 2004 §7.4, §7.5.3).
The overlays add traces only (after every trace of :func:`.roc.roc_figure`), never shapes:
``layout.shapes[0]`` stays the draggable iso-performance line.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ..core.assembly.combining_overlays import CombiningOverlays
from ..core.assembly.combining_views import BudgetView, LogicalView, SuperiorityView
from ..core.combining.concavity_repair import ConcavityRepair
from ..core.combining.superiority import ratio_to_unit
from ..text.rounding import HOVER as NUM
from ..text.rounding import sig, signed
from .style import (
    FAST,
    LeanFigure,
    base_layout,
    color,
    format_threshold,
    plain,
    rgba,
    style_index,
)

__all__ = ["add_budget", "add_repair", "add_logical", "add_overlays", "superiority_figure",
           "BUDGET_COLOR", "AND_COLOR", "OR_COLOR"]

BUDGET_COLOR = "#4d6b00"  # dark olive: apart from the models, the pins and the iso line
AND_COLOR = "#1f4e99"
OR_COLOR = "#b35900"
A_COLOR, B_COLOR = "#0072B2", "#D55E00"


def add_budget(fig: go.Figure, view: BudgetView, *, font_size: int = 14) -> go.Figure:
    """The constraint line ``FPR·N(1−π) + TPR·Nπ = K``, the two hull vertices mixed and the
    achievable point C (Fawcett 2004 §7.4.1, figure 10)."""
    m = view.mix
    k_text = f"{view.budget:,.6g} of {view.n_total:,.6g} cases ({sig(view.percent)}%)"
    if view.line.fpr.size:
        fig.add_trace(go.Scatter(
            **FAST, x=view.line.fpr, y=view.line.tpr, mode="lines",
            name=f"budget: {k_text}", legendgroup="budget",
            line={"color": BUDGET_COLOR, "dash": "dashdot", "width": 2},
            hovertemplate=(f"budget constraint: {k_text}<br>no threshold: the points that "
                           f"act on K cases<br>FPR %{{x:{NUM}}}<br>TPR %{{y:{NUM}}}"
                           "<extra></extra>")))
    if (m.fpr_a, m.tpr_a) != (m.fpr_b, m.tpr_b):
        fig.add_trace(go.Scatter(
            **FAST, x=[m.fpr_a, m.fpr_b], y=[m.tpr_a, m.tpr_b], mode="markers",
            name="budget: hull vertices mixed", legendgroup="budget", showlegend=False,
            marker={"symbol": "diamond-open", "size": 12, "color": BUDGET_COLOR,
                    "line": {"width": 2, "color": BUDGET_COLOR}},
            text=[_vertex_text(m.model_a, m.threshold_a), _vertex_text(m.model_b, m.threshold_b)],
            hovertemplate=(f"mixed vertex: %{{text}}<br>FPR %{{x:{NUM}}}<br>TPR %{{y:{NUM}}}"
                           "<extra></extra>")))
    fig.add_trace(go.Scatter(
        **FAST, x=[m.fpr], y=[m.tpr], mode="markers+text", name="budget: achievable point",
        legendgroup="budget", text=["K"], textposition="bottom right",
        textfont={"size": font_size, "color": BUDGET_COLOR, "family": "Arial Black, sans-serif"},
        marker={"symbol": "diamond", "size": 13, "color": BUDGET_COLOR,
                "line": {"width": 1, "color": "white"}},
        hovertemplate=(f"achievable on the budget: k = {sig(m.k)}<br>{_mix_text(m)}<br>"
                       f"FPR %{{x:{NUM}}}<br>TPR %{{y:{NUM}}}<extra></extra>")))
    return fig


def _mix_text(m) -> str:
    """The thresholds the budget point C mixes (Fawcett 2004 §7.4.1): no single one."""
    a, b = _vertex_text(m.model_a, m.threshold_a), _vertex_text(m.model_b, m.threshold_b)
    if a == b or m.k in (0.0, 1.0):
        return b if m.k == 1.0 else a
    return (f"no single threshold: {a} on {sig(100 * (1 - m.k))}% of cases, "
            f"{b} on {sig(100 * m.k)}%")


def _vertex_text(model: str, threshold: float) -> str:
    if not model:
        return f"trivial classifier (threshold {format_threshold(threshold)})"
    return f"{plain(model)} at threshold ≥ {format_threshold(threshold)}"


def add_repair(fig: go.Figure, repair: ConcavityRepair, model: str, *, style: int = 0
               ) -> go.Figure:
    """Flach and Wu's repaired curve of one model and, per concavity, the deepest vertex B
    moved to B′ = A + C − B (Fawcett 2004 §7.4.2)."""
    c = color(style)
    r = repair.curve
    gain = float(np.sum(repair.area_gain)) / 2.0
    fig.add_trace(go.Scatter(
        **FAST, x=r.fpr, y=r.tpr, mode="lines", legendgroup="repair",
        name=(f"{plain(model)} repaired ({len(repair)} concavities, AUC +{sig(gain)})"
              if len(repair) else f"{plain(model)}: no concavity to repair"),
        line={"color": rgba(c, 0.45), "width": 4.5, "dash": "solid"},
        hovertemplate=(f"{plain(model)} repaired<br>no threshold: the repaired ranking "
                       "reorders the scores between A and C<br>"
                       f"FPR %{{x:{NUM}}}<br>TPR %{{y:{NUM}}}<extra></extra>")))
    if len(repair):
        # B -> B' arrows as line segments (None separates them) and the B' markers
        x = np.column_stack((repair.fpr_b, repair.fpr_repaired,
                             np.full(len(repair), np.nan))).ravel()
        y = np.column_stack((repair.tpr_b, repair.tpr_repaired,
                             np.full(len(repair), np.nan))).ravel()
        fig.add_trace(go.Scatter(
            **FAST, x=x, y=y, mode="lines", legendgroup="repair", showlegend=False,
            name="B to B′", line={"color": rgba(c, 0.6), "width": 1}, hoverinfo="skip"))
        text = [f"B′ = A + C − B, thresholds A ≥ {format_threshold(a)}, B ≥ {format_threshold(b)}, "
                f"C ≥ {format_threshold(cc)}"
                for a, b, cc in zip(repair.threshold_a, repair.threshold_b, repair.threshold_c,
                                    strict=True)]
        fig.add_trace(go.Scatter(
            **FAST, x=repair.fpr_repaired, y=repair.tpr_repaired, mode="markers",
            legendgroup="repair", name="B′ (repaired deepest points)",
            marker={"symbol": "triangle-up", "size": 11, "color": c,
                    "line": {"width": 1, "color": "white"}},
            text=text,
            hovertemplate=f"%{{text}}<br>FPR %{{x:{NUM}}}<br>TPR %{{y:{NUM}}}<extra></extra>"))
    return fig


def _rect(x0, x1, y0, y1):
    return [x0, x1, x1, x0, x0], [y0, y0, y1, y1, y0]


def add_logical(fig: go.Figure, view: LogicalView) -> go.Figure:
    """The AND and OR bounding rectangles, their positions under independence (crosses)
    and, when the rows allow, their actual positions (filled squares) (Fawcett 2004
    §7.4.3, figure 12)."""
    e = view.expected
    for op, col, lo, hi, fx, fy, ax, ay in (
            ("AND", AND_COLOR, (e.and_fpr_low, e.and_tpr_low), (e.and_fpr_high, e.and_tpr_high),
             e.and_fpr, e.and_tpr, view.actual and view.actual.and_fpr,
             view.actual and view.actual.and_tpr),
            ("OR", OR_COLOR, (e.or_fpr_low, e.or_tpr_low), (e.or_fpr_high, e.or_tpr_high),
             e.or_fpr, e.or_tpr, view.actual and view.actual.or_fpr,
             view.actual and view.actual.or_tpr)):
        x, y = _rect(lo[0], hi[0], lo[1], hi[1])
        pair = (f"{op} of {_vertex_text(view.first.model, view.first.threshold)} and "
                f"{_vertex_text(view.second.model, view.second.threshold)}")
        fig.add_trace(go.Scatter(
            **FAST, x=x, y=y, mode="lines", fill="toself", fillcolor=rgba(col, 0.10),
            line={"color": rgba(col, 0.8), "width": 1.2, "dash": "dot"},
            name=f"{op}: possible region", legendgroup=op,
            hovertemplate=(f"{op} lies in this rectangle whatever the dependence<br>"
                           f"{pair}<extra></extra>")))
        fig.add_trace(go.Scatter(
            **FAST, x=[fx], y=[fy], mode="markers", name=f"{op}: if independent",
            legendgroup=op, marker={"symbol": "x-thin-open", "size": 13, "color": col,
                                    "line": {"width": 2.5, "color": col}},
            hovertemplate=(f"{op} expected under independence<br>{pair}<br>"
                           f"FPR %{{x:{NUM}}}<br>TPR %{{y:{NUM}}}<extra></extra>")))
        if view.actual is not None:
            fig.add_trace(go.Scatter(
                **FAST, x=[ax], y=[ay], mode="markers+text", name=f"{op}: actual (rows)",
                legendgroup=op, text=[op], textposition="top left" if op == "AND"
                else "bottom right", textfont={"color": col, "size": 12},
                marker={"symbol": "square", "size": 10, "color": col,
                        "line": {"width": 1, "color": "white"}},
                hovertemplate=(f"{op} counted on the rows ({plain(view.paired_by)})<br>{pair}"
                               f"<br>FPR %{{x:{NUM}}}<br>TPR %{{y:{NUM}}}<extra></extra>")))
    return fig


RATIO_TICKS = (0.1, 0.25, 0.5, 1, 2, 4, 10)


def add_overlays(fig: go.Figure, overlays: CombiningOverlays, models: list[str], *,
                 colors=None, font_size: int = 14) -> go.Figure:
    """Draw the :class:`~roc_dash.core.assembly.combining_overlays.CombiningOverlays` that
    have a result (a sentence saying why there is none is for the card): the repaired
    curve (in its model's style; ``models`` are the shown names, ``colors`` as in
    :func:`.style.style_index`), then the AND / OR, then the budget."""
    if isinstance(overlays.repair, tuple):
        name, repair = overlays.repair
        add_repair(fig, repair, name, style=style_index(colors, name, models.index(name)))
    if isinstance(overlays.logic, LogicalView):
        add_logical(fig, overlays.logic)
    if isinstance(overlays.budget, BudgetView):
        add_budget(fig, overlays.budget, font_size=font_size)
    return fig


def superiority_figure(view: SuperiorityView, *, font_size: int = 14) -> go.Figure:
    """Relative superiority graph of models A and B over the mapped cost ratio
    ``u = k/(1+k)``, ``k = c(FN)/c(FP)`` (Fawcett 2004 §7.5.3, Adams & Hand 1999): +1 where A
    has the lower expected cost at its best operating point, −1 where B has; the expert's
    triangular belief shaded beneath, the current ratio as a vertical line, the LC index in
    the title."""
    lc = view.lc
    g = lc.superiority
    a, b = g.model_a, g.model_b
    fig = LeanFigure()
    d = lc.distribution
    scale = float(np.max(d.density)) or 1.0
    fig.add_trace(go.Scatter(
        **FAST, x=np.concatenate(([d.u[0]], d.u, [d.u[-1]])),
        y=np.concatenate(([0.0], 0.8 * d.density / scale, [0.0])), mode="lines", fill="toself",
        fillcolor="rgba(120,120,120,0.18)", line={"color": "rgba(90,90,90,0.6)", "width": 1},
        name=(f"expert: {sig(view.low)} to {sig(view.high)}, most likely {sig(view.mode)}"),
        hovertemplate=("belief over the cost ratio (scaled)<br>no threshold: each model "
                       "at its best threshold for the ratio<extra></extra>")))
    u, s = g.step()
    for sign, col, who, tag in ((1, A_COLOR, a, "A"), (-1, B_COLOR, b, "B")):
        ys = np.where(s == sign, s, np.nan)
        fig.add_trace(go.Scatter(
            **FAST, x=u, y=ys, mode="lines", line={"color": col, "width": 5},
            name=f"{tag} = {plain(who)} cheaper", connectgaps=False,
            hovertemplate=(f"{plain(who)} has the lower expected cost<br>no threshold: each "
                           "model at its best threshold for the ratio<extra></extra>")))
    if np.any(s == 0):
        fig.add_trace(go.Scatter(
            **FAST, x=u, y=np.where(s == 0, 0.0, np.nan), mode="lines",
            line={"color": "#555", "width": 4}, name="equal cost",
            hovertemplate=("equal expected cost<br>no threshold: each model at its best "
                           "threshold for the ratio<extra></extra>")))
    fig.add_shape(type="line", x0=view.current_u, x1=view.current_u, y0=-1.25, y1=1.25,
                  line={"color": "#b00020", "width": 2}, name="current ratio")
    base_layout(fig, x_title="Cost ratio c(FN)/c(FP) (axis: k/(1+k))", y_title="",
                font_size=font_size, square=False, x_range=(0, 1), y_range=(-1.35, 1.35))
    ticks = list(RATIO_TICKS)
    fig.update_xaxes(tickvals=[float(ratio_to_unit(t)) for t in ticks],
                     ticktext=[f"{t:g}" for t in ticks])
    fig.update_yaxes(tickvals=[-1, 0, 1], ticktext=["B cheaper", "equal", "A cheaper"])
    title = (f"LC index {signed(lc.lc)} · P(A cheaper) {sig(lc.prob_a_better)} · "
             f"P(B cheaper) {sig(lc.prob_b_better)}")
    fig.update_layout(
        title={"text": title, "x": 0.01, "xanchor": "left", "y": 0.97,
               "font": {"size": max(font_size - 2, 11)}},
        margin={"l": 80, "r": 44, "t": 36, "b": 40},
        annotations=[{"x": view.current_u, "y": 1.25, "yanchor": "bottom",
                      "text": f"now {sig(view.current_ratio)}", "showarrow": False,
                      "font": {"color": "#b00020", "size": max(font_size - 3, 10)}}],
        meta={"lc": lc.lc, "current_u": view.current_u, "low": view.low, "mode": view.mode,
              "high": view.high, "pair": [a, b]})
    return fig

