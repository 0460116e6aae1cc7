"""How the page's static files are delivered (issue 14, page load under a stampede of first
visits): cache headers a returning browser obeys, gzip made once per file and process (one
thread compresses, the others wait for it) and made before the first visitor arrives
(``security.precompress_static``, called by gunicorn's ``post_worker_init``).

Flask's test client on the real app; the compressed bytes are checked against
``gzip.decompress`` of what the app sends uncompressed, and calls to ``gzip.compress`` are
counted to see who compresses.
"""

from __future__ import annotations

import gzip
import logging
import re
import runpy
import threading
import time
from pathlib import Path

import pytest

from roc_dash.app import create_app
from roc_dash.app.server import security
from roc_dash.app.server.security import LATE_SUITES, _CompressedCache, precompress_static

ROOT = Path(__file__).resolve().parents[4]
GZIP = {"Accept-Encoding": "gzip, deflate, br"}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return create_app(data_dir=tmp_path_factory.mktemp("data"))


def page_refs(client) -> list[str]:
    html = client.get("/").get_data(as_text=True)
    return re.findall(r'<(?:script[^>]*\ssrc|link[^>]*\shref)="(/[^"]+)"', html)


@pytest.fixture
def counted(monkeypatch):
    calls: list[int] = []
    real = security.gzip.compress

    def counting(data, *args, **kwargs):
        calls.append(len(data))
        return real(data, *args, **kwargs)

    monkeypatch.setattr(security.gzip, "compress", counting)
    return calls


def test_pgl001_precompressed_files_cost_no_compression_when_asked(app, client, counted):
    cache = app.server.extensions["roc_dash.security"]["cache"]
    cache._items.clear()
    statuses = precompress_static(app.server)
    late = ["/" + p for p in LATE_SUITES]
    # every script and style sheet of the page, and the scripts loaded later, exist
    assert set(statuses) == {*page_refs(client), *late}
    assert set(statuses.values()) == {200}, statuses
    made = len(counted)
    assert made >= len(late)  # each compressible file at least once...
    for path in statuses:  # ...and asking for them again compresses nothing
        packed = client.get(path, headers=GZIP)
        plain = client.get(path)
        assert packed.status_code == plain.status_code == 200
        if packed.headers.get("Content-Encoding") == "gzip":
            assert gzip.decompress(packed.data) == plain.data, path
    assert len(counted) == made
    plotly = "/_dash-component-suites/plotly/package_data/plotly.min.js"
    assert any(size > 3_000_000 for size in counted)  # plotly.js was among them
    assert client.get(plotly, headers=GZIP).headers["Content-Encoding"] == "gzip"


def test_pgl002_one_thread_compresses_a_key_the_others_wait():
    cache = _CompressedCache(1 << 20)
    calls, started = [], threading.Event()

    def make():
        calls.append(1)
        started.set()
        time.sleep(0.2)  # slow enough for every other thread to arrive meanwhile
        return b"packed"

    results: list[bytes] = []
    first = threading.Thread(target=lambda: results.append(cache.get_or_make(("k",), make)))
    first.start()
    started.wait(5)
    others = [threading.Thread(target=lambda: results.append(cache.get_or_make(("k",), make)))
              for _ in range(7)]
    for t in [*others]:
        t.start()
    for t in [first, *others]:
        t.join(10)
    assert results == [b"packed"] * 8 and len(calls) == 1
    # another key is made by its own thread; a failure lets the next caller make it
    assert cache.get_or_make(("other",), lambda: b"o") == b"o"

    def broken():
        raise OSError("disk")

    with pytest.raises(OSError):
        cache.get_or_make(("bad",), broken)
    assert cache.get_or_make(("bad",), lambda: b"fine") == b"fine"


def test_pgl003_every_script_the_page_names_is_kept_a_year_the_late_ones_revalidated(client):
    """A returning browser asks for none of the files the page names (fingerprinted: a year);
    plotly.min.js and dcc's async chunks have no fingerprint: ``no-cache`` with an ETag, and
    the browser's copy is confirmed with a 304 and no body."""
    refs = page_refs(client)
    icon = [p for p in refs if "_favicon.ico?v=" in p]
    assert len(icon) == 1  # named by Dash's version alone: kept a day, not a year
    assert client.get(icon[0]).headers["Cache-Control"] == "public, max-age=86400"
    for path in set(refs) - set(icon):
        r = client.get(path, headers=GZIP)
        assert "max-age=31536000" in r.headers.get("Cache-Control", ""), path
    for late in LATE_SUITES:
        r = client.get("/" + late, headers=GZIP)
        assert r.status_code == 200
        assert r.headers["Cache-Control"] == "no-cache", late
        etag = r.headers["ETag"]
        again = client.get("/" + late, headers={**GZIP, "If-None-Match": etag})
        assert again.status_code == 304 and again.data == b""
    # dynamic answers get no cache header from us
    assert "Cache-Control" not in client.get("/_dash-layout").headers


def test_pgl004_gunicorn_worker_start_fills_the_gzip_cache(tmp_path, counted):
    settings = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    dash_app = create_app(data_dir=tmp_path)

    class Worker:
        wsgi = dash_app.server
        log = logging.getLogger("gunicorn.error")

    settings["post_worker_init"](Worker())
    started = [t for t in threading.enumerate() if t.name == settings["PRECOMPRESS_THREAD"]]
    assert started  # the worker takes connections while its scripts are compressed
    for thread in started:
        thread.join(60)
    assert any(size > 3_000_000 for size in counted)  # plotly.js compressed at start
    cache = dash_app.server.extensions["roc_dash.security"]["cache"]
    assert any(key[0].endswith("plotly.min.js") for key in cache._items)
    before = len(counted)
    client = dash_app.server.test_client()
    for late in LATE_SUITES:
        client.get("/" + late, headers=GZIP)
    assert len(counted) == before


def test_pgl005_precompression_under_a_url_prefix(tmp_path, counted):
    """Served at /roc/ (ROC_DASH_URL_PREFIX), the page's files and the late scripts are
    found under the prefix and compressed at start as at the root."""
    dash_app = create_app(data_dir=tmp_path, url_prefix="/roc/")
    statuses = precompress_static(dash_app.server, "/roc/")
    assert {"/roc/" + late for late in LATE_SUITES} <= set(statuses)
    assert all(path.startswith("/roc/") for path in statuses)
    assert set(statuses.values()) == {200}, statuses
    assert any(size > 3_000_000 for size in counted)
