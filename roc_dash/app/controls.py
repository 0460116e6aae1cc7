"""The cost and prior controls: what each gesture does to the exact conditions.

The conditions live in one store (``ids.CONDITIONS``) with their exact values; the sliders
and text boxes only show them (rounded for display). Everything here is a plain function of
the gesture and the current state, so unit tests call it directly:

* a slider sets its value; a text box sets what was typed when it is a number in range,
  clamps it **with a message** when it is out of range, and keeps the old value **with a
  message** when it is not a number;
* the −/+ buttons step a cost by a factor ``10^0.1`` and the prior by ``0.01``;
* dragging the iso-performance line (a real drag sends only the keys of what moved:
  ``shapes[0].x0``/``y0`` for one end, all four for the middle) is read as a rotation about
  the optimal vertex; see :func:`dragged_slope`;
* "the data's prevalence" is the exact prevalence of the chosen dataset, never rounded.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, replace
from urllib.parse import parse_qs

from . import ids
from .layout import COST_MAX, COST_MIN, PRIOR_MAX, PRIOR_MIN, cost_to_slider, slider_to_cost
from .server.limits import excerpt

#: Costs typed in a box may go beyond the sliders' range, up to these bounds.
COST_LIMITS = (1e-6, 1e6)
#: One press of a cost's −/+ multiplies or divides it by this (a tenth of a decade).
COST_STEP = 10 ** 0.1
PRIOR_STEP = 0.01
SAMPLES_LIMITS = (5, 1001)

#: Drags that end this close (in ROC units) to the optimal vertex carry no direction.
_PIVOT_EPS = 1e-3


@dataclass(frozen=True)
class ControlState:
    """The exact conditions (``ids.CONDITIONS`` store)."""

    cost_fp: float = 1.0
    cost_fn: float = 1.0
    prior: float = 0.5
    prior_mode: str = "auto"  # "auto": the chosen dataset's prevalence; "manual": typed
    rev: int = 0  # bumped by every drag of the line, so the figure always redraws it
    benefit_tp: float = 0.0  # what a true positive gains (Fawcett 2004, §7.1 net costs)
    benefit_tn: float = 0.0
    unit: str = ""  # e.g. "€": shown with every amount
    population: float | None = None  # cases per period (a month), for totals
    reference_class: str | None = None  # multi-class data: the class shown as positive

    @classmethod
    def from_store(cls, data) -> ControlState:
        if not isinstance(data, dict):
            return cls()
        cfp = _number(data.get("cost_fp"))
        cfn = _number(data.get("cost_fn"))
        prior = _number(data.get("prior"))
        rev = data.get("rev")
        btp, btn, pop = (_number(data.get(k)) for k in ("benefit_tp", "benefit_tn",
                                                         "population"))
        unit = data.get("unit")
        return cls(
            benefit_tp=btp if btp is not None and 0 <= btp <= COST_LIMITS[1] else 0.0,
            benefit_tn=btn if btn is not None and 0 <= btn <= COST_LIMITS[1] else 0.0,
            unit=unit[:12] if isinstance(unit, str) else "",
            population=pop if pop is not None and 0 < pop <= 1e15 else None,
            cost_fp=cfp if cfp is not None and COST_LIMITS[0] <= cfp <= COST_LIMITS[1] else 1.0,
            cost_fn=cfn if cfn is not None and COST_LIMITS[0] <= cfn <= COST_LIMITS[1] else 1.0,
            prior=prior if prior is not None and 0 < prior < 1 else 0.5,
            prior_mode="manual" if data.get("prior_mode") == "manual" else "auto",
            rev=rev if isinstance(rev, int) and 0 <= rev < 2**31 else 0,
            reference_class=_class(data.get("reference_class")),
        )

    def to_store(self) -> dict:
        return asdict(self)


def _class(value) -> str | None:
    """A class name from the browser or a link: a non-empty string of at most 200 characters."""
    return value if isinstance(value, str) and 0 < len(value) <= 200 else None


def _number(value) -> float | None:
    """A finite float from a number or text (``"1e-3"``, ``" 0,25 "``), else None."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, str):
        text = value.strip().replace(",", ".")
        if not text:
            return None
        try:
            value = float(text)
        except ValueError:
            return None
    try:
        v = float(value)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def display(value: float) -> str:
    """A value as the text boxes show it: 4 significant digits, no trailing zeros."""
    return f"{value:.4g}"


def parse_cost(text, current: float, what: str) -> tuple[float, str]:
    """The cost typed in a box and a message when it was not taken as typed."""
    v = _number(text)
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
    v = _number(text)
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
    v = _number(text)
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
    v = _number(text.replace("_", "").replace(" ", "") if isinstance(text, str) else text)
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


def clamp_samples(value, previous: int = 51) -> tuple[int, str]:
    """The number of averaging samples from what the box holds, with a message when it is not
    used as typed: a fraction is rounded, a value outside :data:`SAMPLES_LIMITS` clamped, and
    anything that is not a number (or an empty box) keeps ``previous``."""
    lo, hi = SAMPLES_LIMITS
    v = _number(value)
    if v is None:
        what = "an empty box" if value is None or not str(value).strip() else excerpt(value)
        return previous, f"Samples: {what} is not a number; kept {previous}."
    n = int(math.floor(v + 0.5)) if abs(v) < 1e12 else (hi if v > 0 else lo)
    if n < lo or n > hi:
        clamped = min(max(n, lo), hi)
        return clamped, f"Samples must lie between {lo} and {hi}; {excerpt(value, quote=False)} was set to {clamped}."
    if n != v:
        return n, f"Samples must be a whole number; {excerpt(value, quote=False)} was set to {n}."
    return n, ""


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
            num = _number(v)
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
        s = replace(s, reference_class=_class(g.reference_class))
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


# -- the page's query string ------------------------------------------------------------
def _positive(value, default):
    v = _number(value)
    return v if v is not None and v > 0 else default


def _prior(value, default):
    v = _positive(value, None)
    return v if v is not None and v < 1 else default


def parse_query(search: str | None) -> dict:
    """Settings encoded in the page's query string (see assets/roc_dash.js ``writeUrl``).

    Anything malformed is ignored; lists are bounded.
    """
    from .server.store import clean_ids

    if not isinstance(search, str) or len(search) > 16384:
        return {}
    full = parse_qs(search.lstrip("?"))
    q = {k: v[-1] for k, v in full.items()}
    out = {}
    if "cfp" in q:
        v = _positive(q["cfp"], None)
        out["cost_fp"] = v if v is not None and COST_LIMITS[0] <= v <= COST_LIMITS[1] else None
    if "cfn" in q:
        v = _positive(q["cfn"], None)
        out["cost_fn"] = v if v is not None and COST_LIMITS[0] <= v <= COST_LIMITS[1] else None
    if "prior" in q:
        out["prior"] = _prior(q["prior"], None)
    if q.get("avg") in ("none", "pooled", "vertical", "threshold"):
        out["averaging"] = q["avg"]
    if q.get("band") in ("pointwise", "simultaneous"):
        out["band"] = q["band"]
    if "level" in q and _prior(q["level"], None) in (0.8, 0.9, 0.95, 0.99):
        out["level"] = float(q["level"])
    if "n" in q and q["n"].isdigit() and SAMPLES_LIMITS[0] <= int(q["n"]) <= SAMPLES_LIMITS[1]:
        out["samples"] = int(q["n"])
    if "det" in q:
        out["det"] = ["det"] if q["det"] == "1" else []
    if "pres" in q:
        out["presentation"] = ["on"] if q["pres"] == "1" else []
    if "ties" in q:
        out["ties"] = ["ties"] if q["ties"] == "1" else []
    if "class" in q:
        out["reference_class"] = _class(q["class"])
    if q.get("prm") in ("pr", "prg"):
        out["pr_mode"] = q["prm"]
    if "models" in q:
        out["models"] = [m for m in q["models"].split("|") if m][:200]
    if "data" in q:
        out["data"] = clean_ids(q["data"].split(","))
    if "psrc" in q:  # whose prevalence "Use the data's prevalence" takes
        out["prior_source"] = (clean_ids([q["psrc"]]) or [None])[0]
    pins = []
    for raw in full.get("pin", [])[:3]:  # "A:model|threshold" (or the older "model|threshold")
        label, model = "", raw
        if len(raw) > 2 and raw[1] == ":" and raw[0] in "ABC":
            label, model = raw[0], raw[2:]
        if "|" not in model:
            continue
        model, _, thr = model.rpartition("|")
        t = None if thr in ("", "inf") else _number(thr)
        pins.append({"model": model, "threshold": t, "label": label or "ABC"[len(pins)]})
    if pins:
        out["pins"] = pins
    return {k: v for k, v in out.items() if v is not None}
