"""Precision-recall view under a chosen deployment prevalence (Fawcett 2004 section 3.2).

Curves are the exact images of the ROC segments (Davis & Goadrich 2006), not straight lines
between PR points; the achievable curve is the image of the joint ROC convex hull.
``layout.annotations[0]`` marks the point hovered in another view.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ..core.analysis_types import Analysis
from ..core.decisions.operating import OperatingSummary
from ..core.roc.curve_geometry import display_indices
from ..core.roc.pr_interpolation import achievable_pr_curve, interpolate_pr
from ..core.roc.precision_recall import average_precision_from_curve, iso_f1_curves
from ..core.roc.precision_recall_gain import prg_auc, prg_curve
from ..text.rounding import HOVER as NUM
from ..text.rounding import sig
from . import style as sty
from .marks import star_key, star_note
from .roc import OPTIMUM_UID, model_index

__all__ = ["pr_figure"]

HOVER = f"%{{text}}<br>recall %{{x:{NUM}}}<br>precision %{{y:{NUM}}}<extra></extra>"
#: For display, the interpolated PR curves need follow the exact curve only to a fraction of a
#: pixel (0.2% of the axis), which takes far fewer points than the analysis' default.
PR_POINTS, PR_TOL = 1200, 2e-3


class _Vertices:
    """The vertices of a curve worth drawing in PR space (all of them for small curves)."""

    def __init__(self, curve, prevalence: float):
        fpr, tpr = np.asarray(curve.fpr), np.asarray(curve.tpr)
        thresholds = np.asarray(getattr(curve, "thresholds", np.full(fpr.size, np.nan)))
        keep = slice(None)
        if fpr.size > sty.MAX_VERTICES:
            # Thin in PR space (each kept pair of neighbours is then a sub-pixel segment,
            # where straight and Davis-Goadrich interpolation look the same).
            d = prevalence * tpr + (1 - prevalence) * fpr
            with np.errstate(invalid="ignore", divide="ignore"):
                precision = np.where(d > 0, prevalence * tpr / d, 1.0)
            keep = display_indices(tpr, precision, max_points=sty.MAX_VERTICES)
        self.fpr, self.tpr, self.thresholds = fpr[keep], tpr[keep], thresholds[keep]


def _points(index, names, vertices, pr, prevalence, *, prefix="", text=True):
    """customdata and hover texts of an interpolated PR curve (see style.point_data); only
    the customdata (texts None) when not ``text``."""
    rec, prec = pr.recall, pr.precision
    seg = pr.segment
    with np.errstate(divide="ignore", invalid="ignore"):
        fpr = np.where(prec > 0, prevalence * rec * (1 - prec) / ((1 - prevalence) * prec),
                       vertices.fpr[seg])
    fpr = np.clip(np.where(pr.fraction == 0, vertices.fpr[seg], fpr), 0, 1)
    idx = np.asarray(index)[seg] if np.ndim(index) else index
    nm = np.asarray(names, dtype=object)[seg] if np.ndim(names) else names
    if not text:
        return sty.point_rows(idx, vertices.thresholds[seg], fpr, rec), None
    return sty.point_data(idx, nm, vertices.thresholds[seg], fpr, rec, prefix=prefix)


def precision_at(prevalence: float, fpr: float, tpr: float) -> float:
    d = prevalence * tpr + (1 - prevalence) * fpr
    return prevalence * tpr / d if d > 0 else 1.0


def pr_figure(analysis: Analysis, *, operating: OperatingSummary | None = None,
              font_size: int = 14, colors: dict[str, int] | None = None,
              mode: str = "pr", pins=None, subtitle: str = "", meta: dict | None = None
              ) -> go.Figure:
    """Each model's PR curve at the deployment prior, the achievable PR curve of the joint
    hull, the baseline precision π and iso-F1 curves; or with ``mode="prg"`` the
    precision-recall-gain curves (Flach & Kull 2015) at that prior.

    Average precision is recomputed at the deployment prior (not the test set's prevalence),
    as the curves are. ``subtitle`` (:func:`~.style.set_subtitle`) and ``meta`` (added to
    ``layout.meta``, with the axes' full ranges as ``meta.home``, see
    :func:`~.zoom.apply_zoom`) are set as the figure is built.
    """
    pins = sty.pin_list(operating, pins)
    if mode == "prg":
        fig = sty.set_subtitle(_prg_figure(analysis, pins=pins, font_size=font_size,
                                           colors=colors), subtitle, font_size)
        if meta:
            fig.update_layout(meta={**fig.layout.meta, **meta})
        return fig
    pi = analysis.conditions.prior_pos
    # built as plain dicts and wrapped once (style.fast_figure): redrawn on every prior change
    data_, notes = [], []
    for f1 in iso_f1_curves():
        data_.append({
            "type": "scatter", "x": f1.recall, "y": f1.precision, "mode": "lines",
            "name": "iso-F1", "showlegend": bool(f1.level == 0.2), "legendgroup": "iso-F1",
            "line": {"color": "#c7c7c7", "width": 1, "dash": "dot"},
            "hovertemplate": (f"F1 = {f1.level:.1f}<br>no threshold: an iso-F1 contour"
                              "<extra></extra>")})
        # inside the frame, right-aligned above the curve's end (not across the border)
        notes.append({"x": 0.995, "y": float(f1.precision[-1]), "text": f"F1={f1.level:.1f}",
                      "showarrow": False, "xanchor": "right", "yanchor": "bottom",
                      "font": {"size": max(font_size - 4, 10), "color": "#6b6b6b"}})  # 5.3:1
    data_.append({"type": "scatter", "x": [0, 1], "y": [pi, pi], "mode": "lines",
                  "name": f"baseline (precision = π = {sig(pi)})",
                  "line": {"color": sty.REFERENCE_COLOR, "dash": "dot", "width": 1.5},
                  "hoverinfo": "skip"})
    for i, m in enumerate(analysis.models):
        vertices = _Vertices(m.curve, pi)
        pr = interpolate_pr(vertices, prevalence=pi, max_points=PR_POINTS, tol=PR_TOL)
        data, _ = _points(i, m.name, vertices, pr, pi, text=False)
        hover = {k: v for k, v in sty.model_hover("", m.name, "recall", "precision").items()
                 if v is not None}
        data_.append({
            "type": "scatter", "x": pr.recall, "y": pr.precision,
            **sty.model_style(sty.style_index(colors, m.name, i)),
            "name": (f"{sty.plain(m.name)} "
                     f"(AP {sig(average_precision_from_curve(m.curve, prevalence=pi))})"),
            "customdata": sty.threshold_rows(data), **hover})
    if analysis.models:
        hull = analysis.hull
        ach = achievable_pr_curve(hull, prevalence=pi, max_points=sty.MAX_VERTICES)
        names = [str(n) or "trivial" for n in hull.models]
        data, text = _points([model_index(analysis, n) for n in names], names, hull, ach, pi,
                             prefix="achievable: ")
        data_.append({
            "type": "scatter", "x": ach.recall, "y": ach.precision, "mode": "lines",
            "name": "achievable (hull)",
            "line": {"color": sty.HULL_COLOR, "dash": "dash", "width": 1.6}, "customdata": data,
            "text": text, "hovertemplate": HOVER})
        # the star is an annotation (figures.marks), the legend's entry a trace without points
        data_.append(star_key())
        notes = [*notes, star_note(*pr_star(analysis))]
    layout = sty.base_layout_dict(x_title="Recall (true positive rate)",
                                  y_title=f"Precision at p(+) = {sig(pi)}", font_size=font_size)
    # the hover marker first: layout.annotations[0] everywhere
    layout["annotations"] = [sty.hover_annotation(), *notes]
    layout["margin"]["r"] = 58
    sty.subtitle_layout(layout, subtitle, font_size)
    layout["meta"] = {"prior": pi, **(meta or {}),
                      "home": {"x": layout["xaxis"]["range"], "y": layout["yaxis"]["range"]}}
    fig = sty.fast_figure(data_, layout)
    for op in pins:
        data, _ = sty.point_data(model_index(analysis, op.model), op.model, [op.threshold],
                                 [op.fpr], [op.tpr])
        fig.add_trace(sty.pin_trace(op.recall, precision_at(pi, op.fpr, op.tpr), op,
                                    customdata=data, font_size=font_size))
    return fig


def optimum_marker(analysis: Analysis, *, mode: str = "pr") -> dict:
    """``x``, ``y``, ``customdata`` and ``text`` of the optimum's marker in PR (or PRG)
    space at the deployment prior."""
    pi = analysis.conditions.prior_pos
    opt = analysis.optimal
    data, text = sty.point_data(model_index(analysis, opt.model), opt.model or "trivial",
                                [opt.threshold], [opt.fpr], [opt.tpr], prefix="optimum: ")
    if mode == "prg":
        if not opt.tpr > 0:
            return {"x": [], "y": [], "customdata": [], "text": []}
        x, y = (opt.tpr - pi) / ((1 - pi) * opt.tpr), 1 - opt.fpr / opt.tpr
    else:
        x, y = opt.tpr, precision_at(pi, opt.fpr, opt.tpr)
    return {"x": [float(x)], "y": [float(y)], "customdata": data, "text": text}


def pr_star(analysis: Analysis) -> tuple[float, float, str]:
    """Where the optimum's star sits in PR space at the deployment prior, and its hover
    text (as the curves' points: model, threshold, recall, precision)."""
    mark = optimum_marker(analysis)
    x, y = mark["x"][0], mark["y"][0]
    return x, y, f"{mark['text'][0]}<br>recall {sig(x)}<br>precision {sig(y)}"


PRG_HOVER = (f"%{{text}}<br>recall gain %{{x:{NUM}}}<br>precision gain %{{y:{NUM}}}"
             "<extra></extra>")


def _prg_figure(analysis: Analysis, *, pins, font_size, colors) -> go.Figure:
    """Precision-recall-gain view: the unit square of gains, each model's PRG curve (straight
    between vertices: Flach & Kull 2015) and AUPRG in the legend, the optimum and pin."""
    pi = analysis.conditions.prior_pos
    fig = sty.LeanFigure()
    for i, m in enumerate(analysis.models):
        prg = prg_curve(m.curve, prevalence=pi)
        keep = prg.in_unit_square
        rg, pg = prg.recall_gain[keep], prg.precision_gain[keep]
        fpr = np.where(prg.precision[keep] > 0, pi * prg.recall[keep] * (1 - prg.precision[keep])
                       / ((1 - pi) * np.maximum(prg.precision[keep], 1e-300)), 0.0)
        data, text = sty.point_data(i, m.name, prg.thresholds[keep], np.clip(fpr, 0, 1),
                                    prg.recall[keep])
        fig.add_trace(go.Scatter(
            **sty.FAST, x=rg, y=pg, **sty.model_style(sty.style_index(colors, m.name, i)),
            name=f"{sty.plain(m.name)} (AUPRG {sig(prg_auc(m.curve, prevalence=pi))})",
            customdata=data,
            text=text, hovertemplate=PRG_HOVER))

    def gains(fpr, tpr):
        with np.errstate(divide="ignore", invalid="ignore"):
            rg = (tpr - pi) / ((1 - pi) * tpr)
            pg = 1 - fpr / tpr
        return float(rg), float(pg)

    if analysis.models:
        fig.add_trace(go.Scatter(
            **sty.FAST, mode="markers", name="optimal operating point", uid=OPTIMUM_UID,
            marker={"symbol": "star", "size": 15, "color": sty.OPTIMUM_COLOR,
                    "line": {"color": "white", "width": 1}},
            **optimum_marker(analysis, mode="prg"), hovertemplate=PRG_HOVER))
    for op in pins:
        if op.tpr > 0:
            x, y = gains(op.fpr, op.tpr)
            data, _ = sty.point_data(model_index(analysis, op.model), op.model, [op.threshold],
                                 [op.fpr], [op.tpr])
            fig.add_trace(sty.pin_trace(x, y, op, customdata=data, font_size=font_size))
    sty.base_layout(fig, x_title="Recall gain", y_title=f"Precision gain at p(+) = {sig(pi)}",
                    font_size=font_size)
    fig.layout.annotations = [sty.hover_annotation()]
    fig.update_layout(meta={"prior": pi, "prg": True})
    return fig
