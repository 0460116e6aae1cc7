"""Cost and rates against the threshold for one model: how flat is the optimum?

x: the score threshold ("flag iff score >= t"), or the share of cases flagged at the
deployment prior. Left axis: expected cost per case (with benefits, net of them); right axis:
TPR, FPR, precision at the prior and the share flagged. The band marks the thresholds whose
cost is within 5% (of the regret) of the best, the star the model's own optimum, and each
pin of this model its letter. The cost line carries the same ``customdata`` as every other view
(``[model index, threshold, fpr, tpr]``), so hover and click-to-pin work here too.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ..core.analysis_types import Analysis
from ..core.decisions.economics import Economics
from ..core.decisions.threshold_costs import thin_profile, threshold_profile
from ..text.rounding import HOVER as NUM
from .roc import model_index
from .style import (
    NO_THRESHOLD,
    OPTIMUM_COLOR,
    PIN_COLORS,
    PINNED_COLOR,
    SHOWN_THRESHOLD,
    LeanFigure,
    base_layout,
    base_layout_dict,
    fast_figure,
    format_threshold,
    hover_annotation,
    plain,
    point_data,
    point_rows,
    threshold_rows,
)

__all__ = ["threshold_figure", "threshold_parts", "overall_optimum_words", "chosen_marks",
           "CHOSEN_NOTE"]

#: The name of ``layout.annotations[1]`` when a capacity or floors chose a point: the ◆
#: marking that choice (hidden when there is none; ``annotations[0]`` is the hover's).
CHOSEN_NOTE = "chosen"


def overall_optimum_words(analysis: Analysis, model: str, own_threshold: float) -> str:
    """Whether ``model``'s own optimum (at ``own_threshold``) is the optimum of the joint hull
    of all shown models, in words for the view's subtitle."""
    opt = analysis.optimal
    if opt.model == model and (opt.threshold == own_threshold
                               or not (np.isfinite(opt.threshold)
                                       or np.isfinite(own_threshold))):
        return "★ its optimum is the overall optimum of the shown models"
    if not opt.model:
        where = "flag nothing" if opt.tpr == 0 and opt.fpr == 0 else "flag everything"
        return f"★ its optimum is not the overall optimum: that is to {where}"
    return (f"★ its optimum is not the overall optimum: that is {opt.model} at score ≥ "
            f"{format_threshold(opt.threshold)}")

#: Points per line: the view is at most ~1,000 px wide, and five lines share the x values.
MAX_POINTS = 600

RATE_STYLES = (("TPR (recall)", "tpr", "#0072B2", "solid"), ("FPR", "fpr", "#D55E00", "dash"),
               ("precision at the prior", "precision", "#009E73", "dot"),
               ("share flagged", "flagged", "#6a6a6a", "dashdot"))


def threshold_figure(analysis: Analysis, model: str, economics: Economics, *, axis="threshold",
                     pins=(), font_size: int = 14) -> go.Figure:
    """The threshold view of ``model`` under the analysis' prior and ``economics``.

    Built as plain dicts and wrapped once (:func:`~.style.fast_figure`): it is redrawn on
    every change of costs, and plotly's validated objects took most of that update."""
    names = [m.name for m in analysis.models]
    if model not in names:
        fig = LeanFigure()
        base_layout(fig, x_title="", y_title="", font_size=font_size, square=False)
        fig.add_annotation(text="No model to show.", x=0.5, y=0.5, showarrow=False)
        fig.layout.annotations = [hover_annotation(), *fig.layout.annotations]
        return fig
    fig = fast_figure(*threshold_parts(analysis, model, economics, axis=axis,
                                       font_size=font_size))
    for op in pins:
        if op.model != model:
            continue
        px = op.threshold if axis == "threshold" else op.flagged
        if not np.isfinite(px):
            continue
        c = PIN_COLORS.get(op.label, PINNED_COLOR)
        fig.add_vline(x=px, line={"color": c, "width": 2, "dash": "dot"},
                      annotation={"text": plain(op.label),
                                  "font": {"color": c, "size": font_size}},
                      annotation_position="top")
    return fig


def threshold_parts(analysis: Analysis, model: str, economics: Economics, *,
                    axis="threshold", font_size: int = 14) -> tuple[list[dict], dict]:
    """The traces and the layout of :func:`threshold_figure` without pins, as plain dicts
    (``model`` one of the analysis' models): the expected cost line (trace 0, its
    ``customdata`` the drawn vertices), the four rates (traces 1-4: TPR, FPR, precision,
    share flagged) and, when the model's optimum has a finite threshold, its star (trace 5).
    """
    m = analysis.model(model)
    pi = analysis.conditions.prior_pos
    full = threshold_profile(m.curve, pi, economics)
    prof = thin_profile(full, max_points=MAX_POINTS)
    finite = np.isfinite(prof.threshold)
    x_all = prof.threshold if axis == "threshold" else prof.flagged
    keep = finite if axis == "threshold" else np.ones(prof.threshold.size, dtype=bool)
    x = x_all[keep]
    k = model_index(analysis, model)
    data = point_rows(k, prof.threshold[keep], prof.fpr[keep], prof.tpr[keep])
    unit = f" ({plain(economics.unit)})" if economics.unit else ""
    fl = full.flatness
    lo, hi = ((fl.threshold_low, fl.threshold_high) if axis == "threshold"
              else (fl.flagged_low, fl.flagged_high))
    shapes = []
    if np.isfinite(lo) and np.isfinite(hi):
        shapes.append({"type": "rect", "x0": min(lo, hi), "x1": max(lo, hi), "xref": "x",
                       "y0": 0, "y1": 1, "yref": "y domain", "fillcolor": "rgba(176,0,32,0.08)",
                       "line": {"width": 0}, "layer": "below"})
    x_label = "score threshold" if axis == "threshold" else "share flagged"
    traces = [{
        "type": "scatter", "x": x, "y": prof.expected_cost[keep], "mode": "lines",
        "name": f"expected cost{unit}", "line": {"color": OPTIMUM_COLOR, "width": 3},
        "customdata": threshold_rows(data), "meta": f"<b>{plain(model)}</b>",
        "hovertemplatefallback": NO_THRESHOLD,
        "hovertemplate": (f"%{{meta}}<br>threshold ≥ {SHOWN_THRESHOLD}<br>expected cost "
                          f"%{{y:{NUM}}}<extra></extra>")}]
    # the rates' hover (unified along x) points to the cost line's, above them, for the
    # threshold: plotly's own format of x (.6~g) could round it up (0.46702173 to 0.467022,
    # a rule leaving out the point shown); the cost line's reads the text the page shows
    at = (" (threshold in the expected cost line)" if axis == "threshold"
          else f" at share flagged %{{x:{NUM}}} (threshold in the expected cost line)")
    for label, attr, c, dash in RATE_STYLES:
        traces.append({
            "type": "scatter", "x": x, "y": getattr(prof, attr)[keep], "mode": "lines",
            "name": label, "yaxis": "y2", "line": {"color": c, "width": 1.6, "dash": dash},
            # hover is unified along x: the cost line, first, carries the points' customdata
            # for hover linking and click-to-pin (the payload is not repeated four times)
            "hovertemplate": f"{label} %{{y:{NUM}}}{at}<extra></extra>"})
    best = full.best
    bx = full.threshold[best] if axis == "threshold" else full.flagged[best]
    if np.isfinite(bx):
        bdata, btext = point_data(k, model, [full.threshold[best]], [full.fpr[best]],
                                  [full.tpr[best]], prefix="optimum: ")
        traces.append({
            "type": "scatter", "x": [float(bx)], "y": [float(full.expected_cost[best])],
            "mode": "markers", "name": f"optimum of {plain(model)}", "customdata": bdata,
            "text": list(btext),
            "marker": {"symbol": "star", "size": 15, "color": OPTIMUM_COLOR,
                       "line": {"color": "white", "width": 1}},
            "hovertemplate": f"%{{text}}<br>expected cost %{{y:{NUM}}}<extra></extra>"})
    layout = base_layout_dict(x_title=x_label, y_title=f"Expected cost per case{unit}",
                              font_size=font_size, square=False, x_range=(0, 1),
                              y_range=(0, 1))
    ymax = float(np.nanmax(prof.expected_cost[keep])) if keep.any() else 1.0
    layout["xaxis"].pop("range", None)
    layout["xaxis"]["autorange"] = True
    if axis == "threshold":
        # the unified hover's title would be x, the threshold, to 7 digits and possibly
        # rounded up; the cost line's row below it gives the page's text (hvr008)
        layout["xaxis"]["unifiedhovertitle"] = {"text": "score threshold"}
    layout["yaxis"].update(range=[0, ymax * 1.05 if ymax > 0 else 1], autorange=False)
    layout["yaxis2"] = {"overlaying": "y", "side": "right", "range": [0, 1.02],
                        "showgrid": False, "dtick": 0.2, "title": {"text": "rate"},
                        "zeroline": False}
    layout["margin"]["r"] = 60
    layout["hovermode"] = "x unified"
    note = plain(overall_optimum_words(analysis, model, full.threshold[best]))
    layout["meta"] = {"model": model, "axis": axis,
                      "flat": [float(fl.threshold_low), float(fl.threshold_high)],
                      "overall": note}
    layout["title"] = {
        "text": (f"<b>{plain(model)}</b>: cost and rates against the "
                 f"{'threshold' if axis == 'threshold' else 'share flagged'}"),
        # the note as plotly's subtitle: a "<br>" second line was placed as if the title had
        # one line, so one of the two was always cut off or laid over the plot
        "subtitle": {"text": note, "font": {"size": max(font_size - 3, 10),
                                            "color": "#5b6775"}},
        # hung from the figure's top edge, below the pad, in a top margin that holds both
        "x": 0.01, "xref": "container", "xanchor": "left", "y": 1, "yref": "container",
        "yanchor": "top", "pad": {"t": 8}, "font": {"size": font_size}}
    layout["margin"]["t"] = int(2.9 * font_size) + 18
    if axis == "threshold":
        lo_t, hi_t = float(np.nanmin(x)) if x.size else 0.0, float(np.nanmax(x)) if x.size else 1.0
        pad = (hi_t - lo_t) * 0.02 or 0.01
        layout["xaxis"].update(range=[lo_t - pad, hi_t + pad], autorange=False)
    layout["shapes"] = shapes
    # [1] reserved for the ◆ of a capacity's or floors' choice (chosen_marks), hidden here;
    # the pins' letters come after it
    layout["annotations"] = [hover_annotation(), _hidden_choice()]
    return traces, layout


def _hidden_choice() -> dict:
    """``layout.annotations[1]`` when nothing chose a point: hidden (:func:`chosen_marks`)."""
    return {"x": 0, "y": 0, "text": "", "visible": False, "showarrow": False,
            "name": CHOSEN_NOTE}


def chosen_marks(analysis: Analysis, model: str, economics: Economics, *, axis="threshold",
                 chosen: dict | None = None, font_size: int = 12) -> tuple[str, dict]:
    """``(subtitle, annotation)`` of ``model``'s threshold view when a capacity or floors
    chose ``chosen`` (``{"model", "threshold"}``; None: nothing chose): the subtitle says
    that the ★ is the optimum without them and names the choice, and the annotation (named
    :data:`CHOSEN_NOTE`) marks the choice with a ◆ on the cost line when it is this model's;
    without a choice, the view's own subtitle and a hidden annotation (review 11 item 11)."""
    m = analysis.model(model)
    full = threshold_profile(m.curve, analysis.conditions.prior_pos, economics)
    hidden = _hidden_choice()
    if not chosen:
        return plain(overall_optimum_words(analysis, model, full.threshold[full.best])), hidden
    cm, t = str(chosen["model"]), float(chosen["threshold"])
    # short: the subtitle is one line of a half-width card (the strip says the rest)
    at = f"score ≥ {format_threshold(t)}"
    if cm != model:
        return f"★ optimum without the constraints; chosen: {plain(cm)}, {at}", hidden
    k = np.flatnonzero(full.threshold == t)
    subtitle = f"★ optimum without the constraints; ◆ chosen under them ({at})"
    x = (full.threshold if axis == "threshold" else full.flagged)[k[0]] if k.size else np.nan
    if not (k.size and np.isfinite(x)):
        return subtitle, hidden
    return subtitle, {
        "x": float(x), "y": float(full.expected_cost[k[0]]), "xref": "x", "yref": "y",
        "text": "◆ choice", "visible": True, "showarrow": True, "arrowhead": 0, "ax": 0,
        "ay": -34, "arrowcolor": "#1b5e20", "font": {"color": "#1b5e20", "size": font_size},
        "bgcolor": "rgba(255,255,255,0.85)", "name": CHOSEN_NOTE}
