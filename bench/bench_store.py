"""The dataset store on the data folder and on an S3-compatible store, side by side in one run.

For each backend (the data folder; moto's S3 server on loopback, started here, as
``ROC_DASH_STORE_URL`` would use it): storing a table (``put``), reading it in another
"replica" with an empty memory (``get``), what every request asks of the store (``present``
and ``info`` of one dataset, ``get`` again: from memory when the table fits a quarter of
``ROC_DASH_TABLE_CACHE_MB``, checking it is still stored; else read again),
a note saved and read, and a sweep with the given number of datasets stored.

Run: ``python bench/bench_store.py [--rows 1000000] [--datasets 20] [--repeat 20]``. No
target: the numbers say what the object store costs per request (one round trip per
dataset and check) against the local folder; moto on loopback is a floor, a remote store
adds its latency to each.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from roc_dash.app.server.store import DatasetStore  # noqa: E402
from tools.s3_server import s3_server  # noqa: E402


def _table(rows: int) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    return pd.DataFrame({"model": "m", "fold": "", "label": (rng.random(rows) < 0.3)
                         .astype("int8"), "score": rng.random(rows),
                         "weight": np.ones(rows)})


def _ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return 1000 * statistics.median(times)


def measure(root: Path, table: pd.DataFrame, datasets: int, repeat: int, *,
            shared_folder: bool) -> dict:
    """``shared_folder``: the two stores ("replicas") on one data folder (else each its
    own, sharing the object store)."""
    a = DatasetStore(root / "a")
    b = DatasetStore(root / ("a" if shared_folder else "b"))
    out = {}
    t0 = time.perf_counter()
    info = a.put(table, files=["bench.csv"], owner="ann")
    out["put (ms)"] = 1000 * (time.perf_counter() - t0)
    t0 = time.perf_counter()
    b.get(info.id)
    out["get, another replica (ms)"] = 1000 * (time.perf_counter() - t0)
    out["get again (ms)"] = _ms(lambda: b.get(info.id), repeat)  # memory, if it fits
    out["present, 1 dataset (ms)"] = _ms(lambda: b.present([info.id]), repeat)
    out["info (ms)"] = _ms(lambda: b.info(info.id), repeat)
    out["save note (ms)"] = _ms(lambda: b.save_note([info.id], "n", owner="ann"), repeat)
    out["read notes (ms)"] = _ms(lambda: b.notes([info.id]), repeat)
    small = table.head(1000)
    for k in range(datasets - 1):
        a.put(small, files=[f"s{k}.csv"], owner="ann")
    out[f"sweep, {datasets} datasets (ms)"] = _ms(lambda: b.sweep(), max(3, repeat // 5))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--datasets", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    table = _table(args.rows)
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        os.environ.pop("ROC_DASH_STORE_URL", None)
        results["data folder"] = measure(root / "local", table, args.datasets, args.repeat,
                                         shared_folder=True)
        with s3_server(root / "moto", buckets=("bench",)) as env:
            with _env({**env, "ROC_DASH_STORE_URL": "s3://bench/run"}):
                results["S3 (moto, loopback)"] = measure(root / "s3", table, args.datasets,
                                                         args.repeat, shared_folder=False)
    print(f"# bench/bench_store.py --rows {args.rows} --datasets {args.datasets} "
          f"--repeat {args.repeat}")
    print(f"# {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, load average "
          + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    names = list(results)
    print(f"{'':32}" + "".join(f"{n:>22}" for n in names) + f"{'ratio':>10}")
    for row in results[names[0]]:
        local, s3 = (results[n][row] for n in names)
        print(f"{row:32}{local:>22.1f}{s3:>22.1f}{s3 / max(local, 1e-9):>10.1f}")


@contextlib.contextmanager
def _env(values: dict):
    old = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


if __name__ == "__main__":
    main()
