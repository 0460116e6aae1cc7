"""Vectorised conversion of Arrow columns to numbers and text, with precise errors."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..text.invisible import INVISIBLE_PATTERN, shown_plainly
from .errors import MAX_VALUES_SHOWN, InputError, format_rows, plural, quote, quote_list
from .size_limits import limits, name_too_long

#: Maps 0-based positions (within the column as given) to 1-based row numbers.
RowMapper = Callable[[np.ndarray], np.ndarray]

#: What Arrow's string-to-double cast accepts, spelled as a regex (used to find the culprits
#: only after the cast has failed).
_NUMBER = r"^[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|inf|infinity|nan)$"
_DECIMAL_COMMA = r"^([+-]?\d*),(\d+)$"
_INTEGRAL_TEXT = r"^([+-]?\d+)\.0*$"


def plain(column: pa.ChunkedArray | pa.Array) -> pa.Array:
    """One contiguous array, dictionary-decoded."""
    if isinstance(column, pa.ChunkedArray):
        if pa.types.is_dictionary(column.type):
            column = pc.cast(column, column.type.value_type)
        column = column.combine_chunks() if column.num_chunks != 1 else column.chunk(0)
    if pa.types.is_dictionary(column.type):
        column = column.dictionary_decode()
    if pa.types.is_large_string(column.type) or pa.types.is_string_view(column.type):
        column = pc.cast(column, pa.string())
    return column


def as_dictionary(column: pa.ChunkedArray | pa.Array,
                  compact: bool = True) -> pa.DictionaryArray | None:
    """A dictionary-encoded column as one :class:`pa.DictionaryArray` whose dictionary holds
    only the values used, in order of first appearance (chunks' dictionaries unified); None
    for a column that is not dictionary-encoded. Nothing is expanded: a million copies of a
    long string stay one string and a million indices. ``compact=False``: the dictionary as
    it is (unused values and any order kept; no pass over the indices)."""
    data_type = column.type
    if not pa.types.is_dictionary(data_type):
        return None
    if isinstance(column, pa.ChunkedArray):
        if column.num_chunks == 0:
            return pa.DictionaryArray.from_arrays(pa.array([], data_type.index_type),
                                                  pa.array([], data_type.value_type))
        if column.num_chunks > 1:
            column = column.unify_dictionaries()
        dictionary = column.chunk(0).dictionary
        indices = (pa.concat_arrays([c.indices for c in column.chunks])
                   if column.num_chunks > 1 else column.chunk(0).indices)
    else:
        dictionary, indices = column.dictionary, column.indices
    if not compact:
        return pa.DictionaryArray.from_arrays(indices, dictionary)
    used = pc.unique(indices).drop_null()
    used_np = used.to_numpy(zero_copy_only=False).astype(np.int64)
    in_order = len(used_np) == len(dictionary) and bool(
        (used_np == np.arange(len(used_np))).all())
    if not in_order:
        lookup = np.zeros(len(dictionary), dtype=np.int32)
        lookup[used_np] = np.arange(len(used_np), dtype=np.int32)
        indices = pc.take(pa.array(lookup), indices)
        dictionary = dictionary.take(used)
    return pa.DictionaryArray.from_arrays(indices, dictionary)


def reencode(indices: pa.Array, values: pa.Array) -> pa.DictionaryArray:
    """Row ``i`` is ``values[indices[i]]``, as a dictionary array whose dictionary is
    ``values`` without duplicates or nulls (a row pointing at a null value is null)."""
    inner = pc.dictionary_encode(values)
    return pa.DictionaryArray.from_arrays(pc.take(inner.indices, indices), inner.dictionary)


def constant_text(value: str, n: int) -> pa.DictionaryArray:
    """``n`` rows of one text value, held once."""
    return pa.DictionaryArray.from_arrays(pa.array(np.zeros(n, dtype=np.int32)),
                                          pa.array([value], pa.string()))


def expanded_bytes(column: pa.ChunkedArray | pa.Array) -> int:
    """Bytes the column takes once dictionary-encoded text is expanded (what a table or
    pandas holds): values' bytes plus 4-byte offsets; other columns as they are."""
    chunks = column.chunks if isinstance(column, pa.ChunkedArray) else [column]
    total = 0
    for chunk in chunks:
        if not isinstance(chunk, pa.DictionaryArray):
            total += chunk.nbytes
            continue
        lengths = pc.binary_length(chunk.dictionary) if len(chunk.dictionary) else None
        total += 4 * len(chunk) + len(chunk) // 8
        if lengths is None:
            continue
        indices = chunk.indices
        if indices.null_count:
            indices = indices.drop_null()
        counts = np.bincount(indices.to_numpy(zero_copy_only=False),
                             minlength=len(chunk.dictionary))
        total += int(counts @ pc.fill_null(lengths, 0).to_numpy(zero_copy_only=False)
                     .astype(np.int64))
    return total


def check_name_lengths(values: pa.Array, rows: RowMapper | None, filename: str, column: str,
                       what: str) -> None:
    """Refuse a name (model, fold, class, label) beyond ``ROC_DASH_MAX_NAME_CHARS``, from
    the distinct values when ``values`` is dictionary-encoded (cheap for any number of
    rows); the message shows the first row holding it."""
    limit = limits().name_chars
    distinct = values.dictionary if isinstance(values, pa.DictionaryArray) else values
    if not len(distinct) or not is_text(distinct):
        return
    lengths = pc.utf8_length(distinct)
    longest = pc.max(lengths).as_py()
    if longest is None or longest <= limit:
        return
    k = int(np.flatnonzero(pc.fill_null(pc.greater(lengths, limit), False)
                           .to_numpy(zero_copy_only=False))[0])
    value = distinct[k].as_py()
    position = pc.index(values.indices, k).as_py() if isinstance(values, pa.DictionaryArray) \
        else k
    where = format_rows(rows(np.array([position]))) if rows is not None else ""
    raise name_too_long(filename, what, value, len(value), column=column, where=where)


def is_text(column: pa.Array) -> bool:
    return pa.types.is_string(column.type) or pa.types.is_large_string(column.type)


def refuse_merged_names(column: pa.Array, stripped: pa.Array, filename: str, name: str
                        ) -> None:
    """Refuse two different names of ``column`` (text) that become one in ``stripped`` (the
    column without invisible characters, :func:`roc_dash.text.invisible.merged_names`): rows of
    one model would join another's curve unnoticed. Arrow work on the rows, Python's only on
    one pair."""
    raw, clean = pc.utf8_trim_whitespace(column), pc.utf8_trim_whitespace(stripped)
    # a name of invisible characters alone is a missing one (reported as such later)
    dirty = pc.fill_null(pc.and_(pc.not_equal(raw, clean), pc.not_equal(clean, "")), False)
    involved = pc.fill_null(pc.is_in(clean, value_set=pc.unique(clean.filter(dirty))), False)
    pairs = pa.table({"clean": clean.filter(involved), "raw": raw.filter(involved)})
    counts = pairs.group_by("clean").aggregate([("raw", "count_distinct")])
    merged = counts.filter(pc.greater(counts["raw_count_distinct"], 1))
    if not merged.num_rows:
        return
    target = merged["clean"][0].as_py()
    a, b = pc.unique(pairs["raw"].filter(pc.equal(pairs["clean"], target))).to_pylist()[:2]
    raise InputError(
        f"{filename}: column {quote(name)} holds {quote(shown_plainly(a))} and "
        f"{quote(shown_plainly(b))}, which differ only by invisible characters (written "
        f"<U+...> here: direction controls, zero-width spaces): both would show as "
        f"{quote(target)}. Remove those characters, or rename one of them.",
        file=filename, column=name)


def trimmed_text(column: pa.Array) -> pa.Array:
    """Text without invisible characters (:mod:`roc_dash.text.invisible`) and surrounding
    whitespace; empty strings become missing."""
    return _trimmed(pc.replace_substring_regex(column, INVISIBLE_PATTERN, ""))


def _trimmed(column: pa.Array) -> pa.Array:
    column = pc.utf8_trim_whitespace(column)
    return pc.if_else(pc.equal(column, ""), pa.scalar(None, column.type), column)


def first_true(mask: np.ndarray, limit: int = 5) -> np.ndarray:
    """Positions of the first ``limit`` true values, without scanning all of a huge mask."""
    return np.flatnonzero(mask)[:limit]


def missing_error(
    mask: np.ndarray,
    rows: RowMapper,
    filename: str,
    column: str,
    what: str,
    advice: str,
) -> InputError:
    count = int(mask.sum())
    numbers = rows(first_true(mask))
    return InputError(
        f"{filename}: column {quote(column)} has {plural(count, 'missing value')} "
        f"({format_rows(numbers, count)}). {what} {advice}",
        file=filename,
        column=column,
        rows=numbers,
        count=count,
    )


def check_present(mask: np.ndarray, rows: RowMapper, filename: str, column: str, what: str,
                  advice: str) -> None:
    """Raise :func:`missing_error` when ``mask`` (True where a value is missing) has any."""
    if mask.any():
        raise missing_error(mask, rows, filename, column, what, advice)


def _bad_values_error(
    bad: np.ndarray,
    values: pa.Array,
    rows: RowMapper,
    filename: str,
    column: str,
    requirement: str,
) -> InputError:
    count = int(bad.sum())
    positions = np.flatnonzero(bad)
    numbers = rows(positions[:5])
    examples = pc.unique(values.take(pa.array(positions[:1000]))).to_pylist()
    return InputError(
        f"{filename}: column {quote(column)} has {plural(count, 'non-numeric value')} "
        f"({format_rows(numbers, count)}): {quote_list(examples, MAX_VALUES_SHOWN)}. "
        f"{requirement}; fix or remove these rows.",
        file=filename,
        column=column,
        rows=numbers,
        count=count,
    )


def _as_integers(column: pa.Array) -> np.ndarray | None:
    """The column's values as int64/uint64 (missing -> 0) when it holds only integers (an
    integer type, or text that reads as integers), else None."""
    if pa.types.is_integer(column.type):
        if column.type.bit_width <= 32:
            return None  # float64 holds every 32-bit integer exactly
        ints = column
    elif is_text(column):
        try:
            ints = pc.cast(trimmed_text(column), pa.int64())
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            return None
    else:
        return None
    return pc.fill_null(ints, 0).to_numpy(zero_copy_only=False)


def check_exact_as_float(
    column: pa.ChunkedArray | pa.Array, rows: RowMapper, filename: str, name: str
) -> None:
    """An :class:`InputError` when a column of integers holds two different values that
    float64 cannot tell apart (beyond 2**53): read as numbers they would be tied."""
    from ..core._validation import FLOAT_EXACT_INT, merged_integers

    if pa.types.is_floating(column.type) or pa.types.is_boolean(column.type):
        return  # nothing to check: spare the copy of a big column
    ints = _as_integers(plain(column))
    if ints is None:
        return
    pair = merged_integers(ints)
    if pair is None:
        return
    a, b = pair
    where = [int(np.flatnonzero(ints == v)[0]) for v in (a, b)]
    numbers = rows(np.array(where))
    raise InputError(
        f"{filename}: column {quote(name)} holds integers too large to tell apart as "
        f"floating-point numbers: {a} (row {int(numbers[0])}) and {b} (row "
        f"{int(numbers[1])}) both become {float(a):.17g} (integers beyond 2**53 = "
        f"{FLOAT_EXACT_INT:,} lose their last digits), so the analysis would count them as "
        "tied. Rescale the column (e.g. subtract its minimum, or divide it into decimals) "
        "and load the file again.",
        file=filename,
        column=name,
        rows=numbers,
        count=2,
    )


def to_float(
    column: pa.ChunkedArray | pa.Array,
    rows: RowMapper,
    filename: str,
    name: str,
    requirement: str,
    decimal_comma: bool = False,
) -> np.ndarray:
    """float64 values of a column (missing -> NaN). Non-numeric text is an :class:`InputError`
    listing rows and values. ``decimal_comma`` also accepts '0,5' (semicolon-separated
    files)."""
    column = plain(column)
    data_type = column.type
    if pa.types.is_null(data_type):
        return np.full(len(column), np.nan)
    if (
        pa.types.is_integer(data_type)
        or pa.types.is_floating(data_type)
        or pa.types.is_decimal(data_type)
        or pa.types.is_boolean(data_type)
    ):
        if column.null_count == 0:  # the usual case: one copy, no fill
            return np.asarray(pc.cast(column, pa.float64(), safe=False)
                              .to_numpy(zero_copy_only=False), dtype=np.float64)
        numbers = pc.cast(column, pa.float64(), safe=False)
    elif is_text(column):
        text = trimmed_text(column)
        if decimal_comma:
            text = pc.replace_substring_regex(text, _DECIMAL_COMMA, r"\1.\2")
        try:
            numbers = pc.cast(text, pa.float64())
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            ok = pc.match_substring_regex(text, _NUMBER, ignore_case=True)
            bad = pc.and_kleene(pc.invert(ok), pc.is_valid(text))
            bad_np = bad.to_numpy(zero_copy_only=False).astype(bool)
            if bad_np.any():
                raise _bad_values_error(
                    bad_np, pc.utf8_trim_whitespace(column), rows, filename, name, requirement
                ) from None
            # the regex and Arrow disagree on some exotic spelling: let pandas decide
            series = pd.to_numeric(
                pd.Series(text.to_numpy(zero_copy_only=False), dtype=object), errors="coerce"
            )
            return series.to_numpy(dtype=np.float64, na_value=np.nan)
    else:
        raise InputError(
            f"{filename}: column {quote(name)} holds {data_type} values, not numbers. "
            f"{requirement}; choose another column or convert this one.",
            file=filename,
            column=name,
        )
    return pc.fill_null(numbers, np.nan).to_numpy(zero_copy_only=False)


def to_text(
    column: pa.ChunkedArray | pa.Array,
    filename: str,
    name: str,
    *,
    integral_text: bool = False,
) -> pa.Array:
    """A string array (missing -> null). Whole numbers read as floats become '1', not '1.0';
    with ``integral_text`` the text '1.0' becomes '1' too (folds and ids).

    A dictionary-encoded column stays one (converted on its distinct values only)."""
    encoded = as_dictionary(column)
    if encoded is not None:
        values = to_text(encoded.dictionary, filename, name, integral_text=integral_text)
        return reencode(encoded.indices, values)
    column = plain(column)
    data_type = column.type
    if pa.types.is_null(data_type):
        return pa.nulls(len(column), pa.string())
    if is_text(column):
        stripped = pc.replace_substring_regex(column, INVISIBLE_PATTERN, "")
        if not stripped.equals(column):
            refuse_merged_names(column, stripped, filename, name)
        text = _trimmed(stripped)
        if integral_text:
            text = pc.replace_substring_regex(text, _INTEGRAL_TEXT, r"\1")
        return text
    if pa.types.is_floating(data_type):
        column = pc.if_else(pc.is_nan(column), pa.scalar(None, data_type), column)
        integral = pc.and_(
            pc.equal(column, pc.floor(column)), pc.less(pc.abs(column), 2.0**53)
        )
        integral = pc.fill_null(integral, False)
        safe = pc.if_else(integral, column, 0.0)
        as_int = pc.cast(pc.cast(safe, pa.int64()), pa.string())
        return pc.if_else(integral, as_int, pc.cast(column, pa.string()))
    return cast_to_text(column, filename, name, "as text. Choose another column or convert "
                        "this one.")


def cast_to_text(column: pa.Array, filename: str, name: str, refusal: str) -> pa.Array:
    """``column`` cast to strings, or an :class:`InputError` naming the file, the column and
    its type, ending "which cannot be used " + ``refusal``."""
    try:
        return pc.cast(column, pa.string())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        raise InputError(
            f"{filename}: column {quote(name)} holds {column.type} values, which cannot be "
            f"used {refusal}",
            file=filename,
            column=name,
        ) from None


def null_mask(column: pa.Array) -> np.ndarray:
    """True where the value is missing."""
    if column.null_count == 0:
        return np.zeros(len(column), dtype=bool)
    return column.is_null().to_numpy(zero_copy_only=False).astype(bool)


def check_weights(weights: np.ndarray, rows, name: str, column: str) -> None:
    check_present(np.isnan(weights), rows, name, column,
                  "Every row needs a weight (a finite number, 0 or more);",
                  "fill them in, remove these rows, or leave out the weight column.")
    bad = ~np.isfinite(weights) | (weights < 0)
    if bad.any():
        count = int(bad.sum())
        positions = first_true(bad)
        numbers = rows(positions)
        examples = list(dict.fromkeys(float(w) for w in weights[np.flatnonzero(bad)[:1000]]))
        shown = ", ".join(f"{w:g}" for w in examples[:5])
        raise InputError(
            f"{name}: column {quote(column)} has {plural(count, 'invalid weight')} "
            f"({format_rows(numbers, count)}): {shown}. Weights must be finite numbers, 0 or "
            "more; fix or remove these rows.",
            file=name,
            column=column,
            rows=numbers,
            count=count,
        )
