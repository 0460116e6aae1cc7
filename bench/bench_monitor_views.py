"""Server time of each Monitor tab view for ``--windows`` (12) window files of ``--rows``
(10^6) label-less predictions uploaded in the tab, checked against a decision: each view's
work timed apart from the page's decision (its bootstrap intervals, which the Decide tab
computes for its own card and Download decision reuses).

Timed, side by side in one run (``time.perf_counter`` and ``time.process_time``):

* **decision**: the page's recommendation with its intervals (what the tab waits for when
  it checks the page's decision and nothing is cached; the window files are not datasets,
  so it is the page's own decision, cached with the page);
* **first view**: the window files read (DuckDB, one query per file), the monitor (EM,
  PACC, ACC with their bootstrap, the re-derived choice, the score tests) and the two
  figures and the table;
* **shown again** (a redraw, the tab reopened), **a pin** added, **another estimate**
  (PACC; the windows' counts cached), **labels kept** (the files have none: same windows),
  and **an uploaded record** (another threshold: the decision given, so no bootstrap).

Target (issue): every Monitor view under 3 s of server time for 12 windows × 10^6 rows on
a quiet 2-core machine. Run: ``nice python bench/bench_monitor_views.py [--rows N]``.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import io
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _frame(n: int, prior: float, seed: int, labels: bool = True) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < prior
    latent = np.where(y, rng.normal(1.5, 1.0, n), rng.normal(0.0, 1.0, n))
    # probabilities to 4 decimals, as models write them: 12 windows of 10^6 distinct
    # scores are more groups than ROC_DASH_MAX_ROWS lets the server hold (said, refused)
    out = pd.DataFrame({"label": y.astype(int),
                        "score": np.round(1.0 / (1.0 + np.exp(-latent)), 4), "model": "rf"})
    return out if labels else out.drop(columns="label")


def _timed(rows, name, fn):
    wall, cpu = time.perf_counter(), time.process_time()
    out = fn()
    rows.append((name, time.perf_counter() - wall, time.process_time() - cpu))
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", type=int, default=1_000_000)
    p.add_argument("--windows", type=int, default=12)
    args = p.parse_args()

    from roc_dash.app.analysis import AnalysisCache
    from roc_dash.app.features import monitor as tab
    from roc_dash.app.monitoring import page_monitor
    from roc_dash.app.page_state import MonitorState, PageState
    from roc_dash.app.server.monitor_files import put_file
    from roc_dash.app.server.store import DatasetStore
    from roc_dash.app.state import ControlState
    from roc_dash.io import load_predictions

    rows: list = []
    with tempfile.TemporaryDirectory(prefix="bench-monitor-views-") as folder:
        store = DatasetStore(Path(folder) / "store")
        cache = AnalysisCache(store)
        setup = time.perf_counter()
        path = Path(folder) / "ref.parquet"
        _frame(args.rows, 0.3, 0).to_parquet(path, index=False)
        ref = store.put(load_predictions([str(path)]).table, files=["ref.parquet"]).id
        files = []
        for k in range(args.windows):
            buf = io.BytesIO()
            _frame(args.rows, 0.3 if k < args.windows // 2 else 0.2, k + 1,
                   labels=False).to_parquet(buf, index=False)
            files.append(put_file(store.root, "window", f"w{k:02d}.parquet",
                                  buf.getvalue(), columns=("score", "model")).id)
        setup = time.perf_counter() - setup
        page = PageState(datasets=(ref,), tab="monitor",
                         conditions=ControlState(cost_fp=1, cost_fn=3, prior=0.3,
                                                 prior_mode="manual"),
                         monitor=MonitorState(windows=tuple(files)))
        from roc_dash.app.analysis import shown_analysis
        from roc_dash.app.chosen_points import decision_record

        record = _timed(rows, "decision: the page's, with its intervals (once per page)",
                        lambda: decision_record(cache, page, shown_analysis(cache, page),
                                                seconds=10.0)[0])
        _timed(rows, "first view: files read + monitor + figures", lambda: (
            tab.monitor_outputs(cache, page, None)))
        out = page_monitor(cache, page)
        assert out.report is not None, out.message
        _timed(rows, "shown again (cached)", lambda: tab.monitor_outputs(cache, page, None))
        m = page.monitor
        pinned = dataclasses.replace(page, monitor=dataclasses.replace(
            m, pins=((out.report.result.windows[-1].name, 0.7),)))
        _timed(rows, "a pin added", lambda: tab.monitor_outputs(cache, pinned, None))
        pacc = dataclasses.replace(page, monitor=dataclasses.replace(m, estimator="pacc"))
        _timed(rows, "another estimate (PACC)", lambda: tab.monitor_outputs(cache, pacc, None))
        hidden = dataclasses.replace(page, monitor=dataclasses.replace(m, hide_labels=True))
        _timed(rows, "labels set aside", lambda: tab.monitor_outputs(cache, hidden, None))
        other = dataclasses.replace(record, threshold=0.75)
        uploaded = {"name": "rec.json", "text": json.dumps(other.to_dict())}
        up = dataclasses.replace(page, monitor=dataclasses.replace(m, reference="upload"))
        _timed(rows, "an uploaded record (another threshold)",
               lambda: tab.monitor_outputs(cache, up, uploaded))

    print(f"# bench/bench_monitor_views.py --rows {args.rows} --windows {args.windows}")
    print(f"# {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M UTC}, load average "
          f"{' '.join(f'{v:.2f}' for v in os.getloadavg())}, {os.cpu_count()} cores; "
          f"setup (not timed) {setup:.1f} s")
    print(f"{'view':58s} {'wall s':>8s} {'CPU s':>8s}")
    for name, wall, cpu in rows:
        print(f"{name:58s} {wall:8.2f} {cpu:8.2f}")
    views = rows[1:]
    print(f"slowest view (decision apart): {max(w for _, w, _ in views):.2f} s wall, "
          f"{max(c for _, _, c in views):.2f} s CPU; target: each view < 3 s")


if __name__ == "__main__":
    main()
