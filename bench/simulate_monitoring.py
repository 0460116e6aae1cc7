"""What the monitor's numbers are worth, by simulation with known priors and shifts
(``roc-dash monitor``, :mod:`roc_dash.core.monitoring`). A validation script, not a test: it
takes minutes and its numbers are statistics.

Binormal scores with a known truth: negatives ``N(s, 1)`` (``s = 0`` unless they moved),
positives ``N(d, 1)``, rounded to 3 decimals. The reference (``--n-ref`` cases at prior
``0.3``) is where the decision is taken: the optimum of its hull under ``c(FP) = 1``,
``c(FN) = 3`` (what ``roc-dash decide`` ships, its drift reference corrected for that choice as the record
carries it). A run monitors ``--windows`` windows of
``--n-window`` cases each with the default settings (95 % intervals, a run's false-alarm
rate 0.05, 200 bootstrap replicates, EM re-deriving the choice, a saving of at least
0.002 of the largest cost, PSI at least 0.01).

Scenarios (``--runs`` runs each):

* **no change**, unlabelled and labelled: every window like the reference. Every FAIL is a
  false alarm: the run's rate (exit 1) is the one ``--alpha`` states;
* **prior shift**: the last window's prior falls from 0.3 to 0.15 (unlabelled): power of the
  choice test there (the optimum at 0.15 is another hull vertex);
* **negatives moved**: the last window's negatives move up by ``--shift`` SD, labelled (power
  of the drift test and of the score-shift warning) and unlabelled (of the warning).

Coverage of the intervals: of the prior (EM, PACC, ACC; the truth is the window's prior)
over the windows of the no-change and prior-shift runs, and of the labelled windows' TPR,
FPR and expected cost at the decision's prior (the truth ``1 − Φ(t − d)``,
``1 − Φ(t)`` at the deployed threshold ``t``, half a rounding step below it). Monte Carlo
errors: binomial for rates over runs; for coverage, the spread of the runs' own coverage
(windows of one run share their reference) over ``√runs``.

Run: ``nice python bench/simulate_monitoring.py`` (``--help`` for the options).
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import os
import platform
import shlex
import sys
from pathlib import Path

import numpy as np
from bench_support import timed_main  # bench/, the script's own folder
from scipy.stats import norm

# this checkout, not whichever roc_dash is installed
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from roc_dash.core.decisions.drift import reference_from_sample  # noqa: E402
from roc_dash.core.decisions.economics import Economics, expected_cost_per_case  # noqa: E402
from roc_dash.core.monitoring import (  # noqa: E402
    MonitorSettings,
    monitor,
    reference_from_scores,
    window_from_rows,
)

ECON = Economics(cost_fp=1.0, cost_fn=3.0)
PRIOR = 0.3
STEP = 1e-3  # the scores' rounding


def draw(rng, n: int, prior: float, d: float, shift: float = 0.0):
    y = rng.random(n) < prior
    x = np.where(y, rng.normal(d, 1.0, n), rng.normal(shift, 1.0, n))
    return y, np.round(x, 3)


def reference(rng, a):
    """The decision taken on a reference sample as ``roc-dash decide`` takes it: the
    threshold at its optimum, the drift reference corrected for that choice (200
    replicates, :func:`roc_dash.core.decisions.drift.reference_from_sample`)."""
    y, s = draw(rng, a.n_ref, PRIOR, a.d)
    drift = reference_from_sample(y, s, prior_pos=PRIOR, economics=ECON, n_boot=200,
                                  seed=int(rng.integers(2**31)))
    return reference_from_scores(y, s, threshold=drift.threshold, prior_pos=PRIOR,
                                 economics=ECON, drift=drift)


def windows(rng, a, scenario: str):
    out = []
    for k in range(a.windows):
        last = k == a.windows - 1
        prior = 0.15 if scenario == "prior shift" and last else PRIOR
        shift = a.shift if scenario.startswith("negatives moved") and last else 0.0
        y, s = draw(rng, a.n_window, prior, a.d, shift)
        labelled = scenario.endswith("labelled") and not scenario.endswith("unlabelled")
        out.append((window_from_rows(f"w{k + 1:02d}", s, y if labelled else None),
                    prior, shift))
    return out


def truth(t: float, d: float, shift: float) -> dict:
    cut = t - STEP / 2  # round(x, 3) >= t  <=>  x >= t - 0.0005
    tpr, fpr = 1 - norm.cdf(cut - d), 1 - norm.cdf(cut - shift)
    return {"tpr": tpr, "fpr": fpr,
            "expected_cost": expected_cost_per_case(fpr, tpr, PRIOR, ECON)}


def inside(e, value: float) -> bool:
    return bool(e.low <= value <= e.high)


def one_run(rng, a, scenario: str, settings: MonitorSettings) -> dict:
    ref = reference(rng, a)
    items = windows(rng, a, scenario)
    result = monitor(ref, [w for w, _, _ in items], settings)
    out = {"fail": result.status == "drift", "cover": {}, "status": []}
    for (_, prior, shift), r in zip(items, result.windows, strict=True):
        out["status"].append({f.criterion: f.status for f in r.findings})
        for e in r.prevalence:
            if e.method != "labels":
                out["cover"].setdefault(e.method, []).append(inside(e, prior))
        if r.labelled is not None:
            true = truth(ref.threshold, a.d, shift)
            for key in ("tpr", "fpr", "expected_cost"):
                out["cover"].setdefault(f"labelled {key}", []).append(
                    inside(getattr(r.labelled, key), true[key]))
    return out


def simulate(a) -> dict:
    settings = MonitorSettings()
    rng = np.random.default_rng(a.seed)
    return {scenario: [one_run(rng, a, scenario, settings) for _ in range(a.runs)]
            for scenario in a.scenarios}


def rate(values) -> str:
    v = np.asarray(values, dtype=float)
    p = v.mean()
    return f"{100 * p:.1f} % ± {100 * math.sqrt(max(p * (1 - p), 1e-12) / v.size):.1f}"


def coverage(runs, key: str) -> str | None:
    per_run = [np.mean(r["cover"][key]) for r in runs if key in r["cover"]]
    if not per_run:
        return None
    v = np.asarray(per_run)
    se = v.std(ddof=1) / math.sqrt(v.size) if v.size > 1 else math.nan
    return f"{100 * v.mean():.1f} % ± {100 * se:.1f}"


def report(a, out: dict, seconds: float) -> None:
    print(f"command: {shlex.join([sys.executable.split('/')[-1], *sys.argv])}")
    print(f"date: {dt.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}; machine: "
          f"{platform.machine()}, {os.cpu_count()} cores; load average "
          f"{' '.join(f'{v:.2f}' for v in os.getloadavg())}; {seconds:.0f} s")
    print(f"binormal: negatives N(0,1), positives N({a.d:g},1), scores rounded to 3 decimals; "
          f"reference {a.n_ref} cases at p(+) {PRIOR}; {a.windows} windows of {a.n_window} "
          f"cases; c(FP) 1, c(FN) 3; {a.runs} runs per scenario; default settings (95 % "
          "intervals, alpha 0.05 per run, 200 replicates, EM, saving >= 0.002, PSI >= 0.01); "
          "the drift test is the CI gate's, its reference corrected for the choice")
    print()
    print("| scenario | run fails (exit 1) | cost-drift FAIL | choice FAIL | "
          "score-shift WARN |")
    print("|---|---|---|---|---|")
    for scenario, runs in out.items():
        last = [r["status"][-1] for r in runs]
        every = [s for r in runs for s in r["status"]]
        target = scenario in ("prior shift",) or scenario.startswith("negatives moved")
        pool = last if target else every
        where = "last window" if target else "per window"

        def share(criterion, status, pool=pool):
            hits = [s.get(criterion) == status for s in pool if criterion in s]
            return rate(hits) if hits else "—"

        print(f"| {scenario} ({where}) | {rate([r['fail'] for r in runs])} | "
              f"{share('cost-drift', 'FAIL')} | {share('choice', 'FAIL')} | "
              f"{share('score-shift', 'WARN')} |")
    print()
    print("| interval (95 %) | " + " | ".join(s for s in out) + " |")
    print("|---|" + "---|" * len(out))
    for key in ("em", "pacc", "acc", "labelled tpr", "labelled fpr",
                "labelled expected_cost"):
        cells = [coverage(runs, key) or "—" for runs in out.values()]
        if any(c != "—" for c in cells):
            print(f"| {key} | " + " | ".join(cells) + " |")


def parse(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=100)
    p.add_argument("--windows", type=int, default=12)
    p.add_argument("--n-window", type=int, default=2000)
    p.add_argument("--n-ref", type=int, default=5000)
    p.add_argument("--d", type=float, default=1.5, help="separation of the classes (SD)")
    p.add_argument("--shift", type=float, default=0.5,
                   help="how far the negatives move in the 'negatives moved' scenarios (SD)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--scenarios", nargs="+",
                   default=["no change, unlabelled", "no change, labelled", "prior shift",
                            "negatives moved, labelled", "negatives moved, unlabelled"])
    return p.parse_args(argv)


def main(argv=None) -> None:
    timed_main(parse, simulate, report, argv)


if __name__ == "__main__":
    main()
