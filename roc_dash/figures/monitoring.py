"""Figures of a monitor run (:class:`~roc_dash.core.monitoring.MonitorResult`).

* :func:`monitor_roc_figure`: ROC space. The reference's hull (which does not move with the
  prior), the deployed operating point and the iso-performance line at the decision's prior;
  per window, the operating point observed at the threshold (labelled windows, with its
  intervals) or the hull vertex the window's estimated prior calls for (unlabelled), joined
  in time order: the operating point's path.
* :func:`monitor_time_figure`: over the windows. The prior (counted, EM, PACC, ACC with
  their intervals) against the band of priors over which the deployed choice stays
  optimal; the cost per case of staying with the threshold and of switching to the
  window's optimum.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..core.monitoring import MonitorResult
from ..text.rounding import rule_threshold, sig
from .style import (
    HULL_COLOR,
    ISO_COLOR,
    MAX_VERTICES,
    OPTIMUM_COLOR,
    REFERENCE_COLOR,
    SYMBOLS,
    base_layout,
    color,
    line_style,
    plain,
    rgba,
)

__all__ = ["monitor_roc_figure", "monitor_time_figure", "ESTIMATE_NAMES"]

#: How each prevalence estimate is named in the figures.
ESTIMATE_NAMES = {"labels": "counted (labels)", "em": "EM", "pacc": "PACC", "acc": "ACC"}


def _thinned(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    if x.size <= MAX_VERTICES:
        return x, y
    keep = np.unique(np.linspace(0, x.size - 1, MAX_VERTICES).astype(int))
    return x[keep], y[keep]


def _iso_line(fpr: float, tpr: float, slope: float) -> tuple[list, list]:
    """The iso-performance line through a point, clipped to the unit square."""
    if math.isinf(slope):
        return [fpr, fpr], [0.0, 1.0]
    xs = np.array([0.0, 1.0])
    ys = tpr + slope * (xs - fpr)
    if slope > 0:  # clip where it leaves the square
        xs = np.clip([fpr - tpr / slope, fpr + (1 - tpr) / slope], 0.0, 1.0)
        ys = tpr + slope * (xs - fpr)
    return xs.tolist(), np.clip(ys, 0.0, 1.0).tolist()


def _window_point(w) -> tuple[float, float, str, dict | None] | None:
    """(fpr, tpr, hover, error bars) of a window in ROC space, or None."""
    name = plain(w.name)
    m = w.labelled
    if m is not None:
        bars = {"x": (m.fpr.low, m.fpr.high), "y": (m.tpr.low, m.tpr.high)}
        return (m.fpr.value, m.tpr.value,
                f"{name}: observed at the threshold<br>FPR {sig(m.fpr.value)}, TPR "
                f"{sig(m.tpr.value)}", bars)
    r = w.rederived
    if r is None:
        return None
    return (r.choice.fpr, r.choice.tpr,
            f"{name}: optimum at the estimated prior {sig(r.prior.value)}<br>score ≥ "
            f"{rule_threshold(r.choice.threshold)}", None)


def _pin_text(p) -> str:
    return (f"{plain(p.window)}: pinned score ≥ {rule_threshold(p.threshold)}<br>FPR {sig(p.fpr)}, "
            f"TPR {sig(p.tpr)} ({'its labels' if p.rates == 'labels' else 'reference ROC'})"
            f"<br>expected cost {sig(p.expected_cost)} at p(+) {sig(p.prior_pos)}")


def _pins_roc(fig, pins) -> None:
    if pins:
        fig.add_trace(go.Scatter(
            x=[p.fpr for p in pins], y=[p.tpr for p in pins], mode="markers+text",
            name="pinned thresholds", text=[f"{plain(p.window)} pin" for p in pins],
            textposition="bottom center", textfont={"size": 10},
            hovertext=[_pin_text(p) for p in pins], hovertemplate="%{hovertext}<extra></extra>",
            marker={"symbol": "x-thin-open", "size": 14, "line": {"width": 2},
                    "color": color(3)}))


def monitor_roc_figure(result: MonitorResult, *, font_size: int = 14, pins=()) -> go.Figure:
    """The operating point's path in ROC space (module docstring), with the thresholds
    pinned for windows (:class:`~roc_dash.core.monitoring.window_pins.WindowPin`)."""
    ref = result.reference
    fig = go.Figure()
    deployed = (f"deployed: score ≥ {rule_threshold(ref.threshold)}<br>FPR {sig(ref.fpr)}, "
                f"TPR {sig(ref.tpr)}")
    if ref.curve is not None:
        x, y = _thinned(ref.curve.fpr, ref.curve.tpr)
        fig.add_trace(go.Scatter(x=x, y=y, mode="lines", name="reference ROC",
                                 line={"color": REFERENCE_COLOR, "width": 1.5},
                                 hoverinfo="skip"))
        # the deployed star's own words also on the hull vertex under it: plotly's closest
        # hover picks one of two points at one place, the hull's (review9)
        at_star = np.isclose(ref.hull.fpr, ref.fpr, rtol=0, atol=1e-12) & \
            np.isclose(ref.hull.tpr, ref.tpr, rtol=0, atol=1e-12)
        fig.add_trace(go.Scatter(x=ref.hull.fpr, y=ref.hull.tpr, mode="lines+markers",
                                 name="reference hull", marker={"size": 4},
                                 line={"color": HULL_COLOR, "width": 1.5, "dash": "dash"},
                                 hovertext=[deployed if star else
                                            f"hull vertex: score ≥ {rule_threshold(t)}"
                                            for t, star in zip(ref.hull.thresholds.tolist(),
                                                               at_star.tolist(), strict=True)],
                                 hovertemplate="%{hovertext}<extra></extra>"))
    slope = ref.economics.net_cost_fp * (1 - ref.prior_pos) / (
        ref.economics.net_cost_fn * ref.prior_pos)
    ix, iy = _iso_line(ref.fpr, ref.tpr, slope)
    fig.add_trace(go.Scatter(x=ix, y=iy, mode="lines", name="iso line (decision's prior)",
                             line={"color": ISO_COLOR, "width": 1, "dash": "dot"},
                             hoverinfo="skip"))
    fig.add_trace(go.Scatter(
        x=[ref.fpr], y=[ref.tpr], mode="markers", name="deployed (record)",
        marker={"symbol": "star", "size": 16, "color": OPTIMUM_COLOR},
        hovertemplate=f"{deployed}<extra></extra>"))
    for labelled, k in ((True, 0), (False, 1)):
        pts = [(w, p) for w in result.windows
               if (p := _window_point(w)) is not None and (w.labelled is not None) == labelled]
        if not pts:
            continue
        trace = {"x": [p[0] for _, p in pts], "y": [p[1] for _, p in pts],
                 "mode": "lines+markers+text", "text": [plain(w.name) for w, _ in pts],
                 "textposition": "top center", "hovertext": [p[2] for _, p in pts],
                 "hovertemplate": "%{hovertext}<extra></extra>",
                 "name": ("windows: observed (labels)" if labelled
                          else "windows: optimum at the estimated prior"),
                 "line": line_style(k, width=1), "textfont": {"size": 10},
                 "marker": {"size": 9, "color": color(k),
                            "symbol": "circle" if labelled else "square-open"}}
        if labelled:
            bars = [p[3] for _, p in pts]
            trace["error_x"] = {"type": "data", "symmetric": False, "thickness": 1,
                                "array": [b["x"][1] - p[0] for (_, p), b in zip(pts, bars, strict=True)],
                                "arrayminus": [p[0] - b["x"][0] for (_, p), b in zip(pts, bars, strict=True)]}
            trace["error_y"] = {"type": "data", "symmetric": False, "thickness": 1,
                                "array": [b["y"][1] - p[1] for (_, p), b in zip(pts, bars, strict=True)],
                                "arrayminus": [p[1] - b["y"][0] for (_, p), b in zip(pts, bars, strict=True)]}
        fig.add_trace(go.Scatter(**trace))
    _pins_roc(fig, pins)
    base_layout(fig, x_title="False positive rate", y_title="True positive rate",
                font_size=font_size)
    fig.update_layout(height=560, margin={"b": 110})
    return fig


def _band(fig, result: MonitorResult) -> None:
    """The priors over which the deployed choice stays optimal, shaded."""
    held = next((w.rederived.holds_over for w in result.windows if w.rederived), None)
    if held is None:
        return
    fig.add_hrect(y0=held[0], y1=held[1], row=1, col=1, line_width=0,
                  fillcolor=rgba(color(2), 0.15),
                  annotation_text="the deployed choice stays optimal",
                  annotation_position="top left", annotation_font_size=11)


def _estimate_trace(result: MonitorResult, method: str, k: int) -> go.Scatter | None:
    names, value, low, high = [], [], [], []
    for w in result.windows:
        e = w.estimate(method)
        if e is None:
            continue
        names.append(plain(w.name))
        value.append(e.value)
        low.append(e.value - e.low if math.isfinite(e.low) else 0.0)
        high.append(e.high - e.value if math.isfinite(e.high) else 0.0)
    if not names:
        return None
    return go.Scatter(x=names, y=value, mode="lines+markers", name=ESTIMATE_NAMES[method],
                      legendgroup="prior",
                      marker={"color": color(k), "size": 8, "symbol": SYMBOLS[k % len(SYMBOLS)]},
                      line=line_style(k, width=1.5),
                      error_y={"type": "data", "symmetric": False, "array": high,
                               "arrayminus": low, "thickness": 1},
                      hovertemplate=f"{ESTIMATE_NAMES[method]}: %{{y:.4g}}<extra>%{{x}}</extra>")


def _costs(result: MonitorResult) -> tuple[list, list, list]:
    names, staying, switching = [], [], []
    for w in result.windows:
        if w.labelled is not None:
            stay, switch = w.labelled.cost.value, w.labelled.optimum.expected_cost
        elif w.rederived is not None:
            stay, switch = w.rederived.deployed_cost.value, w.rederived.choice.expected_cost
        else:
            continue
        names.append(plain(w.name))
        staying.append(stay)
        switching.append(switch)
    return names, staying, switching


def monitor_time_figure(result: MonitorResult, *, font_size: int = 14, pins=()) -> go.Figure:
    """The prior and the cost of staying against switching, window by window (module
    docstring), and the cost at each threshold pinned for a window."""
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.08,
                        subplot_titles=("Share of positives p(+)", "Expected cost per case"))
    for k, method in enumerate(("labels", "em", "pacc", "acc")):
        trace = _estimate_trace(result, method, k)
        if trace is not None:
            fig.add_trace(trace, row=1, col=1)
    names, staying, switching = _costs(result)
    if names:
        fig.add_trace(go.Scatter(x=names, y=staying, mode="lines+markers",
                                 name="staying with the threshold",
                                 marker={"color": OPTIMUM_COLOR, "size": 8},
                                 line={"color": OPTIMUM_COLOR}), row=2, col=1)
        fig.add_trace(go.Scatter(x=names, y=switching, mode="lines+markers",
                                 name="switching to the window's optimum",
                                 marker={"color": HULL_COLOR, "size": 8, "symbol": "diamond"},
                                 line={"color": HULL_COLOR, "dash": "dash"}), row=2, col=1)
    if pins:
        fig.add_trace(go.Scatter(x=[plain(p.window) for p in pins],
                                 y=[p.expected_cost for p in pins], mode="markers",
                                 name="pinned threshold", hovertext=[_pin_text(p) for p in pins],
                                 hovertemplate="%{hovertext}<extra></extra>",
                                 marker={"symbol": "x-thin-open", "size": 14, "color": color(3),
                                         "line": {"width": 2}}), row=2, col=1)
    # shapes after the traces: plotly leaves out the subplots still empty
    _band(fig, result)
    fig.add_hline(y=result.reference.prior_pos, row=1, col=1, line_dash="dot",
                  line_color=ISO_COLOR, annotation_text="decision's prior",
                  annotation_position="bottom right", annotation_font_size=11)
    fig.add_hline(y=result.reference.expected_cost, row=2, col=1, line_dash="dot",
                  line_color=REFERENCE_COLOR, annotation_text="the decision's cost",
                  annotation_font_size=11)
    fig.update_layout(height=640, font={"size": font_size}, hovermode="x unified",
                      margin={"l": 60, "r": 200, "t": 40, "b": 40},
                      legend={"orientation": "v", "x": 1.02, "y": 1.0})
    # the windows in their order (the table's): plotly would order the categories as the
    # traces first meet them (labelled windows' trace first), zigzagging the lines
    fig.update_xaxes(type="category", categoryorder="array",
                     categoryarray=[plain(w.name) for w in result.windows],
                     showline=True, linecolor="#444", mirror=True)
    fig.update_yaxes(showline=True, linecolor="#444", mirror=True)
    return fig
