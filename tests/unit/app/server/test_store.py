"""Server-side dataset store: ids, round trip, other processes, demo data."""

import multiprocessing as mp

import pandas as pd
import pytest

from roc_dash.app.server.store import DEMO_ID, DatasetNotFound, DatasetStore, default_data_dir
from roc_dash.io import load_predictions
from tests.conftest import make_predictions


def _table(model="m"):
    csv = make_predictions(50, model=model).to_csv(index=False).encode()
    return load_predictions([(f"{model}.csv", csv)]).table



def _as_text(table: pd.DataFrame) -> pd.DataFrame:
    """A stored table read back (model and fold as categories from the Parquet dictionary,
    store.DICTIONARY_COLUMNS) with those columns as the text they were written as."""
    out = table.copy()
    for column in ("model", "fold"):
        if isinstance(out[column].dtype, pd.CategoricalDtype):
            out[column] = out[column].astype(out[column].cat.categories.dtype)
    return out

def test_sto001_round_trip_and_unguessable_ids(tmp_path):
    store = DatasetStore(tmp_path)
    table = _table()
    a = store.put(table, files=["a.csv"])
    b = store.put(table, files=["b.csv"])
    assert a.id != b.id and len(a.id) >= 32
    assert (tmp_path / "datasets" / f"{a.id}.parquet").exists()
    fresh = DatasetStore(tmp_path)  # another worker: empty cache, same folder
    got = fresh.get(a.id)
    assert {c: str(got[c].dtype) for c in ("model", "fold")} == {"model": "category",
                                                                  "fold": "category"}
    pd.testing.assert_frame_equal(_as_text(got), table)  # the same values
    assert fresh.info(a.id).files == ("a.csv",) and fresh.info(a.id).models == ("m",)


def _read_in_child(root, dataset_id, queue):
    table = DatasetStore(root).get(dataset_id)
    queue.put((len(table), table["model"].iloc[0]))


def test_sto002_another_process_reads_the_upload(tmp_path):
    store = DatasetStore(tmp_path)
    info = store.put(_table("cross"), files=["x.csv"])
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    child = ctx.Process(target=_read_in_child, args=(str(tmp_path), info.id, queue))
    child.start()
    child.join(60)
    assert queue.get(timeout=5) == (50, "cross")


def test_sto003_unknown_or_malicious_ids(tmp_path):
    store = DatasetStore(tmp_path)
    for bad in ("../../etc/passwd", "x" * 10, "A" * 40):
        with pytest.raises(DatasetNotFound):
            store.get(bad)
        with pytest.raises(DatasetNotFound):
            store.info(bad)


def test_sto004_demo_is_bundled(tmp_path):
    store = DatasetStore(tmp_path)
    demo = store.get(DEMO_ID)
    assert demo["model"].nunique() >= 4
    assert demo.groupby("model")["fold"].nunique().min() == 10
    assert list(demo.columns[:5]) == ["label", "score", "model", "fold", "weight"]


def test_sto005_data_dir_from_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("ROC_DASH_DATA_DIR", str(tmp_path / "here"))
    assert default_data_dir() == tmp_path / "here"
    monkeypatch.delenv("ROC_DASH_DATA_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert default_data_dir() == tmp_path / "cache" / "roc-dash"


def test_sto010_datasets_expire_and_the_quota_evicts_the_least_recently_used(tmp_path,
                                                                              monkeypatch):
    import os
    import time

    import pytest

    from roc_dash.app.server.store import DatasetNotFound, DatasetStore, StorageFull
    from tests.conftest import make_predictions

    store = DatasetStore(tmp_path)
    table = make_predictions(200).assign(model="m", fold="all", weight=1.0)
    table["label"] = table["label"].astype(bool)
    old = store.put(table, files=["old.csv"])
    new = store.put(table, files=["new.csv"])
    past = time.time() - 40 * 86400
    os.utime(store.dir / f"{old.id}.json", (past, past))
    assert store.sweep() == [old.id]  # 30 days by default
    assert not (store.dir / f"{old.id}.parquet").exists()
    with pytest.raises(DatasetNotFound):
        DatasetStore(tmp_path).get(old.id)
    # a tiny quota: storing a third dataset evicts the least recently used one
    size = store.usage_bytes()
    monkeypatch.setenv("ROC_DASH_DATA_QUOTA_MB", str(1.5 * size / 2**20))
    third = store.put(table, files=["third.csv"])
    assert (store.dir / f"{third.id}.parquet").exists()
    assert not (store.dir / f"{new.id}.parquet").exists()
    monkeypatch.setenv("ROC_DASH_DATA_QUOTA_MB", "0.0001")
    with pytest.raises(StorageFull, match="quota"):
        store.put(table, files=["big.csv"])
    store.delete(third.id)
    assert list(store.dir.glob("*")) == []


def test_sto011_disk_full_leaves_nothing_half_written(tmp_path, monkeypatch):
    import errno

    import pandas as pd
    import pytest

    from roc_dash.app.server.store import DatasetStore, StorageFull
    from tests.conftest import make_predictions

    store = DatasetStore(tmp_path)
    table = make_predictions(50).assign(model="m", fold="all", weight=1.0)

    def full(self, path, **kw):
        with open(path, "wb") as fh:
            fh.write(b"partial")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pd.DataFrame, "to_parquet", full)
    with pytest.raises(StorageFull, match="disk is full"):
        store.put(table, files=["a.csv"])
    assert list(store.dir.glob("*")) == []


def test_sto012_health_reports_the_data_folder(tmp_path, monkeypatch):
    from roc_dash.app import create_app

    app = create_app(data_dir=tmp_path)
    response = app.server.test_client().get("/health")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok"}  # anyone: ok / not ok, nothing more
    # a signed-in user is told the data folder's state
    monkeypatch.setenv("ROC_DASH_USER_HEADER", "X-Forwarded-User")
    signed_in = {"X-Forwarded-User": "ops"}
    body = app.server.test_client().get("/health", headers=signed_in).get_json()
    assert body["status"] == "ok" and body["data_dir_writable"] and body["disk_free_mb"] > 0
    app.store.root = tmp_path / "gone" / "deeper"  # an unusable data folder
    response = app.server.test_client().get("/health")
    assert response.status_code == 503 and response.get_json() == {"status": "degraded"}
    response = app.server.test_client().get("/health", headers=signed_in)
    assert response.status_code == 503 and response.get_json()["data_dir_writable"] is False


def test_sto013_notes_and_saved_views_live_with_the_datasets(tmp_path):
    import pytest

    from roc_dash.app.server.store import DEMO_ID, DatasetStore

    store = DatasetStore(tmp_path)
    me = "key:me"
    ok = "Q" * 32
    assert store.notes([DEMO_ID], me) == {"note": "", "views": []}
    store.save_note([DEMO_ID], "Decision: logistic regression at 0.51", owner=me)
    store.save_view([DEMO_ID], "  cheap  FNs ", "?cfn=10", owner=me)
    store.save_view([DEMO_ID], "cheap FNs", "?cfn=20", owner=me)  # same name: replaced
    store.save_view([DEMO_ID], "prior 5%", "?prior=0.05", owner=me)
    other = DatasetStore(tmp_path)  # another worker sees the same
    got = other.notes([DEMO_ID], me)
    assert got["note"] == "Decision: logistic regression at 0.51"
    assert [(v["name"], v["query"]) for v in got["views"]] == [
        ("cheap FNs", "?cfn=20"), ("prior 5%", "?prior=0.05")]
    # another dataset beside it keeps them (a note and views belong to each dataset)
    both = other.notes([DEMO_ID, ok], me)
    assert (both["note"], both["views"]) == (got["note"], got["views"])
    assert other.notes([ok], me) == {"note": "", "views": []}  # not the other's own
    assert other.notes([ok, DEMO_ID], me) == both  # any order
    other.delete_view([DEMO_ID], "cheap FNs", owner=me)
    assert [v["name"] for v in store.notes([DEMO_ID], me)["views"]] == ["prior 5%"]
    assert len(store.save_note([DEMO_ID], "x" * 9000, owner=me)) == 5000  # bounded
    for k in range(60):
        store.save_view([DEMO_ID], f"v{k}", "?", owner=me)
    assert len(store.notes([DEMO_ID], me)["views"]) == 50
    with pytest.raises(ValueError):
        store.save_view([DEMO_ID], "   ", "?", owner=me)


def test_sto014_sign_in_through_a_proxy_and_owned_datasets(tmp_path, monkeypatch):
    from roc_dash.app import create_app
    from roc_dash.app.server.store import DatasetStore
    from tests.conftest import make_predictions

    monkeypatch.setenv("ROC_DASH_USER_HEADER", "X-Forwarded-User")
    app = create_app(data_dir=tmp_path)
    client = app.server.test_client()
    assert client.get("/").status_code == 401
    assert "Sign in" in client.get("/").get_json()["error"]
    assert client.get("/health").status_code == 200  # the container's check stays open
    assert client.get("/", headers={"X-Forwarded-User": "ana"}).status_code == 200
    # an upload records its owner; only the owner's removal deletes the files
    store = DatasetStore(tmp_path)
    table = make_predictions(50).assign(model="m", fold="all", weight=1.0)
    with app.server.test_request_context("/", headers={"X-Forwarded-User": "ana"},
                                         environ_base={"REMOTE_ADDR": "127.0.0.1"}):
        from roc_dash.app.server.auth import current_user

        info = store.put(table, files=["a.csv"], owner=current_user())
    assert store.info(info.id).owner == "ana"
    assert store.delete(info.id, user="ben") is False
    assert (store.dir / f"{info.id}.parquet").exists()
    assert store.delete(info.id, user="ana") is True
    assert not (store.dir / f"{info.id}.parquet").exists()
    monkeypatch.delenv("ROC_DASH_USER_HEADER")
    assert create_app(data_dir=tmp_path).server.test_client().get("/").status_code == 200


def test_sto015_input_kind_is_kept_and_old_sidecars_load_as_binary(tmp_path):
    import json
    from importlib import resources

    from roc_dash.core.kinds.canonical_kinds import InputKind

    store = DatasetStore(tmp_path)
    data = (resources.files("roc_dash.data") / "multiclass_demo.csv").read_bytes()
    result = load_predictions([("multiclass_demo.csv", data)])
    info = store.put(result.table, files=["multiclass_demo.csv"], kind=result.kind)
    fresh = DatasetStore(tmp_path)
    got = fresh.info(info.id)
    assert got.kind == "multiclass" and got.classes == ("class_0", "class_1", "class_2")
    assert got.reference_class == "class_0" and got.kind_column == "class"
    assert got.input_kind == result.kind
    pd.testing.assert_frame_equal(_as_text(fresh.get(info.id)), result.table)
    # a sidecar written before the kind existed (no kind keys) loads as binary
    plain = store.put(_table(), files=["old.csv"])
    path = tmp_path / "datasets" / f"{plain.id}.json"
    raw = json.loads(path.read_text())
    for key in ("kind", "classes", "reference_class", "weights_are_costs", "kind_column"):
        raw.pop(key)
    raw["from_a_newer_version"] = 1  # unknown keys are skipped
    path.write_text(json.dumps(raw))
    old = DatasetStore(tmp_path).info(plain.id)
    assert old.kind == "binary" and old.classes == () and not old.weights_are_costs
    assert old.input_kind == InputKind()
    costs = store.put(_table(), files=["c.csv"], kind=InputKind(kind="costs",
                                                                 weights_are_costs=True))
    assert DatasetStore(tmp_path).info(costs.id).weights_are_costs


def test_sto016_a_deleted_dataset_is_named_in_the_missing_banner(tmp_path, monkeypatch):
    from roc_dash.app.components import missing_banner

    store = DatasetStore(tmp_path)
    frame = pd.DataFrame({"label": [1, 0, 1, 0], "score": [0.9, 0.2, 0.7, 0.4]})
    kept = store.put(frame.assign(model="m", fold="all", weight=1.0), files=["keep.csv"])
    old = store.put(frame.assign(model="m", fold="all", weight=1.0), files=["preds.csv"])
    store.delete(old.id)
    note = store.gone(old.id)
    assert note["label"] == "preds.csv" and note["why"] == "removed"
    text = str(missing_banner([old.id, "Z" * 32], {old.id: note, "Z" * 32: None}))
    assert "preds.csv (removed on" in text and "not known to this server" in text
    # expiry says so too
    monkeypatch.setenv("ROC_DASH_DATASET_TTL_DAYS", "1")
    import time
    assert kept.id in store.sweep(now=time.time() + 3 * 86400)
    assert store.gone(kept.id)["why"] == "expired"
    assert store.gone("../../etc/passwd") is None


def test_sto020_health_from_many_threads_at_once_stays_ok(tmp_path):
    """CI (stop 22): under load /health answered 503 now and then. Two threads of one worker
    answering at once shared one probe file, and one unlinked the other's: "not writable"."""
    from concurrent.futures import ThreadPoolExecutor

    from roc_dash.app.server.store import DatasetStore

    store = DatasetStore(tmp_path)
    with ThreadPoolExecutor(16) as pool:
        statuses = list(pool.map(lambda _: store.health(details=False)["status"], range(800)))
    assert set(statuses) == {"ok"}
    assert not list(tmp_path.glob(".health-*"))  # every probe removed
