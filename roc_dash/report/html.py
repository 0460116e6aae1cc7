"""A self-contained HTML report of an analysis (``roc-dash report --format html`` and the
dashboard's "HTML report" button): the four views as interactive Plotly figures with
plotly.js inlined, compressed (no network needed to open it; :mod:`.html_plotly`), the conditions, the operating point and the
model table."""

from __future__ import annotations

import datetime as _dt
import html
from dataclasses import dataclass

import numpy as np

from .. import __version__
from ..core.analysis_types import Analysis
from ..core.decisions.decision_curve import (
    decision_curve_from_curve,
    hull_net_benefit,
    threshold_probability,
    treat_all_net_benefit,
)
from ..core.decisions.operating import OperatingSummary, operating_point
from ..core.inference.calibration import calibration_from_curve
from ..figures import cost_figure, pr_figure, roc_figure
from ..figures.style import apply_zoom, format_threshold
from ..text.rounding import sig, signed
from . import fmt as _fmt
from . import model_table_rows
from .comparison_text import (
    P_KINDS,
    cv_auc_text,
    fold_lines,
    optimal_range_text,
    p_text,
    unpaired_note,
)
from .html_interactive import CSS as INTERACTIVE_CSS
from .html_interactive import interactive_html
from .html_plotly import figure_div, plotly_loader_html

CSS = """
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;color:#1d2733;
max-width:1200px;margin:2rem auto;padding:0 1rem}
h1{margin-bottom:.2rem}.muted{color:#5b6775}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}th,td{padding:.3rem .6rem;
border-bottom:1px solid #dfe3e8;text-align:left}td.num{text-align:right;
font-variant-numeric:tabular-nums}.note{white-space:pre-wrap}
tr.delta th,tr.delta td{color:#7a8491;font-size:.9em}.summary{background:#fffdf4;
border:1px solid #efe2b3;padding:.6rem .8rem;border-radius:6px}.grid{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
"""


def _table(head, rows) -> str:
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join(
        "<tr>" + "".join(f'<td class="{"num" if i else ""}">{html.escape(str(v))}</td>'
                         for i, v in enumerate(r)) + "</tr>" for r in rows)
    return f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


@dataclass(frozen=True)
class ReportState:
    """What the dashboard shows beyond the analysis: carried into its HTML report."""

    averaging: str = "pooled"
    datasets: tuple[str, ...] = ()
    operating: OperatingSummary | None = None
    """The pinned point (or the optimum) shown in the dashboard."""
    link: str | None = None
    note: str = ""
    """The free-text note kept with the datasets."""
    pins: tuple[OperatingSummary, ...] = ()
    """Every pinned point (A, B, C): drawn in the figures and compared with the optimum."""
    summary: str = ""
    """The decision summary: the recommendation, with its uncertainty and sensitivity (plain
    text). It is the headline whatever is pinned."""
    pins_summary: str = ""
    """The pinned points compared with the recommendation, one sentence (plain text)."""
    views: tuple[tuple[str, str], ...] = ()
    """Saved views as ``(name, link)``."""
    chosen_by: str = ""
    """What chose :attr:`operating` when the costs alone did not: a capacity or floors
    ("the capacity of 3% cases"); the operating point's box says so."""
    constraints: str = ""
    """The capacity and floors the decision is under ("the capacity of 3% cases"), also
    when no threshold meets them: the cost and prior controls say they leave them out."""


_DIGITS = {"TPR (recall)": (3, False), "FPR": (3, False), "Precision at the prior": (3, False),
           "Flagged": (1, True), "Expected cost per case": (4, False),
           "Cost per 1,000 cases": (1, False)}


def _value(v: float, digits: int, pct: bool) -> str:
    """A share in % (``digits`` decimals); any other number by the one rounding rule."""
    if v != v:
        return "n/a"
    return f"{v * 100:.{digits}f}%" if pct else sig(v)


def _delta(v: float, digits: int, pct: bool) -> str:
    if v != v:
        return "n/a"
    if not pct:  # 0, or floating-point noise about it, unsigned
        return "0" if abs(v) < 1e-12 else signed(v)
    text = f"{v * 100:+.{digits}f}"
    if float(text) == 0:
        text = f"{0:.{digits}f}"
    return f"{text} pt"


def comparison_html(optimum: OperatingSummary, pins, first: str = "Optimum") -> str:
    """The optimum (or the recommendation under a capacity or floors, named ``first``) and
    the pins side by side with their Δ rows (as in the dashboard)."""
    import dataclasses

    from ..core.decisions.operating import compare_points

    cmp = compare_points(dataclasses.replace(optimum, pinned=False, label=""), list(pins),
                         first=first)
    head = "".join(f"<th>{html.escape(lab)}</th>" for lab in ("", *cmp.labels))
    rows = [["Model", *[p.model for p in cmp.points]],
            ["Threshold", *["≥ " + format_threshold(p.threshold) for p in cmp.points]]]
    body = "".join("<tr><th>" + html.escape(r[0]) + "</th>" + "".join(
        f'<td class="num">{html.escape(str(v))}</td>' for v in r[1:]) + "</tr>" for r in rows)
    for name, values, deltas in cmp.rows:
        digits, pct = _DIGITS.get(name, (3, False))
        body += ("<tr><th>" + html.escape(name) + "</th>" + "".join(
            f'<td class="num">{_value(v, digits, pct)}</td>' for v in values) + "</tr>")
        body += ('<tr class="delta"><th>Δ ' + html.escape(name.lower()) + "</th>" + "".join(
            f'<td class="num">{"" if k == 0 else _delta(d, digits, pct)}</td>'
            for k, d in enumerate(deltas)) + "</tr>")
    return (f'<table class="compare"><thead><tr>{head}</tr></thead><tbody>{body}</tbody>'
            "</table>")


def _extension_html(ext) -> str:
    """One section per report key beyond one binary scorer (see ``report.extension_sections``)."""
    if ext is None:
        return ""
    from . import extension_sections

    doc = extension_sections(ext)
    out = []
    if "input" in doc:
        i = doc["input"]
        what = {"multiclass": "multi-class", "soft": "soft labels",
                "costs": "example-specific costs", "leaves": "decision-tree leaves"}
        out.append(f'<p class="muted">Input: {html.escape(what.get(i["kind"], i["kind"]))}'
                   f' (column {html.escape(str(i["source_column"]))}).</p>')
    if "multiclass" in doc:
        mc = doc["multiclass"]
        cls = mc["classes"]
        out.append("<h2>Multi-class</h2>" + _table(
            ["Model", *[f"AUC({c})" for c in cls], "Weighted AUC", "Macro AUC",
             "Hand & Till M"],
            [[m["name"], *[_fmt(v) for v in m["auc_per_class"]], _fmt(m["auc_weighted"]),
              _fmt(m["auc_macro"]), _fmt(m["hand_till_m"])] for m in mc["models"]]))
        for m in mc["models"]:
            out.append(f"<h3>Pairwise AUC Â(i|j), {html.escape(m['name'])}</h3>" + _table(
                ["i \\ j", *cls],
                [[c, *[_fmt(v) for v in row]] for c, row in zip(cls, m["pairwise_auc"],
                                                                 strict=True)]))
    if "soft_labels" in doc:
        out.append("<h2>Soft labels</h2>" + _table(
            ["Model", "Instances", "n+", "n−", "AUC", "Interval"],
            [[m["name"], m["n_instances"], _fmt(m["n_pos"]), _fmt(m["n_neg"]),
              _fmt(m["auc"]),
              (f"[{_fmt(m['auc_ci']['low'])}, {_fmt(m['auc_ci']['high'])}] "
               f"({m['auc_ci']['method']})" if m["auc_ci"] else
               f"none: {m['auc_ci_reason']}")] for m in doc["soft_labels"]["models"]]))
    if "instance_costs" in doc:
        c = doc["instance_costs"]
        out.append(f"<h2>Example-specific costs</h2><p>ROC axes: {html.escape(c['x_axis'])} "
                   f"(x), {html.escape(c['y_axis'])} (y).</p>" + _table(
                       ["Model", "Total negative cost", "Total positive benefit", "AUC"],
                       [[m["name"], _fmt(m["total_negative_cost"]),
                         _fmt(m["total_positive_benefit"]), _fmt(m["auc"])]
                        for m in c["models"]]))
    if "leaves" in doc:
        for t in doc["leaves"]["trees"]:
            out.append(f"<h2>Decision-tree leaves: {html.escape(t['name'])}</h2>" + _table(
                ["Labeling", "Leaves labelled positive", "FPR", "TPR"],
                [[lab["name"], ", ".join(lab["positive_leaves"]) or "(none)",
                  _fmt(lab["fpr"]), _fmt(lab["tpr"])] for lab in t["labelings"]]))
    if "combining" in doc:
        b = doc["combining"]["budget"]
        rows = [["Joint hull", _fmt(b["best"]["fpr"]), _fmt(b["best"]["tpr"]),
                 _fmt(b["best"]["k"]), b["best"]["how"]]]
        if b["pair"]:
            rows.append(["Pair", _fmt(b["pair"]["fpr"]), _fmt(b["pair"]["tpr"]),
                         _fmt(b["pair"]["k"]), b["pair"]["how"]])
        rows += [[m["name"], _fmt(m["fpr"]), _fmt(m["tpr"]), _fmt(m["k"]), m["how"]]
                 for m in b["per_model"]]
        out.append(f"<h2>Budget: {b['budget_cases']:,.4g} of {b['n_total']:,.4g} cases</h2>"
                   + _table(["Where", "FPR", "TPR", "k", "How"], rows))
    if "concavity_repair" in doc:
        out.append("<h2>Concavity repair (Flach & Wu)</h2>" + _table(
            ["Model", "Concavities", "Repaired AUC", "Area gained"],
            [[r["name"], len(r["concavities"]), _fmt(r["repaired_auc"]),
              _fmt(sum(c["area_gain"] for c in r["concavities"]))]
             for r in doc["concavity_repair"]]))
    if "logical_combinations" in doc:
        lc = doc["logical_combinations"]
        e, a = lc["expected"], lc["actual"]
        rows = [["AND (independence)", _fmt(e["and"]["fpr"]), _fmt(e["and"]["tpr"])],
                ["OR (independence)", _fmt(e["or"]["fpr"]), _fmt(e["or"]["tpr"])]]
        if a:
            rows += [["AND (actual)", _fmt(a["and"]["fpr"]), _fmt(a["and"]["tpr"])],
                     ["OR (actual)", _fmt(a["or"]["fpr"]), _fmt(a["or"]["tpr"])]]
        out.append(f"<h2>Logical combinations of {html.escape(lc['a']['model'])} and "
                   f"{html.escape(lc['b']['model'])}</h2>" + _table(["", "FPR", "TPR"], rows))
    if "superiority" in doc:
        sp = doc["superiority"]
        out.append(f"<h2>LC index: {html.escape(sp['a'])} vs {html.escape(sp['b'])}</h2>"
                   f"<p>LC = {_fmt(sp['lc'])}; P({html.escape(sp['a'])} cheaper) = "
                   f"{_fmt(sp['prob_a_better'])}, P({html.escape(sp['b'])} cheaper) = "
                   f"{_fmt(sp['prob_b_better'])}.</p>")
    return "\n".join(out)


def _six(v: float) -> str:
    """6 significant digits ("n/a" for NaN)."""
    return "n/a" if v != v else f"{float(v):.6g}"


def calibration_html(analysis: Analysis) -> str:
    """Calibration of each model (Brier, ECE, MCE on 10 equal-width bins, pooled folds;
    :func:`~roc_dash.core.inference.calibration.calibration_from_curve`) and the decision curve's net
    benefits at the current ``p_t = c(FP) / (c(FP) + c(FN))`` (Vickers & Elkin 2006;
    :mod:`roc_dash.core.decisions.decision_curve`), as in the JSON report's ``calibration`` and
    ``decision_curve``."""
    c = analysis.conditions
    rows, notes = [], []
    for m in analysis.models:
        cal = calibration_from_curve(m.curve, hull=m.hull)
        rows.append([m.name, _six(cal.brier), _six(cal.ece), _six(cal.mce),
                     "yes" if cal.in_unit_interval else "no"])
        if cal.note:
            notes.append(f"<li>{html.escape(m.name)}: {html.escape(cal.note)}</li>")
    out = ("<h2>Calibration: are the scores probabilities?</h2>"
           + _table(["Model", "Brier", "ECE", "MCE", "Scores in [0, 1]"], rows)
           + (f"<ul>{''.join(notes)}</ul>" if notes else ""))
    p_t = threshold_probability(c.cost_fp, c.cost_fn)
    if not p_t < 1.0:  # c(FP) dwarfs c(FN) beyond float precision: nobody is treated
        return out
    prior = c.prior_pos
    best = hull_net_benefit(analysis.hull, [p_t], prior_pos=prior)
    dc_rows = [["treat none", "0", ""],
               ["treat all", _six(float(treat_all_net_benefit(p_t, prior_pos=prior))), ""]]
    for m in analysis.models:
        dc = decision_curve_from_curve(m.curve, [p_t], prior_pos=prior, hull=m.hull)
        dc_rows.append([m.name, _six(dc.net_benefit[0]) if dc.in_unit_interval else "n/a",
                        _six(dc.hull.net_benefit[0])])
    dc_rows.append(["best of all models (joint hull)", "", _six(best.net_benefit[0])])
    return out + (f"<h2>Decision curve at p<sub>t</sub> = {p_t:.6g}</h2>"
                  f'<p class="muted">Net benefit TP/n − FP/n · p<sub>t</sub>/(1 − p<sub>t'
                  f"</sub>) at p(+) = {prior:.6g} (Vickers &amp; Elkin 2006); a model treats "
                  "iff its score ≥ p<sub>t</sub> (only for scores that are probabilities), "
                  "its hull at the best threshold for this p<sub>t</sub>.</p>"
                  + _table(["Strategy", "Net benefit (score ≥ p_t)", "Net benefit (hull)"],
                           dc_rows))


def intervals_html(intervals) -> str:
    """Each model's optimum with its bootstrap intervals and the out-of-bag cost of the
    choice (``{model: PointIntervals}``, :func:`~roc_dash.report.model_point_intervals`);
    ``""`` without."""
    if not intervals:
        return ""
    rows = []
    for model, r in intervals.items():
        u = r.optimum
        cells = [f"{_fmt(iv.estimate)} [{_fmt(iv.low)}–{_fmt(iv.high)}]"
                 if iv.interval not in ("fixed", "none") else _fmt(iv.estimate)
                 for iv in (u.threshold, u.tpr, u.fpr, u.precision, u.npv, u.expected_cost)]
        rows.append([model, *cells, _fmt(u.optimism.out_of_bag) if u.optimism else "n/a",
                     f"{u.n_boot_used} of {u.n_boot}"])
    head = ["Model", "Threshold", "TPR", "FPR", "Precision at the prior", "NPV at the prior",
            "Expected cost", "Out-of-bag cost of the choice", "Replicates"]
    return ("<h2>How sure is the chosen point?</h2><p class=\"muted\">Each model's optimum, "
            f"{u.level:.0%} intervals ({html.escape(u.method)}). At the optimum they are of "
            "what the chosen threshold gives on new data, corrected for choosing it on these "
            "data (the estimate beside them is optimistic: a cost's interval may lie above "
            "it), as the page's; measured coverage in docs/statistics.md. The out-of-bag "
            "cost (each replicate's optimum charged on the cases it did not draw) is what the "
            "choice is expected to cost.</p>" + _table(head, rows))
def cross_validation_html(analysis: Analysis) -> str:
    """The cross-validated AUC of every model with two or more folds: the mean of the folds'
    own AUCs ± SD with the LeDell et al. (2015) interval, the AP mean ± SD, and each fold's
    AUC and AP; ``""`` when no model has folds."""
    models = [m for m in analysis.models if m.cross_validation is not None]
    if not models:
        return ""
    summary = _table(
        ["Model", "CV AUC: fold mean ± SD [CI]", "AP: fold mean ± SD", "Folds"],
        [[m.name, cv_auc_text(m.cross_validation),
          f"{_fmt(m.cross_validation.ap_mean)} ± {_fmt(m.cross_validation.ap_sd)}",
          m.cross_validation.n_folds] for m in models])
    folds = list(dict.fromkeys(str(f) for m in models for f in m.cross_validation.folds))
    cells = {m.name: {f: f"{a} / {ap}" for f, a, ap in fold_lines(m.cross_validation)}
             for m in models}
    per_fold = _table(["Model", *(f"fold {f}" for f in folds)],
                      [[m.name, *(cells[m.name].get(f, "") for f in folds)] for m in models])
    return ("<h2>Cross-validation</h2>"
            '<p class="muted">The AUC of the model table, the curves, the hull and the optimum '
            "are computed from the pooled predictions (all folds' rows as one test set). "
            "Here each fold is scored on its own; the interval of the mean fold AUC is the "
            f"influence-curve interval of LeDell, Petersen &amp; van der Laan (2015).</p>"
            f"{summary}<h3>Each fold: AUC / average precision</h3>{per_fold}")


def model_comparison_html(analysis: Analysis) -> str:
    """The k-model comparison: the DeLong ΔAUC matrix (row minus column) with raw, Holm and
    Benjamini-Hochberg adjusted p-values, a note on unpaired models, and each model's
    optimal cost range on the joint hull (Fawcett 2004, §7.1); ``""`` for one model."""
    if len(analysis.models) < 2:
        return ""
    out = ["<h2>Model comparison</h2>"]
    c = analysis.model_comparison
    if c is not None:
        names = list(c.models)

        def cell(i, j):
            if i == j or not np.isfinite(c.difference[i, j]):
                return "—"
            short = {"raw": "p", "holm": "Holm", "bh": "BH"}
            ps = "; ".join(f"{short[k]} {p_text(float(getattr(c, attr)[i, j]))}"
                           for k, attr, _ in P_KINDS)
            return f"{signed(c.difference[i, j])} ({ps})"

        out.append('<p class="muted">ΔAUC of the pooled predictions, row minus column, by '
                   "DeLong's paired test; p raw, Holm- and Benjamini-Hochberg (BH) adjusted "
                   f"over the {c.n_tests} tested pairs.</p>")
        out.append(_table(["row − column", *names],
                          [[a, *(cell(i, j) for j in range(len(names)))]
                           for i, a in enumerate(names)]))
    note = unpaired_note(c, len(analysis.models))
    if note:
        out.append(f'<p class="muted">{html.escape(note)}</p>')
    if analysis.optimal_ranges is not None:
        out.append("<h3>When is each model the best choice?</h3><ul>" + "".join(
            f"<li><b>{html.escape(r.model)}</b>: {html.escape(optimal_range_text(r))}</li>"
            for r in analysis.optimal_ranges.ranges) + "</ul>")
    return "\n".join(out)


def partial_auc_comparison_html(c) -> str:
    """The partial-AUC matrix (a :class:`~roc_dash.core.inference.model_comparison.PairwiseComparison`
    with ``method="bootstrap"``, :func:`~roc_dash.core.assembly.analysis.partial_auc_comparison`):
    ΔpAUC (McClish), row minus column, with raw, Holm and BH p-values; ``""`` without."""
    if c is None:
        return ""
    names = list(c.models)
    short = {"raw": "p", "holm": "Holm", "bh": "BH"}

    def cell(i, j):
        if i == j or not np.isfinite(c.difference[i, j]):
            return "—"
        ps = "; ".join(f"{short[k]} {p_text(float(getattr(c, attr)[i, j]))}"
                       for k, attr, _ in P_KINDS)
        return f"{signed(c.difference[i, j])} ({ps})"

    return (f"<h3>Partial AUC over FPR ≤ {c.max_fpr:g} (McClish)</h3>"
            '<p class="muted">ΔpAUC of the pooled predictions, row minus column, by a paired '
            f"stratified bootstrap ({c.n_boot} replicates, seed {c.seed}; pROC's "
            "roc.test(method = \"bootstrap\")); p raw, Holm- and Benjamini-Hochberg (BH) "
            f"adjusted over the {c.n_tests} tested pairs.</p>"
            + _table(["row − column", *names],
                     [[a, *(cell(i, j) for j in range(len(names)))]
                      for i, a in enumerate(names)]))


#: The header's link to the report's cost and prior controls (:mod:`.html_interactive`).
TRY_LINK = ' <a href="#rr-try">Try other costs and priors</a> (no server needed).'


def try_link(constraints: str = "") -> str:
    """:data:`TRY_LINK`, saying under a capacity or floors (``constraints``: their words)
    that the controls move the optimum without them (:func:`.html_interactive.try_words`)."""
    if not constraints:
        return TRY_LINK
    return (' <a href="#rr-try">Try other costs and priors</a> (no server needed; '
            f"the optimum without {html.escape(constraints)}).")


#: Draw every vertex of a curve that is not on a straight run (``roc_figure``'s
#: ``max_vertices``): the report's curves are thinned losslessly only.
LOSSLESS = 2 ** 62


def figures_html(analysis: Analysis, op, pins, averaging: str, zoom: dict | None) -> str:
    """The ROC, PR and cost views (ids ``rr-roc``, ``rr-pr``, ``rr-cost``, which the
    interactive script moves), with plotly.js compressed inside, drawn once the browser has
    unpacked it (:mod:`.html_plotly`); each drawn with the axis ranges of
    ``zoom`` (the page's ``{"roc" | "pr" | "cost": {"x": [a, b], "y": [c, d], "det": bool}}``,
    see assets/roc_dash.js "Remember each view's zoom"; a DET zoom does not apply)."""
    figs = [("roc", "ROC", roc_figure(analysis, operating=op, averaging=averaging, pins=pins,
                                      max_vertices=LOSSLESS)),
            ("pr", "Precision-recall at the deployment prior",
             pr_figure(analysis, operating=op, pins=pins)),
            ("cost", "Cost curves", cost_figure(analysis, operating=op, pins=pins))]
    parts = []
    for view, title, fig in figs:
        fig.update_layout(height=480)
        apply_zoom(fig, zoom, view)
        parts.append(f"<div><h3>{html.escape(title)}</h3>"
                     + figure_div(fig, f"rr-{view}", {"displaylogo": False}) + "</div>")
    return f'<div class="grid">{"".join(parts)}</div>\n{plotly_loader_html()}'


def render_html(analysis: Analysis, *, state: ReportState | None = None,
                extensions=None, intervals=None, slices: dict | None = None,
                partial_auc_comparison=None, zoom: dict | None = None,
                constraints_html: str = "") -> str:
    """The report as one self-contained HTML string (about 2.2 MB: plotly.js is embedded,
    compressed, see :mod:`.html_plotly`),
    with cost and prior controls that work without a server (:mod:`.html_interactive`).

    ``state`` carries the dashboard's view (averaging, pinned point, datasets, link), so that
    the report shows what the room saw; ``intervals``: see :func:`intervals_html`.
    ``slices`` (the ``slices`` and ``group_thresholds`` keys of
    :func:`roc_dash.report.slices.slices_sections`) adds a section per model;
    ``partial_auc_comparison`` the partial-AUC matrix (:func:`partial_auc_comparison_html`).
    ``zoom``: the page's zoom of each view (see :func:`figures_html`).
    ``constraints_html``: the sections of :func:`roc_dash.report.constraints_html.constraints_html`
    (or ``cost_matrix_html``), placed after the slices.
    """
    state = state or ReportState()
    c = analysis.conditions
    op = state.operating or operating_point(analysis)
    pins = list(state.pins) if state.pins else None
    several = len({r["dataset"] for r in model_table_rows(analysis)}) > 1
    models = _table(
        ["Model", *(["Dataset"] if several else []), "Rows", "Folds", "AUC (pooled)", "AUC CI",
         "pAUC (McClish)", "Avg precision", "Optimal threshold", "Expected cost"],
        [[r["model"], *([r["dataset"]] if several else []), r["rows"], r["folds"],
          _fmt(r["auc"]),
          f"[{_fmt(r['auc_ci_low'])}, {_fmt(r['auc_ci_high'])}]",
          _fmt(r["partial_auc_mcclish"]), _fmt(r["average_precision"]),
          format_threshold(r["optimal_threshold"]), _fmt(r["expected_cost"])]
         for r in model_table_rows(analysis)])
    pairs = _table(["Models", "ΔAUC", "z", "p-value", "paired by"],
                   [[f"{p.a} vs {p.b}", f"{signed(p.test.auc_difference)}", _fmt(p.test.z),
                     f"{p.test.p_value:.3g}", p.paired_by] for p in analysis.comparisons])
    kind = (f"least expected cost under {state.chosen_by}" if state.chosen_by
            else f"pinned {op.label}".strip() if op is not None and op.pinned
            else "optimal for these conditions")
    opbox = "" if op is None else _table(
        [f"Operating point ({kind})", ""],
        [["Model", op.model], ["Threshold", "score ≥ " + format_threshold(op.threshold)],
         ["TPR", _fmt(op.tpr)], ["FPR", _fmt(op.fpr)],
         ["Precision at the prior", _fmt(op.precision)],
         ["Expected cost per case", _fmt(op.expected_cost)],
         ["Test set TP / FP / FN / TN", " / ".join(f"{v:,.0f}" for v in (op.tp, op.fp, op.fn, op.tn))],
         ["Per 1,000 at the prior TP / FP / FN / TN", " / ".join(f"{v:,.1f}" for v in op.per_1000)]])
    when = _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    context = []
    if state.datasets:
        context.append("Data: " + "; ".join(html.escape(d) for d in state.datasets) + ".")
    context.append(f"Fold averaging: {html.escape(state.averaging)}; confidence level "
                   f"{c.level:.0%}.")
    if state.link:
        context.append(f'<a href="{html.escape(state.link, quote=True)}">Open this view in '
                       "roc-dash</a>.")
    notes = "".join(f"<li>{html.escape(n)}</li>" for n in analysis.notes)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>roc-dash report</title>
<style>{CSS}{INTERACTIVE_CSS}</style></head><body>
<h1>roc-dash report</h1>
<p class="muted">roc-dash {__version__}, {when}. Cost of a false positive {c.cost_fp:g},
of a false negative {c.cost_fn:g}; deployment prior p(+) = {sig(c.prior_pos)};
iso-performance slope m = {sig(c.slope)}; PC(+) = {sig(c.pc_pos)}.</p>
<p class="muted">{" ".join(context)}{try_link(state.constraints) if analysis.models else ""}</p>
{"<ul>" + notes + "</ul>" if notes else ""}
{f'<h2>Note</h2><p class="note">{html.escape(state.note)}</p>' if state.note else ""}
{f'<h2>Decision</h2><p class="summary">{html.escape(state.summary)}</p>'
  if state.summary else ""}
{f'<p class="muted">{html.escape(state.pins_summary)}</p>' if state.pins_summary else ""}
{"<h2>Operating points compared</h2>" + (comparison_html(operating_point(analysis), state.pins)
  if state.operating is None else comparison_html(state.operating, state.pins, "Choice"))
  if state.pins else ""}
{opbox}
{intervals_html(intervals)}
{"<h2>Saved views</h2><ul>" + "".join(
    f'<li><a href="{html.escape(link, quote=True)}">{html.escape(name)}</a></li>'
    for name, link in state.views) + "</ul>" if state.views else ""}
<h2>Models</h2>{models}
{"<h2>DeLong paired tests</h2>" + pairs if analysis.comparisons else ""}
{cross_validation_html(analysis)}
{model_comparison_html(analysis)}
{partial_auc_comparison_html(partial_auc_comparison)}
{calibration_html(analysis)}
{_extension_html(extensions)}
{slices_html(slices)}
{constraints_html}
{interactive_html(analysis, constraints=state.constraints)}
{figures_html(analysis, op, pins, state.averaging, zoom)}
</body></html>
"""


_CONSTRAINT_NAMES = {"single_threshold": "one threshold for all",
                     "group_optima": "each group its own optimum",
                     "equal_opportunity": "equal opportunity (equal TPR)",
                     "equalized_odds": "equalized odds (equal TPR and FPR)",
                     "demographic_parity": "demographic parity (equal share flagged)"}


def slices_html(sections: dict | None) -> str:
    """The slices section: per model, its groups and the cost of each fairness
    constraint, from the JSON keys ``slices`` and ``group_thresholds``; empty without them."""
    if not sections or not sections.get("slices"):
        return ""
    sl, gt = sections["slices"], sections["group_thresholds"]
    columns = " × ".join(sl["group_columns"]) or "group"
    out = [f"<h2>Slices by {html.escape(columns)}</h2><p class=\"muted\">Groups with fewer "
           f"than {sl['min_positives']:g} positives or {sl['min_negatives']:g} negatives are "
           "flagged small. Costs per case; the cost of a constraint is against each group at "
           "its own optimum. Randomised rules decide some cases by chance (Hardt, Price &amp; "
           "Srebro 2016).</p>"]
    for m, t in zip(sl["models"], gt["models"], strict=True):
        why = {g["name"]: g["reason"] for g in m.get("left_out") or ()}
        groups = [[g["name"] + (" (small)" if g["small"] else ""), g["rows"],
                   _fmt(g["prevalence"]), _fmt(g["auc"]),
                   f"[{_fmt((g['auc_ci'] or {}).get('low'))}, "
                   f"{_fmt((g['auc_ci'] or {}).get('high'))}]",
                   *(["score ≥ " + format_threshold(g["optimal"]["threshold"]),
                      _fmt(g["optimal"]["tpr"]), _fmt(g["optimal"]["fpr"]),
                      _fmt(g["optimal"]["expected_cost"])] if g["optimal"] else
                     [f"left out: {why.get(g['name'], 'one class only')}", "", "", ""])]
                  for g in m["groups"]]
        solutions = [[_CONSTRAINT_NAMES.get(s["constraint"], s["constraint"]),
                      _fmt(s["expected_cost"]), f"{signed(s['cost_of_constraint'])}",
                      "yes" if s["randomised"] else "no"] for s in t["solutions"]]
        note = m.get("left_out_note")
        out.append(f"<h3>{html.escape(m['model'])}</h3>"
                   + (f'<p class="left-out">{html.escape(note)}</p>' if note else "")
                   + _table(["Group", "Rows", "Prevalence", "AUC", "AUC CI", "Optimum", "TPR",
                             "FPR", "Expected cost"], groups)
                   + _table(["Constraint", "Expected cost per case", "What it costs",
                             "Randomised"], solutions))
    return "\n".join(out)
