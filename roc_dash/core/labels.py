"""Two-class label encodings, shared by the Python API and the file reader.

A label column (or array) holds exactly two values; which one is the positive class is read
from a known encoding -- 0/1, -1/+1, true/false, yes/no, p/n, pos/neg, positive/negative, in
any case, written as numbers or text -- or named with ``pos_label`` (scikit-learn's
convention) for anything else. Values are compared by :func:`label_key`, so ``1``, ``1.0``,
``"+1"`` and ``" 1 "`` are one value, and so are ``"Yes"`` and ``"yes"``.

Pure: the standard library and numpy/pandas only. :mod:`roc_dash.io.labels` builds the file
reader's messages on the same keys and encodings.
"""

from __future__ import annotations

import decimal
import re

import numpy as np
import pandas as pd

__all__ = ["ENCODINGS", "ENCODINGS_TEXT", "label_key", "known_positive", "binary_labels"]

#: Built-in two-class encodings as (positive, negative) keys; keys are case-folded text and
#: whole numbers written without sign or decimals ('+1', '1.0' -> '1').
ENCODINGS: tuple[tuple[str, str], ...] = (
    ("1", "0"),
    ("1", "-1"),
    ("true", "false"),
    ("yes", "no"),
    ("p", "n"),
    ("pos", "neg"),
    ("positive", "negative"),
)

#: Shown in advice.
ENCODINGS_TEXT = "0/1, -1/+1, true/false, yes/no, p/n, pos/neg, positive/negative"

_INTEGER = re.compile(r"^[+-]?\d+(\.0*)?$")
_FLOAT = re.compile(r"^[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?$")

#: Values listed in a message at most.
_MAX_VALUES_LISTED = 10

#: ``pos_label=True`` names the value 1 of numeric labels and vice versa.
_BOOL_NUMBER = {"true": "1", "1": "true", "false": "0", "0": "false"}


def label_key(value: object) -> str:
    """The comparison key of one label value (also used for ``pos_label``)."""
    if isinstance(value, bool | np.bool_):
        return "true" if value else "false"
    if isinstance(value, int | np.integer):
        return str(int(value))
    if isinstance(value, float | np.floating | decimal.Decimal):
        number = float(value)
        return str(int(number)) if number.is_integer() else repr(number)
    text = str(value).strip().casefold()
    if _INTEGER.match(text):
        return str(int(text.split(".")[0]))
    if _FLOAT.match(text):
        number = float(text)
        return str(int(number)) if number.is_integer() else repr(number)
    return text


def known_positive(keys) -> str | None:
    """The positive key when the (at most two) keys fit a built-in encoding, else ``None``."""
    found = set(keys)
    for pos, neg in ENCODINGS:
        if found <= {pos, neg}:
            return pos
    return None


def _listing(values) -> str:
    values = list(values)
    text = ", ".join(repr(v) for v in values[:_MAX_VALUES_LISTED])
    if len(values) > _MAX_VALUES_LISTED:
        text += f", ... ({len(values):,} in all)"
    return text


def _plain(value):
    """A numpy scalar as the Python value it prints as (for messages)."""
    return value.item() if isinstance(value, np.generic) else value


def _numeric_fast_path(y: np.ndarray) -> np.ndarray | None:
    """0/1 or -1/+1 numbers decoded without hashing (``None``: take the general path)."""
    if y.size == 0:
        return np.zeros(0, dtype=bool)
    lo, hi = y.min(), y.max()
    if not (lo >= -1 and hi <= 1):  # also False for NaN
        return None
    if y.dtype.kind == "f" and not ((y == 0) | (y == 1) | (y == -1)).all():
        return None
    if lo == -1 and (y == 0).any():  # -1, 0 and 1: three classes
        return None
    return y > 0


def binary_labels(labels, *, pos_label=None) -> np.ndarray:
    """Decode two-class labels into booleans (``True`` = positive).

    Booleans are used as they are. Otherwise the values must form one of the known
    encodings (:data:`ENCODINGS`: 0/1, -1/+1, true/false, yes/no, p/n, pos/neg,
    positive/negative; any case, numbers or text), whose first value is the positive class,
    or ``pos_label`` names the positive class and every other value is negative (at most two
    distinct values either way). A single value is allowed (the caller decides whether one
    class suffices): it is positive when it is ``pos_label`` or a known positive value.

    Parameters
    ----------
    labels : array-like, shape (n,)
        True classes.
    pos_label : scalar, optional
        The value of the positive class, compared like the values (case-insensitive text,
        ``1 == 1.0 == "1"``; ``True`` also names a numeric ``1``).

    Raises
    ------
    ValueError
        If a label is missing, if there are more than two distinct values, if two values
        are not a known encoding and no ``pos_label`` is given (the message names the
        values), or if ``pos_label`` is not among the values.
    """
    y = np.asarray(labels)
    if y.dtype == bool:
        if pos_label is None:
            return y
    elif pos_label is None and y.dtype.kind in "iuf":
        fast = _numeric_fast_path(y)
        if fast is not None:
            return fast
    if y.dtype.kind not in "biufUSO":
        raise ValueError(f"labels of dtype {y.dtype} cannot be used as class labels")
    codes, uniques = pd.factorize(y.ravel(), sort=False, use_na_sentinel=True)
    if (codes < 0).any():
        raise ValueError("labels must not be missing (NaN or None)")
    # distinct keys in order of first appearance, with the first spelling seen for each
    shown: dict[str, object] = {}
    keys = []
    for value in uniques:
        key = label_key(value)
        keys.append(key)
        shown.setdefault(key, _plain(value))
    if len(shown) > 2:
        raise ValueError(
            f"labels have {len(shown):,} distinct values ({_listing(shown.values())}); ROC "
            "analysis needs exactly two classes. Multi-class labels are not supported: reduce "
            "them to two classes (e.g. one class against all others).")
    if pos_label is not None:
        positive = label_key(pos_label)
        if positive not in shown and _BOOL_NUMBER.get(positive) in shown:
            positive = _BOOL_NUMBER[positive]
        if positive not in shown:
            raise ValueError(
                f"pos_label={_plain(pos_label)!r} is not among the label values "
                f"({_listing(shown.values())}); pass one of these as pos_label.")
    else:
        positive = known_positive(shown)
        if positive is None:
            values = _listing(shown.values())
            if len(shown) == 1:
                raise ValueError(
                    f"labels have a single value, {values}, so every instance is of the same "
                    "class: an ROC curve needs both positive and negative instances.")
            first = next(iter(shown.values()))
            raise ValueError(
                f"labels have the values {values}, which are not a known label encoding "
                f"({ENCODINGS_TEXT}); pass pos_label= naming the positive class (e.g. "
                f"pos_label={first!r}).")
    lookup = np.array([k == positive for k in keys], dtype=bool)
    return lookup[codes]
