"""A throw-away ``redis-server`` on a free loopback port, for the tests of the replicas' shared
state and the load test's ``--replicas`` (Debian's ``redis-server``: ``make redis-deps``).
Nothing is saved to disk (``--save ''``, no append-only file); the server stops on exit."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
from pathlib import Path

from tools.processes import free_port, stop_group, wait_until_up

REDIS_SERVER = shutil.which("redis-server") or (
    "/usr/bin/redis-server" if Path("/usr/bin/redis-server").exists() else None)


def _pong(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(64).startswith(b"+PONG")
    except OSError:
        return False


@contextlib.contextmanager
def redis_server(folder: Path, *, wait: float = 30.0):
    """Start ``redis-server`` with its files under ``folder``; yield its URL
    (``redis://127.0.0.1:PORT/0``); stop it on exit. Raises ``RuntimeError`` when
    redis-server is not installed."""
    if REDIS_SERVER is None:
        raise RuntimeError("redis-server is not installed (make redis-deps)")
    folder.mkdir(parents=True, exist_ok=True)
    port = free_port()
    log = open(folder / "redis.log", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        [REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", str(folder), "--maxmemory", "512mb",
         "--maxmemory-policy", "allkeys-lru"],
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_until_up(proc, lambda: _pong(port), folder / "redis.log", "redis-server", wait,
                      0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        stop_group(proc, timeout=10)
        log.close()
