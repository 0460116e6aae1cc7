"""The confusion matrix of one threshold, counted on the rows.

The rule is roc-dash's everywhere: an instance is called positive iff its score is
``>= threshold``, a score equal to the threshold counting as positive (Fawcett 2004,
section 4, Algorithm 1, line 5: "if f(i) >= t then /* This example is over threshold */";
figure 3 labels each ROC point with the threshold that
produces it, as :func:`~roc_dash.core.roc.curves.roc_curve` does). A threshold of ``+inf``
calls nothing positive.

The counts are summed over the rows themselves (weights as instance counts), not read back
from rates: ``tpr * P`` is not always the integer ``TP`` in floating point, and a decision
record promises the very counts a deployed classifier reproduces.

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, section 4; Algorithm 1; figure 3.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._validation import check_binary_inputs

__all__ = ["ConfusionCounts", "confusion_at_threshold"]


@dataclass(frozen=True)
class ConfusionCounts:
    """The (weighted) confusion matrix of "positive iff score >= threshold".

    Attributes
    ----------
    threshold : float
        ``+inf`` when nothing is called positive.
    tp, fp, fn, tn : float
        True/false positives and negatives (sums of weights; whole numbers without weights).
    """

    threshold: float
    tp: float
    fp: float
    fn: float
    tn: float

    @property
    def n_pos(self) -> float:
        return self.tp + self.fn

    @property
    def n_neg(self) -> float:
        return self.fp + self.tn

    @property
    def tpr(self) -> float:
        """``TP / P`` (NaN without positives)."""
        return self.tp / self.n_pos if self.n_pos > 0 else math.nan

    @property
    def fpr(self) -> float:
        """``FP / N`` (NaN without negatives)."""
        return self.fp / self.n_neg if self.n_neg > 0 else math.nan

    @property
    def accuracy(self) -> float:
        """``(TP + TN) / (P + N)`` on these rows (their own class mix)."""
        total = self.n_pos + self.n_neg
        return (self.tp + self.tn) / total if total > 0 else math.nan


def confusion_at_threshold(labels, scores, threshold: float, *, weights=None,
                           pos_label=None) -> ConfusionCounts:
    """Count the confusion matrix of "positive iff score >= ``threshold``".

    Parameters
    ----------
    labels, scores, weights, pos_label
        As for :func:`~roc_dash.core.roc.curves.roc_curve` (weights are instance counts).
    threshold : float
        ``None`` or ``+inf``: nothing is positive; ``-inf``: everything is.

    Returns
    -------
    ConfusionCounts

    Raises
    ------
    ValueError
        On malformed labels, scores or weights (see
        :func:`~roc_dash.core._validation.check_binary_inputs`), or a NaN threshold.
    """
    t = math.inf if threshold is None else float(threshold)
    if math.isnan(t):
        raise ValueError("the threshold must be a number (or None for +inf), not NaN")
    y, s, w = check_binary_inputs(labels, scores, weights, pos_label=pos_label)
    code = 2 * y.astype(np.intp) + (s >= t)  # 0 TN, 1 FP, 2 FN, 3 TP
    totals = np.bincount(code, weights=w, minlength=4).astype(np.float64)
    tn, fp, fn, tp = (float(v) for v in totals)
    return ConfusionCounts(threshold=t, tp=tp, fp=fp, fn=fn, tn=tn)
