"""Data where it lives (roc_dash.app.server.sources, issue 19 item 5): the sources an operator
allows in ROC_DASH_SOURCES, DuckDB tables as sources, refusals of everything else, and the
background job that aggregates a source into a stored dataset."""

import os
import threading

import duckdb
import numpy as np
import pandas as pd
import pytest

from roc_dash.app.features.sources import open_source, poll_source
from roc_dash.app.server import sources as src
from roc_dash.app.server.store import DEMO_ID, DatasetStore
from roc_dash.core.assembly.analysis import analyse
from roc_dash.io import InputError, load_predictions
from roc_dash.io import engines as engines_module
from roc_dash.io.engines import aggregate_predictions
from roc_dash.report import build_report
from tests.source_jobs import wait_done


def _frame(n=3000, seed=0, models=("alpha", "beta")):
    rng = np.random.default_rng(seed)
    label = (rng.random(n) < 0.3).astype(int)
    parts = []
    for k, m in enumerate(models):
        score = np.round(1 / (1 + np.exp(-(rng.normal(0, 1, n) + (1 + k) * label))), 3)
        parts.append(pd.DataFrame({"model": m, "label": label, "score": score}))
    return pd.concat(parts, ignore_index=True)


@pytest.fixture
def served(tmp_path, monkeypatch):
    """An allowed folder of Parquet parts, a DuckDB database with two tables, a glob, and a
    secret file outside all of them."""
    frame = _frame()
    folder = tmp_path / "allowed" / "runs"
    (folder / "run1").mkdir(parents=True)
    frame.iloc[:3000].to_parquet(folder / "run1" / "part-0.parquet")
    frame.iloc[3000:].to_parquet(folder / "run1" / "part-1.parquet")
    frame.to_csv(folder / "all.csv", index=False)
    db = tmp_path / "allowed" / "warehouse.duckdb"
    con = duckdb.connect(str(db))
    con.register("f", frame)
    con.execute("CREATE TABLE predictions AS SELECT * FROM f")
    con.execute("CREATE TABLE other AS SELECT model, label, score * 0.5 AS score FROM f")
    con.close()
    outside = tmp_path / "secret"
    outside.mkdir()
    frame.to_parquet(outside / "secret.parquet")
    globbed = tmp_path / "allowed" / "runs" / "run1" / "*.parquet"
    monkeypatch.setenv(src.SOURCES_VAR, os.pathsep.join(
        [str(folder), str(db), str(globbed), str(tmp_path / "missing")]))
    return {"frame": frame, "folder": folder, "db": db, "outside": outside,
            "glob": str(globbed), "root": tmp_path}


def test_dsr001_duckdb_table_report_equals_in_memory(served, tmp_path):
    path = tmp_path / "same.csv"
    served["frame"].to_csv(path, index=False)
    agg = aggregate_predictions([f"{served['db']}::predictions"])
    mem = load_predictions([str(path)])
    a, b = build_report(analyse(agg.table)), build_report(analyse(mem.table))
    assert [m["name"] for m in a["models"]] == ["alpha", "beta"]
    for ma, mb in zip(a["models"], b["models"], strict=True):
        assert ma["auc"] == pytest.approx(mb["auc"], abs=1e-12)
    assert a["hull"] == b["hull"]
    assert agg.table.attrs["input_rows"] == len(served["frame"])


def test_dsr002_table_source_errors_say_what_to_do(served, tmp_path):
    with pytest.raises(InputError, match=r"has no table 'nope' \(its tables: 'other', "
                                         r"'predictions'\)"):
        aggregate_predictions([f"{served['db']}::nope"])
    plain = tmp_path / "plain.csv"
    plain.write_text("label,score\n1,0.5\n")
    with pytest.raises(InputError, match="is not a DuckDB database"):
        aggregate_predictions([f"{plain}::predictions"])
    with pytest.raises(InputError, match="DuckDB engine"):
        from roc_dash.io.engine_queries import _Spark
        from roc_dash.io.engine_sources import expand_source

        _Spark(session=object())._view(expand_source(f"{served['db']}::predictions"))


def test_dsr003_offers_follow_the_environment(served):
    offered = {o.value: o for o in src.offers()}
    folder, db = str(served["folder"]), str(served["db"])
    expected = {
        folder,  # the whole folder
        os.path.join(folder, "all.csv"), os.path.join(folder, "run1"),  # its children
        f"{db}::other", f"{db}::predictions",  # the database's tables, in name order
        served["glob"],
    }
    assert set(offered) == expected
    assert offered[f"{db}::predictions"].root == db
    assert offered[os.path.join(folder, "run1")].root == folder
    assert offered[served["glob"]].root == os.path.dirname(served["glob"])


@pytest.mark.parametrize("attempt", [
    "{outside}/secret.parquet",  # an absolute path elsewhere
    "{folder}/../../secret/secret.parquet",  # climbing out with ..
    "{folder}/..",
    "{root}",
    "",
])
def test_dsr004_only_offered_values_are_read(served, attempt):
    value = attempt.format(outside=served["outside"], folder=served["folder"],
                           root=served["root"])
    with pytest.raises(InputError, match="is not one of the data sources|Choose one"):
        src.resolve(value)


def test_dsr005_links_out_of_an_allowed_folder_are_refused(served):
    link = served["folder"] / "run1" / "part-9.parquet"
    link.symlink_to(served["outside"] / "secret.parquet")
    # the folder and the glob are still offered, but reading them would follow the link out
    for value in (str(served["folder"]), served["glob"], str(served["folder"] / "run1")):
        with pytest.raises(InputError, match="leads outside the allowed source"):
            src.resolve(value)
    # a linked folder placed in the allowed one is offered as a child, and refused too
    (served["folder"] / "elsewhere").symlink_to(served["outside"], target_is_directory=True)
    with pytest.raises(InputError, match="leads outside"):
        src.resolve(str(served["folder"] / "elsewhere"))


def test_dsr006_a_job_stores_the_aggregated_counts(served, tmp_path):
    store = DatasetStore(tmp_path / "data")
    jobs = src.SourceJobs(store)
    value = str(served["folder"] / "run1")
    token, status, error = open_source(jobs, store, value, [DEMO_ID])
    assert error == "" and token and status.startswith("Opening")
    job = wait_done(jobs, token)
    assert job["state"] == "done", job
    expected = aggregate_predictions([value]).table
    stored = store.get(job["dataset_id"])
    pd.testing.assert_frame_equal(
        stored[expected.columns.tolist()].reset_index(drop=True),
        expected.reset_index(drop=True), check_dtype=False, check_categorical=False)
    assert job["rows"] == len(served["frame"])
    assert store.info(job["dataset_id"]).n_rows == len(served["frame"])  # rows, not groups
    assert len(stored) < len(served["frame"])
    # the page's poll: the demo is replaced by the new dataset, the bar hidden, no error
    out = poll_source(jobs, token, [DEMO_ID])
    assert out[0] == [job["dataset_id"]] and out[1] is True and out[5] == ""
    assert "aggregated 6,000 rows of 2 files" in out[4] and "replaces the demo" in out[4]
    assert out[4].startswith("Loaded runs/run1/: model(s) alpha, beta.")
    # opening it again, unchanged, is recognised
    token2, status2, _ = open_source(jobs, store, value, [job["dataset_id"]])
    assert token2 is None and status2.startswith("Already loaded")


def test_dsr007_a_failing_source_says_why_and_changes_nothing(served, tmp_path):
    bad = served["folder"] / "bad.csv"
    bad.write_text("label,score\n1,0.5\n2,0.4\n")  # a label 2 among 1s: not binary
    store = DatasetStore(tmp_path / "data")
    jobs = src.SourceJobs(store)
    token, _, error = open_source(jobs, store, str(bad), [DEMO_ID])
    assert error == ""
    job = wait_done(jobs, token)
    assert job["state"] == "failed" and str(bad) in job["error"]
    out = poll_source(jobs, token, [DEMO_ID])
    assert out[0] is not None and out[0] != [DEMO_ID]  # no_update: the datasets stay
    assert str(bad) in out[5]
    assert not list((tmp_path / "data" / "datasets").glob("*.parquet"))


def test_dsr008_one_source_at_a_time_per_worker(served, tmp_path):
    jobs = src.SourceJobs(DatasetStore(tmp_path / "data"))
    assert src.SourceJobs._busy.acquire(blocking=False)
    try:
        with pytest.raises(InputError, match="already opening a data source"):
            jobs.start(src.resolve(str(served["folder"] / "run1")))
    finally:
        src.SourceJobs._busy.release()
    assert jobs.status("../../etc/passwd") is None  # tokens are names, never paths
    assert poll_source(jobs, "unknown-token", [DEMO_ID])[5].startswith("The server lost")


def test_dsr009_progress_is_reported_while_a_source_is_read(served, monkeypatch):
    seen = []
    called = threading.Event()
    plain = engines_module._aggregate_source

    def slow(runner, source, options):
        assert called.wait(60), "no progress report within 60 s"
        return plain(runner, source, options)

    monkeypatch.setattr(engines_module, "_aggregate_source", slow)

    def progress(fraction, name):
        seen.append((fraction, name))
        called.set()

    result = aggregate_predictions([str(served["folder"] / "run1")], progress=progress)
    assert seen and all(0.0 <= f <= 1.0 for f, _ in seen)
    assert {n for _, n in seen} == {str(served["folder"] / "run1")}
    assert result.table.attrs["input_rows"] == len(served["frame"])


def test_dsr010_a_view_in_an_allowed_database_reads_nothing_outside(served, tmp_path):
    """A view inside an allowed database that reads another file (the stranger review's
    probe: read_csv('/etc/passwd'), a Parquet file outside every allowed entry) fails, and
    its message shows none of that file's contents."""
    secret = served["outside"] / "secret.parquet"
    passwd = tmp_path / "passwd"
    passwd.write_text("root:x:0:0:root:/root:/bin/bash\n")
    con = duckdb.connect(str(served["db"]))
    con.execute(f"CREATE VIEW leak AS SELECT * FROM read_parquet('{secret}')")
    con.execute("CREATE VIEW leak2 AS SELECT 'm' AS model, 1 AS label, column0 AS score "
                f"FROM read_csv('{passwd}', header = false)")
    con.close()
    for table in ("leak", "leak2"):
        with pytest.raises(InputError) as err:
            aggregate_predictions([src.resolve(f"{served['db']}::{table}")])
        assert "root:x" not in str(err.value)
        assert "cannot be read by DuckDB" in str(err.value)
    # the tables themselves still read
    assert aggregate_predictions([src.resolve(f"{served['db']}::predictions")]).table.attrs[
        "input_rows"] == len(served["frame"])


def test_dsr011_folders_skip_what_is_not_data_and_databases_say_how(served, tmp_path):
    run = served["folder"] / "run1"
    (run / "README.md").write_text("# runs\n")
    duckdb.connect(str(run / "notes.duckdb")).close()
    result = aggregate_predictions([src.resolve(str(run))])
    assert result.table.attrs["input_rows"] == len(served["frame"])
    with pytest.raises(InputError, match=r"is a DuckDB database; give one of its tables as "
                                         r"'.*warehouse\.duckdb::TABLE' \(its tables: 'other', "
                                         r"'predictions'\)"):
        aggregate_predictions([str(served["db"])])


def test_dsr012_offers_that_read_alike_show_their_paths(served, tmp_path, monkeypatch):
    twin = tmp_path / "elsewhere" / "warehouse.duckdb"
    twin.parent.mkdir()
    con = duckdb.connect(str(twin))
    con.execute("CREATE TABLE predictions AS SELECT 1 AS label, 0.5 AS score")
    con.close()
    monkeypatch.setenv(src.SOURCES_VAR, os.pathsep.join([str(served["db"]), str(twin)]))
    labels = {o.value: o.label for o in src.offers()}
    assert labels[f"{twin}::predictions"] == f"{twin}::predictions"
    assert labels[f"{served['db']}::predictions"] == f"{served['db']}::predictions"
    assert labels[f"{served['db']}::other"] == "warehouse.duckdb › other"  # unique: short


def test_dsr013_the_cli_says_which_engine_reads_a_database(served):
    import subprocess
    import sys

    table = f"{served['db']}::predictions"
    for args, words in ((["--engine", "memory", table], "only the DuckDB engine reads"),
                        (["--engine", "memory", str(served["db"])], "only the DuckDB engine"),
                        ([str(served["db"])], "give one of its tables as")):
        out = subprocess.run([sys.executable, "-m", "roc_dash.cli", "report", *args],
                             capture_output=True, text=True, timeout=300)
        assert out.returncode == 2 and words in out.stderr, (args, out.stderr)
        assert "Traceback" not in out.stderr
    out = subprocess.run([sys.executable, "-m", "roc_dash.cli", "report", table],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr  # --engine auto streams a table through DuckDB
