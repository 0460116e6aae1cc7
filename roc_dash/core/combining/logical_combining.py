"""Logical combinations of two classifiers (Fawcett 2004, section 7.4.3).

Fawcett (2004), "ROC Graphs: Notes and Practical Considerations for Researchers":
the AND and OR of two classifiers, their bounding rectangles
and their positions under conditional independence (:func:`logical_combination`), and the
actual positions when both models scored the same rows (:func:`combine_thresholded`), read
with :func:`decision_point` (the ROC point of boolean decisions on labelled rows, section 2).

Section 7.4.5's warning applies to everything here: choosing or combining classifiers on a
test set is part of training; validate the combination on held-out data.

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, section 7.4.3 (Logically combining classifiers).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validation import check_binary_inputs

__all__ = [
    "decision_point", "LogicalCombination", "ActualCombination", "logical_combination",
    "combine_thresholded",
]


def _decision_rates(y: np.ndarray, decisions: np.ndarray, w: np.ndarray | None):
    """``(FPR, TPR, P, N)`` of boolean ``decisions`` (rows of many classifiers allowed:
    shape (n,) or (n, m))."""
    d = decisions.reshape(y.size, -1)
    if w is None:
        n_pos = float(np.count_nonzero(y))
        n_neg = float(y.size) - n_pos
        tp = np.count_nonzero(d & y[:, None], axis=0).astype(np.float64)
        fp = np.count_nonzero(d & ~y[:, None], axis=0).astype(np.float64)
    else:
        wp, wn = np.where(y, w, 0.0), np.where(y, 0.0, w)
        n_pos, n_neg = float(wp.sum()), float(wn.sum())
        tp, fp = wp @ d, wn @ d
    if n_pos <= 0 or n_neg <= 0:
        raise ValueError("ROC point undefined: no positive or no negative instances "
                         "(or zero total weight)")
    shape = decisions.shape[1:]
    return (np.reshape(fp / n_neg, shape), np.reshape(tp / n_pos, shape), n_pos, n_neg)


def decision_point(labels, decisions, *, weights=None, pos_label=None) -> tuple[float, float]:
    """``(FPR, TPR)`` of a discrete classifier from its boolean decisions on labelled rows.

    Fawcett (2004) section 2: a discrete classifier is one point in ROC space. Used to
    check the combinations of section 7.4 on data.

    Parameters
    ----------
    labels : array-like, shape (n,)
        True class (see :func:`~roc_dash.core.roc.curves.roc_curve`).
    decisions : array-like of bool, shape (n,)
        True where the classifier says positive (**Y**).
    weights : array-like of float, shape (n,), optional
        Non-negative instance weights.
    pos_label : scalar, optional
        The positive label value, when the labels are not a known encoding.
    """
    d = np.asarray(decisions, dtype=bool)
    y, _, w = check_binary_inputs(labels, np.zeros(d.shape[0] if d.ndim else 0), weights,
                                  pos_label=pos_label)
    if d.shape != y.shape:
        raise ValueError(f"decisions ({d.size}) and labels ({y.size}) differ in length")
    fpr, tpr, _, _ = _decision_rates(y, d, w)
    return float(fpr), float(tpr)


@dataclass(frozen=True, eq=False)
class LogicalCombination:
    """Where ``c1 AND c2`` and ``c1 OR c2`` lie in ROC space (Fawcett 2004 section 7.4.3).

    Every field is a float, or an array when the inputs were arrays (broadcast).

    Attributes
    ----------
    fpr_1, tpr_1, fpr_2, tpr_2
        The two classifiers.
    and_fpr, and_tpr
        Expected position of the conjunction under conditional independence (independent
        decisions within each class): ``(FPR1·FPR2, TPR1·TPR2)``.
    or_fpr, or_tpr
        Expected position of the disjunction: ``1 − (1 − FPR1)(1 − FPR2)``, likewise TPR.
    and_fpr_low, and_fpr_high, and_tpr_low, and_tpr_high
        Bounding rectangle of the conjunction, whatever the dependence.
    or_fpr_low, or_fpr_high, or_tpr_low, or_tpr_high
        Bounding rectangle of the disjunction.
    """

    fpr_1: np.ndarray | float
    tpr_1: np.ndarray | float
    fpr_2: np.ndarray | float
    tpr_2: np.ndarray | float
    and_fpr: np.ndarray | float
    and_tpr: np.ndarray | float
    or_fpr: np.ndarray | float
    or_tpr: np.ndarray | float
    and_fpr_low: np.ndarray | float
    and_fpr_high: np.ndarray | float
    and_tpr_low: np.ndarray | float
    and_tpr_high: np.ndarray | float
    or_fpr_low: np.ndarray | float
    or_fpr_high: np.ndarray | float
    or_tpr_low: np.ndarray | float
    or_tpr_high: np.ndarray | float


def _out(a):
    return float(a) if np.ndim(a) == 0 else a


def logical_combination(fpr_1, tpr_1, fpr_2, tpr_2, *,
                        bounds: str = "tight") -> LogicalCombination:
    """Bounding rectangles and expected positions of the AND and OR of two classifiers.

    Fawcett (2004) section 7.4.3. For ``c3 = c1 ∧ c2`` a positive is a true positive of c3
    only if it is one of both, so ``TPR3 <= min(TPR1, TPR2)``; assuming the two classifiers
    decide independently within each class, ``TPR3 ≈ TPR1·TPR2`` and ``FPR3 ≈ FPR1·FPR2``.
    For ``c4 = c1 ∨ c2``: ``max(TPR1, TPR2) <= TPR4 <= min(1, TPR1 + TPR2)`` and
    ``TPR4 ≈ 1 − (1 − TPR1)(1 − TPR2)``, likewise FPR. Both expected points lie outside
    the convex hull of c1 and c2: logical combinations can beat interpolation.

    Parameters
    ----------
    fpr_1, tpr_1, fpr_2, tpr_2 : float or array-like
        The two classifiers' ROC points (arrays broadcast: many pairs at once).
    bounds : {"tight", "paper"}
        ``"tight"`` (default): the conjunction's lower bounds are
        ``max(0, TPR1 + TPR2 − 1)`` (and likewise FPR), the Fréchet bounds, by the same
        argument as the paper's upper bound of the disjunction; ``"paper"``: 0, as printed
        in section 7.4.3. They coincide when the two rates sum to at most 1, and the tight
        rectangle lies inside the paper's.

    Returns
    -------
    LogicalCombination
    """
    if bounds not in ("tight", "paper"):
        raise ValueError("bounds must be 'tight' or 'paper'")
    f1, t1, f2, t2 = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64)
                                           for v in (fpr_1, tpr_1, fpr_2, tpr_2)))
    for v in (f1, t1, f2, t2):
        if not ((v >= 0) & (v <= 1)).all():
            raise ValueError("ROC rates must lie in [0, 1]")

    def low_and(a, b):
        return np.maximum(0.0, a + b - 1.0) if bounds == "tight" else np.zeros_like(a)

    return LogicalCombination(
        fpr_1=_out(f1), tpr_1=_out(t1), fpr_2=_out(f2), tpr_2=_out(t2),
        and_fpr=_out(f1 * f2), and_tpr=_out(t1 * t2),
        or_fpr=_out(1.0 - (1.0 - f1) * (1.0 - f2)), or_tpr=_out(1.0 - (1.0 - t1) * (1.0 - t2)),
        and_fpr_low=_out(low_and(f1, f2)), and_fpr_high=_out(np.minimum(f1, f2)),
        and_tpr_low=_out(low_and(t1, t2)), and_tpr_high=_out(np.minimum(t1, t2)),
        or_fpr_low=_out(np.maximum(f1, f2)), or_fpr_high=_out(np.minimum(1.0, f1 + f2)),
        or_tpr_low=_out(np.maximum(t1, t2)), or_tpr_high=_out(np.minimum(1.0, t1 + t2)),
    )


@dataclass(frozen=True)
class ActualCombination:
    """Actual ROC positions of two thresholded models and of their AND and OR on data.

    Attributes
    ----------
    fpr_a, tpr_a, fpr_b, tpr_b : float
        Each model alone ("positive iff score >= its threshold").
    and_fpr, and_tpr, or_fpr, or_tpr : float
        The conjunction and disjunction, counted on the rows.
    expected : LogicalCombination
        Bounds and positions under conditional independence, from the two single points
        (section 7.4.3), to compare with the actual ones.
    n_pos, n_neg : float
        Total (weighted) positives and negatives.
    """

    fpr_a: float
    tpr_a: float
    fpr_b: float
    tpr_b: float
    and_fpr: float
    and_tpr: float
    or_fpr: float
    or_tpr: float
    expected: LogicalCombination
    n_pos: float
    n_neg: float


def combine_thresholded(labels, scores_a, scores_b, threshold_a: float, threshold_b: float, *,
                        weights=None, pos_label=None, bounds: str = "tight"
                        ) -> ActualCombination:
    """The AND and OR of two thresholded models, counted on rows both models scored.

    Fawcett (2004) section 7.4.3 gives where the combinations are expected under
    independence; interactions between the classifiers (shared errors) move them, and this
    measures where they actually are. Classifier a says positive iff
    ``scores_a >= threshold_a``, likewise b.

    Parameters
    ----------
    labels : array-like, shape (n,)
        True class (see :func:`~roc_dash.core.roc.curves.roc_curve`).
    scores_a, scores_b : array-like of float, shape (n,)
        The two models' scores of the same rows.
    threshold_a, threshold_b : float
        Their thresholds.
    weights : array-like of float, shape (n,), optional
        Non-negative instance weights.
    pos_label : scalar, optional
        The positive label value, when the labels are not a known encoding.
    bounds : {"tight", "paper"}
        Bounds of the ``expected`` rectangles (see :func:`logical_combination`).

    Returns
    -------
    ActualCombination
    """
    y, sa, w = check_binary_inputs(labels, scores_a, weights, pos_label=pos_label)
    _, sb, _ = check_binary_inputs(y, scores_b)
    da, db = sa >= float(threshold_a), sb >= float(threshold_b)
    decisions = np.column_stack((da, db, da & db, da | db))
    fpr, tpr, n_pos, n_neg = _decision_rates(y, decisions, w)
    return ActualCombination(
        fpr_a=float(fpr[0]), tpr_a=float(tpr[0]), fpr_b=float(fpr[1]), tpr_b=float(tpr[1]),
        and_fpr=float(fpr[2]), and_tpr=float(tpr[2]), or_fpr=float(fpr[3]),
        or_tpr=float(tpr[3]),
        expected=logical_combination(fpr[0], tpr[0], fpr[1], tpr[1], bounds=bounds),
        n_pos=n_pos, n_neg=n_neg)
