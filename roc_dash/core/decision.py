"""The numbers a model-review meeting needs: money, the chosen point, how robust it is.

Everything here is read off ROC curves and hulls that :mod:`.analysis` has already computed,
under an :class:`Economics` (costs, benefits, volume) and a deployment prior ``p(+)``:

* expected cost and value per case, and per period (Fawcett 2004, section 7.1,
  ``../shared/papers/000_*``), with benefits folded into *net* costs as in the footnote of
  section 7.1 on benefits (the footnote did not survive into the text file; section 7.2,
  figure 9, makes the same move, re-expressing a cost-benefit matrix relative to one
  decision): a decision's cost is its regret against the right decision, so the
  iso-performance slope uses ``c'(FP) = c(FP) + b(TN)`` and ``c'(FN) = c(FN) + b(TP)``;
* the cost at every threshold of one model and how flat its minimum is
  (:func:`threshold_profile`);
* the chosen operating point, the runner-up model and what separates them
  (:func:`decision_summary`);
* over which cost ratios and priors a hull vertex stays optimal (:func:`optimality_range`):
  each vertex is optimal between the slopes of its two hull segments (section 7.1; Flach et
  al., ``004_*``, section 3), and the slope is ``m = c'(FP)·p(−) / (c'(FN)·p(+))``;
* how much the decision varies across folds or bootstrap replicates
  (:func:`decision_uncertainty`, :func:`optimum_frequency`,
  :func:`optimum_frequency_bootstrap`). Fold-to-fold variation is the spread that
  Fawcett's averaging (section 6) shows for whole curves; the bootstrap (Efron & Tibshirani
  1993; used for ROC bands by Macskassy & Provost 2004, cited in section 6) stands in for it
  when there is a single fold.

Costs below are always per case and in the unit of :attr:`Economics.unit`; no function here
formats a number.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy as np

from ._validation import check_binary_inputs
from .analysis import Analysis, Conditions, ModelAnalysis
from .curves import RocCurve, display_indices
from .hull import (
    TIE_RTOL,
    RocHull,
    expected_cost,
    iso_performance_slope,
    normalized_expected_cost,
    optimal_point,
    optimal_vertex,
)
from .operating import vertex_at_threshold

__all__ = [
    "Economics",
    "net_costs",
    "net_slope",
    "net_conditions",
    "expected_cost_per_case",
    "expected_value_per_case",
    "regret_per_case",
    "precision_at_prior",
    "flagged_at_prior",
    "Flatness",
    "ThresholdProfile",
    "threshold_profile",
    "flatness",
    "thin_profile",
    "Interval",
    "OptimalityRange",
    "optimality_range",
    "DecisionSummary",
    "decision_summary",
    "Spread",
    "DecisionUncertainty",
    "uncertainty_from_folds",
    "uncertainty_from_bootstrap",
    "decision_uncertainty",
    "OptimumFrequency",
    "optimum_frequency",
    "optimum_frequency_of",
    "optimum_frequency_bootstrap",
    "MAX_BOOT",
    "MAX_ROWS",
]

#: Upper bound on the number of bootstrap replicates.
MAX_BOOT = 2000
#: Rows beyond which a row bootstrap of whole curves works on a random subset.
MAX_ROWS = 200_000
#: Relative tolerance of "the current slope is at an end of a vertex's range".
_EDGE = 2.0 ** -40
#: Draws per bootstrap at most (bounds the time of the row-index fallback).
_BUDGET = 20_000_000
#: Elements per temporary array in the vectorised bootstraps (bounds memory: 16 MB).
_CHUNK = 2_000_000


# --------------------------------------------------------------------------------------------
# Economics
# --------------------------------------------------------------------------------------------

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
    :func:`~roc_dash.core.analysis.with_conditions` and every optimum of the analysis is the
    one that maximises the expected value under ``economics``."""
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
    :func:`roc_dash.core.hull.expected_cost` (and the analysis' optimum costs).

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

    Equal to :func:`roc_dash.core.hull.expected_cost` with ``cost_fp=c'(FP)``,
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


# --------------------------------------------------------------------------------------------
# Threshold profile
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Flatness:
    """How flat the minimum of the cost is: the run of vertices around the cheapest one whose
    cost stays within a tolerance of the minimum.

    The tolerance is ``within`` times the minimum *regret* (the cost against a perfect
    classifier, :func:`regret_per_case`), which equals the minimum expected cost when the
    benefits are zero. Measured against the regret, a large fixed income (``b(TN)`` on every
    negative) cannot make every threshold look "within 5 %".

    Attributes
    ----------
    within : float
        The relative tolerance (0.05 for 5 %).
    cost_limit : float
        Expected cost per case at the edge of the tolerance: ``min cost + within·min regret``.
    start, stop : int
        First and last vertex (inclusive, indices into the profile) of the run of vertices
        around the optimum whose cost is at most ``cost_limit``.
    threshold_low, threshold_high : float
        Thresholds of ``stop`` and ``start``: any threshold between them flags a set of cases
        whose cost is within the tolerance (``threshold_high`` is ``inf`` when the run
        reaches "flag nothing").
    flagged_low, flagged_high : float
        Share of cases flagged at ``start`` and ``stop`` (at the prior).
    tpr_low, tpr_high : float
        Recall at ``start`` and ``stop``.
    elsewhere : bool
        True when vertices outside the run (separated from it by costlier ones) are also
        within the tolerance: the cost has another, distant near-optimum.
    """

    within: float
    cost_limit: float
    start: int
    stop: int
    threshold_low: float
    threshold_high: float
    flagged_low: float
    flagged_high: float
    tpr_low: float
    tpr_high: float
    elsewhere: bool

    @property
    def n_vertices(self) -> int:
        return self.stop - self.start + 1


@dataclass(frozen=True, eq=False)
class ThresholdProfile:
    """Cost and consequences of every threshold of one model at one prior.

    Arrays run over the vertices of the model's ROC curve, threshold ``+inf`` (flag nothing)
    first, thresholds decreasing.

    Attributes
    ----------
    threshold, tpr, fpr : ndarray
        The curve's vertices ("flag iff score >= threshold").
    precision : ndarray
        Precision at the prior (NaN where nothing is flagged).
    flagged : ndarray
        Share of cases flagged at the prior, ``p·TPR + (1−p)·FPR``.
    expected_cost : ndarray
        Expected cost per case (:func:`expected_cost_per_case`).
    normalized_cost : ndarray
        The regret (:func:`regret_per_case`) divided by ``p·c'(FN) + (1−p)·c'(FP)``:
        Drummond & Holte's normalised expected cost with net costs (Fawcett 2004, section
        7.5.2), in ``[0, 1]``, 0 for a perfect classifier.
    best : int
        Index of the cheapest vertex: of equal ones the most conservative, by the tie rule of
        :func:`~roc_dash.core.hull.optimal_vertex` (the one every view names).
    flatness : Flatness
        How far the threshold can move from ``best`` before the cost rises past the
        tolerance.
    prior_pos : float
    economics : Economics
    """

    threshold: np.ndarray
    tpr: np.ndarray
    fpr: np.ndarray
    precision: np.ndarray
    flagged: np.ndarray
    expected_cost: np.ndarray
    normalized_cost: np.ndarray
    best: int
    flatness: Flatness
    prior_pos: float
    economics: Economics

    def __len__(self) -> int:
        return int(self.threshold.size)

    @property
    def expected_value(self) -> np.ndarray:
        """Expected value per case, exactly ``−expected_cost``."""
        return -self.expected_cost

    @property
    def cost_per_period(self) -> np.ndarray | None:
        """Expected cost per period at each vertex (``None`` without a population)."""
        return self.economics.per_period(self.expected_cost)

    @property
    def best_threshold(self) -> float:
        return float(self.threshold[self.best])

    @property
    def best_cost(self) -> float:
        return float(self.expected_cost[self.best])

    @property
    def best_flagged(self) -> float:
        return float(self.flagged[self.best])


def threshold_profile(curve: RocCurve, prior_pos: float, economics: Economics, *,
                      within: float = 0.05) -> ThresholdProfile:
    """Expected cost, precision and share flagged at every threshold of a ROC curve.

    The minimum over the vertices equals the minimum over the curve's convex hull (a linear
    function of ``(FPR, TPR)`` is minimised at a hull vertex, Fawcett 2004 section 7.1), so
    ``best`` is the vertex :func:`~roc_dash.core.hull.optimal_point` picks on the model's
    hull under the net slope, ties included (:func:`~roc_dash.core.hull.optimal_vertex`).

    Parameters
    ----------
    curve : RocCurve
        The model's (pooled) curve.
    prior_pos : float
        Deployment prior ``p(+)``.
    economics : Economics
    within : float, default 0.05
        Relative tolerance of the flatness (see :class:`Flatness`).

    Returns
    -------
    ThresholdProfile
        All arrays have ``len(curve)`` entries; :func:`thin_profile` reduces them for
        display.
    """
    p = _check_prior(prior_pos)
    f, t = curve.fpr, curve.tpr
    cost = np.asarray(expected_cost_per_case(f, t, p, economics), dtype=np.float64)
    c_fp, c_fn = net_costs(economics)
    nec = np.asarray(normalized_expected_cost(f, t, cost_fp=c_fp, cost_fn=c_fn, prior_pos=p),
                     dtype=np.float64)
    flagged = np.asarray(flagged_at_prior(f, t, p), dtype=np.float64)
    precision = np.asarray(precision_at_prior(f, t, p), dtype=np.float64)
    # the one tie rule (hull.optimal_vertex): among equal costs the conservative vertex,
    # the one every other view names; an argmin of the rounded costs could pick another
    best = optimal_vertex(curve, net_slope(p, economics))
    regret = np.asarray(regret_per_case(f, t, p, economics), dtype=np.float64)
    flat = _flatness(cost, regret, best, curve.thresholds, flagged, t, within)
    return ThresholdProfile(threshold=curve.thresholds, tpr=t, fpr=f, precision=precision,
                            flagged=flagged, expected_cost=cost, normalized_cost=nec,
                            best=best, flatness=flat, prior_pos=p, economics=economics)


def _flatness(cost, regret, best, thresholds, flagged, tpr, within) -> Flatness:
    if not (_finite(within) and within >= 0):
        raise ValueError("within must be a non-negative finite number")
    limit = float(cost[best]) + float(within) * float(regret[best])
    ok = cost <= limit
    ok[best] = True
    above = np.flatnonzero(~ok[:best])
    start = int(above[-1]) + 1 if above.size else 0
    after = np.flatnonzero(~ok[best + 1:])
    stop = best + int(after[0]) if after.size else cost.size - 1
    elsewhere = bool(ok[:start].any() or ok[stop + 1:].any())
    return Flatness(within=float(within), cost_limit=limit, start=start, stop=stop,
                    threshold_low=float(thresholds[stop]),
                    threshold_high=float(thresholds[start]),
                    flagged_low=float(flagged[start]), flagged_high=float(flagged[stop]),
                    tpr_low=float(tpr[start]), tpr_high=float(tpr[stop]),
                    elsewhere=elsewhere)


def flatness(profile: ThresholdProfile, within: float = 0.05) -> Flatness:
    """The :class:`Flatness` of a profile at another tolerance (nothing else recomputed)."""
    regret = np.asarray(regret_per_case(profile.fpr, profile.tpr, profile.prior_pos,
                                        profile.economics), dtype=np.float64)
    return _flatness(profile.expected_cost, regret, profile.best,
                     profile.threshold, profile.flagged, profile.tpr, within)


def thin_profile(profile: ThresholdProfile, *, max_points: int = 2000) -> ThresholdProfile:
    """At most about ``max_points`` vertices of a profile, for drawing only.

    The vertices kept are :func:`~roc_dash.core.curves.display_indices` of the curve of
    normalised cost against share flagged (both in ``[0, 1]``; both linear in
    ``(FPR, TPR)``, so the dropped collinear vertices lie on the drawn line), plus the
    cheapest vertex and the two ends of the flat run, whose indices are renumbered. A
    profile that is already small enough is returned as it is.
    """
    if len(profile) <= max_points:
        return profile
    keep = display_indices(profile.flagged, profile.normalized_cost, max_points=max_points)
    fl = profile.flatness
    keep = np.union1d(keep, [profile.best, fl.start, fl.stop])

    def pos(i: int) -> int:
        return int(np.searchsorted(keep, i))

    return ThresholdProfile(
        threshold=profile.threshold[keep], tpr=profile.tpr[keep], fpr=profile.fpr[keep],
        precision=profile.precision[keep], flagged=profile.flagged[keep],
        expected_cost=profile.expected_cost[keep],
        normalized_cost=profile.normalized_cost[keep], best=pos(profile.best),
        flatness=replace(fl, start=pos(fl.start), stop=pos(fl.stop)),
        prior_pos=profile.prior_pos, economics=profile.economics)


# --------------------------------------------------------------------------------------------
# Sensitivity of an optimal vertex
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Interval:
    """A range ``[low, high]`` of one quantity, with its current ``value``.

    ``low_open`` / ``high_open`` say that the range has no limit on that side within the
    quantity's domain: the vertex stays optimal however small (large) the quantity gets
    (``low`` is then the domain's end, 0; ``high`` is ``inf``, or 1 for a prior).
    """

    low: float
    high: float
    low_open: bool
    high_open: bool
    value: float

    @property
    def contains_value(self) -> bool:
        """``low <= value <= high``, the ends widened by a relative ``2**-40`` (a value on an
        end, e.g. a tie on the iso line, is inside despite rounding)."""
        return bool(self.low * (1 - _EDGE) <= self.value <= self.high * (1 + _EDGE))

    @property
    def at_low(self) -> bool:
        """The value is on the low end (within ``2**-40``): a tie with the neighbour there."""
        return bool(abs(self.value - self.low) <= _EDGE * abs(self.low))

    @property
    def at_high(self) -> bool:
        """The value is on the high end (within ``2**-40``): a tie with the neighbour there."""
        return bool(abs(self.value - self.high) <= _EDGE * abs(self.high))


@dataclass(frozen=True)
class OptimalityRange:
    """Where one hull vertex is the optimal operating point (Fawcett 2004, section 7.1).

    Attributes
    ----------
    index : int
        The vertex (index into the hull).
    model : str
    threshold, fpr, tpr : float
    optimal_now : bool
        True when the current net slope lies in the vertex's slope range (within a relative
        ``2**-40``, so that a slope computed from costs and a prior that ties with a hull
        segment counts as inside, as in :func:`~roc_dash.core.hull.optimal_point`).
    slope : Interval
        ``[slope_low, slope_high]`` of the vertex; ``value`` is the current net slope.
    ratio : Interval
        Net cost ratio ``c'(FN)/c'(FP)`` at the current prior:
        ``[(1−p)/(p·slope_high), (1−p)/(p·slope_low)]``.
    prior : Interval
        Prior ``p(+)`` at the current net costs, from ``m(p) ∈ [slope_low, slope_high]``:
        ``[c'(FP)/(c'(FP) + slope_high·c'(FN)), c'(FP)/(c'(FP) + slope_low·c'(FN))]``.
    cost_fn : Interval
        ``c(FN)`` with ``c(FP)``, the benefits and the prior fixed: ``ratio·c'(FP) − b(TP)``
        (clipped at 0; a ``low`` clipped to 0 is open: no positive cost of a miss is too
        small).
    cost_fp : Interval
        ``c(FP)`` with ``c(FN)``, the benefits and the prior fixed: ``c'(FN)/ratio − b(TN)``
        (clipped at 0 likewise).
    conservative_model, conservative_threshold : str or None, float
        The vertex that becomes optimal below ``ratio.low`` / ``prior.low`` (the previous
        hull vertex, flagging fewer cases); ``None``/NaN for the first vertex.
    liberal_model, liberal_threshold : str or None, float
        The vertex that becomes optimal above ``ratio.high`` / ``prior.high`` (the next
        hull vertex, flagging more cases); ``None``/NaN for the last vertex.
    uses_benefits : bool
        True when the ratio and slopes are of net costs that include benefits.
    """

    index: int
    model: str
    threshold: float
    fpr: float
    tpr: float
    optimal_now: bool
    slope: Interval
    ratio: Interval
    prior: Interval
    cost_fn: Interval
    cost_fp: Interval
    conservative_model: str | None
    conservative_threshold: float
    liberal_model: str | None
    liberal_threshold: float
    uses_benefits: bool


def optimality_range(hull: RocHull, index: int, prior_pos: float,
                     economics: Economics) -> OptimalityRange:
    """Over which cost ratios and priors hull vertex ``index`` stays the optimal choice.

    A hull vertex is optimal for every iso-performance slope between the slopes of its two
    hull segments, ``slope_low <= m <= slope_high`` (Fawcett 2004, section 7.1; Flach et al.
    section 3). With ``m = c'(FP)·(1−p) / (c'(FN)·p)`` (net costs) this is, at the current
    prior, a range of the ratio ``r = c'(FN)/c'(FP)``:
    ``(1−p)/(p·slope_high) <= r <= (1−p)/(p·slope_low)``; and at the current costs, since
    ``m`` falls as ``p`` rises, a range of the prior: ``p = c'(FP) / (c'(FP) + m·c'(FN))``
    evaluated at ``slope_high`` (low end) and ``slope_low`` (high end). At an end both
    neighbouring vertices are optimal (a tie); beyond it, the neighbour is.

    Parameters
    ----------
    hull : RocHull
        A model's own hull or the joint hull of several models.
    index : int
        The vertex, e.g. ``optimal_point(hull, net_slope(p, economics)).index``.
    prior_pos : float
    economics : Economics

    Returns
    -------
    OptimalityRange
    """
    p = _check_prior(prior_pos)
    n = len(hull)
    k = int(index)
    if not 0 <= k < n:
        raise IndexError(f"vertex {index} is not on a hull of {n} vertices")
    c_fp, c_fn = net_costs(economics)
    m = net_slope(p, economics)
    lo, hi = float(hull.slope_low[k]), float(hull.slope_high[k])
    # steep: no segment above (slope_high = inf), so no limit on the cheap-miss / rare-positive
    # side; flat: no segment below (slope_low = 0), no limit on the other side
    steep, flat = hi == math.inf, lo == 0.0
    # numpy scalars: a zero or infinite slope gives the limits 0, inf or 1, not an error
    q, p64, s_lo, s_hi = np.float64(1.0 - p), np.float64(p), np.float64(lo), np.float64(hi)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        r_lo, r_hi = float(q / (p64 * s_hi)), float(q / (p64 * s_lo))
        p_lo = float(c_fp / (c_fp + s_hi * c_fn))
        p_hi = float(c_fp / (c_fp + s_lo * c_fn))
        fp_lo = float(c_fn / np.float64(r_hi)) - economics.benefit_tn
        fp_hi = float(c_fn / np.float64(r_lo)) - economics.benefit_tn
    fn_lo = r_lo * c_fp - economics.benefit_tp
    fn_hi = r_hi * c_fp - economics.benefit_tp
    ratio = Interval(low=r_lo, high=r_hi, low_open=steep, high_open=flat,
                     value=c_fn / c_fp)
    cost_fn = Interval(low=max(fn_lo, 0.0), high=max(fn_hi, 0.0),
                       low_open=steep or fn_lo <= 0, high_open=flat,
                       value=float(economics.cost_fn))
    cost_fp = Interval(low=max(fp_lo, 0.0), high=max(fp_hi, 0.0),
                       low_open=flat or fp_lo <= 0, high_open=steep,
                       value=float(economics.cost_fp))
    prev, nxt = (k - 1 if k > 0 else None), (k + 1 if k < n - 1 else None)
    return OptimalityRange(
        index=k, model=str(hull.models[k]), threshold=float(hull.thresholds[k]),
        fpr=float(hull.fpr[k]), tpr=float(hull.tpr[k]), optimal_now=bool(lo * (1 - _EDGE) <= m <= hi * (1 + _EDGE)),
        slope=Interval(low=lo, high=hi, low_open=flat, high_open=steep, value=m),
        ratio=ratio,
        prior=Interval(low=p_lo, high=p_hi, low_open=steep, high_open=flat, value=p),
        cost_fn=cost_fn, cost_fp=cost_fp,
        conservative_model=None if prev is None else str(hull.models[prev]),
        conservative_threshold=math.nan if prev is None else float(hull.thresholds[prev]),
        liberal_model=None if nxt is None else str(hull.models[nxt]),
        liberal_threshold=math.nan if nxt is None else float(hull.thresholds[nxt]),
        uses_benefits=economics.has_benefits,
    )


# --------------------------------------------------------------------------------------------
# Decision summary
# --------------------------------------------------------------------------------------------

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
        (:class:`~roc_dash.core.hull.HullOptimum` ``on_segment``).
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
    economics: Economics
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
                     economics: Economics | None = None) -> DecisionSummary | None:
    """Summarise the decision a review meeting takes from an analysis.

    The chosen point is the pinned one (``{"model", "threshold"}``, threshold ``None`` =
    ``+inf``, read off the model's pooled curve with
    :func:`~roc_dash.core.operating.vertex_at_threshold`, as
    :func:`~roc_dash.core.operating.operating_point` does) when its model is in the
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
    e = economics or Economics.from_conditions(cond)
    p = _check_prior(cond.prior_pos)
    m = net_slope(p, e)
    names = [mod.name for mod in analysis.models]
    notes = []

    # each model's own optimum under the net slope
    own = {}
    for mod in analysis.models:
        opt = optimal_point(mod.hull, m)
        own[mod.name] = (opt, float(expected_cost_per_case(opt.fpr, opt.tpr, p, e)))

    joint = optimal_point(analysis.hull, m)
    if joint.model in names:
        best_name = joint.model
    else:  # points without a model: the model with the cheapest own optimum
        best_name = min(names, key=lambda n: own[n][1])
    best_mod = analysis.model(best_name)
    optimal_cost = float(expected_cost_per_case(joint.fpr, joint.tpr, p, e))

    is_pinned = bool(pinned) and pinned.get("model") in names
    if is_pinned:
        t = pinned.get("threshold")
        chosen = analysis.model(pinned["model"])
        threshold = math.inf if t is None else float(t)
    else:
        chosen, threshold = best_mod, joint.threshold
    k = vertex_at_threshold(chosen.curve, threshold)
    fpr, tpr = float(chosen.curve.fpr[k]), float(chosen.curve.tpr[k])
    cost = float(expected_cost_per_case(fpr, tpr, p, e))
    flagged = float(flagged_at_prior(fpr, tpr, p))
    nothing = not flagged > 0
    if nothing:
        notes.append("Nothing is flagged at this threshold: precision is undefined.")
    c_fp, c_fn = net_costs(e)
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
        fpr=fpr, tpr=tpr, precision=float(precision_at_prior(fpr, tpr, p)), flagged=flagged,
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


# --------------------------------------------------------------------------------------------
# Uncertainty of the decision
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Spread:
    """How one number varies across folds or bootstrap replicates.

    Attributes
    ----------
    point : float
        The estimate on all the data (pooled curve or full sample; NaN if not given).
    mean, std : float
        Mean and sample standard deviation (``ddof=1``; NaN below two values) of the
        finite values.
    low, high : float
        The interval: percentiles ``(1−level)/2`` and ``(1+level)/2`` when each tail holds
        at least one value (``n·(1−level)/2 >= 1``, e.g. 40 values at 95 %), else the
        minimum and maximum.
    interval : str
        ``"percentile"`` or ``"range"`` (min/max), as above.
    n : int
        Number of finite values.
    values : ndarray
        One value per fold or replicate (NaN where undefined, e.g. precision when nothing
        is flagged).
    """

    point: float
    mean: float
    std: float
    low: float
    high: float
    interval: str
    n: int
    values: np.ndarray


def _spread(values: np.ndarray, point: float, level: float) -> Spread:
    v = np.asarray(values, dtype=np.float64)
    ok = v[np.isfinite(v)]
    n = int(ok.size)
    if n == 0:
        return Spread(point=float(point), mean=math.nan, std=math.nan, low=math.nan,
                      high=math.nan, interval="range", n=0, values=v)
    if n * (1.0 - level) / 2.0 >= 1.0:
        low, high = np.quantile(ok, [(1.0 - level) / 2.0, (1.0 + level) / 2.0])
        kind = "percentile"
    else:
        low, high = ok.min(), ok.max()
        kind = "range"
    return Spread(point=float(point), mean=float(ok.mean()),
                  std=float(ok.std(ddof=1)) if n > 1 else math.nan,
                  low=float(low), high=float(high), interval=kind, n=n, values=v)


@dataclass(frozen=True, eq=False)
class DecisionUncertainty:
    """How the consequences of one fixed threshold vary with the sample.

    Attributes
    ----------
    method : str
        ``"folds"`` (one value per fold) or ``"bootstrap"`` (one per replicate).
    threshold, prior_pos, level : float
    names : tuple of str
        The folds' names (``"folds"``) or empty (``"bootstrap"``).
    tpr, fpr, flagged, precision, expected_cost : Spread
        Recall, false positive rate, share flagged and precision at the prior, expected cost
        per case.
    notes : tuple of str
        E.g. replicates dropped because a class was absent, or a subsampled bootstrap.
    """

    method: str
    threshold: float
    prior_pos: float
    level: float
    names: tuple[str, ...]
    tpr: Spread
    fpr: Spread
    flagged: Spread
    precision: Spread
    expected_cost: Spread
    notes: tuple[str, ...] = ()

    @property
    def n(self) -> int:
        return self.tpr.n


def _check_level(level) -> float:
    if not (_finite(level) and 0.0 < level < 1.0):
        raise ValueError("level must lie strictly between 0 and 1")
    return float(level)


def _threshold(t) -> float:
    t = math.inf if t is None else float(t)
    if math.isnan(t):
        raise ValueError("the threshold must be a number (or None for +inf)")
    return t


def _uncertainty(method, fpr, tpr, point, threshold, p, e, level, names, notes):
    pf, pt = point
    vals = {
        "tpr": (tpr, pt),
        "fpr": (fpr, pf),
        "flagged": (flagged_at_prior(fpr, tpr, p), flagged_at_prior(pf, pt, p)),
        "precision": (precision_at_prior(fpr, tpr, p), precision_at_prior(pf, pt, p)),
        "expected_cost": (expected_cost_per_case(fpr, tpr, p, e),
                          expected_cost_per_case(pf, pt, p, e)),
    }
    return DecisionUncertainty(
        method=method, threshold=threshold, prior_pos=p, level=level, names=tuple(names),
        notes=tuple(notes),
        **{k: _spread(np.atleast_1d(v), float(pv), level) for k, (v, pv) in vals.items()})


def uncertainty_from_folds(fold_curves: Mapping[str, RocCurve], threshold: float,
                           prior_pos: float, economics: Economics, *, level: float = 0.95,
                           pooled: RocCurve | None = None) -> DecisionUncertainty:
    """Spread of TPR, FPR, share flagged, precision and expected cost across folds at one
    fixed threshold.

    Each fold's rates are read off the fold's own curve at the vertex of "flag iff
    score >= threshold" (:func:`~roc_dash.core.operating.vertex_at_threshold`), the reading
    that threshold averaging (Fawcett 2004, section 6.2, Algorithm 5) takes at each
    threshold; the folds count equally.

    Parameters
    ----------
    fold_curves : mapping of str to RocCurve
        E.g. :attr:`ModelAnalysis.folds`.
    threshold : float
        ``None`` means ``+inf`` (flag nothing).
    prior_pos : float
    economics : Economics
    level : float, default 0.95
        Level of the percentile interval (see :class:`Spread`; with few folds the interval
        is the range).
    pooled : RocCurve, optional
        The pooled curve, for the point estimates (NaN without it).
    """
    p = _check_prior(prior_pos)
    level = _check_level(level)
    t = _threshold(threshold)
    if not fold_curves:
        raise ValueError("no fold curves")
    names = [str(k) for k in fold_curves]
    idx = [vertex_at_threshold(c, t) for c in fold_curves.values()]
    fpr = np.array([c.fpr[i] for c, i in zip(fold_curves.values(), idx, strict=True)])
    tpr = np.array([c.tpr[i] for c, i in zip(fold_curves.values(), idx, strict=True)])
    if pooled is not None:
        k = vertex_at_threshold(pooled, t)
        point = (float(pooled.fpr[k]), float(pooled.tpr[k]))
    else:
        point = (math.nan, math.nan)
    return _uncertainty("folds", fpr, tpr, point, t, p, economics, level, names, ())


def _check_n_boot(n_boot) -> int:
    if not (isinstance(n_boot, (int, np.integer)) and 1 <= n_boot <= MAX_BOOT):
        raise ValueError(f"n_boot must be an integer between 1 and {MAX_BOOT}")
    return int(n_boot)


def _category_totals(code: np.ndarray, w: np.ndarray | None) -> np.ndarray:
    """Weighted totals of the categories 0 = TN, 1 = FP, 2 = FN, 3 = TP."""
    return np.bincount(code, weights=w, minlength=4).astype(np.float64)


def _rates(totals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(FPR, TPR)`` from category totals (last axis TN, FP, FN, TP); NaN where a class is
    absent."""
    neg = totals[..., 0] + totals[..., 1]
    pos = totals[..., 2] + totals[..., 3]
    with np.errstate(divide="ignore", invalid="ignore"):
        fpr = np.where(neg > 0, totals[..., 1] / np.where(neg > 0, neg, 1.0), np.nan)
        tpr = np.where(pos > 0, totals[..., 3] / np.where(pos > 0, pos, 1.0), np.nan)
    return fpr, tpr


def _boot_totals(code, w, n_boot, rng, notes):
    """Bootstrap category totals ``(n_boot, 4)`` of a row resample, and the resample size.

    Resampling ``n`` rows with replacement puts a Multinomial(``n``, sizes/``n``) number of
    draws in each group of identical rows, so the rows are grouped by (category, weight)
    and the groups' counts are drawn directly: exact, and ``O(n_boot × groups)`` (four
    groups for unweighted rows, whatever ``n``). With too many distinct weights for that,
    rows are drawn by index; past the work budget an ``m``-out-of-``n`` bootstrap is used.
    """
    n = code.size
    if w is None:
        sizes = np.bincount(code, minlength=4)
        return rng.multinomial(n, sizes / n, size=n_boot).astype(np.float64), n
    order = np.lexsort((w, code))
    cs, ws = code[order], w[order]
    first = np.ones(n, dtype=bool)
    first[1:] = (cs[1:] != cs[:-1]) | (ws[1:] != ws[:-1])
    starts = np.flatnonzero(first)
    sizes = np.diff(np.append(starts, n))
    g_code, g_w = cs[starts], ws[starts]
    k = starts.size
    out = np.empty((n_boot, 4))
    if k * n_boot <= _BUDGET:
        chunk = max(1, _CHUNK // k)
        onehot = np.zeros((k, 4))
        onehot[np.arange(k), g_code] = g_w  # weight of one row of each group, per category
        for a in range(0, n_boot, chunk):
            b = min(a + chunk, n_boot)
            draws = rng.multinomial(n, sizes / n, size=b - a).astype(np.float64)
            out[a:b] = draws @ onehot
        return out, n
    m = int(min(n, MAX_ROWS, max(1000, _BUDGET // n_boot)))
    if m < n:
        notes.append(f"Bootstrap of {m:,} rows drawn from the {n:,} per replicate "
                     f"(m-out-of-n), its spread rescaled by √(m/n) to the full sample.")
    chunk = max(1, _CHUNK // m)
    for a in range(0, n_boot, chunk):
        b = min(a + chunk, n_boot)
        idx = rng.integers(0, n, size=(b - a, m))
        keys = code[idx] + 4 * np.arange(b - a)[:, None]
        out[a:b] = np.bincount(keys.ravel(), weights=w[idx].ravel(),
                               minlength=4 * (b - a)).reshape(b - a, 4)
    return out, m


def uncertainty_from_bootstrap(labels, scores, threshold: float, prior_pos: float,
                               economics: Economics, *, weights=None, n_boot: int = 200,
                               seed: int = 0, level: float = 0.95) -> DecisionUncertainty:
    """Spread of the consequences of one fixed threshold over bootstrap resamples of rows.

    Each replicate resamples the rows with replacement (Efron & Tibshirani 1993), counts the
    (weighted) true/false positives and negatives of "flag iff score >= threshold", and
    turns them into rates; the deployment prior stays fixed. Only the four category totals
    matter at a fixed threshold, so the draws are made per group of identical
    (category, weight) rows (see :func:`_boot_totals`): unweighted data of any size costs
    ``O(n_boot)``. Data with very many distinct weights falls back to drawing rows by
    index, and beyond the work budget (about ``2·10⁷`` draws) to an ``m``-out-of-``n``
    bootstrap (``m <= MAX_ROWS``) whose deviations from the full-sample estimate are scaled
    by ``√(m/n)``; a note says so. Replicates lacking a class are dropped (noted).

    Parameters
    ----------
    labels, scores, weights
        As for :func:`~roc_dash.core.curves.roc_curve`.
    threshold : float
        ``None`` means ``+inf``.
    prior_pos : float
    economics : Economics
    n_boot : int, default 200
        Replicates, at most :data:`MAX_BOOT`.
    seed : int, default 0
    level : float, default 0.95
    """
    p = _check_prior(prior_pos)
    level = _check_level(level)
    n_boot = _check_n_boot(n_boot)
    t = _threshold(threshold)
    y, s, w = check_binary_inputs(labels, scores, weights)
    code = 2 * y.astype(np.intp) + (s >= t)
    point = _rates(_category_totals(code, w))
    if not (np.isfinite(point[0]) and np.isfinite(point[1])):
        raise ValueError("both classes must be present (with positive weight)")
    notes: list[str] = []
    rng = np.random.default_rng(seed)
    totals, m = _boot_totals(code, w, n_boot, rng, notes)
    fpr, tpr = _rates(totals)
    if m < code.size:
        shrink = math.sqrt(m / code.size)
        fpr = np.clip(point[0] + (fpr - point[0]) * shrink, 0.0, 1.0)
        tpr = np.clip(point[1] + (tpr - point[1]) * shrink, 0.0, 1.0)
    dropped = int((~(np.isfinite(fpr) & np.isfinite(tpr))).sum())
    if dropped:
        notes.append(f"{dropped} of {n_boot} replicates lacked a class and were dropped.")
    return _uncertainty("bootstrap", fpr, tpr, (float(point[0]), float(point[1])), t, p,
                        economics, level, (), notes)


def decision_uncertainty(model: ModelAnalysis, threshold: float, prior_pos: float,
                         economics: Economics, *, labels=None, scores=None, weights=None,
                         method: str = "auto", n_boot: int = 200, seed: int = 0,
                         level: float = 0.95) -> DecisionUncertainty:
    """Spread of a model's consequences at a fixed threshold: across its folds when it has
    several, else over bootstrap replicates of its rows.

    ``method="auto"`` takes the folds when ``model.folds`` holds at least two, else the
    bootstrap, which needs the model's rows (``labels``, ``scores``, optional ``weights``:
    the model's slice of the canonical table). ``"folds"`` and ``"bootstrap"`` force one.
    See :func:`uncertainty_from_folds` and :func:`uncertainty_from_bootstrap`.

    Raises
    ------
    ValueError
        When the bootstrap is needed and no rows are given, or on a bad ``method``.
    """
    if method not in ("auto", "folds", "bootstrap"):
        raise ValueError("method must be 'auto', 'folds' or 'bootstrap'")
    if method == "folds" or (method == "auto" and len(model.folds) > 1):
        return uncertainty_from_folds(model.folds, threshold, prior_pos, economics,
                                      level=level, pooled=model.curve)
    if labels is None or scores is None:
        raise ValueError(f"{model.name} has a single fold: give its labels and scores for a "
                         "bootstrap")
    return uncertainty_from_bootstrap(labels, scores, threshold, prior_pos, economics,
                                      weights=weights, n_boot=n_boot, seed=seed, level=level)


# --------------------------------------------------------------------------------------------
# How often each model is the optimum
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class OptimumFrequency:
    """How often each model is the optimal choice across folds or bootstrap replicates.

    Attributes
    ----------
    fractions : dict of str to float
        Share of folds/replicates each model wins (ties split equally); sums to 1. Every
        model is a key (0 if it never wins).
    wins : dict of str to float
        The same as (fractional) counts.
    n : int
        Folds or replicates used.
    method : str
        ``"folds"`` or ``"bootstrap"``.
    notes : tuple of str
    """

    fractions: dict[str, float]
    wins: dict[str, float]
    n: int
    method: str
    notes: tuple[str, ...] = ()


def _winners(regret: np.ndarray) -> np.ndarray:
    """Share of each win per row of ``regret`` (rows: folds/replicates, columns: models);
    models within a relative ``TIE_RTOL``-scale tolerance of the row's minimum share it."""
    best = regret.min(axis=1, keepdims=True)
    tol = 16 * TIE_RTOL * np.maximum(np.abs(best), np.abs(regret).max(axis=1, keepdims=True))
    win = regret <= best + tol
    return win / win.sum(axis=1, keepdims=True)


def _frequency(names, regret, method, notes) -> OptimumFrequency:
    share = _winners(regret)
    wins = share.sum(axis=0)
    n = regret.shape[0]
    return OptimumFrequency(fractions={k: float(v / n) for k, v in zip(names, wins, strict=True)},
                            wins={k: float(v) for k, v in zip(names, wins, strict=True)},
                            n=int(n), method=method, notes=tuple(notes))


def optimum_frequency(fold_curves: Mapping[str, Mapping[str, RocCurve]], prior_pos: float,
                      economics: Economics) -> OptimumFrequency:
    """How often each model is the optimum across folds, under fixed conditions.

    In each fold every model's optimum is the minimum expected cost (net costs) over its
    fold curve's vertices, which is the cost at its fold hull's optimal vertex (Fawcett 2004,
    section 7.1: a linear cost is minimised at a hull vertex); the model with the lowest
    wins the fold, ties split equally. Folds are matched by name; only folds every model
    has are used (noted when some are left out).

    Parameters
    ----------
    fold_curves : mapping of model to (mapping of fold to RocCurve)
        E.g. ``{m.name: m.folds for m in analysis.models}``.
    prior_pos : float
    economics : Economics

    Raises
    ------
    ValueError
        Without models or without a fold common to all of them.
    """
    p = _check_prior(prior_pos)
    names = [str(k) for k in fold_curves]
    if not names:
        raise ValueError("no models")
    per_model = list(fold_curves.values())
    common = [f for f in per_model[0] if all(f in fc for fc in per_model[1:])]
    if not common:
        raise ValueError("the models share no fold")
    notes = []
    n_all = len({f for fc in per_model for f in fc})
    if len(common) < n_all:
        notes.append(f"{n_all - len(common)} folds not shared by every model are left out.")
    regret = np.array([[float(np.min(regret_per_case(fc[f].fpr, fc[f].tpr, p, economics)))
                        for fc in per_model] for f in common])
    return _frequency(names, regret, "folds", notes)


def optimum_frequency_of(analysis: Analysis,
                         economics: Economics | None = None) -> OptimumFrequency:
    """:func:`optimum_frequency` of an analysis' models and folds at its prior (economics
    default: the analysis' costs)."""
    e = economics or Economics.from_conditions(analysis.conditions)
    return optimum_frequency({m.name: m.folds for m in analysis.models},
                             analysis.conditions.prior_pos, e)


def optimum_frequency_bootstrap(labels, scores: Mapping[str, np.ndarray], prior_pos: float,
                                economics: Economics, *, weights=None, n_boot: int = 200,
                                seed: int = 0) -> OptimumFrequency:
    """How often each model is the optimum over bootstrap replicates of paired rows.

    For data with a single fold. All models are scored on the same rows (``scores[model]``
    aligned with ``labels``); each replicate resamples the rows with replacement (the same
    resample for every model), rebuilds every model's ROC vertices from cumulative sums over
    its score order (Fawcett 2004, Algorithm 2, one vertex per distinct score) and takes its
    minimum expected cost with net costs; the cheapest model wins the replicate (ties split).
    Replicates lacking a class are dropped. With more than :data:`MAX_ROWS` rows a random
    subset of that many rows is resampled (noted); the replicates then vary as much as a
    sample of that size would, so the frequencies are less extreme than on all the rows.

    Parameters
    ----------
    labels, weights
        As for :func:`~roc_dash.core.curves.roc_curve`.
    scores : mapping of model to array
        One score per row for each model.
    prior_pos : float
    economics : Economics
    n_boot : int, default 200
        At most :data:`MAX_BOOT`.
    seed : int, default 0
    """
    p = _check_prior(prior_pos)
    n_boot = _check_n_boot(n_boot)
    names = [str(k) for k in scores]
    if not names:
        raise ValueError("no models")
    first = next(iter(scores.values()))
    y, _, w = check_binary_inputs(labels, first, weights)
    cols = [check_binary_inputs(y, s)[1] for s in scores.values()]
    w = np.ones(y.size) if w is None else w
    rng = np.random.default_rng(seed)
    notes = []
    n = y.size
    if n > MAX_ROWS:
        sub = np.sort(rng.choice(n, MAX_ROWS, replace=False))
        notes.append(f"Bootstrap on a random {MAX_ROWS:,} of the {n:,} rows.")
        y, w, cols, n = y[sub], w[sub], [c[sub] for c in cols], MAX_ROWS
    c_fp, c_fn = net_costs(economics)
    wy, wn = np.where(y, w, 0.0), np.where(y, 0.0, w)
    prepared = []
    for s in cols:
        order = np.argsort(-s, kind="stable")
        ss = s[order]
        run_end = np.flatnonzero(np.append(ss[1:] != ss[:-1], True))
        prepared.append((order, run_end, wy[order], wn[order]))
    regret = np.empty((n_boot, len(names)))
    chunk = min(n_boot, max(1, _CHUNK // n))
    c_buf, t_buf = np.empty((chunk, n)), np.empty((chunk, n))
    offsets = n * np.arange(chunk)[:, None]
    for a in range(0, n_boot, chunk):
        b = min(a + chunk, n_boot)
        r = b - a
        idx = rng.integers(0, n, size=(r, n))
        idx += offsets[:r]
        counts = np.bincount(idx.ravel(), minlength=n * r).reshape(r, n).astype(np.float64)
        del idx
        pos_total, neg_total = counts @ wy, counts @ wn
        c, t = c_buf[:r], t_buf[:r]
        with np.errstate(divide="ignore", invalid="ignore"):
            # regret = p·c'(FN) + β·FP − α·TP with the replicate's totals
            alpha = (p * c_fn / pos_total)[:, None]
            beta = ((1.0 - p) * c_fp / neg_total)[:, None]
            for j, (order, run_end, wy_o, wn_o) in enumerate(prepared):
                # (weighted) TP and FP at every row in score order: sums of whole counts
                # times weights, exact for unweighted data, so exact ties stay ties
                np.take(counts, order, axis=1, out=c)
                np.multiply(c, wy_o, out=t)
                np.cumsum(t, axis=1, out=t)
                c *= wn_o
                np.cumsum(c, axis=1, out=c)
                if run_end.size < n:  # tied scores: only the last row of a run is a vertex
                    tp, fp = t[:, run_end], c[:, run_end]
                else:
                    tp, fp = t, c
                fp *= beta
                tp *= alpha
                fp -= tp
                regret[a:b, j] = p * c_fn + np.minimum(fp.min(axis=1), 0.0)  # 0: origin
        bad = ~((pos_total > 0) & (neg_total > 0))
        regret[a:b][bad] = np.nan
    ok = np.isfinite(regret).all(axis=1)
    if not ok.all():
        notes.append(f"{int((~ok).sum())} of {n_boot} replicates lacked a class and were "
                     "dropped.")
    if not ok.any():
        raise ValueError("every replicate lacked a class")
    return _frequency(names, regret[ok], "bootstrap", notes)
