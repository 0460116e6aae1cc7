"""The error raised for unusable input files, and helpers to word its messages."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

#: How many row numbers an error or note lists before it stops with "… (N in all)".
MAX_ROWS_SHOWN = 5

#: How many offending values (or distinct label values) a message shows.
MAX_VALUES_SHOWN = 5


class InputError(ValueError):
    """A prediction file cannot be used; ``str(err)`` is the complete user-facing message.

    Attributes:
        file: the file the problem is in (as the caller named it), or ``None``.
        column: the column the problem is in (as spelled in the file's header), or ``None``.
        rows: the first few offending row numbers (at most 5); line numbers in a text file
            (the header is line 1, so the first data row is row 2), 1-based record numbers
            in a Parquet file. Empty when the problem is not about particular rows.
        count: how many rows are affected in all; 0 when the problem is not row-related.
    """

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        column: str | None = None,
        rows: Iterable[int] = (),
        count: int = 0,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.column = column
        self.rows = tuple(int(r) for r in rows)[:MAX_ROWS_SHOWN]
        self.count = int(count)

    def __str__(self) -> str:
        return self.message

    def __reduce__(self):  # keep the attributes when pickled (e.g. across processes)
        return (
            _rebuild_input_error,
            (self.message, self.file, self.column, self.rows, self.count),
        )


def _rebuild_input_error(message, file, column, rows, count) -> InputError:
    return InputError(message, file=file, column=column, rows=rows, count=count)


class LimitError(InputError):
    """A file (or one upload) is beyond a size limit: too many rows, columns or models, too
    much data once decompressed or decoded, a name or header line too long.

    A subclass of :class:`InputError` (``str(err)`` is the complete user-facing message,
    naming the file, what was too big, the limit and the environment variable that sets
    it), so code that catches ``InputError`` needs no change; a server can catch this type
    to answer "too large" (e.g. HTTP 413) instead of "bad input".

    Attributes (besides those of :class:`InputError`):
        variable: the environment variable that sets the limit (``ROC_DASH_MAX_ROWS``, ...).
        limit: the limit in force, in the variable's unit converted to a count or to bytes.
    """

    def __init__(self, message: str, *, variable: str, limit: int | float = 0,
                 file: str | None = None, column: str | None = None,
                 rows: Iterable[int] = (), count: int = 0) -> None:
        super().__init__(message, file=file, column=column, rows=rows, count=count)
        self.variable = variable
        self.limit = limit

    def __reduce__(self):
        return (
            _rebuild_limit_error,
            (type(self), self.message, self.variable, self.limit, self.file, self.column,
             self.rows, self.count),
        )


class DecodedSizeError(LimitError):
    """Over the decoded budget (``ROC_DASH_MAX_DECODED_MB``): the file is small as sent but its
    table would take more memory than one load may use (long repeated text, many columns, a
    compressed or dictionary-encoded file that expands). Raised while streaming, before the
    memory is taken; ``limit`` is the budget in bytes."""


def _rebuild_limit_error(cls, message, variable, limit, file, column, rows, count):
    return cls(message, variable=variable, limit=limit, file=file, column=column, rows=rows,
               count=count)


def plural_of(word: str) -> str:
    """The English plural of a (last) word: rows, classes, boxes, matches, categories."""
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    if len(word) > 1 and word.endswith("y") and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def plural(n: int, singular: str, plural_form: str | None = None) -> str:
    """``plural(1, "row") == "1 row"``, ``plural(3, "row") == "3 rows"``,
    ``plural(4, "class") == "4 classes"``."""
    word = singular if n == 1 else (plural_form or plural_of(singular))
    return f"{n:,} {word}"


def format_rows(row_numbers: Sequence[int] | np.ndarray, count: int | None = None) -> str:
    """``"row 4"``, ``"rows 4, 7, 9"`` or ``"rows 2, 3, 4, 5, 6, … (12 in all)"``.

    ``row_numbers`` are the first offending row numbers (more than 5 may be given; only 5 are
    shown); ``count`` is the total when it exceeds ``len(row_numbers)``.
    """
    shown = [int(r) for r in list(row_numbers)[:MAX_ROWS_SHOWN]]
    total = len(row_numbers) if count is None else int(count)
    if total == 1 and len(shown) == 1:
        return f"row {shown[0]}"
    text = "rows " + ", ".join(str(r) for r in shown)
    if total > len(shown):
        text += f", … ({total:,} in all)"
    return text


def quote(value: object, limit: int = 40) -> str:
    """A value as shown in a message: quoted, and shortened when long."""
    text = str(value)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return repr(text)


def quote_list(values: Iterable[object], limit: int | None = None) -> str:
    """``'a', 'b', 'c'`` — at most ``limit`` values, then ``… (N in all)``."""
    values = list(values)
    shown = values if limit is None else values[:limit]
    text = ", ".join(quote(v) for v in shown)
    if len(values) > len(shown):
        text += f", … ({len(values):,} in all)"
    return text
