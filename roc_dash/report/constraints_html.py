"""The HTML report's sections of the constraints: capacity (gains, lift, CAP, KS), floors
with how sure they are to hold, calibration with its uncertainty, PR bands, and decisions
among several classes; tables from the same numbers as the JSON keys
(:mod:`roc_dash.report.constraints`) and figures from :mod:`roc_dash.figures`, drawn by the
report's plotly loader (:mod:`roc_dash.report.html_plotly`).

These sections are computed at the report's costs and prior: the standalone report's
controls (other costs and priors, :mod:`roc_dash.report.html_interactive`) do not move them, and
each section says so.
"""

from __future__ import annotations

import html

from ..core.constraints.assembly import ConstraintSettings, ModelConstraints
from ..core.constraints.cost_matrix import CostMatrixDecision
from ..figures.calibration_bands import fit_text, reliability_band_figure
from ..figures.cost_matrix import confusion_figure, rule_costs_figure
from ..figures.floors import floor_figure
from ..figures.gains import gains_figure, ks_figure, lift_figure
from ..figures.pr_bands import pr_band_figure
from ..figures.style import format_threshold
from ..text.rounding import sig
from .html_plotly import figure_div

__all__ = ["constraints_html", "cost_matrix_html", "AT_REPORT_CONDITIONS"]

#: What each section says about the report's controls.
AT_REPORT_CONDITIONS = ("Computed at the report's costs and prior; the controls for other "
                        "costs and priors do not change this section.")

_CONFIG = {"displaylogo": False}


def _table(head, rows, *, text=(0,)) -> str:
    """A table; the columns ``text`` are left-aligned words, the others numbers."""
    th = "".join(f"<th>{html.escape(str(h))}</th>" for h in head)
    body = "".join("<tr>" + "".join(
        f'<td class="{"" if i in text else "num"}">{html.escape(str(v))}</td>'
        for i, v in enumerate(r)) + "</tr>" for r in rows)
    return f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def _fig(fig, div_id: str, title: str, height: int = 420) -> str:
    fig.update_layout(height=height)
    return f"<div><h3>{html.escape(title)}</h3>{figure_div(fig, div_id, _CONFIG)}</div>"


def _share(v) -> str:
    return "n/a" if v != v else f"{100 * v:.1f}%"


def _capacity_html(models: list[ModelConstraints]) -> str:
    caps = [m for m in models if m.capacity is not None]
    rows = [[m.name, sig(m.gains.accuracy_ratio), sig(m.ks.statistic),
             "score ≥ " + format_threshold(m.ks.threshold)] for m in models]
    out = ["<h2>Gains, lift, CAP and KS</h2>", f'<p class="muted">{AT_REPORT_CONDITIONS}</p>',
           _table(["Model", "Accuracy ratio (CAP)", "KS", "KS at"], rows)]
    if caps:
        cp0 = caps[0].capacity
        out.append(f"<h2>Capacity: {cp0.capacity:,.6g} of {cp0.n_total:,.6g} cases "
                   f"({_share(cp0.queue_rate)})</h2>")
        out.append(_table(
            ["Model", "Precision@K", "Recall@K", "Lift", "Binds", "Best single threshold",
             "Its expected cost", "On the hull (Fawcett)"],
            [[m.name, sig(m.capacity.precision), sig(m.capacity.recall), sig(m.capacity.lift),
              "yes" if m.capacity.binding else "no",
              ("none" if m.capacity.decision.index is None else
               "score ≥ " + format_threshold(m.capacity.decision.threshold)),
              sig(m.capacity.decision.expected_cost), m.capacity.mix.how] for m in caps],
            text=(0, 4, 7)))
    cap = caps[0].capacity if caps else None
    figs = [_fig(gains_figure({m.name: m.gains for m in models}, capacity=cap),
                 "rr-gains", "Cumulative gains (CAP)"),
            _fig(lift_figure({m.name: m.gains for m in models}, capacity=cap), "rr-lift",
                 "Lift")]
    first = models[0]
    figs.append(_fig(ks_figure(first.name, first.gains, first.ks), "rr-ks",
                     f"KS plot: {first.name}"))
    return "\n".join(out) + f'<div class="grid">{"".join(figs)}</div>'


def _floors_html(models: list[ModelConstraints], curves: dict) -> str:
    fl = [m for m in models if m.floors is not None]
    if not fl:
        return ""
    d0 = fl[0].floors
    what = ", ".join(f.text for f in d0.floors)
    out = [f"<h2>Floors: {html.escape(what)}</h2>",
           f'<p class="muted">{AT_REPORT_CONDITIONS} "How sure": the metric\'s interval at '
           "the threshold, the share of bootstrap replicates in which the floor holds there, "
           "and the share of replicates whose own choice holds on the data (the procedure "
           "\"choose on this much data\").</p>"]
    rows, sure = [], []
    for m in fl:
        d = m.floors
        rows.append([m.name, "yes" if d.feasible else "no",
                     "none" if d.index is None else "score ≥ " + format_threshold(d.threshold),
                     sig(d.expected_cost), sig(d.cost_of_floors), sig(d.best_cost)])
        if m.floor_confidence is not None:
            for h in m.floor_confidence.holds:
                sure.append([m.name, h.floor.text, sig(h.estimate),
                             f"[{sig(h.shown[0])}, {sig(h.shown[1])}] {h.shown[2]}",
                             f"{sig(h.bound)} ({h.bound_method})",
                             _share(h.holds_share), _share(h.procedure_share)])
    out.append(_table(["Model", "Feasible", "Best single threshold", "Expected cost",
                       "Cost of the floors", "Best on the hull (mixed)"], rows, text=(0, 1)))
    if sure:
        lvl = fl[0].floor_confidence.level if fl[0].floor_confidence else 0.95
        out.append(_table(["Model", "Floor", "At the threshold", f"{lvl:.0%} interval",
                           "One-sided bound", "Holds (replicates)", "Holds (chosen again)"],
                          sure, text=(0, 1)))
    # each model's notes under its name, in the table's order (stranger review 12: "No
    # threshold of the model meets…" three times, and no model named)
    notes = list(dict.fromkeys((m.name, n) for m in fl for n in m.floors.notes))
    if notes:
        out.append("<ul>" + "".join(f"<li><strong>{html.escape(name)}</strong>: "
                                    f"{html.escape(n)}</li>" for name, n in notes) + "</ul>")
    figs = []
    for i, m in enumerate(fl[:4]):
        for space in ("roc", "pr"):
            figs.append(_fig(floor_figure(m.floors, curves.get(m.name), name=m.name, index=i,
                                          space=space),
                             f"rr-floors-{space}-{i}", f"{m.name}: floors in "
                             f"{'ROC' if space == 'roc' else 'PR'} space"))
    return "\n".join(out) + f'<div class="grid">{"".join(figs)}</div>'


def _calibration_html(models: list[ModelConstraints]) -> str:
    rows = [[m.name, fit_text(m.calibration)] for m in models]
    probs = {m.name: m.calibration for m in models if m.calibration.fit is not None}
    out = ["<h2>Calibration with its uncertainty</h2>",
           '<p class="muted">Calibration slope and intercept of the logistic recalibration '
           "logit P(y=1) = a + b·logit(p) (1 and 0 when calibrated), with Wald intervals; "
           "Spiegelhalter's z test of calibration; bands per bin of the reliability "
           "diagram.</p>", _table(["Model", "Calibration"], rows, text=(0, 1))]
    if probs:
        out.append(_fig(reliability_band_figure(probs), "rr-reliability-bands",
                        "Reliability with bands", height=480))
    return "\n".join(out)


def _pr_bands_html(models: list[ModelConstraints]) -> str:
    folds = {m.name: m.pr_fold_band for m in models if m.pr_fold_band is not None}
    boot = {m.name: m.pr_bootstrap_band for m in models if m.pr_bootstrap_band is not None}
    if not (folds or boot):
        return ""
    figs = []
    if folds:
        figs.append(_fig(pr_band_figure(folds), "rr-pr-fold-bands", "PR: fold bands",
                         height=560))
    if boot:
        figs.append(_fig(pr_band_figure(boot), "rr-pr-boot-bands", "PR: bootstrap bands",
                         height=560))
    return (f"<h2>Bands on the PR curve</h2><p class=\"muted\">{AT_REPORT_CONDITIONS}</p>"
            f'<div class="grid">{"".join(figs)}</div>')


def constraints_html(models: list[ModelConstraints], settings: ConstraintSettings, *,
                     curves: dict | None = None) -> str:
    """The sections (empty without models); ``curves`` maps a model to its ROC curve (drawn
    under the floors)."""
    if not models:
        return ""
    return "\n".join(part for part in (
        _capacity_html(models), _floors_html(models, curves or {}),
        _calibration_html(models), _pr_bands_html(models)) if part)


def cost_matrix_html(decisions: dict[str, CostMatrixDecision]) -> str:
    """Decisions among several classes: each model's rules' expected costs and the fitted
    rule's confusion matrix."""
    if not decisions:
        return ""
    out = ["<h2>Decisions among classes under the cost matrix</h2>",
           _table(["Model", "Fitted class weights", "Bayes rule", "One-vs-rest thresholds",
                   "Argmax", "Weights"],
                  [[n, sig(d.expected_cost), sig(d.bayes_cost), sig(d.ovr_cost),
                    sig(d.argmax_cost), ", ".join(sig(w) for w in d.weights)]
                   for n, d in decisions.items()])]
    figs = []
    for i, (n, d) in enumerate(list(decisions.items())[:3]):
        figs.append(_fig(confusion_figure(d), f"rr-confusion-{i}", f"{n}: confusion matrix"))
        figs.append(_fig(rule_costs_figure(d), f"rr-rule-costs-{i}", f"{n}: rules compared"))
    return "\n".join(out) + f'<div class="grid">{"".join(figs)}</div>'
