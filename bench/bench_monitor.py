"""The monitor at scale: server-side compute of 12 windows x 10^6 rows, and 10^8 rows of
windows through DuckDB from the command line.

``--part compute`` (default): in this process, a reference of ``--ref-rows`` (10^6) and
``--windows`` (12) windows of ``--rows`` (10^6) predictions each, scores continuous (every
score distinct: the worst case for the windows' own ROC curves), all labelled, then all
unlabelled. Each computation a Monitor view needs is timed on its own: the reference
(curve, hull, calibration map, grid), each window's counts per distinct score, the
reference's bootstrap replicates (once per run), each window's monitoring
(:func:`~roc_dash.core.monitoring.monitor_window`) and the two figures. Target: the total
under 3 s of server time.

``--part cli``: writes a Parquet dataset of ``--rows`` predictions (default 10^8) of one
model over twelve months (a ``day`` column; probabilities rounded to 4 decimals, as most
pipelines store them; labels for 30 % positives drifting to 20 % in the last months) and a
reference of 10^6 rows, takes the decision with ``roc-dash decide``, and times ``roc-dash
monitor rec.json DIR --time day --every month --reference ref.parquet`` in a subprocess
(wall time and peak RSS of the child). ``--rows 10000000`` measures 10^7 and the output
extrapolates linearly (DuckDB's aggregation is one streaming pass).

Run: ``nice python bench/bench_monitor.py`` and ``nice python bench/bench_monitor.py --part
cli [--rows N] [--dir DIR]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from bench_support import write_part  # bench/, the script's own folder

# this checkout, not whichever roc_dash is installed
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from roc_dash.core.decisions.economics import Economics  # noqa: E402
from roc_dash.core.monitoring import (  # noqa: E402
    MonitorResult,
    MonitorSettings,
    choice_at_prior,
    failing_tests,
    monitor_window,
    reference_from_scores,
    reference_replicates,
    window_from_rows,
)

ECON = Economics(cost_fp=1.0, cost_fn=3.0)
TARGET_SECONDS = 3.0
CHUNK = 5_000_000


def header() -> None:
    print(f"command: {shlex.join([sys.executable.split('/')[-1], *sys.argv])}")
    print(f"date: {dt.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}; machine: "
          f"{platform.machine()}, {os.cpu_count()} cores; load average "
          f"{' '.join(f'{v:.2f}' for v in os.getloadavg())}")


def draw(rng, n: int, prior: float, *, rounded: bool = False):
    y = rng.random(n) < prior
    s = 1.0 / (1.0 + np.exp(-(rng.normal(0.0, 1.0, n) + 1.5 * y - 1.0)))
    return y, (np.round(s, 4) if rounded else s)


class Clock:
    """Wall and CPU time of each computation (CPU time: this process's, which a busy shared
    machine inflates less than the wall clock)."""

    def __init__(self):
        self.rows: list[tuple[str, float, float]] = []

    def time(self, label: str, fn, *args, **kw):
        t0, c0 = time.perf_counter(), time.process_time()
        out = fn(*args, **kw)
        self.rows.append((label, time.perf_counter() - t0, time.process_time() - c0))
        return out


def compute(a) -> None:
    from roc_dash.figures.monitoring import monitor_roc_figure, monitor_time_figure

    header()
    rng = np.random.default_rng(0)
    yr, sr = draw(rng, a.ref_rows, 0.3)
    print(f"reference {a.ref_rows:,} rows, {a.windows} windows x {a.rows:,} rows, continuous "
          f"scores; default settings ({MonitorSettings().replicates} replicates)")
    data = [draw(rng, a.rows, 0.3 - 0.15 * k / a.windows) for k in range(a.windows)]
    warm = window_from_rows("warm", data[0][1][:1000], data[0][0][:1000])  # a server is warm:
    small = reference_from_scores(yr[:1000], sr[:1000], threshold=0.5, prior_pos=0.3,
                                  economics=ECON)  # plotly and the code paths loaded
    monitor_roc_figure(MonitorResult(small, (monitor_window(
        small, warm, reference_replicates(small, 20, rng), MonitorSettings(replicates=20)),),
        MonitorSettings()))
    for labelled in (True, False):
        clock = Clock()
        first = clock.time("reference (curve, hull, map, grid)", reference_from_scores, yr, sr,
                           threshold=0.5, prior_pos=0.3, economics=ECON)
        ref = reference_from_scores(yr, sr, prior_pos=0.3, economics=ECON,
                                    threshold=choice_at_prior(first.hull, 0.3, ECON).threshold)
        windows = [clock.time(f"window {k + 1:2d}: counts per distinct score",
                              window_from_rows, f"m{k + 1:02d}", s, y if labelled else None)
                   for k, (y, s) in enumerate(data)]
        s = MonitorSettings()
        reps = clock.time("reference replicates (once per run)", reference_replicates, ref,
                          s.replicates, np.random.default_rng([s.seed, 0]))
        alpha = s.alpha / failing_tests(ref, windows, s)
        results = tuple(clock.time(f"window {k + 1:2d}: monitor", monitor_window, ref, w, reps,
                                   s, index=k, alpha=alpha, shift_alpha=s.alpha / len(windows))
                        for k, w in enumerate(windows))
        result = MonitorResult(reference=ref, windows=results, settings=s)
        clock.time("figure: ROC path", monitor_roc_figure, result)
        clock.time("figure: over time", monitor_time_figure, result)
        total = sum(t for _, t, _ in clock.rows)
        cpu = sum(c for _, _, c in clock.rows)
        print()
        print(f"{'labelled' if labelled else 'unlabelled'} windows")
        print("| computation | wall s | CPU s |")
        print("|---|---|---|")
        for label, t, c in clock.rows:
            print(f"| {label} | {t:.3f} | {c:.3f} |")
        print(f"| **total** | **{total:.2f}** | **{cpu:.2f}** |")
        rest = [(t, c) for n, t, c in clock.rows if "counts" not in n]
        print(f"target < {TARGET_SECONDS:g} s: wall {total:.2f} s ({total / TARGET_SECONDS:.2f} "
              f"x target), CPU {cpu:.2f} s ({cpu / TARGET_SECONDS:.2f} x target); without "
              f"counting the windows' rows (windows given as counts, as DuckDB gives them): "
              f"wall {sum(t for t, _ in rest):.2f} s, CPU {sum(c for _, c in rest):.2f} s")


# --------------------------------------------------------------------------- the CLI
def generate(directory: str, rows: int, seed: int = 0) -> list[str]:
    """Part files of ``rows`` predictions of one model over 2024 (a ``day`` column)."""
    import pyarrow as pa

    rng = np.random.default_rng(seed)
    paths, done, k = [], 0, 0
    start = np.datetime64("2024-01-01")
    while done < rows:
        n = min(CHUNK, rows - done)
        day = rng.integers(0, 366, n)
        prior = 0.3 - 0.1 * (day > 273)  # fewer positives in the last quarter
        y, s = draw(rng, n, 0.0, rounded=True)
        y = rng.random(n) < prior
        s = np.round(1.0 / (1.0 + np.exp(-(rng.normal(0.0, 1.0, n) + 1.5 * y - 1.0))), 4)
        table = pa.table({"day": pa.array(start + day.astype("timedelta64[D]")),
                          "label": pa.array(y.astype(np.int8)), "score": pa.array(s),
                          "model": pa.array(np.full(n, "rf"))})
        paths.append(write_part(directory, k, table))
        done += n
        k += 1
    return paths


def cli(a) -> None:
    import pandas as pd

    header()
    base = tempfile.mkdtemp(prefix="roc-dash-bench-monitor-", dir=a.dir)
    try:
        data = os.path.join(base, "windows")
        os.makedirs(data)
        t0 = time.perf_counter()
        generate(data, a.rows)
        made = time.perf_counter() - t0
        size = sum(os.path.getsize(os.path.join(data, f)) for f in os.listdir(data))
        rng = np.random.default_rng(1)
        y, s = draw(rng, 1_000_000, 0.3, rounded=True)
        ref = os.path.join(base, "ref.parquet")
        pd.DataFrame({"label": y.astype(int), "score": s, "model": "rf"}).to_parquet(ref)
        rec = os.path.join(base, "rec.json")
        run = [sys.executable, "-m", "roc_dash.cli"]
        subprocess.run([*run, "decide", ref, "--cost-fn", "3", "-o", rec], check=True,
                       capture_output=True, timeout=3600)
        out = os.path.join(base, "out.json")
        t0 = time.perf_counter()
        done = subprocess.run([sys.executable, __file__, "--part", "child", "--dir", base],
                              capture_output=True, text=True, timeout=7200)
        seconds = time.perf_counter() - t0
        child = json.loads(done.stdout.strip().splitlines()[-1])
        doc = json.loads(Path(out).read_text())
        print(f"{a.rows:,} rows in {len(os.listdir(data))} Parquet parts ({size / 1e6:.0f} MB, "
              f"written in {made:.0f} s); reference 10^6 rows")
        print(f"roc-dash monitor rec.json DIR --time day --every month --reference ref.parquet: "
              f"exit {child['status']}, {seconds:.1f} s wall ({child['read']:.1f} s of it "
              f"DuckDB counting the windows), peak RSS {child['rss_mb']:.0f} MB, "
              f"{a.rows / seconds / 1e6:.2f} M rows/s")
        print(f"windows: {', '.join(w['name'] + ' (' + format(w['rows'], ',') + ')' for w in doc['windows'])}")
        print(f"status {doc['status']}; "
              + "; ".join(f"{w['name']}: {w['status']}" for w in doc["windows"]))
        if a.rows < 10**8:
            print(f"extrapolated to 10^8 rows (linear in the rows, one streaming pass): "
                  f"{seconds * 10**8 / a.rows:.0f} s")
    finally:
        shutil.rmtree(base, ignore_errors=True)


def child(a) -> None:
    """``roc-dash monitor`` in this process (the CLI's own code), timing its DuckDB part;
    prints a JSON line: exit status, seconds reading the windows, peak RSS."""
    import roc_dash.io.windows as windows
    from roc_dash.cli import main as cli_main

    read = windows.read_windows
    spent = []

    def timed(*args, **kw):
        t0 = time.perf_counter()
        try:
            return read(*args, **kw)
        finally:
            spent.append(time.perf_counter() - t0)

    windows.read_windows = timed
    b = a.dir
    status = cli_main(["monitor", os.path.join(b, "rec.json"), os.path.join(b, "windows"),
                       "--time", "day", "--every", "month", "--reference",
                       os.path.join(b, "ref.parquet"), "-o", os.path.join(b, "out.json")])
    print(json.dumps({"status": status, "read": sum(spent),
                      "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--part", choices=["compute", "cli", "child"], default="compute")
    p.add_argument("--rows", type=int, default=None,
                   help="rows per window (compute, default 10^6) or in all (cli, 10^8)")
    p.add_argument("--windows", type=int, default=12)
    p.add_argument("--ref-rows", type=int, default=1_000_000)
    p.add_argument("--dir", default=None, help="where the cli part writes its data")
    a = p.parse_args(argv)
    if a.part == "child":
        child(a)
    elif a.part == "compute":
        a.rows = a.rows or 1_000_000
        compute(a)
    else:
        a.rows = a.rows or 100_000_000
        cli(a)


if __name__ == "__main__":
    main()
