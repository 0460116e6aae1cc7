"""Fresh memory touched by ROC + AUC + hull at 10^6 rows: minor page faults and time per call.

One process, round-robin, best of 9: one ``np.sort`` of the scores (the floor), ROC + AUC +
hull of distinct unweighted scores (probabilities) and of distinct weighted ones (logits,
uniform weights), as ``bench/bench_core_stages.py`` builds them. Prints each one's ratio to
the sort and the minor page faults of its last call (pages the kernel had to hand out and
zero: memory the allocator did not reuse). Run it on two checkouts, one process after the
other, to compare them (the allocator's state is per process, so a comparison inside one
process would mix them): ``PYTHONPATH=CHECKOUT python bench/bench_core_faults.py``.
Results: ``docs/performance.md`` (section Speed).
"""

from __future__ import annotations

import gc
import os
import resource
import time

import numpy as np

import roc_dash
from roc_dash.core import auc, convex_hull, roc_curve


def faults() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def main() -> None:
    n = 10**6
    rng = np.random.default_rng(0)
    y = rng.random(n) < 0.3
    logit = rng.normal(y * 1.0, 1.0) * 2.0
    w = rng.uniform(0.1, 3.0, n)
    p = 1.0 / (1.0 + np.exp(-logit))

    def whole(s, weights):
        c = roc_curve(y, s, weights=weights)
        auc(c)
        convex_hull(c)

    runs = {"np.sort": lambda: np.sort(logit), "unweighted": lambda: whole(p, None),
            "weighted": lambda: whole(logit, w)}
    best, last = dict.fromkeys(runs, float("inf")), {}
    for _ in range(9):
        for name, fn in runs.items():
            gc.collect()
            f0, t0 = faults(), time.process_time()
            fn()
            best[name] = min(best[name], time.process_time() - t0)
            last[name] = faults() - f0
    print(f"{os.path.dirname(roc_dash.__file__)}; load average "
          f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for name in runs:
        print(f"  {name:<11} {best[name] / best['np.sort']:5.2f}x the sort, "
              f"{last[name]:5d} minor page faults in the last call")


if __name__ == "__main__":
    main()
