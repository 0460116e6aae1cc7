"""Pins, their comparison and the summary: up to three points (A, B, C) pinned by a click on a
view or typed as a model's threshold.

The operating card and the summary strip are filled by the views callback
(:func:`..render.render_views` compares the pins with the optimum); this feature owns their
layout, the pin callback and what a click or a typed threshold pins.
"""

from __future__ import annotations

import math

from dash import ALL, ClientsideFunction, Input, Output, State, ctx, dcc, html, no_update
from dash.exceptions import PreventUpdate

from ...core.decisions.operating import PIN_LABELS
from .. import ids
from ..components import intervals_box
from ..help import HELP
from ..state import clean_pins, number, parse_query

__all__ = ["operating_card", "summary", "pin_from_click", "add_pin", "pin_from_input",
           "register"]


def operating_card():
    """The operating point card: the optimum or the pins compared, and the pin row."""
    return html.Div(className="card", children=[
        html.Div(className="card-head", children=[
            html.H2("Operating point"),
            html.Button("Clear pins", id=ids.UNPIN, n_clicks=0, className="button", hidden=True,
                        title="Remove every pinned point: back to the optimum alone"),
        ]),
        html.Div(id=ids.OPERATING),
        intervals_box(),
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


def summary():
    """The summary strip under the top bar (filled by the views callback)."""
    return html.Div(id=ids.SUMMARY, className="summary", role="status",
                    title="The recommendation under the current conditions; pinned points are "
                          "compared with it below")


def pin_from_click(click, models) -> dict | None:
    """``{"model", "threshold"}`` of a clicked point, or None if it is no model's point.

    Points carry ``customdata = [model index, threshold, fpr, tpr]`` (threshold null for
    +inf); ``models`` are the names the indices refer to (the viz-data store).
    """
    try:
        # the first point that carries a model's customdata (in a view with hover unified
        # along x, the click reports every line at that x and only one carries it)
        data = next(p["customdata"] for p in click["points"]
                    if isinstance(p, dict) and p.get("customdata") is not None)
        if isinstance(data, dict):  # a typed-array row serialised by the browser
            data = [data[str(i)] for i in range(len(data))]
        index = int(data[0])
    except (KeyError, IndexError, TypeError, ValueError, StopIteration):
        return None
    if not isinstance(models, list) or not 0 <= index < len(models):
        return None
    threshold = data[1] if len(data) > 1 else None
    if threshold is not None and (not isinstance(threshold, int | float)
                                  or not math.isfinite(threshold)):
        threshold = None
    return {"model": str(models[index]), "threshold": threshold}


def add_pin(pins: list[dict], new: dict) -> list[dict]:
    """Pin one more point: the first free letter; with three pins the oldest makes room.
    Pinning a point already pinned changes nothing."""
    pins = clean_pins(pins)
    if any(p["model"] == new["model"] and p["threshold"] == new["threshold"] for p in pins):
        return pins
    if len(pins) >= len(PIN_LABELS):
        pins = pins[1:]
    taken = {p["label"] for p in pins}
    label = next(x for x in PIN_LABELS if x not in taken)
    return pins + [{"model": new["model"], "threshold": new["threshold"], "label": label}]


def pin_from_input(model, text) -> tuple[dict | None, str]:
    """A pin typed by the user (model and threshold text), or None and why not."""

    if not model:
        return None, "Choose a model to pin."
    if not str(text or "").strip():
        return None, "Type a score threshold to pin, e.g. 0.5."
    t = number(text)
    if t is None:
        return None, (f"“{str(text).strip()[:40]}” is not a number: type a score threshold, "
                      "e.g. 0.5 or 1e-3.")
    return {"model": str(model), "threshold": t}, ""


# -- wiring ------------------------------------------------------------------------------
def register(app, cache, store) -> None:
    """The pin callback; deferred clicks and the *Clear pins* button's visibility."""

    @app.callback(
        Output(ids.PINNED, "data"),
        Output(ids.PIN_THRESHOLD, "className"),
        Output(ids.PIN_MSG, "children"),
        Input(ids.CLICK, "data"),  # a click on a view, not part of a double click
        Input(ids.UNPIN, "n_clicks"),
        Input(ids.PIN_BUTTON, "n_clicks"),
        Input(ids.PIN_THRESHOLD, "n_submit"),
        Input({"type": ids.UNPIN_ONE, "index": ALL}, "n_clicks"),
        State(ids.PIN_MODEL, "value"),
        State(ids.PIN_THRESHOLD, "value"),
        State(ids.URL, "search"),
        State(ids.VIZ_DATA, "data"),
        State(ids.PINNED, "data"),
    )
    def pin(view_click, _unpin, _pin, _submit, _unpin_one, pin_model, pin_threshold, search,
            viz, pins):
        trigger = ctx.triggered_id
        ok = "exact pin-threshold"
        pins = clean_pins(pins)
        if trigger is None or (trigger == ids.CLICK and not isinstance(view_click, dict)):
            # the page's first call (Dash names the click store, still empty, as trigger)
            return parse_query(search).get("pins", []), ok, ""
        if trigger == ids.UNPIN:
            if not _unpin:  # the button was just drawn (it shows only while pins exist)
                raise PreventUpdate
            return [], ok, ""
        if isinstance(trigger, dict) and trigger.get("type") == ids.UNPIN_ONE:
            if not any(t["value"] for t in ctx.triggered):
                raise PreventUpdate
            return [p for p in pins if p["label"] != trigger.get("index")], ok, ""
        if trigger in (ids.PIN_BUTTON, ids.PIN_THRESHOLD):
            pinned, why = pin_from_input(pin_model, pin_threshold)
            if pinned is None:
                return no_update, ok + " invalid", why
            return add_pin(pins, pinned), ok, ""
        click = view_click.get("click") if isinstance(view_click, dict) else None
        pinned = pin_from_click(click, (viz if isinstance(viz, dict) else {}).get("models"))
        if pinned is None:
            raise PreventUpdate
        return add_pin(pins, pinned), ok, ""

    # a click pins only when it is not the first click of a double click (which resets the
    # zoom): assets/roc_dash.js waits out the double-click delay before passing it on
    app.clientside_callback(
        ClientsideFunction("rocDash", "deferClick"),
        Output(ids.CLICK, "data"),
        Input(ids.ROC_GRAPH, "clickData"),
        Input(ids.PR_GRAPH, "clickData"),
        Input(ids.COST_GRAPH, "clickData"),
        Input(ids.THRESHOLD_GRAPH, "clickData"),
        prevent_initial_call=True,
    )

    # "Clear pins" only when something is pinned
    app.clientside_callback(
        "function (pins) { return !(Array.isArray(pins) && pins.length); }",
        Output(ids.UNPIN, "hidden"),
        Input(ids.PINNED, "data"),
    )
