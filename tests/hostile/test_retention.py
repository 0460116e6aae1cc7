"""Item 5 of issue 14 against the real gunicorn: retention follows use (cache hits count),
the sweep runs without uploads, everything under the data folder counts (and /health says
so), a user's uploads evict that user's own data first, orphans are collected at start."""

from __future__ import annotations

import json
import os
import secrets
import time

import numpy as np
import pytest

from .conftest import Page, start_server, stop_server, unharmed

SIGNED = "X-Forwarded-User"


def _csv(seed: int, n: int = 30_000) -> bytes:
    rng = np.random.default_rng(seed)
    rows = "".join(f"{int(rng.random() < 0.4)},{rng.random():.6f}\n" for _ in range(n))
    return ("label,score\n" + rows).encode()


def _old(path, data: bytes, hours: float = 2):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    t = time.time() - hours * 3600
    os.utime(path, (t, t))
    return path


@pytest.fixture(scope="module")
def retention_server(tmp_path_factory):
    """Sign-in, datasets expire 12 s after their last use, a sweep every second, one user
    may keep about two 30,000-row datasets; the data folder holds what killed workers and
    vanished datasets left behind."""
    root = tmp_path_factory.mktemp("retention")
    data = root / "data"
    orphans = [
        _old(data / "datasets" / "tmpk1ll3d.tmp", b"x" * 50_000),
        _old(data / "datasets" / ("H" * 32 + ".parquet"), b"half"),
        _old(data / "incoming" / ("S" * 32) / "00.part", b"y" * 100_000),
        _old(data / "views" / "deadbeef.json",
             json.dumps({"ids": ["G" * 32], "note": "orphan", "views": []}).encode(), 0),
    ]
    t = time.time() - 7200
    os.utime(data / "incoming" / ("S" * 32), (t, t))
    server = start_server(data, root / "gunicorn.log", workers=2,
                          ROC_DASH_USER_HEADER=SIGNED,
                          ROC_DASH_DATASET_TTL_DAYS=12 / 86400,
                          ROC_DASH_SWEEP_SECONDS=1, ROC_DASH_USER_QUOTA_MB=0.75)
    server.orphans = orphans
    try:
        yield server
    finally:
        stop_server(server)


def test_hst020_orphans_collected_at_start(retention_server):
    s = retention_server
    assert [p for p in s.orphans if p.exists()] == []


def test_hst021_a_dataset_in_use_stays_an_idle_one_expires(retention_server):
    s = retention_server
    ana = Page(s, headers={SIGNED: "ana"})
    ana.upload("watched.csv", _csv(1, 2000))
    watched = ana.datasets[-1]
    ana.upload("idle.csv", _csv(2, 2000))
    idle = ana.datasets[-1]
    ana.datasets = [watched]
    with unharmed(s):
        t0 = time.monotonic()
        while time.monotonic() - t0 < 26:  # more than twice the TTL; no upload meanwhile
            out = ana.views(["watched"])  # the views, mostly from the analysis cache
            assert "watched" in json.dumps(out["roc-graph"]["figure"]["data"])
            time.sleep(1)
    assert (s.data_dir / "datasets" / f"{watched}.parquet").exists()
    assert not (s.data_dir / "datasets" / f"{idle}.parquet").exists()


def test_hst022_everything_counts_and_users_evict_their_own_first(retention_server):
    s = retention_server
    ana, ben = Page(s, headers={SIGNED: "ana"}), Page(s, headers={SIGNED: "ben"})
    with unharmed(s):
        # an upload parked in incoming/ (never read) shows in the usage at once; arriving
        # bytes answer to their uploader's own quota (0.75 MB here): over it, 507
        before = s.request("GET", "/health", headers={SIGNED: "ops"}).json()["used_mb"]
        over = s.upload(secrets.token_urlsafe(24), "big.csv", b"1" * 3 * 2**20,
                        headers={SIGNED: "mallory"})
        assert over.status == 507 and "ROC_DASH_USER_QUOTA_MB" in over.json()["error"]
        parked = s.upload(secrets.token_urlsafe(24), "parked.csv", b"1" * 700_000,
                          headers={SIGNED: "mallory"})
        assert parked.status == 200
        after = s.request("GET", "/health", headers={SIGNED: "ops"}).json()["used_mb"]
        assert after - before >= 0.6
        on_disk = sum(p.stat().st_size for p in s.data_dir.rglob("*") if p.is_file())
        assert abs(after - on_disk / 2**20) < 0.5
        ben.upload("bens.csv", _csv(3))
        bens = ben.datasets[-1]
        anas = []
        for k in range(3):
            out = ana.upload(f"ana{k}.csv", _csv(10 + k))
            assert "Loaded" in out["upload-status"]["children"], out
            anas.append(ana.datasets[-1])
        on = {d: (s.data_dir / "datasets" / f"{d}.parquet").exists() for d in [bens, *anas]}
        # Ben's data stays; one of Ana's own older uploads made room for her newest (which
        # one depends on which she used last: her page reads all of them on every upload)
        gone = [d for d in anas[:2] if not on[d]]
        assert on[bens] and on[anas[2]] and len(gone) == 1, on
        # Ana's page: the dataset that made room is named, with why, in the banner
        ana.datasets = gone
        banner = ana.response("missing-banner.children", {"datasets.data": ana.datasets},
                              ["datasets.data"])
        assert "your storage quota" in json.dumps(banner)
