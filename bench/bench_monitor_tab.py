"""The Monitor tab's server time: the page's decision checked on ``--windows`` (12) loaded
datasets of ``--rows`` (10^6) predictions each, against the core alone on the same rows.

Timed, side by side in one run:

* **core**: :func:`roc_dash.core.monitoring.monitor` on the windows already counted
  (:func:`~roc_dash.core.monitoring.window_from_rows`) and the reference already built;
* **tab, first view**: :func:`roc_dash.app.monitoring.page_monitor` with nothing cached: the
  reference's analysis and the page's decision (its bootstrap intervals), the windows read
  from the store and counted, the monitor; then the figures and the table
  (:func:`roc_dash.app.features.monitor.monitor_outputs`);
* **tab, shown again** (the tab reopened, a redraw): cached;
* **tab, a new cost**: the decision re-taken (the analysis cached), the monitor re-run.

Target (issue: every Monitor view under 3 s of server time for 12 windows x 10^6 rows on a
quiet 2-core machine). The datasets are put in a store under a temporary folder first (not
timed). Run: ``nice python bench/bench_monitor_tab.py [--rows N] [--windows K]``.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _frame(n: int, prior: float, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < prior
    latent = np.where(y, rng.normal(1.5, 1.0, n), rng.normal(0.0, 1.0, n))
    return pd.DataFrame({"label": y, "score": 1.0 / (1.0 + np.exp(-latent)),
                         "model": "rf", "weight": 1.0, "fold": 0})


def _canonical(frame: pd.DataFrame) -> pd.DataFrame:
    from roc_dash.io import load_predictions

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "w.parquet"
        frame.drop(columns=["weight", "fold"]).to_parquet(path, index=False)
        return load_predictions([str(path)]).table


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", type=int, default=1_000_000)
    p.add_argument("--windows", type=int, default=12)
    args = p.parse_args()

    from roc_dash.app.analysis import AnalysisCache
    from roc_dash.app.features import monitor as _tab
    monitor_outputs = _tab.monitor_outputs
    from roc_dash.app.monitoring import page_monitor
    from roc_dash.app.page_state import MonitorState, PageState
    from roc_dash.app.server.store import DatasetStore
    from roc_dash.app.state import ControlState
    from roc_dash.core.monitoring import MonitorSettings, window_from_rows
    from roc_dash.core.monitoring import monitor as core_monitor
    from roc_dash.decision.monitoring import reference_of

    with tempfile.TemporaryDirectory(prefix="bench-monitor-tab-") as folder:
        store = DatasetStore(Path(folder) / "store")
        cache = AnalysisCache(store)
        setup = time.perf_counter()
        ref = store.put(_canonical(_frame(args.rows, 0.3, 0)), files=["ref.parquet"]).id
        windows, frames = [], []
        for k in range(args.windows):
            prior = 0.3 if k < args.windows // 2 else 0.2
            f = _frame(args.rows, prior, k + 1)
            frames.append(f)
            windows.append(store.put(_canonical(f), files=[f"w{k:02d}.parquet"]).id)
        setup = time.perf_counter() - setup
        page = PageState(datasets=(ref, *windows),
                         conditions=ControlState(cost_fp=1, cost_fn=3, prior=0.3,
                                                 prior_mode="manual"),
                         monitor=MonitorState(windows=tuple(windows), hide_labels=True))

        t = time.perf_counter()
        outcome = page_monitor(cache, page)
        first_monitor = time.perf_counter() - t
        assert outcome.report is not None, outcome.message
        t = time.perf_counter()
        monitor_outputs(cache, page, None)
        first_views = time.perf_counter() - t
        t = time.perf_counter()
        monitor_outputs(cache, page, None)
        again = time.perf_counter() - t
        costly = dataclasses.replace(page, conditions=dataclasses.replace(
            page.conditions, cost_fn=5.0))
        t = time.perf_counter()
        monitor_outputs(cache, costly, None)
        new_cost = time.perf_counter() - t

        record = outcome.report.record
        reference, _ = reference_of(record, store.get(ref))
        counted = [window_from_rows(f"w{k:02d}", f["score"].to_numpy())
                   for k, f in enumerate(frames)]
        t = time.perf_counter()
        core_monitor(reference, counted, MonitorSettings())
        core = time.perf_counter() - t

    print(f"# bench/bench_monitor_tab.py --rows {args.rows} --windows {args.windows}")
    print(f"# {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M UTC}, load average "
          f"{' '.join(f'{v:.2f}' for v in os.getloadavg())}, {os.cpu_count()} cores; "
          f"setup (not timed) {setup:.1f} s")
    print(f"core monitor (windows counted, reference built)   {core:7.2f} s")
    print(f"tab, first view: decision + windows + monitor     {first_monitor:7.2f} s")
    print(f"tab, first view: figures and table (then cached)  {first_views:7.2f} s")
    print(f"tab, shown again (cached)                         {again:7.2f} s")
    print(f"tab, a new cost (decision and monitor again)      {new_cost:7.2f} s")
    print(f"first view / core: {(first_monitor + first_views) / core:.1f}x; "
          f"target: each view < 3 s")


if __name__ == "__main__":
    main()
