"""The coverage of every statistic of the constraints that carries a level, simulated with a
known truth (numbers quoted in docs/constraints.md).

Each line: the claim, the simulated frequency (or mean share) over ``--sims`` data sets and
its Monte Carlo standard error (``√(c(1 − c)/S)`` for a frequency).

* reliability bands (Wilson, 95 %, per bin): calibrated scores ``p ~ Beta(2, 3)``,
  ``y ~ Bernoulli(p)``; the truth of a bin is ``E[p | bin]``;
* calibration slope and intercept (Wald, 95 %): ``y ~ Bernoulli(σ(a + b·logit p))``;
* Spiegelhalter's test at 5 %: its false-alarm rate when calibrated, its power under a
  shift of the intercept and a slope;
* floors (binormal scores, 30 % positives, separation 1.2 SD; costs that push the optimum
  below the floor "recall ≥ 0.7", so that it binds): how often the chosen threshold's
  true recall meets the floor, against the mean "holds in x % of replicates" at the fixed
  threshold and the mean share of replicates whose own choice holds; the same for the
  threshold chosen on exact bounds at 95 %; the 95 % percentile interval of precision at
  a threshold fixed in advance;
* PR bands (95 %, pointwise): bootstrap and fold bands against the true precision at
  recalls 0.2, 0.5, 0.8, at the deployment prevalence 0.1.

Run: ``nice python bench/simulate_constraints.py [--sims S] [--seed K]``; it prints the
command, date, load average and commit.
"""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

import numpy as np
from bench_support import checkout, int_options  # bench/, the script's own folder
from scipy.special import expit, ndtr, ndtri
from scipy.stats import beta as beta_dist

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from roc_dash.core.constraints import (  # noqa: E402
    calibration_fit,
    floor_confidence,
    floor_decision,
    pr_bootstrap_band,
    pr_fold_band,
    reliability_bands,
    resample_thresholds,
    spiegelhalter_test,
)
from roc_dash.core.decisions.economics import Economics  # noqa: E402
from roc_dash.core.inference.calibration import calibration_from_curve  # noqa: E402
from roc_dash.core.roc.curves import roc_curve  # noqa: E402

SHIFT, PREV = 1.2, 0.3  # binormal: positives N(SHIFT, 1), negatives N(0, 1)


def line(claim: str, hits, *, nominal: float | None = None) -> None:
    h = np.asarray(hits, dtype=float)  # 0/1 hits, or shares (then the mean's error)
    c, se = float(h.mean()), float(h.std()) / math.sqrt(h.size)
    ref = "" if nominal is None else f"  (claim {nominal:.0%})"
    print(f"  {claim:66s} {c:6.3f} ± {se:.3f}{ref}")


def _probabilities(rng, n, a=0.0, b=1.0):
    p = np.clip(rng.beta(2, 3, n), 1e-6, 1 - 1e-6)
    y = rng.random(n) < expit(a + b * np.log(p / (1 - p)))
    return y, p


def calibration_sims(sims: int, rng) -> None:
    print("\nCalibration (n = 2000 per data set)")
    edges = np.linspace(0, 1, 11)
    # E[p | bin] for p ~ Beta(2, 3): the mean of Beta(3, 3)-weighted mass over the bin
    truth = np.array([(beta_dist.cdf(hi, 3, 3) - beta_dist.cdf(lo, 3, 3))
                      / (beta_dist.cdf(hi, 2, 3) - beta_dist.cdf(lo, 2, 3)) * 2 / 5
                      for lo, hi in zip(edges[:-1], edges[1:], strict=True)])
    band_hits, slope_hits, icpt_hits, large_hits = [], [], [], []
    slope_hits2, icpt_hits2, z_null, z_shift, z_slope = [], [], [], [], []
    for _ in range(sims):
        y, p = _probabilities(rng, 2000)
        curve = roc_curve(y, p)
        cal = calibration_from_curve(curve)
        b = reliability_bands(cal)
        t = truth[cal.bin]
        band_hits.extend(((b.low <= t) & (t <= b.high)).tolist())
        f = calibration_fit(curve)
        slope_hits.append(f.slope_low <= 1 <= f.slope_high)
        icpt_hits.append(f.intercept_low <= 0 <= f.intercept_high)
        large_hits.append(f.in_the_large_low <= 0 <= f.in_the_large_high)
        z_null.append(spiegelhalter_test(curve).p_value < 0.05)
        y2, p2 = _probabilities(rng, 2000, a=-0.5, b=1.4)
        f2 = calibration_fit(roc_curve(y2, p2))
        slope_hits2.append(f2.slope_low <= 1.4 <= f2.slope_high)
        icpt_hits2.append(f2.intercept_low <= -0.5 <= f2.intercept_high)
        y3, p3 = _probabilities(rng, 2000, a=0.3)
        z_shift.append(spiegelhalter_test(roc_curve(y3, p3)).p_value < 0.05)
        y4, p4 = _probabilities(rng, 2000, b=1.3)
        z_slope.append(spiegelhalter_test(roc_curve(y4, p4)).p_value < 0.05)
    line("reliability band (Wilson) covers E[p | bin], all bins", band_hits, nominal=0.95)
    line("slope interval covers 1 (calibrated)", slope_hits, nominal=0.95)
    line("intercept interval covers 0 (calibrated)", icpt_hits, nominal=0.95)
    line("in-the-large interval covers 0 (calibrated)", large_hits, nominal=0.95)
    line("slope interval covers 1.4 (a = -0.5, b = 1.4)", slope_hits2, nominal=0.95)
    line("intercept interval covers -0.5 (a = -0.5, b = 1.4)", icpt_hits2, nominal=0.95)
    line("Spiegelhalter at 5 %: false alarms when calibrated", z_null, nominal=0.05)
    line("Spiegelhalter at 5 %: power, intercept +0.3", z_shift)
    line("Spiegelhalter at 5 %: power, slope 1.3", z_slope)


def _binormal(rng, n):
    y = rng.random(n) < PREV
    return y, rng.normal(size=n) + SHIFT * y


def _true_recall(t):
    return 1 - ndtr(t - SHIFT)


def _true_fpr(t):
    return 1 - ndtr(t)


def floor_sims(sims: int, rng, n_boot: int) -> None:
    n = 1500
    print(f"\nFloors (binormal, n = {n}, {n_boot} replicates; recall >= 0.7 binding)")
    e = Economics(cost_fp=3.0, cost_fn=1.0)
    truth, share, again, sure = [], [], [], []
    truth_c, share_c, again_c = [], [], []
    prec_hits = []
    t_fixed = 0.8  # a threshold fixed in advance
    true_prec = (PREV * _true_recall(t_fixed)
                 / (PREV * _true_recall(t_fixed) + (1 - PREV) * _true_fpr(t_fixed)))
    for _ in range(sims):
        y, s = _binormal(rng, n)
        curve = roc_curve(y, s)
        reps = resample_thresholds(y, s, n_boot=n_boot, seed=int(rng.integers(1 << 30)))
        d = floor_decision(curve, ["recall>=0.7"], economics=e)
        fc = floor_confidence(y, s, ["recall>=0.7"], d.threshold, economics=e, n_boot=n_boot,
                              replicates=reps, seed=int(rng.integers(1 << 30)))
        truth.append(_true_recall(d.threshold) >= 0.7)
        share.append(fc.holds[0].holds_share)
        again.append(fc.holds[0].procedure_share)
        sure.append(fc.holds[0].bound <= _true_recall(d.threshold))
        dc = floor_decision(curve, ["recall>=0.7"], economics=e, confidence=0.95)
        fcc = floor_confidence(y, s, ["recall>=0.7"], dc.threshold, economics=e,
                               n_boot=n_boot, replicates=reps, confidence=0.95,
                               seed=int(rng.integers(1 << 30)))
        truth_c.append(_true_recall(dc.threshold) >= 0.7)
        share_c.append(fcc.holds[0].holds_share)
        again_c.append(fcc.holds[0].procedure_share)
        fp = floor_confidence(y, s, ["precision>=0.5"], t_fixed, n_boot=n_boot,
                              procedure=False, prior_pos=PREV,
                              seed=int(rng.integers(1 << 30)))
        h = fp.holds[0]
        prec_hits.append(h.low <= true_prec <= h.high)
    print("  threshold chosen on the estimates:")
    line("    true recall meets the floor (frequency)", truth)
    line("    mean share of replicates meeting it at the fixed threshold", share)
    line("    mean share whose own choice meets it on the data", again)
    line("    one-sided exact bound (95 %) below the true recall", sure, nominal=0.95)
    print("  threshold chosen on exact one-sided bounds at 95 %:")
    line("    true recall meets the floor (frequency)", truth_c, nominal=0.95)
    line("    mean share of replicates meeting it at the fixed threshold", share_c)
    line("    mean share whose own choice meets it on the data", again_c)
    line("  precision at a fixed threshold: 95 % percentile interval covers", prec_hits,
         nominal=0.95)


def _true_precision(r, prevalence):
    t = SHIFT + ndtri(1 - r)  # recall r = P(N(SHIFT,1) >= t)
    f = _true_fpr(t)
    return prevalence * r / (prevalence * r + (1 - prevalence) * f)


def pr_band_sims(sims: int, rng, n_boot: int) -> None:
    n, prevalence = 1500, 0.1
    print(f"\nPR bands at prevalence {prevalence} (binormal, n = {n}; pointwise 95 %)")
    marks = (0.2, 0.5, 0.8)
    boot_hits = {r: [] for r in marks}
    fold_hits = {r: [] for r in marks}
    for _ in range(sims):
        y, s = _binormal(rng, n)
        curve = roc_curve(y, s)
        reps = resample_thresholds(y, s, n_boot=n_boot, seed=int(rng.integers(1 << 30)))
        b = pr_bootstrap_band(reps, curve, prevalence=prevalence, n_points=10)
        folds = np.arange(n) % 5
        fb = pr_fold_band({str(k): roc_curve(y[folds == k], s[folds == k]) for k in range(5)},
                          prevalence=prevalence, n_points=10)
        for r in marks:
            j = int(np.argmin(np.abs(b.recall - r)))
            truth = _true_precision(b.recall[j], prevalence)
            boot_hits[r].append(b.low[j] <= truth <= b.high[j])
            fold_hits[r].append(fb.low[j] <= truth <= fb.high[j])
    for r in marks:
        line(f"bootstrap band covers the true precision at recall {r}", boot_hits[r],
             nominal=0.95)
    for r in marks:
        line(f"fold band (5 folds, t) covers the true precision at recall {r}", fold_hits[r],
             nominal=0.95)


def main(argv=None) -> int:
    args = int_options(__doc__, argv, sims=400, boot=200, seed=2026)
    print(f"checkout: {checkout()}")
    print(f"{args.sims} data sets each; frequency ± Monte Carlo standard error")
    rng = np.random.default_rng(args.seed)
    t0 = time.perf_counter()
    calibration_sims(args.sims, rng)
    floor_sims(args.sims, rng, args.boot)
    pr_band_sims(args.sims, rng, args.boot)
    print(f"\n{time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
