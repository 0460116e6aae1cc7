"""Cross-validation made explicit: each fold's AUC and AP, their spread, and a confidence
interval for the cross-validated AUC.

Pooling the predictions of every fold into one test set (Fawcett 2004, section 6;
:func:`~roc_dash.core.roc.averaging.pooled_curve`) gives one curve and
one AUC but hides how much the folds disagree, and an interval computed on the pooled rows
treats them as one test set scored by one model. Here every number is computed per fold, on
that fold's own rows, and then averaged:

* the AUC of each fold (:func:`~roc_dash.core.roc.curves.auc`, ties counted one half, Fawcett
  2004 section 5) and its average precision
  (:func:`~roc_dash.core.roc.precision_recall.average_precision_from_curve`, scikit-learn's
  ``average_precision_score``);
* their mean and standard deviation across folds;
* a Wald confidence interval for the cross-validated AUC, the mean of the fold AUCs, whose
  variance comes from the influence curve of the AUC (LeDell, Petersen & van der Laan 2015;
  R package ``cvAUC``, function ``ci.cvAUC``), read off the fold curves: no pass over the
  rows, no bootstrap.

References
----------
E. LeDell, M. Petersen, M. van der Laan, "Computationally efficient confidence intervals for
cross-validated area under the ROC curve estimates", Electronic Journal of Statistics
9(1):1583-1607, 2015.

T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, section 6 (Averaging ROC curves).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from scipy.special import ndtri

from .._sums import dot
from .._validation import check_level
from ..roc.averaging import fold_curves
from ..roc.curves import RocCurve, auc
from ..roc.precision_recall import average_precision_from_curve

__all__ = ["CrossValidatedAuc", "CV_AUC_METHOD", "cross_validated_auc",
           "cross_validated_auc_from_curves"]

#: The name of the interval's method, as the reports give it.
CV_AUC_METHOD = "LeDell et al. 2015 influence curve"


@dataclass(frozen=True, eq=False)
class CrossValidatedAuc:
    """Per-fold AUC and average precision, their spread and the cvAUC interval.

    Attributes
    ----------
    folds : ndarray of str
        The fold labels, in order of first appearance.
    auc, average_precision : ndarray of float64
        Each fold's AUC (ties one half) and average precision, from that fold's rows only.
    n_pos, n_neg : ndarray of float64
        Each fold's (weighted) positives and negatives.
    auc_mean : float
        The cross-validated AUC: the unweighted mean of the fold AUCs.
    auc_sd, ap_sd : float
        Standard deviation of the fold AUCs and APs across folds (``n − 1`` in the
        denominator).
    ap_mean : float
        Unweighted mean of the fold APs.
    std_error : float
        Standard error of ``auc_mean`` by the influence curve (LeDell et al. 2015).
    ci_low, ci_high : float
        ``auc_mean ∓ z·std_error``, clipped to ``[0, 1]``.
    level : float
        Nominal coverage of the interval.
    basis : str
        What is computed per fold, what is averaged and what is pooled, in words.
    method : str
        :data:`CV_AUC_METHOD`.
    """

    folds: np.ndarray
    auc: np.ndarray
    average_precision: np.ndarray
    n_pos: np.ndarray
    n_neg: np.ndarray
    auc_mean: float
    auc_sd: float
    ap_mean: float
    ap_sd: float
    std_error: float
    ci_low: float
    ci_high: float
    level: float
    basis: str
    method: str = CV_AUC_METHOD

    @property
    def n_folds(self) -> int:
        return int(self.folds.size)


def _basis(n_folds: int) -> str:
    return (f"averaged over {n_folds} folds: each fold's AUC and AP from its own rows, then "
            "their unweighted mean and SD (n − 1); the interval is for the mean of the fold "
            "AUCs (cvAUC), its variance from each row's influence curve within its fold, with "
            "the class prior pooled over all folds (LeDell et al. 2015)")


def _sum_square_influence(curve: RocCurve, fold_auc: float, p: float) -> float:
    """``Σ w_i IC_v(i)²`` over one fold's rows, read off its ROC curve (see
    :func:`cross_validated_auc_from_curves`)."""
    f, t = curve.fpr, curve.tpr
    positives = np.diff(t) * curve.n_pos  # (weighted) positives scored at each vertex's score
    negatives = np.diff(f) * curve.n_neg
    below = 1.0 - (f[1:] + f[:-1]) / 2.0  # F_v: negatives below the score, ties one half
    above = (t[1:] + t[:-1]) / 2.0  # G_v: positives above the score, ties one half
    ic_pos = (below - fold_auc) / p
    ic_neg = (above - fold_auc) / (1.0 - p)
    return dot(positives, ic_pos * ic_pos) + dot(negatives, ic_neg * ic_neg)


def cross_validated_auc_from_curves(fold_curves: Mapping[str, RocCurve], *,
                                    level: float = 0.95) -> CrossValidatedAuc:
    """Per-fold AUC and AP, their mean ± SD, and the influence-curve interval of the cvAUC.

    The cross-validated AUC is the mean of the ``V`` fold AUCs,
    ``cvAUC = (1/V) Σ_v AUC_v``, each ``AUC_v`` computed on fold ``v``'s rows alone (ties
    one half). Its standard error is that of LeDell, Petersen & van der Laan (2015),
    i.i.d. case (R ``cvAUC::ci.cvAUC``). With ``p = P / n`` the share of positives over all
    ``n`` rows of all folds, the influence curve of row ``i`` of fold ``v`` is::

        IC_v(i) = 1{y_i = 1} / p       · (F_v(s_i) − AUC_v)
                + 1{y_i = 0} / (1 − p) · (G_v(s_i) − AUC_v)

    where ``F_v(s)`` is the fraction of fold ``v``'s negatives scored below ``s`` and
    ``G_v(s)`` the fraction of its positives scored above ``s``, ties counted one half in
    both (DeLong's placement values). Then::

        σ² = (1/V) Σ_v  (1/n_v) Σ_{i in fold v} IC_v(i)²
        SE = sqrt(σ² / n)
        CI = cvAUC ∓ z_{(1+level)/2} · SE,   clipped to [0, 1]

    Rows of one fold with the same label and score have the same ``IC``, so the sums run
    over the fold curve's vertices, without the rows: the vertex of score ``t_k`` (rates
    ``FPR_k``, ``TPR_k`` after the previous vertex's ``FPR_(k−1)``, ``TPR_(k−1)``) holds
    ``(TPR_k − TPR_(k−1))·P_v`` positives, each with ``F_v = 1 − (FPR_k + FPR_(k−1))/2``, and
    ``(FPR_k − FPR_(k−1))·N_v`` negatives, each with ``G_v = (TPR_k + TPR_(k−1))/2``.

    ``ci.cvAUC`` counts tied scores as 0 in ``F_v`` and ``G_v`` (strict inequalities); with
    the half that the fold AUC itself gives them the influence curve has mean zero in every
    fold. Without ties the two are the same number. Weights are frequency weights: ``p``,
    ``n``, ``n_v``, the fractions and the mean squares are weighted sums, so integer weights
    give exactly the result of repeated rows.

    Parameters
    ----------
    fold_curves : mapping of str to RocCurve
        Each fold's ROC curve as :func:`~roc_dash.core.roc.curves.roc_curve` returns it (one
        vertex per distinct score: a curve thinned by
        :func:`~roc_dash.core.roc.curve_geometry.reduce_collinear` would count merged scores as tied),
        e.g. from :func:`~roc_dash.core.roc.averaging.fold_curves`; at least two.
    level : float, default 0.95
        Nominal coverage of the interval, in ``(0, 1)``.

    Returns
    -------
    CrossValidatedAuc

    Raises
    ------
    ValueError
        Fewer than two folds, or ``level`` outside ``(0, 1)``.

    References
    ----------
    E. LeDell, M. Petersen, M. van der Laan, Electronic Journal of Statistics 9:1583-1607,
    2015 (doi:10.1214/15-EJS1035), and ``ci.cvAUC`` of the R package cvAUC.
    """
    lvl = check_level(level)
    names = [str(k) for k in fold_curves]
    if len(names) < 2:
        raise ValueError(f"a cross-validated AUC needs at least two folds; got {len(names)} "
                         f"({', '.join(map(repr, names))})")
    curves = list(fold_curves.values())
    fold_auc = np.array([auc(c) for c in curves])
    n_pos = np.array([float(c.n_pos) for c in curves])
    n_neg = np.array([float(c.n_neg) for c in curves])
    total = float(n_pos.sum() + n_neg.sum())
    p = float(n_pos.sum()) / total
    mean_squares = [_sum_square_influence(c, float(a), p) / (c.n_pos + c.n_neg)
                    for c, a in zip(curves, fold_auc, strict=True)]
    se = math.sqrt(float(np.mean(mean_squares)) / total)
    ap = np.array([average_precision_from_curve(c) for c in curves])
    mean = float(fold_auc.mean())
    half = float(ndtri(0.5 + lvl / 2.0)) * se
    return CrossValidatedAuc(
        folds=np.array(names, dtype=object), auc=fold_auc, average_precision=ap,
        n_pos=n_pos, n_neg=n_neg,
        auc_mean=mean, auc_sd=float(np.std(fold_auc, ddof=1)),
        ap_mean=float(ap.mean()), ap_sd=float(np.std(ap, ddof=1)),
        std_error=se, ci_low=max(0.0, mean - half), ci_high=min(1.0, mean + half),
        level=lvl, basis=_basis(len(names)))


def cross_validated_auc(labels, scores, folds, *, weights=None, level: float = 0.95,
                        pos_label=None) -> CrossValidatedAuc:
    """:func:`cross_validated_auc_from_curves` of one model's out-of-fold predictions.

    Parameters
    ----------
    labels, scores, weights, pos_label
        As for :func:`~roc_dash.core.roc.curves.roc_curve`; weights are frequency weights.
    folds : array-like, shape (n,)
        The fold of each row (any hashable values, not missing); at least two folds, each
        with both classes.
    level : float, default 0.95

    Raises
    ------
    ValueError
        On malformed input, fewer than two folds, or a fold without both classes (named).
    """
    lvl = check_level(level)
    return cross_validated_auc_from_curves(
        fold_curves(labels, scores, folds, weights=weights, pos_label=pos_label), level=lvl)
