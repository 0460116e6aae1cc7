"""Source jobs queued to a real Celery worker on a real redis-server (``ROC_DASH_JOBS=celery``):
the web replica that was asked reads nothing; the worker (another process, as another
container would be) aggregates, stores in the shared data folder, and any replica answers
the polls. A worker killed in the middle of a job leaves it to the next worker."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from roc_dash.app.server import sources as src
from roc_dash.app.server.store import DatasetStore
from tests.source_jobs import wait_done as _wait_done
from tools.processes import children, stop_group

ROOT = Path(__file__).resolve().parents[2]
WAIT = 120.0


@pytest.fixture
def queue_env(shared_env, tmp_path, monkeypatch):
    """The app's environment for queued jobs: Redis, the queue, a source folder with one
    Parquet file, the shared data folder."""
    folder = tmp_path / "sources"
    folder.mkdir()
    rng = np.random.default_rng(3)
    frame = pd.DataFrame({"label": rng.integers(0, 2, 3000), "score": rng.random(3000).round(4),
                          "model": rng.choice(["m1", "m2"], 3000)})
    frame.to_parquet(folder / "preds.parquet", index=False)
    env = {"ROC_DASH_REDIS_URL": shared_env, "ROC_DASH_JOBS": "celery",
           "ROC_DASH_SOURCES": str(folder), "ROC_DASH_DATA_DIR": str(tmp_path / "data")}
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    return env | {"source": str(folder / "preds.parquet"), "rows": len(frame)}


@contextlib.contextmanager
def celery_worker(env: dict, log: Path):
    """``celery -A roc_dash.app.server.job_queue worker --concurrency 1``, as a worker
    container runs it; yields the process once it is ready."""
    full = {k: v for k, v in os.environ.items() if not k.startswith("ROC_DASH")}
    full.update({k: v for k, v in env.items() if k.startswith("ROC_DASH") or k == "PYTHONPATH"})
    with open(log, "wb") as fh:
        proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "roc_dash.app.server.job_queue", "worker",
             "--concurrency", "1", "--pool", "prefork", "--loglevel", "INFO",
             "--without-gossip", "--without-mingle", "--without-heartbeat"],
            cwd=ROOT, env=full, stdout=fh, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + WAIT
        while "ready." not in log.read_text(errors="replace"):
            assert proc.poll() is None, log.read_text()[-3000:]
            assert time.monotonic() < deadline, "the Celery worker did not start"
            time.sleep(0.1)
        yield proc
    finally:
        stop_group(proc)


def test_scl030_a_queued_job_runs_in_the_worker_and_is_polled_anywhere(queue_env, tmp_path):
    shared = Path(queue_env["ROC_DASH_DATA_DIR"])
    web_a = src.SourceJobs(DatasetStore(shared))
    web_b = src.SourceJobs(DatasetStore(shared))
    # this web process is busy with a source of its own: queued, the job does not need it
    assert src.SourceJobs._busy.acquire(blocking=False)
    try:
        token = web_a.start(src.resolve(queue_env["source"]))
    finally:
        src.SourceJobs._busy.release()
    assert web_b.status(token)["state"] == "running"  # queued, no worker yet: waiting
    with celery_worker(queue_env, tmp_path / "celery.log"):
        status = _wait_done(web_b, token)
    assert status["state"] == "done", status
    assert status["rows"] == queue_env["rows"] and sorted(status["models"]) == ["m1", "m2"]
    stored = DatasetStore(shared).info(status["dataset_id"])
    assert stored.n_rows == queue_env["rows"]
    assert "roc-dash-source" not in {t.name for t in threading.enumerate()}


def test_scl031_a_value_the_worker_does_not_offer_is_refused_there(queue_env, tmp_path):
    shared = Path(queue_env["ROC_DASH_DATA_DIR"])
    jobs = src.SourceJobs(DatasetStore(shared))
    token = jobs.start(src.resolve(queue_env["source"]))
    # the worker runs with no sources allowed: it checks the value again and reads nothing
    with celery_worker({**queue_env, "ROC_DASH_SOURCES": str(tmp_path / "elsewhere")},
                       tmp_path / "celery.log"):
        status = _wait_done(jobs, token)
    assert status["state"] == "failed"
    assert "is not one of the data sources this server allows" in status["error"]
    assert not list((shared / "datasets").glob("*.parquet"))


def test_scl032_a_worker_killed_mid_job_leaves_it_to_the_next(queue_env, tmp_path):
    """The job's process is killed while it aggregates (SIGKILL, as an out-of-memory kill):
    the message goes back to the queue, and the next worker process finishes it."""
    shared = Path(queue_env["ROC_DASH_DATA_DIR"])
    jobs = src.SourceJobs(DatasetStore(shared))
    marker = tmp_path / "started"
    # the worker's first try of the job waits (a slow aggregation) until it is killed
    hold = tmp_path / "slow_sitecustomize"
    hold.mkdir()
    (hold / "sitecustomize.py").write_text(
        "import os, time, pathlib\n"
        f"marker = pathlib.Path({str(marker)!r})\n"
        "import roc_dash.io.engines as e\n"
        "plain = e.aggregate_predictions\n"
        "def slow(*a, **k):\n"
        "    if not marker.exists():\n"
        "        marker.write_text(str(os.getpid()))\n"
        "        time.sleep(600)\n"
        "    return plain(*a, **k)\n"
        "e.aggregate_predictions = slow\n"
        "import roc_dash.app.server.sources as s\n"
        "s.aggregate_predictions = slow\n")
    token = jobs.start(src.resolve(queue_env["source"]))
    env = {**queue_env, "PYTHONPATH": os.pathsep.join([str(hold), str(ROOT)])}
    with celery_worker(env, tmp_path / "celery.log") as worker:
        deadline = time.monotonic() + WAIT
        while not marker.exists():
            assert time.monotonic() < deadline, (tmp_path / "celery.log").read_text()[-3000:]
            time.sleep(0.05)
        running_in = int(marker.read_text())
        assert running_in in children(worker.pid)
        os.kill(running_in, signal.SIGKILL)
        status = _wait_done(jobs, token)
    assert status["state"] == "done", status
    assert status["rows"] == queue_env["rows"]
