"""The replicas' shared state in Redis (``ROC_DASH_REDIS_URL``), against a real redis-server:
each test plays two replicas as two objects on *separate* data folders, so that only Redis
can carry what one knows to the other (on the embedded defaults each test fails)."""

from __future__ import annotations

import time

import numpy as np
import pandas as pd
import pytest

from roc_dash.app.server import shared_state
from roc_dash.app.server.cache import SharedCache
from roc_dash.app.server.store import DatasetStore
from tests.source_jobs import wait_done as _wait_done

WAIT = 60.0


def test_scl001_values_round_trip_and_add_is_exclusive(shared_env):
    one, two = shared_state.RedisValues(), shared_state.RedisValues()
    value = {"fpr": np.linspace(0, 1, 5), "label": "rf"}
    assert one.set("k", value)
    back = two.get("k")
    np.testing.assert_array_equal(back["fpr"], value["fpr"])
    assert back["label"] == "rf" and "k" in two and "missing" not in two
    assert two.get("missing", "default") == "default"
    # a lock entry only one replica can create
    assert one.add("making-x", ("host-a", 1, "t"), expire=30)
    assert not two.add("making-x", ("host-b", 2, "t"), expire=30)
    assert two.get("making-x") == ("host-a", 1, "t")
    assert one.delete("making-x") and two.add("making-x", ("host-b", 2, "t"), expire=30)
    # every key is under the app's prefix, with an expiry (a shared Redis is not filled)
    import redis

    r = redis.Redis.from_url(shared_env)
    keys = r.keys("*")
    assert keys and all(k.startswith(b"roc-dash:") for k in keys)
    assert all(0 < r.ttl(k) for k in keys)


def test_scl002_an_analysis_made_by_one_replica_is_read_by_another(shared_env, tmp_path):
    first = SharedCache(tmp_path / "replica-a")
    second = SharedCache(tmp_path / "replica-b")
    calls = []

    def make():
        calls.append(1)
        return pd.DataFrame({"score": np.arange(1000.0)})

    made = first.get_or_make(("views", "abc"), make)
    SharedCache.flush(10)
    read = second.get_or_make(("views", "abc"), make)
    assert calls == [1], "the second replica computed the value again"
    pd.testing.assert_frame_equal(made, read)
    assert first.unreachable() is None and second.unreachable() is None
    # a value big enough to be written by a thread after the answer (the disk cache would
    # stream it into its file): whole in Redis, read by the other replica
    big = np.arange(3_000_000, dtype=float)  # 24 MB > cache.BACKGROUND_BYTES
    assert first.get_or_make(("big",), lambda: big) is big
    SharedCache.flush(30)
    np.testing.assert_array_equal(second.get_or_make(("big",), lambda: None), big)
    # no diskcache folder is made under the data folder with Redis
    assert not (tmp_path / "replica-a" / "cache").exists()


def test_scl003_a_value_too_big_to_share_is_kept_in_memory_only(shared_env, tmp_path,
                                                               monkeypatch):
    monkeypatch.setenv("ROC_DASH_REDIS_MAX_VALUE_MB", "0.01")
    cache = SharedCache(tmp_path / "a")
    big = np.zeros(100_000)
    assert cache.get_or_make(("big",), lambda: big) is big
    SharedCache.flush(10)
    assert SharedCache(tmp_path / "b").get_or_make(("big",), lambda: None) is None


def test_scl004_a_redis_that_does_not_answer_is_reported_and_work_goes_on(tmp_path,
                                                                         monkeypatch):
    from tools.processes import free_port

    monkeypatch.setenv("ROC_DASH_REDIS_URL", f"redis://127.0.0.1:{free_port()}/0")
    cache = SharedCache(tmp_path / "a")
    message = cache.unreachable()
    assert message and "does not answer" in message and "ConnectionError" in message
    assert cache.get_or_make(("x",), lambda: 41 + 1) == 42  # computed, served
    assert shared_state.take_sweep_turn(60) is False


def test_scl005_one_sweep_per_interval_across_replicas(shared_env, tmp_path, monkeypatch):
    monkeypatch.setenv("ROC_DASH_SWEEP_SECONDS", "30")
    a, b = DatasetStore(tmp_path / "a"), DatasetStore(tmp_path / "b")
    for store in (a, b):
        store._sweep_clock = -1e9  # as if the last look was long ago
    started = [a.maybe_sweep(), b.maybe_sweep()]
    assert started == [True, False]
    # no stamp file: the turn is kept in Redis
    assert not (tmp_path / "a" / ".swept").exists()
    deadline = time.monotonic() + WAIT
    while not a._sweeping.acquire(blocking=False):
        assert time.monotonic() < deadline
        time.sleep(0.01)
    a._sweeping.release()


@pytest.fixture
def source_file(tmp_path, monkeypatch):
    folder = tmp_path / "sources"
    folder.mkdir()
    rng = np.random.default_rng(1)
    frame = pd.DataFrame({"label": rng.integers(0, 2, 500), "score": rng.random(500).round(3),
                          "model": "m"})
    path = folder / "preds.parquet"
    frame.to_parquet(path, index=False)
    monkeypatch.setenv("ROC_DASH_SOURCES", str(folder))
    return path




def test_scl006_a_job_started_on_one_replica_is_polled_on_another(shared_env, tmp_path,
                                                                 source_file):
    from roc_dash.app.server import sources as src

    on_a = src.SourceJobs(DatasetStore(tmp_path / "a"))
    on_b = src.SourceJobs(DatasetStore(tmp_path / "b"))
    token = on_a.start(src.resolve(str(source_file)))
    assert on_b.status(token) is not None  # known everywhere at once
    status = _wait_done(on_b, token)
    assert status["state"] == "done" and status["rows"] == 500, status
    assert status == on_a.status(token)
    assert not (tmp_path / "a" / "jobs").exists()  # in Redis, not in job files
    assert on_b.status("../../etc/passwd") is None


def test_scl007_a_job_whose_replica_stopped_is_reported_failed(shared_env, tmp_path):
    import redis

    from roc_dash.app.server import sources as src

    jobs = src.SourceJobs(DatasetStore(tmp_path / "a"))
    jobs._write("tok-lost-123", state="running", fraction=0.3, source="x", label="big.parquet")
    assert jobs.status("tok-lost-123")["state"] == "running"
    # the replica running it was killed: its heartbeat stops and expires
    redis.Redis.from_url(shared_env).delete("roc-dash:job:tok-lost-123:beat")
    status = src.SourceJobs(DatasetStore(tmp_path / "b")).status("tok-lost-123")
    assert status["state"] == "failed"
    assert status["error"].startswith("big.parquet: the server that was opening it stopped")
    assert "open it again" in status["error"]
