"""ROC points and the area under them.

Implements Fawcett (2004), "ROC Graphs: Notes and Practical Considerations for Researchers"
(``../shared/papers/000_*``):

* section 4, Algorithm 2 -- ROC points from one sort of the scores, one point per distinct
  score, so that a run of tied scores yields the single diagonal segment of section 4.1
  (the expected performance, halfway between the optimistic and pessimistic orderings);
* section 5, Algorithm 3 -- the area under the curve by trapezoids, which equals the
  Mann-Whitney statistic with ties counted one half.

Weights are instance counts (or example-specific costs, section 7.2): every count below is a
sum of weights, so an aggregated input (score histograms, leaf counts) and the raw rows it
summarises give the same curve.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validation import check_binary_inputs

__all__ = ["RocCurve", "OperatingPoint", "roc_curve", "roc_auc", "auc", "best_accuracy"]


@dataclass(frozen=True, eq=False)
class RocCurve:
    """The vertices of an empirical ROC curve, from (0, 0) to (1, 1).

    Attributes
    ----------
    fpr, tpr : ndarray of float64
        False and true positive rates of each vertex, non-decreasing.
    thresholds : ndarray of float64
        ``thresholds[k]`` is the score threshold of vertex ``k``: an instance is called
        positive when its score is ``>= thresholds[k]``. ``thresholds[0]`` is ``+inf``
        (nothing is called positive); the last is the smallest score (everything is).
    n_pos, n_neg : float
        Total (weighted) positives P and negatives N.
    """

    fpr: np.ndarray
    tpr: np.ndarray
    thresholds: np.ndarray
    n_pos: float
    n_neg: float

    @property
    def tp(self) -> np.ndarray:
        """(Weighted) true positives at each vertex, ``tpr * P``."""
        return self.tpr * self.n_pos

    @property
    def fp(self) -> np.ndarray:
        """(Weighted) false positives at each vertex, ``fpr * N``."""
        return self.fpr * self.n_neg

    def __len__(self) -> int:
        return int(self.fpr.size)


@dataclass(frozen=True)
class OperatingPoint:
    """One vertex of a ROC curve with the threshold that produces it."""

    index: int
    fpr: float
    tpr: float
    threshold: float
    value: float
    """The criterion that selected the point (accuracy for :func:`best_accuracy`)."""


def _unique_sorted(a: np.ndarray) -> np.ndarray:
    """Distinct values of an ascending array, in O(n)."""
    if a.size == 0:
        return a
    keep = np.empty(a.size, dtype=bool)
    keep[0] = True
    np.not_equal(a[1:], a[:-1], out=keep[1:])
    return a[keep]


def _sorted_class(scores: np.ndarray, weights: np.ndarray | None):
    """Sort one class's scores; return ``(sorted_scores, prefix_weights_or_None, total)``."""
    if weights is None:
        scores.sort()
        return scores, None, float(scores.size)
    order = np.argsort(scores, kind="stable")
    prefix = np.empty(order.size + 1)
    prefix[0] = 0.0
    np.cumsum(weights[order], out=prefix[1:])
    return scores[order], prefix, float(prefix[-1])


def _count_at_or_above(sorted_scores, prefix, total, thresholds_desc):
    """Weighted number of scores ``>= t`` for every ``t`` in ``thresholds_desc``."""
    below = np.searchsorted(sorted_scores, thresholds_desc[::-1], side="left")[::-1]
    if prefix is None:
        return total - below
    return total - prefix[below]


def roc_curve(labels, scores, *, weights=None) -> RocCurve:
    """Compute the ROC curve of a scoring classifier.

    Fawcett (2004) section 4, Algorithm 2, vectorised: each class's scores are sorted once,
    the distinct scores of both classes become the thresholds, and the (weighted) counts of
    positives and negatives scoring at or above each threshold are read off the sorted arrays.
    Exactly one vertex is emitted per distinct score, so a run of equally scored instances
    of both classes produces one diagonal segment (section 4.1) whatever their order.

    Parameters
    ----------
    labels : array-like of bool, shape (n,)
        True class, ``True`` for positive.
    scores : array-like of float, shape (n,)
        Classifier scores; higher means more likely positive. Must be finite.
    weights : array-like of float, shape (n,), optional
        Non-negative instance weights (counts or example-specific costs, section 7.2).

    Returns
    -------
    RocCurve
        ``fpr``, ``tpr`` and ``thresholds`` with one entry per distinct score plus the
        origin (threshold ``+inf``).

    Raises
    ------
    ValueError
        If either class is absent or has zero total weight (the ROC curve is undefined),
        or on malformed input.

    References
    ----------
    T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", 2004.
    """
    y, s, w = check_binary_inputs(labels, scores, weights)
    pos, prefix_pos, n_pos = _sorted_class(s[y], None if w is None else w[y])
    neg, prefix_neg, n_neg = _sorted_class(s[~y], None if w is None else w[~y])
    if n_pos <= 0 or n_neg <= 0:
        missing = "positive" if n_pos <= 0 else "negative"
        raise ValueError(f"ROC curve undefined: no {missing} instances (or zero total weight)")

    # Distinct scores of both classes, descending. Concatenating two ascending runs and
    # sorting with the (tim)sort of kind="stable" is a linear merge.
    merged = np.concatenate((_unique_sorted(pos), _unique_sorted(neg)))
    merged.sort(kind="stable")
    thresholds = _unique_sorted(merged)[::-1]
    del merged

    tp = _count_at_or_above(pos, prefix_pos, n_pos, thresholds)
    fp = _count_at_or_above(neg, prefix_neg, n_neg, thresholds)
    del pos, neg

    fpr = np.empty(thresholds.size + 1)
    tpr = np.empty(thresholds.size + 1)
    fpr[0] = tpr[0] = 0.0
    np.divide(fp, n_neg, out=fpr[1:])
    np.divide(tp, n_pos, out=tpr[1:])
    # Guard the end point against rounding in weighted sums.
    fpr[-1] = tpr[-1] = 1.0
    return RocCurve(
        fpr=fpr,
        tpr=tpr,
        thresholds=np.concatenate(([np.inf], thresholds)),
        n_pos=n_pos,
        n_neg=n_neg,
    )


def auc(curve: RocCurve) -> float:
    """Area under a ROC curve by trapezoids (Fawcett 2004, section 5, Algorithm 3)."""
    dx = np.diff(curve.fpr)
    return float(np.dot(dx, curve.tpr[1:] + curve.tpr[:-1]) / 2.0)


def roc_auc(labels, scores, *, weights=None) -> float:
    """Area under the ROC curve of ``scores`` against ``labels``.

    Equal to the probability that a random positive is scored above a random negative,
    ties counted one half (the Mann-Whitney / Wilcoxon statistic; Fawcett 2004, section 5).
    See :func:`roc_curve` for the parameters.
    """
    return auc(roc_curve(labels, scores, weights=weights))


def best_accuracy(curve: RocCurve) -> OperatingPoint:
    """The vertex of highest accuracy ``(TP + N - FP) / (P + N)`` on the test set.

    Fawcett (2004) section 3: on the 20 instances of figure 3 this is (0.1, 0.5), threshold
    0.54, accuracy 70 %. Ties between vertices go to the most conservative one.
    """
    accuracy = (curve.tp + curve.n_neg - curve.fp) / (curve.n_pos + curve.n_neg)
    k = int(np.argmax(accuracy))
    return OperatingPoint(
        index=k,
        fpr=float(curve.fpr[k]),
        tpr=float(curve.tpr[k]),
        threshold=float(curve.thresholds[k]),
        value=float(accuracy[k]),
    )


def accuracy_at_threshold(labels, scores, threshold: float, *, weights=None) -> float:
    """Accuracy of the rule "positive iff score >= threshold" (used for Fawcett figure 4)."""
    y, s, w = check_binary_inputs(labels, scores, weights)
    correct = (s >= threshold) == y
    if w is None:
        return float(correct.mean())
    return float(w[correct].sum() / w.sum())
