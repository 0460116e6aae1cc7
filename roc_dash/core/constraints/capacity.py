"""A capacity as the constraint: "we can review K cases a day (or per 1,000)".

* The best operating point under it: where Fawcett's budget line ``p·TPR + (1−p)·FPR = K/n``
  crosses the ROC convex hull (Fawcett 2004, section 7.4.1; "An introduction to ROC
  analysis", 2006, section 6: the most positives in exactly K cases,
  :func:`~roc_dash.core.combining.capacity_mix.budget_operating_point`), and the least-cost point and
  single threshold flagging at most K (a floor "share flagged ≤ K/n",
  :func:`~.floors.floor_decision`): :func:`capacity_point`.
* Queue rate (the share of cases flagged at each threshold, yellowbrick's
  ``DiscriminationThreshold``), cumulative gains, lift and the CAP curve with its accuracy
  ratio (Engelmann, Hayden & Tasche 2003: ``AR = 2·AUC − 1``): :func:`gains_curve`.
* Precision and recall among the top K cases of the data: :func:`at_k`.
* The Kolmogorov–Smirnov statistic, ``max |TPR − FPR|`` over the thresholds (the two
  samples' ECDFs differ most there; scipy's ``ks_2samp`` statistic): :func:`ks_statistic`.

All are read off the model's ROC curve (one vertex per distinct score, Fawcett 2004,
section 4): tied scores are one step, and "the top K" within a run of ties is its expected
value when the ties are broken at random (the diagonal segment of section 4.1).

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", 2004, sections
4 and 7.4.1; "An introduction to ROC analysis", Pattern Recognition Letters 27:861-874, 2006.

B. Engelmann, E. Hayden, D. Tasche, "Testing rating accuracy", Risk 16(1):82-86, 2003
(the accuracy ratio of the CAP curve and its relation to the AUC).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._results import length_of
from ..combining.capacity_mix import BudgetMix, budget_operating_point
from ..decisions.economics import Economics, precision_at_prior
from ..roc.curves import RocCurve
from ..roc.hull import RocHull, convex_hull
from . import _checks
from .floors import Floor, FloorDecision, floor_decision, vertex_counts

__all__ = ["GainsCurve", "gains_curve", "KsStatistic", "ks_statistic", "AtK", "at_k",
           "CapacityPoint", "capacity_point", "parse_capacity"]


def parse_capacity(text) -> tuple[float | None, float | None]:
    """A capacity as ``(cases, fraction)``, one of them None: a number of cases (``800``),
    a share (``"3%"``) or cases per so many (``"30/1000"``). ``ValueError`` otherwise."""
    if not isinstance(text, str):
        value = float(text)
        if not (math.isfinite(value) and value >= 0):
            raise ValueError(f"a capacity is a number of cases >= 0, got {text!r}")
        return value, None
    raw = text.strip()
    try:
        if raw.endswith("%"):
            value = float(raw[:-1])
            if math.isfinite(value) and 0 <= value <= 100:
                return None, value / 100.0
        elif "/" in raw:
            k, n = (float(v) for v in raw.split("/", 1))
            if math.isfinite(k) and math.isfinite(n) and n > 0 and 0 <= k <= n:
                return None, k / n
        else:
            value = float(raw)
            if math.isfinite(value) and value >= 0:
                return value, None
    except ValueError:
        pass
    raise ValueError(f"a capacity is a number of cases (800), a share (3%) or cases per so "
                     f"many (30/1000), got {text!r}")


@dataclass(frozen=True, eq=False)
class GainsCurve:
    """Queue rate, cumulative gains (= the CAP curve), lift and precision at every vertex.

    Attributes
    ----------
    queue_rate : ndarray
        Share of the cases flagged at each threshold: ``p·TPR + (1−p)·FPR`` (the data's
        ``(TP + FP)/n`` without a prior). The x of the gains, lift and CAP charts.
    gain : ndarray
        Share of the positives captured (TPR): the y of the gains and CAP charts.
    lift : ndarray
        ``gain / queue_rate`` = precision / prior: how many times the base rate the flagged
        cases hold positives (NaN where nothing is flagged).
    precision : ndarray
        At the prior (NaN where nothing is flagged).
    thresholds, fpr : ndarray
        The vertices' thresholds ("flag iff score >= t") and false positive rates.
    prior_pos : float
    cap_area : float
        Area under the CAP (gains) curve, by trapezoids.
    perfect_area : float
        Area under the perfect model's CAP, ``1 − p/2``.
    accuracy_ratio : float
        ``(cap_area − 1/2) / (perfect_area − 1/2)``; equals ``2·AUC − 1`` (the Gini
        coefficient) at any prior.
    """

    queue_rate: np.ndarray
    gain: np.ndarray
    lift: np.ndarray
    precision: np.ndarray
    thresholds: np.ndarray
    fpr: np.ndarray
    prior_pos: float
    cap_area: float
    perfect_area: float
    accuracy_ratio: float

    __len__ = length_of("gain")


def gains_curve(curve: RocCurve, *, prior_pos: float | None = None) -> GainsCurve:
    """Queue rate, cumulative gains, lift, CAP and its accuracy ratio of a ROC curve.

    Without ``prior_pos`` everything is counted on the data: ``queue_rate = (TP + FP)/n``,
    ``precision = TP/(TP + FP)``; with it, the shares a deployment with that class mix
    would see (the rates unchanged, Fawcett 2004 section 3.2).
    """
    tp, fp = vertex_counts(curve)
    n = float(curve.n_pos + curve.n_neg)
    gain = np.asarray(curve.tpr, dtype=np.float64).copy()
    with np.errstate(divide="ignore", invalid="ignore"):
        if prior_pos is None:
            p = float(curve.n_pos) / n
            flagged = tp + fp
            queue = flagged / n
            precision = np.where(flagged > 0, tp / np.where(flagged > 0, flagged, 1.0), np.nan)
        else:
            p = _checks.prior(prior_pos)
            queue = p * gain + (1.0 - p) * curve.fpr
            precision = np.asarray(precision_at_prior(curve.fpr, gain, p), dtype=np.float64)
        lift = np.where(queue > 0, gain / np.where(queue > 0, queue, 1.0), np.nan)
    area = float(np.sum(np.diff(queue) * (gain[1:] + gain[:-1])) / 2.0)
    perfect = 1.0 - p / 2.0
    return GainsCurve(queue_rate=queue, gain=gain, lift=lift, precision=precision,
                      thresholds=np.asarray(curve.thresholds, dtype=np.float64).copy(),
                      fpr=np.asarray(curve.fpr, dtype=np.float64).copy(), prior_pos=p,
                      cap_area=area, perfect_area=perfect,
                      accuracy_ratio=(area - 0.5) / (perfect - 0.5))


@dataclass(frozen=True)
class KsStatistic:
    """The Kolmogorov–Smirnov statistic of the two classes' scores.

    Attributes
    ----------
    statistic : float
        ``max |TPR − FPR|`` over the thresholds: the largest gap between the two classes'
        (weighted) empirical distribution functions (``scipy.stats.ks_2samp``'s statistic).
    index : int
        The curve vertex where it is reached (the first, flagging fewest cases).
    threshold, fpr, tpr : float
        That vertex.
    direction : int
        ``+1`` when TPR exceeds FPR there (positives score higher), else ``−1``.
    """

    statistic: float
    index: int
    threshold: float
    fpr: float
    tpr: float
    direction: int


def ks_statistic(curve: RocCurve) -> KsStatistic:
    """The KS statistic read off the ROC vertices (see :class:`KsStatistic`)."""
    gap = np.asarray(curve.tpr) - np.asarray(curve.fpr)
    k = int(np.argmax(np.abs(gap)))
    return KsStatistic(statistic=float(abs(gap[k])), index=k,
                       threshold=float(curve.thresholds[k]), fpr=float(curve.fpr[k]),
                       tpr=float(curve.tpr[k]), direction=1 if gap[k] >= 0 else -1)


@dataclass(frozen=True, eq=False)
class AtK:
    """Precision and recall among the K top-scored cases of the data.

    Attributes
    ----------
    k : ndarray
        K, in (weighted) cases of the data.
    fraction : ndarray
        ``K / n``.
    tp : ndarray
        Expected positives among the top K (ties broken at random: linear along a run).
    precision : ndarray
        ``tp / K`` (NaN at K = 0): precision@K.
    recall : ndarray
        ``tp / P``: recall@K.
    threshold : ndarray
        The score of the K-th case: flagging every score >= it flags K or more cases
        (exactly K unless it is tied).
    """

    k: np.ndarray
    fraction: np.ndarray
    tp: np.ndarray
    precision: np.ndarray
    recall: np.ndarray
    threshold: np.ndarray


def at_k(curve: RocCurve, k=None, *, fraction=None) -> AtK:
    """Precision@K and recall@K on the data, for one K or an array of them.

    Parameters
    ----------
    curve : RocCurve
    k : float or array, optional
        Cases (between 0 and the data's ``n``).
    fraction : float or array, optional
        K as a share of the cases, in [0, 1] (instead of ``k``).
    """
    n = float(curve.n_pos + curve.n_neg)
    if (k is None) == (fraction is None):
        raise ValueError("give exactly one of k= (cases) and fraction= (a share of them)")
    kk = (np.asarray(fraction, dtype=np.float64) * n if k is None
          else np.asarray(k, dtype=np.float64))
    if not (np.isfinite(kk).all() and (kk >= 0).all() and (kk <= n * (1 + 1e-12)).all()):
        raise ValueError(f"K must lie between 0 and the {n:,.6g} cases of the data")
    tp, fp = vertex_counts(curve)
    g = tp + fp
    kk = np.minimum(kk, g[-1])
    tpk = np.interp(kk, g, tp)
    idx = np.minimum(np.searchsorted(g, kk, side="left"), g.size - 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = np.where(kk > 0, tpk / np.where(kk > 0, kk, 1.0), np.nan)
    return AtK(k=kk, fraction=kk / n, tp=tpk, precision=precision,
               recall=tpk / float(curve.n_pos),
               threshold=np.asarray(curve.thresholds, dtype=np.float64)[idx])


@dataclass(frozen=True, eq=False)
class CapacityPoint:
    """The best operating points of a model under a capacity of K cases per ``n_total``.

    Attributes
    ----------
    capacity : float
        K, the cases that can be reviewed per ``n_total`` cases.
    n_total : float
        Cases per period (a day's volume), or 1,000 for a capacity per 1,000.
    prior_pos : float
    queue_rate : float
        ``K / n_total``: the share of cases the capacity allows flagging.
    mix : BudgetMix
        Fawcett's point: the most positives in exactly K cases, where the budget line
        crosses the hull (a vertex, or a random mix of two).
    precision, recall, lift : float
        Of :attr:`mix` at the prior: precision@K, recall@K and ``precision / p``.
    decision : FloorDecision
        Under the floor "share flagged ≤ K/n_total" and the costs: the least-cost hull
        point (:attr:`FloorDecision.best`: :attr:`mix` when the capacity binds, else the
        unconstrained optimum) and the single threshold of least cost flagging at most K
        (:attr:`FloorDecision.threshold`), the rule to deploy without randomisation.
    binding : bool
        The unconstrained optimum would flag more than K cases.
    notes : tuple of str
    """

    capacity: float
    n_total: float
    prior_pos: float
    queue_rate: float
    mix: BudgetMix
    precision: float
    recall: float
    lift: float
    decision: FloorDecision
    binding: bool
    notes: tuple[str, ...] = ()


def capacity_point(curve: RocCurve, *, capacity=None, fraction=None,
                   n_total: float | None = None, prior_pos: float | None = None,
                   economics: Economics | None = None,
                   hull: RocHull | None = None) -> CapacityPoint:
    """The best operating points under "we can review K of every n_total cases".

    Parameters
    ----------
    curve : RocCurve
    capacity : float, optional
        K cases per ``n_total`` (e.g. 800 a day of 4,000).
    fraction : float, optional
        K as a share of the cases (e.g. 30 per 1,000 is 0.03), instead of ``capacity``.
    n_total : float, optional
        Cases per period; default the data's number of cases.
    prior_pos : float, optional
        Deployment prior p(+); default the data's prevalence.
    economics : Economics, optional
        Costs and benefits of :attr:`CapacityPoint.decision` (default 1 and 1).
    hull : RocHull, optional

    Raises
    ------
    ValueError
        As :func:`~roc_dash.core.combining.capacity_mix.budget_operating_point` (a negative capacity, a
        capacity in (0, 1) that looks like a fraction, neither or both of ``capacity`` and
        ``fraction``), or a prior outside (0, 1).
    """
    data_n = float(curve.n_pos + curve.n_neg)
    n = data_n if n_total is None else float(n_total)
    p = curve.n_pos / data_n if prior_pos is None else _checks.prior(prior_pos)
    h = convex_hull(curve) if hull is None else hull
    mix = budget_operating_point(h, n_total=n, prior_pos=p, budget=capacity, fraction=fraction)
    share = min(mix.budget / n, 1.0)
    decision = floor_decision(curve, [Floor("flagged", "<=", share)], prior_pos=p,
                              economics=economics, hull=h)
    precision = float(precision_at_prior(mix.fpr, mix.tpr, p))
    notes = list(decision.notes)
    if mix.note:
        notes.append(mix.note[0].upper() + mix.note[1:] + ".")
    opt_share = p * decision.optimum_tpr + (1 - p) * decision.optimum_fpr
    return CapacityPoint(capacity=mix.budget, n_total=n, prior_pos=p, queue_rate=share,
                         mix=mix, precision=precision, recall=float(mix.tpr),
                         lift=precision / p if math.isfinite(precision) else math.nan,
                         decision=decision, binding=bool(opt_share > share * (1 + 1e-12)),
                         notes=tuple(notes))
