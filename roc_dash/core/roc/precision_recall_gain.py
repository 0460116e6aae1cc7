"""Precision-recall-gain curves (Flach & Kull 2015).

Flach & Kull (2015), "Precision-Recall-Gain curves: PR analysis done right", NIPS: precision
and recall rescaled into gains against the always-positive baseline ``pi``, read off the ROC
vertices at a deployment prevalence as in :mod:`.precision_recall` (:func:`prg_curve`), and the
area under the curve (:func:`prg_auc`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._results import length_of
from .precision_recall import _check_prevalence, _precision, _skew, _vertices

__all__ = ["PrgCurve", "prg_curve", "prg_auc"]


@dataclass(frozen=True, eq=False)
class PrgCurve:
    """A precision-recall-gain curve (Flach & Kull 2015).

    Only the part with recall gain ``>= 0`` (recall ``>= pi``) is kept; it starts with a
    crossing point at recall gain 0 unless a vertex lies exactly there. Precision gains below
    0 are kept (not clipped), and crossing points at precision gain 0 are inserted, so that
    ``in_unit_square`` selects exactly the part of the curve inside ``[0, 1]²``.

    Attributes
    ----------
    recall_gain, precision_gain : ndarray of float64
        ``(rec − pi) / ((1 − pi)·rec)`` and ``(prec − pi) / ((1 − pi)·prec)``; both are <= 1.
    recall, precision : ndarray of float64
        The same points in PR space (under ``prevalence``).
    thresholds : ndarray of float64
        Threshold of each ROC vertex; NaN for crossing points (they lie between thresholds).
    is_crossing : ndarray of bool
        Points inserted where the curve crosses recall gain 0 or precision gain 0.
    in_unit_square : ndarray of bool
        Both gains ``>= 0``. Plot ``np.where(in_unit_square, precision_gain, nan)`` to draw
        only the unit square, as Flach & Kull do.
    prevalence : float
        The prevalence ``pi`` of the gains.
    """

    recall_gain: np.ndarray
    precision_gain: np.ndarray
    recall: np.ndarray
    precision: np.ndarray
    thresholds: np.ndarray
    is_crossing: np.ndarray
    in_unit_square: np.ndarray
    prevalence: float

    __len__ = length_of("recall_gain")


# --------------------------------------------------------------------------------------------
# Precision-recall-gain
# --------------------------------------------------------------------------------------------


def prg_curve(curve, *, prevalence: float | None = None) -> PrgCurve:
    """Precision-recall-gain curve of a ROC curve (Flach & Kull 2015).

    ``precision gain = (prec − pi) / ((1 − pi)·prec)``, ``recall gain = (rec − pi) /
    ((1 − pi)·rec)``: the always-positive classifier maps to (1, 0), perfect precision and
    recall to gain 1. Substituting the precision under ``pi`` gives
    ``precision gain = 1 − FPR / TPR`` (for any ``pi``), which is how it is computed.

    Both gains are affine functions of ``1 / TPR`` along a straight ROC segment, so the PRG
    image of a ROC segment is a straight line: linear interpolation *is* correct in PRG space
    (unlike PR space).

    Convention (that of the authors' reference implementation): vertices with recall below
    ``pi`` (recall gain < 0, down to −inf at recall 0) are dropped and replaced by the
    crossing point at recall gain 0 on the ROC segment through recall ``pi``. Vertices with
    negative precision gain are kept unclipped, and crossing points at precision gain 0 are
    inserted between sign changes, so that ``in_unit_square`` marks exactly the part of the
    curve inside the unit square (the part Flach & Kull plot).

    Parameters
    ----------
    curve, prevalence
        As in :func:`~roc_dash.core.roc.precision_recall.pr_auc_interpolated`.

    References
    ----------
    P. A. Flach and M. Kull, "Precision-Recall-Gain curves: PR analysis done right",
    NIPS 2015.
    """
    fpr, tpr, thresholds = _vertices(curve)
    a, b, pi = _skew(curve, prevalence)
    j = int(np.searchsorted(tpr, pi, side="left"))  # first vertex with recall >= pi
    t, f, thr = tpr[j:], fpr[j:], thresholds[j:]
    prec = _precision(t, f, a, b)
    crossing = np.zeros(t.size, dtype=bool)
    if j > 0 and t[0] > pi:
        x = (pi - tpr[j - 1]) / (t[0] - tpr[j - 1])
        fc = fpr[j - 1] + x * (f[0] - fpr[j - 1])
        t = np.concatenate(([pi], t))
        f = np.concatenate(([fc], f))
        thr = np.concatenate(([np.nan], thr))
        prec = np.concatenate((_precision(np.array([pi]), np.array([fc]), a, b), prec))
        crossing = np.concatenate(([True], crossing))
    rg = (t - pi) / ((1.0 - pi) * t)
    pg = 1.0 - f / t
    if t[0] == pi:
        rg[0] = 0.0

    # Crossings of precision gain 0 (a straight line in PRG space between two points).
    k = np.flatnonzero(pg[:-1] * pg[1:] < 0)
    if k.size:
        rg_c = rg[k] - pg[k] * (rg[k + 1] - rg[k]) / (pg[k + 1] - pg[k])
        rg = np.insert(rg, k + 1, rg_c)
        pg = np.insert(pg, k + 1, 0.0)
        t = np.insert(t, k + 1, pi / (1.0 - rg_c * (1.0 - pi)))
        prec = np.insert(prec, k + 1, pi)
        thr = np.insert(thr, k + 1, np.nan)
        crossing = np.insert(crossing, k + 1, True)
    return PrgCurve(
        recall_gain=rg,
        precision_gain=pg,
        recall=t,
        precision=prec,
        thresholds=thr,
        is_crossing=crossing,
        in_unit_square=(rg >= 0) & (pg >= 0),
        prevalence=pi,
    )


def prg_auc(curve, *, prevalence: float | None = None) -> float:
    """Area under the precision-recall-gain curve (AUPRG, Flach & Kull 2015).

    The integral of precision gain over recall gain from 0 to 1 along :func:`prg_curve`,
    by trapezoids, which is exact because the PRG curve is piecewise linear (straight ROC
    segments map to straight PRG segments). As in the authors' reference implementation,
    parts with negative precision gain count negatively; the always-positive and the random
    classifier score 0, a perfect ranking 1.

    Parameters
    ----------
    curve : PrgCurve, RocCurve, PrCurve or hull
        A PRG curve, or vertices to build one from.
    prevalence : float in (0, 1), optional
        Deployment prevalence; None uses the test set's (or the PrgCurve's own).
    """
    if isinstance(curve, PrgCurve):
        if prevalence is not None and _check_prevalence(prevalence) != curve.prevalence:
            raise ValueError("prevalence differs from the one the PRG curve was built for")
        c = curve
    else:
        c = prg_curve(curve, prevalence=prevalence)
    rg, pg = c.recall_gain, c.precision_gain
    return float(np.dot(np.diff(rg), pg[1:] + pg[:-1]) / 2.0)
