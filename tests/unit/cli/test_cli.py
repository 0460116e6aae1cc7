"""`roc-dash report` and `roc-dash serve` as a user runs them."""

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

from roc_dash.cli import main
from tests.conftest import make_predictions


def _run(*args):
    return subprocess.run([sys.executable, "-m", "roc_dash.cli", *args],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_cli001_report_json(tmp_path):
    a = make_predictions(300, seed=1, model="alpha")
    b = make_predictions(300, seed=2, model="beta", separation=2.0)
    path = tmp_path / "preds.csv"
    pd.concat([a, b]).to_csv(path, index=False)
    out = _run("report", str(path), "--format", "json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    by_name = {m["name"]: m for m in doc["models"]}
    assert set(by_name) == {"alpha", "beta"}
    for name, frame in (("alpha", a), ("beta", b)):
        m = by_name[name]
        assert m["n_pos"] == frame["label"].sum() and m["n_neg"] == (frame["label"] == 0).sum()
        assert m["auc"] == pytest.approx(roc_auc_score(frame["label"], frame["score"]))
        roc = m["roc"]
        assert roc["threshold"][0] is None  # +inf: nothing called positive
        assert (roc["fpr"][0], roc["tpr"][0]) == (0.0, 0.0)
        assert (roc["fpr"][-1], roc["tpr"][-1]) == (1.0, 1.0)
        assert len(roc["fpr"]) == frame["score"].nunique() + 1
        assert np.all(np.diff(roc["fpr"]) >= 0)


@pytest.mark.slow
def test_cli002_bad_input_exit_2_no_traceback(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("label,score\n1,0.3\n0,abc\n")
    out = _run("report", str(bad))
    assert out.returncode == 2
    assert "bad.csv" in out.stderr and "score" in out.stderr
    assert "Traceback" not in out.stderr and out.stdout == ""
    missing = _run("report", str(tmp_path / "nope.csv"))
    assert missing.returncode == 2 and "nope.csv" in missing.stderr
    assert "Traceback" not in missing.stderr


def test_cli003_output_file_and_overrides(tmp_path):
    frame = make_predictions(100, seed=3).rename(columns={"label": "truth", "score": "p"})
    path = tmp_path / "odd.csv"
    frame.to_csv(path, index=False)
    target = tmp_path / "report.json"
    assert main(["report", str(path), "--label", "truth", "--score", "p", "-o", str(target)]) == 0
    doc = json.loads(target.read_text())
    assert doc["models"][0]["name"] == "odd"
    assert doc["models"][0]["auc"] == pytest.approx(roc_auc_score(frame["truth"], frame["p"]))


def test_cli004_serve_help_lists_commands():
    out = _run("--help")
    assert out.returncode == 0 and "serve" in out.stdout and "report" in out.stdout


@pytest.mark.slow
def test_cli005_same_file_twice_exit_2(tmp_path):
    path = tmp_path / "a.csv"
    make_predictions(100, seed=4).to_csv(path, index=False)
    copy = tmp_path / "b.csv"
    copy.write_bytes(path.read_bytes())
    for files, message in (
        ([path, path], f"roc-dash: {path}: given twice, so the same predictions would be "
                       "counted twice. Give each file once.\n"),
        ([path, copy], f"roc-dash: {copy}: same contents as {path}, so the same predictions "
                       "would be counted twice. Give each file once.\n"),
    ):
        out = _run("report", *map(str, files))
        assert out.returncode == 2
        assert out.stderr == message and out.stdout == ""


@pytest.mark.slow
def test_cli006_repeated_ids_exit_2(tmp_path):
    path = tmp_path / "preds.csv"
    path.write_text("id,label,score\n7,1,0.9\n8,0,0.2\n7,1,0.6\n9,0,0.4\n")
    out = _run("report", str(path))
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr == (
        f"roc-dash: {path}: model 'preds' has id '7' on 2 rows (rows 2, 4). Each id must "
        "appear once per model: remove the repeated rows, or drop the id column 'id'.\n"
    )


@pytest.mark.slow
def test_cli007_inverted_scores_noted_on_stderr(tmp_path):
    frame = make_predictions(300, seed=5, separation=2.0)
    frame["score"] = 1 - frame["score"]  # higher = more negative: AUC far below 0.5
    path = tmp_path / "flipped.csv"
    frame.to_csv(path, index=False)
    out = _run("report", str(path))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["models"][0]["auc"] < 0.2
    notes = [line for line in out.stderr.splitlines() if "inverted" in line]
    assert len(notes) == 1 and notes[0].startswith("roc-dash: note: flipped: ")
    assert "is the positive label right?" in notes[0]
    assert "for positive label '1'" in notes[0]  # the label as the file writes it
    # the wrong --positive on pos/neg labels: the note names the label the user chose
    frame = make_predictions(300, seed=5, separation=2.0)
    frame["label"] = frame["label"].map({1: "pos", 0: "neg"})
    frame.to_csv(tmp_path / "words.csv", index=False)
    out = _run("report", str(tmp_path / "words.csv"), "--positive", "neg")
    assert out.returncode == 0, out.stderr
    assert "scores look inverted for positive label 'neg'" in out.stderr


@pytest.mark.slow
def test_cli008_readme_error_example_is_what_the_tool_prints(tmp_path):
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    readme = "\n".join(p.read_text(encoding="utf-8")
                       for p in [root / "README.md", *(root / "docs").glob("*.md")])
    prompt = "$ .venv/bin/roc-dash report preds.csv\n"
    assert prompt in readme
    quoted = readme.split(prompt, 1)[1].split("\n", 1)[0]
    # the file the README describes: 'abc' and 'high' as the scores on lines 4 and 7
    (tmp_path / "preds.csv").write_text(
        "label,score\n1,0.91\n0,0.12\n1,abc\n0,0.33\n1,0.78\n0,high\n1,0.64\n")
    out = subprocess.run([sys.executable, "-m", "roc_dash.cli", "report", "preds.csv"],
                         capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert out.returncode == 2
    assert out.stderr == quoted + "\n"
