"""Where the time of ROC + AUC + hull goes, stage by stage, against one ``np.sort`` of the scores.

For distinct unweighted scores (probabilities) and distinct weighted ones (logits with
uniform weights), on the same arrays in one run, each stage timed on its own (CPU seconds of
this process, the best of several taken round-robin) and printed as a ratio to the sort:

* the first touch of three fresh arrays of ``n + 1`` floats (what the curve's thresholds
  and rates take; the sort's own output is reused by the allocator from one repetition to
  the next below 32 MB, glibc's largest dynamic ``mmap`` threshold);
* unweighted: the keys and their sort (``sorted_keys``), the vertex pass (``vertices_of_keys``:
  rates, thresholds and area), ``roc_curve`` whole, ``convex_hull`` and, of it, the sampled
  chords' pass (``above_sample_hull``), and the whole again with the rates in arrays of their
  own (as before they shared one block with the keys; in one process the allocator's
  state is shared, so ``bench_core.py`` run on either code is the fairer comparison);
* weighted: the keys with the rows' indices and their sort, the rows as complex numbers
  (``signed_rows``, and by the masked copy of the weights before it), the gather of them in the keys' order (``weighted_order`` is the three), for the floor of
  putting the weights in the scores' order with numpy: ``np.argsort`` of the scores and a
  random gather of the weights alone (float64, 8 bytes a row), the runs' sums
  (``runs_of_order``; also told every score is distinct, as ``weighted_order`` finds
  here, which skips finding where runs end), the rates (``curve_of_runs``), ``auc`` and
  ``convex_hull``, and the whole with and without that flag.

Run: ``python bench/bench_core_stages.py [--rows 1e6]``. ``bench/bench_core.py`` times the
whole; results of both with their command, date and load average: ``docs/performance.md``
(section Speed).
"""

from __future__ import annotations

import argparse
import datetime
import gc
import os
import sys
import time

import numpy as np

from roc_dash.core import auc, convex_hull, roc_curve
from roc_dash.core.roc import _exact_paths, curves, hull
from roc_dash.core.roc.curves import curve_of_runs

clock = time.process_time


def load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def best_of_each(fns: dict, repeat: int) -> dict:
    """Best CPU time of each function, measured round-robin (a burst of load elsewhere on
    the machine slows every stage alike)."""
    best = dict.fromkeys(fns, float("inf"))
    for _ in range(repeat):
        for name, fn in fns.items():
            gc.collect()
            t0 = clock()
            fn()
            best[name] = min(best[name], clock() - t0)
    return best


def vertex_pass(y, s, n_pos):
    keyed = _exact_paths.sorted_keys(y, s)
    t0 = clock()
    _exact_paths.vertices_of_keys(keyed, n_pos)
    return clock() - t0


def without_distinct_flag(fn):
    """``fn`` run with ``runs_of_order`` not told that every score is distinct (as before
    ``weighted_order`` said so): the whole with and without it, side by side."""
    def run():
        keep = curves.runs_of_order
        curves.runs_of_order = lambda z, spare=None, distinct=False: keep(z, spare)
        try:
            return fn()
        finally:
            curves.runs_of_order = keep
    return run


def rates_apart(fn):
    """``fn`` run with the unweighted curve's rates in two arrays of their own, as before
    they were written beside the sorted keys in one block (``sorted_keys``'s ``room``)."""
    def run():
        keep = curves.sorted_keys
        curves.sorted_keys = lambda *args, room=False, **kw: keep(*args, **kw)
        try:
            return fn()
        finally:
            curves.sorted_keys = keep
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=float, default=1e6)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    n = int(args.rows)
    print(f"$ python {' '.join(sys.argv)}")
    print(f"{datetime.datetime.now().isoformat(timespec='seconds')}, numpy {np.__version__}, "
          f"load average {load()}")
    rng = np.random.default_rng(0)
    y = rng.random(n) < 0.3
    logit = rng.normal(y * 1.0, 1.0) * 2.0
    p = 1.0 / (1.0 + np.exp(-logit))
    w = rng.uniform(0.1, 3.0, n)
    n_pos = int(np.count_nonzero(y))
    c = roc_curve(y, p)
    z = _exact_paths.weighted_order(y, logit, w)
    runs = _exact_paths.runs_of_order(z)
    cw = roc_curve(y, logit, weights=w)
    index_bits = (n - 1).bit_length()

    def rows_as_complex():  # as before signed_rows: a masked copy of the weights
        r = np.empty(n, dtype=np.complex128)
        r.real = logit
        np.negative(w, out=r.imag)
        np.copyto(r.imag, w, where=y)
        return r

    order = rng.permutation(n)

    def three_fresh_arrays():  # alive together, as the curve's
        arrays = [np.empty(n + 1) for _ in range(3)]
        for a in arrays:
            a[::512] = 0.0  # one write per 4 KiB page

    stages = {
        "np.sort (the floor)": lambda: np.sort(p),
        "three fresh arrays (first touch)": three_fresh_arrays,
        "unweighted: keys + their sort": lambda: _exact_paths.sorted_keys(y, p),
        "unweighted: roc_curve": lambda: roc_curve(y, p),
        "unweighted: convex_hull": lambda: convex_hull(c),
        "unweighted: sampled chords' pass": lambda: _exact_paths.above_sample_hull(
            c.fpr, c.tpr, hull._hull_of_sample),
        "unweighted: ROC + AUC + hull": lambda: convex_hull(roc_curve(y, p)),
        "unweighted: the same, rates apart": rates_apart(lambda: convex_hull(roc_curve(y, p))),
        "weighted: keys with indices + sort": lambda: _exact_paths.sorted_keys(
            y, logit, index_bits=index_bits),
        "weighted: rows as complex, masked": rows_as_complex,
        "weighted: rows as complex, signed_rows": lambda: _exact_paths.signed_rows(y, logit, w),
        "weighted: a random gather of them": lambda: z[order],
        "weighted: np.argsort of the scores": lambda: np.argsort(logit),
        "weighted: a random gather of weights": lambda: w[order],
        "weighted: weighted_order (the 3)": lambda: _exact_paths.weighted_order(y, logit, w),
        "weighted: runs_of_order": lambda: _exact_paths.runs_of_order(z),
        "weighted: the same, distinct known": lambda: _exact_paths.runs_of_order(
            z, distinct=True),
        "weighted: curve_of_runs (rates)": lambda: curve_of_runs(list(runs)),
        "weighted: auc": lambda: auc(cw),
        "weighted: convex_hull": lambda: convex_hull(cw),
        "weighted: ROC + AUC + hull": lambda: convex_hull(roc_curve(y, logit, weights=w)),
        "weighted: the same, flag not used": without_distinct_flag(
            lambda: convex_hull(roc_curve(y, logit, weights=w))),
    }
    best = best_of_each(stages, args.repeat)
    best["unweighted: vertex pass"] = min(vertex_pass(y, p, n_pos) for _ in range(args.repeat))
    floor = best["np.sort (the floor)"]
    print(f"{n} rows; CPU seconds, best of {args.repeat}; ratio = time / np.sort's")
    for name, t in best.items():
        print(f"  {name:<36} {t:8.4f}  {t / floor:5.2f}x")
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
