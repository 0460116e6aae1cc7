"""Data and uploads: the data panel, the dataset list, the demo and the prior's source.

Files stream to ``POST /upload`` (:mod:`..server.upload_route`); the datasets callback
(:func:`register`) reads a streamed batch, a re-read with the *Positive label* box, the demo
button, a × of the list or a link's datasets into the dataset-id store. The models callback
writes the model lists of several features (the model checklist, the pin and threshold-view
model lists, the prior's source): they all follow the datasets loaded, so it stays one
callback, here with the datasets it follows.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from dataclasses import dataclass

from dash import ALL, Input, Output, State, ctx, dcc, html, no_update
from dash.exceptions import PreventUpdate

from ...core.assembly.analysis import prevalence
from ...io import InputError, ReadOptions, load_predictions
from ...io.distinct_files import distinct_files, source_file
from ...io.side_by_side import distinct_model_names
from ...io.size_limits import release_memory
from ...text.rounding import sig
from .. import ids
from ..analysis import (
    MAX_SHOWN_MODELS,
    apply_reference,
    dataset_labels,
    kind_status,
    legacy_names,
    loaded_infos,
    model_refs,
)
from ..callbacks import in_browser
from ..components import dataset_list, labelled, missing_banner, model_options
from ..help import HELP
from ..link_report import link_words, unrestored
from ..monitoring import window_columns
from ..page_state import parse_link, resolve_refs
from ..removal import (
    confirm_box,
    left_out,
    recall,
    remove,
    settings_now,
    shown_back,
    undo,
)
from ..server.auth import current_owner
from ..server.limits import excerpt, heavy_parse
from ..server.store import (
    DEMO_ID,
    EXAMPLES,
    DatasetNotFound,
    DatasetStore,
    StorageFull,
    clean_ids,
)
from ..server.upload_route import take_batch
from ..state import ControlState, display
from ..upload_status import DRAWING, VIEWS_DRAWN, drawing_status

__all__ = ["panel", "for_the_browser", "UploadOutcome", "apply_upload", "tag_note", "DRAWING",
           "demo_status", "upload_with_label", "remove_dataset", "prior_source", "prior_note", "shown_selection",
           "removal_answer", "read_upload", "drawing_status", "VIEWS_DRAWN",
           "register"]

log = logging.getLogger(__name__)


ACCEPTED = ".csv,.tsv,.txt,.gz,.parquet,.pq"


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


def panel(class_control, examples):
    """The data panel: the drop zone and its progress, the status lines, the positive label
    box, the dataset list, the demo button and the format help. ``class_control`` and
    ``examples`` are the input kinds' fragments (:mod:`.kinds`) shown in it."""
    return html.Section(className="panel", children=[
        html.H2("Data"),
        # a drop zone served by assets/roc_dash.js: files stream to POST /upload with a
        # progress bar and a Cancel button (see app/server/upload_route.py), not through a callback
        html.Div(id=ids.UPLOAD, className="upload", tabIndex="0", role="button",
                 title=HELP["upload"],
                 children=[
                     html.Div("Drop prediction files here", className="upload-title"),
                     html.Div("or click (or press Enter) to choose: CSV, TSV, gzip, Parquet",
                              className="hint"),
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
                                                  role="status", **{"aria-live": "polite"})),
        html.Div(id=ids.UPLOAD_ERROR, className="error", role="alert"),
        labelled("Positive label (only if labels are ambiguous)",
                  dcc.Input(id=ids.POSITIVE_LABEL, type="text", placeholder="e.g. cat",
                            debounce=True, className="text", maxLength=200),
                  hint="Press Enter: a file rejected for ambiguous labels is read again.",
                  html_for=ids.POSITIVE_LABEL, help_text=HELP["positive"]),
        html.Div(id=ids.DATASET_LIST, className="dataset-list"),
        html.Div(id=ids.REMOVAL, className="removal-box", **{"aria-live": "polite"}),
        dcc.Store(id=ids.REMOVED, data=None),
        # the prior's source of this browser tab: a bare URL (no psrc=) keeps it
        dcc.Store(id=ids.PRIOR_SOURCE_KEPT, data=None, storage_type="session"),
        class_control,
        html.Button("Load the demo data", id=ids.LOAD_DEMO, n_clicks=0,
                    className="link-button", title=HELP["demo"]),
        examples,
        _format_help(),
        dcc.Store(id=ids.PENDING, data=None),
        dcc.Store(id=ids.REMOVE_REQUEST, data=None),
    ])


def for_the_browser(message: str) -> str:
    """An io message reworded for the page: the command-line flag for the positive class is
    the *Positive label* box here, and advice that only a command-line option can follow
    (choosing a column by name, dropping rows with missing scores) is left out; what the page
    can do (rename, fix or remove rows) stays."""
    message = (message
               .replace("(--positive VALUE on the command line, e.g. --positive ",
                        "(type it in the Positive label box and press Enter, e.g. ")
               .replace("(--positive)", "(the Positive label box)")
               .replace("(--positive CLASS)", "(the Positive label box)"))
    return _CLI_ONLY.sub("", message)


#: Advice in io's messages that only the command line can follow (the page has no column
#: choosers and no option to drop rows); the generic last form catches a flag in parentheses.
_CLI_ONLY = re.compile(
    r"[,;] or choose (?:it|one) explicitly \(--[^)]*\)"
    r"|, or choose to drop them \(--drop-nonfinite\)"
    r"|, or choose the class column \(--class-col\)"
    r"| ?\(--[^)]*\)")


@dataclass(frozen=True)
class UploadOutcome:
    """What an upload did: the new dataset ids (``no_update`` if unchanged), the status line,
    the error box and the token of a rejected upload kept for a retry."""

    dataset_ids: object
    status: str
    error: str
    pending: object = None
    lead: str = ""  # the status's first sentence when a dataset was added (drawing_status)


def apply_upload(store: DatasetStore, sources, dataset_ids, positive=None) -> UploadOutcome:
    """Parse and store one upload (one drop: its files form one dataset).

    All-or-nothing: on bad input the ids are returned unchanged, ``error`` says what was
    wrong and the files are kept for an hour so that the *Positive label* box can re-read
    them; every dataset already loaded stays as it was. The first upload replaces the demo.
    A file identical to one already loaded is reported as such and not loaded twice; the
    same file twice in one drop is dropped with a note.
    """
    dataset_ids = clean_ids(dataset_ids)
    infos, _ = loaded_infos(store, dataset_ids)
    # each file read and hashed once, told apart once: the reading below takes them as they are
    files = distinct_files(sources, {d: info for info in infos for d in info.digests})
    names = [name for name, _ in sources]
    already, twins = files.known, files.twins
    if not files.fresh:
        where = "; ".join(f"{name} (as {info.label})" for name, info in already)
        return UploadOutcome(no_update, f"Already loaded: {where}. Nothing was changed.", "")
    options = ReadOptions(positive=(positive or "").strip() or None, keep_slice_columns=True)
    try:
        result = load_predictions(files, options=options)
        info = store.put(result.table, files=[f.name for f in files.fresh], notes=result.notes,
                         digests=list(files.digests), owner=current_owner(),
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
    # the table is stored: what reading and writing it left in Arrow's pool (10^7 rows:
    # ~450 MB) goes back to the system instead of staying with the worker
    del result
    release_memory(collect=False)
    replaced_demo = bool(dataset_ids) and all(d in EXAMPLES for d in dataset_ids)
    new_ids = ([] if replaced_demo else dataset_ids) + [info.id]
    lead = f"Loaded {info.label}: {info.n_rows:,} rows, model(s) {', '.join(info.models)}."
    status = [lead]
    status.extend(kind_status(info))
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
    return UploadOutcome(new_ids, " ".join(status), "", None, lead=lead)


def tag_note(store: DatasetStore, dataset_ids) -> list[str]:
    """With more than one dataset: how the models are now named (each carries its dataset's
    name, see :func:`roc_dash.io.side_by_side.distinct_model_names`), the newest dataset's first."""
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
    sources = [source_file(s) for s in sources]  # read and hashed once for both tries
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
    if _told_already(store, dataset_ids, positive):
        return plain
    note = (f"(The Positive label {excerpt(positive)} does not apply to these files; their "
            "labels were read as usual.)")
    return dataclasses.replace(plain, status=f"{plain.status} {note}")


def _told_already(store: DatasetStore, dataset_ids, positive: str) -> bool:
    """Whether the page's last upload was already read without the box's value ``positive``
    (its note was then said once, not again with every later upload)."""
    mine = [d for d in clean_ids(dataset_ids) if d not in EXAMPLES]
    if not mine:
        return False
    try:
        labels = store.get(mine[-1]).attrs.get("positive_labels") or {}
    except (DatasetNotFound, OSError, ValueError):  # gone or unreadable: say the note
        return False
    return bool(labels) and positive.strip() not in {str(v).strip() for v in labels.values()}


def shown_selection(store: DatasetStore, keys: list[str], selected, old_options, search,
                    datasets) -> list[str]:
    """The models ticked (keys, :class:`..page_state.ModelRef`) once the datasets changed:
    the user's choice kept and new models shown; when the list is first filled, the link's
    models (those of a link made before models were named by dataset, by the names the page
    gave them for the link's datasets), else all. At most :data:`MAX_SHOWN_MODELS`."""
    selected = selected if isinstance(selected, list) else []
    old = {o.get("value") for o in old_options or [] if isinstance(o, dict)}
    if old:  # keep the user's choice; new models are shown
        return [k for k in keys if k in selected or k not in old][:MAX_SHOWN_MODELS]
    link, given = parse_link(search)
    wanted = set()
    if "models" in given:
        refs, _ = resolve_refs(link.models, legacy_names(store, link.datasets
                                                         if "datasets" in given else datasets))
        wanted = {r.key for r in refs}
    value = [k for k in keys if k in wanted] or keys
    return value[:MAX_SHOWN_MODELS]


def remove_dataset(dataset_ids, dataset_id):
    return [d for d in clean_ids(dataset_ids) if d != dataset_id]


def prior_source(dataset_ids, source, search=None, kept=None) -> str | None:
    """The dataset whose prevalence "Use the data's prevalence" takes: the one chosen so far
    while it is loaded (a dataset added later never changes the prior by itself; the status
    says what it would give, see :func:`prior_note`), else the link's (``psrc=``), else the
    one this browser tab had (``kept``: the page opened again at its bare address, the
    datasets coming back from the tab's session), else the last dataset loaded."""
    ids_ = clean_ids(dataset_ids)
    if source in ids_:
        return source
    link, given = parse_link(search)
    linked = link.prior_source if "prior_source" in given else None
    if linked in ids_:
        return linked
    if kept in ids_:
        return kept
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
        p_new = prevalence(apply_reference(store.get(new), s.reference_class))
    except DatasetNotFound:
        return ""

    other = (f"{labels.get(new, 'the new dataset')}'s prevalence would give "
             f"p(+) = {display(p_new)}")
    if s.prior_mode == "manual":
        return (f"The deployment prior stays p(+) = {display(s.prior)} (typed); {other}: "
                "press “Use the data's prevalence” and choose it in the list beside it to "
                "switch.")
    if source not in ids_ or source == new:
        return ""
    try:  # the prior follows the source's prevalence (the store may not have caught up yet)
        kept = prevalence(apply_reference(store.get(source), s.reference_class))
    except DatasetNotFound:
        return ""
    return (f"The deployment prior stays p(+) = {display(kept)}, the prevalence of "
            f"{labels.get(source, 'the first dataset')}; {other}: choose it under “Use the "
            "data's prevalence … of” to switch.")


# -- wiring ------------------------------------------------------------------------------
def register(app, cache, store) -> None:
    """The datasets, models and missing-data callbacks; the page's upload signal."""

    _register_datasets(app, cache, store)
    _register_models(app, cache, store)


def _register_datasets(app, cache, store) -> None:
    """The datasets callback: uploads, the demo, a link's datasets, and a × of the list
    (asked first; removed with Undo, :mod:`..removal`)."""

    @app.callback(
        output={"datasets": Output(ids.DATASETS, "data"),
                "status": Output(ids.UPLOAD_STATUS, "children"),
                "error": Output(ids.UPLOAD_ERROR, "children"),
                "pending": Output(ids.PENDING, "data"),
                "removal": Output(ids.REMOVAL, "children"),
                "removed": Output(ids.REMOVED, "data")},
        inputs={"streamed": Input(ids.STREAMED, "data"),
                "remove_request": Input(ids.REMOVE_REQUEST, "data"),
                "positive": Input(ids.POSITIVE_LABEL, "value"),
                "demo": Input(ids.LOAD_DEMO, "n_clicks"), "search": Input(ids.URL, "search"),
                "answer": (Input({"type": ids.REMOVE_YES, "index": ALL}, "n_clicks"),
                           Input({"type": ids.REMOVE_NO, "index": ALL}, "n_clicks"),
                           Input({"type": ids.UNDO_REMOVE, "index": ALL}, "n_clicks")),
                "datasets": State(ids.DATASETS, "data"), "pending": State(ids.PENDING, "data"),
                "source": State(ids.PRIOR_SOURCE, "value"),
                "state": State(ids.CONDITIONS, "data"), "pins": State(ids.PINNED, "data"),
                "removed": State(ids.REMOVED, "data"),
                # what a removal moves off the dataset (the record keeps it, and what Undo
                # puts back: the models callback and the Monitor's follow it)
                "windows": State(ids.MON_WINDOWS, "value"),
                "shown": State(ids.MODELS, "value"),  # the dataset's ticked: Undo ticks them
                # the Slices card's model and columns (Undo puts them back)
                "slices": (State(ids.SLC_MODEL, "value"), State(ids.SLC_COLUMN, "value"),
                           State(ids.SLC_CROSS, "value"))},
    )
    def update_datasets(streamed, remove_request, positive, demo, search, answer, datasets,
                        pending, source, state, pins, removed, windows, shown, slices):
        store.run_due_removals()  # deletions whose undo window has passed
        out = dict.fromkeys(("datasets", "status", "error", "pending", "removal", "removed"),
                            no_update)
        trigger = ctx.triggered_id
        if isinstance(trigger, dict) or trigger == ids.REMOVE_REQUEST:
            settings = {"source": source, "windows": windows, "models": shown,
                        "slices": dict(zip(("model", "column", "cross"), slices, strict=True)),
                        "auto": ControlState.from_store(state).prior_mode != "manual"}
            return {**out, **removal_answer(store, trigger, remove_request, datasets, pins,
                                            removed, settings)}
        if trigger is None or f"{ids.URL}.search" in {t["prop_id"] for t in ctx.triggered}:
            link, given = parse_link(search)  # opening a link: its datasets
            if "datasets" not in given or list(link.datasets) == clean_ids(datasets):
                raise PreventUpdate
            recalled = recall(store, link.datasets, current_owner())
            # the tab's datasets the link leaves out: said (the view shows what it saved)
            said = " ".join(w for w in (recalled, left_out(store, datasets, link.datasets))
                            if w)
            return {**out, "datasets": list(link.datasets), "status": said, "error": "",
                    "pending": None, **({"removal": None} if recalled else {})}
        if trigger == ids.LOAD_DEMO:
            current = clean_ids(datasets)
            if DEMO_ID in current:
                return {**out, "status": "The demo data is already loaded."}
            return {**out, "datasets": current + [DEMO_ID], "error": "",
                    "status": demo_status(store, current, source, state)}
        upload = read_upload(store, trigger, streamed, positive, datasets, pending)
        if upload is None:
            raise PreventUpdate
        if isinstance(upload.dataset_ids, list):  # a dataset added: the prior's note
            note = prior_note(store, upload.dataset_ids, source, state)
            upload = dataclasses.replace(upload, status=f"{upload.status} {note}".strip())
        return {**out, "datasets": upload.dataset_ids, "status": drawing_status(upload),
                "error": upload.error, "pending": upload.pending}

    app.clientside_callback(VIEWS_DRAWN,
                            Output(ids.UPLOAD_STATUS, "children", allow_duplicate=True),
                            Input(ids.VIZ_DATA, "data"), State(ids.UPLOAD_STATUS, "children"),
                            State(ids.DATASETS, "data"), prevent_initial_call=True)


def removal_answer(store, trigger, request, datasets, pins, removed, settings=None) -> dict:
    """The datasets callback's outputs for a × (the question), its answer (the removal, or
    nothing) or *Undo* (:mod:`..removal`); ``settings``: the prior's source, the Monitor's
    windows and whether the prior follows the source, which the removal moves off the
    dataset and *Undo* puts back."""
    owner = current_owner()
    if trigger == ids.REMOVE_REQUEST:  # a × clicked (the browser names its dataset)
        wanted = request.get("index") if isinstance(request, dict) else None
        if wanted not in clean_ids(datasets):
            raise PreventUpdate
        return {"removal": confirm_box(store, datasets, wanted, pins, owner, settings)}
    if not any(t["value"] for t in ctx.triggered):
        raise PreventUpdate  # the buttons appearing
    kind, dataset_id = trigger.get("type"), trigger.get("index")
    if kind == ids.REMOVE_NO:
        return {"removal": None}
    if kind == ids.REMOVE_YES:
        new, record, box = remove(store, datasets, dataset_id, pins, owner, settings)
        if record is None:  # not loaded (any more): nothing to remove
            return {"removal": None}
        return {"datasets": new, "removal": box, "removed": record, "status": "",
                "error": ""}
    if not isinstance(removed, dict) or removed.get("dataset") != dataset_id:
        raise PreventUpdate
    new, record, box = undo(store, datasets, removed, pins, settings)
    # the record is written only when it changes (the pins callback follows it)
    return {"datasets": new, "removal": box, "removed": record or no_update}


def read_upload(store, trigger, streamed, positive, datasets, pending) -> UploadOutcome | None:
    """What a drop streamed to ``/upload`` or a re-read with the *Positive label* box gave
    (None: nothing to read)."""
    if trigger == ids.POSITIVE_LABEL:  # re-read the upload that was just rejected
        if not pending:
            return None
        with heavy_parse():  # one per worker; else 503 and the page retries
            sources = store.get_pending(pending)
            if not sources:
                return None
            out = apply_upload(store, sources, datasets, positive)
            store.drop_pending(pending)  # a new token is kept if it failed again
        return out
    # files streamed to /upload by the page (see upload_route.py)
    if not isinstance(streamed, dict):
        return None
    with heavy_parse():  # one per worker; else 503 and the page retries
        sources = take_batch(store, streamed.get("batch"))
        if not sources:
            return UploadOutcome(no_update, "", "The upload did not reach the server "
                                 "completely; please try again. Nothing was changed.",
                                 no_update)
        out = upload_with_label(store, sources, datasets, positive)
    if pending:
        store.drop_pending(pending)
    return out


def _removal_fired() -> bool:
    """Whether a removal or its *Undo* (the record written) fired the callback."""
    return f"{ids.REMOVED}.data" in {t["prop_id"] for t in ctx.triggered}


def _moved_source(removed, source):
    """The prior's source a removal or its *Undo* just set (the record, when it is what
    fired the callback), else ``source``."""
    if not _removal_fired():
        return source
    now = settings_now(removed)
    return source if now is None or not now.get("source") else now["source"]


def _register_models(app, cache, store) -> None:
    """The model lists, the missing-data banner and the upload signal."""

    @app.callback(
        output={"list": Output(ids.DATASET_LIST, "children"),
                "options": Output(ids.MODELS, "options"), "value": Output(ids.MODELS, "value"),
                "pin_options": Output(ids.PIN_MODEL, "options"),
                "sources": Output(ids.PRIOR_SOURCE, "options"),
                "source": Output(ids.PRIOR_SOURCE, "value"),
                "source_row": Output(ids.PRIOR_SOURCE_ROW, "style"),
                "threshold_options": Output(ids.THRESHOLD_MODEL, "options")},
        inputs={"datasets": Input(ids.DATASETS, "data"),
                "selected": State(ids.MODELS, "value"),
                "old_options": State(ids.MODELS, "options"),
                "search": State(ids.URL, "search"), "source": State(ids.PRIOR_SOURCE, "value"),
                # a removal or its Undo (written with the datasets): the prior's source it
                # moved or put back (..removal.settings_now)
                "removed": Input(ids.REMOVED, "data"),
                "kept": State(ids.PRIOR_SOURCE_KEPT, "data")},
    )
    def update_models(datasets, selected, old_options, search, source, removed, kept=None):
        infos, missing = loaded_infos(store, datasets)
        loaded = [i.id for i in infos]
        refs = model_refs(cache, loaded)  # every model by key, with its shown name
        labels = dataset_labels(infos)
        sources = [{"label": f"{lab} ({sig(prevalence(store.get(i.id)))})", "value": i.id}
                   for lab, i in zip(labels, infos, strict=True)]
        plain = [{"label": shown, "value": key} for key, shown in refs.items()]
        return {"list": dataset_list(infos, labels, missing, current_owner()),
                "options": model_options(refs),
                "value": shown_back(shown_selection(store, list(refs), selected, old_options,
                                                    search, datasets),
                                    removed if _removal_fired() else None),
                "pin_options": plain, "sources": sources,
                "source": prior_source(loaded, _moved_source(removed, source), search, kept),
                "source_row": {"display": "flex"} if len(infos) > 1 else {"display": "none"},
                "threshold_options": plain}

    @app.callback(
        output=Output(ids.MISSING, "children"),
        inputs={"datasets": Input(ids.DATASETS, "data"), "search": State(ids.URL, "search")},
    )
    def missing(datasets, search):
        infos, gone = loaded_infos(store, datasets)
        link, given = parse_link(search)
        lost = unrestored(store, search) if gone and "datasets" in given and set(gone) <= set(
            link.datasets) else []
        return missing_banner(gone, {g: store.gone(g) for g in gone}, lost, link_words(
            search, infos, gone, lambda ids_: window_columns(store, ids_)))

    # a × of the dataset list, in the browser: the list's buttons appearing (every first
    # load, every upload) cost no request; a click names its dataset to the datasets callback
    in_browser(app, "removeRequest",
               Output(ids.REMOVE_REQUEST, "data"),
               Input({"type": ids.REMOVE_DATASET, "index": ALL}, "n_clicks"))
    # the prior's source, kept in the tab's session (a bare URL opens with it)
    in_browser(app, "keepSource", Output(ids.PRIOR_SOURCE_KEPT, "data"),
               Input(ids.PRIOR_SOURCE, "value"))
    in_browser(app, "uploadDone",
               Output(ids.UPLOAD_DONE, "data"), Input(ids.UPLOAD_STATUS, "children"),
               Input(ids.UPLOAD_ERROR, "children"))
