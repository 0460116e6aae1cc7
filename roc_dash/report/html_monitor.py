"""A monitor run as one self-contained HTML page (``roc-dash monitor --format html``): the
status, the decision, the criteria of every window, the windows' numbers beside the
record's, the score comparisons, the operating point's path in ROC space and the prior and
costs over time (Plotly figures with plotly.js inlined, compressed: :mod:`.html_plotly`)."""

from __future__ import annotations

import datetime as _dt
import html
import math

from .. import __version__
from ..figures.monitoring import ESTIMATE_NAMES, monitor_roc_figure, monitor_time_figure
from ..figures.style import GRAPH_CONFIG
from ..text.rounding import rule_threshold, sig, signed
from .html import CSS
from .html_plotly import figure_div, plotly_loader_html

__all__ = ["render_monitor_html", "monitor_section_html"]

_STATUS_CSS = """
.status{font-size:1.4rem;font-weight:700;padding:.4rem .8rem;border-radius:6px;
display:inline-block}.held{background:#e6f4ea;color:#135e2c}.drift{background:#fde8e8;
color:#8a1c1c}.warning{background:#fff4d6;color:#6b4e00}td.FAIL{color:#8a1c1c;
font-weight:700}td.WARN{color:#6b4e00;font-weight:700}td.PASS{color:#135e2c}
"""


def _cell(value, css: str = "") -> str:
    cls = f' class="{css}"' if css else ""
    return f"<td{cls}>{html.escape(str(value))}</td>"


def _rows_table(head: list[str], rows: list[list]) -> str:
    """A table; a cell is a value, or ``(value, css class)``."""
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(_cell(*c) if isinstance(c, tuple) else _cell(c)
                                     for c in r) + "</tr>" for r in rows)
    return f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def _interval(e) -> str:
    if e is None or not math.isfinite(e.value):
        return "n/a"
    if not (math.isfinite(e.low) and math.isfinite(e.high)):
        return sig(e.value)
    return f"{sig(e.value)} [{sig(e.low)}, {sig(e.high)}]"


def _decision_html(report) -> str:
    rec = report.record
    m, i = rec.metrics, rec.intervals

    def with_interval(key: str) -> str:
        value = sig(getattr(m, key))
        if i is None:
            return value
        low, high = getattr(i, key)
        return f"{value} [{sig(low)}, {sig(high)}]"

    return _rows_table(["Decision (record)", ""], [
        ["Model", rec.model], ["Rule", f"flag iff score ≥ {rule_threshold(rec.threshold)} "
                                       f"({rec.how_chosen})"],
        ["Costs", f"c(FP) {sig(rec.cost_fp)}, c(FN) {sig(rec.cost_fn)}, b(TP) "
                  f"{sig(rec.benefit_tp)}, b(TN) {sig(rec.benefit_tn)} {rec.unit}".strip()],
        ["Deployment prior p(+)", sig(rec.prior_pos)],
        ["TPR", with_interval("tpr")], ["FPR", with_interval("fpr")],
        ["Precision at the prior", with_interval("precision")],
        ["Expected cost per case", with_interval("expected_cost")],
        ["Taken on", f"{rec.n_rows:,} rows, {rec.created_utc}"]])


def _windows_html(result) -> str:
    rows = []
    for w in result.windows:
        prior = {e.method: _interval(e) for e in w.prevalence}
        r = w.rederived
        rows.append([
            w.name, f"{w.rows:,}", "yes" if w.labelled is not None else "no",
            _interval(w.flagged), prior.get("labels", "—"), prior.get("em", "—"),
            prior.get("pacc", "—"), prior.get("acc", "—"),
            "—" if r is None else f"≥ {rule_threshold(r.choice.threshold)}",
            "—" if r is None else sig(r.deployed_cost.value),
            "—" if r is None else sig(r.choice.expected_cost), (w.status, w.status)])
    return _rows_table(["Window", "Rows", "Labels", "Share flagged", "p(+) counted",
                        "p(+) EM", "p(+) PACC", "p(+) ACC", "Optimum at p(+)",
                        "Cost staying", "Cost switching", "Status"], rows)


def _labelled_html(result, record) -> str:
    rows = []
    for w in result.windows:
        m = w.labelled
        if m is None:
            continue
        rows.append([w.name, _interval(m.tpr), _interval(m.fpr), _interval(m.precision),
                     _interval(m.flagged), _interval(m.expected_cost),
                     signed(m.drift.difference), f"{m.drift.p_value:.3g}",
                     f"≥ {rule_threshold(m.optimum.threshold)}", sig(m.cost.value),
                     sig(m.optimum.expected_cost)])
    if not rows:
        return ""
    rec = record.metrics
    head = ["Window", f"TPR (record {sig(rec.tpr)})", f"FPR (record {sig(rec.fpr)})",
            "Precision", "Share flagged",
            f"Cost at the record's prior (record {sig(rec.expected_cost)})", "Δ cost",
            "Drift p-value", "Window's optimum", "Cost staying", "Cost switching"]
    return ("<h2>Labelled windows</h2><p class=\"muted\">At the record's threshold; precision "
            "and share flagged at the window's own class mix; the window's optimum is chosen "
            "on the window itself (in-sample, optimistic).</p>" + _rows_table(head, rows))


def _shifts_html(result) -> str:
    def flag(w, x):
        judged = ("positives", "negatives") if w.labelled is not None else ("prior-adjusted",)
        if not x.shifted:
            return "—"
        return ("shifted", "WARN") if x.comparison in judged else "differs"

    rows = [[w.name, x.comparison, sig(x.ks), f"{x.p_value:.3g}", sig(x.psi), flag(w, x)]
            for w in result.windows for x in w.shifts]
    if not rows:
        return ""
    return ("<h2>Score distributions</h2><p class=\"muted\">Kolmogorov–Smirnov and PSI "
            "against the reference: as before (moves with the prior), at the window's prior "
            "(what the prior cannot explain), and class by class where labels exist.</p>"
            + _rows_table(["Window", "Against", "KS D", "p-value", "PSI", ""], rows))


def _criteria_html(report) -> str:
    status_of = {(w.name, f.criterion): f.status for w in report.result.windows
                 for f in w.findings}
    rows = [[c.model, c.name, (status_of.get((c.model, c.name), c.status),
                               status_of.get((c.model, c.name), c.status)),
             c.shown, c.limit, c.message] for c in report.criteria()]
    return _rows_table(["Window", "Criterion", "Status", "Value", "Limit", "What"], rows)


def render_monitor_html(report) -> str:
    """The page of a :class:`~roc_dash.decision.monitoring.MonitorReport`."""
    result, s = report.result, report.result.settings
    when = _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    figures = ""
    if result.windows:
        figures = ("<h2>Operating point's path</h2>"
                   + figure_div(monitor_roc_figure(result), "monitor-roc", GRAPH_CONFIG)
                   + "<h2>Over time</h2>"
                   + figure_div(monitor_time_figure(result), "monitor-time", GRAPH_CONFIG)
                   + plotly_loader_html())
    window_notes = "".join(f"<li>{html.escape(w.name)}: {html.escape(n)}</li>"
                           for w in result.windows for n in w.notes)
    estimators = ", ".join(ESTIMATE_NAMES[k] for k in ("em", "pacc", "acc"))
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>roc-dash monitor</title>
<style>{CSS}{_STATUS_CSS}</style></head><body>
<h1>roc-dash monitor</h1>
<p class="muted">roc-dash {__version__}, {when}. Level {s.level:.0%}; false-alarm rate
{sig(s.alpha)} per run under no change ({sig(result.alpha_per_test)} per failing test;
score tests at {sig(result.shift_alpha)}, a warning{" that fails" if s.fail_on_shift else ""});
{s.replicates} bootstrap replicates (seed {s.seed}); priors estimated by {estimators}, the
choice re-derived at {ESTIMATE_NAMES[s.estimator]}'s (a labelled window's counted one).</p>
{_body(report)}
{"<h2>Notes</h2><ul>" + window_notes + "</ul>" if window_notes else ""}
{figures}
</body></html>
"""


def _body(report) -> str:
    """The status, the run's notes, the decision, the criteria and the windows' tables."""
    result = report.result
    notes = "".join(f"<li>{html.escape(n)}</li>" for n in report.notes)
    return f"""<p><span class="status {result.status}">{"Decision held"
                                         if result.status == "held" else "Drift"}</span></p>
{"<ul>" + notes + "</ul>" if notes else ""}
{_decision_html(report)}
<h2>Criteria</h2>{_criteria_html(report)}
<h2>Windows</h2>{_windows_html(result)}
{_labelled_html(result, report.record)}
{_shifts_html(result)}"""


def _pins_html(pins) -> str:
    if not pins:
        return ""
    items = "".join(
        f"<li>{html.escape(p.window)}: score ≥ {rule_threshold(p.threshold)}, FPR {sig(p.fpr)}, TPR "
        f"{sig(p.tpr)} ({'its labels' if p.rates == 'labels' else 'the reference ROC'}), "
        f"expected cost {sig(p.expected_cost)} per case at p(+) {sig(p.prior_pos)}</li>"
        for p in pins)
    return f'<h3>Thresholds pinned per window</h3><ul class="monitor-pins">{items}</ul>'


def monitor_section_html(report, *, title: str = "Monitor", pins=()) -> str:
    """The monitor run as a section of the page's HTML report (:func:`~.html.render_html`,
    whose plotly.js loader, placed after it, draws its figures): the status, the decision
    checked, the criteria, the windows and the two figures, as :func:`render_monitor_html`
    shows them."""
    result = report.result
    figures = ""
    if result.windows:
        figures = (figure_div(monitor_roc_figure(result, pins=pins), "monitor-roc",
                              GRAPH_CONFIG)
                   + figure_div(monitor_time_figure(result, pins=pins), "monitor-time",
                                GRAPH_CONFIG))
    return f"""<section class="monitor-section"><style>{_STATUS_CSS}</style>
<h2>{html.escape(title)}</h2>
{_body(report)}
{_pins_html(pins)}
{figures}
</section>
"""
