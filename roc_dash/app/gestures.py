"""What each gesture on the costs and prior controls does to the exact conditions.

The conditions live in one store (``ids.CONDITIONS``, read as :class:`.state.ControlState`)
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
* "the data's prevalence" is the exact prevalence of the chosen dataset, never rounded;
* the page's first call takes the link's conditions (:func:`.page_state.parse_link`).

Below the features: the conditions feature lays the controls out (:mod:`.features.conditions`)
and the views feature's callback applies a gesture and draws the views for the new
conditions in the same response (:mod:`.features.views`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from dash import Input, Output

from . import ids
from .page_state import parse_link
from .server.limits import excerpt
from .state import COST_LIMITS, ControlState, clean_class, display, not_number_why, number

__all__ = ["COST_MIN", "COST_MAX", "PRIOR_MIN", "PRIOR_MAX", "COST_STEP", "PRIOR_STEP",
           "cost_to_slider", "slider_to_cost", "parse_cost", "parse_prior",
           "parse_benefit", "parse_population", "step_cost", "step_prior", "dragged_slope",
           "cost_fp_for_slope", "Gesture", "apply_gesture", "control_outputs",
           "economics_outputs", "num_or_none", "GESTURE_INPUTS", "GESTURE_IDS",
           "CONTROL_OUTPUTS",
           "ECONOMICS_OUTPUTS", "gesture_of"]

COST_MIN, COST_MAX = -2.0, 2.0  # log10 range of the cost sliders (0.01 .. 100)
PRIOR_MIN, PRIOR_MAX = 0.001, 0.999


#: One press of a cost's −/+ multiplies or divides it by this (a tenth of a decade).
COST_STEP = 10 ** 0.1


PRIOR_STEP = 0.01


#: Drags that end this close (in ROC units) to the optimal vertex carry no direction.
_PIVOT_EPS = 1e-3
#: The shortest lever of a drag's rotation about the optimal vertex (ROC units, a fifth of
#: the plot): a point grabbed nearer the vertex turns the line as if grabbed this far away
#: along the line, so that a small mouse move gives a small turn (see :func:`dragged_slope`).
MIN_LEVER = 0.2


def cost_to_slider(cost: float) -> float:
    return min(max(math.log10(cost), COST_MIN), COST_MAX)


def slider_to_cost(value: float) -> float:
    return float(f"{10 ** value:.4g}")


def parse_cost(text, current: float, what: str) -> tuple[float, str]:
    """The cost typed in a box and a message when it was not taken as typed."""
    v = number(text)
    lo, hi = COST_LIMITS
    if v is None:
        return current, (f"{what}: {excerpt(text)} {not_number_why(text)}; kept {display(current)}."
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
    """The prior typed in a box and a message when it was not taken as typed; a share may be
    typed as a percentage (``30%`` is 0.3), as the capacity and floor boxes take it."""
    raw = text.strip() if isinstance(text, str) else text
    percent = isinstance(raw, str) and raw.endswith("%")
    v = number(raw[:-1]) if percent else number(text)
    if percent and v is not None:
        v = v / 100
    what = "Deployment prior p(+)"
    if v is None:
        return current, (f"{what}: {excerpt(text)} {not_number_why(text)}; kept {display(current)}."
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
        return current, f"{what}: {excerpt(text)} {not_number_why(text)}; kept {display(current)}."
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

    The lever is at least :data:`MIN_LEVER`: a moved point that was nearer the vertex (the
    middle of a line whose vertex is near its middle, an end of a short line on near-perfect
    data) is taken as if it were that far from the vertex along the line, moved by as much.
    Without it a short lever turned a move of a few pixels into a swing of tens of degrees.
    A point on the vertex itself (an end of the line that is the vertex) is taken out on the
    side where the line is drawn, the longer one: so the line turns the way it is dragged.
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
        (qx, qy), (px, py) = old[:2], new[:2]
    elif moved1 and not moved0:
        (qx, qy), (px, py) = old[2:], new[2:]
    else:
        qx, qy = (old[0] + old[2]) / 2, (old[1] + old[3]) / 2
        px, py = (new[0] + new[2]) / 2, (new[1] + new[3]) / 2
    lever = math.hypot(qx - f, qy - t)
    if lever < MIN_LEVER:
        # the grabbed point, moved out along the line to MIN_LEVER from the vertex (on its
        # side of it; a point on the vertex takes the side the line reaches farther to)
        ux, uy = (qx - f, qy - t) if lever >= _PIVOT_EPS else _far_side(old, f, t)
        size = math.hypot(ux, uy)
        if size > 0:
            scale = MIN_LEVER / size
            px, py = f + ux * scale + (px - qx), t + uy * scale + (py - qy)
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


def _far_side(line, f: float, t: float) -> tuple[float, float]:
    """From the vertex (f, t) towards the line's end farther from it (the upper end on a tie).
    An end grabbed on the vertex (at prior 0.99 the optimum is often the line's upper end, on
    TPR = 1; at prior 0.01 its lower end, on FPR = 0) turns the line as the part of it that
    is drawn: the line's other side lies outside the plot."""
    low, high = (line[0] - f, line[1] - t), (line[2] - f, line[3] - t)
    return low if math.hypot(*low) > math.hypot(*high) else high


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
    elif t is None:  # first load: the link's conditions
        link, given = parse_link(g.search)
        if "conditions" in given:
            s = replace(link.conditions, rev=s.rev)
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


def control_outputs(s: ControlState) -> dict:
    """What the sliders and boxes show for the exact state ``s``."""
    return {"fp_slider": cost_to_slider(s.cost_fp), "fp": display(s.cost_fp),
            "fn_slider": cost_to_slider(s.cost_fn), "fn": display(s.cost_fn),
            "prior_slider": min(max(s.prior, PRIOR_MIN), PRIOR_MAX), "prior": display(s.prior)}


def economics_outputs(s: ControlState) -> dict:
    """What the benefit, unit and volume boxes show for ``s`` (a link's values; a box the
    user types in keeps what was typed)."""
    return {"benefit_tp": display(s.benefit_tp) if s.benefit_tp else "0",
            "benefit_tn": display(s.benefit_tn) if s.benefit_tn else "0",
            "unit": s.unit,
            "population": "" if s.population is None else f"{s.population:.12g}"}


def num_or_none(value):
    """A finite float, else None (a slider's value from the browser)."""
    return float(value) if isinstance(value, int | float) and math.isfinite(value) else None


#: The controls a gesture comes from, by name (the views callback's named inputs).
GESTURE_INPUTS = {name: Input(i, p) for name, (i, p) in {
    "fp_slider": (ids.COST_FP_SLIDER, "value"), "fp": (ids.COST_FP, "value"),
    "fn_slider": (ids.COST_FN_SLIDER, "value"), "fn": (ids.COST_FN, "value"),
    "prior_slider": (ids.PRIOR_SLIDER, "value"), "prior": (ids.PRIOR, "value"),
    "fp_down": (ids.COST_FP_DOWN, "n_clicks"), "fp_up": (ids.COST_FP_UP, "n_clicks"),
    "fn_down": (ids.COST_FN_DOWN, "n_clicks"), "fn_up": (ids.COST_FN_UP, "n_clicks"),
    "prior_down": (ids.PRIOR_DOWN, "n_clicks"), "prior_up": (ids.PRIOR_UP, "n_clicks"),
    "prior_reset": (ids.PRIOR_RESET, "n_clicks"), "source": (ids.PRIOR_SOURCE, "value"),
    "line": (ids.LINE_DRAG, "data"), "benefit_tp": (ids.BENEFIT_TP, "value"),
    "benefit_tn": (ids.BENEFIT_TN, "value"), "unit": (ids.UNIT, "value"),
    "population": (ids.POPULATION, "value"), "reference": (ids.CLASS_CHOICE, "value"),
}.items()}

#: The components whose change is a gesture on the conditions.
GESTURE_IDS = frozenset(dep.component_id for dep in GESTURE_INPUTS.values())

#: What the sliders and their boxes show (:func:`control_outputs`).
CONTROL_OUTPUTS = {name: Output(i, "value") for name, i in {
    "fp_slider": ids.COST_FP_SLIDER, "fp": ids.COST_FP, "fn_slider": ids.COST_FN_SLIDER,
    "fn": ids.COST_FN, "prior_slider": ids.PRIOR_SLIDER, "prior": ids.PRIOR}.items()}

#: The benefit, unit and volume boxes (:func:`economics_outputs`).
ECONOMICS_OUTPUTS = {name: Output(i, "value") for name, i in {
    "benefit_tp": ids.BENEFIT_TP, "benefit_tn": ids.BENEFIT_TN, "unit": ids.UNIT,
    "population": ids.POPULATION}.items()}


def gesture_of(trigger, values: dict, viz, search) -> Gesture:
    """The :class:`Gesture` of a callback's ``trigger`` (a component id; a drag of the line
    arrives as ``ids.LINE_DRAG``) and the controls' ``values`` (keys of
    :data:`GESTURE_INPUTS`); ``viz`` is the views' data (the line as drawn and its vertex)."""
    viz = viz if isinstance(viz, dict) else {}
    return Gesture(
        trigger=ids.ROC_GRAPH if trigger == ids.LINE_DRAG else trigger,
        fp_slider=num_or_none(values.get("fp_slider")),
        fn_slider=num_or_none(values.get("fn_slider")),
        prior_slider=num_or_none(values.get("prior_slider")),
        cost_fp_text=values.get("fp"), cost_fn_text=values.get("fn"),
        prior_text=values.get("prior"), relayout=values.get("line"),
        line=viz.get("line"), vertex=viz.get("vertex"), search=search,
        economics={k: values.get(k) for k in ("benefit_tp", "benefit_tn", "unit",
                                              "population")},
        reference_class=values.get("reference"))
