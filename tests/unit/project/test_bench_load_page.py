"""The page-load replay of ``bench/load_test.py`` (lpg001-lpg004): the Chrome performance log
read into requests, the order the browser waited in, and the replay keeping both that order
and the browser's connection limit (a local HTTP server logs what it was sent)."""

from __future__ import annotations

import importlib.util
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
_spec = importlib.util.spec_from_file_location("bench_load_page", ROOT / "bench" / "load_page.py")
load_page = importlib.util.module_from_spec(_spec)
sys.modules["bench_load_page"] = load_page  # its dataclasses look their module up
_spec.loader.exec_module(load_page)

BASE = "http://127.0.0.1:8050"


def _sent(rid, url, t, method="GET", body=None, kind="Script", **extra):
    request = {"url": url, "method": method, "headers": {"Accept": "*/*"}}
    if body is not None:
        request["postData"] = body
    return {"method": "Network.requestWillBeSent",
            "params": {"requestId": rid, "request": request, "timestamp": t, "type": kind,
                       **extra}}


def _done(rid, t, size):
    return {"method": "Network.loadingFinished",
            "params": {"requestId": rid, "timestamp": t, "encodedDataLength": size}}


def test_lpg001_performance_log_read_into_requests():
    log = [
        {"method": "Network.requestWillBeSentExtraInfo",  # may come before its request
         "params": {"requestId": "1", "headers": {"Accept-Encoding": "gzip, br",
                                                  ":authority": "x"}}},
        _sent("1", BASE + "/", 10.0, kind="Document"),
        {"method": "Network.responseReceived",
         "params": {"requestId": "1", "response": {"status": 200,
                                                   "headers": {"Cache-Control": "no-store"}}}},
        _done("1", 10.2, 3000),
        _sent("2", "https://cdn.example.org/x.js", 10.3),  # another origin: not ours
        _sent("3", BASE + "/old.js?v=1", 10.3),
        _sent("3", BASE + "/new.js", 10.4, redirectResponse={"status": 302}),
        _done("3", 10.6, 500),
        _sent("4", BASE + "/_dash-update-component", 10.7, method="POST", body='{"a": 1}',
              kind="Fetch"),
    ]
    recs = load_page.parse_performance_log(log, BASE)
    assert [(r.method, r.path) for r in recs] == [
        ("GET", "/"), ("GET", "/old.js?v=1"), ("GET", "/new.js"),
        ("POST", "/_dash-update-component")]
    page, old, new, callback = recs
    assert page.document and not page.is_asset and page.status == 200
    assert page.headers == {"accept": "*/*", "accept-encoding": "gzip, br"}
    assert page.response_headers == {"cache-control": "no-store"}
    assert (page.start, page.end, page.encoded_bytes) == (10.0, 10.2, 3000)
    assert (old.status, old.end) == (302, 10.4)  # the redirect ends the first request
    assert (new.start, new.end, new.encoded_bytes) == (10.4, 10.6, 500) and new.is_asset
    assert callback.body == b'{"a": 1}' and callback.end is None


def test_lpg002_dependencies_are_the_answers_received_before_sending():
    # page [0, 1]; two scripts sent at 1.1; the layout after both; two callbacks sent
    # together after the layout; one more after the first callback only; one never answered
    times = [(0, 1), (1.1, 2), (1.1, 3), (3.5, 4), (4.1, 5), (4.1, 6), (5.5, None), (7, 8)]
    recs = [load_page.Recorded("GET", f"/{k}", start=s, end=e) for k, (s, e) in
            enumerate(times)]
    assert load_page.dependencies(recs) == [
        [], [0], [0], [0, 1, 2], [0, 1, 2, 3], [0, 1, 2, 3], [0, 1, 2, 3, 4],
        [0, 1, 2, 3, 4, 5]]


def test_lpg003_long_cache_and_returning_visit():
    assert load_page.long_cache({"cache-control": "public, max-age=31536000, immutable"})
    assert load_page.long_cache({"cache-control": "max-age=86400"})
    assert not load_page.long_cache({"cache-control": "max-age=3600"})
    assert not load_page.long_cache({"cache-control": "no-cache"})
    assert not load_page.long_cache({})
    recs = [load_page.Recorded("GET", "/", document=True),
            load_page.Recorded("GET", "/assets/a.js?m=1"),
            load_page.Recorded("GET", "/_dash-layout"),
            load_page.Recorded("GET", "/_dash-dependencies"),
            load_page.Recorded("POST", "/_dash-update-component", body=b"{}")]
    assert load_page.returning_subset(recs) == [0, 2, 3, 4]
    durations = [("/a", 1.0), ("/b", 0.1), ("/a", 3.0), ("/a", 2.0), ("/c", 0.5)]
    assert load_page.slowest(durations, 2) == [("/a", 2.0, 3), ("/c", 0.5, 1)]


class _Handler(BaseHTTPRequestHandler):
    log: list = []
    lock = threading.Lock()
    inflight = [0, 0]  # now, most

    def _serve(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        with self.lock:
            self.inflight[0] += 1
            self.inflight[1] = max(self.inflight[1], self.inflight[0])
            self.log.append(("start", self.path, time.monotonic()))
        time.sleep(0.03)
        with self.lock:
            self.inflight[0] -= 1
            self.log.append(("end", self.path, time.monotonic()))
        payload = b'{"response": {"echo": %d}}' % len(body)
        self.send_response(200)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    do_GET = do_POST = _serve

    def log_message(self, *args):
        pass


def test_lpg004_replay_keeps_the_order_and_the_connection_limit():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        base = f"http://127.0.0.1:{server.server_port}"
        # the page, then 5 scripts at once, then a callback after all of them
        recs = [load_page.Recorded("GET", "/page", start=0, end=1, document=True)]
        recs += [load_page.Recorded("GET", f"/s{k}", start=2, end=3) for k in range(5)]
        recs.append(load_page.Recorded("POST", "/cb", body=b"12345", start=4, end=5))
        deps = load_page.dependencies(recs)
        with ThreadPoolExecutor(2) as pool:
            load = load_page.replay(base, recs, deps, list(range(len(recs))), pool)
    finally:
        server.shutdown()
        server.server_close()
    assert (load.requests, load.errors, load.busy_retries) == (7, 0, 0)
    assert load.answers == [{"response": {"echo": 5}}]
    assert _Handler.inflight[1] <= 2
    when = {(what, path): t for what, path, t in _Handler.log}
    scripts = [f"/s{k}" for k in range(5)]
    assert all(when[("start", s)] >= when[("end", "/page")] for s in scripts)
    assert when[("start", "/cb")] >= max(when[("end", s)] for s in scripts)
    assert load.bytes == sum(len(b'{"response": {"echo": 0}}') for _ in range(6)) + len(
        b'{"response": {"echo": 5}}')
