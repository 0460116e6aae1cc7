"""Size limits on input files: hostile gzip, Parquet and wide CSV files are refused cheaply.

Every limit is read from the environment at call time, so the tests lower it with
``monkeypatch.setenv`` to keep the hostile files small. Boundedness is asserted, not timed:
tracemalloc peaks for Python allocations, Arrow's allocation counter, and spies that fail the
test if the expensive parser is reached at all.
"""

from __future__ import annotations

import gzip
import io
import logging
import tracemalloc
import zlib

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from roc_dash.io import InputError, ReadOptions, load_predictions, read_table, readers
from roc_dash.io.columns import ColumnChoice, check_model_count, resolve_wide
from roc_dash.io.readers import Limits, limits

MB = 1 << 20


def load(data: bytes, name: str = "preds.csv", **options):
    return load_predictions([(name, data)], options=ReadOptions(**options))


def load_error(data: bytes, name: str = "preds.csv", **options) -> InputError:
    with pytest.raises(InputError) as info:
        load(data, name, **options)
    return info.value


def rows_csv(n: int, *, eol: bytes = b"\n", final_eol: bool = True) -> bytes:
    """``label,score`` then ``n`` rows alternating the classes."""
    body = eol.join(b"1,0.9" if i % 2 == 0 else b"0,0.1" for i in range(n))
    return b"label,score" + eol + body + (eol if final_eol else b"")


def gzip_stream(header: bytes, block: bytes, repeats: int) -> bytes:
    """One gzip member of ``header`` + ``block`` * ``repeats``, compressed piece by piece so
    the test never holds the decompressed bytes."""
    packer = zlib.compressobj(6, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    parts = [packer.compress(header)]
    parts.extend(packer.compress(block) for _ in range(repeats))
    parts.append(packer.flush())
    return b"".join(parts)


@pytest.fixture(scope="module")
def bomb() -> bytes:
    """200 MiB of valid CSV lines in ~300 KB of gzip."""
    return gzip_stream(b"label,score\n", b"1,0.5\n" * (MB // 6), 200)


@pytest.fixture
def no_csv_parse(monkeypatch):
    """Fail the test if the CSV body is ever handed to Arrow's parser."""

    def refuse(*args, **kwargs):
        raise AssertionError("the CSV body was parsed; the limit should have refused it first")

    monkeypatch.setattr(readers.pa_csv, "read_csv", refuse)


@pytest.fixture
def no_parquet_read(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the Parquet data was read; the metadata should have refused it")

    monkeypatch.setattr(readers.pq, "read_table", refuse)


def parquet_bytes(table: pa.Table, repeats: int = 1, **write) -> bytes:
    buf = io.BytesIO()
    with pq.ParquetWriter(buf, table.schema, **write) as writer:
        for _ in range(repeats):
            writer.write_table(table)
    return buf.getvalue()


def two_class_table(n: int, **extra) -> pa.Table:
    return pa.table(
        {
            "label": pa.array(np.arange(n) % 2 == 0),
            "score": pa.array(np.where(np.arange(n) % 2 == 0, 0.9, 0.1)),
            **extra,
        }
    )


# --------------------------------------------------------------------------- gzip


def test_lim001_gzip_bomb_refused_while_decompressing(bomb, monkeypatch):
    assert len(bomb) < 400_000  # 200 MiB of text
    monkeypatch.setenv("ROC_DASH_MAX_DECOMPRESSED_MB", "1")
    tracemalloc.start()
    try:
        with pytest.raises(InputError) as info:
            load_predictions([("bomb.csv.gz", bomb)])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    message = str(info.value)
    assert message.startswith("bomb.csv.gz: decompresses to more than 1 MB")
    assert "ROC_DASH_MAX_DECOMPRESSED_MB" in message
    assert info.value.file == "bomb.csv.gz"
    # the cap (1 MiB) plus one 1 MiB output piece and buffer slack; the bomb holds 200 MiB
    assert peak < 4 * MB, peak


def test_lim002_gzip_limit_is_exact_and_members_still_read(monkeypatch):
    raw = rows_csv(20_000)
    packed = gzip.compress(raw)
    monkeypatch.setenv("ROC_DASH_MAX_DECOMPRESSED_MB", repr(len(raw) / MB))
    assert len(load(packed, "p.csv.gz").table) == 20_000
    monkeypatch.setenv("ROC_DASH_MAX_DECOMPRESSED_MB", repr((len(raw) - 1) / MB))
    assert "decompresses to more than" in str(load_error(packed, "p.csv.gz"))

    monkeypatch.delenv("ROC_DASH_MAX_DECOMPRESSED_MB")
    # several members with zero padding, as gzip.decompress accepts them
    head, rest = raw[:50_000], raw[50_000:]
    members = gzip.compress(head) + b"\0" * 7 + gzip.compress(rest) + b"\0\0"
    assert read_table(members, "m.csv.gz").shape == (20_000, 2)
    # damaged input keeps its own message
    for damaged in (packed[:-5], packed[: len(packed) // 2], packed + b"junk"):
        assert "cannot be decompressed" in str(load_error(damaged, "d.csv.gz"))


def test_lim003_gzip_rows_counted_before_parsing(monkeypatch, no_csv_parse):
    # 20 MiB of text, 3.5 million rows, well under the byte limit
    packed = gzip_stream(b"label,score\n", b"1,0.5\n0,0.1\n" * (MB // 12), 20)
    monkeypatch.setenv("ROC_DASH_MAX_ROWS", "100000")
    before = pa.total_allocated_bytes()
    error = load_error(packed, "many.csv.gz")
    assert pa.total_allocated_bytes() - before < MB  # no Arrow table was built
    n_rows = (MB // 12) * 2 * 20
    assert str(error).startswith(
        f"many.csv.gz: has {n_rows:,} rows, more than the 100,000 rows accepted per file."
    )
    assert "ROC_DASH_MAX_ROWS" in str(error)


# --------------------------------------------------------------------------- text rows


@pytest.mark.parametrize(
    "eol, final_eol",
    [(b"\n", True), (b"\n", False), (b"\r\n", True), (b"\r", True), (b"\r", False)],
)
def test_lim004_row_limit_is_exact_for_any_line_ending(monkeypatch, eol, final_eol):
    monkeypatch.setenv("ROC_DASH_MAX_ROWS", "1000")
    assert len(load(rows_csv(1000, eol=eol, final_eol=final_eol)).table) == 1000
    error = load_error(rows_csv(1001, eol=eol, final_eol=final_eol))
    assert "has 1,001 rows, more than the 1,000 rows accepted per file" in str(error)


def test_lim005_blank_lines_and_quoted_breaks_are_not_rows(monkeypatch):
    monkeypatch.setenv("ROC_DASH_MAX_ROWS", "10")
    # 10 records on 30 lines: blank lines are skipped by the parser
    spaced = b"label,score\n" + b"1,0.9\n\n\n0,0.1\n\n\n" * 5
    assert len(load(spaced).table) == 10
    # 10 records with line breaks inside quoted ids
    quoted = b"label,score,id\n" + b"".join(
        b'1,0.9,"a%d\nb\nc"\n0,0.1,"d%d\ne"\n' % (i, i) for i in range(5))
    assert len(load(quoted).table) == 10
    # one more record: refused by the exact count after parsing
    error = load_error(quoted + b'1,0.8,"f\ng"\n')
    assert "has 11 rows, more than the 10 rows" in str(error)


# --------------------------------------------------------------------------- Parquet


def test_lim006_parquet_rows_from_metadata(monkeypatch, no_parquet_read):
    monkeypatch.delenv("ROC_DASH_MAX_ROWS", raising=False)
    # 12 million rows in ~160 KB; the default limit is 10 million
    data = parquet_bytes(two_class_table(1_000_000), repeats=12, compression="zstd")
    assert len(data) < 1_000_000
    assert limits().rows == 10_000_000
    before = pa.total_allocated_bytes()
    error = load_error(data, "big.parquet")
    assert pa.total_allocated_bytes() - before < MB
    assert str(error).startswith(
        "big.parquet: has 12,000,000 rows, more than the 10,000,000 rows accepted per file."
    )


def test_lim007_parquet_uncompressed_size_from_row_groups(monkeypatch, no_parquet_read):
    # a constant 1 KB string per row: tiny compressed, ~10 MB uncompressed without dictionary
    table = two_class_table(10_000, note=pa.array(["x" * 1000] * 10_000))
    data = parquet_bytes(table, compression="zstd", use_dictionary=False)
    assert len(data) < 200_000
    monkeypatch.setenv("ROC_DASH_MAX_DECOMPRESSED_MB", "2")
    error = load_error(data, "wide-text.parquet")
    assert "of uncompressed data, more than the 2 MB accepted per file" in str(error)
    assert "ROC_DASH_MAX_DECOMPRESSED_MB" in str(error)
    # a gzip-compressed Parquet file meets both checks
    error = load_error(gzip.compress(data), "wide-text.parquet.gz")
    assert "ROC_DASH_MAX_DECOMPRESSED_MB" in str(error)


def test_lim008_parquet_columns_from_metadata(monkeypatch, no_parquet_read):
    table = two_class_table(4, **{f"f{i}": pa.array([0.5] * 4) for i in range(20)})
    monkeypatch.setenv("ROC_DASH_MAX_COLUMNS", "10")
    error = load_error(parquet_bytes(table), "features.parquet")
    assert "has 22 columns, more than the 10 columns accepted per file" in str(error)
    assert "ROC_DASH_MAX_COLUMNS" in str(error)


# --------------------------------------------------------------------------- wide files


def test_lim009_ten_thousand_score_columns_refused_from_the_header(no_csv_parse):
    header = "label," + ",".join(f"model_{i}" for i in range(10_000))
    row1 = "1," + ",".join(["0.9"] * 10_000)
    row0 = "0," + ",".join(["0.1"] * 10_000)
    data = "\n".join([header, row1, row0] * 1 + [row1, row0] * 20).encode()
    tracemalloc.start()
    try:
        error = load_error(data, "wide.csv")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert str(error).startswith(
        "wide.csv: has 10,001 columns, more than the 1,000 columns accepted per file."
    )
    assert "ROC_DASH_MAX_COLUMNS" in str(error)
    assert peak < 2 * len(data)  # only the header was looked at


def test_lim010_quoted_header_fields_counted_without_splitting(monkeypatch):
    monkeypatch.setenv("ROC_DASH_MAX_COLUMNS", "5")
    # quoted names holding commas are one column each
    ok = b'label,score,"a,b,c,d,e,f"\n1,0.9,x\n0,0.1,y\n'
    assert len(load(ok).table) == 2
    many = ('"label",' + ",".join(f'"m{i}"' for i in range(100_000)) + "\n1\n").encode()
    monkeypatch.setattr(readers.csv, "reader", None)  # the header must not even be split
    error = load_error(many, "quoted.csv")
    assert "has 100,001 columns, more than the 5 columns" in str(error)


def test_lim011_wide_form_model_limit(monkeypatch):
    header = "label," + ",".join(f"m{i}" for i in range(300))
    data = "\n".join(
        [header, "1," + ",".join(["0.9"] * 300), "0," + ",".join(["0.1"] * 300)]
    ).encode()
    error = load_error(data, "wide300.csv")
    assert str(error).startswith(
        "wide300.csv: has 300 numeric columns, each of which would be one model's scores "
        "(wide form"
    )
    assert "more than the 200 models accepted per file" in str(error)
    assert "ROC_DASH_MAX_MODELS" in str(error)
    monkeypatch.setenv("ROC_DASH_MAX_MODELS", "300")
    assert load(data, "wide300.csv").table["model"].nunique() == 300
    # scores chosen by name count the same way
    monkeypatch.setenv("ROC_DASH_MAX_MODELS", "3")
    error = load_error(data, "wide300.csv", score=["m0", "m1", "m2", "m3"])
    assert "4 score columns were chosen, one model each, more than the 3 models" in str(error)
    assert len(load(data, "wide300.csv", score=["m0", "m1", "m2"]).table) == 6


def test_lim012_wide_form_rows_times_columns(monkeypatch):
    schema = pa.schema([("label", pa.int64())] + [(f"m{i}", pa.float64()) for i in range(4)])
    choice = ColumnChoice(label="label")
    monkeypatch.setenv("ROC_DASH_MAX_ROWS", "1000")
    assert len(resolve_wide(choice, schema, "w.csv", num_rows=250).scores) == 4
    with pytest.raises(InputError) as info:
        resolve_wide(choice, schema, "w.csv", num_rows=251)
    assert "has 251 rows x 4 score columns = 1,004 predictions (wide form" in str(info.value)
    assert "more than the 1,000 rows accepted per file" in str(info.value)
    # without num_rows (older callers) only the model count is checked
    assert resolve_wide(choice, schema, "w.csv").wide


def test_lim013_model_column_helper(monkeypatch):
    monkeypatch.setenv("ROC_DASH_MAX_MODELS", "2")
    check_model_count(2, "runs.csv", column="model")
    with pytest.raises(InputError) as info:
        check_model_count(3, "runs.csv", column="model")
    assert str(info.value).startswith(
        "runs.csv: column 'model' names 3 models, more than the 2 models accepted per file."
    )
    assert info.value.column == "model" and info.value.file == "runs.csv"


def test_lim014_limits_read_at_call_time_and_bad_values_fall_back(monkeypatch, caplog):
    for var in readers.LIMIT_DEFAULTS:
        monkeypatch.delenv(var, raising=False)
    assert limits() == Limits(decompressed_bytes=1024 * MB, rows=10_000_000, columns=1000,
                              models=200)
    monkeypatch.setenv("ROC_DASH_MAX_DECOMPRESSED_MB", "0.5")
    monkeypatch.setenv("ROC_DASH_MAX_ROWS", "20_000_000")
    monkeypatch.setenv("ROC_DASH_MAX_COLUMNS", "2e3")
    monkeypatch.setenv("ROC_DASH_MAX_MODELS", " 12 ")
    assert limits() == Limits(decompressed_bytes=MB // 2, rows=20_000_000, columns=2000,
                              models=12)
    with caplog.at_level(logging.WARNING, logger="roc_dash.io.readers"):
        for bad in ("lots", "-5", "0", "inf", "nan"):
            monkeypatch.setenv("ROC_DASH_MAX_ROWS", bad)
            assert limits().rows == 10_000_000
    assert "ROC_DASH_MAX_ROWS='lots' is not a positive number" in caplog.text


def test_lim015_total_rows_helper_for_several_files(monkeypatch):
    from roc_dash.io.readers import check_rows

    monkeypatch.setenv("ROC_DASH_MAX_ROWS", "100")
    check_rows(100, "a.csv, b.csv", found="together have 100 rows", scope="in one upload")
    with pytest.raises(InputError) as info:
        check_rows(101, "a.csv, b.csv", found="together have 101 rows", scope="in one upload")
    assert str(info.value).startswith(
        "a.csv, b.csv: together have 101 rows, more than the 100 rows accepted in one upload."
    )
