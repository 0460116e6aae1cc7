"""Input checks shared by every core function that takes labels, scores and weights."""

from __future__ import annotations

import numpy as np

from .labels import binary_labels

#: float64 holds every integer of magnitude up to 2**53 exactly; beyond it neighbouring
#: integers round to one value (2**53 + 1 becomes 2**53).
FLOAT_EXACT_INT = 2**53


def _integer_array(raw: np.ndarray) -> np.ndarray | None:
    """``raw`` if it holds integers (a numpy integer dtype, or Python ints too large for
    one), else None."""
    if raw.dtype.kind in "iu":
        return raw
    if raw.dtype.kind == "O" and raw.ndim == 1 and raw.size and all(
            isinstance(v, int | np.integer) and not isinstance(v, bool | np.bool_)
            for v in raw.tolist()):
        return raw
    return None


def merged_integers(scores) -> tuple[int, int] | None:
    """Two distinct integer scores that float64 rounds to one value, or None.

    Only integer scores beyond ``2**53`` in magnitude can merge; rounding never reverses
    their order, so sorted neighbours are the only candidates.
    """
    raw = np.asarray(scores)
    ints = _integer_array(raw)
    if ints is None or ints.size == 0 or (ints.dtype.kind in "iu" and ints.itemsize <= 4):
        return None
    if ints.dtype.kind == "u":
        big = ints[ints >= FLOAT_EXACT_INT]
    elif ints.dtype.kind == "i":
        big = ints[(ints >= FLOAT_EXACT_INT) | (ints <= -FLOAT_EXACT_INT)]
    else:
        big = np.array([v for v in ints.tolist() if abs(v) >= FLOAT_EXACT_INT], dtype=object)
    if big.size < 2:
        return None
    distinct = np.unique(big)
    rounded = distinct.astype(np.float64)
    same = np.flatnonzero(rounded[1:] == rounded[:-1])
    if same.size == 0:
        return None
    return int(distinct[same[0] + 1]), int(distinct[same[0]])


def merged_integers_message(pair: tuple[int, int], what: str = "scores") -> str:
    a, b = pair
    return (f"{what} {a} and {b} are different integers, but as floating-point numbers "
            f"both are {float(a):.17g} (integers beyond 2**53 = {FLOAT_EXACT_INT:,} lose "
            f"their last digits), so comparing them with a threshold would treat them as "
            f"tied. Rescale the scores (e.g. subtract their minimum, or divide them into "
            f"decimals) so they fit; roc_curve, roc_auc and the AUC statistics rank such "
            f"integers exactly.")


def as_scores(scores, *, integers: str = "refuse", what: str = "scores") -> np.ndarray:
    """Scores as a float64 array, without merging distinct scores.

    Integer scores are converted to float64 when that keeps every distinct score distinct
    (always below 2**53). When it would not, ``integers="keep"`` returns the integers
    themselves (for code that only sorts and compares scores with each other: ROC vertices,
    the AUC, ranks), and ``integers="refuse"`` raises a ``ValueError`` naming two scores
    that would merge.
    """
    raw = np.asarray(scores)
    pair = merged_integers(raw)
    if pair is None:
        return np.asarray(raw, dtype=np.float64)
    if integers == "keep":
        return raw
    raise ValueError(merged_integers_message(pair, what))


def check_finite_scores(s: np.ndarray) -> None:
    """Raise ``ValueError`` if a float score is NaN or infinite."""
    if s.dtype.kind == "f" and not np.isfinite(s).all():
        raise ValueError("scores must be finite (no NaN or infinity)")


def check_weights(weights, size: int, what: str = "scores") -> np.ndarray | None:
    """``weights`` as a float64 array of ``size`` entries (None stays None).

    Raises
    ------
    ValueError
        If their length is not ``size`` (the length of ``what``), or a weight is negative,
        NaN or infinite.
    """
    if weights is None:
        return None
    w = np.asarray(weights, dtype=np.float64)
    if w.shape != (size,):
        raise ValueError(f"weights ({w.size}) and {what} ({size}) differ in length")
    if not np.isfinite(w).all() or (w < 0).any():
        raise ValueError("weights must be finite and non-negative")
    return w


def check_binary_inputs(labels, scores, weights=None, *, pos_label=None,
                        integers: str = "refuse", finite: bool = True):
    """Return ``(labels, scores, weights)`` as ``bool``, ``float64`` and ``float64|None`` arrays.

    Integer scores that float64 would merge (beyond 2**53) raise a ``ValueError``, or with
    ``integers="keep"`` come back as the integer array (see :func:`as_scores`).

    With ``finite=False`` and no weights the scores are not checked for NaN and infinity: the
    caller does it (:func:`check_finite_scores`), e.g. in a pass over the scores it makes
    anyway. (With weights they are, so that bad scores are still reported before bad
    weights.)

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
    s = as_scores(scores, integers=integers)
    if y.ndim != 1 or s.ndim != 1:
        raise ValueError("labels and scores must be one-dimensional")
    if y.shape != s.shape:
        raise ValueError(f"labels ({y.size}) and scores ({s.size}) differ in length")
    if s.size == 0:
        raise ValueError("no instances: labels and scores are empty")
    y = binary_labels(y, pos_label=pos_label)
    if finite or weights is not None:
        check_finite_scores(s)
    return y, s, check_weights(weights, s.size)


def check_level(level) -> float:
    """A confidence level: a number in (0, 1), as a float."""
    lvl = float(level)
    if not 0.0 < lvl < 1.0:
        raise ValueError(f"level must be in (0, 1), got {level!r}")
    return lvl


def weighted_rows(labels, scores, weights=None):
    """:func:`check_binary_inputs`, then only the rows of positive weight (all rows without
    weights): what a bootstrap resamples.

    Raises
    ------
    ValueError
        As :func:`check_binary_inputs`, or if a class has no row of positive weight.
    """
    y, s, w = check_binary_inputs(labels, scores, weights)
    if w is not None:
        keep = w > 0
        y, s, w = y[keep], s[keep], w[keep]
    if not (y.any() and (~y).any()):
        raise ValueError("both classes must be present with positive weight")
    return y, s, w
