"""Capacity views: cumulative gains (the CAP curve), lift, the KS plot, queue rate against the
threshold, and the capacity's line and point on the ROC view.

Pure functions of :mod:`roc_dash.core.constraints.capacity` results, shared by the page and
the HTML report. A model's colour and dash are those of every other view
(:func:`~.style.style_index`); names are drawn through :func:`~.style.plain`; numbers in
hovers have 6 significant digits.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..core.combining.capacity_mix import budget_line
from ..core.constraints.capacity import CapacityPoint, GainsCurve, KsStatistic
from ..text.rounding import HOVER as NUM
from ..text.rounding import sig
from . import style as sty

__all__ = ["CAPACITY_COLOR", "CAPACITY_UID", "DRAWN_POINTS", "gains_figure", "lift_figure",
           "ks_figure", "queue_rate_trace", "capacity_traces", "capacity_marker",
           "thin_indices"]

#: The capacity's line and point (dark olive, as the budget's on the combining views).
CAPACITY_COLOR = "#4d6b00"
#: ``uid`` of the capacity's point on every view (the page finds it without reading names).
CAPACITY_UID = "capacity-point"
#: Points drawn per curve at most (a curve of 10^6 vertices is thinned for the drawing only).
DRAWN_POINTS = 2000


def thin_indices(x, y, n: int = DRAWN_POINTS, keep=()) -> np.ndarray:
    """At most about ``n`` indices of a polyline, evenly spaced along its length in the
    unit-scaled plot (the first, the last and ``keep`` always): what is drawn of a long
    curve; the numbers the views report are computed on every vertex."""
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    if x.size <= n:
        return np.arange(x.size)
    span_y = float(np.nanmax(y) - np.nanmin(y)) or 1.0
    step = np.hypot(np.diff(x), np.diff(y) / span_y)
    length = np.concatenate(([0.0], np.cumsum(np.nan_to_num(step))))
    idx = np.searchsorted(length, np.linspace(0.0, length[-1], n))
    return np.unique(np.concatenate((idx, [0, x.size - 1], np.asarray(keep, dtype=np.intp))))


def _thresholds_text(thresholds) -> list[str]:
    return [f"score ≥ {sty.format_threshold(t)}" for t in thresholds]


def _model_trace(name: str, index: int, x, y, g: GainsCurve, *, y_label: str) -> dict:
    """A model's curve, thinned for drawing (:func:`thin_indices`); ``x`` and ``y`` are
    index-aligned with ``g``'s vertices."""
    k = thin_indices(x, y)
    return {"type": "scatter", "x": np.asarray(x)[k], "y": np.asarray(y)[k],
            **sty.model_style(index), "name": sty.plain(name), "legendgroup": name,
            "text": _thresholds_text(g.thresholds[k]), "meta": f"<b>{sty.plain(name)}</b>",
            "hovertemplate": (f"%{{meta}} %{{text}}<br>share of cases flagged %{{x:{NUM}}}"
                              f"<br>{y_label} %{{y:{NUM}}}<extra></extra>")}


def capacity_marker(x: float, y: float, text: str) -> dict:
    """The capacity's point on a view (``uid`` :data:`CAPACITY_UID`)."""
    return {"type": "scatter", "x": [x], "y": [y], "mode": "markers+text", "uid": CAPACITY_UID,
            "name": "capacity", "text": ["K"], "textposition": "bottom right",
            "textfont": {"color": CAPACITY_COLOR, "family": "Arial Black, sans-serif"},
            "marker": {"symbol": "diamond", "size": 13, "color": CAPACITY_COLOR,
                       "line": {"width": 1, "color": "white"}},
            "hovertext": [text], "hovertemplate": "%{hovertext}<extra></extra>"}


def _capacity_text(cp: CapacityPoint) -> str:
    return (f"capacity {cp.capacity:,.6g} of {cp.n_total:,.6g} cases "
            f"({sig(100 * cp.queue_rate)}%)<br>precision@K {sig(cp.precision)}, "
            f"recall@K {sig(cp.recall)}, lift {sig(cp.lift)}<br>{sty.plain(cp.mix.how)}")


def gains_figure(results: Mapping[str, GainsCurve], *, capacity: CapacityPoint | None = None,
                 colors: dict[str, int] | None = None, font_size: int = 14):
    """Cumulative gains (the CAP curve) of each model: share of positives captured against
    the share of cases flagged, with the random model (the diagonal), the perfect model
    and, given ``capacity``, its queue rate as a vertical line and its point.

    The legend gives each model's accuracy ratio (``2·AUC − 1``)."""
    data = [{"type": "scatter", "x": [0, 1], "y": [0, 1], "mode": "lines",
             "name": "random", "line": {"color": sty.REFERENCE_COLOR, "dash": "dot", "width": 1.5},
             "hovertemplate": "random: no threshold<extra></extra>"}]
    if results:
        p = next(iter(results.values())).prior_pos
        data.append({"type": "scatter", "x": [0, p, 1], "y": [0, 1, 1], "mode": "lines",
                     "name": "perfect", "line": {"color": sty.REFERENCE_COLOR, "width": 1},
                     "hovertemplate": "perfect model: every positive first<extra></extra>"})
    for i, (name, g) in enumerate(results.items()):
        trace = _model_trace(name, sty.style_index(colors, name, i), g.queue_rate, g.gain, g,
                             y_label="share of positives captured")
        trace["name"] = f"{sty.plain(name)} (accuracy ratio {sig(g.accuracy_ratio)})"
        data.append(trace)
    shapes = []
    if capacity is not None:
        shapes.append({"type": "line", "x0": capacity.queue_rate, "x1": capacity.queue_rate,
                       "y0": 0, "y1": 1, "line": {"color": CAPACITY_COLOR, "dash": "dashdot",
                                                   "width": 2}})
        data.append(capacity_marker(capacity.queue_rate, capacity.recall,
                                    _capacity_text(capacity)))
    layout = sty.base_layout_dict(x_title="Share of cases flagged (queue rate)",
                                  y_title="Share of positives captured (gain)", font_size=font_size)
    layout.update(annotations=[sty.hover_annotation()], shapes=shapes)
    return sty.fast_figure(data, layout)


def lift_figure(results: Mapping[str, GainsCurve], *, capacity: CapacityPoint | None = None,
                colors: dict[str, int] | None = None, font_size: int = 14):
    """Lift of each model (precision over the prior) against the share of cases flagged,
    with lift 1 (random) and, given ``capacity``, its point."""
    data = [{"type": "scatter", "x": [0, 1], "y": [1, 1], "mode": "lines", "name": "random",
             "line": {"color": sty.REFERENCE_COLOR, "dash": "dot", "width": 1.5},
             "hovertemplate": "random: lift 1<extra></extra>"}]
    top = 1.0
    for i, (name, g) in enumerate(results.items()):
        ok = np.isfinite(g.lift)
        lift = np.where(ok, g.lift, np.nan)
        trace = _model_trace(name, sty.style_index(colors, name, i), g.queue_rate, lift, g,
                             y_label="lift")
        shown = np.isfinite(np.asarray(trace["y"]))
        trace["x"], trace["y"] = np.asarray(trace["x"])[shown], np.asarray(trace["y"])[shown]
        trace["text"] = [t for t, s in zip(trace["text"], shown, strict=True) if s]
        data.append(trace)
        if ok.any():
            top = max(top, float(np.max(g.lift[ok])))
    if capacity is not None and np.isfinite(capacity.lift):
        data.append(capacity_marker(capacity.queue_rate, capacity.lift,
                                    _capacity_text(capacity)))
    layout = sty.base_layout_dict(x_title="Share of cases flagged (queue rate)", y_title="Lift",
                                  font_size=font_size, square=False,
                                  y_range=(0.0, 1.05 * top))
    layout.update(annotations=[sty.hover_annotation()])
    return sty.fast_figure(data, layout)


def ks_figure(name: str, g: GainsCurve, ks: KsStatistic, *, index: int = 0,
              font_size: int = 14):
    """The KS plot of one model: TPR and FPR against the share of cases flagged (the two
    classes' cumulative shares), the gap between them largest at the KS statistic."""
    style = sty.line_style(index)
    k = thin_indices(g.queue_rate, g.gain - g.fpr, keep=[ks.index])
    text = _thresholds_text(g.thresholds[k])
    x = g.queue_rate[k]
    data = [{"type": "scatter", "x": x, "y": g.gain[k], "mode": "lines",
             "name": "positives (TPR)", "line": {**style, "width": 2.5}, "text": text,
             "hovertemplate": f"%{{text}}<br>TPR %{{y:{NUM}}}<extra></extra>"},
            {"type": "scatter", "x": x, "y": g.fpr[k], "mode": "lines",
             "name": "negatives (FPR)",
             "line": {"color": sty.REFERENCE_COLOR, "width": 2.5, "dash": "dash"}, "text": text,
             "hovertemplate": f"%{{text}}<br>FPR %{{y:{NUM}}}<extra></extra>"},
            {"type": "scatter", "x": [g.queue_rate[ks.index]] * 2, "y": [ks.fpr, ks.tpr],
             "mode": "lines+markers", "name": f"KS {sig(ks.statistic)}",
             "line": {"color": sty.OPTIMUM_COLOR, "width": 2},
             "hovertemplate": (f"{sty.plain(name)}: KS = {sig(ks.statistic)} at score ≥ "
                               f"{sty.format_threshold(ks.threshold)}<extra></extra>")}]
    layout = sty.base_layout_dict(x_title="Share of cases flagged",
                                  y_title="Share of the class flagged", font_size=font_size)
    return sty.fast_figure(data, layout)


def queue_rate_trace(name: str, g: GainsCurve, *, index: int = 0) -> dict:
    """Queue rate against the threshold, for the threshold view (yellowbrick's
    ``DiscriminationThreshold`` line): x the score threshold, y the share flagged."""
    finite = np.flatnonzero(np.isfinite(g.thresholds))
    k = finite[thin_indices(g.queue_rate[finite], g.queue_rate[finite])]
    return {"type": "scatter", "x": g.thresholds[k], "y": g.queue_rate[k],
            "mode": "lines", "line_shape": "hv", "name": f"{sty.plain(name)} queue rate",
            "line": {**sty.line_style(index), "width": 1.5}, "opacity": 0.8,
            # the threshold as the page writes it (x's own .6~g could round it up)
            "customdata": sty.shown_thresholds(g.thresholds[k]),
            "hovertemplate": (f"{sty.plain(name)}: score ≥ %{{customdata:{NUM}}} flags "
                              f"%{{y:{NUM}}} of the cases<extra></extra>")}


def capacity_traces(cp: CapacityPoint) -> list[dict]:
    """The capacity on the ROC view: its line ``p·TPR + (1−p)·FPR = K/n`` (Fawcett 2004,
    section 7.4.1, figure 10), the hull point using all of it and the single threshold
    within it (add after the view's traces; the iso line stays ``layout.shapes[0]``)."""
    line = budget_line(n_total=1.0, prior_pos=cp.prior_pos, fraction=cp.queue_rate)
    out = []
    if line.fpr.size:
        out.append({"type": "scatter", "x": line.fpr, "y": line.tpr, "mode": "lines",
                    "name": f"capacity: {sig(100 * cp.queue_rate)}% of cases",
                    "legendgroup": "capacity",
                    "line": {"color": CAPACITY_COLOR, "dash": "dashdot", "width": 2},
                    "hovertemplate": (f"capacity {sig(100 * cp.queue_rate)}% of cases: the "
                                      f"points flagging exactly that share<br>FPR %{{x:{NUM}}}"
                                      f"<br>TPR %{{y:{NUM}}}<extra></extra>")})
    out.append(capacity_marker(cp.mix.fpr, cp.mix.tpr, _capacity_text(cp)))
    d = cp.decision
    if d.index is not None:
        out.append({"type": "scatter", "x": [d.fpr], "y": [d.tpr], "mode": "markers",
                    "name": "capacity: best single threshold", "legendgroup": "capacity",
                    "marker": {"symbol": "diamond-open", "size": 12, "color": CAPACITY_COLOR,
                               "line": {"width": 2, "color": CAPACITY_COLOR}},
                    "hovertemplate": (f"least cost within the capacity: score ≥ "
                                      f"{sty.format_threshold(d.threshold)}<br>FPR %{{x:{NUM}}}"
                                      f"<br>TPR %{{y:{NUM}}}<extra></extra>")})
    return out
