"""Turn one file's bytes into an Arrow table: CSV/TSV/semicolon text, gzip, Parquet.

Only readability is checked here (encoding, structure, duplicated column names); what the
columns mean is decided in :mod:`roc_dash.io.columns` and :mod:`roc_dash.io.canonical`.
"""

from __future__ import annotations

import codecs
import csv
import gzip
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


def _gunzip(data: bytes, filename: str) -> bytes:
    try:
        return gzip.decompress(data)
    except (OSError, EOFError, zlib.error):
        raise InputError(
            f"{filename}: is gzip-compressed but cannot be decompressed; the file is probably "
            "truncated or damaged. Compress it again (or upload it uncompressed).",
            file=filename,
        ) from None


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
    try:
        table = pq.read_table(pa.BufferReader(data))
    except Exception:  # noqa: BLE001 - any reader failure means the same to the user
        raise InputError(
            f"{filename}: starts like a Parquet file but cannot be read; it is probably "
            "truncated or damaged. Write it again (or export it as CSV).",
            file=filename,
        ) from None
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
    raw_names = next(csv.reader([header], delimiter=delimiter), [])
    names = _final_names(raw_names)
    _check_duplicates(names, filename)
    as_text = set(string_columns(names)) if string_columns is not None else set()

    if start + len(header_bytes) >= len(data):  # a header line and nothing else
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

    for column_type in table.schema.types:
        if pa.types.is_binary(column_type) or pa.types.is_large_binary(column_type):
            raise _not_utf8(filename, data, _first_invalid_utf8(data))
    if delimiter == ";":
        table = _decimal_commas(table, as_text)
    return ParsedFile(
        filename, table, "text", delimiter, unnamed=_unnamed(raw_names, names), _text=data
    )


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
