"""Invisible characters are taken out of every name someone supplies.

A model named ``"\\u202eevil"`` (RIGHT-TO-LEFT OVERRIDE) was kept as it was: the legend, the
tables and the report then drew the name, and the text after it, reversed (stranger review of
issue 14); ``rf`` and ``r\\u200bf`` were two models shown alike. The set is checked against
Python's own Unicode database; two names that become one without them are refused (stranger
review 3: a wide file's ``score_a\\u202ebc`` and ``score_abc`` were pooled into one curve).
"""

from __future__ import annotations

import sys
import unicodedata

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from roc_dash.figures.style import plain
from roc_dash.io import load_predictions
from roc_dash.io.canonical import model_name_from_filename
from roc_dash.io.errors import InputError
from roc_dash.text.invisible import invisible_characters, without_invisible

RLO, PDF, LRI, PDI, RLM = "\u202e", "\u202c", "\u2066", "\u2069", "\u200f"
#: Unicode's explicit directional formatting classes (UAX #9, table 4).
EXPLICIT = {"LRE", "RLE", "PDF", "LRO", "RLO", "LRI", "RLI", "FSI", "PDI"}


def test_bdi001_the_set_is_every_explicit_control_the_marks_and_zero_widths():
    explicit = {chr(c) for c in range(sys.maxunicode + 1)
                if unicodedata.bidirectional(chr(c)) in EXPLICIT}
    named = {unicodedata.lookup(n) for n in (
        "LEFT-TO-RIGHT MARK", "RIGHT-TO-LEFT MARK", "ARABIC LETTER MARK", "ZERO WIDTH SPACE",
        "ZERO WIDTH NON-JOINER", "ZERO WIDTH JOINER", "WORD JOINER", "ZERO WIDTH NO-BREAK SPACE",
        "INHIBIT SYMMETRIC SWAPPING", "NOMINAL DIGIT SHAPES", "SOFT HYPHEN")}
    assert explicit | named <= set(invisible_characters())
    assert all(unicodedata.category(c) == "Cf" for c in invisible_characters())
    assert without_invisible(f"a{RLO}b{LRI}c{PDI}{RLM}\u200b\ufeff") == "abc"


def test_bdi002_model_fold_and_label_values_lose_them(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text(
        "label,score,model,fold\n"
        f"1,0.9,{RLO}evil{PDF},{LRI}f1{PDI}\n0,0.2,{RLO}evil{PDF},{LRI}f1{PDI}\n"
        "1,0.4,ok,f2\n0,0.5,ok,f2\n", encoding="utf-8")
    table = load_predictions(str(path)).table
    assert sorted(map(str, table["model"].unique())) == ["evil", "ok"]
    assert sorted(map(str, table["fold"].unique())) == ["f1", "f2"]


@pytest.mark.parametrize("other", [f"{RLM}m", f" m{RLO}", "m\u200b"])
def test_bdi003_names_that_differ_only_by_them_are_refused(tmp_path, other):
    path = tmp_path / "p.csv"
    path.write_text(f"label,score,model\n1,0.9,m\n0,0.2,m\n1,0.4,{other}\n0,0.1,{other}\n",
                    encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_predictions(str(path))
    message = str(err.value)
    assert "p.csv" in message and "'model'" in message and "invisible" in message
    assert "<U+" in message and "Remove those characters" in message
    # names that differ only by surrounding spaces stay one name, as before
    path.write_text("label,score,model\n1,0.9,m\n0,0.2,m\n1,0.4, m \n0,0.1,m\n")
    assert list(map(str, load_predictions(str(path)).table["model"].unique())) == ["m"]


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


@pytest.mark.parametrize("reader", ["memory", "engine"])
def test_bdi006_wide_headers_that_become_one_name_are_refused(tmp_path, reader):
    frame = pd.DataFrame({"label": [1, 0, 1, 0], f"score_a{RLO}bc": [0.9, 0.2, 0.5, 0.4],
                          "score_abc": [0.3, 0.1, 0.6, 0.2]})
    path = tmp_path / "w.csv"
    frame.to_csv(path, index=False)
    with pytest.raises(InputError) as err:
        if reader == "memory":
            load_predictions(str(path))
        else:
            from roc_dash.io.engines import aggregate_predictions

            aggregate_predictions([str(path)])
    assert "'score_a<U+202E>bc' and 'score_abc'" in str(err.value)
    assert "Rename one of them" in str(err.value)


def test_bdi007_multiclass_headers_match_their_cleaned_classes(tmp_path):
    rows = [("c" + RLO + "at", 0.7, 0.2, 0.1), ("dog", 0.2, 0.7, 0.1), ("eel", 0.1, 0.2, 0.7)] * 4
    frame = pd.DataFrame(rows, columns=["label", f"prob_c{RLO}at", "prob_dog", "prob_eel"])
    path = tmp_path / "mc.csv"
    frame.to_csv(path, index=False)
    table = load_predictions(str(path)).table
    assert sorted(map(str, table["class"].unique())) == ["cat", "dog", "eel"]
    # each class keeps its own probabilities
    for cls, p_cat in (("cat", 0.7), ("dog", 0.2), ("eel", 0.1)):
        rows = table[table["class"].astype(str) == cls]
        assert len(rows) and (rows["score_cat"].round(6) == p_cat).all(), cls


def test_bdi008_notes_and_saved_view_names_lose_them(tmp_path):
    from roc_dash.app.server.store import DEMO_ID, DatasetStore

    store = DatasetStore(tmp_path)
    me = "k" * 32  # a browser's own key: the examples' notes are its own
    kept = store.save_note([DEMO_ID], f"Decision {RLO}devorppa by board", owner=me)
    assert kept == "Decision devorppa by board"
    views = store.save_view([DEMO_ID], f"Final {RLO}devorppa\u200b", "?cfp=1", owner=me)
    assert [v["name"] for v in views] == ["Final devorppa"]
    assert store.notes([DEMO_ID], me)["note"] == "Decision devorppa by board"
