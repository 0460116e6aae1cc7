"""Decisions among several classes: the confusion matrix of a rule under a cost matrix, and
the expected costs of the rules compared (:mod:`roc_dash.core.constraints.cost_matrix`).
Pure functions, shared by the page and the HTML report; class names through
:func:`~.style.plain`."""

from __future__ import annotations

import numpy as np

from ..core.constraints.cost_matrix import CostMatrixDecision
from ..text.rounding import HOVER as NUM
from ..text.rounding import sig
from .style import PALETTE, fast_figure, plain

__all__ = ["RULES", "confusion_figure", "rule_costs_figure"]

#: The rules of a :class:`CostMatrixDecision`, as shown.
RULES = {"fitted": "fitted class weights", "bayes": "Bayes rule", "ovr": "one-vs-rest thresholds",
         "argmax": "argmax"}


def _confusion(d: CostMatrixDecision, rule: str) -> np.ndarray:
    return {"fitted": d.confusion, "bayes": d.bayes_confusion, "ovr": d.ovr_confusion,
            "argmax": d.argmax_confusion}[rule]


def confusion_figure(d: CostMatrixDecision, *, rule: str = "fitted", font_size: int = 14):
    """The rule's confusion matrix (rows: the true class, columns: the decision) as a heat
    map of each true class's shares, each cell's count, share and cost in its hover."""
    if rule not in RULES:
        raise ValueError(f"rule must be one of {', '.join(RULES)}, got {rule!r}")
    m = _confusion(d, rule)
    shares = m / m.sum(axis=1, keepdims=True)
    names = [plain(c) for c in d.classes]
    custom = np.dstack((m, np.broadcast_to(d.cost_matrix, m.shape))).tolist()
    data = [{"type": "heatmap", "z": shares, "x": names, "y": names, "zmin": 0, "zmax": 1,
             "colorscale": "Blues", "reversescale": True, "customdata": custom,
             "text": [[f"{v:,.6g}" for v in row] for row in m], "texttemplate": "%{text}",
             "colorbar": {"title": {"text": "share of the true class"}},
             "hovertemplate": (f"true %{{y}}, decided %{{x}}<br>%{{customdata[0]:,{NUM}}} cases "
                               f"(%{{z:.1%}} of the class)<br>cost each "
                               f"%{{customdata[1]:{NUM}}}<extra></extra>")}]
    layout = {"xaxis": {"title": {"text": f"Decided<br>{RULES[rule]}: expected cost "
                                          f"{sig(_cost(d, rule))} per case"}},
              "yaxis": {"title": {"text": "True class"}, "autorange": "reversed"},
              "font": {"size": font_size}, "margin": {"l": 80, "r": 30, "t": 20, "b": 80}}
    return fast_figure(data, layout)


def _cost(d: CostMatrixDecision, rule: str) -> float:
    return {"fitted": d.expected_cost, "bayes": d.bayes_cost, "ovr": d.ovr_cost,
            "argmax": d.argmax_cost}[rule]


def rule_costs_figure(d: CostMatrixDecision, *, font_size: int = 14):
    """The expected cost per case at the prior of each rule, as bars."""
    keys = list(RULES)
    data = [{"type": "bar", "x": [RULES[k] for k in keys], "y": [_cost(d, k) for k in keys],
             "marker": {"color": [PALETTE[i] for i in range(len(keys))]},
             "text": [sig(_cost(d, k)) for k in keys], "textposition": "outside",
             "hovertemplate": f"%{{x}}: %{{y:{NUM}}} per case<extra></extra>"}]
    layout = {"yaxis": {"title": {"text": "Expected cost per case at the prior"},
                        "rangemode": "tozero"},
              "font": {"size": font_size}, "margin": {"l": 70, "r": 30, "t": 20, "b": 60},
              "showlegend": False}
    return fast_figure(data, layout)
