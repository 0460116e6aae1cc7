"""ROC view: curves or fold averages with bands, the joint hull, the iso-performance line.

``layout.shapes[0]`` is the iso-performance line (draggable; assets/roc_dash.js moves it while
a slider is dragged), the only shape: the optimum's star and the ring around the optimal
vertex are annotations (:mod:`.marks`: glyphs of fixed size in pixels, neither draggable nor
deformed, moved by a change of costs or prior without redrawing a trace);
``layout.annotations[0]`` marks the point hovered in another view. Every point carries
``customdata = [model index, threshold, fpr, tpr]`` (see :func:`.style.point_data`) so hover
and click work the same in all views.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from scipy.special import ndtri

from ..core.analysis_types import Analysis
from ..core.decisions.operating import OperatingSummary
from ..core.roc.curve_geometry import det_curve, display_indices, tie_bounds
from ..text.rounding import HOVER as NUM
from ..text.rounding import sig
from .marks import ring_note, star_key, star_note
from .roc_axes import det_iso_trace, to_log_fpr
from .style import (
    CHANCE_DASH,
    FAST,
    HULL_COLOR,
    ISO_COLOR,
    MAX_VERTICES,
    OPTIMUM_COLOR,
    REFERENCE_COLOR,
    LeanFigure,
    base_layout,
    base_layout_dict,
    color,
    fast_figure,
    fold_counts,
    hover_annotation,
    model_hover,
    model_style,
    pin_list,
    pin_trace,
    plain,
    point_data,
    rgba,
    style_index,
    threshold_rows,
)

__all__ = ["roc_figure", "iso_line_endpoints", "AVERAGING_MODES"]

AVERAGING_MODES = ("none", "pooled", "vertical", "threshold")
HOVER = f"%{{text}}<br>FPR %{{x:{NUM}}}<br>TPR %{{y:{NUM}}}<extra></extra>"
#: Stable trace uid: the app finds the optimum's marker trace (in the DET, PRG and decision
#: views; the ROC, PR and cost views draw it as an annotation, :mod:`.marks`) by it,
#: whatever the trace's display name (presentation mode shortens it).
OPTIMUM_UID = "optimum"


def iso_line_endpoints(fpr: float, tpr: float, slope: float) -> tuple[float, float, float, float]:
    """End points of the line of ``slope`` through (fpr, tpr), clipped to the unit square."""
    if not np.isfinite(slope):
        return fpr, 0.0, fpr, 1.0
    # y = tpr + m (x - fpr); x where y = 0 and y = 1
    x_lo = fpr - tpr / slope if slope > 0 else 0.0
    x_hi = fpr + (1 - tpr) / slope if slope > 0 else 1.0
    x0, x1 = max(0.0, x_lo), min(1.0, x_hi)
    return x0, tpr + slope * (x0 - fpr), x1, tpr + slope * (x1 - fpr)


def _curve_trace(name, idx, fpr, tpr, thresholds, *, legend=True, width=2.5, opacity=1.0,
                 show_name=None, prefix="", style=None, suffix="", max_vertices=MAX_VERTICES):
    keep = display_indices(fpr, tpr, max_points=max_vertices)
    data, _ = point_data(idx, name, thresholds[keep], fpr[keep], tpr[keep])
    return _scatter(
        x=fpr[keep], y=tpr[keep], name=show_name or plain(name),
        **model_style(idx if style is None else style, width=width), opacity=opacity,
        customdata=threshold_rows(data), legendgroup=name, showlegend=legend,
        **model_hover(prefix, name, "FPR", "TPR", suffix=suffix),
    )


def _scatter(**kw) -> dict:
    """A scatter trace as a plain dict (unset values left out, as plotly does)."""
    return {"type": "scatter", **{k: v for k, v in kw.items() if v is not None}}


def _det_axes(fig: go.Figure, font_size: int) -> None:
    ticks = np.array([0.001, 0.01, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 0.9, 0.95, 0.99, 0.999])
    vals = ndtri(ticks).tolist()
    text = [f"{t:.1%}".replace(".0%", "%") for t in ticks]
    lim = [float(ndtri(0.0005)), float(ndtri(0.9995))]
    fig.update_xaxes(title_text="False positive rate (normal deviate scale)", tickvals=vals,
                     ticktext=text, range=lim)
    fig.update_yaxes(title_text="False negative rate (normal deviate scale)", tickvals=vals,
                     ticktext=text, range=lim)


def roc_figure(analysis: Analysis, *, averaging: str = "pooled", det: bool = False,
               operating: OperatingSummary | None = None, font_size: int = 14,
               colors: dict[str, int] | None = None, ties: bool = False,
               pins=None, max_vertices: int = MAX_VERTICES,
               log_fpr: bool = False) -> go.Figure:
    """The ROC (or DET) view of an analysis.

    Parameters
    ----------
    averaging : {"none", "pooled", "vertical", "threshold"}
        "none" draws every fold's curve, "pooled" the curve of the merged folds,
        "vertical"/"threshold" the fold average with its confidence band / 2-D error bars
        (Fawcett 2004, section 6).
    det : bool
        Draw FNR against FPR on normal-deviate axes instead (section 7.5.1).
    operating : OperatingSummary, optional
        A pinned operating point to highlight (the optimum is always marked).
    ties : bool
        Shade, for each model's pooled curve, the region between its optimistic and
        pessimistic tie bounds (section 4.1): how much ordering within tied scores could
        move the curve.
    max_vertices : int
        At most this many vertices of a pooled or fold curve are drawn (beyond the lossless
        reduction, to within a pixel: :func:`~roc_dash.core.roc.curve_geometry.display_indices`);
        a huge number draws every vertex that is not on a straight run (the HTML report).
    log_fpr : bool
        Draw the FPR on a log scale (ROC axes only; see :func:`.roc_axes.to_log_fpr`: FPR = 0
        is drawn at a floor, the iso line becomes a curve).
    """
    if averaging not in AVERAGING_MODES:
        raise ValueError(f"averaging must be one of {AVERAGING_MODES}")
    if det:
        return _det_figure(LeanFigure(), analysis, pin_list(operating, pins), font_size, colors)
    # built as plain dicts and wrapped once (style.fast_figure): plotly's validated objects
    # were most of the cost of drawing the view
    traces: list[dict] = []
    traces.append(_scatter(x=[0, 1], y=[0, 1], mode="lines", name="chance (AUC 0.5)",
                             line={"color": REFERENCE_COLOR, "dash": CHANCE_DASH, "width": 1.5},
                             hoverinfo="skip"))
    bounds = {}
    if ties:
        for i, m in enumerate(analysis.models):
            bounds[m.name] = _tie_band(traces, m, style_index(colors, m.name, i))
    for i, m in enumerate(analysis.models):
        label = auc_label(m, averaging, bounds.get(m.name))
        k = style_index(colors, m.name, i)
        if averaging == "none" and len(m.folds) > 1:
            fold_auc = _fold_aucs(m)
            for j, (fold, c) in enumerate(m.folds.items()):
                traces.append(_curve_trace(m.name, i, c.fpr, c.tpr, c.thresholds,
                                           legend=j == 0, width=1.3, opacity=0.75,
                                           show_name=label, style=k,
                                           prefix=f"fold {plain(fold)} of ",
                                           suffix=fold_auc.get(str(fold), ""),
                                           max_vertices=max_vertices))
        elif averaging == "vertical" and m.n_folds > 1:
            va = m.vertical
            band = "simultaneous" if va.band == "simultaneous" else "pointwise"
            traces.append(_scatter(
                x=np.concatenate((va.fpr, va.fpr[::-1])),
                y=np.concatenate((va.tpr_high, va.tpr_low[::-1])),
                fill="toself", fillcolor=rgba(color(k), 0.12 if len(analysis.models) > 2
                                               else 0.18), line={"width": 0},
                name=f"{int(va.level * 100)}% {band} band", legendgroup=m.name,
                showlegend=False, hoverinfo="skip"))
            traces.append(_scatter(
                x=va.fpr, y=va.tpr_mean, **model_style(k),
                name=label,
                legendgroup=m.name,
                meta=f"<b>{plain(m.name)}</b> vertical average{cv_auc_text(m)}",
                text=vertical_threshold_text(m),
                hovertemplate=(f"%{{meta}}<br>%{{text}}<br>FPR %{{x:{NUM}}}<br>"
                               f"mean TPR %{{y:{NUM}}}<extra></extra>")))
        elif averaging == "threshold" and m.n_folds > 1:
            ta = m.threshold
            # the mean curve through every sampled threshold, and the 2-D error bars at a few
            # of them only (spread along the curve, staggered between models): bars at every
            # sample made an unreadable cloud with four models
            traces.append(_scatter(
                x=ta.fpr_mean, y=ta.tpr_mean, **model_style(k),
                name=label, legendgroup=m.name,
                **_points(i, m.name, ta.threshold, ta.fpr_mean, ta.tpr_mean,
                          prefix="threshold average: ", suffix=cv_auc_text(m)),
                hovertemplate=HOVER))
            at = bar_indices(ta.fpr_mean, ta.tpr_mean, n=THRESHOLD_BARS,
                             phase=(i + 1) / (len(analysis.models) + 1))
            traces.append(_scatter(
                x=ta.fpr_mean[at], y=ta.tpr_mean[at], mode="markers",
                marker={"size": 7, "color": color(k), "line": {"color": "white", "width": 1}},
                error_x={"type": "data", "symmetric": False,
                         "array": (ta.fpr_high - ta.fpr_mean)[at],
                         "arrayminus": (ta.fpr_mean - ta.fpr_low)[at],
                         "color": rgba(color(k), 0.45), "thickness": 1.5, "width": 3},
                error_y={"type": "data", "symmetric": False,
                         "array": (ta.tpr_high - ta.tpr_mean)[at],
                         "arrayminus": (ta.tpr_mean - ta.tpr_low)[at],
                         "color": rgba(color(k), 0.45), "thickness": 1.5, "width": 3},
                name=f"{plain(m.name)}: {int(ta.level * 100)}% intervals", legendgroup=m.name,
                showlegend=False,
                **_points(i, m.name, ta.threshold[at], ta.fpr_mean[at], ta.tpr_mean[at]),
                hovertemplate=HOVER))
        else:
            traces.append(_curve_trace(m.name, i, m.curve.fpr, m.curve.tpr, m.curve.thresholds,
                                       show_name=label, style=k, suffix=cv_auc_text(m),
                                       max_vertices=max_vertices))

    hull = analysis.hull
    traces.append(_scatter(
        x=hull.fpr, y=hull.tpr, mode="lines+markers", name="convex hull (all shown models)",
        line={"color": HULL_COLOR, "dash": "dash", "width": 1.6},
        marker={"size": 5, "color": HULL_COLOR},
        **hull_points(analysis, hull, hull.fpr, hull.tpr, np.arange(len(hull)),
                      prefix="hull vertex: "),
        hovertemplate=HOVER))
    # the star and the ring are layout annotations (figures.marks): a change of costs or
    # prior moves them without redrawing a trace; the legend keeps the star's entry
    traces.append(star_key())
    slope = analysis.conditions.slope
    line, ring = iso_shapes(analysis)
    layout = base_layout_dict(x_title="False positive rate", y_title="True positive rate",
                              font_size=font_size)
    layout["shapes"] = [
        {"type": "line", **line, "line": {"color": ISO_COLOR, "width": 2.5},
         "name": "iso-performance line"}]
    layout["annotations"] = [hover_annotation(), ring_note(ring["x"][0], ring["y"][0]),
                             star_note(*roc_star(analysis), captures=False)]
    layout["meta"] = {"slope": slope}
    subtitle = _averaging_title(analysis, averaging)
    if subtitle:
        layout["title"] = {"text": subtitle, "x": 0.01, "xanchor": "left", "y": 0.985,
                           "font": {"size": max(font_size - 3, 10), "color": "#5b6775"}}
        # a second line: the top margin grows by a line of the subtitle's font, and the
        # lines hang from the top (never cut by the figure's top edge)
        lines, size = subtitle.count("<br>"), max(font_size - 3, 10)
        layout["margin"]["t"] = 34 + round(lines * 1.3 * size) + (6 if lines else 0)
        if lines:  # (plotly puts a title's first line above a "top" anchor: pad it down)
            layout["title"].update(y=1.0, yanchor="top", pad={"t": size + 4})
    fig = fast_figure(traces, layout)
    for op in pin_list(operating, pins):
        fig.add_trace(_pinned_trace(op.fpr, op.tpr, op, analysis, font_size))
    if not analysis.models:
        _empty(fig)
    elif log_fpr:
        to_log_fpr(fig, analysis)
    return fig


#: Thresholds at which threshold averaging draws its 2-D error bars, per model.
THRESHOLD_BARS = 6


def bar_indices(fpr, tpr, *, n: int = THRESHOLD_BARS, phase: float = 0.5) -> np.ndarray:
    """Indices of ``n`` points spread evenly along a curve's length in ROC space (never its
    two ends, where every fold agrees), at fractions ``(j + phase) / n`` of the length:
    different ``phase`` per model staggers their error bars."""
    x, y = np.asarray(fpr, dtype=np.float64), np.asarray(tpr, dtype=np.float64)
    if x.size <= 2:
        return np.arange(x.size)
    length = np.concatenate(([0.0], np.cumsum(np.hypot(np.diff(x), np.diff(y)))))
    if not length[-1] > 0:
        return np.arange(min(x.size, n))
    targets = (np.arange(n) + min(max(phase, 0.0), 1.0)) / n * length[-1]
    at = np.clip(np.searchsorted(length, targets), 1, x.size - 2)
    return np.unique(at)


def _tie_band(traces: list, m, k: int) -> str:
    """Shade the region between a curve's optimistic and pessimistic tie bounds; return the
    range of AUC they span, for the model's legend entry."""
    b = tie_bounds(m.curve)
    keep_o = display_indices(b.optimistic_fpr, b.optimistic_tpr, max_points=MAX_VERTICES)
    keep_p = display_indices(b.pessimistic_fpr, b.pessimistic_tpr, max_points=MAX_VERTICES)
    x = np.concatenate((b.optimistic_fpr[keep_o], b.pessimistic_fpr[keep_p][::-1]))
    y = np.concatenate((b.optimistic_tpr[keep_o], b.pessimistic_tpr[keep_p][::-1]))
    span = f"{sig(b.pessimistic_auc)}–{sig(b.optimistic_auc)}"
    traces.append(_scatter(
        x=x, y=y, fill="toself", fillcolor=rgba(color(k), 0.16), mode="lines",
        line={"width": 0.6, "color": rgba(color(k), 0.5)},
        name=f"{plain(m.name)}: tie bounds (AUC {span})", showlegend=False,
        legendgroup=m.name, hoverinfo="skip"))
    return span


def optimum_marker(analysis: Analysis, *, det: bool = False) -> dict:
    """``x``, ``y``, ``customdata`` and ``text`` of the optimal point's marker (empty in DET
    axes when it lies on an axis, which the normal-deviate scale cannot show)."""
    opt = analysis.optimal
    if det:
        if not (0 < opt.fpr < 1 and 0 < opt.tpr < 1):
            return {"x": [], "y": [], "customdata": [], "text": []}
        x, y = float(ndtri(opt.fpr)), float(ndtri(1 - opt.tpr))
    else:
        x, y = opt.fpr, opt.tpr
    return {"x": [x], "y": [y], **_points(model_index(analysis, opt.model),
                                          opt.model or "trivial", [opt.threshold], [opt.fpr],
                                          [opt.tpr], prefix="optimum: ")}


def roc_star(analysis: Analysis) -> tuple[float, float, str]:
    """Where the optimum's star sits on ROC axes, and its hover text in the PR star's words
    (model, threshold as the page writes it, FPR, TPR). The star lets the mouse through to
    the iso line's drag (:func:`.marks.star_note`, ``captures=False``); the page shows this
    text while the pointer rests on the star (``assets/roc_star.js``)."""
    mark = optimum_marker(analysis)
    x, y = mark["x"][0], mark["y"][0]
    return x, y, f"{mark['text'][0]}<br>FPR {sig(x)}<br>TPR {sig(y)}"


def iso_shapes(analysis: Analysis) -> tuple[dict, dict]:
    """Coordinates of the iso-performance line (``layout.shapes[0]``) and of the ring around
    the optimal vertex (``x``, ``y`` of its annotation, :func:`.marks.ring_note`)."""
    opt = analysis.optimal
    x0, y0, x1, y1 = iso_line_endpoints(opt.fpr, opt.tpr, analysis.conditions.slope)
    return ({"x0": x0, "y0": y0, "x1": x1, "y1": y1}, {"x": [opt.fpr], "y": [opt.tpr]})


def auc_label(m, averaging: str, ties: str | None = None) -> str:
    """A model's legend entry, saying what its AUC is computed from.

    One model's rows, or the pooled curve drawn ("pooled"): the pooled AUC, marked "pooled"
    when there are folds. The folds' curves or their vertical/threshold average drawn: the
    mean of the folds' own AUCs ± their SD (the cross-validated AUC, LeDell et al. 2015),
    the AUC of what is drawn; the pooled AUC when the folds have none (a fold lacks a class).
    """
    name = plain(m.name)
    if ties:
        return f"{name} (AUC {sig(m.auc)}{' pooled' if m.n_folds > 1 else ''}, ties {ties})"
    if m.n_folds <= 1:
        return f"{name} (AUC {sig(m.auc)})"
    cv = m.cross_validation
    if averaging != "pooled" and cv is not None:
        return f"{name} (AUC fold mean {sig(cv.auc_mean)} ± {sig(cv.auc_sd)})"
    return f"{name} (AUC {sig(m.auc)} pooled)"


def _averaging_title(analysis: Analysis, averaging: str) -> str:
    """Subtitle saying what the curves are (folds, averages, band) and that the hull and
    the optimum always come from the pooled predictions: two lines when the folds are not
    pooled (what the curves are, then where the AUC, hull and ★ come from), so that it is
    never cut at the plot's width (stranger review 11, item 13)."""
    folds, lead, tail = fold_counts(analysis.models)
    pooled = "<br>AUC = fold mean; hull and ★ optimum from pooled predictions"
    if folds <= 1 or averaging == "pooled":
        return (f"{lead}{folds} folds pooled (curves, AUC, hull, ★ optimum){tail}"
                if folds > 1 else "")
    if averaging == "none":
        return f"{lead}each of {folds} folds{tail}{pooled}"
    m = analysis.models[0]
    if averaging == "vertical":
        va = m.vertical
        return (f"{lead}vertical average of {folds} folds, {va.level:.0%} {va.band} band"
                f"{tail}{pooled}")
    return (f"{lead}threshold average of {folds} folds, {m.threshold.level:.0%} intervals "
            f"at {THRESHOLD_BARS} thresholds per model{tail}{pooled}")


def _points(idx, name, thresholds, fpr, tpr, *, prefix="", suffix=""):
    data, text = point_data(idx, name, thresholds, fpr, tpr, prefix=prefix, suffix=suffix)
    return {"customdata": data, "text": text}


def cv_auc_text(m) -> str:
    """A hover line with a model's cross-validated AUC (the mean of its folds' AUCs ± their
    SD, LeDell et al. 2015), for a curve drawn from several folds; "" otherwise."""
    cv = m.cross_validation
    if m.n_folds <= 1 or cv is None:
        return ""
    return (f"<br>cross-validated AUC {sig(cv.auc_mean)} ± {sig(cv.auc_sd)} "
            f"(mean ± SD of {cv.auc.size} folds)")


def _fold_aucs(m) -> dict[str, str]:
    """Fold name -> a hover line with that fold's own AUC."""
    cv = m.cross_validation
    if cv is None:
        return {}
    return {str(f): f"<br>this fold's AUC {sig(a)}"
            for f, a in zip(cv.folds.tolist(), cv.auc.tolist(), strict=True)}


def vertical_threshold_text(m) -> list[str]:
    """Per point of a vertical average: the folds' score thresholds at its FP rate (their
    mean and range, :func:`~roc_dash.core.roc.fold_thresholds.thresholds_at_fpr`), since an
    averaged point has no single threshold."""
    ft = m.vertical_thresholds
    if ft is None:
        return ["no threshold: an average over folds"] * len(m.vertical.fpr)
    return [f"threshold: folds' mean {sig(a)} (range {sig(lo)} to {sig(hi)})"
            for a, lo, hi in zip(ft.mean.tolist(), ft.low.tolist(), ft.high.tolist(),
                                 strict=True)]


def model_index(analysis: Analysis, name: str) -> int:
    """Position of a model in ``analysis.models`` (-1 for the trivial classifiers)."""
    return next((i for i, m in enumerate(analysis.models) if m.name == name), -1)


def hull_points(analysis: Analysis, hull, fpr, tpr, vertex, *, prefix=""):
    """customdata/text of points lying on hull vertices ``vertex`` (indices into ``hull``)."""
    names = [str(hull.models[k]) or "trivial" for k in vertex]
    return _points([model_index(analysis, n) for n in names], names, hull.thresholds[vertex],
                   fpr, tpr, prefix=prefix)


def _pinned_trace(x, y, op: OperatingSummary, analysis: Analysis, font_size=14
                  ) -> go.Scatter:
    data, _ = point_data(model_index(analysis, op.model), op.model, [op.threshold], [op.fpr],
                         [op.tpr])
    # curves crowd every side of a ROC point: the letter goes inside its circle
    return pin_trace(x, y, op, customdata=data, font_size=font_size,
                     textposition="middle center")


def _empty(fig: go.Figure) -> None:
    fig.add_annotation(text="No model to show: drop a predictions file or tick a model.",
                       x=0.5, y=0.5, showarrow=False, font={"size": 16})


def _det_figure(fig, analysis, pins, font_size, colors=None):
    for i, m in enumerate(analysis.models):
        d = det_curve(m.curve)
        x, y = d.fpr_deviate, d.fnr_deviate
        ok = np.isfinite(x) & np.isfinite(y)
        keep = display_indices(d.fpr[ok], 1 - d.fnr[ok], max_points=MAX_VERTICES)
        sel = np.flatnonzero(ok)[keep]
        fig.add_trace(go.Scatter(
            **FAST, x=x[sel], y=y[sel], name=auc_label(m, "pooled"),
            **model_style(style_index(colors, m.name, i)),
            **_points(i, m.name, d.thresholds[sel], d.fpr[sel], 1 - d.fnr[sel]),
            hovertemplate=(f"%{{text}}<br>FPR %{{customdata[2]:{NUM}}}<br>"
                           f"TPR %{{customdata[3]:{NUM}}}<extra></extra>")))
    if analysis.models:  # the iso line, a curve in normal-deviate space (roc_axes)
        fig.add_trace(det_iso_trace(analysis))
    fig.add_trace(go.Scatter(
        **FAST, mode="markers", name="optimal operating point", uid=OPTIMUM_UID,
        marker={"symbol": "star", "size": 15, "color": OPTIMUM_COLOR},
        **optimum_marker(analysis, det=True), hovertemplate="%{text}<extra></extra>"))
    for op in pins:
        if 0 < op.fpr < 1 and 0 < op.tpr < 1:
            fig.add_trace(_pinned_trace(float(ndtri(op.fpr)), float(ndtri(1 - op.tpr)), op,
                                        analysis, font_size))
    base_layout(fig, x_title="", y_title="", font_size=font_size)
    _det_axes(fig, font_size)
    fig.update_layout(annotations=[hover_annotation()],
                      meta={"det": True, "slope": analysis.conditions.slope})
    if not analysis.models:
        _empty(fig)
    return fig
