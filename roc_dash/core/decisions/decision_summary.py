"""The decision a model-review meeting takes: which model, which threshold, what it costs.

:func:`decision_summary` picks the chosen operating point (pinned, or the optimum of the
joint hull, Fawcett 2004 section 7.1), the runner-up model and
what separates them, with the money from :mod:`.economics` and the ranges over which the
point stays optimal from :mod:`.optimality`.

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, section 7.1 (The ROC convex hull).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..analysis_types import Analysis
from ..roc.hull import RocHull, normalized_expected_cost, optimal_point
from . import economics as econ
from .operating import vertex_at_threshold
from .optimality import OptimalityRange, optimality_range

__all__ = ["DecisionSummary", "decision_summary"]


@dataclass(frozen=True)
class DecisionSummary:
    """The decision in one object: which model, which threshold, what it costs, what the
    next best model would cost, and how robust the choice is.

    Attributes
    ----------
    model, threshold : str, float
        The chosen operating point ("flag iff score >= threshold").
    pinned : bool
        True when the point was pinned by the user rather than the optimum.
    fpr, tpr : float
        Its rates; ``tpr`` is the recall.
    precision : float
        Precision at the prior; NaN when nothing is flagged.
    flagged : float
        Share of cases flagged at the prior.
    nothing_flagged : bool
        True when the point flags no case (precision undefined).
    expected_cost, normalized_cost : float
        Per case (:func:`expected_cost_per_case`; normalised with net costs).
    prior_pos : float
        The deployment prior used.
    economics : Economics
    optimal_model, optimal_threshold, optimal_cost : str, float, float
        The optimum of the joint hull under the net slope.
    excess_cost : float
        ``expected_cost − optimal_cost`` (0 when not pinned).
    tied : bool
        True when the joint optimum is tied along a hull segment with another point
        (:class:`~roc_dash.core.roc.hull.HullOptimum` ``on_segment``).
    runner_up : str or None
        The best other model (by its own optimum under the same conditions); ``None`` with
        one model.
    runner_up_threshold, runner_up_cost : float
        Its optimal threshold and expected cost per case (NaN without a runner-up).
    delta_cost : float
        ``runner_up_cost − expected_cost``: what choosing the runner-up would add per case
        (negative when a pinned point is worse than the runner-up's optimum).
    cost_per_period, runner_up_cost_per_period, delta_per_period, excess_per_period,
    flagged_per_period : float or None
        The same per period (``× population``); ``None`` without a population.
    sensitivity : OptimalityRange or None
        Ranges over which the point stays optimal on the joint hull (``None`` when it is not
        a joint-hull vertex).
    own_sensitivity : OptimalityRange or None
        The same on the model's own hull.
    notes : tuple of str
    """

    model: str
    threshold: float
    pinned: bool
    fpr: float
    tpr: float
    precision: float
    flagged: float
    nothing_flagged: bool
    expected_cost: float
    normalized_cost: float
    prior_pos: float
    economics: econ.Economics
    optimal_model: str
    optimal_threshold: float
    optimal_cost: float
    excess_cost: float
    tied: bool
    runner_up: str | None
    runner_up_threshold: float
    runner_up_cost: float
    delta_cost: float
    cost_per_period: float | None
    runner_up_cost_per_period: float | None
    delta_per_period: float | None
    excess_per_period: float | None
    flagged_per_period: float | None
    sensitivity: OptimalityRange | None
    own_sensitivity: OptimalityRange | None
    notes: tuple[str, ...] = ()

    @property
    def recall(self) -> float:
        return self.tpr

    @property
    def expected_value(self) -> float:
        """Expected value per case, exactly ``−expected_cost``."""
        return -self.expected_cost


def _vertex_of(hull: RocHull, fpr: float, tpr: float) -> int | None:
    """Index of the hull vertex at exactly ``(fpr, tpr)``, if any."""
    hit = np.flatnonzero((hull.fpr == fpr) & (hull.tpr == tpr))
    return int(hit[0]) if hit.size else None


def decision_summary(analysis: Analysis, pinned: dict | None = None,
                     economics: econ.Economics | None = None) -> DecisionSummary | None:
    """Summarise the decision a review meeting takes from an analysis.

    The chosen point is the pinned one (``{"model", "threshold"}``, threshold ``None`` =
    ``+inf``, read off the model's pooled curve with
    :func:`~roc_dash.core.decisions.operating.vertex_at_threshold`, as
    :func:`~roc_dash.core.decisions.operating.operating_point` does) when its model is in the
    analysis, else the optimum of the joint hull (Fawcett 2004, section 7.1) under the net
    iso-performance slope of ``economics`` at the analysis' prior. The runner-up is the best
    other model at its own optimum under the same conditions: the model whose own hull
    optimum has the lowest expected cost.

    Parameters
    ----------
    analysis : Analysis
        Its hulls and curves are used; its optima are recomputed under ``economics`` (equal
        to the analysis' own when ``economics`` is ``None`` or has the analysis' costs and
        no benefits).
    pinned : dict, optional
    economics : Economics, optional
        Defaults to the analysis' costs without benefits (:meth:`Economics.from_conditions`).

    Returns
    -------
    DecisionSummary or None
        ``None`` when the analysis has no model.
    """
    if not analysis.models:
        return None
    cond = analysis.conditions
    e = economics or econ.Economics.from_conditions(cond)
    p = econ._check_prior(cond.prior_pos)
    m = econ.net_slope(p, e)
    names = [mod.name for mod in analysis.models]
    notes = []

    # each model's own optimum under the net slope
    own = {}
    for mod in analysis.models:
        opt = optimal_point(mod.hull, m)
        own[mod.name] = (opt, float(econ.expected_cost_per_case(opt.fpr, opt.tpr, p, e)))

    joint = optimal_point(analysis.hull, m)
    if joint.model in names:
        best_name = joint.model
    else:  # points without a model: the model with the cheapest own optimum
        best_name = min(names, key=lambda n: own[n][1])
    best_mod = analysis.model(best_name)
    optimal_cost = float(econ.expected_cost_per_case(joint.fpr, joint.tpr, p, e))

    is_pinned = bool(pinned) and pinned.get("model") in names
    if is_pinned:
        t = pinned.get("threshold")
        chosen = analysis.model(pinned["model"])
        threshold = math.inf if t is None else float(t)
    else:
        chosen, threshold = best_mod, joint.threshold
    k = vertex_at_threshold(chosen.curve, threshold)
    fpr, tpr = float(chosen.curve.fpr[k]), float(chosen.curve.tpr[k])
    cost = float(econ.expected_cost_per_case(fpr, tpr, p, e))
    flagged = float(econ.flagged_at_prior(fpr, tpr, p))
    nothing = not flagged > 0
    if nothing:
        notes.append("Nothing is flagged at this threshold: precision is undefined.")
    c_fp, c_fn = econ.net_costs(e)
    nec = float(normalized_expected_cost(fpr, tpr, cost_fp=c_fp, cost_fn=c_fn, prior_pos=p))

    others = [n for n in names if n != chosen.name]
    if others:
        ru = min(others, key=lambda n: own[n][1])
        ru_thr, ru_cost = own[ru][0].threshold, own[ru][1]
    else:
        ru, ru_thr, ru_cost = None, math.nan, math.nan
    delta = ru_cost - cost
    excess = cost - optimal_cost if is_pinned else 0.0
    if analysis.spans_datasets:
        notes.append("The models come from different test sets: the comparison with the "
                     "runner-up mixes data.")

    j = joint.index if not is_pinned else _vertex_of(analysis.hull, fpr, tpr)
    own_j = _vertex_of(chosen.hull, fpr, tpr)
    return DecisionSummary(
        model=chosen.name, threshold=float(chosen.curve.thresholds[k]), pinned=is_pinned,
        fpr=fpr, tpr=tpr, precision=float(econ.precision_at_prior(fpr, tpr, p)), flagged=flagged,
        nothing_flagged=nothing, expected_cost=cost, normalized_cost=nec, prior_pos=p,
        economics=e, optimal_model=best_name, optimal_threshold=float(joint.threshold),
        optimal_cost=optimal_cost, excess_cost=excess, tied=bool(joint.on_segment),
        runner_up=ru, runner_up_threshold=float(ru_thr), runner_up_cost=float(ru_cost),
        delta_cost=float(delta),
        cost_per_period=e.per_period(cost),
        runner_up_cost_per_period=None if ru is None else e.per_period(ru_cost),
        delta_per_period=None if ru is None else e.per_period(delta),
        excess_per_period=e.per_period(excess),
        flagged_per_period=e.per_period(flagged),
        sensitivity=None if j is None else optimality_range(analysis.hull, j, p, e),
        own_sensitivity=None if own_j is None else optimality_range(chosen.hull, own_j, p, e),
        notes=tuple(notes),
    )
