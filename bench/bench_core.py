"""Core speed and memory, measured side by side in one run (ratios, not absolute times).

For n = 1e5, 1e6, 1e7 rows and each score distribution -- probabilities, logits (both
signs), rounded logits (many ties), integer scores (a scorecard), and logits with weights --
on the same arrays:
  * roc-dash: ROC points + AUC (``roc_curve``, ``auc``), and the same plus the convex hull
  * scikit-learn: ``roc_curve`` + ``roc_auc_score`` (with ``sample_weight`` when weighted)
  * the floor: one ``np.sort`` of the scores
and prints roc-dash / scikit-learn and roc-dash / np.sort. Then the DeLong confidence
interval on 1e6 rows, and the peak extra memory of ROC + AUC + hull relative to the input
arrays (labels as bool, scores as float64, weights as float64), measured with tracemalloc.

Run: ``make bench`` (or ``python bench/bench_core.py [--quick]``).
Targets (issue "Core analysis"; "Self-hosted for a team" section 7: the same for every score
distribution): <= 0.25x scikit-learn and <= 1.5x np.sort at 1e6 and 1e7; DeLong CI on 1e6
rows <= 0.5 s; peak memory <= 4x the input arrays.
"""

from __future__ import annotations

import argparse
import gc
import time
import tracemalloc

import numpy as np

from roc_dash.core import auc, auc_confidence_interval, convex_hull, roc_curve

KINDS = ("probabilities", "logits", "rounded logits", "integer scores", "weighted logits",
         "weighted rounded")


def best_of(fn, repeat: int, *args) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t0)
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


def roc_and_auc(y, s, w):
    return auc(roc_curve(y, s, weights=w))


def roc_auc_hull(y, s, w):
    c = roc_curve(y, s, weights=w)
    return auc(c), convex_hull(c)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip 1e7 rows")
    args = parser.parse_args()
    from sklearn.metrics import roc_auc_score
    from sklearn.metrics import roc_curve as sk_roc_curve

    def sklearn(y, s, w):
        sk_roc_curve(y, s, sample_weight=w)
        return roc_auc_score(y, s, sample_weight=w)

    rng = np.random.default_rng(0)
    sizes = [10**5, 10**6] + ([] if args.quick else [10**7])
    print("times in seconds, best of several; ratios = roc-dash time / reference time")
    print(f"{'rows':>9} {'scores':<17} {'np.sort':>8} {'roc+auc':>8} {'+hull':>8} {'sklearn':>8}"
          f" | {'roc+auc/sk':>10} {'/sort':>6} | {'+hull/sk':>8} {'/sort':>6}")
    for n in sizes:
        for kind in KINDS:
            y, s, w = data(n, kind, rng)
            repeat = 7 if n <= 10**6 else 4
            t_sort, t_roc, t_full = best_of_each(
                [lambda y, s, w: np.sort(s), roc_and_auc, roc_auc_hull], repeat, y, s, w)
            t_sk = best_of(sklearn, 1 if n >= 10**7 else 3, y, s, w)
            a_ours, a_sk = roc_and_auc(y, s, w), sklearn(y, s, w)
            assert abs(a_ours - a_sk) < 1e-9, (kind, a_ours, a_sk)
            print(f"{n:>9} {kind:<17} {t_sort:8.4f} {t_roc:8.4f} {t_full:8.4f} {t_sk:8.4f}"
                  f" | {t_roc / t_sk:9.3f}x {t_roc / t_sort:5.2f}x"
                  f" | {t_full / t_sk:7.3f}x {t_full / t_sort:5.2f}x", flush=True)

    y, s, _ = data(10**6, "probabilities", rng)
    t = best_of(auc_confidence_interval, 3, y, s)
    print(f"\nDeLong 95% CI on 1e6 rows: {t:.3f} s (target <= 0.5 s)")

    print("\npeak extra memory of ROC + AUC + hull / input arrays (bool labels + float64 scores"
          " [+ float64 weights])")
    for kind in KINDS:
        y, s, w = data(10**6, kind, rng)
        gc.collect()
        tracemalloc.start()
        roc_auc_hull(y, s, w)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        size = y.nbytes + s.nbytes + (0 if w is None else w.nbytes)
        print(f"  1e6 rows, {kind}: {peak / size:.2f}x (target <= 4x)")


if __name__ == "__main__":
    main()
