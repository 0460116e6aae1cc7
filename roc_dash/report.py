"""The JSON document of ``roc-dash report``: a fixed contract over :class:`~roc_dash.core.analysis.Analysis`.

Key names and meanings are fixed (see the README); more keys may be added. Every number is
JSON-safe: infinities and NaN become ``null`` (the threshold of the ROC origin is ``null``,
meaning +infinity: nothing is called positive).
"""

from __future__ import annotations

import math

import numpy as np

from . import __version__
from .core.analysis import Analysis, ModelAnalysis, Operating
from .core.hull import model_slope_ranges

SCHEMA_VERSION = 1


def _num(v):
    if v is None:
        return None
    v = float(v)
    return v if math.isfinite(v) else None


def _list(a) -> list:
    return [None if not math.isfinite(v) else v for v in np.asarray(a, dtype=np.float64).tolist()]


def _optimal(op: Operating) -> dict:
    out = {
        "threshold": _num(op.threshold),
        "fpr": op.fpr,
        "tpr": op.tpr,
        "expected_cost": op.expected_cost,
        "normalized_expected_cost": op.normalized_expected_cost,
        "on_segment": op.optimum.on_segment,
    }
    return out


def _model(m: ModelAnalysis) -> dict:
    va, ta = m.vertical, m.threshold
    ci = m.auc_ci
    return {
        "name": m.name,
        "n_rows": m.n_rows,
        "n_pos": m.n_pos,
        "n_neg": m.n_neg,
        "n_folds": m.n_folds,
        "auc": m.auc,
        "auc_ci": ({"method": ci.method, "level": ci.level, "low": ci.low, "high": ci.high,
                    "std_error": ci.std_error} if ci is not None else None),
        "gini": m.gini,
        "partial_auc": {"fpr_max": m.partial_auc.fpr_max, "raw": m.partial_auc.raw,
                        "mcclish": m.partial_auc.mcclish},
        "average_precision": m.average_precision,
        "pr_auc_interpolated": m.pr_auc_interpolated,
        "roc": {"fpr": _list(m.curve.fpr), "tpr": _list(m.curve.tpr),
                "threshold": _list(m.curve.thresholds)},
        "hull": {"fpr": _list(m.hull.fpr), "tpr": _list(m.hull.tpr),
                 "threshold": _list(m.hull.thresholds),
                 "slope_low": _list(m.hull.slope_low), "slope_high": _list(m.hull.slope_high)},
        "optimal": _optimal(m.optimal),
        "vertical_average": {"fpr": _list(va.fpr), "tpr_mean": _list(va.tpr_mean),
                             "tpr_low": _list(va.tpr_low), "tpr_high": _list(va.tpr_high),
                             "level": va.level, "band": va.band, "n_curves": va.n_curves},
        "threshold_average": {"threshold": _list(ta.threshold), "fpr_mean": _list(ta.fpr_mean),
                              "tpr_mean": _list(ta.tpr_mean), "fpr_low": _list(ta.fpr_low),
                              "fpr_high": _list(ta.fpr_high), "tpr_low": _list(ta.tpr_low),
                              "tpr_high": _list(ta.tpr_high), "level": ta.level,
                              "n_curves": ta.n_curves},
    }


def build_report(analysis: Analysis) -> dict:
    """The report document (a dict of JSON-safe values) for an analysis."""
    c = analysis.conditions
    opt = analysis.optimal
    return {
        "roc_dash_version": __version__,
        "schema_version": SCHEMA_VERSION,
        "conditions": {"cost_fp": c.cost_fp, "cost_fn": c.cost_fn, "prior_pos": c.prior_pos,
                       "slope": c.slope, "pc_pos": c.pc_pos, "fpr_max": c.fpr_max,
                       "level": c.level},
        "models": [_model(m) for m in analysis.models],
        "hull": {"fpr": _list(analysis.hull.fpr), "tpr": _list(analysis.hull.tpr),
                 "model": [str(m) or None for m in analysis.hull.models],
                 "threshold": _list(analysis.hull.thresholds)},
        "optimal": {"model": opt.model or None, "threshold": _num(opt.threshold),
                    "fpr": opt.fpr, "tpr": opt.tpr, "expected_cost": opt.expected_cost,
                    "normalized_expected_cost": opt.normalized_expected_cost},
        "comparisons": [
            {"a": cmp.a, "b": cmp.b, "method": "delong", "paired_by": cmp.paired_by,
             "n_rows": cmp.n_rows, "auc_difference": cmp.test.auc_difference,
             "z": _num(cmp.test.z), "p_value": cmp.test.p_value}
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
