"""Data where it lives (issue 19 item 5): a folder of Parquet files on the server, opened in the
page through ``ROC_DASH_SOURCES`` — aggregated by DuckDB, stored as counts, first views drawn.

Generates ``--rows`` rows (default 10^8) of ``model, fold, label, score`` (4 models x 10 folds,
scores to 4 decimals, as a model's probabilities usually are once rounded for storage) as a
folder of Parquet parts of 10^7 rows, then measures, in this process, what the page does:

1. ``SourceJobs`` (the background job of the *Open* button): DuckDB aggregates the folder to
   counts per (model, fold, score, label) and the store keeps them as a dataset;
2. ``render_views`` on that dataset: the ROC, hull, optimum, PR, cost and threshold views.

It prints each step's seconds, their sum against the issue's 30 s target (the ratio), and the
process's peak resident memory (the files are generated in a child process), with the command, the date and the load average, so that the
figure is read in its context (a busy machine is slower).

Run: ``python bench/bench_sources.py [--rows N] [--dir DIR]``.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from bench_support import print_header  # bench/, the script's own folder

MODELS = ("logistic regression", "random forest", "naive Bayes", "gradient boosting")
CHUNK = 10_000_000
TARGET_SECONDS = 30.0


def generate(folder: Path, rows: int, seed: int = 0) -> int:
    """Write ``rows`` rows as Parquet parts of at most 10^7 rows; return the bytes written."""
    rng = np.random.default_rng(seed)
    folder.mkdir(parents=True, exist_ok=True)
    written, k = 0, 0
    while written < rows:
        n = min(CHUNK, rows - written)
        model = rng.integers(0, len(MODELS), n)
        label = (rng.random(n) < 0.3).astype(np.int8)
        logit = rng.normal(0, 1, n) + (0.6 + 0.5 * model) * label - 1
        table = pa.table({
            "model": pa.DictionaryArray.from_arrays(pa.array(model.astype(np.int32)),
                                                    pa.array(MODELS)),
            "fold": rng.integers(1, 11, n).astype(np.int8),
            "label": label,
            "score": np.round(1 / (1 + np.exp(-logit)), 4),
        })
        pq.write_table(table, folder / f"part-{k:04d}.parquet")
        written += n
        k += 1
    return sum(p.stat().st_size for p in folder.glob("*.parquet"))


def peak_mb() -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=100_000_000)
    parser.add_argument("--dir", type=Path, help="where to write the files (default: temp)")
    args = parser.parse_args()

    print_header()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        folder = Path(tmp) / "predictions"
        t0 = time.perf_counter()
        # in a child process, so that the peak memory below is the page's alone
        with concurrent.futures.ProcessPoolExecutor(1) as pool:
            size = pool.submit(generate, folder, args.rows).result()
        print(f"\n{args.rows:,} rows in {len(list(folder.glob('*.parquet')))} Parquet files, "
              f"{size / 2**20:,.0f} MB (generated in {time.perf_counter() - t0:.0f} s)")

        os.environ["ROC_DASH_SOURCES"] = str(folder)
        from roc_dash.app.analysis import AnalysisCache, model_names
        from roc_dash.app.render import render_views
        from roc_dash.app.server.sources import SourceJobs, resolve
        from roc_dash.app.server.store import DatasetStore
        from roc_dash.core.analysis_types import Conditions

        store = DatasetStore(Path(tmp) / "data")
        cache = AnalysisCache(store)
        jobs = SourceJobs(store)
        t1 = time.perf_counter()
        token = jobs.start(resolve(str(folder)), label="predictions/")
        while (job := jobs.status(token))["state"] == "running":
            time.sleep(0.1)
        opened = time.perf_counter() - t1
        if job["state"] != "done":
            print(f"failed: {job.get('error')}")
            sys.exit(1)
        ids = [job["dataset_id"]]
        t2 = time.perf_counter()
        render_views(cache, ids, model_names(cache, ids), Conditions())
        views = time.perf_counter() - t2
        groups = len(store.get(ids[0]))
        total = opened + views
        print(f"  open (DuckDB aggregation + store): {opened:6.2f} s -> {groups:,} groups")
        print(f"  first views (render_views):        {views:6.2f} s")
        print(f"  total:                             {total:6.2f} s = "
              f"{total / TARGET_SECONDS:.2f} x the {TARGET_SECONDS:.0f} s target; "
              f"peak memory {peak_mb():,.0f} MB")


if __name__ == "__main__":
    main()
