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
  or workers is made once (:class:`.cache.SharedCache`). The Slices card's groups of a model
  count the same way by :func:`slice_work`: the model's rows, and for two columns crossed
  their rows times the groups the crossing can form (up to one per row), so that crossings
  of many values are big early: two 2- and 3-valued columns from ~333,000 rows, two of
  1,000 values from ~1,400 rows.
* **A thread kept free of big work.** A worker's threads tied up by big work (:data:`TIED`:
  the one running a big analysis, those waiting for the worker's big-analysis slot, those
  waiting for a value that a tied thread is making, and those that have waited more than
  :data:`SHORT_WAIT` for a value another worker is making) are at most ``ROC_DASH_THREADS``
  minus ``ROC_DASH_FREE_THREADS`` (a whole number, default 1; at least one thread may always
  be tied). A request that would tie one more (starting or awaiting a big analysis alike)
  gets :class:`~.limits.ServerBusy` at once: 503 with ``Retry-After``
  (:data:`TIED_RETRY_AFTER` s), and the page says "the server is busy, retrying in N s" and
  sends it again; so ``/health``, the page and other users' cheap callbacks always find a
  thread. A wait for a value made without a big analysis (usually milliseconds) is never
  counted, hence never refused.
"""

from __future__ import annotations

import contextlib
import math
import os
import threading
import time

from .limits import ServerBusy, env_number, threads_per_worker

__all__ = ["request_timeout", "heavy_rows", "heavy_analysis", "slice_work", "HeavyWaitTimeout",
           "free_threads", "max_tied", "TiedThreads", "TIED", "SHORT_WAIT",
           "TIED_RETRY_AFTER"]

#: Seconds a wait for a value another worker is making goes uncounted (see :data:`TIED`).
SHORT_WAIT = 0.2
#: What ``Retry-After`` says to a request refused because the worker's threads are tied up.
TIED_RETRY_AFTER = 5

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


def slice_work(rows: int, groups: int = 1) -> int:
    """The size of slicing ``rows`` rows into groups, as :func:`heavy_analysis` counts it:
    ``rows`` for one column (``groups`` 1), ``rows × groups`` for two crossed (``groups``:
    the most groups the crossing can form, the product of the columns' numbers of values,
    at most ``rows``)."""
    return max(0, int(rows)) * max(1, int(groups))


def free_threads() -> int:
    """``ROC_DASH_FREE_THREADS`` (default 1; a whole number, 0 or more): threads of a worker
    never tied up by big work."""
    try:
        value = int(os.environ.get("ROC_DASH_FREE_THREADS", "1"))
    except ValueError:
        return 1
    return value if value >= 0 else 1


def max_tied() -> int:
    """How many of a worker's threads big work may tie up at once: all but
    :func:`free_threads` (``ROC_DASH_THREADS`` is :func:`.limits.threads_per_worker`), at
    least one."""
    return max(1, threads_per_worker() - free_threads())


class TiedThreads:
    """The threads of this process tied up by big work, at most :func:`max_tied` of them.

    A thread is tied while inside :meth:`tie` (nested ties of one thread count once); a
    thread not yet tied that asks for a tie when :func:`max_tied` are gets
    :class:`~.limits.ServerBusy` at once (``Retry-After`` :data:`TIED_RETRY_AFTER`)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._depth: dict[int, int] = {}  # thread ident -> nested ties

    def count(self) -> int:
        """Threads tied now."""
        with self._lock:
            return len(self._depth)

    def holds(self, ident: int | None) -> bool:
        """Whether the thread ``ident`` (:func:`threading.get_ident`) is tied now."""
        with self._lock:
            return ident in self._depth

    @contextlib.contextmanager
    def tie(self, what: str = "a large analysis"):
        """Tie this thread while inside; :class:`~.limits.ServerBusy` (nothing held) when it
        is not tied yet and :func:`max_tied` threads are."""
        ident = threading.get_ident()
        with self._lock:
            if ident not in self._depth and len(self._depth) >= max_tied():
                raise ServerBusy(f"The server is finishing {what} for another request; "
                                 f"retrying in {TIED_RETRY_AFTER} s.", TIED_RETRY_AFTER)
            self._depth[ident] = self._depth.get(ident, 0) + 1
        try:
            yield
        finally:
            with self._lock:
                self._depth[ident] -= 1
                if not self._depth[ident]:
                    del self._depth[ident]


#: This process's threads tied up by big work (see the module docstring).
TIED = TiedThreads()


@contextlib.contextmanager
def heavy_analysis(rows: int, deadline: float | None = None):
    """Hold this worker's one big-analysis slot while analysing ``rows`` rows (nothing to hold
    below :func:`heavy_rows`). Waits for the slot until ``deadline`` (``time.monotonic()``;
    None: the request time limit from now); :class:`HeavyWaitTimeout` if it stays taken.
    Waiting and holding tie the thread (:data:`TIED`): :class:`~.limits.ServerBusy` at once
    when :func:`max_tied` threads of the worker are tied already."""
    if rows < heavy_rows():
        yield
        return
    if deadline is None:
        deadline = time.monotonic() + request_timeout()
    with TIED.tie():
        if not _analysis_lock.acquire(timeout=max(0.0, deadline - time.monotonic())):
            raise HeavyWaitTimeout("it waited the whole time for another large analysis on "
                                   "this server process; try again in a minute")
        try:
            yield
        finally:
            _analysis_lock.release()
