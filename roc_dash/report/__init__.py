"""The JSON document of ``roc-dash report``: a fixed contract over :class:`~roc_dash.core.assembly.analysis.Analysis`.

Key names and meanings are fixed (see docs/cli.md); more keys may be added. Every number is
JSON-safe: infinities and NaN become ``null`` (the threshold of the ROC origin is ``null``,
meaning +infinity: nothing is called positive).

Every ``"optimal"`` object (per model and overall) has ``"on_segment"`` and
``"segment_end"``: when a hull segment lies on the iso-performance line (a tie, see
:func:`roc_dash.core.roc.hull.optimal_point`) the reported point is its conservative (left) end
and ``"segment_end"`` is ``{"threshold", "fpr", "tpr"}`` of the other end (plus ``"model"``
on the joint hull); otherwise ``null``.

The package holds every form of the report: this JSON (here), the HTML page
(:mod:`.html`, with :mod:`.html_interactive` and :mod:`.html_plotly`), the Slices sections
(:mod:`.slices`), the CSV exports (:mod:`.exports`) and the comparison's sentences shared
with the page (:mod:`.comparison_text`).
"""

from __future__ import annotations

import math

import numpy as np

from .. import __version__
from ..core.analysis_types import Analysis, ModelAnalysis, Operating
from ..core.decisions.decision_curve import (
    DEFAULT_THRESHOLD_PROBABILITIES,
    decision_curve_from_curve,
    hull_net_benefit,
    threshold_probability,
    treat_all_net_benefit,
)
from ..core.decisions.economics import Economics
from ..core.decisions.point_intervals import PointIntervals, PointUncertainty, point_intervals
from ..core.inference.calibration import calibration_from_curve
from ..core.inference.cross_validation import CrossValidatedAuc
from ..core.inference.model_comparison import NEVER_OPTIMAL, OptimalRanges, PairwiseComparison
from ..core.roc.hull import model_slope_ranges
from ..decision.record import json_number as _num
from ..text.rounding import sig
from .comparison_text import ties_text

SCHEMA_VERSION = 1


def _list(a) -> list:
    return [None if not math.isfinite(v) else v for v in np.asarray(a, dtype=np.float64).tolist()]


def _segment_end(op: Operating, *, with_model: bool = False) -> dict | None:
    """The other end of the optimal hull segment (``None`` off a segment): the reported
    point is always the conservative (left) end, see :func:`roc_dash.core.roc.hull.optimal_point`.
    On the joint hull the other end may belong to another model (``"model"``)."""
    o = op.optimum
    if not o.on_segment:
        return None
    end = {"threshold": _num(o.threshold_end), "fpr": _num(o.fpr_end), "tpr": _num(o.tpr_end)}
    if with_model:
        end["model"] = o.model_end or None
    return end


def _optimal(op: Operating, *, with_model: bool = False) -> dict:
    return {
        "threshold": _num(op.threshold),
        "fpr": _num(op.fpr),
        "tpr": _num(op.tpr),
        "expected_cost": _num(op.expected_cost),
        "normalized_expected_cost": _num(op.normalized_expected_cost),
        "on_segment": bool(op.optimum.on_segment),
        "segment_end": _segment_end(op, with_model=with_model),
    }


def _model(m: ModelAnalysis) -> dict:
    va, ta = m.vertical, m.threshold
    ci = m.auc_ci
    return {
        "name": m.name,
        "n_rows": m.n_rows,
        "n_pos": _num(m.n_pos),
        "n_neg": _num(m.n_neg),
        "n_folds": m.n_folds,
        "auc": _num(m.auc),
        "auc_ci": ({"method": ci.method, "level": _num(ci.level), "low": _num(ci.low),
                    "high": _num(ci.high), "std_error": _num(ci.std_error)}
                   if ci is not None else None),
        "gini": _num(m.gini),
        "partial_auc": {"fpr_max": _num(m.partial_auc.fpr_max), "raw": _num(m.partial_auc.raw),
                        "mcclish": _num(m.partial_auc.mcclish)},
        "average_precision": _num(m.average_precision),
        "pr_auc_interpolated": _num(m.pr_auc_interpolated),
        "roc": {"fpr": _list(m.curve.fpr), "tpr": _list(m.curve.tpr),
                "threshold": _list(m.curve.thresholds)},
        "hull": {"fpr": _list(m.hull.fpr), "tpr": _list(m.hull.tpr),
                 "threshold": _list(m.hull.thresholds),
                 "slope_low": _list(m.hull.slope_low), "slope_high": _list(m.hull.slope_high)},
        "optimal": _optimal(m.optimal),
        "vertical_average": {"fpr": _list(va.fpr), "tpr_mean": _list(va.tpr_mean),
                             "tpr_low": _list(va.tpr_low), "tpr_high": _list(va.tpr_high),
                             "level": _num(va.level), "band": va.band, "n_curves": va.n_curves},
        "threshold_average": {"threshold": _list(ta.threshold), "fpr_mean": _list(ta.fpr_mean),
                              "tpr_mean": _list(ta.tpr_mean), "fpr_low": _list(ta.fpr_low),
                              "fpr_high": _list(ta.fpr_high), "tpr_low": _list(ta.tpr_low),
                              "tpr_high": _list(ta.tpr_high), "level": _num(ta.level),
                              "n_curves": ta.n_curves},
        **_cross_validation(m.cross_validation),
    }


def _count(x) -> int | float | None:
    """A class total: an integer when it is whole (unweighted rows), else the weighted sum."""
    v = _num(x)
    return int(v) if isinstance(v, float) and v.is_integer() and abs(v) < 2**53 else v


def _cross_validation(cv: CrossValidatedAuc | None) -> dict:
    """``folds`` (each fold's own AUC and AP) and ``cv_auc`` (their mean ± SD and the
    LeDell et al. 2015 interval of the mean); ``[]`` and ``null`` with fewer than two folds."""
    if cv is None:
        return {"folds": [], "cv_auc": None}
    rows = zip(cv.folds, cv.auc, cv.average_precision, cv.n_pos, cv.n_neg, strict=True)
    return {
        "folds": [{"fold": str(f), "auc": _num(a), "ap": _num(ap), "n_pos": _count(p),
                   "n_neg": _count(n)} for f, a, ap, p, n in rows],
        "cv_auc": {"mean": _num(cv.auc_mean), "sd": _num(cv.auc_sd),
                   "ci_low": _num(cv.ci_low), "ci_high": _num(cv.ci_high),
                   "level": _num(cv.level), "std_error": _num(cv.std_error),
                   "method": cv.method, "ap_mean": _num(cv.ap_mean), "ap_sd": _num(cv.ap_sd),
                   "basis": cv.basis},
    }


#: What the report says when no pair of models could be tested.
NOT_PAIRED_NOTE = (
    "No paired comparison: the models are not scored on the same rows (same ids, or the same "
    "labels and weights in the same order), or the input does not allow one (aggregated "
    "counts, soft labels, too many models); see notes.")


def _comparison(c: PairwiseComparison | None, n_models: int) -> dict | None:
    """The k-model comparison matrices (row minus column; diagonal and untested pairs
    ``null``), ``{"paired": false, "note"}`` when no pair was tested, ``null`` for one model."""
    if c is None:
        return None if n_models < 2 else {"paired": False, "note": NOT_PAIRED_NOTE}
    return {
        "paired": True, "method": c.method, "measure": c.measure, "max_fpr": _num(c.max_fpr),
        "n_boot": c.n_boot, "seed": c.seed, "models": list(c.models),
        "estimate": _list(c.estimate), "difference": _matrix(c.difference),
        "std_error": _matrix(c.std_error), "z": _matrix(c.z), "p_value": _matrix(c.p_value),
        "p_holm": _matrix(c.p_holm), "p_bh": _matrix(c.p_bh), "n_tests": c.n_tests,
        "untested_pairs": [list(pair) for pair in c.untested],
    }


def _intervals(low, high) -> list:
    return [[_num(a), _num(b)] for a, b in zip(low, high, strict=True)]


def _optimal_ranges(r: OptimalRanges | None) -> dict | None:
    """Each model's iso-performance slope intervals on the joint hull and the cost ratios
    ``c(FP)/c(FN)`` they are at the prior (``null`` upper end: no limit); ``null`` for one
    model."""
    if r is None:
        return None
    return {"prior_pos": _num(r.prior_pos), "models": [{
        "name": x.model, "optimal": not x.never_optimal,
        "slope": _intervals(x.slope_low, x.slope_high),
        "cost_ratio_fp_fn": _intervals(x.cost_ratio_low, x.cost_ratio_high),
        "ties_at_every_cost": list(x.ties_at_every_cost),
        "ties_in_part": list(x.ties_in_part),
        "note": NEVER_OPTIMAL if x.never_optimal else (ties_text(x) or None)}
        for x in r.ranges]}


# ------------------------------------------------- calibration and decision curves ----------


def _calibration(m: ModelAnalysis) -> dict:
    """Can the model's scores be read as probabilities (pooled folds; 10 uniform bins):
    :func:`~roc_dash.core.inference.calibration.calibration_from_curve`."""
    c = calibration_from_curve(m.curve, hull=m.hull)
    return {"brier": _num(c.brier), "ece": _num(c.ece), "mce": _num(c.mce),
            "in_unit_interval": c.in_unit_interval, "note": c.note or None}


def _decision_curve(analysis: Analysis) -> dict:
    """Net benefit at the threshold probabilities 0.01 ... 0.99 at the analysis' prior
    (:mod:`roc_dash.core.decisions.decision_curve`), and at the current costs' ``p_t``."""
    c = analysis.conditions
    grid, prior = DEFAULT_THRESHOLD_PROBABILITIES, c.prior_pos
    p_t = threshold_probability(c.cost_fp, c.cost_fn)
    curves = [(m.name, decision_curve_from_curve(m.curve, grid, prior_pos=prior, hull=m.hull))
              for m in analysis.models]
    current = None
    if p_t < 1.0:  # else c(FP) dwarfs c(FN) beyond float precision: treat nobody
        here = hull_net_benefit(analysis.hull, [p_t], prior_pos=prior)
        current = {"net_benefit": _num(here.net_benefit[0]), "model": here.model[0] or None,
                   "threshold": _num(here.threshold[0])}
    return {
        "prior_pos": _num(prior), "threshold_probability": _list(grid),
        "treat_all": _list(treat_all_net_benefit(grid, prior_pos=prior)),
        "hull_net_benefit": _list(hull_net_benefit(analysis.hull, grid,
                                                   prior_pos=prior).net_benefit),
        "models": [{"name": name, "in_unit_interval": dc.in_unit_interval,
                    "net_benefit": _list(dc.net_benefit) if dc.in_unit_interval else None,
                    "hull_net_benefit": _list(dc.hull.net_benefit)} for name, dc in curves],
        "current": {"threshold_probability": _num(p_t), **(current or {
            "net_benefit": None, "model": None, "threshold": None})},
    }


def build_report(analysis: Analysis, extensions=None, *,
                 partial_auc_comparison: PairwiseComparison | None = None,
                 intervals: dict | None = None) -> dict:
    """The report document (a dict of JSON-safe values) for an analysis; ``extensions``
    (:class:`~roc_dash.core.assembly.extensions.Extensions`) adds the sections beyond one binary
    scorer (:func:`extension_sections`) after the binary keys. ``partial_auc_comparison``
    (:func:`~roc_dash.core.assembly.analysis.partial_auc_comparison`) adds
    ``comparison_partial_auc``, the bootstrap matrices of the partial AUC.
    ``intervals`` (:func:`model_point_intervals`) adds bootstrap intervals to each model's
    ``optimal`` and a ``pins`` list (:func:`point_interval_sections`)."""
    c = analysis.conditions
    opt = analysis.optimal
    doc = {
        "roc_dash_version": __version__,
        "schema_version": SCHEMA_VERSION,
        "conditions": {"cost_fp": _num(c.cost_fp), "cost_fn": _num(c.cost_fn),
                       "prior_pos": _num(c.prior_pos), "slope": _num(c.slope),
                       "pc_pos": _num(c.pc_pos), "fpr_max": _num(c.fpr_max),
                       "level": _num(c.level)},
        "models": [_model(m) for m in analysis.models],
        "hull": {"fpr": _list(analysis.hull.fpr), "tpr": _list(analysis.hull.tpr),
                 "model": [str(m) or None for m in analysis.hull.models],
                 "threshold": _list(analysis.hull.thresholds)},
        "optimal": {"model": opt.model or None, **_optimal(opt, with_model=True)},
        "comparisons": [
            {"a": cmp.a, "b": cmp.b, "method": "delong", "paired_by": cmp.paired_by,
             "n_rows": cmp.n_rows, "auc_difference": _num(cmp.test.auc_difference),
             "z": _num(cmp.test.z), "p_value": _num(cmp.test.p_value)}
            for cmp in analysis.comparisons
        ],
        "comparison": _comparison(analysis.model_comparison, len(analysis.models)),
        "optimal_ranges": _optimal_ranges(analysis.optimal_ranges),
        "notes": list(analysis.notes),
    }
    if partial_auc_comparison is not None:
        doc["comparison_partial_auc"] = _comparison(partial_auc_comparison, 2)
    for entry, m in zip(doc["models"], analysis.models, strict=True):
        entry["calibration"] = _calibration(m)
        entry.update(point_interval_sections(entry, (intervals or {}).get(m.name)))
    doc["decision_curve"] = _decision_curve(analysis)
    if extensions is not None:
        doc.update(extension_sections(extensions))
    return doc


# ------------------------------------------------------ intervals at the chosen point ----------
#: The report's names of :class:`~roc_dash.core.decisions.point_intervals.PointUncertainty`'s metrics.
POINT_METRICS = {"threshold": "threshold", "tpr": "tpr", "fpr": "fpr",
                 "precision": "precision", "npv": "npv", "lr_plus": "lr_pos",
                 "lr_minus": "lr_neg", "expected_cost": "expected_cost"}


def point_uncertainty_dict(u: PointUncertainty) -> dict:
    """One point's bootstrap intervals as JSON-safe values (``null`` for NaN and
    infinities: an infinite ``high`` or threshold is ``null``, see the module docstring)."""
    o = u.optimism
    return {
        "intervals": {key: {"estimate": _num(iv.estimate), "low": _num(iv.low),
                            "high": _num(iv.high), "interval": iv.interval}
                      for key, iv in ((k, getattr(u, a)) for k, a in POINT_METRICS.items())},
        "n_boot": u.n_boot, "n_boot_used": u.n_boot_used, "level": _num(u.level),
        "method": u.method,
        "optimism": None if o is None else {
            "apparent": _num(o.apparent), "in_bag": _num(o.in_bag),
            "out_of_bag": _num(o.out_of_bag), "optimism": _num(o.optimism), "n": o.n},
        "notes": list(u.notes)}


def point_interval_sections(entry: dict, result: PointIntervals | None) -> dict:
    """A model's report keys from its :class:`~roc_dash.core.decisions.point_intervals.PointIntervals`:
    its ``optimal`` object with ``uncertainty`` added and ``pins`` (one object per pinned
    threshold: ``threshold`` and ``uncertainty``); nothing without a result."""
    if result is None:
        return {}
    return {"optimal": {**entry["optimal"], "uncertainty": point_uncertainty_dict(result.optimum)},
            "pins": [{"threshold": _num(u.threshold.estimate),
                      "uncertainty": point_uncertainty_dict(u)} for u in result.pins]}


def model_point_intervals(analysis: Analysis, table, economics: Economics, *,
                          pins: dict | None = None, n_boot: int = 200, seed: int = 0,
                          deadline: float | None = None) -> dict:
    """``{model name: PointIntervals}``: :func:`~roc_dash.core.decisions.point_intervals.point_intervals`
    on each model's rows of the canonical ``table`` the analysis was made from, at the
    analysis' prior and level under ``economics`` (the costs and benefits the analysis' net
    costs come from); ``pins`` maps a model to its pinned thresholds (``None`` = +inf).
    ``deadline`` (a :func:`time.monotonic` instant) is shared by all the models: a late
    model gets fewer replicates (its ``n_boot_used`` and a note say so)."""
    from ..decision import model_rows

    c = analysis.conditions
    out = {}
    for m in analysis.models:
        y, s, w = model_rows(table, m.name)
        out[m.name] = point_intervals(y, s, c.prior_pos, economics,
                                      pins=(pins or {}).get(m.name, ()), weights=w,
                                      n_boot=n_boot, seed=seed, level=c.level,
                                      deadline=deadline)
    return out


def fmt(v) -> str:
    """A number for a table cell: the one rounding rule, 6 significant digits
    (:func:`roc_dash.text.rounding.sig`; "n/a" for None or NaN)."""
    return sig(v)


def _ranges_text(spans, ties=()) -> str:
    if not spans:
        return "never optimal"

    def f(v):
        return "∞" if math.isinf(v) else f"{sig(v)}"

    text = ", ".join(f"{f(lo)} – {f(hi)}" for lo, hi in spans)
    return f"{text} (ties with {', '.join(ties)})" if ties else text


def _table_ranges(analysis: Analysis) -> dict[str, tuple[list, tuple]]:
    """Per model, its slope spans on the joint hull and the models it ties with at every
    cost (the models' own ranges with one model)."""
    r = analysis.optimal_ranges
    if r is None:
        return {k: (v, ()) for k, v in model_slope_ranges(analysis.hull).items()}
    return {x.model: (list(zip(x.slope_low, x.slope_high, strict=True))[::-1],  # hull order
                      x.ties_at_every_cost) for x in r.ranges}


def model_table_rows(analysis: Analysis) -> list[dict]:
    """The model table as plain rows: the dashboard's table, its CSV export, the HTML report."""
    ranges = _table_ranges(analysis)
    rows = []
    for m in analysis.models:
        ci = m.auc_ci
        rows.append({
            "model": m.name, "dataset": m.dataset or "", "rows": m.n_rows, "positives": m.n_pos, "negatives": m.n_neg,
            "folds": m.n_folds, "auc": m.auc,
            "auc_ci_low": ci.low if ci else float("nan"),
            "auc_ci_high": ci.high if ci else float("nan"),
            "partial_auc_mcclish": m.partial_auc.mcclish,
            "average_precision": m.average_precision,
            "optimal_threshold": m.optimal.threshold, "expected_cost": m.optimal.expected_cost,
            "hull_slope_ranges": _ranges_text(*ranges.get(m.name, ((), ()))),
        })
    return rows


# ----------------------------------------------------------------------------- beyond binary
# Sections added by :func:`build_report` when the input is not a plain binary file or when
# asked (see docs/cli.md, "Report keys beyond one binary scorer"). Absent otherwise, so a
# binary report without these options is unchanged.


def _matrix(a) -> list:
    return [_list(row) for row in np.asarray(a, dtype=np.float64)]


def _curve(c) -> dict:
    return {"fpr": _list(c.fpr), "tpr": _list(c.tpr), "threshold": _list(c.thresholds)}


def _ci(ci) -> dict | None:
    if ci is None:
        return None
    return {"method": ci.method, "level": _num(ci.level), "low": _num(ci.low),
            "high": _num(ci.high), "std_error": _num(ci.std_error)}


def _multiclass(kind, models) -> dict:
    classes = [str(c) for c in (models[0].result.classes if models else kind.classes)]
    return {"classes": classes, "reference_class": kind.reference_class, "models": [{
        "name": m.name, "n_rows": m.n_rows,
        "n_per_class": _list(m.result.n_per_class),
        "auc_per_class": _list(m.result.auc_per_class),
        "auc_weighted": _num(m.result.weighted_auc),
        "auc_macro": _num(m.result.macro_auc),
        "hand_till_m": _num(m.result.hand_till_m),
        "pairwise_auc": _matrix(m.result.pairwise),
        "class_reference": [{"class": c, **_curve(curve)}
                            for c, curve in zip(classes, m.result.curves, strict=True)],
    } for m in models]}


def _soft(kind, models) -> dict:
    return {"column": kind.source_column, "models": [{
        "name": m.name, "n_instances": m.n_instances, "n_pos": _num(m.n_pos),
        "n_neg": _num(m.n_neg), "auc": _num(m.auc), "hard_labels": m.hard_labels,
        "auc_ci": _ci(m.interval), "auc_ci_reason": m.reason or None,
    } for m in models]}


def _costs(kind, models) -> dict:
    from ..core.kinds.canonical_kinds import COST_AXIS_TITLES

    return {"column": kind.source_column, "x_axis": COST_AXIS_TITLES["x"],
            "y_axis": COST_AXIS_TITLES["y"], "models": [{
                "name": m.name, "total_negative_cost": _num(m.total_negative_cost),
                "total_positive_benefit": _num(m.total_positive_benefit),
                "auc": _num(m.auc), "roc": _curve(m.curve)} for m in models]}


def _tree(t) -> dict:
    lab = t.labelings
    out = {
        "name": t.name,
        "leaves": [{"leaf": str(leaf), "pos": _num(p), "neg": _num(n),
                    "positive_rate": _num(p / (p + n))}
                   for leaf, p, n in zip(t.leaves["leaf"], t.leaves["pos"], t.leaves["neg"],
                                         strict=True)],
        "labelings": [{"name": f"S_{i}",
                       "positive_leaves": [str(x) for x in lab.leaf[lab.labeling[i]]],
                       "fpr": _num(lab.fpr[i]), "tpr": _num(lab.tpr[i]),
                       "tp": _num(lab.tp[i]), "fp": _num(lab.fp[i])}
                      for i in range(len(lab.fpr))],
        "hull": {"fpr": _list(t.hull.fpr), "tpr": _list(t.hull.tpr)},
        "all_labelings": None,
    }
    if t.all is not None:
        out["all_labelings"] = {
            "positive_leaves": [[str(x) for x in t.all.leaf[row]] for row in t.all.labeling],
            "fpr": _list(t.all.fpr), "tpr": _list(t.all.tpr)}
    return out


def _leaves(trees) -> dict:
    out = _tree(trees[0]) if trees else {}
    out["trees"] = [_tree(t) for t in trees]
    return out


def _vertex(fpr, tpr, threshold, model) -> dict:
    return {"fpr": _num(fpr), "tpr": _num(tpr), "threshold": _num(threshold),
            "model": model or None}


def _mix(m) -> dict:
    return {"fpr": _num(m.fpr), "tpr": _num(m.tpr), "k": _num(m.k),
            "vertex_a": _vertex(m.fpr_a, m.tpr_a, m.threshold_a, m.model_a),
            "vertex_b": _vertex(m.fpr_b, m.tpr_b, m.threshold_b, m.model_b),
            "expected_cases": _num(m.expected_cases), "expected_tp": _num(m.expected_tp),
            "expected_fp": _num(m.expected_fp), "clamped": m.clamped,
            "note": m.note or None, "how": m.how}


def _budget(b) -> dict:
    return {"n_total": _num(b.n_total), "prior_pos": _num(b.prior_pos),
            "budget_cases": _num(b.budget),
            "line": {"fpr": _list(b.line.fpr), "tpr": _list(b.line.tpr)},
            "best": _mix(b.best),
            "per_model": [{"name": k, **_mix(v)} for k, v in b.per_model.items()],
            "pair": _mix(b.pair) if b.pair is not None else None}


def _repairs(repairs) -> list:
    out = []
    for name, r in repairs.items():
        out.append({"name": name, "repaired_auc": _num(_auc(r.curve)), "concavities": [{
            "threshold_a": _num(r.threshold_a[i]), "threshold_b": _num(r.threshold_b[i]),
            "threshold_c": _num(r.threshold_c[i]),
            "a": {"fpr": _num(r.fpr_a[i]), "tpr": _num(r.tpr_a[i])},
            "b": {"fpr": _num(r.fpr_b[i]), "tpr": _num(r.tpr_b[i])},
            "c": {"fpr": _num(r.fpr_c[i]), "tpr": _num(r.tpr_c[i])},
            "repaired": {"fpr": _num(r.fpr_repaired[i]), "tpr": _num(r.tpr_repaired[i])},
            "area_gain": _num(r.area_gain[i])} for i in range(len(r.start))]})
    return out


def _auc(curve) -> float:
    from ..core.roc.curves import auc

    return auc(curve)


def _expected(e) -> dict:
    return {
        "and": {"fpr": _num(e.and_fpr), "tpr": _num(e.and_tpr),
                "fpr_low": _num(e.and_fpr_low), "fpr_high": _num(e.and_fpr_high),
                "tpr_low": _num(e.and_tpr_low), "tpr_high": _num(e.and_tpr_high)},
        "or": {"fpr": _num(e.or_fpr), "tpr": _num(e.or_tpr),
               "fpr_low": _num(e.or_fpr_low), "fpr_high": _num(e.or_fpr_high),
               "tpr_low": _num(e.or_tpr_low), "tpr_high": _num(e.or_tpr_high)}}


def _logical(r) -> dict:
    e = r.expected
    actual = r.actual
    return {
        "a": {"model": r.model_a, "threshold": _num(r.threshold_a), "fpr": _num(e.fpr_1),
              "tpr": _num(e.tpr_1)},
        "b": {"model": r.model_b, "threshold": _num(r.threshold_b), "fpr": _num(e.fpr_2),
              "tpr": _num(e.tpr_2)},
        "expected": _expected(e),
        "actual": None if actual is None else {
            "and": {"fpr": _num(actual.and_fpr), "tpr": _num(actual.and_tpr)},
            "or": {"fpr": _num(actual.or_fpr), "tpr": _num(actual.or_tpr)}},
        "paired_by": r.paired_by,
    }


def _superiority(lc, scale: str) -> dict:
    d, g = lc.distribution, lc.superiority
    return {"a": g.model_a, "b": g.model_b, "prior_pos": _num(g.prior_pos),
            "distribution": {"kind": d.kind, "scale": scale, "low_unit": _num(d.low),
                             "mode_unit": _num(d.mode), "high_unit": _num(d.high)},
            "lc": _num(lc.lc), "prob_a_better": _num(lc.prob_a_better),
            "prob_b_better": _num(lc.prob_b_better), "prob_equal": _num(lc.prob_equal),
            "graph": {"edges": _list(g.edges), "ratio_edges": _list(g.ratio_edges),
                      "sign": [int(v) for v in g.sign]}}


def extension_sections(ext) -> dict:
    """The report keys of a :class:`~roc_dash.core.assembly.extensions.Extensions` (empty for a
    binary file with nothing asked)."""
    out: dict = {}
    kind = ext.kind
    if kind is not None and kind.kind != "binary":
        out["input"] = {"kind": kind.kind, "classes": list(kind.classes) or None,
                        "reference_class": kind.reference_class,
                        "weights_are_costs": kind.weights_are_costs,
                        "source_column": kind.source_column}
    if ext.multiclass is not None:
        out["multiclass"] = _multiclass(kind, ext.multiclass)
    if ext.soft is not None:
        out["soft_labels"] = _soft(kind, ext.soft)
    if ext.costs is not None:
        out["instance_costs"] = _costs(kind, ext.costs)
    if ext.leaves is not None:
        out["leaves"] = _leaves(ext.leaves)
    if ext.budget is not None:
        out["combining"] = {"budget": _budget(ext.budget)}
    if ext.repairs is not None:
        out["concavity_repair"] = _repairs(ext.repairs)
    if ext.logical is not None:
        out["logical_combinations"] = _logical(ext.logical)
    if ext.superiority is not None:
        out["superiority"] = _superiority(ext.superiority, ext.superiority_scale)
    return out
