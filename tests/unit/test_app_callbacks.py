"""Callbacks as plain functions: upload, bad upload, remove, views."""

import base64

from dash import no_update

from roc_dash.app import create_app
from roc_dash.app.callbacks import apply_upload, remove_dataset, render_views
from roc_dash.app.store import DEMO_ID, DatasetStore

from ..conftest import make_predictions


def _data_url(payload: bytes) -> str:
    return "data:text/csv;base64," + base64.b64encode(payload).decode()


def _good_csv(seed=0):
    return make_predictions(120, seed=seed).to_csv(index=False).encode()


def test_cbk001_upload_adds_a_dataset(tmp_path):
    store = DatasetStore(tmp_path)
    ids, status, error = apply_upload(store, [_data_url(_good_csv())], ["mine.csv"], [DEMO_ID])
    assert ids[0] == DEMO_ID and len(ids) == 2
    assert error == "" and "mine.csv" in status and "120 rows" in status
    fig, _, table = render_views(store, ids)
    names = [t.name for t in fig.data]
    assert any(n.startswith("mine (AUC ") for n in names)
    assert any(n.startswith("logistic regression (AUC ") for n in names)


def test_cbk002_bad_upload_changes_nothing(tmp_path):
    store = DatasetStore(tmp_path)
    ids, status, error = apply_upload(store, [_data_url(b"label,score\n")], ["empty.csv"],
                                      [DEMO_ID])
    assert ids is no_update
    assert "empty.csv" in error
    # all-or-nothing over several files: the good one is not loaded either
    ids, _, error = apply_upload(
        store, [_data_url(_good_csv()), _data_url(b"\x89PNG\r\n\x1a\n\x00\x00")],
        ["good.csv", "picture.png"], [DEMO_ID])
    assert ids is no_update and "picture.png" in error
    assert list((tmp_path / "datasets").glob("*.parquet")) == []


def test_cbk003_same_file_twice_gets_distinct_model_names(tmp_path):
    store = DatasetStore(tmp_path)
    ids, _, _ = apply_upload(store, [_data_url(_good_csv())], ["run.csv"], [])
    ids, _, _ = apply_upload(store, [_data_url(_good_csv(1))], ["run.csv"], ids)
    fig, _, _ = render_views(store, ids)
    names = sorted(t.name.split(" (AUC")[0] for t in fig.data[1:])
    assert names == ["run", "run (2)"]


def test_cbk004_remove_and_missing_dataset(tmp_path):
    store = DatasetStore(tmp_path)
    ids, _, _ = apply_upload(store, [_data_url(_good_csv())], ["a.csv"], [DEMO_ID])
    assert remove_dataset(ids, DEMO_ID) == ids[1:]
    # an id whose files are gone (server data folder wiped) is reported, not a crash
    for f in (tmp_path / "datasets").iterdir():
        f.unlink()
    fig, listing, _ = render_views(store, ids)
    assert len(fig.data) == 1 + 4  # chance line + the demo's four models
    assert "no longer on the server" in str(listing)


def test_cbk005_health_and_layout(tmp_path):
    app = create_app(data_dir=tmp_path)
    client = app.server.test_client()
    assert client.get("/health").status_code == 200
    page = client.get("/")
    assert page.status_code == 200 and b"roc-dash" in page.data
    assert client.get("/assets/style.css").status_code == 200
