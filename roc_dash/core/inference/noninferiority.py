"""Is a model's AUC not worse than a baseline's by more than a margin? DeLong's paired test,
one-sided.

The non-inferiority form of the paired comparison (Liu et al. 2006): with
``d = AUC_model − AUC_baseline`` on the same rows and its DeLong standard error ``SE``
(DeLong et al. 1988; the components of :func:`~roc_dash.core.inference.statistics.delong_paired_test`),

* ``H0: d <= −margin`` (the model is worse by the margin or more) against
  ``H1: d > −margin``;
* ``z = (d + margin) / SE`` and the one-sided p-value ``p = 1 − Φ(z)``;
* the model is non-inferior at level ``alpha`` iff ``p < alpha``, equivalently iff the
  one-sided ``1 − alpha`` lower confidence bound ``d − z_{1−alpha}·SE`` lies above
  ``−margin``.

A zero standard error (e.g. identical scores) gives ``z = ±inf`` and ``p = 0`` or ``1`` when
``d + margin`` is non-zero, and ``z = 0, p = 1/2`` when it is zero (the boundary of H0).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from scipy.special import ndtr, ndtri

from .statistics import delong_paired_test

__all__ = ["NonInferiorityTest", "delong_noninferiority_test"]


@dataclass(frozen=True)
class NonInferiorityTest:
    """DeLong's one-sided test of ``H0: AUC_model − AUC_baseline <= −margin``.

    Attributes
    ----------
    auc_model, auc_baseline : float
    auc_difference : float
        ``auc_model − auc_baseline``.
    margin : float
        The loss of AUC tolerated (``>= 0``).
    std_error : float
        DeLong standard error of the difference.
    z, p_value : float
        ``(difference + margin) / std_error`` and ``1 − Φ(z)``.
    alpha : float
    lower_bound : float
        One-sided ``1 − alpha`` lower confidence bound of the difference.
    non_inferior : bool
        ``p_value < alpha``: H0 rejected.
    """

    auc_model: float
    auc_baseline: float
    auc_difference: float
    margin: float
    std_error: float
    z: float
    p_value: float
    alpha: float
    lower_bound: float
    non_inferior: bool


def _check(margin, alpha) -> tuple[float, float]:
    m, a = float(margin), float(alpha)
    if not (math.isfinite(m) and 0.0 <= m < 1.0):
        raise ValueError(f"the margin must be an AUC difference in [0, 1), got {margin!r}")
    if not 0.0 < a < 1.0:
        raise ValueError(f"alpha must lie strictly between 0 and 1, got {alpha!r}")
    return m, a


def delong_noninferiority_test(labels, scores_model, scores_baseline, *, margin: float = 0.0,
                               alpha: float = 0.05, weights=None,
                               pos_label=None) -> NonInferiorityTest:
    """Test whether a model's AUC is not worse than a baseline's by ``margin`` or more.

    Parameters
    ----------
    labels : array-like, shape (n,)
        True class of each row, shared by both models (see
        :func:`~roc_dash.core.inference.statistics.delong_paired_test`).
    scores_model, scores_baseline : array-like of float, shape (n,)
        The two models' scores for the same rows, in the same order.
    margin : float, default 0
        Non-inferiority margin on the AUC scale, in ``[0, 1)``; 0 asks "not worse at all"
        (a one-sided superiority test).
    alpha : float, default 0.05
        One-sided significance level.
    weights : array-like, optional
        Frequency weights of the rows.
    pos_label : scalar, optional

    Returns
    -------
    NonInferiorityTest

    Raises
    ------
    ValueError
        On a bad margin or alpha, and as :func:`~roc_dash.core.inference.statistics.delong_paired_test`.

    References
    ----------
    E. R. DeLong, D. M. DeLong, D. L. Clarke-Pearson, Biometrics 44:837-845, 1988.
    J.-P. Liu et al., "Tests of equivalence and non-inferiority for diagnostic accuracy based
    on the paired areas under ROC curves", Statistics in Medicine 25:1219-1238, 2006.
    """
    m, a = _check(margin, alpha)
    paired = delong_paired_test(labels, scores_model, scores_baseline, weights=weights,
                                pos_label=pos_label)
    d, se = paired.auc_difference, paired.std_error
    shifted = d + m
    if se > 0.0:
        z = shifted / se
    else:
        z = math.copysign(math.inf, shifted) if shifted != 0.0 else 0.0
    p = float(ndtr(-z))
    lower = d - float(ndtri(1.0 - a)) * se
    return NonInferiorityTest(
        auc_model=paired.auc_a, auc_baseline=paired.auc_b, auc_difference=d, margin=m,
        std_error=se, z=float(z), p_value=p, alpha=a, lower_bound=float(lower),
        non_inferior=bool(p < a))
