"""The real server, probed as a hostile colleague would: gunicorn with the project's own
``gunicorn.conf.py`` (as the Dockerfile runs it), on 127.0.0.1 only, with a data folder under
pytest's ``tmp_path``; each probe is bounded in count and time (short limits come from
environment variables, the way an operator would set them).

:class:`Server` starts and stops it and knows its workers (their pids, their peak resident
memory from ``/proc/<pid>/status``), sends plain requests, raw-socket requests (a body sent
while the answer is watched for, a client that sends one byte at a time) and Dash callbacks
built from the app's own callback map (as ``bench/load_test.py`` does). :class:`HealthWatch`
asks ``/health`` all the time a probe runs.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tools.dash_requests import (
    VIEWS_CALLBACK,
    callback_body,
    callback_specs,
    views_values,
    wildcard_id,
)
from tools.processes import children, free_port

ROOT = Path(__file__).resolve().parents[2]
#: The most resident memory any worker may reach during these probes (its peak, VmHWM): a
#: worker holds ~250 MB once the app is loaded, and reads one upload at a time (limits.py)
#: under the io limits on what a file decodes to; measured peaks stay near 420 MB.
WORKER_BUDGET_MB = 640
#: /health must answer within this while probes run (generous: a busy 2-core machine).
HEALTH_BOUND_S = 5.0

_SPECS: dict | None = None


def status_kb(pid: int, key: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


def specs() -> dict:
    """Each callback's request skeleton, from the app's own callback map (built once)."""
    global _SPECS
    if _SPECS is None:
        from roc_dash.app import create_app

        # the session's data folder (tests/conftest.py points it into pytest's basetemp)
        _SPECS = callback_specs(create_app(
            data_dir=Path(os.environ["ROC_DASH_DATA_DIR"]) / "specs"))
    return _SPECS


@dataclass
class Reply:
    status: int
    headers: dict
    body: bytes
    seconds: float

    def json(self):
        return json.loads(self.body)

    @property
    def error(self) -> str:
        return self.json().get("error", "")


@dataclass
class Server:
    proc: subprocess.Popen
    port: int
    data_dir: Path
    log: Path
    workers_wanted: int
    env: dict = field(default_factory=dict)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def workers(self) -> list[int]:
        return children(self.proc.pid)

    def peak_mb(self) -> dict[int, float]:
        out = {}
        for pid in self.workers():
            with contextlib.suppress(OSError):
                out[pid] = status_kb(pid, "VmHWM") / 1024
        return out

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")

    # -- plain requests -------------------------------------------------------------------
    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict | None = None, timeout: float = 60) -> Reply:
        req = urllib.request.Request(self.base + path, data=body, method=method,
                                     headers=headers or {})
        t0 = time.monotonic()
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return Reply(r.status, dict(r.headers), r.read(), time.monotonic() - t0)
        except urllib.error.HTTPError as e:
            return Reply(e.code, dict(e.headers), e.read(), time.monotonic() - t0)

    def callback(self, first_output: str, values: dict, changed: list[str],
                 headers: dict | None = None) -> Reply:
        body = json.dumps(callback_body(specs(), first_output, values, changed)).encode()
        return self.request("POST", "/_dash-update-component", body,
                            {"Content-Type": "application/json", **(headers or {})})

    def upload(self, batch: str, name: str, data: bytes, index: int = 0,
               headers: dict | None = None) -> Reply:
        return self.request("POST", f"/upload?batch={batch}&index={index}&name={name}", data,
                            {"Content-Type": "application/octet-stream", **(headers or {})})

    # -- raw sockets ----------------------------------------------------------------------
    def raw(self, head: str, body_chunks, *, pause: float = 0.0, deadline: float = 60,
            source: str | None = None) -> Reply:
        """Send ``head`` (request line and headers, without the blank line), then the body
        chunk by chunk (``pause`` seconds apart), watching for an answer all the while: as
        soon as the server answers, stop sending and read it (a browser reading an early 413
        or 408). ``status`` 0: the connection closed without an answer."""
        t0 = time.monotonic()
        sock = socket.socket()
        if source:
            sock.bind((source, 0))
        sock.settimeout(deadline)
        sock.connect(("127.0.0.1", self.port))
        try:
            try:
                sock.sendall(head.encode() + b"\r\n\r\n")
            except OSError:  # answered (and closed) before the head was all sent
                body_chunks = []
            for chunk in body_chunks:
                ready, _, _ = select.select([sock], [], [], pause)
                if ready:
                    break
                try:
                    sock.sendall(chunk)
                except OSError:
                    break
                if time.monotonic() - t0 > deadline:
                    break
            data = b""
            while time.monotonic() - t0 < deadline:
                ready, _, _ = select.select([sock], [], [], 0.5)
                if not ready:
                    continue
                try:
                    part = sock.recv(65536)
                except OSError:
                    break
                if not part:
                    break
                data += part
                if b"\r\n\r\n" in data:
                    head_part, _, rest = data.partition(b"\r\n\r\n")
                    length = next((int(line.split(b":", 1)[1]) for line in
                                   head_part.split(b"\r\n")
                                   if line.lower().startswith(b"content-length:")), None)
                    if length is not None and len(rest) >= length:
                        break
        finally:
            sock.close()
        seconds = time.monotonic() - t0
        if not data.startswith(b"HTTP/"):
            return Reply(0, {}, data, seconds)
        head_part, _, rest = data.partition(b"\r\n\r\n")
        lines = head_part.decode("latin-1").split("\r\n")
        headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
        return Reply(int(lines[0].split()[1]), headers, rest, seconds)


def start_server(data_dir: Path, log: Path, workers: int = 3, **env) -> Server:
    data_dir.mkdir(parents=True, exist_ok=True)
    port = free_port()
    full = {k: v for k, v in os.environ.items() if not k.startswith("ROC_DASH")}
    full.update({"HOST": "127.0.0.1", "PORT": str(port), "WEB_CONCURRENCY": str(workers),
                 "ROC_DASH_THREADS": "4", "ROC_DASH_DATA_DIR": str(data_dir)})
    full.update({k: str(v) for k, v in env.items()})
    with open(log, "wb") as fh:
        proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "app:server"], cwd=ROOT,
                                env=full, stdout=fh, stderr=subprocess.STDOUT,
                                start_new_session=True)
    server = Server(proc, port, data_dir, log, workers, env)
    health = str(env.get("ROC_DASH_URL_PREFIX") or "/") + "health"  # under the URL prefix
    deadline = time.monotonic() + 120
    while True:
        assert proc.poll() is None, server.log_text()[-3000:]
        assert time.monotonic() < deadline, "gunicorn did not start in time"
        try:
            if server.request("GET", health, timeout=5).status == 200 and \
                    len(server.workers()) == workers:
                break
        except OSError:
            pass
        time.sleep(0.2)
    # every worker booted and warmed (a worker accepts only after its warm-up request)
    while server.log_text().count("Booting worker") < workers:
        assert time.monotonic() < deadline, "workers did not boot in time"
        time.sleep(0.2)
    return server


def stop_server(server: Server) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(server.proc.pid, signal.SIGTERM)
    try:
        server.proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(server.proc.pid, signal.SIGKILL)
        server.proc.wait()


class HealthWatch:
    """Ask ``/health`` every ``every`` seconds while a probe runs; remember what it said and
    how long it took."""

    def __init__(self, server: Server, every: float = 0.25):
        self.server, self.every = server, every
        self.results: list[tuple[int, float]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self._stop.is_set():
            t0 = time.monotonic()
            try:
                r = self.server.request("GET", "/health", timeout=30)
                self.results.append((r.status, time.monotonic() - t0))
            except OSError:
                self.results.append((0, time.monotonic() - t0))
            self._stop.wait(self.every)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        deadline = time.monotonic() + 30
        while len(self.results) < 3 and time.monotonic() < deadline:  # a fast probe
            time.sleep(0.05)
        self._stop.set()
        self._thread.join(40)

    def assert_fast(self, bound: float = HEALTH_BOUND_S):
        assert len(self.results) >= 3, "health was hardly asked"
        statuses = {s for s, _ in self.results}
        times = [t for _, t in self.results]
        assert statuses == {200}, f"/health answered {statuses}"
        assert max(times) < bound, (f"/health took up to {max(times):.1f} s "
                                    f"(median {statistics.median(times):.2f} s)")


@contextlib.contextmanager
def unharmed(server: Server, budget_mb: float = WORKER_BUDGET_MB):
    """The probe inside runs while /health is watched; afterwards the same workers are alive
    (none died or was replaced) and none went over its memory budget."""
    before = server.workers()
    assert len(before) == server.workers_wanted
    with HealthWatch(server) as health:
        yield health
    after = server.workers()
    assert after == before, f"workers changed: {before} -> {after}\n{server.log_text()[-3000:]}"
    peaks = server.peak_mb()
    assert max(peaks.values()) < budget_mb, f"worker peak memory {peaks} MB"
    health.assert_fast()
    log = server.log_text()
    assert "Traceback" not in log, log[-3000:]
    assert "WORKER TIMEOUT" not in log and "was sent SIGKILL" not in log


@pytest.fixture(scope="module")
def open_server(tmp_path_factory):
    """A team server without sign-in, with short limits so that the probes stay fast."""
    root = tmp_path_factory.mktemp("open")
    server = start_server(root / "data", root / "gunicorn.log",
                          ROC_DASH_BODY_TIMEOUT=3, ROC_DASH_UPLOAD_TIMEOUT=4,
                          ROC_DASH_MAX_UPLOAD_MB=20)
    try:
        yield server
    finally:
        stop_server(server)


class Page:
    """One person's page on the server: their headers (the browser's key, or what a sign-in
    proxy adds), the datasets on their page; callbacks as the page sends them, retried after
    503 + Retry-After as the page does."""

    def __init__(self, server: Server, key: str | None = None, headers: dict | None = None):
        from roc_dash.app.server.auth import OWNER_HEADER

        self.server = server
        self.headers = dict(headers or {})
        if key is not None:
            self.headers[OWNER_HEADER] = key
        self.datasets = ["demo"]

    def call(self, first_output: str, values: dict, changed: list[str], deadline: float = 60
             ) -> Reply:
        t0 = time.monotonic()
        while True:
            reply = self.server.callback(first_output, values, changed, self.headers)
            if reply.status != 503 or time.monotonic() - t0 > deadline:
                return reply
            time.sleep(float(reply.headers.get("Retry-After", 1)))

    def response(self, first_output: str, values: dict, changed: list[str]) -> dict:
        reply = self.call(first_output, values, changed)
        assert reply.status in (200, 204), (reply.status, reply.body[:300])
        return reply.json()["response"] if reply.status == 200 else {}

    def upload(self, name: str, data: bytes) -> dict:
        """Send a file as the page does (POST /upload, then the callback that reads it);
        return the callback's response (status and error boxes, the new datasets)."""
        import secrets as _secrets

        batch = _secrets.token_urlsafe(24)
        t0 = time.monotonic()
        while True:
            reply = self.server.upload(batch, name, data, headers=self.headers)
            if reply.status != 503 or time.monotonic() - t0 > 60:
                break
            time.sleep(float(reply.headers.get("Retry-After", 1)))
        assert reply.status == 200, (reply.status, reply.body[:300])
        out = self.response("datasets.data", {
            "streamed-upload.data": {"batch": batch, "stamp": time.time()},
            "datasets.data": self.datasets, "url.search": ""}, ["streamed-upload.data"])
        new = out.get("datasets", {}).get("data")
        if isinstance(new, list):
            self.datasets = new
        return out

    def remove(self, dataset_id: str) -> None:
        """The dataset's × clicked (the page names it in the remove-request store and asks
        first), then *Remove*."""
        self.response("datasets.data", {"datasets.data": self.datasets,
                                        "remove-request.data": {"index": dataset_id,
                                                                "clicks": 1}},
                      ["remove-request.data"])
        yes = wildcard_id("remove-yes", dataset_id)
        out = self.response("datasets.data", {"datasets.data": self.datasets,
                                              "remove-yes.n_clicks": [(dataset_id, 1)]},
                            [f"{yes}.n_clicks"])
        self.datasets = out["datasets"]["data"]

    def notes(self, trigger: str = "datasets.data", **values) -> dict:
        base = {"datasets.data": self.datasets}
        base.update(values)
        return self.response("view-list.children", base, [trigger])

    def views(self, models: list[str]) -> dict:
        """The views callback for the page's datasets and these models (as the page sends
        it after the datasets changed)."""
        return self.response(VIEWS_CALLBACK, views_values(self.datasets, models),
                             ["datasets.data"])


@pytest.fixture(scope="module")
def signed_in_server(tmp_path_factory):
    """A team server behind a sign-in proxy that sets X-Forwarded-User from 127.0.0.1 (the
    tests connect from 127.0.0.2 to be a client that reaches the app directly)."""
    root = tmp_path_factory.mktemp("signed-in")
    server = start_server(root / "data", root / "gunicorn.log", workers=2,
                          ROC_DASH_USER_HEADER="X-Forwarded-User",
                          ROC_DASH_TRUSTED_PROXIES="127.0.0.1")
    try:
        yield server
    finally:
        stop_server(server)
