"""Figures of the input kinds beyond one binary scorer.

Pure functions of core results:

* :func:`class_curves_figure` -- the class reference ROC curves of one model of a
  multi-class table (Fawcett 2004 s7.3.1), from :class:`~roc_dash.core.kinds.multiclass.MulticlassAnalysis`;
* :func:`pairwise_figure` -- Hand & Till's pairwise ``Â(i|j)`` matrix as a heat map;
* :func:`add_labelings` -- the hull-optimal labelings ``S_0 .. S_n`` of a tree's leaves
  (Flach et al. s4) as clickable points on the ROC view (traces only: ``layout.shapes[0]``
  stays the draggable iso-performance line).
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ..core.assembly.extensions import LeavesResult
from ..core.kinds.canonical_kinds import COST_AXIS_TITLES
from ..core.kinds.multiclass import MulticlassAnalysis
from ..text.rounding import HOVER as NUM
from ..text.rounding import sig
from .style import (
    CHANCE_DASH,
    FAST,
    REFERENCE_COLOR,
    LeanFigure,
    base_layout,
    color,
    format_threshold,
    model_style,
    plain,
    point_data,
)

__all__ = ["class_curves_figure", "pairwise_figure", "add_labelings", "cost_axis_titles",
           "LABELING_COLOR"]

LABELING_COLOR = "#333333"


def class_curves_figure(result: MulticlassAnalysis, model: str, *, reference=None,
                        font_size: int = 14) -> go.Figure:
    """One model's class reference curves together, one line per class, AUC and prevalence
    in the legend; the class shown in the binary views (``reference``) drawn thicker."""
    fig = LeanFigure()
    fig.add_trace(go.Scatter(**FAST, x=[0, 1], y=[0, 1], mode="lines", showlegend=False,
                             line={"color": REFERENCE_COLOR, "dash": CHANCE_DASH, "width": 1},
                             hoverinfo="skip"))
    for k, (cls, curve) in enumerate(zip(result.classes.tolist(), result.curves, strict=True)):
        chosen = reference is not None and str(cls) == str(reference)
        fig.add_trace(go.Scatter(
            **FAST, x=curve.fpr, y=curve.tpr, **model_style(k, width=3.5 if chosen else 2.0),
            name=(f"{plain(cls)} vs rest: AUC {sig(result.auc_per_class[k])}, "
                  f"p = {sig(result.prevalence[k])}" + (" (shown)" if chosen else "")),
            # the class's own score is the score thresholded (Fawcett 2004 s7.3.1)
            text=[format_threshold(t) for t in curve.thresholds.tolist()],
            hovertemplate=(f"<b>{plain(model)}</b>: {plain(cls)} vs rest<br>threshold ≥ "
                           f"%{{text}} (score of {plain(cls)})<br>"
                           f"FPR %{{x:{NUM}}}<br>TPR %{{y:{NUM}}}<extra></extra>")))
    base_layout(fig, x_title="False positive rate (rest)", y_title="True positive rate (class)",
                font_size=font_size)
    # the right margin holds plotly's vertical mode bar (24 px, 2 px from the edge): at 20 px
    # it overlapped the plot by 6 px (mcc001)
    fig.update_layout(legend={"orientation": "v", "tracegroupgap": 0},
                      margin={"l": 60, "r": 34, "t": 10, "b": 130})
    return fig


#: The pairwise matrix's colour bar, as a share of the plot's height from its bottom: the
#: rest above it holds the bar's title.
_BAR_LEN = 0.9


def pairwise_figure(result: MulticlassAnalysis, model: str, *, font_size: int = 14
                    ) -> go.Figure:
    """Hand & Till's ``Â(i|j)`` (row class ``i`` scored by its own column, against class
    ``j``) as a heat map with the values written in; the diagonal is empty."""
    classes = [plain(c) for c in result.classes.tolist()]  # tick labels and hover
    z = np.asarray(result.pairwise, dtype=np.float64)
    # 3 decimals in the cells: 6 digits (the hover's) ran together at 1280 px with 4 classes
    text = [["" if np.isnan(v) else f"{v:.3f}" for v in row] for row in z]
    fig = go.Figure(go.Heatmap(
        z=np.where(np.isnan(z), None, z).tolist(), x=classes, y=classes, text=text,
        texttemplate="%{text}", zmin=0.5, zmax=1.0, colorscale="Blues",
        # the bar's title is an annotation above it (:data:`_BAR_LEN`): plotly's own title
        # sat 4-6 px above the bar, on the top tick's label "1" (mcc002)
        colorbar={"thickness": 12, "len": _BAR_LEN, "y": 0, "yanchor": "bottom"},
        hovertemplate=(f"<b>{plain(model)}</b><br>Â(%{{y}}|%{{x}}) = %{{z:{NUM}}}: a row of %{{y}} "
                       "outscores<br>a row of %{x} on the %{y} score<extra></extra>"),
        textfont={"size": max(font_size - 1, 10)}, hoverongaps=False,
        name=f"{plain(model)}: Â(i|j) for each pair of classes"))
    # the top margin holds plotly's mode bar (about 25 px): at 10 px it covered the top row's
    # cells and the colour bar's title (hmb001)
    fig.update_layout(font={"size": font_size}, margin={"l": 90, "r": 10, "t": 36, "b": 60},
                      plot_bgcolor="white",
                      # the graph's name for a screen reader (assets/roc_dash_a11y.js)
                      meta={"title": f"Pairwise AUC of {plain(model)} (Hand & Till)"})
    # the colour bar's title, left-aligned with the bar (plotly's colour bar: x 1.02 of the
    # plot, 10 px pad), clear of the label of its top tick (half a line above the bar's end)
    fig.add_annotation(text="Â(i|j)", x=1.02, xref="paper", xanchor="left", xshift=10,
                       y=_BAR_LEN, yref="paper", yanchor="bottom",
                       yshift=round(0.35 * font_size) + 2, showarrow=False)
    fig.update_xaxes(title_text="against class j", side="bottom", showgrid=False)
    fig.update_yaxes(title_text="class i", autorange="reversed", showgrid=False)
    return fig


def add_labelings(fig: go.Figure, result: LeavesResult, *, model_index: int, style: int,
                  font_size: int = 14) -> go.Figure:
    """The labelings ``S_0 .. S_n`` of one tree as points marked "S0".."Sn" on the ROC view.

    Points carry the views' ``customdata`` (``[model index, threshold, fpr, tpr]``) with the
    threshold of ``S_i`` (the positive share of its last positive leaf), so clicking one pins
    that labeling like a vertex.
    """
    lab = result.labelings
    data, _ = point_data(model_index, result.name, lab.thresholds, lab.fpr, lab.tpr)
    names = [f"S{i}" for i in range(len(lab))]
    leaves = [", ".join(plain(x) for x in lab.leaf[row]) or "none"
              for row in lab.labeling]
    hover = [f"<b>{plain(result.name)}</b>: {n}<br>threshold ≥ {format_threshold(t)} "
             f"(positive share of a leaf)<br>positive leaves: {who}"
             for n, who, t in zip(names, leaves, lab.thresholds.tolist(), strict=True)]
    fig.add_trace(go.Scatter(
        **FAST, x=lab.fpr, y=lab.tpr, mode="markers+text", text=names,
        textposition=["middle right"] + ["top left"] * (len(lab) - 2) + ["middle left"],
        cliponaxis=False, customdata=data, hovertext=hover,
        name=f"{plain(result.name)}: labelings S0–S{len(lab) - 1}", legendgroup=result.name,
        textfont={"size": max(font_size - 2, 10), "color": LABELING_COLOR},
        marker={"symbol": "circle", "size": 11, "color": color(style),
                "line": {"width": 1.5, "color": "white"}},
        hovertemplate=f"%{{hovertext}}<br>FPR %{{x:{NUM}}}<br>TPR %{{y:{NUM}}}<extra></extra>"))
    return fig


def cost_axis_titles(fig: go.Figure) -> go.Figure:
    """ROC axes of example-specific costs (Fawcett 2004 s7.2, Algorithm 6)."""
    fig.update_xaxes(title_text=COST_AXIS_TITLES["x"].capitalize())
    fig.update_yaxes(title_text=COST_AXIS_TITLES["y"].capitalize())
    return fig
