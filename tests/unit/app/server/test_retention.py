"""Retention that follows use (issue 14 item 5): every read counts (cache hits too), a sweep on
the clock of requests, a quota over everything under the data folder (and /health says the
same number), a per-user quota with sign-in, orphans collected at start and by the sweep."""

from __future__ import annotations

import json
import os
import time

import pytest

from roc_dash.app import create_app
from roc_dash.app.analysis import AnalysisCache
from roc_dash.app.server.store import DatasetNotFound, DatasetStore, StorageFull
from tests.conftest import make_predictions


def _table(seed=0, n=200):
    return make_predictions(n, seed=seed).assign(model=f"m{seed}", fold="all", weight=1.0)


def _age(store, dataset_id, seconds):
    """Make a dataset look last used ``seconds`` ago."""
    meta = store.dir / f"{dataset_id}.json"
    t = time.time() - seconds
    os.utime(meta, (t, t))


def _exists(store, dataset_id) -> bool:
    return (store.dir / f"{dataset_id}.json").exists()


def test_ret001_every_read_counts_as_use_cache_hits_too(tmp_path, monkeypatch):
    from roc_dash.core.analysis_types import Conditions

    monkeypatch.setenv("ROC_DASH_DATASET_TTL_DAYS", str(20 / 86400))  # 20 s
    writer = DatasetStore(tmp_path)
    read, viewed, idle = (writer.put(_table(k), files=[f"{k}.csv"]).id for k in range(3))
    worker = DatasetStore(tmp_path)  # another worker, whose memory holds the tables
    cache = AnalysisCache(worker)
    worker.get(read)
    cache.analysis([viewed], ["m1"], Conditions())
    for dataset_id in (read, viewed, idle):
        _age(worker, dataset_id, 60)  # a minute ago: past the TTL
    time.sleep(2.1)  # the per-worker throttle of touches (TTL / 10)
    assert read in worker._cache  # the next read is a memory hit ...
    worker.get(read)
    cache.analysis([viewed], ["m1"], Conditions())  # ... and an analysis served from cache
    removed = DatasetStore(tmp_path).sweep()
    assert removed == [idle]
    assert _exists(worker, read) and _exists(worker, viewed)


def test_ret002_the_sweep_runs_on_the_clock_of_requests(tmp_path, monkeypatch):
    monkeypatch.setenv("ROC_DASH_DATASET_TTL_DAYS", str(30 / 86400))
    monkeypatch.setenv("ROC_DASH_SWEEP_SECONDS", "0.5")
    app = create_app(data_dir=tmp_path)
    old = app.store.put(_table(1), files=["old.csv"]).id
    _age(app.store, old, 3600)
    client = app.server.test_client()
    deadline = time.monotonic() + 30
    while _exists(app.store, old):  # no upload: /health requests alone keep the clock
        assert time.monotonic() < deadline, "the sweep never ran"
        assert client.get("/health").status_code == 200
        time.sleep(0.2)
    assert app.store.gone(old)["why"] == "expired"
    assert (tmp_path / ".swept").exists()  # the time of the last sweep, for every worker


def test_ret003_the_quota_counts_everything_under_the_data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("ROC_DASH_USER_HEADER", "X-Forwarded-User")
    app = create_app(data_dir=tmp_path)
    store = app.store
    kept = store.put(_table(1), files=["kept.csv"], owner="ana").id
    # what else lies there: an upload arriving, a rejected one kept, a note, temp files
    (tmp_path / "incoming" / ("I" * 32)).mkdir(parents=True)
    (tmp_path / "incoming" / ("I" * 32) / "00.part").write_bytes(b"x" * 300_000)
    store.put_pending([("bad.csv", b"y" * 200_000)])
    store.save_note([kept], "n" * 4000, owner="ana")
    (store.dir / "tmpabc.tmp").write_bytes(b"z" * 100_000)
    on_disk = sum(p.stat().st_size for p in tmp_path.rglob("*") if p.is_file())
    assert store.usage_bytes() == on_disk >= 600_000
    health = app.server.test_client().get("/health", headers={"X-Forwarded-User": "ops"})
    assert health.get_json()["used_mb"] == round(on_disk / 2**20, 1)
    # with the quota nearly full of other files, an upload that cannot fit even alone is
    # refused with 507 and a message; one that can is taken in without deleting anybody's
    # data (it may be junk: stranger review, 26 Nov); the dataset made of it makes room
    size = sum(p.stat().st_size for p in store._files(kept))
    monkeypatch.setenv("ROC_DASH_DATA_QUOTA_MB", str((on_disk + 60_000 - size // 2) / 2**20))
    monkeypatch.setenv("ROC_DASH_USER_QUOTA_MB", "1000")  # the server's quota alone here
    client = app.server.test_client()
    r = client.post(f"/upload?batch={'U' * 32}&index=0&name=big.csv", data=b"1" * 700_000,
                    headers={"X-Forwarded-User": "ana"})
    assert r.status_code == 507
    assert "big.csv cannot be stored" in r.get_json()["error"]
    assert "ROC_DASH_DATA_QUOTA_MB" in r.get_json()["error"]
    assert store.info(kept)  # nothing deleted for an upload that could not fit anyway
    r = client.post(f"/upload?batch={'U' * 32}&index=0&name=small.csv", data=b"1" * 60_000,
                    headers={"X-Forwarded-User": "bob"})
    assert r.status_code == 200
    assert store.info(kept)  # arriving bytes delete nobody's dataset
    # a dataset stored over the quota (uploads still arriving and rejected ones kept aside:
    # they have their own caps) makes room: the least recently used goes
    aside = sum(p.stat().st_size for folder in ("incoming", "pending")
                for p in (tmp_path / folder).rglob("*") if p.is_file())
    stored = store.usage_bytes() - aside
    monkeypatch.setenv("ROC_DASH_DATA_QUOTA_MB", str((stored + size // 2) / 2**20))
    store.put(_table(2), files=["new.csv"], owner="bob")
    with pytest.raises(DatasetNotFound):
        store.info(kept)


def test_ret011_an_upload_still_arriving_deletes_nobody_elses_data(tmp_path, monkeypatch):
    """Stranger review, 26 Nov: 35 MB of random bytes POSTed to /upload (never read) deleted
    other users' least recently used datasets. Arriving bytes now answer to the uploader's
    own quota only: over it, 507 naming ROC_DASH_USER_QUOTA_MB; under it, taken in without
    deleting anybody's dataset (only the uploader's own, oldest first, for their quota)."""
    monkeypatch.setenv("ROC_DASH_USER_HEADER", "X-Forwarded-User")
    app = create_app(data_dir=tmp_path)
    store = app.store
    alices = [store.put(_table(i, 2000), files=[f"a{i}.csv"], owner="alice").id
              for i in range(3)]
    size = sum(p.stat().st_size for p in store._files(alices[0]))
    theirs = sum(p.stat().st_size for i in alices for p in store._files(i))
    other = store.usage_bytes() - theirs  # the shared cache's files, the sweep's mark
    monkeypatch.setenv("ROC_DASH_DATA_QUOTA_MB", str((other + 3.2 * size) / 2**20))  # ~full
    monkeypatch.setenv("ROC_DASH_USER_QUOTA_MB", str(2.5 * size / 2**20))
    client = app.server.test_client()
    junk = bytes(range(256)) * (3 * size // 256)  # over eve's own quota
    r = client.post(f"/upload?batch={'E' * 32}&index=0&name=junk.bin", data=junk,
                    headers={"X-Forwarded-User": "eve"})
    assert r.status_code == 507 and "ROC_DASH_USER_QUOTA_MB" in r.get_json()["error"]
    r = client.post(f"/upload?batch={'F' * 32}&index=0&name=junk.bin", data=junk[:2 * size],
                    headers={"X-Forwarded-User": "eve"})
    assert r.status_code == 200, r.get_json()  # within her quota: taken in (refused when read)
    assert all(store.info(i).owner == "alice" for i in alices)  # nobody's data deleted


def test_ret012_rejected_uploads_kept_never_make_a_dataset_go(tmp_path, monkeypatch):
    """Stranger review 2 (N1): every rejected upload was kept an hour in pending/ (to read it
    again with a positive label), counted in the quota, and the next upload then deleted
    another user's dataset to make room. Kept ones are now capped at twice the upload
    limit together (the oldest dropped first) and left aside by the quota's evictions."""
    monkeypatch.setenv("ROC_DASH_MAX_UPLOAD_MB", "0.1")  # pending/ holds 0.2 MB at most
    store = DatasetStore(tmp_path)
    bens = store.put(_table(1, 2000), files=["ben.csv"], owner="ben").id
    size = sum(p.stat().st_size for p in store._files(bens))
    tokens = [store.put_pending([(f"junk{i}.bin", bytes([i]) * 60_000)]) for i in range(6)]
    pending = sum(p.stat().st_size for p in (tmp_path / "pending").iterdir())
    assert pending <= 2 * 0.1 * 2**20  # capped: the oldest went
    assert store.get_pending(tokens[-1]) == [("junk5.bin", bytes([5]) * 60_000)]
    assert store.get_pending(tokens[0]) is None
    # the quota is full only if the kept rejections counted: a new dataset still fits
    monkeypatch.setenv("ROC_DASH_DATA_QUOTA_MB",
                       str((store.usage_bytes() - pending + 1.5 * size) / 2**20))
    store.put(_table(2, 2000), files=["ana.csv"], owner="ana")
    assert store.info(bens).owner == "ben"  # nobody's dataset went


def test_ret004_per_user_quota_evicts_the_users_own_data_first(tmp_path, monkeypatch):
    monkeypatch.setenv("ROC_DASH_USER_HEADER", "X-Forwarded-User")
    store = DatasetStore(tmp_path)
    one = store.put(_table(0, 2000), files=["probe.csv"], owner="probe")
    size = sum(p.stat().st_size for p in store._files(one.id))
    store.delete(one.id)
    monkeypatch.setenv("ROC_DASH_USER_QUOTA_MB", str(2.5 * size / 2**20))
    monkeypatch.setenv("ROC_DASH_DATA_QUOTA_MB", str(6.5 * size / 2**20))
    bens = store.put(_table(1, 2000), files=["ben1.csv"], owner="ben").id
    _age(store, bens, 600)  # Ben's is the oldest of all
    anas = [store.put(_table(k, 2000), files=[f"ana{k}.csv"], owner="ana").id
            for k in range(2, 5)]
    # Ana's third upload passed her quota: her own oldest went, not Ben's older one
    assert _exists(store, bens)
    assert not _exists(store, anas[0]) and _exists(store, anas[1]) and _exists(store, anas[2])
    assert "your storage quota" in store.gone(anas[0])["why"]
    # one dataset larger than a user's quota is refused
    monkeypatch.setenv("ROC_DASH_USER_QUOTA_MB", str(0.5 * size / 2**20))
    with pytest.raises(StorageFull, match="ROC_DASH_USER_QUOTA_MB"):
        store.put(_table(9, 2000), files=["huge.csv"], owner="cy")
    assert _exists(store, bens) and _exists(store, anas[1])
    # the global quota: Ben's upload makes room with Ben's own data first
    monkeypatch.setenv("ROC_DASH_USER_QUOTA_MB", str(10 * size / 2**20))
    monkeypatch.setenv("ROC_DASH_DATA_QUOTA_MB", str(3.5 * size / 2**20))
    _age(store, anas[1], 900)  # Ana's is now the least recently used of all
    store.put(_table(7, 2000), files=["ben2.csv"], owner="ben")
    assert not _exists(store, bens) and _exists(store, anas[1])


def test_ret005_orphans_are_collected_at_start_and_by_the_sweep(tmp_path):
    store = DatasetStore(tmp_path)
    kept = store.put(_table(1), files=["kept.csv"], owner="key:me").id
    store.save_note([kept], "about kept", owner="key:me")
    store.save_note(["demo"], "mine on the demo", owner="key:me")
    hour = 3700
    old = time.time() - hour

    def make(path, data=b"x", age=hour):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        t = time.time() - age
        os.utime(path, (t, t))
        return path

    orphans = [
        make(store.dir / "tmpkilled.tmp"),  # a worker killed while writing
        make(store.dir / ("H" * 32 + ".parquet")),  # half a dataset
        make(tmp_path / "incoming" / ("S" * 32) / "00.part"),
        make(tmp_path / "pending" / ("P" * 32 + ".0")),
        make(tmp_path / "views" / "0123.json",  # notes about datasets that are gone
             json.dumps({"ids": ["G" * 32], "note": "x", "views": []}).encode(), age=5),
        make(tmp_path / "views" / "4567.json", b'{"note": "before ids were kept"}',
             age=40 * 86400),
        make(tmp_path / ".health-999"),
    ]
    os.utime(tmp_path / "incoming" / ("S" * 32), (old, old))
    young = make(store.dir / "tmpwriting.tmp", age=5)  # a write going on now
    create_app(data_dir=tmp_path)  # at start
    for path in orphans:
        assert not path.exists(), path
    assert young.exists()
    assert store.notes([kept])["note"] == "about kept"
    assert store.notes(["demo"], "key:me")["note"] == "mine on the demo"
    # and the sweep: the dataset goes, its note with it
    store.delete(kept)
    store.sweep()
    assert store.notes([kept]) == {"note": "", "views": []}
    assert len(list((tmp_path / "views").glob("*.json"))) == 1  # the demo note


def test_ret006_uploads_parked_in_incoming_are_bounded(tmp_path, monkeypatch):
    monkeypatch.setenv("ROC_DASH_MAX_INCOMING_MB", "1")
    app = create_app(data_dir=tmp_path)
    client = app.server.test_client()
    for k in range(2):  # uploads never collected
        r = client.post(f"/upload?batch={chr(65 + k) * 32}&index=0&name=p{k}.csv",
                        data=b"1" * 400_000)
        assert r.status_code == 200
    r = client.post(f"/upload?batch={'C' * 32}&index=0&name=third.csv", data=b"1" * 400_000)
    assert r.status_code == 503 and int(r.headers["Retry-After"]) > 0
    assert "receiving many uploads at once; third.csv is sent again" in r.get_json()["error"]
