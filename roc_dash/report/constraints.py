"""The report keys of the constraints: ``constraints`` (per model: gains, lift, CAP and KS;
the capacity; the floors with how sure they are to hold; calibration with its uncertainty;
PR bands) and ``cost_matrix`` (decisions among several classes).

Every number is JSON-safe (``null`` for NaN and infinities: a threshold of ``null`` is
+infinity, flag nothing), as in the rest of the report (:mod:`roc_dash.report`).
"""

from __future__ import annotations

import numpy as np

from ..core.combining.capacity_mix import BudgetMix
from ..core.constraints.assembly import ConstraintSettings, ModelConstraints
from ..core.constraints.cost_matrix import CostMatrixDecision
from ..core.constraints.floors import METRICS
from ..decision.record import json_number

__all__ = ["constraints_sections", "model_constraints_dict", "cost_matrix_section",
           "json_number", "json_list"]


def json_list(a) -> list:
    return [json_number(v) for v in np.asarray(a, dtype=np.float64).ravel().tolist()]


def _mix(m: BudgetMix | None) -> dict | None:
    if m is None:
        return None
    return {"fpr": json_number(m.fpr), "tpr": json_number(m.tpr), "k": json_number(m.k),
            "expected_cases": json_number(m.expected_cases),
            "a": {"fpr": json_number(m.fpr_a), "tpr": json_number(m.tpr_a),
                  "threshold": json_number(m.threshold_a)},
            "b": {"fpr": json_number(m.fpr_b), "tpr": json_number(m.tpr_b),
                  "threshold": json_number(m.threshold_b)},
            "how": m.how}


def _gains(mc: ModelConstraints) -> dict:
    g, ks = mc.gains, mc.ks
    return {"prior_pos": g.prior_pos, "cap_area": json_number(g.cap_area),
            "accuracy_ratio": json_number(g.accuracy_ratio),
            "ks": {"statistic": json_number(ks.statistic),
                   "threshold": json_number(ks.threshold), "fpr": json_number(ks.fpr),
                   "tpr": json_number(ks.tpr), "direction": ks.direction},
            "threshold": json_list(g.thresholds), "queue_rate": json_list(g.queue_rate),
            "gain": json_list(g.gain), "lift": json_list(g.lift)}


def _capacity(mc: ModelConstraints) -> dict | None:
    cp = mc.capacity
    if cp is None:
        return None
    d = cp.decision
    return {"capacity": json_number(cp.capacity), "n_total": json_number(cp.n_total),
            "queue_rate": json_number(cp.queue_rate),
            "precision_at_k": json_number(cp.precision), "recall_at_k": json_number(cp.recall),
            "lift": json_number(cp.lift), "binding": cp.binding, "hull_point": _mix(cp.mix),
            "least_cost": {"hull_point": _mix(d.best), "expected_cost": json_number(d.best_cost),
                           "threshold": json_number(d.threshold), "fpr": json_number(d.fpr),
                           "tpr": json_number(d.tpr),
                           "expected_cost_threshold": json_number(d.expected_cost)},
            "notes": list(cp.notes)}


def _floors(mc: ModelConstraints) -> dict | None:
    d = mc.floors
    if d is None:
        return None
    fc = mc.floor_confidence
    return {
        "floors": [f.text for f in d.floors], "prior_pos": d.prior_pos,
        "confidence": d.confidence, "feasible": d.feasible,
        "region": {"fpr": json_list(d.region.fpr), "tpr": json_list(d.region.tpr)},
        "best": None if d.best is None else {**_mix(d.best),
                                            "expected_cost": json_number(d.best_cost)},
        "threshold": None if d.index is None else {
            "threshold": json_number(d.threshold), "fpr": json_number(d.fpr),
            "tpr": json_number(d.tpr), "expected_cost": json_number(d.expected_cost),
            "metrics": {k: json_number(d.metrics[k]) for k in METRICS},
            "cost_of_floors": json_number(d.cost_of_floors)},
        "optimum": {"threshold": json_number(d.optimum_threshold),
                    "fpr": json_number(d.optimum_fpr), "tpr": json_number(d.optimum_tpr),
                    "expected_cost": json_number(d.optimum_cost)},
        "closest": {k: json_number(v) for k, v in d.closest.items()},
        "how_sure": None if fc is None else {
            "level": fc.level, "replicates": fc.n_boot, "seed": fc.seed,
            "all_share": json_number(fc.all_share),
            "procedure_all_share": json_number(fc.procedure_all_share),
            "chosen_share": json_number(fc.chosen_share),
            "floors": [{"floor": h.floor.text, "estimate": json_number(h.estimate),
                        "low": json_number(h.low), "high": json_number(h.high),
                        "exact_low": json_number(h.exact_low),
                        "exact_high": json_number(h.exact_high),
                        "bound": json_number(h.bound), "bound_method": h.bound_method,
                        "holds_with_confidence": h.holds_with_confidence,
                        "holds_share": json_number(h.holds_share),
                        "procedure_share": json_number(h.procedure_share)}
                       for h in fc.holds],
            "notes": list(fc.notes)},
        "notes": list(d.notes)}


def _estimate(v, lo, hi, se) -> dict:
    return {"estimate": json_number(v), "low": json_number(lo), "high": json_number(hi),
            "std_error": json_number(se)}


def _calibration(mc: ModelConstraints) -> dict:
    u = mc.calibration
    if u.fit is None:
        return {"bins": None, "slope": None, "intercept": None, "in_the_large": None,
                "spiegelhalter": None, "notes": list(u.notes)}
    b, f, t = u.bands, u.fit, u.spiegelhalter
    return {"bins": {"mean_predicted": json_list(b.mean_predicted),
                     "fraction_positive": json_list(b.fraction_positive),
                     "count": json_list(b.count), "low": json_list(b.low),
                     "high": json_list(b.high), "method": b.method, "level": b.level},
            "slope": _estimate(f.slope, f.slope_low, f.slope_high, f.slope_se),
            "intercept": _estimate(f.intercept, f.intercept_low, f.intercept_high,
                                   f.intercept_se),
            "in_the_large": _estimate(f.in_the_large, f.in_the_large_low,
                                      f.in_the_large_high, f.in_the_large_se),
            "level": f.level, "converged": f.converged,
            "spiegelhalter": {"z": json_number(t.z), "p_value": json_number(t.p_value)},
            "notes": list(u.notes)}


def _band(b) -> dict | None:
    if b is None:
        return None
    return {"method": b.method, "band": b.band, "level": b.level, "prevalence": b.prevalence,
            "n_curves": b.n_curves, "recall": json_list(b.recall),
            "precision": json_list(b.precision), "low": json_list(b.low),
            "high": json_list(b.high)}


def model_constraints_dict(mc: ModelConstraints) -> dict:
    """One model's ``constraints`` entry."""
    return {"model": mc.name, "gains": _gains(mc), "capacity": _capacity(mc),
            "floors": _floors(mc), "calibration_uncertainty": _calibration(mc),
            "pr_bands": {"folds": _band(mc.pr_fold_band),
                         "bootstrap": _band(mc.pr_bootstrap_band)}}


def constraints_sections(models: list[ModelConstraints], settings: ConstraintSettings
                         ) -> dict:
    """The ``constraints`` key: the settings and one entry per model."""
    return {"constraints": {
        "settings": {"capacity": json_number(settings.capacity),
                     "capacity_fraction": json_number(settings.capacity_fraction),
                     "volume": json_number(settings.volume),
                     "floors": [f.text for f in settings.parsed_floors()],
                     "confidence": settings.confidence, "replicates": settings.n_boot,
                     "seed": settings.seed, "calibration_bins": settings.calibration_bins,
                     "band_method": settings.band_method, "pr_bands": settings.pr_bands},
        "models": [model_constraints_dict(m) for m in models]}}


def cost_matrix_section(decisions: dict[str, CostMatrixDecision]) -> dict:
    """The ``cost_matrix`` key: per model of a multi-class table, its rules' costs and
    confusion matrices under the cost matrix."""
    def one(name, d):
        return {"model": name, "classes": [str(c) for c in d.classes],
                "cost_matrix": d.cost_matrix.tolist(), "prior": d.prior.tolist(),
                "data_prior": d.data_prior.tolist(),
                "class_weights": d.weights.tolist(), "weights_method": d.method,
                "bayes_weights": d.bayes_weights.tolist(),
                "expected_cost": {"fitted": d.expected_cost, "bayes": d.bayes_cost,
                                  "one_vs_rest": d.ovr_cost, "argmax": d.argmax_cost},
                "one_vs_rest_thresholds": json_list(d.ovr_thresholds),
                "confusion": {"fitted": d.confusion.tolist(),
                              "bayes": d.bayes_confusion.tolist(),
                              "one_vs_rest": d.ovr_confusion.tolist(),
                              "argmax": d.argmax_confusion.tolist()},
                "notes": list(d.notes)}
    return {"cost_matrix": {"rows": "true class", "columns": "decision",
                            "models": [one(n, d) for n, d in decisions.items()]}}
