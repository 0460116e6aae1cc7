"""The *Model comparison* card (Compare tab): every pair of the shown models and when each one
is the best choice.

* The k × k matrix of DeLong paired AUC differences (row minus column, DeLong et al. 1988),
  from :attr:`~roc_dash.core.assembly.analysis.Analysis.model_comparison`, with the raw,
  Holm and Benjamini-Hochberg adjusted p-value (a selector picks the one shown; the cell's
  tooltip gives all three); pairs not scored on the same rows are not tested, and the card
  says so.
* Per model, the cost ratios ``c(FN)/c(FP)`` at the current prior over which it is on the
  joint hull, or "never optimal under any costs or prior" (Fawcett 2004, §7.1), from
  :attr:`~roc_dash.core.assembly.analysis.Analysis.optimal_ranges`.

Both are computed from the pooled predictions (all folds' rows as one test set). No
arithmetic here: the wording comes from :mod:`roc_dash.report.comparison_text`.

A second selector shows instead the matrix of the McClish partial AUC over ``FPR <= A``
(``A`` the model table's pAUC limit), by a paired stratified bootstrap
(:func:`..analysis.pauc_comparison`), computed only when chosen and cached.
"""

from __future__ import annotations

import math

from dash import Input, Output, State, dcc, html, no_update

from ...core.analysis_types import Analysis
from ...report.comparison_text import (
    P_KINDS,
    optimal_range_text,
    p_text,
    pair_cell,
    unpaired_note,
)
from .. import ids
from ..analysis import pauc_comparison, shown_analysis
from ..help import HELP
from ..page_state import dependencies, tab_gate, tab_page

__all__ = ["comparison_card", "comparison_panel", "register"]

#: The p-value shown in the cells before anyone chooses.
DEFAULT_P = "holm"


def comparison_card():
    """The card: the p-value selector, then the matrix and the optimal cost ranges."""
    return html.Div(className="card comparison-card", children=[
        html.Div(className="card-head", children=[
            html.H2("Model comparison", title=HELP["model_comparison"]),
            html.Div(className="control", title=HELP["p_kind"], children=[
                html.Span("p-value shown: ", className="hint"),
                dcc.RadioItems(id=ids.P_KIND, value=DEFAULT_P, inline=True,
                               className="radios inline", options=[
                                   {"label": "raw", "value": "raw"},
                                   {"label": "Holm", "value": "holm"},
                                   {"label": "Benjamini-Hochberg", "value": "bh"}]),
            ]),
            html.Div(className="control", title=HELP["cmp_measure"], children=[
                html.Span("compare: ", className="hint"),
                dcc.RadioItems(id=ids.CMP_MEASURE, value="auc", inline=True,
                               className="radios inline", options=[
                                   {"label": "AUC (DeLong)", "value": "auc"},
                                   {"label": "partial AUC (bootstrap)", "value": "pauc"}]),
            ]),
        ]),
        dcc.Loading(type="dot", delay_show=400, children=html.Div(
            id=ids.COMPARISON_RESULT, className="comparison-result", role="status")),
    ])


def _matrix(c, p_kind: str):
    attr, label = next((a, lab) for k, a, lab in P_KINDS if k == p_kind)
    names = list(c.models)
    head = html.Tr([html.Th("row − column"), *[
        html.Th([html.Span(f"{j + 1}", className="col-number"), f" {n}"], title=n,
                className="col-model") for j, n in enumerate(names)]])
    rows = []
    for i, a in enumerate(names):
        cells = [html.Th([html.Span(f"{i + 1}", className="col-number"), f" {a}"], title=a)]
        for j in range(len(names)):
            text, tip = pair_cell(c, i, j)
            p = float(getattr(c, attr)[i, j])
            if not math.isfinite(p):
                cells.append(html.Td(text, title=tip, className="num untested"))
                continue
            cells.append(html.Td(title=tip, className="num" + (" significant" if p < 0.05
                                                               else ""), children=[
                html.Span(text, className="diff"), html.Br(),
                html.Span(f"p {p_text(p)}", className="p")]))
        rows.append(html.Tr(cells))
    what = ("ΔAUC (pooled predictions), DeLong paired test" if c.max_fpr is None else
            f"ΔpAUC over FPR ≤ {c.max_fpr:g} (McClish; pooled predictions), paired "
            f"stratified bootstrap of {c.n_boot} replicates")
    caption = (f"{what}; {label} over {c.n_tests} tested pairs (bold: below 0.05). Hover a "
               "cell for all three p-values.")
    return html.Table(className="models matrix", children=[
        html.Caption(caption, className="hint"), html.Thead(head), html.Tbody(rows)])


def _ranges(analysis: Analysis):
    r = analysis.optimal_ranges
    items = [html.Li([html.B(x.model), ": ", optimal_range_text(x)],
                     className="never" if x.never_optimal else "")
             for x in r.ranges]
    return [html.H3("When is each model the best choice?", title=HELP["optimal_cost_range"]),
            html.P("On the joint convex hull of the shown models' pooled ROC curves "
                   "(Fawcett 2004, §7.1).", className="hint"),
            html.Ul(items, className="optimal-ranges")]


def comparison_panel(analysis: Analysis | None, p_kind: str = DEFAULT_P, partial=False):
    """The card's content for ``analysis``: the matrix (of the AUC, or with ``partial`` the
    partial-AUC comparison given, or None when unpaired), a note on unpaired models and each
    model's optimal cost range; a hint with fewer than two models."""
    if analysis is None or len(analysis.models) < 2:
        return html.P("Show two or more models to compare them.", className="hint")
    p_kind = p_kind if p_kind in {k for k, _, _ in P_KINDS} else DEFAULT_P
    c = analysis.model_comparison if partial is False else partial
    parts = []
    if c is not None:
        parts.append(html.Div(_matrix(c, p_kind), className="table-scroll"))
    note = unpaired_note(c, len(analysis.models))
    if note:
        parts.append(html.P(note, className="note unpaired"))
    if analysis.optimal_ranges is not None:
        parts.extend(_ranges(analysis))
    return parts


def register(app, cache, store) -> None:
    """One callback: the card's content for the shown data, models, conditions and p-value,
    computed only while the Compare tab is shown (and when it is opened)."""

    @app.callback(
        output=Output(ids.COMPARISON_RESULT, "children"),
        inputs={"page": {**dependencies(Input, "datasets", "models"), "tab": tab_gate("compare"),
                         **dependencies(State, "conditions", "level", "band", "samples")},
                "p_kind": Input(ids.P_KIND, "value"), "measure": Input(ids.CMP_MEASURE,
                                                                        "value")},
    )
    def comparison_result(page, p_kind, measure):
        page = tab_page(page, "compare")
        if page is None:
            return no_update
        analysis = shown_analysis(cache, page)
        if measure == "pauc" and analysis is not None and len(analysis.models) > 1:
            return comparison_panel(analysis, p_kind, pauc_comparison(
                cache, list(page.datasets), analysis, page.control.to_store()))
        return comparison_panel(analysis, p_kind)
