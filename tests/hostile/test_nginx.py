"""The documented container set-up (deploy/nginx.conf in front of gunicorn) with the system's
nginx, on loopback: the file as shipped, with only its lines marked "# test:" (addresses,
paths) replaced. nginx takes whole requests before gunicorn sees them: slow senders and
oversized bodies never reach a worker, refusals come back as the app's JSON, and the sign-in
header is nginx's alone."""

from __future__ import annotations

import contextlib
import gzip
import json
import re
import secrets
import socket
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.browser.gestures import wait_until
from tools.nginx import NGINX, nginx_conf
from tools.processes import stop_group

from .conftest import Page, Server, free_port, start_server, stop_server, unharmed

MB = 2**20


@contextlib.contextmanager
def nginx_in_front(app: Server, folder: Path, **kw):
    if NGINX is None:
        pytest.skip("nginx is not installed (make nginx-deps)")
    folder.mkdir(parents=True, exist_ok=True)
    port = free_port()
    conf = folder / "nginx.conf"
    conf.write_text(nginx_conf(app.port, port, folder, **kw))
    log = open(folder / "nginx.log", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen([NGINX, "-c", str(conf), "-p", str(folder), "-g", "daemon off;"],
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    front = Server(proc=proc, port=port, data_dir=app.data_dir, log=folder / "nginx.log",
                   workers_wanted=0)
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, (folder / "nginx.log").read_text()
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "nginx did not start"
                time.sleep(0.1)
        yield front
    finally:
        stop_group(proc, timeout=10)
        log.close()


@pytest.fixture(scope="module")
def app_behind_nginx(tmp_path_factory):
    """The app with sign-in by header, believed from 127.0.0.1 (nginx); nginx without
    sign-in of its own, so no request may carry a user."""
    root = tmp_path_factory.mktemp("nginx")
    server = start_server(root / "data", root / "gunicorn.log", workers=2,
                          ROC_DASH_USER_HEADER="X-Forwarded-User",
                          ROC_DASH_TRUSTED_PROXIES="127.0.0.1")
    try:
        yield server, root
    finally:
        stop_server(server)


def _head(method, path, **headers):
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
    lines += [f"{k.replace('_', '-')}: {v}" for k, v in headers.items()]
    return "\r\n".join(lines)


def test_hst040_the_client_cannot_set_the_user_header(app_behind_nginx):
    app, root = app_behind_nginx
    with nginx_in_front(app, root / "plain") as front:
        # nginx signs no one in: the header a client sends is removed, the app says 401
        r = front.request("GET", "/", headers={"X-Forwarded-User": "admin"})
        assert r.status == 401 and "Sign in first" in r.json()["error"]
        health = front.request("GET", "/health", headers={"X-Forwarded-User": "admin"})
        assert health.status == 200 and health.json() == {"status": "ok"}


def test_hst041_sign_in_at_nginx_sets_the_user(app_behind_nginx):
    import base64

    app, root = app_behind_nginx
    users = root / "htpasswd"
    users.write_text("ana:{PLAIN}s3cret\n")
    auth = {"Authorization": "Basic " + base64.b64encode(b"ana:s3cret").decode()}
    with nginx_in_front(app, root / "auth", basic_auth=users) as front:
        assert front.request("GET", "/").status == 401  # nginx asks for a password
        # the probes stay open (the app tells strangers ok / not ok and nothing more)
        # (also with a made-up password: nginx does not check it there, and must not pass
        # its user name on as the signed-in user: stranger review 2)
        wrong = {"Authorization": "Basic " + base64.b64encode(b"anyone:wrong").decode()}
        for probe in ("/health", "/ready"):
            for headers in ({}, wrong):
                answer = front.request("GET", probe, headers=headers)
                assert answer.status == 200, (probe, headers)
                assert json.loads(answer.body) == {"status": "ok"}, (probe, answer.body)
        # signed in as ana, claiming to be ben: the app sees ana
        ana = Page(front, headers={**auth, "X-Forwarded-User": "ben"})
        ana.upload("anas.csv", b"label,score\n1,0.9\n0,0.3\n1,0.7\n0,0.2\n")
        from roc_dash.app.server.store import DatasetStore

        assert DatasetStore(app.data_dir).info(ana.datasets[-1]).owner == "ana"


def test_hst042_nginx_takes_the_slow_and_the_big_ones(app_behind_nginx):
    """24 uploads trickling one byte every half second and 3 bodies of 300 MB, through
    nginx: none reaches gunicorn (its log shows no such request), /health through nginx
    answers at once, the big ones get nginx's 413 in the app's JSON words."""
    app, root = app_behind_nginx
    with nginx_in_front(app, root / "slow") as front:
        before = app.log_text().count("POST /upload")
        stop = time.monotonic() + 6

        def trickle(k):
            head = _head("POST", f"/upload?batch={secrets.token_urlsafe(24)}&index=0&name=s{k}",
                         Content_Type="application/octet-stream", Content_Length=10_000)
            chunks = (b"1" for _ in range(10_000) if time.monotonic() < stop)
            return front.raw(head, chunks, pause=0.5, deadline=10)

        def big(_):
            head = _head("POST", "/upload?batch=" + secrets.token_urlsafe(24) + "&index=0&name=b",
                         Content_Type="application/octet-stream", Content_Length=300 * MB)
            return front.raw(head, (b"x" * MB for _ in range(300)), pause=0.01, deadline=30)

        with unharmed(app), ThreadPoolExecutor(28) as pool:
            slow = [pool.submit(trickle, k) for k in range(24)]
            large = [pool.submit(big, k) for k in range(3)]
            t0 = time.monotonic()
            health = front.request("GET", "/health", timeout=10)
            assert health.status == 200 and time.monotonic() - t0 < 2
            for f in large:
                r = f.result()
                assert r.status == 413, r
                assert "larger than this server accepts" in r.json()["error"]
            for f in slow:
                f.result()
        assert app.log_text().count("POST /upload") == before  # gunicorn saw none of them


def test_hst043_nginx_serves_the_versioned_scripts_from_its_cache(app_behind_nginx):
    """A stampede of first visits through nginx: 16 browsers at once ask for a versioned
    Dash script and our fingerprinted style sheet; gunicorn answers each file once (its
    access log), nginx the rest from its cache, all bodies identical to the app's own. What
    the app marks no-cache (plotly.min.js) goes to the app every time; the callbacks and the
    layout are never cached; without signing in at nginx the cached files are refused too."""
    import base64

    app, root = app_behind_nginx
    users = root / "htpasswd-cache"
    users.write_text("ana:{PLAIN}s3cret\n")
    auth = {"Authorization": "Basic " + base64.b64encode(b"ana:s3cret").decode(),
            "Accept-Encoding": "gzip"}
    with nginx_in_front(app, root / "cache", basic_auth=users) as front:
        page = front.request("GET", "/", headers=auth)
        assert page.status == 200
        html = gzip.decompress(page.body).decode() if page.headers.get(
            "Content-Encoding") == "gzip" else page.body.decode()
        suite = re.findall(r'src="(/_dash-component-suites/dash/dcc/[^"]+\.js)"', html)[0]
        css = re.findall(r'href="(/assets/style\.css\?m=[^"]+)"', html)[0]
        direct = {path: app.request("GET", path, headers={
            "Accept-Encoding": "gzip", "X-Forwarded-User": "ana"}).body
            for path in (suite, css)}
        def logged_direct():  # access lines are written after the answers: wait for them
            text = app.log_text()
            return text if all(f"GET {p.split('?')[0]}" in text for p in (suite, css)) else None

        before = wait_until(logged_direct, timeout=30, message="the direct requests' lines")
        with ThreadPoolExecutor(16) as pool:
            replies = list(pool.map(lambda p: front.request("GET", p, headers=auth),
                                    [suite, css] * 16))
        assert {r.status for r in replies} == {200}
        for path, reply in zip([suite, css] * 16, replies, strict=True):
            assert reply.body == direct[path]
            assert reply.headers["Content-Encoding"] == "gzip"
        statuses = [r.headers.get("X-Cache-Status") for r in replies]
        assert statuses.count("HIT") >= 30 - 2, statuses  # at most one miss per file (+lock)
        after = app.log_text()[len(before):]
        for path in (suite, css):
            assert after.count(f"GET {path.split('?')[0]}") <= 1, after[-2000:]
        # plotly.min.js says no-cache: every request reaches the app
        plotly = "/_dash-component-suites/plotly/package_data/plotly.min.js"
        for _ in range(2):
            r = front.request("GET", plotly, headers=auth)
            assert r.status == 200 and r.headers.get("X-Cache-Status") != "HIT"
        # (gunicorn writes its access line after the answer: waited for, not read at once)
        wait_until(lambda: app.log_text().count(f"GET {plotly}") >= 2, timeout=30,
                   message="both plotly.min.js requests in the app's access log")
        # nothing dynamic is cached: the layout goes to the app, carries no cache status
        layout = front.request("GET", "/_dash-layout", headers=auth)
        assert layout.status == 200 and "X-Cache-Status" not in layout.headers
        # sign-in comes before the cache
        assert front.request("GET", suite).status == 401
