"""ROC analysis with soft (probabilistic) labels.

Implements Qin, "ROC analysis for predictions made by probabilistic classifiers",
sections 3-4: the true class of a row is not known for certain
but given as the probability ``p_i`` in ``[0, 1]`` that the row is positive (for example the
membership of a numeric target in an overlapping fuzzy label "high", Qin's figure 3). Each row
counts as ``p_i`` of a positive and ``1 - p_i`` of a negative:

* equation 8 -- the soft class totals ``n+ = sum_i p_i`` and ``n- = sum_i (1 - p_i)``
  (the paper prints ``n- = 1 - n+``; it is ``L - n+`` for ``L`` rows);
* the curve of section 3 -- rows ranked by decreasing score, ``TP_i = TP_{i-1} + p_i / n+``
  and ``FP_i = FP_{i-1} + (1 - p_i) / n-``;
* equations 9-12 -- its area, ``AUC = (sum_i p_i (1 - p_i) + 2 C) / (2 n+ n-)`` with
  ``C = sum_{i>j} p_j (1 - p_i)`` over the ranked rows: the probability that the positive part
  of a random row is ranked above the negative part of another, a row's own two parts counted
  as a tie (one half), so that even a perfect ranking has ``AUC < 1`` when labels overlap.

Ties are handled as in Fawcett (2004), section 4.1: one vertex per
distinct score, so a run of tied rows is one segment whatever their order and every pair of
tied rows counts one half (the mean of Qin's area over the orders of the run).

Optional weights are instance counts (integer weights equal repeated rows): a row of weight
``w`` counts as ``w p`` positives and ``w (1 - p)`` negatives.

Table format (``roc_dash/data/soft_labels_demo.csv``)::

    model,fold,id,label_prob,score
    ridge regression,1,1,0.0,67.22
    ridge regression,1,12,0.526667,113.753
    ...

``label_prob`` is ``p_i`` in ``[0, 1]`` and ``score`` the classifier's score (higher means more
likely positive; any scale). ``model`` and ``fold`` are optional groupings (one model at a
time), ``id`` identifies the instance.

References
----------
Z.-C. Qin, "ROC analysis for predictions made by probabilistic classifiers", Proceedings of the
Fourth International Conference on Machine Learning and Cybernetics, Guangzhou, 2005, sections 3-4.

T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, section 4.1 (Equally scored instances).

E. R. DeLong, D. M. DeLong, D. L. Clarke-Pearson, Biometrics 44(3):837-845, 1988.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy.special import ndtri

from .._validation import as_scores, check_level, check_weights
from ..inference.statistics import (
    AucInterval,
    AucVariance,
    auc_confidence_interval,
    delong_variance,
)
from ..roc.curves import RocCurve, auc, roc_curve

__all__ = [
    "soft_roc_curve", "soft_roc_auc", "soft_auc_variance", "soft_auc_interval", "soft_class_totals",
]

#: Offending rows listed in a message at most.
_MAX_LISTED = 5


# --------------------------------------------------------------------------------------------
# Input checks
# --------------------------------------------------------------------------------------------


def _rows_listing(rows: np.ndarray, values) -> str:
    shown = ", ".join(f"{int(r)} ({v!r})" for r, v in zip(rows[:_MAX_LISTED],
                                                          values[:_MAX_LISTED], strict=False))
    if rows.size > _MAX_LISTED:
        shown += ", ..."
    return shown


def _as_probabilities(label_probs) -> np.ndarray:
    """Soft labels as float64; a ValueError names the first rows that are not in [0, 1]."""
    raw = label_probs.to_numpy() if isinstance(label_probs, pd.Series) else label_probs
    try:
        p = np.asarray(raw, dtype=np.float64)
    except (TypeError, ValueError):
        objects = np.asarray(raw, dtype=object)
        if objects.ndim != 1:
            raise ValueError("soft labels must be one-dimensional") from None
        p = pd.to_numeric(pd.Series(objects), errors="coerce").to_numpy(dtype=np.float64)
        bad = np.flatnonzero(np.isnan(p) & pd.notna(objects))
        if bad.size:
            raise ValueError(
                f"soft labels must be numbers in [0, 1]: {bad.size:,} rows are not numbers, "
                f"the first rows {_rows_listing(bad, objects[bad].tolist())}"
            ) from None
    if p.ndim != 1:
        raise ValueError("soft labels must be one-dimensional")
    bad = np.flatnonzero(~((p >= 0.0) & (p <= 1.0)))  # NaN fails both tests
    if bad.size:
        raise ValueError(
            f"soft labels must be probabilities in [0, 1] (NaN is not): {bad.size:,} rows are "
            f"not, the first rows {_rows_listing(bad, p[bad].tolist())}"
        )
    return p


def _check_soft_inputs(label_probs, scores, weights):
    """Return ``(p, s, w, n_pos, n_neg)``: float64 arrays (``w`` may be None) and soft totals.

    Raises
    ------
    ValueError
        On arrays of different lengths, empty input, soft labels outside ``[0, 1]`` or NaN
        (the first offending rows and values are named), non-finite scores, negative or
        non-finite weights, or no positive mass (``n+ = 0``) or no negative mass (``n- = 0``).
    """
    p = _as_probabilities(label_probs)
    s = as_scores(scores)
    if s.ndim != 1:
        raise ValueError("scores must be one-dimensional")
    if p.shape != s.shape:
        raise ValueError(f"soft labels ({p.size}) and scores ({s.size}) differ in length")
    if s.size == 0:
        raise ValueError("no instances: soft labels and scores are empty")
    if not np.isfinite(s).all():
        bad = np.flatnonzero(~np.isfinite(s))
        raise ValueError(
            f"scores must be finite (no NaN or infinity): {bad.size:,} rows are not, the "
            f"first rows {_rows_listing(bad, s[bad].tolist())}"
        )
    w = check_weights(weights, s.size)
    n_pos, n_neg = _totals(p, w)
    if n_pos <= 0.0 or n_neg <= 0.0:
        which, zero = ("positive", "0") if n_pos <= 0.0 else ("negative", "1")
        raise ValueError(
            f"ROC curve undefined: no {which} mass (n{'+' if which == 'positive' else '-'} = 0: "
            f"every soft label with non-zero weight is {zero})"
        )
    return p, s, w, n_pos, n_neg


def _totals(p: np.ndarray, w: np.ndarray | None) -> tuple[float, float]:
    if w is None:
        n_pos = float(p.sum())
        return n_pos, float((1.0 - p).sum())
    return float(np.dot(w, p)), float(np.dot(w, 1.0 - p))


def _all_hard(p: np.ndarray) -> bool:
    return bool(((p == 0.0) | (p == 1.0)).all())


# --------------------------------------------------------------------------------------------
# Curve and area
# --------------------------------------------------------------------------------------------


def soft_class_totals(label_probs, *, weights=None) -> tuple[float, float]:
    """The soft class totals ``(n+, n-)`` of Qin's equation 8.

    ``n+ = sum_i w_i p_i`` and ``n- = sum_i w_i (1 - p_i)`` (``w_i = 1`` without weights).

    Parameters
    ----------
    label_probs : array-like of float, shape (n,)
        Probability ``p_i`` in ``[0, 1]`` that row ``i`` is positive.
    weights : array-like of float, shape (n,), optional
        Non-negative instance weights.

    Returns
    -------
    (float, float)
    """
    p = _as_probabilities(label_probs)
    return _totals(p, check_weights(weights, p.size, "soft labels"))


def _curve_checked(p, s, w) -> RocCurve:
    if _all_hard(p):
        return roc_curve(p == 1.0, s, weights=w)
    n = p.size
    pos = p if w is None else w * p
    neg = 1.0 - p if w is None else w * (1.0 - p)
    labels = np.zeros(2 * n, dtype=bool)
    labels[:n] = True
    return roc_curve(labels, np.concatenate((s, s)), weights=np.concatenate((pos, neg)))


def soft_roc_curve(label_probs, scores, *, weights=None) -> RocCurve:
    """ROC curve of scores against soft labels (Qin, section 3 and equation 8).

    Qin's construction ranks the rows by decreasing score and steps by ``p_i / n+`` up and
    ``(1 - p_i) / n-`` right for each row. At a threshold ``t`` the vertex is therefore::

        TPR(t) = sum_{s_i >= t} w_i p_i / n+,   FPR(t) = sum_{s_i >= t} w_i (1 - p_i) / n-

    which is exactly the weighted ROC curve of twice the rows: every row becomes a positive of
    weight ``w p`` and a negative of weight ``w (1 - p)`` at the same score. It is computed that
    way, by :func:`roc_dash.core.roc.curves.roc_curve` (Fawcett 2004, Algorithm 2: one sort,
    cumulative sums, one vertex per distinct score, so ties give the single diagonal segment
    of section 4.1 instead of Qin's order-dependent steps). Hard labels (every ``p`` is 0 or
    1) go straight to :func:`roc_curve` with the boolean labels ``p == 1`` and give its result
    bit for bit. ``n_pos`` and ``n_neg`` of the result are the soft totals ``n+`` and ``n-``.

    Parameters
    ----------
    label_probs : array-like of float, shape (n,)
        Probability ``p_i`` in ``[0, 1]`` that row ``i`` is positive (booleans and 0/1 work).
    scores : array-like of float, shape (n,)
        Classifier scores; higher means more likely positive. Must be finite.
    weights : array-like of float, shape (n,), optional
        Non-negative instance weights (counts).

    Returns
    -------
    RocCurve
        ``fpr``, ``tpr``, ``thresholds`` (``+inf`` first, then the distinct scores
        descending), ``n_pos = n+``, ``n_neg = n-``.

    Raises
    ------
    ValueError
        If a soft label is outside ``[0, 1]`` or NaN (the message names the first offending
        rows and their values), if ``n+ = 0`` or ``n- = 0`` (the curve is undefined), or on
        malformed scores or weights.

    References
    ----------
    Z.-C. Qin, "ROC analysis for predictions made by probabilistic classifiers", 2005, s. 3.
    T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", 2004, s. 4.
    """
    p, s, w, _, _ = _check_soft_inputs(label_probs, scores, weights)
    return _curve_checked(p, s, w)


def soft_roc_auc(label_probs, scores, *, weights=None) -> float:
    """Area under the soft-label ROC curve (Qin, equations 9-12).

    With distinct scores ranked in decreasing order, Qin's equation 11::

        AUC = (sum_i p_i (1 - p_i) + 2 C) / (2 n+ n-),   C = sum_{i=2}^{L} sum_{j<i} p_j (1 - p_i)

    the probability that the positive part of one row is ranked above the negative part of
    another, weighted by the parts' masses, a row's own two parts counting as a tie (one half:
    the ``p_i (1 - p_i)`` term). Computed by trapezoids on :func:`soft_roc_curve` (Fawcett
    2004, Algorithm 3); tied rows count one half against each other (Fawcett section 4.1),
    the average of equation 11 over the orders of the tied run. On Qin's Table 2 (labels
    0.8, 0.6, 0.4, 0.2, 0 in ranked order) this gives 5/6; his exchanges give 4/5, 11/15, 2/3.
    Hard labels give :func:`roc_dash.core.roc.curves.roc_auc` bit for bit.

    Parameters
    ----------
    label_probs, scores, weights
        As in :func:`soft_roc_curve`.

    Returns
    -------
    float
        In ``[0, 1]``; below 1 even for a perfect ranking when some ``p`` is fractional.

    References
    ----------
    Z.-C. Qin, "ROC analysis for predictions made by probabilistic classifiers", 2005, s. 4.
    """
    return auc(soft_roc_curve(label_probs, scores, weights=weights))


# --------------------------------------------------------------------------------------------
# Variance and interval
# --------------------------------------------------------------------------------------------


def _soft_components(p, s, w, n_pos, n_neg):
    """Generalised DeLong placements, in score order, from one sort.

    ``v10`` of a row: the share of the negative mass ranked below it, ties (its own negative
    part included) one half; ``v01``: the share of the positive mass ranked above it, ties one
    half. Returns ``(p, w, v10, v01, a)`` in score order: the labels, the weights (None when
    unweighted), the two placements and the positive masses ``a = w p``.
    """
    n = s.size
    order = np.argsort(s, kind="stable")
    ss = s[order]
    ps = p[order]
    ws = None if w is None else w[order]
    pos = ps if ws is None else ws * ps
    neg = 1.0 - ps if ws is None else ws * (1.0 - ps)
    start = np.empty(n, dtype=bool)
    start[0] = True
    np.not_equal(ss[1:], ss[:-1], out=start[1:])
    bounds = np.append(np.flatnonzero(start), n)
    sizes = np.diff(bounds)
    cum_pos = np.concatenate(([0.0], np.cumsum(pos)))
    cum_neg = np.concatenate(([0.0], np.cumsum(neg)))
    neg_below = cum_neg[bounds[:-1]]
    neg_in = cum_neg[bounds[1:]] - neg_below
    pos_in = cum_pos[bounds[1:]] - cum_pos[bounds[:-1]]
    pos_above = cum_pos[-1] - cum_pos[bounds[1:]]
    v10 = np.repeat((neg_below + 0.5 * neg_in) / n_neg, sizes)
    v01 = np.repeat((pos_above + 0.5 * pos_in) / n_pos, sizes)
    return ps, ws, v10, v01, pos


def _soft_variance(p, s, w, n_pos, n_neg) -> AucVariance:
    if n_pos <= 1.0 or n_neg <= 1.0:
        raise ValueError(
            "the AUC variance needs a soft total above one in each class (weights count as "
            f"frequencies; got n+ = {n_pos:g}, n- = {n_neg:g})"
        )
    ps, ws, v10, v01, pos = _soft_components(p, s, w, n_pos, n_neg)
    theta = float(np.dot(pos, v10) / n_pos)
    psi = ps * (v10 - theta) / math.sqrt(n_pos * (n_pos - 1.0))
    psi += (1.0 - ps) * (v01 - theta) / math.sqrt(n_neg * (n_neg - 1.0))
    variance = float(np.dot(psi, psi) if ws is None else np.dot(ws, psi * psi))
    return AucVariance(auc=theta, variance=variance, std_error=math.sqrt(variance),
                       n_pos=n_pos, n_neg=n_neg)


def soft_auc_variance(label_probs, scores, *, weights=None) -> AucVariance:
    """The soft-label AUC with a DeLong-type variance generalised to fractional labels.

    Hard labels (every ``p`` is 0 or 1): DeLong et al. (1988),
    :func:`roc_dash.core.inference.statistics.delong_variance`, exactly.

    Fractional labels: DeLong's structural components generalised to rows carrying both a
    positive mass ``a_i = w_i p_i`` and a negative mass ``b_i = w_i (1 - p_i)``. With the
    placements (ties, a row's own parts included, one half)::

        V10_i = share of the negative mass ranked below row i
        V01_i = share of the positive mass ranked above row i
        AUC   = sum_i a_i V10_i / n+ = sum_i b_i V01_i / n-

    the estimate is the ratio of a V-statistic of order two over i.i.d. rows ``(s_i, p_i)``
    (kernel ``a_i b_j psi(s_i, s_j)``) to the product of the totals ``n+ n-``; its influence
    function (delta method on the Hoeffding projection) is, per unit row,
    ``p_i (V10_i - AUC) / (n+/W) + (1 - p_i)(V01_i - AUC) / (n-/W)`` with ``W = sum w``
    (Qin's self-pair term ``p_i (1 - p_i) / 2`` biases the estimate by O(1/n) only, small
    against its O(1/sqrt(n)) error). A row's positive and negative parts move together: the
    variance is the sum of squares of the *combined* contributions, with a cross term
    ``2 p_i (1 - p_i)(V10_i - AUC)(V01_i - AUC)`` that is usually negative (a high-scoring row
    has ``V10 > AUC`` and ``V01 < AUC``). DeLong's small-sample factors ``P / (P - 1)`` and
    ``N / (N - 1)`` are kept on each part, so that::

        psi_i = p_i (V10_i - AUC) / sqrt(n+ (n+ - 1)) + (1 - p_i)(V01_i - AUC) / sqrt(n- (n- - 1))
        Var(AUC) = sum_i w_i psi_i**2

    which is DeLong's ``S10 / P + S01 / N`` when every ``p`` is 0 or 1, and the delta-method
    variance asymptotically. Treating the two parts of every row as separate frequency-weighted
    rows of the binary DeLong formula would instead use ``p_i`` for ``p_i**2`` and drop the
    cross term, overstating the standard error (by about a third in the simulation test,
    making the interval conservative). A simulation test (binormal latent variable, probit
    soft labels, exact AUC by a trivariate normal orthant probability) checks coverage near
    nominal and the standard error against the spread of the estimates.

    Parameters
    ----------
    label_probs, scores, weights
        As in :func:`soft_roc_curve`; weights are frequency weights.

    Returns
    -------
    AucVariance
        ``auc``, ``variance``, ``std_error``, ``n_pos = n+``, ``n_neg = n-``.

    Raises
    ------
    ValueError
        As :func:`soft_roc_curve`, and when ``n+ <= 1`` or ``n- <= 1``.

    References
    ----------
    E. R. DeLong, D. M. DeLong, D. L. Clarke-Pearson, Biometrics 44:837-845, 1988.
    Z.-C. Qin, "ROC analysis for predictions made by probabilistic classifiers", 2005.
    """
    p, s, w, n_pos, n_neg = _check_soft_inputs(label_probs, scores, weights)
    if _all_hard(p):
        return delong_variance(p == 1.0, s, weights=w)
    return _soft_variance(p, s, w, n_pos, n_neg)


def soft_auc_interval(label_probs, scores, *, level: float = 0.95,
                      weights=None) -> AucInterval:
    """Normal confidence interval for the soft-label AUC.

    Defined for hard and fractional labels alike:

    * every ``p`` is 0 or 1: DeLong's interval,
      :func:`roc_dash.core.inference.statistics.auc_confidence_interval` (``method="delong"``), bit for
      bit;
    * otherwise ``auc -/+ z_{(1+level)/2} SE`` with the generalised DeLong standard error of
      :func:`soft_auc_variance` (``method="soft_delong"``), clipped to ``[0, 1]``. Why this
      variance and not the binary one on doubled rows is explained there; it assumes the rows
      are an i.i.d. sample and the labels ``p`` are fixed properties of the rows (not
      estimates with their own error).

    Parameters
    ----------
    label_probs, scores, weights
        As in :func:`soft_roc_curve`; weights are frequency weights.
    level : float, default 0.95
        Nominal coverage, in ``(0, 1)``.

    Returns
    -------
    AucInterval
        ``method`` is ``"delong"`` for hard labels and ``"soft_delong"`` otherwise.

    Raises
    ------
    ValueError
        As :func:`soft_auc_variance`, and for ``level`` outside ``(0, 1)``.

    References
    ----------
    E. R. DeLong, D. M. DeLong, D. L. Clarke-Pearson, Biometrics 44:837-845, 1988.
    """
    lvl = check_level(level)
    p, s, w, n_pos, n_neg = _check_soft_inputs(label_probs, scores, weights)
    if _all_hard(p):
        return auc_confidence_interval(p == 1.0, s, level=lvl, method="delong", weights=w)
    result = _soft_variance(p, s, w, n_pos, n_neg)
    a, se = result.auc, result.std_error
    half = float(ndtri(0.5 + lvl / 2.0)) * se
    return AucInterval(method="soft_delong", level=lvl, auc=a, low=max(0.0, a - half),
                       high=min(1.0, a + half), std_error=se)
