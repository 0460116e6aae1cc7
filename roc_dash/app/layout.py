"""Dash layout: controls on the left, four linked views and the model table on the right."""

from __future__ import annotations

import math

from dash import dcc, html

from ..figures import GRAPH_CONFIG
from . import ids
from .beyond import combining_card, superiority_card
from .help import HELP
from .kinds_ui import class_control, example_links, multiclass_card
from .server.store import DEMO_ID

ACCEPTED = ".csv,.tsv,.txt,.gz,.parquet,.pq"
COST_MIN, COST_MAX = -2.0, 2.0  # log10 range of the cost sliders (0.01 .. 100)
PRIOR_MIN, PRIOR_MAX = 0.001, 0.999

#: The hint above the ROC view, on ROC and on DET axes (no iso line there: it is straight
#: only on ROC axes, so the DET view has nothing to drag).
ROC_HINTS = {
    "roc": "drag the red line to change the cost ratio",
    "det": "DET axes: no iso-performance line here (drag it on ROC axes, or use the cost "
           "sliders)",
}

#: The ROC graph lets the user drag the iso-performance line (layout.shapes[0]).
ROC_CONFIG = {**GRAPH_CONFIG, "edits": {"shapePosition": True}}


def _labelled(label: str, control, *, hint: str | None = None, html_for: str | None = None,
              help_text: str | None = None):
    children = [html.Label(label, htmlFor=html_for, className="control-label",
                           title=help_text), control]
    if hint:
        children.append(html.Div(hint, className="hint"))
    return html.Div(children, className="control")


def _slider_control(label: str, slider, input_, down: str, up: str, step_text: str,
                    help_text: str | None = None):
    """A labelled slider with its exact-value input and -/+ step buttons beside the label.

    The input is a text box (a number box's own steppers cannot step a log scale and turn
    "any" steps into NaN); the buttons step it: see ``callbacks.step_cost``/``step_prior``.
    """
    return html.Div(className="control", children=[
        html.Div(className="label-row", children=[
            html.Label(label, htmlFor=input_.id, className="control-label", title=help_text),
            html.Div(className="stepper", children=[
                html.Button("−", id=down, n_clicks=0, className="step",
                            title=f"Decrease ({step_text})",
                            **{"aria-label": f"Decrease {label.lower()} ({step_text})"}),
                input_,
                html.Button("+", id=up, n_clicks=0, className="step",
                            title=f"Increase ({step_text})",
                            **{"aria-label": f"Increase {label.lower()} ({step_text})"}),
            ]),
        ]),
        html.Div(slider, className="slider", title=help_text),
    ])


def _exact_input(input_id: str, value: str):
    return dcc.Input(id=input_id, type="text", inputMode="decimal", value=value, debounce=True,
                     className="exact", autoComplete="off", maxLength=40)


def _cost_control(name: str, slider_id: str, input_id: str, down: str, up: str,
                  help_text: str | None = None):
    marks = {v: f"{10 ** v:g}" for v in (-2, -1, 0, 1, 2)}
    return _slider_control(
        f"Cost of a {name}",
        dcc.Slider(id=slider_id, min=COST_MIN, max=COST_MAX, step=0.01, value=0.0,
                   marks=marks, updatemode="mouseup", allow_direct_input=False),
        _exact_input(input_id, "1"), down, up, "× or ÷ 10^0.1", help_text,
    )


def _format_help() -> html.Details:
    return html.Details(
        className="format-help",
        children=[
            html.Summary("Input format"),
            html.P([
                "One row per prediction with a ", html.Code("label"), " and a ",
                html.Code("score"), " column; optional ", html.Code("model"), ", ",
                html.Code("fold"), ", ", html.Code("weight"), " and ", html.Code("id"), ".",
            ]),
            html.P("Labels: 0/1, -1/+1, true/false, yes/no, p/n, pos/neg, positive/negative. "
                   "CSV, TSV, semicolon-separated, gzip or Parquet."),
        ],
    )


def _data_panel():
    return html.Section(className="panel", children=[
        html.H2("Data"),
        # a drop zone served by assets/roc_dash.js: files stream to POST /upload with a
        # progress bar and a Cancel button (see app/server/upload_route.py), not through a callback
        html.Div(id=ids.UPLOAD, className="upload", tabIndex="0", role="button",
                 title=HELP["upload"],
                 **{"aria-label": "Drop prediction files here or press Enter to choose"},
                 children=[
                     html.Div("Drop prediction files here", className="upload-title"),
                     html.Div("or click to choose (CSV, TSV, gzip, Parquet)", className="hint"),
                 ], **{"data-accept": ACCEPTED}),
        html.Div(id=ids.UPLOAD_PROGRESS, className="upload-progress", hidden=True, children=[
            html.Progress(max="1", value="0"),
            html.Span("", className="progress-text", role="status"),
            html.Button("Cancel", id=ids.UPLOAD_CANCEL, className="button light-dark",
                        n_clicks=0, title=HELP["upload_cancel"]),
        ]),
        dcc.Store(id=ids.STREAMED, data=None),
        dcc.Store(id=ids.UPLOAD_DONE, data=None),
        dcc.Loading(type="dot", children=html.Div(id=ids.UPLOAD_STATUS, className="status",
                                                  role="status")),
        html.Div(id=ids.UPLOAD_ERROR, className="error", role="alert"),
        _labelled("Positive label (only if labels are ambiguous)",
                  dcc.Input(id=ids.POSITIVE_LABEL, type="text", placeholder="e.g. cat",
                            debounce=True, className="text", maxLength=200),
                  hint="Press Enter: a file rejected for ambiguous labels is read again.",
                  html_for=ids.POSITIVE_LABEL, help_text=HELP["positive"]),
        html.Div(id=ids.DATASET_LIST, className="dataset-list"),
        class_control(),
        html.Button("Load the demo data", id=ids.LOAD_DEMO, n_clicks=0,
                    className="link-button", title=HELP["demo"]),
        example_links(),
        _format_help(),
        dcc.Store(id=ids.PENDING, data=None),
    ])


def _conditions_panel():
    return html.Section(className="panel", children=[
        html.H2("Costs and class mix"),
        _cost_control("false positive", ids.COST_FP_SLIDER, ids.COST_FP, ids.COST_FP_DOWN,
                      ids.COST_FP_UP, HELP["cost_fp"]),
        _cost_control("false negative", ids.COST_FN_SLIDER, ids.COST_FN, ids.COST_FN_DOWN,
                      ids.COST_FN_UP, HELP["cost_fn"]),
        _slider_control(
            "Deployment prior p(+)",
            dcc.Slider(id=ids.PRIOR_SLIDER, min=PRIOR_MIN, max=PRIOR_MAX, step=0.001, value=0.5,
                       updatemode="mouseup", allow_direct_input=False,
                       marks={0.001: "0", 0.25: "0.25", 0.5: "0.5", 0.75: "0.75", 0.999: "1"}),
            _exact_input(ids.PRIOR, "0.5"), ids.PRIOR_DOWN, ids.PRIOR_UP, "± 0.01",
            HELP["prior"],
        ),
        html.Div(className="prior-row", children=[
            html.Button("Use the data's prevalence", id=ids.PRIOR_RESET, n_clicks=0,
                        className="link-button", title=HELP["prior_reset"]),
            html.Div(id=ids.PRIOR_SOURCE_ROW, style={"display": "none"},
                     title=HELP["prior_source"], children=[
                html.Label("of", htmlFor=ids.PRIOR_SOURCE, className="hint"),
                dcc.Dropdown(id=ids.PRIOR_SOURCE, options=[], value=None, clearable=False,
                             searchable=False, className="prior-source"),
            ]),
        ]),
        html.Details(className="economics", children=[
            html.Summary("Benefits, unit and volume", title=HELP["economics"]),
            html.Div(className="econ-grid", children=[
                html.Label("Benefit of a true positive", htmlFor=ids.BENEFIT_TP,
                           title=HELP["benefit"]),
                _exact_input(ids.BENEFIT_TP, "0"),
                html.Label("Benefit of a true negative", htmlFor=ids.BENEFIT_TN,
                           title=HELP["benefit"]),
                _exact_input(ids.BENEFIT_TN, "0"),
                html.Label("Unit (e.g. €)", htmlFor=ids.UNIT, title=HELP["unit"]),
                dcc.Input(id=ids.UNIT, type="text", value="", debounce=True, maxLength=12,
                          className="exact"),
                html.Label("Cases per month", htmlFor=ids.POPULATION,
                           title=HELP["population"]),
                dcc.Input(id=ids.POPULATION, type="text", inputMode="decimal", value="",
                          debounce=True, placeholder="none", className="exact", maxLength=40),
            ]),
        ]),
        html.Div(id=ids.CONTROL_MSG, className="control-message", role="status"),
        html.Div(id=ids.SLOPE_TEXT, className="slope-text"),
        dcc.Store(id=ids.PRIOR_MODE, data="auto"),
        dcc.Store(id=ids.CONDITIONS, data=None),
    ])


def _averaging_panel():
    return html.Section(className="panel", children=[
        html.H2("Folds"),
        _labelled("Averaging", help_text=HELP["averaging"], control=dcc.RadioItems(
            id=ids.AVERAGING, value="pooled", className="radios",
            options=[{"label": "none (each fold)", "value": "none"},
                     {"label": "pooled", "value": "pooled"},
                     {"label": "vertical", "value": "vertical"},
                     {"label": "threshold", "value": "threshold"}])),
        html.Div(className="control-row", children=[
            _labelled("Confidence", help_text=HELP["level"], control=dcc.Dropdown(
                id=ids.LEVEL, value=0.95, clearable=False, searchable=False,
                options=[{"label": f"{v:.0%}", "value": v} for v in (0.8, 0.9, 0.95, 0.99)])),
            # a text box: a number box with step 1 hands Dash None for "7.5"
            _labelled("Samples", help_text=HELP["samples"], control=dcc.Input(
                id=ids.SAMPLES, type="text", inputMode="numeric", value="51", debounce=True,
                className="exact", autoComplete="off", maxLength=12),
                      html_for=ids.SAMPLES),
        ]),
        html.Div(id=ids.SAMPLES_MSG, className="control-message", role="status"),
        dcc.Store(id=ids.SAMPLES_OK, data=51),
        _labelled("Band", help_text=HELP["band"], control=dcc.RadioItems(
            id=ids.BAND, value="pointwise", className="radios",
            options=[{"label": "pointwise", "value": "pointwise"},
                     {"label": "simultaneous", "value": "simultaneous"}])),
    ])


def _view_panel():
    return html.Section(className="panel", children=[
        html.H2("Models and view"),
        html.Div(title=HELP["models"], children=dcc.Checklist(
            id=ids.MODELS, options=[], value=[], className="checks model-list")),
        html.Div(title=HELP["det"], children=dcc.Checklist(
            id=ids.DET, options=[{"label": "ROC as DET (normal-deviate axes)", "value": "det"}],
            value=[], className="checks")),
        html.Div(title=HELP["ties"], children=dcc.Checklist(id=ids.ROC_TIES, options=[{
            "label": "Tie bounds on the ROC (optimistic–pessimistic)", "value": "ties"}],
            value=[], className="checks")),
        html.Div(title=HELP["presentation"], children=dcc.Checklist(
            id=ids.PRESENTATION, options=[{"label": "Presentation mode (large fonts)",
                                           "value": "on"}],
            value=[], className="checks")),
    ])


def _notes_panel():
    return html.Section(className="panel", children=[
        html.H2("Notes and saved views", title="Kept on the server with the loaded datasets: "
                "anyone opening them (or a link to them) sees the same note and views."),
        dcc.Textarea(id=ids.NOTE, title=HELP["note"], placeholder="A note for this review (saved when you leave "
                     "the box)", className="note", maxLength=5000),
        html.Div(className="save-row", children=[
            html.Div(title=HELP["view_name"], className="view-name-box", children=dcc.Input(
                id=ids.VIEW_NAME, type="text", placeholder="name this view", maxLength=80,
                className="text", debounce=False)),
            html.Button("Save view", id=ids.SAVE_VIEW, n_clicks=0, className="button",
                        title="Save the controls and pins under this name"),
        ]),
        html.Div(id=ids.NOTE_STATUS, className="hint", role="status"),
        html.Ul(id=ids.VIEW_LIST, className="view-list"),
        dcc.Store(id=ids.VIEWS, data=[]),
    ])


def _graph_card(title: str, graph_id: str, config: dict, *, extra=None):
    # the figure stays visible (dimmed) while an update runs
    return html.Div(className="card", children=[
        html.Div(className="card-head", children=[html.H2(title), *(extra or [])]),
        dcc.Loading(type="circle", delay_show=400,
                    overlay_style={"visibility": "visible", "opacity": 0.55},
                    children=dcc.Graph(id=graph_id, config=config, className="graph",
                                       clear_on_unhover=True)),
    ])


def _operating_card():
    return html.Div(className="card", children=[
        html.Div(className="card-head", children=[
            html.H2("Operating point"),
            html.Button("Clear pins", id=ids.UNPIN, n_clicks=0, className="button", hidden=True,
                        title="Remove every pinned point: back to the optimum alone"),
        ]),
        html.Div(id=ids.OPERATING),
        html.Div(className="pin-row", children=[
            html.Label("Pin a threshold:", htmlFor=ids.PIN_THRESHOLD,
                       title="Pin up to three points (A, B, C): click a point in any "
                             "view, or type a model's threshold"),
            html.Div(dcc.Dropdown(id=ids.PIN_MODEL, options=[], placeholder="model",
                                  clearable=False, className="pin-model"),
                     title=HELP["pin_model"], className="pin-model-box"),
            html.Div(title=HELP["pin_threshold"], className="pin-threshold-box",
                     children=dcc.Input(id=ids.PIN_THRESHOLD, type="text", inputMode="decimal",
                                        placeholder="threshold", className="exact pin-threshold",
                                        maxLength=40)),
            html.Button("Pin", id=ids.PIN_BUTTON, n_clicks=0, className="button",
                        title=HELP["pin"]),
        ]),
        html.Div(id=ids.PIN_MSG, className="control-message", role="status"),
    ])


def build_layout() -> html.Div:
    return html.Div(
        id=ids.APP,
        className="app",
        children=[
            dcc.Location(id=ids.URL, refresh=False),
            html.Header(
                className="topbar",
                children=[
                    html.H1("roc-dash"),
                    html.Span("Which classifier, at which threshold, under these costs and "
                              "this class mix?", className="tagline"),
                    html.Div(className="topbar-actions", children=[
                        html.Button("Controls", id=ids.SIDEBAR_TOGGLE, n_clicks=0,
                                    className="button light present-toggle",
                                    title="Show or hide the controls (presentation mode)",
                                    **{"aria-expanded": "false"}),
                        html.Button("Copy link", id=ids.COPY_LINK, n_clicks=0,
                                    className="button light", title=HELP["copy_link"]),
                        html.Span(id=ids.COPY_STATUS, className="copy-status", role="status"),
                        html.Button("Curves CSV", id=ids.EXPORT_CURVES, n_clicks=0,
                                    className="button light", title=HELP["curves_csv"]),
                        html.Button("Table CSV", id=ids.EXPORT_TABLE, n_clicks=0,
                                    className="button light", title=HELP["table_csv"]),
                        html.Button("HTML report", id=ids.EXPORT_HTML, n_clicks=0,
                                    className="button light", title=HELP["html_report"]),
                    ]),
                ],
            ),
            html.Div(id=ids.SUMMARY, className="summary", role="status",
                     title="The recommendation under the current conditions; pinned points are "
                           "compared with it below"),
            html.Div(
                className="main",
                children=[
                    html.Aside(className="sidebar", children=[
                        _data_panel(), _conditions_panel(), _averaging_panel(), _view_panel(),
                        _notes_panel(),
                    ]),
                    html.Section(className="views", children=[
                        html.Div(id=ids.UPDATE_FAILED, className="banner warn", role="alert",
                                 hidden=True),
                        html.Div(id=ids.MISSING, className="banner warn", role="alert"),
                        html.Div(id=ids.BANNER, className="banner", role="status"),
                        html.Div(className="grid", children=[
                            _graph_card("ROC", ids.ROC_GRAPH, graph_config("roc", ROC_CONFIG),
                                        extra=[html.Span(
                                            ROC_HINTS["roc"], id=ids.ROC_HINT,
                                            className="hint")]),
                            _graph_card("Precision-recall at the deployment prior",
                                        ids.PR_GRAPH, graph_config("pr"), extra=[
                                            html.Div(title=HELP["pr_radio"], children=dcc.RadioItems(
                                                id=ids.PR_MODE, value="pr", inline=True,
                                                className="radios inline",
                                                options=[{"label": "PR", "value": "pr"},
                                                         {"label": "PR gain",
                                                          "value": "prg"}]))]),
                            _graph_card("Cost curves", ids.COST_GRAPH, graph_config("cost")),
                            _operating_card(),
                            _graph_card("Cost against threshold", ids.THRESHOLD_GRAPH,
                                        graph_config("threshold"), extra=[
                                            html.Div(title=HELP["threshold_model"],
                                                     children=dcc.Dropdown(
                                                         id=ids.THRESHOLD_MODEL, options=[],
                                                         clearable=False, searchable=False,
                                                         placeholder="model",
                                                         className="threshold-model")),
                                            html.Div(title=HELP["threshold_axis"],
                                                     children=dcc.RadioItems(
                                                id=ids.THRESHOLD_AXIS, value="threshold",
                                                inline=True, className="radios inline",
                                                options=[{"label": "threshold",
                                                          "value": "threshold"},
                                                         {"label": "% flagged",
                                                          "value": "flagged"}]))]),
                            superiority_card(graph_config("superiority")),
                            combining_card(),
                            multiclass_card(graph_config),
                        ]),
                        html.Div(className="card", children=[
                            html.H2("Models"),
                            html.Div(id=ids.MODEL_TABLE, className="table-scroll")]),
                    ]),
                ],
            ),
            dcc.Store(id=ids.DATASETS, data=[DEMO_ID], storage_type="session"),
            dcc.Store(id=ids.PINNED, data=[]),
            dcc.Store(id=ids.VIZ_DATA, data=None),
            dcc.Store(id=ids.LINE_DRAG, data=None),
            dcc.Store(id=ids.ZOOM, data=None),
            dcc.Store(id=ids.CLICK, data=None),
            dcc.Store(id=ids.URL_SYNC, data=None),
            dcc.Download(id=ids.DOWNLOAD),
        ],
    )


def cost_to_slider(cost: float) -> float:
    return min(max(math.log10(cost), COST_MIN), COST_MAX)


def slider_to_cost(value: float) -> float:
    return float(f"{10 ** value:.4g}")


def graph_config(name: str, config: dict | None = None) -> dict:
    """A graph's config with its own download file name (``roc-dash-roc.png``, ...)."""
    base = dict(config or GRAPH_CONFIG)
    base["toImageButtonOptions"] = {**base.get("toImageButtonOptions", {}),
                                    "filename": f"roc-dash-{name}"}
    return base
