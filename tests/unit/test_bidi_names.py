"""Invisible direction controls are taken out of every name someone supplies.

A model named ``"\\u202eevil"`` (RIGHT-TO-LEFT OVERRIDE) was kept as it was: the legend, the
tables and the report then drew the name, and the text after it, reversed (stranger review of
issue 14). The set of controls is checked against Python's own Unicode database.
"""

from __future__ import annotations

import sys
import unicodedata

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from roc_dash.bidi import BIDI_CONTROLS, without_bidi
from roc_dash.figures.style import plain
from roc_dash.io import load_predictions
from roc_dash.io.canonical import model_name_from_filename

RLO, PDF, LRI, PDI, RLM = "\u202e", "\u202c", "\u2066", "\u2069", "\u200f"
#: Unicode's explicit directional formatting classes (UAX #9, table 4).
EXPLICIT = {"LRE", "RLE", "PDF", "LRO", "RLO", "LRI", "RLI", "FSI", "PDI"}


def test_bdi001_the_set_is_every_explicit_control_and_the_marks():
    explicit = {chr(c) for c in range(sys.maxunicode + 1)
                if unicodedata.bidirectional(chr(c)) in EXPLICIT}
    marks = {unicodedata.lookup(n) for n in ("LEFT-TO-RIGHT MARK", "RIGHT-TO-LEFT MARK",
                                              "ARABIC LETTER MARK")}
    assert set(BIDI_CONTROLS) == explicit | marks
    assert without_bidi(f"a{RLO}b{LRI}c{PDI}{RLM}") == "abc"


def test_bdi002_model_fold_and_label_values_lose_them(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text(
        "label,score,model,fold\n"
        f"1,0.9,{RLO}evil{PDF},{LRI}f1{PDI}\n0,0.2,{RLO}evil{PDF},{LRI}f1{PDI}\n"
        "1,0.4,ok,f2\n0,0.5,ok,f2\n", encoding="utf-8")
    table = load_predictions(str(path)).table
    assert sorted(map(str, table["model"].unique())) == ["evil", "ok"]
    assert sorted(map(str, table["fold"].unique())) == ["f1", "f2"]


def test_bdi003_names_that_differ_only_by_them_are_one_name(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text(f"label,score,model\n1,0.9,m\n0,0.2,m\n1,0.4,{RLM}m\n0,0.1, m{RLO}\n",
                    encoding="utf-8")
    table = load_predictions(str(path)).table
    assert list(map(str, table["model"].unique())) == ["m"]  # as surrounding spaces already are


@pytest.mark.parametrize("reader", ["memory", "engine"])
@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_bdi004_wide_headers_named_as_models_lose_them(tmp_path, fmt, reader):
    frame = pd.DataFrame({"label": [1, 0, 1, 0], f"score_{RLO}abc": [0.9, 0.2, 0.5, 0.4],
                          "score_ok": [0.3, 0.1, 0.6, 0.2]})
    path = tmp_path / f"w.{fmt}"
    if fmt == "csv":
        frame.to_csv(path, index=False)
    else:
        pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), path)
    if reader == "memory":
        table = load_predictions(str(path)).table
    else:
        from roc_dash.io.engines import aggregate_predictions

        table = aggregate_predictions([str(path)]).table
    assert sorted(map(str, table["model"].unique())) == ["score_abc", "score_ok"]


def test_bdi005_file_names_figures_and_uploads_lose_them():
    from roc_dash.app.server.upload_route import _safe_name

    assert model_name_from_filename(f"runs/{RLO}gnp.lr.csv") == "gnp.lr"
    assert plain(f"<a>{RLO}x{PDF}") == "&lt;a&gt;x"
    assert _safe_name(f"../{RLO}cod.exe{LRI}.csv") == "cod.exe.csv"
