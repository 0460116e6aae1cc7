"""Shared look of every roc-dash figure: Okabe-Ito colours with distinct dash styles."""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

# Every figure uses plotly_white. Making it the default template (rather than naming it in
# each layout) lets plotly share one validated copy: naming it costs ~12 ms per figure.
pio.templates.default = TEMPLATE = "plotly_white"

# Okabe & Ito (2008), colour-blind-safe, without its yellow and sky blue (illegible as lines
# on white, on a projector), then Tol's wine and teal and black; dash styles tell them apart
# in greyscale.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#882255", "#117733",
           "#000000")
DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")
REFERENCE_COLOR = "#8c8c8c"
HULL_COLOR = "#222222"
ISO_COLOR = "#b00020"
OPTIMUM_COLOR = "#b00020"
PINNED_COLOR = "#6a3d9a"
#: Colours of pins A, B, C (dark purple, brown, dark teal: distinct from the model lines).
PIN_COLORS = {"A": "#6a3d9a", "B": "#8c510a", "C": "#01665e", "": PINNED_COLOR}
MAX_VERTICES = 2000

# Mode bar: no logo, no cloud; the PNG and SVG buttons (titled with the conditions) are
# added by assets/roc_dash.js.
GRAPH_CONFIG = {
    "displaylogo": False,
    "showSendToCloud": False,
    "toImageButtonOptions": {"format": "png", "scale": 2},
    "modeBarButtonsToRemove": ["lasso2d", "select2d", "toImage"],
}


def line_style(index: int, *, width: float = 2.5) -> dict:
    """Colour and dash style of the ``index``-th model (distinct even in greyscale)."""
    return {"color": PALETTE[index % len(PALETTE)], "dash": DASHES[index % len(DASHES)],
            "width": width}


def color(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


#: CSS border style closest to each plotly dash style (for the swatches in the page).
_CSS_DASH = {"solid": "solid", "dash": "dashed", "dot": "dotted", "dashdot": "dashed",
             "longdash": "dashed", "longdashdot": "dashed"}


def dash_css(index: int) -> str:
    return _CSS_DASH[DASHES[index % len(DASHES)]]


def swatch_css() -> str:
    """CSS giving the ``k``-th option of the model list the ``k``-th line style as a swatch.

    The options follow the order of all loaded models, the order colours are assigned in, so
    the swatch is a function of the position alone (``assets/style.css`` holds this text; a
    test checks that it is current). Plain-text options are used because Dash 4's checklist
    does not re-render options whose labels are components.
    """
    period = len(PALETTE) * len(DASHES) // math.gcd(len(PALETTE), len(DASHES))
    sel = ".model-list .dash-options-list-option:nth-child({}n+{}) .dash-options-list-option-text::before"
    rules = [f"{sel.format(period, k + 1)} {{ border-top-color: {color(k)}; "
             f"border-top-style: {dash_css(k)}; }}" for k in range(period)]
    return "\n".join(rules) + "\n"


def style_index(colors, name: str, position: int) -> int:
    """The colour/dash index of a model: its place among all loaded models when ``colors``
    maps names to it (so it keeps its colour whatever is shown), else its position."""
    return colors.get(name, position) if colors else position


def rgba(hex_color: str, alpha: float) -> str:
    h = hex_color.lstrip("#")
    r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
    return f"rgba({r},{g},{b},{alpha})"


def format_threshold(value) -> str:
    """Human text of a score threshold; ``+inf`` (nothing called positive) as '+∞'."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    if math.isinf(value):
        return "+∞" if value > 0 else "−∞"
    return f"{value:.6g}"


def point_data(model_index, model_names, thresholds, fpr, tpr, *, prefix: str = ""):
    """``(customdata, text)`` for points shared by every linked view.

    ``customdata`` is a list of numeric rows ``[model index, threshold, fpr, tpr]`` (the
    threshold NaN, sent as null, for +inf: JSON has no infinity); the browser maps the index
    to a name with the ``models`` list of the viz-data store. It must be a list, not a numpy
    array: plotly sends arrays as base64 typed arrays, from which ``dcc.Graph`` cannot pick a
    point's customdata for hover and click events. Numbers only keep validation fast.
    ``text`` is the hover label "model / threshold". ``model_index`` and ``model_names`` may
    be scalars (one model) or arrays (hull vertices of several models).
    """
    thresholds = np.asarray(thresholds, dtype=np.float64)
    n = thresholds.size
    index = np.broadcast_to(np.asarray(model_index, dtype=np.float64), (n,))
    names = np.broadcast_to(np.asarray(model_names, dtype=object), (n,))
    data = np.column_stack((index, np.where(np.isfinite(thresholds), thresholds, np.nan),
                            np.asarray(fpr, dtype=np.float64),
                            np.asarray(tpr, dtype=np.float64))).tolist()
    text = np.array([f"{prefix}<b>{m}</b><br>threshold ≥ {format_threshold(v)}"
                     for m, v in zip(names, thresholds, strict=True)], dtype=object)
    return data, text


def base_layout(fig: go.Figure, *, x_title: str, y_title: str, font_size: int = 14,
                square: bool = True, x_range=(-0.01, 1.01), y_range=(-0.01, 1.01)) -> go.Figure:
    fig.update_layout(
        margin={"l": 60, "r": 30, "t": 20, "b": 40},
        # below the plot, anchored to the figure's bottom edge so that it never runs into
        # the x-axis title whatever the plot's height
        legend={"orientation": "h", "x": 0.0, "y": 0.0, "yref": "container",
                "xanchor": "left", "yanchor": "bottom",
                "bgcolor": "rgba(255,255,255,0.9)", "font": {"size": max(font_size - 3, 10)}},
        hovermode="closest",
        font={"size": font_size},
        uirevision="keep",
        modebar={"orientation": "v", "bgcolor": "rgba(255,255,255,0.7)"},
    )
    fig.update_xaxes(title_text=x_title, range=list(x_range), constrain="domain",
                     showline=True, linecolor="#444", mirror=True, zeroline=False)
    fig.update_yaxes(title_text=y_title, range=list(y_range), constrain="domain",
                     showline=True, linecolor="#444", mirror=True, zeroline=False)
    if square:
        fig.update_yaxes(scaleanchor="x", scaleratio=1)
    return fig


def hover_annotation() -> dict:
    """Reserved ``layout.annotations[0]``: where the point hovered in another view lies."""
    return {"x": 0, "y": 0, "text": "", "visible": False, "showarrow": True, "arrowhead": 2,
            "arrowcolor": "#333", "ax": 40, "ay": -40, "bgcolor": "rgba(255,255,224,0.95)",
            "bordercolor": "#333", "borderwidth": 1, "font": {"size": 12},
            "name": "hover"}


def pin_list(operating, pins):
    """The pins to draw: ``pins`` when given, else the single pinned ``operating`` point."""
    if pins is not None:
        return list(pins)
    return [operating] if operating is not None and operating.pinned else []


def pin_trace(x: float, y: float, op, *, customdata=None, hover: str | None = None,
              font_size: int = 14) -> go.Scatter:
    """A pinned operating point: an open circle with its letter, in every view."""
    c = PIN_COLORS.get(op.label, PINNED_COLOR)
    name = f"pinned {op.label}: {op.model} at score ≥ {format_threshold(op.threshold)}"
    return go.Scatter(
        x=[x], y=[y], mode="markers+text", name=name.replace("pinned : ", "pinned: "),
        text=[op.label or "pin"], textposition="top right",
        textfont={"size": font_size + 1, "color": c, "family": "Arial Black, sans-serif"},
        marker={"symbol": "circle-open", "size": 18, "color": c, "line": {"width": 3, "color": c}},
        customdata=customdata, hovertemplate=hover or f"{name}<extra></extra>")
