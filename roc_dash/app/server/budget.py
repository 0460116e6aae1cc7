"""What one request's work may take in a worker: time, and one big analysis at a time.

* ``ROC_DASH_TIMEOUT`` (seconds, default 120) is the longest a request may work. gunicorn's
  threaded workers never kill a slow request (their heartbeat runs in another thread), so the
  app bounds its own work with it (:func:`request_timeout`).
* **One big analysis per worker.** Analysing a table of ``ROC_DASH_HEAVY_ROWS`` rows or more
  (default 2,000,000; 10^7 rows take ~1.5 GB while the curves are sorted) runs under
  :func:`heavy_analysis`: a second one in the same worker waits for the first (at most until
  its request's deadline) instead of doubling the worker's memory. With
  :mod:`.limits`' one heavy parse per worker, a worker holds at most one parse and one big
  analysis at a time, besides its caches. The same analysis asked for by several requests
  or workers is made once (:class:`.cache.SharedCache`).
"""

from __future__ import annotations

import contextlib
import math
import os
import threading
import time

from .limits import env_number

__all__ = ["request_timeout", "heavy_rows", "heavy_analysis", "HeavyWaitTimeout"]

_analysis_lock = threading.Lock()


class HeavyWaitTimeout(TimeoutError):
    """Another big analysis held this worker past the request's deadline."""


def request_timeout() -> float:
    """``ROC_DASH_TIMEOUT`` in seconds (120 when unset or not a positive number): the longest a
    request may work."""
    try:
        value = float(os.environ.get("ROC_DASH_TIMEOUT", "120"))
    except ValueError:
        return 120.0
    return value if math.isfinite(value) and value > 0 else 120.0


def heavy_rows() -> int:
    """``ROC_DASH_HEAVY_ROWS`` (default 2,000,000): from this many rows an analysis is big."""
    return int(env_number("ROC_DASH_HEAVY_ROWS", 2_000_000))


@contextlib.contextmanager
def heavy_analysis(rows: int, deadline: float | None = None):
    """Hold this worker's one big-analysis slot while analysing ``rows`` rows (nothing to hold
    below :func:`heavy_rows`). Waits for the slot until ``deadline`` (``time.monotonic()``;
    None: the request time limit from now); :class:`HeavyWaitTimeout` if it stays taken."""
    if rows < heavy_rows():
        yield
        return
    if deadline is None:
        deadline = time.monotonic() + request_timeout()
    if not _analysis_lock.acquire(timeout=max(0.0, deadline - time.monotonic())):
        raise HeavyWaitTimeout("it waited the whole time for another large analysis on "
                               "this server process; try again in a minute")
    try:
        yield
    finally:
        _analysis_lock.release()
