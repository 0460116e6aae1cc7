"""Has the expected cost of a fixed threshold got worse? A one-sided two-sample test with a
stated false-alarm rate.

A decision (a threshold, costs, a prior) was taken on reference data; new data arrive. At
the fixed threshold the expected cost per case at the fixed prior,
``C = p·(1−TPR)·c(FN) + (1−p)·FPR·c(FP) − benefits`` (Fawcett 2004, section 7.1), is a
linear function of the two rates, each a proportion of one class. The test compares the
new sample's cost with the reference's, accounting for

* **both samples' errors**: each rate's binomial variance ``r̃(1−r̃)·(1/n_ref + 1/n_new)``
  with the rate pooled over both samples under no change, ``r̃ = (x_ref + x_new + ½) /
  (n_ref + n_new + 1)`` (a rate of 0 or 1 keeps a variance); the cost's variance is
  ``(p·c'(FN))²·var(TPR) + ((1−p)·c'(FP))²·var(FPR)`` with the net costs ``c'``
  (:func:`~roc_dash.core.decisions.economics.net_costs`);
* **the choice of the threshold on the reference data** (a threshold picked as the optimum
  of the reference sample looks better there than it is): the reference cost is then the
  corrected estimate and its variance the variance of that estimate's error, both from the
  bootstrap that chooses the optimum again in every replicate
  (:mod:`.choice_correction`, :func:`~roc_dash.core.decisions.point_intervals.point_intervals`),
  and the new sample's variance is added to it (its rates pooled likewise, ``1/n_new``).

``z = (C_new − C_ref) / √(var_ref + var_new)``; the one-sided p-value is ``1 − Φ(z)``; the
cost has *drifted* (got worse) at level ``α`` iff ``p < α``, i.e. iff ``C_new`` exceeds the
*limit* ``C_ref + z_{1−α}·√(var_ref + var_new)``. ``tolerance`` is that distance.

False alarms, measured (``bench/simulate_statistics.py``, tables in ``docs/statistics.md``;
binormal scores, ``n = 500``, the record at its optimum under c(FN) = 3·c(FP) with 200
bootstrap replicates, new data of the same size from the same population; 400 and 1,000
runs): 2.2-3.6 % at ``α = 0.05`` (the out-of-bag correction errs on the safe side); with a
threshold fixed in advance 3.0-5.6 %, the level within the Monte-Carlo error. Without the
correction (an old record at its optimum, its counts alone) 10.2-12.0 %, and the former rule
(the upper end of the record's 95 % interval) 16.8-19.2 %. Power against the positives'
scores moving from N(1.5, 1) to N(1.1, 1) (AUC 0.856 to 0.782): 44.0-48.6 % (optimum),
55.2-56.9 % (fixed threshold).

Usage (the Monitor feature calls the same test once per window)::

    ref = reference_from_sample(y_ref, s_ref, prior_pos=0.2, economics=e)  # optimum, corrected
    test = cost_drift_test(ref, tp=..., fp=..., fn=..., tn=...)          # a window's counts
    test.drifted, test.p_value, test.limit

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", 2004.

B. Efron, R. J. Tibshirani, "An Introduction to the Bootstrap", Chapman & Hall, 1993
(chapter 17: the bootstrap estimate of optimism).

A. Agresti, B. Caffo, "Simple and effective confidence intervals for proportions and
differences of proportions result from adding two successes and two failures", The American
Statistician 54(4):280-288, 2000 (the adjusted rates of the variance).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import ndtr, ndtri

from .._validation import check_binary_inputs
from .economics import Economics, _check_prior, expected_cost_per_case, net_costs

__all__ = ["CostReference", "DriftTest", "COUNTS_METHOD", "CHOICE_METHOD",
           "reference_from_counts", "reference_from_sample", "cost_drift_test",
           "cost_drift_test_of_sample", "counts_at_threshold"]

#: :attr:`CostReference.method` of a threshold fixed before the reference data.
COUNTS_METHOD = "binomial variances of the rates at the fixed threshold"
#: :attr:`CostReference.method` of a threshold chosen on the reference data, corrected.
CHOICE_METHOD = ("chosen on the reference data: cost corrected for the optimism of the "
                 "choice (out of bag), variance from the bootstrap that chooses again in "
                 "every replicate")


@dataclass(frozen=True)
class CostReference:
    """The reference side of the test: the cost of a fixed threshold and its uncertainty.

    Attributes
    ----------
    threshold : float
        Flag iff score ``>=`` threshold.
    prior_pos : float
    cost_fp, cost_fn, benefit_tp, benefit_tn : float
        The costs and benefits (:attr:`economics`).
    tpr, fpr, n_pos, n_neg : float
        The rates at the threshold on the reference data and the (weighted) class counts.
    apparent_cost : float
        The expected cost per case on the reference data.
    optimism : float
        What choosing the threshold on the reference data hides (0 for a fixed threshold).
    cost : float
        ``apparent_cost + optimism``: the estimate of the true cost at the threshold.
    variance : float
        Of ``cost``'s error (for a fixed threshold, the binomial one of the reference's
        counts alone; the test pools the two samples' rates instead).
    chosen : bool
        The threshold was chosen on the reference data.
    corrected : bool
        ``chosen`` and corrected for it; a chosen threshold without the correction makes the
        test raise false alarms more often than ``α`` (a note says so).
    method : str
        :data:`COUNTS_METHOD` or :data:`CHOICE_METHOD`.
    notes : tuple of str
    """

    threshold: float
    prior_pos: float
    cost_fp: float
    cost_fn: float
    benefit_tp: float
    benefit_tn: float
    tpr: float
    fpr: float
    n_pos: float
    n_neg: float
    apparent_cost: float
    optimism: float
    cost: float
    variance: float
    chosen: bool
    corrected: bool
    method: str
    notes: tuple[str, ...] = ()

    @property
    def economics(self) -> Economics:
        return Economics(cost_fp=self.cost_fp, cost_fn=self.cost_fn,
                         benefit_tp=self.benefit_tp, benefit_tn=self.benefit_tn)


@dataclass(frozen=True)
class DriftTest:
    """The new sample's cost at the reference's threshold, tested against the reference.

    Attributes
    ----------
    reference : CostReference
    cost, tpr, fpr, n_pos, n_neg : float
        On the new sample.
    difference : float
        ``cost − reference.cost``.
    std_error : float
        Of the difference: the pooled binomial one, or with a corrected reference
        ``√(reference.variance + var(cost))``.
    z, p_value : float
        ``difference / std_error`` and the one-sided ``1 − Φ(z)`` (small: worse).
    alpha : float
        The false-alarm rate asked for under no change.
    tolerance : float
        ``z_{1−α}·std_error``: how far above ``reference.cost`` the new cost may lie.
    limit : float
        ``reference.cost + tolerance``.
    drifted : bool
        ``p_value < alpha`` (``cost > limit``): worse beyond what chance explains.
    notes : tuple of str
    """

    reference: CostReference
    cost: float
    tpr: float
    fpr: float
    n_pos: float
    n_neg: float
    difference: float
    std_error: float
    z: float
    p_value: float
    alpha: float
    tolerance: float
    limit: float
    drifted: bool
    notes: tuple[str, ...] = ()


def _rate_variance(x: float, n: float) -> float:
    """``r̃(1−r̃)/n`` with ``r̃ = (x + ½)/(n + 1)``."""
    r = (x + 0.5) / (n + 1.0)
    return r * (1.0 - r) / n


def _cost_variance(tp, fp, n_pos, n_neg, p: float, e: Economics) -> float:
    c_fp, c_fn = net_costs(e)
    return ((p * c_fn) ** 2 * _rate_variance(tp, n_pos)
            + ((1.0 - p) * c_fp) ** 2 * _rate_variance(fp, n_neg))


def _pooled_variance(ref: CostReference, tp, fp, n_pos, n_neg, *, both: bool) -> float:
    """The new sample's cost variance (``both``: the difference's, reference included)
    with each rate pooled over the two samples, ``r̃ = (x_ref + x_new + ½)/(n_ref + n_new
    + 1)``: under no change both samples have the same rates, and pooling them keeps the
    false alarms at the level where the unpooled (Wald) variances exceed it (5.6 % for 5 %
    with a pinned threshold, ``bench/simulate_statistics.py``)."""
    c_fp, c_fn = net_costs(ref.economics)
    p = ref.prior_pos
    out = 0.0
    for weight, x_ref, n_ref, x, n in ((p * c_fn, ref.tpr * ref.n_pos, ref.n_pos, tp, n_pos),
                                       ((1.0 - p) * c_fp, ref.fpr * ref.n_neg, ref.n_neg,
                                        fp, n_neg)):
        r = (x_ref + x + 0.5) / (n_ref + n + 1.0)
        out += weight ** 2 * r * (1.0 - r) * (1.0 / n + (1.0 / n_ref if both else 0.0))
    return out


def _check_counts(tp, fp, fn, tn) -> tuple[float, float, float, float]:
    counts = tuple(float(v) for v in (tp, fp, fn, tn))
    if not all(math.isfinite(v) and v >= 0 for v in counts):
        raise ValueError(f"counts must be finite and >= 0, got tp, fp, fn, tn = {counts}")
    if counts[0] + counts[2] <= 0 or counts[1] + counts[3] <= 0:
        raise ValueError("both classes must be present (tp + fn > 0 and fp + tn > 0)")
    return counts


def _check_alpha(alpha) -> float:
    a = float(alpha)
    if not 0.0 < a < 0.5:
        raise ValueError(f"alpha (the false-alarm rate) must lie in (0, 0.5), got {alpha!r}")
    return a


def reference_from_counts(threshold: float, tp, fp, fn, tn, *, prior_pos: float,
                          economics: Economics, chosen: bool = False,
                          correction: tuple[float, float] | None = None) -> CostReference:
    """The reference of a confusion matrix at a threshold.

    Parameters
    ----------
    threshold : float
    tp, fp, fn, tn : float
        (Weighted) counts at the threshold on the reference data.
    prior_pos : float
    economics : Economics
    chosen : bool
        The threshold was chosen on these data (as the optimum).
    correction : (float, float), optional
        ``(optimism, std_error)`` of the choice (e.g. a
        :class:`~roc_dash.core.decisions.choice_correction.ChoiceCorrection` of the expected cost, as
        a decision record keeps it): the reference cost is the apparent one plus the
        optimism, its variance ``std_error²``. Without it the variance is the binomial one
        of the counts, and a ``chosen`` threshold's optimism is not accounted for (noted).
    """
    p = _check_prior(prior_pos)
    tp, fp, fn, tn = _check_counts(tp, fp, fn, tn)
    n_pos, n_neg = tp + fn, fp + tn
    tpr, fpr = tp / n_pos, fp / n_neg
    apparent = float(expected_cost_per_case(fpr, tpr, p, economics))
    notes: tuple[str, ...] = ()
    if correction is not None:
        optimism, se = (float(v) for v in correction)
        if not (math.isfinite(optimism) and math.isfinite(se) and se >= 0):
            raise ValueError(f"correction must be a finite (optimism, std_error >= 0), got "
                             f"{correction!r}")
        variance, method = se * se, CHOICE_METHOD
    else:
        optimism, variance, method = 0.0, _cost_variance(tp, fp, n_pos, n_neg, p,
                                                         economics), COUNTS_METHOD
        if chosen:
            notes = ("The threshold was chosen on the reference data, and the optimism of "
                     "that choice is not known here: the reference cost is optimistic, so "
                     "the test raises false alarms more often than its level says.",)
    return CostReference(
        threshold=float(threshold), prior_pos=p, cost_fp=float(economics.cost_fp),
        cost_fn=float(economics.cost_fn), benefit_tp=float(economics.benefit_tp),
        benefit_tn=float(economics.benefit_tn), tpr=tpr, fpr=fpr, n_pos=n_pos, n_neg=n_neg,
        apparent_cost=apparent, optimism=optimism, cost=apparent + optimism,
        variance=float(variance), chosen=bool(chosen),
        corrected=bool(chosen and correction is not None), method=method, notes=notes)


def counts_at_threshold(labels, scores, threshold: float, *, weights=None
                        ) -> tuple[float, float, float, float]:
    """``(tp, fp, fn, tn)`` of "flag iff score >= threshold" (weighted)."""
    y, s, w = check_binary_inputs(labels, scores, weights)
    w = np.ones(y.size) if w is None else w
    flag = s >= float(threshold)
    return (float(w[y & flag].sum()), float(w[~y & flag].sum()),
            float(w[y & ~flag].sum()), float(w[~y & ~flag].sum()))


def reference_from_sample(labels, scores, *, prior_pos: float, economics: Economics,
                          threshold: float | None = None, weights=None, n_boot: int = 200,
                          seed: int = 0) -> CostReference:
    """The reference of one model's reference rows.

    ``threshold=None``: the threshold is the optimum chosen on these rows (least expected
    cost under ``economics`` at ``prior_pos``), corrected for that choice by the bootstrap
    of :func:`~roc_dash.core.decisions.point_intervals.point_intervals` (``n_boot`` replicates,
    ``seed``). A given threshold is taken as fixed in advance (binomial variances).
    """
    from .point_intervals import point_intervals

    if threshold is not None:
        return reference_from_counts(threshold, *counts_at_threshold(
            labels, scores, threshold, weights=weights), prior_pos=prior_pos,
            economics=economics)
    opt = point_intervals(labels, scores, prior_pos, economics, weights=weights,
                          n_boot=n_boot, seed=seed).optimum
    t = opt.threshold.estimate
    c = opt.expected_cost.correction
    counts = counts_at_threshold(labels, scores, t, weights=weights)
    return reference_from_counts(
        t, *counts, prior_pos=prior_pos, economics=economics, chosen=True,
        correction=None if c is None else (c.optimism, c.std_error))


def cost_drift_test(reference: CostReference, tp, fp, fn, tn, *, alpha: float = 0.05
                    ) -> DriftTest:
    """Test whether the cost at the reference's threshold got worse on new counts.

    Parameters
    ----------
    reference : CostReference
    tp, fp, fn, tn : float
        The new sample's (weighted) counts at ``reference.threshold``.
    alpha : float, default 0.05
        False-alarm rate under no change (one-sided), in (0, 0.5).

    Returns
    -------
    DriftTest
        See the module docstring for the statistic and its measured false alarms.
    """
    a = _check_alpha(alpha)
    tp, fp, fn, tn = _check_counts(tp, fp, fn, tn)
    p, e = reference.prior_pos, reference.economics
    n_pos, n_neg = tp + fn, fp + tn
    tpr, fpr = tp / n_pos, fp / n_neg
    cost = float(expected_cost_per_case(fpr, tpr, p, e))
    if reference.corrected:  # the bootstrap's variance of the corrected reference
        se = math.sqrt(reference.variance + _pooled_variance(reference, tp, fp, n_pos, n_neg,
                                                             both=False))
    else:  # two binomial samples: the rates pooled under no change
        se = math.sqrt(_pooled_variance(reference, tp, fp, n_pos, n_neg, both=True))
    diff = cost - reference.cost
    z = diff / se if se > 0 else (math.copysign(math.inf, diff) if diff else 0.0)
    p_value = float(ndtr(-z))
    tolerance = float(ndtri(1.0 - a)) * se
    return DriftTest(reference=reference, cost=cost, tpr=tpr, fpr=fpr, n_pos=n_pos,
                     n_neg=n_neg, difference=diff, std_error=se, z=float(z),
                     p_value=p_value, alpha=a, tolerance=tolerance,
                     limit=reference.cost + tolerance, drifted=bool(p_value < a),
                     notes=reference.notes)


def cost_drift_test_of_sample(reference: CostReference, labels, scores, *, weights=None,
                              alpha: float = 0.05) -> DriftTest:
    """:func:`cost_drift_test` of the new rows' counts at the reference's threshold."""
    return cost_drift_test(reference, *counts_at_threshold(
        labels, scores, reference.threshold, weights=weights), alpha=alpha)
