"""Read CSV, TSV or semicolon-separated text (plain or gzip) within the size limits.

Binary files are refused from their first 64 KiB; the header line is found and checked (the
columns counted, the names checked) before the body is parsed; the body is parsed in blocks
by Arrow's streaming CSV reader, which stops as soon as the rows or the Arrow columns held
pass their limit (:mod:`roc_dash.io.size_limits`). When the reason for an error has to be
found, the text is scanned again (:mod:`roc_dash.io.decoding`).
"""

from __future__ import annotations

import codecs
import csv
import re
from collections.abc import Callable, Collection

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pa_csv

from .decoding import _Decoded, _first_invalid_utf8, _rows_with_wrong_field_count
from .errors import DecodedSizeError, InputError, LimitError, format_rows, plural
from .parsed import (
    ACCEPTED_FORMATS,
    ColumnPlan,
    ParsedFile,
    _as_plan,
    _binary,
    _check_duplicates,
    _empty,
    _final_names,
    _not_utf8,
    _unnamed,
    _utf16,
)
from .size_limits import (
    MAX_NAME_CHARS_VAR,
    MAX_ROWS_VAR,
    _budget_words,
    _mb,
    _rows_error,
    check_columns,
    check_header_names,
    check_rows,
    decoded_error,
    limit_error,
    limits,
    release_memory,
)

UTF8_BOM = b"\xef\xbb\xbf"


#: Known binary signatures and the hint given for them.
_BINARY_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"%PDF", "a PDF document"),
    (b"PK\x03\x04", "a ZIP archive, which is not read; unzip it and upload the CSV inside"),
    (b"\xd0\xcf\x11\xe0", "an old-style Office document (.xls); export the sheet as CSV"),
    (b"BZh", "a bzip2 archive; decompress it or use gzip"),
    (b"\xfd7zXZ", "an xz archive; decompress it or use gzip"),
    (b"7z\xbc\xaf", "a 7-Zip archive; decompress it first"),
    (b"(\xb5/\xfd", "a zstd archive; decompress it or use gzip"),
)

_SAMPLE_SIZE = 1 << 16

#: The longest header line read (bytes): 1000 columns of 256-character names fit four times.
MAX_HEADER_BYTES = 1 << 20


#: Values read as missing in text files (Arrow's defaults: "", NA, NaN, null, N/A, #N/A, …).
NULL_VALUES = tuple(pa_csv.ConvertOptions().null_values)

#: How text columns with few distinct values (model, fold) are held: each value once.
DICTIONARY_TEXT = pa.dictionary(pa.int32(), pa.string())


def _check_text_sample(sample: bytes, filename: str, whole: bool) -> None:
    """Reject binary files early, from the first 64 KiB (``whole``: that is all there is)."""
    if sample.startswith(b"PK\x03\x04") and (  # an xlsx is a ZIP with these parts
            b"[Content_Types].xml" in sample or b"xl/" in sample
            or filename.lower().endswith((".xlsx", ".xlsm"))):
        raise _binary(filename, "an Excel workbook (.xlsx); export the sheet as CSV")
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
