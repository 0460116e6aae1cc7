"""The choice made again under a window's prior: the hull stays, the slope moves.

ROC curves do not depend on the class distribution (Fawcett 2004, section 3.2 and 7.1): when
only the prior moves, the reference's convex hull is still the set of potentially optimal
operating points and only the iso-performance line's slope ``m = c'(FP)·(1−p) / (c'(FN)·p)``
changes, so the optimum is found again on the same hull
(:func:`~roc_dash.core.roc.hull.optimal_point`). Each hull vertex is optimal over a range of
slopes, hence of priors; the deployed choice still holds while the window's prior stays in
its vertex's range.

The test of "the prior left that range" is one-sided on the logit scale: ``z = (logit p̂ −
logit b) / s`` for the range's nearer bound ``b`` and the estimate's logit-scale standard
error ``s`` (its bootstrap replicates' spread; the binomial one for a labelled window's
count), ``p = Φ(−|z|)`` when ``p̂`` lies outside the range, 1 inside it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from scipy.special import ndtr

from ..decisions.economics import Economics, expected_cost_per_case
from ..roc.hull import RocHull, optimal_point
from .estimates import Estimate
from .quantification import PrevalenceEstimate

__all__ = ["Choice", "Rederived", "choice_at_prior", "prior_range", "rederive",
           "slope_at_prior", "cost_at_prior"]

#: Priors closer than this to 0 or 1 are costed at this distance (the cost functions need
#: a prior strictly inside (0, 1); the error is below 1e-12 per case and unit cost).
_EDGE = 1e-12


@dataclass(frozen=True)
class Choice:
    """The optimum on a hull under one prior (and the decision's costs).

    Attributes
    ----------
    prior_pos, slope : float
        The prior and its iso-performance slope (net costs).
    index : int
        The hull vertex.
    threshold, fpr, tpr : float
    on_segment : bool
        A hull segment lies on the iso line (the conservative end is the choice).
    expected_cost : float
        Per case at ``prior_pos``, benefits subtracted.
    """

    prior_pos: float
    slope: float
    index: int
    threshold: float
    fpr: float
    tpr: float
    on_segment: bool
    expected_cost: float


def slope_at_prior(prior_pos: float, economics: Economics) -> float:
    """``c'(FP)·(1−p) / (c'(FN)·p)``, ``inf`` at ``p = 0`` and 0 at ``p = 1``."""
    p = float(prior_pos)
    if p <= 0:
        return math.inf
    if p >= 1:
        return 0.0
    return economics.net_cost_fp * (1.0 - p) / (economics.net_cost_fn * p)


def cost_at_prior(fpr, tpr, prior_pos: float, economics: Economics):
    """:func:`~roc_dash.core.decisions.economics.expected_cost_per_case` for any prior in [0, 1]."""
    p = min(max(float(prior_pos), _EDGE), 1.0 - _EDGE)
    return expected_cost_per_case(fpr, tpr, p, economics)


def choice_at_prior(hull: RocHull, prior_pos: float, economics: Economics) -> Choice:
    """The optimal vertex of ``hull`` at ``prior_pos`` under ``economics`` (Fawcett 2004,
    section 7.1; the tie rule of :func:`~roc_dash.core.roc.hull.optimal_point`)."""
    m = slope_at_prior(prior_pos, economics)
    opt = optimal_point(hull, m)
    return Choice(prior_pos=float(prior_pos), slope=float(m), index=int(opt.index),
                  threshold=float(opt.threshold), fpr=float(opt.fpr), tpr=float(opt.tpr),
                  on_segment=bool(opt.on_segment),
                  expected_cost=float(cost_at_prior(opt.fpr, opt.tpr, prior_pos, economics)))


def prior_range(hull: RocHull, index: int, economics: Economics) -> tuple[float, float]:
    """The priors over which hull vertex ``index`` is optimal: its slopes
    ``[slope_low, slope_high]`` mapped through ``p = c'(FP) / (c'(FP) + m·c'(FN))``."""
    c_fp, c_fn = economics.net_cost_fp, economics.net_cost_fn

    def prior(m: float) -> float:
        return 0.0 if math.isinf(m) else c_fp / (c_fp + m * c_fn)

    return prior(float(hull.slope_high[index])), prior(float(hull.slope_low[index]))


@dataclass(frozen=True, eq=False)
class Rederived:
    """The deployed choice against the one a window's prior calls for.

    Attributes
    ----------
    prior : PrevalenceEstimate
        The window's prior used (counted with labels, else the chosen estimator's).
    baseline : Choice
        The optimum on the reference hull at the decision's own prior.
    choice, choice_low, choice_high : Choice
        The optimum at the window's prior and at its interval's ends.
    holds_over : (float, float)
        The priors over which the baseline's vertex stays optimal.
    deployed_cost : Estimate
        The deployed threshold's expected cost per case at the window's prior (the
        reference's TPR and FPR there), over the prior's interval.
    differs : bool
        The optimum at the window's prior is another vertex than the baseline's.
    p_value : float
        Of "the window's prior still lies in ``holds_over``" (module docstring).
    max_cost : float
        The largest expected cost per case at the window's prior (every case wrong, net
        costs): the scale of :attr:`normalized_saving`.
    """

    prior: PrevalenceEstimate
    baseline: Choice
    choice: Choice
    choice_low: Choice
    choice_high: Choice
    holds_over: tuple[float, float]
    deployed_cost: Estimate
    differs: bool
    p_value: float
    max_cost: float = 1.0

    @property
    def saving(self) -> float:
        """Cost per case saved by switching to the re-derived choice (>= 0)."""
        return self.deployed_cost.value - self.choice.expected_cost

    @property
    def normalized_saving(self) -> float:
        """:attr:`saving` over the largest cost per case at the window's prior,
        ``p·c'(FN) + (1−p)·c'(FP)`` (Drummond & Holte's normalized expected cost: 0 to 1,
        whatever the unit)."""
        return self.saving / self.max_cost


def _logit(p: float) -> float:
    p = min(max(p, 1e-9), 1 - 1e-9)
    return math.log(p / (1 - p))


def _p_value(estimate: PrevalenceEstimate, low: float, high: float) -> float:
    p = estimate.value
    if not math.isfinite(p) or low <= p <= high:
        return 1.0
    s = estimate.spread
    if not (math.isfinite(s) and s > 0):
        return 0.0
    bound = high if p > high else low
    return float(ndtr(-abs(_logit(p) - _logit(bound)) / s))


def rederive(hull: RocHull, *, prior: PrevalenceEstimate, decision_prior: float,
             economics: Economics, deployed_fpr: float, deployed_tpr: float) -> Rederived:
    """The choice on ``hull`` at the window's ``prior`` (and its interval's ends) against
    the one at the decision's prior, and the deployed point's cost there."""
    baseline = choice_at_prior(hull, decision_prior, economics)
    value = prior.value
    low = prior.low if math.isfinite(prior.low) else value
    high = prior.high if math.isfinite(prior.high) else value
    choice = choice_at_prior(hull, value, economics)
    holds = prior_range(hull, baseline.index, economics)
    ends = [float(cost_at_prior(deployed_fpr, deployed_tpr, q, economics))
            for q in (low, high)]
    p = min(max(value, 0.0), 1.0) if math.isfinite(value) else decision_prior
    return Rederived(
        max_cost=p * economics.net_cost_fn + (1 - p) * economics.net_cost_fp,
        prior=prior, baseline=baseline, choice=choice,
        choice_low=choice_at_prior(hull, low, economics),
        choice_high=choice_at_prior(hull, high, economics), holds_over=holds,
        deployed_cost=Estimate(float(cost_at_prior(deployed_fpr, deployed_tpr, value,
                                                   economics)), min(ends), max(ends)),
        differs=choice.index != baseline.index, p_value=_p_value(prior, *holds))
