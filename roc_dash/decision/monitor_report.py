"""A monitor run as JSON and as criteria (``roc-dash monitor``'s output and JUnit XML).

:func:`report_dict` is the JSON document (full precision; ``null`` for NaN and infinities);
:func:`criteria` gives one :class:`roc_dash.decision.gate.Criterion` per window and criterion, with a
sentence saying what was computed, numbers rounded by the one rule
(:func:`roc_dash.text.rounding.sig`).
"""

from __future__ import annotations

import math
from datetime import UTC, datetime

from .. import __version__
from ..core.monitoring import FAIL, PASS, WARN
from ..text.rounding import rule_threshold, sig, signed
from .gate import INFO, Criterion
from .record import json_number as _num

__all__ = ["SCHEMA", "SCHEMA_VERSION", "report_dict", "criteria"]

#: The ``"schema"`` of the monitor's JSON, and its version.
SCHEMA = "roc-dash monitor"
SCHEMA_VERSION = 1

_STATUS = {PASS: "PASS", FAIL: "FAIL", WARN: INFO}


def _est(e) -> dict:
    return {"value": _num(e.value), "low": _num(e.low), "high": _num(e.high)}


def _prevalence(e) -> dict:
    return {"value": _num(e.value), "low": _num(e.low), "high": _num(e.high),
            "level": e.level, "raw": _num(e.raw), "interval": e.interval,
            "replicates": e.replicates, "iterations": e.iterations,
            "converged": e.converged}


def _choice(c) -> dict:
    return {"prior_pos": _num(c.prior_pos), "slope": _num(c.slope),
            "threshold": _num(c.threshold), "fpr": c.fpr, "tpr": c.tpr,
            "on_segment": c.on_segment, "expected_cost": _num(c.expected_cost)}


def _labelled(m) -> dict | None:
    if m is None:
        return None
    d = m.drift
    return {
        "confusion_matrix": {"tp": m.tp, "fp": m.fp, "fn": m.fn, "tn": m.tn},
        **{k: _est(getattr(m, k)) for k in ("tpr", "fpr", "precision", "flagged",
                                             "precision_at_prior", "expected_cost", "cost")},
        "optimum": _choice(m.optimum), "switching_saves": _num(m.switching_saves),
        "drift_test": {"cost": _num(d.cost), "reference_cost": _num(d.reference.cost),
                       "difference": _num(d.difference), "std_error": _num(d.std_error),
                       "z": _num(d.z), "p_value": _num(d.p_value), "alpha": d.alpha,
                       "limit": _num(d.limit), "drifted": d.drifted,
                       "reference": d.reference.method, "corrected": d.reference.corrected,
                       "notes": list(d.notes)},
        "replicates": m.replicates,
    }


def _rederived(r) -> dict | None:
    if r is None:
        return None
    return {"prior": r.prior.method, "baseline": _choice(r.baseline),
            "choice": _choice(r.choice), "choice_at_low": _choice(r.choice_low),
            "choice_at_high": _choice(r.choice_high),
            "holds_over": [_num(v) for v in r.holds_over],
            "deployed_cost": _est(r.deployed_cost), "saving": _num(r.saving),
            "normalized_saving": _num(r.normalized_saving),
            "differs": r.differs, "p_value": _num(r.p_value)}


def _window(w) -> dict:
    return {
        "name": w.name, "start": w.start, "end": w.end, "rows": w.rows, "n": _num(w.n),
        "status": w.status, "flagged": _est(w.flagged),
        "prevalence": {e.method: _prevalence(e) for e in w.prevalence},
        "prior_used": None if w.prior is None else w.prior.method,
        "labelled": _labelled(w.labelled), "rederived": _rederived(w.rederived),
        "score_shift": [{"comparison": x.comparison, "ks": _num(x.ks),
                         "p_value": _num(x.p_value), "psi": _num(x.psi),
                         "n_reference": _num(x.n_reference), "n_window": _num(x.n_window),
                         "alpha": x.alpha, "psi_min": x.psi_min, "shifted": x.shifted}
                        for x in w.shifts],
        "findings": [{"criterion": f.criterion, "status": f.status,
                      "p_value": _num(f.p_value), "alpha": f.alpha} for f in w.findings],
        "notes": list(w.notes),
    }


def _hull(reference) -> dict | None:
    h = reference.hull
    if h is None:
        return None
    return {"fpr": h.fpr.tolist(), "tpr": h.tpr.tolist(),
            "thresholds": [_num(t) for t in h.thresholds]}


def report_dict(report) -> dict:
    """The JSON document of a :class:`~roc_dash.decision.monitoring.MonitorReport`."""
    r, rec, ref = report.result, report.record, report.result.reference
    s = r.settings
    return {
        "schema": SCHEMA, "schema_version": SCHEMA_VERSION, "roc_dash_version": __version__,
        "created_utc": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "status": r.status,
        "decision": {**{k: v for k, v in rec.to_dict().items()
                        if k in ("model", "positive_label", "rule", "conditions", "metrics",
                                 "confusion_matrix", "intervals", "data", "created_utc")}},
        "reference": {"predictions": ref.has_scores,
                      "same_as_decision": report.reference_fingerprint,
                      "n_pos": ref.n_pos, "n_neg": ref.n_neg, "prevalence": ref.prevalence,
                      "tpr": ref.tpr, "fpr": ref.fpr, "expected_cost": ref.expected_cost,
                      "hull": _hull(ref)},
        "settings": {"level": s.level, "alpha": s.alpha,
                     "alpha_per_test": r.alpha_per_test, "shift_alpha": r.shift_alpha,
                     "replicates": s.replicates,
                     "seed": s.seed, "estimator": s.estimator, "min_saving": s.min_saving,
                     "psi_min": s.psi_min,
                     "fail_on_shift": s.fail_on_shift},
        "windows": [_window(w) for w in r.windows],
        "notes": list(report.notes) + list(r.notes),
    }


# ----------------------------------------------------------------------------- criteria
def _p(v: float) -> str:
    return "n/a" if not math.isfinite(v) else f"{v:.3g}"


def _test_criterion(name: str, w, f, p_value: float, or_else: str, detail: str) -> Criterion:
    """The line of a window's test ``name`` (finding ``f``): its p value, passing at
    ``p >= alpha`` (``or_else`` adds the other way to pass), and the ``detail``."""
    return Criterion(name, w.name, _STATUS[f.status], p_value, f"p = {_p(p_value)}",
                     f"p >= {sig(f.alpha)}{or_else}", detail)


def _cost_drift(w, f, _settings) -> Criterion:
    m = w.labelled
    d = m.drift
    return _test_criterion(
        "cost-drift", w, f, d.p_value, "",
        f"Flag iff score >= the record's threshold: TPR {sig(m.tpr.value)}, FPR "
        f"{sig(m.fpr.value)} on {sig(m.tp + m.fn)} positives and {sig(m.fp + m.tn)} negatives; "
        f"expected cost per case at the record's prior {sig(d.cost)}, "
        f"{signed(d.difference)} from the reference's {sig(d.reference.cost)} "
        f"({'corrected for the choice of its threshold' if d.reference.corrected else d.reference.method}"
        f"); the CI gate's one-sided test: SE {sig(d.std_error)}, z = {sig(d.z)}, allowed "
        f"up to {sig(d.limit)}.{' ' + ' '.join(d.notes) if d.notes else ''}")


def _choice_criterion(w, f, min_saving: float) -> Criterion:
    r = w.rederived
    p = r.prior
    lo, hi = r.holds_over
    how = "counted from its labels" if p.method == "labels" else f"estimated by {p.method.upper()}"
    return _test_criterion(
        "choice", w, f, r.p_value, f" or saving < {sig(min_saving)}",
        f"Prior p(+) {sig(p.value)} [{sig(p.low)}, {sig(p.high)}] ({how}); the deployed "
        f"choice is optimal for p(+) in [{sig(lo)}, {sig(hi)}]. At this prior the optimum is "
        f"score >= {rule_threshold(r.choice.threshold)} (deployed optimum: >= "
        f"{rule_threshold(r.baseline.threshold)}); staying costs {sig(r.deployed_cost.value)} per case, "
        f"switching {sig(r.choice.expected_cost)} (saves {sig(r.normalized_saving)} of the "
        f"largest cost; a change counts from {sig(min_saving)}).")


def _shift_criterion(w, f, _settings) -> Criterion:
    judged = [x for x in w.shifts if x.comparison in (
        ("positives", "negatives") if w.labelled is not None else ("prior-adjusted",))]
    parts = "; ".join(f"{x.comparison}: KS {sig(x.ks)} (p = {_p(x.p_value)}), PSI "
                      f"{sig(x.psi)}" for x in judged)
    against = ("classes" if w.labelled is not None
               else "mixture of its classes at the estimated prior")
    return _test_criterion(
        "score-shift", w, f, f.p_value, f" or PSI < {sig(judged[0].psi_min)}",
        f"Scores against the reference's {against}: {parts}.")


_BUILDERS = {"cost-drift": _cost_drift,
             "choice": lambda w, f, s: _choice_criterion(w, f, s.min_saving),
             "score-shift": _shift_criterion}


def criteria(report) -> list[Criterion]:
    """One criterion per window and finding (a WARN is reported as INFO: it never fails);
    a window without any finding gets an INFO line of its prevalence."""
    out = []
    for w in report.result.windows:
        for f in w.findings:
            c = _BUILDERS[f.criterion](w, f, report.result.settings)
            if f.status == WARN:
                c = Criterion(c.name, c.model, c.status, c.value, c.shown, c.limit,
                              f"WARNING: {c.message}")
            out.append(c)
        if not w.findings:
            e = w.prevalence[0]
            out.append(Criterion("prevalence", w.name, INFO, e.value, sig(e.value),
                                 f"{e.method.upper()} [{sig(e.low)}, {sig(e.high)}]",
                                 f"Share of positives {e.method.upper()} {sig(e.value)}."))
    return out

