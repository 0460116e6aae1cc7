"""The *Monitor* tab's table and status line, from the monitor's report (the JSON of
:meth:`roc_dash.core.monitoring.MonitorReport.to_dict`, so the page's numbers are
``roc-dash monitor``'s) and the tab's outcome (:func:`roc_dash.app.monitoring.page_monitor`).
"""

from __future__ import annotations

from dash import html

from ..figures.monitoring import ESTIMATE_NAMES
from ..figures.style import format_threshold
from ..text.rounding import sig

__all__ = ["window_rows", "monitor_table", "monitor_status", "ESTIMATED_SHIFT_HINT"]


def _est(e) -> str:
    if e is None:
        return "–"
    return f"{sig(e['value'])} [{sig(e['low'])}, {sig(e['high'])}]"


def window_rows(doc: dict) -> list[dict]:
    """One row per window of the report's JSON (:meth:`MonitorReport.to_dict`): what the
    tab's table shows, so the page's numbers are the command line's."""
    rows = []
    for w in doc["windows"]:
        lab, red = w["labelled"], w["rederived"]
        prior = w["prevalence"].get(w["prior_used"]) if w["prior_used"] else None
        if lab is not None:
            stay, switch = lab["cost"], lab["optimum"]["expected_cost"]
            threshold = lab["optimum"]["threshold"]
        elif red is not None:
            stay, switch = red["deployed_cost"], red["choice"]["expected_cost"]
            threshold = red["choice"]["threshold"]
        else:
            stay = switch = threshold = None
        flags = {f["criterion"]: f["status"] for f in w["findings"]}
        rows.append({
            "window": w["name"], "rows": w["rows"], "labels": lab is not None,
            "prior": prior, "prior_method": w["prior_used"], "threshold": threshold,
            "staying": stay, "switching": switch, "flags": flags, "status": w["status"]})
    return rows


#: How a window's share of positives was had, in the table's parentheses (one pair).
_PRIOR_BY = {**ESTIMATE_NAMES, "labels": "counted from labels"}

#: The cost columns, which say at which prior they are.
_STAY, _SWITCH = "Cost at its own p(+): staying", "Cost at its own p(+): switching"

#: The cells coloured by what they say (assets/style.css: ``.flag-*``).
_FLAGS = ("held", "drift", "PASS", "FAIL", "WARN")


def _pin_cell(pin) -> str:
    if pin is None:
        return "–"
    return f"≥ {format_threshold(pin.threshold)}: cost {sig(pin.expected_cost)}"


def monitor_table(doc: dict, pins=()):
    head = ["Window", "Rows", "Share of positives", "Threshold if chosen again",
            _STAY, _SWITCH, "Cost drift", "Choice", "Score shift", "Status", "Pinned"]
    titles = {"Threshold if chosen again": (
        "A window with labels: its own optimum (in sample, as `roc-dash monitor` reports "
        "it under labelled.optimum); without labels: the optimum re-derived on the "
        "reference's hull at the window's estimated share of positives (rederived.choice)"),
        _STAY: ("the expected cost per case of the record's threshold at the window's own "
                "share of positives (the Share of positives column), under the record's "
                "costs: what the window cost (labelled.cost, else rederived.deployed_cost). "
                "At the record's prior it is labelled.expected_cost, which the Cost drift "
                "test compares with the record's"),
        _SWITCH: ("the expected cost per case at the threshold chosen again, at the window's "
                  "own share of positives and the record's costs")}
    pinned = {p.window: p for p in pins}
    body = []
    for r in window_rows(doc):
        stay = r["staying"]
        stay_text = _est(stay) if isinstance(stay, dict) else (
            "–" if stay is None else sig(stay))
        cells = [r["window"], f"{r['rows']:,}",
                 (_est(r["prior"]) + f" ({_PRIOR_BY.get(r['prior_method'], '')})")
                 if r["prior"] else "–",
                 "–" if r["threshold"] is None else format_threshold(r["threshold"]),
                 stay_text, "–" if r["switching"] is None else sig(r["switching"]),
                 *(r["flags"].get(c, "–") for c in ("cost-drift", "choice", "score-shift")),
                 r["status"], _pin_cell(pinned.get(r["window"]))]
        body.append(html.Tr([html.Td(c, className=f"flag-{c.lower()}" if c in _FLAGS
                                     else None) for c in cells],
                            className=f"window-{r['status']}"))
    return html.Table(className="table monitor-table", children=[
        html.Thead(html.Tr([html.Th(h, title=titles.get(h)) for h in head])),
        html.Tbody(body)])


def monitor_status(outcome) -> list:
    report = outcome.report
    doc_status = report.status
    held = "The decision held in every window." if doc_status == "held" else \
        "Drift: a window failed a criterion (see the table)."
    r = report.record
    n = len(report.result.windows)
    return [html.Strong(held, className=f"monitor-{doc_status}"), " ",
            html.Span(f"Checked: {outcome.reference_label} at score ≥ "
                      f"{format_threshold(r.threshold)}, on {n} window"
                      f"{'s' if n != 1 else ''}."),
            *(html.P(note, className="banner warn" if note in outcome.left_out else "muted")
              for note in report.notes),
            *([html.P(ESTIMATED_SHIFT_HINT, className="muted monitor-hint")]
              if _shift_on_estimates(report) else [])]


#: Said once under the status when a window's Score shift is judged against its estimated
#: prior (no labels): what that PASS or WARN takes for granted (docs/monitoring.md, Limits;
#: stranger review 11: a PASS with the labels set aside, a WARN with them).
ESTIMATED_SHIFT_HINT = (
    "Without labels, Score shift and the shares of positives are estimates that assume each "
    "class's scores stay as in the reference: a change within a class can read as a "
    "change of p(+) and pass (see Limits in the monitoring guide).")


def _shift_on_estimates(report) -> bool:
    """Whether a window without labels has a Score shift finding."""
    return any(w.labelled is None and any(f.criterion == "score-shift" for f in w.findings)
               for w in report.result.windows)
