"""Other axes for the ROC view: a log-scaled FPR axis, and the iso line as a curve.

A model with AUC near 1 lives in the top-left corner of ROC space, where every curve, the
hull and the iso-performance line crowd into a few pixels. Drawing the false positive rate
on a log scale spreads that corner out (the same idea as the DET view's normal-deviate
axes, Fawcett 2004, section 7.5.1, without moving the TPR axis).

**FPR = 0 on a log axis.** ``log(0)`` does not exist: every point with FPR = 0 (the curve's
start and its vertical first segment) is drawn at a *floor*, half the smallest non-zero
FPR of anything drawn (``1/(2N)`` for ``N`` unweighted negatives: half of one negative's
step), at the axis's left edge, and the axis title says so. Hover texts and
``customdata`` keep the true FPR. Points with FPR > 0 are drawn at their FPR.

**The iso-performance line** ``TPR = t + m (FPR - f)`` is straight only on linear axes:
on the log axis (and on the DET view's normal-deviate axes) it becomes a curve, drawn as a
trace (uid :data:`ISO_UID`) sampled densely between the axis limits. It cannot be dragged
there (a straight shape would be wrong); the cost sliders move it, and the view's hint
says so.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go
from scipy.special import ndtr, ndtri

from .marks import RING_NOTE, STAR_NOTE, note_x
from .style import ISO_COLOR

__all__ = ["ISO_UID", "ISO_SAMPLES", "DET_LIMITS", "log_fpr_floor", "iso_curve",
           "det_iso_curve", "iso_trace", "det_iso_trace", "to_log_fpr", "log_fpr_note"]

#: Stable uid of the iso-performance curve trace (log-FPR ROC and DET views).
ISO_UID = "iso-curve"
#: Samples of the iso curve between the axis limits (geometric in FPR on the log axis,
#: even in normal deviate on the DET axes); assets/roc_dash.js uses the same number.
ISO_SAMPLES = 241
#: The DET view's axis limits, as probabilities (figures/roc.py draws them).
DET_LIMITS = (0.0005, 0.9995)
#: Where the hidden straight line (``layout.shapes[0]``) lies on a log axis: outside the
#: figure (paper coordinates), out of reach of the pointer.
#: Drawn (a hidden shape keeps plotly's stale drag handles of the line drawn before, at the
#: old place), but transparent.
_AWAY = {"xref": "paper", "yref": "paper", "x0": -3.0, "x1": -3.0, "y0": -3.0, "y1": -2.9,
         "opacity": 0.0}
#: Room left of the floor and right of FPR = 1 on the log axis, in decades.
_PAD = 0.04


def log_fpr_floor(analysis) -> float:
    """Where FPR = 0 is drawn on a log FPR axis: half the smallest non-zero FPR of the
    shown models' curves and of the hull (``1/(2N)`` for ``N`` unweighted negatives)."""
    steps = [np.asarray(m.curve.fpr, dtype=float) for m in analysis.models]
    steps.append(np.asarray(analysis.hull.fpr, dtype=float))
    values = np.concatenate(steps) if steps else np.empty(0)
    positive = values[values > 0]
    return float(positive.min()) / 2 if positive.size else 1e-3


def iso_curve(fpr: float, tpr: float, slope: float, *, x_min: float,
              n: int = ISO_SAMPLES) -> tuple[np.ndarray, np.ndarray]:
    """The iso-performance line through ``(fpr, tpr)`` with ``slope`` inside the unit
    square, sampled at ``n`` FPRs spaced geometrically from ``x_min`` to 1 plus the exact
    points where it leaves the square (drawn as a curve on a log FPR axis)."""
    if not math.isfinite(slope):
        return np.array([fpr, fpr]), np.array([0.0, 1.0])
    x = np.geomspace(x_min, 1.0, n)
    if slope > 0:  # where the line crosses TPR = 0 and TPR = 1
        ends = np.array([fpr - tpr / slope, fpr + (1 - tpr) / slope])
        x = np.union1d(x, ends[(ends > x_min) & (ends < 1)])
        x = x[np.r_[True, np.diff(x) > 1e-12 * x[1:]]]  # an end on a sample: once
    y = tpr + slope * (x - fpr)
    tol = 1e-12
    keep = (y >= -tol) & (y <= 1 + tol)
    return x[keep], np.clip(y[keep], 0.0, 1.0)


def det_iso_curve(fpr: float, tpr: float, slope: float, *,
                  n: int = ISO_SAMPLES) -> tuple[np.ndarray, np.ndarray]:
    """The iso-performance line in DET space: ``(ndtri(FPR), ndtri(1 - TPR))`` along
    ``TPR = tpr + slope (FPR - fpr)``, sampled at ``n`` points evenly spaced in the FPR's
    normal deviate across the DET axes (:data:`DET_LIMITS`) and ``n`` evenly spaced in
    the FNR's; points at FPR or TPR 0 or 1 (infinite deviates) are left out."""
    lo, hi = (float(ndtri(p)) for p in DET_LIMITS)
    if not math.isfinite(slope):
        f = np.array([fpr, fpr]) if 0 < fpr < 1 else np.empty(0)
        t = np.array(DET_LIMITS)[::-1] if f.size else np.empty(0)
    else:  # even in both deviates: the curve turns steeply where TPR nears 0 or 1
        grid = ndtr(np.linspace(lo, hi, n))
        f = grid if slope <= 0 else np.union1d(grid, fpr + ((1 - grid) - tpr) / slope)
        t = tpr + slope * (f - fpr)
    keep = (f > 0) & (f < 1) & (t > 0) & (t < 1)
    return ndtri(f[keep]), ndtri(1 - t[keep])


def _iso_dict(x, y) -> dict:
    # plain lists, as the cost-change patch writes them (render._patch_iso)
    return {"type": "scatter", "x": np.asarray(x).tolist(), "y": np.asarray(y).tolist(),
            "mode": "lines", "uid": ISO_UID,
            "name": "iso-performance line", "showlegend": False, "hoverinfo": "skip",
            "line": {"color": ISO_COLOR, "width": 2.5}}


def iso_trace(analysis, *, x_min: float) -> dict:
    """The iso-performance curve through the optimum on a log FPR axis (a trace dict)."""
    opt = analysis.optimal
    return _iso_dict(*iso_curve(opt.fpr, opt.tpr, analysis.conditions.slope, x_min=x_min))


def det_iso_trace(analysis) -> dict:
    """The iso-performance curve through the optimum on the DET axes (a trace dict)."""
    opt = analysis.optimal
    return _iso_dict(*det_iso_curve(opt.fpr, opt.tpr, analysis.conditions.slope))


def log_fpr_note(floor: float) -> str:
    """The axis note of a log FPR axis: where FPR = 0 is drawn."""
    return f"FPR = 0 drawn at {floor:.2g}, half the smallest step"


def _clamped_x(trace, floor: float):
    x = trace.x
    if x is None or len(x) == 0:
        return None
    values = np.asarray(x, dtype=float)
    return np.maximum(values, floor) if np.any(values < floor) else None


def to_log_fpr(fig: go.Figure, analysis) -> float:
    """Turn a ROC view (:func:`.roc.roc_figure`) into its log-FPR form, in place, and return
    the floor where FPR = 0 is drawn (:func:`log_fpr_floor`).

    Every point with FPR below the floor (FPR = 0) is moved to it, points with FPR > 0 keep
    their FPR; hover texts read the FPR from ``customdata[2]`` (the true value); the chance
    diagonal is sampled so that it stays the curve TPR = FPR; the straight iso line
    (``layout.shapes[0]``, kept hidden) gives way to the sampled curve :func:`iso_trace`; the x axis is log
    from the floor to 1, its title saying where FPR = 0 is drawn; ``layout.meta.xlog`` holds the floor (the page finds
    the curve by its uid, :data:`ISO_UID`, and assets/roc_dash.js moves it while a slider
    is dragged).
    """
    floor = log_fpr_floor(analysis)
    for trace in fig.data:
        if trace.name and trace.name.startswith("chance"):
            x = np.geomspace(floor, 1.0, 64)
            trace.update(x=x, y=x)
            continue
        x = _clamped_x(trace, floor)
        if x is not None:
            trace.x = x
        template = getattr(trace, "hovertemplate", None)
        if isinstance(template, str) and trace.customdata is not None:
            trace.hovertemplate = template.replace("%{x:", "%{customdata[2]:")
    if analysis.models:
        fig.add_trace(iso_trace(analysis, x_min=floor))
    for note in fig.layout.annotations:  # the optimum's star and ring (figures.marks)
        if note.name in (STAR_NOTE, RING_NOTE):
            note.x = note_x(note.x, floor)
    # shapes[0] stays, transparent and out of the figure: removed or hidden, plotly kept the
    # drag handles of the line drawn before (the page's graph config makes every shape
    # editable) where it was, and a zoom box started on one dragged an invisible line
    fig.layout.shapes = [{**shape.to_plotly_json(), **_AWAY} for shape in fig.layout.shapes[:1]]
    lo = math.log10(floor)
    # the note in the axis title: inside the plot it sat on the curves' vertical start
    fig.update_xaxes(type="log", range=[lo - _PAD, _PAD], autorange=False, constrain=None,
                     title_text=f"False positive rate (log scale; {log_fpr_note(floor)})")
    fig.layout.yaxis.scaleanchor = None
    meta = dict(fig.layout.meta or {})
    meta["xlog"] = floor
    fig.layout.meta = meta
    return floor
