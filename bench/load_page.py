"""Page loads for ``bench/load_test.py``: what a first visit requests, recorded once in
headless Chromium, then replayed by each simulated user as a browser would send it.

:func:`record_first_load` opens the page once against the running server with Chrome's
performance log on and keeps every request of the first load (``Network.requestWillBeSent``:
method, URL, headers, POST body; ``Network.responseReceived``/``loadingFinished``: status,
response headers, bytes, end time) until the views are drawn and the network has been quiet
for a moment; then Chromium is closed, before the measurement starts.
:func:`parse_performance_log` turns the log into :class:`Recorded` requests and
:func:`dependencies` finds, for each request, the requests whose answers had arrived
before the browser sent it (the HTML before its scripts, a callback before the callback its
answer triggers): :func:`replay` sends a request only after those, in the recorded order,
with at most :data:`BROWSER_CONNECTIONS` at a time, as a browser does per host.

Without Chromium, :func:`static_first_load` is the fallback (it says so): the page, the
scripts and style sheets its HTML names, ``_dash-layout`` and ``_dash-dependencies``; the
initial callbacks are then *not* replayed (their bodies come from the browser).
"""

from __future__ import annotations

import gzip
import json
import re
import threading
import time
import urllib.error
import urllib.request
import zlib
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from urllib.parse import urlsplit

#: Connections a browser opens to one host at a time (HTTP/1.1).
BROWSER_CONNECTIONS = 6
#: Headers the HTTP client sets itself (or that belong to the recording browser).
_OWN_HEADERS = {"host", "content-length", "connection", "cookie", "if-none-match",
                "if-modified-since", "cache-control", "pragma"}
#: What a returning visitor asks for again (the rest is in the browser's cache).
RETURNING = ("_dash-layout", "_dash-dependencies")
#: The key each browser sends to own its uploads (``roc_dash/app/server/auth.py``).
OWNER_HEADER = "x-roc-dash-owner"
#: How long the network must be quiet after the views are drawn, seconds.
QUIET = 2.0


@dataclass
class Recorded:
    """One request of the recorded first load (times in the browser's clock, seconds)."""

    method: str
    path: str  # path and query, relative to the server's root
    body: bytes | None = None
    headers: dict = field(default_factory=dict)
    start: float = 0.0
    end: float | None = None
    status: int | None = None
    response_headers: dict = field(default_factory=dict)
    encoded_bytes: int = 0
    document: bool = False

    @property
    def is_asset(self) -> bool:
        return self.method == "GET" and not self.document and not self.path.endswith(RETURNING)


def parse_performance_log(messages: list[dict], base: str) -> list[Recorded]:
    """The requests to ``base`` (scheme://host:port) in Chrome performance-log messages
    (``{"method": ..., "params": ...}``), in the order they were sent; a redirect is two
    requests; requests that never got an answer keep ``end=None``."""
    origin = urlsplit(base)
    records: list[Recorded] = []
    current: dict[str, Recorded] = {}
    extra: dict[str, dict] = {}
    for message in messages:
        method, params = message.get("method", ""), message.get("params", {})
        rid = params.get("requestId")
        if method == "Network.requestWillBeSent":
            request = params["request"]
            url = urlsplit(request["url"])
            if (url.scheme, url.netloc) != (origin.scheme, origin.netloc):
                continue
            previous = current.get(rid)
            if previous is not None and "redirectResponse" in params:
                previous.status = params["redirectResponse"].get("status")
                previous.end = params["timestamp"]
            body = request.get("postData")
            rec = Recorded(method=request["method"],
                           path=(url.path or "/") + (f"?{url.query}" if url.query else ""),
                           body=body.encode() if body is not None else None,
                           headers=_lower({**request.get("headers", {}), **extra.pop(rid, {})}),
                           start=params["timestamp"], document=params.get("type") == "Document")
            current[rid] = rec
            records.append(rec)
        elif method == "Network.requestWillBeSentExtraInfo":
            headers = _lower({k: v for k, v in params.get("headers", {}).items()
                              if not k.startswith(":")})
            if rid in current:
                current[rid].headers.update(headers)
            else:
                extra[rid] = headers
        elif method == "Network.responseReceived" and rid in current:
            response = params["response"]
            current[rid].status = response.get("status")
            current[rid].response_headers = {k.lower(): v for k, v in
                                             response.get("headers", {}).items()}
        elif method in ("Network.loadingFinished", "Network.loadingFailed") and rid in current:
            current[rid].end = params["timestamp"]
            current[rid].encoded_bytes = int(params.get("encodedDataLength", 0))
    return records


def _lower(headers: dict) -> dict:
    return {str(k).lower(): v for k, v in headers.items()}


def dependencies(records: list[Recorded]) -> list[list[int]]:
    """For each request, the earlier requests whose answers had all arrived before the
    browser sent it (what it may have waited for); unanswered requests are nobody's."""
    return [[i for i in range(j) if records[i].end is not None
             and records[i].end <= records[j].start] for j in range(len(records))]


def returning_subset(records: list[Recorded]) -> list[int]:
    """Indices of what a returning visitor requests again: the page, ``_dash-layout``,
    ``_dash-dependencies`` and the callbacks (the hashed assets are cached)."""
    return [i for i, r in enumerate(records) if not r.is_asset]


def long_cache(headers: dict) -> bool:
    """Whether a response may be kept a day or more without asking again."""
    value = headers.get("cache-control", "").lower()
    if "immutable" in value:
        return True
    match = re.search(r"max-age=(\d+)", value)
    return bool(match) and int(match.group(1)) >= 86400


def slowest(durations: list[tuple[str, float]], n: int = 4) -> list[tuple[str, float, int]]:
    """The ``n`` paths with the longest median request time: (path, median seconds, count)."""
    by_path: dict[str, list[float]] = {}
    for path, seconds in durations:
        by_path.setdefault(path, []).append(seconds)
    medians = [(p, sorted(xs)[len(xs) // 2], len(xs)) for p, xs in by_path.items()]
    return sorted(medians, key=lambda m: -m[1])[:n]


def cache_summary(records: list[Recorded]) -> list[str]:
    """Lines saying what the first load requests and how its assets may be cached."""
    assets = [r for r in records if r.is_asset]
    cached = [r for r in assets if long_cache(r.response_headers)]
    immutable = [r for r in cached if "immutable" in r.response_headers["cache-control"].lower()]
    kinds = sorted({r.response_headers.get("cache-control", "(none)") for r in assets})
    short = sorted(r.path.split("?")[0] for r in assets if r not in cached)
    return [f"{len(records)} requests: the page, {len(assets)} assets, "
            f"{sum(r.path.endswith(RETURNING) for r in records)} of layout and dependencies, "
            f"{sum(r.method == 'POST' for r in records)} callbacks; "
            f"{sum(r.encoded_bytes for r in records) / 1024:,.0f} KiB in the browser",
            f"assets with max-age >= 1 day: {len(cached)} of {len(assets)} "
            f"({len(immutable)} also immutable); Cache-Control values on assets: {kinds}",
            "assets without a long max-age (a browser may ask again): "
            + (", ".join(short) if short else "none")]


# --------------------------------------------------------------------------- recording


def record_first_load(base: str, ready_selector: str, timeout: float = 90) -> list[Recorded]:
    """Open ``base`` in a fresh headless Chromium (empty cache), wait until
    ``ready_selector`` exists and the network has been quiet for :data:`QUIET` seconds,
    close the browser and return the requests of that first load."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1500,1300"):
        options.add_argument(arg)
    options.binary_location = "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    messages: list[dict] = []
    bodies: dict[str, str] = {}

    def drain():
        for entry in driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            messages.append(message)
            params = message.get("params", {})
            request = params.get("request", {})
            if (message.get("method") == "Network.requestWillBeSent"
                    and request.get("hasPostData") and "postData" not in request):
                try:  # a long body is not in the log: ask for it while the page is open
                    bodies[params["requestId"]] = driver.execute_cdp_cmd(
                        "Network.getRequestPostData", {"requestId": params["requestId"]}
                    )["postData"]
                except Exception:  # noqa: BLE001 - reported below as a missing body
                    pass

    try:
        driver.get(base + "/")
        end, ready, last, quiet_since = time.monotonic() + timeout, False, 0, time.monotonic()
        while time.monotonic() < end:
            drain()
            ready = ready or bool(driver.find_elements("css selector", ready_selector))
            if len(messages) != last:
                last, quiet_since = len(messages), time.monotonic()
            if ready and time.monotonic() - quiet_since >= QUIET:
                break
            time.sleep(0.2)
        drain()
        if not ready:
            raise RuntimeError(f"the page did not show {ready_selector} within {timeout:g} s")
    finally:
        driver.quit()
    for message in messages:
        rid = message.get("params", {}).get("requestId")
        if rid in bodies and message.get("method") == "Network.requestWillBeSent":
            message["params"]["request"]["postData"] = bodies[rid]
    records = parse_performance_log(messages, base)
    missing = [r.path for r in records if r.method == "POST" and r.body is None]
    if missing:
        raise RuntimeError(f"no recorded body for {missing}")
    return records


def static_first_load(base: str) -> list[Recorded]:
    """The fallback without a browser: the page, the scripts and style sheets its HTML
    names, then ``_dash-layout`` and ``_dash-dependencies``, one after the other (no
    callbacks: their bodies are what the browser would send)."""
    with urllib.request.urlopen(base + "/", timeout=30) as r:
        html = r.read().decode("utf-8", "replace")
    records = [Recorded("GET", "/", start=0.0, end=1.0, document=True)]
    refs = re.findall(r'<(?:script[^>]*\ssrc|link[^>]*\shref)="([^"]+)"', html)
    for k, ref in enumerate(dict.fromkeys(refs)):
        url = urlsplit(ref)
        if url.netloc and url.netloc != urlsplit(base).netloc:
            continue
        records.append(Recorded("GET", url.path + (f"?{url.query}" if url.query else ""),
                                start=2.0, end=3.0 + k))
    t = 4.0 + len(records)
    for name in RETURNING:
        records.append(Recorded("GET", "/" + name, start=t, end=t + 1))
        t += 2
    return records


# --------------------------------------------------------------------------- replaying


@dataclass
class Load:
    """One replayed page load."""

    seconds: float
    requests: int
    bytes: int
    errors: int
    busy_retries: int
    answers: list  # parsed JSON answers of the callbacks, in the recorded order
    durations: list = field(default_factory=list)  # (path without query, seconds) each


def _decode(raw: bytes, encoding: str) -> bytes:
    if encoding == "gzip":
        return gzip.decompress(raw)
    if encoding == "deflate":
        return zlib.decompress(raw)
    return raw


def fetch(base: str, rec: Recorded, owner: str = "",
          timeout: float = 60) -> tuple[int, int, int, object]:
    """Send one recorded request as the browser did (its headers and body, with this
    user's own ``owner`` key in place of the recording browser's; a 503 with
    ``Retry-After`` is sent again after that long). (status, body bytes received, busy
    retries, parsed JSON answer of a callback or None)."""
    headers = {k: v for k, v in rec.headers.items() if k not in _OWN_HEADERS}
    if "br" in headers.get("accept-encoding", ""):  # what this client can read back
        headers["accept-encoding"] = "gzip, deflate"
    if owner and OWNER_HEADER in headers:
        headers[OWNER_HEADER] = owner
    retries = 0
    for _ in range(20):
        req = urllib.request.Request(base + rec.path, data=rec.body, method=rec.method,
                                     headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                raw = r.read()
                answer = None
                if rec.method == "POST" and r.status == 200 and raw:
                    try:
                        answer = json.loads(_decode(raw, r.headers.get("Content-Encoding", "")))
                    except ValueError:
                        answer = None
                return r.status, len(raw), retries, answer
        except urllib.error.HTTPError as e:
            wait_s = e.headers.get("Retry-After") if e.code == 503 else None
            if wait_s is None:
                return e.code, len(e.read() or b""), retries, None
            retries += 1
            time.sleep(float(wait_s))
        except OSError:
            return 599, 0, retries, None
    return 503, 0, retries, None


def replay(base: str, records: list[Recorded], deps: list[list[int]], subset: list[int],
           pool: ThreadPoolExecutor, owner: str = "") -> Load:
    """Send ``records[subset]`` in their recorded order, each once the requests of
    ``subset`` it depended on (:func:`dependencies`) are answered, at most ``pool``'s
    worker count at a time. Time: from the first request sent to the last answer."""
    futures: dict[int, object] = {}
    chosen = set(subset)
    lock = threading.Lock()
    first: list[float] = []

    def send(rec):
        t0 = time.perf_counter()
        with lock:
            if not first:
                first.append(t0)
        return (*fetch(base, rec, owner), time.perf_counter() - t0)

    for j in subset:
        waits = [futures[i] for i in deps[j] if i in chosen]
        if waits:
            wait(waits)
        futures[j] = pool.submit(send, records[j])
    results = [futures[j].result() for j in subset]
    seconds = time.perf_counter() - first[0] if first else 0.0
    return Load(seconds=seconds, requests=len(results),
                bytes=sum(r[1] for r in results),
                errors=sum(not (200 <= r[0] < 400) for r in results),
                busy_retries=sum(r[2] for r in results),
                answers=[r[3] for r in results if r[3] is not None],
                durations=[(records[j].path.split("?")[0], r[4])
                           for j, r in zip(subset, results, strict=True)])
