"""The app's edges through the documented sub-path set-up (deploy/nginx-subpath.conf in front
of gunicorn at ROC_DASH_URL_PREFIX=/roc/, sign-in by nginx's basic auth): the workers' warm-up
with sign-in on, unknown file paths that nginx must not cache as files, unknown component
suites, and a redirect that keeps the port the browser used."""

from __future__ import annotations

import base64
import re
from urllib.parse import urljoin

import pytest

from .conftest import ROOT, start_server, stop_server
from .test_nginx import _head, nginx_in_front

SUBPATH = ROOT / "deploy" / "nginx-subpath.conf"


@pytest.fixture(scope="module")
def behind_subpath(tmp_path_factory):
    root = tmp_path_factory.mktemp("edges")
    app = start_server(root / "data", root / "gunicorn.log", workers=2,
                       ROC_DASH_URL_PREFIX="/roc/", ROC_DASH_USER_HEADER="X-Forwarded-User",
                       ROC_DASH_TRUSTED_PROXIES="127.0.0.1")
    users = root / "htpasswd"
    users.write_text("ana:{PLAIN}s3cret\n")
    try:
        with nginx_in_front(app, root / "nginx", conf=SUBPATH, basic_auth=users) as front:
            yield app, front
    finally:
        stop_server(app)


AUTH = {"Authorization": "Basic " + base64.b64encode(b"ana:s3cret").decode()}


def test_edg001_with_sign_in_each_worker_compresses_the_scripts_at_start(behind_subpath):
    """Each worker's warm-up answered 401 with sign-in on (its log said so) and compressed
    nothing; now each says how many of the page's scripts it compressed: all of them."""
    from tests.browser.gestures import wait_until

    app, _ = behind_subpath
    done = wait_until(
        lambda: (lines := re.findall(r"(\d+) of (\d+) page scripts compressed",
                                     app.log_text())) and len(lines) >= 2 and lines,
        timeout=60, message="both workers' compression lines")
    assert all(a == b and int(a) >= 5 for a, b in done), done
    assert "answered 401" not in app.log_text()


def test_edg002_unknown_file_paths_are_404s_nginx_does_not_keep(behind_subpath):
    app, front = behind_subpath
    for path in ("/roc/assets//x.css?m=1", "/roc/assets//style.css?m=7",
                 "/roc/_dash-component-suites//plotly/x.js?m=1"):
        replies = [front.request("GET", path, headers=AUTH) for _ in range(2)]
        for r in replies:
            assert r.status == 404, (path, r.status)
            assert "immutable" not in r.headers.get("Cache-Control", ""), path
        assert replies[1].headers.get("X-Cache-Status") != "HIT", path
    for path in ("/roc/_dash-component-suites/nope/x.js",
                 "/roc/_dash-component-suites/dash/nope.js"):
        assert front.request("GET", path, headers=AUTH).status == 404, path
    log = app.log_text()
    assert "Traceback" not in log and "DependencyException" in log, log[-2000:]


def test_edg003_a_redirect_keeps_the_port_the_browser_used(behind_subpath):
    """``/roc//x/`` through nginx on a port that is not 80: the redirect leads to the same
    host and port (it had lost the port: nginx passes Host without it)."""
    _, front = behind_subpath
    r = front.raw(_head("GET", "/roc//x/", Authorization=AUTH["Authorization"]), [],
                  deadline=30)
    assert 300 <= r.status < 400, r
    requested = f"http://127.0.0.1:{front.port}/roc//x/"
    assert urljoin(requested, r.headers["Location"]) == f"http://127.0.0.1:{front.port}/roc/x/"
