"""Input checks shared by every core function that takes labels, scores and weights."""

from __future__ import annotations

import numpy as np

from .labels import binary_labels


def check_binary_inputs(labels, scores, weights=None, *, pos_label=None):
    """Return ``(labels, scores, weights)`` as ``bool``, ``float64`` and ``float64|None`` arrays.

    Labels are decoded by :func:`~roc_dash.core.labels.binary_labels`: booleans as they are,
    the known two-class encodings (0/1, -1/+1, true/false, yes/no, p/n, pos/neg,
    positive/negative, any case, numbers or text), or any two values with ``pos_label``
    naming the positive class.

    Raises
    ------
    ValueError
        If the arrays differ in length, are empty, hold non-finite scores, negative or
        non-finite weights, if the labels are not two classes (or need ``pos_label``), or if
        one of the two classes is absent (ROC undefined).
    """
    y = np.asarray(labels)
    s = np.asarray(scores, dtype=np.float64)
    if y.ndim != 1 or s.ndim != 1:
        raise ValueError("labels and scores must be one-dimensional")
    if y.shape != s.shape:
        raise ValueError(f"labels ({y.size}) and scores ({s.size}) differ in length")
    if s.size == 0:
        raise ValueError("no instances: labels and scores are empty")
    y = binary_labels(y, pos_label=pos_label)
    if not np.isfinite(s).all():
        raise ValueError("scores must be finite (no NaN or infinity)")
    w = None
    if weights is not None:
        w = np.asarray(weights, dtype=np.float64)
        if w.shape != s.shape:
            raise ValueError(f"weights ({w.size}) and scores ({s.size}) differ in length")
        if not np.isfinite(w).all() or (w < 0).any():
            raise ValueError("weights must be finite and non-negative")
    return y, s, w
