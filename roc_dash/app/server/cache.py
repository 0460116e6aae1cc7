"""Caches bounded in bytes: a per-process LRU in front of a cache on disk shared by workers.

Several gunicorn workers do not share memory, so an analysis computed by one worker is also
written (pickled) to a ``diskcache`` folder under the data directory: any worker then serves
it without recomputing. Both levels are bounded by size in bytes, not by a number of entries:

* ``ROC_DASH_MEMORY_CACHE_MB`` (default 64): per process, least recently used first out
  (with the tables a worker keeps, ``ROC_DASH_TABLE_CACHE_MB``, 64, and its ~220 MB of
  libraries, a worker stays under 400 MB under ``bench/load_test.py``);
* ``ROC_DASH_CACHE_MB`` (default 1024): on disk, shared; diskcache evicts least recently used.

An entry larger than a quarter of the memory budget is kept only while it is in use: up to
``BIG_ENTRIES`` (3) such entries per cache (one interaction of the page uses three together
at 10^6 rows: the table, the views' analysis and the Slices card's groups; with one, each
evicted the next and a change of costs re-read the table twice and recomputed the groups),
each let go ``BIG_SECONDS`` (10 s) after its last use.

A value is made once at a time (:meth:`SharedCache.get_or_make`): the threads of a worker
that ask for the same missing key wait for the first one, and with a disk cache the other
workers wait too (a lock entry in the shared cache, ``diskcache``'s atomic ``add``), then
read the value it wrote. A page opened on a new 10^7-row upload asks for its analysis from
several callbacks at once, spread over the workers: before, each made its own copy (the same
work several times over, ~1.9 GB each). A holder that dies leaves a lock that expires after
``ROC_DASH_TIMEOUT`` + 30 s, and is taken over at once on the same host (its entry names the
process, which is checked to be running). A thread waiting for a value that big work
makes is tied up by it, and their number per worker is capped (:data:`.budget.TIED`).

With ``ROC_DASH_REDIS_URL`` set, the shared level and its locks are in Redis instead of
``diskcache`` (:class:`.shared_state.RedisValues`, the same calls): replicas on several hosts
share them (``docs/scaling.md``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import logging
import os
import pickle
import socket
import threading
import time
from collections import OrderedDict
from pathlib import Path

import numpy as np
import pandas as pd

from .budget import SHORT_WAIT, TIED, request_timeout

log = logging.getLogger(__name__)

__all__ = ["approx_nbytes", "ByteLRU", "KeyLocks", "SharedCache", "BACKGROUND_BYTES"]


#: Part of every key: the layout of the classes pickled in the disk cache (the modules they
#: are defined in). Raise it when a module whose objects are cached moves or a cached result
#: type changes shape: the values an older roc-dash pickled into a data directory kept across
#: an upgrade are then never read (they would not unpickle, or unpickle into the old shape),
#: and diskcache evicts them as the least recently used. One read anyway is a miss
#: (:meth:`SharedCache._read`). 2: core regrouped into subpackages.
LAYOUT = 2


def _mb_from_env(name: str, default: float) -> float:
    try:
        value = float(os.environ.get(name, default))
    except ValueError:
        value = default
    return value if value > 0 else default


def approx_nbytes(obj, _depth: int = 0) -> int:
    """Memory held by ``obj`` (arrays, frames, dataclasses, containers), roughly."""
    if _depth > 12:
        return 64
    if isinstance(obj, np.ndarray):
        if obj.dtype == object:
            return obj.nbytes + sum(approx_nbytes(v, _depth + 1) for v in obj.ravel()[:10000])
        return obj.nbytes
    if isinstance(obj, pd.DataFrame | pd.Series):
        return int(obj.memory_usage(deep=True).sum() if isinstance(obj, pd.DataFrame)
                   else obj.memory_usage(deep=True))
    if isinstance(obj, str | bytes):
        return len(obj) + 49
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return 64 + sum(approx_nbytes(getattr(obj, f.name), _depth + 1)
                        for f in dataclasses.fields(obj))
    if isinstance(obj, dict):
        return 64 + sum(approx_nbytes(k, _depth + 1) + approx_nbytes(v, _depth + 1)
                        for k, v in obj.items())
    if isinstance(obj, list | tuple | set):
        return 56 + sum(approx_nbytes(v, _depth + 1) for v in obj)
    return 32


#: Seconds a value too big for a memory cache is kept after its last use.
BIG_SECONDS = 10.0
#: How many values too big for the shared analysis cache's memory are kept while in use.
BIG_ENTRIES = 3


class ByteLRU:
    """A thread-safe LRU mapping bounded by the summed :func:`approx_nbytes` of its values."""

    def __init__(self, max_bytes: int, *, big_seconds: float | None = BIG_SECONDS,
                 big_entries: int = 1):
        self.max_bytes = int(max_bytes)
        self._data: OrderedDict = OrderedDict()
        self._sizes: dict = {}
        self._total = 0
        self._lock = threading.Lock()
        # Values too big for the budget, kept only while in use: the several reads of one
        # request (and the requests a click sends together) share them instead of each
        # reading 10^7 rows again; ``big_seconds`` after its last use each is let go, and
        # beyond ``big_entries`` of them the least recently used goes at once.
        # ``big_seconds=None``: no such value is kept (a cache whose big values another cache
        # already holds while in use).
        self.big_seconds = None if big_seconds is None else float(big_seconds)
        self.big_entries = max(1, int(big_entries))
        self._big: OrderedDict = OrderedDict()  # key -> (value, last use, monotonic clock)
        self._big_timer: threading.Timer | None = None

    @property
    def total_bytes(self) -> int:
        return self._total

    def get(self, key, default=None):
        with self._lock:
            if key in self._data:
                self._data.move_to_end(key)
                return self._data[key]
            if key in self._big:
                self._big[key] = (self._big[key][0], time.monotonic())
                self._big.move_to_end(key)
                return self._big[key][0]
        return default

    @property
    def big_key(self):
        """The key of the most recently used big value held (see :meth:`put`), or None;
        not a use."""
        with self._lock:
            return next(reversed(self._big), None)

    @property
    def big_keys(self) -> list:
        """The keys of the big values held, least recently used first; not a use."""
        with self._lock:
            return list(self._big)

    def _hold_big(self, key, value) -> None:
        """Keep ``value`` (over a quarter of the budget) as a big value, the least recently
        used beyond ``big_entries`` let go, and each ``big_seconds`` after its last use
        (called with the lock held)."""
        self._big[key] = (value, time.monotonic())
        self._big.move_to_end(key)
        while len(self._big) > self.big_entries:
            self._big.popitem(last=False)
        if self._big_timer is None or not self._big_timer.is_alive():  # (a test runner may
            # stop threads it did not start)
            self._start_big_timer(self.big_seconds)

    def _start_big_timer(self, seconds: float) -> None:
        self._big_timer = threading.Timer(seconds, self._expire_big)
        self._big_timer.daemon = True
        self._big_timer.start()

    def _expire_big(self) -> None:
        with self._lock:
            self._big_timer = None
            now = time.monotonic()
            for key in [k for k, (_, used) in self._big.items()
                        if now - used >= self.big_seconds]:
                del self._big[key]
            if self._big:  # used meanwhile: look again when the oldest will have been idle
                oldest = min(used for _, used in self._big.values())
                self._start_big_timer(max(self.big_seconds - (now - oldest), 0.01))

    def put(self, key, value, size: int | None = None) -> None:
        size = approx_nbytes(value) if size is None else int(size)
        with self._lock:
            self._big.pop(key, None)
            if key in self._data:
                self._total -= self._sizes.pop(key)
                del self._data[key]
            if size > self.max_bytes // 4:
                if self.big_seconds is not None:
                    self._hold_big(key, value)  # too big to keep: only while in use
                return
            self._data[key] = value
            self._sizes[key] = size
            self._total += size
            while self._total > self.max_bytes and self._data:
                old, _ = self._data.popitem(last=False)
                self._total -= self._sizes.pop(old)

    def __contains__(self, key) -> bool:
        with self._lock:
            return key in self._data

    def __len__(self) -> int:
        return len(self._data)


#: Values larger than this (by :func:`approx_nbytes`) go to the disk cache from a thread,
#: after the request that made them has its value (see :meth:`SharedCache.get_or_make`).
BACKGROUND_BYTES = 16 * 2**20
_WRITERS: list[threading.Thread] = []  # of every cache of the process
_WRITERS_LOCK = threading.Lock()
#: How often a worker waiting for another's value looks again, seconds.
POLL_SECONDS = 0.05


def _flight_seconds() -> float:
    """How long a value may take to make before waiters give up on it: the request time
    limit (``ROC_DASH_TIMEOUT``, 120 s) and some slack for writing it."""
    return request_timeout() + 30.0


def _start_ticks(pid: int | str = "self") -> str | None:
    """When process ``pid`` started (``/proc/PID/stat`` field 22), None if there is none."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


_HOST = socket.gethostname()


def _holder() -> tuple:
    """Who holds a lock: host, process id and the process's start (a pid used again by a
    process started later is not the holder)."""
    return (_HOST, os.getpid(), _start_ticks())


def _alive(holder) -> bool:
    """Whether a lock's holder is still running; True when that cannot be told (another
    host, an entry of another form): its lock then expires by itself."""
    try:
        host, pid, started = holder
    except (TypeError, ValueError):
        return True
    if host != _HOST or started is None or _start_ticks() is None:
        return True
    return _start_ticks(int(pid)) == started


class _Streamed:
    """A value to pickle straight into its file in the disk cache (see
    :func:`_streaming_disk`); never pickled itself."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


def _streaming_disk():
    """diskcache's ``Disk``, except that a :class:`_Streamed` value is pickled straight into
    its file: diskcache pickles a value into one bytes object first, a second copy of a
    10^7-row analysis (~300 MB) in memory while it is written. Read back as any pickled file
    value (``pickle.load`` from the file)."""
    import diskcache
    from diskcache.core import MODE_PICKLE, UNKNOWN

    class StreamingDisk(diskcache.Disk):
        def store(self, value, read, key=UNKNOWN):
            if not isinstance(value, _Streamed):
                return super().store(value, read, key)
            filename, full_path = self.filename(key, value.value)
            os.makedirs(os.path.dirname(full_path), exist_ok=True)
            with open(full_path, "xb") as fh:
                pickle.dump(value.value, fh, protocol=self.pickle_protocol)
                size = fh.tell()
            return size, MODE_PICKLE, filename, None

    return StreamingDisk


class KeyLocks:
    """One :class:`threading.Lock` per key being made in this process, dropped when unused.

    A thread waiting for a key whose maker is tied up by big work (:data:`.budget.TIED`, e.g.
    running a big analysis) is tied too, or gets :class:`~.limits.ServerBusy` at once when
    the worker has no thread left to tie; a wait for a maker that is not tied (a small value,
    made in milliseconds) is not counted."""

    def __init__(self):
        self._locks: dict[str, list] = {}  # key -> [lock, users, maker's thread ident]
        self._guard = threading.Lock()

    def acquire(self, key: str, timeout: float) -> bool:
        with self._guard:
            entry = self._locks.setdefault(key, [threading.Lock(), 0, None])
            entry[1] += 1
        try:
            got = self._wait(entry, timeout)
        except BaseException:  # ServerBusy: not a user any more
            self._drop(key)
            raise
        if got:
            entry[2] = threading.get_ident()
            return True
        self._drop(key)
        return False

    @staticmethod
    def _wait(entry: list, timeout: float) -> bool:
        """Wait up to ``timeout`` for the key's lock, looking every :data:`POLL_SECONDS`
        whether its maker is tied (then this thread is tied too, or refused)."""
        if entry[0].acquire(blocking=False):
            return True
        give_up = time.monotonic() + timeout
        with contextlib.ExitStack() as stack:
            tied = False
            while True:
                if not tied and TIED.holds(entry[2]):
                    stack.enter_context(TIED.tie())
                    tied = True
                left = give_up - time.monotonic()
                if left <= 0:
                    return False
                if entry[0].acquire(timeout=min(POLL_SECONDS, left)):
                    return True

    def release(self, key: str) -> None:
        with self._guard:
            self._locks[key][2] = None
            self._locks[key][0].release()
        self._drop(key)

    def _drop(self, key: str) -> None:
        with self._guard:
            entry = self._locks.get(key)
            if entry is not None:
                entry[1] -= 1
                if entry[1] <= 0:
                    del self._locks[key]


class SharedCache:
    """Memory LRU + disk cache shared by every worker using the same data directory."""

    def __init__(self, root: str | os.PathLike | None, *, memory_mb: float | None = None,
                 disk_mb: float | None = None):
        memory_mb = memory_mb or _mb_from_env("ROC_DASH_MEMORY_CACHE_MB", 64)
        disk_mb = disk_mb or _mb_from_env("ROC_DASH_CACHE_MB", 1024)
        self.memory = ByteLRU(int(memory_mb * 2**20), big_entries=BIG_ENTRIES)
        self._making = KeyLocks()
        self.disk = None
        self._streams = False  # whether the disk cache streams big values into their files
        from .shared_state import RedisValues, redis_url

        if redis_url() is not None:  # replicas on several hosts: the cache in Redis
            try:
                self.disk = RedisValues()
            except Exception:  # noqa: BLE001 - /ready says so; each worker computes
                log.exception("roc-dash: the shared analysis cache in Redis is unavailable")
        elif root is not None:
            try:
                import diskcache

                path = Path(root) / "cache"
                path.mkdir(parents=True, exist_ok=True)
                self.disk = diskcache.Cache(str(path), size_limit=int(disk_mb * 2**20),
                                            disk=_streaming_disk(),
                                            eviction_policy="least-recently-used",
                                            disk_pickle_protocol=pickle.HIGHEST_PROTOCOL)
                self._streams = True
            except Exception:  # noqa: BLE001 - without a disk cache each worker computes
                log.exception("roc-dash: the shared analysis cache is unavailable")
                self.disk = None

    def unreachable(self) -> str | None:
        """Why the shared disk cache (or Redis, ``ROC_DASH_REDIS_URL``) cannot be used now,
        or None when a value written to it reads back (a round trip under a key of its own
        per call; ``/ready`` asks)."""
        if self.disk is None:
            return "the shared analysis cache could not be opened (see the server's log)"
        import secrets

        key = f"ready-probe-{os.getpid()}-{secrets.token_hex(6)}"
        try:
            self.disk.set(key, b"ok", expire=60)
            back = self.disk.get(key)
            self.disk.delete(key)
        except Exception as exc:  # noqa: BLE001 - sqlite, disk or permission errors alike
            return f"the shared analysis cache does not answer ({type(exc).__name__}: {exc})"
        if back != b"ok":
            return "the shared analysis cache did not keep a value written to it"
        return None

    @staticmethod
    def key(parts) -> str:
        """The cache key of ``parts``, under the :data:`LAYOUT` of the pickled classes."""
        return hashlib.sha256(repr((LAYOUT, parts)).encode()).hexdigest()

    def get_or_make(self, parts, make, *, shared: bool = True):
        """The cached value for ``parts`` (any repr-stable tuple), else ``make()`` cached.

        Made once at a time: a thread of this process or (``shared``, with a disk cache)
        another worker making the same value is waited for, up to :func:`_flight_seconds`."""
        key = self.key(parts)
        value = self.memory.get(key)
        if value is not None:
            return value
        wait = _flight_seconds()
        mine = self._making.acquire(key, wait)
        try:
            value = self.memory.get(key)  # made by another thread while this one waited
            if value is not None:
                return value
            shared = shared and self.disk is not None
            lock = self._lock_disk(key, wait) if shared else None
            try:
                value = self._read(key) if shared else None
                if value is not None:
                    self.memory.put(key, value)
                    return value
                value = make()
                if value is None:
                    return None
                lock = self._keep(key, value, shared, lock)
                return value
            finally:
                self._unlock_disk(lock)
        finally:
            if mine:
                self._making.release(key)

    def _read(self, key: str):
        try:
            return self.disk.get(key)
        except Exception:  # noqa: BLE001 - a damaged or outdated entry is recomputed
            # (a class pickled from a module that has moved since: ModuleNotFoundError)
            return None

    def _keep(self, key: str, value, shared: bool, lock):
        """Put a made value in memory and (``shared``) on disk; returns the disk lock still
        to release (None when a writer thread took it over, releasing it once written)."""
        size = approx_nbytes(value)
        self.memory.put(key, value, size=size)
        if not shared:
            return lock
        if size <= BACKGROUND_BYTES:
            self._write(key, value)
            return lock
        # pickling and writing a big analysis (10^7 rows: ~0.8 s) need not hold up the
        # answer that needs it: a thread writes it meanwhile, and lets other workers'
        # waiters in (to read it) only once it is written
        streamed = _Streamed(value) if self._streams else value  # Redis pickles it whole
        writer = threading.Thread(target=self._write, args=(key, streamed, lock),
                                  daemon=True, name="roc-dash-cache-write")
        with _WRITERS_LOCK:
            _WRITERS[:] = [t for t in _WRITERS if t.is_alive()] + [writer]
        writer.start()
        return None

    def _lock_disk(self, key: str, wait: float) -> str | None:
        """Take the workers' lock on making ``key`` (an entry only one ``add`` can create,
        naming its holder: :func:`_holder`), waiting up to ``wait`` seconds for a living
        holder; a lock whose holder died (killed, out of memory, a restart) is taken over
        at once. None when not taken (then the value is made without it: never worse than
        each worker making its own). A wait longer than :data:`.budget.SHORT_WAIT` ties
        this thread (:data:`.budget.TIED`; :class:`~.limits.ServerBusy` when none is left)."""
        name = f"making-{key}"
        started = time.monotonic()
        with contextlib.ExitStack() as stack:
            tied = False
            while True:
                try:
                    if self.disk.add(name, _holder(), expire=wait):
                        return name
                    if key in self.disk:  # made meanwhile: the caller reads it
                        return None
                    holder = self.disk.get(name)
                    if holder is not None and not _alive(holder):
                        self.disk.delete(name)  # left by a dead process: try again at once
                        continue
                except Exception:  # noqa: BLE001 - a lock that cannot be taken is not waited on
                    return None
                waited = time.monotonic() - started
                if waited >= wait:
                    return None
                if waited >= SHORT_WAIT and not tied:
                    stack.enter_context(TIED.tie())
                    tied = True
                time.sleep(POLL_SECONDS)

    def _unlock_disk(self, name: str | None) -> None:
        if name is not None:
            try:
                self.disk.delete(name)
            except Exception:  # noqa: BLE001 - the lock expires by itself
                log.warning("roc-dash: could not release a cache lock", exc_info=True)

    def _write(self, key: str, value, lock: str | None = None) -> None:
        try:
            self.disk.set(key, value)
        except Exception:  # noqa: BLE001 - e.g. disk full: keep serving from memory
            log.warning("roc-dash: could not write the shared cache", exc_info=True)
        finally:
            self._unlock_disk(lock)

    @staticmethod
    def flush(timeout: float | None = None) -> None:
        """Wait for the values being written to a disk cache by threads (see
        :data:`BACKGROUND_BYTES`), those of every cache of the process (tests call it
        after each test, so that no write runs on into the next one)."""
        with _WRITERS_LOCK:
            writers, _WRITERS[:] = list(_WRITERS), []
        for writer in writers:
            writer.join(timeout)
