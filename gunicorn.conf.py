"""gunicorn settings for `gunicorn app:server`, configured by environment variables.

HOST (0.0.0.0), PORT (8050), WEB_CONCURRENCY (workers, 3), ROC_DASH_THREADS (threads per worker, 4),
ROC_DASH_TIMEOUT (seconds, 120), ROC_DASH_KEEPALIVE (seconds an idle connection is kept, 75:
longer than the proxy's 60, see below), ROC_DASH_MAX_REQUESTS (a worker is replaced after
about that many requests, 5000, with 10% jitter). gunicorn reads this file from the working
directory.

Additions to the plain settings:

* ``preload_app``: the master imports and builds the app once (a bad ``ROC_DASH_URL_PREFIX``
  is refused before, with its message alone, exit 2) and forks the workers from it, its
  objects frozen out of the garbage collector's reach (``when_ready``): the libraries and the
  app are shared by the workers copy-on-write (issue 14; README "peak per worker"). A
  ``HUP`` therefore restarts the workers on the code already loaded: restart the server
  (the container) to run new code.
* ``post_worker_init`` serves one request to the page (``/``, or ``ROC_DASH_URL_PREFIX``)
  inside each worker before it accepts connections. Dash sets up its list of servable
  scripts on the first request (its ``_setup_server`` before-request hook), and with
  threaded workers a second request that arrives meanwhile is served before the setup has finished: right after a start,
  ``/_dash-component-suites/...`` answered 500 and the page stayed at "Loading..."
  (plotly/dash issue 3971). It then starts a thread that compresses the page's scripts
  (plotly.js: ~0.4 s of CPU) into the worker's gzip cache, so that a stampede of first visits
  after a start does not (``security.precompress_static``). Warmed up, a worker's first real request finds the setup done.
  Both are marked as the worker's own requests (``auth.WARM_UP``, an environ key no HTTP
  request can set), so that sign-in (``ROC_DASH_USER_HEADER``) does not answer them 401.
* gunicorn announces itself as ``Server: gunicorn`` on every response and has no setting to
  change that; the value it uses is patched to ``roc-dash`` (no product or version disclosed).
"""

import os

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8050')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "3"))
threads = int(os.environ.get("ROC_DASH_THREADS", "4"))
timeout = int(os.environ.get("ROC_DASH_TIMEOUT", "120"))
# Idle connections are kept longer than the proxy keeps them (deploy/nginx.conf: upstream
# keepalive_timeout 60s), so that the proxy always closes them first. gunicorn's default (2 s)
# closed connections nginx was about to reuse: a POST sent on one as it closed got nginx's 503
# (nginx retries only GETs). Without a proxy, a client's idle connection holds a file
# descriptor this long (gunicorn's worker_connections, 1000 per worker, bounds them).
keepalive = int(os.environ.get("ROC_DASH_KEEPALIVE", "75"))
accesslog = "-"
# a backstop against slow growth (fragmentation, caches of libraries): each worker is replaced
# after about this many requests (the jitter keeps workers from restarting together)
max_requests = int(os.environ.get("ROC_DASH_MAX_REQUESTS", "5000"))
max_requests_jitter = max(1, max_requests // 10)
# gunicorn 25+ opens a control socket for gunicornc at $HOME/.gunicorn/gunicorn.ctl: shared by
# every instance of a user on the host (one's shutdown deleted another's) and unused here
control_socket_disable = True

try:  # gunicorn writes "Server: %s" % gunicorn.http.wsgi.SERVER into every response
    import gunicorn.http.wsgi as _gunicorn_wsgi

    if isinstance(getattr(_gunicorn_wsgi, "SERVER", None), str):
        _gunicorn_wsgi.SERVER = "roc-dash"
except ImportError:  # pragma: no cover - a gunicorn without that module keeps its header
    pass


def _refuse_bad_url_prefix():
    """Refuse a bad ``ROC_DASH_URL_PREFIX`` once, in the master, with the message alone
    (loading the app would otherwise fail with a traceback). Called as this file is read:
    before the master loads the app (``preload_app``)."""
    import sys

    from roc_dash.app.server.url_prefix import url_prefix

    try:
        url_prefix()
    except ValueError as exc:
        print(f"roc-dash: {exc}", file=sys.stderr)
        sys.exit(2)


def post_worker_init(worker):
    """Run Dash's first-request setup in this worker before it serves anyone (dash #3971)."""
    from werkzeug.test import Client

    # the page is at the app's URL prefix (ROC_DASH_URL_PREFIX; "/" is a 404 under /roc/)
    prefix = getattr(worker.wsgi, "config", {}).get("ROC_DASH_URL_PREFIX", "/")
    from roc_dash.app.server.auth import WARM_UP

    try:  # marked as the worker's own (past sign-in: with it on, a plain request gets 401)
        response = Client(worker.wsgi).get(prefix, environ_overrides={WARM_UP: True})
        status = response.status_code
        response.close()
    except Exception:  # noqa: BLE001 - a failed warm-up must not keep the worker down
        worker.log.exception("roc-dash: warm-up request to %s failed", prefix)
        return
    if status != 200:
        worker.log.warning("roc-dash: warm-up request to %s answered %s", prefix, status)
        return
    # gzip the page's scripts now, not under the first visitors (issue 14); in a thread, so
    # that the worker takes connections meanwhile (a request for a file being compressed
    # waits for that one compression instead of making its own)
    import threading

    threading.Thread(target=_precompress, args=(worker, prefix), daemon=True,
                     name=PRECOMPRESS_THREAD).start()


#: The name of the thread that compresses the page's scripts when a worker starts.
PRECOMPRESS_THREAD = "roc-dash-precompress"


def _precompress(worker, prefix):
    try:
        from roc_dash.app.server.security import precompress_static

        statuses = precompress_static(worker.wsgi, prefix)
    except Exception:  # noqa: BLE001 - unwarmed, the files are compressed on first use
        worker.log.exception("roc-dash: compressing the page's scripts at start failed")
        return
    done = sum(status == 200 for status in statuses.values())
    worker.log.info("roc-dash: %d of %d page scripts compressed ahead of the first visitors",
                    done, len(statuses))
    if done < len(statuses):
        worker.log.warning("roc-dash: not compressed at start: %s", ", ".join(
            f"{path} ({status})" for path, status in statuses.items() if status != 200))


# Memory per worker (issue 14: a budget that fits a team on two cores). pyarrow's default
# allocator (mimalloc) keeps what a parse freed for its next parse: ~100 MB more per worker under
# bench/load_test.py than the system allocator, for no measurable speed. The workers inherit
# this environment and pyarrow reads it on first use; an operator's own setting wins.
os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")

# numpy's OpenBLAS runs a product of vectors on a thread per core: with 3 workers x 4 threads on
# two cores those threads wait for each other (one dot of 65,536 values took 20 ms instead of
# 0.03 ms on a loaded machine). One BLAS thread per request thread; an operator's setting wins.
# Set before anything imports numpy (the URL prefix check at the end of this file does).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

# glibc gives each thread
# that allocates its own malloc arena (up to 8 per core); with 4 threads per worker the arenas
# keep freed memory from each other and from the system. Two arenas, and the freed top of the
# heap handed back to the system after a request that allocated much, keep a worker near what
# it uses. mallopt set in the master is inherited by the forked workers.
_M_ARENA_MAX = -8
_TRIM_EVERY = 0.5  # seconds: at most that often per worker
_libc = None
try:
    import ctypes
    import ctypes.util

    _libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    _libc.mallopt(_M_ARENA_MAX, int(os.environ.get("ROC_DASH_MALLOC_ARENAS", "2")))
except (OSError, AttributeError):  # not glibc (e.g. musl, macOS): nothing to tune
    _libc = None

_last_trim = [0.0]


def post_request(worker, req, environ, resp):
    """Give freed heap memory back to the system, at most every ``_TRIM_EVERY`` seconds."""
    if _libc is None or not hasattr(_libc, "malloc_trim"):
        return
    import time

    now = time.monotonic()
    if now - _last_trim[0] >= _TRIM_EVERY:
        _last_trim[0] = now
        _libc.malloc_trim(0)


# The master builds the app once and forks the workers from it (issue 14). It imported the
# libraries before too (the URL prefix check below imports roc_dash.app), but each worker built
# its own app; now the app and the objects made at import (~120 MB) are shared copy-on-write,
# and a worker replaced after max_requests starts from that state too. Nothing the app starts
# at import is a Python thread (threads do not survive a fork): the cache writers, the sweep
# and the body watchdog start in the worker that needs them; diskcache opens its own
# connection per process (it checks the pid); OpenBLAS and jemalloc handle fork themselves.
preload_app = True
_refuse_bad_url_prefix()


def when_ready(server):
    """In the master, once the app is loaded and before the workers are forked: move every
    object made so far out of the garbage collector's reach (``gc.freeze``), so that a
    worker's collections do not write to (and so copy) the pages it shares with the master."""
    import gc

    gc.collect()
    gc.freeze()
