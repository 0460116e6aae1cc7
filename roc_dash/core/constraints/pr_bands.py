"""Bands on the precision-recall curve at the deployment prevalence.

Precision depends on the class mix, the ROC curve does not (Fawcett 2004, section 3.2), so
both bands are made in ROC space and carried to PR space at the deployment prevalence
``π``: at a recall ``r`` the least false positive rate reaching it, ``FPR(r)`` (the ROC
curve interpolated linearly between vertices: thresholds mixed at random, Davis & Goadrich
2006, section 4), gives the precision ``π·r / (π·r + (1 − π)·FPR(r))``, which falls as
``FPR(r)`` rises: an interval of ``FPR(r)`` is an interval of the precision at the same
level.

* **Fold bands** (:func:`pr_fold_band`): the folds' curves averaged at fixed recall
  (horizontal averaging, Fawcett 2004, section 6.1's vertical averaging with the axes
  swapped: :func:`~roc_dash.core.roc.averaging.vertical_average` of the mirrored curves),
  ``mean ± t·sd/√k`` pointwise, or its simultaneous bootstrap band.
* **Bootstrap bands** (:func:`pr_bootstrap_band`): stratified bootstrap replicates of the
  rows (:func:`~.floor_confidence.resample_thresholds`, the replicates of
  :mod:`~roc_dash.core.decisions.point_intervals`), each replicate's ``FPR(r)``, and their percentile
  interval at each recall (pointwise; Efron & Tibshirani 1993, chapter 13).

``bench/simulate_constraints.py`` measures the bootstrap band's pointwise coverage of the
true precision on binormal data.

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", 2004,
sections 3.2 and 6.1.

J. Davis, M. Goadrich, "The relationship between precision-recall and ROC curves", ICML
2006, section 4.

B. Efron, R. J. Tibshirani, "An Introduction to the Bootstrap", Chapman & Hall, 1993.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ..decisions.economics import precision_at_prior
from ..roc.averaging import vertical_average
from ..roc.curves import RocCurve
from ..roc.pr_interpolation import interpolated_precision
from . import _checks
from .floor_confidence import ThresholdReplicates

__all__ = ["PrBand", "fpr_at_recall", "recall_grid", "pr_fold_band", "pr_bootstrap_band",
           "pr_at_recall"]


@dataclass(frozen=True, eq=False)
class PrBand:
    """A band of precision at fixed recalls, at a deployment prevalence.

    Attributes
    ----------
    recall : ndarray
        The recall grid (above 0, where precision is defined).
    precision : ndarray
        The central curve: the pooled (or given) curve's precision, or for fold bands the
        precision of the folds' mean FPR.
    low, high : ndarray
        The band (pointwise unless ``band`` says simultaneous).
    prevalence, level : float
    method : str
        ``"folds"`` or ``"bootstrap"``.
    band : str
        ``"pointwise"`` or ``"simultaneous"``.
    n_curves : int
        Folds or replicates.
    """

    recall: np.ndarray
    precision: np.ndarray
    low: np.ndarray
    high: np.ndarray
    prevalence: float
    level: float
    method: str
    band: str
    n_curves: int


def recall_grid(n_points: int = 100) -> np.ndarray:
    """``n_points`` recalls evenly spaced in (0, 1], 1 included."""
    if isinstance(n_points, bool) or not isinstance(n_points, int | np.integer) or n_points < 2:
        raise ValueError(f"n_points must be a whole number >= 2, got {n_points!r}")
    return np.linspace(0.0, 1.0, int(n_points) + 1)[1:]


def fpr_at_recall(fpr: np.ndarray, tpr: np.ndarray, recall: np.ndarray) -> np.ndarray:
    """The least FPR at which a ROC curve (vertices ``fpr``, ``tpr`` non-decreasing, the
    last row of 2-D arrays per curve) reaches each recall, interpolated linearly."""
    fpr, tpr = np.atleast_2d(fpr), np.atleast_2d(tpr)
    out = np.empty((fpr.shape[0], recall.size))
    for r in range(fpr.shape[0]):
        f, t = fpr[r], tpr[r]
        j = np.clip(np.searchsorted(t, recall, side="left"), 1, t.size - 1)
        t0, t1, f0, f1 = t[j - 1], t[j], f[j - 1], f[j]
        with np.errstate(divide="ignore", invalid="ignore"):
            x = np.where(t1 > t0, f0 + (recall - t0) / (t1 - t0) * (f1 - f0), f1)
        out[r] = np.where(t0 >= recall, f0, x)
    return out if out.shape[0] > 1 else out[0]


def pr_at_recall(curve, recall, prevalence: float) -> np.ndarray:
    """The precision of a ROC curve at each recall, at the prevalence: the Davis–Goadrich
    interpolated curve's (:func:`~roc_dash.core.roc.pr_interpolation.interpolated_precision`)."""
    return interpolated_precision(curve, np.asarray(recall, dtype=np.float64),
                                  prevalence=prevalence)


def _mirror(c: RocCurve) -> RocCurve:
    """The ROC curve with the classes swapped and the scores reversed: its highest TPR at
    FPR ``1 − r`` is ``1 −`` the original's least FPR at recall ``r``."""
    return RocCurve(fpr=1.0 - c.tpr[::-1], tpr=1.0 - c.fpr[::-1],
                    thresholds=np.full(c.fpr.size, np.nan), n_pos=c.n_neg, n_neg=c.n_pos)


def pr_fold_band(fold_curves: Mapping[str, RocCurve], *, prevalence: float,
                 pooled: RocCurve | None = None, level: float = 0.95, n_points: int = 100,
                 band: str = "pointwise", n_boot: int = 1000, seed: int = 0) -> PrBand:
    """The folds' precision at fixed recalls: horizontal averaging in ROC space, carried to
    PR space at ``prevalence`` (see the module docstring). ``pooled``, when given, is the
    central curve; otherwise the precision of the folds' mean FPR."""
    p = _checks.prior(prevalence, "prevalence")
    curves = list(fold_curves.values())
    if len(curves) < 2:
        raise ValueError("a fold band needs two or more folds")
    rec = recall_grid(n_points)
    mirrored = [_mirror(c) for c in curves]
    va = vertical_average(mirrored, fpr_grid=1.0 - rec, level=level, band=band,
                          n_boot=n_boot, seed=seed)
    f_mean, f_low, f_high = 1.0 - va.tpr_mean, 1.0 - va.tpr_high, 1.0 - va.tpr_low
    center = (pr_at_recall(pooled, rec, p) if pooled is not None
              else precision_at_prior(f_mean, rec, p))
    return PrBand(recall=rec, precision=np.asarray(center, float),
                  low=np.asarray(precision_at_prior(f_high, rec, p), float),
                  high=np.asarray(precision_at_prior(f_low, rec, p), float),
                  prevalence=p, level=va.level, method="folds", band=band,
                  n_curves=len(curves))


def pr_bootstrap_band(replicates: ThresholdReplicates, curve: RocCurve, *, prevalence: float,
                      level: float = 0.95, n_points: int = 100) -> PrBand:
    """Percentile band of the replicates' precision at fixed recalls, at ``prevalence``,
    about ``curve`` (the model's curve on all its rows)."""
    p = _checks.prior(prevalence, "prevalence")
    lvl = _checks.level(level)
    rec = recall_grid(n_points)
    f = fpr_at_recall(replicates.fp_in / replicates.n_neg, replicates.tp_in / replicates.n_pos,
                      rec)
    per = precision_at_prior(np.atleast_2d(f), rec, p)
    low, high = np.quantile(per, [(1 - lvl) / 2, (1 + lvl) / 2], axis=0)
    return PrBand(recall=rec, precision=np.asarray(pr_at_recall(curve, rec, p), float),
                  low=low, high=high, prevalence=p,
                  level=lvl, method="bootstrap", band="pointwise",
                  n_curves=replicates.n_boot)
