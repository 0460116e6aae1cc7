"""Small HTML pieces built from core results: loaded-data list, operating point, model table."""

from __future__ import annotations

import math

from dash import dcc, html

from ..core.analysis_types import Analysis
from ..core.assembly.analysis import folds_by_dataset
from ..core.decisions.operating import OperatingSummary
from ..figures import GRAPH_CONFIG
from ..figures.style import color, dash_css, format_threshold
from ..report import fmt as _fmt
from ..report import model_table_rows
from ..report.comparison_text import cv_auc_text, fold_lines
from ..text.rounding import percent, sig, signed
from . import ids
from .help import HELP
from .server.store import DatasetInfo

DEMO_TEXT = "Demo: diabetes progression, 4 models × 10 folds"


def dataset_list(infos: list[DatasetInfo], labels: list[str], missing: list[str],
                 owner: str | None = None):
    """The loaded datasets, each with its × (which deletes a dataset for its owner only:
    for anyone else it takes the dataset off their page)."""
    items = []
    for info, label in zip(infos, labels, strict=True):
        shown = DEMO_TEXT if info.id == "demo" else label
        mine = owner is not None and info.owner == owner
        title = ("Remove this dataset (asks first; it is deleted from the server after a "
                 "few minutes in which the removal can be undone)" if mine else
                 "Remove this dataset from this page (asks first; only its uploader can "
                 "delete it)")
        items.append(html.Li(className="dataset", children=[
            html.Div([
                html.Span(shown, className="dataset-files"),
                html.Button("×", id={"type": ids.REMOVE_DATASET, "index": info.id},
                            className="remove", title=title, n_clicks=0,
                            **{"aria-label": f"Remove {shown}"}),
            ], className="dataset-head"),
            html.Div(f"{info.n_rows:,} rows · {', '.join(info.models)}", className="dataset-meta"),
        ]))
    if missing:
        items.append(html.Li(f"{len(missing)} dataset(s) are no longer on the server "
                             "(expired or removed); upload them again.", className="warning"))
    if not items:
        return html.P("Nothing loaded. Drop a file above, or load the demo data.",
                      className="hint")
    return html.Ul(items)


def missing_banner(missing: list[str], known: dict | None = None, lost=(), refused=()):
    """What a link names that is no longer here (instead of an empty dashboard): the files'
    names and why they went, where the server remembers them (``known``: id -> note), and
    exactly what of the link could not be restored with them (``lost``, phrases of
    :func:`.link_report.unrestored`); the rest is. Then the link's values the page did not
    use and what it used instead (``refused``, :func:`.link_report.link_refused`), in one
    line."""
    said = html.Div(["From the link: ", "; ".join(refused) + "."],
                    className="link-refused") if refused else None
    if not missing:
        return said
    known = known or {}
    items = []
    for m in missing:
        note = known.get(m) or {}
        if note.get("label"):
            when = ""
            if isinstance(note.get("when"), int | float):
                import datetime

                when = " on " + datetime.date.fromtimestamp(note["when"]).isoformat()
            items.append(f"{note['label']} ({note.get('why', 'removed')}{when})")
        else:
            items.append(f"a dataset with id {m[:8]}… (not known to this server)")
    restored = ("Everything else of the link is restored." if lost else
                "Everything else of the link is restored (nothing else of it belonged to "
                "them).")
    return [html.Strong(f"{len(missing)} dataset(s) of this link are no longer on the server: "),
            "; ".join(items) + ". ",
            html.Span(["Not restored: ", html.Ul([html.Li(x) for x in lost],
                                                 className="unrestored")],
                      className="unrestored-head") if lost else None,
            f"{restored} Upload the files again to see what was on them.", said]


def banner(analysis: Analysis | None, extra=()):
    """Notes that change how the views should be read: models from several test sets,
    scores that look inverted, models left out."""
    notes = analysis.notes if analysis is not None else ()
    important = list(extra) + [n for n in notes if "test sets" in n or "inverted" in n]
    if not important:
        return None
    return html.Ul([html.Li(n) for n in important])


def swatch(index: int):
    """A short sample of the ``index``-th model's line (colour and dash style)."""
    return html.Span(className="swatch", style={"borderTopColor": color(index),
                                                "borderTopStyle": dash_css(index)})


def model_options(names) -> list[dict]:
    """Checklist options in the order of all loaded models, the order colours are assigned
    in, so a model keeps its colour whatever is ticked; the stylesheet draws each option's
    swatch from its position (:func:`roc_dash.figures.style.swatch_css`). ``names``: shown
    names, or ``{key: shown name}`` (the value is then the model's key, dataset id and
    name, and the shown name its label)."""
    if isinstance(names, dict):
        return [{"label": n, "value": k} for k, n in names.items()]
    return [{"label": n, "value": n} for n in names]


def _count(v: float) -> str:
    return f"{v:,.0f}" if abs(v - round(v)) < 1e-9 else f"{v:,.2f}"


def operating_panel(op: OperatingSummary | None, analysis: Analysis | None, comparison=None,
                    *, chosen_by: str | None = None):
    """The operating point's card; ``chosen_by`` names the constraint that chose ``op``
    (the Decide tab's capacity or floors: :mod:`.features.constrained_strip`)."""
    if op is None or analysis is None:
        return html.P("No operating point: no model is shown.", className="hint")
    c = analysis.conditions
    kind = (f"pinned {op.label}" if op.label else "pinned") if op.pinned else \
        "optimal for the current costs and prior"
    if chosen_by:
        kind = f"least expected cost under {chosen_by}"
    # the point, its rates and cost come from its model's folds' rows as one test set
    folds = max(folds_by_dataset(m for m in analysis.models if m.name == op.model).values(),
                default=1)
    if folds > 1:
        kind += f" (pooled predictions of {folds} folds)"
    metrics = [
        ("Model", op.model, None),
        ("Threshold", "score ≥ " + format_threshold(op.threshold), "threshold"),
        ("TPR (recall)", _fmt(op.tpr), "tpr"), ("FPR", _fmt(op.fpr), "fpr"),
        (f"Precision at p(+) = {sig(c.prior_pos)}", _fmt(op.precision), "precision"),
        ("Accuracy (test set)", _fmt(op.accuracy), "accuracy"),
        ("Expected cost per case", _fmt(op.expected_cost), "expected_cost"),
        ("Normalised expected cost", _fmt(op.normalized_expected_cost), "normalized_cost"),
    ]
    tp, fp, fn, tn = op.per_1000
    return html.Div(className="operating", children=[
        comparison_table(comparison) if comparison is not None else None,
        html.Div(kind, className="op-kind constrained" if chosen_by else
                 "op-kind pinned" if op.pinned else "op-kind"),
        tie_note(analysis) if not op.pinned and not chosen_by else None,
        html.Table(className="metrics", children=[
            html.Tbody([html.Tr([html.Th(k, title=HELP.get(h)), html.Td(v, className="num")])
                        for k, v, h in metrics])
        ]),
        html.Div(className="confusions", children=[
            _confusion("On the test set", op.tp, op.fp, op.fn, op.tn, _count),
            _confusion(f"Expected per 1,000 cases at p(+) = {sig(c.prior_pos)}", tp, fp, fn, tn,
                       lambda v: f"{v:,.1f}"),
        ]),
    ])


def _signed(v: float, digits: int, pct: bool = False) -> str:
    """A signed difference; one that rounds to zero is shown unsigned ("0.0 pt", not
    "-0.0 pt")."""
    if v != v:  # NaN
        return "n/a"
    if not pct:  # the one rounding rule; 0 (or floating-point noise about it) unsigned
        return "0" if abs(v) < 1e-12 else signed(v)
    d = max(digits - 2, 0)
    text = f"{v * 100:+.{d}f}"
    if float(text) == 0:
        text = f"{0:.{d}f}"
    return f"{text} pt"


def sig3(v: float) -> str:
    """A number in a sentence: the one rounding rule, 6 significant digits
    (:func:`roc_dash.text.rounding.sig`; the name is older than the rule)."""
    return sig(v)


_FORMATS = {"TPR (recall)": (3, False), "FPR": (3, False), "Precision at the prior": (3, False),
            "Flagged": (1, True), "Expected cost per case": (4, False),
            "Cost per 1,000 cases": (1, False)}


def comparison_table(comparison):
    """The optimum (or the point a capacity or floors choose: the recommendation) and pins
    A, B, C side by side, with their differences from it."""
    first = comparison.labels[0].lower()
    head = [html.Th("")]
    for label, p in zip(comparison.labels, comparison.points, strict=True):
        title = f"{p.model}, score ≥ {format_threshold(p.threshold)}"
        cell = [html.Span(label, className=f"pin-tag pin-{label}" if p.pinned else "opt-tag")]
        if p.pinned:
            cell.append(html.Button("×", id={"type": ids.UNPIN_ONE, "index": label},
                                    className="remove", n_clicks=0, title=f"Unpin {label}",
                                    **{"aria-label": f"Unpin {label}"}))
        head.append(html.Th(cell, title=title, className="num"))
    body = [html.Tr([html.Th("Model")] + [html.Td(p.model, className="num model")
                                          for p in comparison.points]),
            html.Tr([html.Th("Threshold")] + [html.Td("≥ " + format_threshold(p.threshold),
                                                      className="num")
                                              for p in comparison.points])]
    for name, values, deltas in comparison.rows:
        digits, pct = _FORMATS.get(name, (3, False))
        fmt = (lambda v, d=digits: f"{v * 100:.{d}f}%") if pct else sig  # shares in %
        body.append(html.Tr([html.Th(name)] + [html.Td(fmt(v), className="num") for v in values]))
        body.append(html.Tr(className="delta", children=[html.Th(
            ["Δ", html.Span(f" {name.lower()}", className="delta-name")],
            title=f"Difference from the {first}: {name.lower()}")] + [
            html.Td("" if k == 0 else _signed(d, digits + (2 if pct else 0), pct),
                    className="num") for k, d in enumerate(deltas)]))
    # the decision file of each point: the recommendation's, or a pin's by explicit choice
    body.append(html.Tr(className="decision-row", children=[html.Th(
        "Decision file", title=HELP["decision_point"])] + [html.Td(html.Button(
            "↓ " + (label if p.pinned else first),
            id={"type": ids.EXPORT_POINT, "index": label if p.pinned else "Optimum"},
            n_clicks=0, className="link-button decision-point",
            title=f"Download the decision record of {label if p.pinned else 'the ' + first}: "
                  f"{p.model} at score ≥ {format_threshold(p.threshold)}",
            **{"aria-label": f"Download the decision of {label}"}), className="num")
            for label, p in zip(comparison.labels, comparison.points, strict=True)]))
    return html.Div(className="table-scroll", children=html.Table(
        className="compare", children=[html.Thead(html.Tr(head)), html.Tbody(body)]))


def tie_note(analysis: Analysis):
    """When the iso line lies along a hull segment both ends are optimal: say so, with the
    rule used to report one (the conservative end, fewer cases flagged)."""
    opt = analysis.optimal.optimum
    if not opt.on_segment or opt.index_end is None:
        return None
    h = analysis.hull
    end = opt.index_end
    other = str(h.models[end]) or "always positive"
    return html.P(className="tie-note", children=[
        "Tie: the iso-performance line lies along a hull segment, so every point between "
        f"this one and {other} at score ≥ {format_threshold(float(h.thresholds[end]))} "
        f"(FPR {sig(h.fpr[end])}, TPR {sig(h.tpr[end])}) has the same expected cost. "
        "Shown: the end that flags fewer cases."])


def _confusion(title, tp, fp, fn, tn, fmt):
    return html.Table(className="confusion", children=[
        html.Caption(title),
        html.Thead(html.Tr([html.Th(""), html.Th("actual +"), html.Th("actual −")])),
        html.Tbody([
            html.Tr([html.Th("predicted +"), html.Td(fmt(tp), className="num tp"),
                     html.Td(fmt(fp), className="num fp")]),
            html.Tr([html.Th("predicted −"), html.Td(fmt(fn), className="num fn"),
                     html.Td(fmt(tn), className="num tn")]),
        ]),
    ])


def model_table(analysis: Analysis | None, colors: dict[str, int] | None = None,
                extras: dict | None = None, *, datasets: bool = False):
    """The model table; ``extras`` adds columns (``{"columns": [(header, help key)],
    "cells": {model: [text, ...]}}``, see :func:`.overlays.table_extras`); ``datasets``
    adds the Dataset column (more than one dataset loaded)."""
    if analysis is None or not analysis.models:
        return html.P("No models.", className="hint")
    cv = any(m.cross_validation is not None for m in analysis.models)
    head = _table_columns(analysis, datasets=datasets)
    body = []
    for r in model_table_rows(analysis):
        ci = "" if math.isnan(r["auc_ci_low"]) else f" [{sig(r['auc_ci_low'])}, {sig(r['auc_ci_high'])}]"
        k = (colors or {}).get(r["model"])
        # with the Dataset column the model's own name suffices in its row (the tag that
        # every other view shows is the next cell)
        tag = f" ({r['dataset']})"
        name = (r["model"][:-len(tag)] if datasets and r["dataset"] and
                r["model"].endswith(tag) else r["model"])
        body.append(html.Tr([
            html.Td([swatch(k), name] if k is not None else name, title=r["model"]),
            *([html.Td(r["dataset"], className="dataset-cell")] if datasets else []),
            html.Td(f"{r['rows']:,} ({r['folds']})", className="num"),
            html.Td(f"{sig(r['auc'])}{ci}", className="num auc"),
            *([_cv_cell(analysis.model(r["model"]).cross_validation)] if cv else []),
            html.Td(_fmt(r["partial_auc_mcclish"]), className="num"),
            html.Td(_fmt(r["average_precision"]), className="num"),
            html.Td(format_threshold(r["optimal_threshold"]), className="num"),
            html.Td(_fmt(r["expected_cost"]), className="num"),
            html.Td(_ranges_cell(r["hull_slope_ranges"]), className="ranges"),
            *[html.Td(t, className="num" if isinstance(t, str) and t[:1].isdigit() else "")
              for t in (extras or {}).get("cells", {}).get(r["model"], [])],
        ]))
    head += list((extras or {}).get("columns", []))
    parts = [html.Table([html.Thead(html.Tr([html.Th(h, title=HELP.get(k)) for h, k in head])),
                         html.Tbody(body)], className="models")]
    if analysis.comparisons:
        parts.append(html.H3("DeLong paired tests (same rows)", title=HELP["delong"]))
        parts.append(html.Table(className="models pairs", children=[
            html.Thead(html.Tr([html.Th(h, title=HELP[k]) for h, k in (
                ("Models", "models_pair"), ("ΔAUC", "delta_auc"), ("z", "z"),
                ("p-value", "p_value"), ("paired by", "paired_by"))])),
            html.Tbody([html.Tr([
                html.Td(f"{cmp.a} vs {cmp.b}"),
                html.Td(f"{signed(cmp.test.auc_difference)}", className="num"),
                html.Td(_fmt(cmp.test.z), className="num"),
                html.Td(f"{cmp.test.p_value:.3g}", className="num"),
                html.Td(cmp.paired_by)]) for cmp in analysis.comparisons]),
        ]))
    if analysis.notes:
        parts.append(html.Ul([html.Li(n) for n in analysis.notes], className="notes"))
    return parts


def _table_columns(analysis: Analysis, *, datasets: bool) -> list[tuple[str, str]]:
    """The model table's own columns, ``(header, help key)``, in the order of its cells."""
    c = analysis.conditions
    level = analysis.models[0].auc_ci.level if analysis.models[0].auc_ci else c.level
    cv = any(m.cross_validation is not None for m in analysis.models)
    return [("Model", "model"), *([("Dataset", "dataset")] if datasets else []),
            ("Rows (folds)", "rows_folds"),
            (f"AUC pooled [{level:.0%} CI]", "auc"),
            *([("CV AUC: fold mean ± SD [95% CI]", "cv_auc")] if cv else []),
            (f"pAUC FPR≤{c.fpr_max:g}", "pauc"),
            ("Avg precision", "ap"), ("Optimal threshold", "threshold"),
            ("Expected cost", "expected_cost"), ("Optimal for slopes", "slope_ranges")]


def _cv_cell(cv):
    """The cross-validated AUC (mean of the folds' own AUCs ± SD, LeDell et al. 2015
    interval) with each fold's AUC and AP in a details element."""
    if cv is None:
        return html.Td("n/a", className="num cv-auc", title=HELP["cv_auc_none"])
    folds = html.Table(className="folds", children=[
        html.Thead(html.Tr([html.Th("fold"), html.Th("AUC"), html.Th("AP")])),
        html.Tbody([html.Tr([html.Td(f), html.Td(a, className="num"),
                             html.Td(ap, className="num")]) for f, a, ap in fold_lines(cv)])])
    return html.Td(className="num cv-auc", children=html.Details([
        html.Summary(cv_auc_text(cv), title=HELP["cv_auc"]),
        html.Div(f"AP {sig(cv.ap_mean)} ± {sig(cv.ap_sd)} over {cv.n_folds} folds",
                 className="hint"),
        folds]))


def _ranges_cell(text: str) -> str:
    """The slope ranges, wrapping in a narrow table only between ranges or after a range's
    dash ("0.0617 –" / "0.884"), never before the dash."""
    return text.replace(" – ", "\u00a0– ")


def view_list(views: list[dict], *, editable: bool = True, loaded=None):
    """Saved views: open one (its link) or, for whoever may change them, delete it. A view
    saved with datasets not loaded now (``loaded``: the ids loaded) says so."""
    if not views:
        return [html.Li("No saved view yet.", className="hint")]

    def title(v):
        others = [d for d in v.get("datasets") or [] if loaded is not None and d not in loaded]
        return ("Open this view" if not others else
                f"Open this view: it was saved with {len(others)} dataset(s) not loaded now, "
                "which it loads again (or says what of them cannot be restored)")

    return [html.Li(className="view", children=[
        html.Button(v["name"], id={"type": ids.OPEN_VIEW, "index": v["name"]}, n_clicks=0,
                    className="link-button", title=title(v)),
        *([html.Button("×", id={"type": ids.DELETE_VIEW, "index": v["name"]}, n_clicks=0,
                       className="remove", title=f"Delete the view {v['name']}",
                       **{"aria-label": f"Delete the view {v['name']}"})] if editable else []),
    ]) for v in views]


def _money(v: float, unit: str, digits: int = 3) -> str:
    """An amount with its unit, by the one rounding rule (``digits`` is no longer used)."""
    return f"{sig(v)} {unit}".strip()


def _range_words(interval, name: str, fmt) -> str:
    """'between a and b' for an optimality range, in words at open ends (``name`` with its
    article, if any: 'c(FN)/c(FP)', 'the prior p(+)')."""
    if interval.low_open and interval.high_open:
        return f"whatever {name}"
    if interval.low_open:
        return f"while {name} is at most {fmt(interval.high)}"
    if interval.high_open:
        return f"while {name} is at least {fmt(interval.low)}"
    return f"while {name} is between {fmt(interval.low)} and {fmt(interval.high)}"


def sensitivity_words(rng) -> str:
    """'Optimal while c(FN)/c(FP) is between a and b at this prior, and while p(+) is ...'."""
    if rng is None:
        return ""
    g = sig3
    ratio = "c(FN)/c(FP)" + (" (net of benefits)" if rng.uses_benefits else "")
    if rng.tpr == 0 and rng.fpr == 0:
        what = "Never flagging anything is optimal"
    elif rng.tpr == 1 and rng.fpr == 1:
        what = "Flagging everything is optimal"
    else:
        what = "This point stays optimal"
    return (f"{what} {_range_words(rng.ratio, ratio, g)} at this prior, and "
            f"{_range_words(rng.prior, 'the prior p(+)', g)} at these costs.")


def plain_text(node) -> str:
    """The text of a Dash component tree (the summary strip as one sentence for a report)."""
    if node is None:
        return ""
    if isinstance(node, str | int | float):
        return str(node)
    if isinstance(node, list | tuple):
        parts = [plain_text(k) for k in node]
        return " ".join(p for p in parts if p) if any(
            getattr(k, "className", None) for k in node if k is not None) else "".join(parts)
    return plain_text(getattr(node, "children", None))


def pinned_words(label: str, s) -> str:
    """One pinned point compared with the recommendation, for the summary strip."""
    e = s.economics
    what = ("flags nothing" if s.nothing_flagged else
            f"flags {percent(s.flagged)}, finds {percent(s.tpr)} of positives")
    if s.expected_cost < 0:
        money = f"net gain {_money(-s.expected_cost, e.unit, 3)} per case"
    else:
        money = f"expected cost {_money(s.expected_cost, e.unit, 3)} per case"
    excess = s.excess_cost
    if excess != excess or abs(excess) < 5e-4:
        versus = "as good as the recommendation"
    elif excess < 0:  # cheaper than a recommendation chosen under a capacity or floors
        versus = f"{_money(-excess, '', 3)} less than the recommendation"
    else:
        versus = f"+{_money(excess, '', 3)} against the recommendation"
    return (f"{label}: {s.model} at score ≥ {format_threshold(s.threshold)}: {what}, "
            f"{money} ({versus})")


def frequency_words(model: str, frequency) -> str:
    """How often ``model`` is the optimum across the folds or resamples: a count of a few
    folds ("in 4 of the 5 folds"; a fold where models tie is shared, "4.5 of the 5"), a
    share of many resamples ("in 62% of the 200 resamples")."""
    what = "folds" if frequency.method == "folds" else "resamples"
    if frequency.method == "folds" and frequency.n <= 20:
        count = frequency.wins.get(model, 0.0)
        tie = "" if abs(count - round(count)) < 1e-9 else " (a fold where models tie is shared)"
        return (f"{model} is the optimum in {sig(round(count, 2))} of the {frequency.n} "
                f"{what}{tie}.")
    share = frequency.fractions.get(model, 0.0)
    return f"{model} is the optimum in {share:.0%} of the {frequency.n} {what}."


def summary_strip(summary, uncertainty=None, frequency=None, pinned=()):
    """One line a review meeting can act on: which model, which threshold, what it does and
    costs, how it compares with the runner-up; then how sure and how sensitive; then the
    pinned points (``[(label, DecisionSummary)]``) compared with it. The headline is the
    recommendation whatever is pinned."""
    if summary is None:
        return html.Span("Load predictions to see a decision.", className="hint")
    e = summary.economics
    unit = e.unit
    cost = _money(summary.expected_cost, unit, 3)
    interval = ""
    if uncertainty is not None and uncertainty.expected_cost.n > 1:
        s = uncertainty.expected_cost
        interval = (f" [range over {s.n} "
                    f"{'folds' if uncertainty.method == 'folds' else 'resamples'}: "
                    f"{_money(s.low, '', 3)}–{_money(s.high, '', 3)}]")
    head = "Pinned: " if summary.pinned else "Use "
    parts = [head, html.B(summary.model), f" at score ≥ {format_threshold(summary.threshold)}: "]
    if summary.nothing_flagged:
        parts.append("flags nothing")
    else:
        parts.append(f"flags {percent(summary.flagged)} of cases, finds "
                     f"{percent(summary.tpr)} of positives, precision "
                     f"{percent(summary.precision)}")
    if summary.expected_cost < 0:  # the benefits outweigh the costs: say it as a gain
        gain = _money(-summary.expected_cost, unit, 3)
        if interval:
            s = uncertainty.expected_cost
            interval = (f" [range over {s.n} "
                        f"{'folds' if uncertainty.method == 'folds' else 'resamples'}: "
                        f"{_money(-s.high, '', 3)}–{_money(-s.low, '', 3)}]")
        parts.append(f", net gain {gain} per case{interval}")
        if summary.cost_per_period is not None:
            parts.append(f" (≈ {_money(-summary.cost_per_period, unit, 0)} per {e.period})")
    else:
        parts.append(f", expected cost {cost} per case{interval}")
        if summary.cost_per_period is not None:
            parts.append(f" (≈ {_money(summary.cost_per_period, unit, 0)} per {e.period})")
    if summary.pinned and summary.excess_cost == summary.excess_cost and summary.excess_cost > 0:
        parts.append(f" — {_money(summary.excess_cost, '', 3)} more than the optimum "
                     f"({summary.optimal_model})")
    elif summary.runner_up:
        if abs(summary.delta_cost) < 5e-4:  # would print as 0.000: say what it means
            parts.append(f" — as good as the runner-up ({summary.runner_up}) at these costs")
        else:
            delta = _money(summary.delta_cost, "", 3)
            parts.append(f" — {delta} less than the runner-up ({summary.runner_up})")
    parts.append(".")
    details = []
    words = sensitivity_words(summary.sensitivity)
    if words:
        details.append(words)
    if frequency is not None and frequency.n > 1:
        details.append(frequency_words(summary.model, frequency))
    pins = "; ".join(pinned_words(label, s) for label, s in pinned or ())
    return [html.Div(parts, className="summary-main"),
            html.Div(" ".join(details), className="summary-detail", title=" ".join(details))
            if details else None,
            None,  # STRIP_INTERVALS_SLOT: the intervals' line, once computed
            html.Div(f"Pinned {pins}.", className="summary-pins", title=f"Pinned {pins}.")
            if pins else None]


#: Where in :func:`summary_strip`'s list the bootstrap intervals' line goes
#: (:mod:`.features.intervals` patches it in after the views; a new render empties it).
STRIP_INTERVALS_SLOT = 2


def labelled(label: str, control, *, hint: str | None = None, html_for: str | None = None,
              help_text: str | None = None):
    children = [html.Label(label, htmlFor=html_for, className="control-label",
                           title=help_text), control]
    if hint:
        children.append(html.Div(hint, className="hint"))
    return html.Div(children, className="control")


#: What an empty figure says unless told otherwise.
NOTHING_SHOWN = "No model to show: load predictions or tick a model."


def empty_figure(font, text: str = NOTHING_SHOWN):
    import plotly.graph_objects as go

    from ..figures.style import base_layout

    fig = go.Figure()
    base_layout(fig, x_title="", y_title="", font_size=font)
    fig.add_annotation(text=text,
                       x=0.5, y=0.5, showarrow=False, font={"size": 15})
    return fig


def graph_config(name: str, config: dict | None = None) -> dict:
    """A graph's config with its own download file name (``roc-dash-roc.png``, ...)."""
    base = dict(config or GRAPH_CONFIG)
    base["toImageButtonOptions"] = {**base.get("toImageButtonOptions", {}),
                                    "filename": f"roc-dash-{name}"}
    return base


#: What the intervals box says until its callback (features/intervals.py) has answered.
COMPUTING_INTERVALS = "computing intervals…"


def intervals_box():
    """The bootstrap intervals' place in the operating card (filled by
    :mod:`.features.intervals` once the views have drawn)."""
    return html.Div(className="point-intervals-box", children=[
        html.Div(COMPUTING_INTERVALS, id=ids.POINT_INTERVALS_STATUS, className="hint",
                 role="status"),
        html.Div(id=ids.POINT_INTERVALS, className="point-intervals"),
        dcc.Store(id=ids.POINT_REGIONS, data=[]),  # their boxes on the ROC
        dcc.Store(id=ids.STRIP_INTERVALS, data=None),  # their line in the summary strip
    ])


def values_from_link(app, fields) -> None:
    """A callback per ``(page field, component id)`` of ``fields``: the component's
    ``value`` from the page's link when the link names that field (else left as it is)."""
    from dash import Input, Output, no_update

    from .page_state import parse_link

    for field, target in fields:
        def restore(search, field=field):
            link, given = parse_link(search)
            return getattr(link, field) if field in given else no_update

        app.callback(Output(target, "value"), Input(ids.URL, "search"))(restore)
