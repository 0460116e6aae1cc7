"""Intervals at the chosen operating point: a stratified bootstrap of the whole choice.

:mod:`.uncertainty` bootstraps the consequences of one *fixed* threshold. Here each bootstrap
replicate (Efron & Tibshirani 1993, chapters 6 and 13: percentile intervals; stratified
resampling as in Davison & Hinkley 1997, section 3.2) redraws the positives and the negatives
separately, so every replicate keeps the class counts of the data, and then

* at the **optimum**, re-runs the whole choice "the minimum expected cost vertex of the ROC
  curve under these net costs and this deployment prior" (Fawcett 2004, section 7.1:
  a linear cost is minimised at a vertex of the convex hull),
  so the interval of the threshold, TPR, FPR, precision and NPV at the prior, the
  likelihood ratios and the expected cost include the variability of the choice itself
  (what pROC's ``ci.coords`` does for "best" points, Robin et al. 2011);
* at a **pin** (a fixed threshold), reads the same metrics at that threshold (its threshold
  interval is the threshold itself);
* estimates the **optimism of the choice** out of bag (as cutpointr does, Thiele &
  Hirschfeld 2021): the cost of each replicate's optimum on the rows the replicate did not
  draw, against its cost on the rows it did.

The percentile interval of an argmin (the optimal threshold) is known to be unreliable:
the empirical optimum of a smooth population cost converges at the cube-root rate (Kim &
Pollard 1990) and the plain bootstrap is not consistent for such estimators (Abrevaya &
Huang 2005). ``bench/coverage_point_intervals.py`` measures the coverage on binormal data
with a known truth.

Weights are frequency weights, as in :mod:`.statistics`: with whole-number weights a
replicate draws from the ``Σw`` unit rows exactly as it would from the repeated rows.

References
----------
B. Efron, R. J. Tibshirani, "An Introduction to the Bootstrap", Chapman & Hall, 1993.

A. C. Davison, D. V. Hinkley, "Bootstrap Methods and their Application", Cambridge, 1997.

X. Robin et al., "pROC: an open-source package for R and S+ to analyze and compare ROC
curves", BMC Bioinformatics 12:77, 2011 (``ci.coords``).

C. Thiele, G. Hirschfeld, "cutpointr: Improved Estimation and Validation of Optimal
Cutpoints in R", Journal of Statistical Software 98(11), 2021.

J. Kim, D. Pollard, "Cube root asymptotics", Annals of Statistics 18(1):191-219, 1990.

J. Abrevaya, J. Huang, "On the bootstrap of the maximum score estimator",
Econometrica 73(4):1175-1204, 2005.

T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, section 7.1 (The ROC convex hull).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace

import numpy as np

from .._validation import weighted_rows
from ..roc.curves import roc_curve
from ..roc.hull import optimal_vertex
from . import economics as econ
from ._point_resampling import MAX_UNITS, Sample, evaluate, prepare, rescale
from .choice_correction import CORRECTED, ChoiceCorrection, correct_for_choice
from .operating import vertex_at_threshold
from .proportion_intervals import clopper_pearson
from .uncertainty import MAX_BOOT, MAX_ROWS, _check_level, _check_n_boot, _threshold

__all__ = [
    "PointInterval", "ChoiceOptimism", "PointUncertainty", "PointIntervals", "point_intervals",
    "optimum_intervals", "pin_intervals", "replicate_interval", "npv_at_prior", "likelihood_ratios",
    "cost_range",
    "clopper_pearson", "DEFAULT_BOOT", "MAX_BOOT", "MAX_ROWS", "MAX_UNITS",
]

#: Bootstrap replicates by default.
DEFAULT_BOOT = 500
#: The interval method, as every :class:`PointUncertainty` names it.
METHOD = "stratified bootstrap, percentile"
#: The method when a rate's estimate is 0 or 1 (intervals marked ``"boundary"``).
BOUNDARY_METHOD = METHOD + "; exact Clopper–Pearson where TPR or FPR is 0 or 1"
#: The method at the optimum: the choice made again in every replicate, every metric but the
#: threshold corrected for the optimism of that choice (:mod:`.choice_correction`).
OPTIMUM_METHOD = ("stratified bootstrap of the choice, corrected for its optimism "
                  "(out of bag); the threshold's interval percentile")
#: Each metric's range and scale for the correction (:func:`.choice_correction.correct_for_choice`).
_CORRECTION = {"tpr": {"bounds": (0.0, 1.0)}, "fpr": {"bounds": (0.0, 1.0)},
               "precision": {"bounds": (0.0, 1.0)}, "npv": {"bounds": (0.0, 1.0)},
               "lr_pos": {"bounds": (0.0, math.inf), "log": True},
               "lr_neg": {"bounds": (0.0, math.inf), "log": True}, "expected_cost": {},
               "flagged": {"bounds": (0.0, 1.0)}}
_METRICS = ("threshold", "tpr", "fpr", "precision", "npv", "lr_pos", "lr_neg", "expected_cost",
            "flagged")


@dataclass(frozen=True, eq=False)
class PointInterval:
    """One metric at one operating point: its estimate and its bootstrap interval.

    Attributes
    ----------
    estimate : float
        On all the data (may be ``inf``: a likelihood ratio without false positives, the
        threshold of "flag nothing"; NaN where undefined, e.g. precision when nothing is
        flagged).
    low, high : float
        The interval (``high`` may be ``inf``); NaN when no replicate defines the metric.
    interval : str
        ``"percentile"``: percentiles ``(1−level)/2`` and ``(1+level)/2`` of the replicates
        (linear interpolation, :func:`numpy.quantile`'s default; next to an infinite value
        the limit is infinite); ``"range"``: min and max, when a tail would hold less than
        one replicate (``n·(1−level)/2 < 1``); ``"fixed"``: not resampled (the threshold of
        a pin), ``low = high = estimate``; ``"none"``: no replicate defines it;
        ``"boundary"``: the point's TPR or FPR is 0 or 1 on the data, where every replicate
        of that rate usually equals it too and a percentile interval collapses to a point
        (a pin flagging every positive has TPR 1 in every replicate): for that rate the
        hull of the bootstrap interval and the exact Clopper–Pearson interval of the
        proportion over the class's count (:func:`clopper_pearson`), which keeps its
        coverage at 0 and 1; for the metrics computed from the rates, the hull of their
        bootstrap interval and their range over the box of the two rates' intervals.
        ``"corrected"`` (at the optimum, every metric but the threshold): the interval of
        what the chosen threshold gives on new data, the estimate corrected for the
        optimism of choosing it on the same data (:mod:`.choice_correction`; ``correction``
        holds the parts); it may lie above (a cost) or beside the estimate. Whatever its
        kind, the expected cost's interval is clipped to :func:`cost_range`.
    n : int
        Replicates in which the metric is defined (finite or infinite).
    n_infinite : int
        Of those, how many are ``+inf``.
    values : ndarray
        One value per replicate used (NaN where undefined); at the optimum, the metric of
        each replicate's own choice on the rows it drew.
    correction : ChoiceCorrection or None
        The parts of a ``"corrected"`` interval.
    """

    estimate: float
    low: float
    high: float
    interval: str
    n: int
    n_infinite: int
    values: np.ndarray
    correction: ChoiceCorrection | None = None


@dataclass(frozen=True, eq=False)
class ChoiceOptimism:
    """How much better the chosen optimum looks on the data that chose it.

    Attributes
    ----------
    apparent : float
        Expected cost per case of the optimum chosen on all the data, on all the data.
    in_bag : float
        Mean over replicates of the cost of each replicate's optimum on that replicate.
    out_of_bag : float
        Mean over replicates of the cost of the same threshold on the rows the replicate
        did not draw (replicates whose left-out rows lack a class are left out).
    n : int
        Replicates in both means.
    in_bag_values, out_of_bag_values : ndarray
        Per replicate used (NaN where the out-of-bag cost is undefined).
    """

    apparent: float
    in_bag: float
    out_of_bag: float
    n: int
    in_bag_values: np.ndarray
    out_of_bag_values: np.ndarray

    @property
    def optimism(self) -> float:
        """``out_of_bag − in_bag``: the cost per case that choosing the threshold on the
        data itself hides (positive when the choice is optimistic)."""
        return self.out_of_bag - self.in_bag


@dataclass(frozen=True, eq=False)
class PointUncertainty:
    """Estimates and bootstrap intervals of one operating point's metrics.

    Attributes
    ----------
    kind : str
        ``"optimum"`` (the choice is re-made in every replicate) or ``"pin"`` (a fixed
        threshold).
    threshold, tpr, fpr, precision, npv, lr_pos, lr_neg, expected_cost : PointInterval
        Threshold ("flag iff score >= threshold"; at a pin, the threshold of its vertex,
        the lowest score at or above the pinned value, as
        :func:`~roc_dash.core.decisions.operating.summarise_operating_point` reports it), recall,
        false positive rate, precision
        and negative predictive value at the deployment prior, likelihood ratios
        ``LR+ = TPR/FPR`` and ``LR− = (1−TPR)/(1−FPR)``, expected cost per case
        (:func:`~roc_dash.core.decisions.economics.expected_cost_per_case`, benefits included).
    flagged : PointInterval
        Share of cases flagged at the prior, ``p·TPR + (1−p)·FPR`` (last: added later).
    prior_pos, level : float
    method : str
        ``"stratified bootstrap, percentile"``, or :data:`BOUNDARY_METHOD` when an
        interval of the point is marked ``"boundary"``.
    n_boot : int
        Replicates asked for.
    n_boot_used : int
        Replicates made (fewer when the deadline came first; a note says so).
    optimism : ChoiceOptimism or None
        At the optimum only.
    notes : tuple of str
    """

    kind: str
    threshold: PointInterval
    tpr: PointInterval
    fpr: PointInterval
    precision: PointInterval
    npv: PointInterval
    lr_pos: PointInterval
    lr_neg: PointInterval
    expected_cost: PointInterval
    prior_pos: float
    level: float
    method: str
    n_boot: int
    n_boot_used: int
    optimism: ChoiceOptimism | None = None
    notes: tuple[str, ...] = ()
    flagged: PointInterval | None = None


@dataclass(frozen=True, eq=False)
class PointIntervals:
    """The optimum and the pins of one model, from the same bootstrap replicates."""

    optimum: PointUncertainty
    pins: tuple[PointUncertainty, ...] = ()


def npv_at_prior(fpr, tpr, prior_pos: float):
    """Negative predictive value at the deployment prior,
    ``(1−p)·(1−FPR) / ((1−p)·(1−FPR) + p·(1−TPR))`` (the counterpart of
    :func:`~roc_dash.core.decisions.economics.precision_at_prior`); NaN where every case is flagged."""
    p = econ._check_prior(prior_pos)
    tn = (1.0 - p) * (1.0 - np.asarray(fpr, dtype=np.float64))
    kept = tn + p * (1.0 - np.asarray(tpr, dtype=np.float64))
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(kept > 0, tn / np.where(kept > 0, kept, 1.0), np.nan)
    return float(out) if out.ndim == 0 else out


def likelihood_ratios(fpr, tpr):
    """``(LR+, LR−) = (TPR/FPR, (1−TPR)/(1−FPR))``.

    ``LR+`` is ``+inf`` when ``FPR = 0 < TPR`` (no false positive) and NaN at the origin
    (nothing flagged, ``0/0``); ``LR−`` is ``+inf`` when ``FPR = 1 > TPR`` and NaN when every
    case is flagged.
    """
    f = np.asarray(fpr, dtype=np.float64)
    t = np.asarray(tpr, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        pos = np.where(f > 0, t / np.where(f > 0, f, 1.0), np.where(t > 0, np.inf, np.nan))
        neg = np.where(f < 1, (1.0 - t) / np.where(f < 1, 1.0 - f, 1.0),
                       np.where(t < 1, np.inf, np.nan))
    if pos.ndim == 0:
        return float(pos), float(neg)
    return pos, neg


def _metrics(fpr, tpr, p: float, e: econ.Economics) -> dict:
    """Every metric but the threshold, from rates (arrays or floats)."""
    lr_pos, lr_neg = likelihood_ratios(fpr, tpr)
    at = econ.metrics_at_prior(fpr, tpr, p, e)
    return {"tpr": tpr, "fpr": fpr, "precision": at["precision"],
            "npv": npv_at_prior(fpr, tpr, p), "lr_pos": lr_pos, "lr_neg": lr_neg,
            "expected_cost": at["expected_cost"], "flagged": at["flagged"]}


def _limits(v: np.ndarray, level: float) -> tuple[float, float]:
    """Percentiles ``(1∓level)/2`` of the defined values ``v`` (sorted), linear
    interpolation; a limit next to an infinite value is infinite."""
    q = ((1.0 - level) / 2.0, (1.0 + level) / 2.0)
    if not np.isinf(v).any():
        low, high = np.quantile(v, q)
        return float(low), float(high)
    out = []
    for qq in q:
        h = (v.size - 1) * qq
        i = int(math.floor(h))
        j = min(i + 1, v.size - 1)
        a, b = float(v[i]), float(v[j])
        out.append(a if (h == i or a == b) else (math.inf if math.isinf(b)
                                                 else a + (b - a) * (h - i)))
    return out[0], out[1]


def _interval(values: np.ndarray, estimate: float, level: float) -> PointInterval:
    v = np.asarray(values, dtype=np.float64)
    ok = np.sort(v[~np.isnan(v)])
    n = int(ok.size)
    n_inf = int(np.isinf(ok).sum())
    if n == 0:
        return PointInterval(float(estimate), math.nan, math.nan, "none", 0, 0, v)
    if n * (1.0 - level) / 2.0 >= 1.0:
        low, high = _limits(ok, level)
        kind = "percentile"
    else:
        low, high, kind = float(ok[0]), float(ok[-1]), "range"
    return PointInterval(float(estimate), low, high, kind, n, n_inf, v)


def replicate_interval(values, estimate: float, level: float) -> PointInterval:
    """The interval of a metric from its replicates' ``values`` by :class:`PointInterval`'s
    rule (percentile limits, or the range with too few replicates; NaN values left out), for
    a metric computed from the replicates of :func:`point_intervals` (e.g. the share
    flagged, ``p·TPR + (1−p)·FPR``, of a decision record)."""
    return _interval(np.asarray(values, dtype=np.float64), estimate, level)


def _fixed(value: float, n: int) -> PointInterval:
    return PointInterval(float(value), float(value), float(value), "fixed", n,
                         int(math.isinf(value)) * n, np.full(n, float(value)))


_LABELS = {"precision": "Precision", "npv": "NPV", "lr_pos": "LR+", "lr_neg": "LR−"}
_UNDEFINED = {
    "precision": "nothing is flagged",
    "npv": "every case is flagged",
    "lr_pos": "nothing is flagged: 0/0",
    "lr_neg": "every case is flagged: 0/0",
}
_INFINITE = {
    "lr_pos": "LR+ is infinite (no false positive)",
    "lr_neg": "LR− is infinite (every negative flagged, a positive missed)",
    "threshold": "the threshold is +inf (flag nothing)",
}


def _point_notes(ivals: dict, n_used: int, level: float) -> list[str]:
    notes = []
    for key, why in _UNDEFINED.items():
        iv = ivals[key]
        if math.isnan(iv.estimate):
            notes.append(f"{_LABELS[key]} is undefined on the data ({why}).")
        if iv.n < n_used:
            notes.append(f"{_LABELS[key]} is undefined in {n_used - iv.n} of {n_used} "
                         f"replicates ({why}); they are left out of its interval.")
    for key, what in _INFINITE.items():
        iv = ivals[key]
        if iv.interval == "fixed":
            continue
        if iv.n_infinite:
            notes.append(f"{what} in {iv.n_infinite} of {iv.n} replicates; an interval "
                         "limit next to those is infinite.")
        if math.isinf(iv.estimate):
            notes.append(f"{what} on the data: the estimate is infinite.")
    if any(iv.interval == "range" for iv in ivals.values()):
        notes.append(f"Too few replicates ({n_used}) for {level:.0%} percentile limits: "
                     "the intervals marked 'range' are the min and max of the replicates.")
    return notes


def _widen(iv: PointInterval, low: float, high: float) -> PointInterval:
    """``iv`` widened to hold ``[low, high]``, marked ``"boundary"``."""
    if iv.interval == "none":
        return iv
    return PointInterval(iv.estimate, min(iv.low, low), max(iv.high, high), "boundary", iv.n,
                         iv.n_infinite, iv.values, iv.correction)


def _corrected(ivals: dict, point: dict, choice: dict, p: float, e: econ.Economics,
               level: float) -> int:
    """Replace, in place, the optimum's intervals of every metric but the threshold by the
    intervals corrected for the choice (:mod:`.choice_correction`); ``choice`` holds the
    replicates' rates in bag, on all the rows and out of bag, and the subset ``scale``. The
    number of metrics left with their percentile interval (too few finite replicates)."""
    reps = _metrics(choice["fpr"], choice["tpr"], p, e)
    full = _metrics(choice["full_fpr"], choice["full_tpr"], p, e)
    oob = _metrics(choice["oob_fpr"], choice["oob_tpr"], p, e)
    kept = 0
    for k, how in _CORRECTION.items():
        c = correct_for_choice(point[k], np.atleast_1d(reps[k]), np.atleast_1d(full[k]),
                               np.atleast_1d(oob[k]), level, scale=choice["scale"], **how)
        iv = ivals[k]
        if c is None or iv.interval == "none":
            kept += iv.interval != "none"
            continue
        ivals[k] = PointInterval(iv.estimate, c.low, c.high, CORRECTED, iv.n, iv.n_infinite,
                                 iv.values, c)
    return kept


def _at_boundary(ivals: dict, counts: tuple[float, float], level: float, p: float,
                 e: econ.Economics) -> bool:
    """Widen, in place, the intervals of a point whose TPR or FPR is 0 or 1 (see
    :class:`PointInterval`, ``"boundary"``); ``counts = (positives, negatives)``."""
    edge = {k: ivals[k].estimate in (0.0, 1.0) for k in ("tpr", "fpr")}
    if not any(edge.values()):
        return False
    for k, n in zip(("tpr", "fpr"), counts, strict=True):
        if edge[k]:
            ivals[k] = _widen(ivals[k], *clopper_pearson(ivals[k].estimate * n, n, level))
    f = np.array([ivals["fpr"].low, ivals["fpr"].low, ivals["fpr"].high, ivals["fpr"].high])
    t = np.array([ivals["tpr"].low, ivals["tpr"].high, ivals["tpr"].low, ivals["tpr"].high])
    corners = _metrics(f, t, p, e)  # each metric is monotone in each rate: its range
    for k, v in corners.items():
        v = np.asarray(v, dtype=np.float64)
        if k not in ("tpr", "fpr") and not np.isnan(v).all():
            ivals[k] = _widen(ivals[k], float(np.nanmin(v)), float(np.nanmax(v)))
    return True


def cost_range(prior_pos: float, economics: econ.Economics) -> tuple[float, float]:
    """The least and the greatest expected cost per case any operating point can have at
    ``prior_pos`` under ``economics``: the cost is linear in ``(FPR, TPR)``, so its extremes
    over ROC space are at corners, those of the perfect point ``(0, 1)`` and the worst
    ``(1, 0)`` with non-negative net costs (benefits may make both negative)."""
    c = econ.expected_cost_per_case(np.array([0.0, 0.0, 1.0, 1.0]),
                                    np.array([0.0, 1.0, 0.0, 1.0]), prior_pos, economics)
    return float(np.min(c)), float(np.max(c))


def _clip_cost(iv: PointInterval, p: float, e: econ.Economics) -> PointInterval:
    """The expected cost's interval clipped to :func:`cost_range` (a corrected interval,
    symmetric around the corrected estimate, can reach beyond what any threshold costs)."""
    lo, hi = cost_range(p, e)
    if iv.interval == "none" or (lo <= iv.low and iv.high <= hi):
        return iv
    low, high = min(max(iv.low, lo), hi), min(max(iv.high, lo), hi)
    c = iv.correction
    if c is not None:
        c = replace(c, low=min(max(c.low, lo), hi), high=min(max(c.high, lo), hi))
    return replace(iv, low=low, high=high, correction=c)


def _point(kind, threshold, fpr, tpr, est, p, e, level, n_boot, n_used, optimism,
           common_notes, counts, choice=None) -> PointUncertainty:
    """A :class:`PointUncertainty` from per-replicate ``threshold``/``fpr``/``tpr`` (the
    threshold ``None`` for a pin), the estimates ``est = (threshold, fpr, tpr)`` and the
    class counts ``counts = (positives, negatives)``; at the optimum, ``choice`` (see
    :func:`_corrected`)."""
    point = _metrics(est[1], est[2], p, e)
    reps = _metrics(fpr, tpr, p, e)
    ivals = {k: _interval(np.atleast_1d(reps[k]), point[k], level) for k in point}
    uncorrected = _corrected(ivals, point, choice, p, e, level) \
        if choice is not None else 0
    boundary = _at_boundary(ivals, counts, level, p, e)
    ivals["expected_cost"] = _clip_cost(ivals["expected_cost"], p, e)
    if threshold is None:
        ivals["threshold"] = _fixed(est[0], n_used)
    else:
        ivals["threshold"] = _interval(threshold, est[0], level)
    notes = list(common_notes)
    if kind == "pin":
        notes.append("A pin's threshold is fixed: its interval is the threshold itself; "
                     "the other intervals are those of that threshold's consequences.")
    else:
        notes.append("The optimum is chosen again in every replicate. Its intervals (all "
                     "but the threshold's) are of what the chosen threshold gives on new "
                     "data: the estimate corrected for the optimism of choosing it on these data (out "
                     "of bag), so a cost's interval may lie above its estimate. The "
                     "threshold's is the percentile interval of the replicates' choices, of "
                     "the population's optimal threshold (measured coverage in "
                     "docs/statistics.md).")
        if uncorrected:
            notes.append(f"{uncorrected} of the optimum's intervals are percentile intervals "
                         "of the replicates' own choices, not corrected for the choice: too "
                         "few replicates define them on the rows left out.")
    notes += _point_notes(ivals, n_used, level)
    if boundary:
        notes.append("TPR or FPR is 0 or 1 at this point, where the bootstrap cannot vary "
                     "it: its interval is widened to the exact Clopper–Pearson interval, and "
                     "the intervals of the metrics computed from it to their range over the "
                     "rates' intervals (marked 'boundary').")
    method = OPTIMUM_METHOD if choice is not None else METHOD
    return PointUncertainty(kind=kind, prior_pos=p, level=level,
                            method=method + ("; exact Clopper–Pearson where TPR or FPR is 0 "
                                             "or 1" if boundary else ""),
                            n_boot=n_boot, n_boot_used=n_used, optimism=optimism,
                            notes=tuple(notes), **{k: ivals[k] for k in _METRICS})


def _optimism(apparent: float, in_bag: np.ndarray, oob: np.ndarray
              ) -> tuple[ChoiceOptimism, tuple[str, ...]]:
    ok = np.isfinite(oob)
    notes = []
    if not ok.all():
        notes.append(f"Out-of-bag cost undefined in {int((~ok).sum())} of {oob.size} "
                     "replicates (no left-out row of a class); left out of both means.")
    n = int(ok.sum())
    mean = (lambda v: float(v[ok].mean())) if n else (lambda v: math.nan)
    return ChoiceOptimism(apparent=float(apparent), in_bag=mean(in_bag), out_of_bag=mean(oob),
                          n=n, in_bag_values=in_bag, out_of_bag_values=oob), tuple(notes)


def _check_deadline(deadline) -> float | None:
    if deadline is None:
        return None
    if not (econ._finite(deadline)):
        raise ValueError("deadline must be a time.monotonic() instant in seconds, or None")
    return float(deadline)


def _check_seed(seed) -> int:
    if not (isinstance(seed, (int, np.integer)) and not isinstance(seed, bool) and seed >= 0):
        raise ValueError(f"seed must be a non-negative integer (got {seed!r})")
    return int(seed)


def _run(sample: Sample, n_boot: int, seed: int, deadline: float | None, p, e, pin_idx):
    """The replicates, block by block until ``n_boot`` or the deadline: a dict of arrays
    (see :func:`._point_resampling.evaluate`) and the number of replicates made."""
    seeds = np.random.SeedSequence(seed).spawn(n_boot)
    block = sample.block_size()
    parts = []
    done = 0
    while done < n_boot:
        if done and deadline is not None and time.monotonic() > deadline:
            break
        gens = [np.random.default_rng(s) for s in seeds[done:done + block]]
        parts.append(evaluate(sample, sample.draw(gens), p, e, pin_idx))
        done += len(gens)
    out = {k: np.concatenate([part[k] for part in parts]) for k in parts[0]}
    return out, done


def point_intervals(labels, scores, prior_pos: float, economics: econ.Economics, *, pins=(),
                    weights=None, n_boot: int = DEFAULT_BOOT, seed: int = 0,
                    level: float = 0.95, deadline: float | None = None) -> PointIntervals:
    """Bootstrap intervals of one model's metrics at its optimum and at pinned thresholds.

    Each replicate draws the positives and the negatives separately with replacement
    (stratified: a replicate has the data's class counts), builds the replicate's ROC
    vertices (Fawcett 2004, Algorithm 2, one vertex per distinct score), chooses the vertex
    of minimum expected cost with net costs (:func:`~roc_dash.core.decisions.economics.regret_per_case`;
    within a relative ``16·TIE_RTOL`` the first, i.e. the one flagging fewest cases, the
    tie rule of :func:`~roc_dash.core.roc.hull.optimal_vertex`) and reads the metrics there and
    at each pin. The estimates are those of all the data: the optimum is
    :func:`~roc_dash.core.roc.hull.optimal_vertex` of :func:`~roc_dash.core.roc.curves.roc_curve`
    under :func:`~roc_dash.core.decisions.economics.net_slope`, a pin the vertex of
    :func:`~roc_dash.core.decisions.operating.vertex_at_threshold`. The intervals are percentile
    intervals (see :class:`PointInterval`).

    Replicate ``i`` draws from its own generator,
    ``default_rng(SeedSequence(seed).spawn(n_boot)[i])``: first the positives, then the
    negatives, each as ``integers(0, W, W)`` over the class's ``W`` unit rows (its rows;
    with whole-number weights, row ``r`` stands for ``w[r]`` unit rows in row order).
    Replicates therefore do not depend on one another: a run stopped by the deadline made
    the first replicates of the full run. See :mod:`._point_resampling` for weighted data
    with very many units (multinomial counts), fractional weights (rows drawn with their
    weights) and more than :data:`MAX_ROWS` rows (a stratified subset, rescaled); each is
    noted.

    Parameters
    ----------
    labels, scores, weights
        One model's rows, as for :func:`~roc_dash.core.roc.curves.roc_curve` (weights are
        frequency weights; rows of zero weight are left out).
    prior_pos : float
        Deployment prior ``p(+)``.
    economics : Economics
        Costs and benefits; the net costs choose the optimum.
    pins : sequence of float or None
        Fixed thresholds ("flag iff score >= threshold"; ``None`` = ``+inf``).
    n_boot : int, default 500
        Replicates asked for, at most :data:`MAX_BOOT`.
    seed : int, default 0
    level : float, default 0.95
    deadline : float, optional
        A :func:`time.monotonic` instant (as :func:`~roc_dash.core.assembly.analysis.analyse`
        takes): no new block of replicates starts after it. The first block (up to 32
        replicates) is always made; ``n_boot_used`` and a note say how many were.

    Returns
    -------
    PointIntervals
        ``optimum`` (with the out-of-bag :class:`ChoiceOptimism`) and one
        :class:`PointUncertainty` per pin, in order, all from the same replicates.

    Raises
    ------
    ValueError
        On bad inputs (see :func:`~roc_dash.core._validation.check_binary_inputs`), a prior
        outside (0, 1), ``n_boot`` outside ``[1, MAX_BOOT]``, a level outside (0, 1), a
        bad seed, deadline or pin, or a class of zero total weight.
    """
    p = econ._check_prior(prior_pos)
    if not isinstance(economics, econ.Economics):
        raise ValueError("economics must be an Economics (costs and benefits)")
    e = economics
    level = _check_level(level)
    n_boot = _check_n_boot(n_boot)
    seed = _check_seed(seed)
    deadline = _check_deadline(deadline)
    if isinstance(pins, (str, bytes)) or not hasattr(pins, "__iter__"):
        raise ValueError("pins must be a sequence of thresholds (numbers, or None for +inf)")
    pins = [_threshold(t) for t in pins]
    y, s, w = weighted_rows(labels, scores, weights)
    curve = roc_curve(y, s, weights=w)
    k_opt = optimal_vertex(curve, econ.net_slope(p, e))
    opt_est = (float(curve.thresholds[k_opt]), float(curve.fpr[k_opt]),
               float(curve.tpr[k_opt]))
    pin_est = []
    for t in pins:
        k = vertex_at_threshold(curve, t)
        pin_est.append((float(curve.thresholds[k]), float(curve.fpr[k]), float(curve.tpr[k])))

    notes: list[str] = []
    sample = prepare(y, s, w, seed, notes)
    pin_idx = [vertex_at_threshold(sample, t) for t in pins]
    reps, n_used = _run(sample, n_boot, seed, deadline, p, e, pin_idx)
    if n_used < n_boot:
        notes.append(f"Stopped at the deadline after {n_used} of {n_boot} replicates.")
    # the choice's rates in bag, on all the rows and out of bag, before a subset's rescaling
    choice = {k: reps[k].copy() for k in ("fpr", "tpr", "full_fpr", "full_tpr", "oob_fpr",
                                          "oob_tpr")}
    choice["scale"] = math.sqrt(sample.ratio) if sample.subset else 1.0
    if sample.subset:
        rescale(sample, reps, opt_est, pin_est, p, e, pin_idx)

    apparent = econ.expected_cost_per_case(opt_est[1], opt_est[2], p, e)
    optimism, oob_notes = _optimism(apparent, reps["in_bag_cost"], reps["oob_cost"])
    common = tuple(notes)
    counts = (curve.n_pos, curve.n_neg)
    optimum = _point("optimum", reps["threshold"], reps["fpr"], reps["tpr"], opt_est, p, e,
                     level, n_boot, n_used, optimism, common + oob_notes, counts, choice)
    pinned = tuple(
        _point("pin", None, reps["pin_fpr"][:, j], reps["pin_tpr"][:, j], est, p, e, level,
               n_boot, n_used, None, common, counts)
        for j, est in enumerate(pin_est))
    return PointIntervals(optimum=optimum, pins=pinned)


def optimum_intervals(labels, scores, prior_pos: float, economics: econ.Economics,
                      **kwargs) -> PointUncertainty:
    """:func:`point_intervals` at the optimum only (same keywords, without ``pins``)."""
    return point_intervals(labels, scores, prior_pos, economics, **kwargs).optimum


def pin_intervals(labels, scores, threshold: float | None, prior_pos: float,
                  economics: econ.Economics, **kwargs) -> PointUncertainty:
    """:func:`point_intervals` at one fixed threshold (same keywords, without ``pins``)."""
    return point_intervals(labels, scores, prior_pos, economics, pins=(threshold,),
                           **kwargs).pins[0]
