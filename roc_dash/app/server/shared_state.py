"""State that several app replicas share through Redis (``ROC_DASH_REDIS_URL``).

One container keeps everything a worker knows on its host: the analysis cache in ``diskcache``
(SQLite under the data folder), the sweep's lock as a file lock, the source jobs' progress as
files. That works for the workers of one host, not for replicas on several hosts (SQLite and
file locks are unsafe on a network file system, and a lock's holder on another host cannot be
checked). With ``ROC_DASH_REDIS_URL`` set (``redis://host:6379/0``), these move to Redis:

* :class:`RedisValues`: the shared analysis cache and the workers' "making this value" locks
  of :class:`~.cache.SharedCache` (the same calls as ``diskcache.Cache``: ``get``, ``set``,
  ``add``, ``delete``, ``in``); values expire ``ROC_DASH_REDIS_CACHE_DAYS`` (7) after they
  were written, and Redis's own ``maxmemory`` policy (``allkeys-lru``) bounds the whole;
  a value pickled larger than ``ROC_DASH_REDIS_MAX_VALUE_MB`` (256) is not shared (each
  replica makes its own, as without a shared cache);
* :func:`take_sweep_turn`: one replica at a time collects expired datasets, at most once
  per ``ROC_DASH_SWEEP_SECONDS`` across all of them (``SET NX EX``);
* :class:`RedisJobs`: the progress of the server-side source jobs (:mod:`.sources`), so that
  any replica answers the page's polls; a job whose replica stopped (killed, scaled down) is
  reported as failed once its heartbeat is older than :data:`JOB_HEARTBEAT_SECONDS` x 4,
  instead of "running" for ever (a job queued to Celery workers, :mod:`.job_queue`, waits
  for one without a heartbeat).

Without the variable nothing here is used and nothing changes (``make run``, one
container). The datasets, notes and uploads stay in the data folder
(``ROC_DASH_DATA_DIR``), which the replicas then share (a network volume: NFS, EFS, a
``ReadWriteMany`` volume); see ``docs/scaling.md``.
"""

from __future__ import annotations

import json
import logging
import os
import pickle
import threading
import time

from .env_settings import env_number

__all__ = ["REDIS_VAR", "redis_url", "client", "RedisValues", "RedisJobs",
           "take_sweep_turn", "JOB_HEARTBEAT_SECONDS", "PREFIX"]

#: The environment variable that names the shared Redis.
REDIS_VAR = "ROC_DASH_REDIS_URL"
#: Every key this app writes starts with this (a Redis shared with other apps is fine).
PREFIX = "roc-dash:"
#: How often a running source job says it is alive, seconds.
JOB_HEARTBEAT_SECONDS = 5.0

_CLIENTS: dict[str, object] = {}
_CLIENTS_LOCK = threading.Lock()


def redis_url() -> str | None:
    """``ROC_DASH_REDIS_URL``, or None when unset (then every state stays embedded)."""
    url = os.environ.get(REDIS_VAR, "").strip()
    return url or None


def client(url: str | None = None):
    """One Redis client per URL per process (redis-py's pool opens new connections in a
    forked worker by itself: it checks the process id). Raises ``RuntimeError`` with what
    to do when the ``redis`` package is missing."""
    url = url or redis_url()
    if url is None:
        raise RuntimeError(f"{REDIS_VAR} is not set")
    with _CLIENTS_LOCK:
        if url not in _CLIENTS:
            try:
                import redis
            except ImportError as exc:  # pragma: no cover - the extra is documented
                raise RuntimeError(f"{REDIS_VAR} is set but the redis package is not "
                                   "installed: pip install 'roc-dash[scale]'") from exc
            _CLIENTS[url] = redis.Redis.from_url(url, socket_timeout=10,
                                                 socket_connect_timeout=5,
                                                 health_check_interval=30)
        return _CLIENTS[url]


def _seconds(expire) -> int | None:
    """Redis's whole seconds (at least 1) for an expiry in seconds, None for none."""
    return None if expire is None else max(1, int(round(float(expire))))


class RedisValues:
    """A ``diskcache.Cache``-like mapping of pickled values in Redis, under ``namespace``.

    Only what :class:`~.cache.SharedCache` calls: ``get``, ``set``, ``add`` (an entry only
    one caller can create: ``SET NX``), ``delete`` and ``in``."""

    def __init__(self, url: str | None = None, *, namespace: str = "cache"):
        self.redis = client(url)
        self.prefix = f"{PREFIX}{namespace}:"
        self.ttl = int(env_number("ROC_DASH_REDIS_CACHE_DAYS", 7) * 86400)
        self.max_bytes = int(env_number("ROC_DASH_REDIS_MAX_VALUE_MB", 256) * 2**20)
        import redis

        self._down = (redis.ConnectionError, redis.TimeoutError)

    def _key(self, key: str) -> str:
        return self.prefix + str(key)

    @staticmethod
    def _dump(value) -> bytes:
        return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)

    def get(self, key: str, default=None):
        raw = self.redis.get(self._key(key))
        return default if raw is None else pickle.loads(raw)  # noqa: S301 - our own values

    def set(self, key: str, value, expire: float | None = None) -> bool:
        """Keep ``value``; False when it is too big to share or Redis does not answer
        (said in the log in one line, at most once a minute: each worker then keeps its
        values to itself, and ``/ready`` says why)."""
        data = self._dump(value)
        if len(data) > self.max_bytes:
            return False  # too big to share: each replica keeps its own in memory
        try:
            return bool(self.redis.set(self._key(key), data,
                                       ex=_seconds(expire) or self.ttl))
        except self._down as exc:
            _say_down(exc)
            return False

    def add(self, key: str, value, expire: float | None = None) -> bool:
        return bool(self.redis.set(self._key(key), self._dump(value), nx=True,
                                   ex=_seconds(expire) or self.ttl))

    def delete(self, key: str) -> bool:
        try:
            return bool(self.redis.delete(self._key(key)))
        except self._down as exc:  # a lock entry then expires by itself
            _say_down(exc)
            return False

    def __contains__(self, key) -> bool:
        return bool(self.redis.exists(self._key(key)))


_LAST_SAID = [0.0]


def _say_down(exc: BaseException) -> None:
    """One log line about Redis not answering, at most once a minute per process."""
    now = time.monotonic()
    if now - _LAST_SAID[0] >= 60.0:
        _LAST_SAID[0] = now
        logging.getLogger(__name__).warning(
            "roc-dash: Redis (%s) does not answer (%s: %s); each worker computes for "
            "itself meanwhile", REDIS_VAR, type(exc).__name__, exc)


def take_sweep_turn(interval: float, *, url: str | None = None) -> bool:
    """Whether this process sweeps now: True for one caller across every replica per
    ``interval`` seconds (the key expires then); a Redis that does not answer: False (the
    next request tries again)."""
    try:
        return bool(client(url).set(f"{PREFIX}swept", str(os.getpid()), nx=True,
                                    ex=_seconds(interval)))
    except Exception:  # noqa: BLE001 - connection errors of any kind: no sweep this time
        return False


class RedisJobs:
    """Source jobs' states in Redis (JSON per token), kept ``keep`` seconds.

    A running job has a heartbeat key besides its state, renewed by :meth:`beat` every
    :data:`JOB_HEARTBEAT_SECONDS` and expiring after four of those; :meth:`status` reports
    a running job without one as failed (its replica stopped), with what to do."""

    LOST = ("{label}: the server that was opening it stopped before it finished (restarted "
            "or scaled down). Nothing was stored; open it again.")

    def __init__(self, keep: float, url: str | None = None):
        self.redis = client(url)
        self.keep = _seconds(keep)

    @staticmethod
    def _key(token: str) -> str:
        return f"{PREFIX}job:{token}"

    def write(self, token: str, state: dict) -> None:
        with self.redis.pipeline() as pipe:
            pipe.set(self._key(token), json.dumps(state), ex=self.keep)
            if state.get("state") == "running":
                pipe.set(self._key(token) + ":beat", "1",
                         ex=_seconds(4 * JOB_HEARTBEAT_SECONDS))
            pipe.execute()

    def beat(self, token: str) -> None:
        """Say that the job's replica still runs it."""
        self.redis.set(self._key(token) + ":beat", "1", ex=_seconds(4 * JOB_HEARTBEAT_SECONDS))

    def status(self, token: str) -> dict | None:
        raw, alive = self.redis.mget([self._key(token), self._key(token) + ":beat"])
        try:
            data = json.loads(raw) if raw is not None else None
        except ValueError:
            return None
        if not isinstance(data, dict):
            return None
        if data.get("state") == "running" and alive is None and not data.get("queued"):
            return {"state": "failed",
                    "error": self.LOST.format(label=data.get("label") or "the source")}
        return data
