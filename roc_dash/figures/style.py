"""Shared look of every roc-dash figure: Okabe-Ito colours with distinct dash styles."""

from __future__ import annotations

import math

import plotly.graph_objects as go

# Okabe & Ito (2008), colour-blind-safe; black is kept for reference lines.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000")
DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
TEMPLATE = "plotly_white"
REFERENCE_COLOR = "#8c8c8c"

# Mode bar: PNG/SVG download, no Plotly logo, no cloud button.
GRAPH_CONFIG = {
    "displaylogo": False,
    "showSendToCloud": False,
    "toImageButtonOptions": {"format": "png", "scale": 2},
    "modeBarButtonsToRemove": ["lasso2d", "select2d"],
}


def line_style(index: int) -> dict:
    """Colour and dash style of the ``index``-th model (distinct even in greyscale)."""
    return {"color": PALETTE[index % len(PALETTE)], "dash": DASHES[index % len(DASHES)], "width": 2.5}


def format_threshold(value: float) -> str:
    """Human text of a score threshold; ``+inf`` (nothing called positive) as '+∞'."""
    if math.isinf(value):
        return "+∞" if value > 0 else "−∞"
    return f"{value:.6g}"


def base_layout(fig: go.Figure, *, x_title: str, y_title: str) -> go.Figure:
    fig.update_layout(
        template=TEMPLATE,
        margin={"l": 60, "r": 20, "t": 30, "b": 55},
        legend={"x": 1.02, "y": 1.0, "xanchor": "left", "yanchor": "top",
                "bgcolor": "rgba(255,255,255,0.9)", "bordercolor": "#ddd", "borderwidth": 1},
        hovermode="closest",
        font={"size": 14},
    )
    fig.update_xaxes(title_text=x_title, range=[-0.01, 1.01], constrain="domain",
                     showline=True, linecolor="#444", mirror=True, zeroline=False)
    fig.update_yaxes(title_text=y_title, range=[-0.01, 1.01], scaleanchor="x", scaleratio=1,
                     constrain="domain", showline=True, linecolor="#444", mirror=True,
                     zeroline=False)
    return fig
