"""Hostile input files, each small on disk and written by one short generator.

Every function writes one file under ``folder`` (a pytest ``tmp_path`` in the tests) and
returns its path. They replay the probes of issue 14 ("small files that decode to
gigabytes") and a few more of the same family; ``tests/unit/io/test_bombs.py`` reads each one in
a subprocess and checks the message, the peak memory and that memory comes back.

Gzip bombs are built from members: ``gzip.compress(block) * n`` is a valid gzip file of
``n`` copies of ``block`` (the format allows concatenated members), so a gigabyte of text
costs a few megabytes on disk and a fraction of a second to write.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

MB = 1 << 20


def _write(folder: Path, name: str, data: bytes) -> Path:
    path = Path(folder) / name
    path.write_bytes(data)
    return path


def _repeat_gz(head: bytes, block: bytes, n: int) -> bytes:
    """gzip of ``head`` followed by ``n`` copies of ``block``."""
    return gzip.compress(head) + gzip.compress(block) * n


def _lines(line: bytes, size: int) -> bytes:
    """Whole copies of ``line`` filling about ``size`` bytes."""
    return line * max(1, size // len(line))


# --------------------------------------------------------------------------- Parquet


def parquet_dictionary_name(folder, rows: int = 10**6, length: int = 1000,
                            name: str = "dict-bomb.parquet") -> Path:
    """Issue 14: label, score and a ``model`` column holding one ``length``-character string
    on every row, dictionary-encoded: ~200 KB for 10^6 rows, GBs once the strings are
    materialised."""
    codes = pa.array(np.zeros(rows, dtype=np.int32))
    table = pa.table({
        "label": pa.array(np.arange(rows, dtype=np.int8) % 2),
        "score": pa.array((np.arange(rows) % 2).astype(np.float64) * 0.5 + 0.25),
        "model": pa.DictionaryArray.from_arrays(codes, pa.array(["m" * length])),
    })
    path = Path(folder) / name
    pq.write_table(table, path, compression="zstd", row_group_size=1 << 20)
    return path


def parquet_constant_columns(folder, rows: int = 10**7, columns: int = 60,
                             name: str = "wide-constant.parquet") -> Path:
    """A wide-form file (no column named 'score': each numeric column is a model) whose
    ``columns`` float columns hold one value each, run-length encoded: a few hundred KB and
    a few MB of metadata-declared size, ``rows`` x ``columns`` x 8 bytes once read."""
    block = min(rows, 1 << 20)
    label = pa.array(np.arange(block, dtype=np.int8) % 2)
    constant = pa.array(np.full(block, 0.5))
    table = pa.table({"label": label, **{f"m{i}": constant for i in range(columns)}})
    path = Path(folder) / name
    with pq.ParquetWriter(path, table.schema, compression="zstd") as writer:
        done = 0
        while done < rows:
            n = min(block, rows - done)
            writer.write_table(table.slice(0, n), row_group_size=block)
            done += n
    return path


# --------------------------------------------------------------------------- gzip text


def gzip_quoted_rows(folder, mb: int = 1024, name: str = "quoted.csv.gz") -> Path:
    """Issue 14: ~``mb`` MiB of ``1,0.5`` rows with one ``"`` near the start (which made the
    cheap line count inexact): 175 M rows for 1 GiB, ~2 MB on disk."""
    block = _lines(b"1,0.5\n0,0.1\n", MB)
    return _write(folder, name, _repeat_gz(b'label,score\n"1",0.5\n', block, mb))


def gzip_blank_lines_bad_row(folder, mb: int = 64, name: str = "blank.csv.gz") -> Path:
    """Issue 14: a header, ``mb`` MiB of blank lines and one row with a value too many: ~65
    KB on disk; the error path used to take seconds and gigabytes to number the rows."""
    return _write(folder, name, gzip.compress(b"label,score\n1,0.5\n0,0.1\n")
                  + gzip.compress(b"\n" * MB) * mb + gzip.compress(b"1,0.5,7\n"))


def gzip_zeros(folder, mb: int = 5 * 1024, name: str = "zeros.csv.gz") -> Path:
    """Issue 14: 5 GB of zero bytes, ~5 MB on disk."""
    return _write(folder, name, gzip.compress(b"\0" * (16 * MB)) * max(1, mb // 16))


def gzip_long_values(folder, mb: int = 1024, length: int = 200,
                     name: str = "long-ids.csv.gz") -> Path:
    """Rows whose id is a ``length``-character string: text that decodes to about ``mb``
    MiB of Arrow strings (more than the row limit allows of short rows)."""
    row = b"1,0.5," + b"x" * length + b"\n"
    return _write(folder, name, _repeat_gz(b"label,score,id\n", _lines(row, MB), mb))


def gzip_wide_rows(folder, mb: int = 1024, columns: int = 150,
                   name: str = "wide.csv.gz") -> Path:
    """Wide form (no 'score' column: each numeric column is a model): ``columns`` one-digit
    values per row, 2 bytes of text each, 8 bytes each once parsed."""
    header = ("label," + ",".join(f"m{i}" for i in range(columns)) + "\n").encode()
    row = b"1" + b",0" * columns + b"\n"
    return _write(folder, name, _repeat_gz(header, _lines(row, MB), mb))


def gzip_type_change(folder, mb: int = 256, name: str = "late-float.csv.gz") -> Path:
    """Integer scores for ``mb`` MiB, then one fractional score: Arrow's streaming reader
    fixes a column's type from its first block, so the file is read a second way."""
    return _write(folder, name, _repeat_gz(b"label,score\n", _lines(b"1,1\n0,0\n", MB), mb)
                  + gzip.compress(b"1,0.5\n"))


def gzip_long_header(folder, mb: int = 50, name: str = "header.csv.gz") -> Path:
    """Issue 14: a header line of ``mb`` MiB (no line break), then two rows."""
    return _write(folder, name, gzip.compress(b"a" * MB) * mb
                  + gzip.compress(b"\n1\n0\n"))


# --------------------------------------------------------------------------- plain text


def long_header(folder, mb: int = 50, name: str = "header.csv") -> Path:
    """Issue 14: a ``mb`` MiB header line as plain text (as sent to the upload route)."""
    return _write(folder, name, b"a" * (mb * MB) + b"\n1\n0\n")


def long_model_name(folder, length: int = 1000, rows: int = 1000,
                    name: str = "long-model.csv") -> Path:
    """A model column whose one name is ``length`` characters long."""
    row = b"%d,0.5," + b"m" * length + b"\n"
    return _write(folder, name, b"label,score,model\n" + b"".join(row % (i % 2)
                                                                  for i in range(rows)))
