"""Costs, prior and the iso-performance line: what each gesture does to the exact conditions.

The conditions live in one store (``ids.CONDITIONS``, read as :class:`..state.ControlState`)
with their exact values; the sliders and text boxes only show them (rounded for display).
Everything here is a plain function of the gesture and the current state, so unit tests call
it directly:

* a slider sets its value; a text box sets what was typed when it is a number in range,
  clamps it **with a message** when it is out of range, and keeps the old value **with a
  message** when it is not a number;
* the −/+ buttons step a cost by a factor ``10^0.1`` and the prior by ``0.01``;
* dragging the iso-performance line (a real drag sends only the keys of what moved:
  ``shapes[0].x0``/``y0`` for one end, all four for the middle) is read as a rotation about
  the optimal vertex; see :func:`dragged_slope`;
* "the data's prevalence" is the exact prevalence of the chosen dataset, never rounded.

The controls callback also returns the linked views for the new conditions
(:func:`..render.update_views`, outputs written with ``allow_duplicate``): one round trip per
change instead of two. Moving the line while a slider is dragged runs in the browser
(``assets/roc_dash.js``, ``moveIsoLine``).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, replace

from dash import ClientsideFunction, Input, Output, State, ctx, dcc, html, no_update
from dash.exceptions import PreventUpdate

from .. import ids
from ..analysis import data_prior
from ..help import HELP
from ..render import VIEW_OUTPUTS, VIEW_STATES, update_views
from ..server.limits import excerpt
from ..state import COST_LIMITS, ControlState, clean_class, display, number, parse_query

__all__ = ["COST_MIN", "COST_MAX", "PRIOR_MIN", "PRIOR_MAX", "COST_STEP", "PRIOR_STEP",
           "panel", "cost_to_slider", "slider_to_cost", "parse_cost", "parse_prior",
           "parse_benefit", "parse_population", "step_cost", "step_prior", "dragged_slope",
           "cost_fp_for_slope", "Gesture", "apply_gesture", "control_outputs", "register"]

COST_MIN, COST_MAX = -2.0, 2.0  # log10 range of the cost sliders (0.01 .. 100)
PRIOR_MIN, PRIOR_MAX = 0.001, 0.999


#: One press of a cost's −/+ multiplies or divides it by this (a tenth of a decade).
COST_STEP = 10 ** 0.1


PRIOR_STEP = 0.01


#: Drags that end this close (in ROC units) to the optimal vertex carry no direction.
_PIVOT_EPS = 1e-3


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


def cost_to_slider(cost: float) -> float:
    return min(max(math.log10(cost), COST_MIN), COST_MAX)


def slider_to_cost(value: float) -> float:
    return float(f"{10 ** value:.4g}")


def parse_cost(text, current: float, what: str) -> tuple[float, str]:
    """The cost typed in a box and a message when it was not taken as typed."""
    v = number(text)
    lo, hi = COST_LIMITS
    if v is None:
        return current, (f"{what}: {excerpt(text)} is not a number; kept {display(current)}."
                         if str(text or "").strip() else
                         f"{what}: empty; kept {display(current)}.")
    if v <= 0:
        return current, (f"{what} must be positive (a cost of {display(v)} means nothing to "
                         f"weigh); kept {display(current)}.")
    if v < lo or v > hi:
        clamped = min(max(v, lo), hi)
        return clamped, f"{what}: {display(v)} is out of range; set to {display(clamped)}."
    return v, ""


def parse_prior(text, current: float) -> tuple[float, str]:
    """The prior typed in a box and a message when it was not taken as typed."""
    v = number(text)
    what = "Deployment prior p(+)"
    if v is None:
        return current, (f"{what}: {excerpt(text)} is not a number; kept {display(current)}."
                         if str(text or "").strip() else
                         f"{what}: empty; kept {display(current)}.")
    if not PRIOR_MIN <= v <= PRIOR_MAX:
        clamped = min(max(v, PRIOR_MIN), PRIOR_MAX)
        return clamped, (f"{what} must lie strictly between 0 and 1; {display(v)} was set to "
                         f"{display(clamped)}.")
    return v, ""


def parse_benefit(text, current: float, what: str) -> tuple[float, str]:
    """A benefit typed in a box (0 or more; empty means 0)."""
    if not str(text or "").strip():
        return 0.0, ""
    v = number(text)
    if v is None:
        return current, f"{what}: {excerpt(text)} is not a number; kept {display(current)}."
    if v < 0:
        return current, (f"{what} cannot be negative (enter a cost as a cost instead); "
                         f"kept {display(current)}.")
    if v > COST_LIMITS[1]:
        return COST_LIMITS[1], f"{what}: {display(v)} is out of range; set to 1e+06."
    return v, ""


def parse_population(text, current: float | None) -> tuple[float | None, str]:
    """Cases per period (empty: no totals)."""
    if not str(text or "").strip():
        return None, ""
    v = number(text.replace("_", "").replace(" ", "") if isinstance(text, str) else text)
    if v is None or v <= 0 or v > 1e15:
        return current, (f"Cases per month: {excerpt(text)} must be a positive number; "
                         f"kept {'none' if current is None else display(current)}.")
    return v, ""


def step_cost(value: float, direction: int) -> float:
    """One −/+ press: ``value`` times ``10^(±0.1)``, rounded to 4 significant digits and
    kept within :data:`COST_LIMITS`."""
    stepped = float(f"{value * COST_STEP ** direction:.4g}")
    return min(max(stepped, COST_LIMITS[0]), COST_LIMITS[1])


def step_prior(value: float, direction: int) -> float:
    """One −/+ press: ``value ± 0.01``, rounded to 4 decimals, kept in the slider's range."""
    return min(max(round(value + direction * PRIOR_STEP, 4), PRIOR_MIN), PRIOR_MAX)


def dragged_slope(relayout, line, vertex) -> float | None:
    """The iso-performance slope after the user dragged the line, or None for no drag.

    Parameters
    ----------
    relayout : dict
        Plotly's ``relayoutData``: after a drag of one end only that end's keys
        (``shapes[0].x0``, ``shapes[0].y0``), after a drag of the middle all four.
    line : sequence of 4 floats
        The line as drawn before the drag, ``(x0, y0, x1, y1)``: the keys that did not move
        are taken from it.
    vertex : sequence of 2 floats
        The optimal vertex ``(fpr, tpr)`` the line touched.

    The drag is read as a rotation about the optimal vertex (a translation carries no
    slope): the new slope is that of the line from the vertex to the moved end, or to the
    moved middle when both ends moved. A direction steeper than vertical (or vertical) gives
    ``inf`` and one below horizontal gives ``0``; callers clamp them to the sliders' range.
    If the moved point ends on the vertex itself, the dragged line's own slope is used.
    """
    if not isinstance(relayout, dict) or line is None or vertex is None:
        return None
    keys = {}
    for k, v in relayout.items():
        if isinstance(k, str) and k.startswith("shapes[0].") and k[10:] in ("x0", "y0", "x1", "y1"):
            num = number(v)
            if num is None:
                return None
            keys[k[10:]] = num
    if not keys:
        return None
    try:
        old = [float(v) for v in line]
        f, t = (float(v) for v in vertex)
    except (TypeError, ValueError):
        return None
    new = [keys.get(k, o) for k, o in zip(("x0", "y0", "x1", "y1"), old, strict=True)]
    moved0 = new[0] != old[0] or new[1] != old[1]
    moved1 = new[2] != old[2] or new[3] != old[3]
    if moved0 and not moved1:
        px, py = new[0], new[1]
    elif moved1 and not moved0:
        px, py = new[2], new[3]
    else:
        px, py = (new[0] + new[2]) / 2, (new[1] + new[3]) / 2
    dx, dy = px - f, py - t
    if math.hypot(dx, dy) < _PIVOT_EPS:  # the moved point sits on the vertex: use the line
        dx, dy = new[2] - new[0], new[3] - new[1]
    if dx < 0:  # a line has no direction: point it to the right
        dx, dy = -dx, -dy
    if dx == 0:
        return math.inf
    slope = dy / dx
    if slope <= 0:
        # rotated past the horizontal (nearer flat) or past the vertical (nearer upright)
        return 0.0 if abs(slope) < 1 else math.inf
    return slope


def cost_fp_for_slope(slope: float, state: ControlState) -> float:
    """``c(FP)`` giving iso slope ``m = c(FP)·p(−) / (c(FN)·p(+))`` at the current prior and
    ``c(FN)``, clamped to the slider's range."""
    lo, hi = 10 ** COST_MIN, 10 ** COST_MAX
    if slope == 0:
        return lo
    if math.isinf(slope):
        return hi
    return min(max(slope * state.prior / (1 - state.prior) * state.cost_fn, lo), hi)


@dataclass(frozen=True)
class Gesture:
    """What the controls callback was given."""

    trigger: str | None
    fp_slider: float | None = None
    fn_slider: float | None = None
    prior_slider: float | None = None
    cost_fp_text: object = None
    cost_fn_text: object = None
    prior_text: object = None
    relayout: dict | None = None
    economics: dict | None = None  # the benefit / unit / population boxes
    line: list | None = None
    vertex: list | None = None
    search: str | None = None
    reference_class: object = None  # the class selector (multi-class data)


def apply_gesture(g: Gesture, state: ControlState, data_prior
                  ) -> tuple[ControlState, str] | None:
    """The new exact conditions and a message (empty when the input was taken as given).

    ``data_prior`` is the data's prevalence, or a function of the reference class giving it
    (multi-class data: the prevalence of the class shown as positive).
    None means "nothing to change" (e.g. a zoom of the ROC plot, not a drag of the line).
    """
    msg = ""
    s = state
    t = g.trigger
    if t == ids.COST_FP_SLIDER and g.fp_slider is not None:
        s = replace(s, cost_fp=slider_to_cost(g.fp_slider))
    elif t == ids.COST_FN_SLIDER and g.fn_slider is not None:
        s = replace(s, cost_fn=slider_to_cost(g.fn_slider))
    elif t == ids.PRIOR_SLIDER and g.prior_slider is not None:
        s = replace(s, prior=float(g.prior_slider), prior_mode="manual")
    elif t == ids.COST_FP:
        v, msg = parse_cost(g.cost_fp_text, s.cost_fp, "Cost of a false positive")
        s = replace(s, cost_fp=v)
    elif t == ids.COST_FN:
        v, msg = parse_cost(g.cost_fn_text, s.cost_fn, "Cost of a false negative")
        s = replace(s, cost_fn=v)
    elif t == ids.PRIOR:
        v, msg = parse_prior(g.prior_text, s.prior)
        s = replace(s, prior=v, prior_mode="manual")
    elif t in (ids.COST_FP_DOWN, ids.COST_FP_UP):
        s = replace(s, cost_fp=step_cost(s.cost_fp, 1 if t == ids.COST_FP_UP else -1))
    elif t in (ids.COST_FN_DOWN, ids.COST_FN_UP):
        s = replace(s, cost_fn=step_cost(s.cost_fn, 1 if t == ids.COST_FN_UP else -1))
    elif t in (ids.PRIOR_DOWN, ids.PRIOR_UP):
        s = replace(s, prior=step_prior(s.prior, 1 if t == ids.PRIOR_UP else -1),
                    prior_mode="manual")
    elif t == ids.PRIOR_RESET:
        s = replace(s, prior_mode="auto")
    elif t == ids.CLASS_CHOICE:
        s = replace(s, reference_class=clean_class(g.reference_class))
    elif t in (ids.BENEFIT_TP, ids.BENEFIT_TN, ids.UNIT, ids.POPULATION):
        e = g.economics or {}
        if t == ids.BENEFIT_TP:
            v, msg = parse_benefit(e.get("benefit_tp"), s.benefit_tp, "Benefit of a true positive")
            s = replace(s, benefit_tp=v)
        elif t == ids.BENEFIT_TN:
            v, msg = parse_benefit(e.get("benefit_tn"), s.benefit_tn, "Benefit of a true negative")
            s = replace(s, benefit_tn=v)
        elif t == ids.UNIT:
            s = replace(s, unit=str(e.get("unit") or "").strip()[:12])
        else:
            v, msg = parse_population(e.get("population"), s.population)
            s = replace(s, population=v)
    elif t == ids.ROC_GRAPH:
        slope = dragged_slope(g.relayout, g.line, g.vertex)
        if slope is None:
            return None  # a zoom or pan, not the line
        cfp = cost_fp_for_slope(slope, s)
        s = replace(s, cost_fp=cfp, rev=s.rev + 1)
        if cfp in (10 ** COST_MIN, 10 ** COST_MAX):
            msg = (f"The line was dragged to the end of the range: cost of a false positive "
                   f"set to {display(cfp)}.")
    elif t is None:  # first load: the link's settings
        q = parse_query(g.search)
        s = replace(s, cost_fp=q.get("cost_fp", s.cost_fp), cost_fn=q.get("cost_fn", s.cost_fn))
        if "prior" in q:
            s = replace(s, prior=q["prior"], prior_mode="manual")
        s = replace(s, reference_class=q.get("reference_class", s.reference_class))
    if callable(data_prior):
        data_prior = data_prior(s.reference_class)
    if s.prior_mode == "auto" and data_prior is not None and 0 < data_prior < 1:
        new = float(data_prior)
        if t == ids.PRIOR_SOURCE and state.prior_mode == "auto" and new != state.prior:
            # e.g. a second upload: its own prevalence is the new default; never silently
            msg = msg or (f"The deployment prior p(+) now follows the prevalence of the "
                          f"dataset chosen under “Use the data's prevalence”: {display(new)} "
                          f"(was {display(state.prior)}). Choose another dataset there, or "
                          "type a prior.")
        s = replace(s, prior=new)
    return s, msg


def control_outputs(s: ControlState) -> tuple:
    """What the sliders and boxes show for the exact state ``s``."""
    return (cost_to_slider(s.cost_fp), display(s.cost_fp), cost_to_slider(s.cost_fn),
            display(s.cost_fn), min(max(s.prior, PRIOR_MIN), PRIOR_MAX), display(s.prior))


def _num_or_none(value):
    return float(value) if isinstance(value, int | float) and math.isfinite(value) else None


# -- wiring ------------------------------------------------------------------------------
def register(app, cache, store) -> None:
    """The controls callback and the iso line's clientside callbacks."""

    _register_controls(app, cache, store)
    _register_line(app, cache, store)


def _register_controls(app, cache, store) -> None:
    """The controls callback (and the views for new conditions)."""

    @app.callback(
        Output(ids.COST_FP_SLIDER, "value"),
        Output(ids.COST_FP, "value"),
        Output(ids.COST_FN_SLIDER, "value"),
        Output(ids.COST_FN, "value"),
        Output(ids.PRIOR_SLIDER, "value"),
        Output(ids.PRIOR, "value"),
        Output(ids.CONDITIONS, "data"),
        Output(ids.CONTROL_MSG, "children"),
        # the views for the new conditions come back in the same response: one round trip
        # per change instead of two (the views callback skips conditions already drawn)
        *VIEW_OUTPUTS,
        Input(ids.COST_FP_SLIDER, "value"),
        Input(ids.COST_FP, "value"),
        Input(ids.COST_FN_SLIDER, "value"),
        Input(ids.COST_FN, "value"),
        Input(ids.PRIOR_SLIDER, "value"),
        Input(ids.PRIOR, "value"),
        Input(ids.COST_FP_DOWN, "n_clicks"),
        Input(ids.COST_FP_UP, "n_clicks"),
        Input(ids.COST_FN_DOWN, "n_clicks"),
        Input(ids.COST_FN_UP, "n_clicks"),
        Input(ids.PRIOR_DOWN, "n_clicks"),
        Input(ids.PRIOR_UP, "n_clicks"),
        Input(ids.PRIOR_RESET, "n_clicks"),
        Input(ids.PRIOR_SOURCE, "value"),
        Input(ids.LINE_DRAG, "data"),
        Input(ids.BENEFIT_TP, "value"),
        Input(ids.BENEFIT_TN, "value"),
        Input(ids.UNIT, "value"),
        Input(ids.POPULATION, "value"),
        Input(ids.CLASS_CHOICE, "value"),
        State(ids.DATASETS, "data"),
        State(ids.URL, "search"),
        State(ids.CONDITIONS, "data"),
        State(ids.VIZ_DATA, "data"),
        *VIEW_STATES,
        prevent_initial_call="initial_duplicate",  # the first call restores the link
    )
    def controls(fp_slider, cost_fp, fn_slider, cost_fn, prior_slider, prior, *rest):
        (_fpd, _fpu, _fnd, _fnu, _pd, _pu, _reset, source, relayout, btp, btn, unit, population,
         reference, dataset_ids, search, state, viz, *view_states) = rest
        viz = viz if isinstance(viz, dict) else {}
        gesture = Gesture(
            trigger=ids.ROC_GRAPH if ctx.triggered_id == ids.LINE_DRAG else ctx.triggered_id,
        fp_slider=_num_or_none(fp_slider),
            fn_slider=_num_or_none(fn_slider), prior_slider=_num_or_none(prior_slider),
            cost_fp_text=cost_fp, cost_fn_text=cost_fn, prior_text=prior, relayout=relayout,
            line=viz.get("line"), vertex=viz.get("vertex"), search=search,
            economics={"benefit_tp": btp, "benefit_tn": btn, "unit": unit,
                       "population": population}, reference_class=reference)
        current = ControlState.from_store(state)
        if state is None:  # first call of the page: restore the link even if triggered
            gesture = dataclasses.replace(gesture, trigger=None)
        result = apply_gesture(gesture, current,
                               lambda cls: data_prior(store, dataset_ids, source, cls))
        if result is None:
            raise PreventUpdate  # a zoom or pan of the ROC plot, not the line
        new, message = result
        new_state = new.to_store()
        views_out = (no_update,) * len(VIEW_OUTPUTS)
        if state is not None and isinstance(viz, dict) and new_state != state:
            # the page has drawn its views before: draw them for the new conditions now
            # (on the first call the views callback draws them, once the models are known)
            (models, averaging, level, band, samples, det, presentation, pinned, ties,
             pr_mode, threshold_model, threshold_axis, combine, zoom, cost_mode,
             log_fpr) = view_states
            views_out = update_views(cache, dataset_ids, models, new_state, averaging, level,
                                     band, samples, det, presentation, pinned, ties, pr_mode,
                                     threshold_model, threshold_axis, combine, zoom, viz,
                                     conditions_changed=True, cost_mode=cost_mode,
                                     log_fpr=bool(log_fpr))
            # the threshold view's model is an input of the views callback: writing it here
            # would draw every view a second time (new conditions never change the model)
            views_out = (*views_out[:-1], no_update)
        return (*control_outputs(new), new_state, message, *views_out)


def _register_line(app, cache, store) -> None:
    """The iso line in the browser: moved while a slider is dragged, dragged itself."""

    app.clientside_callback(
        ClientsideFunction("rocDash", "moveIsoLine"),
        Output(ids.ROC_GRAPH, "figure", allow_duplicate=True),
        Output(ids.COST_GRAPH, "figure", allow_duplicate=True),
        Input(ids.COST_FP_SLIDER, "drag_value"),
        Input(ids.COST_FN_SLIDER, "drag_value"),
        Input(ids.PRIOR_SLIDER, "drag_value"),
        State(ids.VIZ_DATA, "data"),
        State(ids.ROC_GRAPH, "figure"),
        State(ids.COST_FP_SLIDER, "value"),
        State(ids.COST_FN_SLIDER, "value"),
        State(ids.PRIOR_SLIDER, "value"),
        prevent_initial_call=True,
    )

    # only drags of the iso line reach the server (a zoom or pan of the ROC plot stays in
    # the browser, so plotly keeps it across later updates)
    app.clientside_callback(
        ClientsideFunction("rocDash", "lineDrag"),
        Output(ids.LINE_DRAG, "data"),
        Input(ids.ROC_GRAPH, "relayoutData"),
        prevent_initial_call=True,
    )
