"""The ``slices`` and ``group_thresholds`` sections of the JSON report.

:func:`slices_sections` analyses every model of a canonical table that has a ``group``
column (:mod:`roc_dash.io.groups`) group by group (:mod:`roc_dash.core.subgroups.slices`) and under
each fairness constraint (:mod:`roc_dash.core.subgroups.group_thresholds`), and returns both sections
as JSON-safe dicts: infinities and NaN become ``null`` (a threshold of ``null`` at the ROC
origin means +infinity: nothing flagged). Key names are fixed; more may be added.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from ..core.analysis_types import Conditions
from ..core.subgroups.group_thresholds import (
    CONSTRAINTS,
    ConstrainedSolution,
    GroupRule,
    GroupThresholds,
    group_thresholds,
)
from ..core.subgroups.slices import (
    MIN_NEGATIVES,
    MIN_POSITIVES,
    GroupGap,
    GroupOptimum,
    GroupRoc,
    SliceAnalysis,
    slice_analysis,
)
from ..decision.record import json_number as _num
from ..io.groups import GROUP_COLUMN
from ..text.rounding import sig

__all__ = ["slices_sections", "slices_json", "group_thresholds_json", "why_left_out",
           "left_out_json", "prior_json", "left_out_note"]


def _nums(a) -> list:
    return [_num(v) for v in np.asarray(a, dtype=np.float64).tolist()]


def _gap(gap: GroupGap | None) -> dict | None:
    if gap is None:
        return None
    return {"best": gap.best, "worst": gap.worst, "best_value": _num(gap.best_value),
            "worst_value": _num(gap.worst_value), "gap": _num(gap.gap)}


def _optimal(o: GroupOptimum) -> dict:
    opt = o.optimum
    end = ({"threshold": _num(opt.threshold_end), "fpr": _num(opt.fpr_end),
            "tpr": _num(opt.tpr_end)} if opt.on_segment else None)
    return {"threshold": _num(opt.threshold), "fpr": _num(opt.fpr), "tpr": _num(opt.tpr),
            "expected_cost": _num(o.expected_cost),
            "normalized_expected_cost": _num(o.normalized_expected_cost),
            "on_segment": bool(opt.on_segment), "segment_end": end}


def _group(r: GroupRoc, o: GroupOptimum | None) -> dict:
    ci = r.auc_interval
    out = {"name": r.name, "rows": r.rows, "n_pos": _num(r.n_pos), "n_neg": _num(r.n_neg),
           "prevalence": _num(r.prevalence), "small": r.small, "auc": _num(r.auc),
           "auc_ci": ({"method": ci.method, "level": _num(ci.level), "low": _num(ci.low),
                       "high": _num(ci.high), "std_error": _num(ci.std_error)}
                      if ci is not None else None),
           "share": None, "prior_pos": None, "slope": None, "optimal": None,
           "roc": None, "hull": None}
    if r.curve is not None:
        out["roc"] = {"fpr": _nums(r.curve.fpr), "tpr": _nums(r.curve.tpr),
                      "threshold": _nums(r.curve.thresholds)}
        out["hull"] = {"fpr": _nums(r.hull.fpr), "tpr": _nums(r.hull.tpr),
                       "threshold": _nums(r.hull.thresholds)}
    if o is not None:
        out.update(share=_num(o.share), prior_pos=_num(o.prior_pos), slope=_num(o.slope),
                   optimal=_optimal(o))
    return out


def why_left_out(r: GroupRoc) -> str:
    """Why group ``r`` has no ROC curve (it holds a single class, or no weight)."""
    if r.n_pos > 0:
        return "positives only"
    return "negatives only" if r.n_neg > 0 else "no weight"


def left_out_json(analysis: SliceAnalysis) -> list[dict]:
    """The groups left out of the optima, gaps and totals: name, rows, weighted counts and
    why (:func:`why_left_out`)."""
    return [{"name": r.name, "rows": r.rows, "n_pos": _num(r.n_pos), "n_neg": _num(r.n_neg),
             "reason": why_left_out(r)} for r in analysis.rocs if not r.defined]


def prior_json(analysis: SliceAnalysis) -> dict:
    """The prior the optima use and where it comes from: ``"given"``, or
    ``"analysed_groups"`` (the prevalence of the groups with a ROC curve), with the
    prevalence of every group and of those analysed beside it."""
    return {"value": _num(analysis.prior_pos),
            "source": "given" if analysis.prior_given else "analysed_groups",
            "prevalence_all_groups": _num(analysis.prevalence_all),
            "prevalence_analysed_groups": _num(analysis.prevalence_analysed)}


def left_out_note(left_out: list[dict], prior: dict, *,
                  given: str = "the prior given") -> str:
    """What the page and the reports say when groups are left out: which, why, and the
    prior the optima use (empty when none is left out). ``left_out`` and ``prior``: from
    :func:`left_out_json` and :func:`prior_json`; ``given``: what a given prior is called."""
    if not left_out:
        return ""
    groups = ", ".join(f"{g['name']} ({g['rows']:,} rows, {g['reason']})" for g in left_out)
    note = (f"Left out: {groups}. A group with one class has no ROC curve, so it takes no "
            "part in the optima, the gaps, the thresholds or the totals (costs are per case "
            "of the other groups).")
    value = prior["value"]
    if prior["source"] == "given":
        return f"{note} Prior p(+) used: {sig(value)}, {given}."
    return (f"{note} Prior p(+) used: {sig(value)}, the prevalence of the other groups "
            f"(of every group, those left out included: {sig(prior['prevalence_all_groups'])}"
            "); give a prior to use another.")


def slices_json(model: str, analysis: SliceAnalysis) -> dict:
    """One model's entry of the ``slices`` section."""
    optima = {o.name: o for o in analysis.optima}
    left_out, prior = left_out_json(analysis), prior_json(analysis)
    return {"model": model, "prior_pos": _num(analysis.prior_pos), "prior": prior,
            "expected_cost": _num(analysis.expected_cost),
            "excluded": list(analysis.excluded), "left_out": left_out,
            "left_out_note": left_out_note(left_out, prior),
            "auc_gap": _gap(analysis.auc_gap), "cost_gap": _gap(analysis.cost_gap),
            "groups": [_group(r, optima.get(r.name)) for r in analysis.rocs]}


def _rule(r: GroupRule) -> dict:
    return {"group": r.group, "fpr": _num(r.fpr), "tpr": _num(r.tpr),
            "flagged": _num(r.flagged), "threshold_upper": _num(r.threshold_upper),
            "threshold_lower": _num(r.threshold_lower), "p_upper": _num(r.p_upper),
            "p_between": _num(r.p_between), "p_lower": _num(r.p_lower),
            "mix_weight": _num(r.mix_weight), "ignore_share": _num(r.ignore_share),
            "ignore_flag_rate": _num(r.ignore_flag_rate),
            "randomised_share": _num(r.randomised_share), "share": _num(r.share),
            "prior_pos": _num(r.prior_pos), "expected_cost": _num(r.expected_cost)}


def _solution(s: ConstrainedSolution) -> dict:
    return {"constraint": s.constraint, "expected_cost": _num(s.expected_cost),
            "cost_of_constraint": _num(s.cost_of_constraint), "randomised": s.randomised,
            "common": {"threshold": _num(s.common_threshold), "tpr": _num(s.common_tpr),
                       "fpr": _num(s.common_fpr), "flagged": _num(s.common_flagged)},
            "groups": [_rule(r) for r in s.rules]}


def group_thresholds_json(model: str, result: GroupThresholds) -> dict:
    """One model's entry of the ``group_thresholds`` section."""
    return {"model": model, "groups": list(result.groups), "excluded": list(result.excluded),
            "solutions": [_solution(s) for s in result.solutions]}


def _model_rows(table: pd.DataFrame):
    for model, rows in table.groupby("model", sort=False, observed=True):
        w = rows["weight"].to_numpy(dtype=np.float64)
        yield (str(model), rows["label"].to_numpy(dtype=bool),
               rows["score"].to_numpy(dtype=np.float64), rows[GROUP_COLUMN].to_numpy(),
               None if bool((w == 1.0).all()) else w,
               # a query engine's counts: the input rows each row stands for
               rows["rows"].to_numpy() if "rows" in rows.columns else None)


def slices_sections(table: pd.DataFrame, conditions: Conditions, *,
                    group_columns: tuple[str, ...] = (),
                    group_priors: Mapping[str, float] | None = None,
                    min_positives: float = MIN_POSITIVES,
                    min_negatives: float = MIN_NEGATIVES) -> dict:
    """``{"slices": ..., "group_thresholds": ...}`` for a canonical table.

    Both are None when the table has no ``group`` column. Otherwise every model is analysed
    group by group (its folds pooled) under ``conditions`` (costs, prior: ``None`` is each
    model's own prevalence; ``level`` of the AUC intervals). A model none of whose groups
    has both classes is listed under ``"skipped"`` with the reason.

    Parameters
    ----------
    table : DataFrame
        The canonical table (:func:`roc_dash.io.loading.load_predictions`).
    conditions : Conditions
        Costs (net of benefits), prior and interval level.
    group_columns : tuple of str
        The file columns the groups come from (``LoadResult.group_columns``), reported.
    group_priors : mapping of str to float, optional
        A deployment prior per group (see :mod:`roc_dash.core.subgroups.slices`); names of groups a
        model does not have are ignored for that model.
    min_positives, min_negatives : float
        Groups with fewer positives or negatives are flagged ``small``.
    """
    if GROUP_COLUMN not in table.columns:
        return {"slices": None, "group_thresholds": None}
    models_slices, models_thresholds, skipped = [], [], []
    for model, y, s, g, w, counts in _model_rows(table):
        names = set(map(str, pd.unique(g)))
        priors = {k: v for k, v in (group_priors or {}).items() if k in names} or None
        try:
            analysis = slice_analysis(y, s, g, weights=w, cost_fp=conditions.cost_fp,
                                      cost_fn=conditions.cost_fn,
                                      prior_pos=conditions.prior_pos, group_priors=priors,
                                      level=conditions.level, min_positives=min_positives,
                                      min_negatives=min_negatives, row_counts=counts)
        except ValueError as exc:
            skipped.append({"model": model, "reason": str(exc)})
            continue
        models_slices.append(slices_json(model, analysis))
        models_thresholds.append(group_thresholds_json(model, group_thresholds(analysis)))
    common = {"group_columns": list(group_columns), "skipped": skipped}
    return {
        "slices": {**common, "min_positives": _num(min_positives),
                   "min_negatives": _num(min_negatives),
                   "group_priors": {k: _num(v) for k, v in (group_priors or {}).items()},
                   "models": models_slices},
        "group_thresholds": {**common, "constraints": list(CONSTRAINTS),
                             "models": models_thresholds},
    }
