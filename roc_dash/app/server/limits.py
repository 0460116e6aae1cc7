"""Bounds on what one client can make a worker hold: request bodies, slow senders, heavy parses.

A server shared by a team must keep answering whatever one client sends. This module adds, on
the WSGI level (before Flask reads anything), and per worker process:

* **Bodies capped.** Every route except ``POST /upload`` takes at most
  ``ROC_DASH_MAX_BODY_KB`` (default 1024) KiB: a larger ``Content-Length`` is refused with 413
  before a byte of the body is read, and a body without a length (chunked) is read up to the
  cap and refused as soon as it passes it. Such a body is read completely before the app sees
  it (it is small), so a callback never waits on the network.
* **Refusals heard.** A body refused before it was read (too large by its length, a busy
  worker, no room) is read and thrown away after the answer is sent, for at most
  ``ROC_DASH_BODY_TIMEOUT`` seconds (a lingering close, as nginx does): a client that sends
  its whole body before reading the answer gets the message instead of a reset connection.
* **Slow senders cut off.** Reading a body is watched: a non-upload body must arrive within
  ``ROC_DASH_BODY_TIMEOUT`` seconds (default 10), one upload file within
  ``ROC_DASH_UPLOAD_TIMEOUT`` (default 900), and any body at
  ``ROC_DASH_MIN_UPLOAD_KBPS`` KiB/s on average (default 16) once the first
  :data:`RATE_GRACE` seconds have passed. A body that falls behind is answered 408 and its
  connection closed: under gunicorn a watchdog thread shuts the socket's reading side, which
  wakes a thread blocked on a client that sends one byte a second.
* **Callback bodies checked.** A ``/_dash-update-component`` body must be JSON (400 otherwise,
  also for JSON nested deeper than :data:`MAX_JSON_DEPTH`, which Python's parser would answer
  with a RecursionError) and no text in it may be longer than ``ROC_DASH_MAX_TEXT``
  characters (default 65,536; the note box holds 5,000): a page never gets 10 MB of text
  echoed back.
* **Uploads and slow bodies at a time.** At most ``ROC_DASH_MAX_CONCURRENT_UPLOADS``
  (default: threads - 2, at least 1) files stream into one worker at once, and at most
  threads - 1 of its threads wait on clients' bodies (uploads included), so one thread is
  always free for requests without a body (``/health``, the page); another gets 503 with
  ``Retry-After`` and the page sends it again after that many seconds, saying so.
* **One heavy parse per worker.** Reading an upload into a table (decompression, parsing,
  validation: the most memory one request takes) runs under :func:`heavy_parse`: a second
  one in the same worker waits up to :data:`BUSY_WAIT` seconds and then gets
  :class:`ServerBusy` (503, ``Retry-After``), which the page retries after that many
  seconds with a visible "server busy, retrying in N s" notice. With the io limits on what
  a parse may decode, a worker's memory stays within one parse plus its caches.

The refusals are JSON ``{"ok": false, "error": "<what happened and what to do>"}``, served
by Flask (so they carry the security headers of :mod:`.security`).
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import socket
import threading
import time
import weakref

from flask import Flask, jsonify, request

from .env_settings import env_number  # noqa: F401 - also imported from here
from .url_prefix import path_under

__all__ = [
    "excerpt", "BodyTimeout", "BodyTooLarge", "ServerBusy", "GuardedInput", "heavy_parse",
    "install", "max_body_bytes", "max_upload_bytes", "upload_slot",
]

log = logging.getLogger(__name__)

UPLOAD_PATH = "/upload"
CALLBACK_SUFFIX = "/_dash-update-component"
#: Seconds a body may take before the minimum average rate applies.
RATE_GRACE = 10.0
#: Bytes read from the network at a time (and the slack given to the rate check).
CHUNK = 64 * 1024
#: How often the watchdog looks at the bodies being read, seconds.
TICK = 0.25
#: JSON nested deeper than this in a callback body is refused.
MAX_JSON_DEPTH = 64
#: Seconds a second heavy parse waits for the first before the request gets 503.
BUSY_WAIT = 2.0
#: What ``Retry-After`` says when a worker is busy, seconds.
RETRY_AFTER = 3
_ENV_REFUSAL = "roc_dash.refused"
_ENV_BUSY = "roc_dash.busy"


def max_body_bytes() -> int:
    """``ROC_DASH_MAX_BODY_KB`` (default 1024) in bytes: the largest body of any request but
    an upload."""
    return int(env_number("ROC_DASH_MAX_BODY_KB", 1024) * 1024)


def max_upload_bytes() -> int:
    """``ROC_DASH_MAX_UPLOAD_MB`` (default 200), in bytes: the largest file, and the largest
    drop of several files together."""
    try:
        mb = float(os.environ.get("ROC_DASH_MAX_UPLOAD_MB", "200"))
    except ValueError:
        mb = 200.0
    return int((mb if mb > 0 else 200.0) * 2**20)


def body_timeout() -> float:
    return env_number("ROC_DASH_BODY_TIMEOUT", 10)


def upload_timeout() -> float:
    return env_number("ROC_DASH_UPLOAD_TIMEOUT", 900)


def unclaimed_seconds() -> float:
    """An upload's files not read within this time (a closed tab, a client that never asks)
    are deleted: the upload time limit and two minutes for the page to claim them."""
    return upload_timeout() + 120.0


def min_rate() -> float:
    """Bytes per second a body must average once :data:`RATE_GRACE` has passed."""
    return env_number("ROC_DASH_MIN_UPLOAD_KBPS", 16) * 1024


def max_text() -> int:
    return int(env_number("ROC_DASH_MAX_TEXT", 65536))


def max_concurrent_uploads() -> int:
    default = max(1, threads_per_worker() - 2)
    return max(1, int(env_number("ROC_DASH_MAX_CONCURRENT_UPLOADS", default)))


class BodyTooLarge(Exception):
    """The body passed its cap while it was read."""


class BodyTimeout(Exception):
    """The body did not arrive in time (deadline, or below the minimum rate)."""


class ServerBusy(Exception):
    """This worker is doing its one heavy parse (or its uploads) now: try again later."""

    def __init__(self, message: str, retry_after: int = RETRY_AFTER):
        super().__init__(message)
        self.message = message
        self.retry_after = int(retry_after)


def excerpt(value, n: int = 40, *, quote: bool = True) -> str:
    """What a message shows of a text the user typed: at most ``n`` characters (a page never
    gets a long text echoed back in a message), quoted unless ``quote`` is false."""
    text = " ".join(str(value).split()) if value is not None else ""
    if len(text) > n:
        cut = text[:n] + "…"
        return f"{cut!r} ({len(text):,} characters)" if quote else f"{cut} ({len(text):,} characters)"
    return repr(text) if quote else text


# --------------------------------------------------------------------------- watchdog


class _Watchdog:
    """A daemon thread per process that cuts off bodies arriving too slowly; it runs while
    there are bodies being read and stops when there are none."""

    def __init__(self) -> None:
        self._bodies: weakref.WeakSet[GuardedInput] = weakref.WeakSet()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._pid = 0

    def watch(self, body: GuardedInput) -> None:
        with self._lock:
            self._bodies.add(body)
            # none yet, or it ended (a fork has no threads; a test runner may stop threads)
            if (self._thread is None or not self._thread.is_alive()
                    or self._pid != os.getpid()):
                self._pid = os.getpid()
                self._thread = threading.Thread(target=self._run, name="roc-dash-watchdog",
                                                daemon=True)
                self._thread.start()

    def forget(self, body: GuardedInput) -> None:
        with self._lock:
            self._bodies.discard(body)

    def _run(self) -> None:
        try:
            self._loop()
        except SystemExit:  # a test runner stopping every thread: watch() starts it again
            return

    def _loop(self) -> None:
        while True:
            time.sleep(TICK)
            now = time.monotonic()
            with self._lock:
                bodies = list(self._bodies)
                if not bodies:
                    self._thread = None
                    return
            for body in bodies:
                if body.overdue(now):
                    body.abort()


_watchdog = _Watchdog()


class GuardedInput:
    """``wsgi.input`` read under a byte cap, an overall deadline and a minimum average rate.

    ``read`` raises :class:`BodyTooLarge` past ``limit`` bytes and :class:`BodyTimeout` when
    the watchdog gave up on the client (it then shuts the socket's reading side so that a
    read blocked on a silent client returns).
    """

    def __init__(self, stream, sock=None, *, limit: int, deadline: float,
                 rate: float | None = None, grace: float | None = None):
        self._stream = stream
        self._sock = sock
        self.limit = int(limit)
        self.deadline = float(deadline)
        self.rate = min_rate() if rate is None else float(rate)
        self.grace = RATE_GRACE if grace is None else float(grace)
        self.started = time.monotonic()
        self.received = 0
        self.aborted = False
        self.why = ""
        self.done = False
        self.eof = False
        _watchdog.watch(self)

    def overdue(self, now: float) -> bool:
        if self.done or self.aborted:
            return False
        elapsed = now - self.started
        if elapsed > self.deadline:
            self.why = f"it took longer than {self.deadline:g} s"
            return True
        if elapsed > self.grace and self.received + CHUNK < self.rate * (elapsed - self.grace):
            # a read in progress holds up to one CHUNK not counted yet: an upper bound
            self.why = (f"it arrived at under "
                        f"{(self.received + CHUNK) / max(elapsed, 1e-9) / 1024:,.1f} KiB/s, "
                        f"below the {self.rate / 1024:g} KiB/s the server waits for")
            return True
        return False

    def abort(self) -> None:
        self.aborted = True
        if self._sock is not None:
            with contextlib.suppress(OSError):
                self._sock.shutdown(socket.SHUT_RD)

    def finish(self) -> None:
        self.done = True
        _watchdog.forget(self)

    def _timeout(self) -> BodyTimeout:
        self.finish()
        return BodyTimeout(self.why or "the connection was cut off")

    def read(self, size: int = -1) -> bytes:
        if self.aborted:
            raise self._timeout()
        room = self.limit - self.received + 1  # one byte more tells "too large"
        want = CHUNK if size is None or size < 0 else min(size, CHUNK)
        try:
            data = self._stream.read(max(1, min(want, room)))
        except Exception:
            if self.aborted:
                raise self._timeout() from None
            raise
        if self.aborted and len(data) < min(want, room):
            raise self._timeout()
        self.received += len(data)
        if self.received > self.limit:
            self.finish()
            raise BodyTooLarge()
        if not data:
            self.eof = True
            self.finish()
        return data

    def readline(self, size: int = -1) -> bytes:  # pragma: no cover - Flask reads in blocks
        return self.read(size)

    def read_all(self) -> bytes:
        parts = []
        while True:
            data = self.read(CHUNK)
            if not data:
                return b"".join(parts)
            parts.append(data)


def _socket_of(environ):
    return environ.get("gunicorn.socket") or environ.get("werkzeug.socket")


# --------------------------------------------------------------------------- per worker


_parse_lock = threading.Semaphore(1)
_slots_lock = threading.Lock()
_slot_pools: dict[tuple[str, int], threading.BoundedSemaphore] = {}


def threads_per_worker() -> int:
    return max(1, int(env_number("ROC_DASH_THREADS", 4)))


def max_network_readers() -> int:
    """Threads of a worker that may wait on a client's body at once: all but one, so that
    one thread is always free for requests without a body (``/health``, the page, assets)."""
    return max(1, threads_per_worker() - 1)


@contextlib.contextmanager
def heavy_parse(what: str = "another upload"):
    """Hold this worker's one heavy-parse slot; :class:`ServerBusy` if it stays taken for
    :data:`BUSY_WAIT` seconds."""
    if not _parse_lock.acquire(timeout=BUSY_WAIT):
        raise ServerBusy(f"The server is busy reading {what}; your request is retried in "
                         f"{RETRY_AFTER} s.")
    try:
        yield
    finally:
        _parse_lock.release()


def _pool(name: str, n: int) -> threading.BoundedSemaphore:
    with _slots_lock:
        if (name, n) not in _slot_pools:
            _slot_pools[(name, n)] = threading.BoundedSemaphore(n)
        return _slot_pools[(name, n)]


@contextlib.contextmanager
def _slot(name: str, n: int, message: str, wait: float = 0.0):
    pool = _pool(name, n)
    taken = pool.acquire(timeout=wait) if wait > 0 else pool.acquire(blocking=False)
    if not taken:
        raise ServerBusy(message)
    try:
        yield
    finally:
        pool.release()


def reader_slot():
    """One of this worker's :func:`max_network_readers` slots for reading a body, waited
    for up to :data:`BUSY_WAIT` seconds (a body that is all there takes a slot for
    microseconds, but threads busy computing can make reading it wait for the interpreter
    lock: such requests queue briefly; only slow senders holding every slot make others
    wait long enough for a 503)."""
    return _slot("read", max_network_readers(),
                 "The server is receiving data from other requests; your request is sent "
                 f"again in {RETRY_AFTER} s.", wait=BUSY_WAIT)


@contextlib.contextmanager
def upload_slot(name: str = "the file"):
    """One of this worker's ``ROC_DASH_MAX_CONCURRENT_UPLOADS`` slots for a streaming
    upload (and a reader slot); :class:`ServerBusy` at once if none is free."""
    message = (f"The server is receiving other uploads; {name} is sent again in "
               f"{RETRY_AFTER} s.")
    with _slot("upload", max_concurrent_uploads(), message), \
            _slot("read", max_network_readers(), message):
        yield


# --------------------------------------------------------------------------- checks


def _too_long(value, limit: int, depth: int = 0) -> tuple[str, int] | None:
    """(what, size) of the first problem in a parsed callback body: a string longer than
    ``limit`` or nesting deeper than :data:`MAX_JSON_DEPTH`; None when fine."""
    if depth > MAX_JSON_DEPTH:
        return "depth", depth
    if isinstance(value, str):
        return ("text", len(value)) if len(value) > limit else None
    if isinstance(value, dict):
        for key, item in value.items():
            found = _too_long(key, limit, depth + 1) or _too_long(item, limit, depth + 1)
            if found:
                return found
    elif isinstance(value, list):
        for item in value:
            found = _too_long(item, limit, depth + 1)
            if found:
                return found
    return None


def _check_callback_body(body: bytes) -> tuple[int, str] | None:
    try:
        parsed = json.loads(body)
    except RecursionError:
        return 400, "The callback request is nested too deeply to be read."
    except (ValueError, OverflowError):
        return 400, "The callback request is not valid JSON."
    found = _too_long(parsed, max_text())
    if found is None:
        return None
    what, size = found
    if what == "depth":
        return 400, f"The callback request is nested more than {MAX_JSON_DEPTH} levels deep."
    return 400, (f"A text value in the request holds {size:,} characters; the server accepts "
                 f"at most {max_text():,} (ROC_DASH_MAX_TEXT). Shorten it and try again.")


#: The most a refused request's body is read (and thrown away) after the answer was sent.
def _linger_bytes() -> int:
    return 2 * max(max_upload_bytes(), max_body_bytes())


def _drain(raw, sock) -> None:
    """Read and throw away what is left of a body (a lingering close): a client that sends
    the whole body before it reads the answer (most do) then gets the 413, 503 or 507
    instead of a reset connection. Bounded by ``ROC_DASH_BODY_TIMEOUT`` and
    :func:`_linger_bytes`, under the watchdog."""
    rest = GuardedInput(raw, sock, limit=_linger_bytes(), deadline=body_timeout())
    try:
        while rest.read(CHUNK):
            pass
    except Exception:  # noqa: BLE001 - too slow, too much, or gone: the connection closes
        pass
    finally:
        rest.finish()


class _Linger:
    """The app's answer, then (when the server closes it, after sending it) :func:`_drain`."""

    def __init__(self, result, raw, sock):
        self._result, self._raw, self._sock = result, raw, sock

    def __iter__(self):
        return iter(self._result)

    def close(self):
        try:
            close = getattr(self._result, "close", None)
            if close is not None:
                close()
        finally:
            _drain(self._raw, self._sock)


class BodyGuard:
    """WSGI middleware: see the module docstring. ``upload_path``: where the streamed upload
    route is (``/upload`` under the app's URL prefix)."""

    def __init__(self, app, upload_path: str = UPLOAD_PATH):
        self.app = app
        self.upload_path = upload_path

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "")
        method = environ.get("REQUEST_METHOD", "GET")
        try:
            length = int(environ.get("CONTENT_LENGTH") or -1)
        except ValueError:
            length = -2
        # a body without a length: chunked, or (a WSGI server that says the input ends by
        # itself) any request that usually has a body
        chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower() or (
            length == -1 and bool(environ.get("wsgi.input_terminated"))
            and method not in ("GET", "HEAD", "OPTIONS"))
        if length == -2:
            environ[_ENV_REFUSAL] = (400, "The request's Content-Length is not a number.")
            return self._empty_body(environ, start_response)
        if length <= 0 and not chunked:
            return self.app(environ, start_response)
        sock = _socket_of(environ)
        raw = environ["wsgi.input"]
        if method == "POST" and path == self.upload_path:
            guarded = GuardedInput(raw, sock, limit=max_upload_bytes() + 65536,
                                   deadline=upload_timeout())
            environ["wsgi.input"] = guarded
            result = self.app(environ, start_response)
            guarded.finish()
            if guarded.eof or guarded.aborted:
                return result
            return _Linger(result, raw, sock)  # refused before the body was all read
        cap = max_body_bytes()
        if length > cap:
            environ[_ENV_REFUSAL] = (413, self._too_large_message(length, cap))
            return self._empty_body(environ, start_response, (raw, sock))
        try:
            with reader_slot():
                guarded = GuardedInput(environ["wsgi.input"], sock, limit=cap,
                                       deadline=body_timeout())
                try:
                    body = (guarded.read_all() if length < 0
                            else self._read_exactly(guarded, length))
                finally:
                    guarded.finish()
        except ServerBusy as exc:
            environ[_ENV_BUSY] = exc
            return self._empty_body(environ, start_response, (raw, sock))
        except BodyTooLarge:
            environ[_ENV_REFUSAL] = (413, self._too_large_message(None, cap))
            return self._empty_body(environ, start_response, (raw, sock))
        except BodyTimeout as exc:
            environ[_ENV_REFUSAL] = (408, f"The request body did not arrive in time ({exc}); "
                                          "the connection was closed. Try again.")
            return self._empty_body(environ, start_response)
        except OSError:  # the client went away: nobody to answer
            environ[_ENV_REFUSAL] = (400, "The request body was cut off.")
            return self._empty_body(environ, start_response)
        if method == "POST" and path.endswith(CALLBACK_SUFFIX):
            refusal = _check_callback_body(body)
            if refusal is not None:
                environ[_ENV_REFUSAL] = refusal
                return self._empty_body(environ, start_response)
        environ["wsgi.input"] = io.BytesIO(body)
        environ["CONTENT_LENGTH"] = str(len(body))
        environ.pop("HTTP_TRANSFER_ENCODING", None)
        environ["wsgi.input_terminated"] = False
        return self.app(environ, start_response)

    @staticmethod
    def _read_exactly(guarded: GuardedInput, length: int) -> bytes:
        parts, got = [], 0
        while got < length:
            data = guarded.read(min(CHUNK, length - got))
            if not data:
                raise OSError("the client closed the connection")
            parts.append(data)
            got += len(data)
        return b"".join(parts)

    @staticmethod
    def _too_large_message(length: int | None, cap: int) -> str:
        size = f" of {length / 2**20:,.1f} MB" if length is not None else ""
        return (f"The request body{size} is larger than the {cap / 1024:,.0f} KiB this server "
                "accepts outside file uploads (ROC_DASH_MAX_BODY_KB). Files are added through "
                "the upload area.")

    def _empty_body(self, environ, start_response, leftover=None):
        """Answer the refusal kept in ``environ`` (through Flask, for its headers); with
        ``leftover`` (the body's stream and socket), read the rest after answering."""
        environ["wsgi.input"] = io.BytesIO(b"")
        environ["CONTENT_LENGTH"] = "0"
        environ.pop("HTTP_TRANSFER_ENCODING", None)
        environ["wsgi.input_terminated"] = False
        result = self.app(environ, start_response)
        return result if leftover is None else _Linger(result, *leftover)


def _refusal_response(status: int, message: str):
    response = jsonify({"ok": False, "error": message})
    response.status_code = status
    return response


def busy_response(exc: ServerBusy):
    response = _refusal_response(503, exc.message)
    response.headers["Retry-After"] = str(exc.retry_after)
    return response


def install(server: Flask) -> None:
    """Put :class:`BodyGuard` in front of ``server`` and answer its refusals (first of the
    ``before_request`` hooks), and :class:`ServerBusy` with 503 + ``Retry-After``."""
    server.wsgi_app = BodyGuard(  # type: ignore[method-assign]
        server.wsgi_app, upload_path=path_under(server, UPLOAD_PATH))

    def _refused():
        busy = request.environ.get(_ENV_BUSY)
        if busy is not None:
            return busy_response(busy)
        refusal = request.environ.get(_ENV_REFUSAL)
        if refusal is None:
            return None
        status, message = refusal
        log.warning("%s for %s %s: %s", status, request.method, request.path, message)
        return _refusal_response(status, message)

    server.before_request_funcs.setdefault(None, []).insert(0, _refused)
    server.register_error_handler(ServerBusy, busy_response)
