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

Run: ``python bench/load_test.py [--users 20] [--seconds 60]``. Every request goes to
127.0.0.1 only; the loop stops by itself and the server is always stopped.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import secrets
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
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from roc_dash.app import create_app, ids  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def callback_specs():
    """Each callback's request skeleton, from the app's own callback map."""
    app = create_app(data_dir=tempfile.mkdtemp())
    specs = {}
    for key, cb in app.callback_map.items():
        outs = key.strip(".").split("...") if key.startswith("..") else [key]
        outputs = [{"id": o.rsplit(".", 1)[0], "property": o.rsplit(".", 1)[1]} for o in outs]
        specs[key] = {"output": key, "outputs": outputs if key.startswith("..") else outputs[0],
                      "inputs": cb["inputs"], "state": cb["state"]}
    return specs


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
    def __init__(self, base, specs, deadline, upload_csv, seed, stats, lock):
        super().__init__(daemon=True)
        self.base, self.specs, self.deadline = base, specs, deadline
        self.upload_csv, self.rng = upload_csv, random.Random(seed)
        self.stats, self.lock = stats, lock
        self.datasets = ["demo"]
        self.models = ["logistic regression", "naive Bayes", "decision tree",
                       "gradient boosting"]
        self.conditions = None
        self.viz = None  # what the page keeps from the last full render (enables patching)
        self.clicks = 0
        self.averaging = "pooled"

    def record(self, kind, seconds, ok):
        with self.lock:
            self.stats.setdefault(kind, []).append(seconds)
            self.stats["requests"] = self.stats.get("requests", 0) + 1
            if not ok:
                self.stats["errors"] = self.stats.get("errors", 0) + 1

    def post(self, path, body, content_type="application/json"):
        """POST as the page does: a 503 with Retry-After (a worker reading another upload)
        is sent again after that many seconds, the wait counted in the request's time."""
        data = json.dumps(body).encode() if content_type == "application/json" else body
        for _ in range(20):
            req = urllib.request.Request(self.base + path, data=data, method="POST",
                                         headers={"Content-Type": content_type})
            try:
                with urllib.request.urlopen(req, timeout=30) as r:
                    raw = r.read()
                    return r.status, (json.loads(raw) if raw and r.status == 200 else None)
            except urllib.error.HTTPError as e:
                wait = e.headers.get("Retry-After") if e.code == 503 else None
                if wait is None:
                    return e.code, None
                with self.lock:
                    self.stats["busy retries"] = self.stats.get("busy retries", 0) + 1
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

    def views(self, averaging="pooled", changed="conditions.data"):
        status, body = self.callback("roc-graph.figure", self.view_values(averaging), [changed])
        if status == 200 and body:
            self.keep_viz(body)
            self.averaging = averaging
        return status, body

    def change_cost(self):
        """One click on a cost or prior stepper, as the page sends it: the controls callback
        (which returns the views for the new conditions in the same response), then the views
        callback the new conditions trigger, which finds them drawn already (204)."""
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
            status, _ = self.views(self.averaging)
            ok = status in (200, 204)
        self.record("cost change", time.perf_counter() - t0, ok)

    def upload(self):
        token = secrets.token_urlsafe(24)
        # a new file each time (one extra row), as different people's files would be
        body = self.upload_csv + f"{self.rng.randint(0, 1)},{self.rng.random():.6f}\n".encode()
        t0 = time.perf_counter()
        status, _ = self.post(f"/upload?batch={token}&index=0&name=user.csv", body,
                              content_type="application/octet-stream")
        ok = status == 200
        if ok:
            status, body = self.callback("datasets.data", {
                "streamed-upload.data": {"batch": token, "stamp": time.time()},
                "datasets.data": self.datasets, "url.search": ""}, ["streamed-upload.data"])
            ok = status == 200 and body is not None
            if ok:
                new = body["response"].get("datasets", {}).get("data", self.datasets)
                self.datasets = new if isinstance(new, list) else self.datasets
                self.models = ["user"] if self.datasets != ["demo"] else self.models
                status, _ = self.views(self.averaging, "datasets.data")
                ok = status in (200, 204)
        self.record("upload 1 MB + views", time.perf_counter() - t0, ok)

    def run(self):
        try:
            with urllib.request.urlopen(self.base + "/", timeout=30) as r:
                r.read()
        except OSError:
            self.record("page", 0, False)
        status, body = self.callback("cost-fp-slider.value", {
            "datasets.data": self.datasets, "url.search": ""}, ["url.search"])
        if status == 200:
            self.conditions = body["response"]["conditions"]["data"]
        while time.monotonic() < self.deadline:
            r = self.rng.random()
            if r < 0.7:
                self.change_cost()
            elif r < 0.93:
                t0 = time.perf_counter()
                status, _ = self.views(self.rng.choice(["none", "pooled", "vertical",
                                                        "threshold"]), "averaging.value")
                self.record("averaging change", time.perf_counter() - t0, status == 200)
            else:
                self.upload()
            time.sleep(self.rng.uniform(0.2, 1.0))  # think time


def worker_pids(master: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(master)], capture_output=True, text=True)
    return [int(p) for p in out.stdout.split()]


def pss_mb(pid: int) -> float:
    """Proportional set size: the worker's private memory plus its share of pages it shares
    with the other workers (libraries); what the machine actually spends on it."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far (``/proc/PID/stat``)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--users", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=60)
    args = ap.parse_args()
    users, seconds = min(args.users, 100), min(args.seconds, 600)

    rng = np.random.default_rng(0)
    n = 45_000
    y = rng.random(n) < 0.3
    frame = pd.DataFrame({"label": y.astype(int), "score": np.round(rng.normal(y * 1.0, 1), 6)})
    buf = io.StringIO()
    frame.to_csv(buf, index=False)
    upload_csv = buf.getvalue().encode()

    port = free_port()
    data = tempfile.mkdtemp(prefix="roc-dash-load-")
    env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(port), "ROC_DASH_DATA_DIR": data}
    env.setdefault("WEB_CONCURRENCY", "3")
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "app:server",
                               "--access-logfile", "/dev/null"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(base + "/health", timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        specs = callback_specs()
        stats, lock = {}, threading.Lock()
        deadline = time.monotonic() + seconds
        crowd = [User(base, specs, deadline, upload_csv, k, stats, lock) for k in range(users)]
        peak, peak_pss, cpu = {}, {}, {}
        cpu_start = {pid: cpu_seconds(pid) for pid in worker_pids(server.pid)}
        own_start = time.process_time()
        for u in crowd:
            u.start()
        while any(u.is_alive() for u in crowd):
            for pid in worker_pids(server.pid):
                peak[pid] = max(peak.get(pid, 0.0), rss_mb(pid))
                peak_pss[pid] = max(peak_pss.get(pid, 0.0), pss_mb(pid))
                cpu[pid] = cpu_seconds(pid) - cpu_start.get(pid, 0.0)
            time.sleep(0.5)
        print(f"{users} users for {seconds:.0f} s against gunicorn "
              f"({env['WEB_CONCURRENCY']} workers x {env.get('ROC_DASH_THREADS', '4')} threads) "
              f"on {os.cpu_count()} cores")
        print(f"  requests {stats.get('requests', 0):,}, errors {stats.get('errors', 0)}, "
              f"busy retries (503 + Retry-After, sent again) {stats.get('busy retries', 0)}")
        for kind in ("cost change", "averaging change", "upload 1 MB + views"):
            xs = sorted(stats.get(kind, []))
            if xs:
                p95 = xs[min(len(xs) - 1, int(0.95 * len(xs)))]
                print(f"  {kind:<22} n={len(xs):4d}  median {statistics.median(xs) * 1000:7.0f} ms"
                      f"  p95 {p95 * 1000:7.0f} ms  max {xs[-1] * 1000:7.0f} ms")
        print("  peak memory per worker (resident): "
              + ", ".join(f"{v:.0f} MB" for v in peak.values()))
        print("  peak memory per worker (proportional, shared pages split): "
              + ", ".join(f"{v:.0f} MB" for v in peak_pss.values()))
        own = time.process_time() - own_start
        print(f"  CPU used in the run: workers {sum(cpu.values()):.0f} s "
              f"({', '.join(f'{v:.0f}' for v in cpu.values())}), this load generator "
              f"{own:.0f} s, of {os.cpu_count() * seconds:.0f} core-seconds")
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)


if __name__ == "__main__":
    main()
