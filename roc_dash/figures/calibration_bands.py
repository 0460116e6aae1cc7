"""The reliability diagram with its uncertainty: each bin's interval, the logistic
recalibration line ``σ(a + b·logit p)`` and the slope, intercept and Spiegelhalter's test in
the legend (:mod:`roc_dash.core.constraints.calibration_intervals`). Pure; shared by the
page and the HTML report."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from scipy.special import expit

from ..core.constraints.calibration_intervals import CalibrationUncertainty
from ..text.rounding import HOVER as NUM
from ..text.rounding import sig
from .style import (
    REFERENCE_COLOR,
    base_layout_dict,
    fast_figure,
    hover_annotation,
    line_style,
    marker_style,
    plain,
    style_index,
)

__all__ = ["reliability_band_figure", "fit_text"]


def fit_text(u: CalibrationUncertainty) -> str:
    """E.g. ``"slope 0.82 [0.75, 0.89], intercept −1.06 [−1.16, −0.96]; z = 8.9, p < …"``."""
    f, t = u.fit, u.spiegelhalter
    if f is None:
        return "scores are not probabilities"
    return (f"slope {sig(f.slope)} [{sig(f.slope_low)}, {sig(f.slope_high)}], intercept "
            f"{sig(f.intercept)} [{sig(f.intercept_low)}, {sig(f.intercept_high)}]; "
            f"Spiegelhalter z {sig(t.z)}, p {sig(t.p_value)}")


def reliability_band_figure(results: Mapping[str, CalibrationUncertainty], *,
                            colors: dict[str, int] | None = None, font_size: int = 14):
    """Per model: its bins (mean score against fraction positive) with their intervals as
    error bars, and its logistic recalibration line; the diagonal is calibration."""
    data = [{"type": "scatter", "x": [0, 1], "y": [0, 1], "mode": "lines",
             "name": "perfectly calibrated",
             "line": {"color": REFERENCE_COLOR, "dash": "dot", "width": 1.5},
             "hovertemplate": "perfectly calibrated<extra></extra>"}]
    grid = np.linspace(0.001, 0.999, 200)
    for i, (name, u) in enumerate(results.items()):
        if u.bands is None:
            continue
        style = line_style(style_index(colors, name, i))
        symbol = marker_style(style_index(colors, name, i))["symbol"]
        b = u.bands
        data.append({
            "type": "scatter", "x": b.mean_predicted, "y": b.fraction_positive,
            "mode": "markers", "name": f"{plain(name)} ({fit_text(u)})",
            "legendgroup": name,
            "marker": {"color": style["color"], "size": 8, "symbol": symbol},
            "error_y": {"type": "data", "symmetric": False,
                        "array": b.high - b.fraction_positive,
                        "arrayminus": b.fraction_positive - b.low,
                        "color": style["color"], "thickness": 1.5},
            "customdata": np.column_stack((b.low, b.high, b.count)).tolist(),
            "meta": f"<b>{plain(name)}</b>",
            "hovertemplate": (f"%{{meta}}<br>mean score %{{x:{NUM}}}<br>fraction positive "
                              f"%{{y:{NUM}}}<br>{b.level:.0%} {b.method} interval "
                              f"[%{{customdata[0]:{NUM}}}, %{{customdata[1]:{NUM}}}]<br>"
                              f"cases %{{customdata[2]:{NUM}}}<extra></extra>")})
        f = u.fit
        x = np.log(grid / (1 - grid))
        data.append({"type": "scatter", "x": grid, "y": expit(f.intercept + f.slope * x),
                     "mode": "lines", "name": f"{plain(name)} logistic recalibration",
                     "legendgroup": name, "showlegend": False,
                     "line": {**style, "width": 1.5}, "opacity": 0.8,
                     "hovertemplate": (f"{plain(name)}: σ({sig(f.intercept)} + "
                                       f"{sig(f.slope)}·logit p)<br>p %{{x:{NUM}}} → "
                                       f"%{{y:{NUM}}}<extra></extra>")})
    layout = base_layout_dict(x_title="Predicted probability (score)",
                              y_title="Observed fraction positive", font_size=font_size)
    layout.update(annotations=[hover_annotation()])
    return fast_figure(data, layout)
