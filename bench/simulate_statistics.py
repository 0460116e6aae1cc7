"""What the product's statistics claim, measured at its defaults: the false alarms of the
CI gate under no change, its power under a stated shift, and the coverage of every interval
that is labelled with a level, each with its Monte-Carlo error. The tables of
``docs/statistics.md`` come from this script.

A validation script, not a test (its numbers are statistics; the unit tests in
``tests/unit/project/test_simulate_statistics.py`` check its machinery at a small size).

Populations with a known truth:

* **binormal** (the gate and the chosen-point intervals): negatives' scores ``N(0, 1)``,
  positives' ``N(d, 1)`` with ``d = 1.5`` (AUC ``Φ(d/√2) = 0.856``), prevalence 0.2, ``n``
  rows per sample (default 500). At a threshold ``t``: ``TPR = Φ(d − t)``,
  ``FPR = Φ(−t)``; every metric at a prior follows. The decision is taken as
  ``roc-dash decide`` takes it: the optimum under ``c(FP) = 1, c(FN) = 3`` at the data's
  prevalence (the default prior), 200 replicates, seed 0. Its true value is that of the
  chosen threshold in the population (what deploying it gives); the threshold's interval
  is of the population's optimal threshold ``t* = d/2 + ln(m)/d``.
* **the same, shifted** (the gate's power): the positives' scores ``N(1.1, 1)`` (AUC 0.782).
* **coarse scores** (the cross-validated AUC): the binormal scores cut into 3 levels
  (``< 0``, ``[0, 1)``, ``>= 1``), 5 folds; the true SD of the cvAUC is that of the
  simulated samples, and the R package cvAUC's ``ci.cvAUC`` standard error is computed
  beside ours from its code (strict inequalities for ties).

Run: ``nice python bench/simulate_statistics.py`` (400 runs, a minute or two);
``--runs 2000`` for tighter Monte-Carlo errors.
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import os
import platform
import shlex
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import norm

# this checkout, not whichever roc_dash is installed
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from roc_dash import decision
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import analyse  # noqa: E402
from roc_dash.core.decisions.economics import Economics  # noqa: E402
from roc_dash.core.decisions.point_intervals import point_intervals  # noqa: E402
from roc_dash.core.decisions.uncertainty import uncertainty_from_bootstrap  # noqa: E402
from roc_dash.core.inference.cross_validation import cross_validated_auc  # noqa: E402
from roc_dash.decision import gate  # noqa: E402

LEVEL = 0.95
REPLICATES = 200  # decide's, report's and the page's default
ECONOMICS = Economics(cost_fp=1.0, cost_fn=3.0)


# ----------------------------------------------------------------------------- machinery
def rate(hits) -> tuple[float, float]:
    """The share of True in ``hits`` and its Monte-Carlo standard error."""
    h = np.asarray(hits, dtype=bool)
    p = float(h.mean())
    return p, math.sqrt(max(p * (1 - p), 1e-12) / h.size)


def shown(hits) -> str:
    """``"94.8 % ± 1.1"``: a rate in percent with its Monte-Carlo standard error."""
    p, se = rate(hits)
    return f"{100 * p:.1f} % ± {100 * se:.1f}"


def inside(low: float, high: float, truth: float) -> bool:
    """Whether ``[low, high]`` holds ``truth`` (NaN limits: a miss)."""
    return bool(low <= truth <= high)


def coverage(draw, interval, truth, runs: int, rng: np.random.Generator) -> np.ndarray:
    """Per run, whether ``interval(sample)`` holds ``truth(sample)`` for a sample from
    ``draw(rng)``: the generic loop every coverage below follows."""
    hits = np.zeros(runs, dtype=bool)
    for r in range(runs):
        sample = draw(rng)
        low, high = interval(sample)
        hits[r] = inside(low, high, truth(sample))
    return hits


@dataclass(frozen=True)
class Binormal:
    """Negatives ``N(0, 1)``, positives ``N(d, 1)``, a share ``prevalence`` positive."""

    d: float = 1.5
    prevalence: float = 0.2

    def sample(self, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
        y = rng.random(n) < self.prevalence
        return y, rng.normal(size=n) + self.d * y

    def truth(self, t: float, prior: float, e: Economics) -> dict:
        """The population's metrics of "flag iff score >= t" at the prior."""
        tpr, fpr = float(norm.sf(t - self.d)), float(norm.sf(t))
        flagged = prior * tpr + (1 - prior) * fpr
        return {"tpr": tpr, "fpr": fpr, "flagged": flagged,
                "precision": prior * tpr / flagged if flagged > 0 else math.nan,
                "expected_cost": prior * (1 - tpr) * e.cost_fn + (1 - prior) * fpr * e.cost_fp
                - prior * tpr * e.benefit_tp - (1 - prior) * (1 - fpr) * e.benefit_tn}

    def optimal_threshold(self, prior: float, e: Economics) -> float:
        m = e.net_cost_fp * (1 - prior) / (e.net_cost_fn * prior)
        return self.d / 2 + math.log(m) / self.d

    @property
    def auc(self) -> float:
        return float(norm.cdf(self.d / math.sqrt(2)))


def table_of(y: np.ndarray, s: np.ndarray, model: str = "m") -> pd.DataFrame:
    """A canonical table of one model's rows (what the readers make of a file)."""
    table = pd.DataFrame({"label": y, "score": s, "model": model, "fold": "1",
                          "weight": np.ones(y.size)})
    table.attrs["positive_labels"] = {model: "1"}
    return table


# ----------------------------------------------------------------------------- the gate
RECORD_METRICS = ("tpr", "fpr", "precision", "flagged", "expected_cost")


def decide(y, s, *, replicates: int = REPLICATES, threshold: float | None = None):
    """The record ``roc-dash decide`` writes at its defaults (the data's prevalence as the
    prior), under :data:`ECONOMICS`; pinned when ``threshold`` is given."""
    table = table_of(y, s)
    analysis = analyse(table, Conditions(cost_fp=ECONOMICS.net_cost_fp,
                                         cost_fn=ECONOMICS.net_cost_fn, level=LEVEL))
    pinned = None if threshold is None else {"model": "m", "threshold": threshold}
    return decision.build_decision(analysis, table, pinned=pinned, economics=ECONOMICS,
                                   replicates=replicates, seed=0), analysis


def failed(record, y, s, **kw) -> bool:
    """Whether ``roc-dash check --decision`` fails on new rows (its cost criterion)."""
    return gate.recheck_decision(record, table_of(y, s), **kw)[0].status == gate.FAIL


def without_reference(record):
    """The record as one written before it carried its drift reference."""
    return decision.from_dict({k: v for k, v in record.to_dict().items()
                               if k != "drift_reference"})


def old_tolerance_fails(record, y_rec, s_rec, y, s) -> bool:
    """The check as it was: fail above the upper end of the record's fixed-threshold 95 %
    bootstrap interval of the cost (200 replicates, seed 0)."""
    u = uncertainty_from_bootstrap(y_rec, s_rec, record.threshold, record.prior_pos,
                                   record.economics, n_boot=REPLICATES, seed=0, level=LEVEL)
    return failed(record, y, s, cost_tolerance=max(u.expected_cost.high
                                                   - record.metrics.expected_cost, 0.0))


def simulate_decisions(pop: Binormal, shifted: Binormal, runs: int, n: int,
                       rng: np.random.Generator, replicates: int = REPLICATES) -> dict:
    """Per run: a record at the optimum and one at a pinned threshold on a sample, checked
    on a new sample of the same size from the same population and from the shifted one;
    the intervals' hits against the truth."""
    out = {k: np.zeros(runs, dtype=bool) for k in (
        "fa", "fa_old_record", "fa_old_tolerance", "fa_pinned", "power", "power_pinned",
        "threshold_t_star", "auc", "choice_before")}
    out.update({f"record_{k}": np.zeros(runs, dtype=bool) for k in RECORD_METRICS})
    out.update({f"pin_{k}": np.zeros(runs, dtype=bool) for k in RECORD_METRICS})
    out.update({f"pinned_record_{k}": np.zeros(runs, dtype=bool) for k in RECORD_METRICS})
    pin = pop.d / 2  # the pinned threshold: fixed before any data
    for r in range(runs):
        y, s = pop.sample(rng, n)
        record, analysis = decide(y, s, replicates=replicates)
        truth = pop.truth(record.threshold, record.prior_pos, ECONOMICS)
        for k in RECORD_METRICS:
            out[f"record_{k}"][r] = inside(*getattr(record.intervals, k), truth[k])
        c = record.choice_intervals
        out["threshold_t_star"][r] = inside(*c.threshold, pop.optimal_threshold(
            record.prior_pos, ECONOMICS))
        ci = analysis.model("m").auc_ci
        out["auc"][r] = inside(ci.low, ci.high, pop.auc)
        # decide's interval of the choice as it was: percentiles of the replicates' own
        # optima's costs on the rows they drew
        opt = point_intervals(y, s, record.prior_pos, ECONOMICS, pins=(pin,),
                              n_boot=replicates, seed=0, level=LEVEL)
        v = opt.optimum.expected_cost.values
        out["choice_before"][r] = inside(*np.quantile(v, [0.025, 0.975]),
                                         truth["expected_cost"])
        pin_truth = pop.truth(pin, record.prior_pos, ECONOMICS)
        for k in RECORD_METRICS:
            iv = getattr(opt.pins[0], k)
            out[f"pin_{k}"][r] = inside(iv.low, iv.high, pin_truth[k])
        pinned, _ = decide(y, s, replicates=replicates, threshold=pin)
        for k in RECORD_METRICS:
            out[f"pinned_record_{k}"][r] = inside(*getattr(pinned.intervals, k),
                                                  pin_truth[k])
        y2, s2 = pop.sample(rng, n)
        out["fa"][r] = failed(record, y2, s2)
        out["fa_old_record"][r] = failed(without_reference(record), y2, s2)
        out["fa_old_tolerance"][r] = old_tolerance_fails(record, y, s, y2, s2)
        out["fa_pinned"][r] = failed(pinned, y2, s2)
        y3, s3 = shifted.sample(rng, n)
        out["power"][r] = failed(record, y3, s3)
        out["power_pinned"][r] = failed(pinned, y3, s3)
    return out


# ----------------------------------------------------------------------------- cvAUC
def r_ci_cvauc_se(y: np.ndarray, s: np.ndarray, folds: np.ndarray) -> float:
    """The standard error of R's ``cvAUC::ci.cvAUC`` (version 1.1.4), its steps: per fold,
    the rows sorted by ascending score with the positives first among ties, each positive's
    share of negatives before it; by descending score with the negatives first, each
    negative's share of positives before it (strict inequalities: a tie counts 0); the
    influence curve ``w·(share − AUC)``, its mean square, averaged over the folds."""
    n = y.size
    w1, w0 = n / y.sum(), n / (~y).sum()
    squares = []
    for f in np.unique(folds):
        m = folds == f
        p, lab = s[m], y[m]
        n_pos, n_neg = lab.sum(), (~lab).sum()
        a = ((p[lab][:, None] > p[~lab][None, :]).mean()
             + 0.5 * (p[lab][:, None] == p[~lab][None, :]).mean())
        up = np.lexsort((~lab, p))  # ascending score, positives first among ties
        neg_below = np.empty(lab.size)
        neg_below[up] = np.cumsum(~lab[up]) / n_neg
        down = np.lexsort((lab, -p))  # descending score, negatives first among ties
        pos_above = np.empty(lab.size)
        pos_above[down] = np.cumsum(lab[down]) / n_pos
        ic = np.where(lab, w1 * (neg_below - a), w0 * (pos_above - a))
        squares.append(np.mean(ic ** 2))
    return math.sqrt(np.mean(squares) / n)


def coarse_sample(rng: np.random.Generator, n: int, pop: Binormal, folds: int = 5):
    y, z = pop.sample(rng, n)
    return y, np.digitize(z, [0.0, 1.0]).astype(float), rng.permutation(np.arange(n) % folds)


def simulate_cvauc(pop: Binormal, runs: int, n: int, rng: np.random.Generator) -> dict:
    """Per run on coarse scores: the cvAUC, our SE and R's, and whether each 95 % interval
    holds the true AUC of the coarse scores."""
    z = norm.ppf(0.5 + LEVEL / 2)
    # the coarse scores' true AUC (ties one half), from the level probabilities
    cuts = np.array([-np.inf, 0.0, 1.0, np.inf])
    q_neg, q_pos = np.diff(norm.cdf(cuts)), np.diff(norm.cdf(cuts - pop.d))
    true_auc = sum(q_pos[i] * (q_neg[:i].sum() + 0.5 * q_neg[i]) for i in range(3))
    cv, ours, theirs = np.zeros(runs), np.zeros(runs), np.zeros(runs)
    for r in range(runs):
        y, s, folds = coarse_sample(rng, n, pop)
        c = cross_validated_auc(y, s, folds, level=LEVEL)
        cv[r], ours[r], theirs[r] = c.auc_mean, c.std_error, r_ci_cvauc_se(y, s, folds)
    return {"cv": cv, "ours": ours, "theirs": theirs, "true_auc": float(true_auc),
            "hit_ours": np.abs(cv - true_auc) <= z * ours,
            "hit_theirs": np.abs(cv - true_auc) <= z * theirs}


# ----------------------------------------------------------------------------- report
NAMES = {"tpr": "TPR", "fpr": "FPR", "precision": "precision at the prior",
         "flagged": "share flagged", "expected_cost": "expected cost per case"}


def report(a, d: dict, cv: dict, seconds: float) -> None:
    print(f"command: {shlex.join([Path(sys.executable).name, *sys.argv])}")
    print(f"date: {dt.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}; machine: "
          f"{platform.machine()}, {os.cpu_count()} CPUs; load average "
          f"{' '.join(f'{v:.2f}' for v in os.getloadavg())}; {seconds:.0f} s")
    print(f"{a.runs} runs of n = {a.n} rows (binormal, d = 1.5, prevalence 0.2; c(FP) = 1, "
          f"c(FN) = 3 at the data's prevalence); {a.replicates} bootstrap replicates, seed 0; "
          "± one Monte-Carlo standard error")
    print()
    print("| the gate: `roc-dash check --decision` | fails (target) |")
    print("|---|---|")
    for key, what in (
            ("fa", "no change, record at its optimum (the default test, 5 %)"),
            ("fa_pinned", "no change, record at a pinned threshold"),
            ("fa_old_record", "no change, an older record at its optimum (no correction "
                              "for the choice)"),
            ("fa_old_tolerance", "no change, the former default (upper end of the record's "
                                 "95 % interval)"),
            ("power", "positives' scores N(1.5, 1) → N(1.1, 1), record at its optimum"),
            ("power_pinned", "the same shift, record at a pinned threshold")):
        target = "(power)" if key.startswith("power") else "(≤ 5 %)" if key in (
            "fa", "fa_pinned") else ""
        print(f"| {what} | {shown(d[key])} {target} |")
    print()
    print("| 95 % interval | covers the truth |")
    print("|---|---|")
    for k in RECORD_METRICS:
        print(f"| record at its optimum (and decide's interval of the choice), "
              f"{NAMES[k]}, of the chosen threshold's true value | {shown(d['record_' + k])} |")
    print(f"| decide's interval of the choice as it was (percentiles of the replicates' own "
          f"costs), expected cost | {shown(d['choice_before'])} |")
    print(f"| decide's interval of the choice, threshold, of the population's optimal "
          f"threshold t* | {shown(d['threshold_t_star'])} |")
    for k in RECORD_METRICS:
        print(f"| pin (page, report), {NAMES[k]} | {shown(d['pin_' + k])} |")
    for k in RECORD_METRICS:
        print(f"| record at a pinned threshold, {NAMES[k]} | "
              f"{shown(d['pinned_record_' + k])} |")
    print(f"| DeLong AUC interval (model table) | {shown(d['auc'])} |")
    print(f"| cvAUC interval, coarse scores (3 levels, 5 folds, n = {a.n}), ours | "
          f"{shown(cv['hit_ours'])} |")
    print(f"| the same with R cvAUC's `ci.cvAUC` standard error | {shown(cv['hit_theirs'])} |")
    print()
    sd = float(np.std(cv["cv"], ddof=1))
    ratio = cv["theirs"] / cv["ours"]
    print(f"cvAUC on coarse scores: true SD of the cvAUC over the {a.runs} samples "
          f"{sd:.5f}; mean standard error ours {cv['ours'].mean():.5f} "
          f"({100 * (cv['ours'].mean() / sd - 1):+.1f} %), R's ci.cvAUC "
          f"{cv['theirs'].mean():.5f} ({100 * (cv['theirs'].mean() / sd - 1):+.1f} %); R's "
          f"larger than ours by {100 * (ratio.min() - 1):.0f}-{100 * (ratio.max() - 1):.0f} % "
          f"(median {100 * (np.median(ratio) - 1):.0f} %)")


def parse(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=400, help="simulated samples (default 400)")
    ap.add_argument("--n", type=int, default=500, help="rows per sample (default 500)")
    ap.add_argument("--replicates", type=int, default=REPLICATES,
                    help=f"bootstrap replicates of the records (default {REPLICATES}, the "
                         "product's)")
    ap.add_argument("--seed", type=int, default=0)
    return ap.parse_args(argv)


def main(argv=None) -> None:
    a = parse(argv)
    t0 = time.monotonic()
    rng = np.random.default_rng(a.seed)
    pop = Binormal()
    d = simulate_decisions(pop, Binormal(d=1.1), a.runs, a.n, rng, a.replicates)
    cv = simulate_cvauc(pop, a.runs, a.n, rng)
    report(a, d, cv, time.monotonic() - t0)


if __name__ == "__main__":
    main()
