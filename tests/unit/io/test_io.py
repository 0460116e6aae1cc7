"""Tests for roc_dash.io: reading, validating and canonicalising prediction files."""

from __future__ import annotations

import gzip
import io
import pickle

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pa_csv
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roc_dash.io import (
    CANONICAL_COLUMNS,
    InputError,
    LoadResult,
    ReadOptions,
    load_predictions,
    read_table,
)
from roc_dash.io.errors import format_rows

BASIC = b"label,score\n1,0.9\n0,0.2\n1,0.6\n0,0.4\n"


def load(data: bytes | str, name: str = "preds.csv", **options) -> LoadResult:
    if isinstance(data, str):
        data = data.encode("utf-8")
    return load_predictions([(name, data)], options=ReadOptions(**options))


def load_error(data: bytes | str, name: str = "preds.csv", **options) -> InputError:
    with pytest.raises(InputError) as info:
        load(data, name, **options)
    return info.value


def parquet_bytes(frame: pd.DataFrame | pa.Table) -> bytes:
    table = frame if isinstance(frame, pa.Table) else pa.Table.from_pandas(frame)
    buf = io.BytesIO()
    pq.write_table(table, buf)
    return buf.getvalue()


def assert_canonical(table: pd.DataFrame, with_id: bool = False) -> None:
    expected = list(CANONICAL_COLUMNS) + (["id"] if with_id else [])
    assert list(table.columns) == expected
    assert table["label"].dtype == bool
    assert table["score"].dtype == np.float64
    assert table["weight"].dtype == np.float64
    assert all(isinstance(v, str) for v in table["model"])
    assert all(isinstance(v, str) for v in table["fold"])
    assert isinstance(table.index, pd.RangeIndex) and table.index[0] == 0


# --------------------------------------------------------------------------- formats


def test_io001_csv_comma():
    result = load(BASIC)
    table = result.table
    assert_canonical(table)
    assert table["label"].tolist() == [True, False, True, False]
    assert table["score"].tolist() == [0.9, 0.2, 0.6, 0.4]
    assert set(table["model"]) == {"preds"}
    assert set(table["fold"]) == {"all"}
    assert table["weight"].tolist() == [1.0] * 4
    assert result.notes == ()


def test_io002_tsv():
    table = load("label\tscore\n1\t0.9\n0\t0.2\n", name="preds.tsv").table
    assert_canonical(table)
    assert table["score"].tolist() == [0.9, 0.2]
    assert table["label"].tolist() == [True, False]


def test_io003_semicolon_with_decimal_comma():
    table = load("label;score\n1;0,9\n0;0.2\n1;1\n").table
    assert_canonical(table)
    assert table["score"].tolist() == [0.9, 0.2, 1.0]


def test_io004_gzip_csv_and_tsv():
    table = load(gzip.compress(BASIC), name="runs/preds.csv.gz").table
    assert table["score"].tolist() == [0.9, 0.2, 0.6, 0.4]
    assert set(table["model"]) == {"preds"}
    tsv = gzip.compress(b"label\tscore\n1\t0.9\n0\t0.2\n")
    assert load(tsv, name="x.tsv.gz").table["score"].tolist() == [0.9, 0.2]


def test_io005_gzip_detected_by_magic_not_extension():
    # compressed, but named .csv
    assert load(gzip.compress(BASIC), name="p.csv").table["score"].tolist()[0] == 0.9
    # named .gz, but plain text
    assert load(BASIC, name="p.csv.gz").table["score"].tolist()[0] == 0.9


def test_io006_parquet():
    frame = pd.DataFrame(
        {"label": [True, False, True, False], "score": [0.9, 0.1, 0.8, 0.3], "fold": [1, 1, 2, 2]}
    )
    table = load(parquet_bytes(frame), name="p.parquet").table
    assert_canonical(table)
    assert table["label"].tolist() == [True, False, True, False]
    assert table["fold"].tolist() == ["1", "1", "2", "2"]
    assert set(table["model"]) == {"p"}


def test_io007_parquet_dictionary_columns_and_pandas_index():
    frame = pd.DataFrame(
        {
            "y_true": pd.Categorical(["yes", "no", "yes", "no"]),
            "prob": [0.9, 0.1, 0.8, 0.3],
            "model": pd.Categorical(["lr"] * 4),
        },
        index=[10, 11, 12, 13],
    )
    table = load(parquet_bytes(frame), name="p.parquet").table
    assert_canonical(table)
    assert table["label"].tolist() == [True, False, True, False]
    assert set(table["model"]) == {"lr"}


def test_io008_utf8_bom():
    table = load(b"\xef\xbb\xbf" + BASIC).table
    assert_canonical(table)
    assert len(table) == 4


def test_io009_crlf_line_endings():
    table = load(BASIC.replace(b"\n", b"\r\n")).table
    assert table["score"].tolist() == [0.9, 0.2, 0.6, 0.4]
    assert load(b"\xef\xbb\xbf" + BASIC.replace(b"\n", b"\r\n")).table.shape == (4, 5)


def test_io010_read_table_each_format():
    expected = [0.9, 0.2, 0.6, 0.4]
    variants = {
        "a.csv": BASIC,
        "a.tsv": BASIC.replace(b",", b"\t"),
        "a.txt": BASIC.replace(b",", b";"),
        "a.csv.gz": gzip.compress(BASIC),
        "a.parquet": parquet_bytes(pd.read_csv(io.BytesIO(BASIC))),
        "bom.csv": b"\xef\xbb\xbf" + BASIC.replace(b"\n", b"\r\n"),
    }
    for name, data in variants.items():
        frame = read_table(data, name)
        assert isinstance(frame, pd.DataFrame), name
        assert list(frame.columns) == ["label", "score"], name
        assert frame["score"].tolist() == expected, name


# --------------------------------------------------------------------------- labels


@pytest.mark.parametrize(
    ("pos", "neg"),
    [
        ("1", "0"),
        ("1.0", "0.0"),
        ("+1", "-1"),
        ("1", "-1"),
        ("true", "false"),
        ("True", "FALSE"),
        ("yes", "no"),
        (" YES ", "No"),
        ("p", "n"),
        ("P", "N"),
        ("pos", "neg"),
        ("positive", "negative"),
        ("Positive", "NEGATIVE"),
    ],
)
def test_io011_label_encodings(pos, neg):
    text = f"label,score\n{pos},0.9\n{neg},0.2\n{neg},0.3\n{pos},0.4\n"
    assert load(text).table["label"].tolist() == [True, False, False, True]


def test_io012_label_encodings_typed_parquet():
    for pos, neg in [(True, False), (1, 0), (1, -1), (1.0, 0.0), ("yes", "no")]:
        frame = pd.DataFrame({"label": [pos, neg, neg], "score": [0.9, 0.1, 0.3]})
        table = load(parquet_bytes(frame), name="p.parquet").table
        assert table["label"].tolist() == [True, False, False], (pos, neg)


def test_io013_positive_option():
    text = "label,score\ncat,0.9\ndog,0.2\nCat ,0.7\n"
    assert load(text, positive="cat").table["label"].tolist() == [True, False, True]
    assert load(text, positive="dog").table["label"].tolist() == [False, True, False]
    # 1/2 is not a known encoding; positive picks one, numerically compared
    numeric = "label,score\n1,0.9\n2,0.2\n"
    assert load(numeric, positive="2").table["label"].tolist() == [False, True]
    assert load(numeric, positive="2.0").table["label"].tolist() == [False, True]
    # positive also overrides the built-in encodings
    assert load(BASIC, positive="0").table["label"].tolist() == [False, True, False, True]


# --------------------------------------------------------------------------- columns


def test_io014_column_aliases_and_note():
    result = load("ID,Y_True,Prob\na,1,0.9\nb,0,0.1\n")
    assert_canonical(result.table, with_id=True)
    assert result.table["score"].tolist() == [0.9, 0.1]
    assert result.notes == ("preds.csv: using column 'Y_True' as the label and 'Prob' as the score.",)
    # priority: 'label' before 'y', 'score' before 'pred'
    table = load("y,pred,label,score\n0,0.5,1,0.9\n1,0.5,0,0.1\n", positive=None).table
    assert table["label"].tolist() == [True, False]
    assert table["score"].tolist() == [0.9, 0.1]


def test_io015_overrides_case_insensitive():
    text = (
        "truth,p1,p2,Run,K,W,key\n"
        "1,0.9,0.1,a,1,2.0,r1\n0,0.2,0.3,a,1,1.0,r2\n1,0.7,0.4,a,2,1.0,r3\n0,0.1,0.5,a,2,0.5,r4\n"
    )
    result = load(
        text,
        label=" TRUTH ",
        score="P2",
        model="run",
        fold="k",
        weight="w",
        id="KEY",
    )
    table = result.table
    assert_canonical(table, with_id=True)
    assert table["score"].tolist() == [0.1, 0.3, 0.4, 0.5]
    assert table["model"].tolist() == ["a"] * 4
    assert table["fold"].tolist() == ["1", "1", "2", "2"]
    assert table["weight"].tolist() == [2.0, 1.0, 1.0, 0.5]
    assert table["id"].tolist() == ["r1", "r2", "r3", "r4"]
    assert result.notes == ()


def test_io016_wide_form_auto():
    text = "label,lr,rf,fold,id\n1,0.9,0.8,1,a\n0,0.2,0.1,1,b\n1,0.6,0.7,2,c\n0,0.4,0.3,2,d\n"
    result = load(text)
    table = result.table
    assert_canonical(table, with_id=True)
    assert table["model"].tolist() == ["lr"] * 4 + ["rf"] * 4
    assert table["score"].tolist() == [0.9, 0.2, 0.6, 0.4, 0.8, 0.1, 0.7, 0.3]
    assert table["label"].tolist() == [True, False, True, False] * 2
    assert table["fold"].tolist() == ["1", "1", "2", "2"] * 2
    assert table["id"].tolist() == ["a", "b", "c", "d"] * 2
    assert len(result.notes) == 1 and "wide form" in result.notes[0]
    assert "'lr', 'rf'" in result.notes[0]


def test_io017_wide_form_explicit_scores():
    text = "label,a,b,c\n1,0.9,0.8,0.5\n0,0.2,0.1,0.5\n"
    table = load(text, score=["c", "A"]).table
    assert table["model"].tolist() == ["c", "c", "a", "a"]
    assert table["score"].tolist() == [0.5, 0.5, 0.9, 0.2]
    # a one-element list is the same as a single name (long form, model from the file)
    table = load(text, score=["b"]).table
    assert set(table["model"]) == {"preds"}


def test_io018_id_column_keeps_text():
    table = load("label,score,id\n1,0.9,007\n0,0.2,008\n").table
    assert table["id"].tolist() == ["007", "008"]
    assert "id" not in load(BASIC).table.columns


def test_io019_fold_as_string():
    table = load("label,score,fold\n1,0.9,1\n0,0.2,1\n1,0.6,2\n0,0.4,2\n").table
    assert table["fold"].tolist() == ["1", "1", "2", "2"]
    table = load("label,score,fold\n1,0.9,1.0\n0,0.2,1.0\n1,0.6,2.0\n0,0.4,2.0\n").table
    assert table["fold"].tolist() == ["1", "1", "2", "2"]
    frame = pd.DataFrame({"label": [1, 0, 1, 0], "score": [0.1] * 4, "fold": [3.0, 3.0, 4.0, 4.0]})
    table = load(parquet_bytes(frame), name="f.parquet").table
    assert table["fold"].tolist() == ["3", "3", "4", "4"]


def test_io020_default_and_given_weight():
    assert load(BASIC).table["weight"].tolist() == [1.0] * 4
    table = load("label,score,weight\n1,0.9,2\n0,0.2,0\n1,0.6,0.5\n0,0.4,1\n").table
    assert table["weight"].tolist() == [2.0, 0.0, 0.5, 1.0]


# --------------------------------------------------------------------------- several files


def test_io021_model_names_from_files_deduplicated(tmp_path):
    (tmp_path / "runs").mkdir()
    path = tmp_path / "runs" / "preds.csv.gz"
    path.write_bytes(gzip.compress(BASIC))
    result = load_predictions(
        [path, ("other/preds.csv", BASIC), ("preds.tsv", BASIC.replace(b",", b"\t"))],
        existing_models=["lr"],
    )
    assert result.table["model"].unique().tolist() == ["preds", "preds (2)", "preds (3)"]
    assert len(result.table) == 12
    assert any("'preds (2)'" in note for note in result.notes)

    result = load_predictions([("lr.csv", BASIC)], existing_models=["lr", "lr (2)"])
    assert set(result.table["model"]) == {"lr (3)"}
    assert result.notes == ("lr.csv: the model is named 'lr (3)' because 'lr' is already in use.",)


def test_io022_model_column_names_kept_across_files():
    a = b"label,score,model,fold\n1,0.9,lr,1\n0,0.2,lr,1\n1,0.8,rf,1\n0,0.1,rf,1\n"
    b = b"label,score,model,fold\n1,0.7,lr,2\n0,0.3,lr,2\n"
    result = load_predictions([("a.csv", a), ("b.csv", b)], existing_models=["lr"])
    table = result.table
    assert table["model"].tolist() == ["lr", "lr", "rf", "rf", "lr", "lr"]
    assert table["fold"].tolist() == ["1"] * 4 + ["2"] * 2
    assert table["score"].tolist() == [0.9, 0.2, 0.8, 0.1, 0.7, 0.3]
    # a file-named model does not take a name a model column uses
    c = b"label,score\n1,0.5\n0,0.4\n"
    table = load_predictions([("lr.csv", c), ("a.csv", a)]).table
    assert table["model"].tolist()[:2] == ["lr (2)", "lr (2)"]


def test_io023_all_or_nothing_across_files():
    bad = b"label,score\n1,0.9\n0,abc\n"
    with pytest.raises(InputError) as info:
        load_predictions([("good.csv", BASIC), ("bad.csv", bad), ("good2.csv", BASIC)])
    err = info.value
    assert err.file == "bad.csv"
    assert str(err).startswith("bad.csv: ")


def test_io024_id_in_some_files_only():
    a = b"label,score,id\n1,0.9,x\n0,0.2,y\n"
    table = load_predictions([("a.csv", a), ("b.csv", BASIC)]).table
    assert list(table.columns) == [*CANONICAL_COLUMNS, "id"]
    assert table["id"].tolist()[:2] == ["x", "y"]
    assert table["id"].isna().sum() == 4


def test_io025_one_class_per_file_ok_when_model_spans_files():
    # fold 1 and fold 2 of 'lr' come from different files; each fold has both classes
    a = b"label,score,model\n1,0.9,lr\n1,0.8,lr\n"
    b = b"label,score,model\n0,0.1,lr\n0,0.2,lr\n"
    table = load_predictions([("a.csv", a), ("b.csv", b)]).table
    assert table["label"].tolist() == [True, True, False, False]


def test_io026_drop_nonfinite_with_note():
    text = "label,score\n1,0.9\n0,\n1,inf\n0,0.4\n1,NaN\n0,-inf\n1,0.3\n"
    result = load(text, drop_nonfinite=True)
    assert result.table["score"].tolist() == [0.9, 0.4, 0.3]
    assert result.table["label"].tolist() == [True, False, True]
    assert result.notes == (
        "preds.csv: dropped 4 rows with missing or infinite scores in column 'score' "
        "(rows 3, 4, 6, 7).",
    )


def test_io027_drop_nonfinite_wide_form_per_model():
    text = "label,a,b\n1,0.9,\n0,0.2,0.1\n1,0.6,0.7\n0,0.4,0.3\n"
    result = load(text, drop_nonfinite=True)
    table = result.table
    assert table["model"].tolist() == ["a"] * 4 + ["b"] * 3
    assert table["score"].tolist() == [0.9, 0.2, 0.6, 0.4, 0.1, 0.7, 0.3]
    assert any("column 'b' (row 2)" in note for note in result.notes)


def test_io028_row_numbers_after_dropped_rows_and_blank_lines():
    text = "label,score\n1,0.9\n\n0,\n,0.5\n"
    err = load_error(text, drop_nonfinite=True)
    assert err.column == "label"
    assert err.rows == (5,)
    assert "row 5" in str(err)


# --------------------------------------------------------------------------- rejections


def test_io030_empty_file():
    err = load_error(b"")
    assert str(err).startswith("preds.csv: the file is empty")
    assert "header" in str(err)
    assert (err.file, err.column, err.rows, err.count) == ("preds.csv", None, (), 0)


def test_io031_whitespace_only_file():
    err = load_error(b"  \r\n\t\n \n")
    assert "preds.csv: the file is empty" in str(err)
    err = load_error(gzip.compress(b""), name="x.csv.gz")
    assert "x.csv.gz" in str(err) and "empty" in str(err)


def test_io032_header_only():
    err = load_error(b"label,score\n")
    assert "preds.csv: has a header but no data rows" in str(err)
    assert "'label', 'score'" in str(err)
    assert "Add one row per prediction" in str(err)
    assert err.file == "preds.csv" and err.count == 0
    for data in (b"label,score", b"\r\nlabel;score\r\n\r\n", gzip.compress(b"label,score\n")):
        assert "has a header but no data rows" in str(load_error(data))


def test_io033_binary_png():
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
    err = load_error(png, name="chart.png")
    assert str(err).startswith("chart.png: cannot be read")
    assert "PNG" in str(err)
    assert "Accepted formats: CSV, TSV" in str(err) and "Parquet" in str(err)


def test_io034_binary_random_bytes():
    data = np.random.default_rng(1).integers(0, 256, 5000, dtype=np.uint8).tobytes()
    err = load_error(b"\x00" + data, name="blob.csv")
    assert "blob.csv: cannot be read" in str(err)
    assert "Accepted formats" in str(err)
    assert err.file == "blob.csv"


def test_io035_excel_workbook():
    err = load_error(b"PK\x03\x04" + b"\x00" * 100, name="book.xlsx")
    assert "Excel" in str(err) and "CSV" in str(err)


def test_io036_not_utf8_text():
    err = load_error("label,score\n1,0.9\ncaf\u00e9,0.2\n".encode("latin-1"))
    assert "preds.csv: is not UTF-8 text" in str(err)
    assert "line 3" in str(err)
    assert "UTF-8" in str(err) and "Accepted formats" in str(err)
    assert err.rows == (3,)
    err = load_error("label,score\n".encode("utf-16"))
    assert "UTF-16" in str(err)


def _no_column(text: str, role: str, columns: str, accepted: str):
    """The error of a file without a ``role`` column: it names the file's ``columns``, the
    ``accepted`` names and the option (``--role``) that names one."""
    err = load_error(text)
    msg = str(err)
    assert msg.startswith(f"preds.csv: no {role} column found.")
    assert columns in msg and accepted in msg and f"--{role}" in msg
    return err


def test_io037_no_label_column():
    err = _no_column("verdict,score\n1,0.9\n0,0.1\n", "label",
                     "Columns in this file: 'verdict', 'score'",
                     "label, y_true, target, class, actual, y, truth")
    assert err.column is None and err.count == 0


def test_io038_no_score_column():
    # a model column rules out wide form
    _no_column("label,model,out\n1,lr,0.9\n0,lr,0.1\n", "score", "'label', 'model', 'out'",
               "score, y_score, prob, probability, pred, prediction")
    # no numeric column left for wide form
    err = load_error("label,comment\n1,good\n0,bad\n")
    assert "no score column found" in str(err)


def test_io039_duplicated_column_names():
    err = load_error("label,score,score\n1,0.9,0.8\n0,0.1,0.2\n")
    assert "the column name 'score' appears more than once" in str(err)
    assert "columns 2 and 3" in str(err)
    assert "unique" in str(err)
    assert err.column == "score" and err.file == "preds.csv"
    with pytest.raises(InputError):
        read_table(b"a,b,a\n1,2,3\n", "x.csv")


def test_io040_non_numeric_scores():
    text = "label,score\n1,0.9\n0,0.1\n1,abc\n0,0.2\n1,0.3\n0,n/a?\n1,0.5\n0,?\n"
    err = load_error(text)
    assert str(err) == (
        "preds.csv: column 'score' has 3 non-numeric values (rows 4, 7, 9): 'abc', 'n/a?', "
        "'?'. Scores must be numbers; fix or remove these rows."
    )
    assert (err.file, err.column, err.rows, err.count) == ("preds.csv", "score", (4, 7, 9), 3)


def test_io041_non_numeric_scores_even_with_drop_nonfinite():
    err = load_error("label,score\n1,0.9\n0,x\n", drop_nonfinite=True)
    assert "non-numeric" in str(err) and err.rows == (3,)


def test_io042_missing_scores_rejected():
    lines = ["label,score"] + [f"{i % 2},{'' if i >= 3 else 0.5}" for i in range(10)]
    err = load_error("\n".join(lines) + "\n")
    msg = str(err)
    assert "preds.csv: column 'score' has 7 missing or infinite scores" in msg
    assert "rows 5, 6, 7, 8, 9, … (7 in all)" in msg
    assert "--drop-nonfinite" in msg
    assert (err.column, err.rows, err.count) == ("score", (5, 6, 7, 8, 9), 7)


def test_io043_infinite_scores_rejected():
    err = load_error("label,score\n1,0.9\n0,-inf\n1,Infinity\n0,0.1\n")
    assert "2 missing or infinite scores (2 infinite; rows 3, 4)" in str(err)
    assert err.rows == (3, 4) and err.count == 2


def test_io044_all_scores_missing_even_with_drop():
    err = load_error("label,score\n1,\n0,NaN\n", drop_nonfinite=True)
    assert "no usable scores" in str(err)
    assert err.count == 2


def test_io045_model_with_one_class():
    err = load_error("label,score\n1,0.9\n1,0.1\n", name="runs/a.csv")
    msg = str(err)
    assert msg.startswith("runs/a.csv: model 'a' has only positive labels ('1')")
    assert "ROC curve is undefined" in msg
    assert "both positive and negative" in msg
    assert err.file == "runs/a.csv" and err.column == "label"


def test_io046_fold_with_one_class():
    text = "y,score,fold,model\nyes,0.9,1,lr\nno,0.1,1,lr\nno,0.8,2,lr\nno,0.3,2,lr\n"
    err = load_error(text)
    msg = str(err)
    assert "model 'lr' has only negative labels ('no') in fold '2' (2 rows)" in msg
    assert "remove this fold" in msg
    assert err.column == "y"


def test_io047_more_than_two_labels():
    text = "label,score\ncat,0.1\ndog,0.2\nbird,0.3\ncat,0.4\n"
    err = load_error(text)
    msg = str(err)
    assert "column 'label' has 3 distinct values ('cat', 'dog', 'bird')" in msg
    assert "two classes" in msg and "Multi-class" in msg
    assert err.column == "label" and err.file == "preds.csv"
    many = "label,score\n" + "".join(f"{i},0.5\n" for i in range(20))
    msg = str(load_error(many))
    assert "20 distinct values" in msg and "… (20 in all)" in msg


def test_io048_unknown_two_labels_need_positive():
    err = load_error("label,score\ncat,0.9\ndog,0.1\n")
    msg = str(err)
    assert "'cat', 'dog'" in msg
    assert "not a known label encoding" in msg
    assert "positive" in msg and "--positive" in msg
    assert err.column == "label"
    assert "--positive" in str(load_error("label,score\n1,0.9\n2,0.1\n"))


def test_io049_positive_not_among_values():
    err = load_error(BASIC, positive="yes")
    msg = str(err)
    assert "the positive class 'yes' is not a value of column 'label'" in msg
    assert "'1', '0'" in msg
    assert err.column == "label"


def test_io050_invalid_weights():
    err = load_error("label,score,weight\n1,0.9,1\n0,0.1,-2\n1,0.5,inf\n0,0.2,1\n")
    msg = str(err)
    assert "column 'weight' has 2 invalid weights (rows 3, 4): -2, inf" in msg
    assert "0 or more" in msg
    assert (err.column, err.rows, err.count) == ("weight", (3, 4), 2)
    err = load_error("label,score,weight\n1,0.9,1\n0,0.1,\n")
    assert "column 'weight' has 1 missing value (row 3)" in str(err)
    err = load_error("label,score,weight\n1,0.9,1\n0,0.1,heavy\n")
    assert "non-numeric" in str(err) and "'heavy'" in str(err)


def test_io051_override_names_missing_column():
    err = load_error(BASIC, score="probs")
    msg = str(err)
    assert "there is no column 'probs' (chosen as the score column)" in msg
    assert "Columns in this file: 'label', 'score'" in msg
    assert err.column == "probs"
    err = load_error(BASIC, label="truth")
    assert "chosen as the label column" in str(err) and "--label" in str(err)


def test_io052_missing_labels():
    err = load_error("label,score\n1,0.9\n,0.1\n0,0.4\n  ,0.3\n")
    assert str(err) == (
        "preds.csv: column 'label' has 2 missing values (rows 3, 5). Every row needs a label "
        "(its true class); fill them in or remove these rows."
    )
    assert (err.rows, err.count) == ((3, 5), 2)


def test_io053_wrong_number_of_fields():
    err = load_error("label,score\n1,0.9\n0\n1,0.5,7\n0,0.2\n")
    msg = str(err)
    assert "2 rows do not have 2 values like the header (rows 3, 4)" in msg
    assert (err.rows, err.count) == ((3, 4), 2)
    # quoted fields may hold the delimiter; blank lines still count as lines
    err = load_error('label,score,name\r\n1,0.9,"a,b"\r\n\r\n0,0.2\r\n1,0.5,"c"\r\n')
    assert "1 row does not have 3 values like the header (row 4); row 4 has 2" in str(err)
    assert (err.rows, err.count) == ((4,), 1)
    err = load_error("label;score\n1;0,9\n\n0;0,2;x\n")
    assert (err.rows, err.count) == ((4,), 1) and "semicolon" in str(err)


def test_io054_parquet_row_numbers_are_records():
    frame = pd.DataFrame({"label": [1, 0, 1], "score": [0.5, np.nan, 0.2]})
    err = load_error(parquet_bytes(frame), name="p.parquet")
    assert err.rows == (2,) and "row 2" in str(err)


def test_io055_corrupt_gzip_and_parquet():
    err = load_error(gzip.compress(BASIC)[:20], name="x.csv.gz")
    assert "gzip-compressed but cannot be decompressed" in str(err)
    frame = pd.DataFrame({"label": [1, 0], "score": [0.5, 0.2]})
    err = load_error(parquet_bytes(frame)[:40], name="x.parquet")
    assert "Parquet" in str(err) and "cannot be read" in str(err)


def test_io056_missing_fold_and_model_values():
    err = load_error("label,score,fold\n1,0.9,1\n0,0.1,\n")
    assert "column 'fold' has 1 missing value (row 3)" in str(err)
    err = load_error("label,score,model\n1,0.9,lr\n0,0.1,\n")
    assert "column 'model' has 1 missing value (row 3)" in str(err)


def test_io057_ambiguous_and_conflicting_columns():
    err = load_error("Label,label,score\n1,1,0.9\n0,0,0.1\n")
    assert "several columns could be the label column: 'Label', 'label'" in str(err)
    err = load_error(BASIC, label="score", score="score")
    assert "column 'score' cannot be both the label and the score column" in str(err)
    err = load_error("label,a,b,model\n1,0.9,0.8,x\n0,0.1,0.2,x\n", score=["a", "b"])
    assert "model column" in str(err)


def test_io058_file_not_found(tmp_path):
    with pytest.raises(InputError) as info:
        load_predictions([tmp_path / "nope.csv"])
    assert "not found" in str(info.value) and info.value.file.endswith("nope.csv")


def test_io059_no_sources():
    with pytest.raises(InputError):
        load_predictions([])


# --------------------------------------------------------------------------- error object


def test_io060_input_error_attributes_and_pickle():
    err = InputError("x.csv: boom", file="x.csv", column="score", rows=range(2, 20), count=18)
    assert isinstance(err, ValueError)
    assert str(err) == "x.csv: boom"
    assert err.rows == (2, 3, 4, 5, 6) and err.count == 18
    copy = pickle.loads(pickle.dumps(err))
    assert (str(copy), copy.file, copy.column, copy.rows, copy.count) == (
        "x.csv: boom",
        "x.csv",
        "score",
        (2, 3, 4, 5, 6),
        18,
    )


def test_io061_format_rows():
    assert format_rows([4]) == "row 4"
    assert format_rows([4, 7, 9]) == "rows 4, 7, 9"
    assert format_rows([2, 3, 4, 5, 6], 12) == "rows 2, 3, 4, 5, 6, … (12 in all)"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300))
@pytest.mark.slow
def test_io062_arbitrary_bytes_never_crash(data):
    try:
        result = load_predictions([("fuzz.csv", data)])
    except InputError as err:
        assert str(err).startswith("fuzz.csv")
        assert "Traceback" not in str(err)
    else:
        assert_canonical(result.table, with_id="id" in result.table.columns)


_cell = st.sampled_from(["0", "1", "yes", "no", "0.5", "", "abc", "nan", "inf", "-1", " 2 "])


@settings(max_examples=150, deadline=None)
@given(
    header=st.lists(st.sampled_from(["label", "score", "fold", "weight", "id", "x"]), min_size=1,
                    max_size=4),
    rows=st.lists(st.lists(_cell, min_size=0, max_size=5), max_size=6),
    sep=st.sampled_from([",", "\t", ";"]),
)
@pytest.mark.slow
def test_io063_arbitrary_tables_never_crash(header, rows, sep):
    text = sep.join(header) + "\n" + "".join(sep.join(r) + "\n" for r in rows)
    try:
        result = load(text, drop_nonfinite=True)
    except InputError as err:
        assert str(err).startswith("preds.csv: ")
        assert err.file == "preds.csv"
        assert len(err.rows) <= 5
    else:
        assert_canonical(result.table, with_id="id" in result.table.columns)


def test_io064_large_file_round_trip():
    # Speed is measured in bench/, not asserted here; this checks a large file reads exactly.
    n = 1_000_000
    rng = np.random.default_rng(0)
    table = pa.table(
        {
            "label": rng.integers(0, 2, n),
            "score": rng.random(n),
            "fold": rng.integers(1, 6, n),
        }
    )
    buf = io.BytesIO()
    pa_csv.write_csv(table, buf)
    data = buf.getvalue()
    result = load_predictions([("big.csv", data)])
    assert len(result.table) == n
    np.testing.assert_array_equal(result.table["label"], table["label"].to_numpy() == 1)
    np.testing.assert_allclose(result.table["score"], table["score"].to_numpy())
    assert result.table["fold"].iloc[:5].tolist() == [str(v) for v in table["fold"].to_numpy()[:5]]
