"""Statistics of the area under the ROC curve: Gini, partial AUC, confidence intervals, tests.

* :func:`gini` -- the Gini coefficient ``2 AUC - 1``.
* :func:`partial_auc` / :func:`partial_auc_from_curve` -- the area over ``FPR in [0, a]`` and
  its McClish (1989) standardisation (the value scikit-learn's ``roc_auc_score(max_fpr=a)``
  returns).
* :func:`delong_variance`, :func:`auc_confidence_interval`, :func:`auc_test_vs_chance`,
  :func:`delong_paired_test` -- the nonparametric variance of DeLong, DeLong & Clarke-Pearson
  (1988), computed with the O(n log n) mid-rank algorithm of Sun & Xu (2014), and the
  Hanley & McNeil (1982) closed-form standard error; :func:`two_sided_normal_test`, the
  normal test they share.
* :func:`accuracy_at_thresholds` (re-exported from :mod:`.curves`) -- accuracy at every
  vertex of a ROC curve; the expected cost at every vertex is
  :func:`.threshold_costs.cost_at_thresholds` (Fawcett 2004, sections 3 and 7).

Weights are frequency weights throughout: every count is a sum of weights, so integer weights
give exactly the result of repeating each row that many times. For the variance formulas this
means the sample sizes ``P`` and ``N`` are the weighted class totals.

References
----------
E. R. DeLong, D. M. DeLong, D. L. Clarke-Pearson, "Comparing the areas under two or more
correlated receiver operating characteristic curves: a nonparametric approach",
Biometrics 44(3):837-845, 1988.

X. Sun, W. Xu, "Fast implementation of DeLong's algorithm for comparing the areas under
correlated receiver operating characteristic curves", IEEE Signal Processing Letters
21(11):1389-1393, 2014.

J. A. Hanley, B. J. McNeil, "The meaning and use of the area under a receiver operating
characteristic (ROC) curve", Radiology 143(1):29-36, 1982.

D. K. McClish, "Analyzing a portion of the ROC curve", Medical Decision Making 9(3):190-195,
1989.

T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", 2004.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import ndtr, ndtri

from .._validation import check_binary_inputs, check_level
from ..roc.curves import accuracy_at_thresholds, auc, gini, roc_curve  # noqa: F401 - re-exported
from .partial_auc import PartialAuc, partial_auc, partial_auc_from_curve  # noqa: F401 - re-exported

__all__ = [
    "AucInterval", "AucTest", "AucVariance", "PairedAucTest", "PartialAuc",
    "accuracy_at_thresholds", "auc_confidence_interval", "auc_test_vs_chance", "delong_paired_test",
    "delong_variance", "delong_variance_of_counts", "gini", "partial_auc", "partial_auc_from_curve",
    "two_sided_normal_test", "wald_auc_interval",
]


# --------------------------------------------------------------------------------------------
# Result types
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AucVariance:
    """The AUC with its DeLong variance.

    Attributes
    ----------
    auc : float
        The AUC (Mann-Whitney statistic, ties one half).
    variance : float
        DeLong's variance estimate ``S10 / P + S01 / N``.
    std_error : float
        ``sqrt(variance)``.
    n_pos, n_neg : float
        Weighted class totals ``P`` and ``N``.
    """

    auc: float
    variance: float
    std_error: float
    n_pos: float
    n_neg: float


@dataclass(frozen=True)
class AucInterval:
    """A two-sided normal confidence interval for the AUC.

    Attributes
    ----------
    method : str
        ``"delong"`` or ``"hanley_mcneil"``.
    level : float
        Nominal coverage, e.g. 0.95.
    auc : float
        Point estimate.
    low, high : float
        ``auc -/+ z * std_error``, clipped to ``[0, 1]``.
    std_error : float
        Standard error of the AUC under ``method``.
    """

    method: str
    level: float
    auc: float
    low: float
    high: float
    std_error: float


@dataclass(frozen=True)
class AucTest:
    """Two-sided test of ``H0: AUC = 0.5`` with the DeLong standard error."""

    auc: float
    z: float
    p_value: float


@dataclass(frozen=True)
class PairedAucTest:
    """DeLong's test of ``H0: AUC_a = AUC_b`` for two models scored on the same rows.

    Attributes
    ----------
    auc_a, auc_b : float
        The two AUCs.
    auc_difference : float
        ``auc_a - auc_b``.
    std_error : float
        Standard error of the difference, ``sqrt(Var a + Var b - 2 Cov(a, b))``.
    z, p_value : float
        ``auc_difference / std_error`` and its two-sided normal p-value.
    correlation : float
        Correlation of the two AUC estimates, ``Cov(a, b) / sqrt(Var a Var b)``; NaN when
        either variance is zero.
    """

    auc_a: float
    auc_b: float
    auc_difference: float
    std_error: float
    z: float
    p_value: float
    correlation: float


# --------------------------------------------------------------------------------------------
# DeLong structural components (Sun & Xu 2014, weighted)
# --------------------------------------------------------------------------------------------


def _placements(y: np.ndarray, s: np.ndarray, w: np.ndarray | None):
    """DeLong's structural components of every row, from one sort of the scores.

    For a positive ``x_i`` the component is ``V10_i = (1/N) sum_j w_j psi(x_i, y_j)`` and for a
    negative ``y_j`` it is ``V01_j = (1/P) sum_i w_i psi(x_i, y_j)``, with the Mann-Whitney
    kernel ``psi = 1, 1/2, 0`` for ``x > y, x = y, x < y``. Sun & Xu (2014) obtain them from
    mid-ranks: ``V10_i = (Tz_i - Tx_i) / N`` where ``Tz`` is the mid-rank in the pooled sample
    and ``Tx`` the mid-rank among positives. With weights the weighted mid-rank of a score
    ``t`` is ``W(< t) + W(= t) / 2`` (plus a constant that cancels), so the difference is the
    weight of negatives below ``t`` plus half the negatives tied with it -- read here off
    cumulative sums over the runs of equal scores of the single pooled sort.

    Returns
    -------
    v : ndarray, shape (n,)
        ``V10`` at positive rows and ``V01`` at negative rows, in the input row order.
    n_pos, n_neg : float
        Weighted class totals.
    """
    n = s.size
    if s.dtype.kind == "O":  # Python integers beyond int64: their exact ranks
        s = np.unique(s, return_inverse=True)[1]
    order = np.argsort(s)
    ss = s[order]
    ys = y[order]
    if w is None:
        wp = ys.astype(np.float64)
        wn = 1.0 - wp
    else:
        ws = w[order]
        wp = np.where(ys, ws, 0.0)
        wn = ws - wp

    new_run = np.empty(n, dtype=bool)
    new_run[0] = True
    np.not_equal(ss[1:], ss[:-1], out=new_run[1:])
    del ss
    bounds = np.append(np.flatnonzero(new_run), n)
    del new_run
    sizes = np.diff(bounds)

    cum_pos = np.empty(n + 1)
    cum_pos[0] = 0.0
    np.cumsum(wp, out=cum_pos[1:])
    cum_neg = np.empty(n + 1)
    cum_neg[0] = 0.0
    np.cumsum(wn, out=cum_neg[1:])
    del wp, wn
    n_pos = float(cum_pos[-1])
    n_neg = float(cum_neg[-1])
    if n_pos <= 0.0 or n_neg <= 0.0:
        missing = "positive" if n_pos <= 0.0 else "negative"
        raise ValueError(f"AUC undefined: no {missing} instances (or zero total weight)")

    # Per run of tied scores: weight of each class strictly below the run and inside it.
    v10_run, v01_run = _run_components(cum_pos[bounds], cum_neg[bounds], n_pos, n_neg)

    v_sorted = np.where(ys, np.repeat(v10_run, sizes), np.repeat(v01_run, sizes))
    v = np.empty(n)
    v[order] = v_sorted
    return v, n_pos, n_neg


def _run_components(cum_pos: np.ndarray, cum_neg: np.ndarray, n_pos: float, n_neg: float):
    """``(V10, V01)`` of each run of tied scores (ascending), from the weight of each class
    strictly below every run and below the last: ``cum_pos[r]`` positives below run ``r``,
    ``cum_pos[-1] == n_pos``. A positive's ``V10`` is the weight of negatives below its run
    plus half those in it, over ``N``; a negative's ``V01`` that of positives above plus half
    those in it, over ``P`` (see :func:`_placements`)."""
    pos_below, neg_below = cum_pos[:-1], cum_neg[:-1]
    pos_in = cum_pos[1:] - pos_below
    neg_in = cum_neg[1:] - neg_below
    return (neg_below + 0.5 * neg_in) / n_neg, (n_pos - pos_below - 0.5 * pos_in) / n_pos


def _mean_and_sum_squares(v: np.ndarray, w: np.ndarray | None, total: float):
    """Weighted mean of ``v`` and ``sum w (v - mean)**2``; exactly ``(c, 0)`` if ``v == c``."""
    if v.size and v.min() == v.max():
        return float(v[0]), 0.0
    if w is None:
        mean = float(v.sum() / total)
        d = v - mean
        return mean, float(np.dot(d, d))
    mean = float(np.dot(w, v) / total)
    d = v - mean
    return mean, float(np.dot(w, d * d))


def _check_frequency_totals(n_pos: float, n_neg: float) -> None:
    if n_pos <= 1.0 or n_neg <= 1.0:
        raise ValueError(
            "DeLong variance needs more than one instance of each class (weights count as "
            f"frequencies; got P = {n_pos:g}, N = {n_neg:g})"
        )


def _split(v: np.ndarray, y: np.ndarray, w: np.ndarray | None):
    return v[y], v[~y], (None if w is None else w[y]), (None if w is None else w[~y])


def _delong(y, s, w) -> AucVariance:
    v, n_pos, n_neg = _placements(y, s, w)
    _check_frequency_totals(n_pos, n_neg)
    v10, v01, w10, w01 = _split(v, y, w)
    return _delong_of(v10, v01, w10, w01, n_pos, n_neg)


def _delong_of(v10, v01, w10, w01, n_pos: float, n_neg: float) -> AucVariance:
    """DeLong's AUC and variance from the structural components and their weights."""
    auc10, ss10 = _mean_and_sum_squares(v10, w10, n_pos)
    _, ss01 = _mean_and_sum_squares(v01, w01, n_neg)
    variance = ss10 / (n_pos - 1.0) / n_pos + ss01 / (n_neg - 1.0) / n_neg
    return AucVariance(
        auc=auc10,
        variance=variance,
        std_error=math.sqrt(variance),
        n_pos=n_pos,
        n_neg=n_neg,
    )


def delong_variance_of_counts(pos, neg) -> AucVariance:
    """:func:`delong_variance` from the (weighted) positives and negatives at each distinct
    score, in ascending order of the scores: O(distinct scores), no sort.

    Every row of a run of tied scores has the same structural component (DeLong et al.
    1988; Sun & Xu 2014), so the weighted sums over rows are sums over runs weighted by the
    runs' class counts: the result is :func:`delong_variance` of the rows (up to rounding).
    These counts are what a ROC curve is built from (``roc_dash.core.roc.curves``), and what a
    query engine returns per (score, label).

    Parameters
    ----------
    pos, neg : array-like of float, shape (d,)
        Weighted positives and negatives scoring each distinct value, lowest score first.

    Returns
    -------
    AucVariance

    Raises
    ------
    ValueError
        On arrays of different lengths, negative or non-finite counts, or a class with
        total ``<= 1``.
    """
    p = np.asarray(pos, dtype=np.float64)
    q = np.asarray(neg, dtype=np.float64)
    if p.shape != q.shape or p.ndim != 1:
        raise ValueError("pos and neg must be one-dimensional and of one length")
    if not (np.isfinite(p).all() and np.isfinite(q).all() and (p >= 0).all()
            and (q >= 0).all()):
        raise ValueError("pos and neg must be finite counts, 0 or more")
    cum_pos = np.concatenate([[0.0], np.cumsum(p)])
    cum_neg = np.concatenate([[0.0], np.cumsum(q)])
    n_pos, n_neg = float(cum_pos[-1]), float(cum_neg[-1])
    _check_frequency_totals(n_pos, n_neg)
    v10, v01 = _run_components(cum_pos, cum_neg, n_pos, n_neg)
    has_pos, has_neg = p > 0, q > 0  # the components of rows that exist
    return _delong_of(v10[has_pos], v01[has_neg], p[has_pos], q[has_neg], n_pos, n_neg)


def delong_variance(labels, scores, *, weights=None, pos_label=None) -> AucVariance:
    """AUC and its nonparametric variance by DeLong et al. (1988), in O(n log n).

    With the structural components ``V10_i`` (fraction of negatives scored below positive
    ``i``, ties one half) and ``V01_j`` (fraction of positives scored above negative ``j``)::

        AUC = mean(V10) = mean(V01)
        S10 = sum (V10_i - AUC)**2 / (P - 1),   S01 = sum (V01_j - AUC)**2 / (N - 1)
        Var(AUC) = S10 / P + S01 / N

    The components come from mid-ranks as in Sun & Xu (2014), here from a single pooled sort
    and cumulative sums, never the O(P N) comparison of every pair. Weights are frequency
    weights: every sum above is weighted and ``P``, ``N`` are the weighted class totals, so
    integer weights reproduce the repeated-rows result exactly.

    Parameters
    ----------
    labels, scores, pos_label
        As in :func:`roc_dash.core.roc.curves.roc_curve`.
    weights : array-like of float, shape (n,), optional
        Non-negative frequency weights.

    Returns
    -------
    AucVariance

    Raises
    ------
    ValueError
        On malformed input, or when a class has (weighted) total ``<= 1``: the sample
        variances ``S10``, ``S01`` are then undefined.

    References
    ----------
    E. R. DeLong, D. M. DeLong, D. L. Clarke-Pearson, Biometrics 44:837-845, 1988.
    X. Sun, W. Xu, IEEE Signal Processing Letters 21(11):1389-1393, 2014.
    """
    y, s, w = check_binary_inputs(labels, scores, weights, pos_label=pos_label,
                                  integers="keep")
    return _delong(y, s, w)


def _hanley_mcneil_se(a: float, n_pos: float, n_neg: float) -> float:
    q1 = a / (2.0 - a)
    q2 = 2.0 * a * a / (1.0 + a)
    var = (a * (1.0 - a) + (n_pos - 1.0) * (q1 - a * a) + (n_neg - 1.0) * (q2 - a * a)) / (
        n_pos * n_neg
    )
    return math.sqrt(max(var, 0.0))


def _two_sided(estimate: float, null: float, std_error: float) -> tuple[float, float]:
    """``(z, p)`` of a two-sided normal test; a zero standard error gives ``z = +-inf, p = 0``
    when the estimate differs from the null value and ``z = 0, p = 1`` when it equals it."""
    diff = estimate - null
    if std_error > 0.0:
        z = diff / std_error
        return z, float(2.0 * ndtr(-abs(z)))
    if diff == 0.0:
        return 0.0, 1.0
    return math.copysign(math.inf, diff), 0.0


def two_sided_normal_test(estimate: float, null: float, std_error: float
                          ) -> tuple[float, float]:
    """``(z, p)`` of a two-sided normal (Wald) test of ``estimate == null``.

    ``z = (estimate − null) / std_error`` and ``p = 2 Φ(−|z|)``. A zero standard error gives
    ``z = ±inf, p = 0`` when the estimate differs from the null value and ``z = 0, p = 1``
    when it equals it (the rule of every test in this module).
    """
    return _two_sided(float(estimate), float(null), float(std_error))


def auc_confidence_interval(
    labels, scores, *, level: float = 0.95, method: str = "delong", weights=None,
    pos_label=None,
) -> AucInterval:
    """Normal (Wald) confidence interval for the AUC.

    ``auc -/+ z_{(1+level)/2} * SE``, clipped to ``[0, 1]`` (the AUC is a probability; near 0 or
    1 the normal interval would otherwise leave the range, so the clipped interval is
    conservative at that end, not symmetric).

    Parameters
    ----------
    labels, scores, weights, pos_label
        As in :func:`delong_variance`.
    level : float, default 0.95
        Nominal coverage, in ``(0, 1)``.
    method : {"delong", "hanley_mcneil"}
        ``"delong"``: the nonparametric variance of :func:`delong_variance` (DeLong et al.
        1988; Sun & Xu 2014). ``"hanley_mcneil"``: the closed form of Hanley & McNeil (1982),
        which assumes exponential score distributions::

            Q1 = A / (2 - A),  Q2 = 2 A**2 / (1 + A)
            SE**2 = (A (1 - A) + (P - 1)(Q1 - A**2) + (N - 1)(Q2 - A**2)) / (P N)

        with the weighted class totals ``P`` and ``N``.

    Returns
    -------
    AucInterval

    Raises
    ------
    ValueError
        On malformed input, an unknown ``method``, ``level`` outside ``(0, 1)``, or (DeLong
        only) a class with weighted total ``<= 1``.

    References
    ----------
    E. R. DeLong, D. M. DeLong, D. L. Clarke-Pearson, Biometrics 44:837-845, 1988.
    J. A. Hanley, B. J. McNeil, Radiology 143:29-36, 1982.
    """
    lvl = check_level(level)
    if method not in ("delong", "hanley_mcneil"):
        raise ValueError(f"method must be 'delong' or 'hanley_mcneil', got {method!r}")
    y, s, w = check_binary_inputs(labels, scores, weights, pos_label=pos_label,
                                  integers="keep")
    if method == "delong":
        result = _delong(y, s, w)
        a, se = result.auc, result.std_error
    else:
        curve = roc_curve(y, s, weights=w)
        a = auc(curve)
        se = _hanley_mcneil_se(a, curve.n_pos, curve.n_neg)
    return wald_auc_interval(a, se, level=lvl, method=method)


def wald_auc_interval(auc_value: float, std_error: float, *, level: float = 0.95,
                      method: str = "delong") -> AucInterval:
    """``auc -/+ z_{(1+level)/2} * std_error``, clipped to ``[0, 1]`` (see
    :func:`auc_confidence_interval`; with :func:`delong_variance_of_counts` for counts)."""
    lvl = check_level(level)
    a, se = float(auc_value), float(std_error)
    half = float(ndtri(0.5 + lvl / 2.0)) * se
    return AucInterval(method=method, level=lvl, auc=a, low=max(0.0, a - half),
                       high=min(1.0, a + half), std_error=se)


def auc_test_vs_chance(labels, scores, *, weights=None, pos_label=None) -> AucTest:
    """Two-sided test of ``H0: AUC = 0.5`` with the DeLong standard error.

    ``z = (AUC - 0.5) / SE_DeLong``, ``p = 2 (1 - Phi(|z|))``. If the standard error is zero
    (e.g. perfectly separated classes, or all scores tied) the result is ``z = +-inf, p = 0``
    when ``AUC != 0.5`` and ``z = 0, p = 1`` when ``AUC == 0.5``; never NaN.

    Parameters
    ----------
    labels, scores, weights, pos_label
        As in :func:`delong_variance`.

    Returns
    -------
    AucTest

    References
    ----------
    E. R. DeLong, D. M. DeLong, D. L. Clarke-Pearson, Biometrics 44:837-845, 1988.
    """
    y, s, w = check_binary_inputs(labels, scores, weights, pos_label=pos_label,
                                  integers="keep")
    result = _delong(y, s, w)
    z, p = _two_sided(result.auc, 0.5, result.std_error)
    return AucTest(auc=result.auc, z=z, p_value=p)


def delong_paired_test(labels, scores_a, scores_b, *, weights=None,
                       pos_label=None) -> PairedAucTest:
    """DeLong's test for the difference of two correlated AUCs (same rows, same labels).

    With the structural components ``V10`` and ``V01`` of each model (see
    :func:`delong_variance`), the covariance matrix of the two AUCs is
    ``S = S10 / P + S01 / N`` where ``S10`` and ``S01`` are the 2 x 2 sample covariance
    matrices of the components over positives and negatives (DeLong et al. 1988, eq. 5). The
    variance of ``AUC_a - AUC_b`` is ``S_aa + S_bb - 2 S_ab``, computed here directly as the
    DeLong variance of the component differences ``V_a - V_b`` (which is the same quantity and
    exactly zero for identical score vectors). ``z = diff / SE``, two-sided normal p-value;
    a zero standard error gives ``z = 0, p = 1`` if the AUCs are equal, else ``z = +-inf, p = 0``.

    Parameters
    ----------
    labels : array-like, shape (n,)
        True class of each row, shared by both models: booleans, a known two-class encoding
        or any two values with ``pos_label`` (as in :func:`delong_variance`).
    scores_a, scores_b : array-like of float, shape (n,)
        The two models' scores for the same rows, in the same order.
    weights : array-like of float, shape (n,), optional
        Non-negative frequency weights of the rows.
    pos_label : scalar, optional
        As in :func:`delong_variance`.

    Returns
    -------
    PairedAucTest

    Raises
    ------
    ValueError
        On malformed input, different lengths, or a class with weighted total ``<= 1``.

    References
    ----------
    E. R. DeLong, D. M. DeLong, D. L. Clarke-Pearson, Biometrics 44:837-845, 1988.
    X. Sun, W. Xu, IEEE Signal Processing Letters 21(11):1389-1393, 2014.
    """
    y, sa, w = check_binary_inputs(labels, scores_a, weights, pos_label=pos_label,
                                   integers="keep")
    _, sb, _ = check_binary_inputs(y, scores_b, w, integers="keep")
    va, n_pos, n_neg = _placements(y, sa, w)
    vb, _, _ = _placements(y, sb, w)
    _check_frequency_totals(n_pos, n_neg)

    va10, va01, w10, w01 = _split(va, y, w)
    vb10, vb01, _, _ = _split(vb, y, w)
    auc_a, ssa10 = _mean_and_sum_squares(va10, w10, n_pos)
    auc_b, ssb10 = _mean_and_sum_squares(vb10, w10, n_pos)
    _, ssa01 = _mean_and_sum_squares(va01, w01, n_neg)
    _, ssb01 = _mean_and_sum_squares(vb01, w01, n_neg)
    _, ssd10 = _mean_and_sum_squares(va10 - vb10, w10, n_pos)
    _, ssd01 = _mean_and_sum_squares(va01 - vb01, w01, n_neg)

    dp, dn = (n_pos - 1.0) * n_pos, (n_neg - 1.0) * n_neg
    var_a = ssa10 / dp + ssa01 / dn
    var_b = ssb10 / dp + ssb01 / dn
    var_diff = ssd10 / dp + ssd01 / dn
    std_error = math.sqrt(var_diff)
    covariance = (var_a + var_b - var_diff) / 2.0
    if var_a > 0.0 and var_b > 0.0:
        correlation = min(1.0, max(-1.0, covariance / math.sqrt(var_a * var_b)))
    else:
        correlation = math.nan
    difference = auc_a - auc_b
    z, p = _two_sided(difference, 0.0, std_error)
    return PairedAucTest(
        auc_a=auc_a,
        auc_b=auc_b,
        auc_difference=difference,
        std_error=std_error,
        z=z,
        p_value=p,
        correlation=correlation,
    )
