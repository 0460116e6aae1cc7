"""Decision curves: net benefit against the threshold probability (Vickers & Elkin 2006).

Vickers & Elkin, "Decision curve analysis: a novel method for evaluating prediction models",
Medical Decision Making 26:565–574 (2006): a patient is treated when the predicted probability
reaches a threshold ``p_t``; choosing ``p_t`` states how much worse a false positive is than a
false negative (odds ``p_t / (1 − p_t)`` = ``c(FP) / c(FN)``), and

    ``NB(p_t) = TP/n − FP/n · p_t / (1 − p_t)``

counts true positives net of false positives at that exchange rate, against the two default
strategies *treat none* (``NB = 0``) and *treat all* (``NB = π − (1 − π)·p_t/(1 − p_t)``,
``π`` the prevalence).

In rates, ``TP/n = π·TPR`` and ``FP/n = (1 − π)·FPR``; a deployment prior ``π'`` other than
the test set's replaces ``π`` in both (the rates stay, the class mix changes: Fawcett 2004
section 3.2).

The **hull's net benefit** picks, at each ``p_t``, the best vertex of the ROC convex hull:
``max_k π·TPR_k − (1 − π)·FPR_k·p_t/(1 − p_t) = π·max_k (TPR_k − m·FPR_k)`` with the
iso-performance slope ``m = (p_t / (1 − p_t))·(1 − π)/π`` of the costs ``c(FP) = p_t``,
``c(FN) = 1 − p_t`` (Fawcett 2004, section 7.1). It needs no calibrated scores, only the
ranking: it is what the model achieves when its threshold is chosen for each ``p_t`` on this
data (in-sample, so optimistic). Equivalently ``NB = π − EC_min / (1 − p_t)`` for the minimum
expected cost ``EC_min`` under those costs.

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, section 3.2 (Class skew).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._validation import check_binary_inputs
from ..roc.curves import RocCurve, roc_curve
from ..roc.hull import RocHull, convex_hull, iso_performance_slope, optimal_point
from .operating import vertex_at_threshold

__all__ = [
    "DEFAULT_THRESHOLD_PROBABILITIES", "HullNetBenefit", "DecisionCurve", "threshold_probability",
    "net_benefit", "treat_all_net_benefit", "hull_net_benefit", "decision_curve",
    "decision_curve_from_curve",
]

#: Threshold probabilities 0.01, 0.02, ..., 0.99 (the grid of Vickers & Elkin's figures).
DEFAULT_THRESHOLD_PROBABILITIES = np.round(np.arange(1, 100) / 100.0, 2)


@dataclass(frozen=True, eq=False)
class HullNetBenefit:
    """The best net benefit a ROC convex hull offers at each threshold probability.

    Attributes
    ----------
    threshold_probability : ndarray of float64
        The ``p_t`` grid.
    net_benefit : ndarray of float64
        ``π·TPR − (1 − π)·FPR·p_t/(1 − p_t)`` at the optimal hull vertex.
    index : ndarray of int
        That vertex's index in the hull (on a tie, a hull segment of exactly the slope,
        the conservative end, as :func:`~roc_dash.core.roc.hull.optimal_point`).
    threshold : ndarray of float64
        Its score threshold ("treat iff score >= threshold"; ``inf`` treats nobody).
    fpr, tpr : ndarray of float64
        Its rates.
    model : ndarray of object (str)
        Its model ("" for the trivial vertices and for a hull without model names).
    slope : ndarray of float64
        The iso-performance slope ``m`` of each ``p_t``.
    prior_pos : float
        The prevalence ``π`` used.
    """

    threshold_probability: np.ndarray
    net_benefit: np.ndarray
    index: np.ndarray
    threshold: np.ndarray
    fpr: np.ndarray
    tpr: np.ndarray
    model: np.ndarray
    slope: np.ndarray
    prior_pos: float


@dataclass(frozen=True, eq=False)
class DecisionCurve:
    """One model's decision curve with the two default strategies and its hull's curve.

    Attributes
    ----------
    threshold_probability : ndarray of float64
        The ``p_t`` grid, the same as its hull's (``hull.threshold_probability``).
    net_benefit : ndarray of float64
        The model's net benefit when treating iff ``score >= p_t``; all NaN when the scores
        are not probabilities (see ``in_unit_interval``).
    fpr, tpr : ndarray of float64
        The model's rates at ``score >= p_t`` (NaN likewise).
    treat_all, treat_none : ndarray of float64
        ``π − (1 − π)·p_t/(1 − p_t)`` and ``0``.
    hull : HullNetBenefit
        The best net benefit over the model's hull vertices.
    prior_pos : float
        The prevalence ``π`` of every net benefit here.
    data_prior : float
        The test set's prevalence ``P / (P + N)``.
    in_unit_interval : bool
        Every score lies in ``[0, 1]``.
    notes : tuple of str
    """

    threshold_probability: np.ndarray
    net_benefit: np.ndarray
    fpr: np.ndarray
    tpr: np.ndarray
    treat_all: np.ndarray
    treat_none: np.ndarray
    hull: HullNetBenefit
    prior_pos: float
    data_prior: float
    in_unit_interval: bool
    notes: tuple[str, ...] = ()


def _finite(v) -> bool:
    return (isinstance(v, int | float | np.integer | np.floating) and not isinstance(v, bool)
            and math.isfinite(float(v)))


def threshold_probability(cost_fp: float, cost_fn: float) -> float:
    """The threshold probability of a cost ratio: ``p_t = c(FP) / (c(FP) + c(FN))``.

    Treating at ``p_t`` means ``p_t / (1 − p_t) = c(FP) / c(FN)`` (Vickers & Elkin 2006:
    the threshold probability expresses how the harm of a false positive weighs against
    that of a false negative): ``p_t`` is the probability at which the expected costs of
    treating, ``(1 − p)·c(FP)``, and of not treating, ``p·c(FN)``, are equal. With benefits of right decisions, give the
    net costs (:func:`~roc_dash.core.decisions.economics.net_costs`).
    """
    for name, v in (("cost_fp", cost_fp), ("cost_fn", cost_fn)):
        if not (_finite(v) and v > 0):
            raise ValueError(f"{name} must be a positive finite number (got {v!r})")
    fp, fn = float(cost_fp), float(cost_fn)
    return fp / (fp + fn) if math.isfinite(fp + fn) else 1.0 / (1.0 + fn / fp)


def _grid(threshold_probabilities) -> np.ndarray:
    p = np.asarray(DEFAULT_THRESHOLD_PROBABILITIES if threshold_probabilities is None
                   else threshold_probabilities, dtype=np.float64).ravel()
    if p.size == 0:
        raise ValueError("no threshold probabilities given")
    if not (np.isfinite(p).all() and (p >= 0).all() and (p < 1).all()):
        raise ValueError("threshold probabilities must lie in [0, 1): at p_t = 1 a false "
                         "positive would cost infinitely more than a missed positive")
    return p


def _prior(prior_pos, data_prior: float | None = None) -> float:
    if prior_pos is None and data_prior is not None:
        return data_prior
    if not (_finite(prior_pos) and 0.0 < prior_pos < 1.0):
        raise ValueError(f"prior_pos must lie strictly between 0 and 1 (got {prior_pos!r})")
    return float(prior_pos)


def _odds(p: np.ndarray) -> np.ndarray:
    return p / (1.0 - p)


def net_benefit(fpr, tpr, threshold_probability, *, prior_pos: float):
    """``NB = π·TPR − (1 − π)·FPR·p_t/(1 − p_t)``: Vickers & Elkin's ``TP/n − FP/n·p_t/(1 −
    p_t)`` with ``TP/n = π·TPR`` and ``FP/n = (1 − π)·FPR`` at prevalence ``π``
    (broadcasting over the arrays)."""
    p = np.asarray(threshold_probability, dtype=np.float64)
    out = prior_pos * np.asarray(tpr, dtype=np.float64) - (1.0 - prior_pos) * np.asarray(
        fpr, dtype=np.float64) * _odds(p)
    return float(out) if out.ndim == 0 else out


def treat_all_net_benefit(threshold_probability, *, prior_pos: float):
    """Net benefit of treating everyone (``TPR = FPR = 1``): ``π − (1 − π)·p_t/(1 − p_t)``."""
    return net_benefit(1.0, 1.0, threshold_probability, prior_pos=prior_pos)


def hull_net_benefit(hull: RocHull, threshold_probabilities=None, *,
                     prior_pos: float) -> HullNetBenefit:
    """The best net benefit over the vertices of ``hull`` at each threshold probability.

    At ``p_t`` the net benefit ``π·(TPR − m·FPR)`` is largest at the hull vertex an
    iso-performance line of slope ``m = (p_t / (1 − p_t))·(1 − π)/π`` touches
    (:func:`~roc_dash.core.roc.hull.optimal_point`, with its tie rule), ``m`` being the slope of
    the costs ``c(FP) = p_t``, ``c(FN) = 1 − p_t`` at prior ``π``
    (:func:`~roc_dash.core.roc.hull.iso_performance_slope`; ``p_t = 0`` is ``m = 0``). Works
    for one model's hull and for the joint hull of several (``model`` says whose vertex).

    Parameters
    ----------
    hull : RocHull
    threshold_probabilities : array-like of float, optional
        ``p_t`` values in ``[0, 1)``; default :data:`DEFAULT_THRESHOLD_PROBABILITIES`.
    prior_pos : float
        The prevalence ``π``, strictly between 0 and 1.
    """
    p = _grid(threshold_probabilities)
    pi = _prior(prior_pos)
    slope = np.array([iso_performance_slope(v, 1.0 - v, pi) if v > 0 else 0.0 for v in p])
    # one optimum per grid point (not per row): the hull's own tie rule, reused
    index = np.array([optimal_point(hull, m).index for m in slope], dtype=np.intp)
    fpr, tpr = hull.fpr[index], hull.tpr[index]
    return HullNetBenefit(
        threshold_probability=p, net_benefit=net_benefit(fpr, tpr, p, prior_pos=pi),
        index=index, threshold=np.asarray(hull.thresholds, dtype=np.float64)[index],
        fpr=fpr, tpr=tpr, model=np.asarray(hull.models, dtype=object)[index], slope=slope,
        prior_pos=pi)


def decision_curve_from_curve(curve: RocCurve, threshold_probabilities=None, *,
                              prior_pos: float | None = None,
                              hull: RocHull | None = None) -> DecisionCurve:
    """Decision curve of a model from its ROC curve (Vickers & Elkin 2006).

    The model treats iff ``score >= p_t`` (the threshold rule of every view,
    :func:`~roc_dash.core.decisions.operating.vertex_at_threshold`), which is the decision rule
    decision curves assume: the scores are read as probabilities. For scores outside
    ``[0, 1]`` that reading is meaningless: the model's own net benefit is NaN and a note
    says so, while the hull's net benefit (which only needs the ranking) is still given.

    Parameters
    ----------
    curve : RocCurve
        The model's ROC curve (weights as instance counts).
    threshold_probabilities : array-like of float, optional
        ``p_t`` values in ``[0, 1)``; default :data:`DEFAULT_THRESHOLD_PROBABILITIES`.
    prior_pos : float, optional
        A deployment prevalence ``π'`` for every net benefit (rates × prior, see the
        module's docstring); default the test set's ``P / (P + N)``, which gives exactly
        Vickers & Elkin's ``TP/n − FP/n·p_t/(1 − p_t)``.
    hull : RocHull, optional
        ``convex_hull(curve)`` when at hand.

    Raises
    ------
    ValueError
        On a threshold probability outside ``[0, 1)`` or a prior outside ``(0, 1)``.
    """
    p = _grid(threshold_probabilities)
    data_prior = curve.n_pos / (curve.n_pos + curve.n_neg)
    pi = _prior(prior_pos, data_prior)
    scores = np.asarray(curve.thresholds[1:], dtype=np.float64)
    in_unit = bool(scores.min() >= 0.0 and scores.max() <= 1.0)
    notes: tuple[str, ...] = ()
    if in_unit:
        k = vertex_at_threshold(curve, p)
        fpr, tpr = curve.fpr[k], curve.tpr[k]
        nb = net_benefit(fpr, tpr, p, prior_pos=pi)
    else:
        fpr = tpr = nb = np.full(p.size, math.nan)
        notes = (f"These scores are not probabilities (they range from {scores.min():.6g} "
                 f"to {scores.max():.6g}, outside [0, 1]): the model's own decision curve "
                 "(treat iff score >= p_t) is undefined; the hull's curve, which picks the "
                 "best threshold for each p_t, is shown.",)
    h = convex_hull(curve) if hull is None else hull
    return DecisionCurve(
        threshold_probability=p, net_benefit=nb, fpr=fpr, tpr=tpr,
        treat_all=treat_all_net_benefit(p, prior_pos=pi), treat_none=np.zeros(p.size),
        hull=hull_net_benefit(h, p, prior_pos=pi), prior_pos=pi, data_prior=data_prior,
        in_unit_interval=in_unit, notes=notes)


def decision_curve(labels, scores, threshold_probabilities=None, *, weights=None,
                   pos_label=None, prior_pos: float | None = None) -> DecisionCurve:
    """:func:`decision_curve_from_curve` of the ROC curve of ``scores`` against ``labels``
    (see :func:`~roc_dash.core.roc.curves.roc_curve` for the inputs)."""
    y, s, w = check_binary_inputs(labels, scores, weights, pos_label=pos_label)
    return decision_curve_from_curve(roc_curve(y, s, weights=w), threshold_probabilities,
                                     prior_pos=prior_pos)
