"""A labelled window: what the deployed threshold did, against what the decision promised.

At the threshold the window's confusion matrix gives its TPR, FPR, precision and share
flagged (at its own class mix, as they happened) and the expected cost per case at the
decision's prior and costs (comparable with the record's: only the rates differ) and at the
window's own class mix (what the window cost). Intervals are percentile bootstraps of the
window's cases with the threshold fixed (rows resampled, the four cells
drawn as Poisson counts: Hanley & MacGibbon 2006). The window's own optimum (its hull at its
class mix, the decision's costs) is the cost of switching; it is chosen on the window
itself, so it is optimistic (in-sample).

References
----------
J. A. Hanley, B. MacGibbon, "Creating non-parametric bootstrap samples using Poisson
frequencies", Computer Methods and Programs in Biomedicine 83(1):57-62, 2006.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..decisions.drift import DriftTest, cost_drift_test
from ..decisions.economics import expected_cost_per_case
from ..roc.hull import convex_hull
from .estimates import Estimate, percentile_estimate
from .quantification import draw_counts
from .rederive import Choice, choice_at_prior
from .reference import Reference, curve_of_counts
from .windows import WindowCounts

__all__ = ["LabelledMetrics", "labelled_metrics", "confusion_of"]


@dataclass(frozen=True, eq=False)
class LabelledMetrics:
    """The deployed threshold on a labelled window.

    Attributes
    ----------
    tp, fp, fn, tn : float
        The window's (weighted) confusion matrix.
    tpr, fpr : Estimate
    precision, flagged : Estimate
        At the window's own class mix (as they happened).
    precision_at_prior : Estimate
        At the decision's prior (comparable with the record's precision).
    expected_cost : Estimate
        Per case at the decision's prior and costs (comparable with the record's).
    cost : Estimate
        Per case at the window's class mix: the cost of staying with the threshold.
    optimum : Choice
        The window's own optimum (its hull, its class mix): the cost of switching
        (``optimum.expected_cost``), in-sample.
    drift : DriftTest
        The drift test of the CI gate (``roc-dash check --decision``,
        :func:`roc_dash.core.decisions.drift.cost_drift_test`) against the reference's
        :attr:`~.reference.Reference.drift`.
    replicates : int
    """

    tp: float
    fp: float
    fn: float
    tn: float
    tpr: Estimate
    fpr: Estimate
    precision: Estimate
    flagged: Estimate
    precision_at_prior: Estimate
    expected_cost: Estimate
    cost: Estimate
    optimum: Choice
    drift: DriftTest
    replicates: int

    @property
    def switching_saves(self) -> float:
        """Cost per case the window's own optimum saves over the threshold (in-sample)."""
        return self.cost.value - self.optimum.expected_cost


def confusion_of(window: WindowCounts, threshold: float) -> tuple[float, float, float, float]:
    """``(tp, fp, fn, tn)`` of "flag iff score >= threshold" on a labelled window."""
    at = window.scores >= threshold
    pos, neg = window.positives, window.negatives
    tp, fp = float(pos[at].sum()), float(neg[at].sum())
    return tp, fp, float(pos.sum()) - tp, float(neg.sum()) - fp


def _rates(cells: np.ndarray) -> dict[str, np.ndarray]:
    """Rates of confusion matrices (last axis tp, fp, fn, tn)."""
    tp, fp, fn, tn = (cells[..., k] for k in range(4))
    with np.errstate(divide="ignore", invalid="ignore"):
        return {"tpr": tp / (tp + fn), "fpr": fp / (fp + tn),
                "precision": tp / (tp + fp), "flagged": (tp + fp) / cells.sum(axis=-1),
                "prevalence": (tp + fn) / cells.sum(axis=-1)}


def _cost_per_case(cells: np.ndarray, e) -> np.ndarray:
    """Cost per case of confusion matrices (last axis tp, fp, fn, tn) at their own class
    mix: errors minus benefits over the cases (Fawcett 2004, section 7.1)."""
    tp, fp, fn, tn = (cells[..., k] for k in range(4))
    with np.errstate(divide="ignore", invalid="ignore"):
        return ((fn * e.cost_fn + fp * e.cost_fp - tp * e.benefit_tp - tn * e.benefit_tn)
                / cells.sum(axis=-1))


def labelled_metrics(reference: Reference, window: WindowCounts, *, level: float,
                     alpha: float, replicates: int,
                     rng: np.random.Generator) -> LabelledMetrics:
    """The deployed threshold's metrics on a labelled window, with intervals, its drift
    test at ``alpha`` and its own optimum (module docstring)."""
    cells = np.array(confusion_of(window, reference.threshold))
    boot = draw_counts(cells, replicates, rng)
    point, reps = _rates(cells), _rates(boot)
    p, e = reference.prior_pos, reference.economics

    def est(name: str) -> Estimate:
        return percentile_estimate(float(point[name]), reps[name], level)

    def at_prior(rates: dict) -> dict[str, np.ndarray]:
        with np.errstate(divide="ignore", invalid="ignore"):
            hit = p * rates["tpr"]
            return {"precision": hit / (hit + (1 - p) * rates["fpr"]),
                    "cost": expected_cost_per_case(rates["fpr"], rates["tpr"], p, e)}

    prior_point, prior_reps = at_prior(point), at_prior(reps)
    window_cost = _cost_per_case(cells, e)
    curve = curve_of_counts(window.scores, window.positives, window.negatives)
    optimum = choice_at_prior(convex_hull(curve), float(point["prevalence"]), e)
    drift = cost_drift_test(reference.drift, *cells, alpha=alpha)
    return LabelledMetrics(
        tp=float(cells[0]), fp=float(cells[1]), fn=float(cells[2]), tn=float(cells[3]),
        tpr=est("tpr"), fpr=est("fpr"), precision=est("precision"), flagged=est("flagged"),
        precision_at_prior=percentile_estimate(float(prior_point["precision"]),
                                               prior_reps["precision"], level),
        expected_cost=percentile_estimate(float(prior_point["cost"]), prior_reps["cost"],
                                          level),
        cost=percentile_estimate(float(window_cost), _cost_per_case(boot, e), level),
        optimum=optimum, drift=drift, replicates=int(replicates))
