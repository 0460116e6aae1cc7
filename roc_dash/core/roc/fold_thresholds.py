"""The score thresholds behind a vertical average: at each FP rate, the folds' thresholds.

A vertical average (Fawcett 2004, section 6.1, Algorithm 4)
fixes the FP rate and averages the folds' TPRs there, so a point of the averaged curve has
no single score threshold: each fold reaches that FP rate at its own one. This module reads
them off the fold curves, at the same FP rates and with the same reading of a curve as
:func:`~roc_dash.core.roc.averaging.tpr_for_fpr`: at FP rate ``x`` each fold contributes the
vertex Algorithm 4 starts from, the last vertex with ``fpr <= x`` (the top of its column).
Its threshold is the lowest one whose rule "positive iff score >= t" keeps the fold's FP
rate at or below ``x`` (the Neyman-Pearson reading of an FP rate budget); between two
vertices the averaged TPR is interpolated (a random mix of two rules) while the threshold
reported stays this deterministic rule's.

The thresholds' mean, and their minimum and maximum over the folds, say how far apart the
folds' thresholds are at the same FP rate: a wide range warns that no one threshold gives
the averaged point (the folds' scores need not share a scale, see
:func:`~roc_dash.core.roc.score_scales.check_score_scales`).

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, sections 6.1 (vertical averaging) and 6.2
(threshold averaging).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .score_scales import _as_curves

__all__ = ["FoldThresholds", "thresholds_at_fpr"]


@dataclass(frozen=True, eq=False)
class FoldThresholds:
    """The folds' score thresholds at fixed FP rates.

    Attributes
    ----------
    fpr : ndarray of float64, shape (m,)
        The FP rates, as given.
    thresholds : ndarray of float64, shape (k, m)
        Row ``i``: the threshold of fold ``i``'s last vertex with ``fpr <= x`` at each ``x``
        (``+inf`` where only its (0, 0) vertex qualifies: nothing called positive).
    mean, low, high : ndarray of float64, shape (m,)
        Mean, minimum and maximum of the column over the folds (the mean is ``+inf`` where
        a fold's threshold is).
    n_curves : int
        Number ``k`` of folds.
    """

    fpr: np.ndarray
    thresholds: np.ndarray
    mean: np.ndarray
    low: np.ndarray
    high: np.ndarray
    n_curves: int


def thresholds_at_fpr(curves, fpr) -> FoldThresholds:
    """Each fold's score threshold at the FP rates ``fpr`` of a vertical average.

    Parameters
    ----------
    curves : sequence or mapping of RocCurve
        The folds' curves (e.g. :func:`~roc_dash.core.roc.averaging.fold_curves`).
    fpr : array-like of float in [0, 1], shape (m,)
        The FP rates, e.g. ``VerticalAverage.fpr``.

    Returns
    -------
    FoldThresholds

    Raises
    ------
    ValueError
        When there is no curve, or ``fpr`` is empty, not 1-D or outside [0, 1].

    References
    ----------
    T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", 2004,
    section 6.1, Algorithm 4 (``TPR_FOR_FPR``: the vertex read at each FP rate).
    """
    _, items = _as_curves(curves)
    x = np.array(fpr, dtype=np.float64, ndmin=1)
    if x.ndim != 1 or x.size == 0:
        raise ValueError("fpr must be a non-empty 1-D array of FP rates")
    if not np.isfinite(x).all() or (x < 0).any() or (x > 1).any():
        raise ValueError("fpr values must lie in [0, 1]")
    rows = []
    for c in items:
        # the last vertex with fpr <= x (curve.fpr is non-decreasing), as tpr_for_fpr reads it
        i = np.clip(np.searchsorted(c.fpr, x, side="right") - 1, 0, c.fpr.size - 1)
        rows.append(c.thresholds[i])
    t = np.vstack(rows)
    with np.errstate(invalid="ignore"):
        mean = t.mean(axis=0)
    return FoldThresholds(fpr=x, thresholds=t, mean=mean, low=t.min(axis=0),
                          high=t.max(axis=0), n_curves=len(items))
