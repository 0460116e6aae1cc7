"""An upload is read once: each file hashed once, told apart from the others once, parsed
once into the canonical table; reading the stored table back parses nothing."""

from __future__ import annotations

import hashlib
import types

import numpy as np
import pytest
from dash import no_update

from roc_dash.app.features.data import apply_upload, upload_with_label
from roc_dash.app.server.store import DatasetStore
from roc_dash.io import distinct_files as distinct_module
from roc_dash.io import loading
from roc_dash.io.distinct_files import distinct_files
from tests.conftest import make_predictions


def _csv(frame) -> bytes:
    return frame.to_csv(index=False).encode()


@pytest.fixture
def counts(monkeypatch):
    """Calls of sha256 (the content digest), of the sorting of files by contents and of the
    parsing of one file, counted wherever they are made from."""
    seen = {"sha256": 0, "distinct": 0, "parse": 0}

    def sha256(data=b""):
        seen["sha256"] += 1
        return hashlib.sha256(data)

    import roc_dash.io.canonical as canonical

    monkeypatch.setattr(canonical, "hashlib", types.SimpleNamespace(sha256=sha256))
    real_distinct, real_parse = distinct_files, loading._load_one

    def counted_distinct(*args, **kwargs):
        seen["distinct"] += 1
        return real_distinct(*args, **kwargs)

    def counted_parse(*args, **kwargs):
        seen["parse"] += 1
        return real_parse(*args, **kwargs)

    monkeypatch.setattr("roc_dash.app.features.data.distinct_files", counted_distinct,
                        raising=False)
    monkeypatch.setattr(distinct_module, "distinct_files", counted_distinct)
    monkeypatch.setattr(loading, "_load_one", counted_parse)
    return seen


def test_uro001_a_drop_is_hashed_and_parsed_once_per_file(store, counts):
    first = _csv(make_predictions(80, seed=1, model="a"))
    second = _csv(make_predictions(80, seed=2, model="b"))
    out = apply_upload(store, [("a.csv", first), ("b.csv", second), ("a2.csv", first)], [])
    assert out.error == "" and "a2.csv: dropped, identical to a.csv" in out.status
    # three files: three digests (the old path took five), two parses, one sorting
    assert counts["sha256"] == 3
    assert counts["parse"] == 2
    assert counts["distinct"] == 1
    info = store.info(out.dataset_ids[-1])
    assert info.n_rows == 160 and info.files == ("a.csv", "b.csv")
    assert info.digests == tuple(hashlib.sha256(d).hexdigest() for d in (first, second))
    # the same file again: recognised by its one digest, not parsed
    again = apply_upload(store, [("copy.csv", second)], out.dataset_ids)
    assert again.dataset_ids is no_update and "Already loaded: copy.csv" in again.status
    assert counts["sha256"] == 4 and counts["parse"] == 2 and counts["distinct"] == 2


def test_uro002_a_label_retry_hashes_each_file_once(store, counts):
    frame = make_predictions(60, seed=5)
    plain = _csv(frame)
    # the box says "cat" but the file has 0/1 labels: read twice (with and without the box),
    # hashed once
    out = upload_with_label(store, [("plain.csv", plain)], [], "cat")
    assert out.error == "" and "does not apply" in out.status
    assert counts["sha256"] == 1
    assert counts["parse"] == 2


def test_uro003_the_stored_table_is_read_back_without_parsing(tmp_path, counts):
    store = DatasetStore(tmp_path, cache_mb=1e-6)  # nothing kept in memory: read from disk
    frame = make_predictions(120, seed=7, model="m")
    frame["label"] = np.where(frame["label"] == 1, 1, 0)
    out = apply_upload(store, [("m.csv", _csv(frame))], [])
    parsed, hashed = counts["parse"], counts["sha256"]
    table = store.get(out.dataset_ids[-1])
    assert counts["parse"] == parsed == 1 and counts["sha256"] == hashed == 1
    assert len(table) == 120
    np.testing.assert_array_equal(table["score"].to_numpy(), frame["score"].to_numpy())
    np.testing.assert_array_equal(table["label"].to_numpy(), frame["label"].to_numpy() == 1)


def test_uro004_distinct_files_sorts_by_contents_in_order():
    a, b = b"label,score\n1,0.9\n0,0.1\n", b"label,score\n1,0.8\n0,0.2\n"
    known = {hashlib.sha256(b).hexdigest(): "dataset B"}
    files = distinct_files([("a.csv", a), ("b.csv", b), ("a again.csv", a)], known)
    assert [f.name for f in files.fresh] == ["a.csv"]
    assert files.known == (("b.csv", "dataset B"),)
    assert files.twins == (("a again.csv", "a.csv"),)
    assert files.digests == (hashlib.sha256(a).hexdigest(),)
    # a sorted upload is read as it is: the table of the fresh file only
    result = loading.load_predictions(files)
    assert len(result.table) == 2 and result.digests == files.digests
