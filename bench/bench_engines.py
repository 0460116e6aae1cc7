"""Data beyond memory: DuckDB aggregation + core against the in-memory path, in one run.

Generates (in chunks, on disk under a temporary directory that is deleted afterwards) a
Parquet dataset of ``--rows`` predictions (default 10^8): 4 models x 10 folds, labels with 30%
positives, probabilities from a logistic model rounded to 4 decimals (as most pipelines
store them), one part file per chunk. Then, each in its own subprocess so that peak memory is
measured per path (``ru_maxrss`` of the child):

* **duckdb**: ``aggregate_predictions([directory])`` (one GROUP BY model, fold, score, label
  query streaming the parts) + ``analyse`` on the counts -- over all rows, and over the
  first ``--memory-rows`` rows (default 10^7, the in-memory reader's row limit per file);
* **memory**: ``load_predictions(parts)`` + ``analyse`` on the same first ``--memory-rows``
  rows, the path the report takes for ordinary files.

Prints wall time, throughput (rows/s) and peak RSS of each, and the memory/DuckDB ratios at
the common size, and checks that both paths give the same AUC for every model.

Run: ``python bench/bench_engines.py [--rows N] [--memory-rows M] [--dir DIR]`` (``make
bench`` runs it at 10^7 rows; the figures in docs/deployment.md are from 10^8).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np
import pyarrow as pa
from bench_support import write_part  # bench/, the script's own folder

MODELS = ("logistic regression", "random forest", "naive Bayes", "gradient boosting")
FOLDS = 10
CHUNK = 5_000_000


def generate(directory: str, rows: int, seed: int = 0) -> list[str]:
    """Part files of ``rows`` predictions; returns their paths in order."""
    rng = np.random.default_rng(seed)
    paths = []
    done = 0
    k = 0
    models = pa.array(MODELS, pa.string())
    while done < rows:
        n = min(CHUNK, rows - done)
        model = rng.integers(0, len(MODELS), n).astype(np.int32)
        label = rng.random(n) < 0.3
        separation = 0.6 + 0.5 * model  # models of different quality
        logit = rng.normal(0.0, 1.0, n) + separation * label - 1.0
        score = np.round(1.0 / (1.0 + np.exp(-logit)), 4)
        table = pa.table({
            "model": pa.DictionaryArray.from_arrays(pa.array(model), models),
            "fold": pa.array(rng.integers(1, FOLDS + 1, n).astype(np.int8)),
            "label": pa.array(label.astype(np.int8)),
            "score": pa.array(score),
        })
        paths.append(write_part(directory, k, table))
        done += n
        k += 1
    return paths


def _child(engine: str, paths: list[str]) -> None:
    """One measured run in this process; prints a JSON line."""
    from roc_dash.core.assembly.analysis import analyse

    t0 = time.perf_counter()
    if engine == "duckdb":
        from roc_dash.io.engines import aggregate_predictions

        result = aggregate_predictions(paths, engine="duckdb")
        rows = int(result.table.attrs["input_rows"])
    else:
        from roc_dash.io import load_predictions

        result = load_predictions(paths)
        rows = len(result.table)
    t1 = time.perf_counter()
    analysis = analyse(result.table)
    t2 = time.perf_counter()
    print(json.dumps({
        "engine": engine, "rows": rows, "groups": len(result.table),
        "read_s": t1 - t0, "analyse_s": t2 - t1, "total_s": t2 - t0,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "auc": {m.name: m.auc for m in analysis.models},
    }))


def measure(engine: str, paths: list[str]) -> dict:
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # this checkout
    env = dict(os.environ, ROC_DASH_MAX_ROWS=str(10**9),
               PYTHONPATH=os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))
    out = subprocess.run(
        [sys.executable, __file__, "--child", engine, "--paths-json", json.dumps(paths)],
        capture_output=True, text=True, env=env, check=False,
    )
    if out.returncode != 0:
        raise SystemExit(f"{engine} run failed:\n{out.stderr}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def show(label: str, r: dict) -> None:
    print(f"{label:<34} {r['rows']:>12,} rows -> {r['groups']:>11,} table rows  "
          f"read {r['read_s']:7.2f} s  analyse {r['analyse_s']:6.2f} s  "
          f"total {r['total_s']:7.2f} s  {r['rows'] / r['total_s'] / 1e6:7.2f} M rows/s  "
          f"peak RSS {r['peak_rss_mb']:7,.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=float, default=1e8)
    parser.add_argument("--memory-rows", type=float, default=1e7,
                        help="rows for the side-by-side with the in-memory path (0: skip)")
    parser.add_argument("--dir", default=None, help="where to write the dataset (a temp dir)")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--paths-json", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args.child, json.loads(args.paths_json))
        return

    rows, memory_rows = int(args.rows), int(min(args.memory_rows, args.rows))
    directory = tempfile.mkdtemp(prefix="roc-dash-bench-", dir=args.dir)
    try:
        t0 = time.perf_counter()
        paths = generate(directory, rows)
        size = sum(os.path.getsize(p) for p in paths)
        print(f"generated {rows:,} rows in {len(paths)} Parquet parts ({size / 2**20:,.0f} MB) "
              f"in {time.perf_counter() - t0:.0f} s; {os.cpu_count()} CPUs")
        full = measure("duckdb", [directory])
        show("duckdb + core, all rows", full)
        if memory_rows:
            subset = paths[: max(1, -(-memory_rows // CHUNK))]
            n_sub = min(rows, len(subset) * CHUNK)
            small = measure("duckdb", subset)
            show(f"duckdb + core, first {n_sub:,}", small)
            memory = measure("memory", subset)
            show(f"memory + core, first {n_sub:,}", memory)
            print(f"memory / duckdb at {n_sub:,} rows: time {memory['total_s'] / small['total_s']:.1f}x, "
                  f"peak RSS {memory['peak_rss_mb'] / small['peak_rss_mb']:.1f}x")
            worst = max(abs(small["auc"][m] - memory["auc"][m]) for m in memory["auc"])
            print(f"largest AUC difference between the two paths: {worst:.1e}")
            if worst > 1e-12:
                raise SystemExit("the two paths disagree")
    finally:
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
