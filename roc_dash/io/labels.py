"""Decode a label column into booleans (True = positive class)."""

from __future__ import annotations

import decimal
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..core.labels import ENCODINGS, ENCODINGS_TEXT, label_key  # noqa: F401 (re-exported)
from ..core.labels import known_positive as _known_positive
from .errors import InputError, format_rows, quote, quote_list
from .size_limits import limits, name_too_long
from .values import (
    RowMapper,
    as_dictionary,
    cast_to_text,
    check_present,
    is_text,
    null_mask,
    plain,
    reencode,
    trimmed_text,
)

#: Above this many distinct raw values the label column is certainly not two classes; only
#: the first few are inspected for the message.
_MAX_DISTINCT_INSPECTED = 10_000
_MAX_VALUES_LISTED = 10


@dataclass(frozen=True)
class Labels:
    """Decoded labels of one file."""

    values: np.ndarray  # bool, True = positive
    positive: str | None  # the positive value as shown to users (None if absent)
    negative: str | None  # the negative value as shown to users (None if absent)


def _display(value: object) -> str:
    if isinstance(value, float | decimal.Decimal) and float(value).is_integer():
        return str(int(value))
    return str(value).strip()


def _normalised(column: pa.Array, filename: str, name: str) -> pa.Array:
    """Labels as compared: text trimmed (empty -> missing), NaN -> missing."""
    if is_text(column):
        return trimmed_text(column)
    if pa.types.is_floating(column.type):
        return pc.if_else(pc.is_nan(column), pa.scalar(None, column.type), column)
    if (
        pa.types.is_boolean(column.type)
        or pa.types.is_integer(column.type)
        or pa.types.is_decimal(column.type)
        or pa.types.is_null(column.type)
    ):
        return column
    return trimmed_text(cast_to_text(column, filename, name,
                                     "as class labels. Choose another label column."))


def decode_labels(
    column: pa.ChunkedArray | pa.Array,
    rows: RowMapper,
    filename: str,
    name: str,
    positive: object | None = None,
) -> Labels:
    """Map a label column to booleans.

    Known two-class encodings are recognised in any case (see :data:`ENCODINGS`);
    ``positive`` names the positive value explicitly and then overrides them. Missing labels,
    more than two values, two unknown values without ``positive`` and a ``positive`` that is
    not among the values are :class:`InputError`.
    """
    encoded_in = as_dictionary(column)  # dictionary-encoded: work on the distinct values
    if encoded_in is None:
        column = plain(column)
        if is_text(column):  # text labels have few distinct values: the same
            encoded_in = pc.dictionary_encode(column)
    column = _normalised(encoded_in.dictionary if encoded_in is not None else column,
                         filename, name)
    if encoded_in is not None:
        column = reencode(encoded_in.indices, column)

    missing = (np.ones(len(column), dtype=bool) if pa.types.is_null(column.type)
               else null_mask(column))
    check_present(missing, rows, filename, name, "Every row needs a label (its true class);",
                  "fill them in or remove these rows.")

    encoded = column.dictionary_encode()
    dictionary = encoded.dictionary
    indices = encoded.indices.to_numpy(zero_copy_only=False)
    raw = dictionary.slice(0, _MAX_DISTINCT_INSPECTED).to_pylist()

    # distinct keys in order of first appearance, with the first spelling seen for each
    keys: list[str] = []
    shown: dict[str, str] = {}
    for value in raw:
        key = label_key(value)
        if key not in shown:
            shown[key] = _display(value)
            keys.append(key)

    limit = limits().name_chars
    for k, value in enumerate(raw):
        if len(str(value)) > limit:
            position = np.flatnonzero(indices == k)[:1]
            raise name_too_long(filename, "label", str(value).strip(), len(str(value).strip()),
                                column=name, where=format_rows(rows(position)))

    if len(keys) > 2 or len(dictionary) > _MAX_DISTINCT_INSPECTED:
        many = len(keys) if len(dictionary) <= _MAX_DISTINCT_INSPECTED else None
        count = f"{many:,}" if many is not None else f"more than {_MAX_DISTINCT_INSPECTED:,}"
        values = quote_list([shown[k] for k in keys][:_MAX_VALUES_LISTED])
        if many is not None and many > _MAX_VALUES_LISTED:
            values += f", … ({many:,} in all)"
        raise InputError(
            f"{filename}: column {quote(name)} has {count} distinct values ({values}); a label "
            "column must have exactly two classes. Multi-class files need one score column "
            "per class, named score_<class> (or p_<class>, proba_<class>, y_proba_<class>, "
            ".pred_<class>, or like the class) instead of one score column; "
            "or reduce the labels to two classes (e.g. one class against all others).",
            file=filename,
            column=name,
        )

    positive_key: str | None
    if positive is not None and str(positive).strip():
        positive_key = label_key(positive)
        if positive_key not in keys:
            raise InputError(
                f"{filename}: the positive class {quote(str(positive).strip())} is not a value "
                f"of column {quote(name)}; the values found are {quote_list(shown.values())}. "
                "Choose one of these as the positive class (--positive).",
                file=filename,
                column=name,
            )
    else:
        positive_key = _known_positive(keys)
        if positive_key is None:
            values = quote_list(shown.values())
            if len(keys) == 1:
                message = (
                    f"{filename}: column {quote(name)} has a single value, {values}, so every "
                    "row is of the same class. An ROC curve needs both positive and negative "
                    "examples; add rows of the other class."
                )
            else:
                message = (
                    f"{filename}: column {quote(name)} has the values {values}, which are not "
                    f"a known label encoding ({ENCODINGS_TEXT}). Say which value is the "
                    f"positive class (--positive VALUE on the command line, e.g. --positive "
                    f"{shown[keys[0]]})."
                )
            raise InputError(message, file=filename, column=name)

    lookup = np.array([label_key(v) == positive_key for v in raw], dtype=bool)
    values = lookup[indices]
    negatives = [shown[k] for k in keys if k != positive_key]
    return Labels(
        values=values,
        positive=shown.get(positive_key),
        negative=negatives[0] if negatives else None,
    )
