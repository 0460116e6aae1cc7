"""Items 2, 3 and 7 of issue 14 against the real gunicorn: large bodies on every route, slow
clients, unreadable callback bodies. Each probe gets a clear answer, no worker dies or grows
past its budget, /health stays fast, and the users' work goes on meanwhile."""

from __future__ import annotations

import secrets
import time
from concurrent.futures import ThreadPoolExecutor

from .conftest import unharmed

CALLBACK = "/_dash-update-component"
MB = 2**20


def _head(method: str, path: str, **headers) -> str:
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1"]
    lines += [f"{k.replace('_', '-')}: {v}" for k, v in headers.items()]
    return "\r\n".join(lines)


def _chunked(total: int, piece: int = 256 * 1024):
    sent = 0
    while sent < total:
        n = min(piece, total - sent)
        yield f"{n:x}\r\n".encode() + b"[" * n + b"\r\n"
        sent += n
    yield b"0\r\n\r\n"


def test_hst001_big_bodies_on_any_route_get_413_at_once(open_server):
    """3 clients at once send 200 MB to the callback route (item 2: 3 x 200 MB killed two
    workers), one a chunked 50 MB body, one 200 MB to the page: each is refused with 413 and
    a message after at most a few MB have gone in."""
    s = open_server
    big = 200 * MB
    probes = [(_head("POST", CALLBACK, Content_Type="application/json",
                     Content_Length=big), (b"[" * MB for _ in range(200)))] * 3
    probes.append((_head("POST", CALLBACK, Content_Type="application/json",
                         Transfer_Encoding="chunked"), _chunked(50 * MB)))
    probes.append((_head("POST", "/", Content_Type="text/plain", Content_Length=big),
                   (b"x" * MB for _ in range(200))))
    with unharmed(s), ThreadPoolExecutor(len(probes)) as pool:
        replies = list(pool.map(lambda p: s.raw(*p, pause=0.01, deadline=60), probes))
        # a client that sends its whole body before it reads the answer (as most do) hears
        # the refusal too: the server reads the rest after answering (a lingering close)
        replies.append(s.request("POST", CALLBACK, b" " * (20 * MB),
                                 {"Content-Type": "application/json"}))
    for reply in replies:
        assert reply.status == 413, reply
        message = reply.json()["error"]
        assert "larger than the 1,024 KiB this server accepts" in message
        assert "ROC_DASH_MAX_BODY_KB" in message
        assert reply.seconds < 30


def test_hst002_slow_clients_are_cut_off_and_others_are_served(open_server):
    """Item 3: clients that send one byte every half second (uploads and callbacks) hold no
    thread past the configured deadline (4 s upload, 3 s other bodies: 408 with a message);
    /health keeps answering and a normal upload goes through meanwhile."""
    s = open_server
    n_uploads, n_callbacks = 6, 4

    def slow_upload(k):
        head = _head("POST", f"/upload?batch={secrets.token_urlsafe(24)}&index=0&name=slow{k}.csv",
                     Content_Type="application/octet-stream", Content_Length=10_000)
        return s.raw(head, (b"1" for _ in range(10_000)), pause=0.5, deadline=40)

    def slow_callback(_):
        head = _head("POST", CALLBACK, Content_Type="application/json", Content_Length=5_000)
        return s.raw(head, (b" " for _ in range(5_000)), pause=0.5, deadline=40)

    with unharmed(s), ThreadPoolExecutor(n_uploads + n_callbacks) as pool:
        slow = [pool.submit(slow_upload, k) for k in range(n_uploads)]
        slow += [pool.submit(slow_callback, k) for k in range(n_callbacks)]
        time.sleep(1.0)  # they are all trickling now
        t0 = time.monotonic()
        batch = secrets.token_urlsafe(24)
        ok = s.upload(batch, "fine.csv", b"label,score\n1,0.9\n0,0.2\n1,0.7\n0,0.4\n")
        while ok.status == 503:  # as the page does: wait and send again
            assert time.monotonic() - t0 < 30, ok
            time.sleep(float(ok.headers.get("Retry-After", 1)))
            ok = s.upload(batch, "fine.csv", b"label,score\n1,0.9\n0,0.2\n1,0.7\n0,0.4\n")
        assert ok.status == 200, ok
        replies = [f.result() for f in slow]
    for reply in replies[:n_uploads]:
        if reply.status == 503:  # more uploads at once than the worker takes: told to wait
            assert "receiving other uploads" in reply.json()["error"]
            assert reply.headers["Retry-After"] == "3"
            continue
        assert reply.status == 408, reply
        assert "arrived too slowly (it took longer than 4 s)" in reply.json()["error"]
        assert reply.seconds < 15
    for reply in replies[n_uploads:]:
        if reply.status == 503:
            assert "receiving data from other requests" in reply.json()["error"]
            continue
        assert reply.status == 408, reply
        assert "did not arrive in time" in reply.json()["error"]
        assert reply.seconds < 15
    # however the kernel spreads the connections over the workers, at least one worker's
    # three reader threads took slow clients and were freed by the deadline
    assert sum(r.status == 408 for r in replies) >= 3


def test_hst003_unreadable_callback_bodies_get_400(open_server):
    """Item 7: a body nested 200,000 deep (RecursionError), numbers too large, garbage and a
    too long text: 400 with a message, never 500 or a traceback."""
    s = open_server
    bodies = [b"[" * 200_000, b'{"output": ' + b"9" * 5000 + b"}", b"\x00garbage",
              b'{"inputs": [{"id": "note", "property": "value", "value": "'
              + b"x" * 100_000 + b'"}]}',
              b'{"output": "cost-fp.value", "outputs": {"id": "cost-fp", "property": "value"},'
              b' "inputs": [{"id": "cost-fp", "property": "value", "value": 1e999}],'
              b' "changedPropIds": ["cost-fp.value"], "state": []}']
    with unharmed(s):
        for body in bodies:
            r = s.request("POST", CALLBACK, body, {"Content-Type": "application/json"})
            assert r.status == 400, (body[:40], r)
            assert b"Traceback" not in r.body and len(r.body) < 2000


def test_hst004_huge_request_lines_and_headers_are_refused(open_server):
    """A 1 MB request line or header line (item 7 "a 50 MB header line"): gunicorn's own
    limits answer 4xx before the app or a worker's memory is involved."""
    s = open_server
    with unharmed(s):
        for head in (f"GET /?q={'a' * MB} HTTP/1.1\r\nHost: x",
                     f"GET / HTTP/1.1\r\nHost: x\r\nX-Big: {'a' * MB}",
                     "GET / HTTP/1.1\r\nHost: x\r\n" + "\r\n".join(
                         f"X-H{k}: v" for k in range(500))):
            reply = s.raw(head + "\r\nConnection: close", [], deadline=30)
            assert reply.status in (400, 414, 431), (head[:40], reply.status, reply.body[:200])
