"""Slices at scale (issue 18): server time of every view plus the Slices card on 10^6 rows x
20 groups, against the issue's target of 1.5 s.

The data: ``tests.slices_example.many_groups`` (seeded; group sizes by Zipf's law, default
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
[--repeat R] [--profile]``; it prints the command, date and load average, as the README's figures quote.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime
import io
import os
import platform
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

# this checkout, not whichever roc_dash is installed
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from roc_dash.app.analysis import AnalysisCache, model_names  # noqa: E402
from roc_dash.app.features.data import apply_upload  # noqa: E402
from roc_dash.app.features.slices import slices_outputs  # noqa: E402
from roc_dash.app.render import render_views, update_views  # noqa: E402
from roc_dash.app.server.cache import SharedCache  # noqa: E402
from roc_dash.app.server.store import DEMO_ID, DatasetStore, clean_ids  # noqa: E402
from roc_dash.app.state import conditions_from_state  # noqa: E402
from tests.slices_example import many_groups  # noqa: E402

TARGET = 1.5  # seconds of server time (issue 18, "Scale")


def checkout() -> str:
    """The commit measured (README figures name it)."""
    import subprocess

    here = Path(__file__).resolve().parents[1]
    out = subprocess.run(["git", "-C", str(here), "log", "-1", "--format=%h %s"],
                         capture_output=True, text=True)
    return out.stdout.strip()[:70] or str(here)


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
        return cache.cache.get_or_make((*parts, key), make, shared=False)

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
        return _visit(AnalysisCache(store, SharedCache(fresh)), ids, model, r)


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
    args = parser.parse_args()
    print(f"command: python {' '.join(sys.argv)}")
    print(f"checkout: {Path(__file__).resolve().parents[1]} ({checkout()})")
    print(f"date: {datetime.datetime.now().isoformat(timespec='seconds')}; "
          f"{platform.node()}, {os.cpu_count()} CPUs; load average before: {load()}; "
          f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')}")
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
