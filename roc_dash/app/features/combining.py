"""Combining classifiers and comparing two under uncertain costs: cards, overlays, callbacks.

Fawcett (2004) §7.4 (a budget of cases, concavity repair, AND/OR of two operating points)
and §7.5.3 (relative superiority graph and LC index), on the binary data shown. This module
owns its two cards (:func:`combining_card`, :func:`superiority_card`), the read-outs of the
overlays it adds to the ROC view (:func:`..overlays.overlay_roc`, drawn by
:func:`..render.render_views`) and its callbacks (:func:`register`); every number comes from
:mod:`roc_dash.core.assembly.combining_views`, every figure from :mod:`roc_dash.figures.combining`.
Work is bounded: only the models shown are offered, one repaired model, one pair.
"""

from __future__ import annotations

import math
import re

from dash import Input, Output, State, dcc, html, no_update
from dash.exceptions import PreventUpdate

from ...core.analysis_types import Analysis
from ...core.assembly.combining_views import BudgetView, LogicalView, superiority_view
from ...core.combining.concavity_repair import ConcavityRepair
from ...core.decisions.operating import pinned_points
from ...figures.combining import superiority_figure
from ...figures.style import format_threshold
from ...text.rounding import sig
from .. import ids
from ..analysis import (
    SHOWN_FIELDS,
    model_refs,
    shown_analysis,
    shown_combine,
    shown_keys,
    shown_pins,
)
from ..components import empty_figure
from ..core_words import in_page_words
from ..help import HELP
from ..overlays import active, combine_results
from ..page_state import PageState, dependencies, tab_gate, tab_page
from ..server.limits import excerpt
from ..state import FONT, tab_shown

__all__ = ["combining_card", "superiority_card", "parse_budget", "combine_options",
           "budget_hint", "combine_panel", "superiority_outputs", "register"]


def _label(text: str, html_for: str, help_key: str):
    return html.Label(text, htmlFor=html_for, className="control-label", title=HELP[help_key])


def combining_card():
    """Controls of the ROC overlays (budget, repair, AND/OR) beside their read-outs."""
    return html.Div(className="card combine-card", children=[
        html.Div(className="card-head", children=[
            html.H2("Combining classifiers", title="Fawcett 2004, §7.4: drawn on the ROC"),
            html.Span("drawn on the ROC view (Decide tab)", className="hint")]),
        html.Div(className="combine-grid", children=[
            html.Div(className="combine-controls", children=[
                html.Div(className="control", children=[
                    _label("Budget: act on", ids.BUDGET, "budget"),
                    html.Div(className="budget-row", children=[
                        dcc.Input(id=ids.BUDGET, type="text", inputMode="decimal", value="",
                                  debounce=True, placeholder="off", className="exact",
                                  autoComplete="off", maxLength=40),
                        dcc.RadioItems(id=ids.BUDGET_UNIT, value="cases", inline=True,
                                       className="radios inline",
                                       options=[{"label": "cases", "value": "cases"},
                                                {"label": "% flagged", "value": "percent"}]),
                    ]),
                    html.Div(id=f"{ids.BUDGET}-hint", className="hint",
                             children="Empty: no budget. Press Enter to apply."),
                ]),
                html.Div(className="control", children=[
                    _label("Repair the concavities of", ids.REPAIR_MODEL, "repair"),
                    dcc.Dropdown(id=ids.REPAIR_MODEL, options=[], value=None, clearable=True,
                                 searchable=False, placeholder="no model (off)",
                                 className="repair-model"),
                ]),
                html.Div(title=HELP["logic"], children=[dcc.Checklist(
                    id=ids.LOGIC, value=[], className="checks",
                    options=[{"label": "AND / OR of pins A and B (or optimum and A)",
                              "value": "on"}])]),
            ]),
            dcc.Loading(type="dot", delay_show=400, children=html.Div(
                id=ids.COMBINE_RESULT, className="combine-result", role="status")),
        ]),
        dcc.Store(id=ids.COMBINE, data=None),
    ])


def _ratio_input(input_id: str, placeholder: str):
    return dcc.Input(id=input_id, type="text", inputMode="decimal", value="", debounce=True,
                     placeholder=placeholder, className="exact", autoComplete="off",
                     maxLength=40)


def superiority_card(graph_config: dict):
    """The relative superiority graph of a pair of models and the expert's cost ratios."""
    return html.Div(className="card superiority-card", children=[
        html.Div(className="card-head", children=[
            html.H2("Which model is cheaper?", title=HELP["superiority"]),
            html.Div(className="pair-row", title=HELP["sup_pair"], children=[
                dcc.Dropdown(id=ids.SUP_A, options=[], clearable=False, searchable=False,
                             placeholder="model A", className="pair-model"),
                html.Span("vs", className="hint"),
                dcc.Dropdown(id=ids.SUP_B, options=[], clearable=False, searchable=False,
                             placeholder="model B", className="pair-model"),
            ]),
        ]),
        html.Div(className="expert-row", title=HELP["expert"], children=[
            html.Label("Expert's c(FN)/c(FP)", htmlFor=ids.SUP_LOW, className="control-label",
                       title=HELP["expert"]),
            html.Label("low", htmlFor=ids.SUP_LOW, className="hint"),
            _ratio_input(ids.SUP_LOW, "½×now"),
            html.Label("most likely", htmlFor=ids.SUP_MODE, className="hint"),
            _ratio_input(ids.SUP_MODE, "now"),
            html.Label("high", htmlFor=ids.SUP_HIGH, className="hint"),
            _ratio_input(ids.SUP_HIGH, "2×now"),
        ]),
        html.Div(id=ids.SUP_MSG, className="control-message", role="status"),
        dcc.Loading(type="circle", delay_show=400,
                    overlay_style={"visibility": "visible", "opacity": 0.55},
                    children=dcc.Graph(id=ids.SUP_GRAPH, config=graph_config,
                                       className="graph sup-graph")),
    ])


_THOUSANDS = re.compile(r"^\d{1,3}(,\d{3})+(\.\d*)?$")


def parse_budget(text) -> float | None:
    """A budget typed by the user: ``"800"``, ``"1,000"``, ``"12.5"``, ``"12,5"``, ``"20%"``;
    None when empty or not a number."""
    if isinstance(text, int | float) and not isinstance(text, bool):
        return float(text) if math.isfinite(text) else None
    if not isinstance(text, str):
        return None
    t = text.strip().rstrip("%").strip().replace(" ", "").replace("\u202f", "")
    if not t:
        return None
    t = t.replace(",", "") if _THOUSANDS.match(t) else t.replace(",", ".")
    try:
        v = float(t)
    except ValueError:
        return None
    return v if math.isfinite(v) else None


def combine_options(budget_text, unit, repair, logic) -> tuple[dict, str]:
    """The validated combining options for the views, and a message about the budget box."""
    unit = "percent" if unit == "percent" or (isinstance(budget_text, str)
                                              and budget_text.strip().endswith("%")) \
        else "cases"
    budget = parse_budget(budget_text)
    message = ""
    if budget is None and isinstance(budget_text, str) and budget_text.strip():
        message = f"{excerpt(budget_text)} is not a number: no budget drawn."
    return ({"budget": budget, "unit": unit,
             "repair": repair[:1000] if isinstance(repair, str) else None,
             "logic": isinstance(logic, list) and "on" in logic}, message)


def budget_hint(options: dict) -> str:
    """The line under the budget box: what is applied and how to clear it, or how to
    apply one when none is."""
    budget = options.get("budget")
    if budget is None:
        return "Empty: no budget. Press Enter to apply."
    amount = f"{budget:,.6g}% flagged" if options.get("unit") == "percent" else \
        f"{budget:,.6g} cases"
    return f"Applied: a budget of {amount}. Clear the box and press Enter to remove it."


def _pt(label, fpr, tpr, cls=""):
    return html.Tr(className=cls, children=[html.Th(label), html.Td(f"{sig(fpr)}", className="num"),
                                            html.Td(f"{sig(tpr)}", className="num")])


def _range_row(label, lo, hi):
    return html.Tr(className="delta", children=[
        html.Th(label), html.Td(f"{sig(lo[0])}–{sig(hi[0])}", className="num"),
        html.Td(f"{sig(lo[1])}–{sig(hi[1])}", className="num")])


def _budget_block(b: BudgetView, prior: float):
    m = b.mix
    n_pos, n_neg = b.n_total * prior, b.n_total * (1 - prior)
    head = (f"Budget: {b.budget:,.6g} of N = {b.n_total:,.6g} cases ({b.n_source}), "
            f"{sig(b.percent)}% flagged, at p(+) = {sig(prior)}: the line "
            f"FPR·{n_neg:,.4g} + TPR·{n_pos:,.4g} = {b.budget:,.6g}.")
    where = (f"Achievable on the hull: FPR {sig(m.fpr)}, TPR {sig(m.tpr)} "
             f"(≈ {m.expected_tp:,.4g} positives found)")
    if (m.fpr_a, m.tpr_a) != (m.fpr_b, m.tpr_b):
        where += f", mixing rate k = {sig(m.k)}."
    else:
        where += "."
    parts = [html.P(head), html.P(where), html.P(m.how, className="how")]
    if m.note:
        parts.append(html.P(m.note[0].upper() + m.note[1:] + ".", className="hint"))
    return html.Div(className="combine-block budget-block", children=parts)


def _repair_block(name: str, r: ConcavityRepair):
    if not len(r):
        return html.Div(className="combine-block", children=html.P(
            f"Repair: {name}'s curve has no concavity (it is its own hull)."))
    gain = float(r.area_gain.sum()) / 2.0
    order = sorted(range(len(r)), key=lambda i: -r.area_gain[i])[:3]
    items = [html.Li(
        f"A ≥ {format_threshold(r.threshold_a[i])}, B ≥ {format_threshold(r.threshold_b[i])}, "
        f"C ≥ {format_threshold(r.threshold_c[i])}: B ({sig(r.fpr_b[i])}, {sig(r.tpr_b[i])}) → "
        f"B′ ({sig(r.fpr_repaired[i])}, {sig(r.tpr_repaired[i])})") for i in order]
    return html.Div(className="combine-block", children=[
        html.P(f"Repair of {name}: {len(r)} concavities; the repaired curve gains "
               f"{sig(gain)} AUC on these rows. Largest:"),
        html.Ul(items, className="repair-list"),
        html.P("B′ = A where A and C agree, the opposite of B where they differ; validate "
               "on held-out data (§7.4.5).", className="hint")])


def _logic_block(v: LogicalView):
    e = v.expected
    f, s = v.first, v.second
    tag_f = f"pin {f.label}" if f.pinned else "optimum"
    tag_s = f"pin {s.label}" if s.pinned else "optimum"
    rows = [_pt(f"{tag_f}: {f.model} ≥ {format_threshold(f.threshold)}", f.fpr, f.tpr),
            _pt(f"{tag_s}: {s.model} ≥ {format_threshold(s.threshold)}", s.fpr, s.tpr),
            _pt("AND if independent", e.and_fpr, e.and_tpr, "and-row")]
    if v.actual is not None:
        rows.append(_pt("AND actual (rows)", v.actual.and_fpr, v.actual.and_tpr, "and-row"))
    rows.append(_range_row("AND possible", (e.and_fpr_low, e.and_tpr_low),
                           (e.and_fpr_high, e.and_tpr_high)))
    rows.append(_pt("OR if independent", e.or_fpr, e.or_tpr, "or-row"))
    if v.actual is not None:
        rows.append(_pt("OR actual (rows)", v.actual.or_fpr, v.actual.or_tpr, "or-row"))
    rows.append(_range_row("OR possible", (e.or_fpr_low, e.or_tpr_low),
                           (e.or_fpr_high, e.or_tpr_high)))
    note = (f"Actual positions counted on {v.actual.n_pos + v.actual.n_neg:,.0f} rows paired "
            f"by {v.paired_by}." if v.actual is not None else
            f"No actual positions: {v.why_not}.")
    return html.Div(className="combine-block", children=[
        html.Table(className="compare logic-table", children=[
            html.Thead(html.Tr([html.Th("AND / OR"), html.Th("FPR", className="num"),
                                html.Th("TPR", className="num")])),
            html.Tbody(rows)]),
        html.P(note, className="hint")])


def combine_panel(analysis: Analysis | None, combine, pins, *, population=None, table=None,
                  det=False):
    """The read-outs of the combining card."""
    if analysis is None or not analysis.models:
        return html.P("No model is shown.", className="hint")
    if not active(combine):
        return html.P("Set a budget, choose a model to repair or tick AND / OR: the result "
                      "is drawn on the ROC view and read out here.", className="hint")
    budget, repair, logic = combine_results(analysis, combine, pins, population=population,
                                     table=table)
    blocks = []
    if det:
        blocks.append(html.P("The overlays are drawn on ROC axes: untick the DET view to see "
                             "them.", className="hint"))
    if isinstance(budget, BudgetView):
        blocks.append(_budget_block(budget, analysis.conditions.prior_pos))
    elif isinstance(budget, str):
        blocks.append(html.P(budget, className="error"))
    if isinstance(repair, tuple):
        blocks.append(_repair_block(*repair))
    elif isinstance(repair, str):
        blocks.append(html.P(repair, className="error"))
    if isinstance(logic, LogicalView):
        blocks.append(_logic_block(logic))
    elif isinstance(logic, str):
        blocks.append(html.P(logic, className="hint"))
    return blocks


def superiority_outputs(analysis: Analysis | None, model_a, model_b, low, mode, high, *,
                        font_size=14):
    """``(figure, message)`` of the relative superiority card."""
    names = [m.name for m in analysis.models] if analysis is not None else []
    if len(names) < 2:
        return empty_figure(font_size), "Show two models to compare them."
    if model_a not in names or model_b not in names or model_a == model_b:
        return empty_figure(font_size), "Choose two different shown models."
    values = {}
    for key, text in (("low", low), ("mode", mode), ("high", high)):
        v = parse_budget(text)
        if isinstance(text, str) and text.strip() and v is None:
            return no_update, f"{excerpt(text)} is not a number."
        values[key] = v
    try:
        view = superiority_view(analysis, model_a, model_b, **values)
    except ValueError as exc:
        return no_update, in_page_words(exc, 'the cost ratio')
    return superiority_figure(view, font_size=font_size), ""


# -- wiring ------------------------------------------------------------------------------
def register(app, cache, store) -> None:
    """Callbacks of the two cards (the overlays ride on the views callback)."""

    _register_options(app, cache, store)
    _register_cards(app, cache, store)


def _register_options(app, cache, store) -> None:
    """The combining options and the model pairs offered."""

    @app.callback(
        Output(ids.COMBINE, "data"),
        Output(f"{ids.BUDGET}-hint", "children"),
        Input(ids.BUDGET, "value"),
        Input(ids.BUDGET_UNIT, "value"),
        Input(ids.REPAIR_MODEL, "value"),
        Input(ids.LOGIC, "value"),
    )
    def combine_store(budget, unit, repair, logic):
        options, message = combine_options(budget, unit, repair, logic)
        return options, message or budget_hint(options)

    @app.callback(
        output={"repair_options": Output(ids.REPAIR_MODEL, "options"),
                "repair": Output(ids.REPAIR_MODEL, "value"),
                "a_options": Output(ids.SUP_A, "options"), "a": Output(ids.SUP_A, "value"),
                "b_options": Output(ids.SUP_B, "options"), "b": Output(ids.SUP_B, "value")},
        inputs={"page": dependencies(Input, "datasets", "models"),
                "repair": State(ids.REPAIR_MODEL, "value"), "a": State(ids.SUP_A, "value"),
                "b": State(ids.SUP_B, "value")},
    )
    def pair_options(page, repair, a, b):
        # the models by key (dataset id and name): adding a dataset keeps the choices
        page = PageState.from_dash(page)
        refs = model_refs(cache, page.datasets)
        shown = shown_keys(cache, page)
        options = [{"label": refs[k], "value": k} for k in shown]
        a = a if a in shown else (shown[0] if shown else None)
        b = b if b in shown and b != a else next((m for m in shown if m != a), None)
        return {"repair_options": options, "repair": repair if repair in shown else None,
                "a_options": options, "a": a, "b_options": options, "b": b}


def _register_cards(app, cache, store) -> None:
    """The read-outs of the combining card (Beyond binary) and the superiority graph
    (Compare), each computed only while its tab is shown (and when it is opened)."""

    @app.callback(
        output=Output(ids.COMBINE_RESULT, "children"),
        inputs={"page": {**dependencies(Input, "datasets", "models", "pins", "det"),
                         "tab": tab_gate("beyond"),
                         **dependencies(State, "conditions", "level", "band", "samples")},
                "combine": Input(ids.COMBINE, "data")},
    )
    def combine_result(page, combine):
        page = tab_page(page, "beyond")
        if page is None:
            return no_update
        analysis = shown_analysis(cache, page)
        refs = model_refs(cache, page.datasets)
        pins = (pinned_points(analysis, shown_pins(page.pins, refs)) if analysis is not None
                else [])
        reference = page.control.reference_class
        return combine_panel(analysis, shown_combine(combine, refs), pins,
                             population=page.control.population,
                             table=lambda: cache.table(list(page.datasets), reference),
                             det=page.det)

    @app.callback(
        output={"figure": Output(ids.SUP_GRAPH, "figure"),
                "message": Output(ids.SUP_MSG, "children")},
        # after the views: every change of data, models or conditions redraws them (the
        # viz-data store is written each time), and this card, below the fold, then follows
        # without competing with them for the server and the browser
        inputs={"viz": State(ids.VIZ_DATA, "data"),
                "pair": {"a": Input(ids.SUP_A, "value"), "b": Input(ids.SUP_B, "value")},
                "expert": (Input(ids.SUP_LOW, "value"), Input(ids.SUP_MODE, "value"),
                           Input(ids.SUP_HIGH, "value")),
                "presentation": Input(ids.PRESENTATION, "value"),
                "tab": tab_gate("compare"), "page": dependencies(State, *SHOWN_FIELDS)},
    )
    def superiority(viz, pair, expert, presentation, tab, page):
        page = PageState.from_dash(page)
        if not tab_shown(tab, "compare"):
            raise PreventUpdate
        if page.conditions is None:
            return {"figure": no_update, "message": no_update}
        analysis = shown_analysis(cache, page)
        refs = model_refs(cache, page.datasets)
        figure, message = superiority_outputs(
            analysis, refs.get(pair["a"]), refs.get(pair["b"]), *expert,
            font_size=FONT[bool(presentation)])
        return {"figure": figure, "message": message}
