"""`roc-dash decide` and `roc-dash check` (roc_dash.decision.gate) as a CI pipeline runs them: exit codes,
messages, JUnit XML, and the numbers against naive computations written here (scipy's
normal distribution for DeLong's one-sided non-inferiority test)."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm
from sklearn.metrics import roc_auc_score

from roc_dash.cli import main
from roc_dash.core.inference.noninferiority import delong_noninferiority_test
from tests.oracles import delong_paired


def _run(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "roc_dash.cli", *map(str, args)],
                          capture_output=True, text=True, timeout=300, cwd=cwd)


def _two_models(n=400, seed=0, gap=0.3):
    """Two models scored on the same rows (an id column): "new" separates the classes a
    little better than "old"."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.35).astype(int)
    base = rng.normal(size=n)
    new = np.round(base + 1.2 * y + rng.normal(scale=0.6, size=n), 3)
    old = np.round(base + (1.2 - gap) * y + rng.normal(scale=0.6, size=n), 3)
    ids = np.arange(n)
    return pd.concat([pd.DataFrame({"model": "new", "id": ids, "label": y, "score": new}),
                      pd.DataFrame({"model": "old", "id": ids, "label": y, "score": old})])


@pytest.fixture
def files(tmp_path):
    frame = _two_models()
    path = tmp_path / "preds.csv"
    frame.to_csv(path, index=False)
    return path, frame


def _naive_delong(y, a, b):
    """AUCs and the variance of their difference from DeLong et al. (1988) written out."""
    r = delong_paired(y, a, b)
    return r.auc_a, r.auc_b, r.var


def _new_and_old(frame):
    """The labels and the scores of the models "new" and "old" (the same rows)."""
    new, old = frame[frame.model == "new"], frame[frame.model == "old"]
    return new["label"].to_numpy(), new["score"].to_numpy(), old["score"].to_numpy()


@pytest.mark.parametrize("margin", [0.0, 0.01, 0.05])
def test_gat001_noninferiority_matches_a_naive_delong_and_scipy(files, margin):
    _, frame = files
    y, a, b = _new_and_old(frame)
    auc_a, auc_b, var = _naive_delong(y, a, b)
    z = (auc_a - auc_b + margin) / np.sqrt(var)
    p = norm.sf(z)  # one-sided: H0 AUC_new - AUC_old <= -margin
    t = delong_noninferiority_test(y, a, b, margin=margin, alpha=0.05)
    assert t.auc_model == pytest.approx(roc_auc_score(y, a))
    assert t.auc_difference == pytest.approx(auc_a - auc_b)
    assert t.std_error == pytest.approx(np.sqrt(var), rel=1e-9)
    assert t.z == pytest.approx(z, rel=1e-9) and t.p_value == pytest.approx(p, rel=1e-9)
    assert t.lower_bound == pytest.approx(auc_a - auc_b - norm.ppf(0.95) * np.sqrt(var))
    assert t.non_inferior == (p < 0.05)
    # the reverse question (old not worse than new) at the same margin
    r = delong_noninferiority_test(y, b, a, margin=margin, alpha=0.05)
    assert r.p_value == pytest.approx(norm.sf((auc_b - auc_a + margin) / np.sqrt(var)))


def test_gat002_cli_not_worse_than_passes_and_fails_as_the_test_says(files, capsys):
    path, frame = files
    y, a, b = _new_and_old(frame)
    auc_a, auc_b, var = _naive_delong(y, a, b)
    assert auc_a > auc_b
    # old against new: fails without a margin, passes with a margin of 3 standard errors
    # beyond the observed loss
    margin = (auc_a - auc_b) + 3 * np.sqrt(var)
    for m, expected in ((0.0, 1), (margin, 0)):
        code = main(["check", str(path), "--model", "old", "--not-worse-than", "new",
                     "--margin", str(m), "--alpha", "0.05"])
        out = capsys.readouterr().out
        p = norm.sf((auc_b - auc_a + m) / np.sqrt(var))
        assert code == expected == (0 if p < 0.05 else 1)
        line = next(ln for ln in out.splitlines() if ln.startswith(("PASS", "FAIL")))
        assert line.startswith("PASS" if expected == 0 else "FAIL")
        assert "not-worse-than[old]" in line and f"p = {p:.6g}" in line
        assert "limit p < 0.05" in line


def test_gat003_min_auc_and_max_expected_cost_against_sklearn_and_brute_force(files, capsys):
    path, frame = files
    rows = frame[frame.model == "new"]
    y, s = rows["label"].to_numpy(), rows["score"].to_numpy()
    auc = roc_auc_score(y, s)
    p = y.mean()
    cost = min(p * (1 - (s[y == 1] >= t).mean()) * 4.0 + (1 - p) * (s[y == 0] >= t).mean()
               for t in np.append(np.unique(s), np.inf))
    for limit, expected in ((auc - 1e-6, 0), (auc + 1e-6, 1)):
        assert main(["check", str(path), "--model", "new", "--min-auc", str(limit)]) == expected
        out = capsys.readouterr().out
        assert f"{auc:.6g}" in out.splitlines()[0]
    for limit, expected in ((cost + 1e-9, 0), (cost - 1e-6, 1)):
        code = main(["check", str(path), "--model", "new", "--cost-fn", "4",
                     "--max-expected-cost", repr(float(limit))])
        out = capsys.readouterr().out
        assert code == expected, out
        assert f"max-expected-cost[new]  {cost:.6g}" in out


def test_gat004_junit_has_one_testcase_per_criterion_and_the_failures(files, tmp_path, capsys):
    path, _ = files
    report = tmp_path / "report.xml"
    code = main(["check", str(path), "--model", "new", "--min-auc", "0.99",
                 "--max-expected-cost", "10", "--not-worse-than", "old", "--margin", "0.01",
                 "--junit", str(report)])
    out = capsys.readouterr().out
    assert code == 1
    lines = out.splitlines()
    assert [ln.split()[0] for ln in lines[:3]] == ["FAIL", "PASS", "PASS"]
    assert lines[-1] == "roc-dash check: 1 of 3 criteria failed"
    root = ET.parse(report).getroot()
    assert root.tag == "testsuites"
    suite = root.find("testsuite")
    cases = suite.findall("testcase")
    assert [c.get("name") for c in cases] == ["min-auc[new]", "max-expected-cost[new]",
                                              "not-worse-than[new]"]
    assert suite.get("tests") == root.get("tests") == "3"
    assert suite.get("failures") == root.get("failures") == "1"
    failed = [c for c in cases if c.find("failure") is not None]
    assert [c.get("name") for c in failed] == ["min-auc[new]"]
    assert "limit >= 0.99" in failed[0].find("failure").get("message")
    assert "AUC" in failed[0].find("failure").text


@pytest.mark.slow
def test_gat005_decide_then_recheck_same_and_worse_data(tmp_path, files):
    path, frame = files
    record_path = tmp_path / "decision.json"
    out = _run("decide", path, "--model", "new", "--cost-fn", "4", "--note", "ship it",
               "-o", record_path)
    assert out.returncode == 0, out.stderr
    doc = json.loads(record_path.read_text())
    assert doc["model"] == "new" and doc["note"] == "ship it"
    t = doc["rule"]["threshold"]
    same = _run("check", path, "--decision", record_path, "--junit", tmp_path / "a.xml")
    assert same.returncode == 0, same.stdout + same.stderr
    assert "PASS  decision-expected-cost[new]" in same.stdout
    assert "INFO  decision-data[new]  same data" in same.stdout
    # new data: the same model gets worse (its scores mixed with noise)
    rng = np.random.default_rng(9)
    worse = frame[frame.model == "new"].copy()
    worse["score"] = np.round(worse["score"] + rng.normal(scale=2.0, size=len(worse)), 3)
    worse_path = tmp_path / "next_month.csv"
    worse.to_csv(worse_path, index=False)
    y, s = worse["label"].to_numpy() == 1, worse["score"].to_numpy()
    p = doc["conditions"]["prior_pos"]
    tp, fp = (s[y] >= t).sum(), (s[~y] >= t).sum()
    n_pos, n_neg = y.sum(), (~y).sum()
    tpr, fpr = tp / n_pos, fp / n_neg
    cost = p * (1 - tpr) * 4.0 + (1 - p) * fpr * 1.0  # the record's costs and prior
    # the one-sided test written out: the record's corrected cost and its standard error,
    # the new rates' binomial variances, each rate pooled with the record's counts
    ref = doc["drift_reference"]
    assert ref["cost"] == pytest.approx(doc["metrics"]["expected_cost"] + ref["optimism"])
    cm = doc["confusion_matrix"]
    adj_t = (cm["tp"] + tp + 0.5) / (cm["tp"] + cm["fn"] + n_pos + 1)
    adj_f = (cm["fp"] + fp + 0.5) / (cm["fp"] + cm["tn"] + n_neg + 1)
    var_new = (p * 4.0) ** 2 * adj_t * (1 - adj_t) / n_pos + \
        (1 - p) ** 2 * adj_f * (1 - adj_f) / n_neg
    limit = ref["cost"] + norm.ppf(0.95) * np.sqrt(ref["std_error"] ** 2 + var_new)
    assert cost > limit  # the test data are worse beyond chance
    again = _run("check", worse_path, "--decision", record_path, "--junit", tmp_path / "b.xml")
    assert again.returncode == 1, again.stdout + again.stderr
    line = next(ln for ln in again.stdout.splitlines() if "decision-expected-cost" in ln)
    assert line.startswith("FAIL") and f"{cost:.6g}" in line and f"<= {limit:.6g}" in line
    assert "other data" in again.stdout
    assert f"TPR {tpr:.6g} on these data" in again.stdout
    cases = ET.parse(tmp_path / "b.xml").getroot().iter("testcase")
    assert [c.get("name") for c in cases if c.find("failure") is not None] == [
        "decision-expected-cost[new]"]
    # a tolerance wide enough lets it pass
    loose = _run("check", worse_path, "--decision", record_path, "--cost-tolerance", "1")
    assert loose.returncode == 0, loose.stdout


@pytest.mark.parametrize("args, says", [
    (["{missing}", "--min-auc", "0.5"], "nope.csv"),
    (["{path}", "--min-auc", "0.5"], "choose one with --model"),
    (["{path}", "--model", "neu", "--min-auc", "0.5"], "--model 'neu': no such model"),
    (["{path}", "--model", "new"], "no criterion given"),
    (["{path}", "--model", "new", "--not-worse-than", "older", "--margin", "0.01"],
     "--not-worse-than 'older'"),
    (["{path}", "--model", "new", "--decision", "{bad_json}"], "not JSON"),
    (["{path}", "--model", "new", "--decision", "{missing}"], "cannot read the decision"),
    (["{unpaired}", "--model", "new", "--not-worse-than", "old", "--margin", "0.01"],
     "cannot pair the rows"),
    (["{path}", "--model", "new", "--min-auc", "0.5", "--junit", "{no_dir}"], "cannot write"),
])
def test_gat006_bad_input_exit_2_with_what_and_what_to_do(files, tmp_path, capsys, args, says):
    path, frame = files
    bad_json = tmp_path / "d.json"
    bad_json.write_text("{oops")
    unpaired = tmp_path / "unpaired.csv"
    frame.drop(columns="id").iloc[:-1].to_csv(unpaired, index=False)
    names = {"path": path, "missing": tmp_path / "nope.csv", "bad_json": bad_json,
             "unpaired": unpaired, "no_dir": tmp_path / "no" / "such" / "dir.xml"}
    code = main(["check", *[a.format(**names) for a in args]])
    out = capsys.readouterr()
    assert code == 2, out.out + out.err
    assert out.out == "" and out.err.startswith("roc-dash check: ")
    assert says in out.err and "Traceback" not in out.err


@pytest.mark.slow
def test_gat007_decide_bad_input_and_a_given_threshold(files, tmp_path):
    path, frame = files
    out = _run("decide", path, "--threshold", "0.5")
    assert out.returncode == 2 and "--threshold needs --model" in out.stderr
    out = _run("decide", path, "--model", "nope")
    assert out.returncode == 2 and "no such model" in out.stderr
    assert "Traceback" not in out.stderr
    out = _run("decide", path, "--model", "old", "--threshold", "0.25")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    rows = frame[frame.model == "old"]
    flagged = rows["score"].to_numpy() >= 0.25
    y = rows["label"].to_numpy() == 1
    assert doc["rule"]["threshold"] == 0.25 and doc["rule"]["how_chosen"] == "pinned"
    assert doc["confusion_matrix"] == {"tp": int((flagged & y).sum()),
                                       "fp": int((flagged & ~y).sum()),
                                       "fn": int((~flagged & y).sum()),
                                       "tn": int((~flagged & ~y).sum())}
    assert doc["rule"]["response_method"] == "decision_function"  # scores beyond [0, 1]


def _decided(tmp_path, path, *extra):
    record = tmp_path / "decision.json"
    out = _run("decide", path, "--model", "new", "--cost-fn", "4", *extra, "-o", record)
    assert out.returncode == 0, out.stderr
    return record


@pytest.mark.slow
def test_gat008_check_refuses_a_record_of_another_model_or_positive_label(files, tmp_path,
                                                                          capsys):
    path, frame = files
    record = _decided(tmp_path, path)
    code = main(["check", str(path), "--model", "old", "--decision", str(record)])
    err = capsys.readouterr().err
    assert code == 2 and "record holds the decision on model 'new'" in err
    assert "--model gives 'old'" in err and "Traceback" not in err
    # without --model the record's model is checked
    assert main(["check", str(path), "--decision", str(record)]) == 0
    assert "decision-expected-cost[new]" in capsys.readouterr().out
    # the same rows with text labels: decided with "yes" positive, checked with "no"
    words = frame[frame.model == "new"].assign(
        label=np.where(frame[frame.model == "new"]["label"] == 1, "yes", "no"))
    text = tmp_path / "words.csv"
    words.to_csv(text, index=False)
    yes = tmp_path / "yes.json"
    assert main(["decide", str(text), "--positive", "yes", "-o", str(yes)]) == 0
    assert json.loads(yes.read_text())["positive_label"] == "yes"
    capsys.readouterr()
    code = main(["check", str(text), "--positive", "no", "--decision", str(yes)])
    err = capsys.readouterr().err
    assert code == 2 and "record takes label 'yes' as positive" in err
    assert "'no' as positive" in err
    assert main(["check", str(text), "--positive", "yes", "--decision", str(yes)]) == 0


@pytest.mark.slow
def test_gat009_check_refuses_a_record_without_a_threshold_key(files, tmp_path, capsys):
    path, _ = files
    record = _decided(tmp_path, path)
    doc = json.loads(record.read_text())
    del doc["rule"]["threshold"]
    record.write_text(json.dumps(doc))
    code = main(["check", str(path), "--decision", str(record)])
    out = capsys.readouterr()
    assert code == 2 and out.out == ""
    assert "decision.json" in out.err and "'rule.threshold' is missing" in out.err


@pytest.mark.parametrize("option, value", [("--replicates", "10000000"),
                                           ("--replicates", "-1"), ("--seed", "-3"),
                                           ("--replicates", "2001")])
@pytest.mark.slow
def test_gat010_decide_refuses_bootstrap_options_out_of_range(files, tmp_path, option, value):
    path, _ = files
    target = tmp_path / "d.json"
    out = _run("decide", path, "--model", "new", option, value, "-o", target)
    assert out.returncode == 2, out.stderr
    assert ("from 0 to 2000" if option == "--replicates" else ">= 0") in out.stderr
    assert not target.exists() and "Traceback" not in out.stderr
    ok = _run("decide", path, "--model", "new", "--replicates", "2000", "--seed", "3")
    assert ok.returncode == 0 and json.loads(ok.stdout)["intervals"]["replicates"] == 2000
    helptext = _run("decide", "--help").stdout
    assert "0 to 2000" in " ".join(helptext.split())


@pytest.mark.parametrize("extra, says", [
    (["--margin", "0.02"], "--margin belongs to --not-worse-than"),
    (["--alpha", "0.1"], "--alpha belongs to --not-worse-than"),
    (["--cost-tolerance", "1"], "--cost-tolerance belongs to --decision"),
])
def test_gat011_options_without_their_criterion_exit_2(files, capsys, extra, says):
    path, _ = files
    code = main(["check", str(path), "--model", "new", "--min-auc", "0.5", *extra])
    out = capsys.readouterr()
    assert code == 2 and out.out == "" and says in out.err


@pytest.mark.parametrize("limit, status", [("0.5", 0), ("0.999", 1)])
@pytest.mark.slow
def test_gat012_a_reader_closing_the_pipe_keeps_the_status_without_traceback(files, limit,
                                                                              status):
    path, _ = files
    proc = subprocess.Popen([sys.executable, "-m", "roc_dash.cli", "check", str(path),
                             "--model", "new", "--min-auc", limit],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader is gone before check prints (like `| head -c0`)
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=300) == status, err
    assert "Traceback" not in err and "BrokenPipe" not in err


@pytest.mark.slow
def test_gat013_messages_json_as_data_write_failure_tolerance_counts_margin(files, tmp_path,
                                                                            capsys):
    path, frame = files
    record = _decided(tmp_path, path)
    # a JSON file given as data
    code = main(["check", str(record), "--min-auc", "0.5"])
    err = capsys.readouterr().err
    assert code == 2 and "looks like a JSON file" in err and "--decision" in err
    # decide cannot write: no success line
    out = _run("decide", path, "--model", "new", "-o", tmp_path / "no" / "x.json")
    assert out.returncode == 2 and "cannot write" in out.stderr
    assert "roc-dash decide: new, flag iff" not in out.stderr
    # the tolerance names the allowed limit itself and the distance to it
    doc = json.loads(record.read_text())
    assert main(["check", str(path), "--decision", str(record)]) == 0
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if "decision-expected-cost" in ln)
    limit = float(line.split("(limit <= ")[1].split(")")[0])
    se = float(line.split("standard error ")[1].split(" ")[0])
    tolerance = float(line.split(f"allowed up to {limit:.6g} (+")[1].split(")")[0])
    assert tolerance == pytest.approx(norm.ppf(0.95) * se, rel=1e-5)
    assert limit == pytest.approx(doc["drift_reference"]["cost"] + tolerance, rel=1e-5)
    assert "5% false alarms under no change" in line
    assert out.splitlines()[-1] == "roc-dash check: the 1 criterion passed"
    assert main(["check", str(path), "--model", "new", "--min-auc", "0.5",
                 "--not-worse-than", "old", "--margin", "0"]) == 0
    out = capsys.readouterr().out
    assert "H0: difference <= 0;" in out and "<= -0" not in out
    assert "A superiority test (margin 0)" in out
    assert out.splitlines()[-1] == "roc-dash check: all 2 criteria passed"
    assert main(["check", str(path), "--model", "new", "--min-auc", "0.99"]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == "roc-dash check: 1 of 1 criterion failed"


@pytest.mark.slow
def test_gat014_predict_proba_is_refused_for_scores_beyond_0_1(files, tmp_path):
    path, frame = files
    s = frame[frame.model == "new"]["score"]
    assert s.min() < 0 or s.max() > 1
    out = _run("decide", path, "--model", "new", "--response-method", "predict_proba")
    assert out.returncode == 2 and out.stdout == ""
    assert "not probabilities" in out.stderr and f"{s.min():.6g}" in out.stderr
    assert "decision_function" in out.stderr and "Traceback" not in out.stderr
    helptext = " ".join(_run("decide", "--help").stdout.split())
    assert "else decision_function" in helptext
