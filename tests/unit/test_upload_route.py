"""The streaming upload route: chunks to disk, size-capped while streaming, one batch per drop."""

import pytest

from roc_dash.app import create_app
from roc_dash.app.server.upload_route import take_batch

TOKEN = "T" * 32


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("ROC_DASH_MAX_UPLOAD_MB", "1")
    return create_app(data_dir=tmp_path)


def test_upl001_files_of_a_drop_arrive_in_order(app):
    client = app.server.test_client()
    for i, (name, body) in enumerate([("a.csv", b"label,score\n1,0.9\n"), ("b.csv", b"x" * 5000)]):
        r = client.post(f"/upload?batch={TOKEN}&index={i}&name={name}", data=body)
        assert r.status_code == 200 and r.get_json() == {"ok": True, "bytes": len(body)}
    files = take_batch(app.store, TOKEN)
    assert files == [("a.csv", b"label,score\n1,0.9\n"), ("b.csv", b"x" * 5000)]
    assert take_batch(app.store, TOKEN) is None  # taken once, then gone


def test_upl002_too_large_is_refused_while_streaming(app):
    client = app.server.test_client()
    big = b"0" * (2 * 2**20)
    r = client.post(f"/upload?batch={TOKEN}&index=0&name=big.csv", data=big)
    assert r.status_code == 413
    assert "big.csv" in r.get_json()["error"] and "ROC_DASH_MAX_UPLOAD_MB" in r.get_json()["error"]
    assert not (app.store.root / "incoming" / TOKEN).exists()

    # without a Content-Length (a chunked body), the cap applies while the bytes arrive
    import io

    r = client.post(f"/upload?batch={TOKEN}&index=0&name=stream.csv",
                    input_stream=io.BytesIO(b"1" * (3 * 2**20)),
                    environ_overrides={"wsgi.input_terminated": True})
    assert r.status_code == 413 and "stream.csv" in r.get_json()["error"]
    assert not (app.store.root / "incoming" / TOKEN).exists()


def test_upl003_bad_requests_and_cancel(app):
    client = app.server.test_client()
    assert client.post("/upload?batch=short&index=0&name=a.csv", data=b"x").status_code == 400
    assert client.post(f"/upload?batch={TOKEN}&index=99&name=a.csv", data=b"x").status_code == 400
    r = client.post(f"/upload?batch={TOKEN}&index=0&name=../../etc/passwd", data=b"x")
    assert r.status_code == 200
    assert take_batch(app.store, TOKEN) == [("passwd", b"x")]  # never a path
    client.post(f"/upload?batch={TOKEN}&index=0&name=a.csv", data=b"x")
    assert client.delete(f"/upload?batch={TOKEN}").status_code == 200
    assert take_batch(app.store, TOKEN) is None
    assert take_batch(app.store, "../x") is None and take_batch(app.store, None) is None


def test_upl004_an_upload_is_counted_while_another_batch_is_cancelled(app, monkeypatch):
    """CI once saw a 500: the incoming folder was walked while another client's Cancel deleted
    its batch (FileNotFoundError from the walk). A batch that vanishes mid-walk is skipped."""
    import os
    import shutil

    from roc_dash.app.server import store as store_module

    incoming = app.store.root / "incoming"
    doomed = incoming / ("D" * 32)
    doomed.mkdir(parents=True)
    (doomed / "00.part").write_bytes(b"x" * 100)
    kept = incoming / ("K" * 32)
    kept.mkdir()
    (kept / "00.part").write_bytes(b"y" * 7)
    real_scandir = os.scandir

    def scandir_then_cancel(path):
        if isinstance(path, int):  # shutil.rmtree's own walk, by file descriptor
            return real_scandir(path)
        entries = list(real_scandir(path))
        if os.fspath(path) == os.fspath(incoming) and doomed.exists():
            shutil.rmtree(doomed)  # the other client's DELETE lands between list and read
        return iter(entries)

    monkeypatch.setattr(store_module.os, "scandir", scandir_then_cancel)
    assert store_module.folder_bytes(incoming) == 7
    monkeypatch.setattr(store_module.os, "scandir", real_scandir)
    client = app.server.test_client()
    r = client.post(f"/upload?batch={TOKEN}&index=0&name=a.csv", data=b"label,score\n1,0.9\n")
    assert r.status_code == 200, r.get_data(as_text=True)
