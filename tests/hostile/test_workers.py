"""Workers forked from a master that loaded the app (``preload_app`` in gunicorn.conf.py,
issue 14): each still warms itself up, serves the page's scripts at once, and a worker
replaced after ``max_requests`` does too; what they hold of the master's memory stays shared.
"""

from __future__ import annotations

import re
import time

import pytest

from tests.hostile.conftest import ROOT, start_server, stop_server


def _private_mb(pid: int) -> float:
    """Pages of ``pid`` that no other process maps (``/proc/<pid>/smaps_rollup``)."""
    kb = 0
    with open(f"/proc/{pid}/smaps_rollup") as fh:
        for line in fh:
            if line.startswith(("Private_Clean:", "Private_Dirty:")):
                kb += int(line.split()[1])
    return kb / 1024


def _settled(server, seconds: float = 2.0) -> set[int]:
    """The workers once the same two have been there for ``seconds`` (a worker at its
    ``max_requests`` exits after its last answer and is replaced)."""
    deadline = time.monotonic() + 60
    seen, since = None, time.monotonic()
    while time.monotonic() < deadline:
        now = set(server.workers())
        if now != seen:
            seen, since = now, time.monotonic()
        elif len(now) == 2 and time.monotonic() - since >= seconds:
            return now
        time.sleep(0.2)
    raise AssertionError(f"the workers did not settle: {seen}")


@pytest.fixture(scope="module")
def recycling_server(tmp_path_factory):
    """Two workers, each replaced after about 12 requests."""
    root = tmp_path_factory.mktemp("recycling")
    server = start_server(root / "data", root / "gunicorn.log", workers=2,
                          ROC_DASH_MAX_REQUESTS=12)
    try:
        yield server
    finally:
        stop_server(server)


def test_wrk001_workers_share_the_master_s_app(recycling_server):
    """Forked after the master built the app and froze its objects out of the collector's
    reach (``when_ready``), a warmed-up worker owns ~12 MB of its own; frozen but building
    its own app ~22 MB; neither, ~68 MB (2026-11-26, 3 workers, /proc/<pid>/smaps_rollup)."""
    import runpy

    settings = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    assert settings["preload_app"] is True
    for pid in _settled(recycling_server):
        assert _private_mb(pid) < 45, (pid, _private_mb(pid))


def test_wrk002_replaced_workers_serve_the_page_at_once(recycling_server):
    """Page, layout, dependencies and every script the page names, again and again: the
    workers are replaced several times (max_requests) and every answer is a 200."""
    server = recycling_server
    first = set(server.workers())
    page = server.request("GET", "/")
    assert page.status == 200
    scripts = re.findall(r'<script src="(/_dash-component-suites/[^"]+)"', page.body.decode())
    assert len(scripts) >= 5
    paths = ["/", "/_dash-layout", "/_dash-dependencies", *scripts]
    statuses = []
    for _ in range(4):
        for path in paths:
            statuses.append((path, server.request("GET", path).status))
    assert {s for _, s in statuses} == {200}, [p for p in statuses if p[1] != 200]
    now = _settled(server)
    assert len(now) == 2 and not now & first, (first, now)  # both replaced meanwhile
    log = server.log_text()
    assert log.count("Booting worker") >= 4
    assert "Traceback" not in log and "warm-up request" not in log, log[-3000:]
    for pid in now:  # the replacements share the master's pages too
        assert _private_mb(pid) < 45, (pid, _private_mb(pid))
