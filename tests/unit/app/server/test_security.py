"""Server hardening (roc_dash.app.server.security.harden) and the gunicorn settings.

Flask's test client on the real app (``create_app``) for headers, gzip and malformed callback
requests; a tiny Dash app for callback semantics (200, 204 on PreventUpdate, 400, 500); and a
real gunicorn with the project's config, restarted several times, for the first-page race of
Dash's setup under threaded workers (plotly/dash issue 3971).
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import logging
import os
import re
import runpy
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from dash import Dash, Input, Output, dcc, html
from dash.exceptions import PreventUpdate
from flask import Flask

from roc_dash.app import create_app
from roc_dash.app.server import security
from roc_dash.app.server.security import (
    SERVER_NAME,
    QuietRequestHandler,
    content_security_policy,
    harden,
    inline_script_hashes,
)
from tools.processes import stop_group

ROOT = Path(__file__).resolve().parents[4]
GZIP = {"Accept-Encoding": "gzip, deflate, br"}
CALLBACK = "/_dash-update-component"

EXPECTED_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "SAMEORIGIN",
}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    dash_app = create_app(data_dir=tmp_path_factory.mktemp("data"))
    harden(dash_app.server)
    return dash_app


@pytest.fixture(scope="module")
def index_html(app) -> str:
    return app.server.test_client().get("/").get_data(as_text=True)


@pytest.fixture(scope="module")
def suite_urls(index_html) -> list[str]:
    urls = re.findall(r'<script src="(/_dash-component-suites/[^"]+)"', index_html)
    assert len(urls) >= 5
    return urls


def assert_secure(response) -> dict[str, str]:
    for name, value in EXPECTED_HEADERS.items():
        assert response.headers.get(name) == value, name
    csp = response.headers["Content-Security-Policy"]
    directives = {
        part.split()[0]: part.split()[1:] for part in csp.split(";") if part.strip()
    }
    assert directives["default-src"] == ["'self'"]
    assert directives["object-src"] == ["'none'"]
    assert directives["base-uri"] == ["'self'"]
    assert directives["frame-ancestors"] == ["'self'"]
    assert directives["img-src"] == ["'self'", "data:", "blob:"]
    assert "'unsafe-inline'" in directives["style-src"]
    assert "'unsafe-inline'" not in directives["script-src"]
    assert "'unsafe-eval'" not in directives["script-src"]
    return {k: " ".join(v) for k, v in directives.items()}


# --------------------------------------------------------------------------- headers


def test_sec001_headers_on_the_index_with_its_inline_script_hashed(client):
    response = client.get("/")
    assert response.status_code == 200
    directives = assert_secure(response)
    html_text = response.get_data(as_text=True)
    renderer = re.search(r'<script id="_dash-renderer"[^>]*>(.*?)</script>', html_text, re.S)
    digest = base64.b64encode(hashlib.sha256(renderer.group(1).encode()).digest()).decode()
    assert f"'sha256-{digest}'" in directives["script-src"].split()
    # the JSON config block is data, not script: not hashed
    config = re.search(r'<script id="_dash-config"[^>]*>(.*?)</script>', html_text, re.S)
    config_digest = base64.b64encode(hashlib.sha256(config.group(1).encode()).digest()).decode()
    assert config_digest not in directives["script-src"]


def test_sec002_headers_on_assets_json_errors_and_health(client, suite_urls):
    for response in (
        client.get(suite_urls[0]),
        client.get("/assets/roc_dash.js"),
        client.get("/_dash-layout"),
        client.get("/health"),
        client.get("/_dash-component-suites/dash/no-such-file.js"),
        client.post(CALLBACK, data=b"[]", content_type="application/json"),
    ):
        assert_secure(response)
    # a header a view set itself is kept
    server = Flask(__name__)
    server.add_url_rule("/framed", "framed", lambda: ("ok", 200, {"X-Frame-Options": "DENY"}))
    harden(server)
    assert server.test_client().get("/framed").headers["X-Frame-Options"] == "DENY"


def test_sec003_inline_script_hashes_and_policy_text():
    page = (
        '<script src="/a.js"></script><script type="application/json">{"a": 1}</script>'
        "<script>var a = 1;</script><script type='text/javascript'>b()</script>"
        '<script type="module">c()</script><script>var a = 1;</script>'
    )

    def sha(text: str) -> str:
        return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"

    assert inline_script_hashes(page) == [sha("var a = 1;"), sha("b()"), sha("c()")]
    policy = content_security_policy([sha("x")])
    assert policy.startswith("default-src 'self'; script-src 'self' " + sha("x") + ";")


# --------------------------------------------------------------------------- gzip


def test_sec004_suite_assets_gzipped_and_identical_when_decoded(client, suite_urls):
    total_plain = total_packed = 0
    for url in suite_urls:
        plain = client.get(url)
        packed = client.get(url, headers=GZIP)
        assert plain.status_code == packed.status_code == 200
        assert "Content-Encoding" not in plain.headers
        assert "Accept-Encoding" in plain.headers.get("Vary", "")
        assert packed.headers["Content-Encoding"] == "gzip"
        assert "Accept-Encoding" in packed.headers["Vary"]
        assert int(packed.headers["Content-Length"]) == len(packed.data)
        assert gzip.decompress(packed.data) == plain.data
        assert_secure(packed)
        total_plain += len(plain.data)
        total_packed += len(packed.data)
    assert total_packed < total_plain / 2.5
    # refused encodings and small responses are sent as they are
    refused = client.get(suite_urls[0], headers={"Accept-Encoding": "gzip;q=0, br"})
    assert "Content-Encoding" not in refused.headers
    small = client.get("/health", headers=GZIP)
    assert small.get_json()["status"] == "ok" and "Content-Encoding" not in small.headers


def test_sec005_static_files_compressed_once_per_path_and_version(app, client, suite_urls,
                                                                   monkeypatch):
    calls = []
    real = security.gzip.compress

    def counting(data, *args, **kwargs):
        calls.append(len(data))
        return real(data, *args, **kwargs)

    monkeypatch.setattr(security.gzip, "compress", counting)
    url = suite_urls[-1]
    app.server.extensions["roc_dash.security"]["cache"]._items.clear()
    first = client.get(url, headers=GZIP).data
    second = client.get(url, headers=GZIP).data
    assert first == second and len(calls) == 1
    # another version of the same file (the fingerprint holds version and mtime) is new
    other = re.sub(r"\.v([0-9_]+)m(\d+)\.", lambda m: f".v{m[1]}m{int(m[2]) + 1}.", url)
    assert other != url
    assert client.get(other, headers=GZIP).status_code == 200
    assert len(calls) == 2
    # dynamic responses are compressed every time, never cached
    layout1 = client.get("/_dash-layout", headers=GZIP)
    layout2 = client.get("/_dash-layout", headers=GZIP)
    assert layout1.headers["Content-Encoding"] == "gzip" and len(calls) == 4
    assert gzip.decompress(layout1.data) == gzip.decompress(layout2.data)


def test_sec006_send_file_assets_and_revalidation(client):
    plain = client.get("/assets/roc_dash.js")
    packed = client.get("/assets/roc_dash.js", headers=GZIP)
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.data) == plain.data
    etag = packed.headers["ETag"]
    assert etag.startswith('W/"')
    # the browser revalidates with the weak tag: not modified, no body
    again = client.get("/assets/roc_dash.js", headers={**GZIP, "If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    assert client.get("/assets/roc_dash.js", headers={"If-None-Match": etag}).status_code == 304


# --------------------------------------------------------------------------- callbacks


def callback_body(value) -> dict:
    return {
        "output": "out.children",
        "outputs": {"id": "out", "property": "children"},
        "inputs": [{"id": "inp", "property": "value", "value": value}],
        "changedPropIds": ["inp.value"],
        "state": [],
    }


@pytest.fixture
def tiny():
    dash_app = Dash(__name__)
    dash_app.layout = html.Div([dcc.Input(id="inp"), html.Div(id="out")])

    @dash_app.callback(Output("out", "children"), Input("inp", "value"))
    def show(value):
        if value is None:
            raise PreventUpdate
        if value == "boom":
            raise RuntimeError("a real bug")
        return "x" * int(value)

    @dash_app.server.route("/parse/<text>")
    def parse(text):
        return str(int(text))

    harden(dash_app.server)
    client = dash_app.server.test_client()
    client.get("/")
    return client


def test_sec007_garbage_callback_requests_answer_400_with_one_log_line(client, caplog):
    bodies = [
        (b"garbage", "application/json"),
        (b"[1, 2]", "application/json"),
        (b'"text"', "application/json"),
        (b"{}", "application/json"),
        (b'{"output": "nope.children", "outputs": {}, "inputs": "x"}', "application/json"),
        (b'{"output": 5, "inputs": [], "changedPropIds": 3}', "application/json"),
    ]
    with caplog.at_level(logging.WARNING):
        for data, kind in bodies:
            caplog.clear()
            response = client.post(CALLBACK, data=data, content_type=kind)
            assert response.status_code == 400, data
            assert_secure(response)
            if data != b"garbage":  # invalid JSON is Werkzeug's own 400
                assert response.is_json and response.json["error"] == "bad request"
                assert "Traceback" not in response.get_data(as_text=True)
                records = [r for r in caplog.records if r.name == security.__name__]
                assert len(records) == 1 and records[0].exc_info is None
                line = records[0].getMessage()
                assert "\n" not in line and line.startswith(f"400 for POST {CALLBACK}: ")


def test_sec008_callbacks_still_work_and_real_errors_stay_500(tiny, caplog):
    ok = tiny.post(CALLBACK, json=callback_body("3"))
    assert ok.status_code == 200 and ok.json["response"]["out"]["children"] == "xxx"
    big = tiny.post(CALLBACK, json=callback_body("5000"), headers=GZIP)
    assert big.status_code == 200 and big.headers["Content-Encoding"] == "gzip"
    assert b"x" * 5000 in gzip.decompress(big.data)
    assert tiny.post(CALLBACK, json=callback_body(None)).status_code == 204  # PreventUpdate
    with caplog.at_level(logging.WARNING):
        wrong = tiny.post(CALLBACK, json=callback_body("abc"))  # ValueError in the callback
        assert wrong.status_code == 400
        assert "ValueError: invalid literal for int()" in caplog.text
        assert "in show" in caplog.text
        assert tiny.post(CALLBACK, json=callback_body([1])).status_code == 400  # TypeError
    # other exceptions, and the same types on other routes, are still server errors
    tiny.application.testing = False  # report 500s instead of raising them into the test
    assert tiny.post(CALLBACK, json=callback_body("boom")).status_code == 500
    assert tiny.get("/parse/12").data == b"12"
    assert tiny.get("/parse/twelve").status_code == 500


# --------------------------------------------------------------------------- server header


def test_sec009_dev_server_hides_versions(monkeypatch):
    assert QuietRequestHandler.version_string(object.__new__(QuietRequestHandler)) == SERVER_NAME
    seen = {}

    def fake_run_simple(host, port, application, **options):
        seen.update(options)

    monkeypatch.setattr("werkzeug.serving.run_simple", fake_run_simple)
    dash_app = Dash(__name__)
    dash_app.layout = html.Div()
    harden(dash_app.server)
    dash_app.run(host="127.0.0.1", port=1, debug=False)
    assert seen["request_handler"] is QuietRequestHandler


def test_sec010_harden_twice_is_harden_once():
    dash_app = Dash(__name__)
    dash_app.layout = html.Div()
    server = dash_app.server
    harden(server)
    hooks = len(server.after_request_funcs[None])
    run = server.run
    harden(server)
    assert len(server.after_request_funcs[None]) == hooks and server.run is run


# --------------------------------------------------------------------------- gunicorn


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> tuple[object, dict[str, str]]:
    try:
        with urllib.request.urlopen(url, timeout=15) as response:
            response.read()
            return response.status, dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers)
    except OSError as error:
        return repr(error), {}


def test_sec011_gunicorn_warm_up_hook_runs_dash_setup(tmp_path):
    settings = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    dash_app = create_app(data_dir=tmp_path)
    assert not dash_app._got_first_request["setup_server"]

    class Worker:
        wsgi = dash_app.server
        log = logging.getLogger("gunicorn.error")

    settings["post_worker_init"](Worker())
    assert dash_app._got_first_request["setup_server"]
    assert dash_app.registered_paths  # the scripts it may serve are known


@pytest.mark.server
def test_sec012_gunicorn_first_requests_after_start_all_succeed(tmp_path, suite_urls):
    """Start gunicorn (project config, 2 gthread workers) 5 times; right after each start ask
    for / and every component suite of the page, 3 times each, all at once. Without the
    warm-up hook about one start in three had 500s for the suites."""
    paths = ["/", *suite_urls] * 3
    deadline = time.monotonic() + 50
    failures: list[tuple[int, str, object]] = []
    server_headers: set[str] = set()
    starts = 0
    while starts < 5 and time.monotonic() < deadline - 8:
        port = _free_port()
        env = dict(
            os.environ,
            HOST="127.0.0.1",
            PORT=str(port),
            WEB_CONCURRENCY="2",
            ROC_DASH_THREADS="4",
            ROC_DASH_DATA_DIR=str(tmp_path / f"data{starts}"),
        )
        log_file = tmp_path / f"gunicorn{starts}.log"
        with open(log_file, "wb") as log:
            proc = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "app:server"],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        try:
            while True:  # the master binds before the workers boot: connections queue
                assert proc.poll() is None, log_file.read_text()[-2000:]
                assert time.monotonic() < deadline, "gunicorn did not start in time"
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                    break
                except OSError:
                    time.sleep(0.02)
            with ThreadPoolExecutor(len(paths)) as pool:
                results = list(pool.map(_get, [f"http://127.0.0.1:{port}{p}" for p in paths]))
            for path, (status, headers) in zip(paths, results, strict=True):
                if status != 200:
                    failures.append((starts, path, status))
                server_headers.add(headers.get("Server", ""))
        finally:
            stop_group(proc, timeout=10)
        starts += 1
    assert starts >= 3, "too slow to restart gunicorn at least 3 times"
    assert failures == []
    assert server_headers == {"roc-dash"}  # gunicorn.conf.py hides gunicorn's own name


def test_sec013_fingerprinted_assets_are_cached_for_a_year(tmp_path):
    """Our CSS and JS come as /assets/<file>?m=<mtime>: cached for a year like Dash's own
    versioned suites (a returning page load asks for neither); without the fingerprint, or a
    404, the answer stays revalidated."""
    import re

    from roc_dash.app import create_app

    client = create_app(data_dir=tmp_path).server.test_client()
    page = client.get("/").get_data(as_text=True)
    assets = re.findall(r'"(/assets/[^"?]+\?m=[^"]+)"', page)
    assert {a.split("?")[0] for a in assets} >= {"/assets/style.css", "/assets/roc_dash.js"}
    for url in assets:
        r = client.get(url)
        assert r.status_code == 200 and "max-age=31536000" in r.headers["Cache-Control"], url
    plain = client.get("/assets/style.css")
    assert "max-age=31536000" not in plain.headers.get("Cache-Control", "")
    assert client.get("/assets/nothing.css?m=1").status_code == 404
