"""Reliability diagram with the hull's calibration map (:mod:`roc_dash.core.inference.calibration`).

x: the score (for probabilities, the predicted probability); y: the observed fraction of
positives. Per model: its reliability points (mean score against fraction positive in each
bin, marker area growing with the bin's count) and, as a thinner step line of the same
colour and dash, the hull-calibrated probability of every score (PAV ≡ ROCCH). The diagonal
is perfect calibration. Models whose scores are not probabilities show only their hull map,
and the subtitle says so. Every number in a hover has 6 significant digits.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..core.inference.calibration import Calibration
from . import style as sty

__all__ = ["calibration_figure", "DIAGONAL_NAME"]

DIAGONAL_NAME = "perfectly calibrated"


def _reliability_trace(name: str, cal: Calibration, style: dict, symbol: str = "circle"
                       ) -> dict:
    lo, hi = cal.edges[cal.bin], cal.edges[cal.bin + 1]
    size = 6 + 10 * np.sqrt(cal.count / cal.count.max())
    return {
        "type": "scatter", "x": cal.mean_predicted, "y": cal.fraction_positive,
        "mode": "lines+markers",
        "name": f"{sty.plain(name)} (Brier {cal.brier:.6g}, ECE {cal.ece:.6g})",
        "legendgroup": f"calibration {name}",
        "line": {**style, "width": 2}, "marker": {"size": size.tolist(), "color": style["color"],
                                           "symbol": symbol},
        "customdata": np.column_stack((lo, hi, cal.count)).tolist(),
        "meta": f"<b>{sty.plain(name)}</b>",
        "hovertemplate": ("%{meta}<br>no threshold: a bin of scores (%{customdata[0]:.6~g}, "
                          "%{customdata[1]:.6~g}]<br>mean score %{x:.6~g}<br>"
                          "observed fraction positive %{y:.6~g}<br>"
                          "cases %{customdata[2]:.6~g}<extra></extra>"),
    }


def _hull_map_trace(name: str, cal: Calibration, style: dict, *, alone: bool) -> dict:
    """The step function: one point per step at its lowest score, the last step drawn to
    the largest score seen (``line_shape="hv"`` holds each value up to the next step)."""
    hm = cal.hull_map
    x = np.append(np.maximum(hm.lower, hm.score_min), hm.score_max)
    y = np.append(hm.probability, hm.probability[-1])
    text = [f"<b>{sty.plain(name)}</b> hull-calibrated<br>between thresholds: scores ≥ "
            f"{sty.format_threshold(lo)} and < {sty.format_threshold(up)}<br>"
            f"probability {p:.6g} (hull slope "
            f"{sty.format_threshold(m)})<br>{pos:.6g} positives, {neg:.6g} negatives"
            for lo, up, p, m, pos, neg in zip(hm.lower, hm.upper, hm.probability, hm.slope,
                                              hm.positives, hm.negatives, strict=True)]
    text.append(text[-1])
    return {
        "type": "scatter", "x": x, "y": y, "mode": "lines", "line_shape": "hv",
        "name": f"{sty.plain(name)} hull-calibrated (PAV)",
        "legendgroup": f"calibration {name}", "showlegend": True,
        "line": {**style, "width": 2 if alone else 1.5}, "opacity": 0.8,
        "text": text, "hovertemplate": "%{text}<extra></extra>",
    }


def calibration_figure(results: Mapping[str, Calibration], *, colors: dict[str, int] | None = None,
                       font_size: int = 14, hull_map: bool = True):
    """The reliability diagram of each model in ``results`` (name -> calibration, in the
    order of the shown models), with its hull calibration map when ``hull_map``.

    ``colors`` maps a model's name to its colour/dash index among all loaded models
    (:func:`~.style.style_index`), as in every other view. Built as plain dicts and wrapped
    once (:func:`~.style.fast_figure`).
    """
    probabilities = all(c.in_unit_interval for c in results.values())
    data = []
    if any(c.in_unit_interval for c in results.values()) or not results:
        data.append({"type": "scatter", "x": [0, 1], "y": [0, 1], "mode": "lines",
                     "name": DIAGONAL_NAME,
                     "line": {"color": sty.REFERENCE_COLOR, "dash": sty.CHANCE_DASH, "width": 1.5},
                     "hovertemplate": (f"{DIAGONAL_NAME}<br>no threshold: where the mean score "
                                       "equals the fraction positive<extra></extra>")})
    for i, (name, cal) in enumerate(results.items()):
        k = sty.style_index(colors, name, i)
        style = sty.line_style(k)
        if cal.in_unit_interval and cal.count.size:
            data.append(_reliability_trace(name, cal, style, sty.marker_style(k)["symbol"]))
        if hull_map or not cal.in_unit_interval:
            data.append(_hull_map_trace(name, cal, style, alone=not cal.in_unit_interval))
    x_title = "Predicted probability (score)" if probabilities else "Score"
    y_title = ("Observed fraction positive" if probabilities
               else "Observed or hull-calibrated probability")
    layout = sty.base_layout_dict(x_title=x_title, y_title=y_title,
                                  font_size=font_size, square=probabilities)
    if not probabilities:
        layout["xaxis"].pop("range", None)
        layout["xaxis"]["autorange"] = True
    layout.update(annotations=[sty.hover_annotation()])
    fig = sty.fast_figure(data, layout)
    others = [sty.plain(n) for n, c in results.items() if not c.in_unit_interval]
    if others:
        sty.set_subtitle(fig, f"Scores of {', '.join(others)} are not probabilities: only "
                          f"{'its' if len(others) == 1 else 'their'} hull-calibrated map "
                          "is shown (score on x).", font_size)
    return fig
