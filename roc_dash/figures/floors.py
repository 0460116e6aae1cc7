"""Floors on the ROC and PR views: the feasible region, the best hull point inside it and
the best single threshold, as traces to add to a view (:func:`floor_traces`) or on a figure
of their own (:func:`floor_figure`).

Pure functions of :class:`~roc_dash.core.constraints.floors.FloorDecision`, shared by the
page and the HTML report; added after a view's traces (the ROC view's iso line stays
``layout.shapes[0]``). The traces carry stable ``uid``s (:data:`REGION_UID`,
:data:`BEST_UID`, :data:`THRESHOLD_UID`).
"""

from __future__ import annotations

import math

from ..core.constraints.floors import FloorDecision, metric_values
from ..text.rounding import HOVER as NUM
from ..text.rounding import sig
from .style import base_layout_dict, fast_figure, format_threshold, plain, rgba

__all__ = ["FLOOR_COLOR", "REGION_UID", "BEST_UID", "THRESHOLD_UID", "floor_traces",
           "floor_figure", "floors_text"]

#: The feasible region and the points meeting the floors (dark teal: apart from the models,
#: the pins, the optimum and the capacity).
FLOOR_COLOR = "#01665e"
REGION_UID, BEST_UID, THRESHOLD_UID = "floor-region", "floor-best", "floor-threshold"


def floors_text(d: FloorDecision) -> str:
    """E.g. ``"precision ≥ 0.9, recall ≥ 0.5"``."""
    return ", ".join(f.text for f in d.floors)


def _xy(d: FloorDecision, fpr: float, tpr: float, space: str) -> tuple[float, float]:
    if space == "roc":
        return fpr, tpr
    return tpr, float(metric_values("precision", fpr, tpr, d.prior_pos))


def floor_traces(d: FloorDecision, *, space: str = "roc") -> list[dict]:
    """The region where every floor holds (filled) and the two best points, in ROC space
    (``space="roc"``: x FPR, y TPR) or PR space at the decision's prior (``"pr"``: x recall,
    y precision)."""
    if space not in ("roc", "pr"):
        raise ValueError(f"space must be 'roc' or 'pr', got {space!r}")
    what = plain(floors_text(d))
    out = []
    r = d.region
    x, y = (r.fpr, r.tpr) if space == "roc" else (r.recall, r.precision)
    if x.size:
        out.append({"type": "scatter", "x": x, "y": y, "mode": "lines", "fill": "toself",
                    "uid": REGION_UID, "name": f"meets {what}", "legendgroup": "floors",
                    "fillcolor": rgba(FLOOR_COLOR, 0.12),
                    "line": {"color": FLOOR_COLOR, "width": 1, "dash": "dot"},
                    "hoverinfo": "skip"})
    if d.best is not None:
        bx, by = _xy(d, d.best.fpr, d.best.tpr, space)
        out.append({"type": "scatter", "x": [bx], "y": [by], "mode": "markers",
                    "uid": BEST_UID, "name": "floors: least cost on the hull",
                    "legendgroup": "floors",
                    "marker": {"symbol": "star", "size": 14, "color": FLOOR_COLOR,
                               "line": {"width": 1, "color": "white"}},
                    "hovertext": [f"least expected cost meeting {what}: "
                                  f"{sig(d.best_cost)} per case<br>{plain(d.best.how)}"],
                    "hovertemplate": "%{hovertext}<extra></extra>"})
    if d.index is not None and math.isfinite(d.fpr):
        tx, ty = _xy(d, d.fpr, d.tpr, space)
        if math.isfinite(ty):
            out.append({"type": "scatter", "x": [tx], "y": [ty], "mode": "markers",
                        "uid": THRESHOLD_UID, "name": "floors: best single threshold",
                        "legendgroup": "floors",
                        "marker": {"symbol": "star-open", "size": 14, "color": FLOOR_COLOR,
                                   "line": {"width": 2, "color": FLOOR_COLOR}},
                        "hovertext": [f"score ≥ {format_threshold(d.threshold)} meets {what}"
                                      f"<br>expected cost {sig(d.expected_cost)} per case "
                                      f"({sig(d.cost_of_floors)} more than without floors)"],
                        "hovertemplate": (f"%{{hovertext}}<br>x %{{x:{NUM}}}, y %{{y:{NUM}}}"
                                          "<extra></extra>")})
    return out


def floor_figure(d: FloorDecision, curve=None, *, name: str = "model", index: int = 0,
                 space: str = "roc", font_size: int = 14):
    """The floors on a figure of their own: the region, the two points and, given
    ``curve`` (the model's ROC curve), the curve itself."""
    from .gains import thin_indices
    from .style import model_style

    data = []
    if curve is not None:
        k = thin_indices(curve.fpr, curve.tpr)
        if space == "roc":
            x, y = curve.fpr[k], curve.tpr[k]
        else:
            k = k[k > 0]
            x, y = curve.tpr[k], metric_values("precision", curve.fpr[k], curve.tpr[k],
                                               d.prior_pos)
        data.append({"type": "scatter", "x": x, "y": y, "name": plain(name),
                     **model_style(index),
                     "hovertemplate": f"x %{{x:{NUM}}}<br>y %{{y:{NUM}}}<extra></extra>"})
    data += floor_traces(d, space=space)
    titles = (("False positive rate", "True positive rate") if space == "roc" else
              ("Recall", f"Precision at p(+) = {sig(d.prior_pos)}"))
    layout = base_layout_dict(x_title=titles[0], y_title=titles[1], font_size=font_size)
    return fast_figure(data, layout)
