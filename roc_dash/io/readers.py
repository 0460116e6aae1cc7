"""Turn one file's bytes into an Arrow table: CSV/TSV/semicolon text, gzip, Parquet.

Only readability is checked here (encoding, structure, duplicated column names, size); what
the columns mean is decided in :mod:`roc_dash.io.columns` and :mod:`roc_dash.io.canonical`.

:func:`parse_bytes` (and :func:`read_table` on top of it) is the entry point; the work is
done by

* :mod:`roc_dash.io.size_limits` -- the size limits (what a file may *decode to*), read from
  the environment at each call, and the errors past them;
* :mod:`roc_dash.io.decoding` -- gzip decompressed in bounded pieces, the decoded text
  streamed to the parser and scanned again, piece by piece, for the reason of an error;
* :mod:`roc_dash.io.text_reading` -- CSV, TSV or semicolon text: header, delimiter,
  Arrow's streaming parse in blocks;
* :mod:`roc_dash.io.parquet_reading` -- Parquet: sizes from the footer, then row group by
  row group;
* :mod:`roc_dash.io.parsed` -- what a read gives back (:class:`~roc_dash.io.parsed.ParsedFile`,
  :class:`~roc_dash.io.parsed.ColumnPlan`), column names, the errors of an unreadable file.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .decoding import GZIP_MAGIC, _Decoded, _gunzip
from .errors import InputError
from .parquet_reading import _parse_parquet
from .parsed import ColumnPlan, ParsedFile, _empty
from .size_limits import limits
from .text_reading import _parse_text

PARQUET_MAGIC = b"PAR1"


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
