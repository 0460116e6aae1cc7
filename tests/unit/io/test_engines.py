"""Aggregating engines (roc_dash.io.engines): DuckDB (and Spark local mode) give the report the
in-memory reader gives on the same rows; bad input is refused with the reader's words."""

import copy
import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from roc_dash.cli import main
from roc_dash.core.assembly.analysis import analyse
from roc_dash.io import InputError, ReadOptions, load_predictions
from roc_dash.io.engine_sources import should_stream
from roc_dash.io.engines import aggregate_predictions
from roc_dash.report import build_report


def _frame(n=4000, *, seed=0, models=("alpha", "beta", "gamma"), folds=3, decimals=2):
    """Long-form predictions, sorted by model and fold (so the in-memory reader's order of
    first appearance is the engines' sorted order), with many tied scores."""
    rng = np.random.default_rng(seed)
    parts = []
    label = rng.random(n) < 0.35  # one test set, scored by every model
    fold = rng.integers(1, folds + 1, n)
    for k, model in enumerate(models):
        score = 1 / (1 + np.exp(-(rng.normal(0, 1, n) + (0.5 + k) * label)))
        parts.append(pd.DataFrame({
            "model": model,
            "fold": fold,
            "label": label.astype(int),
            "score": np.round(score, decimals),
        }))
    return pd.concat(parts).sort_values(["model", "fold"], kind="stable").reset_index(drop=True)


def _chunks(frame, k):
    bounds = np.linspace(0, len(frame), k + 1).astype(int)
    return [frame.iloc[lo:hi] for lo, hi in zip(bounds[:-1], bounds[1:], strict=True)]


def _reports(paths_engine, paths_memory, options=None, **kw):
    agg = aggregate_predictions(paths_engine, options=options, **kw)
    mem = load_predictions(paths_memory, options=options)
    return build_report(analyse(agg.table)), build_report(analyse(mem.table)), agg, mem


def _assert_same_report(a, b):
    """Everything equal; AUC intervals to rounding (their sums run in another order)."""
    a, b = copy.deepcopy(a), copy.deepcopy(b)
    assert [m["name"] for m in a["models"]] == [m["name"] for m in b["models"]]
    for ma, mb in zip(a["models"], b["models"], strict=True):
        ca, cb = ma.pop("auc_ci"), mb.pop("auc_ci")
        # intervals at the optimum: the same estimates; the bootstrap draws differ (counts
        # per group are drawn multinomially, rows one by one), so the limits only agree
        # roughly, and both bracket the estimate
        ua = (ma.get("optimal") or {}).pop("uncertainty", None)
        ub = (mb.get("optimal") or {}).pop("uncertainty", None)
        assert (ua is None) == (ub is None)
        for key, ia in (ua or {}).get("intervals", {}).items():
            ib = ub["intervals"][key]
            assert ia["estimate"] == ib["estimate"], key
            for iv in (ia, ib):
                if None not in (iv["low"], iv["estimate"], iv["high"]):  # null: infinite
                    assert iv["low"] <= iv["estimate"] <= iv["high"], (key, iv)
        assert ma == mb
        assert ca["method"] == cb["method"]
        for key in ("low", "high", "std_error"):
            assert ca[key] == pytest.approx(cb[key], rel=1e-11)
    for key in ("conditions", "hull", "optimal"):
        assert a[key] == b[key], key


def test_eng001_duckdb_report_equals_memory_report(tmp_path):
    frame = _frame()
    frame.to_parquet(tmp_path / "p.parquet")
    frame.to_csv(tmp_path / "p.csv", index=False)
    a, b, agg, mem = _reports([tmp_path / "p.parquet"], [tmp_path / "p.csv"])
    assert len(agg.table) < len(mem.table) / 5  # really aggregated
    assert agg.table.attrs["input_rows"] == len(frame)
    _assert_same_report(a, b)
    # every model's counts are the rows'
    for m in a["models"]:
        rows = frame[frame["model"] == m["name"]]
        assert m["n_rows"] == len(rows)
        assert m["n_pos"] == rows["label"].sum() and m["n_neg"] == (rows["label"] == 0).sum()
    assert b["comparisons"] and not a["comparisons"]  # paired tests need rows
    assert any("No paired DeLong tests" in n for n in a["notes"])


def test_eng002_weights_are_summed(tmp_path):
    frame = _frame(1500, models=("m",))
    frame["weight"] = np.random.default_rng(5).integers(0, 4, len(frame)).astype(float)
    frame.to_parquet(tmp_path / "w.parquet")
    frame.to_csv(tmp_path / "w.csv", index=False)
    a, b, agg, _ = _reports([tmp_path / "w.parquet"], [tmp_path / "w.csv"])
    _assert_same_report(a, b)
    assert agg.table["weight"].sum() == frame["weight"].sum()
    assert agg.table["rows"].sum() == len(frame)
    # integer weights are repetitions: the same report as the rows repeated
    repeated = frame.loc[frame.index.repeat(frame["weight"].astype(int))].drop(columns="weight")
    repeated.to_csv(tmp_path / "rep.csv", index=False)
    c = build_report(analyse(load_predictions([tmp_path / "rep.csv"]).table))
    assert a["models"][0]["roc"] == c["models"][0]["roc"]
    assert a["models"][0]["auc"] == c["models"][0]["auc"]
    assert a["models"][0]["auc_ci"]["low"] == pytest.approx(c["models"][0]["auc_ci"]["low"],
                                                            rel=1e-11)
    # fractional weights: the same up to rounding of the sums
    frame["weight"] = np.random.default_rng(6).random(len(frame))
    frame.to_parquet(tmp_path / "f.parquet")
    frame.to_csv(tmp_path / "f.csv", index=False)
    a, b, _, _ = _reports([tmp_path / "f.parquet"], [tmp_path / "f.csv"])
    np.testing.assert_allclose(a["models"][0]["roc"]["tpr"], b["models"][0]["roc"]["tpr"],
                               rtol=1e-12)
    assert a["models"][0]["auc"] == pytest.approx(b["models"][0]["auc"], rel=1e-12)


@pytest.mark.parametrize(
    ("values", "positive", "expected_positive"),
    [
        ((0, 1), None, 1),
        ((-1, 1), None, 1),
        (("no", "YES"), None, "YES"),
        (("neg", "pos"), None, "pos"),
        ((False, True), None, True),
        (("cat", "dog"), "dog", "dog"),
        ((" b ", "a"), "b", " b "),
    ],
)
def test_eng003_label_encodings_and_positive(tmp_path, values, positive, expected_positive):
    frame = _frame(800, models=("m",), folds=2)
    raw = np.where(frame["label"] == 1, values[1], values[0])
    if isinstance(values[0], bool):
        raw = raw.astype(bool)
    if positive is not None and expected_positive == " b ":  # the positive value is values[0]
        raw = np.where(frame["label"] == 1, values[0], values[1])
    frame["label"] = raw
    frame.to_parquet(tmp_path / "l.parquet")
    frame.to_csv(tmp_path / "l.csv", index=False)
    options = ReadOptions(positive=positive)
    a, b, agg, _ = _reports([tmp_path / "l.parquet"], [tmp_path / "l.csv"], options)
    _assert_same_report(a, b)
    assert agg.table["label"].sum() == 0 or agg.table.loc[agg.table["label"], "rows"].sum() == (
        raw == expected_positive).sum()
    # CSV through DuckDB too
    agg_csv = aggregate_predictions([tmp_path / "l.csv"], options=options)
    pd.testing.assert_frame_equal(agg_csv.table, agg.table)


def test_eng004_unknown_labels_need_positive_same_message(tmp_path):
    frame = _frame(300, models=("m",))
    frame["label"] = np.where(frame["label"] == 1, "cat", "dog")
    frame.to_parquet(tmp_path / "l.parquet")
    with pytest.raises(InputError) as engine_error:
        aggregate_predictions([tmp_path / "l.parquet"])
    with pytest.raises(InputError) as memory_error:
        load_predictions([tmp_path / "l.parquet"])
    assert str(engine_error.value) == str(memory_error.value)
    assert "--positive" in str(engine_error.value)


def test_eng005_glob_and_directory_are_one_dataset(tmp_path):
    frame = _frame(3000)
    parts = tmp_path / "runs" / "exp1"
    parts.mkdir(parents=True)
    for k, chunk in enumerate(_chunks(frame, 4)):
        chunk.to_parquet(parts / f"part-{k}.parquet")
    (parts / "_SUCCESS").write_text("")
    frame.to_csv(tmp_path / "all.csv", index=False)
    mem = build_report(analyse(load_predictions([tmp_path / "all.csv"]).table))
    for arg in (parts, str(parts / "*.parquet"), str(tmp_path / "runs" / "**" / "*.parquet")):
        agg = aggregate_predictions([arg])
        assert agg.table.attrs["input_rows"] == len(frame)
        _assert_same_report(build_report(analyse(agg.table)), json.loads(json.dumps(mem)))
    # without a model column, a dataset is one model named after its directory
    frame.drop(columns="model").to_parquet(parts / "part-0.parquet")
    for k in (1, 2, 3):
        (parts / f"part-{k}.parquet").unlink()
    assert set(aggregate_predictions([str(parts / "*.parquet")]).table["model"]) == {"exp1"}
    # two files given one by one (the shell expanded the glob): one model each, as in memory
    frame.iloc[:1000].drop(columns="model").to_parquet(tmp_path / "a.parquet")
    frame.iloc[1000:].drop(columns="model").to_parquet(tmp_path / "b.parquet")
    agg = aggregate_predictions([tmp_path / "a.parquet", tmp_path / "b.parquet"])
    assert sorted(set(agg.table["model"])) == ["a", "b"]


@pytest.mark.slow  # minutes on a busy machine: the full tier (make test-all) runs it
def test_eng006_bad_input_messages(tmp_path):
    frame = _frame(500, models=("m",))
    # missing and infinite scores: refused with counts, or dropped on request
    bad = frame.copy()
    bad.loc[[3, 10, 11], "score"] = np.nan
    bad.loc[20, "score"] = np.inf
    bad.to_parquet(tmp_path / "s.parquet")
    with pytest.raises(InputError) as err:
        aggregate_predictions([tmp_path / "s.parquet"])
    text = str(err.value)
    assert text.startswith(f"{tmp_path / 's.parquet'}: column 'score' has 4 missing or infinite")
    assert "3 missing, 1 infinite" in text and "--drop-nonfinite" in text
    dropped = aggregate_predictions([tmp_path / "s.parquet"],
                                    options=ReadOptions(drop_nonfinite=True))
    assert dropped.table["rows"].sum() == len(frame) - 4
    assert dropped.table.attrs["input_rows"] == len(frame)
    assert any("dropped 4 rows" in n for n in dropped.notes)
    # missing labels
    bad = frame.astype({"label": float})
    bad.loc[[1, 2], "label"] = np.nan
    bad.to_parquet(tmp_path / "l.parquet")
    with pytest.raises(InputError, match=r"column 'label' has 2 missing values\. Every row "):
        aggregate_predictions([tmp_path / "l.parquet"])
    # non-numeric scores in CSV, with examples
    (tmp_path / "t.csv").write_text("label,score\n1,0.3\n0,abc\n1,0.7\n0,abc\n0,x1\n")
    with pytest.raises(InputError) as err:
        aggregate_predictions([tmp_path / "t.csv"])
    assert "column 'score' has 3 non-numeric values" in str(err.value)
    assert "'abc'" in str(err.value) and "'x1'" in str(err.value)
    # negative weight
    bad = frame.assign(weight=1.0)
    bad.loc[7, "weight"] = -2.0
    bad.to_parquet(tmp_path / "w.parquet")
    with pytest.raises(InputError, match=r"column 'weight' has 1 invalid weight: '-2\.0'"):
        aggregate_predictions([tmp_path / "w.parquet"])
    # no label column: the in-memory reader's message
    frame.rename(columns={"label": "verdict"}).to_parquet(tmp_path / "n.parquet")
    with pytest.raises(InputError) as engine_error:
        aggregate_predictions([tmp_path / "n.parquet"])
    with pytest.raises(InputError) as memory_error:
        load_predictions([tmp_path / "n.parquet"])
    assert str(engine_error.value) == str(memory_error.value)
    # a fold with one class
    one = frame.copy()
    one.loc[one["fold"] == 2, "label"] = 1
    one.to_parquet(tmp_path / "o.parquet")
    with pytest.raises(InputError) as engine_error:
        aggregate_predictions([tmp_path / "o.parquet"])
    with pytest.raises(InputError) as memory_error:
        load_predictions([tmp_path / "o.parquet"])
    assert str(engine_error.value).replace(str(tmp_path / "o.parquet"), "F") == str(
        memory_error.value).replace(str(tmp_path / "o.parquet"), "F")
    # the same file twice (a glob overlapping a file)
    with pytest.raises(InputError, match="counted twice"):
        aggregate_predictions([tmp_path / "o.parquet", str(tmp_path / "o.*")])
    with pytest.raises(InputError, match="no files match"):
        aggregate_predictions([str(tmp_path / "nothing" / "*.parquet")])


def test_eng007_row_limit_applies_to_groups_not_rows(tmp_path, monkeypatch):
    frame = _frame(3000, models=("m",), decimals=2)
    frame.to_parquet(tmp_path / "p.parquet")
    groups = len(frame.groupby(["model", "fold", "score", "label"]))
    monkeypatch.setenv("ROC_DASH_MAX_ROWS", str(groups))
    with pytest.raises(InputError, match="ROC_DASH_MAX_ROWS"):  # the reader holds rows
        load_predictions([tmp_path / "p.parquet"])
    agg = aggregate_predictions([tmp_path / "p.parquet"])
    assert len(agg.table) == groups and agg.table.attrs["input_rows"] == len(frame)
    monkeypatch.setenv("ROC_DASH_MAX_ROWS", str(groups - 1))
    with pytest.raises(InputError) as err:
        aggregate_predictions([tmp_path / "p.parquet"])
    assert f"aggregate to {groups:,} distinct" in str(err.value)
    assert "ROC_DASH_MAX_ROWS" in str(err.value) and "Round the scores" in str(err.value)


@pytest.mark.slow
def test_eng008_cli_engine_choice_and_notes(tmp_path, capsys, monkeypatch):
    frame = _frame(600)
    frame.to_parquet(tmp_path / "p.parquet")
    frame.to_csv(tmp_path / "p.csv", index=False)
    # files the in-memory reader accepts stay in memory (ids pair models there) ...
    assert not should_stream([str(tmp_path / "p.parquet")])
    assert not should_stream([str(tmp_path / "p.csv")])
    assert should_stream([str(tmp_path)]) and should_stream([str(tmp_path / "*.parquet")])
    # ... Parquet beyond its row or uncompressed-size limit streams (counted over all files)
    monkeypatch.setenv("ROC_DASH_MAX_ROWS", str(len(frame) + 1))
    assert not should_stream([str(tmp_path / "p.parquet")])
    assert should_stream([str(tmp_path / "p.parquet")] * 2)
    monkeypatch.setenv("ROC_DASH_MAX_ROWS", str(len(frame) - 1))
    assert should_stream([str(tmp_path / "p.parquet")])
    monkeypatch.delenv("ROC_DASH_MAX_ROWS")
    assert main(["report", "--engine", "duckdb", str(tmp_path / "p.parquet")]) == 0
    out = capsys.readouterr()
    groups = len(frame.groupby(["model", "fold", "score", "label"]))
    assert f"roc-dash: note: DuckDB aggregated {len(frame):,} rows of 1 file into {groups:,} " \
           "distinct (model, fold, score, label) groups" in out.err
    via_duckdb = json.loads(out.out)
    assert main(["report", str(tmp_path / "p.csv")]) == 0
    out = capsys.readouterr()
    assert "DuckDB" not in out.err
    in_memory = json.loads(out.out)
    _assert_same_report(via_duckdb, in_memory)
    assert main(["report", "--engine", "memory", str(tmp_path / "p.parquet")]) == 0
    assert json.loads(capsys.readouterr().out)["comparisons"]
    # a text file beyond the in-memory size limit streams through DuckDB
    monkeypatch.setenv("ROC_DASH_MAX_DECOMPRESSED_MB", "0.001")
    assert main(["report", str(tmp_path / "p.csv")]) == 0
    assert "DuckDB aggregated" in capsys.readouterr().err
    # bad input: exit 2, a message, no traceback
    out = subprocess.run([sys.executable, "-m", "roc_dash.cli", "report",
                          str(tmp_path / "none" / "*.parquet")], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 2 and "no files match" in out.stderr
    assert "Traceback" not in out.stderr and out.stdout == ""


def test_eng009_semicolon_decimal_comma_and_wide_form(tmp_path):
    frame = _frame(500, models=("m",))
    text = frame.to_csv(sep=";", index=False, decimal=",")
    (tmp_path / "eu.csv").write_text(text)
    a, b, _, _ = _reports([tmp_path / "eu.csv"], [tmp_path / "eu.csv"])
    _assert_same_report(a, b)
    wide = pd.DataFrame({"label": frame["label"], "fold": frame["fold"],
                         "lr": frame["score"], "nb": np.round(1 - frame["score"] ** 2, 3)})
    wide.to_parquet(tmp_path / "wide.parquet")
    a, b, agg, _ = _reports([tmp_path / "wide.parquet"], [tmp_path / "wide.parquet"])
    _assert_same_report(a, b)
    assert sorted(set(agg.table["model"])) == ["lr", "nb"]


SPARK_NEEDS = ("the Spark test needs pyspark and Java 17+; `make test-all` installs both "
               "(Java through `make java-deps`: Debian's default-jre-headless)")


def _java_17() -> bool:
    import re
    import shutil
    import subprocess

    java = shutil.which("java")
    if java is None:
        return False
    out = subprocess.run([java, "-version"], capture_output=True, text=True).stderr
    found = re.search(r'version "(\d+)', out)
    return bool(found) and int(found.group(1)) >= 17


@pytest.mark.spark
def test_eng010_spark_local_mode_gives_the_same_aggregated_table(tmp_path):
    pytest.importorskip("pyspark", reason=SPARK_NEEDS)
    if not _java_17():
        pytest.skip(SPARK_NEEDS)
    frame = _frame(2000)
    frame["weight"] = np.random.default_rng(3).integers(1, 3, len(frame)).astype(float)
    frame.loc[5, "score"] = np.nan
    ds = tmp_path / "ds"
    ds.mkdir()
    for k, chunk in enumerate(_chunks(frame, 3)):
        chunk.to_parquet(ds / f"part-{k}.parquet")
    options = ReadOptions(drop_nonfinite=True)
    spark = aggregate_predictions([ds], options=options, engine="spark")
    duck = aggregate_predictions([ds], options=options, engine="duckdb")
    pd.testing.assert_frame_equal(spark.table, duck.table)
    assert spark.notes[0].startswith(f"Spark aggregated {len(frame):,} rows of 3 files")
    with pytest.raises(InputError, match="missing or infinite"):
        aggregate_predictions([ds], engine="spark")
