"""The page's state: one frozen object with one list of fields.

:class:`PageState` is what the page shows: the datasets, the shown models, the conditions,
the averaging and view settings, the pins, the Slices card's choice and the tab. It is
written to and read back from every place that keeps or passes on the page:

* the link (:meth:`PageState.to_query`, written by the URL callback into the address bar;
  :func:`parse_link` reads it back, links of older versions included), and so the saved
  views, which keep a link's query string on the server;
* callbacks: :func:`dependencies` gives the Dash dependencies of the named fields as a dict
  (Dash's flexible callback signatures: a callback receives them as one dict argument) and
  :meth:`PageState.from_dash` reads their values;
* the exports, the HTML report and the decision download (:mod:`.features.exports`).

:data:`FIELDS` is the one list of fields: each with the component properties it is read
from. A field added to the state is added there, to :meth:`PageState.to_query` and to
:func:`~.state.parse_query` (``tests/unit/app/test_page_state.py`` checks that every field
survives the round trip).

A model is named by :class:`ModelRef`, its dataset's id and its own name, everywhere the
state keeps one (pins, shown models, the Slices card's model, links): what the page shows
("rf (preds.csv)") is a label derived from the datasets loaded, so adding a dataset never
changes what a pin or a link refers to. Links made before (``v`` absent) name models by
their shown names; :func:`resolve_refs` turns those into references with the names the
page gave them for the link's datasets (:func:`..analysis.legacy_names`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from urllib.parse import urlencode

from . import ids
from .monitor_state import (  # the Monitor tab's part; its names re-exported here
    MONITOR_ESTIMATORS,
    MONITOR_PERIODS,
    MonitorState,
    link_monitor,
    monitor_from_raw,
    monitor_pins,
    monitor_query,
    monitor_refusals,
)
from .server.store import DEMO_ID, clean_ids, is_dataset_id
from .state import (
    AVERAGING_MODES,
    CAPACITY_CHARS,
    CLASS_PRIOR_CHARS,
    CONSTRAINT_VIEWS,
    COST_MATRIX_CHARS,
    FLOOR_CONFIDENCE_CHARS,
    FLOORS_CHARS,
    RECALIBRATIONS,
    SAMPLES_LIMITS,
    TABS,
    ControlState,
    clean_pins,
    clean_zoom,
    parse_query,
    query_refusals,
    split_key,
    tab_shown,
)

__all__ = ["MONITOR_PERIODS", "MONITOR_ESTIMATORS", "monitor_pins", "LINK_VERSION", "ModelRef", "Pin", "SliceState", "MonitorState", "PageState", "Field", "FIELDS",
           "FIELD_NAMES", "dependencies", "tab_gate", "parse_link", "link_refusals", "resolve_refs", "model_key",
           "key_ref", "pins_of", "zoom_of"]

#: The version of the link's format that :meth:`PageState.to_query` writes (``v=2``: models
#: named by dataset id and name). A link without ``v`` names models by their shown names.
LINK_VERSION = 2


@dataclass(frozen=True, order=True)
class ModelRef:
    """A model: the id of its dataset and its own name in that dataset's file. ``dataset``
    is ``""`` only for a model named by an older link's shown name, not yet resolved
    (:func:`resolve_refs`)."""

    dataset: str
    name: str

    @property
    def key(self) -> str:
        """The reference as one string (component values, links): ``"<dataset id>/<name>"``
        (ids never hold a ``/``; the name may)."""
        return model_key(self.dataset, self.name)

    @classmethod
    def from_key(cls, key) -> ModelRef | None:
        """The reference a :attr:`key` names, or None for anything else."""
        return key_ref(key)


def model_key(dataset: str, name: str) -> str:
    """:attr:`ModelRef.key` of ``(dataset, name)``."""
    return f"{dataset}/{name}"


def key_ref(key) -> ModelRef | None:
    """The :class:`ModelRef` of a key ``"<dataset id>/<name>"``; None when ``key`` is not
    one (:func:`~.state.split_key`)."""
    parts = split_key(key)
    return None if parts is None else ModelRef(*parts)


@dataclass(frozen=True)
class Pin:
    """A pinned point: its letter, its model and the threshold (None: ``+inf``)."""

    label: str
    model: ModelRef
    threshold: float | None

    def to_store(self) -> dict:
        """The pin as the ``ids.PINNED`` store holds it."""
        return {"label": self.label, "dataset": self.model.dataset, "model": self.model.name,
                "threshold": self.threshold}


@dataclass(frozen=True)
class SliceState:
    """The Slices card: its model, the column sliced by and the one crossed with it, the
    constraint and the priors per group as typed."""

    model: ModelRef | None = None
    column: str | None = None
    cross: str | None = None
    constraint: str = "group_optima"
    priors: str = ""

    @property
    def columns(self) -> list[str]:
        """The column and the crossed one, those that are set."""
        return [c for c in (self.column, self.cross) if c]


@dataclass(frozen=True)
class PageState:
    """The page's state (see the module docstring); every field has a default, the page's
    on a first visit. ``conditions`` is None until the page has resolved them (the first
    call of the controls)."""

    datasets: tuple[str, ...] = (DEMO_ID,)
    prior_source: str | None = None
    conditions: ControlState | None = None
    models: tuple[ModelRef, ...] | None = None  # None: every model loaded
    averaging: str = "pooled"
    level: float = 0.95
    band: str = "pointwise"
    samples: int = 51
    det: bool = False
    log_fpr: bool = False
    presentation: bool = False
    ties: bool = False
    pr_mode: str = "pr"
    cost_mode: str = "cost"
    tab: str = TABS[0]
    pins: tuple[Pin, ...] = ()
    slices: SliceState = field(default_factory=SliceState)
    zoom: tuple[tuple[str, tuple], ...] = ()  # (view, (x, y, det, xlog)): see zoom_store
    monitor: MonitorState = field(default_factory=MonitorState)
    capacity: str = ""  # the Decide tab's capacity as typed ("800", "3%", "30/1000")
    floors: str = ""  # its floors as typed ("precision >= 0.9; fpr <= 0.01")
    constraint_view: str = "gains"  # its card's view: CONSTRAINT_VIEWS
    pr_bands: bool = False  # the PR view's bands at the deployment prior (that card's toggle)
    cost_matrix: str = ""  # Beyond binary: the classes' cost matrix as typed ("0 1; 1 0")
    class_prior: str = ""  # its deployment prior of the classes as typed ("" : the data's)
    floor_confidence: str = ""  # Decide: the floors hold with this confidence ("95%"; exact)
    volume: str = ""  # Decide: the cases a capacity of K cases is out of ("4000"; "" : the data's)
    recalibration: str = ""  # Compare: the recalibration the decision stores (RECALIBRATIONS)

    def zoom_store(self) -> dict | None:
        """The zoom as the views and exports take it (the ``ids.ZOOM`` store's form:
        :func:`~.state.clean_zoom`), None when nothing is zoomed."""
        out = {view: {"x": list(x) if x else None, "y": list(y) if y else None, "det": det,
                      **({"xlog": True} if xlog else {})}
               for view, (x, y, det, xlog) in self.zoom}
        return out or None

    @property
    def control(self) -> ControlState:
        """The conditions, the defaults before they are resolved."""
        return self.conditions or ControlState()

    def shown_keys(self, loaded: list[str], limit: int | None = None) -> list[str]:
        """The keys of the shown models among ``loaded`` (keys, in their order): all of them
        when :attr:`models` is None; at most ``limit``."""
        if self.models is None:
            keys = list(loaded)
        else:
            wanted = {m.key for m in self.models}
            keys = [k for k in loaded if k in wanted]
        return keys if limit is None else keys[:limit]

    # ------------------------------------------------------------------ from Dash
    @classmethod
    def from_dash(cls, values: dict) -> PageState:
        """The state from the values of :func:`dependencies` (a dict keyed by field name;
        fields absent keep their defaults). Anything malformed is left at its default."""
        kw = {}
        for name, raw in values.items():
            reader = _READERS.get(name)
            if reader is None:
                raise KeyError(f"{name!r} is not a field of the page's state")
            value = reader(raw)
            if value is not None or name in ("conditions", "models", "prior_source"):
                kw[name] = value
        return cls(**kw)

    # ------------------------------------------------------------------ the link
    def to_query(self) -> str:
        """The query string of the page's link (``"?v=2&..."``; :func:`parse_link` reads it
        back). Settings at their defaults that older links also leave out are left out."""
        q: list[tuple[str, str]] = [("v", str(LINK_VERSION))]
        if self.datasets and self.datasets != (DEMO_ID,):
            q.append(("data", ",".join(self.datasets)))
        if len(self.datasets) > 1 and self.prior_source:
            q.append(("psrc", self.prior_source))
        q += _conditions_query(self.conditions)
        q += [("avg", self.averaging), ("level", _num(self.level)), ("band", self.band),
              ("n", str(self.samples))]
        flags = (("det", self.det), ("xlog", self.log_fpr and not self.det),
                 ("pres", self.presentation), ("ties", self.ties))
        q += [(k, "1") for k, on in flags if on]
        if self.pr_mode == "prg":
            q.append(("prm", "prg"))
        if self.cost_mode == "decision":
            q.append(("cm", "decision"))
        if self.tab != TABS[0]:
            q.append(("tab", self.tab))
        q += _slices_query(self.slices)
        if self.models is not None:
            q += [("model", m.key) for m in self.models]
        for p in self.pins:
            threshold = "inf" if p.threshold is None else _num(p.threshold)
            q.append(("pin", f"{p.label}:{p.model.key}|{threshold}"))
        for view, (x, y, det, xlog) in self.zoom:
            ranges = ",".join(_num(v) if v is not None else "" for v in (*(x or (None, None)),
                                                                         *(y or (None, None))))
            q.append(("zoom", f"{view}:{ranges}" + (":det" if det else "")
                      + (":xlog" if xlog else "")))
        q += monitor_query(self.monitor)
        q += _constraints_query(self)
        return "?" + urlencode(q)


def _num(v: float) -> str:
    """A number as a link writes it: the shortest text that reads back as the same float
    (as JavaScript writes numbers), integers without ``.0``."""
    v = float(v)
    return str(int(v)) if v.is_integer() and abs(v) < 1e15 else repr(v)


def _conditions_query(c: ControlState | None) -> list[tuple[str, str]]:
    if c is None:
        return []
    q = [("cfp", _num(c.cost_fp)), ("cfn", _num(c.cost_fn))]
    if c.prior_mode == "manual":
        q.append(("prior", _num(c.prior)))
    if c.reference_class:
        q.append(("class", c.reference_class))
    if c.benefit_tp:
        q.append(("btp", _num(c.benefit_tp)))
    if c.benefit_tn:
        q.append(("btn", _num(c.benefit_tn)))
    if c.unit:
        q.append(("unit", c.unit))
    if c.population is not None:
        q.append(("pop", _num(c.population)))
    return q


def _slices_query(s: SliceState) -> list[tuple[str, str]]:
    q = []
    if s.model is not None:
        q.append(("slm", s.model.key))
    if s.column:
        q.append(("slc", s.column))
        if s.cross:
            q.append(("slx", s.cross))
    if s.constraint != "group_optima":
        q.append(("sct", s.constraint))
    if s.priors.strip():
        q.append(("sgp", s.priors.strip()))
    return q


def _constraints_query(s: PageState) -> list[tuple[str, str]]:
    q = [(key, value.strip()) for key, value in (("cap", s.capacity), ("floor", s.floors))
         if value.strip()]
    if s.constraint_view != CONSTRAINT_VIEWS[0]:
        q.append(("cview", s.constraint_view))
    if s.pr_bands:
        q.append(("prb", "1"))
    q += [(key, value.strip()) for key, value in (("cmx", s.cost_matrix),
                                                   ("cpr", s.class_prior),
                                                   ("fconf", s.floor_confidence),
                                                   ("vol", s.volume))
          if value.strip()]
    if s.recalibration:
        q.append(("recal", s.recalibration))
    return q


def _text(limit: int):
    return lambda v: v[:limit] if isinstance(v, str) else None


# ---------------------------------------------------------------------- readers
def _flag(value) -> bool:
    return bool(value) and isinstance(value, list | tuple)


def _models(raw) -> tuple[ModelRef, ...] | None:
    value, options = raw if isinstance(raw, tuple | list) and len(raw) == 2 else (raw, None)
    refs = tuple(r for r in (key_ref(k) for k in (value if isinstance(value, list) else []))
                 if r is not None)
    loaded = [o.get("value") for o in options or [] if isinstance(o, dict)]
    if loaded and set(loaded) <= {r.key for r in refs}:
        return None  # every model loaded is shown
    return refs


def pins_of(raw) -> tuple[Pin, ...]:
    """The pins of the ``ids.PINNED`` store (:func:`~.state.clean_pins`): those that name
    their dataset."""
    return tuple(Pin(p["label"], ModelRef(p["dataset"], p["model"]), p["threshold"])
                 for p in clean_pins(raw) if p.get("dataset"))


def _slices(raw) -> SliceState:
    from ..core.subgroups.group_thresholds import CONSTRAINTS

    model, column, cross, constraint, priors = (tuple(raw) + (None,) * 5)[:5]
    column = column if isinstance(column, str) and column else None
    return SliceState(
        model=key_ref(model), column=column,
        cross=cross if column and isinstance(cross, str) and cross and cross != column
        else None,
        constraint=constraint if constraint in CONSTRAINTS else "group_optima",
        priors=priors if isinstance(priors, str) else "")


def _samples(raw):
    return raw if isinstance(raw, int) and SAMPLES_LIMITS[0] <= raw <= SAMPLES_LIMITS[1] \
        else None


def zoom_of(raw) -> tuple:
    """The ``ids.ZOOM`` store as :attr:`PageState.zoom` (frozen, validated)."""
    return tuple((view, (tuple(e["x"]) if e["x"] else None, tuple(e["y"]) if e["y"] else None,
                         e["det"], bool(e.get("xlog"))))
                 for view, e in clean_zoom(raw).items())


_READERS = {
    "datasets": lambda v: tuple(clean_ids(v)) if isinstance(v, list) else None,
    "prior_source": lambda v: v if is_dataset_id(v) else None,
    "conditions": lambda v: ControlState.from_store(v) if isinstance(v, dict) else None,
    "models": _models,
    "averaging": lambda v: v if v in AVERAGING_MODES else None,
    "level": lambda v: float(v) if v in (0.8, 0.9, 0.95, 0.99) else None,
    "band": lambda v: v if v in ("pointwise", "simultaneous") else None,
    "samples": _samples,
    "det": _flag, "log_fpr": _flag, "presentation": _flag, "ties": _flag,
    "pr_mode": lambda v: "prg" if v == "prg" else "pr",
    "cost_mode": lambda v: "decision" if v == "decision" else "cost",
    "tab": lambda v: v if v in TABS else None,
    "pins": pins_of,
    "slices": _slices,
    "zoom": zoom_of,
    "monitor": monitor_from_raw,
    "capacity": _text(CAPACITY_CHARS),
    "floors": _text(FLOORS_CHARS),
    "constraint_view": lambda v: v if v in CONSTRAINT_VIEWS else None,
    "pr_bands": _flag,
    "cost_matrix": _text(COST_MATRIX_CHARS),
    "class_prior": _text(CLASS_PRIOR_CHARS),
    "floor_confidence": _text(FLOOR_CONFIDENCE_CHARS),
    "volume": _text(FLOOR_CONFIDENCE_CHARS),
    "recalibration": lambda v: v if v in RECALIBRATIONS else None,
}


# ---------------------------------------------------------------------- Dash dependencies
@dataclass(frozen=True)
class Field:
    """A field of :class:`PageState` and the component properties it is read from."""

    name: str
    sources: tuple[tuple[str, str], ...]


#: The one list of the page's fields, in :class:`PageState`'s order.
FIELDS = (
    Field("datasets", ((ids.DATASETS, "data"),)),
    Field("prior_source", ((ids.PRIOR_SOURCE, "value"),)),
    Field("conditions", ((ids.CONDITIONS, "data"),)),
    Field("models", ((ids.MODELS, "value"), (ids.MODELS, "options"))),
    Field("averaging", ((ids.AVERAGING, "value"),)),
    Field("level", ((ids.LEVEL, "value"),)),
    Field("band", ((ids.BAND, "value"),)),
    Field("samples", ((ids.SAMPLES_OK, "data"),)),
    Field("det", ((ids.DET, "value"),)),
    Field("log_fpr", ((ids.ROC_LOG_FPR, "value"),)),
    Field("presentation", ((ids.PRESENTATION, "value"),)),
    Field("ties", ((ids.ROC_TIES, "value"),)),
    Field("pr_mode", ((ids.PR_MODE, "value"),)),
    Field("cost_mode", ((ids.COST_MODE, "value"),)),
    Field("tab", ((ids.TAB, "data"),)),
    Field("pins", ((ids.PINNED, "data"),)),
    Field("slices", ((ids.SLC_MODEL, "value"), (ids.SLC_COLUMN, "value"),
                     (ids.SLC_CROSS, "value"), (ids.SLC_CONSTRAINT, "value"),
                     (ids.SLC_PRIORS, "value"))),
    Field("zoom", ((ids.ZOOM, "data"),)),
    Field("monitor", ((ids.MON_REFERENCE, "value"), (ids.MON_WINDOWS, "value"),
                      (ids.MON_TIME, "value"), (ids.MON_EVERY, "value"),
                      (ids.MON_LABELS, "value"), (ids.MON_ESTIMATOR, "value"),
                      (ids.MON_RECORD_ID, "data"), (ids.MON_PINS, "data"))),
    Field("capacity", ((ids.DCT_CAPACITY, "value"),)),
    Field("floors", ((ids.DCT_FLOORS, "value"),)),
    Field("constraint_view", ((ids.DCT_VIEW, "value"),)),
    Field("pr_bands", ((ids.DCT_PR_BANDS, "value"),)),
    Field("cost_matrix", ((ids.CMX_MATRIX, "value"),)),
    Field("class_prior", ((ids.CMX_PRIOR, "value"),)),
    Field("floor_confidence", ((ids.DCT_FLOOR_CONF, "value"),)),
    Field("volume", ((ids.DCT_VOLUME, "value"),)),
    Field("recalibration", ((ids.CAL_RECALIBRATE, "value"),)),
)
FIELD_NAMES = tuple(f.name for f in FIELDS)
_BY_NAME = {f.name: f for f in FIELDS}
assert FIELD_NAMES == tuple(f.name for f in dataclasses.fields(PageState))


def dependencies(kind, *names: str) -> dict:
    """``{name: dependency}`` of the named fields (all when none is named), ``kind`` being
    ``dash.Input`` or ``dash.State``: a field read from several properties gets a tuple.
    A callback given ``inputs=dict(page=dependencies(Input, ...))`` receives their values as
    one dict, which :meth:`PageState.from_dash` reads."""
    out = {}
    for name in names or FIELD_NAMES:
        sources = _BY_NAME[name].sources
        deps = tuple(kind(i, p) for i, p in sources)
        out[name] = deps[0] if len(deps) == 1 else deps
    return out


def tab_page(raw: dict, tab: str) -> PageState | None:
    """The page state a tab's callback reads from ``dependencies(...)``: ``PreventUpdate``
    while ``tab`` is not the tab shown (its cards compute only when theirs is shown,
    :func:`.state.tab_shown`), ``None`` until the conditions are known (nothing to draw)."""
    from dash.exceptions import PreventUpdate

    page = PageState.from_dash(raw)
    if not tab_shown(page.tab, tab):
        raise PreventUpdate
    return None if page.conditions is None else page


def tab_gate(name: str):
    """The input a card of the later tab ``name`` takes for the tab shown (``"tab"`` of its
    ``page`` dependencies): the tab, given when the tab changes, and when the conditions or
    the views' data change while ``name`` shows, never while it is hidden (a store set in
    the browser, :mod:`.features.tabs`). The card reads the conditions and the views' data
    as ``State``, so a cost or prior click sends no request for a hidden tab's cards."""
    from dash import Input

    if name not in TABS[1:]:
        raise ValueError(f"no gate for the tab {name!r}: one of {TABS[1:]}")
    return Input(ids.TAB_GATE + name, "data")


# ---------------------------------------------------------------------- reading a link
def parse_link(search) -> tuple[PageState, frozenset[str]]:
    """The state a link's query string gives (fields it does not name at their defaults)
    and the names of the fields it names. Models of a link without ``v`` (before models
    were named by dataset) are references with an empty dataset and the shown name, to be
    resolved with :func:`resolve_refs`."""
    q = parse_query(search)
    kw: dict = {}
    simple = {"averaging": "averaging", "level": "level", "band": "band", "samples": "samples",
              "pr_mode": "pr_mode", "cost_mode": "cost_mode", "tab": "tab",
              "capacity": "capacity", "floors": "floors",
              "constraint_view": "constraint_view", "pr_bands": "pr_bands",
              "cost_matrix": "cost_matrix", "class_prior": "class_prior",
              "floor_confidence": "floor_confidence", "volume": "volume",
              "recalibration": "recalibration"}
    for key, name in simple.items():
        if key in q:
            kw[name] = q[key]
    for key, name in (("det", "det"), ("log_fpr", "log_fpr"), ("presentation",
                                                              "presentation"),
                      ("ties", "ties")):
        if key in q:
            kw[name] = bool(q[key])
    if "data" in q:
        kw["datasets"] = tuple(q["data"])
    if "prior_source" in q:
        kw["prior_source"] = q["prior_source"]
    conditions = _link_conditions(q)
    if conditions is not None:
        kw["conditions"] = conditions
    if q.get("models"):  # an empty list: every model, as no list
        kw["models"] = tuple(ModelRef("", m) if isinstance(m, str) else
                             ModelRef(m["dataset"], m["model"]) for m in q["models"])
    if "pins" in q:
        kw["pins"] = tuple(Pin(p["label"], ModelRef(p.get("dataset") or "", p["model"]),
                               p["threshold"]) for p in q["pins"])
    slices = _link_slices(q)
    if slices is not None:
        kw["slices"] = slices
    if q.get("zoom"):
        kw["zoom"] = zoom_of(q["zoom"])
    monitor = link_monitor(search)
    if monitor is not None:
        kw["monitor"] = monitor
    return PageState(**kw), frozenset(kw)


def link_refusals(search) -> list[str]:
    """What :func:`parse_link` leaves out of a link, one short phrase per parameter refused
    or reset (its value, why, what the page uses instead): the page's settings
    (:func:`~.state.query_refusals`) and the Monitor tab's
    (:func:`~.monitor_state.monitor_refusals`). What needs the data to judge (a class, a
    time column) is :func:`..link_report.link_refused`'s."""
    return query_refusals(search) + monitor_refusals(search)


_CONDITION_KEYS = ("cost_fp", "cost_fn", "prior", "reference_class", "benefit_tp",
                   "benefit_tn", "unit", "population")


def _link_conditions(q: dict) -> ControlState | None:
    if not any(k in q for k in _CONDITION_KEYS):
        return None
    c = ControlState()
    values = {k: q[k] for k in _CONDITION_KEYS if k in q}
    if "prior" in values:
        values["prior_mode"] = "manual"
    return dataclasses.replace(c, **values)


def _link_slices(q: dict) -> SliceState | None:
    keys = ("slice_model", "slice_columns", "slice_constraint", "slice_priors")
    if not any(k in q for k in keys):
        return None
    columns = list(q.get("slice_columns") or []) + [None, None]
    model = q.get("slice_model")
    return SliceState(
        model=None if model is None else ModelRef(model.get("dataset") or "", model["model"]),
        column=columns[0], cross=columns[1],
        constraint=q.get("slice_constraint", "group_optima"),
        priors=q.get("slice_priors", ""))


def resolve_refs(refs, legacy: dict[str, ModelRef]) -> tuple[list, list]:
    """``(resolved, unresolved)``: each of ``refs`` (:class:`ModelRef`, or a :class:`Pin`,
    whose model is resolved) with an older link's shown name replaced by the reference
    ``legacy`` gives it (shown name -> reference); those it does not know are unresolved."""
    resolved, unresolved = [], []
    for item in refs:
        ref = item.model if isinstance(item, Pin) else item
        if ref.dataset:
            resolved.append(item)
            continue
        new = legacy.get(ref.name)
        if new is None:
            unresolved.append(item)
        else:
            resolved.append(dataclasses.replace(item, model=new) if isinstance(item, Pin)
                            else new)
    return resolved, unresolved

