"""The Monitor tab's kept files (window files, decision records) in the object store
(``ROC_DASH_STORE_URL``), against moto's S3 server on loopback: a file kept through one
replica is read by another that shares no folder with it (the bucket checked with boto3,
not through roc-dash's code); expiry removes it from the store for every replica; content
that is not whole or not the bytes described is not used; crafted ids touch nothing."""

from __future__ import annotations

import base64
import json

import pytest

from roc_dash.app.analysis import AnalysisCache
from roc_dash.app.features import monitor as feature
from roc_dash.app.monitoring import page_monitor
from roc_dash.app.page_state import MonitorState, PageState
from roc_dash.app.server.monitor_files import get_file, put_file
from roc_dash.app.server.objects import BadKey, check_key
from roc_dash.app.server.store import DatasetStore
from roc_dash.app.state import ControlState
from roc_dash.io import load_predictions
from tests.monitoring_example import frame
from tests.unit.app.server.conftest import S3_BUCKET
from tools.s3_server import object_keys, s3_client

pytestmark = [pytest.mark.slow, pytest.mark.server]

CSV = b"score\n0.1\n0.7\n0.4\n"


def _url(data: bytes) -> str:
    return "data:text/csv;base64," + base64.b64encode(data).decode()


def _keys(s3_env, prefix) -> dict[str, int]:
    return {k[len(prefix) + 1:]: v for k, v in object_keys(s3_env, S3_BUCKET, prefix).items()}


def test_mfs001_a_file_kept_on_one_replica_is_read_on_another(s3, s3_env, tmp_path):
    kept = put_file(tmp_path / "a", "window", "../jan 2026.csv", CSV, columns=["score"])
    stored = _keys(s3_env, s3)
    assert stored == {f"monitor/{kept.id}.bin": len(CSV),
                      f"monitor/{kept.id}.json": stored[f"monitor/{kept.id}.json"]}
    body = s3_client(s3_env).get_object(Bucket=S3_BUCKET, Key=f"{s3}/monitor/{kept.id}.bin")
    assert body["Body"].read() == CSV
    assert not (tmp_path / "b").exists()
    got = get_file(tmp_path / "b", kept.id, "window")  # another replica: its own folder
    assert got is not None and got.name == "../jan 2026.csv" and got.columns == ("score",)
    assert got.path.read_bytes() == CSV and got.path.name == "jan 2026.csv"
    assert got.path.is_relative_to(tmp_path / "b") and got.digest == kept.digest
    assert get_file(tmp_path / "b", kept.id, "record") is None  # of another kind


def test_mfs002_expired_or_removed_in_the_store_is_gone_for_every_replica(s3, s3_env,
                                                                        tmp_path,
                                                                        monkeypatch):
    old = put_file(tmp_path / "a", "record", "rec.json", b"{}")
    assert get_file(tmp_path / "b", old.id) is not None  # b has its copy now
    client = s3_client(s3_env)
    orphan = "o" * 32  # a content whose description never came (a replica stopped)
    client.put_object(Bucket=S3_BUCKET, Key=f"{s3}/monitor/{orphan}.bin", Body=b"x")
    monkeypatch.setenv("ROC_DASH_MONITOR_FILE_DAYS", "1e-9")
    new = put_file(tmp_path / "c", "window", "feb.csv", CSV)  # keeping one prunes the store
    assert set(_keys(s3_env, s3)) == {f"monitor/{new.id}.bin", f"monitor/{new.id}.json"}
    for replica in ("a", "b"):
        assert get_file(tmp_path / replica, old.id) is None
    assert not (tmp_path / "b" / "monitor" / old.id).exists()  # its copy dropped on read
    monkeypatch.setenv("ROC_DASH_MONITOR_FILE_DAYS", "30")
    client.delete_object(Bucket=S3_BUCKET, Key=f"{s3}/monitor/{new.id}.json")
    assert get_file(tmp_path / "c", new.id) is None  # removed through the store: gone


def test_mfs003_content_not_whole_or_not_the_bytes_described_is_not_used(s3, s3_env,
                                                                         tmp_path):
    kept = put_file(tmp_path / "a", "window", "mar.csv", CSV)
    client = s3_client(s3_env)
    client.put_object(Bucket=S3_BUCKET, Key=f"{s3}/monitor/{kept.id}.bin",
                      Body=CSV[:-3])  # not the bytes its description names
    assert get_file(tmp_path / "b", kept.id) is None
    assert not (tmp_path / "b" / "monitor" / kept.id).exists()
    lone = "L" * 32  # content without its description: not a kept file
    client.put_object(Bucket=S3_BUCKET, Key=f"{s3}/monitor/{lone}.bin", Body=CSV)
    assert get_file(tmp_path / "b", lone) is None


def test_mfs004_crafted_ids_are_refused_before_the_store_is_touched(s3, s3_env, tmp_path,
                                                                    monkeypatch):
    kept = put_file(tmp_path / "a", "window", "apr.csv", CSV)
    before = _keys(s3_env, s3)
    crafted = ["*" * 24, f"../{kept.id}", f"..%2F{kept.id}", f"{kept.id[:8]}/{kept.id[9:]}",
               kept.id[:-1] + "*", f"{kept.id}.bin", "", None, 42]
    from roc_dash.app.server import monitor_files

    def no_store():
        raise AssertionError("the store was asked")

    monkeypatch.setattr(monitor_files, "_shared", no_store)
    for bad in crafted:
        assert get_file(tmp_path / "b", bad) is None
    for bad in ("*" * 24, f"../{kept.id}", f"%2F{kept.id}", kept.id[:10]):
        for ext in ("bin", "json"):
            with pytest.raises(BadKey):
                check_key(f"monitor/{bad}.{ext}")
    with pytest.raises(BadKey):
        check_key(f"monitor/{kept.id}.parquet")
    with pytest.raises(BadKey):
        check_key(f"datasets/{kept.id}.bin")
    assert _keys(s3_env, s3) == before
    assert not (tmp_path / "b").exists()


def test_mfs005_store_unset_keeps_the_data_folders_layout(s3, s3_env, tmp_path, monkeypatch):
    monkeypatch.delenv("ROC_DASH_STORE_URL")
    kept = put_file(tmp_path / "a", "window", "may.csv", CSV)
    assert _keys(s3_env, s3) == {}
    folder = tmp_path / "a" / "monitor" / kept.id
    assert sorted(p.name for p in folder.iterdir()) == ["may.csv", "meta.json"]
    assert json.loads((folder / "meta.json").read_text())["file"] == "may.csv"
    assert get_file(tmp_path / "b", kept.id) is None  # another folder: not found


def test_mfs006_windows_uploaded_on_one_replica_are_monitored_on_another(s3, tmp_path):
    """The tab's own functions: the window files uploaded through replica a's store, the
    Monitor report computed on replica b's (label-less windows, the prior estimated)."""
    a = DatasetStore(tmp_path / "a")
    ref = frame(3000, 0.3, seed=1)
    result = load_predictions([("ref.csv", ref.to_csv(index=False).encode())])
    ref_id = a.put(result.table, files=["ref.csv"], kind=result.kind).id
    urls, names = [], []
    for name, prior, seed in (("jan", 0.3, 2), ("feb", 0.1, 3)):
        data = frame(3000, prior, seed=seed, labels=False).to_csv(index=False).encode()
        urls.append(_url(data))
        names.append(f"{name}.csv")
    got = feature.upload_window_files(a, urls, names, [], [])
    assert len(got["files"]) == 2, got["status"]
    b = AnalysisCache(DatasetStore(tmp_path / "b"))
    page = PageState(datasets=(ref_id,), monitor=MonitorState(windows=tuple(got["files"])),
                     conditions=ControlState(cost_fp=1.0, cost_fn=3.0, prior=0.3,
                                             prior_mode="manual"))
    out = page_monitor(b, page)
    assert out.message == "" and out.report is not None, out.message
    assert [w.name for w in out.report.result.windows] == ["jan", "feb"]
    assert all(w.labelled is None for w in out.report.result.windows)
    assert not list((tmp_path / "a").rglob("*.parquet"))  # the reference is in the bucket too


def test_mfs007_a_store_that_refuses_the_file_is_said_and_the_files_before_stay(
        s3, s3_env, tmp_path, monkeypatch):
    store = DatasetStore(tmp_path / "a")
    first = feature.upload_window_files(store, [_url(CSV)], ["jan.csv"], [], [])
    monkeypatch.setenv("ROC_DASH_STORE_URL", "s3://no-such-bucket-here/p")  # it refuses
    got = feature.upload_window_files(store, [_url(CSV + b"0.9\n")], ["feb.csv"],
                                      first["files"], first["windows"])
    text = json.dumps([c.to_plotly_json() for c in got["status"]], default=str)
    assert "feb.csv: could not be kept" in text and "no-such-bucket-here" in text
    assert got["files"] is feature.no_update and got["windows"] is feature.no_update
    monkeypatch.setenv("ROC_DASH_STORE_URL", f"s3://{S3_BUCKET}/{s3}")
    assert get_file(tmp_path / "b", first["files"][0]).name == "jan.csv"  # still kept
    assert not [p for p in (tmp_path / "a" / "monitor").iterdir() if p.name.startswith(".")]
