"""Server-side dataset store: ids, round trip, other processes, demo data."""

import multiprocessing as mp

import pandas as pd
import pytest

from roc_dash.app.store import DEMO_ID, DatasetNotFound, DatasetStore, default_data_dir
from roc_dash.io import load_predictions

from ..conftest import make_predictions


def _table(model="m"):
    csv = make_predictions(50, model=model).to_csv(index=False).encode()
    return load_predictions([(f"{model}.csv", csv)]).table


def test_sto001_round_trip_and_unguessable_ids(tmp_path):
    store = DatasetStore(tmp_path)
    table = _table()
    a = store.put(table, files=["a.csv"])
    b = store.put(table, files=["b.csv"])
    assert a.id != b.id and len(a.id) >= 32
    assert (tmp_path / "datasets" / f"{a.id}.parquet").exists()
    fresh = DatasetStore(tmp_path)  # another worker: empty cache, same folder
    pd.testing.assert_frame_equal(fresh.get(a.id), table)
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
