"""`roc-dash report`: the JSON contract, its values against independent computations."""

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score

DEMO = "roc_dash/data/demo_predictions.csv"

CONTRACT = {
    "conditions": {"cost_fp", "cost_fn", "prior_pos", "slope", "pc_pos"},
    "models": {
        "name", "n_pos", "n_neg", "n_folds", "auc", "auc_ci", "gini", "partial_auc",
        "average_precision", "pr_auc_interpolated", "roc", "hull", "optimal",
        "vertical_average", "threshold_average",
    },
    "auc_ci": {"method", "level", "low", "high"},
    "partial_auc": {"fpr_max", "raw", "mcclish"},
    "roc": {"fpr", "tpr", "threshold"},
    "hull": {"fpr", "tpr", "threshold"},
    "optimal": {"threshold", "fpr", "tpr", "expected_cost", "normalized_expected_cost"},
    "vertical_average": {"fpr", "tpr_mean", "tpr_low", "tpr_high"},
    "threshold_average": {"threshold", "fpr_mean", "tpr_mean", "fpr_low", "fpr_high",
                          "tpr_low", "tpr_high"},
    "top_hull": {"fpr", "tpr", "model", "threshold"},
    "top_optimal": {"model", "threshold", "fpr", "tpr", "expected_cost"},
    "comparison": {"a", "b", "method", "auc_difference", "z", "p_value"},
}


def _report(*args):
    out = subprocess.run([sys.executable, "-m", "roc_dash.cli", "report", *args],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.fixture(scope="module")
def demo_report():
    return _report(DEMO, "--format", "json")


def test_rep001_contract_keys(demo_report):
    doc = demo_report
    assert CONTRACT["conditions"] <= set(doc["conditions"])
    assert CONTRACT["top_hull"] <= set(doc["hull"])
    assert CONTRACT["top_optimal"] <= set(doc["optimal"])
    assert len(doc["models"]) == 4
    for m in doc["models"]:
        assert CONTRACT["models"] <= set(m)
        for key in ("auc_ci", "partial_auc", "roc", "hull", "optimal", "vertical_average",
                    "threshold_average"):
            assert CONTRACT[key] <= set(m[key]), key
        assert m["auc_ci"]["method"] == "delong"
        assert m["roc"]["threshold"][0] is None
        assert (m["roc"]["fpr"][0], m["roc"]["tpr"][0]) == (0, 0)
        assert (m["roc"]["fpr"][-1], m["roc"]["tpr"][-1]) == (1, 1)
        n = len(m["roc"]["fpr"])
        assert len(m["roc"]["tpr"]) == n == len(m["roc"]["threshold"])
        va = m["vertical_average"]
        assert len(va["fpr"]) == len(va["tpr_mean"]) == len(va["tpr_low"]) == len(va["tpr_high"])
        assert m["n_folds"] == 10
    # every pair of the demo's models is paired by patient id
    assert len(doc["comparisons"]) == 6
    for c in doc["comparisons"]:
        assert CONTRACT["comparison"] <= set(c) and c["method"] == "delong"
        assert 0 <= c["p_value"] <= 1


def test_rep002_values_match_independent_computations(demo_report):
    table = pd.read_csv(DEMO)
    doc = demo_report
    prevalence = (table["label"] == "pos").mean()
    c = doc["conditions"]
    assert c["prior_pos"] == pytest.approx(prevalence)
    assert c["cost_fp"] == 1 and c["cost_fn"] == 1
    assert c["slope"] == pytest.approx((1 - prevalence) / prevalence)
    assert c["pc_pos"] == pytest.approx(1 / (1 + c["slope"]))
    for m in doc["models"]:
        g = table[table["model"] == m["name"]]
        y, s = g["label"] == "pos", g["score"]
        assert m["n_pos"] == y.sum() and m["n_neg"] == (~y).sum()
        assert m["auc"] == pytest.approx(roc_auc_score(y, s))
        assert m["gini"] == pytest.approx(2 * m["auc"] - 1)
        assert m["partial_auc"]["fpr_max"] == 0.2
        assert m["partial_auc"]["mcclish"] == pytest.approx(roc_auc_score(y, s, max_fpr=0.2))
        assert m["average_precision"] == pytest.approx(average_precision_score(y, s))
        lo, hi = m["auc_ci"]["low"], m["auc_ci"]["high"]
        assert lo < m["auc"] < hi
        # the optimum minimises expected cost over all thresholds at these conditions
        p = c["prior_pos"]
        costs = [p * (1 - t) + (1 - p) * f for f, t in zip(m["roc"]["fpr"], m["roc"]["tpr"],
                                                           strict=True)]
        assert m["optimal"]["expected_cost"] == pytest.approx(min(costs))
        assert m["optimal"]["expected_cost"] == pytest.approx(
            p * (1 - m["optimal"]["tpr"]) + (1 - p) * m["optimal"]["fpr"])
    best = min(m["optimal"]["expected_cost"] for m in doc["models"])
    assert doc["optimal"]["expected_cost"] == pytest.approx(best)


def test_rep003_conditions_move_the_optimum(tmp_path):
    cheap_fn = _report(DEMO, "--cost-fp", "1", "--cost-fn", "10", "--prior", "0.5")
    cheap_fp = _report(DEMO, "--cost-fp", "10", "--cost-fn", "1", "--prior", "0.5")
    assert cheap_fn["conditions"]["slope"] == pytest.approx(0.1)
    assert cheap_fp["conditions"]["slope"] == pytest.approx(10)
    assert cheap_fn["optimal"]["fpr"] > cheap_fp["optimal"]["fpr"]
    assert cheap_fn["optimal"]["tpr"] >= cheap_fp["optimal"]["tpr"]
    target = tmp_path / "r.json"
    out = subprocess.run([sys.executable, "-m", "roc_dash.cli", "report", DEMO, "--fpr-max",
                          "0.5", "-o", str(target)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and out.stdout == ""
    assert json.loads(target.read_text())["models"][0]["partial_auc"]["fpr_max"] == 0.5


def test_rep004_single_fold_and_unpaired_models(tmp_path):
    rng = np.random.default_rng(2)
    a = pd.DataFrame({"label": rng.integers(0, 2, 300), "score": rng.random(300)})
    b = pd.DataFrame({"label": rng.integers(0, 2, 200), "score": rng.random(200)})
    a.to_csv(tmp_path / "a.csv", index=False)
    b.to_csv(tmp_path / "b.csv", index=False)
    doc = _report(str(tmp_path / "a.csv"), str(tmp_path / "b.csv"))
    assert [m["name"] for m in doc["models"]] == ["a", "b"]
    assert doc["comparisons"] == []  # different rows: no paired test
    m = doc["models"][0]
    assert m["n_folds"] == 1
    # one fold: the averages are the pooled curve's values
    va = m["vertical_average"]
    assert va["tpr_low"] == va["tpr_mean"] == va["tpr_high"]


def test_rep005_bad_arguments_exit_2(tmp_path):
    for args in (["--prior", "1.5"], ["--cost-fp", "-1"], ["--fpr-max", "0"]):
        out = subprocess.run([sys.executable, "-m", "roc_dash.cli", "report", DEMO, *args],
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 2 and "Traceback" not in out.stderr


def test_rep006_html_report_is_self_contained(tmp_path):
    target = tmp_path / "report.html"
    out = subprocess.run([sys.executable, "-m", "roc_dash.cli", "report", DEMO, "--format", "html",
                          "--cost-fn", "5", "-o", str(target)], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    page = target.read_text()
    assert page.startswith("<!DOCTYPE html>") and '<script src="http' not in page
    for name in ("logistic regression", "naive Bayes", "decision tree", "gradient boosting"):
        assert name in page
    assert "of a false negative 5" in page and "DeLong" in page
    assert page.count('class="rr-figure"') == 3  # ROC, PR and cost views


TIES_CSV = "label,score\n1,0.9\n0,0.9\n1,0.5\n0,0.2\n1,0.2\n0,0.1\n"


def _cli_report(tmp_path, *args):
    from roc_dash.cli import main

    src = tmp_path / "ties.csv"
    src.write_text(TIES_CSV)
    target = tmp_path / "out.json"
    assert main(["report", str(src), *args, "-o", str(target)]) == 0
    return json.loads(target.read_text())


@pytest.mark.parametrize("args", [
    ["--cost-fp", "1e308", "--cost-fn", "1e-10"],
    ["--cost-fp", "1e-10", "--cost-fn", "1e308"],
    ["--cost-fp", "1.7976931348623157e308", "--cost-fn", "5e-324"],
    ["--cost-fp", "5e-324", "--cost-fn", "5e-324"],
    ["--cost-fp", "1e300", "--cost-fn", "1e300", "--prior", "1e-300"],
    ["--cost-fn", "1e-300", "--prior", "0.9999999999999999"],
])
def test_rep007_extreme_costs_give_valid_json(tmp_path, args):
    # The case ended in a traceback (an infinite slope written with allow_nan=False).
    doc = _cli_report(tmp_path, *args)
    c = doc["conditions"]
    for key in ("cost_fp", "cost_fn", "prior_pos", "slope", "pc_pos"):
        assert c[key] is None or np.isfinite(c[key]), key
    if args[:4] == ["--cost-fp", "1e308", "--cost-fn", "1e-10"]:
        assert c["slope"] is None  # infinite: null, as everywhere in the report
        # false positives are all that matters: nothing is called positive
        assert (doc["optimal"]["fpr"], doc["optimal"]["tpr"]) == (0, 0)
        assert doc["optimal"]["threshold"] is None


def test_rep008_every_optimum_reports_the_other_end_of_its_segment(tmp_path):
    # Prevalence 1/2, unit costs: slope 1. The hull of the ties file is (0, 0), (1/3, 2/3),
    # (2/3, 1), (1, 1); its middle segment has ΔTP = ΔFP: a tie on the iso line.
    doc = _cli_report(tmp_path)
    assert doc["conditions"]["slope"] == 1
    for opt in (doc["optimal"], doc["models"][0]["optimal"]):
        assert opt["on_segment"] is True
        assert (opt["fpr"], opt["tpr"], opt["threshold"]) == pytest.approx((1 / 3, 2 / 3, 0.5))
        end = opt["segment_end"]
        assert {"threshold", "fpr", "tpr"} <= set(end)
        assert (end["fpr"], end["tpr"], end["threshold"]) == pytest.approx((2 / 3, 1.0, 0.2))
    assert doc["optimal"]["segment_end"]["model"] == "ties"
    # off a segment: null
    doc = _cli_report(tmp_path, "--cost-fn", "3")
    for opt in (doc["optimal"], doc["models"][0]["optimal"]):
        assert opt["on_segment"] is False and opt["segment_end"] is None


def test_rep009_segment_end_on_the_demo(demo_report):
    for opt in [demo_report["optimal"], *(m["optimal"] for m in demo_report["models"])]:
        assert "segment_end" in opt
        assert (opt["segment_end"] is None) == (not opt["on_segment"])
