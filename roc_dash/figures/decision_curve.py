"""Decision-curve view (Vickers & Elkin 2006; :mod:`roc_dash.core.decisions.decision_curve`).

x: the threshold probability ``p_t``; y: net benefit. The two default strategies (treat none,
treat all), each model whose scores are probabilities ("treat iff score >= p_t"), each model's
hull (the best threshold for every ``p_t``, a thinner line of the model's colour and dash) and
the joint hull of all shown models. As in the cost view, ``layout.shapes[0]`` is the vertical
marker at the current ``p_t = c(FP) / (c(FP) + c(FN))``, ``layout.annotations[0]`` is reserved
for a point hovered in another view and ``layout.annotations[1]`` reads off the joint hull's
net benefit at the current ``p_t`` (the star, uid ``OPTIMUM_UID``). Curve points carry the
``customdata`` of every linked view (``[model index, threshold, fpr, tpr]``), so hover
linking and click-to-pin can work here too. Every number in a hover has 6 significant digits.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..core.decisions.decision_curve import DecisionCurve, HullNetBenefit
from .roc import OPTIMUM_UID
from .style import (
    HULL_COLOR,
    ISO_COLOR,
    REFERENCE_COLOR,
    base_layout_dict,
    fast_figure,
    format_threshold,
    hover_annotation,
    line_style,
    marker_style,
    plain,
    point_data,
    set_subtitle,
    style_index,
)

__all__ = ["decision_curve_figure", "TREAT_ALL", "TREAT_NONE", "JOINT_NAME"]

TREAT_ALL, TREAT_NONE = "treat all", "treat none"
JOINT_NAME = "best of all models (joint hull)"
_NB = "p<sub>t</sub> %{x:.6~g}<br>net benefit %{y:.6~g}"


def _reference_traces(curves: Mapping[str, DecisionCurve]) -> list[dict]:
    first = next(iter(curves.values()))
    out = [{"type": "scatter", "x": first.threshold_probability, "y": first.treat_none,
            "mode": "lines", "name": TREAT_NONE,
            "line": {"color": REFERENCE_COLOR, "dash": "dot", "width": 1.5},
            "hovertemplate": (f"{TREAT_NONE}: threshold +∞ (nobody treated)<br>{_NB}"
                              "<extra></extra>")}]
    priors = {}
    for dc in curves.values():
        priors.setdefault(round(dc.prior_pos, 12), dc)
    for dc in priors.values():
        name = TREAT_ALL if len(priors) == 1 else f"{TREAT_ALL} (prevalence {dc.prior_pos:.6g})"
        out.append({"type": "scatter", "x": dc.threshold_probability, "y": dc.treat_all,
                    "mode": "lines", "name": name,
                    "line": {"color": REFERENCE_COLOR, "dash": "dash", "width": 1.5},
                    "hovertemplate": (f"{plain(name)}: threshold −∞ (everybody treated)<br>"
                                      f"{_NB}<extra></extra>")})
    return out


def _model_trace(name: str, index: int, dc: DecisionCurve, style: dict, marker: dict) -> dict:
    p = dc.threshold_probability
    data, _ = point_data(index, name, p, dc.fpr, dc.tpr)
    return {"type": "scatter", "x": p, "y": dc.net_benefit, "mode": "lines+markers",
            "name": plain(name), "legendgroup": f"decision {name}", "line": style,
            "marker": marker,
            "customdata": data, "meta": f"<b>{plain(name)}</b>",
            # p_t is the threshold: written as the page writes thresholds (customdata[4]),
            # not as x's own .6~g, which could round it up
            "hovertemplate": ("%{meta}: treat iff score ≥ p<sub>t</sub> (threshold = "
                              f"p<sub>t</sub>)<br>{_NB.replace('%{x:', '%{customdata[4]:')}"
                              "<extra></extra>")}


def _hull_trace(names, indices, h: HullNetBenefit, style: dict, label: str) -> dict:
    data, text = point_data(indices, names, h.threshold, h.fpr, h.tpr)
    return {"type": "scatter", "x": h.threshold_probability, "y": h.net_benefit,
            "mode": "lines", "name": label, "line": style, "customdata": data, "text": text,
            "hovertemplate": f"%{{text}}<br>{_NB}<extra></extra>"}


def _vertex_names(h: HullNetBenefit) -> list[str]:
    """Whose vertex each point of a joint hull is (the trivial ones by what they do)."""
    return [str(m) or (TREAT_NONE if np.isposinf(t) else TREAT_ALL)
            for m, t in zip(h.model, h.threshold, strict=True)]


def _best_text(current: HullNetBenefit) -> str:
    """Whose threshold gives the best net benefit at the current p_t (the joint hull's
    vertex there)."""
    t = float(current.threshold[0])
    who = str(current.model[0]) or (TREAT_NONE if np.isposinf(t) else TREAT_ALL)
    return f"<b>{plain(who)}</b><br>threshold ≥ {format_threshold(t)}"


def _read_off(current: HullNetBenefit, p_t: float) -> tuple[dict, dict]:
    nb = float(current.net_benefit[0])
    star = {"type": "scatter", "x": [p_t], "y": [nb], "mode": "markers",
            "name": "best at the current p<sub>t</sub>", "uid": OPTIMUM_UID,
            "marker": {"symbol": "star", "size": 14, "color": ISO_COLOR},
            "text": [_best_text(current)],
            "hovertemplate": f"best at the current costs: %{{text}}<br>{_NB}<extra></extra>"}
    read = {"x": p_t, "y": nb, "text": f"p<sub>t</sub> = {p_t:.6g}<br>net benefit {nb:.6g}",
            "showarrow": True, "arrowhead": 2, "ax": 60 if p_t <= 0.7 else -60, "ay": -40,
            "bgcolor": "white", "bordercolor": ISO_COLOR, "font": {"color": ISO_COLOR},
            "name": "read-off"}
    return star, read


def decision_curve_figure(curves: Mapping[str, DecisionCurve], *,
                          joint: HullNetBenefit | None = None,
                          current: HullNetBenefit | None = None, p_t: float | None = None,
                          hull: bool = True, colors: dict[str, int] | None = None,
                          model_indices: Mapping[str, int] | None = None,
                          font_size: int = 14):
    """The decision curves of the models in ``curves`` (name -> result, in the order of the
    shown models).

    Parameters
    ----------
    curves : mapping of str to DecisionCurve
    joint : HullNetBenefit, optional
        The joint hull's net benefit (:func:`~roc_dash.core.decisions.decision_curve.hull_net_benefit`
        of the analysis' hull), drawn as "best of all models".
    current : HullNetBenefit, optional
        The joint hull's net benefit at the current ``p_t`` alone (a one-point grid): a star
        and a read-off.
    p_t : float, optional
        The current threshold probability (default ``current``'s), drawn as
        ``layout.shapes[0]``.
    hull : bool, default True
        Draw each model's hull curve.
    colors : dict of str to int, optional
        Colour/dash index of each model among all loaded models (:func:`~.style.style_index`).
    model_indices : mapping of str to int, optional
        The model index of ``customdata`` (its position in the analysis' models); default
        the position in ``curves``.
    """
    if p_t is None and current is not None:
        p_t = float(current.threshold_probability[0])
    index = dict(model_indices) if model_indices is not None else {n: i for i, n in
                                                                  enumerate(curves)}
    data = _reference_traces(curves) if curves else []
    for i, (name, dc) in enumerate(curves.items()):
        k = style_index(colors, name, i)
        style = line_style(k)
        if dc.in_unit_interval:
            data.append(_model_trace(name, index.get(name, -1), dc, style, marker_style(k)))
        if hull or not dc.in_unit_interval:
            data.append({**_hull_trace(name, index.get(name, -1), dc.hull,
                                       {**style, "width": 1.5}, f"{plain(name)} hull "
                                       "(best threshold per p<sub>t</sub>)"),
                         "legendgroup": f"decision {name}"})
    if joint is not None:
        names = _vertex_names(joint)
        data.append(_hull_trace(names, [index.get(n, -1) for n in names], joint,
                                {"color": HULL_COLOR, "width": 3, "dash": "solid"},
                                JOINT_NAME))
    top = max((dc.prior_pos for dc in curves.values()), default=1.0)
    layout = base_layout_dict(x_title="Threshold probability p<sub>t</sub>",
                              y_title="Net benefit", font_size=font_size, square=False,
                              x_range=(0.0, 1.0), y_range=(-0.25 * top, 1.05 * top))
    annotations = [hover_annotation()]
    # always present (hidden without a p_t), so that the page finds the marker at shapes[0]
    shapes = [{"type": "line", "x0": p_t or 0.0, "x1": p_t or 0.0, "y0": 0, "y1": 1,
               "yref": "paper", "visible": p_t is not None,
               "line": {"color": ISO_COLOR, "width": 2}, "name": "current p_t"}]
    if p_t is not None and current is not None:
        star, read = _read_off(current, p_t)
        data.append(star)
        annotations.append(read)
    layout.update(shapes=shapes, annotations=annotations,
                  meta={"p_t": p_t, "net_benefit": None if current is None
                        else float(current.net_benefit[0])})
    fig = fast_figure(data, layout)
    others = [plain(n) for n, dc in curves.items() if not dc.in_unit_interval]
    if others:
        set_subtitle(fig, f"Scores of {', '.join(others)} are not probabilities: only "
                          f"{'its' if len(others) == 1 else 'their'} hull curve is shown.",
                     font_size)
    return fig
