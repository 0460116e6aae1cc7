"""``/ready`` (issue 19, item 3): ready when the data folder takes a file, the disk has more
than ``ROC_DASH_MIN_FREE_MB`` free and the shared analysis cache answers; 503 otherwise, with
the reasons for a signed-in user and the server's log only (issue 14's rule, as ``/health``)."""

from __future__ import annotations

import errno
import logging
import shutil
from pathlib import Path

import pytest

from roc_dash.app.server.probes import readiness

SIGNED_IN = {"X-Forwarded-User": "ops"}


@pytest.fixture
def app(app_with):
    return app_with(ROC_DASH_USER_HEADER="X-Forwarded-User", ROC_DASH_MIN_FREE_MB=None)


def _ready(app, headers=None):
    r = app.server.test_client().get("/ready", headers=headers or {})
    return r.status_code, r.get_json()


def _free_mb(path: Path) -> float:
    return shutil.disk_usage(path).free / 2**20


def test_rdy001_ready_says_ok_and_only_ok_to_strangers(app):
    assert _ready(app) == (200, {"status": "ok"})
    status, body = _ready(app, SIGNED_IN)
    assert status == 200 and body["reasons"] == []
    assert body["data_dir_writable"] is True and body["cache_reachable"] is True
    assert body["disk_free_mb"] == pytest.approx(_free_mb(app.store.root), rel=0.05)
    assert body["min_free_mb"] == 64.0


def test_rdy002_a_data_folder_that_takes_no_file_is_not_ready(app, monkeypatch):
    """A read-only volume (as root in the test, simulated: EROFS on the probe's write)."""
    plain = Path.write_bytes

    def read_only(self, data):
        if self.name.startswith(".health-"):
            raise OSError(errno.EROFS, "Read-only file system", str(self))
        return plain(self, data)

    monkeypatch.setattr(Path, "write_bytes", read_only)
    assert _ready(app) == (503, {"status": "not ready"})  # no reason for a stranger
    status, body = _ready(app, SIGNED_IN)
    assert status == 503 and body["data_dir_writable"] is False
    assert len(body["reasons"]) == 1 and "data folder" in body["reasons"][0]
    assert "ROC_DASH_DATA_DIR" in body["reasons"][0]


def test_rdy003_a_missing_data_folder_is_not_ready(app, tmp_path):
    app.store.root = tmp_path / "gone" / "deeper"
    status, body = _ready(app, SIGNED_IN)
    assert status == 503 and body["data_dir_writable"] is False


def test_rdy004_free_disk_must_exceed_the_configured_minimum(app, monkeypatch):
    free = _free_mb(app.store.root)  # the disk's own figure, not the app's
    monkeypatch.setenv("ROC_DASH_MIN_FREE_MB", str(free * 0.5))
    assert _ready(app)[0] == 200
    monkeypatch.setenv("ROC_DASH_MIN_FREE_MB", str(free + 10_000))
    assert _ready(app) == (503, {"status": "not ready"})
    status, body = _ready(app, SIGNED_IN)
    assert status == 503 and body["data_dir_writable"] is True and body["cache_reachable"]
    assert len(body["reasons"]) == 1 and "ROC_DASH_MIN_FREE_MB" in body["reasons"][0]
    assert body["min_free_mb"] == pytest.approx(free + 10_000, abs=0.1)
    # /health uses the same minimum
    assert app.server.test_client().get("/health").status_code == 503


def test_rdy005_a_cache_that_does_not_answer_is_not_ready(app):
    shared = app.analysis_cache.cache
    folder = Path(shared.disk.directory)
    shared.disk.close()
    shutil.rmtree(folder)  # the cache's database is gone from under it
    status, body = _ready(app, SIGNED_IN)
    assert status == 503 and body["cache_reachable"] is False
    assert len(body["reasons"]) == 1 and "cache" in body["reasons"][0]
    shared.disk = None  # the cache could not be opened at the start
    status, body = _ready(app, SIGNED_IN)
    assert status == 503 and "could not be opened" in body["reasons"][0]
    assert _ready(app) == (503, {"status": "not ready"})


def test_rdy006_the_log_says_why_once_per_change(app, monkeypatch, caplog):
    free = _free_mb(app.store.root)
    with caplog.at_level(logging.WARNING, logger="roc_dash.app.server.probes"):
        monkeypatch.setenv("ROC_DASH_MIN_FREE_MB", str(free + 10_000))
        for _ in range(3):
            assert _ready(app)[0] == 503
        monkeypatch.delenv("ROC_DASH_MIN_FREE_MB")
        assert _ready(app)[0] == 200
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 2
    assert "not ready" in messages[0] and "ROC_DASH_MIN_FREE_MB" in messages[0]
    assert "ready again" in messages[1]


def test_rdy007_one_probe_per_call_from_many_threads(app):
    """As /health (sto020): threads answering at once do not remove each other's probe file
    or cache key."""
    from concurrent.futures import ThreadPoolExecutor

    store, cache = app.store, app.analysis_cache.cache
    with ThreadPoolExecutor(16) as pool:
        states = list(pool.map(lambda _: readiness(store, cache)["ready"], range(400)))
    assert set(states) == {True}
    assert not list(store.root.glob(".health-*"))
    assert not [k for k in cache.disk.iterkeys() if str(k).startswith("ready-probe")]
