"""Small helpers for tests that start real server processes (gunicorn, nginx)."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable
from pathlib import Path


def free_port() -> int:
    """A TCP port on loopback that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def children(pid: int) -> list[int]:
    """The pids of ``pid``'s direct children (gunicorn's workers), sorted."""
    kids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            kids.append(int(stat.parent.name))
    return sorted(kids)


def stop_group(proc, timeout: float = 20.0) -> None:
    """Stop a process started with ``start_new_session=True`` and everything it started:
    SIGTERM to its group, SIGKILL after ``timeout`` seconds; waits for it."""
    import contextlib
    import os
    import signal
    import subprocess

    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def wait_until_up(proc, up: Callable[[], bool], log: Path, what: str, wait: float,
                  step: float) -> None:
    """Poll ``up()`` every ``step`` seconds until it is true; raise ``RuntimeError`` with the
    end of ``log`` when ``proc`` exits first or ``wait`` seconds pass (``what`` did not
    start)."""
    deadline = time.monotonic() + wait
    while not up():
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not start: " + log.read_text()[-2000:])
        time.sleep(step)
