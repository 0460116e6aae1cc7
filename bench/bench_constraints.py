"""Decisions under constraints at scale: server time of every new analysis and its figure on
10^6 rows, against the target of 1 s per change.

The data (seeded): one binary model of ``--rows`` rows, binormal scores squashed to
probabilities (so calibration applies), 5 folds, 20 % positives; and a three- and a
five-class model of as many rows (probabilities of a softmax). The base analysis
(:func:`~roc_dash.core.assembly.analysis.analyse`: the curve and hull every view starts
from) is timed too but is not new. Then, each the fastest of ``--repeat`` runs (median
beside it; the machine is shared):

* per change of the conditions or the constraint, each with its figure: gains/lift/KS and
  precision@K (capacity), the capacity point, the floors (estimates, and exact bounds), how
  sure the floors are (cached replicates), calibration with its uncertainty, PR fold and
  bootstrap bands (cached replicates), the cost-matrix decision (3 and 5 classes);
* the page's Decide card (``roc_dash.app.features.constraints``) per change of the
  capacity, the floors (on exact bounds too) or its view: every model's views, the table,
  the ROC/PR overlays as the store's JSON and the card's figure;
* the summary strip's headline and the operating card under a capacity or floors
  (``roc_dash.app.features.constrained_strip``: the download's choice, without its
  bootstrap), and the Beyond binary tab's cost-matrix card
  (``roc_dash.app.features.cost_matrix``: the record, its tables, the confusion figure);
* once per model and seed (the page keeps it): the stratified bootstrap replicates.

Run: ``nice python bench/bench_constraints.py [--rows N] [--repeat R] [--boot B]``; it prints
the command, date, load average and commit with the times.
"""

from __future__ import annotations

import json
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from bench_support import checkout, int_options  # bench/, the script's own folder

# this checkout, not whichever roc_dash is installed
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from roc_dash.app.components import operating_panel  # noqa: E402
from roc_dash.app.features.constrained_strip import constrained_strip  # noqa: E402
from roc_dash.app.features.constraints import (  # noqa: E402
    card_figure,
    model_views,
    overlay,
    summary_table,
)
from roc_dash.app.features.cost_matrix import matrix_table, result_table  # noqa: E402
from roc_dash.core.analysis_types import Conditions  # noqa: E402
from roc_dash.core.assembly.analysis import analyse  # noqa: E402
from roc_dash.core.constraints import (  # noqa: E402
    at_k,
    calibration_uncertainty,
    capacity_point,
    cost_matrix_decision,
    floor_confidence,
    floor_decision,
    gains_curve,
    ks_statistic,
    pr_bootstrap_band,
    pr_fold_band,
    resample_thresholds,
)
from roc_dash.core.constraints.assembly import ConstraintSettings  # noqa: E402
from roc_dash.core.constraints.cost_matrix import class_rows, decide_on_rows  # noqa: E402
from roc_dash.core.constraints.floors import parse_floor  # noqa: E402
from roc_dash.core.decisions.economics import Economics  # noqa: E402
from roc_dash.core.decisions.operating import operating_point  # noqa: E402
from roc_dash.decision.multiclass import model_probabilities  # noqa: E402
from roc_dash.figures.calibration_bands import reliability_band_figure  # noqa: E402
from roc_dash.figures.cost_matrix import confusion_figure, rule_costs_figure  # noqa: E402
from roc_dash.figures.floors import floor_figure  # noqa: E402
from roc_dash.figures.gains import gains_figure, ks_figure, lift_figure  # noqa: E402
from roc_dash.figures.pr_bands import pr_band_figure  # noqa: E402
from roc_dash.report.constrained_choice import choose_point  # noqa: E402

TARGET = 1.0  # seconds of server time per change


def binary(n: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.2
    z = rng.normal(size=n) + 1.6 * y
    p = 1.0 / (1.0 + np.exp(-(1.3 * z - 2.0)))
    return pd.DataFrame({"label": y, "score": np.round(p, 6), "model": "m",
                         "fold": (np.arange(n) % 5).astype(str), "weight": 1.0})


def classes(n: int, k: int, seed: int = 1):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    logits = rng.normal(size=(n, k))
    logits[np.arange(n), y] += 1.5
    p = np.exp(logits)
    cost = rng.uniform(1, 5, (k, k))
    np.fill_diagonal(cost, 0.0)
    return p / p.sum(axis=1, keepdims=True), y, cost


def best_of(fn, repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times)


def main(argv=None) -> int:
    args = int_options(__doc__, argv, rows=1_000_000, repeat=3, boot=200)
    print(f"checkout: {checkout()}; "
          f"{platform.python_implementation()} {platform.python_version()}")
    n, r = args.rows, args.repeat
    table = binary(n)
    y, s = table["label"].to_numpy(), table["score"].to_numpy()
    e = Economics(cost_fp=1.0, cost_fn=4.0)
    cond = Conditions(cost_fp=1.0, cost_fn=4.0)
    t0 = time.perf_counter()
    analysis = analyse(table, cond)
    base = time.perf_counter() - t0
    m = analysis.models[0]
    curve, p = m.curve, analysis.conditions.prior_pos
    floors = ["precision>=0.6", "recall>=0.5"]
    t0 = time.perf_counter()
    reps = resample_thresholds(y, s, n_boot=args.boot, seed=0)
    once = time.perf_counter() - t0
    fd = floor_decision(curve, floors, prior_pos=p, economics=e)
    multi = {k: classes(n, k) for k in (3, 5)}

    def capacity_views():
        g, ks = gains_curve(curve, prior_pos=p), ks_statistic(curve)
        at_k(curve, fraction=np.linspace(0, 1, 101))
        cp = capacity_point(curve, fraction=0.05, prior_pos=p, economics=e, hull=m.hull)
        gains_figure({"m": g}, capacity=cp), lift_figure({"m": g}, capacity=cp)
        ks_figure("m", g, ks)

    def floors_views(confidence=None):
        d = floor_decision(curve, floors, prior_pos=p, economics=e, confidence=confidence,
                           hull=m.hull)
        floor_figure(d, curve, space="roc"), floor_figure(d, curve, space="pr")

    def how_sure():
        floor_confidence(y, s, floors, fd.threshold, prior_pos=p, economics=e,
                         n_boot=args.boot, replicates=reps)

    def calibration():
        reliability_band_figure({"m": calibration_uncertainty(curve)})

    def pr_bands():
        pr_band_figure({"m": pr_fold_band(m.folds, prevalence=p, pooled=curve)})
        pr_band_figure({"m": pr_bootstrap_band(reps, curve, prevalence=p)})

    def page_card(capacity, floors_given, view, confidence=None):
        """The page's card callback for one change (features/constraints.py): every
        model's views, the table, the ROC/PR overlays as the store's JSON, the card's
        figure."""
        views = model_views(analysis, capacity, floors_given, confidence)
        summary_table(views)
        json.dumps(overlay(views, stamp="-0"))
        card_figure(views, view)

    parsed = tuple(parse_floor(f) for f in floors)

    settings = {"capacity": ConstraintSettings(capacity_fraction=0.05, n_boot=0),
                "floors": ConstraintSettings(floors=parsed, n_boot=0),
                "floors on exact bounds": ConstraintSettings(floors=parsed, confidence=0.95,
                                                             n_boot=0)}

    def strip(which):
        """The summary strip's headline and the operating card under a constraint
        (features/constrained_strip.py): the download's choice without its bootstrap, the
        headline's summary, the card."""
        chosen = choose_point(analysis, settings[which], e)
        constrained_strip(analysis, chosen, e, which)
        operating_panel(operating_point(analysis, chosen.pinned), analysis, chosen_by=which)

    def canonical(k):
        probs, labels, cost = multi[k]
        frame = pd.DataFrame({f"score_c{i}": probs[:, i] for i in range(k)})
        frame.insert(0, "class", pd.Categorical.from_codes(labels, [f"c{i}" for i in range(k)])
                     .astype(str))
        frame["model"], frame["weight"] = "m", 1.0
        return frame, cost

    canon = {k: canonical(k) for k in multi}
    t0 = time.perf_counter()
    kept = {k: model_probabilities(frame, "m") for k, (frame, _) in canon.items()}
    rows_once = (time.perf_counter() - t0) / len(kept)
    t0 = time.perf_counter()
    prepared = {k: class_rows(probs, labels, classes=classes, sample_weight=w)
                for k, (_, classes, probs, labels, w) in kept.items()}
    prepared_once = (time.perf_counter() - t0) / len(prepared)

    def page_cost_matrix(k, before=False):
        """The Beyond binary tab's cost-matrix card for one change of the matrix or the
        prior (features/cost_matrix.py): the rules, the tables, the confusion figure (the
        record, with the data's fingerprint, on download only), on the model's rows
        prepared once per data and kept (``before``: as the card did before, the rows
        checked, coded and their fitting subset and argmax drawn again per change)."""
        _, cost = canon[k]
        _, classes, probs, labels, w = kept[k]  # once per data and model (the page keeps it)
        d = (cost_matrix_decision(probs, labels, cost, classes=classes, sample_weight=w)
             if before else decide_on_rows(prepared[k], cost))
        matrix_table(list(classes), d.cost_matrix, None, d.data_prior)
        result_table("m", len(probs), d), confusion_figure(d)
        return d

    for k in canon:  # the same decisions either way
        a, b = page_cost_matrix(k), page_cost_matrix(k, before=True)
        assert np.array_equal(a.confusion, b.confusion) and a.expected_cost == b.expected_cost

    def cost_matrix(k):
        probs, labels, cost = multi[k]
        d = cost_matrix_decision(probs, labels, cost)
        confusion_figure(d), rule_costs_figure(d)

    rows = [("capacity: gains, lift, KS, precision@K, best point + figures", capacity_views),
            ("floors: region, best point and threshold + ROC/PR figures", floors_views),
            ("floors on exact bounds (confidence 0.95) + figures",
             lambda: floors_views(0.95)),
            (f"how sure the floors are ({args.boot} replicates kept)", how_sure),
            ("calibration: bands, slope/intercept, Spiegelhalter + figure", calibration),
            ("PR bands: folds and bootstrap (replicates kept) + figures", pr_bands),
            ("page: Decide card, a capacity typed (table, overlay, gains)",
             lambda: page_card((None, 0.05), (), "gains")),
            ("page: Decide card, floors typed (+ capacity; table, overlay, lift)",
             lambda: page_card((None, 0.05), parsed, "lift")),
            ("page: Decide card, the view switched to KS",
             lambda: page_card((None, 0.05), parsed, "ks")),
            ("page: Decide card, floors on exact bounds (confidence 0.95)",
             lambda: page_card((None, 0.05), parsed, "gains", 0.95)),
            ("page: strip headline + operating card under a capacity",
             lambda: strip("capacity")),
            ("page: strip headline + operating card under floors",
             lambda: strip("floors")),
            ("page: strip headline + operating card, floors on exact bounds",
             lambda: strip("floors on exact bounds")),
            ("page: cost-matrix card, 3 classes, before (rows again per change)",
             lambda: page_cost_matrix(3, before=True)),
            ("page: cost-matrix card, 3 classes (rules, tables, confusion)",
             lambda: page_cost_matrix(3)),
            ("page: cost-matrix card, 5 classes, before (rows again per change)",
             lambda: page_cost_matrix(5, before=True)),
            ("page: cost-matrix card, 5 classes (rules, tables, confusion)",
             lambda: page_cost_matrix(5)),
            ("cost matrix, 3 classes: rules, fitted weights + figures",
             lambda: cost_matrix(3)),
            ("cost matrix, 5 classes: rules, fitted weights + figures",
             lambda: cost_matrix(5))]
    print(f"\n{n:,} rows; target {TARGET:g} s per change; fastest of {r} (median)")
    print(f"  {'base analysis (not new: every view starts from it)':62s} {base:7.3f} s")
    print(f"  {'replicates, once per model and seed (kept)':62s} {once:7.3f} s")
    print(f"  {'multi-class rows, once per data and model (kept)':62s} {rows_once:7.3f} s")
    print(f"  {'  and prepared for decisions, once per data and model (kept)':62s} "
          f"{prepared_once:7.3f} s")
    worst = 0.0
    for name, fn in rows:
        fast, med = best_of(fn, r)
        worst = max(worst, fast)
        print(f"  {name:62s} {fast:7.3f} s ({med:.3f})  {fast / TARGET:5.2f} of target")
    print(f"\nslowest change: {worst:.3f} s = {worst / TARGET:.2f} of the {TARGET:g} s target")
    return 0


if __name__ == "__main__":
    sys.exit(main())
