"""Averaging the ROC curves of several test sets (cross-validation folds, bootstrap samples).

Implements Fawcett (2004), "ROC Graphs: Notes and Practical Considerations for Researchers",
section 6:

* merging the folds' instances into one test set (section 6, first paragraph, footnote 4):
  :func:`pooled_curve` -- one curve, no measure of variance, and only meaningful if the
  scores of the folds are comparable;
* vertical averaging (section 6.1, Algorithm 4): :func:`vertical_average` samples every
  curve's TPR at fixed FP rates and averages it, with a pointwise t-interval of the mean;
* threshold averaging (section 6.2, Algorithm 5): :func:`threshold_average` samples every
  curve at fixed score thresholds and averages the points along both axes;
* a simultaneous confidence band for the vertical average (the bands of Macskassy & Provost
  2004, cited at the end of section 6.2), by a bootstrap over the folds:
  :func:`simultaneous_band`.

Conventions
-----------
* A curve's TPR at an FP rate is Fawcett's ``TPR_FOR_FPR``: the *maximum* TPR of the curve at
  that FP rate (the top of a vertical segment, including the one rising from (0, 0)), and
  between two distinct FP rates the straight line from the *top* of the left column of
  vertices to the *bottom* of the right one (:func:`tpr_for_fpr`).
* A curve's point at a score threshold ``t`` is the operating point of the rule "positive iff
  score >= t" on that fold, ``(FP(score >= t) / N, TP(score >= t) / P)``, which is the vertex
  whose threshold is the smallest one ``>= t`` (:func:`roc_point_at_threshold`; the same
  semantics as :class:`~roc_dash.core.roc.curves.RocCurve.thresholds`).
* Intervals over ``k`` curves use the t-distribution with ``k - 1`` degrees of freedom and the
  sample standard deviation (``ddof=1``). With a single curve (``k = 1``) the standard
  deviation is reported as 0, the interval collapses onto the mean and ``critical_value`` is
  NaN (the t quantile with 0 degrees of freedom is undefined).
* Where all curves agree exactly (always at FP rate 1, usually at 0) the mean is that common
  value and the standard deviation exactly 0, so the band has zero width there.

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, section 6 (Averaging ROC curves).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Literal

import numpy as np
from scipy.special import stdtrit

from .curves import RocCurve
from .per_fold_curves import fold_curves, pooled_curve  # noqa: F401 - re-exported
from .score_scales import (  # noqa: F401 - re-exported
    MAX_SCALE_RATIO,
    MIN_RANGE_OVERLAP,
    ScoreScaleWarning,
    _as_curves,
    check_score_scales,
)

__all__ = [
    "MAX_SCALE_RATIO", "MIN_RANGE_OVERLAP", "ScoreScaleWarning", "ThresholdAverage",
    "VerticalAverage", "average_by_fold", "check_score_scales", "fold_curves", "pooled_curve",
    "roc_point_at_threshold", "simultaneous_band", "threshold_average", "tpr_for_fpr",
    "vertical_average",
]


_SAME = 1e-12  # standard errors at or below this are treated as exactly 0


@dataclass(frozen=True, eq=False)
class VerticalAverage:
    """Vertical average of ROC curves (Fawcett 2004, section 6.1) with a confidence band.

    Attributes
    ----------
    fpr : ndarray of float64, shape (m,)
        The FP rates sampled, in [0, 1].
    tpr_mean, tpr_std : ndarray of float64, shape (m,)
        Mean and sample standard deviation (``ddof=1``; 0 when ``n_curves == 1``) over the
        curves of their TPR at each FP rate.
    tpr_low, tpr_high : ndarray of float64, shape (m,)
        The band ``tpr_mean -/+ critical_value * tpr_std / sqrt(n_curves)``, clipped to [0, 1].
    n_curves : int
        Number ``k`` of curves averaged.
    level : float
        Confidence level of the band.
    band : {"pointwise", "simultaneous"}
        ``"pointwise"``: a t-interval of the mean TPR at each FP rate separately.
        ``"simultaneous"``: a band meant to cover the whole mean curve at once
        (see :func:`simultaneous_band`), hence at least as wide.
    critical_value : float
        The multiplier of the standard error: the t quantile for a pointwise band, the
        bootstrap quantile of the maximal studentized deviation for a simultaneous one;
        NaN when ``n_curves == 1``.
    """

    fpr: np.ndarray
    tpr_mean: np.ndarray
    tpr_std: np.ndarray
    tpr_low: np.ndarray
    tpr_high: np.ndarray
    n_curves: int
    level: float
    band: str
    critical_value: float


@dataclass(frozen=True, eq=False)
class ThresholdAverage:
    """Threshold average of ROC curves (Fawcett 2004, section 6.2) with t-intervals.

    Attributes
    ----------
    threshold : ndarray of float64, shape (m,)
        The score thresholds sampled, strictly decreasing; ``threshold[0]`` is ``+inf``
        (every curve at (0, 0)) and the last is the smallest score of all curves (every
        curve at (1, 1)).
    fpr_mean, tpr_mean : ndarray of float64, shape (m,)
        Mean over the curves of their operating point "positive iff score >= threshold".
    fpr_std, tpr_std : ndarray of float64, shape (m,)
        Sample standard deviations (``ddof=1``; 0 when ``n_curves == 1``).
    fpr_low, fpr_high, tpr_low, tpr_high : ndarray of float64, shape (m,)
        Pointwise t-intervals of the means along each axis, clipped to [0, 1].
    n_curves : int
        Number ``k`` of curves averaged.
    level : float
        Confidence level of the intervals.
    critical_value : float
        The t quantile ``t_{(1 + level) / 2, k - 1}``; NaN when ``n_curves == 1``.
    warning : str or None
        Why the curves' scores look incommensurate (:func:`check_score_scales`), else None.
    """

    threshold: np.ndarray
    fpr_mean: np.ndarray
    tpr_mean: np.ndarray
    fpr_std: np.ndarray
    tpr_std: np.ndarray
    fpr_low: np.ndarray
    fpr_high: np.ndarray
    tpr_low: np.ndarray
    tpr_high: np.ndarray
    n_curves: int
    level: float
    critical_value: float
    warning: str | None


# ---------------------------------------------------------------------------------------------
# Sampling one curve


def tpr_for_fpr(curve: RocCurve, fpr) -> np.ndarray:
    """``TPR_FOR_FPR`` of Fawcett (2004) Algorithm 4, vectorised over the FP rates ``fpr``.

    The curve is treated as a function of the FP rate taking its *maximum* TPR there: at an
    FP rate shared by several vertices (a vertical segment, e.g. the rise from (0, 0)) the top
    one. Between two distinct vertex FP rates ``a < x < b`` the value is interpolated linearly
    from the last vertex at ``a`` (top of its column) to the first vertex at ``b`` (bottom of
    its column). ``np.interp`` is not used because it is ambiguous at duplicated abscissae.
    """
    x = np.asarray(fpr, dtype=np.float64)
    xs, ys = curve.fpr, curve.tpr
    # Last vertex with fpr <= x: Algorithm 4's scan "while ROC[i+1].fpr <= x".
    i = np.clip(np.searchsorted(xs, x, side="right") - 1, 0, xs.size - 1)
    j = np.minimum(i + 1, xs.size - 1)
    x0, x1, y0, y1 = xs[i], xs[j], ys[i], ys[j]
    exact = (x0 == x) | (x1 == x0)
    with np.errstate(divide="ignore", invalid="ignore"):
        interp = y0 + (y1 - y0) / (x1 - x0) * (x - x0)
    return np.where(exact, y0, interp)


def roc_point_at_threshold(curve: RocCurve, threshold) -> tuple[np.ndarray, np.ndarray]:
    """``ROC_POINT_AT_THRESHOLD`` of Fawcett (2004) Algorithm 5, vectorised over thresholds.

    Returns ``(fpr, tpr)`` of the rule "positive iff score >= t" for every ``t``: the vertex
    with the smallest threshold ``>= t`` (``thresholds[0] = +inf`` gives (0, 0) above every
    score, the smallest score gives (1, 1) for any ``t`` at or below it).
    """
    t = np.asarray(threshold, dtype=np.float64)
    # thresholds are strictly decreasing; count those >= t on the negated (ascending) array.
    k = np.searchsorted(-curve.thresholds, -t, side="right") - 1
    k = np.clip(k, 0, curve.thresholds.size - 1)
    return curve.fpr[k], curve.tpr[k]


# ---------------------------------------------------------------------------------------------
# Shared helpers


def _check_level(level: float) -> float:
    level = float(level)
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must lie strictly between 0 and 1, got {level}")
    return level


def _check_samples(n_samples: int) -> int:
    if int(n_samples) != n_samples or n_samples < 2:
        raise ValueError(f"n_samples must be an integer >= 2, got {n_samples!r}")
    return int(n_samples)


def _t_critical(level: float, k: int) -> float:
    # Student's t quantile through scipy.special (scipy.stats costs a second and ~50 MB of
    # every worker's memory to import, for this one number)
    return float(stdtrit(k - 1, (1.0 + level) / 2.0)) if k > 1 else float("nan")


def _mean_sd(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Column means and sample sds of a (k, m) array; exact where all k rows agree."""
    k = values.shape[0]
    mean = values.mean(axis=0)
    sd = values.std(axis=0, ddof=1) if k > 1 else np.zeros(values.shape[1])
    same = values.max(axis=0) == values.min(axis=0)
    mean[same] = values[0, same]
    sd[same] = 0.0
    return mean, sd


def _band(mean: np.ndarray, sd: np.ndarray, k: int, crit: float):
    if k == 1:
        return mean.copy(), mean.copy()
    half = crit * sd / np.sqrt(k)
    return np.clip(mean - half, 0.0, 1.0), np.clip(mean + half, 0.0, 1.0)


def _t_summary(values: np.ndarray, crit: float):
    """Column mean, sd and the t-band ``mean ± crit·sd/√k`` (in [0, 1]) of a (k, m) array."""
    mean, sd = _mean_sd(values)
    return (mean, sd, *_band(mean, sd, values.shape[0], crit))


# ---------------------------------------------------------------------------------------------
# Vertical averaging


def _fpr_grid(n_samples: int, fpr_grid) -> np.ndarray:
    if fpr_grid is None:
        return np.linspace(0.0, 1.0, _check_samples(n_samples))
    grid = np.array(fpr_grid, dtype=np.float64, ndmin=1)
    if grid.ndim != 1 or grid.size == 0:
        raise ValueError("fpr_grid must be a non-empty 1-D array")
    if not np.isfinite(grid).all() or (grid < 0).any() or (grid > 1).any():
        raise ValueError("fpr_grid values must lie in [0, 1]")
    return grid


def _bootstrap_critical(tprs: np.ndarray, mean, se, level, n_boot, seed) -> float:
    """Quantile ``level`` of ``max_x |mean_b(x) - mean(x)| / se(x)`` over fold resamples."""
    k, m = tprs.shape
    if int(n_boot) != n_boot or n_boot < 1:
        raise ValueError(f"n_boot must be a positive integer, got {n_boot!r}")
    rng = np.random.default_rng(seed)
    # Resampling k folds with replacement = multinomial counts of each fold.
    counts = rng.multinomial(k, np.full(k, 1.0 / k), size=int(n_boot)).astype(np.float64)
    use = se > _SAME
    inv_se = np.where(use, 1.0 / np.where(use, se, 1.0), 0.0)
    sup = np.empty(int(n_boot))
    chunk = max(1, 4_000_000 // max(m, 1))
    for start in range(0, int(n_boot), chunk):
        means_b = counts[start:start + chunk] @ tprs / k
        sup[start:start + chunk] = (np.abs(means_b - mean) * inv_se).max(axis=1)
    return float(np.quantile(sup, level))


def vertical_average(
    curves,
    *,
    n_samples: int = 101,
    fpr_grid=None,
    level: float = 0.95,
    band: Literal["pointwise", "simultaneous"] = "pointwise",
    n_boot: int = 1000,
    seed: int | None = 0,
) -> VerticalAverage:
    """Vertical average of ROC curves: mean TPR at fixed FP rates (Fawcett 2004, Alg. 4).

    Each curve is read as the function ``R_i(fpr)`` of :func:`tpr_for_fpr` (maximum TPR at an
    FP rate, linear in between) and the average is ``mean_i R_i(fpr)`` (section 6.1).

    Parameters
    ----------
    curves : sequence or mapping of RocCurve
        The curves of the folds, e.g. the result of :func:`fold_curves`.
    n_samples : int, default 101
        Number of FP rates sampled, evenly from 0 to 1 inclusive (Algorithm 4's loop
        "fpr = 0 to 1 by 1/samples" with ``samples = n_samples - 1``). Ignored when
        ``fpr_grid`` is given.
    fpr_grid : array-like of float in [0, 1], optional
        Explicit FP rates to sample, returned in the given order.
    level : float, default 0.95
        Confidence level of the band.
    band : {"pointwise", "simultaneous"}, default "pointwise"
        ``"pointwise"``: at every FP rate the t-interval of the mean TPR,
        ``mean -/+ t_{(1+level)/2, k-1} * sd / sqrt(k)`` (Figure 8c's 95 % bars).
        ``"simultaneous"``: the bootstrap band of :func:`simultaneous_band`.
    n_boot, seed
        Bootstrap resamples and random seed, used only for ``band="simultaneous"``.

    Returns
    -------
    VerticalAverage
        Band clipped to [0, 1]; with one curve the mean is that curve and the band
        collapses onto it (sd 0).

    References
    ----------
    T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", 2004,
    section 6.1. S. Macskassy and F. Provost, "Confidence bands for ROC curves", 2004.
    """
    if band not in ("pointwise", "simultaneous"):
        raise ValueError(f"band must be 'pointwise' or 'simultaneous', got {band!r}")
    _, items = _as_curves(curves)
    level = _check_level(level)
    grid = _fpr_grid(n_samples, fpr_grid)
    tprs = np.vstack([tpr_for_fpr(c, grid) for c in items])
    k = len(items)
    mean, sd = _mean_sd(tprs)
    crit = _t_critical(level, k)
    if band == "simultaneous" and k > 1:
        se = sd / np.sqrt(k)
        crit = max(_bootstrap_critical(tprs, mean, se, level, n_boot, seed), crit)
    low, high = _band(mean, sd, k, crit)
    return VerticalAverage(
        fpr=grid,
        tpr_mean=mean,
        tpr_std=sd,
        tpr_low=low,
        tpr_high=high,
        n_curves=k,
        level=level,
        band=band,
        critical_value=crit,
    )


def simultaneous_band(
    curves,
    *,
    n_samples: int = 101,
    fpr_grid=None,
    level: float = 0.95,
    n_boot: int = 1000,
    seed: int | None = 0,
) -> VerticalAverage:
    """Vertical average with a *simultaneous* confidence band, by a bootstrap over folds.

    A pointwise band covers the mean TPR at each FP rate with probability ``level``
    separately; a simultaneous band is meant to cover the whole mean curve at once with that
    probability (the "confidence bands" of Macskassy & Provost 2004, cited in Fawcett 2004,
    section 6.2), and is therefore wider.

    Method (studentized maximal deviation): draw ``n_boot`` resamples of the ``k`` folds with
    replacement; for each, the mean TPR curve ``mean_b`` on the grid; let ``q`` be the
    ``level`` quantile of ``max_x |mean_b(x) - mean(x)| / se(x)`` with
    ``se = sd / sqrt(k)`` (FP rates where ``se`` is 0, i.e. all folds agree, are left out of
    the maximum). The band is ``mean -/+ q * se``, clipped to [0, 1]. Because a simultaneous
    band cannot be narrower than the pointwise one at any FP rate, and the bootstrap of a
    mean of few folds understates its spread (plug-in variance ``(k - 1) / k`` times the
    unbiased one, normal rather than t tails), ``q`` is floored at the pointwise
    ``t_{(1+level)/2, k-1}``; the band therefore always contains the pointwise band.

    The result is deterministic for a given ``seed`` (``numpy.random.default_rng``). With one
    curve the band collapses onto it. Other parameters as for :func:`vertical_average`.
    """
    return vertical_average(
        curves,
        n_samples=n_samples,
        fpr_grid=fpr_grid,
        level=level,
        band="simultaneous",
        n_boot=n_boot,
        seed=seed,
    )


# ---------------------------------------------------------------------------------------------
# Threshold averaging


def _sample_thresholds(items: list[RocCurve], n_samples: int) -> np.ndarray:
    """``+inf`` and ``n_samples - 1`` evenly spaced entries of Algorithm 5's array T.

    The first (largest) and last (smallest) entries of T are always among them, except that
    ``n_samples = 2`` gives only ``+inf`` and the smallest score.
    """
    pooled = np.concatenate([c.thresholds[np.isfinite(c.thresholds)] for c in items])
    if pooled.size == 0:
        raise ValueError("the curves carry no finite score thresholds")
    # T: all scores of all ROC points, descending; only its entries at ``idx`` are needed,
    # so a selection (np.partition) stands in for the sort (10^7 rows: ~0.1 s a model)
    if n_samples == 2:  # just +inf and the smallest score: (0, 0) and (1, 1)
        idx = np.array([pooled.size - 1])
    else:
        idx = np.round(np.linspace(0, pooled.size - 1, n_samples - 1)).astype(np.int64)
    ascending = pooled.size - 1 - idx  # the same entries of T counted from its end
    picked = np.partition(pooled, np.unique(ascending))[ascending]
    sampled = np.unique(picked)[::-1]  # strictly decreasing; keeps T[0] and T[-1]
    return np.concatenate(([np.inf], sampled))


def threshold_average(
    curves,
    *,
    n_samples: int = 101,
    level: float = 0.95,
) -> ThresholdAverage:
    """Threshold average of ROC curves (Fawcett 2004, section 6.2, Algorithm 5).

    The array T of all scores of all ROC points (every curve's finite thresholds) is sorted
    in descending order and sampled at evenly spaced positions, its first (largest) and last
    (smallest) entries included; ``+inf`` is prepended. At each sampled threshold ``t``
    every curve contributes its operating point "positive iff score >= t"
    (:func:`roc_point_at_threshold`), and the points are averaged separately along the FP
    and TP axes with pointwise t-intervals (Figure 8d). The average therefore runs from
    (0, 0) (``t = +inf``) to (1, 1) (the smallest score).

    Parameters
    ----------
    curves : sequence or mapping of RocCurve
        The curves of the folds, e.g. the result of :func:`fold_curves`.
    n_samples : int, default 101
        Number of thresholds including ``+inf`` (at least 2); fewer are returned when the
        sampled entries of T repeat (the thresholds are kept strictly decreasing).
    level : float, default 0.95
        Confidence level of the intervals: ``mean -/+ t_{(1+level)/2, k-1} * sd / sqrt(k)``.

    Returns
    -------
    ThresholdAverage
        With one curve the means are vertices of that curve and the intervals collapse.

    Warns
    -----
    ScoreScaleWarning
        When :func:`check_score_scales` finds the curves' scores incommensurate (e.g. curves
        of different model classes); the message is also stored in ``warning``.
    """
    names, items = _as_curves(curves)
    level = _check_level(level)
    n_samples = _check_samples(n_samples)
    for name, c in zip(names, items, strict=True):
        if c.thresholds.shape != c.fpr.shape or (np.diff(c.thresholds) >= 0).any():
            raise ValueError(
                f"curve {name!r}: thresholds must match the vertices and strictly decrease"
            )
    message = check_score_scales(dict(zip(names, items, strict=True)))
    if message is not None:
        warnings.warn(message, ScoreScaleWarning, stacklevel=2)
    thresholds = _sample_thresholds(items, n_samples)
    points = [roc_point_at_threshold(c, thresholds) for c in items]
    fprs = np.vstack([p[0] for p in points])
    tprs = np.vstack([p[1] for p in points])
    k = len(items)
    crit = _t_critical(level, k)
    fpr_mean, fpr_sd, fpr_low, fpr_high = _t_summary(fprs, crit)
    tpr_mean, tpr_sd, tpr_low, tpr_high = _t_summary(tprs, crit)
    return ThresholdAverage(
        threshold=thresholds,
        fpr_mean=fpr_mean,
        tpr_mean=tpr_mean,
        fpr_std=fpr_sd,
        tpr_std=tpr_sd,
        fpr_low=fpr_low,
        fpr_high=fpr_high,
        tpr_low=tpr_low,
        tpr_high=tpr_high,
        n_curves=k,
        level=level,
        critical_value=crit,
        warning=message,
    )


# ---------------------------------------------------------------------------------------------
# Convenience


def average_by_fold(
    labels,
    scores,
    folds,
    *,
    method: Literal["vertical", "threshold", "pooled"] = "vertical",
    weights=None,
    n_samples: int = 101,
    level: float = 0.95,
    band: Literal["pointwise", "simultaneous"] = "pointwise",
    n_boot: int = 1000,
    seed: int | None = 0,
    pos_label=None,
) -> VerticalAverage | ThresholdAverage | RocCurve:
    """Average the per-fold ROC curves of one set of predictions (Fawcett 2004, section 6).

    ``method="vertical"`` -> :func:`vertical_average` (``band``, ``n_boot``, ``seed`` apply),
    ``"threshold"`` -> :func:`threshold_average`, ``"pooled"`` -> :func:`pooled_curve`
    (``folds`` is then only checked for length). ``pos_label`` is the label value of the
    positive class (scikit-learn's convention; see :func:`fold_curves`). Other parameters as
    for those functions.
    """
    if method == "pooled":
        if np.asarray(folds).shape != np.asarray(scores).shape:
            raise ValueError("folds and scores differ in length")
        return pooled_curve(labels, scores, weights=weights, pos_label=pos_label)
    if method not in ("vertical", "threshold"):
        raise ValueError(f"method must be 'vertical', 'threshold' or 'pooled', got {method!r}")
    curves = fold_curves(labels, scores, folds, weights=weights, pos_label=pos_label)
    if method == "vertical":
        return vertical_average(
            curves, n_samples=n_samples, level=level, band=band, n_boot=n_boot, seed=seed
        )
    return threshold_average(curves, n_samples=n_samples, level=level)
