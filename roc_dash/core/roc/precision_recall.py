"""Precision-recall analysis under class skew, derived from ROC points.

ROC graphs are insensitive to the class distribution, precision-recall graphs are not
(Fawcett 2004, section 3.2 and figure 5): precision mixes the
positive and the negative column of the confusion matrix. Every function here therefore
starts from ROC vertices ``(FPR, TPR)`` and a *deployment prevalence* ``pi`` (probability of
the positive class where the classifier will be used), with

    recall = TPR,        precision = pi·TPR / (pi·TPR + (1 − pi)·FPR).

With ``prevalence=None`` the test set's own prevalence ``P / (P + N)`` is used, and the formula
is evaluated as ``TP / (TP + FP)`` on the (weighted) counts, so that the vertices are exactly
those of :func:`sklearn.metrics.precision_recall_curve`. Replicating the negatives ``k`` times
changes nothing in ROC space and is the same as ``prevalence = P / (P + kN)`` here.

Implemented:

* the PR point of every ROC vertex (:func:`precision_recall_curve`, :func:`pr_curve`);
* Davis & Goadrich (2006), "The relationship between precision-recall and ROC curves",
  ICML, section 4: between two vertices the classifier is interpolated in ROC space (randomly
  mixing the two thresholds), which is linear in TP and FP counts but *not* linear in PR
  space; the PR image of the ROC convex hull is the achievable PR curve (section 3). These
  are in :mod:`.pr_interpolation` (:func:`~.pr_interpolation.interpolate_pr`,
  :func:`~.pr_interpolation.interpolated_precision`,
  :func:`~.pr_interpolation.achievable_pr_curve`);
* average precision, the step sum of scikit-learn (:func:`average_precision`), and the exact
  area under the Davis-Goadrich interpolated curve (:func:`pr_auc_interpolated`), which are
  different numbers;
* iso-F1 curves and the random/always-positive baseline precision ``pi``;
* Flach & Kull (2015), "Precision-Recall-Gain curves: PR analysis done right", NIPS, in
  :mod:`.precision_recall_gain` (:func:`~.precision_recall_gain.prg_curve`,
  :func:`~.precision_recall_gain.prg_auc`).

Conventions
-----------
* The origin vertex (threshold ``+inf``, TP = FP = 0) has undefined precision. In the vertex
  arrays (:class:`PrCurve`) it gets precision 1 at recall 0, the scikit-learn convention; it
  carries no weight in average precision (its recall step is 0). The same holds for any other
  vertex with TP = FP = 0 (zero-weight instances scored above all others).
* The interpolated curve (:func:`interpolate_pr`, :func:`pr_auc_interpolated`) instead starts
  at recall 0 with the *limit* of precision along the first ROC segment, which is the
  precision of the first vertex with TP + FP > 0 (the segment from the origin has constant
  precision), or 0 when the top-scored instances are all negative.

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, section 3.2; figure 5.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._results import length_of
from .._sums import dot
from .curves import RocCurve, roc_curve

__all__ = [
    "PrCurve", "IsoF1Curve", "precision_recall_curve", "pr_curve", "average_precision",
    "average_precision_from_curve", "pr_auc_interpolated", "iso_f1_curves", "baseline_precision",
]


# --------------------------------------------------------------------------------------------
# Result types
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class PrCurve:
    """Precision and recall at every vertex of a ROC curve, under a given prevalence.

    Attributes
    ----------
    recall : ndarray of float64
        Recall (= TPR) of each ROC vertex, non-decreasing.
    precision : ndarray of float64
        Precision of each vertex under ``prevalence``. Where TP = FP = 0 (the origin) it is
        1.0 by the scikit-learn convention (see the module docstring).
    thresholds : ndarray of float64
        The ROC vertex thresholds, index-aligned (``+inf`` first); NaN when the source had none.
    fpr : ndarray of float64
        False positive rate of each vertex: with ``recall`` it fixes the ROC point, so the
        curve can be re-skewed or interpolated (:func:`interpolate_pr`).
    prevalence : float
        The prevalence ``pi`` the precisions are computed for (the test set's ``P/(P+N)``
        when none was given).
    """

    recall: np.ndarray
    precision: np.ndarray
    thresholds: np.ndarray
    fpr: np.ndarray
    prevalence: float

    @property
    def f1(self) -> np.ndarray:
        """F1 score (harmonic mean of precision and recall) of each vertex; 0 at recall 0."""
        total = self.precision + self.recall
        out = np.zeros_like(total)
        np.divide(2.0 * self.precision * self.recall, total, out=out, where=total > 0)
        return out

    __len__ = length_of("recall")



@dataclass(frozen=True, eq=False)
class IsoF1Curve:
    """The (recall, precision) pairs of equal F1 score ``level``, recall increasing."""

    level: float
    recall: np.ndarray
    precision: np.ndarray


# --------------------------------------------------------------------------------------------
# Shared helpers
# --------------------------------------------------------------------------------------------


_ROUNDING_SLACK = 1e-9
"""How far a rate may stray outside ``[0, 1]`` or below its predecessor by rounding."""


def _check_prevalence(prevalence) -> float:
    pi = float(prevalence)
    if not (math.isfinite(pi) and 0.0 < pi < 1.0):
        raise ValueError(f"prevalence must lie strictly between 0 and 1, got {prevalence!r}")
    return pi


def _vertices(curve):
    """``(fpr, tpr, thresholds)`` of a RocCurve, PrCurve, hull or any ``fpr``/``tpr`` object."""
    if isinstance(curve, PrCurve):
        fpr, tpr, thresholds = curve.fpr, curve.recall, curve.thresholds
    else:
        try:
            fpr, tpr = curve.fpr, curve.tpr
        except AttributeError:
            raise TypeError(
                f"expected a ROC curve, hull or PrCurve (fpr and tpr arrays), got "
                f"{type(curve).__name__}"
            ) from None
        thresholds = getattr(curve, "thresholds", None)
    fpr = np.asarray(fpr, dtype=np.float64)
    tpr = np.asarray(tpr, dtype=np.float64)
    if fpr.ndim != 1 or fpr.shape != tpr.shape or fpr.size == 0:
        raise ValueError("fpr and tpr must be non-empty one-dimensional arrays of equal length")
    if not (np.isfinite(fpr).all() and np.isfinite(tpr).all()):
        raise ValueError("fpr and tpr must be finite")
    slack = _ROUNDING_SLACK
    if (fpr < -slack).any() or (fpr > 1 + slack).any() or (tpr < -slack).any() or (
            tpr > 1 + slack).any():
        raise ValueError("fpr and tpr must lie in [0, 1]")
    if (np.diff(fpr) < -slack).any() or (np.diff(tpr) < -slack).any():
        raise ValueError("ROC vertices must be ordered by decreasing threshold "
                         "(fpr and tpr non-decreasing)")
    # Rounding in weighted sums can leave a rate a few ulps outside [0, 1] or below its
    # predecessor; snap those (a no-op on clean input).
    fpr = np.maximum.accumulate(np.clip(fpr, 0.0, 1.0))
    tpr = np.maximum.accumulate(np.clip(tpr, 0.0, 1.0))
    if thresholds is None:
        thresholds = np.full(fpr.size, np.nan)
    else:
        thresholds = np.asarray(thresholds, dtype=np.float64)
        if thresholds.shape != fpr.shape:
            raise ValueError("thresholds must have one entry per vertex")
    return fpr, tpr, thresholds


def _skew(curve, prevalence):
    """Class weights ``(a, b)`` with precision ``a·TPR / (a·TPR + b·FPR)``, and ``pi``.

    Precision depends only on the ratio ``a : b``. With a prevalence, ``(pi, 1 − pi)``; without
    one, the curve's own totals ``(P, N)``, which makes ``a·TPR = TP`` and ``b·FPR = FP``.
    """
    if prevalence is not None:
        pi = _check_prevalence(prevalence)
        return pi, 1.0 - pi, pi
    if isinstance(curve, PrCurve):
        pi = curve.prevalence
        return pi, 1.0 - pi, pi
    n_pos = getattr(curve, "n_pos", None)
    n_neg = getattr(curve, "n_neg", None)
    if n_pos is None or n_neg is None:
        raise ValueError(
            "prevalence is required: this curve carries no class totals (n_pos, n_neg)"
        )
    n_pos, n_neg = float(n_pos), float(n_neg)
    if not (n_pos > 0 and n_neg > 0):
        raise ValueError("both classes need a positive total weight")
    return n_pos, n_neg, n_pos / (n_pos + n_neg)


def _precision(tpr, fpr, a, b, undefined=1.0):
    """``a·tpr / (a·tpr + b·fpr)`` elementwise, ``undefined`` where both are 0."""
    num = a * tpr
    den = num + b * fpr
    out = np.full(np.shape(den), undefined, dtype=np.float64)
    np.divide(num, den, out=out, where=den > 0)
    return out


def _mean_weight(u):
    """``w(rho) = (rho·ln rho − rho + 1) / (rho − 1)²`` with ``rho = 1 + u``, for ``u >= 0``.

    On a ROC segment whose precision denominator grows by the factor ``rho``, the mean of the
    (linear-fractional) precision over the segment is ``p_B + (p_A − p_B)·w``; ``w(1) = 1/2``
    (the trapezoid) and ``w → 0`` as ``rho → inf``. A Taylor series avoids cancellation near 1.
    """
    u = np.asarray(u, dtype=np.float64)
    out = np.empty_like(u)
    small = u < 1e-2
    s = u[small]
    # sum_{n>=2} (-1)^n u^(n-2) / (n (n-1)), truncated after u^6 (error < u^7/72).
    out[small] = 0.5 + s * (-1 / 6 + s * (1 / 12 + s * (-1 / 20 + s * (
        1 / 30 + s * (-1 / 42 + s / 56)))))
    big = u[~small]
    with np.errstate(over="ignore"):
        out[~small] = ((1.0 + big) * np.log1p(big) - big) / (big * big)
    return out


# --------------------------------------------------------------------------------------------
# PR points at the ROC vertices
# --------------------------------------------------------------------------------------------


def precision_recall_curve(curve: RocCurve, *, prevalence: float | None = None) -> PrCurve:
    """Precision and recall at every vertex of a ROC curve.

    Fawcett (2004) section 3.2: the ROC curve does not depend on the class distribution, so
    the PR curve for any deployment prevalence ``pi`` follows from it:
    ``precision = pi·TPR / (pi·TPR + (1 − pi)·FPR)``, ``recall = TPR``.

    Parameters
    ----------
    curve : RocCurve
        ROC vertices (any object with ``fpr``, ``tpr`` and, if ``prevalence`` is None,
        ``n_pos`` and ``n_neg``; ``thresholds`` is used when present).
    prevalence : float in (0, 1), optional
        Deployment prevalence ``pi``. None uses the test set's own ``P / (P + N)``, and then
        ``precision = TP / (TP + FP)`` on the weighted counts.

    Returns
    -------
    PrCurve
        One entry per ROC vertex, aligned with ``curve.thresholds``. The origin vertex has
        precision 1 (scikit-learn convention).

    References
    ----------
    T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", 2004, §3.2.
    """
    fpr, tpr, thresholds = _vertices(curve)
    a, b, pi = _skew(curve, prevalence)
    return PrCurve(
        recall=tpr.copy(),
        precision=_precision(tpr, fpr, a, b),
        thresholds=thresholds.copy(),
        fpr=fpr.copy(),
        prevalence=pi,
    )


def pr_curve(labels, scores, *, weights=None, prevalence: float | None = None,
             pos_label=None) -> PrCurve:
    """PR points of ``scores`` against ``labels``: :func:`precision_recall_curve` of the ROC.

    See :func:`roc_dash.core.roc.curves.roc_curve` for ``labels``, ``scores``, ``weights`` and
    ``pos_label`` (the label value of the positive class, scikit-learn's convention; every
    other value is negative; needed when the labels are not a known encoding), and
    :func:`precision_recall_curve` for ``prevalence``.
    """
    curve = roc_curve(labels, scores, weights=weights, pos_label=pos_label)
    return precision_recall_curve(curve, prevalence=prevalence)


# --------------------------------------------------------------------------------------------
# Areas
# --------------------------------------------------------------------------------------------


def average_precision_from_curve(curve: RocCurve, *, prevalence: float | None = None) -> float:
    """Average precision of a ROC curve: ``sum_k (R_k − R_(k−1))·P_k`` over its vertices.

    The step-wise (non-interpolated) sum of :func:`sklearn.metrics.average_precision_score`:
    each recall increment is weighted by the precision at the end of the step. A run of tied
    scores is one step, with the precision of the whole run. With ``prevalence`` the
    precisions are those under ``pi``. This is not the area under the interpolated curve
    (:func:`pr_auc_interpolated`).
    """
    fpr, tpr, _ = _vertices(curve)
    a, b, _ = _skew(curve, prevalence)
    return dot(np.diff(tpr), _precision(tpr[1:], fpr[1:], a, b))


def average_precision(labels, scores, *, weights=None, pos_label=None) -> float:
    """Average precision of ``scores`` against ``labels``, ties and weights included.

    Equal to :func:`sklearn.metrics.average_precision_score` (step-wise sum
    ``sum_k (R_k − R_(k−1))·P_k`` over distinct thresholds); see
    :func:`average_precision_from_curve`. ``labels``, ``scores``, ``weights`` and
    ``pos_label`` (the label value of the positive class, scikit-learn's convention; needed
    when the labels are not a known encoding) are as for
    :func:`roc_dash.core.roc.curves.roc_curve`.
    """
    curve = roc_curve(labels, scores, weights=weights, pos_label=pos_label)
    return average_precision_from_curve(curve)


def pr_auc_interpolated(curve, *, prevalence: float | None = None) -> float:
    """Exact area under the Davis-Goadrich interpolated PR curve.

    Not average precision: this integrates precision over recall along the PR image of the
    straight ROC segments (:func:`interpolate_pr`). On a segment with ``x`` in ``[0, 1]``
    precision is linear-fractional, ``p(x) = pi·TPR(x) / D(x)`` with
    ``D = pi·TPR + (1 − pi)·FPR`` linear in ``x``; its mean is, in closed form,

        p_B + (p_A − p_B)·w(rho),   rho = D_B / D_A,   w(rho) = (rho ln rho − rho + 1)/(rho − 1)²,

    so the segment contributes ``ΔTPR·(p_B + (p_A − p_B)·w)``. ``w(1) = 1/2`` would be the
    trapezoid rule; ``w < 1/2`` otherwise, so straight lines in PR space overestimate the area
    where precision falls. The area runs over recall from 0 to 1: the segment leaving the
    origin has constant precision (``rho = inf``, ``w = 0``), so the curve starts at recall 0
    with the precision of the first vertex with TP + FP > 0.

    A perfect ranking gives 1; a constant score (the ROC diagonal) gives exactly ``pi``.

    Parameters
    ----------
    curve : RocCurve, PrCurve or hull
        The vertices.
    prevalence : float in (0, 1), optional
        Deployment prevalence; None uses the test set's.

    References
    ----------
    J. Davis and M. Goadrich, "The relationship between precision-recall and ROC curves",
    ICML 2006, section 4.
    """
    fpr, tpr, _ = _vertices(curve)
    a, b, _ = _skew(curve, prevalence)
    den = a * tpr + b * fpr
    p = _precision(tpr, fpr, a, b, undefined=0.0)
    dt = np.diff(tpr)
    d0 = den[:-1]
    step = (dt > 0) & (d0 > 0)  # segments not leaving the origin (those have w = 0)
    w = np.zeros(dt.size)
    w[step] = _mean_weight((a * dt[step] + b * np.diff(fpr)[step]) / d0[step])
    mean = p[1:] + (p[:-1] - p[1:]) * w
    return dot(dt, mean)


# --------------------------------------------------------------------------------------------
# Iso-F1 curves and baseline
# --------------------------------------------------------------------------------------------


def iso_f1_curves(levels=(0.2, 0.4, 0.6, 0.8), *, n: int = 200) -> tuple[IsoF1Curve, ...]:
    """Curves of constant F1 in PR space, for drawing behind PR curves.

    For level ``f`` in (0, 1]: ``precision = f·r / (2r − f)`` for recall ``r`` in
    ``[f / (2 − f), 1]``, running from (f/(2−f), 1) to (1, f/(2−f)). The curve is symmetric
    in recall and precision; each half is sampled uniformly from the point (f, f) outwards,
    so the steep part near precision 1 is as well resolved as the flat part.

    Parameters
    ----------
    levels : iterable of float in (0, 1]
    n : int
        Points per curve (>= 3).
    """
    n = int(n)
    if n < 3:
        raise ValueError("n must be at least 3")
    half = n // 2 + 1  # the shared point (f, f) is counted once
    curves = []
    for level in levels:
        f1 = float(level)
        if not (0.0 < f1 <= 1.0):
            raise ValueError(f"F1 levels must lie in (0, 1], got {level!r}")
        # Lower branch: recall from f to 1. Upper branch, its mirror image: precision from
        # 1 down to f, recall from f/(2-f) up to f.
        r_low = np.linspace(f1, 1.0, n - half + 1)
        p_low = f1 * r_low / (2.0 * r_low - f1)
        p_up = np.linspace(f1, 1.0, half)[::-1]
        r_up = f1 * p_up / (2.0 * p_up - f1)
        curves.append(IsoF1Curve(
            level=f1,
            recall=np.concatenate((r_up, r_low[1:])),
            precision=np.concatenate((p_up, p_low[1:])),
        ))
    return tuple(curves)


def baseline_precision(prevalence: float) -> float:
    """Precision of random classification, and of calling everything positive: ``pi``.

    Every point of the ROC diagonal has precision ``pi`` (Fawcett 2004, §3.2), so it is the
    horizontal baseline of a PR plot under prevalence ``pi``.
    """
    return _check_prevalence(prevalence)
