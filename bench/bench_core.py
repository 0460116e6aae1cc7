"""Core speed and memory, measured side by side in one run (ratios, not absolute times).

For n = 1e5, 1e6, 1e7 rows and each score distribution -- probabilities, logits (both
signs), rounded logits (many ties), integer scores (a scorecard), and logits and rounded
logits with weights -- on the same arrays:
  * roc-dash: ROC points + AUC + convex hull (``roc_curve``, ``auc``, ``convex_hull``)
  * the same by the code before the sorted-keys path (``bench/core_before.py``, a copy)
  * the floor: one ``np.sort`` of the scores
  * scikit-learn: ``roc_curve`` + ``roc_auc_score`` (with ``sample_weight`` when weighted)
and prints roc-dash / np.sort and the old code / np.sort, after checking that both give the
same curve, area and hull bit for bit. Times are CPU time of this process (``time.
process_time``: the machine is shared, and a process waiting for a core is not working),
the best of several runs taken round-robin. Then the DeLong confidence interval on 1e6 rows,
and the peak extra memory of ROC + AUC + hull relative to the input arrays (labels as bool,
scores as float64, weights as float64), measured with tracemalloc, for both codes.

Run: ``make bench`` (or ``python bench/bench_core.py [--quick]``). Results with their
command, date and load average: ``docs/performance.md`` (section Speed); where the time
goes stage by stage: ``bench/bench_core_stages.py``.
Targets: ROC + AUC + hull <= 2x np.sort at 1e6 and 1e7 for every score distribution (and
<= 0.25x scikit-learn); DeLong CI on 1e6 rows <= 0.5 s; peak memory <= 4x the input arrays.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import os
import platform
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import core_before  # noqa: E402 - the code before, kept beside this file

from roc_dash.core import auc, auc_confidence_interval, convex_hull, roc_curve  # noqa: E402

KINDS = ("probabilities", "logits", "rounded logits", "integer scores", "weighted logits",
         "weighted rounded")
clock = time.process_time


def best_of(fn, repeat: int, *args) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()
        t0 = clock()
        fn(*args)
        times.append(clock() - t0)
    return min(times)


def best_of_each(fns, repeat: int, *args) -> list[float]:
    """Best time of each function, measured round-robin so that a burst of load elsewhere on
    the machine slows every contender alike rather than one of them."""
    best = [float("inf")] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            best[i] = min(best[i], best_of(fn, 1, *args))
    return best


def data(n: int, kind: str, rng):
    """Labels, scores and weights (or None) of one distribution."""
    y = rng.random(n) < 0.3
    logit = rng.normal(y * 1.0, 1.0) * 2.0  # spans about -8 .. 10: both signs, wide range
    w = None
    if kind == "probabilities":
        s = 1.0 / (1.0 + np.exp(-logit))
    elif kind == "logits":
        s = logit
    elif kind == "rounded logits":
        s = np.round(logit, 2)  # about 2,000 distinct scores
    elif kind == "integer scores":
        s = np.round(logit * 25.0)  # a scorecard: about 500 distinct integers of both signs
    elif kind == "weighted logits":
        s, w = logit, rng.uniform(0.1, 3.0, n)
    elif kind == "weighted rounded":
        s, w = np.round(logit, 2), rng.uniform(0.1, 3.0, n)
    else:
        raise ValueError(kind)
    return y, s, w


def roc_auc_hull(y, s, w):
    c = roc_curve(y, s, weights=w)
    return c, auc(c), convex_hull(c)


def roc_auc_hull_before(y, s, w):
    c = core_before.roc_curve(y, s, weights=w)
    return c, auc(c), core_before.convex_hull(c)


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype.kind == "f":
        return a.shape == b.shape and np.array_equal(a.view(np.uint64), b.view(np.uint64))
    return np.array_equal(a, b)


def check_identical(y, s, w) -> None:
    (c, a, h), (c0, a0, h0) = roc_auc_hull(y, s, w), roc_auc_hull_before(y, s, w)
    for name in ("fpr", "tpr", "thresholds"):
        assert same_bits(getattr(c, name), getattr(c0, name)), name
    assert (c.n_pos, c.n_neg) == (c0.n_pos, c0.n_neg) and a == a0, (a, a0)
    for name in ("fpr", "tpr", "thresholds", "models", "slope_high", "slope_low"):
        assert same_bits(getattr(h, name), getattr(h0, name)), f"hull {name}"


def peak_ratio(fn, y, s, w) -> float:
    """Peak memory traced while ``fn`` runs, over the input arrays' size."""
    gc.collect()
    tracemalloc.start()
    fn(y, s, w)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / (y.nbytes + s.nbytes + (0 if w is None else w.nbytes))


def load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip 1e7 rows")
    args = parser.parse_args()
    from sklearn.metrics import roc_auc_score
    from sklearn.metrics import roc_curve as sk_roc_curve

    def sklearn(y, s, w):
        sk_roc_curve(y, s, sample_weight=w)
        return roc_auc_score(y, s, sample_weight=w)

    print(f"$ python {' '.join(sys.argv)}")
    print(f"{datetime.datetime.now().isoformat(timespec='seconds')}, {platform.node()}, "
          f"{os.cpu_count()} CPUs, numpy {np.__version__}; load average before: {load()}")
    rng = np.random.default_rng(0)
    sizes = [10**5, 10**6] + ([] if args.quick else [10**7])
    print("CPU seconds, best of several; 'new' = ROC + AUC + hull now, 'old' = the same by "
          "the code before; ratios = time / np.sort time")
    print(f"{'rows':>9} {'scores':<17} {'np.sort':>8} {'new':>8} {'old':>8} {'sklearn':>8}"
          f" | {'new/sort':>8} {'old/sort':>8} {'new/sk':>7}")
    for n in sizes:
        for kind in KINDS:
            y, s, w = data(n, kind, rng)
            check_identical(y, s, w)
            repeat = 9 if n <= 10**6 else 5
            t_sort, t_new, t_old = best_of_each(
                [lambda y, s, w: np.sort(s), roc_auc_hull, roc_auc_hull_before], repeat, y, s, w)
            t_sk = best_of(sklearn, 1 if n >= 10**7 else 3, y, s, w)
            a_new, a_sk = roc_auc_hull(y, s, w)[1], sklearn(y, s, w)
            assert abs(a_new - a_sk) < 1e-9, (kind, a_new, a_sk)
            print(f"{n:>9} {kind:<17} {t_sort:8.4f} {t_new:8.4f} {t_old:8.4f} {t_sk:8.4f}"
                  f" | {t_new / t_sort:7.2f}x {t_old / t_sort:7.2f}x {t_new / t_sk:6.3f}x",
                  flush=True)

    y, s, _ = data(10**6, "probabilities", rng)
    t = best_of(auc_confidence_interval, 3, y, s)
    print(f"\nDeLong 95% CI on 1e6 rows: {t:.3f} s (target <= 0.5 s)")

    print("\npeak extra memory of ROC + AUC + hull / input arrays (bool labels + float64 scores"
          " [+ float64 weights]), now and before (target <= 4x)")
    for kind in KINDS:
        y, s, w = data(10**6, kind, rng)
        print(f"  1e6 rows, {kind}: {peak_ratio(roc_auc_hull, y, s, w):.2f}x"
              f" (before: {peak_ratio(roc_auc_hull_before, y, s, w):.2f}x)")
    print(f"\nload average after: {load()}")


if __name__ == "__main__":
    main()
