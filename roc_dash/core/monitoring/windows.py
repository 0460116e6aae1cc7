"""A window of predictions after deployment: its distinct scores with the (weighted) cases
scoring each and, when the labels have arrived, the positives among them.

Counts per distinct score are all the monitor needs (the ROC curve, the share flagged, the
posteriors' sums, the score distribution), so a window read by a query engine (one row per
distinct score and label, :mod:`roc_dash.io.windows`) and one given as rows
(:func:`window_from_rows`) are the same object.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._validation import as_scores
from ..inference.calibration import score_counts
from ..labels import binary_labels
from ..roc.curves import score_runs

__all__ = ["WindowCounts", "window_from_rows", "window_from_counts", "window_from_curve"]


@dataclass(frozen=True, eq=False)
class WindowCounts:
    """One window's predictions, counted per distinct score.

    Attributes
    ----------
    name : str
        The window as shown (a file's name, a month such as ``"2024-03"``).
    scores : ndarray of float64
        Distinct scores, ascending.
    totals : ndarray of float64
        (Weighted) cases scoring each.
    positives : ndarray of float64 or None
        (Weighted) positives among them; ``None`` when the window has no labels.
    rows : int
        Input rows (equal to the total without weights).
    start, end : str
        The window's first and last time as shown ("" when not known).
    """

    name: str
    scores: np.ndarray
    totals: np.ndarray
    positives: np.ndarray | None = None
    rows: int = 0
    start: str = ""
    end: str = ""

    @property
    def labelled(self) -> bool:
        return self.positives is not None

    @property
    def n(self) -> float:
        """(Weighted) cases."""
        return float(self.totals.sum())

    @property
    def n_pos(self) -> float:
        """(Weighted) positives (NaN without labels)."""
        return math.nan if self.positives is None else float(self.positives.sum())

    @property
    def n_neg(self) -> float:
        """(Weighted) negatives (NaN without labels)."""
        return self.n - self.n_pos

    @property
    def negatives(self) -> np.ndarray | None:
        return None if self.positives is None else self.totals - self.positives


def _one_class_message(name: str, positive: bool) -> str:
    which = "positive" if positive else "negative"
    return (f"window {name!r}: every labelled case is {which}, so its TPR and FPR are "
            "undefined. Give its predictions without the label column to monitor it as an "
            "unlabelled window, or pool it with the next window.")


def window_from_counts(name: str, scores, totals, positives=None, *, rows: int | None = None,
                       start: str = "", end: str = "") -> WindowCounts:
    """A window of distinct scores (any order, no repeats) with the (weighted) cases scoring
    each and, optionally, the positives among them.

    Raises
    ------
    ValueError
        Lengths differ, a score repeats or is not finite, a count is negative, more
        positives than cases, no case at all, or labels of one class only.
    """
    s = np.asarray(as_scores(scores, what=f"window {name!r}: scores"), dtype=np.float64)
    n = np.asarray(totals, dtype=np.float64)
    p = None if positives is None else np.asarray(positives, dtype=np.float64)
    if s.ndim != 1 or n.shape != s.shape or (p is not None and p.shape != s.shape):
        raise ValueError(f"window {name!r}: scores, counts and positives differ in length")
    if not np.isfinite(s).all():
        raise ValueError(f"window {name!r}: scores must be finite (no NaN or infinity)")
    if not (np.isfinite(n).all() and (n >= 0).all()):
        raise ValueError(f"window {name!r}: counts must be finite and non-negative")
    order = None if s.size < 2 or bool((s[1:] > s[:-1]).all()) else np.argsort(s, kind="stable")
    if order is not None:
        s, n = s[order], n[order]
    if s.size > 1 and (s[1:] == s[:-1]).any():
        raise ValueError(f"window {name!r}: a score is listed twice; give each distinct "
                         "score once with its count")
    if not n.sum() > 0:
        raise ValueError(f"window {name!r}: no predictions (no rows, or all weights 0)")
    if p is not None:
        p = p if order is None else p[order]
        if not (np.isfinite(p).all() and (p >= 0).all() and (p <= n * (1 + 1e-12)).all()):
            raise ValueError(f"window {name!r}: positives must lie between 0 and the count "
                             "of each score")
        p = np.minimum(p, n)
        if not p.sum() > 0 or not (n - p).sum() > 0:
            raise ValueError(_one_class_message(name, bool(p.sum() > 0)))
    return WindowCounts(name=str(name), scores=s, totals=n, positives=p,
                        rows=int(round(n.sum())) if rows is None else int(rows),
                        start=str(start), end=str(end))


def window_from_rows(name: str, scores, labels=None, *, weights=None, pos_label=None,
                     start: str = "", end: str = "") -> WindowCounts:
    """A window of rows: scores, optional labels (decoded as
    :func:`~roc_dash.core.labels.binary_labels` does; ``None`` for an unlabelled window)
    and optional non-negative weights.

    Raises
    ------
    ValueError
        Empty or non-finite scores, lengths that differ, bad weights, labels that are not
        two classes, or labels of one class only (see :func:`window_from_counts`).
    """
    s = np.asarray(as_scores(scores, what=f"window {name!r}: scores"), dtype=np.float64)
    if s.ndim != 1 or s.size == 0:
        raise ValueError(f"window {name!r}: no predictions (give a one-dimensional array "
                         "of scores)")
    if not np.isfinite(s).all():
        raise ValueError(f"window {name!r}: scores must be finite (no NaN or infinity)")
    w = None
    if weights is not None:
        w = np.asarray(weights, dtype=np.float64)
        if w.shape != s.shape or not (np.isfinite(w).all() and (w >= 0).all()):
            raise ValueError(f"window {name!r}: weights must be finite, non-negative and "
                             "one per score")
    y = np.zeros(s.size, dtype=bool)
    if labels is not None:
        y = np.asarray(labels)
        if y.shape != s.shape:
            raise ValueError(f"window {name!r}: labels ({y.size}) and scores ({s.size}) "
                             "differ in length")
        try:
            y = binary_labels(y, pos_label=pos_label)
        except ValueError as exc:
            raise ValueError(f"window {name!r}: {exc}") from None
    # one sort of the rows, the ROC curve's (Fawcett 2004, Algorithm 2: runs of equal scores)
    thresholds, pos_le, neg_le = score_runs(y, s, w)
    distinct = thresholds[1:][::-1]
    positives = np.diff(pos_le, prepend=0.0)
    totals = positives + np.diff(neg_le, prepend=0.0)
    if labels is None:
        positives = None
    return window_from_counts(name, distinct, totals, positives, rows=s.size, start=start,
                              end=end)


def window_from_curve(name: str, curve, *, rows: int | None = None, start: str = "",
                      end: str = "") -> WindowCounts:
    """A labelled window from its ROC curve (:class:`~roc_dash.core.roc.curves.RocCurve`, as an
    analysis already holds it): the curve's vertices are its distinct scores with the
    positives and negatives scoring each (:func:`~roc_dash.core.inference.calibration.score_counts`),
    so no row is read again."""
    scores, positives, negatives = score_counts(curve)
    return window_from_counts(name, scores, positives + negatives, positives, rows=rows,
                              start=start, end=end)

