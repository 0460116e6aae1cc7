"""A window's share of positives estimated from its scores alone.

Three estimators of the prior ``p(+)`` of an unlabelled window, all read off the reference:

* **EM** (Saerens, Latinne & Decaestecker 2002): the reference's calibrated posteriors
  (the hull's calibration map, at the reference's prevalence ``π_r``) are re-weighted by
  ``π/π_r`` and ``(1−π)/(1−π_r)`` and the prior re-estimated as their mean until it stops
  moving (their section 3.2: the fixed point maximises the likelihood of the window's
  scores over the prior);
* **ACC**, adjusted classify and count (Forman 2008, section 2.1): the share flagged by
  the deployed threshold ``q`` corrected by the reference's TPR and FPR there,
  ``(q − FPR) / (TPR − FPR)``, clipped to [0, 1];
* **PACC**, its probabilistic version (Bella et al. 2010; Forman 2008 names it among the
  adjusted methods): the mean posterior corrected by the reference's mean posterior among
  its positives and among its negatives.

Intervals are percentile bootstraps of the whole procedure: in each replicate the
reference's positives and negatives are resampled per class (and its calibration map, TPR
and FPR made again) and the window's cases resampled, on the reference's score grid
(:class:`~roc_dash.core.monitoring.reference.ScoreGrid`). The replicates find the EM fixed
point by a safeguarded Newton iteration on the same likelihood (quadratic, not EM's linear
convergence); :func:`em_prior` and :func:`mle_prior` agree to the tolerance.

References
----------
M. Saerens, P. Latinne, C. Decaestecker, "Adjusting the outputs of a classifier to new a
priori probabilities: a simple procedure", Neural Computation 14(1):21-41, 2002.
G. Forman, "Quantifying counts and costs via classification", Data Mining and Knowledge
Discovery 17(2):164-206, 2008.
A. Bella, C. Ferri, J. Hernández-Orallo, M. J. Ramírez-Quintana, "Quantification via
probability estimators", IEEE ICDM 2010, 737-742.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._results import length_of
from ..decisions.proportion_intervals import clopper_pearson
from ..inference.calibration import hull_calibration
from .reference import Reference, curve_of_counts
from .windows import WindowCounts

__all__ = ["ESTIMATORS", "PrevalenceEstimate", "ReferenceReplicates", "em_prior",
           "mle_prior", "adjusted_count", "reference_replicates", "estimate_prevalence",
           "counted_prevalence", "window_bins", "draw_counts"]

#: The estimators, in the order they are reported.
ESTIMATORS = ("em", "pacc", "acc")


@dataclass(frozen=True)
class PrevalenceEstimate:
    """A window's estimated (or counted) share of positives.

    Attributes
    ----------
    method : str
        ``"em"``, ``"pacc"``, ``"acc"`` or ``"labels"`` (counted from the labels).
    value : float
        The estimate in [0, 1] (NaN when undefined, e.g. ACC where TPR = FPR).
    low, high : float
        The interval at ``level``.
    level : float
    raw : float
        ACC and PACC before clipping to [0, 1] (outside it when the window does not fit
        the reference); the value itself for EM and labels.
    interval : str
        ``"bootstrap"`` (percentile) or ``"clopper-pearson"``.
    replicates : int
        Bootstrap replicates used (0 for Clopper–Pearson).
    spread : float
        Standard deviation of the replicates' logits (the logit-scale standard error the
        choice test uses; for labels, the binomial one).
    iterations : int
        EM iterations (0 for the others).
    converged : bool
    """

    method: str
    value: float
    low: float
    high: float
    level: float
    raw: float
    interval: str
    replicates: int = 0
    spread: float = math.nan
    iterations: int = 0
    converged: bool = True


# ------------------------------------------------------------------------- the estimators
def _ab(posteriors, train_prior):
    """The class-conditional likelihood ratios' parts ``a = p/π_r``, ``b = (1−p)/(1−π_r)``."""
    p = np.clip(np.asarray(posteriors, dtype=np.float64), 0.0, 1.0)
    return p / train_prior, (1.0 - p) / (1.0 - train_prior)


def em_prior(posteriors, counts, train_prior: float, *, tol: float = 1e-12,
             max_iter: int = 20_000) -> tuple[float, int, bool]:
    """Saerens, Latinne & Decaestecker's (2002) EM estimate of a new prior ``p(+)``.

    ``posteriors`` are calibrated ``P(+ | x)`` under the training prior ``train_prior``,
    ``counts`` how many (weighted) cases have each. Starting from the training prior, each
    step re-weights the posteriors to the current prior (their equation 2.9) and takes
    their mean as the next prior (2.10), until it moves less than ``tol``.

    Returns
    -------
    (prior, iterations, converged)
    """
    if not 0.0 < train_prior < 1.0:
        raise ValueError(f"the training prior must lie strictly between 0 and 1 "
                         f"(got {train_prior!r})")
    c = np.asarray(counts, dtype=np.float64)
    keep = c > 0
    a, b = _ab(np.asarray(posteriors, dtype=np.float64)[keep], train_prior)
    c = c[keep]
    n = c.sum()
    if not n > 0:
        raise ValueError("no cases to estimate the prior from")
    pi = float(train_prior)
    for k in range(1, max_iter + 1):
        pa = pi * a
        new = float(np.dot(c, pa / (pa + (1.0 - pi) * b)) / n)
        if abs(new - pi) < tol:
            return new, k, True
        pi = new
    return pi, max_iter, False


def mle_prior(posteriors, counts, train_prior: float, *, iterations: int = 100):
    """The prior maximising ``Σ c·log(π·a + (1−π)·b)`` (the fixed point of
    :func:`em_prior`), row by row of 2-D ``posteriors`` and ``counts``, by Newton's method
    on the likelihood's derivative kept inside a shrinking bracket of [0, 1] (a bisection
    step where Newton's would leave it). The likelihood is concave in ``π``; the estimate
    is 0 or 1 where it is monotone."""
    post = np.atleast_2d(np.asarray(posteriors, dtype=np.float64))
    c = np.atleast_2d(np.asarray(counts, dtype=np.float64))
    a, b = _ab(post, train_prior)
    a, b = np.broadcast_to(a, c.shape), np.broadcast_to(b, c.shape)
    d = a - b
    used = c > 0

    def slope(pi):  # the log-likelihood's first and (minus) second derivatives in pi
        r = d / (b + pi[:, None] * d)
        cr = c * r
        return cr.sum(axis=1), (cr * r).sum(axis=1)

    def slope_at(end: float):  # at 0 or 1, where a ratio may be infinite
        den = b + end * d
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(used, c * d / den, 0.0).sum(axis=1)

    rows = c.shape[0]
    at0, at1 = slope_at(0.0), slope_at(1.0)
    lo, hi = np.zeros(rows), np.ones(rows)
    pi = np.full(rows, float(train_prior))
    for _ in range(iterations):
        g, h = slope(pi)
        lo = np.where(g > 0, pi, lo)
        hi = np.where(g > 0, hi, pi)
        with np.errstate(divide="ignore", invalid="ignore"):
            step = pi + g / h
        new = np.where((step > lo) & (step < hi) & np.isfinite(step), step, (lo + hi) / 2)
        moved = np.abs(new - pi).max()
        pi = new
        if moved < 1e-14:
            break
    pi = np.where(at0 <= 0, 0.0, np.where(at1 >= 0, 1.0, pi))
    return pi if np.ndim(posteriors) > 1 or np.ndim(counts) > 1 else float(pi[0])


def adjusted_count(share, tpr, fpr):
    """``(share − fpr) / (tpr − fpr)``, the adjustment of ACC and PACC (Forman 2008,
    section 2.1), unclipped; NaN where ``tpr == fpr``."""
    share, tpr, fpr = (np.asarray(v, dtype=np.float64) for v in (share, tpr, fpr))
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(tpr != fpr, (share - fpr) / (tpr - fpr), np.nan)
    return float(out) if out.ndim == 0 else out


# ------------------------------------------------------------------------- the replicates
@dataclass(frozen=True, eq=False)
class ReferenceReplicates:
    """Bootstrap replicates of the reference, shared by every window of a run.

    Attributes
    ----------
    tpr, fpr : ndarray
        The deployed threshold's rates in each replicate.
    soft_tpr, soft_fpr : ndarray or None
        The mean calibrated posterior among the positives and among the negatives.
    posterior : ndarray (replicates × grid bins) or None
        The replicate's calibration map on the grid.
    prevalence : ndarray
        The replicate's share of positives (its map's prior).
    """

    tpr: np.ndarray
    fpr: np.ndarray
    soft_tpr: np.ndarray | None
    soft_fpr: np.ndarray | None
    posterior: np.ndarray | None
    prevalence: np.ndarray

    __len__ = length_of("tpr")


def draw_counts(counts, replicates: int, rng: np.random.Generator) -> np.ndarray:
    """``replicates`` Poisson bootstrap resamples of (weighted) ``counts``: each count
    drawn as a Poisson variable of its mean (Hanley & MacGibbon 2006: the multinomial
    resample of ``n`` cases for large ``n``, without its fixed total; the estimates divide
    by each replicate's own total). Weights count as cases."""
    c = np.asarray(counts, dtype=np.float64)
    return rng.poisson(c, size=(replicates, c.size)).astype(np.float64)


def _binomial_rates(reference: Reference, replicates: int, rng) -> tuple:
    """The threshold's rates resampled from the confusion matrix alone."""
    pos = draw_counts([reference.tp, reference.fn], replicates, rng)
    neg = draw_counts([reference.fp, reference.tn], replicates, rng)
    with np.errstate(divide="ignore", invalid="ignore"):
        return pos[:, 0] / pos.sum(axis=1), neg[:, 0] / neg.sum(axis=1)


def reference_replicates(reference: Reference, replicates: int,
                         rng: np.random.Generator) -> ReferenceReplicates:
    """Resample the reference per class (and make its calibration map again)."""
    if not reference.has_scores:
        tpr, fpr = _binomial_rates(reference, replicates, rng)
        return ReferenceReplicates(tpr, fpr, None, None, None,
                                   np.full(replicates, reference.prevalence))
    pos = draw_counts(reference.positives, replicates, rng)
    neg = draw_counts(reference.negatives, replicates, rng)
    grid, flag = reference.grid, reference.flagged_bin
    post = np.empty_like(pos)
    for r in range(replicates):
        seen = (pos[r] + neg[r]) > 0
        curve = curve_of_counts(grid.representative[seen], pos[r, seen], neg[r, seen])
        post[r] = hull_calibration(curve).calibrated_scores(grid.representative)
    n_pos, n_neg = pos.sum(axis=1), neg.sum(axis=1)
    return ReferenceReplicates(
        tpr=pos[:, flag:].sum(axis=1) / n_pos, fpr=neg[:, flag:].sum(axis=1) / n_neg,
        soft_tpr=(pos * post).sum(axis=1) / n_pos, soft_fpr=(neg * post).sum(axis=1) / n_neg,
        posterior=post, prevalence=n_pos / (n_pos + n_neg))


# ------------------------------------------------------------------------- per window
def window_bins(reference: Reference, window: WindowCounts) -> np.ndarray:
    """The window's (weighted) cases per bin of the reference's grid; with labels, also
    its positives per bin (``(cases, positives)``)."""
    if window.positives is None:
        return reference.grid.sums_of_sorted(window.scores, window.totals)[0]
    return tuple(reference.grid.sums_of_sorted(window.scores, window.totals,
                                               window.positives))


def _logit_spread(values: np.ndarray) -> float:
    v = np.clip(values[np.isfinite(values)], 1e-6, 1 - 1e-6)
    return float(np.std(np.log(v / (1 - v)), ddof=1)) if v.size > 1 else math.nan


def _estimate(method, raw, replicates, level, *, iterations=0, converged=True):
    value = float(np.clip(raw, 0.0, 1.0)) if math.isfinite(raw) else math.nan
    reps = np.clip(replicates[np.isfinite(replicates)], 0.0, 1.0)
    if reps.size >= 2 and math.isfinite(value):
        low, high = np.quantile(reps, [(1 - level) / 2, (1 + level) / 2])
    else:
        low = high = math.nan
    return PrevalenceEstimate(method=method, value=value, low=float(low), high=float(high),
                              level=level, raw=float(raw), interval="bootstrap",
                              replicates=int(reps.size), spread=_logit_spread(reps),
                              iterations=iterations, converged=converged)


def estimate_prevalence(reference: Reference, window: WindowCounts,
                        replicates: ReferenceReplicates, *, level: float,
                        rng: np.random.Generator, bins: np.ndarray | None = None
                        ) -> tuple[PrevalenceEstimate, ...]:
    """EM, PACC and ACC estimates of the window's prior (ACC alone without the reference's
    predictions), each with its percentile bootstrap interval (see the module
    docstring). ``bins``: the window's cases per grid bin when already counted."""
    r = len(replicates)
    if not reference.has_scores:
        flagged = float(window.totals[window.scores >= reference.threshold].sum())
        share = flagged / window.n
        boot = draw_counts([flagged, window.n - flagged], r, rng)
        boot = boot[:, 0] / boot.sum(axis=1)
        return (_estimate("acc", adjusted_count(share, reference.tpr, reference.fpr),
                          adjusted_count(boot, replicates.tpr, replicates.fpr), level),)
    counts = bins if bins is not None else reference.grid.sums_of_sorted(
        window.scores, window.totals)[0]
    post, flag = reference.posterior, reference.flagged_bin
    boot = draw_counts(counts, r, rng)
    n, n_boot = window.n, boot.sum(axis=1)
    em, steps, converged = em_prior(post, counts, reference.prevalence)
    if not converged:  # EM's fixed point, found the fast way
        em = mle_prior(post, counts, reference.prevalence)
    soft_tpr = float(reference.positives @ post) / float(reference.positives.sum())
    soft_fpr = float(reference.negatives @ post) / float(reference.negatives.sum())
    em_boot = _mle_rows(replicates, boot)
    return (
        _estimate("em", em, em_boot, level, iterations=steps, converged=converged),
        _estimate("pacc", adjusted_count(float(counts @ post) / n, soft_tpr, soft_fpr),
                  adjusted_count((boot * replicates.posterior).sum(axis=1) / n_boot,
                                 replicates.soft_tpr, replicates.soft_fpr), level),
        _estimate("acc", adjusted_count(float(counts[flag:].sum()) / n, reference.tpr,
                                        reference.fpr),
                  adjusted_count(boot[:, flag:].sum(axis=1) / n_boot, replicates.tpr,
                                 replicates.fpr), level),
    )


def _mle_rows(replicates: ReferenceReplicates, boot: np.ndarray) -> np.ndarray:
    """:func:`mle_prior` of every replicate at once (each with its own training prior:
    the posteriors are rescaled to a common one first, which leaves the likelihood's
    maximiser unchanged)."""
    post = replicates.posterior
    pr = replicates.prevalence[:, None]
    # P(+|x) at prior pr -> the likelihood ratio -> P(+|x) at prior 1/2
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = (post / pr) / ((1 - post) / (1 - pr))
        half = np.where(np.isinf(ratio), 1.0, ratio / (1 + ratio))
    half = np.where(post <= 0, 0.0, half)
    return mle_prior(half, boot, 0.5)


def counted_prevalence(window: WindowCounts, level: float) -> PrevalenceEstimate:
    """The labelled window's share of positives with its Clopper–Pearson interval."""
    n, k = window.n, window.n_pos
    low, high = clopper_pearson(k, n, level)
    p = k / n
    spread = 1.0 / math.sqrt(n * p * (1 - p)) if 0 < p < 1 else math.nan
    return PrevalenceEstimate(method="labels", value=p, low=low, high=high, level=level,
                              raw=p, interval="clopper-pearson", spread=spread)
