"""Precision-recall view under a chosen deployment prevalence (Fawcett 2004 section 3.2).

Curves are the exact images of the ROC segments (Davis & Goadrich 2006), not straight lines
between PR points; the achievable curve is the image of the joint ROC convex hull.
``layout.annotations[0]`` marks the point hovered in another view.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ..core.analysis import Analysis
from ..core.operating import OperatingSummary
from ..core.precision_recall import achievable_pr_curve, interpolate_pr, iso_f1_curves
from .style import (
    HULL_COLOR,
    MAX_VERTICES,
    OPTIMUM_COLOR,
    PINNED_COLOR,
    REFERENCE_COLOR,
    base_layout,
    format_threshold,
    hover_annotation,
    line_style,
)

__all__ = ["pr_figure"]

HOVER = ("<b>%{customdata[0]}</b><br>threshold ≥ %{text}<br>recall %{x:.3f}<br>"
         "precision %{y:.3f}<extra></extra>")


def _points(name, curve_fpr, curve_thresholds, pr, prevalence):
    """customdata rows and hover texts for an interpolated PR curve."""
    rec, prec = pr.recall, pr.precision
    with np.errstate(divide="ignore", invalid="ignore"):
        fpr = np.where(prec > 0, prevalence * rec * (1 - prec) / ((1 - prevalence) * prec),
                       curve_fpr[pr.segment])
    fpr = np.where(pr.fraction == 0, curve_fpr[pr.segment], fpr)
    thr = curve_thresholds[pr.segment]
    text = [("≈ " if f > 0 else "") + format_threshold(t) for t, f in zip(thr, pr.fraction, strict=True)]
    data = [[name, None if not np.isfinite(t) else float(t), float(f), float(r)]
            for t, f, r in zip(thr, np.clip(fpr, 0, 1), rec, strict=True)]
    return data, text


def precision_at(prevalence: float, fpr: float, tpr: float) -> float:
    d = prevalence * tpr + (1 - prevalence) * fpr
    return prevalence * tpr / d if d > 0 else 1.0


def pr_figure(analysis: Analysis, *, operating: OperatingSummary | None = None,
              font_size: int = 14) -> go.Figure:
    """Each model's PR curve at the deployment prior, the achievable PR curve of the joint
    hull, the baseline precision π and iso-F1 curves."""
    pi = analysis.conditions.prior_pos
    fig = go.Figure()
    for f1 in iso_f1_curves():
        fig.add_trace(go.Scatter(
            x=f1.recall, y=f1.precision, mode="lines", name="iso-F1", showlegend=f1.level == 0.2,
            legendgroup="iso-F1", line={"color": "#c7c7c7", "width": 1, "dash": "dot"},
            hovertemplate=f"F1 = {f1.level:.1f}<extra></extra>"))
        fig.add_annotation(x=1.0, y=float(f1.precision[-1]), text=f"F1={f1.level:.1f}",
                           showarrow=False, xanchor="left", font={"size": 10, "color": "#999"})
    fig.add_trace(go.Scatter(x=[0, 1], y=[pi, pi], mode="lines",
                             name=f"baseline (precision = π = {pi:.3g})",
                             line={"color": REFERENCE_COLOR, "dash": "dot", "width": 1.5},
                             hoverinfo="skip"))
    for i, m in enumerate(analysis.models):
        pr = interpolate_pr(m.curve, prevalence=pi, max_points=MAX_VERTICES)
        data, text = _points(m.name, m.curve.fpr, m.curve.thresholds, pr, pi)
        fig.add_trace(go.Scatter(
            x=pr.recall, y=pr.precision, mode="lines", line=line_style(i),
            name=f"{m.name} (AP {m.average_precision:.3f})", customdata=data, text=text,
            hovertemplate=HOVER))
    if analysis.models:
        hull = analysis.hull
        ach = achievable_pr_curve(hull, prevalence=pi, max_points=MAX_VERTICES)
        data, text = _points("hull", hull.fpr, hull.thresholds, ach, pi)
        for row, seg in zip(data, ach.segment, strict=True):
            row[0] = str(hull.models[seg]) or "trivial"
        fig.add_trace(go.Scatter(
            x=ach.recall, y=ach.precision, mode="lines", name="achievable (hull)",
            line={"color": HULL_COLOR, "dash": "dash", "width": 1.6}, customdata=data,
            text=text, hovertemplate="achievable: " + HOVER))
        opt = analysis.optimal
        fig.add_trace(go.Scatter(
            x=[opt.tpr], y=[precision_at(pi, opt.fpr, opt.tpr)], mode="markers",
            name="optimal operating point",
            marker={"symbol": "star", "size": 15, "color": OPTIMUM_COLOR,
                    "line": {"color": "white", "width": 1}},
            customdata=[[opt.model, None if not np.isfinite(opt.threshold) else opt.threshold,
                         opt.fpr, opt.tpr]],
            text=[format_threshold(opt.threshold)], hovertemplate="optimum: " + HOVER))
    if operating is not None and operating.pinned:
        fig.add_trace(go.Scatter(
            x=[operating.recall], y=[precision_at(pi, operating.fpr, operating.tpr)],
            mode="markers", name="pinned operating point",
            marker={"symbol": "circle-open", "size": 18, "color": PINNED_COLOR,
                    "line": {"width": 3, "color": PINNED_COLOR}},
            hoverinfo="skip"))
    base_layout(fig, x_title="Recall (true positive rate)",
                y_title=f"Precision at p(+) = {pi:.3g}", font_size=font_size)
    fig.update_layout(annotations=[hover_annotation(), *fig.layout.annotations],
                      meta={"prior": pi})
    return fig
