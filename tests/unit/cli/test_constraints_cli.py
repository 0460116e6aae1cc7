"""The constraints on the command line and in the reports (ccl001-ccl010): ``roc-dash report``
with ``--capacity``, ``--floor``, ``--pr-bands``, ``--cost-matrix`` (JSON and HTML) against
the core's numbers, ``roc-dash decide`` under floors, a capacity, a recalibration and a
cost matrix (records read back and applied), and bad options named with exit status 2."""

from __future__ import annotations

import json
from importlib import resources

import numpy as np
import pytest

from roc_dash import decision
from roc_dash.cli import main
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import analyse
from roc_dash.core.constraints import capacity_point, floor_decision
from roc_dash.core.decisions.economics import Economics
from roc_dash.decision import multiclass as multiclass_decision
from roc_dash.io import load_predictions

DEMO = str(resources.files("roc_dash.data") / "demo_predictions.csv")
MULTI = str(resources.files("roc_dash.data") / "multiclass_demo.csv")


def _run(capsys, *argv):
    capsys.readouterr()
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(scope="module")
def demo():
    table = load_predictions([DEMO]).table
    return table, analyse(table, Conditions(cost_fp=1.0, cost_fn=2.0))


def test_ccl001_report_json_holds_the_cores_numbers(capsys, demo):
    table, analysis = demo
    code, out, _ = _run(capsys, "report", DEMO, "--cost-fn", "2", "--capacity", "10%",
                        "--floor", "precision>=0.7", "--floor", "recall>=0.5", "--pr-bands",
                        "--replicates", "60")
    assert code == 0
    doc = json.loads(out)
    c = doc["constraints"]
    assert c["settings"]["floors"] == ["precision ≥ 0.7", "recall ≥ 0.5"]
    for entry, m in zip(c["models"], analysis.models, strict=True):
        p = analysis.conditions.prior_pos
        e = Economics(1.0, 2.0)
        cp = capacity_point(m.curve, fraction=0.1, prior_pos=p, economics=e)
        assert entry["capacity"]["precision_at_k"] == pytest.approx(cp.precision)
        assert entry["capacity"]["least_cost"]["threshold"] == cp.decision.threshold
        fd = floor_decision(m.curve, ["precision>=0.7", "recall>=0.5"], prior_pos=p,
                            economics=e)
        if fd.index is None:
            assert entry["floors"]["threshold"] is None
        else:
            assert entry["floors"]["threshold"]["threshold"] == fd.threshold
            assert entry["floors"]["how_sure"]["replicates"] == 60
        assert entry["gains"]["ks"]["statistic"] == pytest.approx(
            float(np.max(np.abs(m.curve.tpr - m.curve.fpr))))
        assert entry["pr_bands"]["folds"]["n_curves"] == m.n_folds
        assert entry["calibration_uncertainty"]["slope"]["estimate"] is not None


def test_ccl002_report_html_has_the_sections(capsys, tmp_path):
    out = tmp_path / "r.html"
    code, _, _ = _run(capsys, "report", DEMO, "--format", "html", "-o", str(out),
                      "--capacity", "30/1000", "--floor", "fpr<=5%", "--replicates", "30")
    assert code == 0
    text = out.read_text()
    for part in ("<h2>Gains, lift, CAP and KS</h2>", "<h2>Capacity: ", "<h2>Floors: FPR ≤ 0.05",
                 "<h2>Calibration with its uncertainty</h2>", 'id="rr-gains"',
                 'id="rr-floors-roc-0"', 'id="rr-reliability-bands"'):
        assert part in text
    plain = tmp_path / "p.html"
    _run(capsys, "report", DEMO, "--format", "html", "-o", str(plain), "--replicates", "0")
    assert "<h2>Floors" not in plain.read_text() and 'id="rr-gains"' not in plain.read_text()


def test_ccl003_decide_under_floors(capsys, tmp_path, demo):
    table, _ = demo
    path = tmp_path / "d.json"
    code, _, err = _run(capsys, "decide", DEMO, "--model", "logistic regression",
                        "--floor", "precision>=0.8", "--replicates", "50", "-o", str(path))
    assert code == 0
    record = decision.load(path)
    rows = table[table["model"] == "logistic regression"]
    a = analyse(rows, Conditions())
    fd = floor_decision(a.models[0].curve, ["precision>=0.8"], prior_pos=a.conditions.prior_pos)
    assert record.threshold == fd.threshold and record.how_chosen == "floors"
    assert record.constraints["floors"]["floors"] == ["precision ≥ 0.8"]
    assert "holds in" in err
    assert record.metrics.precision >= 0.8
    doc = json.loads(path.read_text())
    assert doc["schema_version"] == 1 and doc["rule"]["how_chosen"] == "floors"


def test_ccl004_decide_under_a_capacity_flags_at_most_it(capsys, tmp_path):
    path = tmp_path / "d.json"
    code, _, _ = _run(capsys, "decide", DEMO, "--model", "naive Bayes", "--capacity", "30/1000",
                      "--replicates", "0", "-o", str(path))
    assert code == 0
    record = decision.load(path)
    assert record.how_chosen == "capacity" and record.metrics.flagged <= 0.03 + 1e-12


def test_ccl005_decide_with_a_recalibration(capsys, tmp_path):
    path = tmp_path / "d.json"
    code, _, _ = _run(capsys, "decide", DEMO, "--model", "logistic regression",
                      "--recalibrate", "logistic", "--replicates", "0", "-o", str(path))
    assert code == 0
    doc = json.loads(path.read_text())
    assert doc["schema_version"] == 2 and doc["recalibration"]["method"] == "logistic"
    assert decision.load(path).recalibration.method == "logistic"


def test_ccl006_decide_with_a_cost_matrix(capsys, tmp_path):
    costs = tmp_path / "c.csv"
    costs.write_text(",class_0,class_1,class_2\nclass_0,0,1,4\nclass_1,2,0,1\nclass_2,8,2,0\n")
    path = tmp_path / "m.json"
    code, _, err = _run(capsys, "decide", MULTI, "--cost-matrix", str(costs), "--model",
                        "logistic regression", "--class-prior", "0.2,0.3,0.5", "-o", str(path))
    assert code == 0, err
    record = multiclass_decision.load(path)
    assert record.classes == ("class_0", "class_1", "class_2")
    np.testing.assert_allclose(record.prior, [0.2, 0.3, 0.5])
    assert record.expected_cost <= record.bayes_cost + 1e-12
    assert "one-vs-rest" in err


def test_ccl007_report_with_a_cost_matrix(capsys, tmp_path):
    costs = tmp_path / "c.csv"
    costs.write_text("class_0,class_1,class_2\n0,1,4\n2,0,1\n8,2,0\n")
    code, out, _ = _run(capsys, "report", MULTI, "--cost-matrix", str(costs))
    assert code == 0
    models = json.loads(out)["cost_matrix"]["models"]
    names = {str(m) for m in load_predictions([MULTI]).table["model"].unique()}
    assert {m["model"] for m in models} == names
    for m in models:
        assert m["expected_cost"]["fitted"] <= m["expected_cost"]["bayes"] + 1e-12


@pytest.mark.parametrize(("argv", "says"), [
    (["decide", DEMO, "--floor", "precision<=0.9"], "is not a floor"),
    (["decide", DEMO, "--volume", "1000"], "--volume belongs to --capacity"),
    (["decide", DEMO, "--model", "naive Bayes", "--threshold", "0.5", "--floor",
      "recall>=0.5"], "--threshold pins a threshold"),
    (["decide", DEMO, "--floor", "precision>=0.999", "--floor", "recall>=0.999"],
     "no threshold meets the constraints"),
    (["decide", DEMO, "--cost-matrix", "nowhere.csv"], "--cost-matrix is for multi-class"),
    (["report", DEMO, "--cost-matrix", "nowhere.csv"], "--cost-matrix is for multi-class"),
    (["decide", MULTI, "--cost-matrix", "nowhere.csv"], "nowhere.csv: cannot read the cost"),
    (["report", DEMO, "--capacity", "lots"], "must be a number of cases"),
    (["decide", DEMO, "--class-prior", "0.5,0.5"], "--class-prior belongs to --cost-matrix"),
])
def test_ccl008_bad_options_are_named(capsys, argv, says):
    try:
        code, _, err = _run(capsys, *argv)
    except SystemExit as exc:  # argparse's own refusals
        code, err = exc.code, capsys.readouterr().err
    assert code == 2
    assert says in err
    assert "Traceback" not in err


def test_ccl009_recalibration_shared_by_record_and_classifier(capsys, tmp_path):
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(0)
    X = rng.normal(size=(600, 3))
    y = (X[:, 0] + rng.normal(size=600) > 0.5).astype(int)
    est = LogisticRegression().fit(X, y)
    s = est.predict_proba(X)[:, 1]
    data = tmp_path / "p.csv"
    data.write_text("label,score\n" + "\n".join(f"{a},{float(b)!r}" for a, b in zip(y, s,
                                                                             strict=True)))
    path = tmp_path / "d.json"
    code, _, _ = _run(capsys, "decide", str(data), "--recalibrate", "isotonic", "--floor",
                      "recall>=0.6", "--replicates", "0", "-o", str(path))
    assert code == 0
    record = decision.load(path)
    clf = record.classifier(est)
    np.testing.assert_array_equal(clf.predict(X), (s >= record.threshold).astype(int))
    np.testing.assert_allclose(clf.predict_proba(X)[:, 1], record.recalibration.apply(s))
