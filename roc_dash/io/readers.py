"""Turn one file's bytes into an Arrow table: CSV/TSV/semicolon text, gzip, Parquet.

Only readability is checked here (encoding, structure, duplicated column names, size); what
the columns mean is decided in :mod:`roc_dash.io.columns` and :mod:`roc_dash.io.canonical`.

Size limits
-----------
A few hundred kilobytes of gzip or Parquet can expand to gigabytes (a 0.5 MB ``.csv.gz`` of
repeated lines holds 32 million rows), so every file is checked against limits read from
environment variables *at each call* (a running server picks up no change, a new worker does;
tests may ``monkeypatch.setenv``). A file beyond a limit is rejected with an
:class:`~roc_dash.io.errors.InputError` naming the file, the limit, the size found and the
variable that sets it.

================================ ========== ==================================================
variable                         default    limit
================================ ========== ==================================================
``ROC_DASH_MAX_DECOMPRESSED_MB`` 1024       megabytes (MiB) of one file after gzip
                                            decompression, and of a Parquet file's
                                            uncompressed column data (from its metadata)
``ROC_DASH_MAX_ROWS``            10000000   data rows of one file; in wide form (one model
                                            per column) rows x score columns
``ROC_DASH_MAX_COLUMNS``         1000       columns of one file
``ROC_DASH_MAX_MODELS``          200        models read from one file (wide-form score
                                            columns)
================================ ========== ==================================================

How they are enforced, cheaply and before the expensive step:

* gzip is decompressed in a stream of 1 MiB pieces and stops as soon as the output passes the
  limit, so it never holds more than about the limit (a 200 MB bomb costs ~1 MiB with a 1 MiB
  limit);
* Parquet: rows, columns and uncompressed size come from the footer metadata before any data
  page is read;
* text: the header's columns are counted before the body is parsed; rows are bounded by
  counting line breaks (one pass of ``bytes.count``) and, when quoted line breaks or blank
  lines make that count inexact, checked exactly after parsing.

Why these defaults: loading costs about 120 bytes of peak memory per row (4 million rows of
``label,score`` peaked at ~480 MB in :func:`~roc_dash.io.load_predictions`), so 10 million
rows is about 1.2 GB per worker, and the analysis core is benchmarked up to 10^7 rows. 1 GiB
of text is 10 million rows of ~100 characters. 200 models is far more curves than a chart can
show; 1000 columns leaves room for feature columns next to the predictions while a 10,000
column file is refused from its header line.
"""

from __future__ import annotations

import codecs
import csv
import io
import logging
import math
import os
import re
import zlib
from collections.abc import Callable, Collection
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv
import pyarrow.parquet as pq

from .errors import InputError, format_rows, plural, quote

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

#: Columns pandas writes for a non-trivial index in a Parquet file; they are not data.
_PANDAS_INDEX_COLUMN = re.compile(r"^__index_level_\d+__$")

#: Values read as missing in text files (Arrow's defaults: "", NA, NaN, null, N/A, #N/A, …).
NULL_VALUES = tuple(pa_csv.ConvertOptions().null_values)


# --------------------------------------------------------------------------- size limits

MAX_DECOMPRESSED_MB_VAR = "ROC_DASH_MAX_DECOMPRESSED_MB"
MAX_ROWS_VAR = "ROC_DASH_MAX_ROWS"
MAX_COLUMNS_VAR = "ROC_DASH_MAX_COLUMNS"
MAX_MODELS_VAR = "ROC_DASH_MAX_MODELS"

#: Default of each limit (see the module docstring); megabytes for the first, counts otherwise.
LIMIT_DEFAULTS: dict[str, float] = {
    MAX_DECOMPRESSED_MB_VAR: 1024,
    MAX_ROWS_VAR: 10_000_000,
    MAX_COLUMNS_VAR: 1000,
    MAX_MODELS_VAR: 200,
}

_MB = 1 << 20


@dataclass(frozen=True)
class Limits:
    """The size limits in force; :meth:`from_env` reads them (at call time)."""

    decompressed_bytes: int
    rows: int
    columns: int
    models: int

    @classmethod
    def from_env(cls) -> Limits:
        """The limits set by the environment variables, defaults where unset or invalid."""
        return cls(
            decompressed_bytes=max(1, int(_env_number(MAX_DECOMPRESSED_MB_VAR) * _MB)),
            rows=int(_env_number(MAX_ROWS_VAR)),
            columns=int(_env_number(MAX_COLUMNS_VAR)),
            models=int(_env_number(MAX_MODELS_VAR)),
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
    integral = var != MAX_DECOMPRESSED_MB_VAR
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


def limit_error(filename: str, problem: str, var: str, advice: str) -> InputError:
    """The error for a file beyond a size limit: ``'{file}: {problem}. {advice}. The limit is
    set by the environment variable {var}; whoever runs the server can raise it.'``"""
    return InputError(
        f"{filename}: {problem}. {advice}. The limit is set by the environment variable "
        f"{var}; whoever runs the server can raise it.",
        file=filename,
    )


def check_rows(
    n_rows: int, filename: str, *, found: str | None = None, scope: str = "per file"
) -> None:
    """Raise :class:`InputError` when ``n_rows`` is beyond ``ROC_DASH_MAX_ROWS``.

    ``found`` describes the count (default ``'has N rows'``); a caller that combines files can
    pass e.g. ``found='together have 12,000,000 rows', scope='in one upload'``.
    """
    limit = limits().rows
    if n_rows > limit:
        raise limit_error(
            filename,
            f"{found or 'has ' + plural(n_rows, 'row')}, more than the "
            f"{plural(limit, 'row')} accepted {scope}",
            MAX_ROWS_VAR,
            "Upload fewer rows (a random sample, or the rows split over several uploads)",
        )


def check_columns(n_columns: int, filename: str) -> None:
    """Raise :class:`InputError` when ``n_columns`` is beyond ``ROC_DASH_MAX_COLUMNS``."""
    now = limits()
    if n_columns > now.columns:
        raise limit_error(
            filename,
            f"has {plural(n_columns, 'column')}, more than the "
            f"{plural(now.columns, 'column')} accepted per file",
            MAX_COLUMNS_VAR,
            "Keep only the label and score columns (and model, fold, weight or id if used); "
            f"with one model per column, at most {plural(now.models, 'score column')}",
        )


def _too_much_data(filename: str, problem: str) -> InputError:
    return limit_error(
        filename,
        problem,
        MAX_DECOMPRESSED_MB_VAR,
        "Upload a smaller file (fewer rows or columns, or the rows split over several uploads)",
    )


@dataclass
class ParsedFile:
    """One readable file: its table and how to turn record positions into row numbers."""

    name: str
    table: pa.Table
    kind: str  # "text" or "parquet"
    delimiter: str | None = None
    #: Column names made up for empty header cells ("column 3").
    unnamed: frozenset[str] = frozenset()
    _text: bytes | None = field(default=None, repr=False)
    _record_lines: np.ndarray | None = field(default=None, repr=False)

    def row_numbers(self, positions: np.ndarray | list[int]) -> np.ndarray:
        """1-based row numbers of 0-based record positions.

        Text files: line numbers, the header being line 1 (so the first record is row 2,
        unless blank lines were skipped). Parquet: 1-based record numbers.
        """
        positions = np.asarray(positions, dtype=np.int64)
        if self.kind != "text" or self._text is None:
            return positions + 1
        if self._record_lines is None:
            self._record_lines = _record_line_numbers(self._text)
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
    return parse_bytes(data, filename).table.to_pandas()


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
    string_columns: Callable[[list[str]], Collection[str]] | None = None,
) -> ParsedFile:
    """Read one file. ``string_columns(names)`` may name columns to keep as text (CSV only);
    it is called with the final column names before the body is parsed, so it may also raise
    (e.g. when a required column is missing) before any heavy work is done."""
    data = bytes(data) if not isinstance(data, bytes) else data
    if not data:
        raise _empty(filename)
    if data[:2] == GZIP_MAGIC:
        data = _gunzip(data, filename)
        if not data:
            raise _empty(filename, compressed=True)
    if data[:4] == PARQUET_MAGIC:
        return _parse_parquet(data, filename, string_columns)
    if data[:2] == GZIP_MAGIC:  # gzip inside gzip
        raise InputError(
            f"{filename}: is compressed twice (gzip inside gzip). Decompress it once and "
            "try again.",
            file=filename,
        )
    return _parse_text(data, filename, string_columns)


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


def _not_utf8(filename: str, text: bytes, position: int, utf16: bool = False) -> InputError:
    if utf16:
        return InputError(
            f"{filename}: is UTF-16/UTF-32 text, not UTF-8. Save it as UTF-8 (in Excel: "
            f"'CSV UTF-8') and try again. {ACCEPTED_FORMATS}",
            file=filename,
        )
    line = text.count(b"\n", 0, position) + 1
    byte = text[position] if position < len(text) else 0
    return InputError(
        f"{filename}: is not UTF-8 text (the first invalid byte, 0x{byte:02X}, is on line "
        f"{line}); it is probably in a legacy encoding such as Windows-1252 or Latin-1. Save "
        f"it as UTF-8 (in Excel: 'CSV UTF-8') and try again. {ACCEPTED_FORMATS}",
        file=filename,
        rows=(line,),
        count=1,
    )


_GZIP_IN_CHUNK = 1 << 16
_GZIP_OUT_CHUNK = 1 << 20
_ZERO_PADDING = re.compile(rb"\x00*")


def _gunzip(data: bytes, filename: str) -> bytes:
    """Decompress all gzip members of ``data`` (like :func:`gzip.decompress`, zero padding
    between and after members allowed), streaming: input is fed 64 KiB and output taken
    1 MiB at a time, and decompression stops as soon as the output passes
    ``ROC_DASH_MAX_DECOMPRESSED_MB``, so no more than about the limit is ever held."""
    limit = limits().decompressed_bytes
    out = io.BytesIO()
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
                    out.write(chunk)
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
    return out.getvalue()


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


def _parse_parquet(
    data: bytes,
    filename: str,
    string_columns: Callable[[list[str]], Collection[str]] | None,
) -> ParsedFile:
    damaged = InputError(
        f"{filename}: starts like a Parquet file but cannot be read; it is probably "
        "truncated or damaged. Write it again (or export it as CSV).",
        file=filename,
    )
    try:
        metadata = pq.ParquetFile(pa.BufferReader(data)).metadata
    except Exception:  # noqa: BLE001 - any reader failure means the same to the user
        raise damaged from None
    _check_parquet_size(metadata, filename)
    try:
        table = pq.read_table(pa.BufferReader(data))
    except Exception:  # noqa: BLE001
        raise damaged from None
    check_rows(table.num_rows, filename)  # the metadata said so; the data agrees
    # pandas metadata would turn named index columns back into an index; keep them as data
    table = table.replace_schema_metadata(None)
    keep = [i for i, n in enumerate(table.column_names) if not _PANDAS_INDEX_COLUMN.match(n)]
    if len(keep) != table.num_columns:
        table = table.select(keep)
    if table.num_columns == 0:
        raise _empty(filename)
    raw = list(table.column_names)
    names = _final_names(raw)
    _check_duplicates(names, filename)
    if names != raw:
        table = table.rename_columns(names)
    if string_columns is not None:
        string_columns(names)
    return ParsedFile(filename, table, "parquet", unnamed=_unnamed(raw, names))


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


def _check_text_sample(data: bytes, filename: str) -> None:
    """Reject binary files early, from the first 64 KiB."""
    for magic, what in _BINARY_SIGNATURES:
        if data.startswith(magic):
            raise _binary(filename, what)
    if data[:2] in (b"\xff\xfe", b"\xfe\xff") or data[:4] == b"\x00\x00\xfe\xff":
        raise _not_utf8(filename, data, 0, utf16=True)
    sample = data[:_SAMPLE_SIZE]
    controls = np.frombuffer(sample, dtype=np.uint8)
    controls = ((controls < 9) | ((controls > 13) & (controls < 32)) | (controls == 127)).sum()
    if b"\x00" in sample or controls > 0.05 * len(sample):
        raise _binary(filename)
    try:
        codecs.getincrementaldecoder("utf-8")().decode(sample, final=len(sample) == len(data))
    except UnicodeDecodeError as exc:
        raise _not_utf8(filename, data, exc.start) from None


def _first_line(data: bytes, start: int) -> bytes:
    ends = [i for i in (data.find(b"\n", start), data.find(b"\r", start)) if i >= 0]
    return data[start : min(ends)] if ends else data[start:]


def detect_delimiter(header: str) -> str:
    """The most frequent of comma, tab and semicolon in the header line (comma on ties)."""
    counts = {d: header.count(d) for d in (",", "\t", ";")}
    best = max(counts.values())
    if best == 0:
        return ","
    return next(d for d in (",", "\t", ";") if counts[d] == best)


def _parse_text(
    data: bytes,
    filename: str,
    string_columns: Callable[[list[str]], Collection[str]] | None,
) -> ParsedFile:
    if data.startswith(UTF8_BOM):
        data = data[len(UTF8_BOM) :]
    if not data[:4096].strip() and not data.strip():
        raise _empty(filename)
    _check_text_sample(data, filename)

    start = _LEADING_BLANK_LINES.match(data).end()  # Arrow skips leading blank lines too
    header_bytes = _first_line(data, start)
    try:
        header = header_bytes.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _not_utf8(filename, data, start + exc.start) from None
    delimiter = detect_delimiter(header)
    _check_header_width(header, delimiter, filename)
    raw_names = next(csv.reader([header], delimiter=delimiter), [])
    check_columns(len(raw_names), filename)
    names = _final_names(raw_names)
    _check_duplicates(names, filename)
    body_start = start + len(header_bytes)
    _check_line_count(data, body_start, filename)
    as_text = set(string_columns(names)) if string_columns is not None else set()

    if body_start >= len(data):  # a header line and nothing else
        table = pa.table({n: pa.nulls(0) for n in names})
        return ParsedFile(
            filename, table, "text", delimiter, unnamed=_unnamed(raw_names, names), _text=data
        )
    read_options = pa_csv.ReadOptions(
        column_names=names,
        skip_rows=1,
        use_threads=True,
        block_size=max(1 << 20, 2 * len(header_bytes)),
    )
    parse_options = pa_csv.ParseOptions(delimiter=delimiter)
    convert_options = pa_csv.ConvertOptions(
        column_types={n: pa.string() for n in names if n in as_text},
        strings_can_be_null=True,
    )
    body = pa.py_buffer(data)[start:]
    try:
        table = pa_csv.read_csv(
            pa.BufferReader(body),
            read_options=read_options,
            parse_options=parse_options,
            convert_options=convert_options,
        )
    except pa.ArrowInvalid as exc:
        raise _text_failure(str(exc), data, filename, delimiter, len(names)) from None

    check_rows(table.num_rows, filename)  # exact, where line breaks could not tell
    for column_type in table.schema.types:
        if pa.types.is_binary(column_type) or pa.types.is_large_binary(column_type):
            raise _not_utf8(filename, data, _first_invalid_utf8(data))
    if delimiter == ";":
        table = _decimal_commas(table, as_text)
    return ParsedFile(
        filename, table, "text", delimiter, unnamed=_unnamed(raw_names, names), _text=data
    )


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
    lines (Arrow skips them); otherwise only the exact check after parsing applies."""
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


def _first_invalid_utf8(data: bytes) -> int:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start
    return 0


def _text_failure(
    reason: str, data: bytes, filename: str, delimiter: str, n_columns: int
) -> InputError:
    if "UTF8" in reason or "UTF-8" in reason:
        return _not_utf8(filename, data, _first_invalid_utf8(data))
    if "Expected" in reason and "columns" in reason:
        bad = _rows_with_wrong_field_count(data, delimiter, n_columns)
        if bad:
            lines = [line for line, _ in bad]
            first_line, first_count = bad[0]
            shown = {"\t": "tab", ",": "comma", ";": "semicolon"}[delimiter]
            return InputError(
                f"{filename}: {plural(len(bad), 'row')} "
                f"{'does' if len(bad) == 1 else 'do'} not have {n_columns} values like "
                f"the header ({format_rows(lines)}); row {first_line} has {first_count}. "
                f"Every row needs one value per column, separated by the {shown} found in the "
                "header; fix or remove these rows (look for stray, missing or unquoted "
                "separators).",
                file=filename,
                rows=lines[:5],
                count=len(bad),
            )
    return InputError(
        f"{filename}: cannot be read as delimited text ({reason.strip()}). Check that it is "
        f"a well-formed table with one header line. {ACCEPTED_FORMATS}",
        file=filename,
    )


_LEADING_BLANK_LINES = re.compile(rb"[\r\n]*")


def _rows_with_wrong_field_count(
    data: bytes, delimiter: str, n_columns: int
) -> list[tuple[int, int]]:
    """(line number, number of fields) of every non-blank line after the header whose field
    count differs from the header's: delimiters are counted per line, vectorised, ignoring
    those inside double quotes. Only used to explain an error."""
    arr, _, stops, content = _lines(data)
    positions = np.flatnonzero(arr == ord(delimiter))
    if b'"' in data:
        # quote parity before each byte; uint8 wraps at 256, which keeps the parity
        inside = np.cumsum(arr == ord('"'), dtype=np.uint8) & 1
        positions = positions[inside[positions] == 0]
    per_line = np.bincount(np.searchsorted(stops, positions), minlength=len(stops)) + 1
    non_blank = np.flatnonzero(content > 0)[1:]  # skip the header
    bad = non_blank[per_line[non_blank] != n_columns]
    return [(int(i) + 1, int(per_line[i])) for i in bad]


def _lines(text: bytes) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Bytes as uint8, and per line (split at \\n, \\r\\n or a lone \\r): start offset, stop
    offset (the line break) and content length (without the line break)."""
    arr = np.frombuffer(text, dtype=np.uint8)
    n = len(arr)
    is_nl = arr == 10
    is_cr = arr == 13
    lone_cr = is_cr.copy()
    lone_cr[:-1] &= ~is_nl[1:]
    ends = np.flatnonzero(is_nl | lone_cr)
    starts = np.concatenate(([0], ends + 1))
    stops = np.concatenate((ends, [n]))
    length = stops - starts
    # "\\r\\n": the "\\r" sits inside the line's span; it is part of the line break
    terminated_by_nl = np.concatenate((is_nl[ends], [False]))
    before = np.clip(stops - 1, 0, max(n - 1, 0))
    crlf = terminated_by_nl & (length > 0) & (arr[before] == 13)
    return arr, starts, stops, length - crlf


def _record_line_numbers(text: bytes) -> np.ndarray | None:
    """Line number of each data record, or ``None`` when record i is simply on line i + 2
    (no blank lines before the last record)."""
    if not any(p in text for p in (b"\n\n", b"\r\r", b"\n\r\n")) and not text.startswith(
        (b"\n", b"\r")
    ):
        return None
    content = _lines(text)[3]
    non_blank = np.flatnonzero(content > 0) + 1  # 1-based line numbers
    return non_blank[1:]  # the first non-blank line is the header
