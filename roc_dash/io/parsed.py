"""What reading a file gives back, and the errors every reader raises.

:class:`ColumnPlan` says, from the header alone, how a caller wants the columns read;
:class:`ParsedFile` is one readable file (its Arrow table and the record positions behind
its row numbers). The column-name helpers and the "empty / binary / not UTF-8" errors are
shared by the text and Parquet readers.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa

from .decoding import _Decoded, _record_line_numbers
from .errors import InputError, quote

ACCEPTED_FORMATS = (
    "Accepted formats: CSV, TSV or semicolon-separated text in UTF-8 (optionally "
    "gzip-compressed, .gz) and Parquet."
)


@dataclass(frozen=True)
class ColumnPlan:
    """How a caller wants a file's columns read, decided from the header alone.

    ``text``: kept as text (so '007' stays '007'); ``categories``: text with few distinct
    values (model, fold), held dictionary-encoded; ``numbers``: read as float64 while every
    value parses as one (otherwise inferred, exactly as before); ``include``: the only
    columns decoded (None: all); ``small_integers``: integer columns held as int8 when every
    value fits (a label column of 0/1 takes 1 byte per row instead of 8). Only ``include``
    applies to Parquet, whose columns are typed.
    """

    text: frozenset[str] = frozenset()
    categories: frozenset[str] = frozenset()
    numbers: frozenset[str] = frozenset()
    include: frozenset[str] | None = None
    #: Columns (labels) whose integers are held as int8 when they fit (same values).
    small_integers: frozenset[str] = frozenset()
    #: Parquet: called with the ``categories`` columns of the whole file before the other
    #: columns are read, so that names can be refused (e.g. too long) cheaply.
    check: Callable[[pa.Table], None] | None = None


def _as_plan(value: ColumnPlan | Collection[str] | None) -> ColumnPlan:
    if value is None:
        return ColumnPlan()
    if isinstance(value, ColumnPlan):
        return value
    return ColumnPlan(text=frozenset(value))


@dataclass
class ParsedFile:
    """One readable file: its table and how to turn record positions into row numbers."""

    name: str
    table: pa.Table
    kind: str  # "text" or "parquet"
    delimiter: str | None = None
    #: Column names made up for empty header cells ("column 3").
    unnamed: frozenset[str] = frozenset()
    #: Every column name of the file (the table may hold only some: ``ColumnPlan.include``).
    names: tuple[str, ...] = ()
    #: Columns read dictionary-encoded here that are plain in the file (Parquet text).
    encoded: frozenset[str] = frozenset()
    _decoded: _Decoded | None = field(default=None, repr=False)
    _record_lines: np.ndarray | None = field(default=None, repr=False)
    _scanned: bool = field(default=False, repr=False)

    def row_numbers(self, positions: np.ndarray | list[int]) -> np.ndarray:
        """1-based row numbers of 0-based record positions.

        Text files: line numbers, the header being line 1 (so the first record is row 2,
        unless blank lines were skipped). Parquet: 1-based record numbers.
        """
        positions = np.asarray(positions, dtype=np.int64)
        if self.kind != "text" or self._decoded is None:
            return positions + 1
        if not self._scanned:
            self._record_lines = _record_line_numbers(self._decoded)
            self._scanned = True
        lines = self._record_lines
        if lines is None:  # no blank lines: record i is on line i + 2
            return positions + 2
        inside = positions < len(lines)
        out = positions + 2
        out[inside] = lines[positions[inside]]
        return out


def _empty(filename: str, compressed: bool = False) -> InputError:
    what = "the compressed file is empty" if compressed else "the file is empty"
    return InputError(
        f"{filename}: {what} (no header, no data). Give a file with a header line "
        "(e.g. 'label,score') followed by one row per prediction.",
        file=filename,
    )


def _binary(filename: str, what: str | None = None) -> InputError:
    desc = f"looks like {what}" if what else "is not a text, gzip or Parquet file"
    return InputError(
        f"{filename}: cannot be read: it {desc}. {ACCEPTED_FORMATS}",
        file=filename,
    )


def _utf16(filename: str) -> InputError:
    return InputError(
        f"{filename}: is UTF-16/UTF-32 text, not UTF-8. Save it as UTF-8 (in Excel: "
        f"'CSV UTF-8') and try again. {ACCEPTED_FORMATS}",
        file=filename,
    )


def _not_utf8(filename: str, line: int, byte: int) -> InputError:
    return InputError(
        f"{filename}: is not UTF-8 text (the first invalid byte, 0x{byte:02X}, is on line "
        f"{line}); it is probably in a legacy encoding such as Windows-1252 or Latin-1. Save "
        f"it as UTF-8 (in Excel: 'CSV UTF-8') and try again. {ACCEPTED_FORMATS}",
        file=filename,
        rows=(line,),
        count=1,
    )


def _final_names(raw: list[str]) -> list[str]:
    """Unnamed columns (empty header cells) become 'column N' (1-based position)."""
    return [name if name.strip() else f"column {i + 1}" for i, name in enumerate(raw)]


def _unnamed(raw: list[str], names: list[str]) -> frozenset[str]:
    return frozenset(n for r, n in zip(raw, names, strict=True) if not r.strip())


def _check_duplicates(names: list[str], filename: str) -> None:
    seen: dict[str, int] = {}
    for i, name in enumerate(names):
        key = name.strip()
        if key in seen:
            raise InputError(
                f"{filename}: the column name {quote(key)} appears more than once in the "
                f"header (columns {seen[key] + 1} and {i + 1}). Column names must be unique; "
                "rename or remove one of them.",
                file=filename,
                column=key,
            )
        seen[key] = i
