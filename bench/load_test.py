"""Load test of the container configuration, on loopback only (a benchmark, not a test).

Starts ``gunicorn app:server`` with the project's ``gunicorn.conf.py`` (as the Dockerfile does:
3 workers x 4 threads unless WEB_CONCURRENCY / ROC_DASH_THREADS say otherwise) on a free
127.0.0.1 port with an empty data folder, then runs N simulated users for a bounded time.
Each user loads the page once and then, in a loop with short think times, does what people
do in a review: changes a cost or the prior (the controls callback, then the callback that
redraws every view, as the browser sends them), changes the fold averaging, and now and then
uploads a ~1 MB CSV through the streaming route and looks at it. The script reports, side by
side: requests, errors, the median and 95th percentile of a cost change (the click as the page
sends it: one controls request that returns the views too, then the views request it triggers),
of an averaging change and of an upload, and the peak resident memory of each worker.

Page loads (issue 14: "page load p95 < 2 s"): before the users start, the page is opened
once in headless Chromium against the started server and every request of its first load
is recorded (``bench/load_page.py``: method, URL, headers, callback bodies); Chromium is
closed before the measurement. Each user starts with a first visit (the recorded requests,
replayed in their order, each after the answers it waited for in the browser, at most 6 at
a time) and 3% of its later actions are a returning visit (the page, ``_dash-layout``,
``_dash-dependencies`` and the callbacks: hashed assets cached). The time is from the first
request to the last answer: network and server, not the browser's script and drawing time.
Without Chromium a static list (the page, its scripts, the layout) is used and the output
says so.

``--big-upload ROWS`` (e.g. 10000000): one more user uploads a gzip CSV of ROWS rows of
``label, score, model, fold`` (``bench/bench_io.py``'s ``generate``, written once before the
run) through ``/upload`` at the start and asks for its first views; printed: its accept
time and time to first views, and the other users' errors and busy retries meanwhile.
Server limits that would refuse the file are raised for the server process (printed).

All users start at once (their first visits together: the worst case); ``--ramp S``
spreads their first visits evenly over S seconds. The slowest requests of a page load
(median over the loads) are printed under its row.

``--nginx``: the users go through ``deploy/nginx.conf`` (the documented container set-up, run
with the system's nginx: its lines marked ``# test:`` set to loopback addresses and a temporary
folder, as ``tests/hostile/test_nginx.py`` does) in front of the same gunicorn; nginx keeps the
versioned scripts in its cache. Without it (the default) they talk to gunicorn directly. The
output says which.

``--replicas N``: N gunicorn processes (each with ``WEB_CONCURRENCY`` workers) on one data
folder, sharing a ``redis-server`` started for the run (``ROC_DASH_REDIS_URL``), behind the
same nginx taking them in turn (no sticky sessions): what ``docs/scaling.md`` measures.

``--actions N``: each user stops after N actions (cost, averaging, upload, returning visit),
so that two runs do the same work however busy the machine is (memory grows with the work
done: compare peaks with it; ``--seconds`` still bounds the run).

``--store s3``: the replicas keep the datasets, notes and uploads arriving in an S3-compatible
store (moto's server on loopback, started for the run: ``tools/s3_server.py``, as the
replicated tests start it), each replica with a data folder of its own (nothing shared on
disk). ``--store folder,s3``: both set-ups one after the other in one run, then their
figures side by side (the same machine, minutes apart: compare the ratios).

Run: ``python bench/load_test.py [--users 20] [--seconds 60] [--ramp S] [--actions N]
[--big-upload ROWS] [--nginx] [--replicas N] [--store folder|s3|folder,s3]``. Every
request goes to 127.0.0.1 only; the loop stops by itself and the server is always stopped.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import io
import json
import os
import random
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import zlib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import load_page  # noqa: E402  (bench/, the script's own folder)

from roc_dash.app import create_app, ids  # noqa: E402
from roc_dash.io import size_limits  # noqa: E402
from tools.processes import free_port, stop_group  # noqa: E402

#: Share of a user's actions that are a returning visit (the page loaded again).
RETURN_VISITS = 0.03
FIRST, AGAIN = "page load (first visit)", "page load (returning)"


def callback_specs():
    """Each callback's request skeleton, from the app's own callback map."""
    from tools.dash_requests import callback_specs as specs_of

    return specs_of(create_app(data_dir=tempfile.mkdtemp()))


def find(specs, first_output):
    return next(s for k, s in specs.items() if first_output in k.split("...")[0])


def payload(spec, values: dict, changed: list[str]):
    def filled(items):
        out = []
        for item in items:
            item = dict(item)
            key = f"{item['id']}.{item['property']}"
            if key in values:
                item["value"] = values[key]
            out.append(item)
        return out

    return {"output": spec["output"], "outputs": spec["outputs"],
            "inputs": filled(spec["inputs"]), "state": filled(spec["state"]),
            "changedPropIds": changed}


class User(threading.Thread):
    timeout = 30.0

    def __init__(self, base, specs, deadline, upload_csv, seed, stats, lock, page=None):
        super().__init__(daemon=True)
        self.base, self.specs, self.deadline = base, specs, deadline
        self.upload_csv, self.rng = upload_csv, random.Random(seed)
        self.stats, self.lock = stats, lock
        self.page = page  # (records, dependencies, returning subset) of the recorded load
        self.owner = secrets.token_urlsafe(24)  # this browser's own key
        self.kind = "start"
        self.delay = 0.0
        self.datasets = ["demo"]
        # the models' keys (dataset id and name), as the model list holds them
        self.models = ["demo/logistic regression", "demo/naive Bayes", "demo/decision tree",
                       "demo/gradient boosting"]
        self.conditions = None
        self.viz = None  # what the page keeps from the last full render (enables patching)
        self.clicks = 0
        self.averaging = "pooled"
        self.actions = None  # --actions: stop after that many (else at the deadline only)

    def count(self, what, kind, n=1):
        """Add ``n`` to the ``what`` ("errors", "busy") count of ``kind``, with the time."""
        with self.lock:
            counts = self.stats.setdefault(what, {})
            counts[kind] = counts.get(kind, 0) + n
            self.stats.setdefault("events", []).append((time.monotonic(), what, kind, n))

    def record(self, kind, seconds, ok, requests=1):
        with self.lock:
            self.stats.setdefault(kind, []).append(seconds)
            self.stats["requests"] = self.stats.get("requests", 0) + requests
        if not ok:
            self.count("errors", kind)

    def post(self, path, body, content_type="application/json"):
        """POST as the page does: a 503 with Retry-After (a worker reading another upload)
        is sent again after that many seconds, the wait counted in the request's time."""
        data = json.dumps(body).encode() if content_type == "application/json" else body
        for _ in range(20):
            req = urllib.request.Request(self.base + path, data=data, method="POST",
                                         headers={"Content-Type": content_type})
            try:
                with urllib.request.urlopen(req, timeout=self.timeout) as r:
                    raw = r.read()
                    return r.status, (json.loads(raw) if raw and r.status == 200 else None)
            except urllib.error.HTTPError as e:
                wait = e.headers.get("Retry-After") if e.code == 503 else None
                if wait is None:
                    return e.code, None
                self.count("busy", self.kind)
                why = e.read()[:400].decode(errors="replace")  # which limit, said by the server
                with self.lock:
                    whys = self.stats.setdefault("busy why", {})
                    whys[why] = whys.get(why, 0) + 1
                time.sleep(float(wait))
            except OSError:
                return 599, None
        return 503, None

    def callback(self, first_output, values, changed):
        spec = find(self.specs, first_output)
        return self.post("/_dash-update-component", payload(spec, values, changed))

    def view_values(self, averaging=None):
        return {"datasets.data": self.datasets, "models.value": self.models,
                "conditions.data": self.conditions,
                "averaging.value": averaging or self.averaging,
                "level.value": 0.95, "band.value": "pointwise", "samples.value": 51,
                "det.value": [], "presentation.value": [], "pinned.data": [],
                "roc-ties.value": [], "pr-mode.value": "pr", "zoom.data": None,
                "threshold-model.value": None, "threshold-axis.value": "threshold",
                "combine.data": None, "viz-data.data": self.viz}

    def keep_viz(self, body):
        viz = (body or {}).get("response", {}).get("viz-data", {}).get("data")
        if isinstance(viz, dict):
            self.viz = viz

    def views(self, averaging="pooled", changed="averaging.value"):
        # the views callback (its first output: the cost slider; it draws every view)
        status, body = self.callback("cost-fp-slider.value", {
            **self.view_values(averaging), "url.search": ""}, [changed])
        if status == 200 and body:
            self.keep_viz(body)
            self.averaging = averaging
        return status, body

    def change_cost(self):
        """One click on a cost or prior stepper, as the page sends it: the views callback,
        which returns the new conditions and the views for them in one response."""
        self.clicks += 1
        which = self.rng.choice([ids.COST_FP_UP, ids.COST_FN_UP, ids.COST_FP_DOWN,
                                 ids.PRIOR_UP, ids.PRIOR_DOWN])
        t0 = time.perf_counter()
        status, body = self.callback("cost-fp-slider.value", {
            **self.view_values(), f"{which}.n_clicks": self.clicks, "url.search": ""},
            [f"{which}.n_clicks"])
        ok = status == 200
        if ok:
            self.conditions = body["response"]["conditions"]["data"]
            self.keep_viz(body)
        self.record("cost change", time.perf_counter() - t0, ok)

    def upload(self):
        token = secrets.token_urlsafe(24)
        # a new file each time (one extra row), as different people's files would be
        body = self.upload_csv + f"{self.rng.randint(0, 1)},{self.rng.random():.6f}\n".encode()
        t0 = time.perf_counter()
        status, _ = self.post(f"/upload?batch={token}&index=0&name=user.csv", body,
                              content_type="application/octet-stream")
        ok = status == 200
        phases = [time.perf_counter()]  # the file sent; read as a dataset; its views
        if ok:
            status, body = self.callback("datasets.data", {
                "streamed-upload.data": {"batch": token, "stamp": time.time()},
                "datasets.data": self.datasets, "url.search": ""}, ["streamed-upload.data"])
            phases.append(time.perf_counter())
            ok = status == 200 and body is not None
            if ok:
                new = body["response"].get("datasets", {}).get("data", self.datasets)
                self.datasets = new if isinstance(new, list) else self.datasets
                self.models = ([f"{self.datasets[-1]}/user"] if self.datasets != ["demo"]
                               else self.models)
                status, _ = self.views(self.averaging, "datasets.data")
                phases.append(time.perf_counter())
                ok = status in (200, 204)
        self.record("upload 1 MB + views", time.perf_counter() - t0, ok)
        with self.lock:
            self.stats.setdefault("upload phases", []).append(
                [b - a for a, b in zip([t0, *phases], phases, strict=False)])

    def page_load(self, first: bool):
        """The recorded first load replayed (``first``), or a returning visit's part of it;
        the conditions and views the page gets are kept as the browser keeps them."""
        self.kind = kind = FIRST if first else AGAIN
        records, deps, again = self.page
        subset = list(range(len(records))) if first else again
        with ThreadPoolExecutor(load_page.BROWSER_CONNECTIONS) as pool:
            load = load_page.replay(self.base, records, deps, subset, pool, self.owner)
        with self.lock:
            self.stats.setdefault(kind + " requests", []).append(load.requests)
            self.stats.setdefault(kind + " bytes", []).append(load.bytes)
            self.stats.setdefault(kind + " durations", []).extend(load.durations)
        self.record(kind, load.seconds, load.errors == 0, load.requests)
        if load.busy_retries:
            self.count("busy", kind, load.busy_retries)
        for answer in load.answers:
            response = answer.get("response", {}) if isinstance(answer, dict) else {}
            conditions = response.get("conditions", {}).get("data")
            if isinstance(conditions, dict):
                self.conditions = conditions
            self.keep_viz(answer)

    def start_page(self):
        if self.page is not None:
            self.page_load(first=True)
        with self.lock:
            got = self.conditions is not None
            self.stats["conditions from the page load"] = (
                self.stats.get("conditions from the page load", 0) + got)
        if self.conditions is None:  # no callbacks recorded: the controls as the page asks
            status, body = self.callback("cost-fp-slider.value", {
                "datasets.data": self.datasets, "url.search": ""}, ["url.search"])
            if status == 200:
                self.conditions = body["response"]["conditions"]["data"]

    def run(self):
        time.sleep(self.delay)  # --ramp: arrivals spread out
        self.start_page()
        done = 0
        while time.monotonic() < self.deadline and (self.actions is None
                                                    or done < self.actions):
            done += 1
            r = self.rng.random()
            if r < RETURN_VISITS and self.page is not None:
                self.page_load(first=False)
            elif r < 0.7:
                self.kind = "cost change"
                self.change_cost()
            elif r < 0.93:
                self.kind = "averaging change"
                t0 = time.perf_counter()
                status, _ = self.views(self.rng.choice(["none", "pooled", "vertical",
                                                        "threshold"]), "averaging.value")
                self.record("averaging change", time.perf_counter() - t0, status == 200)
            else:
                self.kind = "upload 1 MB + views"
                self.upload()
            time.sleep(self.rng.uniform(0.2, 1.0))  # think time


class BigUpload(User):
    """The user who uploads the big gzip file once, at the start, and asks for its views."""

    timeout = 900.0

    def __init__(self, base, specs, path: Path, stats, lock):
        super().__init__(base, specs, 0.0, b"", 10_000, stats, lock)
        self.path = path
        self.result: dict = {}

    def run(self):
        self.kind = "big upload"
        self.start_page()
        token, data = secrets.token_urlsafe(24), self.path.read_bytes()
        res = self.result
        res["start"] = time.monotonic()
        t0 = time.perf_counter()
        status, _ = self.post(f"/upload?batch={token}&index=0&name={self.path.name}", data,
                              content_type="application/octet-stream")
        res["sent"], res["status"] = time.perf_counter() - t0, status
        if status == 200:
            status, body = self.callback("datasets.data", {
                "streamed-upload.data": {"batch": token, "stamp": time.time()},
                "datasets.data": self.datasets, "url.search": ""}, ["streamed-upload.data"])
            res["accepted"] = time.perf_counter() - t0
            response = (body or {}).get("response", {})
            new = response.get("datasets", {}).get("data")
            res["message"] = str(response.get(ids.UPLOAD_ERROR, {}).get("children") or "")
            if status == 200 and isinstance(new, list) and new != self.datasets:
                self.datasets = new
                status, body = self.callback("dataset-list.children", {
                    "datasets.data": new, "models.value": [], "models.options": [],
                    "url.search": "", "prior-source.value": None}, ["datasets.data"])
                models = ((body or {}).get("response", {}).get("models", {}).get("value"))
                self.models = models if isinstance(models, list) else self.models
                res["models"] = len(self.models)
                status, _ = self.views(self.averaging, "datasets.data")
                res["views"] = time.perf_counter() - t0
                res["views status"] = status
            else:
                res["status"] = status
        res["end"] = time.monotonic()


def worker_pids(master: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(master)], capture_output=True, text=True)
    return [int(p) for p in out.stdout.split()]


def _proc_mb(pid: int, file: str, key: str) -> float:
    """The ``key:`` line (in kB) of ``/proc/PID/FILE`` in MB; 0 when the process is gone."""
    try:
        for line in Path(f"/proc/{pid}/{file}").read_text().splitlines():
            if line.startswith(key):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def pss_mb(pid: int) -> float:
    """Proportional set size: the worker's private memory plus its share of pages it shares
    with the other workers (libraries); what the machine actually spends on it."""
    return _proc_mb(pid, "smaps_rollup", "Pss:")


def rss_mb(pid: int) -> float:
    return _proc_mb(pid, "status", "VmRSS:")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far (``/proc/PID/stat``)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def big_upload_file(rows: int, folder: Path) -> tuple[Path, int]:
    """The gzip CSV of ``rows`` rows of ``label, score, model, fold`` (bench_io's file) and
    the bytes it decompresses to."""
    from bench_io import generate

    path = generate(folder, rows, kinds=("csv.gz",))["csv.gz"]
    inflate, plain = zlib.decompressobj(wbits=31), 0
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 20):
            plain += len(inflate.decompress(chunk))
    return path, plain


def big_upload_env(rows: int, path: Path, plain: int) -> tuple[dict, list[str]]:
    """The server settings (the configuration table in docs/deployment.md) this upload needs beyond those in force, and a
    line per limit saying why. A canonical table takes ~41 bytes a row
    (``roc_dash/io/size_limits.py``: ~410 MB for 10^7 rows)."""
    mb = 2**20
    lim = size_limits.limits()
    upload = float(os.environ.get("ROC_DASH_MAX_UPLOAD_MB", 200)) * mb
    checks = [("ROC_DASH_MAX_ROWS", rows, lim.rows, str(rows), f"{rows:,} rows"),
              ("ROC_DASH_MAX_UPLOAD_MB", path.stat().st_size, upload,
               str(int(path.stat().st_size / mb * 1.2) + 1), f"{path.stat().st_size / mb:,.0f} MB sent"),
              ("ROC_DASH_MAX_DECOMPRESSED_MB", plain, lim.decompressed_bytes,
               str(int(plain / mb * 1.2) + 1), f"{plain / mb:,.0f} MB decompressed"),
              ("ROC_DASH_MAX_DECODED_MB", 41 * rows, lim.decoded_bytes,
               str(int(41 * rows / mb * 1.5) + 1), f"~{41 * rows / mb:,.0f} MB table")]
    env, lines = {}, []
    for var, need, have, value, what in checks:
        shown = f"{have:,.0f}" if var == "ROC_DASH_MAX_ROWS" else f"{have / mb:,.0f} MB"
        if need > have:
            env[var] = value
            lines.append(f"{what} > {var} {shown}: set {var}={value}")
        else:
            lines.append(f"{what} within {var} {shown}")
    return env, lines


def record_page(base: str):
    """(records, dependencies, returning subset, how they were obtained)."""
    try:
        records = load_page.record_first_load(base, f"#{ids.OPERATING} table")
        how = "recorded in headless Chromium (closed before the run)"
    except Exception as exc:  # noqa: BLE001 - no browser: the documented fallback, said
        records = load_page.static_first_load(base)
        how = (f"NOT recorded ({type(exc).__name__}: {str(exc)[:160]}); static fallback: the "
               "page, the scripts and styles its HTML names, _dash-layout, _dash-dependencies, "
               "no callbacks")
    deps = load_page.dependencies(records)
    return records, deps, load_page.returning_subset(records), how


def p95(xs):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(0.95 * len(xs)))]


def print_rows(stats) -> None:
    errors, busy = stats.get("errors", {}), stats.get("busy", {})
    for kind in (FIRST, AGAIN, "cost change", "averaging change", "upload 1 MB + views"):
        xs = sorted(stats.get(kind, []))
        if not xs:
            continue
        line = (f"  {kind:<24} n={len(xs):4d}  median {statistics.median(xs) * 1000:6.0f} ms"
                f"  p95 {p95(xs) * 1000:6.0f} ms  max {xs[-1] * 1000:6.0f} ms"
                f"  errors {errors.get(kind, 0)}  busy retries {busy.get(kind, 0)}")
        if kind in (FIRST, AGAIN):
            line += (f"  requests/load {statistics.mean(stats[kind + ' requests']):.0f}"
                     f"  bytes/load {statistics.mean(stats[kind + ' bytes']) / 1024:,.0f} KiB")
            line += "\n    slowest requests (median s, count): " + ", ".join(
                f"{path.rsplit('/', 1)[-1] or '/'} {sec:.2f} ({n})"
                for path, sec, n in load_page.slowest(stats[kind + " durations"]))
        print(line)
    phases = [p for p in stats.get("upload phases", []) if len(p) == 3]
    if phases:
        med = [statistics.median(p[i] for p in phases) * 1000 for i in range(3)]
        print(f"    of which (median ms): POST /upload {med[0]:,.0f}, read as a dataset "
              f"{med[1]:,.0f}, its views {med[2]:,.0f}")


def print_big(big: BigUpload, stats, env_lines) -> None:
    res = big.result
    print(f"  big upload ({big.path.name}, {big.path.stat().st_size / 2**20:,.0f} MB): "
          + "; ".join(env_lines))
    if "accepted" not in res:
        print(f"    refused or failed: status {res.get('status')} {res.get('message', '')}")
        return
    print(f"    sent {res['sent']:.1f} s, accepted (read, validated, stored) "
          f"{res['accepted']:.1f} s, first views {res.get('views', float('nan')):.1f} s "
          f"(status {res.get('views status', res.get('status'))}, {res.get('models', 0)} "
          "models) after the upload began"
          + (f"; message: {res['message'][:200]}" if res.get("message") else ""))
    during: dict = {}
    for t, what, kind, n in stats.get("events", []):
        if res["start"] <= t <= res["end"] and kind != "big upload":
            during.setdefault(what, {}).setdefault(kind, 0)
            during[what][kind] += n
    print(f"    meanwhile ({res['end'] - res['start']:.1f} s) the other users had: errors "
          f"{during.get('errors', {}) or 0}, busy retries {during.get('busy', {}) or 0}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--users", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--ramp", type=float, default=0.0, metavar="SECONDS",
                    help="spread the users' first visits evenly over SECONDS (default: all "
                         "at once)")
    ap.add_argument("--actions", type=int, default=0, metavar="N",
                    help="each user stops after N actions (the same work whatever the "
                         "machine's speed: for memory comparisons on a busy machine; "
                         "--seconds still bounds the run)")
    ap.add_argument("--big-upload", type=int, default=0, metavar="ROWS",
                    help="one more user uploads a gzip CSV of ROWS rows at the start")
    ap.add_argument("--nginx", action="store_true",
                    help="go through deploy/nginx.conf (system nginx) in front of gunicorn")
    ap.add_argument("--replicas", type=int, default=1, metavar="N",
                    help="N gunicorn replicas (each WEB_CONCURRENCY workers) sharing the "
                         "data folder and a redis-server of their own (ROC_DASH_REDIS_URL), "
                         "behind nginx taking them in turn (implies --nginx)")
    ap.add_argument("--store", default="folder", metavar="folder|s3|folder,s3",
                    help="where the replicas keep datasets and uploads: the data folder "
                         "(shared), an S3 store (moto on loopback, a data folder each), or "
                         "both one after the other, compared side by side")
    args = ap.parse_args()
    stores = args.store.split(",")
    if not set(stores) <= {"folder", "s3"}:
        raise SystemExit(f"--store: folder, s3 or folder,s3; got {args.store!r}")
    args.nginx = args.nginx or args.replicas > 1 or "s3" in stores
    users, seconds = min(args.users, 100), min(args.seconds, 600)
    print("$ " + " ".join([Path(sys.executable).name, *sys.argv]))
    print(f"  {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M:%S} UTC, "
          f"{os.cpu_count()} CPUs, load average before "
          + " ".join(f"{x:.2f}" for x in os.getloadavg()))

    rng = np.random.default_rng(0)
    n = 45_000
    y = rng.random(n) < 0.3
    frame = pd.DataFrame({"label": y.astype(int), "score": np.round(rng.normal(y * 1.0, 1), 6)})
    buf = io.StringIO()
    frame.to_csv(buf, index=False)
    upload_csv = buf.getvalue().encode()
    summaries = {}
    for store in stores:
        if len(stores) > 1:
            print(f"\n== store: {store}; load average before "
                  + " ".join(f"{x:.2f}" for x in os.getloadavg()))
        summaries[store] = run_set_up(args, users, seconds, upload_csv, store)
    if len(stores) > 1:
        print_side_by_side(summaries)


def run_set_up(args, users, seconds, upload_csv, store: str) -> dict:
    """Start the servers ``args`` and ``store`` ask for, run the users, stop everything;
    the run's summary (:func:`run`)."""
    port = free_port()
    data = tempfile.mkdtemp(prefix="roc-dash-load-")
    env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(port), "ROC_DASH_DATA_DIR": data}
    env.setdefault("WEB_CONCURRENCY", "3")
    big_dir, big_path, env_lines = None, None, []
    if args.big_upload > 0:
        big_dir = tempfile.mkdtemp(prefix="roc-dash-big-")
        t0 = time.perf_counter()
        big_path, plain = big_upload_file(args.big_upload, Path(big_dir))
        print(f"  big upload file: {args.big_upload:,} rows, written in "
              f"{time.perf_counter() - t0:.0f} s")
        extra, env_lines = big_upload_env(args.big_upload, big_path, plain)
        env.update(extra)
    shared = contextlib.ExitStack()
    if args.replicas > 1:
        from tools.redis_server import redis_server

        env["ROC_DASH_REDIS_URL"] = shared.enter_context(redis_server(Path(data) / "redis"))
    if store == "s3":  # the same server and bucket as the replicated tests' (tools/)
        from tools.s3_server import s3_server, store_env

        env.update(store_env(shared.enter_context(s3_server(Path(data) / "moto")),
                             "s3://roc-dash/load"))
    ports = [port] + [free_port() for _ in range(args.replicas - 1)]
    # with the store, each replica its own data folder (nothing shared on disk)
    folders = [data if store == "folder" else str(Path(data) / f"replica-{k}")
               for k in range(len(ports))]
    logs = [shared.enter_context(open(Path(data) / f"gunicorn-{k}.log", "wb"))
            for k in range(len(ports))]  # read after the run (a pipe nobody reads blocks)
    servers = [subprocess.Popen([sys.executable, "-m", "gunicorn", "app:server",
                                 "--access-logfile", "/dev/null"], cwd=ROOT,
                                env={**env, "PORT": str(p), "ROC_DASH_DATA_DIR": folder},
                                stdout=subprocess.DEVNULL, stderr=log,
                                start_new_session=True)
               for p, folder, log in zip(ports, folders, logs, strict=True)]
    front, nginx = None, None
    try:
        if args.nginx:
            nginx, front = start_nginx(ports, Path(data) / "nginx")
        return run(args, users, seconds, servers, env, upload_csv, big_path, env_lines,
                   front, store)
    finally:
        for proc in (nginx, *servers):
            if proc is None:
                continue
            stop_group(proc, timeout=15)
        shared.close()
        print_server_errors(Path(data))
        shutil.rmtree(data, ignore_errors=True)
        if big_dir:
            shutil.rmtree(big_dir, ignore_errors=True)
        print("  load average after " + " ".join(f"{x:.2f}" for x in os.getloadavg()))


def print_server_errors(data: Path) -> None:
    """The replicas' logged warnings and errors: how many, and the most frequent lines."""
    lines = [line for log in sorted(data.glob("gunicorn-*.log"))
             for line in log.read_text(errors="replace").splitlines()
             if any(w in line for w in ("WARNING", "ERROR", "Error", "Traceback"))]
    counts: dict[str, int] = {}
    for line in lines:
        key = line.split("] ", 1)[-1][:160]
        counts[key] = counts.get(key, 0) + 1
    print(f"  the replicas logged {len(lines)} warnings and errors"
          + "".join(f"\n    {n} x {text}" for text, n in sorted(
              counts.items(), key=lambda kv: -kv[1])[:5]))


def print_side_by_side(summaries: dict) -> None:
    """The runs' main figures in columns (one per store), and each against the first."""
    names = list(summaries)
    first = summaries[names[0]]
    print("\n  side by side: " + " | ".join(names) + " | ratio "
          + " / ".join(names[1:]) + f" to {names[0]}")
    for key in first:
        cells = [summaries[n].get(key, float("nan")) for n in names]
        ratios = [c / first[key] if first[key] else float("nan") for c in cells[1:]]
        print(f"  {key:<34} " + " | ".join(f"{c:10,.1f}" for c in cells)
              + " | " + " / ".join(f"{r:.2f}" for r in ratios))


def start_nginx(upstream: int | list[int], folder: Path) -> tuple[subprocess.Popen, int]:
    """The system's nginx running ``deploy/nginx.conf`` (its "# test:" lines set as the
    hostile test sets them) on a free loopback port in front of gunicorn on ``upstream``
    (a list: the replicas, taken in turn)."""
    from tools.nginx import NGINX, nginx_conf

    if NGINX is None:
        raise SystemExit("--nginx: nginx is not installed (make nginx-deps)")
    folder.mkdir(parents=True, exist_ok=True)
    port = free_port()
    conf = folder / "nginx.conf"
    # every simulated user comes from 127.0.0.1: one address's cap on connections (32) would
    # turn most of 20 users' 6 connections each into 503s; people come from their own
    text = nginx_conf(upstream, port, folder)
    assert "limit_conn per_address 32;" in text
    conf.write_text(text.replace("limit_conn per_address 32;", "limit_conn per_address 1000;"))
    proc = subprocess.Popen([NGINX, "-c", str(conf), "-p", str(folder), "-g", "daemon off;"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    for _ in range(300):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return proc, port
        except OSError:
            time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGTERM)
    raise SystemExit("--nginx: nginx did not start")


def _workers(servers) -> list[int]:
    return [pid for server in servers for pid in worker_pids(server.pid)]


def run(args, users, seconds, servers, env, upload_csv, big_path, env_lines,
        front=None, store="folder") -> dict:
    """Run the users against ``servers`` (through ``front``, nginx's port), print the
    figures; return the main ones (``{what: number}``) for :func:`print_side_by_side`."""
    base = f"http://127.0.0.1:{front or env['PORT']}"
    wanted = int(env["WEB_CONCURRENCY"]) * len(servers)
    for _ in range(1200):  # every replica's workers up (nginx skips one not yet listening)
        try:
            urllib.request.urlopen(base + "/health", timeout=1).read()
            if len(_workers(servers)) >= wanted:
                break
        except OSError:
            pass
        time.sleep(0.1)
    specs = callback_specs()
    records, deps, again, how = record_page(base)
    stats, lock = {}, threading.Lock()
    deadline = time.monotonic() + seconds
    crowd = [User(base, specs, deadline, upload_csv, k, stats, lock,
                  page=(records, deps, again)) for k in range(users)]
    for k, u in enumerate(crowd):
        u.delay = args.ramp * k / max(1, users)
        u.actions = args.actions or None
    big = BigUpload(base, specs, big_path, stats, lock) if big_path else None
    peak, peak_pss, cpu = {}, {}, {}
    cpu_start = {pid: cpu_seconds(pid) for pid in _workers(servers)}
    own_start = time.process_time()
    for u in crowd + ([big] if big else []):
        u.start()
    while any(u.is_alive() for u in crowd) or (big and big.is_alive()):
        for pid in _workers(servers):
            peak[pid] = max(peak.get(pid, 0.0), rss_mb(pid))
            peak_pss[pid] = max(peak_pss.get(pid, 0.0), pss_mb(pid))
            cpu[pid] = cpu_seconds(pid) - cpu_start.get(pid, 0.0)
        time.sleep(0.5)
    print(f"{users} users for {seconds:.0f} s against "
          + ("nginx (deploy/nginx.conf, system nginx; limit_conn per address raised to 1000 "
             "for the one loopback address) in front of " if front else "")
          + (f"{len(servers)} replicas (sharing " + ("the data folder" if store == "folder"
                                                     else "an S3 store (moto), a data folder "
                                                     "each") + (" and Redis" if len(servers) > 1
                                                                else "") + ") of "
             if len(servers) > 1 or store == "s3" else "")
          + f"gunicorn ({env['WEB_CONCURRENCY']} workers x {env.get('ROC_DASH_THREADS', '4')} "
          "threads" + (")" if front else ", directly)")
          + f" on {os.cpu_count()} cores" + (" + 1 big upload" if big else "")
          + (f"; first visits spread over {args.ramp:g} s" if args.ramp else
             "; all first visits at once at the start")
          + (f"; each user stops after {args.actions} actions (took "
             f"{time.monotonic() - (deadline - seconds):.0f} s)" if args.actions else ""))
    print(f"  first load: {how}; "
          f"{stats.get('conditions from the page load', 0)}/{len(crowd)} users got the "
          "conditions from its callbacks' answers")
    for line in load_page.cache_summary(records):
        print(f"  first load: {line}")
    print(f"  requests {stats.get('requests', 0):,}, errors "
          f"{sum(stats.get('errors', {}).values())}, busy retries (503 + Retry-After, "
          f"sent again) {sum(stats.get('busy', {}).values())}")
    print_rows(stats)
    for why, n in sorted(stats.get("busy why", {}).items(), key=lambda kv: -kv[1])[:3]:
        print(f"  503 + Retry-After {n} x: {why[:300]}")
    if big:
        print_big(big, stats, env_lines)
    print("  peak memory per worker (resident): "
          + ", ".join(f"{v:.0f} MB" for v in peak.values()))
    print("  peak memory per worker (proportional, shared pages split): "
          + ", ".join(f"{v:.0f} MB" for v in peak_pss.values()))
    own = time.process_time() - own_start
    print(f"  CPU used in the run: workers {sum(cpu.values()):.1f} s "
          f"({', '.join(f'{v:.0f}' for v in cpu.values())}), this load generator "
          f"{own:.0f} s, of {os.cpu_count() * seconds:.0f} core-seconds")
    return summary(stats, peak_pss, cpu)


def summary(stats, peak_pss, cpu) -> dict:
    """The figures compared side by side: counts, median and p95 (ms) of each kind of
    action, the workers' CPU seconds and mean peak proportional memory (MB)."""
    out = {"requests": stats.get("requests", 0),
           "errors": sum(stats.get("errors", {}).values()),
           "busy retries": sum(stats.get("busy", {}).values())}
    for kind in (FIRST, AGAIN, "cost change", "averaging change", "upload 1 MB + views"):
        xs = stats.get(kind, [])
        if xs:
            out[f"{kind} n"] = len(xs)
            out[f"{kind} median ms"] = statistics.median(xs) * 1000
            out[f"{kind} p95 ms"] = p95(xs) * 1000
    phases = [p for p in stats.get("upload phases", []) if len(p) == 3]
    for i, what in enumerate(("POST /upload", "read as a dataset", "its views")):
        if phases:
            out[f"upload: {what} median ms"] = statistics.median(p[i] for p in phases) * 1000
    out["workers' CPU s"] = sum(cpu.values())
    out["peak PSS per worker MB (mean)"] = statistics.mean(peak_pss.values() or [0.0])
    return out


if __name__ == "__main__":
    main()
