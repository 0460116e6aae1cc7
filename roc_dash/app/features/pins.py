"""Pins, their comparison and the summary: up to three points (A, B, C) pinned by a click on a
view or typed as a model's threshold.

The operating card and the summary strip are filled by the views callback
(:func:`..render.render_views` compares the pins with the optimum); this feature owns their
layout, the pin callback and what a click or a typed threshold pins.
"""

from __future__ import annotations

import math

from dash import ALL, Input, Output, State, ctx, dcc, html, no_update
from dash.exceptions import PreventUpdate

from ...core.decisions.operating import PIN_LABELS
from ...text.rounding import rule_threshold
from .. import ids
from ..analysis import legacy_names
from ..callbacks import each, in_browser
from ..components import intervals_box
from ..help import HELP
from ..page_state import key_ref, parse_link, resolve_refs
from ..removal import pins_after, vertex_threshold
from ..state import ControlState, clean_pins, number

__all__ = ["operating_card", "summary", "pin_from_click", "add_pin", "pin_from_input",
           "keyed", "linked_pins", "after_removal", "on_vertex", "register"]


def operating_card():
    """The operating point card: the optimum or the pins compared, and the pin row."""
    return html.Div(className="card operating-card", children=[
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
    +inf); ``models`` are what the indices refer to (the viz-data store's ``keys``: the
    models' keys, dataset id and name).
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
    """Pin one more point (``{"model", "threshold"}``, and ``"dataset"``, the model's dataset
    id): the first free letter; with three pins the oldest makes room. Pinning a point
    already pinned changes nothing."""
    pins = clean_pins(pins)
    if any(p.get("dataset") == new.get("dataset") and p["model"] == new["model"]
           and p["threshold"] == new["threshold"] for p in pins):
        return pins
    if len(pins) >= len(PIN_LABELS):
        pins = pins[1:]
    taken = {p["label"] for p in pins}
    label = next(x for x in PIN_LABELS if x not in taken)
    return pins + [{**({"dataset": new["dataset"]} if new.get("dataset") else {}),
                    "model": new["model"], "threshold": new["threshold"], "label": label}]


def keyed(pin: dict | None) -> dict | None:
    """A pin whose ``"model"`` is a model's key (:class:`..page_state.ModelRef`) as the store
    keeps it: ``{"dataset", "model" (its own name), "threshold"}``; None for anything else."""
    ref = key_ref(pin.get("model")) if isinstance(pin, dict) else None
    if ref is None:
        return None
    return {"dataset": ref.dataset, "model": ref.name, "threshold": pin["threshold"]}


def linked_pins(store, search, datasets) -> list[dict]:
    """The pins a link names (the store's form), each on its (dataset, model); those of a
    link made before models were named by dataset are found by their shown names for the
    link's datasets (:func:`..analysis.legacy_names`); a pin that names no model of them is
    left out, and so is a pin of a dataset no longer on the server (the missing-data banner
    lists them: :func:`..link_report.unrestored`)."""
    link, given = parse_link(search)
    if "pins" not in given:
        return []
    pins, _ = resolve_refs(link.pins, legacy_names(
        store, link.datasets if "datasets" in given else datasets))
    present = set(store.present([p.model.dataset for p in pins]))
    return [p.to_store() for p in pins if p.model.dataset in present]


def after_removal(pins: list[dict], removed: dict) -> list[dict]:
    """The pins once a dataset was removed (``removed``, the record of
    :func:`..removal.remove`: its pins go) or brought back by *Undo* (they come back, with
    their letters while free: :func:`..removal.pins_after`)."""
    return pins_after(clean_pins(pins), removed)


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


def on_vertex(cache, typed: dict, reference=None) -> tuple[dict, str]:
    """A typed pin (:func:`keyed`) moved to the vertex the views show for it, and the
    sentence saying so ("" when it is a vertex already): the lowest score of the model at
    or above the typed threshold, which flags the same cases
    (:func:`..removal.vertex_threshold`). The pin keeps that threshold, so the page, its link
    and *Download decision* name the same point. ``reference``: a multi-class dataset's
    class shown as positive (its scores are that class's). As typed when the model's scores
    cannot be read."""
    t = typed.get("threshold")
    try:
        table = cache.table([typed["dataset"]], reference)
        scores = table["score"].to_numpy()[(table["model"].astype(str) == typed["model"])
                                           .to_numpy()]
    except Exception:  # noqa: BLE001 - gone meanwhile: the pin as typed (the views drop it)
        return typed, ""
    if t is None or not scores.size:
        return typed, ""
    vertex = vertex_threshold(scores, t)
    if vertex == t:
        return typed, ""
    shown = rule_threshold(t)
    said = (f"{shown} is above every score of {typed['model']}: pinned at +∞ (flags nothing)."
            if vertex is None else
            f"{shown} flags the same cases as ≥ {rule_threshold(vertex)}, the lowest score at "
            "or above it: pinned there.")
    return {**typed, "threshold": vertex}, said


# -- wiring ------------------------------------------------------------------------------
def register(app, cache, store) -> None:
    """The pin callback; deferred clicks and the *Clear pins* button's visibility."""

    @app.callback(
        output={"pins": Output(ids.PINNED, "data"),
                "box": Output(ids.PIN_THRESHOLD, "className"),
                "message": Output(ids.PIN_MSG, "children")},
        inputs={"click": Input(ids.CLICK, "data"),  # a click on a view, not of a double click
                "unpin": Input(ids.UNPIN, "n_clicks"),
                "pin": Input(ids.PIN_BUTTON, "n_clicks"),
                "submit": Input(ids.PIN_THRESHOLD, "n_submit"),
                "unpin_one": Input({"type": ids.UNPIN_ONE, "index": ALL}, "n_clicks"),
                "removed": Input(ids.REMOVED, "data"),  # a dataset removed, or back
                "model": State(ids.PIN_MODEL, "value"),
                "threshold": State(ids.PIN_THRESHOLD, "value"),
                "search": State(ids.URL, "search"), "viz": State(ids.VIZ_DATA, "data"),
                "pins": State(ids.PINNED, "data"), "datasets": State(ids.DATASETS, "data"),
                "state": State(ids.CONDITIONS, "data")},  # a typed pin's class (multi-class)
    )
    def pin(click, unpin, pin, submit, unpin_one, removed, model, threshold, search, viz,
            pins, datasets, state):
        trigger = ctx.triggered_id
        ok = {"box": "exact pin-threshold", "message": ""}
        pins = clean_pins(pins)
        if trigger is None or (trigger in (ids.CLICK, ids.REMOVED) and not isinstance(
                {ids.CLICK: click, ids.REMOVED: removed}[trigger], dict)):
            # the page's first call (Dash names a store still empty, the click's or the
            # removals', as its trigger): the link's pins
            return {"pins": linked_pins(store, search, datasets), **ok}
        if trigger == ids.REMOVED:  # a dataset removed (its pins go) or back (they come back)
            return {"pins": after_removal(pins, removed), **ok}
        if trigger == ids.UNPIN:
            if not unpin:  # the button was just drawn (it shows only while pins exist)
                raise PreventUpdate
            return {"pins": [], **ok}
        if isinstance(trigger, dict) and trigger.get("type") == ids.UNPIN_ONE:
            if not any(t["value"] for t in ctx.triggered):
                raise PreventUpdate
            return {"pins": [p for p in pins if p["label"] != trigger.get("index")], **ok}
        if trigger in (ids.PIN_BUTTON, ids.PIN_THRESHOLD):
            typed, why = pin_from_input(model, threshold)
            typed = keyed(typed) if typed is not None else None
            if typed is None:
                return {"pins": no_update, "box": ok["box"] + " invalid",
                        "message": why or "Choose a model to pin."}
            typed, said = on_vertex(cache, typed, ControlState.from_store(state).reference_class)
            return {"pins": add_pin(pins, typed), **ok, "message": said}
        viz = viz if isinstance(viz, dict) else {}
        clicked = keyed(pin_from_click(click.get("click") if isinstance(click, dict) else None,
                                       viz.get("keys")))
        if clicked is None:
            raise PreventUpdate
        return {"pins": add_pin(pins, clicked), **ok}

    # a click pins only when it is not the first click of a double click (which resets the
    # zoom): assets/roc_dash.js waits out the double-click delay before passing it on
    in_browser(app, "deferClick",
               Output(ids.CLICK, "data"),
               *each(Input, "clickData", ids.ROC_GRAPH, ids.PR_GRAPH, ids.COST_GRAPH,
                     ids.THRESHOLD_GRAPH))

    # "Clear pins" only when something is pinned
    app.clientside_callback(
        "function (pins) { return !(Array.isArray(pins) && pins.length); }",
        Output(ids.UNPIN, "hidden"),
        Input(ids.PINNED, "data"),
    )
