"""Turn one file's bytes into an Arrow table: CSV/TSV/semicolon text, gzip, Parquet.

Only readability is checked here (encoding, structure, duplicated column names, size); what
the columns mean is decided in :mod:`roc_dash.io.columns` and :mod:`roc_dash.io.canonical`.

Size limits
-----------
A few hundred kilobytes of gzip or Parquet can expand to gigabytes (a 0.5 MB ``.csv.gz`` of
repeated lines holds 32 million rows; a 200 KB Parquet file can hold a million copies of a
1,000-character string), so the limits apply to what a file *decodes to*, not to what is
sent. They are read from environment variables *at each call* (a running server picks up no
change, a new worker does; tests may ``monkeypatch.setenv``). A file beyond a limit is
rejected with a :class:`~roc_dash.io.errors.LimitError` (an
:class:`~roc_dash.io.errors.InputError`) naming the file, the limit, the size found and the
variable that sets it; over the decoded budget it is the subclass
:class:`~roc_dash.io.errors.DecodedSizeError`.

================================ ========== ==================================================
variable                         default    limit
================================ ========== ==================================================
``ROC_DASH_MAX_DECOMPRESSED_MB`` 1024       megabytes (MiB) of one file after gzip
                                            decompression, and of a Parquet file's
                                            uncompressed column data (from its metadata)
``ROC_DASH_MAX_DECODED_MB``      1024       megabytes (MiB) of memory the decoded data of
                                            one load may take: the Arrow columns held while
                                            reading, then the canonical table they make
``ROC_DASH_MAX_ROWS``            10000000   data rows of one file; in wide form (one model
                                            per column) rows x score columns
``ROC_DASH_MAX_COLUMNS``         1000       columns of one file
``ROC_DASH_MAX_MODELS``          200        models read from one file (wide-form score
                                            columns)
``ROC_DASH_MAX_NAME_CHARS``      256        characters of a name: column names, model, fold
                                            and class names, label values
================================ ========== ==================================================

The header line may be at most :data:`MAX_HEADER_BYTES` (1 MiB) long.

How they are enforced, before the memory is taken:

* text (plain or gzip) is never decompressed as a whole: it is decoded in 1 MiB pieces and
  parsed in blocks by Arrow's streaming CSV reader, which stops as soon as the rows pass
  ``ROC_DASH_MAX_ROWS`` or the Arrow columns held pass ``ROC_DASH_MAX_DECODED_MB``, whatever
  the quoting; decompression stops as soon as the output passes
  ``ROC_DASH_MAX_DECOMPRESSED_MB``. The header is read first (the columns counted, the names
  checked) and binary files (e.g. gigabytes of zeros) are refused from their first 64 KiB;
* when the reason for an error has to be found (rows with the wrong number of values,
  invalid UTF-8, row numbers after blank lines), the text is scanned again in 256 KiB pieces,
  so error paths are bounded like the happy path;
* Parquet: rows, columns and uncompressed size come from the footer metadata before any data
  page is read; the memory each row group will take is estimated from its metadata before it
  is read, row group by row group; text columns are read dictionary-encoded (a repeated
  string is held once), and a name column whose table would be too big is refused from its
  distinct values (:mod:`roc_dash.io.canonical`) before it is expanded;
* memory Arrow freed is given back to the system after every load, accepted or refused
  (:func:`release_memory`).

Why these defaults: a 10^7-row file of ``label,score,model,fold`` decodes to ~230 MB of Arrow
columns and a ~410 MB canonical table; 1 GiB leaves room for weights and ids at that size
while a hostile file costs at most about the budget (plus the Python process, ~150 MB).
1 GiB of text is 10 million rows of ~100 characters. 200 models is far more curves than a
chart can show; 1000 columns leaves room for feature columns next to the predictions while a
10,000-column file is refused from its header line.
"""

from __future__ import annotations

import codecs
import csv
import gc
import io
import logging
import math
import os
import re
import zlib
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv
import pyarrow.parquet as pq

from .errors import DecodedSizeError, InputError, LimitError, format_rows, plural, quote

log = logging.getLogger(__name__)

ACCEPTED_FORMATS = (
    "Accepted formats: CSV, TSV or semicolon-separated text in UTF-8 (optionally "
    "gzip-compressed, .gz) and Parquet."
)

GZIP_MAGIC = b"\x1f\x8b"
PARQUET_MAGIC = b"PAR1"
UTF8_BOM = b"\xef\xbb\xbf"

#: Known binary signatures and the hint given for them.
_BINARY_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"%PDF", "a PDF document"),
    (b"PK\x03\x04", "a ZIP archive or an Excel workbook (.xlsx); export the sheet as CSV"),
    (b"\xd0\xcf\x11\xe0", "an old-style Office document (.xls); export the sheet as CSV"),
    (b"BZh", "a bzip2 archive; decompress it or use gzip"),
    (b"\xfd7zXZ", "an xz archive; decompress it or use gzip"),
    (b"7z\xbc\xaf", "a 7-Zip archive; decompress it first"),
    (b"(\xb5/\xfd", "a zstd archive; decompress it or use gzip"),
)

_SAMPLE_SIZE = 1 << 16

#: The longest header line read (bytes): 1000 columns of 256-character names fit four times.
MAX_HEADER_BYTES = 1 << 20

#: Columns pandas writes for a non-trivial index in a Parquet file; they are not data.
_PANDAS_INDEX_COLUMN = re.compile(r"^__index_level_\d+__$")

#: Values read as missing in text files (Arrow's defaults: "", NA, NaN, null, N/A, #N/A, …).
NULL_VALUES = tuple(pa_csv.ConvertOptions().null_values)

#: How text columns with few distinct values (model, fold) are held: each value once.
DICTIONARY_TEXT = pa.dictionary(pa.int32(), pa.string())


# --------------------------------------------------------------------------- size limits

MAX_DECOMPRESSED_MB_VAR = "ROC_DASH_MAX_DECOMPRESSED_MB"
MAX_DECODED_MB_VAR = "ROC_DASH_MAX_DECODED_MB"
MAX_ROWS_VAR = "ROC_DASH_MAX_ROWS"
MAX_COLUMNS_VAR = "ROC_DASH_MAX_COLUMNS"
MAX_MODELS_VAR = "ROC_DASH_MAX_MODELS"
MAX_NAME_CHARS_VAR = "ROC_DASH_MAX_NAME_CHARS"

#: Default of each limit (see the module docstring); megabytes for the first two, counts
#: otherwise.
LIMIT_DEFAULTS: dict[str, float] = {
    MAX_DECOMPRESSED_MB_VAR: 1024,
    MAX_DECODED_MB_VAR: 1024,
    MAX_ROWS_VAR: 10_000_000,
    MAX_COLUMNS_VAR: 1000,
    MAX_MODELS_VAR: 200,
    MAX_NAME_CHARS_VAR: 256,
}

_MEGABYTE_VARS = (MAX_DECOMPRESSED_MB_VAR, MAX_DECODED_MB_VAR)

_MB = 1 << 20


@dataclass(frozen=True)
class Limits:
    """The size limits in force; :meth:`from_env` reads them (at call time)."""

    decompressed_bytes: int
    rows: int
    columns: int
    models: int
    decoded_bytes: int = int(LIMIT_DEFAULTS[MAX_DECODED_MB_VAR] * _MB)
    name_chars: int = int(LIMIT_DEFAULTS[MAX_NAME_CHARS_VAR])

    @classmethod
    def from_env(cls) -> Limits:
        """The limits set by the environment variables, defaults where unset or invalid."""
        return cls(
            decompressed_bytes=max(1, int(_env_number(MAX_DECOMPRESSED_MB_VAR) * _MB)),
            rows=int(_env_number(MAX_ROWS_VAR)),
            columns=int(_env_number(MAX_COLUMNS_VAR)),
            models=int(_env_number(MAX_MODELS_VAR)),
            decoded_bytes=max(1, int(_env_number(MAX_DECODED_MB_VAR) * _MB)),
            name_chars=int(_env_number(MAX_NAME_CHARS_VAR)),
        )


def limits() -> Limits:
    """The size limits in force now (read from the environment on every call)."""
    return Limits.from_env()


_warned: set[tuple[str, str]] = set()


def _env_number(var: str) -> float:
    """A positive number from ``var`` ('1024', '0.5', '2e7', '20_000_000'); the default,
    with one logged warning, when the value is not one."""
    default = LIMIT_DEFAULTS[var]
    raw = os.environ.get(var, "").strip()
    if not raw:
        return default
    try:
        value = float(raw.replace("_", ""))
    except ValueError:
        value = math.nan
    integral = var not in _MEGABYTE_VARS
    if not (math.isfinite(value) and (value >= 1 if integral else value > 0)):
        if (var, raw) not in _warned:
            _warned.add((var, raw))
            log.warning("%s=%r is not a positive number; using the default %g", var, raw,
                        default)
        return default
    return value


def _mb(n_bytes: float) -> str:
    """Megabytes (MiB) as shown in messages: '1,024 MB', '0.5 MB'."""
    mb = n_bytes / _MB
    return f"{mb:,.0f} MB" if mb >= 10 else f"{mb:.3g} MB"


def limit_error(filename: str, problem: str, var: str, advice: str, *,
                limit: int | float = 0, cls: type[LimitError] = LimitError) -> LimitError:
    """The error for a file beyond a size limit: ``'{file}: {problem}. {advice}. The limit is
    set by the environment variable {var}; whoever runs the server can raise it.'``"""
    return cls(
        f"{filename}: {problem}. {advice}. The limit is set by the environment variable "
        f"{var}; whoever runs the server can raise it.",
        variable=var,
        limit=limit,
        file=filename,
    )


def check_rows(
    n_rows: int, filename: str, *, found: str | None = None, scope: str = "per file"
) -> None:
    """Raise :class:`LimitError` when ``n_rows`` is beyond ``ROC_DASH_MAX_ROWS``.

    ``found`` describes the count (default ``'has N rows'``); a caller that combines files can
    pass e.g. ``found='together have 12,000,000 rows', scope='in one upload'``.
    """
    limit = limits().rows
    if n_rows > limit:
        raise _rows_error(filename, found or "has " + plural(n_rows, "row"), limit, scope)


def _rows_error(filename: str, found: str, limit: int, scope: str = "per file") -> LimitError:
    return limit_error(
        filename,
        f"{found}, more than the {plural(limit, 'row')} accepted {scope}",
        MAX_ROWS_VAR,
        "Upload fewer rows (a random sample, or the rows split over several uploads)",
        limit=limit,
    )


def check_columns(n_columns: int, filename: str) -> None:
    """Raise :class:`LimitError` when ``n_columns`` is beyond ``ROC_DASH_MAX_COLUMNS``."""
    now = limits()
    if n_columns > now.columns:
        raise limit_error(
            filename,
            f"has {plural(n_columns, 'column')}, more than the "
            f"{plural(now.columns, 'column')} accepted per file",
            MAX_COLUMNS_VAR,
            "Keep only the label and score columns (and model, fold, weight or id if used); "
            f"with one model per column, at most {plural(now.models, 'score column')}",
            limit=now.columns,
        )


def name_too_long(filename: str, what: str, value: str, length: int, *,
                  column: str | None = None, where: str = "") -> LimitError:
    """The error for a name beyond ``ROC_DASH_MAX_NAME_CHARS``: ``what`` says which kind of
    name ('column name', 'model name', ...), ``where`` where it is ('row 5', 'column 3')."""
    limit = limits().name_chars
    place = f" ({where})" if where else ""
    in_column = f"column {quote(column)} has " if column is not None else "has "
    error = limit_error(
        filename,
        f"{in_column}a {what} of {length:,} characters{place}: {quote(value)}; "
        f"{what}s may have at most {plural(limit, 'character')}",
        MAX_NAME_CHARS_VAR,
        f"Shorten the {what}s (e.g. 'rf' instead of a description), or check that this "
        "column holds what it should",
        limit=limit,
    )
    error.column = column
    return error


def check_header_names(names: list[str], filename: str) -> None:
    """Raise :class:`LimitError` for a column name beyond ``ROC_DASH_MAX_NAME_CHARS``."""
    limit = limits().name_chars
    for i, name in enumerate(names):
        if len(name) > limit:
            error = name_too_long(filename, "column name", name, len(name),
                                  where=f"column {i + 1}")
            raise error


def _too_much_data(filename: str, problem: str) -> LimitError:
    return limit_error(
        filename,
        problem,
        MAX_DECOMPRESSED_MB_VAR,
        "Upload a smaller file (fewer rows or columns, or the rows split over several uploads)",
        limit=limits().decompressed_bytes,
    )


def decoded_error(filename: str, problem: str, advice: str | None = None, *,
                  column: str | None = None) -> DecodedSizeError:
    """The error for data beyond the decoded budget (``ROC_DASH_MAX_DECODED_MB``)."""
    error = limit_error(
        filename,
        problem,
        MAX_DECODED_MB_VAR,
        advice or "Keep only the columns needed (label and score, and model, fold, weight or "
        "id if used), shorten long text values, or split the rows over several uploads",
        limit=limits().decoded_bytes,
        cls=DecodedSizeError,
    )
    error.column = column
    return error  # type: ignore[return-value]


def _budget_words(budget: int) -> str:
    """'1,024 MB accepted', or how much of it is left after the files before this one."""
    limit = limits().decoded_bytes
    if budget >= limit:
        return f"{_mb(limit)} accepted"
    return (f"{_mb(budget)} left of the {_mb(limit)} accepted per load after the files "
            "before it")


def release_memory(collect: bool = True) -> None:
    """Give the memory freed since the last call back to the operating system: Arrow's pool
    keeps freed blocks for reuse otherwise, so a worker that refused a big file would stay
    big. ``collect``: first collect garbage cycles (tens of milliseconds in a big process;
    done after a refusal, whose frames may hold what was read). Called after every refused
    load and every big one."""
    if collect:
        gc.collect()
    pa.default_memory_pool().release_unused()
    if _malloc_trim is not None:  # numpy's and Python's big buffers freed into the C heap
        _malloc_trim(0)


def _find_malloc_trim():
    try:
        import ctypes

        return ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):  # not glibc: nothing to trim
        return None


_malloc_trim = _find_malloc_trim()


# --------------------------------------------------------------------------- results


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


def read_table(data: bytes, filename: str) -> pd.DataFrame:
    """Parse one file's bytes into a DataFrame, checking only that it is readable.

    Accepts CSV, TSV and semicolon-separated UTF-8 text (with or without BOM, any line
    endings; the delimiter is detected from the header line), gzip-compressed text (detected
    from the magic bytes) and Parquet. Raises :class:`InputError` for empty, binary,
    non-UTF-8 or malformed files and for duplicated column names.
    """
    parsed = parse_bytes(data, filename)
    table = parsed.table
    for name in parsed.encoded:  # as in the file, not as held while reading
        i = table.schema.get_field_index(name)
        if i >= 0 and pa.types.is_dictionary(table.field(i).type):
            column = pc.cast(table.column(i), table.field(i).type.value_type)
            table = table.set_column(i, name, column)
    return table.to_pandas()


def read_source(source: object) -> tuple[str, bytes]:
    """``(display name, bytes)`` of a path or a ``(filename, bytes)`` pair."""
    if isinstance(source, tuple) and len(source) == 2:
        name, data = source
        name = str(name)
        if isinstance(data, str):
            data = data.encode("utf-8")
        if not isinstance(data, bytes | bytearray | memoryview):
            raise TypeError(f"expected bytes for {name!r}, got {type(data).__name__}")
        return name, bytes(data)
    try:
        path = os.fspath(source)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(
            "each source must be a path or a (filename, bytes) pair, "
            f"not {type(source).__name__}"
        ) from None
    name = str(path)
    try:
        with open(path, "rb") as fh:
            return name, fh.read()
    except FileNotFoundError:
        raise InputError(f"{name}: file not found. Check the path.", file=name) from None
    except IsADirectoryError:
        raise InputError(
            f"{name}: is a directory, not a file. Give the prediction files themselves.",
            file=name,
        ) from None
    except OSError as exc:
        reason = exc.strerror or exc.__class__.__name__
        raise InputError(
            f"{name}: cannot be opened ({reason}). Check the path and its permissions.",
            file=name,
        ) from None


def parse_bytes(
    data: bytes,
    filename: str,
    string_columns: Callable[[list[str]], ColumnPlan | Collection[str]] | None = None,
    *,
    budget: int | None = None,
) -> ParsedFile:
    """Read one file.

    ``string_columns(names)`` may return the columns to keep as text (CSV only), or a
    :class:`ColumnPlan`; it is called with the final column names before the body is read,
    so it may also raise (e.g. when a required column is missing) before any heavy work is
    done. ``budget``: the bytes of decoded data this file may take (default
    ``ROC_DASH_MAX_DECODED_MB``); beyond it :class:`DecodedSizeError` is raised.
    """
    data = bytes(data) if not isinstance(data, bytes) else data
    if budget is None:
        budget = limits().decoded_bytes
    if not data:
        raise _empty(filename)
    decoded = _Decoded(data, filename)
    head = decoded.take(4)
    if decoded.gzip:
        if not head:
            raise _empty(filename, compressed=True)
        if head[:4] == PARQUET_MAGIC:  # Parquet needs the whole file: bounded by the limit
            return _parse_parquet(_gunzip(data, filename), filename, string_columns, budget)
        if head[:2] == GZIP_MAGIC:  # gzip inside gzip
            raise InputError(
                f"{filename}: is compressed twice (gzip inside gzip). Decompress it once and "
                "try again.",
                file=filename,
            )
    elif head[:4] == PARQUET_MAGIC:
        return _parse_parquet(data, filename, string_columns, budget)
    return _parse_text(decoded, filename, string_columns, budget)


# --------------------------------------------------------------------------- failures


def _empty(filename: str, compressed: bool = False) -> InputError:
    what = "the compressed file is empty" if compressed else "the file is empty"
    return InputError(
        f"{filename}: {what} (no header, no data). Upload a file with a header line "
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


# --------------------------------------------------------------------------- decoded bytes

_GZIP_IN_CHUNK = 1 << 16
_GZIP_OUT_CHUNK = 1 << 20
_ZERO_PADDING = re.compile(rb"\x00*")
#: Pieces handed to the line scanners (bounded arrays per piece, even for blank lines).
_SCAN_CHUNK = 1 << 18


def _gunzip_pieces(data: bytes, filename: str) -> Iterator[bytes]:
    """Decompressed pieces (at most 1 MiB each) of all gzip members of ``data`` (like
    :func:`gzip.decompress`, zero padding between and after members allowed): input is fed
    64 KiB at a time and decompression stops as soon as the output passes
    ``ROC_DASH_MAX_DECOMPRESSED_MB``, so nothing is held but the piece being read."""
    limit = limits().decompressed_bytes
    total = 0
    view = memoryview(data)
    n = len(data)
    pos = 0
    try:
        while True:  # one gzip member
            inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)  # gzip header and trailer
            tail = b""
            while not inflater.eof:
                if tail:
                    piece: bytes | memoryview = tail
                elif pos < n:
                    piece = view[pos : pos + _GZIP_IN_CHUNK]
                    pos += len(piece)
                else:
                    piece = b""  # input used up: take what zlib still holds, if anything
                chunk = inflater.decompress(piece, min(_GZIP_OUT_CHUNK, limit - total + 1))
                tail = inflater.unconsumed_tail
                if chunk:
                    total += len(chunk)
                    if total > limit:
                        raise _too_much_data(
                            filename,
                            f"decompresses to more than {_mb(limit)}, the most data accepted "
                            "per file",
                        )
                    yield chunk
                elif not piece:
                    raise EOFError("compressed data ended before the end-of-stream marker")
            # everything fed after the member's end (zlib may repeat it in unconsumed_tail)
            member_end = pos - len(inflater.unused_data)
            pos = _ZERO_PADDING.match(data, member_end).end()
            if pos >= n:
                break
            if data[pos : pos + 2] != GZIP_MAGIC:
                raise zlib.error("data after the end of the gzip stream")
    except (OSError, EOFError, zlib.error):
        raise InputError(
            f"{filename}: is gzip-compressed but cannot be decompressed; the file is probably "
            "truncated or damaged. Compress it again (or upload it uncompressed).",
            file=filename,
        ) from None


def _gunzip(data: bytes, filename: str) -> bytes:
    """All of ``data`` decompressed (for gzip-compressed Parquet, which is read as a whole);
    never more than about ``ROC_DASH_MAX_DECOMPRESSED_MB`` is held."""
    out = io.BytesIO()
    for piece in _gunzip_pieces(data, filename):
        out.write(piece)
    return out.getvalue()


class _Decoded:
    """The decoded bytes of one text file (after any BOM; gzip decompressed on the fly),
    read from the start as often as needed, never held as a whole."""

    def __init__(self, data: bytes, filename: str) -> None:
        self.data = data
        self.filename = filename
        self.gzip = data[:2] == GZIP_MAGIC
        self.offset = 0  # bytes skipped at the start (a byte order mark)

    def chunks(self, start: int = 0) -> Iterator[bytes | memoryview]:
        """The decoded bytes from ``start`` in pieces (memoryviews of plain text: no copy)."""
        skip = self.offset + start
        if not self.gzip:
            view = memoryview(self.data)
            for i in range(skip, len(view), _GZIP_OUT_CHUNK):
                yield view[i : i + _GZIP_OUT_CHUNK]
            return
        for piece in _gunzip_pieces(self.data, self.filename):
            if skip:
                if len(piece) <= skip:
                    skip -= len(piece)
                    continue
                piece = piece[skip:]
                skip = 0
            yield piece

    def take(self, n: int, start: int = 0) -> bytes:
        """The first ``n`` decoded bytes from ``start`` (fewer at the end of the file)."""
        out = bytearray()
        for piece in self.chunks(start):
            out += piece[: n - len(out)]
            if len(out) >= n:
                break
        return bytes(out)

    def stream(self, start: int = 0):
        """A file object Arrow reads from ``start``: the buffer itself for plain text."""
        if not self.gzip:
            return pa.BufferReader(pa.py_buffer(self.data)[self.offset + start :])
        return _ChunkStream(self.chunks(start))

    def plain_view(self) -> bytes | None:
        """The bytes themselves when the text is not compressed (cheap counts), else None."""
        return None if self.gzip else self.data


class _ChunkStream(io.RawIOBase):
    """A readable file over an iterator of byte pieces (errors raised by the iterator, e.g.
    a decompression limit, reach whoever reads)."""

    def __init__(self, chunks: Iterator[bytes | memoryview]) -> None:
        self._chunks = iter(chunks)
        self._buf = memoryview(b"")

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        """Up to ``size`` bytes (all that is left for -1), joined from the pieces without
        an intermediate buffer."""
        parts = []
        wanted = size if size is not None and size >= 0 else None
        got = 0
        while wanted is None or got < wanted:
            if not len(self._buf):
                try:
                    self._buf = memoryview(next(self._chunks)).cast("B")
                except StopIteration:
                    break
                continue
            n = len(self._buf) if wanted is None else min(wanted - got, len(self._buf))
            parts.append(self._buf[:n])
            self._buf = self._buf[n:]
            got += n
        return b"".join(parts)

    def readinto(self, b) -> int:
        out = memoryview(b).cast("B")
        filled = 0
        while filled < len(out):
            if not len(self._buf):
                try:
                    self._buf = memoryview(next(self._chunks)).cast("B")
                except StopIteration:
                    break
                continue
            n = min(len(out) - filled, len(self._buf))
            out[filled : filled + n] = self._buf[:n]
            self._buf = self._buf[n:]
            filled += n
        return filled


# --------------------------------------------------------------------------- column names


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


# --------------------------------------------------------------------------- Parquet

#: Bytes per value Arrow holds for each Parquet physical type (plus a validity bit).
_PHYSICAL_WIDTH = {"BOOLEAN": 1, "INT32": 4, "INT64": 8, "INT96": 8, "FLOAT": 4, "DOUBLE": 8}


def _is_text_type(t: pa.DataType) -> bool:
    if pa.types.is_dictionary(t):
        t = t.value_type
    return (pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_binary(t)
            or pa.types.is_large_binary(t) or pa.types.is_string_view(t)
            or pa.types.is_binary_view(t))


def _row_group_bytes(metadata: pq.FileMetaData, i: int, wanted: set[int] | None) -> int:
    """Memory the columns ``wanted`` (leaf indices; None: all) of row group ``i`` take once
    read, from the metadata: fixed-width values at their width, text held as a dictionary
    (4 bytes per row plus at most its pages' uncompressed size), anything else generously."""
    group = metadata.row_group(i)
    rows = max(0, group.num_rows)
    total = 0
    for j in range(group.num_columns):
        if wanted is not None and j not in wanted:
            continue
        column = group.column(j)
        pages = max(0, column.total_uncompressed_size)
        width = _PHYSICAL_WIDTH.get(column.physical_type)
        if width is not None:
            total += rows * width + rows // 8 + 1
        else:  # BYTE_ARRAY (dictionary indices + values), FIXED_LEN_BYTE_ARRAY, ...
            total += rows * 4 + rows // 8 + 1 + 2 * pages
    return total


def _parse_parquet(
    data: bytes,
    filename: str,
    string_columns: Callable[[list[str]], ColumnPlan | Collection[str]] | None,
    budget: int,
) -> ParsedFile:
    damaged = InputError(
        f"{filename}: starts like a Parquet file but cannot be read; it is probably "
        "truncated or damaged. Write it again (or export it as CSV).",
        file=filename,
    )
    try:
        metadata = pq.read_metadata(pa.BufferReader(data))
        schema = metadata.schema.to_arrow_schema()
    except Exception:  # noqa: BLE001 - any reader failure means the same to the user
        raise damaged from None
    _check_parquet_size(metadata, filename)
    # pandas metadata would turn named index columns back into an index; keep them as data
    raw = [n for n in schema.names if not _PANDAS_INDEX_COLUMN.match(n)]
    if not raw:
        raise _empty(filename)
    check_header_names(raw, filename)
    names = _final_names(raw)
    _check_duplicates(names, filename)
    plan = _as_plan(string_columns(names)) if string_columns is not None else ColumnPlan()
    keep = [r for r, n in zip(raw, names, strict=True)
            if plan.include is None or n in plan.include]
    text = [f.name for f in schema if f.name in keep and _is_text_type(f.type)
            and not pa.types.is_nested(f.type)]
    kept = set(keep)
    wanted = None if len(keep) == len(schema.names) else {
        j for j in range(metadata.num_columns)
        if metadata.schema.column(j).path.split(".")[0] in kept}
    try:
        reader = pq.ParquetFile(pa.BufferReader(data), metadata=metadata, read_dictionary=text)
    except Exception:  # noqa: BLE001
        raise damaged from None
    estimate = sum(_row_group_bytes(metadata, i, wanted) for i in range(metadata.num_row_groups))
    if estimate > budget:
        raise decoded_error(
            filename,
            f"would take about {_mb(estimate)} of memory once read (from its metadata: "
            f"{metadata.num_rows:,} rows of {plural(len(keep), 'column')} read), more than "
            f"the {_budget_words(budget)}",
        )
    final = dict(zip(raw, names, strict=True))

    def read(columns: list[str]) -> pa.Table:
        """``columns`` of every row group, one row group at a time, under the budget."""
        groups: list[pa.Table] = []
        held = 0
        for i in range(metadata.num_row_groups):
            try:
                groups.append(reader.read_row_group(i, columns=columns))
            except Exception:  # noqa: BLE001
                groups.clear()
                raise damaged from None
            held += groups[-1].nbytes
            if held > budget:
                groups.clear()
                raise decoded_error(filename, f"takes more than {_mb(held)} of memory once "
                                    f"read, more than the {_budget_words(budget)}")
        table = (pa.concat_tables(groups) if len(groups) > 1 else groups[0] if groups
                 else schema.empty_table().select(columns))
        table = table.replace_schema_metadata(None)
        return table.rename_columns([final[c] for c in columns])

    # names (model, fold) first: a caller's check may refuse them before the rest is read
    first = [k for k in keep if final[k] in plan.categories] if plan.check else []
    early = read(first) if first else None
    if early is not None:
        plan.check(early)  # type: ignore[misc]
    rest = read([k for k in keep if k not in first])
    if early is not None:
        columns = {**{n: early.column(n) for n in early.column_names},
                   **{n: rest.column(n) for n in rest.column_names}}
        table = pa.table({final[k]: columns[final[k]] for k in keep})
        del early, rest, columns
    else:
        table = rest
    if table.nbytes > budget:
        raise decoded_error(filename, f"takes {_mb(table.nbytes)} of memory once read, more "
                            f"than the {_budget_words(budget)}")
    check_rows(table.num_rows, filename)  # the metadata said so; the data agrees
    encoded = frozenset(n for r, n in zip(raw, names, strict=True) if r in text
                        and not pa.types.is_dictionary(schema.field(r).type))
    return ParsedFile(filename, table, "parquet", unnamed=_unnamed(raw, names),
                      names=tuple(names), encoded=encoded)


def _check_parquet_size(metadata: pq.FileMetaData, filename: str) -> None:
    """Rows, columns and uncompressed bytes from the footer, before any page is read."""
    check_columns(metadata.num_columns, filename)
    check_rows(metadata.num_rows, filename)
    limit = limits().decompressed_bytes
    total = 0
    for i in range(metadata.num_row_groups):
        total += max(0, metadata.row_group(i).total_byte_size)
        if total > limit:
            whole = sum(
                max(0, metadata.row_group(j).total_byte_size)
                for j in range(metadata.num_row_groups)
            )
            raise _too_much_data(
                filename,
                f"holds {_mb(whole)} of uncompressed data, more than the {_mb(limit)} "
                "accepted per file",
            )


# --------------------------------------------------------------------------- text


def _check_text_sample(sample: bytes, filename: str, whole: bool) -> None:
    """Reject binary files early, from the first 64 KiB (``whole``: that is all there is)."""
    for magic, what in _BINARY_SIGNATURES:
        if sample.startswith(magic):
            raise _binary(filename, what)
    if sample[:2] in (b"\xff\xfe", b"\xfe\xff") or sample[:4] == b"\x00\x00\xfe\xff":
        raise _utf16(filename)
    controls = np.frombuffer(sample, dtype=np.uint8)
    controls = ((controls < 9) | ((controls > 13) & (controls < 32)) | (controls == 127)).sum()
    if b"\x00" in sample or controls > 0.05 * len(sample):
        raise _binary(filename)
    try:
        codecs.getincrementaldecoder("utf-8")().decode(sample, final=whole)
    except UnicodeDecodeError as exc:
        raise _not_utf8(filename, sample.count(b"\n", 0, exc.start) + 1,
                        sample[exc.start]) from None


def _line_end(data: bytes) -> int:
    """Position of the first line break (\\n or \\r) of ``data``, -1 if none."""
    ends = [i for i in (data.find(b"\n"), data.find(b"\r")) if i >= 0]
    return min(ends) if ends else -1


def detect_delimiter(header: str) -> str:
    """The most frequent of comma, tab and semicolon in the header line (comma on ties)."""
    counts = {d: header.count(d) for d in (",", "\t", ";")}
    best = max(counts.values())
    if best == 0:
        return ","
    return next(d for d in (",", "\t", ";") if counts[d] == best)


def _header_too_long(filename: str, line: int) -> LimitError:
    return LimitError(
        f"{filename}: the header line (line {line}) is longer than {_mb(MAX_HEADER_BYTES)}, "
        "the longest header accepted. The header holds the column names (e.g. "
        "'label,score'), one line; check that the file is a table with one header line (a "
        "file whose lines are not separated by line breaks is read as one long line) and "
        "keep only the columns needed.",
        variable="",
        limit=MAX_HEADER_BYTES,
        file=filename,
        rows=(line,),
        count=1,
    )


def _find_header(decoded: _Decoded, filename: str) -> tuple[int, bytes, bool, int]:
    """(offset of the header line, the header line without its line break, whether a line
    break follows it, its line number). Leading blank lines are skipped as Arrow skips
    them, streaming (a file of blank lines holds nothing); at most
    :data:`MAX_HEADER_BYTES` of the header line are read."""
    skipped = 0
    line = 1
    started = False
    header = bytearray()
    for piece in decoded.chunks():
        piece = bytes(piece)
        if not started:
            blank = _LEADING_BLANK_LINES.match(piece).end()
            skipped += blank
            line += _count_line_breaks(piece[:blank])
            if blank == len(piece):
                continue
            piece = piece[blank:]
            started = True
        end = _line_end(piece)
        header += piece if end < 0 else piece[:end]
        if len(header) > MAX_HEADER_BYTES:
            raise _header_too_long(filename, line)
        if end >= 0:
            return skipped, bytes(header), True, line
    return skipped, bytes(header), False, line


def _count_line_breaks(text: bytes) -> int:
    """Lines ended in ``text`` (\\n, \\r\\n or a lone \\r)."""
    return text.count(b"\n") + text.count(b"\r") - text.count(b"\r\n")


def _only_whitespace(decoded: _Decoded) -> bool:
    return all(not bytes(piece).strip() for piece in decoded.chunks())


def _parse_text(
    decoded: _Decoded,
    filename: str,
    string_columns: Callable[[list[str]], ColumnPlan | Collection[str]] | None,
    budget: int,
) -> ParsedFile:
    if decoded.take(len(UTF8_BOM)) == UTF8_BOM:
        decoded.offset = len(UTF8_BOM)
    sample = decoded.take(_SAMPLE_SIZE + 1)
    if not sample.strip() and _only_whitespace(decoded):
        raise _empty(filename)
    _check_text_sample(sample[:_SAMPLE_SIZE], filename, whole=len(sample) <= _SAMPLE_SIZE)

    start, header_bytes, more, header_line = _find_header(decoded, filename)
    try:
        header = header_bytes.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _not_utf8(filename, header_line, header_bytes[exc.start]) from None
    delimiter = detect_delimiter(header)
    _check_header_width(header, delimiter, filename)
    try:
        raw_names = next(csv.reader([header], delimiter=delimiter), [])
    except csv.Error as exc:
        if "field larger than field limit" in str(exc):
            limit = limits().name_chars
            raise limit_error(
                filename,
                f"has a column name of more than {csv.field_size_limit():,} characters in its "
                f"header line; column names may have at most {plural(limit, 'character')}",
                MAX_NAME_CHARS_VAR,
                "Check that the first line is the header (the column names, e.g. "
                "'label,score'), and shorten the names",
                limit=limit,
            ) from None
        raise InputError(
            f"{filename}: the header line cannot be read ({exc}). It should hold the column "
            "names separated by commas, tabs or semicolons (e.g. 'label,score').",
            file=filename,
        ) from None
    check_columns(len(raw_names), filename)
    check_header_names(raw_names, filename)
    names = _final_names(raw_names)
    _check_duplicates(names, filename)
    body_start = start + len(header_bytes)
    plain = decoded.plain_view()
    if plain is not None:
        _check_line_count(plain, decoded.offset + body_start, filename)
    plan = _as_plan(string_columns(names)) if string_columns is not None else ColumnPlan()
    unnamed = _unnamed(raw_names, names)
    include = [n for n in names if plan.include is None or n in plan.include]

    if not more:  # a header line and nothing else
        table = pa.table({n: pa.nulls(0) for n in include})
        return ParsedFile(filename, table, "text", delimiter, unnamed=unnamed,
                          names=tuple(names), _decoded=decoded)
    reading = _TextReading(decoded, filename, start, body_start, names, include, delimiter,
                           block=max(_BLOCK_SIZE, 2 * len(header_bytes)), budget=budget)
    table = reading.read(plan)

    for column_type in table.schema.types:
        if pa.types.is_binary(column_type) or pa.types.is_large_binary(column_type):
            raise _not_utf8(filename, *_first_invalid_utf8(decoded))
    if delimiter == ";":
        table = _decimal_commas(table, plan.text | plan.categories)
    return ParsedFile(filename, table, "text", delimiter, unnamed=unnamed, names=tuple(names),
                      _decoded=decoded)


#: Bytes Arrow parses at a time (one batch); rows longer than this are refused.
_BLOCK_SIZE = 1 << 20


def _close(reader) -> None:
    if reader is None:
        return
    try:
        reader.close()
    except Exception:  # noqa: BLE001 - a reader that failed may fail to close too
        pass


class _TypeChange(Exception):
    """A column's values stopped parsing as the type inferred from the first block."""


class _TextReading:
    """One text file's body parsed by Arrow's streaming CSV reader under the limits."""

    def __init__(self, decoded: _Decoded, filename: str, start: int, body_start: int,
                 names: list[str], include: list[str], delimiter: str, *, block: int,
                 budget: int) -> None:
        self.decoded = decoded
        self.filename = filename
        self.start = start
        self.body_start = body_start
        self.names = names
        self.include = include
        self.delimiter = delimiter
        self.block = block
        self.budget = budget
        self.narrow: list[str] = []

    def _options(self, types: dict[str, pa.DataType]):
        return dict(
            read_options=pa_csv.ReadOptions(column_names=self.names, skip_rows=1,
                                            use_threads=True, block_size=self.block),
            parse_options=pa_csv.ParseOptions(delimiter=self.delimiter),
            convert_options=pa_csv.ConvertOptions(
                column_types=types,
                include_columns=self.include if len(self.include) != len(self.names) else [],
                strings_can_be_null=True,
            ),
        )

    def read(self, plan: ColumnPlan) -> pa.Table:
        """The table, inferring types as Arrow does; columns in ``plan.numbers`` are read as
        float64 and text columns as text. When a value stops matching the type read so far
        (Arrow's streaming reader infers from the first block only), the file is read again
        the way the whole-file reader does it, after a first pass that checks the limits."""
        text_types = {n: DICTIONARY_TEXT for n in plan.categories if n in self.include}
        text_types.update({n: pa.string() for n in plan.text
                           if n in self.include and n not in text_types})
        fast = dict(text_types)
        if self.delimiter != ";":  # decimal commas are text until _decimal_commas
            fast.update({n: pa.float64() for n in plan.numbers
                         if n in self.include and n not in fast})
        self.narrow = [n for n in plan.small_integers if n in self.include]
        try:
            return self._stream(fast, keep=True)
        except _TypeChange:
            pass
        self.narrow = []
        # every column as text: no value can fail; only the limits are checked
        self._stream({n: text_types.get(n, pa.string()) for n in self.include}, keep=False)
        try:
            table = pa_csv.read_csv(self.decoded.stream(self.start), **self._options(text_types))
        except pa.ArrowInvalid as exc:
            raise self._failure(str(exc)) from None
        if table.nbytes > self.budget:
            nbytes = table.nbytes
            del table
            raise self._decoded_error(nbytes, None)
        return table

    def _stream(self, types: dict[str, pa.DataType], keep: bool) -> pa.Table | None:
        row_limit = limits().rows
        batches: list[pa.RecordBatch] = []
        rows = held = 0
        overflow = None
        failure = None
        reader = None
        try:
            reader = pa_csv.open_csv(self.decoded.stream(self.start), **self._options(types))
            schema = reader.schema
            for batch in reader:
                if keep and self.narrow:
                    batch = _narrowed(batch, self.narrow)
                rows += batch.num_rows
                held += batch.nbytes
                if rows > row_limit or held > self.budget:
                    overflow = "rows" if rows > row_limit else "bytes"
                elif keep:
                    batches.append(batch)
                del batch
                if overflow:
                    break
        except pa.ArrowInvalid as exc:
            failure = str(exc)
        if not (overflow or failure):
            del reader
            if not keep:
                return None
            if batches and any(b.schema != batches[0].schema for b in batches):
                batches = [b.cast(schema) for b in batches]  # a batch could not be narrowed
            elif batches:
                schema = batches[0].schema
            return pa.Table.from_batches(batches, schema=schema)
        # nothing read is kept: the error (and its traceback) must not hold Arrow memory
        batches.clear()
        if failure is not None:
            _close(reader)  # its read-ahead stops and lets go of the blocks it holds
            del reader
            release_memory(collect=False)
            if "conversion error" in failure and "UTF8" not in failure:
                raise _TypeChange(failure)
            raise self._failure(failure)
        if overflow == "rows":
            error: InputError = self._rows_error(reader, rows, row_limit)
        else:
            error = self._decoded_error(held, rows)
        _close(reader)
        del reader
        release_memory(collect=False)
        raise error

    def _rows_error(self, reader, rows: int, limit: int) -> LimitError:
        """Too many rows: the count is exact when the rest of the file is short or when
        counting its line breaks is (no quotes, no blank lines), else 'more than'."""
        ended = False
        try:
            while rows <= limit + max(limit // 4, 1):
                rows += reader.read_next_batch().num_rows
        except StopIteration:
            ended = True
        except (pa.ArrowInvalid, InputError):
            pass
        del reader
        if not ended:
            exact = _exact_records(self.decoded, self.body_start)
            if exact is not None and exact > limit:
                rows, ended = exact, True
        if ended:
            return _rows_error(self.filename, "has " + plural(rows, "row"), limit)
        return limit_error(
            self.filename,
            f"has more than {plural(limit, 'row')}, the most accepted per file",
            MAX_ROWS_VAR,
            "Upload fewer rows (a random sample, or the rows split over several uploads)",
            limit=limit,
        )

    def _decoded_error(self, held: int, rows: int | None) -> DecodedSizeError:
        where = f" after {plural(rows, 'row')}" if rows else ""
        return decoded_error(
            self.filename,
            f"decodes to more data than one load may hold: {_mb(held)} of table "
            f"data{where}, more than the {_budget_words(self.budget)} (many columns, long "
            "values, or compressed text that expands)",
        )

    def _failure(self, reason: str) -> InputError:
        return _text_failure(reason, self.decoded, self.filename, self.delimiter,
                             len(self.names), self.block)


def _narrowed(batch: pa.RecordBatch, names: list[str]) -> pa.RecordBatch:
    """``batch`` with the int64 columns ``names`` as int8 where all their values fit."""
    for name in names:
        i = batch.schema.get_field_index(name)
        column = batch.column(i)
        if not pa.types.is_int64(column.type) or column.null_count:
            continue
        low, high = pc.min_max(column).values()
        if low.as_py() is not None and -128 <= low.as_py() and high.as_py() <= 127:
            batch = batch.set_column(i, name, column.cast(pa.int8()))
    return batch


_QUOTED = re.compile(r'"[^"]*"')


def _check_header_width(header: str, delimiter: str, filename: str) -> None:
    """Refuse a header with too many columns before splitting it into names (a hostile
    header line of millions of fields would cost gigabytes as Python strings)."""
    fields = header.count(delimiter) + 1  # at least the number of columns
    if fields > limits().columns and '"' in header:
        fields = _QUOTED.sub("", header).count(delimiter) + 1  # delimiters between quotes
    check_columns(fields, filename)


def _check_line_count(data: bytes, body_start: int, filename: str) -> None:
    """Refuse a text file with too many rows before parsing it, from one count of its line
    breaks. The count is exact without quotes (a quoted field may hold line breaks) or blank
    lines (Arrow skips them); otherwise the streaming parse stops at the limit."""
    limit = limits().rows
    if len(data) - body_start <= limit:  # fewer bytes than rows allowed: cannot be too many
        return
    lone_cr = data[body_start : body_start + 2] not in (b"\n", b"\r\n") and data[
        body_start : body_start + 1
    ] == b"\r"
    brk = b"\r" if lone_cr else b"\n"
    # the header's own line break is counted; a last line without one is a record too
    records = data.count(brk, body_start) - 1 + (0 if data.endswith((b"\n", b"\r")) else 1)
    if records <= limit:
        return
    blank = b"\r\r" if lone_cr else b"\n\n"
    crlf_blank = b"\n\r\n"
    if (
        data.find(b'"', body_start) < 0
        and data.find(blank, body_start) < 0
        and data.find(crlf_blank, body_start) < 0
    ):
        check_rows(records, filename)


def _exact_records(decoded: _Decoded, body_start: int) -> int | None:
    """The number of records after the header, counted from line breaks in one streaming
    pass; None when that count would not be exact (quotes, blank lines) or the text is over
    the decompression limit."""
    first = decoded.take(2, body_start)
    lone_cr = first not in (b"\n", b"\r\n") and first[:1] == b"\r"
    brk = b"\r" if lone_cr else b"\n"
    patterns = (b"\r\r",) if lone_cr else (b"\n\n", b"\n\r\n")
    count = 0
    tail = b""
    try:
        for piece in decoded.chunks(body_start):
            piece = bytes(piece)
            if b'"' in piece:
                return None
            window = tail + piece
            if any(p in window for p in patterns):
                return None
            count += piece.count(brk)
            tail = window[-2:]
    except LimitError:
        return None
    return count - 1 + (0 if tail.endswith((b"\n", b"\r")) else 1)


_DECIMAL_COMMA = r"^[+-]?\d*,\d+$"


def _decimal_commas(table: pa.Table, keep_text: Collection[str]) -> pa.Table:
    """Semicolon-separated files often write numbers with a decimal comma ('0,75'): text
    columns whose values are all such numbers (or plain numbers) become float64."""
    for i, name in enumerate(table.column_names):
        column = table.column(i)
        if name in keep_text or not pa.types.is_string(column.type):
            continue
        text = pc.utf8_trim_whitespace(column)
        if not pc.any(pc.match_substring_regex(text, _DECIMAL_COMMA)).as_py():
            continue
        try:
            numbers = pc.cast(pc.replace_substring(text, ",", "."), pa.float64())
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            continue
        table = table.set_column(i, name, numbers)
    return table


def _first_invalid_utf8(decoded: _Decoded) -> tuple[int, int]:
    """(line, byte) of the first byte that is not UTF-8, found in one streaming pass."""
    line = 1
    pending = b""
    for piece in decoded.chunks():
        data = pending + bytes(piece)
        cut = len(data)
        for k in range(1, min(4, len(data)) + 1):  # keep a character cut in two for later
            byte = data[-k]
            if byte & 0xC0 != 0x80:
                if byte >= 0xC0:
                    cut = len(data) - k
                break
        head, pending = data[:cut], data[cut:]
        try:
            head.decode("utf-8")
        except UnicodeDecodeError as exc:
            return line + head.count(b"\n", 0, exc.start), head[exc.start]
        line += head.count(b"\n")
    try:
        pending.decode("utf-8")
    except UnicodeDecodeError as exc:
        return line + pending.count(b"\n", 0, exc.start), pending[exc.start]
    return line, 0


def _text_failure(
    reason: str, decoded: _Decoded, filename: str, delimiter: str, n_columns: int,
    block: int = _BLOCK_SIZE,
) -> InputError:
    if "UTF8" in reason or "UTF-8" in reason:
        return _not_utf8(filename, *_first_invalid_utf8(decoded))
    if "Expected" in reason and "columns" in reason:
        bad, count = _rows_with_wrong_field_count(decoded, delimiter, n_columns)
        if bad:
            lines = [line for line, _ in bad]
            first_line, first_count = bad[0]
            shown = {"\t": "tab", ",": "comma", ";": "semicolon"}[delimiter]
            return InputError(
                f"{filename}: {plural(count, 'row')} "
                f"{'does' if count == 1 else 'do'} not have {n_columns} values like "
                f"the header ({format_rows(lines, count)}); row {first_line} has "
                f"{first_count}. Every row needs one value per column, separated by the "
                f"{shown} found in the header; fix or remove these rows (look for stray, "
                "missing or unquoted separators).",
                file=filename,
                rows=lines[:5],
                count=count,
            )
    if "straddl" in reason:
        return InputError(
            f"{filename}: has a row longer than {_mb(block)}, more than a table row can be: "
            "most likely a double quote (\") opens a value that is never closed, so the rest "
            "of the file reads as one value. Check the quotes in the file (or remove them).",
            file=filename,
        )
    reason = reason.strip()
    if len(reason) > 300:
        reason = reason[:297] + "..."
    return InputError(
        f"{filename}: cannot be read as delimited text ({reason}). Check that it is "
        f"a well-formed table with one header line. {ACCEPTED_FORMATS}",
        file=filename,
    )


_LEADING_BLANK_LINES = re.compile(rb"[\r\n]*")


def _scan_pieces(decoded: _Decoded) -> Iterator[bytes | memoryview]:
    """The decoded text in pieces of at most 256 KiB that never split a '\\r\\n' pair."""
    held = b""
    for chunk in decoded.chunks():
        for i in range(0, len(chunk), _SCAN_CHUNK):
            piece = chunk[i : i + _SCAN_CHUNK]
            if held:
                piece = held + bytes(piece)
                held = b""
            if piece[-1:] == b"\r":
                held = b"\r"
                piece = piece[:-1]
            if len(piece):
                yield piece
    if held:
        yield held


def _scan_lines(decoded: _Decoded, delimiter: str | None = None
                ) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray | None]]:
    """Lines of the text (split at \\n, \\r\\n or a lone \\r), in one streaming pass, as
    arrays per piece: their 1-based numbers, content lengths (without the line break) and,
    with ``delimiter``, numbers of fields (delimiters outside double quotes, plus one). The
    last line is yielded even when empty. Memory: a few arrays the size of one piece."""
    line = 1
    carry_len = carry_fields = 0
    parity = 0
    code = ord(delimiter) if delimiter else None
    for piece in _scan_pieces(decoded):
        arr = np.frombuffer(piece, dtype=np.uint8)
        is_nl = arr == 10
        is_cr = arr == 13
        has_cr = bool(is_cr.any())
        if has_cr:
            lone = is_cr.copy()
            lone[:-1] &= ~is_nl[1:]
            breaks = np.flatnonzero(is_nl | lone)
        else:
            breaks = np.flatnonzero(is_nl)
        n = len(breaks)
        starts = np.empty(n, dtype=np.int64)
        if n:
            starts[0] = 0
            starts[1:] = breaks[:-1] + 1
        lengths = breaks - starts
        if has_cr and n:
            crlf = is_nl[breaks] & (lengths > 0) & is_cr[np.maximum(breaks - 1, 0)]
            lengths -= crlf
        fields = None
        tail_fields = 0
        if code is not None:
            positions = np.flatnonzero(arr == code)
            quotes = arr == 34
            n_quotes = int(quotes.sum())
            if parity or n_quotes:
                # quote parity before each byte; uint8 wraps at 256, which keeps the parity
                inside = (np.cumsum(quotes, dtype=np.uint8) + np.uint8(parity)) & 1
                positions = positions[inside[positions] == 0]
                parity = (parity + n_quotes) & 1
            counts = np.bincount(np.searchsorted(breaks, positions), minlength=n + 1)
            fields = counts[:n] + 1
            tail_fields = int(counts[n])
        tail_len = len(arr) - (int(breaks[-1]) + 1 if n else 0)
        if n:
            lengths[0] += carry_len
            if fields is not None:
                fields[0] += carry_fields
            yield np.arange(line, line + n, dtype=np.int64), lengths, fields
            line += n
            carry_len, carry_fields = tail_len, tail_fields
        else:
            carry_len += tail_len
            carry_fields += tail_fields
    last_fields = np.array([carry_fields + 1]) if code is not None else None
    yield np.array([line], dtype=np.int64), np.array([carry_len]), last_fields


def _rows_with_wrong_field_count(
    decoded: _Decoded, delimiter: str, n_columns: int
) -> tuple[list[tuple[int, int]], int]:
    """(line number, number of fields) of the first five non-blank lines after the header
    whose field count differs from the header's, and how many there are in all: delimiters
    are counted per line, vectorised, ignoring those inside double quotes, in one streaming
    pass. Only used to explain an error."""
    first: list[tuple[int, int]] = []
    count = 0
    header_seen = False
    for lines, lengths, fields in _scan_lines(decoded, delimiter):
        non_blank = np.flatnonzero(lengths > 0)
        if not header_seen and len(non_blank):
            non_blank = non_blank[1:]  # the first non-blank line is the header
            header_seen = True
        bad = non_blank[fields[non_blank] != n_columns]
        count += len(bad)
        for i in bad[: 5 - len(first)]:
            first.append((int(lines[i]), int(fields[i])))
    return first, count


_BLANK_LINE = (b"\n\n", b"\r\r", b"\n\r\n")


def _record_line_numbers(decoded: _Decoded) -> np.ndarray | None:
    """Line number of each data record, or ``None`` when record i is simply on line i + 2
    (no blank lines before the last record). Streaming: a first pass looks for blank lines,
    a second (only if there are) numbers the non-blank lines."""
    plain = decoded.plain_view()
    if plain is not None:  # the bytes at hand: one search each, no copy
        start = decoded.offset
        if not plain.startswith((b"\n", b"\r"), start) and all(
                plain.find(p, start) < 0 for p in _BLANK_LINE):
            return None
    else:
        tail = None
        for piece in decoded.chunks():
            piece = bytes(piece)
            if tail is None and piece[:1] in (b"\n", b"\r"):
                break
            window = (tail or b"") + piece
            if any(p in window for p in _BLANK_LINE):
                break
            tail = window[-2:]
        else:
            return None
    numbers = [lines[lengths > 0] for lines, lengths, _ in _scan_lines(decoded)]
    non_blank = np.concatenate(numbers) if numbers else np.zeros(0, dtype=np.int64)
    return non_blank[1:]  # the first non-blank line is the header
