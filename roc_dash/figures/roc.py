"""ROC view: each model's pooled curve, the chance diagonal, AUC in the legend."""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go

from ..core.summary import ModelRoc
from .style import REFERENCE_COLOR, base_layout, format_threshold, line_style

__all__ = ["roc_figure"]


def roc_figure(models: Sequence[ModelRoc]) -> go.Figure:
    """Plot each model's ROC curve with its AUC in the legend and its threshold on hover."""
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=[0, 1], y=[0, 1], mode="lines", name="chance (AUC 0.5)",
            line={"color": REFERENCE_COLOR, "dash": "dot", "width": 1.5},
            hoverinfo="skip",
        )
    )
    for i, m in enumerate(models):
        c = m.curve
        fig.add_trace(
            go.Scatter(
                x=c.fpr,
                y=c.tpr,
                mode="lines",
                name=f"{m.name} (AUC {m.auc:.3f})",
                line=line_style(i),
                text=[format_threshold(t) for t in c.thresholds],
                meta=m.name,
                hovertemplate=(
                    "<b>%{meta}</b><br>threshold ≥ %{text}<br>"
                    "FPR %{x:.3f}<br>TPR %{y:.3f}<extra></extra>"
                ),
            )
        )
    base_layout(fig, x_title="False positive rate", y_title="True positive rate")
    if not models:
        fig.add_annotation(text="No data loaded: drop a predictions file above.",
                           x=0.5, y=0.5, showarrow=False, font={"size": 16})
    return fig
