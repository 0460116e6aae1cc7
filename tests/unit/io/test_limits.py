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
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pa_csv
import pyarrow.parquet as pq
import pytest

from roc_dash.io import (
    InputError,
    ReadOptions,
    load_predictions,
    parquet_reading,
    read_table,
    readers,
    size_limits,
    text_reading,
)
from roc_dash.io.columns import ColumnChoice, check_model_count, resolve_wide
from roc_dash.io.errors import DecodedSizeError, LimitError
from roc_dash.io.parsed import ColumnPlan
from roc_dash.io.size_limits import Limits, limits
from tests.browser.gestures import wait_until

MB = 1 << 20


def load(data: bytes, name: str = "preds.csv", **options):
    return load_predictions([(name, data)], options=ReadOptions(**options))


def arrow_let_go(before: int) -> None:
    """Arrow holds less than 1 MiB more than ``before``: nothing of a refused read is kept.
    A block that Arrow's read-ahead thread was reading when the reader closed (1 MiB) is
    let go once that read ends, later on a busy machine: wait for it."""
    wait_until(lambda: pa.total_allocated_bytes() - before < MB, timeout=30,
               message="the Arrow memory of the refused read to be let go")


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
    """Fail the test if the CSV body is ever handed to Arrow's parser (whole or streaming)."""

    def refuse(*args, **kwargs):
        raise AssertionError("the CSV body was parsed; the limit should have refused it first")

    monkeypatch.setattr(text_reading.pa_csv, "read_csv", refuse)
    monkeypatch.setattr(text_reading.pa_csv, "open_csv", refuse)


@pytest.fixture
def no_parquet_read(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the Parquet data was read; the metadata should have refused it")

    monkeypatch.setattr(parquet_reading.pq, "read_table", refuse)
    monkeypatch.setattr(parquet_reading.pq.ParquetFile, "read_row_group", refuse)


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


def test_lim003_gzip_rows_counted_exactly_without_holding_them(monkeypatch):
    # 20 MiB of text, 3.5 million rows, well under the byte limit; the streaming parse stops
    # at the limit and the line breaks of the rest are counted, nothing is kept
    packed = gzip_stream(b"label,score\n", b"1,0.5\n0,0.1\n" * (MB // 12), 20)
    monkeypatch.setenv("ROC_DASH_MAX_ROWS", "100000")
    before = pa.total_allocated_bytes()
    error = load_error(packed, "many.csv.gz")
    arrow_let_go(before)  # no Arrow table was built
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
    arrow_let_go(before)
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
    monkeypatch.setattr(text_reading.csv, "reader", None)  # the header must not even be split
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
    for var in size_limits.LIMIT_DEFAULTS:
        monkeypatch.delenv(var, raising=False)
    assert limits() == Limits(decompressed_bytes=1024 * MB, rows=10_000_000, columns=1000,
                              models=200)
    monkeypatch.setenv("ROC_DASH_MAX_DECOMPRESSED_MB", "0.5")
    monkeypatch.setenv("ROC_DASH_MAX_ROWS", "20_000_000")
    monkeypatch.setenv("ROC_DASH_MAX_COLUMNS", "2e3")
    monkeypatch.setenv("ROC_DASH_MAX_MODELS", " 12 ")
    assert limits() == Limits(decompressed_bytes=MB // 2, rows=20_000_000, columns=2000,
                              models=12)
    with caplog.at_level(logging.WARNING, logger="roc_dash.io.size_limits"):
        for bad in ("lots", "-5", "0", "inf", "nan"):
            monkeypatch.setenv("ROC_DASH_MAX_ROWS", bad)
            assert limits().rows == 10_000_000
    assert "ROC_DASH_MAX_ROWS='lots' is not a positive number" in caplog.text


def test_lim015_total_rows_helper_for_several_files(monkeypatch):
    from roc_dash.io.size_limits import check_rows

    monkeypatch.setenv("ROC_DASH_MAX_ROWS", "100")
    check_rows(100, "a.csv, b.csv", found="together have 100 rows", scope="in one upload")
    with pytest.raises(InputError) as info:
        check_rows(101, "a.csv, b.csv", found="together have 101 rows", scope="in one upload")
    assert str(info.value).startswith(
        "a.csv, b.csv: together have 101 rows, more than the 100 rows accepted in one upload."
    )


# --------------------------------------------------------------------------- issue 14: decoded
# (the bombs themselves, with their peak memory, are in test_bombs.py)


def test_lim016_header_line_longer_than_a_megabyte(no_csv_parse):
    for prefix, line in ((b"", 1), (b"\n\r\n\n", 4)):
        data = prefix + b"a" * (2 * MB) + b"\n1\n0\n"
        error = load_error(data, "long.csv")
        assert isinstance(error, LimitError)
        assert str(error).startswith(
            f"long.csv: the header line (line {line}) is longer than 1 MB, the longest header "
            "accepted.")
        assert error.rows == (line,)
        error = load_error(gzip.compress(data), "long.csv.gz")
        assert "the header line" in str(error) and "longer than 1 MB" in str(error)


def test_lim017_column_names_capped(no_csv_parse):
    name = "n" * 300
    error = load_error(f"label,{name}\n1,0.5\n0,0.1\n".encode(), "names.csv")
    assert isinstance(error, LimitError) and error.variable == "ROC_DASH_MAX_NAME_CHARS"
    assert str(error).startswith(
        "names.csv: has a column name of 300 characters (column 2): 'nnnnn")
    assert "column names may have at most 256 characters" in str(error)
    # one name beyond Python's csv field limit (128 KiB) is the same kind of message
    error = load_error(b"label,score," + b"x" * 200_000 + b"\n1,0.5,1\n", "huge.csv")
    assert "has a column name of more than 131,072 characters in its header line" in str(error)
    assert "internal error" not in str(error)
    # Parquet column names too
    table = two_class_table(4, **{name: pa.array([1.0] * 4)})
    error = load_error(parquet_bytes(table), "names.parquet")
    assert "has a column name of 300 characters (column 3)" in str(error)


def test_lim018_model_fold_label_and_class_names_capped(monkeypatch):
    long = "m" * 257
    rows = "".join(f"{i % 2},0.{i + 1},{'a' if i < 3 else long},f\n" for i in range(6))
    error = load_error(("label,score,model,fold\n" + rows).encode(), "m.csv")
    assert str(error).startswith(
        "m.csv: column 'model' has a model name of 257 characters (row 5): 'mmm")
    assert error.column == "model" and error.variable == "ROC_DASH_MAX_NAME_CHARS"
    rows = "".join(f"{i % 2},0.{i + 1},a,{long if i == 4 else 1}\n" for i in range(6))
    error = load_error(("label,score,model,fold\n" + rows).encode(), "f.csv")
    assert "column 'fold' has a fold name of 257 characters (row 6)" in str(error)
    rows = "".join(f"{'p' if i % 2 else long},0.{i + 1}\n" for i in range(6))
    error = load_error(("label,score\n" + rows).encode(), "l.csv", positive="p")
    assert "column 'label' has a label of 257 characters (row 2)" in str(error)
    header = "class,score_a,score_b," + "score_" + long
    rows = "".join(f"{c},0.2,0.3,0.5\n" for c in ("a", "b", long, "a", "b", long))
    error = load_error((header + "\n" + rows).encode(), "c.csv")
    # a class is named by its score column, whose name is capped first
    assert "a column name of 263 characters" in str(error)
    monkeypatch.setenv("ROC_DASH_MAX_NAME_CHARS", "300")
    assert len(load((header + "\n" + rows).encode(), "c.csv").table) == 6
    # a model named after a long file name is shortened, not refused
    monkeypatch.setenv("ROC_DASH_MAX_NAME_CHARS", "20")
    model = load(rows_csv(4), "x" * 40 + ".csv").table["model"].iloc[0]
    assert model == "x" * 19 + "…"


def test_lim019_decoded_budget_while_streaming_text(monkeypatch):
    # 60,000 rows with a 100-character id: ~6 MB of text, ~6 MB of Arrow strings
    data = b"label,score,id\n" + b"".join(
        b"%d,0.%d,%s\n" % (i % 2, i % 9 + 1, b"i" * 90 + b"%09d" % i) for i in range(60_000))
    monkeypatch.setenv("ROC_DASH_MAX_DECODED_MB", "2")
    for name, sent in (("ids.csv", data), ("ids.csv.gz", gzip.compress(data))):
        before = pa.total_allocated_bytes()
        error = load_error(sent, name)
        assert isinstance(error, DecodedSizeError) and isinstance(error, InputError)
        assert str(error).startswith(f"{name}: decodes to more data than one load may hold:")
        assert "more than the 2 MB accepted" in str(error)
        assert error.variable == "ROC_DASH_MAX_DECODED_MB" and error.limit == 2 * MB
        arrow_let_go(before)  # nothing read is kept
    monkeypatch.setenv("ROC_DASH_MAX_DECODED_MB", "64")
    assert len(load(data, "ids.csv").table) == 60_000


def _refused_over_budget(monkeypatch, data: bytes, name: str, mb: str) -> str:
    """The message of the file ``name`` (``data``) refused as too big once decoded, with
    ``ROC_DASH_MAX_DECODED_MB`` set to ``mb``."""
    monkeypatch.setenv("ROC_DASH_MAX_DECODED_MB", mb)
    error = load_error(data, name)
    assert isinstance(error, DecodedSizeError)
    return str(error)


def test_lim020_parquet_decoded_size_from_metadata(monkeypatch, no_parquet_read):
    # run-length encoded constants: small on disk and in the metadata, 8 bytes a row read
    table = two_class_table(200_000, **{f"m{i}": pa.array(np.full(200_000, 0.5))
                                        for i in range(10)})
    data = parquet_bytes(table.drop_columns(["score"]), compression="zstd")
    assert len(data) < 200_000
    message = _refused_over_budget(monkeypatch, data, "rle.parquet", "8")
    assert message.startswith("rle.parquet: would take about ")
    assert "of memory once read (from its metadata: 200,000 rows of 11 columns read), more " \
        "than the 8 MB accepted" in message


def test_lim021_names_too_big_as_a_table_refused_before_expanding(monkeypatch):
    n = 20_000
    names = pa.DictionaryArray.from_arrays(pa.array(np.arange(n, dtype=np.int32) // 2 % 2),
                                           pa.array(["a" * 200, "b" * 200]))
    data = parquet_bytes(two_class_table(n, model=names))
    message = _refused_over_budget(monkeypatch, data, "names.parquet", "2")
    assert message.startswith("names.parquet: would take ")
    assert "as a table of 20,000 predictions; its model names alone take 3.89 MB, more than " \
        "the 2 MB accepted" in message
    text = b"label,score,model\n" + b"".join(
        b"%d,0.5,%s\n" % (i % 2, b"a" * 200 if i % 2 else b"b" * 200) for i in range(n))
    error = load_error(text, "names.csv")
    assert isinstance(error, DecodedSizeError) and "its model names alone take" in str(error)
    monkeypatch.setenv("ROC_DASH_MAX_DECODED_MB", "64")
    assert load(data, "names.parquet").table["model"].str.len().max() == 200


def test_lim022_type_change_after_the_first_block_reads_like_the_whole_file_reader():
    """Arrow's streaming reader fixes types from its first block (1 MiB); a later value of
    another type makes the file read the way the whole-file reader reads it."""
    head = b"".join(b"%d,%d,a\n" % (i % 2, i % 2) for i in range(200_000))  # > 1 MiB
    for tail in (b"1,0.25,a\n", b"yes,0.25,b\n", b"1,x,a\n"):
        data = b"label,score,model\n" + head + tail
        expected = pa_csv.read_csv(io.BytesIO(data)).to_pandas()
        assert read_table(data, "t.csv").equals(expected)
        assert read_table(gzip.compress(data), "t.csv.gz").equals(expected)
    error = load_error(b"label,score,model\n" + head + b"1,x,a\n", "t.csv")
    assert "column 'score' has 1 non-numeric value (row 200,002): 'x'".replace(",002", "002") \
        in str(error)
    table = load(b"label,score,model\n" + head + b"1,0.25,a\n", "t.csv").table
    assert table["score"].iloc[-1] == 0.25 and table["score"].iloc[0] == 0.0


def test_lim023_limit_errors_are_input_errors_and_survive_pickling(monkeypatch):
    import pickle

    monkeypatch.setenv("ROC_DASH_MAX_ROWS", "3")
    error = load_error(rows_csv(4), "r.csv")
    assert type(error) is LimitError
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is LimitError and str(copy) == str(error)
    assert (copy.variable, copy.limit, copy.file) == ("ROC_DASH_MAX_ROWS", 3, "r.csv")
    decoded = DecodedSizeError("x", variable="ROC_DASH_MAX_DECODED_MB", limit=5, file="f",
                               column="model")
    copy = pickle.loads(pickle.dumps(decoded))
    assert type(copy) is DecodedSizeError and (copy.limit, copy.column) == (5, "model")


def test_lim024_new_limits_have_defaults_and_read_the_environment(monkeypatch):
    for var in size_limits.LIMIT_DEFAULTS:
        monkeypatch.delenv(var, raising=False)
    now = limits()
    assert (now.decoded_bytes, now.name_chars) == (1024 * MB, 256)
    monkeypatch.setenv("ROC_DASH_MAX_DECODED_MB", "0.5")
    monkeypatch.setenv("ROC_DASH_MAX_NAME_CHARS", "40")
    assert (limits().decoded_bytes, limits().name_chars) == (MB // 2, 40)


def test_lim025_only_the_columns_used_are_decoded():
    """Feature columns next to the predictions cost nothing (and their contents are not
    checked): only label, score, model, fold, weight and id are converted."""
    rows = "".join(f"{i % 2},0.{i + 1},{'x' * 50},{i}\n" for i in range(8))
    parsed = readers.parse_bytes(
        ("label,score,notes,n\n" + rows).encode(), "f.csv",
        lambda names: ColumnPlan(include=frozenset({"label", "score"})))
    assert parsed.table.column_names == ["label", "score"]
    assert parsed.names == ("label", "score", "notes", "n")
    assert len(load(("label,score,notes,n\n" + rows).encode()).table) == 8
    # a file with no score column by name is wide form: every numeric column is read
    result = load(("label,m1,m2\n" + "1,0.9,0.8\n0,0.1,0.3\n").encode())
    assert sorted(result.table["model"].unique()) == ["m1", "m2"]


def test_lim026_many_blocks_read_as_one_table_in_every_format():
    """3 MB of rows (several streaming blocks, Parquet row groups): model names first seen in
    late blocks keep their order of appearance; CSV, gzip and Parquet give one table."""
    rng = np.random.default_rng(3)
    n = 120_000
    model = np.where(np.arange(n) < n // 2, "early", np.where(np.arange(n) % 2, "late b",
                                                              "late a"))
    frame = pd.DataFrame({"label": rng.integers(0, 2, n), "score": rng.random(n).round(5),
                          "model": model, "fold": (np.arange(n) % 3 + 1).astype(str),
                          "id": np.arange(n).astype(str)})
    text = frame.to_csv(index=False).encode()
    assert len(text) > 2 * MB
    pq_buf = io.BytesIO()
    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), pq_buf,
                   row_group_size=25_000)
    tables = [load(text, "p.csv").table, load(gzip.compress(text), "p.csv.gz").table,
              load(pq_buf.getvalue(), "p.parquet").table]
    for table in tables:
        assert list(pd.unique(table["model"])) == ["early", "late a", "late b"]
        assert table["label"].tolist() == (frame["label"] == 1).tolist()
        assert np.array_equal(table["score"].to_numpy(), frame["score"].to_numpy())
        assert table["fold"].tolist() == frame["fold"].tolist()
        assert table["id"].tolist() == frame["id"].tolist()
        assert table.equals(tables[0])


def test_lim027_row_numbers_and_bad_rows_found_across_scan_pieces():
    """The streaming scanners (256 KiB pieces) number lines as a whole-text split does,
    whatever the line endings and quotes, across piece boundaries."""
    rng = np.random.default_rng(7)
    lines = [b"label,score"]
    bad = []
    for i in range(40_000):
        choice = rng.random()
        if choice < 0.2:
            lines.append(b"")
        elif choice < 0.21:
            lines.append(b'1,"0.5,x"')  # a quoted separator: two values, not bad
        elif choice < 0.215:
            lines.append(b"1,0.5,9")
            bad.append(len(lines))
        else:
            lines.append(b"%d,0.%d" % (i % 2, i % 97))
    endings = [b"\n", b"\r\n", b"\r"]
    for eol in endings:
        data = eol.join(lines) + eol
        error = load_error(data, "scan.csv")
        assert error.count == len(bad), eol
        assert list(error.rows) == bad[:5], eol
    # blank lines before a bad value: its row number is its line
    data = b"label,score\n" + b"\n" * 300_000 + b"1,0.5\n\r\n0,oops\n"
    error = load_error(data, "late.csv")
    assert error.rows == (300_004,) and "row 300004" in str(error)


def test_lim028_cli_and_upload_use_the_same_limits(tmp_path, monkeypatch, capsys):
    from roc_dash.app.features.data import apply_upload
    from roc_dash.app.server.store import DatasetStore
    from roc_dash.cli import EXIT_BAD_INPUT, main

    data = b"a" * (2 * MB) + b"\n1\n0\n"
    path = tmp_path / "header.csv"
    path.write_bytes(data)
    assert main(["report", str(path), "--engine", "memory"]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert err.startswith(f"roc-dash: {path}: the header line (line 1) is longer than 1 MB")
    store = DatasetStore(tmp_path / "store")
    out = apply_upload(store, [("header.csv", data)], [])
    assert out.error.startswith("header.csv: the header line (line 1) is longer than 1 MB")
    assert "internal error" not in out.error
    monkeypatch.setenv("ROC_DASH_MAX_NAME_CHARS", "5")
    upload = b"label,score,model\n1,0.9,abcdefg\n0,0.1,abcdefg\n"
    out = apply_upload(store, [("m.csv", upload)], [])
    assert out.error.startswith("m.csv: column 'model' has a model name of 7 characters")
    path.write_bytes(upload)
    assert main(["report", str(path), "--engine", "memory"]) == EXIT_BAD_INPUT
    assert "column 'model' has a model name of 7 characters" in capsys.readouterr().err


def test_lim029_memory_given_back_after_a_refusal(monkeypatch):
    monkeypatch.setenv("ROC_DASH_MAX_ROWS", "200000")
    data = rows_csv(400_000)
    before = pa.total_allocated_bytes()
    error = load_error(data, "many.csv")
    assert "has 400,000 rows" in str(error)
    arrow_let_go(before)
    quoted = b'label,score\n"1",0.5\n' + data[len(b"label,score\n"):]
    error = load_error(gzip.compress(quoted), "quoted.csv.gz")
    # a quote makes counting line breaks inexact: the parse stops soon after the limit
    assert str(error).startswith("quoted.csv.gz: has more than 200,000 rows, the most accepted")
    arrow_let_go(before)


def test_lim030_aggregating_engine_caps_names_too(tmp_path, monkeypatch):
    from roc_dash.io.engines import aggregate_predictions

    path = tmp_path / "agg.csv"
    path.write_text("label,score,model,fold\n" + "".join(
        f"{i % 2},0.{i + 1},{'m' * 300},{i % 3}\n" for i in range(6)))
    with pytest.raises(LimitError) as info:
        aggregate_predictions([str(path)], engine="duckdb")
    assert str(info.value).startswith(
        f"{path}: column 'model' has a model name of 300 characters: 'mmm")
    assert info.value.variable == "ROC_DASH_MAX_NAME_CHARS"
    monkeypatch.setenv("ROC_DASH_MAX_NAME_CHARS", "300")
    assert aggregate_predictions([str(path)], engine="duckdb").table["model"].nunique() == 1
