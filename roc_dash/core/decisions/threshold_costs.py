"""The cost at every threshold of one model, and how flat its minimum is.

:func:`threshold_profile` reads expected cost per case (:mod:`.economics`; Fawcett 2004,
section 7.1), precision and share flagged at the deployment
prior off every vertex of a model's ROC curve; :class:`Flatness` says how far the threshold
can move before the cost rises past a tolerance.

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, section 7.1 (The ROC convex hull).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from .._results import length_of
from ..roc.curve_geometry import display_indices
from ..roc.curves import RocCurve
from ..roc.hull import normalized_expected_cost, optimal_vertex
from . import economics as econ

__all__ = ["cost_at_thresholds", "Flatness", "ThresholdProfile", "threshold_profile", "flatness", "thin_profile"]


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
        :func:`~roc_dash.core.roc.hull.optimal_vertex` (the one every view names).
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
    economics: econ.Economics

    __len__ = length_of("threshold")

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


def threshold_profile(curve: RocCurve, prior_pos: float, economics: econ.Economics, *,
                      within: float = 0.05) -> ThresholdProfile:
    """Expected cost, precision and share flagged at every threshold of a ROC curve.

    The minimum over the vertices equals the minimum over the curve's convex hull (a linear
    function of ``(FPR, TPR)`` is minimised at a hull vertex, Fawcett 2004 section 7.1), so
    ``best`` is the vertex :func:`~roc_dash.core.roc.hull.optimal_point` picks on the model's
    hull under the net slope, ties included (:func:`~roc_dash.core.roc.hull.optimal_vertex`).

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
    p = econ._check_prior(prior_pos)
    f, t = curve.fpr, curve.tpr
    at = {k: np.asarray(v, dtype=np.float64)
          for k, v in econ.metrics_at_prior(f, t, p, economics).items()}
    cost, flagged, precision = at["expected_cost"], at["flagged"], at["precision"]
    c_fp, c_fn = econ.net_costs(economics)
    nec = np.asarray(normalized_expected_cost(f, t, cost_fp=c_fp, cost_fn=c_fn, prior_pos=p),
                     dtype=np.float64)
    # the one tie rule (hull.optimal_vertex): among equal costs the conservative vertex,
    # the one every other view names; an argmin of the rounded costs could pick another
    best = optimal_vertex(curve, econ.net_slope(p, economics))
    regret = np.asarray(econ.regret_per_case(f, t, p, economics), dtype=np.float64)
    flat = _flatness(cost, regret, best, curve.thresholds, flagged, t, within)
    return ThresholdProfile(threshold=curve.thresholds, tpr=t, fpr=f, precision=precision,
                            flagged=flagged, expected_cost=cost, normalized_cost=nec,
                            best=best, flatness=flat, prior_pos=p, economics=economics)


def _flatness(cost, regret, best, thresholds, flagged, tpr, within) -> Flatness:
    if not (econ._finite(within) and within >= 0):
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
    regret = np.asarray(econ.regret_per_case(profile.fpr, profile.tpr, profile.prior_pos,
                                             profile.economics), dtype=np.float64)
    return _flatness(profile.expected_cost, regret, profile.best,
                     profile.threshold, profile.flagged, profile.tpr, within)


def thin_profile(profile: ThresholdProfile, *, max_points: int = 2000) -> ThresholdProfile:
    """At most about ``max_points`` vertices of a profile, for drawing only.

    The vertices kept are :func:`~roc_dash.core.roc.curve_geometry.display_indices` of the curve of
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


def cost_at_thresholds(
    curve: RocCurve,
    *,
    cost_fp: float = 1.0,
    cost_fn: float = 1.0,
    prior_pos: float | None = None,
) -> np.ndarray:
    """Expected misclassification cost per instance at every vertex of a ROC curve.

    ``p(+) (1 - TPR) c(FN) + p(-) FPR c(FP)`` (Fawcett 2004, section 3, the quantity the
    iso-performance lines of constant slope ``c(FP) p(-) / (c(FN) p(+))`` hold fixed).

    Parameters
    ----------
    curve : RocCurve
        The vertices; entry ``k`` of the result belongs to ``curve.thresholds[k]``.
    cost_fp, cost_fn : float, default 1.0
        Non-negative costs of a false positive and a false negative.
    prior_pos : float, optional
        Class prior ``p(+)`` in ``[0, 1]`` of the deployment population; defaults to the
        curve's own (weighted) prevalence ``P / (P + N)``.

    Returns
    -------
    ndarray of float64, shape (len(curve),)
        With unit costs and the default prior this is the error rate ``1 - accuracy``.
    """
    c_fp, c_fn = float(cost_fp), float(cost_fn)
    if not (math.isfinite(c_fp) and math.isfinite(c_fn)) or c_fp < 0.0 or c_fn < 0.0:
        raise ValueError("cost_fp and cost_fn must be finite and non-negative")
    if prior_pos is None:
        p = curve.n_pos / (curve.n_pos + curve.n_neg)
    else:
        p = float(prior_pos)
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"prior_pos must be in [0, 1], got {prior_pos!r}")
    return p * (1.0 - curve.tpr) * c_fn + (1.0 - p) * curve.fpr * c_fp
