"""Coverage of the bootstrap intervals of :mod:`roc_dash.core.decisions.point_intervals` (issue 17,
item 2). A validation script, not a test: it takes minutes and its numbers are statistics.

Binormal data with a known truth: negatives ``N(0, 1)``, positives ``N(d, 1)``. At a fixed
threshold ``t`` the true rates are ``TPR = Φ(d − t)`` and ``FPR = Φ(−t)``; under net costs
``c(FP)``, ``c(FN)`` and the deployment prior ``p`` the expected cost
``p·(1−TPR)·c(FN) + (1−p)·FPR·c(FP)`` is smallest where the density ratio
``φ(t − d)/φ(t) = exp(d·t − d²/2)`` equals the iso-performance slope
``m = c(FP)·(1−p) / (c(FN)·p)``: ``t* = d/2 + ln(m)/d``. Each run draws a sample, computes
the intervals and records whether each contains the truth:

* at the pin: the true metric at the pin's threshold;
* at the optimum, "vs t*": the true metric at the population optimum ``t*`` (what the
  intervals claim to estimate);
* at the optimum, "vs chosen": the true metric at the threshold chosen on the sample (what
  deploying that threshold will give); the threshold has no such row.

It also compares the out-of-bag optimism (mean OOB cost − mean in-bag cost) with the real
one (true cost of the chosen threshold − its apparent cost on the sample).

``--scenario boundary`` pins the threshold ``d − 3`` (true TPR ``Φ(3) = 0.99865``) with 30
positives: the sample's TPR at the pin is 1 in about 96 % of the runs, where a percentile
interval collapses to ``[1, 1]`` and misses the truth; the intervals widened at a rate of 0
or 1 (exact Clopper–Pearson, ``"boundary"``) should cover. A last line gives the coverage of
the percentile interval alone at the pin, for comparison.

Run: ``nice python bench/coverage_point_intervals.py --runs 500`` (``--help`` for the
options). Target: 93-97 % for 95 % intervals.
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

from roc_dash.core.decisions.economics import Economics  # noqa: E402
from roc_dash.core.decisions.point_intervals import (  # noqa: E402
    likelihood_ratios,
    npv_at_prior,
    point_intervals,
)

METRICS = ("threshold", "tpr", "fpr", "precision", "npv", "lr_pos", "lr_neg", "expected_cost")


def truth_at(t: float, d: float, p: float, e: Economics) -> dict:
    """The population's metrics of "flag iff score >= t"."""
    tpr, fpr = float(norm.sf(t - d)), float(norm.sf(t))
    lr_pos, lr_neg = likelihood_ratios(fpr, tpr)
    flagged = p * tpr + (1 - p) * fpr
    return {"threshold": t, "tpr": tpr, "fpr": fpr, "precision": p * tpr / flagged,
            "npv": npv_at_prior(fpr, tpr, p), "lr_pos": lr_pos, "lr_neg": lr_neg,
            "expected_cost": p * (1 - tpr) * e.cost_fn + (1 - p) * fpr * e.cost_fp}


def optimal_threshold(d: float, p: float, e: Economics) -> float:
    m = e.cost_fp * (1 - p) / (e.cost_fn * p)
    return d / 2 + math.log(m) / d


def inside(iv, value: float) -> bool:
    return bool(iv.low <= value <= iv.high)  # NaN limits: a miss


def parse(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=500, help="simulated samples (default 500)")
    ap.add_argument("--n-boot", type=int, default=500, help="replicates per sample")
    ap.add_argument("--n-pos", type=int, default=100)
    ap.add_argument("--n-neg", type=int, default=400)
    ap.add_argument("--d", type=float, default=1.5, help="mean of the positives' scores")
    ap.add_argument("--prior", type=float, default=0.2, help="deployment prior p(+)")
    ap.add_argument("--cost-fp", type=float, default=1.0)
    ap.add_argument("--cost-fn", type=float, default=3.0)
    ap.add_argument("--pin", type=float, default=0.5, help="the pinned threshold")
    ap.add_argument("--level", type=float, default=0.95)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--scenario", choices=("binormal", "boundary"), default="binormal",
                    help="boundary: pin at d − 3 with 30 positives (TPR 1 in most samples)")
    a = ap.parse_args(argv)
    if a.scenario == "boundary":
        a.pin, a.n_pos = a.d - 3.0, 30
    return a


def percentile_alone(iv, level: float) -> tuple[float, float]:
    """The plain percentile interval of the replicates (what the boundary rule widens)."""
    v = iv.values[np.isfinite(iv.values)]
    if not v.size:
        return math.nan, math.nan
    return tuple(np.quantile(v, [(1 - level) / 2, (1 + level) / 2]))


def simulate(a) -> dict:
    e = Economics(cost_fp=a.cost_fp, cost_fn=a.cost_fn)
    t_star = optimal_threshold(a.d, a.prior, e)
    at_pin, at_opt = truth_at(a.pin, a.d, a.prior, e), truth_at(t_star, a.d, a.prior, e)
    hits = {(where, m): np.zeros(a.runs, bool) for where in ("pin", "opt", "chosen",
                                                             "pin_pct") for m in METRICS}
    above = {m: np.zeros(a.runs, bool) for m in METRICS}  # optimum: truth t* above the interval
    width = {(where, m): np.zeros(a.runs) for where in ("pin", "opt") for m in METRICS}
    real, est, used = np.zeros(a.runs), np.zeros(a.runs), np.zeros(a.runs, int)
    tpr_one, fpr_zero = np.zeros(a.runs, bool), np.zeros(a.runs, bool)
    y = np.r_[np.ones(a.n_pos, bool), np.zeros(a.n_neg, bool)]
    rng = np.random.default_rng(a.seed)
    for r in range(a.runs):
        s = np.r_[rng.normal(a.d, 1.0, a.n_pos), rng.normal(0.0, 1.0, a.n_neg)]
        res = point_intervals(y, s, a.prior, e, pins=(a.pin,), n_boot=a.n_boot, seed=r,
                              level=a.level)
        opt, pin = res.optimum, res.pins[0]
        chosen = truth_at(opt.threshold.estimate, a.d, a.prior, e)
        for m in METRICS:
            hits["pin", m][r] = inside(getattr(pin, m), at_pin[m])
            low, high = percentile_alone(getattr(pin, m), a.level)
            hits["pin_pct", m][r] = bool(low <= at_pin[m] <= high)
            hits["opt", m][r] = inside(getattr(opt, m), at_opt[m])
            hits["chosen", m][r] = inside(getattr(opt, m), chosen[m])
            above[m][r] = at_opt[m] > getattr(opt, m).high
            for where, point in (("pin", pin), ("opt", opt)):
                iv = getattr(point, m)
                width[where, m][r] = iv.high - iv.low
        real[r] = chosen["expected_cost"] - opt.expected_cost.estimate
        est[r] = opt.optimism.optimism
        used[r] = opt.n_boot_used
        tpr_one[r], fpr_zero[r] = pin.tpr.estimate == 1.0, pin.fpr.estimate == 0.0
    return {"tpr_one": tpr_one, "fpr_zero": fpr_zero, "hits": hits, "above": above, "width": width, "real": real, "est": est, "used": used,
            "t_star": t_star}


def report(a, out: dict, seconds: float) -> None:
    se = math.sqrt(a.level * (1 - a.level) / a.runs)
    print(f"command: {shlex.join([sys.executable.split('/')[-1], *sys.argv])}")
    print(f"date: {dt.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}; machine: "
          f"{platform.machine()}, {os.cpu_count()} CPUs; load average "
          f"{' '.join(f'{v:.2f}' for v in os.getloadavg())}; {seconds:.0f} s")
    print(f"scenario {a.scenario}; binormal: negatives N(0,1), positives N({a.d:g},1); n_pos={a.n_pos}, "
          f"n_neg={a.n_neg}; prior {a.prior:g}; c(FP)={a.cost_fp:g}, c(FN)={a.cost_fn:g}; "
          f"pin t={a.pin:g}; optimum t*={out['t_star']:.4f}")
    print(f"{a.runs} runs x {a.n_boot} replicates (used: min {out['used'].min()}); coverage "
          f"of the {a.level:.0%} intervals (Monte Carlo s.e. {100 * se:.1f} points):")
    print()
    print("| metric | at the pin | at the optimum, vs t* (misses: truth above / below) | "
          "at the optimum, vs the chosen threshold's truth | mean width pin / optimum |")
    print("|---|---|---|---|---|")
    names = {"threshold": "threshold", "tpr": "TPR", "fpr": "FPR",
             "precision": "precision at the prior", "npv": "NPV at the prior",
             "lr_pos": "LR+", "lr_neg": "LR−", "expected_cost": "expected cost per case"}
    for m in METRICS:
        h = out["hits"]
        pin = "fixed" if m == "threshold" else f"{100 * h['pin', m].mean():.1f} %"
        chosen = "—" if m == "threshold" else f"{100 * h['chosen', m].mean():.1f} %"
        w = out["width"]
        pw = "0" if m == "threshold" else f"{np.mean(w['pin', m]):.4g}"
        up = 100 * out["above"][m].mean()
        down = max(0.0, 100 - 100 * h["opt", m].mean() - up)
        print(f"| {names[m]} | {pin} | {100 * h['opt', m].mean():.1f} % ({up:.1f} / "
              f"{down:.1f}) | {chosen} | "
              f"{pw} / {np.mean(w['opt', m]):.4g} |")
    print()
    alone = ", ".join(f"{names[m]} {100 * out['hits']['pin_pct', m].mean():.1f} %"
                      for m in METRICS[1:])
    print(f"at the pin, the percentile interval alone (no widening at 0 or 1): {alone}")
    print(f"at the pin, the sample's TPR was 1 in {100 * out['tpr_one'].mean():.1f} % of "
          f"the runs and its FPR 0 in {100 * out['fpr_zero'].mean():.1f} %")
    print()
    print(f"optimism of the choice (cost per case): real, mean of true cost at the chosen "
          f"threshold − apparent cost = {out['real'].mean():.4f}; out-of-bag estimate, "
          f"mean of OOB − in-bag = {out['est'].mean():.4f}")


def main(argv=None) -> None:
    timed_main(parse, simulate, report, argv)


if __name__ == "__main__":
    main()
