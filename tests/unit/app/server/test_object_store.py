"""The dataset store on an S3-compatible object store (``ROC_DASH_STORE_URL``) against a real
S3 server on loopback (moto's, started by the fixture): tables, sidecars, notes, put-off
removals and the notes of deleted datasets live in the bucket (checked with boto3, not
through roc-dash's code), expiry and quotas read the objects' sizes and ``LastModified``,
and keys that are not ones the server builds are refused before the store is touched."""

from __future__ import annotations

import time

import pandas as pd
import pytest

from roc_dash.app.server.objects import (
    BadKey,
    LocalObjects,
    S3Objects,
    check_key,
    parse_store_url,
)
from roc_dash.app.server.store import DatasetNotFound, DatasetStore, NotAllowed
from roc_dash.io import load_predictions
from tests.conftest import make_predictions
from tests.unit.app.server.conftest import S3_BUCKET as BUCKET
from tools.s3_server import object_keys

pytestmark = [pytest.mark.slow, pytest.mark.server]


def _table(model="m", n=50):
    csv = make_predictions(n, model=model).to_csv(index=False).encode()
    return load_predictions([(f"{model}.csv", csv)]).table


def _keys(s3_env, prefix) -> dict[str, int]:
    return {k[len(prefix) + 1:]: v for k, v in object_keys(s3_env, BUCKET, prefix).items()}


def test_obj001_a_dataset_lives_in_the_bucket_and_another_process_reads_it(s3, s3_env,
                                                                            tmp_path):
    store = DatasetStore(tmp_path / "a")
    assert isinstance(store.objects, S3Objects)
    table = _table("bucketed")
    info = store.put(table, files=["b.csv"], owner="ann")
    stored = _keys(s3_env, s3)
    assert set(stored) == {f"datasets/{info.id}.parquet", f"datasets/{info.id}.json"}
    assert not list((tmp_path / "a").rglob("*.parquet"))  # nothing of it in the data folder
    other = DatasetStore(tmp_path / "b")  # another replica: its own folder, the same bucket
    got = other.get(info.id)
    assert list(got["model"].astype(str).unique()) == ["bucketed"] and len(got) == len(table)
    pd.testing.assert_series_equal(got["score"], table["score"])
    assert other.info(info.id).owner == "ann"
    assert other.present([info.id, "x" * 30]) == (info.id,)
    assert other.usage_bytes() >= sum(stored.values())


def test_obj002_deleted_on_one_replica_is_gone_on_the_other(s3, s3_env, tmp_path):
    a, b = DatasetStore(tmp_path / "a"), DatasetStore(tmp_path / "b")
    info = a.put(_table(), files=["gone.csv"], owner="ann")
    assert len(b.get(info.id)) == 50  # b holds it in memory now
    assert not b.delete(info.id, user="ben")  # not ben's
    assert a.delete(info.id, user="ann")
    with pytest.raises(DatasetNotFound):
        b.get(info.id)  # not served from b's memory
    assert b.present([info.id]) == ()
    assert b.gone(info.id)["label"] == "gone.csv"
    assert set(_keys(s3_env, s3)) == {f"gone/{info.id}.json"}


def test_obj003_notes_and_views_shared_owner_only(s3, s3_env, tmp_path):
    a, b = DatasetStore(tmp_path / "a"), DatasetStore(tmp_path / "b")
    info = a.put(_table(), files=["n.csv"], owner="ann")
    a.save_note([info.id], "decided on a", owner="ann")
    b.save_view([info.id], "v1", "?cfn=3", owner="ann")
    assert b.notes([info.id])["note"] == "decided on a"
    assert [v["name"] for v in a.notes([info.id])["views"]] == ["v1"]
    with pytest.raises(NotAllowed):
        b.save_note([info.id], "defaced", owner="ben")  # a key of another owner
    assert a.notes([info.id])["note"] == "decided on a"
    assert sum(k.startswith("views/") for k in _keys(s3_env, s3)) == 1


def test_obj004_put_off_removal_carried_out_by_another_replica(s3, s3_env, tmp_path):
    a, b = DatasetStore(tmp_path / "a"), DatasetStore(tmp_path / "b")
    info = a.put(_table(), files=["r.csv"], owner="ann")
    assert a.delete_later(info.id, user="ann", seconds=0.0) is not None
    assert f"removals/{info.id}.json" in _keys(s3_env, s3)
    assert b.run_due_removals(now=time.time() + 1) == [info.id]
    assert not any(k.startswith(("datasets/", "removals/")) for k in _keys(s3_env, s3))
    info2 = a.put(_table(), files=["kept.csv"], owner="ann")
    a.delete_later(info2.id, user="ann", seconds=600)
    assert b.cancel_delete(info2.id) and b.run_due_removals(now=time.time() + 700) == []
    assert b.present([info2.id]) == (info2.id,)


def test_obj005_expiry_and_quota_from_the_objects(s3, s3_env, tmp_path, monkeypatch):
    store = DatasetStore(tmp_path / "a")
    old = store.put(_table("old", 400), files=["old.csv"])
    time.sleep(1.1)  # S3's LastModified counts in whole seconds
    new = store.put(_table("new", 400), files=["new.csv"])
    by_age = store._datasets_by_age()
    assert [e[1] for e in by_age] == [old.id, new.id]
    stored = _keys(s3_env, s3)
    assert [e[2] for e in by_age] == [stored[f"datasets/{i}.parquet"]
                                      + stored[f"datasets/{i}.json"] for i in (old.id, new.id)]
    # expiry: counted from the last use (LastModified, written again on use)
    time.sleep(1.1)
    store._used.clear()
    store.used([old.id])
    assert [e[1] for e in store._datasets_by_age()] == [new.id, old.id]
    removed = store.sweep(now=time.time() + 30 * 86400 + 10)
    assert sorted(removed) == sorted([old.id, new.id])
    assert not any(k.startswith("datasets/") for k in _keys(s3_env, s3))
    # the quota: the least recently used go first, counted from the objects' sizes
    kept = []
    for k in range(3):  # a second apart: LastModified tells their order
        kept.append(store.put(_table(f"q{k}", 400), files=[f"q{k}.csv"]))
        time.sleep(1.1)
    one = stored[f"datasets/{old.id}.parquet"] + stored[f"datasets/{old.id}.json"]
    monkeypatch.setenv("ROC_DASH_DATA_QUOTA_MB",
                       str((store.usage_bytes() - one // 2) / 2**20))
    store.sweep()
    assert store.present([k.id for k in kept]) == (kept[1].id, kept[2].id)


def test_obj006_a_failed_write_leaves_nothing_a_reader_could_see(s3, s3_env, tmp_path):
    store = DatasetStore(tmp_path / "a")

    def half(path):
        with open(path, "wb") as fh:
            fh.write(b"PAR1 half a table")
        raise OSError(28, "No space left on device")

    key = "datasets/" + "h" * 32 + ".parquet"
    with pytest.raises(OSError):
        store.objects.write(key, half, scratch=store.root)
    assert not store.objects.exists(key) and _keys(s3_env, s3) == {}
    assert not list(store.root.glob("*.tmp"))  # no temporary file left behind either


HOSTILE = ["datasets/*.parquet", "datasets/../views/x.json", "datasets/a/b.json",
           "datasets/..%2F..%2Fx.json", "datasets/%2Fetc.json", "../datasets/x.json",
           "views/x.json ", "datasets/x.txt", "other/x.json", "datasets/", "/datasets/x.json",
           "datasets/[ab]*.json", "datasets/x?.json", "datasets/\u2215x.json", None, 7]


@pytest.mark.parametrize("key", HOSTILE)
def test_obj007_crafted_keys_are_refused_at_the_moment_of_use(s3, s3_env, tmp_path, key):
    with pytest.raises(BadKey):
        check_key(key)
    objects = DatasetStore(tmp_path).objects
    for call in (objects.read_bytes, objects.exists, objects.remove, objects.touch,
                 lambda k: objects.write_bytes(k, b"{}", scratch=tmp_path)):
        with pytest.raises(BadKey):
            call(key)
    assert _keys(s3_env, s3) == {}


def test_obj008_crafted_ids_through_the_store_find_nothing(s3, s3_env, tmp_path):
    store = DatasetStore(tmp_path)
    info = store.put(_table(), files=["x.csv"], owner="ann")
    before = _keys(s3_env, s3)
    for crafted in ("*", "../" + info.id, info.id + "/../x", f"..%2F{info.id}", "*" * 30,
                    info.id[:-1] + "*", f"{info.id[:10]}/{info.id[11:]}"):
        with pytest.raises(DatasetNotFound):
            store.get(crafted)
        with pytest.raises(DatasetNotFound):
            store.info(crafted)
        assert store.present([crafted]) == ()
        assert not store.delete(crafted)
        assert store.gone(crafted) is None and store.removal_due(crafted) is None
    assert _keys(s3_env, s3) == before


def test_obj009_the_store_url_is_checked():
    assert parse_store_url("s3://bucket-1/a/b") == ("bucket-1", "a/b")
    assert parse_store_url("s3://bucket-1") == ("bucket-1", "")
    for bad in ("bucket", "s3://", "s3://B/x", "s3://b*c/x", "s3://bucket/../x",
                "s3://bucket/a/*", "file:///tmp/x", "s3://bucket/a b"):
        with pytest.raises(ValueError, match="ROC_DASH_STORE_URL"):
            parse_store_url(bad)


def test_obj010_unset_the_data_folder_as_before(tmp_path, monkeypatch):
    monkeypatch.delenv("ROC_DASH_STORE_URL", raising=False)
    store = DatasetStore(tmp_path)
    assert isinstance(store.objects, LocalObjects)
    info = store.put(_table(), files=["local.csv"], owner="ann")
    store.save_note([info.id], "here", owner="ann")
    store.delete_later(info.id, user="ann", seconds=60)
    assert sorted(p.relative_to(tmp_path).parts[0] for p in tmp_path.rglob("*.json")) == [
        "datasets", "removals", "views"]


def test_obj011_ready_says_when_the_store_does_not_answer(s3, s3_env, tmp_path, monkeypatch):
    from types import SimpleNamespace

    from roc_dash.app.server.probes import readiness
    from tools.processes import free_port

    cache = SimpleNamespace(unreachable=lambda: None)
    state = readiness(DatasetStore(tmp_path), cache)
    assert state["ready"] and state["checks"]["store_reachable"], state
    monkeypatch.setenv("ROC_DASH_STORE_URL", "s3://no-such-bucket/p")
    state = readiness(DatasetStore(tmp_path), cache)
    assert not state["ready"] and "'no-such-bucket' does not exist" in state["reasons"][0]
    monkeypatch.setenv("ROC_DASH_STORE_URL", f"s3://{BUCKET}/p")
    monkeypatch.setenv("ROC_DASH_S3_ENDPOINT_URL", f"http://127.0.0.1:{free_port()}")
    t0 = time.monotonic()
    state = readiness(DatasetStore(tmp_path), cache)
    assert not state["ready"] and not state["checks"]["store_reachable"]
    assert "does not answer" in state["reasons"][0]
    assert "ROC_DASH_S3_ENDPOINT_URL" in state["reasons"][0]
    assert time.monotonic() - t0 < 30


def test_obj012_a_use_racing_a_delete_does_not_bring_the_sidecar_back(s3, s3_env, tmp_path,
                                                                      monkeypatch):
    """Replica b marks a dataset used (it writes the sidecar again) while replica a deletes
    it, between b's read and b's write: the dataset stays gone, no sidecar left behind."""
    a, b = DatasetStore(tmp_path / "a"), DatasetStore(tmp_path / "b")
    info = a.put(_table(), files=["race.csv"], owner="ann")
    fs = b.objects.fs
    read = fs.cat_file

    def read_then_deleted_elsewhere(path, *args, **kw):
        data = read(path, *args, **kw)
        assert a.delete(info.id)
        return data

    monkeypatch.setattr(fs, "cat_file", read_then_deleted_elsewhere)
    b._touch(info.id)
    assert not any(k.startswith("datasets/") for k in _keys(s3_env, s3))
    with pytest.raises(DatasetNotFound):
        b.info(info.id)


def test_obj013_serve_names_a_bad_store_url_without_a_traceback(tmp_path, monkeypatch,
                                                                capsys):
    from roc_dash.cli import main

    monkeypatch.setenv("ROC_DASH_STORE_URL", "ftp://bucket/x")
    assert main(["serve", "--data-dir", str(tmp_path), "--port", "8218"]) == 2
    err = capsys.readouterr().err
    assert "ROC_DASH_STORE_URL must be s3://bucket" in err and "ftp://bucket/x" in err
    assert "Traceback" not in err


def test_obj014_a_sweep_reads_each_sidecar_once_per_process(s3, s3_env, tmp_path,
                                                            monkeypatch):
    """The owners (never changed after the upload) are read once; a later sweep lists the
    bucket and reads no sidecar again, and still sees a dataset deleted elsewhere."""
    a, b = DatasetStore(tmp_path / "a"), DatasetStore(tmp_path / "b")
    ids_ = [a.put(_table(), files=[f"{k}.csv"], owner=f"u{k}").id for k in range(3)]
    assert {e[1]: e[3] for e in b._datasets_by_age()} == {i: f"u{k}" for k, i in
                                                          enumerate(ids_)}
    reads = []
    read = b._read_json
    monkeypatch.setattr(b, "_read_json", lambda key: reads.append(key) or read(key))
    assert a.delete(ids_[0])
    # (as a set: three puts may share a second of LastModified, so their order by age is open)
    assert sorted(e[1] for e in b._datasets_by_age()) == sorted(ids_[1:])
    assert not [k for k in reads if k.startswith("datasets/")]
