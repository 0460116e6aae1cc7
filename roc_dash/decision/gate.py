"""The criteria of ``roc-dash check``: a CI gate on prediction files.

Each criterion gives one :class:`Criterion` (PASS, FAIL, or INFO for what is only reported);
:func:`summary_text` prints them one per line and :func:`junit_xml` writes them as JUnit
test cases, one per criterion, so a CI server shows which one failed.

* :func:`min_auc` -- the model's AUC (pooled, as the report) is at least a limit;
* :func:`max_expected_cost` -- the expected cost per case at the model's own optimum under
  the given costs and prior (Fawcett 2004, section 7.1) is at most a limit;
* :func:`not_worse_than` -- the model's AUC is not worse than a baseline's by a margin:
  DeLong's paired test, one-sided (:func:`~roc_dash.core.inference.noninferiority.delong_noninferiority_test`);
  the margin is required, and a margin of 0 is named a superiority test;
* :func:`recheck_decision` -- a shipped decision record (:mod:`roc_dash.decision`) on new
  data: its threshold applied to the model's new scores, the expected cost under the
  record's own costs and prior tested against the record's (a one-sided two-sample test
  with a stated false-alarm rate, :mod:`roc_dash.core.decisions.drift`), the rates and precision
  reported against the record's intervals, and whether the data are the same
  (fingerprint).
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass

import pandas as pd

from ..core.analysis_types import Analysis
from ..core.assembly.analysis import paired_rows
from ..core.decisions.data_fingerprint import data_fingerprint
from ..core.decisions.drift import (
    CHOICE_METHOD,
    CostReference,
    cost_drift_test,
    reference_from_counts,
)
from ..core.decisions.economics import expected_cost_per_case, precision_at_prior
from ..core.inference.noninferiority import delong_noninferiority_test
from ..core.roc.confusion import confusion_at_threshold
from ..text.rounding import rule_threshold, sig
from . import DecisionRecord, model_rows

__all__ = ["Criterion", "CheckInputError", "min_auc", "max_expected_cost", "not_worse_than",
           "recheck_decision", "summary_text", "junit_xml", "exit_status", "fmt",
           "cost_reference_of"]

PASS, FAIL, INFO = "PASS", "FAIL", "INFO"


class CheckInputError(ValueError):
    """A criterion cannot be evaluated on these inputs (exit status 2); the message says
    what and what to do."""


@dataclass(frozen=True)
class Criterion:
    """One line of the check.

    Attributes
    ----------
    name : str
        E.g. ``"min-auc"``, ``"not-worse-than"``, ``"decision-expected-cost"``.
    model : str
        The model it is about.
    status : str
        ``"PASS"``, ``"FAIL"`` or ``"INFO"`` (reported, never fails).
    value : float
        The number compared (NaN for a fingerprint).
    shown : str
        ``value`` as printed.
    limit : str
        The limit as printed, e.g. ``">= 0.9"``.
    message : str
        What was computed and how, one sentence or two.
    """

    name: str
    model: str
    status: str
    value: float
    shown: str
    limit: str
    message: str

    @property
    def label(self) -> str:
        return f"{self.name}[{self.model}]"


def fmt(v) -> str:
    """A number with 6 significant digits ("n/a" for None or NaN): the one rounding rule
    (:func:`roc_dash.text.rounding.sig`)."""
    return sig(v)


def _status(ok: bool) -> str:
    return PASS if ok else FAIL


def min_auc(analysis: Analysis, model: str, limit: float) -> Criterion:
    """PASS iff the model's AUC (its pooled ROC curve's area) is ``>= limit``."""
    m = analysis.model(model)
    ci = m.auc_ci
    interval = (f"; {ci.level:.0%} DeLong interval [{fmt(ci.low)}, {fmt(ci.high)}]"
                if ci is not None else "")
    return Criterion("min-auc", model, _status(m.auc >= limit), m.auc, fmt(m.auc),
                     f">= {fmt(limit)}",
                     f"AUC {fmt(m.auc)} on {m.n_rows} rows{interval}.")


def max_expected_cost(analysis: Analysis, model: str, limit: float) -> Criterion:
    """PASS iff the expected cost per case at the model's own optimum (its hull vertex
    under the analysis' costs and prior, benefits subtracted) is ``<= limit``."""
    m = analysis.model(model)
    c = analysis.conditions
    op = m.optimal
    return Criterion(
        "max-expected-cost", model, _status(op.expected_cost <= limit), op.expected_cost,
        fmt(op.expected_cost), f"<= {fmt(limit)}",
        f"Expected cost per case {fmt(op.expected_cost)} at the model's optimum (flag iff "
        f"score >= {rule_threshold(op.threshold)}: TPR {fmt(op.tpr)}, FPR {fmt(op.fpr)}) with "
        f"c(FP) {fmt(c.cost_fp - c.benefit_tn)}, c(FN) {fmt(c.cost_fn - c.benefit_tp)}, "
        f"prior p(+) {fmt(c.prior_pos)}.")


def _model_frame(table: pd.DataFrame, name: str) -> pd.DataFrame:
    return table[table["model"].astype(str) == name]


def not_worse_than(table: pd.DataFrame, model: str, baseline: str, *, margin: float,
                   alpha: float = 0.05) -> Criterion:
    """PASS iff DeLong's one-sided test rejects ``H0: AUC_model − AUC_baseline <= −margin``
    at level ``alpha`` (the two models' rows paired as the report pairs them: by ``id``, else
    by row order with equal labels and weights).

    ``margin`` has no default: it is the AUC loss the team accepts. With ``margin > 0`` this
    is a non-inferiority test; with ``margin = 0`` it is a one-sided **superiority** test
    (the model must be shown better than the baseline: a model equal to it fails, with
    ``p = 1/2`` at identical scores), and the message says so.

    Raises
    ------
    CheckInputError
        When the rows cannot be paired (aggregated input, soft labels, other rows).
    """
    if "rows" in table.columns:
        raise CheckInputError(
            "--not-worse-than needs the rows themselves, but the input was aggregated to "
            "counts (an engine); run with --engine memory")
    a, b = _model_frame(table, model), _model_frame(table, baseline)
    if "label_prob" in table.columns:
        raise CheckInputError("--not-worse-than: DeLong's paired test needs hard labels; "
                              "these are soft labels")
    pair = paired_rows(a, b)
    if pair is None:
        raise CheckInputError(
            f"--not-worse-than: cannot pair the rows of {model!r} ({len(a)} rows) with those "
            f"of {baseline!r} ({len(b)} rows). Give both models' predictions for the same "
            "cases: an id column, or the same rows in the same order with the same labels")
    y, sm, sb, w, how = pair
    try:
        t = delong_noninferiority_test(y, sm, sb, margin=margin, alpha=alpha, weights=w)
    except ValueError as exc:
        raise CheckInputError(f"--not-worse-than: {exc}") from None
    kind = (f"A non-inferiority test with margin {fmt(margin)}." if margin else
            "A superiority test (margin 0): the model must be shown better than the "
            "baseline; give --margin for non-inferiority.")
    return Criterion(
        "not-worse-than", model, _status(t.non_inferior), t.p_value, f"p = {fmt(t.p_value)}",
        f"p < {fmt(alpha)}",
        f"AUC {fmt(t.auc_model)} vs {baseline} {fmt(t.auc_baseline)}: difference "
        f"{fmt(t.auc_difference)} (DeLong SE {fmt(t.std_error)}, {len(y)} rows paired by "
        f"{how}); H0: difference <= {fmt(-margin) if margin else '0'}; z = {fmt(t.z)}, one-sided "
        f"p = {fmt(t.p_value)}; {1 - alpha:.0%} lower bound {fmt(t.lower_bound)}. {kind}")


def _interval(record: DecisionRecord, key: str) -> tuple[float, float] | None:
    """The record's ``(low, high)`` of a metric, or None without one."""
    i = record.intervals
    if i is None:
        return None
    low, high = getattr(i, key)
    return None if math.isnan(low) or math.isnan(high) else (low, high)


def _compared(name, model, value, recorded, interval, what) -> Criterion:
    inside = (interval[0] <= value <= interval[1]) if interval and not math.isnan(value) \
        else None
    where = ("" if inside is None else " (inside the record's interval)" if inside
             else " (outside the record's interval)")
    span = f" [{fmt(interval[0])}, {fmt(interval[1])}]" if interval else ""
    return Criterion(name, model, INFO, value, fmt(value), f"record {fmt(recorded)}{span}",
                     f"{what} {fmt(value)} on these data, {fmt(recorded)} in the "
                     f"record{where}.")


def cost_reference_of(record: DecisionRecord) -> CostReference:
    """The record's side of the drift test (``roc-dash check --decision`` and the Monitor's
    windows): its confusion matrix, and for a threshold chosen as the optimum of its data
    the correction for that choice when the record has it (records written before it have
    not, nor thresholds chosen under a capacity or floors: the message says what that
    means)."""
    d = record.drift_reference
    correction = (d.optimism, d.std_error) if d is not None and d.method == CHOICE_METHOD \
        else None
    m = record.metrics
    return reference_from_counts(
        record.threshold, m.tp, m.fp, m.fn, m.tn, prior_pos=record.prior_pos,
        economics=record.economics, chosen=record.how_chosen != "pinned",
        correction=correction)


def _drift_criterion(record, name, counts, cost, cost_tolerance, alpha) -> Criterion:
    """The expected-cost criterion: the drift test of :mod:`~roc_dash.core.decisions.drift` (a stated
    false-alarm rate ``alpha``), or a fixed ``cost_tolerance`` over the record's cost."""
    p = record.prior_pos
    said = (f"Flag iff score >= {fmt(record.threshold)} (the record's threshold): expected "
            f"cost per case {fmt(cost)} under the record's costs and prior p(+) {fmt(p)} "
            f"(TP {fmt(counts.tp)}, FP {fmt(counts.fp)}, FN {fmt(counts.fn)}, TN "
            f"{fmt(counts.tn)})")
    recorded = record.metrics.expected_cost
    if cost_tolerance is not None:
        limit = recorded + float(cost_tolerance)
        return Criterion(
            "decision-expected-cost", name, _status(cost <= limit), cost, fmt(cost),
            f"<= {fmt(limit)}",
            f"{said}; allowed: the record's {fmt(recorded)} plus {fmt(cost_tolerance)} "
            "(--cost-tolerance: a fixed tolerance, no false-alarm rate is claimed).")
    ref = cost_reference_of(record)
    t = cost_drift_test(ref, counts.tp, counts.fp, counts.fn, counts.tn, alpha=alpha)
    if ref.corrected:
        base = (f"the record's {fmt(recorded)} corrected by {fmt(ref.optimism)} for choosing "
                f"its threshold on its own data, {fmt(ref.cost)}")
    elif ref.chosen:
        why = ("the record predates that correction: write it again with `roc-dash decide`"
               if record.how_chosen == "optimum" else
               f"chosen under its {record.how_chosen}, for which no correction is made")
        base = (f"the record's {fmt(recorded)}, not corrected for choosing its threshold on "
                f"its own data ({why}): false alarms are more frequent than {alpha:.0%}")
    else:
        base = f"the record's {fmt(recorded)} (a pinned threshold)"
    return Criterion(
        "decision-expected-cost", name, _status(not t.drifted), cost, fmt(cost),
        f"<= {fmt(t.limit)}",
        f"{said}; reference: {base}. One-sided test of no worsening, {alpha:.0%} false "
        f"alarms under no change: difference {fmt(t.difference)}, standard error "
        f"{fmt(t.std_error)} (both samples), z = {fmt(t.z)}, p = {fmt(t.p_value)}; allowed "
        f"up to {fmt(t.limit)} (+{fmt(t.tolerance)}).")


def recheck_decision(record: DecisionRecord, table: pd.DataFrame, model: str | None = None,
                     *, cost_tolerance: float | None = None,
                     alpha: float = 0.05) -> list[Criterion]:
    """Re-check a shipped decision on new data.

    The record's threshold is applied to the model's new scores ("positive iff score >=
    threshold"); the expected cost per case is computed under the record's costs, benefits
    and prior (so only the new TPR and FPR differ). By default it fails when the one-sided
    drift test of :func:`~roc_dash.core.decisions.drift.cost_drift_test` finds it worse than the
    record's at level ``alpha``: the false-alarm rate under no change, accounting for both
    samples' errors and, for a record at its optimum, for the choice of the threshold on
    the record's data (records without ``drift_reference`` cannot account for that: the
    message says so). With ``cost_tolerance`` it fails when the cost exceeds the record's
    plus that fixed tolerance (no false-alarm rate claimed). TPR, FPR and precision at the
    record's prior are reported (INFO) against the record's values and intervals, and the
    data's fingerprint against the record's (INFO).

    Raises
    ------
    CheckInputError
        The model is not in the data, or its rows lack a class.
    """
    name = model or record.model
    try:
        y, s, w = model_rows(table, name)
        counts = confusion_at_threshold(y, s, record.threshold, weights=w)
    except ValueError as exc:
        raise CheckInputError(f"--decision: {exc}") from None
    if not (counts.n_pos > 0 and counts.n_neg > 0):
        raise CheckInputError(f"--decision: the rows of {name!r} have no "
                              f"{'positive' if counts.n_neg > 0 else 'negative'} case; the "
                              "re-check needs both classes")
    p, e = record.prior_pos, record.economics
    fpr, tpr = counts.fpr, counts.tpr
    cost = float(expected_cost_per_case(fpr, tpr, p, e))
    try:
        out = [_drift_criterion(record, name, counts, cost, cost_tolerance, alpha)]
    except ValueError as exc:
        raise CheckInputError(f"--decision: {exc}") from None
    precision = float(precision_at_prior(fpr, tpr, p))
    for key, value, what in (("tpr", tpr, "TPR"), ("fpr", fpr, "FPR"),
                             ("precision", precision, "Precision at the record's prior")):
        interval = _interval(record, key)
        out.append(_compared(f"decision-{key}", name, value, getattr(record.metrics, key),
                             interval, what))
    now = data_fingerprint(y, s, w)
    same = now == record.fingerprint
    out.append(Criterion(
        "decision-data", name, INFO, math.nan, "same data" if same else "other data",
        f"record {record.fingerprint[:15]}…",
        "The same predictions as the decision was taken on." if same else
        f"Other predictions than the decision's (fingerprint {now[:15]}…, record "
        f"{record.fingerprint[:15]}…)."))
    return out


def summary_text(criteria: list[Criterion]) -> str:
    """One line per criterion (status, criterion[model], value, limit, what was computed)
    and a last line counting the failures."""
    lines = [f"{c.status:<4}  {c.label}  {c.shown}  "
             f"({'' if c.status == INFO else 'limit '}{c.limit})  {c.message}"
             for c in criteria]
    failed = sum(c.status == FAIL for c in criteria)
    checked = sum(c.status != INFO for c in criteria)
    if failed:
        last = f"{failed} of {checked} {'criterion' if checked == 1 else 'criteria'} failed"
    else:
        last = "the 1 criterion passed" if checked == 1 else f"all {checked} criteria passed"
    lines.append(f"roc-dash check: {last}")
    return "\n".join(lines)


def junit_xml(criteria: list[Criterion], *, suite: str = "roc-dash check",
              timestamp: str | None = None) -> str:
    """JUnit XML: one ``<testcase>`` per criterion (INFO ones pass), a ``<failure>`` with the
    message for each FAIL, the message as ``<system-out>`` of every test case."""
    failures = sum(c.status == FAIL for c in criteria)
    counts = {"tests": str(len(criteria)), "failures": str(failures), "errors": "0",
              "skipped": "0", "time": "0"}
    root = ET.Element("testsuites", {"name": suite, **counts})
    attrs = {"name": suite, **counts}
    if timestamp:
        attrs["timestamp"] = timestamp
    node = ET.SubElement(root, "testsuite", attrs)
    for c in criteria:
        case = ET.SubElement(node, "testcase", {"classname": "roc-dash.check",
                                                "name": c.label, "time": "0"})
        if c.status == FAIL:
            failure = ET.SubElement(case, "failure", {
                "message": f"{c.label}: {c.shown}, limit {c.limit}", "type": "CriterionFailed"})
            failure.text = c.message
        ET.SubElement(case, "system-out").text = (
            f"{c.status} {c.shown} ({'' if c.status == INFO else 'limit '}{c.limit}). "
            f"{c.message}")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode")


def exit_status(criteria: list[Criterion]) -> int:
    """0 when no criterion failed, else 1."""
    return 1 if any(c.status == FAIL for c in criteria) else 0
