"""``roc-dash report --group COL`` (issue 18): the ``slices`` and ``group_thresholds`` keys of
the JSON report, checked against pandas and scikit-learn on the rows pandas reads and
against the core (:mod:`roc_dash.core.subgroups.slices`, :mod:`roc_dash.core.subgroups.group_thresholds`)
called directly on them; refusals end with exit status 2 and a message, no traceback."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

from roc_dash.cli import main
from roc_dash.core.subgroups.group_thresholds import CONSTRAINTS, group_thresholds
from roc_dash.core.subgroups.slices import slice_analysis
from roc_dash.io.groups import CROSS
from roc_dash.text.rounding import sig, signed


def _frame(seed=0, n=900):
    """Three regions differing in prevalence and score quality, and two other columns."""
    rng = np.random.default_rng(seed)
    region = rng.choice(np.array(["north", "south", "east"]), n, p=[0.5, 0.3, 0.2])
    prev = pd.Series(region).map({"north": 0.2, "south": 0.45, "east": 0.3}).to_numpy()
    sep = pd.Series(region).map({"north": 1.8, "south": 0.8, "east": 1.2}).to_numpy()
    y = rng.random(n) < prev
    return pd.DataFrame({
        "label": y.astype(int),
        "score": np.round(rng.normal(size=n) + sep * y, 4),
        "region": region,
        "channel": rng.choice(["web", "shop"], n),
        "age": rng.integers(18, 90, n),
    })


def _run(tmp_path, frame, *args, capsys):
    path = tmp_path / "preds.csv"
    frame.to_csv(path, index=False)
    capsys.readouterr()
    code = main(["report", str(path), *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_clg001_group_option_adds_both_keys_matching_pandas_and_sklearn(tmp_path, capsys):
    frame = _frame()
    code, out, err = _run(tmp_path, frame, "--group", "region", capsys=capsys)
    assert code == 0, err
    doc = json.loads(out)
    assert list(doc)[-2:] == ["slices", "group_thresholds"]
    (model,) = doc["slices"]["models"]
    assert doc["slices"]["group_columns"] == ["region"]
    groups = {g["name"]: g for g in model["groups"]}
    assert set(groups) == set(frame["region"])
    for name, rows in frame.groupby("region"):
        g = groups[name]
        assert g["rows"] == len(rows)
        assert g["n_pos"] == rows["label"].sum()
        assert g["prevalence"] == pytest.approx(rows["label"].mean(), rel=1e-12)
        assert g["auc"] == pytest.approx(roc_auc_score(rows["label"], rows["score"]),
                                         rel=1e-12)


def test_clg002_costs_and_prior_reach_the_constrained_solutions(tmp_path, capsys):
    frame = _frame(seed=1)
    code, out, err = _run(tmp_path, frame, "--group", "region", "--cost-fp", "1",
                          "--cost-fn", "4", "--prior", "0.3", capsys=capsys)
    assert code == 0, err
    doc = json.loads(out)
    analysis = slice_analysis(frame["label"].to_numpy(bool), frame["score"].to_numpy(float),
                              frame["region"].to_numpy(), cost_fp=1.0, cost_fn=4.0,
                              prior_pos=0.3)
    expected = group_thresholds(analysis)
    (entry,) = doc["group_thresholds"]["models"]
    assert [s["constraint"] for s in entry["solutions"]] == list(CONSTRAINTS)
    for got in entry["solutions"]:
        want = expected.solution(got["constraint"])
        assert got["expected_cost"] == pytest.approx(want.expected_cost, rel=1e-9)
        assert got["cost_of_constraint"] == pytest.approx(want.cost_of_constraint, abs=1e-12)
        for rule, ref in zip(got["groups"], want.rules, strict=True):
            assert rule["group"] == ref.group
            assert rule["tpr"] == pytest.approx(ref.tpr, abs=1e-12)
            assert rule["fpr"] == pytest.approx(ref.fpr, abs=1e-12)
    assert doc["slices"]["models"][0]["expected_cost"] == pytest.approx(
        analysis.expected_cost, rel=1e-9)


def test_clg003_two_group_options_cross_the_columns(tmp_path, capsys):
    frame = _frame(seed=2)
    code, out, err = _run(tmp_path, frame, "--group", "region", "--group", "channel",
                          capsys=capsys)
    assert code == 0, err
    doc = json.loads(out)
    crossed = frame["region"] + CROSS + frame["channel"]
    names = {g["name"]: g["rows"] for g in doc["slices"]["models"][0]["groups"]}
    assert names == crossed.value_counts().to_dict()
    assert doc["group_thresholds"]["group_columns"] == ["region", "channel"]


def test_clg004_a_column_named_group_is_used_without_the_option(tmp_path, capsys):
    frame = _frame(seed=3).rename(columns={"region": "group"})
    code, out, err = _run(tmp_path, frame, capsys=capsys)
    assert code == 0, err
    doc = json.loads(out)
    assert {g["name"] for g in doc["slices"]["models"][0]["groups"]} == set(frame["group"])


def test_clg005_without_a_group_column_the_report_keeps_its_keys(tmp_path, capsys):
    frame = _frame(seed=4).drop(columns=["region", "channel"])
    code, out, err = _run(tmp_path, frame, capsys=capsys)
    assert code == 0, err
    doc = json.loads(out)
    assert "slices" not in doc and "group_thresholds" not in doc


@pytest.mark.parametrize(("args", "words"), [
    (["--group", "age"], ["age", "bin"]),
    (["--group", "nope"], ["nope"]),
    (["--group", "region", "--group", "label"], ["label"]),
])
def test_clg006_bad_group_requests_exit_2_with_a_message(tmp_path, capsys, args, words):
    code, out, err = _run(tmp_path, _frame(seed=5), *args, capsys=capsys)
    assert code == 2
    assert out == ""
    assert err.startswith("roc-dash: ") and "Traceback" not in err
    for word in words:
        assert word in err, (word, err)


def test_clg007_html_report_has_a_slices_section_with_the_cores_costs(tmp_path, capsys):
    frame = _frame(seed=6)
    out_path = tmp_path / "report.html"
    code, _, err = _run(tmp_path, frame, "--group", "region", "--format", "html",
                        "-o", str(out_path), "--cost-fn", "3", capsys=capsys)
    assert code == 0, err
    text = out_path.read_text(encoding="utf-8")
    assert "<h2>Slices by region</h2>" in text
    analysis = slice_analysis(frame["label"].to_numpy(bool), frame["score"].to_numpy(float),
                              frame["region"].to_numpy(), cost_fp=1.0, cost_fn=3.0)
    for s in group_thresholds(analysis).solutions:
        assert f"<td class=\"num\">{sig(s.expected_cost)}</td>" in text, s.constraint
        assert f"{signed(s.cost_of_constraint)}" in text
    for r in analysis.rocs:
        assert f"<td class=\"num\">{sig(r.auc)}</td>" in text


def test_clg008_html_report_without_groups_has_no_slices_section(tmp_path, capsys):
    out_path = tmp_path / "report.html"
    code, _, err = _run(tmp_path, _frame(seed=7).drop(columns=["region"]), "--format",
                        "html", "-o", str(out_path), capsys=capsys)
    assert code == 0, err
    assert "Slices by" not in out_path.read_text(encoding="utf-8")
