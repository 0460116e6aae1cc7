"""ROC curves with example-specific costs.

Implements Fawcett (2004), "ROC Graphs: Notes and Practical Considerations for Researchers",
section 7.2 and Algorithm 6. When the cost of an error varies
from instance to instance, the axes of ROC space become fractions of cost instead of
fractions of counts:

* x: the fraction of the total cost of the negatives that the classifier calls positive
  (``FP_cost / N_total``, with ``N_total`` the sum of ``c(Y, n, x)`` over the negatives);
* y: the fraction of the total benefit of the positives that it calls positive
  (``TP_benefit / P_total``).

"Conceptually this transformation corresponds to replicating instances in the instance set
in proportion to their cost", which is exactly what instance weights do: Algorithm 6 is
Algorithm 2 with each instance counted by its cost, i.e.
:func:`~roc_dash.core.roc.curves.roc_curve` with ``weights=costs``. The tests check both that and
a line-by-line transcription of Algorithm 6.

The paper's two caveats: the transformed costs (and benefits) must all be positive, and the
analysis assumes the example costs of the deployment population resemble those of the test
set. The first is enforced here (a clear error naming the offending rows); the second is the
user's to judge.

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, section 7.2; Algorithm 6.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._validation import check_binary_inputs
from ..roc.curves import RocCurve, roc_curve

__all__ = ["check_example_costs", "cost_roc_curve", "costs_from_benefits"]

#: Offending rows listed in a message at most.
_MAX_ROWS_LISTED = 8


def _pandas_index(source, n: int):
    """The index of a pandas Series of length ``n`` (rows are named by it), else None.
    A list or tuple has an ``index`` too -- its method -- which names nothing."""
    if isinstance(source, pd.Series) and len(source.index) == n:
        return source.index
    return None


def _row_names(source, rows: np.ndarray) -> list[str]:
    """Names of positional ``rows``: the index labels of a pandas Series, else 0-based
    positions."""
    index = _pandas_index(source, np.size(source))
    if index is not None:
        return [repr(index[r]) if isinstance(index[r], str) else str(index[r]) for r in rows]
    return [str(r) for r in rows]


def check_example_costs(costs, n: int | None = None, *, name: str = "costs") -> np.ndarray:
    """Validate example-specific costs: a float64 array of positive, finite numbers.

    Fawcett (2004) section 7.2, first caveat: "ROC analysis requires that costs always be
    negative and benefits always be positive" -- in the transformed cost-benefit matrix
    (figure 9b) every cost of a negative and every benefit of a positive is a positive
    amount. A zero cost would make an instance invisible (and a class of zero total cost
    leaves the axis undefined); a negative one would make the curve run backwards.

    Parameters
    ----------
    costs : array-like of float, shape (n,)
        Cost of calling each negative positive; benefit of calling each positive positive.
        A pandas Series names offending rows by its index, anything else by 0-based
        position.
    n : int, optional
        Expected length (the number of labels and scores).
    name : str
        What to call the costs in messages.

    Returns
    -------
    ndarray of float64

    Raises
    ------
    ValueError
        On a length mismatch, or naming the rows whose cost is missing, infinite, zero or
        negative (the first few, with their values, and how many more).
    """
    try:
        c = np.asarray(costs, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be numbers: {exc}") from None
    if c.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional")
    if n is not None and c.size != n:
        raise ValueError(f"{name} ({c.size}) and scores ({n}) differ in length")
    with np.errstate(invalid="ignore"):
        bad = np.flatnonzero(~(np.isfinite(c) & (c > 0)))
    if bad.size:
        shown = bad[:_MAX_ROWS_LISTED]
        listed = ", ".join(f"{r} ({v!r})" for r, v in
                           zip(_row_names(costs, shown), c[shown].tolist(), strict=True))
        more = f" and {bad.size - shown.size} more" if bad.size > shown.size else ""
        raise ValueError(
            f"{name} must be positive and finite (Fawcett 2004, section 7.2: every cost of a "
            f"negative and every benefit of a positive is a positive amount); "
            f"{bad.size} offending row(s): {listed}{more}")
    return c


def cost_roc_curve(labels, scores, costs, *, pos_label=None) -> RocCurve:
    """ROC curve of a scoring classifier with example-specific costs.

    Fawcett (2004) section 7.2, Algorithm 6: instead of counting true and false positives
    the algorithm sums the benefit ``c(Y, p, x)`` of each positive and the cost
    ``c(Y, n, x)`` of each negative scoring at or above the threshold, and divides by the
    totals over all positives and all negatives. That is Algorithm 2 with every instance
    counted ``cost`` times, so this is :func:`~roc_dash.core.roc.curves.roc_curve` with
    ``weights=costs`` after the costs are validated: the same vertices (one per distinct
    score, ties as one diagonal segment), the same thresholds.

    Note a typo in the paper's Algorithm 6: its last line pushes
    ``(FP_cost / N, TP_benefit / P)`` "/* This is (1,1) */"; it is (1, 1) only with the
    totals ``N_total`` and ``P_total`` as denominators, as in line 16 (used here).

    Parameters
    ----------
    labels : array-like, shape (n,)
        True class (see :func:`~roc_dash.core.roc.curves.roc_curve`).
    scores : array-like of float, shape (n,)
        Classifier scores, higher meaning more likely positive.
    costs : array-like of float, shape (n,)
        Per-instance amount: for a negative the cost of calling it positive, for a positive
        the benefit of calling it positive (figure 9b's ``c(Y, n, x)`` and
        ``c(Y, p, x)``; :func:`costs_from_benefits` derives them from a benefit matrix).
        Must be positive and finite.
    pos_label : scalar, optional
        The positive label value, when the labels are not a known encoding.

    Returns
    -------
    RocCurve
        ``fpr`` is the fraction of total negative cost, ``tpr`` the fraction of total
        positive benefit at each threshold; ``n_neg`` is the total cost of the negatives
        (``N_total``) and ``n_pos`` the total benefit of the positives (``P_total``), so
        ``curve.fp`` and ``curve.tp`` are ``FP_cost`` and ``TP_benefit``.

    Raises
    ------
    ValueError
        Naming the rows whose cost is not positive and finite, or on malformed labels and
        scores (see :func:`~roc_dash.core.roc.curves.roc_curve`).

    References
    ----------
    T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", 2004,
    section 7.2; C. Elkan, "The Foundations of Cost-Sensitive Learning", IJCAI 2001.
    """
    y, s, _ = check_binary_inputs(labels, scores, pos_label=pos_label)
    c = check_example_costs(costs, s.size)
    return roc_curve(y, s, weights=c)


def costs_from_benefits(labels, benefit_yes, benefit_no, *, pos_label=None) -> np.ndarray:
    """Example-specific costs from a per-instance benefit matrix (Fawcett 2004, figure 9).

    The transformation of section 7.2: subtract the **N** (refuse) row of the benefit matrix
    from both rows, so that the baseline is "every instance called negative", then negate the
    cell of a negative called **Y** to turn it into a cost. For each instance ``x``:

    * positive: ``c(Y, p, x) = benefit_yes(x) − benefit_no(x)``, the benefit of calling it
      positive rather than negative;
    * negative: ``c(Y, n, x) = benefit_no(x) − benefit_yes(x)``, the cost of calling it
      positive rather than negative.

    In Elkan's credit-card example (Y = approve, positive = legitimate, transaction amount
    ``x``) a legitimate transaction has benefits ``0.02x`` approved and ``−$20`` refused, so
    ``c(Y, p, x) = 0.02x + $20``; a fraudulent one ``−x`` approved and ``$20`` refused, so
    ``c(Y, n, x) = $20 + x``.

    Parameters
    ----------
    labels : array-like, shape (n,)
        True class (see :func:`~roc_dash.core.roc.curves.roc_curve`).
    benefit_yes, benefit_no : array-like of float, shape (n,) (or scalars)
        Benefit of calling each instance positive (**Y**) and negative (**N**).
    pos_label : scalar, optional
        The positive label value, when the labels are not a known encoding.

    Returns
    -------
    ndarray of float64, shape (n,)
        The costs to pass to :func:`cost_roc_curve`.

    Raises
    ------
    ValueError
        Naming the rows whose derived cost is not positive and finite: the paper's first
        caveat (e.g. ``c(Y, p, x) = x − $20`` with ``x`` in ``[0, 40]`` violates it).
    """
    y = np.asarray(labels)
    n = y.shape[0] if y.ndim == 1 else -1
    y, _, _ = check_binary_inputs(y, np.zeros(max(n, 0)), pos_label=pos_label)
    yes = np.broadcast_to(np.asarray(benefit_yes, dtype=np.float64), y.shape)
    no = np.broadcast_to(np.asarray(benefit_no, dtype=np.float64), y.shape)
    gain = yes - no
    costs = np.where(y, gain, -gain)
    for source in (labels, benefit_yes, benefit_no):  # name rows by the caller's index
        index = _pandas_index(source, costs.size)
        if index is not None:
            return check_example_costs(pd.Series(costs, index=index), name="derived costs")
    return check_example_costs(costs, name="derived costs")
