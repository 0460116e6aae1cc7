"""Money per case: costs, benefits and volume, and what an operating point costs under them.

Everything here is read off ROC points ``(FPR, TPR)`` under an :class:`Economics` (costs,
benefits, volume) and a deployment prior ``p(+)``:

* expected cost and value per case, and per period (Fawcett 2004, section 7.1),
  with benefits folded into *net* costs as in the footnote of
  section 7.1 on benefits (the footnote did not survive into the text file; section 7.2,
  figure 9, makes the same move, re-expressing a cost-benefit matrix relative to one
  decision): a decision's cost is its regret against the right decision, so the
  iso-performance slope uses ``c'(FP) = c(FP) + b(TN)`` and ``c'(FN) = c(FN) + b(TP)``;
* the share of cases flagged and the precision at the deployment prior.

Costs below are always per case and in the unit of :attr:`Economics.unit`; no function here
formats a number.

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, section 7.1 (The ROC convex hull).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from ..analysis_types import Conditions
from ..roc.hull import expected_cost, iso_performance_slope

__all__ = [
    "Economics", "net_costs", "net_slope", "net_conditions", "expected_cost_per_case",
    "expected_value_per_case", "regret_per_case", "precision_at_prior", "flagged_at_prior",
    "metrics_at_prior",
]


def _finite(v) -> bool:
    return isinstance(v, (int, float, np.integer, np.floating)) and math.isfinite(float(v))


@dataclass(frozen=True)
class Economics:
    """Costs, benefits and volume of the decision "flag this case" (predict positive).

    Attributes
    ----------
    cost_fp : float
        Cost of a false positive ``c(FP)`` (a negative case flagged). Positive.
    cost_fn : float
        Cost of a false negative ``c(FN)`` (a positive case missed). Positive.
    benefit_tp : float, default 0
        Benefit of a true positive ``b(TP)``. Non-negative.
    benefit_tn : float, default 0
        Benefit of a true negative ``b(TN)``. Non-negative.
    unit : str, default ""
        Currency or unit of the amounts (e.g. "€"); carried, never used in arithmetic.
    population : float, optional
        Cases per :attr:`period` (e.g. per month); enables the totals per period.
    period : str, default "month"
        Name of the period of :attr:`population`.

    Notes
    -----
    Only the *net* costs ``c'(FP) = c(FP) + b(TN)`` and ``c'(FN) = c(FN) + b(TP)`` decide
    which operating point is best (Fawcett 2004, footnote of section 7.1; section 7.2,
    figure 9, subtracts one decision's row of the benefit matrix the same way): flagging a
    negative loses ``c(FP)`` and the ``b(TN)`` that not flagging it would have earned. The
    benefits shift every expected value by the same amount otherwise (see
    :func:`expected_cost_per_case`).

    Raises
    ------
    ValueError
        If a cost is not positive and finite, a benefit not non-negative and finite, or the
        population not positive and finite.
    """

    cost_fp: float
    cost_fn: float
    benefit_tp: float = 0.0
    benefit_tn: float = 0.0
    unit: str = ""
    population: float | None = None
    period: str = "month"

    def __post_init__(self):
        for name in ("cost_fp", "cost_fn"):
            v = getattr(self, name)
            if not (_finite(v) and v > 0):
                raise ValueError(f"{name} must be a positive finite number (got {v!r})")
        for name in ("benefit_tp", "benefit_tn"):
            v = getattr(self, name)
            if not (_finite(v) and v >= 0):
                raise ValueError(f"{name} must be a non-negative finite number (got {v!r})")
        if self.population is not None and not (_finite(self.population)
                                                and self.population > 0):
            raise ValueError(f"population must be a positive finite number of cases per "
                             f"{self.period} (got {self.population!r})")

    @classmethod
    def from_conditions(cls, conditions: Conditions, **kwargs) -> Economics:
        """The economics of an analysis' conditions (its two costs, no benefits), with any
        other attribute given by keyword."""
        return cls(cost_fp=conditions.cost_fp, cost_fn=conditions.cost_fn, **kwargs)

    @property
    def has_benefits(self) -> bool:
        """True when a benefit is non-zero (the net costs then differ from the costs)."""
        return self.benefit_tp != 0 or self.benefit_tn != 0

    @property
    def net_cost_fp(self) -> float:
        """``c'(FP) = c(FP) + b(TN)``: the regret of flagging a negative."""
        return float(self.cost_fp) + float(self.benefit_tn)

    @property
    def net_cost_fn(self) -> float:
        """``c'(FN) = c(FN) + b(TP)``: the regret of missing a positive."""
        return float(self.cost_fn) + float(self.benefit_tp)

    def per_period(self, per_case):
        """``per_case × population`` (scalar or array), or ``None`` without a population."""
        if self.population is None:
            return None
        out = np.multiply(per_case, float(self.population))
        return float(out) if np.ndim(out) == 0 else out


def net_costs(economics: Economics) -> tuple[float, float]:
    """``(c'(FP), c'(FN)) = (c(FP) + b(TN), c(FN) + b(TP))`` (Fawcett 2004, section 7.1,
    footnote): the costs that set the iso-performance slope and the cost curves."""
    return economics.net_cost_fp, economics.net_cost_fn


def net_slope(prior_pos: float, economics: Economics) -> float:
    """Iso-performance slope ``m = c'(FP)·p(−) / (c'(FN)·p(+))`` with net costs."""
    return iso_performance_slope(economics.net_cost_fp, economics.net_cost_fn, prior_pos)


def net_conditions(conditions: Conditions, economics: Economics) -> Conditions:
    """``conditions`` with the net costs of ``economics``: pass it to
    :func:`~roc_dash.core.assembly.analysis.with_conditions` and every optimum of the analysis
    is the one that maximises the expected value under ``economics``."""
    return replace(conditions, cost_fp=economics.net_cost_fp, cost_fn=economics.net_cost_fn)


def _check_prior(prior_pos) -> float:
    p = float(prior_pos)
    if not 0.0 < p < 1.0:
        raise ValueError("the prior p(+) must lie strictly between 0 and 1")
    return p


def _out(a):
    return float(a) if np.ndim(a) == 0 else a


def expected_cost_per_case(fpr, tpr, prior_pos: float, economics: Economics):
    """Expected cost per case of the operating point(s) ``(fpr, tpr)`` at prior ``p(+)``.

    ``C = [p·(1−TPR)·c(FN) + (1−p)·FPR·c(FP)] − [p·TPR·b(TP) + (1−p)·(1−FPR)·b(TN)]``,
    the cost of the errors minus the benefit of the right decisions (Fawcett 2004,
    section 7.1). It is exactly ``−`` :func:`expected_value_per_case`. With both benefits
    zero the second bracket is exactly zero, so ``C`` is bit for bit
    :func:`roc_dash.core.roc.hull.expected_cost` (and the analysis' optimum costs).

    With benefits, ``C = R − [p·b(TP) + (1−p)·b(TN)]`` where ``R`` is
    :func:`regret_per_case` (the cost with net costs); the bracket does not depend on the
    operating point, which is why the net costs alone decide the optimum.

    Parameters
    ----------
    fpr, tpr : float or array-like
        Rates of the operating point(s).
    prior_pos : float
        Deployment prior ``p(+)``, strictly between 0 and 1.
    economics : Economics

    Returns
    -------
    float or ndarray
        A float for scalar rates, else an array of their shape. Negative when the benefits
        outweigh the costs (a profit).
    """
    p = _check_prior(prior_pos)
    f = np.asarray(fpr, dtype=np.float64)
    t = np.asarray(tpr, dtype=np.float64)
    q = 1.0 - p
    errors = p * (1.0 - t) * float(economics.cost_fn) + q * f * float(economics.cost_fp)
    gains = p * t * float(economics.benefit_tp) + q * (1.0 - f) * float(economics.benefit_tn)
    return _out(errors - gains)


def expected_value_per_case(fpr, tpr, prior_pos: float, economics: Economics):
    """Expected value per case:
    ``p·(TPR·b(TP) − (1−TPR)·c(FN)) + (1−p)·((1−FPR)·b(TN) − FPR·c(FP))``.

    Computed as ``−`` :func:`expected_cost_per_case`, so the two are exact negatives of each
    other. See there for the parameters.
    """
    return _out(-np.asarray(expected_cost_per_case(fpr, tpr, prior_pos, economics)))


def regret_per_case(fpr, tpr, prior_pos: float, economics: Economics):
    """Expected cost with net costs, ``p·(1−TPR)·c'(FN) + (1−p)·FPR·c'(FP)``: what the
    operating point loses per case against a perfect classifier (never negative).

    Equal to :func:`roc_dash.core.roc.hull.expected_cost` with ``cost_fp=c'(FP)``,
    ``cost_fn=c'(FN)``, hence to the analysis' optimum cost under
    :func:`net_conditions`.
    """
    c_fp, c_fn = net_costs(economics)
    return expected_cost(fpr, tpr, cost_fp=c_fp, cost_fn=c_fn, prior_pos=_check_prior(prior_pos))


def flagged_at_prior(fpr, tpr, prior_pos: float):
    """Share of cases flagged at the deployment prior: ``p·TPR + (1−p)·FPR``."""
    p = _check_prior(prior_pos)
    return _out(p * np.asarray(tpr, dtype=np.float64)
                + (1.0 - p) * np.asarray(fpr, dtype=np.float64))


def precision_at_prior(fpr, tpr, prior_pos: float):
    """Precision at the deployment prior ``p·TPR / (p·TPR + (1−p)·FPR)`` (Fawcett 2004,
    section 3.2: precision depends on the class mix); NaN where nothing is flagged."""
    p = _check_prior(prior_pos)
    hit = p * np.asarray(tpr, dtype=np.float64)
    flagged = np.asarray(flagged_at_prior(fpr, tpr, p))
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(flagged > 0, hit / np.where(flagged > 0, flagged, 1.0), np.nan)
    return _out(out)


def metrics_at_prior(fpr, tpr, prior_pos: float, economics: Economics) -> dict:
    """What an operating point means at the deployment prior: ``{"flagged": ...,
    "precision": ..., "expected_cost": ...}`` (:func:`flagged_at_prior`,
    :func:`precision_at_prior`, :func:`expected_cost_per_case`), from rates (floats or
    arrays)."""
    return {"flagged": flagged_at_prior(fpr, tpr, prior_pos),
            "precision": precision_at_prior(fpr, tpr, prior_pos),
            "expected_cost": expected_cost_per_case(fpr, tpr, prior_pos, economics)}
