"""The linked views: ROC, precision-recall, cost curves and cost against threshold.

This feature owns the graph cards, the *Folds* and *Models and view* panels, the views
callback, the settings a link restores, and the clientside callbacks that keep a zoom, link
the hover across the views, show the ROC's hint and switch presentation mode. The views
callback is the one owner of the conditions store, of what the cost and prior controls show
and of the views: a gesture on the controls (:mod:`..gestures`) and the views drawn for the
new conditions (:mod:`..render`) come back in one response; it takes the page's fields by
name (:func:`..page_state.dependencies`).
"""

from __future__ import annotations

import dataclasses

from dash import ClientsideFunction, Input, Output, State, ctx, dcc, html, no_update
from dash.exceptions import PreventUpdate

from ...figures import GRAPH_CONFIG
from .. import ids
from ..analysis import data_prior
from ..components import graph_config, labelled
from ..gestures import (
    CONTROL_OUTPUTS,
    ECONOMICS_OUTPUTS,
    GESTURE_IDS,
    GESTURE_INPUTS,
    apply_gesture,
    control_outputs,
    economics_outputs,
    gesture_of,
)
from ..help import HELP
from ..page_state import PageState, dependencies, parse_link, tab_gate, tab_page
from ..render import VIEW_FIELDS, VIEW_OUTPUTS, models_table, update_views
from ..state import ControlState, clamp_samples

__all__ = ["ROC_HINTS", "ROC_CONFIG", "graph_card", "folds_panel", "view_panel", "roc_card",
           "pr_card", "cost_card", "threshold_card", "models_card", "register", "decide",
           "restored_settings"]


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
    """The model table (drawn when the Compare tab shows: :func:`..render.models_table`)."""
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
    """The samples box: read on Enter or blur, checked, the number in use kept; a link's
    number restored on the page's first call."""

    @app.callback(
        output={"box": Output(ids.SAMPLES, "value"), "message": Output(ids.SAMPLES_MSG,
                                                                         "children"),
                "used": Output(ids.SAMPLES_OK, "data")},
        inputs={"submit": Input(ids.SAMPLES, "n_submit"), "blur": Input(ids.SAMPLES, "n_blur"),
                "search": Input(ids.URL, "search"), "value": State(ids.SAMPLES, "value"),
                "previous": State(ids.SAMPLES_OK, "data")},
    )
    def samples(submit, blur, search, value, previous):
        if ctx.triggered_id in (None, ids.URL):  # the page's first call: the link's number
            link, given = parse_link(search)
            if "samples" not in given:
                raise PreventUpdate
            return {"box": str(link.samples), "message": "", "used": link.samples}
        previous, _ = clamp_samples(previous)
        if str(value).strip() == str(previous):
            raise PreventUpdate  # Enter or a click elsewhere on the number in use: keep its note
        n, message = clamp_samples(value, previous)
        return {"box": str(n) if str(value).strip() != str(n) else no_update,
                "message": message, "used": n if n != previous else no_update}


#: The view settings a link restores, by field of the page's state, and where they show.
RESTORED = {"averaging": Output(ids.AVERAGING, "value"), "level": Output(ids.LEVEL, "value"),
            "band": Output(ids.BAND, "value"), "det": Output(ids.DET, "value"),
            "presentation": Output(ids.PRESENTATION, "value"),
            "ties": Output(ids.ROC_TIES, "value"), "pr_mode": Output(ids.PR_MODE, "value"),
            "cost_mode": Output(ids.COST_MODE, "value"),
            "log_fpr": Output(ids.ROC_LOG_FPR, "value")}
#: A flag's value in its checklist.
_CHECKED = {"det": "det", "presentation": "on", "ties": "ties", "log_fpr": "log"}


def restored_settings(search) -> dict:
    """``{field: component value}`` of the view settings a link gives (:data:`RESTORED`;
    ``no_update`` for those it does not name)."""
    link, given = parse_link(search)
    out = {}
    for name in RESTORED:
        value = getattr(link, name)
        if name in _CHECKED:
            value = [_CHECKED[name]] if value else []
        out[name] = value if name in given else no_update
    return out


def _register_views(app, cache, store) -> None:
    """The settings a link restores and the views callback."""

    @app.callback(output=RESTORED, inputs={"search": Input(ids.URL, "search")})
    def restore_view(search):
        out = restored_settings(search)
        if all(v is no_update for v in out.values()):
            raise PreventUpdate
        return out

    @app.callback(
        output={"controls": CONTROL_OUTPUTS, "economics": ECONOMICS_OUTPUTS,
                "conditions": Output(ids.CONDITIONS, "data"),
                "message": Output(ids.CONTROL_MSG, "children"), "views": VIEW_OUTPUTS},
        inputs={"gesture": GESTURE_INPUTS,
                "page": dependencies(Input, *(f for f in VIEW_FIELDS if f != "conditions")),
                "view": {"threshold_model": Input(ids.THRESHOLD_MODEL, "value"),
                         "threshold_axis": Input(ids.THRESHOLD_AXIS, "value"),
                         "combine": Input(ids.COMBINE, "data")},
                "kept": {"conditions": State(ids.CONDITIONS, "data"),
                         "viz": State(ids.VIZ_DATA, "data"), "zoom": State(ids.ZOOM, "data"),
                         "search": State(ids.URL, "search"),
                         "message": State(ids.CONTROL_MSG, "children")}},
    )
    def views(gesture, page, view, kept):
        fired = [t["prop_id"].rsplit(".", 1)[0] for t in ctx.triggered
                 if t.get("prop_id") not in (None, ".")]
        return decide(cache, store, fired, gesture, PageState.from_dash(page), view, kept)

    # the Compare tab's model table: drawn when that tab shows (its gate), not by the views
    # callback on every cost or prior click (docs/performance.md, step 6)
    @app.callback(
        output=Output(ids.MODEL_TABLE, "children"),
        inputs={"page": {**dependencies(Input, "datasets", "models"), "tab": tab_gate("compare"),
                         **dependencies(State, "conditions", "level", "band", "samples")}},
    )
    def model_table_card(page):
        return models_table(cache, tab_page(page, "compare"))


def shown_controls(controls: dict, gesture: dict) -> dict:
    """What the sliders and boxes must show (:func:`control_outputs`), ``no_update`` for
    each that shows it already (``gesture``: their values as sent): a click on one stepper
    then updates one slider and its box, not all six (each update is a pass of dash's
    renderer over every component of the page, and a new value of an input)."""
    return {k: no_update if k in gesture and type(gesture[k]) is type(v) and gesture[k] == v
            else v for k, v in controls.items()}


def decide(cache, store, fired: list[str], gesture: dict, page: PageState, view: dict,
           kept: dict) -> dict:
    """The views callback's outputs: on a gesture on the controls (one of ``fired``, the
    ids whose properties changed; ``gesture``: the controls' values) or the page's first
    call (the link's conditions), the new conditions and what the controls show; and the
    views for the page's state ``page`` under them (patched when only the conditions
    changed), in the same response: one round trip per change."""
    state = kept.get("conditions")
    moved = next((f for f in fired if f in GESTURE_IDS), None)
    out = {"controls": dict.fromkeys(CONTROL_OUTPUTS, no_update),
           "economics": dict.fromkeys(ECONOMICS_OUTPUTS, no_update),
           "conditions": no_update, "message": no_update,
           "views": dict.fromkeys(VIEW_OUTPUTS, no_update)}
    new = ControlState.from_store(state)
    if state is None or moved:  # the data's prevalence read only then (large data: costly)
        g = gesture_of(moved if state is not None else None, gesture, kept.get("viz"),
                       kept.get("search"))
        result = apply_gesture(g, new, lambda cls: data_prior(
            store, list(page.datasets), gesture.get("source"), cls))
        if result is None:
            raise PreventUpdate  # a zoom or pan of the ROC plot, not the line
        new, message = result
        shown = kept.get("message")
        out.update(controls=shown_controls(control_outputs(new), gesture),
                   conditions=new.to_store(),
                   message=no_update if message == shown or not (message or shown) else message)
        if state is None:
            out["economics"] = economics_outputs(new)
        elif new.to_store() == state and set(fired) <= GESTURE_IDS:
            return out  # the gesture changed nothing (the boxes show the values in use again)
    zoom = kept.get("zoom")
    if state is None and not zoom:  # the first views of a link: its zoom (the store follows)
        zoom = parse_link(kept.get("search"))[0].zoom_store()
    out["views"] = update_views(
        cache, dataclasses.replace(page, conditions=new), view, kept.get("viz"), zoom,
        conditions_changed=bool(moved) and state is not None and set(fired) <= GESTURE_IDS,
        new_pin=ids.PINNED in fired)
    return out


def _register_browser(app, cache, store) -> None:
    """Zooms kept, hover linked, the ROC's hint and presentation mode (clientside)."""

    # the zoom a link names, for the zoom store below (which keeps one owner)
    @app.callback(output=Output(ids.ZOOM_LINK, "data"),
                  inputs={"search": Input(ids.URL, "search")})
    def zoom_from_link(search):
        link, given = parse_link(search)
        if "zoom" not in given:
            raise PreventUpdate
        return link.zoom_store()

    app.clientside_callback(
        ClientsideFunction("rocDash", "keepZoom"),
        Output(ids.ZOOM, "data"),
        Input(ids.ROC_GRAPH, "relayoutData"),
        Input(ids.PR_GRAPH, "relayoutData"),
        Input(ids.COST_GRAPH, "relayoutData"),
        Input(ids.ZOOM_LINK, "data"),
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
