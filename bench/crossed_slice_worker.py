"""One worker's server time and memory for a crossed slice, run by ``bench_slices.py --crossed``.

Started as its own process (a worker's memory is measured from its start), with the code to
measure first on ``sys.path`` (``--code``: a checkout's folder holding ``roc_dash``): it opens a
stored dataset as a worker does, then asks for the Slices card crossed by two columns, with
the card's cache (``get_or_make`` on a fresh shared cache, as its callback), for the first
view and a change of the cost of a FN, of the prior and of the constraint. Prints one JSON
line: the seconds of each step, the worker's resident memory after reading the table and
its peak (``ru_maxrss``).

Run: ``python bench/crossed_slice_worker.py --code DIR --store DIR --dataset ID --columns A B``
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time


def _rss_mb() -> float:
    """Resident memory now (MB), from /proc (0 where there is none)."""
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
    except OSError:
        return 0.0
    return pages * resource.getpagesize() / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--code", required=True)
    parser.add_argument("--store", required=True)
    parser.add_argument("--dataset", required=True)
    parser.add_argument("--columns", nargs=2, required=True)
    args = parser.parse_args()
    sys.path.insert(0, args.code)

    import roc_dash
    from roc_dash.app.analysis import AnalysisCache, model_names
    from roc_dash.app.features.slices import slices_outputs
    from roc_dash.app.server.cache import SharedCache
    from roc_dash.app.server.store import DatasetStore, clean_ids

    ids = [args.dataset]
    with tempfile.TemporaryDirectory() as fresh:
        cache = AnalysisCache(DatasetStore(args.store), SharedCache(fresh))
        key = tuple(clean_ids(ids))
        table = cache.table(ids)
        model = model_names(cache, ids)[0]
        rss_table = _rss_mb()

        def memo(parts, make):  # as the card's callback: the worker's shared cache
            return cache.cache.get_or_make((*parts, key), make)

        state = {"cost_fp": 1.0, "cost_fn": 5.0, "prior": 0.2}
        steps = [("first view (cold caches)", state, "group_optima"),
                 ("cost of a FN +3", {**state, "cost_fn": 8.0}, "group_optima"),
                 ("prior 0.2 -> 0.3", {**state, "cost_fn": 8.0, "prior": 0.3},
                  "group_optima"),
                 ("constraint -> equalized odds", {**state, "cost_fn": 8.0, "prior": 0.3},
                  "equalized_odds")]
        times, source = {}, ""
        for name, conditions, constraint in steps:
            t0 = time.perf_counter()
            out = slices_outputs(cache.table(ids), model, conditions, constraint, memo=memo,
                                 columns=list(args.columns))
            times[name] = time.perf_counter() - t0
            source = out[0]
            assert "groups" in source, source
        SharedCache.flush()
    print(json.dumps({"code": roc_dash.__file__, "rows": len(table), "times": times,
                      "source": source, "rss_table_mb": rss_table,
                      "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


if __name__ == "__main__":
    main()
