"""Several classes with a cost matrix: the *Beyond binary* tab's card for multi-class files.

A ``k × k`` cost matrix typed as rows (``0 1 5; 1 0 1; 2 1 0``: row ``i`` the true class,
column ``j`` the class decided; empty: 0 on the diagonal and 1 off it) and a deployment
prior of the classes (empty: the data's class shares) give, for the model the multi-class
card shows, the Bayes decision, the class weights of least expected cost on the data, its
confusion matrix and expected cost, beside one-vs-rest thresholds and the argmax
(:func:`~roc_dash.core.constraints.cost_matrix.cost_matrix_decision`, through
:func:`~roc_dash.decision.multiclass.build_multiclass_decision`, the record ``roc-dash
decide --cost-matrix`` writes). *Download decision* writes that record, which scikit-learn
loads (:meth:`~roc_dash.decision.multiclass.MulticlassDecisionRecord.classifier`).

Bad input (a negative cost, a matrix of the wrong shape, a prior that is not one share per
class) gives a message under the editor and leaves the last result shown; a prior whose
shares do not sum to 1 is normalised, with a note. The matrix and the prior are fields of
the page's state (the link, saved views, the HTML report).
"""

from __future__ import annotations

import json

from dash import Input, Output, State, dcc, html, no_update
from dash.exceptions import PreventUpdate

from ...figures.cost_matrix import RULES, confusion_figure
from ...text.rounding import sig
from .. import ids
from ..class_costs import (
    model_classes,
    model_decision,
    model_record,
    parse_matrix,
    parse_prior,
)
from ..components import graph_config, values_from_link
from ..core_words import reason_of
from ..page_state import PageState, dependencies
from ..state import FONT, tab_shown

__all__ = ["matrix_table", "result_table", "card", "card_outputs", "decision_file",
           "register"]

_HELP = ("The cost of each decision among the classes: row i is the true class, column j the "
         "class decided (0 on the diagonal and 1 off it: every mistake costs 1, the argmax "
         "of calibrated probabilities). Rows separated by ; and numbers by spaces or commas. "
         "Press Enter.")
_PRIOR_HELP = ("The share of each class where the model is used, in the classes' order "
               "(empty: the data's shares). Shares that do not sum to 1 are normalised.")


# ---------------------------------------------------------------------------- output
def matrix_table(classes, matrix, prior, data_prior):
    """The matrix read, rows the true class and columns the decision, with the prior."""
    head = html.Tr([html.Th("true \\ decided", title="rows: the true class; columns: the "
                                                      "class decided"),
                    *[html.Th(c) for c in classes], html.Th("prior")])
    p = data_prior if prior is None else prior
    rows = [html.Tr([html.Th(c), *[html.Td(sig(v), className="num") for v in matrix[i]],
                     html.Td(sig(p[i]), className="num cmx-prior-cell")])
            for i, c in enumerate(classes)]
    return html.Table(className="models cmx-matrix-table",
                      children=[html.Thead(head), html.Tbody(rows)])


def result_table(model: str, n_rows: int, d):
    """The rules compared: expected cost per case at the prior, and their weights or
    thresholds."""
    fmt = lambda a: ", ".join(sig(v) for v in a)  # noqa: E731
    rows = [("fitted", d.expected_cost, f"weights {fmt(d.weights)} ({d.method})"),
            ("bayes", d.bayes_cost, f"weights {fmt(d.bayes_weights)} (prior / data's shares)"),
            ("ovr", d.ovr_cost, f"thresholds {fmt(d.ovr_thresholds)}"),
            ("argmax", d.argmax_cost, "the most probable class")]
    body = [html.Tr([html.Td(RULES[r]), html.Td(sig(cost), className=f"num cmx-cost-{r}"),
                     html.Td(what, className="hint")]) for r, cost, what in rows]
    return html.Div([
        html.Table(className="models cmx-rules", children=[
            html.Thead(html.Tr([html.Th("Rule"), html.Th("Expected cost per case",
                                                          title="at the prior, on the data"),
                                html.Th("How it decides")])),
            html.Tbody(body)]),
        *[html.P(n, className="hint") for n in d.notes],
        html.P(f"{model}: {n_rows:,} rows; the downloaded record's rule is the fitted "
               "weights.", className="hint")])


def card():
    """The card (hidden until a multi-class model is shown): the matrix and prior inputs
    with their message, the matrix read, the rules compared, the confusion matrix and the
    download."""
    return html.Div(id=ids.CMX_CARD, className="card cmx-card", style={"display": "none"},
                    children=[
        html.Div(className="card-head", children=[
            html.H2("Several classes: a cost matrix", title=_HELP)]),
        html.Div(className="dct-inputs cmx-inputs", children=[
            html.Label("Cost matrix", htmlFor=ids.CMX_MATRIX, title=_HELP),
            dcc.Input(id=ids.CMX_MATRIX, type="text", debounce=True, value="",
                      placeholder="0 1 1; 1 0 1; 1 1 0 (rows: true class)",
                      className="cmx-matrix", maxLength=2000),
            html.Label("Prior", htmlFor=ids.CMX_PRIOR, title=_PRIOR_HELP),
            dcc.Input(id=ids.CMX_PRIOR, type="text", debounce=True, value="",
                      placeholder="the data's shares", className="cmx-prior", maxLength=500),
            html.Div(id=ids.CMX_MSG, className="dct-msg warn", role="alert"),
        ]),
        html.Div(id=ids.CMX_TABLE, className="table-scroll"),
        html.Div(id=ids.CMX_RESULT, className="table-scroll"),
        dcc.Graph(id=ids.CMX_GRAPH, config=graph_config("cost-matrix"),
                  className="graph cmx-graph"),
        html.Div(className="cmx-export", children=[
            html.Button("Download decision (several classes)", id=ids.CMX_EXPORT, n_clicks=0,
                        className="button",
                        title="The record of the fitted rule, which roc_dash.decision."
                              "multiclass.load reads and scikit-learn applies"),
            html.Span(id=ids.CMX_STATUS, className="hint", role="status")]),
        dcc.Download(id=ids.CMX_DOWNLOAD),
    ])


def card_outputs(cache, key, matrix_text, prior_text, font=14) -> dict:
    """The card's outputs for the model ``key`` and what was typed; on bad input only the
    message (the rest as it was)."""
    classes = model_classes(cache, key)
    if len(classes) < 2:
        raise PreventUpdate
    matrix, msg = parse_matrix(matrix_text, classes)
    prior, prior_msg, note = parse_prior(prior_text, classes)
    message = " ".join(m for m in (msg, prior_msg) if m)
    if matrix is None:
        return {"msg": message, "table": no_update, "result": no_update, "figure": no_update}
    try:
        n_rows, d = model_decision(cache, key, matrix, prior)
    except ValueError as exc:
        return {"msg": f"No decision: {reason_of(exc)}.", "table": no_update, "result": no_update,
                "figure": no_update}
    return {"msg": " ".join(m for m in (message, note) if m),
            "table": matrix_table(classes, matrix, prior, d.data_prior),
            "result": result_table(key.split("/", 1)[-1], n_rows, d),
            "figure": confusion_figure(d, font_size=font)}


# ---------------------------------------------------------------------------- wiring
def register(app, cache, store) -> None:
    """The card (while Beyond binary is shown), its download and the link."""
    values_from_link(app, (("cost_matrix", ids.CMX_MATRIX), ("class_prior", ids.CMX_PRIOR)))

    @app.callback(Output(ids.CMX_CARD, "style"), Input(ids.MC_MODEL, "options"))
    def shown(options):
        return {} if options else {"display": "none"}

    @app.callback(
        output={"msg": Output(ids.CMX_MSG, "children"),
                "table": Output(ids.CMX_TABLE, "children"),
                "result": Output(ids.CMX_RESULT, "children"),
                "figure": Output(ids.CMX_GRAPH, "figure")},
        inputs={"model": Input(ids.MC_MODEL, "value"),
                "page": dependencies(Input, "cost_matrix", "class_prior", "presentation",
                                     "tab")},
    )
    def cost_matrix_view(model, page):
        page = PageState.from_dash(page)
        if not isinstance(model, str) or not tab_shown(page.tab, "beyond"):
            raise PreventUpdate
        return card_outputs(cache, model, page.cost_matrix, page.class_prior,
                            FONT[page.presentation])

    @app.callback(
        output={"file": Output(ids.CMX_DOWNLOAD, "data"),
                "status": Output(ids.CMX_STATUS, "children")},
        inputs={"clicks": Input(ids.CMX_EXPORT, "n_clicks"),
                "model": State(ids.MC_MODEL, "value"),
                "page": dependencies(State, "cost_matrix", "class_prior")},
        prevent_initial_call=True,
    )
    def download(clicks, model, page):
        if not clicks or not isinstance(model, str):
            raise PreventUpdate
        file, status = decision_file(cache, model, PageState.from_dash(page))
        return {"file": file, "status": status}


def decision_file(cache, key, page: PageState):
    """``(file, status)`` of *Download decision (several classes)*: the record under the
    page's matrix and prior; nothing (and why) on bad input."""
    classes = model_classes(cache, key)
    matrix, msg = parse_matrix(page.cost_matrix, classes)
    prior, prior_msg, _ = parse_prior(page.class_prior, classes)
    if matrix is None or prior_msg:
        return no_update, "Nothing was downloaded: " + (msg or prior_msg)
    from datetime import UTC, datetime

    try:
        record = model_record(cache, key, matrix, prior,
                              datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"))
    except ValueError as exc:
        return no_update, f"Nothing was downloaded: {reason_of(exc)}."
    text = json.dumps(record.to_dict(), indent=2, allow_nan=False) + "\n"
    return (dcc.send_string(text, "roc-dash-multiclass-decision.json"),
            f"Downloaded the decision of {record.model} under the cost matrix "
            f"(expected cost {sig(record.expected_cost)} per case at the prior).")
