"""Core speed and memory, measured side by side in one run (ratios, not absolute times).

For n = 1e5, 1e6, 1e7 rows, with and without ties, on the same arrays:
  * roc-dash: ROC points + AUC + convex hull (``roc_curve``, ``auc``, ``convex_hull``)
  * scikit-learn: ``roc_curve`` + ``roc_auc_score``
  * the floor: one ``np.sort`` of the scores
and prints roc-dash / scikit-learn and roc-dash / np.sort. Then the DeLong confidence
interval on 1e6 rows, and the peak extra memory of ROC + AUC + hull relative to the input
arrays (labels as bool, scores as float64), measured with tracemalloc.

Run: ``make bench`` (or ``python bench/bench_core.py [--quick]``).
Targets (issue "Core analysis"): <= 0.25x scikit-learn and <= 1.5x np.sort at 1e6 and 1e7;
DeLong CI on 1e6 rows <= 0.5 s; peak memory <= 4x the input arrays.
"""

from __future__ import annotations

import argparse
import gc
import time
import tracemalloc

import numpy as np

from roc_dash.core import auc, auc_confidence_interval, convex_hull, roc_curve


def best_of(fn, repeat: int, *args) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t0)
    return min(times)


def data(n: int, ties: bool, rng) -> tuple[np.ndarray, np.ndarray]:
    y = rng.random(n) < 0.3
    s = 1.0 / (1.0 + np.exp(-rng.normal(y * 1.0, 1.0)))
    if ties:
        s = np.round(s, 3)  # at most 1001 distinct scores
    return y, s


def ours(y, s):
    c = roc_curve(y, s)
    return auc(c), convex_hull(c)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip 1e7 rows")
    args = parser.parse_args()
    from sklearn.metrics import roc_auc_score
    from sklearn.metrics import roc_curve as sk_roc_curve

    def sklearn(y, s):
        sk_roc_curve(y, s)
        return roc_auc_score(y, s)

    rng = np.random.default_rng(0)
    sizes = [10**5, 10**6] + ([] if args.quick else [10**7])
    print(f"{'rows':>9} {'ties':>5} {'np.sort':>9} {'roc-dash':>9} {'sklearn':>9}"
          f" {'vs sklearn':>11} {'vs sort':>8}")
    for n in sizes:
        for ties in (False, True):
            y, s = data(n, ties, rng)
            repeat = 5 if n <= 10**6 else 2
            t_sort = best_of(np.sort, repeat, s)
            t_ours = best_of(ours, repeat, y, s)
            t_sk = best_of(sklearn, 1 if n >= 10**7 else 3, y, s)
            a_ours, a_sk = ours(y, s)[0], sklearn(y, s)
            assert abs(a_ours - a_sk) < 1e-9, (a_ours, a_sk)
            print(f"{n:>9} {str(ties):>5} {t_sort:9.4f} {t_ours:9.4f} {t_sk:9.4f}"
                  f" {t_ours / t_sk:10.3f}x {t_ours / t_sort:7.2f}x")

    y, s = data(10**6, False, rng)
    t = best_of(auc_confidence_interval, 3, y, s)
    print(f"\nDeLong 95% CI on 1e6 rows: {t:.3f} s (target <= 0.5 s)")

    print("\npeak extra memory of ROC + AUC + hull / input arrays (bool labels + float64 scores)")
    for ties in (False, True):
        y, s = data(10**6, ties, rng)
        gc.collect()
        tracemalloc.start()
        ours(y, s)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"  1e6 rows, ties={ties}: {peak / (y.nbytes + s.nbytes):.2f}x (target <= 4x)")


if __name__ == "__main__":
    main()
