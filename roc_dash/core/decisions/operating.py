"""The chosen operating point: one model at one threshold, and what it means in deployment.

Given a model's pooled ROC curve and a threshold ("positive iff score >= t"), this gathers
the rates, the confusion matrix on the test set, precision at the deployment prior
(Fawcett 2004 section 3.2), accuracy, expected cost (section 7.1), and the expected confusion
matrix per 1,000 cases at the deployment prior.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..roc.curves import RocCurve
from ..roc.hull import expected_cost, normalized_expected_cost

__all__ = ["OperatingSummary", "summarise_operating_point", "vertex_at_threshold",
           "operating_point", "pinned_points", "PIN_LABELS", "Comparison", "compare_points"]

#: Up to three pinned operating points, named by letter in every view.
PIN_LABELS = ("A", "B", "C")


@dataclass(frozen=True)
class OperatingSummary:
    model: str
    threshold: float
    fpr: float
    tpr: float
    precision: float
    """Precision at the deployment prior: π·TPR / (π·TPR + (1−π)·FPR) (NaN if nothing is
    called positive)."""
    recall: float
    accuracy: float
    """Accuracy on the test set (its own class mix)."""
    expected_cost: float
    normalized_expected_cost: float
    tp: float
    fp: float
    fn: float
    tn: float
    """Confusion matrix on the test set (weighted counts)."""
    per_1000: tuple[float, float, float, float]
    """Expected (TP, FP, FN, TN) per 1,000 cases at the deployment prior."""
    prior_pos: float
    pinned: bool = False
    label: str = ""
    """"A", "B", "C" for pinned points, "" for the optimum."""

    @property
    def flagged(self) -> float:
        """Share of cases flagged positive at the deployment prior: π·TPR + (1−π)·FPR."""
        return self.prior_pos * self.tpr + (1 - self.prior_pos) * self.fpr

    @property
    def cost_per_1000(self) -> float:
        return 1000.0 * self.expected_cost


def vertex_at_threshold(curve: RocCurve, threshold):
    """Index of the vertex of "positive iff score >= threshold": the last vertex whose own
    threshold is >= ``threshold`` (the origin for thresholds above every score).

    ``threshold`` may be an array (one search for a whole grid, e.g. the decision curve's
    threshold probabilities); the result is then an array of indices."""
    t = curve.thresholds  # strictly decreasing, +inf first
    k = np.searchsorted(-t, -np.asarray(threshold), side="right") - 1
    return int(k) if np.ndim(k) == 0 else k


def summarise_operating_point(model: str, curve: RocCurve, threshold: float, *,
                              cost_fp: float, cost_fn: float, prior_pos: float,
                              pinned: bool = False, label: str = "",
                              benefit_per_case: float = 0.0) -> OperatingSummary:
    """What the operating point "``model`` at score >= ``threshold``" means at the prior.

    ``cost_fp``/``cost_fn`` may be net costs (with benefits, Fawcett 2004 section 7.1); then
    ``benefit_per_case`` (``p·b(TP) + (1−p)·b(TN)``) is subtracted so that ``expected_cost``
    is the cost per case itself, negative for a net gain.
    """
    k = vertex_at_threshold(curve, threshold)
    fpr, tpr = float(curve.fpr[k]), float(curve.tpr[k])
    tp, fp = tpr * curve.n_pos, fpr * curve.n_neg
    fn, tn = curve.n_pos - tp, curve.n_neg - fp
    denom = prior_pos * tpr + (1 - prior_pos) * fpr
    precision = prior_pos * tpr / denom if denom > 0 else float("nan")
    kw = {"cost_fp": cost_fp, "cost_fn": cost_fn, "prior_pos": prior_pos}
    per = 1000.0
    return OperatingSummary(
        model=model,
        threshold=float(curve.thresholds[k]),
        fpr=fpr,
        tpr=tpr,
        precision=float(precision),
        recall=tpr,
        accuracy=float((tp + tn) / (curve.n_pos + curve.n_neg)),
        expected_cost=float(expected_cost(fpr, tpr, **kw)) - benefit_per_case,
        normalized_expected_cost=float(normalized_expected_cost(fpr, tpr, **kw)),
        tp=float(tp), fp=float(fp), fn=float(fn), tn=float(tn),
        per_1000=(per * prior_pos * tpr, per * (1 - prior_pos) * fpr,
                  per * prior_pos * (1 - tpr), per * (1 - prior_pos) * (1 - fpr)),
        prior_pos=prior_pos,
        pinned=pinned,
        label=label,
    )


def _benefit(conditions) -> float:
    per_case = getattr(conditions, "benefit_per_case", None)
    return float(per_case()) if callable(per_case) else 0.0


def operating_point(analysis, pinned: dict | None = None) -> OperatingSummary | None:
    """The pinned point ``{"model", "threshold"}`` (threshold None = +inf) if that model is
    in the analysis, else the optimum of the joint hull under the analysis' conditions.
    ``None`` when there is no model."""
    if not analysis.models:
        return None
    c = analysis.conditions
    kw = {"cost_fp": c.cost_fp, "cost_fn": c.cost_fn, "prior_pos": c.prior_pos,
          "benefit_per_case": _benefit(c)}
    names = [m.name for m in analysis.models]
    if pinned and pinned.get("model") in names:
        t = pinned.get("threshold")
        m = analysis.model(pinned["model"])
        return summarise_operating_point(m.name, m.curve, np.inf if t is None else float(t),
                                         pinned=True, **kw)
    opt = analysis.optimal
    # the trivial classifiers belong to no model: read them off the first model's curve
    m = analysis.model(opt.model) if opt.model in names else analysis.models[0]
    return summarise_operating_point(m.name, m.curve, opt.threshold, **kw)


def pinned_points(analysis, pins) -> list[OperatingSummary]:
    """The pinned operating points ``[{"model", "threshold", "label"}, ...]`` (threshold
    None = +inf) of models in the analysis, in order, each summarised like the optimum.
    Pins of models not shown are left out."""
    if not analysis.models or not pins:
        return []
    c = analysis.conditions
    kw = {"cost_fp": c.cost_fp, "cost_fn": c.cost_fn, "prior_pos": c.prior_pos,
          "benefit_per_case": _benefit(c)}
    names = {m.name for m in analysis.models}
    out = []
    for k, pin in enumerate(pins[: len(PIN_LABELS)]):
        if not isinstance(pin, dict) or pin.get("model") not in names:
            continue
        t = pin.get("threshold")
        m = analysis.model(pin["model"])
        label = pin.get("label") if pin.get("label") in PIN_LABELS else PIN_LABELS[k]
        out.append(summarise_operating_point(m.name, m.curve, np.inf if t is None else float(t),
                                             pinned=True, label=label, **kw))
    return out


@dataclass(frozen=True)
class Comparison:
    """Operating points side by side: the optimum first, then the pins; each row a metric
    with its values and their differences from the optimum."""

    labels: tuple[str, ...]
    points: tuple[OperatingSummary, ...]
    rows: tuple[tuple[str, tuple[float, ...], tuple[float, ...]], ...]
    """``(metric, values, deltas vs the first point)`` for TPR, FPR, precision at the
    prior, share flagged, expected cost per case and cost per 1,000 cases."""


_METRICS = (
    ("TPR (recall)", "tpr"), ("FPR", "fpr"), ("Precision at the prior", "precision"),
    ("Flagged", "flagged"), ("Expected cost per case", "expected_cost"),
    ("Cost per 1,000 cases", "cost_per_1000"),
)


def compare_points(optimum: OperatingSummary, pins, *, first: str = "Optimum") -> Comparison:
    """Side-by-side comparison of the optimum (or another recommendation, named ``first``:
    the point a capacity or floors choose) and the pinned points (up to three)."""
    points = (optimum, *pins)
    rows = []
    for name, attr in _METRICS:
        values = tuple(float(getattr(p, attr)) for p in points)
        rows.append((name, values, tuple(v - values[0] for v in values)))
    labels = tuple(first if not p.pinned else p.label for p in points)
    return Comparison(labels=labels, points=points, rows=tuple(rows))
