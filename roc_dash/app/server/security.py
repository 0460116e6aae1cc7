"""Hardening of the Flask server behind the Dash app, for a server shared by a team.

:func:`harden` adds, on one ``flask.Flask`` (``app.server``):

* **Security headers** on every response: ``X-Content-Type-Options: nosniff``,
  ``Referrer-Policy: same-origin``, ``X-Frame-Options: SAMEORIGIN`` and a
  Content-Security-Policy that lets the locally served Dash 4 page run and nothing else:
  scripts only from this origin plus the page's own inline scripts by SHA-256 hash (Dash's
  index has one, ``var renderer = new DashRenderer(...)``; the ``_dash-config`` block is JSON
  data, which CSP does not govern), no ``'unsafe-eval'`` (neither the renderer nor plotly.js's
  SVG traces need it), inline styles allowed (plotly.js injects ``<style>`` elements and style
  attributes), images also from ``data:``/``blob:`` URLs (plotly's "download plot" and mode bar),
  no plugins, no foreign ``<base>``, framing only by this origin. A header a view already set
  is kept.
* **gzip** for compressible responses (HTML, JS, CSS, JSON, SVG, CSV, text) over 1 KiB when
  the client accepts it; files served by Flask's ``send_file`` are read back from their
  pass-through mode first. Static files (``/_dash-component-suites/``, ``/assets/``) are
  compressed once per (path, validator): Dash's fingerprinted suite URLs carry the package
  version and file mtime, assets carry ``Last-Modified``, and other suites an ``ETag``; the
  cache is LRU-bounded (64 MiB) and shared by a worker's threads; one thread compresses a
  file while the others wait for it, and :func:`precompress_static` fills the cache when a
  gunicorn worker starts. The ``ETag`` of a compressed
  response becomes weak, and a matching ``If-None-Match`` on a static file gets ``304``.
* **Cache headers**: fingerprinted assets (``/assets/<file>?m=``) a year, ``immutable``
  (Dash's versioned suites already get a year); Dash's suites without a fingerprint
  (plotly.min.js, dcc's async chunks) ``no-cache`` with their ETag (a 304 on the next visit);
  ``_favicon.ico?v=<dash version>`` a day.
* **400, not 500, for malformed callback requests**: ``TypeError``, ``ValueError``,
  ``LookupError`` (``KeyError``, ``IndexError``), ``AttributeError``, ``OverflowError`` and
  ``RecursionError`` raised while serving
  ``/_dash-update-component`` (a body that is not a JSON object, missing keys, an input of the
  wrong type reaching a callback) answer ``400`` with a short JSON message and log one warning
  line naming the exception and where it was raised, without a traceback. ``PreventUpdate``
  keeps Dash's own handler (``204``); errors of other types, and these types on other routes,
  stay 500s with their tracebacks logged.
* **404 for paths under ``assets/`` and ``_dash-component-suites/`` that name no file**
  (never the page, never cached; :mod:`.unknown_paths`), and **redirects without a host**
  (``Location: /roc/x/``: :func:`.url_prefix.relative_redirects`).
* **No version in the development server's ``Server`` header**: ``server.run`` (what
  ``app.run`` calls) uses a Werkzeug request handler that answers ``Server: roc-dash`` instead of
  ``Werkzeug/x.y Python/x.y``. Under gunicorn the header is set by gunicorn itself; see
  ``gunicorn.conf.py``.

* **Bounded bodies and clients** (:mod:`.limits`): bodies capped before they are read (413),
  slow senders cut off (408), callback bodies checked (400), one heavy parse per worker
  (503 with ``Retry-After``).

Calling :func:`harden` twice on one server does nothing the second time.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import logging
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Callable

from flask import Flask, Request, Response, jsonify, request
from werkzeug.serving import WSGIRequestHandler

from .cache import KeyLocks
from .url_prefix import path_under

__all__ = [
    "CONTENT_SECURITY_POLICY", "SERVER_NAME", "QuietRequestHandler", "content_security_policy",
    "harden", "inline_script_hashes", "LATE_SUITES", "precompress_static",
]

log = logging.getLogger(__name__)

#: What the development server says in its ``Server`` header.
SERVER_NAME = "roc-dash"

#: The policy, without the per-page hashes of inline scripts (added to ``script-src``).
CONTENT_SECURITY_POLICY: dict[str, tuple[str, ...]] = {
    "default-src": ("'self'",),
    "script-src": ("'self'",),
    "style-src": ("'self'", "'unsafe-inline'"),
    "img-src": ("'self'", "data:", "blob:"),
    "font-src": ("'self'", "data:"),
    "connect-src": ("'self'",),
    "object-src": ("'none'",),
    "base-uri": ("'self'",),
    "form-action": ("'self'",),
    "frame-ancestors": ("'self'",),
}

_STATIC_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "SAMEORIGIN",
}

_CALLBACK_PATH = "/_dash-update-component"
_STATIC_PREFIXES = ("/_dash-component-suites/", "/assets/")

#: Responses smaller than this are sent as they are.
MIN_COMPRESS_SIZE = 1024
#: Files served in pass-through mode larger than this are not read back to be compressed.
MAX_COMPRESS_SIZE = 64 << 20
#: Bytes of compressed static files kept per process.
STATIC_CACHE_BYTES = 64 << 20

_COMPRESSIBLE = frozenset(
    {
        "application/javascript",
        "application/x-javascript",
        "application/json",
        "application/xml",
        "application/wasm",
        "image/svg+xml",
    }
)


def _is_compressible(mimetype: str | None) -> bool:
    return bool(mimetype) and (mimetype.startswith("text/") or mimetype in _COMPRESSIBLE)


# --------------------------------------------------------------------------- CSP

_INLINE_SCRIPT = re.compile(
    r"<script\b(?P<attrs>[^>]*)>(?P<body>.*?)</script\s*>", re.IGNORECASE | re.DOTALL
)
_SRC_ATTR = re.compile(r"\ssrc\s*=", re.IGNORECASE)
_TYPE_ATTR = re.compile(r"""\stype\s*=\s*["']?\s*([^"'\s>]+)""", re.IGNORECASE)
_JS_TYPES = frozenset(
    {"", "module", "text/javascript", "application/javascript", "application/x-javascript",
     "text/ecmascript", "application/ecmascript"}
)


def inline_script_hashes(html: str) -> list[str]:
    """CSP source expressions (``'sha256-...'``) of the executable inline scripts in ``html``
    (scripts without ``src`` whose type is JavaScript; JSON data blocks are not executed)."""
    hashes = []
    for match in _INLINE_SCRIPT.finditer(html):
        attrs = match.group("attrs")
        if _SRC_ATTR.search(attrs):
            continue
        kind = _TYPE_ATTR.search(attrs)
        if kind is not None and kind.group(1).lower() not in _JS_TYPES:
            continue
        digest = hashlib.sha256(match.group("body").encode("utf-8")).digest()
        source = f"'sha256-{base64.b64encode(digest).decode('ascii')}'"
        if source not in hashes:
            hashes.append(source)
    return hashes


def content_security_policy(script_hashes: list[str] | tuple[str, ...] = ()) -> str:
    """The ``Content-Security-Policy`` value, allowing the given inline-script hashes."""
    directives = dict(CONTENT_SECURITY_POLICY)
    directives["script-src"] = (*directives["script-src"], *script_hashes)
    return "; ".join(f"{name} {' '.join(values)}" for name, values in directives.items())


# --------------------------------------------------------------------------- gzip


class _CompressedCache:
    """LRU map (path, validators...) -> gzip bytes, bounded in total bytes; thread-safe.

    One thread compresses a given key; the others asking for it meanwhile wait for its
    result (a stampede of first visits right after a start compressed plotly.js, 4.6 MB,
    ~0.4 s of CPU, once per thread: up to 12 times on 3 workers x 4 threads)."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._items: OrderedDict[tuple, bytes] = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        self._making = KeyLocks()

    def _get(self, key: tuple) -> bytes | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def get_or_make(self, key: tuple, make: Callable[[], bytes]) -> bytes:
        found = self._get(key)
        if found is not None:
            return found
        mine = self._making.acquire(key, 30)  # another thread compressing it: its result
        try:
            found = self._get(key)
            if found is not None:
                return found
            value = make()  # outside the lock: other keys are served meanwhile
            if len(value) <= self.max_bytes:
                with self._lock:
                    self._items[key] = value
                    self._bytes += len(value)
                    while self._bytes > self.max_bytes:
                        _, dropped = self._items.popitem(last=False)
                        self._bytes -= len(dropped)
            return value
        finally:
            if mine:
                self._making.release(key)

    def __len__(self) -> int:
        return len(self._items)


def _accepts_gzip(req: Request) -> bool:
    return req.accept_encodings["gzip"] > 0


def _is_static(req: Request) -> bool:
    return any(prefix in req.path for prefix in _STATIC_PREFIXES)


def _not_modified(response: Response) -> bool:
    """Turn a static 200 into 304 when the client holds it (weak comparison: the ETag of a
    compressed response is weak, and Dash compares suite ETags strictly)."""
    etag, _ = response.get_etag()
    if not etag or request.method not in ("GET", "HEAD"):
        return False
    if not request.if_none_match.contains_weak(etag):
        return False
    response.status_code = 304
    response.direct_passthrough = False
    response.set_data(b"")
    return True


def _compress(response: Response, cache: _CompressedCache) -> Response:
    if not _is_compressible(response.mimetype):
        return response
    response.vary.add("Accept-Encoding")
    if response.status_code != 200 or "Content-Encoding" in response.headers:
        return response
    static = _is_static(request)
    if static and _not_modified(response):
        return response
    if not _accepts_gzip(request):
        return response
    if response.direct_passthrough:  # send_file: a file wrapper with a known length
        length = response.content_length
        if length is None or length < MIN_COMPRESS_SIZE or length > MAX_COMPRESS_SIZE:
            return response
        response.direct_passthrough = False
    elif response.is_streamed:  # a generator: stream it as it is
        return response
    data = response.get_data()
    if len(data) < MIN_COMPRESS_SIZE:
        return response
    if static:
        key = (
            request.path,
            response.headers.get("ETag"),
            response.headers.get("Last-Modified"),
            len(data),
            response.mimetype,
        )
        packed = cache.get_or_make(key, lambda: gzip.compress(data, 6, mtime=0))
    else:
        packed = gzip.compress(data, 5, mtime=0)
    if len(packed) >= len(data):
        return response
    response.set_data(packed)
    response.headers["Content-Encoding"] = "gzip"
    etag, weak = response.get_etag()
    if etag and not weak:
        response.set_etag(etag, weak=True)
    return response


#: Scripts the page asks for that its HTML does not name (dash-renderer and dcc load them
#: when a graph, dropdown or slider first shows): plotly.js (4.6 MB, ~1.4 MB gzipped) and
#: dcc's async chunks. Not fingerprinted by Dash: revalidated by their ``ETag``.
LATE_SUITES = (
    "_dash-component-suites/plotly/package_data/plotly.min.js",
    "_dash-component-suites/dash/dcc/async-graph.js",
    "_dash-component-suites/dash/dcc/async-dropdown.js",
    "_dash-component-suites/dash/dcc/async-slider.js",
    "_dash-component-suites/dash/dcc/async-upload.js",
)
_PAGE_REFS = re.compile(r'<(?:script[^>]*\ssrc|link[^>]*\shref)="([^"]+)"')


def precompress_static(wsgi_app, prefix: str = "/") -> dict[str, int]:
    """Compress, in this process, every static file a first visit asks for before anyone
    asks: the scripts and style sheets the page at ``prefix`` names and :data:`LATE_SUITES`,
    each fetched once through ``wsgi_app`` (the hardened server, with its middleware) with
    ``Accept-Encoding: gzip``, so its gzip is in the process's cache. gunicorn calls it in
    each worker before the worker takes connections (``gunicorn.conf.py``): a stampede of
    first visits then spends no CPU on compression. The requests carry the warm-up mark
    (:data:`.auth.WARM_UP`), which sign-in lets through. Returns each path's status."""
    from werkzeug.test import Client

    from .auth import WARM_UP

    client = Client(wsgi_app)
    warm_up = {WARM_UP: True}  # the worker's own requests: past sign-in (auth.WARM_UP)
    page = client.get(prefix, environ_overrides=warm_up)
    html = page.get_data(as_text=True) if page.status_code == 200 else ""
    page.close()
    paths = [ref for ref in dict.fromkeys(_PAGE_REFS.findall(html))
             if ref.startswith("/") and not ref.startswith("//")]
    paths += [prefix.rstrip("/") + "/" + late for late in LATE_SUITES]
    statuses = {}
    for path in paths:
        response = client.get(path, headers={"Accept-Encoding": "gzip"},
                              environ_overrides=warm_up)
        statuses[path] = response.status_code
        response.close()
    return statuses


# --------------------------------------------------------------------------- errors

_BAD_CALLBACK_ERRORS: tuple[type[Exception], ...] = (
    TypeError,
    ValueError,
    LookupError,
    AttributeError,
    OverflowError,  # e.g. a number too large for a float, or int(inf)
    RecursionError,  # a structure nested too deeply for the code reading it
)


def _where(error: BaseException) -> str:
    tb = error.__traceback__
    if tb is None:
        return "?"
    while tb.tb_next is not None:
        tb = tb.tb_next
    code = tb.tb_frame.f_code
    return f"{os.path.basename(code.co_filename)}:{tb.tb_lineno} in {code.co_name}"


def _bad_callback(error: Exception):
    """400 for a malformed callback request; anything else is re-raised (a 500, logged with
    its traceback by Flask)."""
    if not request.path.endswith(_CALLBACK_PATH):
        raise error
    detail = " ".join(str(error).split())[:200]
    log.warning(
        "400 for %s %s: %s: %s (at %s)",
        request.method,
        request.path,
        type(error).__name__,
        detail,
        _where(error),
    )
    body = jsonify(
        error="bad request",
        message="The callback request is malformed or holds values of the wrong type.",
    )
    return body, 400


# --------------------------------------------------------------------------- dev server


class QuietRequestHandler(WSGIRequestHandler):
    """Werkzeug's development request handler without versions in its ``Server`` header."""

    def version_string(self) -> str:
        return SERVER_NAME


def _quiet_run(run: Callable) -> Callable:
    def run_quietly(*args, **kwargs):
        kwargs.setdefault("request_handler", QuietRequestHandler)
        return run(*args, **kwargs)

    run_quietly.__doc__ = run.__doc__
    run_quietly.__wrapped__ = run  # type: ignore[attr-defined]
    return run_quietly


# --------------------------------------------------------------------------- harden


#: A year: how long a browser keeps a file whose URL changes whenever the file does.
_IMMUTABLE = "public, max-age=31536000, immutable"


def _cache_fingerprinted(response: Response, assets: str = "/assets/") -> None:
    """``/assets/<file>?m=<mtime>`` (Dash's fingerprint of our CSS and JS) changes its URL
    whenever the file changes, like the versioned component suites Dash already caches for a
    year: a returning browser reloads neither (Dash itself sends them ``no-cache``, so every
    page load revalidated each with a request, which slowed page loads under load)."""
    if (response.status_code == 200 and request.path.startswith(assets)
            and request.url_rule is not None and request.url_rule.rule.startswith(assets)
            and request.args.get("m")):
        response.headers["Cache-Control"] = _IMMUTABLE
    elif (response.status_code == 200 and request.path.endswith("/_favicon.ico")
          and request.args.get("v")):
        # named by Dash's version only (a new icon in assets/ keeps the URL): a day
        response.headers["Cache-Control"] = "public, max-age=86400"
    elif (response.status_code == 200 and _is_static(request) and response.get_etag()[0]
          and "Cache-Control" not in response.headers):
        # Dash's suites without a fingerprint (plotly.min.js, dcc's async chunks) have only an
        # ETag: say outright that the browser keeps them but asks first (a 304), and that no
        # shared cache (nginx's proxy_cache) may serve them past a new version
        response.headers["Cache-Control"] = "no-cache"


def harden(server: Flask, *, compress: bool = True) -> None:
    """Add security headers, gzip, 400s for malformed callbacks and a quiet ``Server`` header
    to ``server`` (a Dash app's ``app.server``); see the module docstring. Call it once the
    Dash app is built (``harden(app.server)`` in ``create_app``); a second call does nothing.
    """
    if "roc_dash.security" in server.extensions:
        return
    cache = _CompressedCache(STATIC_CACHE_BYTES)
    assets = path_under(server, "assets/")  # Dash serves them under the URL prefix
    server.extensions["roc_dash.security"] = {"compress": compress, "cache": cache}

    @server.after_request
    def _secure(response: Response) -> Response:
        for name, value in _STATIC_HEADERS.items():
            response.headers.setdefault(name, value)
        if "Content-Security-Policy" not in response.headers:
            script_hashes: list[str] = []
            if (
                response.mimetype == "text/html"
                and not response.direct_passthrough
                and not response.is_streamed
            ):
                # per response: Dash's index differs on every request (a signed token)
                script_hashes = inline_script_hashes(response.get_data(as_text=True))
            response.headers["Content-Security-Policy"] = content_security_policy(script_hashes)
        _cache_fingerprinted(response, assets)
        if compress:
            response = _compress(response, cache)
        return response

    for error_type in _BAD_CALLBACK_ERRORS:
        server.register_error_handler(error_type, _bad_callback)

    server.run = _quiet_run(server.run)  # type: ignore[method-assign]
    from .limits import install as install_limits
    from .unknown_paths import install as install_unknown_paths
    from .url_prefix import relative_redirects

    install_limits(server)
    install_unknown_paths(server)
    relative_redirects(server)
