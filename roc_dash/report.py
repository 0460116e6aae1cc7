"""The JSON document of ``roc-dash report``: a fixed contract over :class:`~roc_dash.core.analysis.Analysis`.

Key names and meanings are fixed (see the README); more keys may be added. Every number is
JSON-safe: infinities and NaN become ``null`` (the threshold of the ROC origin is ``null``,
meaning +infinity: nothing is called positive).

Every ``"optimal"`` object (per model and overall) has ``"on_segment"`` and
``"segment_end"``: when a hull segment lies on the iso-performance line (a tie, see
:func:`roc_dash.core.hull.optimal_point`) the reported point is its conservative (left) end
and ``"segment_end"`` is ``{"threshold", "fpr", "tpr"}`` of the other end (plus ``"model"``
on the joint hull); otherwise ``null``.
"""

from __future__ import annotations

import math

import numpy as np

from . import __version__
from .core.analysis import Analysis, ModelAnalysis, Operating
from .core.hull import model_slope_ranges

SCHEMA_VERSION = 1


def _num(v):
    """A JSON-safe number: ``None`` for None, NaN and infinities."""
    if v is None:
        return None
    v = float(v)
    return v if math.isfinite(v) else None


def _list(a) -> list:
    return [None if not math.isfinite(v) else v for v in np.asarray(a, dtype=np.float64).tolist()]


def _segment_end(op: Operating, *, with_model: bool = False) -> dict | None:
    """The other end of the optimal hull segment (``None`` off a segment): the reported
    point is always the conservative (left) end, see :func:`roc_dash.core.hull.optimal_point`.
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
    }


def build_report(analysis: Analysis) -> dict:
    """The report document (a dict of JSON-safe values) for an analysis."""
    c = analysis.conditions
    opt = analysis.optimal
    return {
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
        "notes": list(analysis.notes),
    }


def fmt(v, digits: int = 3) -> str:
    """A number for a table cell ("n/a" for None or NaN)."""
    return "n/a" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.{digits}f}"


def _ranges_text(spans) -> str:
    if not spans:
        return "never optimal"

    def f(v):
        return "∞" if math.isinf(v) else f"{v:.3g}"

    return ", ".join(f"{f(lo)} – {f(hi)}" for lo, hi in spans)


def model_table_rows(analysis: Analysis) -> list[dict]:
    """The model table as plain rows: the dashboard's table, its CSV export, the HTML report."""
    ranges = model_slope_ranges(analysis.hull)
    rows = []
    for m in analysis.models:
        ci = m.auc_ci
        rows.append({
            "model": m.name, "rows": m.n_rows, "positives": m.n_pos, "negatives": m.n_neg,
            "folds": m.n_folds, "auc": m.auc,
            "auc_ci_low": ci.low if ci else float("nan"),
            "auc_ci_high": ci.high if ci else float("nan"),
            "partial_auc_mcclish": m.partial_auc.mcclish,
            "average_precision": m.average_precision,
            "optimal_threshold": m.optimal.threshold, "expected_cost": m.optimal.expected_cost,
            "hull_slope_ranges": _ranges_text(ranges.get(m.name)),
        })
    return rows
