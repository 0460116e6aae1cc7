"""Slices at scale (issue 18): server time of every view plus the Slices card on 10^6 rows x
20 groups, against the issue's target of 1.5 s.

The data: ``tools.slices_example.many_groups`` (seeded; group sizes by Zipf's law, default
rates 5-40 %, separations 0.6-2.0 SD), uploaded as Parquet through ``apply_upload`` as the
page does (not timed). Then, in one run, the functions the page's callbacks call:

* ``update_views`` (the views callback: every linked view -- ROC, PR, cost, threshold,
  operating point, model table -- drawn in full, or patched when only the costs or the prior
  changed, as the page does; a change of constraint does not call it),
* ``slices_outputs`` (the Slices card: the groups' curves, AUCs with DeLong intervals and
  hulls, cached per data, model and level; the optima; the five constrained solutions;
  figure and table), with the card's cache as its callback gives it,

first with cold caches (the first view after an upload), then for a change of costs, of the
prior and of the constraint. Each line gives the fastest of ``--repeat`` visits (each with
fresh caches) and the total's ratio to 1.5 s, and the median of the visits: the development
machine is shared, so single runs are noisy.

Run: ``nice python bench/bench_slices.py [--rows N] [--groups G] [--decimals D]
[--repeat R] [--profile]``; it prints the command, date and load average, as the figures in docs/slices.md quote.

``--crossed`` measures instead a slice crossed by two columns of ``--values`` values each
(default 1,000 x 1,000, uniform, over ``--rows`` rows of one model): the Slices card's server
time for the first view and a change of the cost, the prior and the constraint, and the
worker's peak memory, in a fresh process per checkout (``crossed_slice_worker.py``), side by
side for the code at ``--reference`` (a commit, extracted with ``git archive``; default the
last one before the crossing was vectorised and memoised) and this checkout, ``--at-once K``
workers each asking at the same time. Targets: first view < 3 s, a change < 0.5 s, the
worker < 600 MB.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime
import io
import json
import os
import platform
import pstats
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
from bench_support import checkout  # bench/, the script's own folder

# this checkout, not whichever roc_dash is installed
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from roc_dash.app.analysis import AnalysisCache, model_names  # noqa: E402
from roc_dash.app.features.data import apply_upload  # noqa: E402
from roc_dash.app.features.slices import slices_outputs  # noqa: E402
from roc_dash.app.render import render_views, update_views  # noqa: E402
from roc_dash.app.server.cache import SharedCache  # noqa: E402
from roc_dash.app.server.store import DEMO_ID, DatasetStore, clean_ids  # noqa: E402
from roc_dash.app.state import conditions_from_state  # noqa: E402
from tools.slices_example import many_groups  # noqa: E402

TARGET = 1.5  # seconds of server time (issue 18, "Scale")
#: The crossed slice's targets: first view, a change (s), the worker's peak memory (MB).
CROSSED_TARGETS = {"first": 3.0, "change": 0.5, "peak_mb": 600.0}
#: The code the crossed slice is compared with by default: the crossing pair by pair, before
#: the memo, not counted as big work.
CROSSED_REFERENCE = "04cd0df"
HERE = Path(__file__).resolve().parents[1]


def load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def timed(fn, *args, **kw):
    t0 = time.perf_counter()
    out = fn(*args, **kw)
    return time.perf_counter() - t0, out


def page_update(cache, dataset_ids, model, state, constraint, viz=None, *, views=True):
    """What one change costs the server: the views callback (skipped for a change of
    constraint, which only the Slices card follows) and the Slices card, each timed.
    ``viz`` is the views' previous viz-data store (a patch instead of a full redraw)."""
    key = tuple(clean_ids(dataset_ids))

    def memo(parts, make):  # as the card's callback (features/slices.register)
        return cache.cache.get_or_make((*parts, key), make)

    t_views, out = 0.0, [None] * 6
    if views:
        t_views, out = timed(update_views, cache, dataset_ids, [model], state, "pooled", 0.95,
                             "pointwise", None, False, False, None, False, "pr", None,
                             "threshold", None, None, viz, conditions_changed=viz is not None)
    t_card, card = timed(lambda: slices_outputs(cache.table(dataset_ids), model, state,
                                                constraint, memo=memo))
    assert "groups" in card[0], card[0]
    return t_views, t_card, out[5]


def sequence(store, ids, model, r: int) -> list[tuple[str, float, float]]:
    """One visit with fresh caches: the first view, then a change of the cost of a FN, of the
    prior and of the constraint (values shifted by ``r`` so that no run reuses another's)."""
    with tempfile.TemporaryDirectory() as fresh:  # its own disk cache: nothing reused
        try:
            return _visit(AnalysisCache(store, SharedCache(fresh)), ids, model, r)
        finally:
            SharedCache.flush()  # the values still being written, before the folder goes


def _visit(cache, ids, model, r: int) -> list[tuple[str, float, float]]:
    state = {"cost_fp": 1.0, "cost_fn": 5.0 + r, "prior": 0.2}
    t_views, t_card, viz = page_update(cache, ids, model, state, "group_optima")
    out = [("first view (cold caches)", t_views, t_card)]
    changes = [("cost of a FN +3", {**state, "cost_fn": 8.0 + r}, "group_optima"),
               ("prior 0.2 -> 0.3", {**state, "cost_fn": 8.0 + r, "prior": 0.3},
                "group_optima"),
               ("constraint -> equalized odds", None, "equalized_odds")]
    for name, new, constraint in changes:
        state = new or state
        t_views, t_card, drawn = page_update(cache, ids, model, state, constraint, viz,
                                             views=new is not None)
        viz = drawn or viz
        out.append((name, t_views, t_card))
    return out


def show(runs: list[list[tuple[str, float, float]]]) -> None:
    """Per step, the fastest run's times and the median total of all runs."""
    for step in zip(*runs, strict=True):
        name = step[0][0]
        totals = [v + c for _, v, c in step]
        _, t_views, t_card = step[int(np.argmin(totals))]
        best = t_views + t_card
        print(f"  {name:<30} views {t_views:5.2f} s + Slices card {t_card:5.2f} s = "
              f"{best:5.2f} s ({best / TARGET:.2f}x the {TARGET} s target; median of "
              f"{len(step)} runs {statistics.median(totals):5.2f} s)")


# -- a slice crossed by two columns of many values: a reference checkout against this one ----
def crossed_frame(rows: int, values: int, decimals: int | None, seed: int = 27) -> pd.DataFrame:
    """``rows`` cases of one model with two columns ``a`` and ``b`` of ``values`` values each,
    drawn uniformly and independently (so most of the ``values``^2 pairs occur a few times)."""
    rng = np.random.default_rng(seed)
    label = rng.random(rows) < 0.2
    score = 1 / (1 + np.exp(-(rng.normal(size=rows) + 1.2 * label - 1.5)))
    names = [np.asarray([f"{c}{k}" for k in range(values)], dtype=object) for c in "ab"]
    return pd.DataFrame({"model": "model 1", "label": label.astype(int),
                         "score": score if decimals is None else np.round(score, decimals),
                         "a": names[0][rng.integers(0, values, rows)],
                         "b": names[1][rng.integers(0, values, rows)]})


def extract(commit: str, into: Path) -> Path:
    """The package ``roc_dash`` at ``commit`` of this repository, under ``into``."""
    tar = subprocess.run(["git", "-C", str(HERE), "archive", "--format=tar", commit,
                          "roc_dash"], capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as archive:
        archive.extractall(into, filter="data")
    return into


def workers(code: Path, store: str, dataset: str, at_once: int) -> list[dict]:
    """``at_once`` workers started together on ``code``, each asking for the crossed slice."""
    command = [sys.executable, str(HERE / "bench" / "crossed_slice_worker.py"), "--code",
               str(code), "--store", store, "--dataset", dataset, "--columns", "a", "b"]
    started = [subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
               for _ in range(at_once)]
    out = []
    for process in started:
        stdout, _ = process.communicate(timeout=3600)
        if process.returncode:
            raise SystemExit(f"a worker on {code} failed (exit {process.returncode})")
        out.append(json.loads(stdout.strip().splitlines()[-1]))
    return out


def show_crossed(names: list[str], results: list[list[dict]]) -> None:
    """Each step's slowest worker per checkout, the ratio, and the target (a target is for
    one worker: with several at once, only shown)."""
    alone = len(results[0]) == 1
    print(f"  {'':<30}" + "".join(f"{n:>22}" for n in names) + f"{'ratio':>9}   target"
          + ("" if alone else " (for one worker alone)"))
    steps = list(results[0][0]["times"])
    for i, step in enumerate(steps):
        worst = [max(r["times"][step] for r in runs) for runs in results]
        target = CROSSED_TARGETS["first" if i == 0 else "change"]
        print(f"  {step:<30}" + "".join(f"{t:20.2f} s" for t in worst)
              + f"{worst[0] / worst[-1]:8.1f}x   < {target:g} s"
              + ("" if worst[-1] < target or not alone else "  MISSED"))
    peaks = [max(r["peak_mb"] for r in runs) for runs in results]
    print(f"  {'worker peak memory':<30}" + "".join(f"{p:19.0f} MB" for p in peaks)
          + f"{peaks[0] / peaks[-1]:8.1f}x   < {CROSSED_TARGETS['peak_mb']:g} MB"
          + ("" if peaks[-1] < CROSSED_TARGETS["peak_mb"] else "  MISSED"))
    tables = [max(r["rss_table_mb"] for r in runs) for runs in results]
    print(f"  {'(after reading the table)':<30}" + "".join(f"{t:19.0f} MB" for t in tables))
    for name, runs in zip(names, results, strict=True):
        print(f"  {name} ({Path(runs[0]['code']).parent}): {runs[0]['source']}")


def crossed(args) -> None:
    """The crossed slice, the reference checkout and this one side by side."""
    frame = crossed_frame(args.rows, args.values, None if args.decimals < 0 else args.decimals)
    pairs = int(frame.groupby(["a", "b"]).ngroups)
    data = io.BytesIO()
    frame.to_parquet(data)
    del frame
    with tempfile.TemporaryDirectory() as tmp:
        store = DatasetStore(tmp)
        out = apply_upload(store, [("crossed.parquet", data.getvalue())], [])
        assert not out.error, out.error
        reference = extract(args.reference, Path(tmp) / "reference")
        print(f"\n{args.rows:,} rows of one model, a x b of {args.values:,} x {args.values:,} "
              f"values ({pairs:,} pairs present); {args.at_once} worker(s) at once, each a "
              "fresh process; the Slices card's server time (the slowest worker):")
        names = [f"reference {args.reference}", "this checkout"]
        results = [workers(code, tmp, out.dataset_ids[0], args.at_once)
                   for code in (reference, HERE)]
        show_crossed(names, results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=10**6)
    parser.add_argument("--groups", type=int, default=20)
    parser.add_argument("--decimals", type=int, default=6,
                        help="scores rounded to this many decimals (-1: not rounded)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="visits, each with fresh caches; the fastest is shown")
    parser.add_argument("--profile", action="store_true",
                        help="also profile one visit (cProfile, top 30 by cumulative time)")
    parser.add_argument("--crossed", action="store_true",
                        help="a slice crossed by two columns, against --reference")
    parser.add_argument("--values", type=int, default=1000,
                        help="--crossed: values of each of the two columns")
    parser.add_argument("--reference", default=CROSSED_REFERENCE,
                        help="--crossed: the commit compared with this checkout")
    parser.add_argument("--at-once", type=int, default=1,
                        help="--crossed: workers asking at the same time")
    args = parser.parse_args()
    print(f"command: python {' '.join(sys.argv)}")
    print(f"checkout: {Path(__file__).resolve().parents[1]} ({checkout()})")
    print(f"date: {datetime.datetime.now().isoformat(timespec='seconds')}; "
          f"{platform.node()}, {os.cpu_count()} CPUs; load average before: {load()}; "
          f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')}")
    if args.crossed:
        crossed(args)
        print(f"\nload average after: {load()}")
        return
    frame = many_groups(args.rows, args.groups,
                        decimals=None if args.decimals < 0 else args.decimals)
    data = io.BytesIO()
    frame.drop(columns="id").to_parquet(data)
    with tempfile.TemporaryDirectory() as tmp:
        store = DatasetStore(tmp)
        cache = AnalysisCache(store)
        render_views(cache, [DEMO_ID], model_names(cache, [DEMO_ID]),
                     conditions_from_state({}))  # warm imports
        out = apply_upload(store, [("slices.parquet", data.getvalue())], [])
        assert not out.error, out.error
        ids = out.dataset_ids
        model = model_names(cache, ids)[0]
        table = cache.table(ids)
        print(f"\n{len(table):,} rows, {table['group'].nunique()} groups, scores rounded to "
              f"{args.decimals} decimals ({table['score'].nunique():,} distinct); "
              "server time:")
        if args.profile:
            prof = cProfile.Profile()
            prof.runcall(sequence, store, ids, model, 100)
            pstats.Stats(prof).sort_stats("cumulative").print_stats(30)
        show([sequence(store, ids, model, r) for r in range(args.repeat)])
    print(f"\nload average after: {load()}")


if __name__ == "__main__":
    main()
