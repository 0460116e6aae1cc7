"""Costs, prior and the iso-performance line: the controls, and the line moved in the browser.

The conditions live in one store (``ids.CONDITIONS``, read as :class:`..state.ControlState`)
with their exact values; the sliders and text boxes only show them (rounded for display).
What each gesture does to them is :mod:`..gestures` (plain functions, re-exported here); the
views feature's callback applies a gesture and draws the views for the new conditions in
the same response, one round trip per change (:mod:`.views`). Moving the line while a
slider is dragged runs in the browser (``assets/roc_dash.js``, ``moveIsoLine``), and only a
drag of the line, not a zoom, reaches the server (``lineDrag``).
"""

from __future__ import annotations

from dash import Input, Output, State, dcc, html

from .. import ids
from ..callbacks import each, in_browser
from ..gestures import (
    COST_MAX,
    COST_MIN,
    COST_STEP,
    PRIOR_MAX,
    PRIOR_MIN,
    PRIOR_STEP,
    Gesture,
    apply_gesture,
    control_outputs,
    cost_fp_for_slope,
    cost_to_slider,
    dragged_slope,
    parse_benefit,
    parse_cost,
    parse_population,
    parse_prior,
    slider_to_cost,
    step_cost,
    step_prior,
)
from ..help import HELP

__all__ = ["COST_MIN", "COST_MAX", "PRIOR_MIN", "PRIOR_MAX", "COST_STEP", "PRIOR_STEP",
           "panel", "cost_to_slider", "slider_to_cost", "parse_cost", "parse_prior",
           "parse_benefit", "parse_population", "step_cost", "step_prior", "dragged_slope",
           "cost_fp_for_slope", "Gesture", "apply_gesture", "control_outputs", "register"]


def _slider_control(label: str, slider, input_, down: str, up: str, step_text: str,
                    help_text: str | None = None):
    """A labelled slider with its exact-value input and -/+ step buttons beside the label.

    The input is a text box (a number box's own steppers cannot step a log scale and turn
    "any" steps into NaN); the buttons step it: see :func:`step_cost` and :func:`step_prior`.
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


def panel():
    """The costs and class mix panel: cost sliders, the prior, benefits, unit and volume."""
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
        # what was not taken as typed, said right under the boxes it is about (not below
        # the benefits, where it went unseen)
        html.Div(id=ids.CONTROL_MSG, className="control-message", role="status"),
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
        html.Div(id=ids.SLOPE_TEXT, className="slope-text"),
        dcc.Store(id=ids.PRIOR_MODE, data="auto"),
        dcc.Store(id=ids.CONDITIONS, data=None),
    ])


# -- wiring ------------------------------------------------------------------------------
def register(app, cache, store) -> None:
    """The iso line's clientside callbacks (the gestures on the controls are read by the
    views feature's callback, which draws the views for them)."""

    _register_line(app, cache, store)
    # Enter or leaving a cost or prior box with a valid value typed takes its message away,
    # also when that value is already in use (no change: no request to the server)
    boxes = (ids.COST_FP, ids.COST_FN, ids.PRIOR)
    in_browser(app, "clearControlMessage",
               Output(ids.CONTROL_MSG, "children", allow_duplicate=True),
               *(Input(b, p) for b in boxes for p in ("n_submit", "n_blur")),
               *each(State, "value", *boxes), State(ids.CONTROL_MSG, "children"))


#: The sliders of the costs and the prior, in the order the browser's iso line reads them.
_SLIDERS = (ids.COST_FP_SLIDER, ids.COST_FN_SLIDER, ids.PRIOR_SLIDER)


def _register_line(app, cache, store) -> None:
    """The iso line in the browser: moved while a slider is dragged, dragged itself."""

    in_browser(app, "moveIsoLine",
               Output(ids.ROC_GRAPH, "figure", allow_duplicate=True),
               Output(ids.COST_GRAPH, "figure", allow_duplicate=True),
               *each(Input, "drag_value", *_SLIDERS),
               State(ids.VIZ_DATA, "data"), State(ids.ROC_GRAPH, "figure"),
               *each(State, "value", *_SLIDERS))

    # only drags of the iso line reach the server (a zoom or pan of the ROC plot stays in
    # the browser, so plotly keeps it across later updates)
    in_browser(app, "lineDrag",
               Output(ids.LINE_DRAG, "data"), Input(ids.ROC_GRAPH, "relayoutData"))
