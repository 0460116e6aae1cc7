"""Callbacks: thin glue between the layout, the dataset store, core and figures.

Each callback body is a plain function of its inputs (plus the store), so unit tests call it
directly; :func:`register_callbacks` only wires those functions to component ids. What the
cost and prior controls do lives in :mod:`.controls`. Moving the iso-performance line while a
slider is dragged, hover linking, the URL and the copy-link button run in the browser
(``assets/roc_dash.js``).
"""

from __future__ import annotations

import dataclasses
import logging
import math
import os
import time
import uuid
from dataclasses import dataclass

import numpy as np
import pandas as pd
from dash import ALL, ClientsideFunction, Input, Output, State, ctx, dcc, html, no_update
from dash.exceptions import PreventUpdate

from ..core.analysis import (
    Analysis,
    AnalysisTimeout,
    Conditions,
    analyse,
    prevalence,
    with_conditions,
)
from ..core.decision import (
    Economics,
    decision_summary,
    decision_uncertainty,
    optimum_frequency_of,
)
from ..core.operating import (
    PIN_LABELS,
    OperatingSummary,
    compare_points,
    operating_point,
    pinned_points,
)
from ..exports import csv_safe
from ..figures import cost_figure, pr_figure, roc_figure
from ..figures.roc import RING_NAME, iso_line_endpoints
from ..figures.style import folds_note, pins_on_top, set_subtitle
from ..figures.threshold import threshold_figure
from ..io import InputError, ReadOptions, load_predictions
from ..io.combine import combine_datasets, distinct_model_names
from . import beyond, ids, kinds_ui
from .components import (
    banner,
    dataset_list,
    missing_banner,
    model_options,
    model_table,
    model_table_rows,
    operating_panel,
    summary_strip,
    view_list,
)
from .controls import (
    ControlState,
    Gesture,
    apply_gesture,
    clamp_samples,
    control_outputs,
    parse_query,
)
from .server.auth import current_owner
from .server.cache import SharedCache
from .server.limits import excerpt, heavy_parse
from .server.store import (
    DEMO_ID,
    EXAMPLES,
    DatasetInfo,
    DatasetNotFound,
    DatasetStore,
    NotAllowed,
    StorageFull,
    clean_ids,
    content_digest,
)
from .server.upload_route import take_batch

log = logging.getLogger(__name__)

FONT = {False: 14, True: 20}
AVERAGING_MODES = ("none", "pooled", "vertical", "threshold")


# -- data ---------------------------------------------------------------------------------
def loaded_infos(store: DatasetStore, dataset_ids) -> tuple[list[DatasetInfo], list[str]]:
    """Descriptions of the datasets still on the server, and ids that are gone."""
    infos, missing = [], []
    for dataset_id in clean_ids(dataset_ids):
        try:
            infos.append(store.info(dataset_id))
        except DatasetNotFound:
            missing.append(dataset_id)
    return infos, missing


def dataset_labels(infos: list[DatasetInfo]) -> list[str]:
    """Distinct names of the datasets for the page ("preds.csv", "preds.csv #2", ...)."""
    seen: dict[str, int] = {}
    out = []
    for info in infos:
        k = seen.get(info.label, 0) + 1
        seen[info.label] = k
        out.append(info.label if k == 1 else f"{info.label} #{k}")
    return out


def for_the_browser(message: str) -> str:
    """An io message reworded for the page: the command-line flag for the positive class is
    the *Positive label* box here."""
    return (message
            .replace("(--positive VALUE on the command line, e.g. --positive ",
                     "(type it in the Positive label box and press Enter, e.g. ")
            .replace("(--positive)", "(the Positive label box)"))


@dataclass(frozen=True)
class UploadOutcome:
    """What an upload did: the new dataset ids (``no_update`` if unchanged), the status line,
    the error box and the token of a rejected upload kept for a retry."""

    dataset_ids: object
    status: str
    error: str
    pending: object = None


def apply_upload(store: DatasetStore, sources, dataset_ids, positive=None) -> UploadOutcome:
    """Parse and store one upload (one drop: its files form one dataset).

    All-or-nothing: on bad input the ids are returned unchanged, ``error`` says what was
    wrong and the files are kept for an hour so that the *Positive label* box can re-read
    them; every dataset already loaded stays as it was. The first upload replaces the demo.
    A file identical to one already loaded is reported as such and not loaded twice; the
    same file twice in one drop is dropped with a note.
    """
    dataset_ids = clean_ids(dataset_ids)
    names = [name for name, _ in sources]
    infos, _ = loaded_infos(store, dataset_ids)
    loaded = {d: info for info in infos for d in info.digests}
    fresh, already, twins, seen = [], [], [], {}
    for name, data in sources:
        digest = content_digest(data)
        if digest in loaded:
            already.append((name, loaded[digest]))
        elif digest in seen:
            twins.append((name, seen[digest]))
        else:
            seen[digest] = name
            fresh.append((name, data, digest))
    if not fresh:
        where = "; ".join(f"{name} (as {info.label})" for name, info in already)
        return UploadOutcome(no_update, f"Already loaded: {where}. Nothing was changed.", "")
    options = ReadOptions(positive=(positive or "").strip() or None)
    try:
        result = load_predictions([(n, d) for n, d, _ in fresh], options=options)
        info = store.put(result.table, files=[n for n, _, _ in fresh], notes=result.notes,
                         digests=[d for _, _, d in fresh], owner=current_owner(),
                         kind=result.kind)
    except InputError as exc:
        pending = store.put_pending(sources)
        return UploadOutcome(no_update, "", for_the_browser(str(exc)), pending)
    except StorageFull as exc:
        log.error("upload of %s refused: %s", names, exc)
        return UploadOutcome(no_update, "", (f"{', '.join(names)}: not stored: {exc}. Nothing "
                                             "was changed; ask whoever runs the server to free "
                                             "space or raise the quota."))
    except Exception:  # never a traceback in the UI; the log keeps it
        log.exception("upload of %s failed", names)
        return UploadOutcome(no_update, "", (f"{', '.join(names)}: could not be loaded because "
                                             "of an internal error. Nothing was changed; the "
                                             "server log has details."))
    replaced_demo = bool(dataset_ids) and all(d in EXAMPLES for d in dataset_ids)
    new_ids = ([] if replaced_demo else dataset_ids) + [info.id]
    status = [f"Loaded {info.label}: {info.n_rows:,} rows, model(s) {', '.join(info.models)}."]
    status.extend(kinds_ui.kind_status(info))
    if replaced_demo:
        status.append("It replaces the demo data (“Load the demo data” adds it again, beside "
                      "your uploads)." if dataset_ids == [DEMO_ID] else
                      "It replaces the example data (the links below the list load it again).")
    for name, other in already:
        status.append(f"{name} is already loaded (as {other.label}) and was not added again.")
    for name, first in twins:
        status.append(f"{name}: dropped, identical to {first} (the same predictions would "
                      "have been counted twice).")
    status.extend(info.notes)
    status.extend(tag_note(store, new_ids))
    return UploadOutcome(new_ids, " ".join(status), "", None)


def tag_note(store: DatasetStore, dataset_ids) -> list[str]:
    """With more than one dataset: how the models are now named (each carries its dataset's
    name, see :func:`roc_dash.io.combine.distinct_model_names`), the newest dataset's first."""
    infos, _ = loaded_infos(store, dataset_ids)
    if len(infos) < 2:
        return []
    labels = dataset_labels(infos)
    mappings = distinct_model_names([(lab, i.models) for lab, i in zip(labels, infos,
                                                                       strict=True)])
    # one example per dataset, the newest first
    shown = [next(iter(m.values())) for m in mappings[::-1] if m][:3]
    kept = list(dict.fromkeys(o for m in mappings for o, n in m.items() if o == n))
    examples = ", ".join(repr(n) for n in shown)
    words = [f"With {len(infos)} datasets loaded, every model is shown with its dataset "
             f"(datasets are never merged), e.g. {examples}."]
    if len(kept) == 1:
        words.append(f"({kept[0]!r} keeps its name: the name of its file.)")
    elif kept:
        words.append(f"({', '.join(repr(o) for o in kept[:3])} keep their names: the names "
                     "of their files.)")
    return words


def demo_status(store: DatasetStore, dataset_ids, source=None, state=None) -> str:
    """What "Load the demo data" did: loaded it, or added it beside the datasets already
    loaded (never replacing them), how its models are named then and how to remove it."""
    current = clean_ids(dataset_ids)
    infos, _ = loaded_infos(store, current)
    if not infos:
        return "Loaded the demo data."
    labels = ", ".join(dataset_labels(infos))
    new_ids = current + [DEMO_ID]
    words = [f"Added the demo data beside {labels} (nothing was replaced): its four models "
             "join the views, the joint hull and the optimum. To go back, remove it with "
             "its × in the list above."]
    words.extend(tag_note(store, new_ids))
    note = prior_note(store, new_ids, source, state) if state is not None else ""
    return " ".join(words + ([note] if note else []))


def upload_with_label(store: DatasetStore, sources, dataset_ids, positive) -> UploadOutcome:
    """A new drop read with the *Positive label* box, which was typed for an earlier file:
    when the box's value does not fit these files but they read without it (say 0/1 labels
    after a cat/dog file), they are read without it, and the status says so."""
    out = apply_upload(store, sources, dataset_ids, positive)
    if not out.error or not (positive or "").strip():
        return out
    plain = apply_upload(store, sources, dataset_ids, None)
    if plain.error:
        if plain.pending:
            store.drop_pending(plain.pending)
        return out  # its message names the box's value
    if out.pending:
        store.drop_pending(out.pending)
    note = (f"(The Positive label {excerpt(positive)} does not apply to these files; their "
            "labels were read as usual.)")
    return dataclasses.replace(plain, status=f"{plain.status} {note}")


def remove_dataset(dataset_ids, dataset_id):
    return [d for d in clean_ids(dataset_ids) if d != dataset_id]


#: At most this many models are analysed and drawn together (each view stays readable and
#: every request's work bounded); the model list says when more are loaded.
MAX_SHOWN_MODELS = 50
#: Paired DeLong tests only for up to this many shown models (pairs grow quadratically).
MAX_COMPARED_MODELS = 12

#: Share of ``ROC_DASH_TIMEOUT`` one request may spend analysing (the rest draws the figures).
ANALYSIS_SHARE = 0.8


def request_timeout() -> float:
    """``ROC_DASH_TIMEOUT`` in seconds (120 when unset or not a positive number): the longest a
    request may work. gunicorn's threaded workers never kill a slow request (their heartbeat
    runs in another thread), so the app bounds its own work with it."""
    try:
        value = float(os.environ.get("ROC_DASH_TIMEOUT", "120"))
    except ValueError:
        return 120.0
    return value if math.isfinite(value) and value > 0 else 120.0


def timeout_message(exc: AnalysisTimeout, n_models: int) -> str:
    limit = request_timeout()
    return (f"Analysing {n_models} model{'s' if n_models != 1 else ''} took longer than one "
            f"request may take on this server ({ANALYSIS_SHARE * limit:.0f} s of "
            f"ROC_DASH_TIMEOUT = {limit:g} s): {exc}. Tick fewer models, or ask the operator "
            "to raise ROC_DASH_TIMEOUT.")


class AnalysisCache:
    """Combined tables (per process) and analyses (shared by workers on disk), bounded in
    bytes (see :mod:`.cache`). Keys: dataset ids (an id's content never changes), models,
    analysis settings."""

    def __init__(self, store: DatasetStore, cache: SharedCache | None = None):
        self.store = store
        self.cache = cache or SharedCache(store.root)

    def table(self, dataset_ids, reference=None) -> pd.DataFrame | None:
        """The datasets' rows side by side (a ``dataset`` column; models never merged);
        multi-class datasets in the class reference view of class ``reference`` (see
        :func:`.kinds_ui.apply_reference`)."""
        key = tuple(clean_ids(dataset_ids))
        reference = kinds_ui.clean_class(reference)
        self.store.used(key)  # a cached table is a use of its datasets too

        def make():
            infos, _ = loaded_infos(self.store, key)
            tables = []
            for info, label in zip(infos, dataset_labels(infos), strict=True):
                try:
                    tables.append((label, kinds_ui.apply_reference(self.store.get(info.id),
                                                                   reference)))
                except DatasetNotFound:
                    continue
            return combine_datasets(tables)[0]

        return self.cache.get_or_make(("table", key, reference), make, shared=False)

    def analysis(self, dataset_ids, models, conditions: Conditions, reference=None
                 ) -> Analysis | None:
        """The analysis for these data, models and conditions.

        The expensive part (curves, intervals, averages, hulls) is cached per data, models
        and analysis settings; a change of costs or prior only re-selects the optimum.
        Raises :class:`AnalysisTimeout` when computing it takes longer than the request's
        share of ``ROC_DASH_TIMEOUT`` (nothing is cached then).
        """
        settings = dataclasses.replace(conditions, cost_fp=1.0, cost_fn=1.0, prior_pos=None,
                                       benefit_tp=0.0, benefit_tn=0.0)
        models = tuple(models)[:MAX_SHOWN_MODELS]
        reference = kinds_ui.clean_class(reference)
        key = ("analysis", tuple(clean_ids(dataset_ids)), models, settings, reference)
        self.store.used(key[1])  # a cached analysis is a use of its datasets too

        def make():
            table = self.table(dataset_ids, reference)
            if table is None:
                return None
            shown = table[table["model"].isin(list(models))]
            if not len(shown):
                return None
            deadline = started + ANALYSIS_SHARE * request_timeout()
            return analyse(shown, settings, max_compared=MAX_COMPARED_MODELS,
                           deadline=deadline)

        started = time.monotonic()

        base = self.cache.get_or_make(key, make)
        return None if base is None else with_conditions(base, conditions)


def model_names(cache: AnalysisCache, dataset_ids) -> list[str]:
    table = cache.table(dataset_ids)
    return [] if table is None else [str(m) for m in pd.unique(table["model"])]


def data_prior(store: DatasetStore, dataset_ids, source, reference=None) -> float | None:
    """The exact prevalence of dataset ``source`` (else of the last dataset loaded); of class
    ``reference`` when the dataset is multi-class."""
    ids_ = [i for i in clean_ids(dataset_ids)]
    candidates = ([source] if source in ids_ else []) + ids_[::-1]
    for dataset_id in candidates:
        try:
            return prevalence(kinds_ui.apply_reference(store.get(dataset_id), reference))
        except DatasetNotFound:
            continue
    return None


def prior_source(dataset_ids, source, search=None) -> str | None:
    """The dataset whose prevalence "Use the data's prevalence" takes: the one chosen so far
    while it is loaded (a dataset added later never changes the prior by itself; the status
    says what it would give, see :func:`prior_note`), else the link's (``psrc=``), else the
    last dataset loaded."""
    ids_ = clean_ids(dataset_ids)
    if source in ids_:
        return source
    linked = parse_query(search).get("prior_source")
    if linked in ids_:
        return linked
    return ids_[-1] if ids_ else None


def prior_note(store: DatasetStore, dataset_ids, source, state) -> str:
    """For the status line after a dataset was added beside others: the deployment prior
    stays as it was, what the new dataset's prevalence would give and how to switch to it."""
    ids_ = clean_ids(dataset_ids)
    if len(ids_) < 2:
        return ""
    s = ControlState.from_store(state)
    infos, _ = loaded_infos(store, ids_)
    labels = dict(zip([i.id for i in infos], dataset_labels(infos), strict=True))
    new = ids_[-1]
    try:
        p_new = prevalence(kinds_ui.apply_reference(store.get(new), s.reference_class))
    except DatasetNotFound:
        return ""
    from .controls import display

    other = (f"{labels.get(new, 'the new dataset')}'s prevalence would give "
             f"p(+) = {display(p_new)}")
    if s.prior_mode == "manual":
        return (f"The deployment prior stays p(+) = {display(s.prior)} (typed); {other}: "
                "press “Use the data's prevalence” and choose it in the list beside it to "
                "switch.")
    if source not in ids_ or source == new:
        return ""
    try:  # the prior follows the source's prevalence (the store may not have caught up yet)
        kept = prevalence(kinds_ui.apply_reference(store.get(source), s.reference_class))
    except DatasetNotFound:
        return ""
    return (f"The deployment prior stays p(+) = {display(kept)}, the prevalence of "
            f"{labels.get(source, 'the first dataset')}; {other}: choose it under “Use the "
            "data's prevalence … of” to switch.")


# -- controls -----------------------------------------------------------------------------
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


# -- views --------------------------------------------------------------------------------
def resolve_operating(analysis: Analysis | None, pinned) -> OperatingSummary | None:
    """The pinned operating point if it is valid for the shown models, else the optimum."""
    if analysis is None:
        return None
    if not (isinstance(pinned, dict) and isinstance(pinned.get("model"), str)
            and (pinned.get("threshold") is None
                 or isinstance(pinned.get("threshold"), int | float))):
        pinned = None
    return operating_point(analysis, pinned)


def viz_data(analysis: Analysis | None, figures=(), key: str = "") -> dict | None:
    """What the browser needs to move the iso line and markers without the server, what the
    server needs to read a drag of the line (the line as drawn and its vertex), and what a
    cost-only update needs to patch the drawn figures (which trace is the optimum, and a key
    of everything else the figures were drawn with)."""
    if analysis is None:
        return None
    h = analysis.hull
    c = analysis.conditions
    opt = analysis.optimal
    return {
        "models": [m.name for m in analysis.models],
        "hull": {"fpr": h.fpr.tolist(), "tpr": h.tpr.tolist()},
        "prior": c.prior_pos,
        "cost_fp": c.cost_fp,
        "cost_fn": c.cost_fn,
        "line": list(iso_line_endpoints(opt.fpr, opt.tpr, c.slope)),
        "vertex": [opt.fpr, opt.tpr],
        "key": key,
        "optimum_trace": [next((k for k, t in enumerate(f.data)
                                if t.name in ("optimal operating point", "optimum at PC(+)", "optimum")),
                               None) for f in figures],
        # the ring around the optimal vertex (a trace of the ROC view, see figures.roc)
        "ring_trace": next((k for k, t in enumerate(figures[0].data) if t.name == RING_NAME),
                           None) if figures else None,
    }


def slope_words(c: Conditions) -> str:
    """The line under the sliders: the iso-performance slope, with net costs when benefits
    are set (then the formula names them)."""
    if c.benefit_tp or c.benefit_tn:
        formula = "(c(FP)+b(TN))·p(−) / ((c(FN)+b(TP))·p(+))"
    else:
        formula = "c(FP)·p(−) / (c(FN)·p(+))"
    return f"Iso-performance slope m = {formula} = {c.slope:.4g}; PC(+) = {c.pc_pos:.3f}"


def conditions_text(c: Conditions) -> str:
    """One line naming the conditions (figure titles of exported images, CSV columns)."""
    return (f"c(FP) = {c.cost_fp:.4g}, c(FN) = {c.cost_fn:.4g}, p(+) = {c.prior_pos:.4g}, "
            f"slope m = {c.slope:.4g}")


def render_views(cache: AnalysisCache, dataset_ids, models, conditions: Conditions, *,
                 averaging="pooled", det=False, presentation=False, pinned=None, rev=0,
                 zoom=None, ties=False, pr_mode="pr", economics=None, threshold_model=None,
                 threshold_axis="threshold", combine=None, reference=None):
    """All views for the current data, models and conditions.

    ``reference`` is the class shown as positive of multi-class data (:mod:`.kinds_ui`).
    ``combine`` holds the combining overlays of the ROC view (:mod:`.beyond`).
    ``zoom`` holds the axis ranges the user zoomed each view to (``{"roc": {"x": [a, b],
    "y": [c, d], "det": bool}, "pr": ..., "cost": ...}``); they are kept.
    Returns ``(roc, pr, cost, operating panel, model table, viz data, slope text, banner,
    summary strip, threshold view)``.
    """
    names = model_names(cache, dataset_ids)
    models = [m for m in (models or []) if m in names]
    extra = []
    if len(models) > MAX_SHOWN_MODELS:
        extra.append(f"{len(models)} models are ticked; the views show the first "
                     f"{MAX_SHOWN_MODELS}. Untick some to see the others.")
        models = models[:MAX_SHOWN_MODELS]
    try:
        analysis = (cache.analysis(dataset_ids, models, conditions, reference) if models
                    else None)
    except AnalysisTimeout as exc:
        analysis = None
        extra.append(timeout_message(exc, len(models)))
    font = FONT[bool(presentation)]
    if analysis is None:
        return (_empty_figure(font), _empty_figure(font), _empty_figure(font),
                operating_panel(None, None), model_table(None), None, "", banner(None, extra),
                summary_strip(None), _empty_figure(font))
    colors = {n: k for k, n in enumerate(names)}
    optimum = operating_point(analysis)
    pins = pinned_points(analysis, clean_pins(pinned if isinstance(pinned, list) else
                                               [pinned] if isinstance(pinned, dict) else []))
    focus = pins[-1] if pins else optimum
    kw = {"pins": pins, "font_size": font, "colors": colors}
    roc = roc_figure(analysis, averaging=averaging if averaging in AVERAGING_MODES else "pooled",
                     det=det, ties=bool(ties), **kw)
    beyond.overlay_roc(roc, analysis, combine, pins=pins, colors=colors, font_size=font,
                       det=bool(det), table=lambda: cache.table(dataset_ids, reference),
                       population=economics.population if economics else None)
    kinds = shown_kinds(cache, dataset_ids, models)
    kinds_ui.decorate_roc(roc, analysis, cache.table(dataset_ids, reference), kinds,
                          colors=colors, font_size=font, det=bool(det))
    pins_on_top(roc)  # the letters above every curve and overlay
    # a new edit revision on every render: a dragged line is always redrawn where it belongs
    roc.update_layout(editrevision=f"{rev}-{uuid.uuid4().hex[:8]}")
    c = analysis.conditions
    title = conditions_text(c)
    figures = (roc, pr_figure(analysis, mode="prg" if pr_mode == "prg" else "pr", **kw),
               cost_figure(analysis, **kw))
    # the PR and cost views use the pooled folds whatever the ROC's averaging: they say so
    averaging = averaging if averaging in AVERAGING_MODES else "pooled"
    set_subtitle(figures[1], folds_note(analysis, averaging, "precision-recall"), font)
    set_subtitle(figures[2], folds_note(analysis, averaging, "the cost curves"), font)
    if presentation:  # large lines and markers for a projector; the plots keep their room
        for fig in figures:
            # short entries, off the plot: beside the square ROC, below the others
            present(fig, beside=fig is roc)
    for fig, view in zip(figures, ("roc", "pr", "cost"), strict=True):
        fig.update_layout(meta={**(fig.layout.meta or {}), "conditions": title})
        apply_zoom(fig, zoom, view, det=bool(det) if view == "roc" else
                   (pr_mode == "prg" if view == "pr" else False))
    slope_text = slope_words(c)
    comparison = compare_points(optimum, pins) if pins else None
    key = render_key(dataset_ids, models, conditions, averaging, det, presentation, pins, ties,
                     pr_mode, reference)
    economics = economics or Economics(cost_fp=conditions.cost_fp, cost_fn=conditions.cost_fn)
    summary, threshold = decision_views(analysis, pins, economics,
                                        threshold_model=threshold_model, axis=threshold_axis,
                                        font=font)
    if presentation:
        emphasise(threshold)
    return (*figures, operating_panel(focus, analysis, comparison),
            kinds_table(cache, dataset_ids, analysis, colors, kinds),
            viz_data(analysis, figures, key), slope_text, banner(analysis, extra), summary,
            threshold)


def shown_kinds(cache: AnalysisCache, dataset_ids, models) -> dict:
    """The dataset info of each shown model (see :func:`.kinds_ui.shown_kinds`)."""
    infos, _ = loaded_infos(cache.store, dataset_ids)
    return kinds_ui.shown_kinds(cache.table(dataset_ids), infos, dataset_labels(infos), models)


def kinds_table(cache: AnalysisCache, dataset_ids, analysis: Analysis, colors, kinds=None):
    """The model table, with M and the weighted AUC of multi-class models and the labels of
    soft-label models."""
    names = [m.name for m in analysis.models]
    kinds = shown_kinds(cache, dataset_ids, names) if kinds is None else kinds
    extras = kinds_ui.table_extras(
        analysis, kinds_ui.multiclass_results(cache, dataset_ids, names, kinds),
        kinds_ui.soft_results(cache, dataset_ids, names, kinds, analysis.conditions.level))
    return model_table(analysis, colors, extras, datasets=len(clean_ids(dataset_ids)) > 1)


def decision_views(analysis: Analysis, pins, economics: Economics, *, threshold_model=None,
                   axis="threshold", font=14):
    """The summary strip and the threshold view.

    The strip's headline is always the recommendation (the optimum under the conditions),
    with its uncertainty across folds, the ranges over which it holds and how often each
    model wins; pinned points are compared with it below (never in its place)."""
    e = dataclasses.replace(economics) if economics else None
    summary = decision_summary(analysis, None, e)
    compared = []
    for op in pins or ():
        s = decision_summary(analysis, {"model": op.model, "threshold": op.threshold}, e)
        if s is not None and s.pinned:
            compared.append((op.label, s))
    uncertainty = frequency = None
    if summary is not None:
        m = analysis.model(summary.model) if summary.model in {x.name for x in analysis.models} \
            else None
        if m is not None and m.n_folds > 1 and math.isfinite(summary.threshold):
            try:
                uncertainty = decision_uncertainty(m, summary.threshold,
                                                   analysis.conditions.prior_pos, e,
                                                   method="folds")
            except ValueError:
                uncertainty = None
        try:
            frequency = optimum_frequency_of(analysis, e)
        except ValueError:
            frequency = None
    names = [x.name for x in analysis.models]
    model = threshold_model if threshold_model in names else (
        summary.model if summary is not None and summary.model in names else names[0])
    fig = threshold_figure(analysis, model, e, axis=axis if axis == "flagged" else "threshold",
                           pins=pins, font_size=font)
    return summary_strip(summary, uncertainty, frequency, pinned=compared), fig


def render_key(dataset_ids, models, conditions: Conditions, averaging, det, presentation, pins,
               ties, pr_mode, reference=None) -> str:
    """Everything the figures depend on except the costs and the prior: when only those
    change, the drawn figures are patched instead of redrawn (see :func:`patch_views`)."""
    c = dataclasses.replace(conditions, cost_fp=1.0, cost_fn=1.0, prior_pos=None,
                            benefit_tp=0.0, benefit_tn=0.0)
    return repr((clean_ids(dataset_ids), list(models), c, averaging, bool(det),
                 bool(presentation), [(p.model, p.threshold, p.label) for p in pins]
                 if pins else [], bool(ties), pr_mode, reference))


def patch_views(cache: AnalysisCache, dataset_ids, models, conditions: Conditions, viz: dict, *,
                det=False, pr_mode="pr", economics=None, threshold_model=None,
                threshold_axis="threshold", presentation=False, zoom=None, reference=None,
                averaging="pooled"):
    """The views after a change of costs or prior alone, as patches of the figures drawn.

    Costs and prior move only the iso line, the optimum and the cost view's marker in the
    ROC and cost views (their curves do not depend on them); the PR view is drawn anew when
    the prior changed (precision depends on it), else patched too. Sending those few values
    instead of whole figures makes such a change several times cheaper for the server and
    the browser. Returns the same tuple as :func:`render_views` (figures as ``dash.Patch``),
    or None when a full render is needed.
    """
    from dash import Patch

    from ..figures.cost import cost_read_off
    from ..figures.precision_recall import optimum_marker as pr_marker
    from ..figures.roc import iso_shapes
    from ..figures.roc import optimum_marker as roc_marker

    names = model_names(cache, dataset_ids)
    models = [m for m in (models or []) if m in names][:MAX_SHOWN_MODELS]
    try:
        analysis = (cache.analysis(dataset_ids, models, conditions, reference) if models
                    else None)
    except AnalysisTimeout:
        return None  # a full render says why
    index = viz.get("optimum_trace") if isinstance(viz, dict) else None
    ring_index = viz.get("ring_trace") if isinstance(viz, dict) else None
    if analysis is None or not isinstance(index, list) or len(index) != 3 or None in index:
        return None
    if not det and not isinstance(ring_index, int):
        return None
    c = analysis.conditions
    title = conditions_text(c)
    roc = Patch()
    for k, v in roc_marker(analysis, det=det).items():
        roc["data"][index[0]][k] = list(v)
    if not det:
        line, ring = iso_shapes(analysis)
        for k, v in line.items():
            roc["layout"]["shapes"][0][k] = v
        for k, v in ring.items():
            roc["data"][ring_index][k] = v
        roc["layout"]["meta"]["slope"] = c.slope
    roc["layout"]["meta"]["conditions"] = title
    roc["layout"]["editrevision"] = uuid.uuid4().hex[:8]
    colors = {n: k for k, n in enumerate(names)}
    prior_changed = viz.get("prior") != c.prior_pos
    if prior_changed:
        pr = pr_view(analysis, pr_mode=pr_mode, presentation=presentation, zoom=zoom,
                     colors=colors, font=FONT[bool(presentation)], averaging=averaging)
    else:
        pr = Patch()
        for k, v in pr_marker(analysis, mode=pr_mode).items():
            pr["data"][index[1]][k] = list(v)
        pr["layout"]["meta"]["conditions"] = title
    cost = Patch()
    read = cost_read_off(analysis)
    cost["layout"]["shapes"][0]["x0"] = read["x"]
    cost["layout"]["shapes"][0]["x1"] = read["x"]
    cost["data"][index[2]]["x"] = [read["x"]]
    cost["data"][index[2]]["y"] = [read["y"]]
    for k, v in read.items():
        cost["layout"]["annotations"][1][k] = v
    cost["layout"]["meta"]["pc_pos"] = read["x"]
    cost["layout"]["meta"]["cost"] = read["y"]
    cost["layout"]["meta"]["conditions"] = title
    optimum = operating_point(analysis)
    slope_text = slope_words(c)
    new_viz = {**viz, **{k: v for k, v in viz_data(analysis).items()
                         if k not in ("key", "optimum_trace", "ring_trace")}}
    if prior_changed:
        new_viz["optimum_trace"] = [index[0], viz_data(analysis, (pr,))["optimum_trace"][0],
                                    index[2]]
    economics = economics or Economics(cost_fp=conditions.cost_fp, cost_fn=conditions.cost_fn)
    summary, threshold = decision_views(analysis, [], economics,
                                        threshold_model=threshold_model, axis=threshold_axis,
                                        font=FONT[bool(presentation)])
    if presentation:
        emphasise(threshold)
    return (roc, pr, cost, operating_panel(optimum, analysis),
            kinds_table(cache, dataset_ids, analysis, colors), new_viz, slope_text, no_update,
            summary, threshold)


def present(fig, *, beside: bool = False) -> None:
    """Presentation mode: large lines and markers for a projector; short legend entries off
    the plot (beside it for the square ROC, below it for the others)."""
    from ..figures.style import presentation_legend

    emphasise(fig)
    presentation_legend(fig, beside=beside)


def pr_view(analysis: Analysis, *, pr_mode="pr", presentation=False, zoom=None, colors=None,
            font=14, averaging="pooled"):
    """The PR (or PRG) view without pins, as :func:`render_views` draws it."""
    fig = pr_figure(analysis, mode="prg" if pr_mode == "prg" else "pr", pins=[],
                    font_size=font, colors=colors)
    set_subtitle(fig, folds_note(analysis, averaging if averaging in AVERAGING_MODES
                                 else "pooled", "precision-recall"), font)
    if presentation:
        present(fig)
    fig.update_layout(meta={**(fig.layout.meta or {}),
                            "conditions": conditions_text(analysis.conditions)})
    apply_zoom(fig, zoom, "pr", det=pr_mode == "prg")
    return fig


def emphasise(fig, factor: float = 1.6) -> None:
    """Thicker lines and bigger markers (presentation mode)."""
    for trace in fig.data:
        line = getattr(trace, "line", None)
        if line is not None and line.width:
            line.width = line.width * factor
        marker = getattr(trace, "marker", None)
        # a pin's circle already grows with the font (its letter sits inside it)
        if (marker is not None and isinstance(marker.size, int | float)
                and not (trace.name or "").startswith("pinned ")):
            marker.size = marker.size * 1.35
    for shape in fig.layout.shapes:
        if shape.line is not None and shape.line.width:
            shape.line.width = shape.line.width * factor


def _range(value):
    if (isinstance(value, list) and len(value) == 2
            and all(isinstance(v, int | float) and math.isfinite(v) for v in value)):
        return [float(value[0]), float(value[1])]
    return None


def apply_zoom(fig, zoom, view: str, *, det: bool = False) -> None:
    """Draw ``fig`` with the axis ranges the user zoomed ``view`` to (ignored when malformed
    or, for the ROC view, zoomed in the other of ROC/DET axes). The full ranges go into
    ``layout.meta.home``: a double click restores them (assets/roc_dash.js)."""
    x0, y0 = fig.layout.xaxis.range, fig.layout.yaxis.range
    if x0 is not None and y0 is not None:
        fig.update_layout(meta={**(fig.layout.meta or {}),
                                "home": {"x": list(x0), "y": list(y0)}})
    entry = zoom.get(view) if isinstance(zoom, dict) else None
    if not isinstance(entry, dict) or bool(entry.get("det")) != det:
        return
    x, y = _range(entry.get("x")), _range(entry.get("y"))
    if x:
        fig.update_xaxes(range=x, autorange=False)
    if y:
        fig.update_yaxes(range=y, autorange=False)


def _empty_figure(font):
    import plotly.graph_objects as go

    from ..figures.style import base_layout

    fig = go.Figure()
    base_layout(fig, x_title="", y_title="", font_size=font)
    fig.add_annotation(text="No model to show: load predictions or tick a model.",
                       x=0.5, y=0.5, showarrow=False, font={"size": 15})
    return fig


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


def clean_pins(pins) -> list[dict]:
    """Pins from the browser, validated: at most three, each ``{"model", "threshold",
    "label"}`` with a distinct letter."""
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
        out.append({"model": pin["model"][:500], "threshold": t, "label": label})
    return out


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
    from .controls import _number

    if not model:
        return None, "Choose a model to pin."
    if not str(text or "").strip():
        return None, "Type a score threshold to pin, e.g. 0.5."
    t = _number(text)
    if t is None:
        return None, (f"“{str(text).strip()[:40]}” is not a number: type a score threshold, "
                      "e.g. 0.5 or 1e-3.")
    return {"model": str(model), "threshold": t}, ""


def curves_csv(analysis: Analysis) -> str:
    frames = [pd.DataFrame({"model": m.name, "fpr": m.curve.fpr, "tpr": m.curve.tpr,
                            "threshold": np.where(np.isinf(m.curve.thresholds), np.nan,
                                                  m.curve.thresholds)})
              for m in analysis.models]
    return csv_safe(pd.concat(frames, ignore_index=True)).to_csv(index=False)


def table_csv(analysis: Analysis) -> str:
    """The model table with the conditions it was computed under on every row."""
    c = analysis.conditions
    frame = pd.DataFrame(model_table_rows(analysis)).assign(
        cost_fp=c.cost_fp, cost_fn=c.cost_fn, prior_pos=c.prior_pos, slope=c.slope,
        pc_pos=c.pc_pos)
    return csv_safe(frame).to_csv(index=False)


def update_views(cache: AnalysisCache, dataset_ids, models, state, averaging, level, band,
                 samples, det, presentation, pinned, ties, pr_mode, threshold_model,
                 threshold_axis, combine, zoom, viz, *, conditions_changed=False,
                 new_pin=False):
    """The views callback's outputs for these inputs: a patch of the drawn figures when only
    the costs or the prior changed (:func:`patch_views`), else a full :func:`render_views`,
    then the model the threshold view shows (a new pin switches it to the pin's model).
    The viz-data store records the conditions store it was drawn for (``state``)."""
    conditions = conditions_from_state(state, level, band, samples)
    reference = ControlState.from_store(state).reference_class
    models = [m for m in models if isinstance(m, str)] if isinstance(models, list) else []
    pr_mode = "prg" if pr_mode == "prg" else "pr"
    pins = clean_pins(pinned)
    if new_pin and pins:  # a new pin: the threshold view shows its model
        threshold_model = pins[-1]["model"]
    out = None
    if (conditions_changed and isinstance(viz, dict) and not pins
            and not beyond.active(combine)
            and viz.get("key") == render_key(dataset_ids, models, conditions,
                                             averaging or "pooled", det, presentation, [],
                                             ties, pr_mode, reference)):
        out = patch_views(cache, dataset_ids, models, conditions, viz, det=bool(det),
                          pr_mode=pr_mode, economics=economics_from_state(state),
                          averaging=averaging or "pooled",
                          threshold_model=threshold_model, threshold_axis=threshold_axis,
                          presentation=bool(presentation), zoom=zoom, reference=reference)
    if out is None:
        out = render_views(cache, dataset_ids, models, conditions,
                           averaging=averaging or "pooled", det=bool(det),
                           presentation=bool(presentation), pinned=pinned,
                           rev=ControlState.from_store(state).rev, zoom=zoom,
                           ties=bool(ties), pr_mode=pr_mode,
                           economics=economics_from_state(state),
                           threshold_model=threshold_model, threshold_axis=threshold_axis,
                           combine=combine, reference=reference)
    if isinstance(out[5], dict):
        out = (*out[:5], {**out[5], "state": state}, *out[6:])
    meta = getattr(getattr(out[9], "layout", None), "meta", None)
    return (*out, meta.get("model") if isinstance(meta, dict) else no_update)


#: The outputs of the views callback, in the order :func:`render_views` returns them; the
#: controls callback writes them too (``allow_duplicate``).
VIEW_OUTPUTS = tuple(Output(i, p, allow_duplicate=True) for i, p in (
    (ids.ROC_GRAPH, "figure"), (ids.PR_GRAPH, "figure"), (ids.COST_GRAPH, "figure"),
    (ids.OPERATING, "children"), (ids.MODEL_TABLE, "children"), (ids.VIZ_DATA, "data"),
    (ids.SLOPE_TEXT, "children"), (ids.BANNER, "children"), (ids.SUMMARY, "children"),
    (ids.THRESHOLD_GRAPH, "figure"), (ids.THRESHOLD_MODEL, "value")))
#: What the views need besides the datasets, the conditions and the viz-data store.
VIEW_STATES = tuple(State(i, p) for i, p in (
    (ids.MODELS, "value"), (ids.AVERAGING, "value"), (ids.LEVEL, "value"),
    (ids.BAND, "value"), (ids.SAMPLES, "value"), (ids.DET, "value"),
    (ids.PRESENTATION, "value"), (ids.PINNED, "data"), (ids.ROC_TIES, "value"),
    (ids.PR_MODE, "value"), (ids.THRESHOLD_MODEL, "value"), (ids.THRESHOLD_AXIS, "value"),
    (ids.COMBINE, "data"), (ids.ZOOM, "data")))


# -- wiring -------------------------------------------------------------------------------
def register_callbacks(app, store: DatasetStore) -> None:
    cache = AnalysisCache(store)
    app.analysis_cache = cache

    @app.callback(
        Output(ids.DATASETS, "data"),
        Output(ids.UPLOAD_STATUS, "children"),
        Output(ids.UPLOAD_ERROR, "children"),
        Output(ids.PENDING, "data"),
        Input(ids.STREAMED, "data"),
        Input({"type": ids.REMOVE_DATASET, "index": ALL}, "n_clicks"),
        Input(ids.POSITIVE_LABEL, "value"),
        Input(ids.LOAD_DEMO, "n_clicks"),
        Input(ids.URL, "search"),
        State(ids.DATASETS, "data"),
        State(ids.PENDING, "data"),
        State(ids.PRIOR_SOURCE, "value"),
        State(ids.CONDITIONS, "data"),
    )
    def update_datasets(streamed, _remove_clicks, positive, _demo, search, dataset_ids,
                        pending, source, state):
        def noted(out: UploadOutcome):
            """The outcome with the prior note when the upload added a dataset."""
            if not isinstance(out.dataset_ids, list):
                return out.dataset_ids, out.status, out.error, out.pending
            note = prior_note(store, out.dataset_ids, source, state)
            return (out.dataset_ids, f"{out.status} {note}".strip(), out.error, out.pending)

        trigger = ctx.triggered_id
        fired = {t["prop_id"] for t in ctx.triggered}
        if trigger is None or f"{ids.URL}.search" in fired:  # opening a link: its datasets
            wanted = parse_query(search).get("data")
            if not wanted or wanted == clean_ids(dataset_ids):
                raise PreventUpdate
            return wanted, "", "", None
        if isinstance(trigger, dict) and trigger.get("type") == ids.REMOVE_DATASET:
            if not any(t["value"] for t in ctx.triggered):  # button just rendered
                raise PreventUpdate
            removed = trigger.get("index")
            if removed in clean_ids(dataset_ids):
                # the owner's removal deletes its files; anyone else's only takes it off
                # their page (a link grants viewing, never deletion)
                owner = current_owner()
                if owner is not None:
                    store.delete(removed, user=owner)
            return remove_dataset(dataset_ids, removed), "", "", no_update
        if trigger == ids.LOAD_DEMO:
            current = clean_ids(dataset_ids)
            if DEMO_ID in current:
                return no_update, "The demo data is already loaded.", "", no_update
            return (current + [DEMO_ID], demo_status(store, current, source, state), "",
                    no_update)
        if trigger == ids.POSITIVE_LABEL:  # re-read the upload that was just rejected
            if not pending:
                raise PreventUpdate
            with heavy_parse():  # one per worker; else 503 and the page retries
                sources = store.get_pending(pending)
                if not sources:
                    raise PreventUpdate
                out = apply_upload(store, sources, dataset_ids, positive)
                store.drop_pending(pending)  # a new token is kept if it failed again
            return noted(out)
        # files streamed to /upload by the page (see upload_route.py)
        if not isinstance(streamed, dict):
            raise PreventUpdate
        with heavy_parse():  # one per worker; else 503 and the page retries
            sources = take_batch(store, streamed.get("batch"))
            if not sources:
                return (no_update, "", "The upload did not reach the server completely; "
                        "please try again. Nothing was changed.", no_update)
            out = upload_with_label(store, sources, dataset_ids, positive)
        if pending:
            store.drop_pending(pending)
        return noted(out)

    @app.callback(
        Output(ids.DATASET_LIST, "children"),
        Output(ids.MODELS, "options"),
        Output(ids.MODELS, "value"),
        Output(ids.PIN_MODEL, "options"),
        Output(ids.PRIOR_SOURCE, "options"),
        Output(ids.PRIOR_SOURCE, "value"),
        Output(ids.PRIOR_SOURCE_ROW, "style"),
        Output(ids.THRESHOLD_MODEL, "options"),
        Input(ids.DATASETS, "data"),
        State(ids.MODELS, "value"),
        State(ids.MODELS, "options"),
        State(ids.URL, "search"),
        State(ids.PRIOR_SOURCE, "value"),
    )
    def update_models(dataset_ids, selected, old_options, search, source):
        infos, missing = loaded_infos(store, dataset_ids)
        names = model_names(cache, [i.id for i in infos])
        old = {o.get("value") for o in old_options or [] if isinstance(o, dict)}
        selected = selected if isinstance(selected, list) else []
        if ctx.triggered_id is None:  # first load: the link's model selection
            wanted = parse_query(search).get("models")
            value = [n for n in names if n in wanted] if wanted else names
        else:  # keep the user's choice; new models are shown
            value = [n for n in names if n in selected or n not in old]
        value = value[:MAX_SHOWN_MODELS]
        options = model_options(names)
        labels = dataset_labels(infos)
        sources = [{"label": f"{lab} ({prevalence(store.get(i.id)):.4g})", "value": i.id}
                   for lab, i in zip(labels, infos, strict=True)]
        source = prior_source([i.id for i in infos], source, search)
        style = {"display": "flex"} if len(infos) > 1 else {"display": "none"}
        plain = [{"label": n, "value": n} for n in names]
        return (dataset_list(infos, labels, missing, current_owner()), options, value, plain, sources, source,
                style, plain)

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
             pr_mode, threshold_model, threshold_axis, combine, zoom) = view_states
            views_out = update_views(cache, dataset_ids, models, new_state, averaging, level,
                                     band, samples, det, presentation, pinned, ties, pr_mode,
                                     threshold_model, threshold_axis, combine, zoom, viz,
                                     conditions_changed=True)
            # the threshold view's model is an input of the views callback: writing it here
            # would draw every view a second time (new conditions never change the model)
            views_out = (*views_out[:-1], no_update)
        return (*control_outputs(new), new_state, message, *views_out)

    @app.callback(
        Output(ids.SAMPLES, "value"),
        Output(ids.SAMPLES_MSG, "children"),
        Output(ids.SAMPLES_OK, "data"),
        Input(ids.SAMPLES, "value"),
        State(ids.SAMPLES_OK, "data"),
        prevent_initial_call=True,
    )
    def samples(value, previous):
        previous, _ = clamp_samples(previous)
        n, message = clamp_samples(value, previous)
        return (str(n) if str(value).strip() != str(n) else no_update), message, n

    @app.callback(
        Output(ids.AVERAGING, "value"),
        Output(ids.LEVEL, "value"),
        Output(ids.BAND, "value"),
        Output(ids.SAMPLES, "value", allow_duplicate=True),
        Output(ids.DET, "value"),
        Output(ids.PRESENTATION, "value"),
        Output(ids.ROC_TIES, "value"),
        Output(ids.PR_MODE, "value"),
        Input(ids.URL, "search"),
        prevent_initial_call="initial_duplicate",
    )
    def restore_view(search):
        q = parse_query(search)
        if not q:
            raise PreventUpdate
        out = [q.get(k, no_update) for k in (
            "averaging", "level", "band", "samples", "det", "presentation", "ties", "pr_mode")]
        if isinstance(out[3], int):
            out[3] = str(out[3])  # the samples box holds text
        return tuple(out)

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

    @app.callback(
        Output(ids.ROC_GRAPH, "figure"),
        Output(ids.PR_GRAPH, "figure"),
        Output(ids.COST_GRAPH, "figure"),
        Output(ids.OPERATING, "children"),
        Output(ids.MODEL_TABLE, "children"),
        Output(ids.VIZ_DATA, "data"),
        Output(ids.SLOPE_TEXT, "children"),
        Output(ids.BANNER, "children"),
        Output(ids.SUMMARY, "children"),
        Output(ids.THRESHOLD_GRAPH, "figure"),
        Output(ids.THRESHOLD_MODEL, "value"),  # always the model the threshold view shows
        Input(ids.DATASETS, "data"),
        Input(ids.MODELS, "value"),
        Input(ids.CONDITIONS, "data"),
        Input(ids.AVERAGING, "value"),
        Input(ids.LEVEL, "value"),
        Input(ids.BAND, "value"),
        Input(ids.SAMPLES, "value"),
        Input(ids.DET, "value"),
        Input(ids.PRESENTATION, "value"),
        Input(ids.PINNED, "data"),
        Input(ids.ROC_TIES, "value"),
        Input(ids.PR_MODE, "value"),
        Input(ids.THRESHOLD_MODEL, "value"),
        Input(ids.THRESHOLD_AXIS, "value"),
        Input(ids.COMBINE, "data"),
        State(ids.ZOOM, "data"),
        State(ids.VIZ_DATA, "data"),
    )
    def views(dataset_ids, models, state, averaging, level, band, samples, det, presentation,
              pinned, ties, pr_mode, threshold_model, threshold_axis, combine, zoom, viz):
        if state is None:
            raise PreventUpdate  # the controls have not resolved the conditions yet
        if (ctx.triggered_id == ids.CONDITIONS and len(ctx.triggered) == 1
                and isinstance(viz, dict) and viz.get("state") == state):
            raise PreventUpdate  # the controls callback has already drawn these conditions
        return update_views(cache, dataset_ids, models, state, averaging, level, band,
                            samples, det, presentation, pinned, ties, pr_mode,
                            threshold_model, threshold_axis, combine, zoom, viz,
                            conditions_changed=ctx.triggered_id == ids.CONDITIONS,
                            new_pin=ctx.triggered_id == ids.PINNED)

    beyond.register_beyond(app, cache, store)
    kinds_ui.register_kinds(app, cache, store)

    @app.callback(
        Output(ids.MISSING, "children"),
        Input(ids.DATASETS, "data"),
    )
    def missing(dataset_ids):
        _, gone = loaded_infos(store, dataset_ids)
        return missing_banner(gone, {g: store.gone(g) for g in gone})

    @app.callback(
        Output(ids.DOWNLOAD, "data"),
        Input(ids.EXPORT_CURVES, "n_clicks"),
        Input(ids.EXPORT_TABLE, "n_clicks"),
        Input(ids.EXPORT_HTML, "n_clicks"),
        State(ids.DATASETS, "data"),
        State(ids.MODELS, "value"),
        State(ids.CONDITIONS, "data"),
        State(ids.LEVEL, "value"),
        State(ids.BAND, "value"),
        State(ids.SAMPLES, "value"),
        State(ids.AVERAGING, "value"),
        State(ids.PINNED, "data"),
        State(ids.URL, "href"),
        prevent_initial_call=True,
    )
    def export(_c, _t, _h, dataset_ids, models, state, level, band, samples, averaging,
               pinned, href):
        from urllib.parse import urlsplit, urlunsplit

        from .components import plain_text

        conditions = conditions_from_state(state, level, band, samples)
        models = [m for m in models if isinstance(m, str)] if isinstance(models, list) else []
        reference = ControlState.from_store(state).reference_class
        try:
            analysis = (cache.analysis(dataset_ids, models, conditions, reference) if models
                        else None)
        except AnalysisTimeout:
            analysis = None  # the views already say so
        if analysis is None:
            raise PreventUpdate
        if ctx.triggered_id == ids.EXPORT_CURVES:
            return dcc.send_string(curves_csv(analysis), "roc-dash-curves.csv")
        if ctx.triggered_id == ids.EXPORT_TABLE:
            return dcc.send_string(table_csv(analysis), "roc-dash-models.csv")
        from ..html_report import ReportState, render_html

        infos, _ = loaded_infos(store, dataset_ids)
        pins = pinned_points(analysis, clean_pins(pinned))
        # the summary as the strip shows it: the recommendation (uncertainty, sensitivity
        # included), then the pins compared with it
        strip, _ = decision_views(analysis, pins, economics_from_state(state))
        headline = [k for k in strip if getattr(k, "className", "") != "summary-pins"] \
            if isinstance(strip, list) else strip
        compared = [k for k in strip if getattr(k, "className", "") == "summary-pins"] \
            if isinstance(strip, list) else []
        notes = store.notes(dataset_ids, owner=current_owner())
        link = href if isinstance(href, str) else None
        base = urlsplit(link) if link else None
        views = tuple(
            (str(v.get("name", "")), urlunsplit(base._replace(
                query=str(v.get("query") or "").lstrip("?"))) if base else
             str(v.get("query") or ""))
            for v in notes["views"] if isinstance(v, dict))
        report_state = ReportState(
            averaging=averaging if averaging in AVERAGING_MODES else "pooled",
            datasets=tuple(dataset_labels(infos)),
            operating=None,  # the recommendation; the pins are compared below it
            link=link, note=notes["note"], pins=tuple(pins), summary=plain_text(headline),
            pins_summary=plain_text(compared), views=views)
        return dcc.send_string(render_html(analysis, state=report_state),
                               "roc-dash-report.html")

    @app.callback(
        Output(ids.VIEW_LIST, "children"),
        Output(ids.VIEWS, "data"),
        Output(ids.NOTE, "value"),
        Output(ids.NOTE_STATUS, "children"),
        Output(ids.VIEW_NAME, "value"),
        Output(ids.NOTE, "readOnly"),
        Output(ids.VIEW_NAME, "disabled"),
        Output(ids.SAVE_VIEW, "disabled"),
        Input(ids.DATASETS, "data"),
        Input(ids.SAVE_VIEW, "n_clicks"),
        Input(ids.VIEW_NAME, "n_submit"),
        Input(ids.NOTE, "n_blur"),
        Input({"type": ids.DELETE_VIEW, "index": ALL}, "n_clicks"),
        State(ids.VIEW_NAME, "value"),
        State(ids.NOTE, "value"),
        State(ids.URL_SYNC, "data"),
        State(ids.URL, "search"),
    )
    def notes_and_views(dataset_ids, _save, _submit, _blur, _delete, name, note, query,
                        search):
        query = query if isinstance(query, str) else search
        trigger = ctx.triggered_id
        dataset_ids = clean_ids(dataset_ids)
        owner = current_owner()
        status, name_out, note_out = "", no_update, no_update
        try:
            if trigger in (ids.SAVE_VIEW, ids.VIEW_NAME):
                if not (name or "").strip():
                    raise PreventUpdate
                views = store.save_view(dataset_ids, name,
                                        query if isinstance(query, str) else "", owner=owner)
                status, name_out = f"Saved the view “{views[-1]['name']}”.", ""
            elif trigger == ids.NOTE:
                kept = store.save_note(dataset_ids, note, owner=owner)
                status = "Note saved." if kept == (note or "") else \
                    f"Note saved (cut to {store.MAX_NOTE:,} characters)."
            elif isinstance(trigger, dict) and trigger.get("type") == ids.DELETE_VIEW:
                if not any(t["value"] for t in ctx.triggered):
                    raise PreventUpdate
                store.delete_view(dataset_ids, trigger.get("index"), owner=owner)
                status = "View deleted."
            else:  # other datasets: their note
                note_out = store.notes(dataset_ids, owner)["note"]
        except NotAllowed as exc:
            status = str(exc)
            note_out = store.notes(dataset_ids, owner)["note"]  # theirs stays as it was
        except DatasetNotFound:
            status = ("Could not save: notes are kept only with datasets this server holds "
                      "(load or upload one first).")
        except (OSError, ValueError) as exc:
            status = f"Could not save: {exc}."
        editable = store.can_write_notes(dataset_ids, owner)
        if not editable and not status and dataset_ids:
            status = store.READ_ONLY
        views = store.notes(dataset_ids, owner)["views"]
        return (view_list(views, editable=editable), views, note_out, status, name_out,
                not editable, not editable, not editable)

    app.clientside_callback(
        ClientsideFunction("rocDash", "openView"),
        Output(ids.NOTE_STATUS, "children", allow_duplicate=True),
        Input({"type": ids.OPEN_VIEW, "index": ALL}, "n_clicks"),
        State(ids.VIEWS, "data"),
        prevent_initial_call=True,
    )

    # -- in the browser -------------------------------------------------------------------
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
    app.clientside_callback(
        ClientsideFunction("rocDash", "keepZoom"),
        Output(ids.ZOOM, "data"),
        Input(ids.ROC_GRAPH, "relayoutData"),
        Input(ids.PR_GRAPH, "relayoutData"),
        Input(ids.COST_GRAPH, "relayoutData"),
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
        ClientsideFunction("rocDash", "writeUrl"),
        Output(ids.URL_SYNC, "data"),
        Input(ids.CONDITIONS, "data"),
        Input(ids.AVERAGING, "value"),
        Input(ids.LEVEL, "value"),
        Input(ids.BAND, "value"),
        Input(ids.SAMPLES, "value"),
        Input(ids.DET, "value"),
        Input(ids.PRESENTATION, "value"),
        Input(ids.MODELS, "value"),
        Input(ids.MODELS, "options"),
        Input(ids.PINNED, "data"),
        Input(ids.DATASETS, "data"),
        Input(ids.ROC_TIES, "value"),
        Input(ids.PR_MODE, "value"),
        Input(ids.PRIOR_SOURCE, "value"),
        prevent_initial_call=True,
    )
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
    # the ROC's hint says what a drag does on these axes (DET draws no iso line)
    from .layout import ROC_HINTS

    app.clientside_callback(
        f"function (det) {{ return det && det.length ? {ROC_HINTS['det']!r} : "
        f"{ROC_HINTS['roc']!r}; }}",
        Output(ids.ROC_HINT, "children"),
        Input(ids.DET, "value"),
    )
    # "Clear pins" only when something is pinned
    app.clientside_callback(
        "function (pins) { return !(Array.isArray(pins) && pins.length); }",
        Output(ids.UNPIN, "hidden"),
        Input(ids.PINNED, "data"),
    )
    app.clientside_callback(
        ClientsideFunction("rocDash", "uploadDone"),
        Output(ids.UPLOAD_DONE, "data"),
        Input(ids.UPLOAD_STATUS, "children"),
        Input(ids.UPLOAD_ERROR, "children"),
        prevent_initial_call=True,
    )
    app.clientside_callback(
        ClientsideFunction("rocDash", "copyLink"),
        Output(ids.COPY_STATUS, "children"),
        Input(ids.COPY_LINK, "n_clicks"),
        prevent_initial_call=True,
    )
    app.clientside_callback(
        ClientsideFunction("rocDash", "presentation"),
        Output(ids.APP, "className"),
        Input(ids.PRESENTATION, "value"),
    )


def _num_or_none(value):
    return float(value) if isinstance(value, int | float) and math.isfinite(value) else None


__all__ = ["AnalysisCache", "apply_upload", "render_views", "register_callbacks", "html"]
