"""`roc-dash monitor` as a scheduled job runs it: exit codes (0 held, 1 drift, 2 bad input),
the JSON, the JUnit XML, the HTML page, each bad input's message, the windows cut by a time
column, and the Python API giving the same numbers (mon020-mon029)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import numpy as np
import pandas as pd
import pytest

import roc_dash
from roc_dash.cli import main
from roc_dash.core.monitoring import window_from_rows
from roc_dash.decision.monitoring import MonitorInputError
from tests.monitoring_example import frame, sample


@pytest.fixture
def job(tmp_path):
    """A decision taken on ``ref.csv`` and a month of windows like it (``same.csv``), one
    with fewer positives (``fewer.csv``) and one whose negatives moved (``moved.csv``)."""
    frame(6000, 0.3, seed=1).to_csv(tmp_path / "ref.csv", index=False)
    assert main(["decide", str(tmp_path / "ref.csv"), "--cost-fn", "3", "--replicates", "50",
                 "-o", str(tmp_path / "rec.json")]) == 0
    frame(8000, 0.3, seed=2).to_csv(tmp_path / "same.csv", index=False)
    frame(8000, 0.08, seed=3, labels=False).to_csv(tmp_path / "fewer.csv", index=False)
    frame(8000, 0.3, seed=4, shift=0.8).to_csv(tmp_path / "moved.csv", index=False)
    return tmp_path


def _monitor(job, *args, capsys=None):
    status = main(["monitor", str(job / "rec.json"), *map(str, args), "--replicates", "50"])
    return status


def test_mon020_held_windows_exit_0_and_drift_exits_1(job, capsys):
    out = job / "out.json"
    assert _monitor(job, job / "same.csv", "--reference", job / "ref.csv", "-o", out) == 0
    doc = json.loads(out.read_text())
    assert doc["schema"] == "roc-dash monitor" and doc["status"] == "held"
    (w,) = doc["windows"]
    assert w["name"] == "same" and w["labelled"]["drift_test"]["drifted"] is False
    assert set(w["prevalence"]) == {"labels", "em", "pacc", "acc"}
    assert doc["reference"]["same_as_decision"] is True
    assert _monitor(job, job / "same.csv", job / "fewer.csv", job / "moved.csv",
                    "--reference", job / "ref.csv", "-o", out, "--junit", job / "j.xml") == 1
    doc = json.loads(out.read_text())
    status = {w["name"]: {f["criterion"]: f["status"] for f in w["findings"]}
              for w in doc["windows"]}
    assert status["fewer"]["choice"] == "FAIL"
    assert status["moved"]["cost-drift"] == "FAIL"
    suite = ET.parse(job / "j.xml").getroot().find("testsuite")
    cases = {c.get("name"): c for c in suite.iter("testcase")}
    assert "choice[fewer]" in cases and cases["choice[fewer]"].find("failure") is not None
    assert cases["cost-drift[same]"].find("failure") is None
    assert int(suite.get("failures")) == sum(f == "FAIL" for s in status.values()
                                             for f in s.values())
    err = capsys.readouterr().err
    assert "roc-dash monitor:" in err and "FAIL  choice[fewer]" in err


@pytest.mark.parametrize("case, expected", [
    ("other_model", "no rows of model 'rf'.*its models: 'gb'"),
    ("no_score", "no score column found"),
    ("one_class", "every labelled case is negative.*without the label column"),
    ("other_positive", "read with label 'no' as positive, the decision record with '1'"),
    ("not_a_record", "not a roc-dash decision record"),
    ("every_without_time", "--every cuts the time column"),
    ("not_dates", "not a date or time"),
    ("reference_other_model", "not the decision's model 'rf'"),
    ("unwritable", "cannot write .*no-such-folder.*check the folder exists"),
])
def test_mon021_bad_input_exits_2_with_what_to_do(job, capsys, case, expected):
    window = job / "bad.csv"
    args = [window]
    base = frame(500, 0.3, seed=5)
    if case == "other_model":
        base.assign(model="gb").to_csv(window, index=False)
    elif case == "no_score":
        base.rename(columns={"score": "s"}).to_csv(window, index=False)
    elif case == "one_class":
        base.assign(label=0).to_csv(window, index=False)
    elif case == "other_positive":
        base.assign(label=np.where(base["label"] == 1, "yes", "no")).to_csv(window,
                                                                            index=False)
        args += ["--positive", "no"]
    elif case == "not_a_record":
        (job / "rec.json").write_text('{"not": "a record"}')
        base.to_csv(window, index=False)
    elif case == "every_without_time":
        base.to_csv(window, index=False)
        args += ["--every", "month"]
    elif case == "not_dates":
        base.assign(time="yesterday").to_csv(window, index=False)
        args += ["--time", "time", "--every", "month"]
    elif case == "unwritable":
        base.to_csv(window, index=False)
        args += ["-o", job / "no-such-folder" / "out.json"]
    elif case == "reference_other_model":
        base.to_csv(window, index=False)
        pd.concat([base.assign(model="a"), base.assign(model="b")]).to_csv(
            job / "ref2.csv", index=False)
        args += ["--reference", job / "ref2.csv"]
    assert _monitor(job, *args) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert all(line.startswith("roc-dash") for line in lines), err
    assert sum(not line.startswith("roc-dash: note:") for line in lines) == 1, err
    assert re.search(expected, lines[-1]), err


def test_mon022_a_time_column_cuts_windows_as_files_do(job):
    rows = []
    for k, prior in enumerate((0.3, 0.3, 0.1)):
        f = frame(3000, prior, seed=10 + k)
        f["time"] = pd.Timestamp(f"2024-0{k + 1}-03") + pd.to_timedelta(
            np.arange(3000) % 25, unit="D")
        f.drop(columns="time").to_csv(job / f"2024-0{k + 1}.csv", index=False)
        rows.append(f)
    table = pd.concat(rows)
    table.to_parquet(job / "all.parquet", index=False)
    by_time = roc_dash.monitor(job / "rec.json", job / "all.parquet", time="time",
                               every="month", replicates=50).to_dict()
    by_file = roc_dash.monitor(job / "rec.json", [job / f"2024-0{k}.csv" for k in (1, 2, 3)],
                               replicates=50).to_dict()
    assert [w["name"] for w in by_time["windows"]] == ["2024-01", "2024-02", "2024-03"]
    for a, b in zip(by_time["windows"], by_file["windows"], strict=True):
        assert a["labelled"]["confusion_matrix"] == b["labelled"]["confusion_matrix"]
        assert a["prevalence"]["acc"] == b["prevalence"]["acc"]
        assert a["start"].startswith(a["name"])
    from roc_dash.io.windows import read_windows

    weeks = read_windows([str(job / "all.parquet")], time="time", every="week").windows
    assert weeks[0].name == "2024-W01" and weeks[-1].name == "2024-W13"  # ISO weeks
    quarters = read_windows([str(job / "all.parquet")], time="time", every="quarter")
    assert [w.name for w in quarters.windows] == ["2024-Q1"]
    assert quarters.windows[0].rows == len(table)
    days = roc_dash.monitor(job / "rec.json", table.assign(time=table["time"].dt.date.astype(
        str)).query("time < '2024-01-06'"), time="time", replicates=50)
    assert [w.name for w in days.result.windows] == ["2024-01-03", "2024-01-04",
                                                     "2024-01-05"]


def test_mon023_the_html_page_shows_status_figures_and_plain_names(job):
    weird = '<img src=x onerror=alert(1)>'
    frame(3000, 0.3, seed=2).to_csv(job / "w.csv", index=False)
    out = job / "m.html"
    assert main(["monitor", str(job / "rec.json"), str(job / "w.csv"), "--reference",
                 str(job / "ref.csv"), "--format", "html", "-o", str(out),
                 "--replicates", "50"]) == 0
    text = out.read_text()
    assert "Decision held" in text and 'id="monitor-roc"' in text
    assert 'id="monitor-time"' in text and "rr-plotly" in text
    report = roc_dash.monitor(job / "rec.json", {weird: pd.read_csv(job / "w.csv")},
                              replicates=50)
    from roc_dash.report.html_monitor import render_monitor_html

    page = render_monitor_html(report)
    assert weird not in page and "&lt;img src=x" in page


def test_mon024_the_python_api_gives_the_clis_numbers(job):
    out = job / "out.json"
    main(["monitor", str(job / "rec.json"), str(job / "same.csv"), str(job / "fewer.csv"),
          "--reference", str(job / "ref.csv"), "-o", str(out), "--replicates", "50"])
    cli = json.loads(out.read_text())
    api = roc_dash.monitor(str(job / "rec.json"),
                           {"same": pd.read_csv(job / "same.csv"),
                            "fewer": pd.read_csv(job / "fewer.csv")},
                           reference=pd.read_csv(job / "ref.csv"), replicates=50)
    doc = api.to_dict()
    for a, b in zip(cli["windows"], doc["windows"], strict=True):
        assert a["prevalence"] == b["prevalence"] and a["findings"] == b["findings"]
    assert api.exit_status == 1 and api.status == "drift"
    # windows given as counts, a record object, the reference as a table
    from roc_dash.decision import load

    y, s = sample(4000, 0.3, seed=2)
    counted = roc_dash.monitor(load(job / "rec.json"), [window_from_rows("w", s, y)],
                               replicates=50)
    assert counted.result.windows[0].labelled is not None
    with pytest.raises(MonitorInputError, match="replicates"):
        roc_dash.monitor(job / "rec.json", [job / "same.csv"], replicates=5)


def test_mon025_partly_labelled_windows_are_monitored_unlabelled(job):
    f = frame(3000, 0.3, seed=6).astype({"label": "float"})
    f.loc[:99, "label"] = np.nan
    f.to_csv(job / "part.csv", index=False)
    report = roc_dash.monitor(job / "rec.json", [job / "part.csv"], replicates=50)
    (w,) = report.result.windows
    assert w.labelled is None
    assert any("100 rows of 3,000 have no label" in n for n in report.notes)


def test_mon026_duckdb_counts_are_the_rows_counts(job):
    f = frame(5000, 0.25, seed=7)
    f["weight"] = np.random.default_rng(0).integers(1, 5, len(f))
    f.to_parquet(job / "w.parquet", index=False)
    from roc_dash.io.windows import read_windows

    (w,) = read_windows([str(job / "w.parquet")], model="rf").windows
    expected = window_from_rows("w", f["score"], f["label"], weights=f["weight"])
    np.testing.assert_array_equal(w.scores, expected.scores)
    np.testing.assert_allclose(w.totals, expected.totals)
    np.testing.assert_allclose(w.positives, expected.positives)
    assert w.rows == len(f)


def test_mon027_a_labelled_windows_drift_test_is_check_decisions(job):
    """The same record and window give the same drift verdict, cost and limit in ``roc-dash
    check --decision`` and in the monitor (one window, no reference predictions: one failing
    test, so the monitor's level is the run's alpha)."""
    from roc_dash.decision import load
    from roc_dash.decision.gate import fmt, recheck_decision
    from roc_dash.io import load_predictions

    record = load(job / "rec.json")
    assert record.drift_reference is not None and record.how_chosen == "optimum"
    for window, alpha in (("same.csv", 0.05), ("moved.csv", 0.01)):
        table = load_predictions([str(job / window)]).table.assign(model="rf")
        gate = recheck_decision(record, table, alpha=alpha)[0]
        report = roc_dash.monitor(record, [job / window], alpha=alpha, replicates=50)
        test = report.result.windows[0].labelled.drift
        assert test.reference.corrected
        assert gate.status == ("FAIL" if test.drifted else "PASS")
        assert gate.value == pytest.approx(test.cost)
        assert gate.limit == f"<= {fmt(test.limit)}"
    assert report.status == "drift"


def test_mon028_the_docs_commands_run_as_written(tmp_path, monkeypatch):
    """The shell block of docs/monitoring.md runs on files like those it names: the decision,
    then the monitor cutting a year's predictions into months (exit 1: the prior falls)."""
    import shlex
    from pathlib import Path

    docs = (Path(__file__).resolve().parents[3] / "docs" / "monitoring.md").read_text()
    block = re.search(r"^```bash\n(.*?)^```", docs, re.M | re.S).group(1)
    commands = [argv for argv in (shlex.split(line, comments=True) for line in
                                  block.replace("\\\n", " ").splitlines()) if argv]
    assert [argv[:2] for argv in commands] == [["roc-dash", "decide"], ["roc-dash", "monitor"]]
    frame(3000, 0.3, seed=40).to_csv(tmp_path / "validation.csv", index=False)
    months = []
    for k, prior in enumerate((0.3, 0.3, 0.12)):
        f = frame(2000, prior, seed=41 + k, labels=False)
        f["day"] = pd.Timestamp(f"2024-0{k + 1}-01") + pd.to_timedelta(
            np.arange(len(f)) % 28, unit="D")
        months.append(f)
    pd.concat(months).to_parquet(tmp_path / "predictions.parquet", index=False)
    monkeypatch.chdir(tmp_path)
    statuses = [main([*argv[1:], "--replicates", "50"]) for argv in commands]
    assert statuses == [0, 1]
    doc = json.loads((tmp_path / "monitor.json").read_text())
    assert [w["name"] for w in doc["windows"]] == ["2024-01", "2024-02", "2024-03"]
    assert ET.parse(tmp_path / "monitor.xml").getroot().find("testsuite") is not None
