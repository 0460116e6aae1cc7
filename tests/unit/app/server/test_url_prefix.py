"""Serving under a sub-path (issue 19, item 3): with ``ROC_DASH_URL_PREFIX=/roc/`` every route
answers under ``/roc/`` and nothing at the root; the prefix is checked; the default is the
root. Through Flask's test client, with callback requests as the page sends them."""

from __future__ import annotations

import json
import re
import secrets

import pytest

from roc_dash.app import create_app
from roc_dash.app.server.auth import OWNER_HEADER, owner_of_key
from roc_dash.app.server.store import DEMO_ID
from roc_dash.app.server.url_prefix import check_url_prefix, url_prefix
from roc_dash.app.state import ControlState
from tests.conftest import make_predictions
from tools.dash_requests import callback_body, callback_specs

PREFIX = "/roc/"


@pytest.fixture
def app(app_with):
    return app_with(ROC_DASH_URL_PREFIX=PREFIX)


def _page_urls(html: str) -> list[str]:
    """Every script and stylesheet the page loads, as its HTML names them."""
    return re.findall(r'<(?:script|link)[^>]*?(?:src|href)="([^"]+)"', html)


def _dash_config(html: str) -> dict:
    found = re.search(r'<script id="_dash-config" type="application/json">(.*?)</script>', html,
                      re.S)
    assert found, "the page carries Dash's config"
    return json.loads(found.group(1))


def _upload(client, prefix: str, csv: bytes, name: str = "mine.csv") -> str:
    batch = secrets.token_urlsafe(24)
    r = client.post(f"{prefix}upload?batch={batch}&index=0&name={name}", data=csv)
    assert r.status_code == 200, r.get_data(as_text=True)
    return batch


def _callback(client, app, prefix: str, first_output: str, values: dict, changed: list[str],
              headers: dict | None = None):
    body = callback_body(callback_specs(app), first_output, values, changed)
    r = client.post(f"{prefix}_dash-update-component", json=body, headers=headers or {})
    assert r.status_code == 200, r.get_data(as_text=True)[:500]
    return r.get_json()["response"]


def test_pfx001_prefixes_are_checked_with_a_message_that_says_what_to_write():
    for good in ("/", "/roc/", "/tools/roc-dash/", "/a.b_c~d/"):
        assert check_url_prefix(good) == good
    refused = {
        "roc/": "start and end with '/'", "/roc": "start and end with '/'",
        "roc": "start and end with '/'", "": "start and end with '/'",
        "/../": "'..'", "/roc/../etc/": "'..'", "/./": "'..'",
        "//": "empty segment", "/roc//x/": "empty segment",
        "/r c/": "'r c'", "/%2e%2e/": "'%2e%2e'", "/roc?x=1/": "'roc?x=1'",
    }
    for bad, says in refused.items():
        with pytest.raises(ValueError) as caught:
            check_url_prefix(bad)
        message = str(caught.value)
        assert "ROC_DASH_URL_PREFIX" in message and says in message and "/roc/" in message, bad
        assert repr(bad) in message, "the message quotes what was given"


def test_pfx002_the_setting_comes_from_the_argument_else_the_environment(monkeypatch):
    monkeypatch.delenv("ROC_DASH_URL_PREFIX", raising=False)
    assert url_prefix() == "/"
    monkeypatch.setenv("ROC_DASH_URL_PREFIX", " /team/roc/ ")
    assert url_prefix() == "/team/roc/"
    assert url_prefix("/other/") == "/other/"  # the argument wins
    monkeypatch.setenv("ROC_DASH_URL_PREFIX", "roc")
    with pytest.raises(ValueError, match="ROC_DASH_URL_PREFIX must start and end"):
        create_app(data_dir=None)
    with pytest.raises(ValueError, match="url_prefix may not contain"):
        create_app(url_prefix="/../")


def test_pfx003_every_route_is_under_the_prefix(app):
    rules = {rule.rule: rule.endpoint for rule in app.server.url_map.iter_rules()}
    outside = [r for r, endpoint in rules.items()
               if not r.startswith(PREFIX) and endpoint != "static"]
    assert outside == []
    for path in ("health", "ready", "upload", "_dash-update-component", "_dash-layout",
                 "_dash-dependencies", "assets/<path:filename>"):
        assert PREFIX + path in rules, path


def test_pfx004_the_page_and_everything_it_loads_answer_under_the_prefix(app):
    client = app.server.test_client()
    page = client.get(PREFIX)
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    config = _dash_config(html)
    assert config["url_base_pathname"] == PREFIX
    assert config["requests_pathname_prefix"] == PREFIX
    urls = _page_urls(html)
    assert any("/assets/roc_dash_page.js" in u for u in urls)  # the upload's script
    assert any("_dash-component-suites" in u for u in urls)
    for url in urls:
        assert url.startswith(PREFIX), url
        assert client.get(url).status_code == 200, url
        assert client.get(url[len(PREFIX) - 1:]).status_code == 404, url  # not at the root
    for path in ("_dash-layout", "_dash-dependencies"):
        assert client.get(PREFIX + path).status_code == 200
        assert client.get("/" + path).status_code == 404
    # fingerprinted assets keep their year-long cache under the prefix too
    script = next(u for u in urls if "/assets/roc_dash.js?m=" in u)
    assert "immutable" in client.get(script).headers["Cache-Control"]
    assert client.get(PREFIX[:-1]).status_code in (301, 308)  # /roc: to /roc/


def test_pfx005_upload_callbacks_health_and_ready_under_the_prefix_404_at_the_root(app):
    client = app.server.test_client()
    frame = make_predictions(120, seed=5, model="mine")
    csv = frame.to_csv(index=False).encode()
    batch = _upload(client, PREFIX, csv)
    out = _callback(client, app, PREFIX, "datasets.data",
                    {"streamed-upload.data": {"batch": batch, "stamp": 1},
                     "datasets.data": [DEMO_ID]}, ["streamed-upload.data"])
    datasets = out["datasets"]["data"]
    assert datasets and datasets[-1] != DEMO_ID
    stored = app.store.get(datasets[-1])
    assert sorted(stored["score"].tolist()) == sorted(frame["score"].tolist())
    cancelled = secrets.token_urlsafe(24)
    assert client.delete(f"{PREFIX}upload?batch={cancelled}").get_json() == {"ok": True}
    for probe in ("health", "ready"):
        r = client.get(PREFIX + probe)
        assert r.status_code == 200 and r.get_json() == {"status": "ok"}, probe
    # nothing at the root: the page, the probes, the upload, the callbacks
    assert client.get("/").status_code == 404
    for path in ("/health", "/ready", "/static/x.js", "/assets/roc_dash.js",
                 "/_dash-component-suites/dash/deps/react@18.js"):
        assert client.get(path).status_code == 404, path
    r = client.post(f"/upload?batch={secrets.token_urlsafe(24)}&index=0&name=x.csv", data=csv)
    assert r.status_code == 404
    body = callback_body(callback_specs(app), "datasets.data", {"datasets.data": [DEMO_ID]},
                         ["datasets.data"])
    assert client.post("/_dash-update-component", json=body).status_code == 404


def test_pfx006_a_big_upload_streams_under_the_prefix(app, monkeypatch):
    """The body guard lets only the upload route take more than ROC_DASH_MAX_BODY_KB: under
    the prefix it must know the route by its prefixed path (else 413 at 64 KiB here)."""
    monkeypatch.setenv("ROC_DASH_MAX_BODY_KB", "64")
    client = app.server.test_client()
    frame = make_predictions(40_000, seed=6)
    csv = frame.to_csv(index=False).encode()
    assert len(csv) > 4 * 64 * 1024
    _upload(client, PREFIX, csv, "big.csv")
    small = callback_body(callback_specs(app), "datasets.data", {"datasets.data": [DEMO_ID]},
                          ["datasets.data"])
    padded = dict(small, pad="x" * 70 * 1024)  # any other request stays capped
    assert client.post(f"{PREFIX}_dash-update-component", json=padded).status_code == 413


def test_pfx007_sign_in_leaves_health_and_ready_open_under_the_prefix(app, monkeypatch):
    monkeypatch.setenv("ROC_DASH_USER_HEADER", "X-Forwarded-User")
    client = app.server.test_client()
    assert client.get(PREFIX).status_code == 401
    for probe in ("health", "ready"):
        r = client.get(PREFIX + probe)
        assert r.status_code == 200 and r.get_json() == {"status": "ok"}, probe
    signed_in = client.get(PREFIX + "ready", headers={"X-Forwarded-User": "ops"}).get_json()
    assert signed_in["status"] == "ok" and signed_in["reasons"] == []
    assert client.get(PREFIX, headers={"X-Forwarded-User": "ops"}).status_code == 200


def test_pfx008_the_html_report_links_keep_the_prefix(app):
    """The report's links (the view, its saved views) are built from the page's address,
    which holds the prefix the browser sees."""
    key = "K" * 32  # this browser's key: saved views on the demo are per browser
    app.store.save_view([DEMO_ID], "cheap FNs", "?cfn=10", owner=owner_of_key(key))
    client = app.server.test_client()
    href = "https://team.example/roc/?cfn=5&pin=a|0.5"  # as the page was opened
    out = _callback(client, app, PREFIX, "download.data",
                    {"export-html.n_clicks": 1, "datasets.data": [DEMO_ID],
                     "models.value": [f"{DEMO_ID}/logistic regression"], "url.href": href,
                     "conditions.data": ControlState(cost_fn=7.0).to_store()},
                    ["export-html.n_clicks"], headers={OWNER_HEADER: key})
    html = out["download"]["data"]["content"]
    links = re.findall(r'<a href="([^"]+)"', html)
    # the view's link: the page's address with the page's state as it is now
    view = next(x for x in links if x.startswith("https://team.example/roc/?v=2&amp;"))
    assert "cfn=7" in view and "model=demo%2Flogistic+regression" in view
    assert "https://team.example/roc/?cfn=10" in links


def test_pfx009_the_default_is_the_root(tmp_path, monkeypatch):
    monkeypatch.delenv("ROC_DASH_URL_PREFIX", raising=False)
    app = create_app(data_dir=tmp_path)
    client = app.server.test_client()
    assert client.get("/").status_code == 200
    assert _dash_config(client.get("/").get_data(as_text=True))["requests_pathname_prefix"] == "/"
    for probe in ("/health", "/ready"):
        assert client.get(probe).status_code == 200
    _upload(client, "/", b"label,score\n1,0.9\n0,0.2\n")


def test_pfx010_serve_refuses_a_bad_prefix_without_a_traceback(monkeypatch, capsys):
    from roc_dash.cli import main

    assert main(["serve", "--url-prefix", "roc"]) == 2
    err = capsys.readouterr().err
    assert "--url-prefix must start and end with '/'" in err and "Traceback" not in err
    monkeypatch.setenv("ROC_DASH_URL_PREFIX", "/a/../b/")
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert "ROC_DASH_URL_PREFIX may not contain" in err


def test_pfx011_gunicorn_warms_the_page_under_the_prefix(app, caplog):
    import logging
    import runpy
    from pathlib import Path

    settings = runpy.run_path(str(Path(__file__).resolve().parents[4] / "gunicorn.conf.py"))

    class Worker:
        wsgi = app.server
        log = logging.getLogger("gunicorn.error")

    with caplog.at_level(logging.WARNING, logger="gunicorn.error"):
        settings["post_worker_init"](Worker())
    assert app._got_first_request["setup_server"]
    assert "warm-up" not in caplog.text  # the page answered 200, not / with 404
