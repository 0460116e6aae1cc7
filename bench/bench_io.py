"""Reading prediction files: time and peak memory, for a big honest file and for hostile ones.

1. A 10^7-row file of ``label, score, model, fold`` (4 models x 10 folds, probabilities to 6
   decimals), as plain CSV, gzip CSV (what an upload of that size is: the upload cap is 200
   MB) and Parquet, read by ``load_predictions``; then the upload path of the app for the
   gzip file: ``apply_upload`` (read, validate, store: "accept") and the first views
   (``render_views`` on the new dataset).
2. With ``--bombs``: each probe of ``tools/bombs.py`` (issue 14: files of a few MB or less
   that decode to gigabytes), refused.

Every measurement runs in a fresh subprocess; peak memory is that process's ``VmHWM`` (its
high-water resident set, imports included), "after" its resident set once the call
returned. With ``--compare DIR`` (another checkout, e.g. ``git archive <commit> | tar -x -C
DIR``) the same children run with that checkout's ``roc_dash`` and are printed side by side.

Run: ``python bench/bench_io.py [--rows N] [--bombs] [--compare DIR] [--skip-app]
[--skip-io] [--dir DIR]``. With ``--dir`` the files are written once (under
``DIR/rows-N``) and reused by later runs; ``--skip-io`` measures the upload path only.
The figures in docs/performance.md come from it; it prints the command, date, machine and load average so
that figures are read in their context (a busy machine is slower).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pa_csv
import pyarrow.parquet as pq
from bench_support import print_header  # bench/, the script's own folder

HERE = Path(__file__).resolve().parents[1]
MODELS = ("logistic regression", "random forest", "naive Bayes", "gradient boosting")
MB = 1 << 20
_NAMES = {"csv": "big.csv", "csv.gz": "big.csv.gz", "parquet": "big.parquet"}

_STATUS = textwrap.dedent(
    """
    import json, sys, time

    def status(field):
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024

    def report(**out):
        out.update(peak=status("VmHWM"), after=status("VmRSS"))
        print(json.dumps(out))
    """
)

IO_CHILD = _STATUS + textwrap.dedent(
    """
    from roc_dash.io import InputError, load_predictions

    path = sys.argv[1]
    data = open(path, "rb").read()
    before = status("VmRSS")
    t0 = time.perf_counter()
    try:
        result = load_predictions([(path.rsplit("/", 1)[-1], data)])
        outcome = f"{len(result.table):,} rows"
        del result
    except InputError as exc:
        outcome = type(exc).__name__ + ": " + str(exc).split(". ")[0].split(": ", 1)[-1]
    seconds = time.perf_counter() - t0
    del data
    report(seconds=seconds, before=before, outcome=outcome)
    """
)

APP_CHILD = _STATUS + textwrap.dedent(
    """
    import tempfile
    from roc_dash.app.analysis import AnalysisCache, model_names
    from roc_dash.app.features.data import apply_upload
    from roc_dash.app.render import render_views
    from roc_dash.app.server.store import DatasetStore
    from roc_dash.core.assembly.analysis import Conditions

    path = sys.argv[1]
    data = open(path, "rb").read()
    with tempfile.TemporaryDirectory() as tmp:
        store = DatasetStore(tmp)
        cache = AnalysisCache(store)
        before = status("VmRSS")
        t0, c0 = time.perf_counter(), time.process_time()
        out = apply_upload(store, [(path.rsplit("/", 1)[-1], data)], [])
        accept, accept_cpu = time.perf_counter() - t0, time.process_time() - c0
        del data
        assert not out.error, out.error
        ids = out.dataset_ids
        t1, c1 = time.perf_counter(), time.process_time()
        render_views(cache, ids, model_names(cache, ids), Conditions())
        views, views_cpu = time.perf_counter() - t1, time.process_time() - c1
        report(accept=accept, views=views, accept_cpu=accept_cpu, views_cpu=views_cpu,
               before=before, outcome=out.status[:60])
    """
)


def generate(folder: Path, rows: int, seed: int = 0,
             kinds: tuple[str, ...] = ("csv", "csv.gz", "parquet")) -> dict[str, Path]:
    """The big honest file as CSV, gzip CSV and Parquet (those of ``kinds``)."""
    rng = np.random.default_rng(seed)
    model = rng.integers(0, len(MODELS), rows)
    label = (rng.random(rows) < 0.3).astype(np.int8)
    logit = rng.normal(0, 1, rows) + (0.6 + 0.5 * model) * label - 1
    table = pa.table({
        "label": label,
        "score": np.round(1 / (1 + np.exp(-logit)), 6),
        "model": pa.DictionaryArray.from_arrays(pa.array(model.astype(np.int32)),
                                                pa.array(MODELS)).cast(pa.string()),
        "fold": rng.integers(1, 11, rows).astype(np.int8),
    })
    paths = {k: folder / name for k, name in _NAMES.items()}
    if "csv" in kinds:
        pa_csv.write_csv(table, paths["csv"], pa_csv.WriteOptions(quoting_style="none"))
    if "csv.gz" in kinds:
        with pa.CompressedOutputStream(str(paths["csv.gz"]), "gzip") as out:
            pa_csv.write_csv(table, out, pa_csv.WriteOptions(quoting_style="none"))
    if "parquet" in kinds:
        pq.write_table(table, paths["parquet"])
    return {k: v for k, v in paths.items() if k in kinds}


def kept_files(folder: Path, rows: int, kinds: tuple[str, ...]) -> dict[str, Path]:
    """The files of :func:`generate` kept in ``folder``: those missing are written (each
    under a temporary name first, so that an interrupted run leaves none half-written)."""
    folder.mkdir(parents=True, exist_ok=True)
    missing = [k for k in kinds if not (folder / _NAMES[k]).exists()]
    if missing:
        with tempfile.TemporaryDirectory(dir=folder) as tmp:
            for path in generate(Path(tmp), rows, kinds=tuple(missing)).values():
                path.rename(folder / path.name)
    return {k: folder / _NAMES[k] for k in kinds}


def measure(child: str, path: Path, checkouts: list[Path | None], repeat: int) -> list[dict]:
    """Per checkout, the fastest of ``repeat`` runs, the checkouts taking turns (a shared
    machine only ever slows a run down, and turns spread its moods evenly)."""
    runs: list[list[dict]] = [[] for _ in checkouts]
    for _ in range(max(1, repeat)):
        for i, checkout in enumerate(checkouts):
            runs[i].append(run(child, path, checkout))
    return [_fastest(r) for r in runs]


def _fastest(runs: list[dict]) -> dict:
    """The fastest run, with the highest peak of all of them."""
    ok = [r for r in runs if "error" not in r]
    if not ok:
        return runs[0]
    key = "seconds" if "seconds" in ok[0] else "accept"
    fastest = dict(min(ok, key=lambda r: r[key] + r.get("views", 0)))
    fastest["peak"] = max(r["peak"] for r in ok)
    fastest["runs"] = len(ok)
    return fastest


def run(child: str, path: Path, checkout: Path | None, timeout: float = 1800) -> dict:
    env = dict(os.environ)
    if checkout is not None:
        env["PYTHONPATH"] = str(checkout)
    else:
        env["PYTHONPATH"] = str(HERE)
    done = subprocess.run([sys.executable, "-c", child, str(path)], capture_output=True,
                          text=True, env=env, timeout=timeout, cwd=tempfile.gettempdir())
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1][:100] if done.stderr else "?"}
    return json.loads(done.stdout.strip().splitlines()[-1])


def mb(n: float) -> str:
    return f"{n / MB:,.0f} MB"


def show_io(label: str, new: dict, old: dict | None) -> None:
    def cell(r: dict | None) -> str:
        if r is None:
            return ""
        if "error" in r:
            return f"failed: {r['error']}"
        return f"{r['seconds']:6.2f} s  peak {mb(r['peak']):>9}  after {mb(r['after']):>8}"

    print(f"  {label:<34} {cell(new):<46} {cell(old)}")
    if "outcome" in new:
        print(f"  {'':<34} -> {new['outcome'][:110]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--bombs", action="store_true", help="also read the issue-14 probes")
    parser.add_argument("--compare", type=Path, help="another checkout, measured side by side")
    parser.add_argument("--skip-app", action="store_true", help="no upload path (io only)")
    parser.add_argument("--skip-io", action="store_true",
                        help="no load_predictions runs (the upload path only)")
    parser.add_argument("--dir", type=Path,
                        help="where to keep the files between runs (default: a temporary "
                             "folder, deleted)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of each big-file measurement; the fastest is shown")
    args = parser.parse_args()

    print_header()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        folder = Path(tmp)
        kinds = ("csv.gz",) if args.skip_io else ("csv", "csv.gz", "parquet")
        paths = (kept_files(args.dir / f"rows-{args.rows}", args.rows, kinds) if args.dir
                 else generate(folder, args.rows, kinds=kinds))
        sizes = ", ".join(f"{k} {mb(p.stat().st_size)}" for k, p in paths.items())
        print(f"\n{args.rows:,} rows of label, score, model, fold ({sizes})")
        head = "this checkout"
        other = f"--compare {args.compare}" if args.compare else ""
        print(f"  {'load_predictions':<34} {head:<46} {other}")
        print(f"  (best of {args.repeat} runs each, alternating; peak: the highest)")
        checkouts = [None, args.compare] if args.compare else [None]
        for kind, path in paths.items() if not args.skip_io else ():
            results = measure(IO_CHILD, path, checkouts, args.repeat)
            show_io(kind, results[0], results[1] if args.compare else None)
        if not args.skip_app:
            print("\n  upload path, gzip file: accept (read, validate, store) + first views")
            names = ["this checkout"] + ([other] if args.compare else [])
            results = measure(APP_CHILD, paths["csv.gz"], checkouts, args.repeat)
            for name, r in zip(names, results, strict=True):
                if "error" in r:
                    print(f"  {name:<34} failed: {r['error']}")
                    continue
                print(f"  {name:<34} accept {r['accept']:5.2f} s + first views "
                      f"{r['views']:5.2f} s = {r['accept'] + r['views']:5.2f} s, peak "
                      f"{mb(r['peak'])}")
                if "views_cpu" in r:  # CPU time (all threads): what a busy machine changes least
                    print(f"  {'':<34} CPU    {r['accept_cpu']:5.2f} s + {'':12}"
                          f"{r['views_cpu']:5.2f} s = "
                          f"{r['accept_cpu'] + r['views_cpu']:5.2f} s")
        if args.bombs:
            sys.path.insert(0, str(HERE))
            from tools import bombs

            probes = [
                ("parquet: 10^6 x one 1,000-char model", bombs.parquet_dictionary_name, {}),
                ("parquet: 10^7 x one 1,000-char model", bombs.parquet_dictionary_name,
                 {"rows": 10**7}),
                ("parquet: 10^7 x one 200-char model", bombs.parquet_dictionary_name,
                 {"rows": 10**7, "length": 200}),
                ("parquet: 10^7 x 60 constant columns", bombs.parquet_constant_columns, {}),
                ("gzip: 1 GiB of rows, one quote", bombs.gzip_quoted_rows, {}),
                ("gzip: 64 MiB blank lines, bad row", bombs.gzip_blank_lines_bad_row, {}),
                ("gzip: 5 GiB of zeros", bombs.gzip_zeros, {}),
                ("gzip: 50 MiB header line", bombs.gzip_long_header, {}),
                ("text: 50 MiB header line", bombs.long_header, {}),
                ("gzip: 1 GiB of 200-char ids", bombs.gzip_long_values, {}),
                ("gzip: 1 GiB of 150-column rows", bombs.gzip_wide_rows, {}),
            ]
            print("\nissue-14 probes (defaults of every limit), this checkout")
            for label, make, kw in probes:
                path = make(folder, **kw)
                label = f"{label} ({mb(path.stat().st_size)})"
                show_io(label, run(IO_CHILD, path, None), None)
                path.unlink()
    print(f"\nload average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
