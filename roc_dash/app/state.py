"""The state several features read: the exact conditions, the page's query string, pins.

Below every feature (:mod:`.features`): the conditions store (``ids.CONDITIONS``) read as a
:class:`ControlState`, the conditions and economics the analysis uses, the decoding of a
link's query string (:func:`parse_query`; :mod:`.page_state` builds the page's one state from
it and writes it), the pins and zoom sent by the browser (:func:`clean_pins`,
:func:`clean_zoom`) and the font sizes of normal and presentation mode, the page's tabs.
Everything is a plain function of its inputs.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from urllib.parse import parse_qs

from ..core.analysis_types import Conditions
from ..core.decisions.economics import Economics
from ..core.decisions.operating import PIN_LABELS
from ..core.subgroups.group_thresholds import CONSTRAINTS
from .server.limits import excerpt
from .server.store import clean_ids, is_dataset_id

__all__ = ["COST_LIMITS", "SAMPLES_LIMITS", "MAX_CLASS", "FONT", "AVERAGING_MODES", "TABS",
           "ControlState", "clean_class", "number", "not_number_why", "display", "clamp_samples",
           "parse_query", "query_refusals", "split_key", "clean_zoom", "ZOOM_VIEWS", "group_priors",
           "economics_from_state", "conditions_from_state", "clean_pins", "tab_shown"]

#: Font sizes of the figures, normal and in presentation mode.
FONT = {False: 14, True: 20}
AVERAGING_MODES = ("none", "pooled", "vertical", "threshold")
#: The page's tabs, the default first (a link names any other as ``tab=compare``).
TABS = ("decide", "compare", "beyond", "monitor")


def tab_shown(tab, name: str) -> bool:
    """Whether ``name`` is the tab shown, ``tab`` being the ``ids.TAB`` store's data (None or
    anything else unknown is the first tab, as the page starts). The cards of the other tabs
    compute only when theirs is shown (:mod:`.features.tabs`)."""
    return (tab if tab in TABS else TABS[0]) == name


#: Longest class name taken from the browser or a link.
MAX_CLASS = 200


#: Costs typed in a box may go beyond the sliders' range, up to these bounds.
COST_LIMITS = (1e-6, 1e6)


SAMPLES_LIMITS = (5, 1001)


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
        cfp = number(data.get("cost_fp"))
        cfn = number(data.get("cost_fn"))
        prior = number(data.get("prior"))
        rev = data.get("rev")
        btp, btn, pop = (number(data.get(k)) for k in ("benefit_tp", "benefit_tn",
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
            reference_class=clean_class(data.get("reference_class")),
        )

    def to_store(self) -> dict:
        return asdict(self)


def clean_class(value) -> str | None:
    """A class name from the browser or a link: a non-empty string of at most
    :data:`MAX_CLASS` characters, else None."""
    return value if isinstance(value, str) and 0 < len(value) <= MAX_CLASS else None


def number(value) -> float | None:
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


def not_number_why(text) -> str:
    """Why ``text`` is not taken as a number: ``"is too large"`` for a number beyond the
    floats (``1e400``: it overflows), ``"is not a number"`` for anything else."""
    if isinstance(text, str):
        try:
            if math.isinf(float(text.strip().replace(",", "."))):
                return "is too large"
        except ValueError:
            pass
    return "is not a number"


def display(value: float) -> str:
    """A value as the text boxes show it: 4 significant digits, no trailing zeros."""
    return f"{value:.4g}"


def clamp_samples(value, previous: int = 51) -> tuple[int, str]:
    """The number of averaging samples from what the box holds, with a message when it is not
    used as typed: a fraction is rounded, a value outside :data:`SAMPLES_LIMITS` clamped, and
    anything that is not a number (or an empty box) keeps ``previous``."""
    lo, hi = SAMPLES_LIMITS
    v = number(value)
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


def _positive(value, default):
    v = number(value)
    return v if v is not None and v > 0 else default


def _prior(value, default):
    v = _positive(value, None)
    return v if v is not None and v < 1 else default


def parse_query(search: str | None) -> dict:
    """Settings encoded in the page's query string (see assets/roc_dash.js ``writeUrl``).

    Anything malformed is ignored; lists are bounded.
    """
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
    if "xlog" in q:  # the ROC's FPR axis on a log scale (figures/roc_axes)
        out["log_fpr"] = ["log"] if q["xlog"] == "1" else []
    if "pres" in q:
        out["presentation"] = ["on"] if q["pres"] == "1" else []
    if "ties" in q:
        out["ties"] = ["ties"] if q["ties"] == "1" else []
    if "class" in q:
        out["reference_class"] = clean_class(q["class"])
    if q.get("prm") in ("pr", "prg"):
        out["pr_mode"] = q["prm"]
    if q.get("cm") in ("cost", "decision"):  # the cost card's mode (render.COST_MODES)
        out["cost_mode"] = q["cm"]
    if q.get("tab") in TABS:
        out["tab"] = q["tab"]
    out.update(_slice_query(q))
    out.update(_constraints_link(q))
    linked = q.get("v") == "2"  # models named by dataset id and name (page_state.ModelRef)
    if linked and "model" in full:
        out["models"] = [{"dataset": r[0], "model": r[1]} for r in
                         (split_key(m) for m in full["model"][:200]) if r is not None]
    elif "models" in q:  # an older link: the models' shown names
        out["models"] = [m for m in q["models"].split("|") if m][:200]
    out.update(_economics_query(q))
    if "data" in q:
        out["data"] = clean_ids(q["data"].split(","))
    if "psrc" in q:  # whose prevalence "Use the data's prevalence" takes
        out["prior_source"] = (clean_ids([q["psrc"]]) or [None])[0]
    zoom = _link_zoom(full.get("zoom", []))
    if zoom:
        out["zoom"] = zoom
    pins = _link_pins(full.get("pin", []), linked)
    if pins:
        out["pins"] = pins
    if linked and "slm" in q:  # the Slices card's model
        ref = split_key(q["slm"])
        if ref is not None:
            out["slice_model"] = {"dataset": ref[0], "model": ref[1]}
    return {k: v for k, v in out.items() if v is not None}


def _choice_refusal(key: str, value: str, choices, kept: str) -> str:
    return (f"{key} {excerpt(value)} is not one of {', '.join(choices)} (kept {kept})")


def query_refusals(search: str | None) -> list[str]:
    """What :func:`parse_query` does not take of a link, one short phrase per parameter: the
    value as given, why it is refused and what the page uses instead (``"prior 'abc' is not
    a number (kept the data's prevalence)"``). Empty when every value it reads is taken.
    The Monitor tab's parameters are :func:`.monitor_state.monitor_refusals`'s."""
    if not isinstance(search, str) or len(search) > 16384:
        return []
    q = {k: v[-1] for k, v in parse_qs(search.lstrip("?")).items()}
    out = []
    lo, hi = COST_LIMITS
    for key, what in (("cfp", "cost"), ("cfn", "cost")):
        if key in q and (_positive(q[key], None) is None
                         or not lo <= _positive(q[key], None) <= hi):
            v = number(q[key])
            why = (not_number_why(q[key]) if v is None else
                   f"is not a {what} from {lo:g} to {hi:g}")
            out.append(f"{key} {excerpt(q[key])} {why} (kept 1)")
    if "prior" in q and _prior(q["prior"], None) is None:
        why = (not_number_why(q["prior"]) if number(q["prior"]) is None
               else "is not a prior between 0 and 1")
        out.append(f"prior {excerpt(q['prior'])} {why} (kept the data's prevalence)")
    if "avg" in q and q["avg"] not in AVERAGING_MODES:
        out.append(_choice_refusal("avg", q["avg"], AVERAGING_MODES, "pooled"))
    if "band" in q and q["band"] not in ("pointwise", "simultaneous"):
        out.append(_choice_refusal("band", q["band"], ("pointwise", "simultaneous"),
                                   "pointwise"))
    if "level" in q and _prior(q["level"], None) not in (0.8, 0.9, 0.95, 0.99):
        out.append(_choice_refusal("level", q["level"], ("0.8", "0.9", "0.95", "0.99"),
                                   "0.95"))
    if "n" in q and not (q["n"].isdigit() and SAMPLES_LIMITS[0] <= int(q["n"])
                         <= SAMPLES_LIMITS[1]):
        out.append(f"n {excerpt(q['n'])} is not a whole number from {SAMPLES_LIMITS[0]} to "
                   f"{SAMPLES_LIMITS[1]} (kept 51)")
    if "tab" in q and q["tab"] not in TABS:
        out.append(f"tab {excerpt(q['tab'])} is not a tab (kept decide)")
    if "class" in q and clean_class(q["class"]) is None:
        out.append(f"class {excerpt(q['class'])} is not a class name")
    for key, choices, kept in (("prm", ("pr", "prg"), "pr"), ("cm", ("cost", "decision"),
                                                               "cost"),
                               ("cview", CONSTRAINT_VIEWS, CONSTRAINT_VIEWS[0]),
                               ("recal", RECALIBRATIONS[1:], "none")):
        if key in q and q[key] not in choices:
            out.append(_choice_refusal(key, q[key], choices, kept))
    for key in ("btp", "btn"):
        v = number(q.get(key)) if key in q else 0.0
        if v is None or not 0 <= v <= hi:
            out.append(f"{key} {excerpt(q[key])} is not an amount from 0 to {hi:g} (kept 0)")
    if "pop" in q and not (number(q["pop"]) is not None and 0 < number(q["pop"]) <= 1e15):
        out.append(f"pop {excerpt(q['pop'])} is not a positive number of cases (kept none)")
    return out


#: The Decide tab's capacity and floors card: its views, and the longest texts a link keeps.
CONSTRAINT_VIEWS = ("gains", "lift", "ks")
CAPACITY_CHARS, FLOORS_CHARS = 100, 500
#: The longest cost matrix and prior of the classes (Beyond binary) a link keeps.
COST_MATRIX_CHARS, CLASS_PRIOR_CHARS = 2000, 500
#: The longest confidence of the floors (Decide tab, "95%") and volume a link keeps.
FLOOR_CONFIDENCE_CHARS = 20
#: The recalibrations the decision download can store (the calibration card's choice; ""
#: none), as ``roc-dash decide --recalibrate`` (:data:`roc_dash.core.constraints.recalibration.METHODS`).
RECALIBRATIONS = ("", "logistic", "platt", "isotonic")


def _constraints_link(q: dict) -> dict:
    """The capacity and floors as typed (``cap``, ``floor``; bounded), the card's view
    (``cview``) and its PR bands (``prb``); whether they parse is the card's to say."""
    out = {}
    for key, name, most in (("cap", "capacity", CAPACITY_CHARS),
                            ("floor", "floors", FLOORS_CHARS)):
        if isinstance(q.get(key), str) and q[key].strip():
            out[name] = q[key].strip()[:most]
    if q.get("cview") in CONSTRAINT_VIEWS:
        out["constraint_view"] = q["cview"]
    if q.get("prb") in ("0", "1"):
        out["pr_bands"] = q["prb"] == "1"
    if isinstance(q.get("vol"), str) and q["vol"].strip():
        out["volume"] = q["vol"].strip()[:FLOOR_CONFIDENCE_CHARS]
    if isinstance(q.get("fconf"), str) and q["fconf"].strip():
        out["floor_confidence"] = q["fconf"].strip()[:FLOOR_CONFIDENCE_CHARS]
    if q.get("recal") in RECALIBRATIONS[1:]:
        out["recalibration"] = q["recal"]
    for key, name, most in (("cmx", "cost_matrix", COST_MATRIX_CHARS),
                            ("cpr", "class_prior", CLASS_PRIOR_CHARS)):
        if isinstance(q.get(key), str) and q[key].strip():
            out[name] = q[key].strip()[:most]
    return out


def split_key(key) -> tuple[str, str] | None:
    """``(dataset id, model name)`` of a model's key ``"<dataset id>/<name>"``, or None when
    ``key`` is not one (a valid dataset id, a name of 1 to 500 characters)."""
    if not isinstance(key, str) or "/" not in key:
        return None
    dataset, _, name = key.partition("/")
    if not is_dataset_id(dataset) or not name or len(name) > 500:
        return None
    return dataset, name


def _link_pins(raws, linked: bool) -> list[dict]:
    """The pins of a link: ``"A:<dataset id>/<model>|threshold"`` (``linked``), or in older
    links ``"A:<shown name>|threshold"`` and ``"<shown name>|threshold"`` (no ``dataset``
    then: :func:`.page_state.resolve_refs` finds it)."""
    pins: list[dict] = []
    for raw in raws[:3]:
        label, model = "", raw
        if len(raw) > 2 and raw[1] == ":" and raw[0] in "ABC":
            label, model = raw[0], raw[2:]
        if "|" not in model:
            continue
        model, _, thr = model.rpartition("|")
        t = None if thr in ("", "inf") else number(thr)
        pin = {"model": model, "threshold": t, "label": label or "ABC"[len(pins)]}
        if linked:
            ref = split_key(model)
            if ref is None:
                continue
            pin = {"dataset": ref[0], **pin, "model": ref[1]}
        pins.append(pin)
    return pins


#: The views whose zoom a link keeps (the cost card's decision curve keeps its own).
ZOOM_VIEWS = ("roc", "pr", "cost", "decision")


def clean_zoom(zoom) -> dict:
    """The zoom store's ranges, validated: ``{view: {"x": [a, b] or None, "y": [c, d] or None,
    "det": bool[, "xlog": True]}}`` for the views of :data:`ZOOM_VIEWS` (finite ranges with
    ``a < b``; a view without either range is left out)."""
    out = {}
    for view in ZOOM_VIEWS:
        entry = zoom.get(view) if isinstance(zoom, dict) else None
        if not isinstance(entry, dict):
            continue
        x, y = (_range(entry.get(k)) for k in ("x", "y"))
        if x or y:
            out[view] = {"x": x, "y": y, "det": bool(entry.get("det"))}
            if entry.get("xlog"):
                out[view]["xlog"] = True
    return out


def _range(value):
    if not isinstance(value, list | tuple) or len(value) != 2:
        return None
    a, b = (number(v) for v in value)
    return [a, b] if a is not None and b is not None and a < b and abs(b - a) < 1e12 else None


def _link_zoom(raws) -> dict:
    """The zooms of a link: ``zoom=roc:x0,x1,y0,y1`` per view (an empty pair: that axis not
    zoomed), ``:det`` / ``:xlog`` after it for zooms on DET or log FPR axes."""
    zoom = {}
    for raw in raws[:len(ZOOM_VIEWS)]:
        view, _, rest = raw.partition(":")
        values, *flags = rest.split(":")
        parts = values.split(",")
        if len(parts) != 4:
            continue
        zoom[view] = {"x": parts[:2] if all(parts[:2]) else None,
                      "y": parts[2:] if all(parts[2:]) else None,
                      "det": "det" in flags, **({"xlog": True} if "xlog" in flags else {})}
    return clean_zoom(zoom)


def _economics_query(q: dict) -> dict:
    """Benefits, unit and cases per period of a link (``btp``, ``btn``, ``unit``, ``pop``)."""
    out = {}
    for key, name in (("btp", "benefit_tp"), ("btn", "benefit_tn")):
        v = number(q.get(key))
        if v is not None and 0 <= v <= COST_LIMITS[1]:
            out[name] = v
    if isinstance(q.get("unit"), str) and q["unit"].strip():
        out["unit"] = q["unit"].strip()[:12]
    v = number(q.get("pop"))
    if v is not None and 0 < v <= 1e15:
        out["population"] = v
    return out


#: The Slices card's constraints, as the link names them.
SLICE_CONSTRAINTS = CONSTRAINTS


def _slice_query(q: dict) -> dict:
    """The Slices card's column (``slc``), the column crossed with it (``slx``), the
    constraint (``sct``) and the priors per group (``sgp``); names over 200 characters or a
    cross without a column ignored."""
    out = {}
    column = q.get("slc", "").strip()
    if column and len(column) <= 200:
        out["slice_columns"] = [column]
        cross = q.get("slx", "").strip()
        if cross and len(cross) <= 200 and cross != column:
            out["slice_columns"].append(cross)
    if q.get("sct") in SLICE_CONSTRAINTS:
        out["slice_constraint"] = q["sct"]
    priors = _link_priors(q.get("sgp", ""))
    if priors:
        out["slice_priors"] = priors
    return out


def _typed_prior(part: str) -> tuple[str, str, float]:
    """``(name, "=", value)`` of one ``group=value`` part of the priors per group (the
    separator empty without ``=``; the value NaN when not a number, a percentage / 100)."""
    name, sep, value = part.rpartition("=")
    try:
        number = float(value.replace("%", "")) / (100 if "%" in value else 1)
    except ValueError:
        number = math.nan
    return name.strip(), sep, number


def _link_priors(text: str) -> str:
    """The Slices card's priors per group from the link (``sgp``), as the card's box takes
    them (``"north=0.12, west=0.3"``): the parts that are ``name=value`` with a value in
    (0, 1) and a printable name; anything else, or a value over 2,000 characters, left
    out. Which groups exist is only known with the data (:func:`group_priors`)."""
    if not isinstance(text, str) or len(text) > 2000:
        return ""
    kept = []
    for part in text.split(",")[:200]:
        name, sep, number = _typed_prior(part)
        if sep and name and name.isprintable() and 0 < number < 1:
            kept.append(f"{name}={number:.12g}")
    return ", ".join(kept)


def group_priors(text, names) -> tuple[dict[str, float], list[str]]:
    """The priors typed as ``"group=value, ..."`` for the groups ``names``, and what was
    refused in it (an unknown group, a value outside (0, 1), a part without ``=``)."""
    priors: dict[str, float] = {}
    problems: list[str] = []
    for part in (text if isinstance(text, str) else "").split(",")[:200]:
        if not part.strip():
            continue
        name, sep, number = _typed_prior(part)
        if not sep or name not in names:
            problems.append(f"{part.strip()!r} (no group {name!r})" if sep
                            else f"{part.strip()!r} (write group=value)")
        elif not 0 < number < 1:
            problems.append(f"{part.strip()!r} (a prior is between 0 and 1, e.g. 0.12)")
        else:
            priors[name] = number
    return priors, problems


def economics_from_state(state) -> Economics:
    """Costs, benefits, unit and volume from the exact-conditions store."""
    s = ControlState.from_store(state)
    return Economics(cost_fp=s.cost_fp, cost_fn=s.cost_fn, benefit_tp=s.benefit_tp,
                     benefit_tn=s.benefit_tn, unit=s.unit, population=s.population)


def conditions_from_state(state, level=None, band=None, samples=None) -> Conditions:
    """Conditions from the exact-conditions store and the averaging controls.

    With benefits, the costs are the net costs ``c(FP)+b(TN)`` and ``c(FN)+b(TP)``
    (Fawcett 2004, §7.1): the iso-performance line, the optimum and the cost curves use them.
    """
    s = ControlState.from_store(state)
    n, _ = clamp_samples(samples)
    return Conditions(cost_fp=s.cost_fp + s.benefit_tn, cost_fn=s.cost_fn + s.benefit_tp,
                      benefit_tp=s.benefit_tp, benefit_tn=s.benefit_tn,
                      prior_pos=s.prior,
                      level=level if level in (0.8, 0.9, 0.95, 0.99) else 0.95, n_samples=n,
                      band=band if band in ("pointwise", "simultaneous") else "pointwise")


def clean_pins(pins) -> list[dict]:
    """Pins from the browser, validated: at most three, each ``{"model", "threshold",
    "label"}`` with a distinct letter, and ``"dataset"``, the id of the model's dataset,
    when it is given (``"model"`` is then the model's own name, not its shown name)."""
    out: list[dict] = []
    if not isinstance(pins, list):
        return out
    for pin in pins[:10]:
        if not (isinstance(pin, dict) and isinstance(pin.get("model"), str)):
            continue
        t = pin.get("threshold")
        if t is not None and not (isinstance(t, int | float) and math.isfinite(t)):
            continue
        label = pin.get("label")
        taken = {p["label"] for p in out}
        if label not in PIN_LABELS or label in taken:
            label = next((x for x in PIN_LABELS if x not in taken), None)
        if label is None:
            break
        kept = {"model": pin["model"][:500], "threshold": t, "label": label}
        if is_dataset_id(pin.get("dataset")):  # pins of the page name their dataset
            kept = {"dataset": pin["dataset"], **kept}
        out.append(kept)
    return out
