"""The linked views: ROC, precision-recall, cost curves and cost against threshold.

This feature owns the graph cards, the *Folds* and *Models and view* panels, the views
callback (which draws them for the data, models and conditions, see :mod:`..render`; the
controls callback of :mod:`.conditions` draws them too for new costs or a new prior), the
settings a link restores, and the clientside callbacks that keep a zoom, link the hover
across the views, show the ROC's hint and switch presentation mode.
"""

from __future__ import annotations

from dash import ClientsideFunction, Input, Output, State, ctx, dcc, html, no_update
from dash.exceptions import PreventUpdate

from ...figures import GRAPH_CONFIG
from .. import ids
from ..components import graph_config, labelled
from ..help import HELP
from ..render import update_views
from ..state import clamp_samples, parse_query

__all__ = ["ROC_HINTS", "ROC_CONFIG", "graph_card", "folds_panel", "view_panel", "roc_card",
           "pr_card", "cost_card", "threshold_card", "models_card", "register"]


#: The hint above the ROC view, on ROC, DET and log-FPR axes (the iso line is straight
#: only on linear ROC axes: on the others it is a curve that the sliders move, not a drag).
ROC_HINTS = {
    "roc": "drag the red line to change the cost ratio",
    "det": "DET axes: the iso-performance line is a curve here, moved with the cost and "
           "prior sliders (drag it on ROC axes)",
    "log": "log FPR axis: the iso line is a curve here, moved with the cost and prior "
           "sliders (drag it on linear axes)",
}


#: The ROC graph lets the user drag the iso-performance line (layout.shapes[0]).
ROC_CONFIG = {**GRAPH_CONFIG, "edits": {"shapePosition": True}}


def graph_card(title, graph_id: str, config: dict, *, extra=None):
    # the figure stays visible (dimmed) while an update runs
    return html.Div(className="card", children=[
        html.Div(className="card-head", children=[html.H2(title), *(extra or [])]),
        dcc.Loading(type="circle", delay_show=400,
                    overlay_style={"visibility": "visible", "opacity": 0.55},
                    children=dcc.Graph(id=graph_id, config=config, className="graph",
                                       clear_on_unhover=True)),
    ])


def folds_panel():
    """Averaging over folds, the confidence level, samples and band."""
    return html.Section(className="panel", children=[
        html.H2("Folds"),
        labelled("Averaging", help_text=HELP["averaging"], control=dcc.RadioItems(
            id=ids.AVERAGING, value="pooled", className="radios",
            options=[{"label": "none (each fold)", "value": "none"},
                     {"label": "pooled", "value": "pooled"},
                     {"label": "vertical", "value": "vertical"},
                     {"label": "threshold", "value": "threshold"}])),
        html.Div(className="control-row", children=[
            labelled("Confidence", help_text=HELP["level"], control=dcc.Dropdown(
                id=ids.LEVEL, value=0.95, clearable=False, searchable=False,
                options=[{"label": f"{v:.0%}", "value": v} for v in (0.8, 0.9, 0.95, 0.99)])),
            # a text box (a number box with step 1 hands Dash None for "7.5"), read on Enter or
            # when it loses focus. Not debounce=True: dcc.Input then puts the caret back with a
            # timer after each keystroke, and keys that arrive while the page is busy (drawing
            # the views) are typed at the old caret: "7.5" became "75.". Only the checked
            # number (SAMPLES_OK) reaches the views, so keystrokes cost nothing.
            labelled("Samples", help_text=HELP["samples"], control=dcc.Input(
                id=ids.SAMPLES, type="text", inputMode="numeric", value="51", debounce=False,
                className="exact", autoComplete="off", maxLength=12),
                      html_for=ids.SAMPLES),
        ]),
        html.Div(id=ids.SAMPLES_MSG, className="control-message", role="status"),
        dcc.Store(id=ids.SAMPLES_OK, data=51),
        labelled("Band", help_text=HELP["band"], control=dcc.RadioItems(
            id=ids.BAND, value="pointwise", className="radios",
            options=[{"label": "pointwise", "value": "pointwise"},
                     {"label": "simultaneous", "value": "simultaneous"}])),
    ])


def view_panel():
    """The models shown, DET axes, tie bounds and presentation mode."""
    return html.Section(className="panel", children=[
        html.H2("Models and view"),
        html.Div(title=HELP["models"], children=dcc.Checklist(
            id=ids.MODELS, options=[], value=[], className="checks model-list")),
        html.Div(title=HELP["det"], children=dcc.Checklist(
            id=ids.DET, options=[{"label": "ROC as DET (normal-deviate axes)", "value": "det"}],
            value=[], className="checks")),
        html.Div(title=HELP["log_fpr"], children=dcc.Checklist(
            id=ids.ROC_LOG_FPR, options=[{"label": "Log FPR axis (ROC, for AUC near 1)",
                                          "value": "log"}],
            value=[], className="checks")),
        html.Div(title=HELP["ties"], children=dcc.Checklist(id=ids.ROC_TIES, options=[{
            "label": "Tie bounds on the ROC (optimistic–pessimistic)", "value": "ties"}],
            value=[], className="checks")),
        html.Div(title=HELP["presentation"], children=dcc.Checklist(
            id=ids.PRESENTATION, options=[{"label": "Presentation mode (large fonts)",
                                           "value": "on"}],
            value=[], className="checks")),
    ])


def roc_card():
    """The ROC view, with the hint on what a drag does."""
    return graph_card("ROC", ids.ROC_GRAPH, graph_config("roc", ROC_CONFIG),
                      extra=[html.Span(ROC_HINTS["roc"], id=ids.ROC_HINT, className="hint")])


def pr_card():
    """The precision-recall view at the deployment prior, with its PR / PR gain switch."""
    return graph_card("Precision-recall at the deployment prior", ids.PR_GRAPH,
                      graph_config("pr"), extra=[
                          html.Div(title=HELP["pr_radio"], children=dcc.RadioItems(
                              id=ids.PR_MODE, value="pr", inline=True,
                              className="radios inline",
                              options=[{"label": "PR", "value": "pr"},
                                       {"label": "PR gain", "value": "prg"}]))])


def cost_card():
    """The cost curves, or in their place the decision curve (net benefit, Vickers & Elkin
    2006): both read the costs as one number (PC(+) or the threshold probability p_t)."""
    title = html.Span("Cost curves", id=ids.COST_TITLE)  # names the mode shown
    return graph_card(title, ids.COST_GRAPH, graph_config("cost"), extra=[
        html.Div(title="Cost curves (Drummond & Holte) or the decision curve: net benefit "
                       "against the threshold probability p_t = c(FP)/(c(FP)+c(FN)) "
                       "(Vickers & Elkin 2006)",
                 children=dcc.RadioItems(
                     id=ids.COST_MODE, value="cost", inline=True, className="radios inline",
                     options=[{"label": "Cost curves", "value": "cost"},
                              {"label": "Decision curve", "value": "decision"}]))])


def threshold_card():
    """Cost against threshold of one model, on thresholds or on the share flagged."""
    return graph_card("Cost against threshold", ids.THRESHOLD_GRAPH,
                      graph_config("threshold"), extra=[
                          html.Div(title=HELP["threshold_model"], children=dcc.Dropdown(
                              id=ids.THRESHOLD_MODEL, options=[], clearable=False,
                              searchable=False, placeholder="model",
                              className="threshold-model")),
                          html.Div(title=HELP["threshold_axis"], children=dcc.RadioItems(
                              id=ids.THRESHOLD_AXIS, value="threshold", inline=True,
                              className="radios inline",
                              options=[{"label": "threshold", "value": "threshold"},
                                       {"label": "% flagged", "value": "flagged"}]))])


def models_card():
    """The model table (filled by the views callback)."""
    return html.Div(className="card", children=[
        html.H2("Models"),
        html.Div(id=ids.MODEL_TABLE, className="table-scroll")])


# -- wiring ------------------------------------------------------------------------------
def register(app, cache, store) -> None:
    """The views callback, the restored settings and the views' clientside callbacks."""

    _register_samples(app)
    _register_views(app, cache, store)
    _register_browser(app, cache, store)


def _register_samples(app) -> None:
    """The samples box: read on Enter or blur, checked, the number in use kept."""

    @app.callback(
        Output(ids.SAMPLES, "value"),
        Output(ids.SAMPLES_MSG, "children"),
        Output(ids.SAMPLES_OK, "data"),
        Input(ids.SAMPLES, "n_submit"),
        Input(ids.SAMPLES, "n_blur"),
        State(ids.SAMPLES, "value"),
        State(ids.SAMPLES_OK, "data"),
        prevent_initial_call=True,
    )
    def samples(_submit, _blur, value, previous):
        previous, _ = clamp_samples(previous)
        if str(value).strip() == str(previous):
            raise PreventUpdate  # Enter or a click elsewhere on the number in use: keep its note
        n, message = clamp_samples(value, previous)
        return ((str(n) if str(value).strip() != str(n) else no_update), message,
                n if n != previous else no_update)


def _register_views(app, cache, store) -> None:
    """The settings a link restores and the views callback."""

    @app.callback(
        Output(ids.AVERAGING, "value"),
        Output(ids.LEVEL, "value"),
        Output(ids.BAND, "value"),
        Output(ids.SAMPLES, "value", allow_duplicate=True),
        Output(ids.SAMPLES_OK, "data", allow_duplicate=True),
        Output(ids.DET, "value"),
        Output(ids.PRESENTATION, "value"),
        Output(ids.ROC_TIES, "value"),
        Output(ids.PR_MODE, "value"),
        Output(ids.COST_MODE, "value"),
        Output(ids.ROC_LOG_FPR, "value"),
        Input(ids.URL, "search"),
        prevent_initial_call="initial_duplicate",
    )
    def restore_view(search):
        q = parse_query(search)
        if not q:
            raise PreventUpdate
        out = [q.get(k, no_update) for k in (
            "averaging", "level", "band", "samples", "det", "presentation", "ties", "pr_mode",
            "cost_mode", "log_fpr")]
        n = out[3]
        # the samples box holds text; the views read the checked number
        out[3:4] = (str(n), n) if isinstance(n, int) else (no_update, no_update)
        return tuple(out)

    @app.callback(
        Output(ids.ROC_GRAPH, "figure"),
        Output(ids.PR_GRAPH, "figure"),
        Output(ids.COST_GRAPH, "figure"),
        Output(ids.OPERATING, "children"),
        Output(ids.MODEL_TABLE, "children"),
        Output(ids.VIZ_DATA, "data"),
        Output(ids.SLOPE_TEXT, "children"),
        Output(ids.BANNER, "children"),
        Output(ids.SUMMARY, "children"),
        Output(ids.THRESHOLD_GRAPH, "figure"),
        Output(ids.THRESHOLD_MODEL, "value"),  # always the model the threshold view shows
        Input(ids.DATASETS, "data"),
        Input(ids.MODELS, "value"),
        Input(ids.CONDITIONS, "data"),
        Input(ids.AVERAGING, "value"),
        Input(ids.LEVEL, "value"),
        Input(ids.BAND, "value"),
        Input(ids.SAMPLES_OK, "data"),
        Input(ids.DET, "value"),
        Input(ids.PRESENTATION, "value"),
        Input(ids.PINNED, "data"),
        Input(ids.ROC_TIES, "value"),
        Input(ids.PR_MODE, "value"),
        Input(ids.THRESHOLD_MODEL, "value"),
        Input(ids.THRESHOLD_AXIS, "value"),
        Input(ids.COMBINE, "data"),
        Input(ids.COST_MODE, "value"),
        Input(ids.ROC_LOG_FPR, "value"),
        State(ids.ZOOM, "data"),
        State(ids.VIZ_DATA, "data"),
    )
    def views(dataset_ids, models, state, averaging, level, band, samples, det, presentation,
              pinned, ties, pr_mode, threshold_model, threshold_axis, combine, cost_mode,
              log_fpr, zoom, viz):
        if state is None:
            raise PreventUpdate  # the controls have not resolved the conditions yet
        if (ctx.triggered_id == ids.CONDITIONS and len(ctx.triggered) == 1
                and isinstance(viz, dict) and viz.get("state") == state):
            raise PreventUpdate  # the controls callback has already drawn these conditions
        return update_views(cache, dataset_ids, models, state, averaging, level, band,
                            samples, det, presentation, pinned, ties, pr_mode,
                            threshold_model, threshold_axis, combine, zoom, viz,
                            conditions_changed=ctx.triggered_id == ids.CONDITIONS,
                            new_pin=ctx.triggered_id == ids.PINNED, cost_mode=cost_mode,
                            log_fpr=bool(log_fpr))


def _register_browser(app, cache, store) -> None:
    """Zooms kept, hover linked, the ROC's hint and presentation mode (clientside)."""

    app.clientside_callback(
        ClientsideFunction("rocDash", "keepZoom"),
        Output(ids.ZOOM, "data"),
        Input(ids.ROC_GRAPH, "relayoutData"),
        Input(ids.PR_GRAPH, "relayoutData"),
        Input(ids.COST_GRAPH, "relayoutData"),
        State(ids.ZOOM, "data"),
        State(ids.DET, "value"),
        prevent_initial_call=True,
    )

    app.clientside_callback(
        ClientsideFunction("rocDash", "linkHover"),
        Output(ids.ROC_GRAPH, "figure", allow_duplicate=True),
        Output(ids.PR_GRAPH, "figure", allow_duplicate=True),
        Output(ids.COST_GRAPH, "figure", allow_duplicate=True),
        Output(ids.THRESHOLD_GRAPH, "figure", allow_duplicate=True),
        Input(ids.ROC_GRAPH, "hoverData"),
        Input(ids.PR_GRAPH, "hoverData"),
        Input(ids.COST_GRAPH, "hoverData"),
        Input(ids.THRESHOLD_GRAPH, "hoverData"),
        State(ids.VIZ_DATA, "data"),
        State(ids.DET, "value"),
        State(ids.ROC_GRAPH, "figure"),
        State(ids.PR_GRAPH, "figure"),
        State(ids.COST_GRAPH, "figure"),
        State(ids.THRESHOLD_GRAPH, "figure"),
        prevent_initial_call=True,
    )

    app.clientside_callback(
        f"function (det, log) {{ return det && det.length ? {ROC_HINTS['det']!r} : "
        f"log && log.length ? {ROC_HINTS['log']!r} : {ROC_HINTS['roc']!r}; }}",
        Output(ids.ROC_HINT, "children"),
        Input(ids.DET, "value"),
        Input(ids.ROC_LOG_FPR, "value"),
    )

    app.clientside_callback(
        "function (mode) { return mode === 'decision' ? "
        "'Decision curve: net benefit' : 'Cost curves'; }",
        Output(ids.COST_TITLE, "children"),
        Input(ids.COST_MODE, "value"),
    )

    app.clientside_callback(
        ClientsideFunction("rocDash", "presentation"),
        Output(ids.APP, "className"),
        Input(ids.PRESENTATION, "value"),
    )
