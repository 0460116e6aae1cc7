"""The Monitor tab's computation: the page's decision (or an uploaded record) checked on the
loaded datasets chosen as windows (:mod:`roc_dash.core.monitoring`, as ``roc-dash monitor``
and :func:`roc_dash.monitor` check it).

Below the features: the tab (:mod:`.features.monitor`) shows it and the page's HTML report
(:mod:`.features.exports`) adds its section, from one cached computation.

* **The decision.** The page's recommendation or a pin, as *Download decision* writes it
  (:func:`.chosen_points.decision_record`), taken on the datasets that are *not* windows (the
  reference: the predictions the decision is taken on); or a record uploaded in the tab
  (validated by :func:`roc_dash.decision.from_dict`), whose reference predictions are the
  first non-window dataset holding its model (none: the record's counts alone).
* **The windows.** Each dataset chosen is one window named after its file, as the command
  line names a file's window; or the chosen column (a column of categories the upload kept, see
  :mod:`roc_dash.io.slice_columns`) cuts their rows: each value a window, or each period of
  its dates (``every``, named as :data:`roc_dash.io.windows.EVERY` names them). Only the
  decision's model's rows are read (a dataset of one model: its rows). With the labels set
  aside each window is monitored as after deployment: its prior estimated from its scores.
"""

from __future__ import annotations

import dataclasses
import json
import os
import tempfile
from pathlib import Path

import pandas as pd

from ..core.monitoring import MonitorSettings, window_from_rows
from ..core.monitoring import monitor as monitor_windows
from ..core.monitoring.window_pins import pin_window
from ..decision import MAX_RECORD_BYTES, DecisionFileError, from_dict
from ..decision.monitoring import (
    MonitorInputError,
    MonitorReport,
    read_window_files,
    reference_of,
)
from ..io.canonical import model_name_from_filename
from ..io.slice_columns import SLICE_PREFIX
from ..io.windows import EVERY, MAX_WINDOWS
from .analysis import (
    AnalysisCache,
    apply_reference,
    dataset_labels,
    loaded_infos,
    shown_analysis,
)
from .chosen_points import decision_record
from .constrained import constrained_record
from .core_words import in_page_words, reason_of
from .page_state import PageState
from .server.monitor_files import get_file
from .server.store import DatasetNotFound

#: Server time the decision's bootstrap intervals may take (as Download decision's).
DECISION_SECONDS = 10.0

__all__ = ["MonitorOutcome", "DECISION_SECONDS", "page_monitor", "read_record", "reference_page",
           "window_counts", "window_columns", "read_window_upload", "uploaded_windows",
           "file_windows", "file_columns",
           "with_pins"]

@dataclasses.dataclass(frozen=True)
class MonitorOutcome:
    """What the tab shows: the report, or why there is none (``message``)."""

    report: MonitorReport | None = None
    message: str = ""
    reference_label: str = ""
    key: tuple = ()
    #: The windows' counts (what a pinned threshold is read on).
    windows: tuple = ()
    #: The thresholds pinned per window
    #: (:class:`~roc_dash.core.monitoring.window_pins.WindowPin`).
    pins: tuple = ()
    #: ``message`` is the first step to take (nothing chosen yet), not a problem.
    hint: bool = False
    #: The notes naming the window files left out and why (shown as warnings).
    left_out: tuple = ()


def read_record(text: str, name: str = "the uploaded file"):
    """``(record, None)`` of a decision record's JSON text, or ``(None, message)`` saying
    what is wrong with it and what to do (as :func:`roc_dash.decision.load` says it)."""
    written_by = "upload the JSON that roc-dash decide or the page's Download decision wrote"
    if not isinstance(text, str) or len(text.encode("utf-8", "replace")) > MAX_RECORD_BYTES:
        return None, (f"{name}: too large for a decision record (at most "
                      f"{MAX_RECORD_BYTES:,} bytes); {written_by}")
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:  # said without the parser's words (review 11)
        return None, (f"{name}: not JSON, so not a decision record (it cannot be read from "
                      f"line {exc.lineno}, column {exc.colno} on); {written_by}")
    except (ValueError, RecursionError):
        return None, f"{name}: not JSON that can be read, so not a decision record; {written_by}"
    try:
        return from_dict(doc, source=name), None
    except (DecisionFileError, ValueError, TypeError, KeyError) as exc:
        return None, str(exc) if name in str(exc) else f"{name}: {exc}"


def reference_page(page: PageState) -> PageState:
    """The page's state on the datasets that are not windows (its models and pins too): the
    state whose recommendation is the decision checked (its threshold: without the
    calibration card's recalibration, which does not change it)."""
    windows = set(page.monitor.windows)
    kept = tuple(d for d in page.datasets if d not in windows)
    models = None if page.models is None else tuple(
        m for m in page.models if m.dataset not in windows)
    return dataclasses.replace(page, datasets=kept, models=models, pins=tuple(
        p for p in page.pins if p.model.dataset not in windows), recalibration="")


def _rows_of(table: pd.DataFrame, model: str, *, named: bool = False) -> pd.DataFrame | None:
    """The rows of ``model`` (a table of one model named after its file: its rows), None
    when it has not. ``named``: the table's model column names its models (a file's model
    column), so a table of one other model is not the decision's model (stranger review
    10: a window of LogReg rows was checked against GradBoost's decision)."""
    names = pd.unique(table["model"].astype(str))
    if model in names:
        return table[table["model"].astype(str) == model]
    return table.assign(model=model) if len(names) == 1 and not named else None


def _named_in_file(info) -> bool:
    """Whether the dataset ``info``'s models are named by a model column of its files (not
    after the files, as the loader names a file without one)."""
    bases = [model_name_from_filename(f) for f in info.files]
    def after_a_file(m: str) -> bool:
        return any(m == b or m.startswith(b + " (") or (m.endswith("…") and b.startswith(m[:-1]))
                   for b in bases)
    return not all(after_a_file(str(m)) for m in info.models)


def window_columns(store, dataset_ids) -> list[str]:
    """The columns the windows' rows may be cut by: the kept category columns that every
    one of ``dataset_ids`` holds, in the first one's order."""
    found = None
    for dataset_id in dataset_ids:
        try:
            cols = [c[len(SLICE_PREFIX):] for c in store.get(dataset_id).columns
                    if isinstance(c, str) and c.startswith(SLICE_PREFIX)]
        except DatasetNotFound:
            continue
        found = cols if found is None else [c for c in found if c in cols]
    return found or []


def _period_names(values: pd.Series, every: str, column: str) -> tuple[pd.Series, dict]:
    """Each row's period name and each name's start (for the order)."""
    distinct = pd.unique(values.astype(str))
    times = pd.to_datetime(pd.Series(distinct), errors="coerce", format="mixed")
    bad = [v for v, t in zip(distinct, times, strict=True) if pd.isna(t) and v != "nan"]
    if bad:
        raise ValueError(f"column {column!r} holds {bad[0]!r}, not a date, so it cannot be "
                         f"cut into {every}s. Choose each value as a window, or a column of "
                         "dates (e.g. 2024-03-05)")
    name_of, start = {}, {}
    for v, t in zip(distinct, times, strict=True):
        if pd.isna(t):
            continue
        name = EVERY[every][1](t)
        name_of[v] = name
        start[name] = min(start.get(name, t), t)
    return values.astype(str).map(name_of), start


def window_counts(tables: list[tuple[str, pd.DataFrame]], model: str, *, time=None,
                  every=None, labels: bool = True, named=frozenset()) -> list:
    """The windows (:class:`~roc_dash.core.monitoring.WindowCounts`) of the datasets
    ``tables`` (``[(label, canonical table)]``), the rows of ``model``; cut by the kept
    column ``time`` (and its period ``every``) when given. Raises ValueError with what to do
    (a dataset without the model, a window of one class, ...). ``named``: the labels of
    the datasets whose model column names their models (one of them of another model is
    refused, not read as the decision's)."""
    parts = []
    for label, table in tables:
        rows = _rows_of(table, model, named=label in named)
        if rows is None:
            raise ValueError(f"dataset {label!r} has no rows of the decision's model "
                             f"{model!r}. Choose as windows datasets of that model")
        if time is not None and SLICE_PREFIX + time not in rows.columns:
            raise ValueError(f"dataset {label!r} has no column {time!r} to cut windows by")
        parts.append((label, rows))
    if time is None:  # named as the command line names a file's window
        groups = [(model_name_from_filename(label), rows) for label, rows in parts]
    else:
        rows = pd.concat([r for _, r in parts], ignore_index=True)
        values = rows[SLICE_PREFIX + time].astype(object)
        if every is None:
            keys, order = values.astype(str), None
        else:
            keys, order = _period_names(values, every, time)
        names = sorted(pd.unique(keys.dropna()), key=(order.get if order else None))
        if len(names) > MAX_WINDOWS:
            raise ValueError(f"column {time!r} makes {len(names):,} windows, more than "
                             f"{MAX_WINDOWS}; cut it into periods")
        groups = [(str(n), rows[(keys == n).to_numpy()]) for n in names]
    out = []
    for name, rows in groups:
        w = rows["weight"].to_numpy(dtype=float) if "weight" in rows else None
        out.append(window_from_rows(
            name, rows["score"].to_numpy(dtype=float),
            rows["label"].to_numpy(dtype=bool) if labels else None,
            weights=None if w is None or bool((w == 1.0).all()) else w))
    return out


def _tables(cache: AnalysisCache, ids, reference_class) -> list[tuple[str, pd.DataFrame]]:
    infos, _ = loaded_infos(cache.store, ids)
    return [(label, apply_reference(cache.store.get(info.id), reference_class))
            for info, label in zip(infos, dataset_labels(infos), strict=True)]


def _kept_record(store, uploaded, record_id) -> dict:
    """``{"name", "text"}`` of the record checked: the one uploaded in this page, else the
    one kept on the server under ``record_id`` (a link's); raises ValueError saying what to
    do when there is none (or it is gone)."""
    if isinstance(uploaded, dict) and uploaded.get("text"):
        return uploaded
    if record_id is not None:
        kept = get_file(store.root, record_id, "record")
        if kept is None:
            raise ValueError("The decision record of this link is gone from the server "
                             "(expired, or the link is from another server): upload it "
                             "again, or check the page's decision.")
        try:
            return {"name": kept.name, "text": kept.path.read_text("utf-8")}
        except (OSError, UnicodeDecodeError):
            pass
    raise ValueError("Upload the decision record to check (the JSON that roc-dash "
                     "decide or Download decision wrote), or check the page's "
                     "decision.")


def _with_dataset(cache: AnalysisCache, page: PageState, ref, name: str) -> str:
    """``name (its dataset's label)``: the model of the decision always with its dataset
    (the page's names add it only where two datasets share a name)."""
    if ref is None:
        return name
    infos, _ = loaded_infos(cache.store, page.datasets)
    label = next((lab for info, lab in zip(infos, dataset_labels(infos), strict=True)
                  if info.id == ref.dataset), None)
    return name if label is None else f"{name} ({label})"


def _other_models(cache: AnalysisCache, windows, model: str):
    """``(named, others)``: the labels of the window datasets whose model column names
    their models, and ``[(label, models)]`` of those without rows of ``model``."""
    infos, _ = loaded_infos(cache.store, windows)
    named, others = set(), []
    for info, label in zip(infos, dataset_labels(infos), strict=True):
        if _named_in_file(info):
            named.add(label)
            if model not in info.models:
                others.append((label, tuple(info.models)))
    return frozenset(named), others


def _windows_left_out(cache: AnalysisCache, page: PageState, windows) -> tuple[str, ...]:
    """The note saying that the page's recommendation checked here is taken without the
    datasets ticked as windows, while the summary strip and *Download decision* take every
    loaded dataset (stranger review 10: two "recommendations"; docs/monitoring.md)."""
    if page.monitor.reference == "upload" or not windows:
        return ()
    infos, _ = loaded_infos(cache.store, page.datasets)
    labels = dict(zip((i.id for i in infos), dataset_labels(infos), strict=True))
    named = ", ".join(labels.get(w, w) for w in windows)
    return (f"The decision checked is taken on the datasets that are not windows: the "
            f"summary strip and Download decision also take the windows' datasets ({named}), "
            "so theirs may differ. Remove the windows' datasets from the page (or upload "
            "them here as window files) to make them one.",)


def _no_matching_decision(what: str, model: str, others) -> str:
    """What to do when the windows hold rows of other models than the decision's."""
    held = "; ".join(f"{label} holds {', '.join(models)}" for label, models in others)
    names = sorted({m for _, models in others for m in models})
    return (f"The windows hold no rows of the decision checked ({what}, model {model!r}): "
            f"{held}. No decision loaded matches the windows' models: check a pin on "
            f"{' or '.join(names)} (a dataset that is not a window), upload that model's "
            f"decision record, or tick windows of {model}.")


def _decision(cache: AnalysisCache, page: PageState, uploaded):
    """``(record, reference dataset id or None, what the reference is)`` or raises
    ValueError."""
    m = page.monitor
    windows = set(m.windows)
    rest = [d for d in page.datasets if d not in windows]
    if m.reference == "upload":
        uploaded = _kept_record(cache.store, uploaded, m.record)
        record, error = read_record(uploaded["text"], repr(uploaded.get("name") or "file"))
        if record is None:
            raise ValueError(error)
        for label, table in _tables(cache, rest, page.control.reference_class):
            if record.model in pd.unique(table["model"].astype(str)):
                return record, _rows_of(table, record.model), f"{uploaded.get('name') or 'the uploaded record'} " \
                                      f"(reference predictions: {label})"
        return record, None, f"{uploaded.get('name') or 'the uploaded record'}"
    if not rest:
        raise ValueError("Every dataset loaded is a window: keep the predictions the "
                         "decision is taken on as a dataset that is not a window.")
    ref_page = reference_page(page)
    which = None if m.reference == "optimum" else m.reference
    key = ("monitor-decision", cache.store.present(ref_page.datasets), ref_page.models,
           ref_page.pins, ref_page.conditions, ref_page.level, ref_page.band,
           ref_page.samples, which, ref_page.capacity, ref_page.floors,
           ref_page.floor_confidence, ref_page.volume)

    def make():
        """The record as Download decision writes it, with its intervals' full count
        (the download's time bound), made once per page state: under the Decide tab's
        capacity or floors, the point they choose (the summary strip's headline); when no
        threshold meets them, the optimum without them, as the strip says."""
        analysis = shown_analysis(cache, ref_page)
        if analysis is None:
            return ("No model of the datasets that are not windows is shown: tick one in "
                    "Models.",)
        if which is None:
            try:
                made = constrained_record(cache, ref_page, analysis)
            except ValueError:
                made = None  # nothing meets them: the strip's headline is the optimum
            if made is not None:
                record, constrained, ref = made
                return (record, ref, f"the page's recommendation under the "
                                     f"{constrained.how_chosen}: "
                                     f"{_with_dataset(cache, page, ref, record.model)}")
        record, op, ref = decision_record(cache, ref_page, analysis, which,
                                          seconds=DECISION_SECONDS)
        if record is None:
            return (f"Pin {which} is not on a model of the reference datasets: choose the "
                    "page's recommendation or another pin.",)
        what = "the page's recommendation" if which is None else f"pin {which}"
        return record, ref, f"{what}: {_with_dataset(cache, page, ref, record.model)}"

    made = cache.cache.get_or_make(key, make, shared=False)
    if len(made) == 1:
        raise ValueError(made[0])
    record, ref, what = made
    table = None
    if ref is not None:
        table = apply_reference(cache.store.get(ref.dataset), page.control.reference_class)
        table = _rows_of(table, record.model)
    return record, table, what


def page_monitor(cache: AnalysisCache, page: PageState, uploaded=None) -> MonitorOutcome:
    """The Monitor tab's report for the page's state ``page`` (its ``monitor`` settings,
    conditions and level) and the uploaded record ``uploaded`` (``{"name", "text"}``);
    cached by the decision, the data and the settings."""
    m = page.monitor
    windows = [d for d in m.windows if d in page.datasets]
    files, gone = uploaded_windows(cache.store, page)
    if not windows and not files:
        return MonitorOutcome(message=(
            f"{gone}. " if gone else "") + "Tick the datasets that are windows (predictions "
            "after deployment, one dataset per window or cut by a time column), or upload "
            "window files (a score column; labels optional).", hint=not gone)
    try:
        record, table, what = _decision(cache, page, uploaded)
    except (ValueError, DatasetNotFound) as exc:
        return MonitorOutcome(message=str(exc))
    named, others = _other_models(cache, windows, record.model)
    if others:
        return MonitorOutcome(message=_no_matching_decision(what, record.model, others))
    settings = MonitorSettings(level=page.level, estimator=m.estimator)
    # the record as decided (not when: a record re-taken for the same page is the same)
    text = json.dumps({k: v for k, v in record.to_dict().items() if k != "created_utc"},
                      sort_keys=True)
    key = ("monitor", text, cache.store.present(page.datasets), tuple(windows),
           tuple(f.id for f in files), m.time, m.every, m.hide_labels, settings,
           page.control.reference_class)

    def make():
        try:
            items = cache.cache.get_or_make(  # counted once: a new cost re-uses them
                ("monitor-windows", cache.store.present(windows), record.model, m.time,
                 m.every, m.hide_labels, page.control.reference_class),
                lambda: tuple(window_counts(
                    _tables(cache, windows, page.control.reference_class), record.model,
                    time=m.time, every=m.every, labels=not m.hide_labels,
                    named=named)), shared=False) \
                if windows else ()
            read, file_notes = file_windows(cache, files, record, time=m.time, every=m.every,
                                            labels=not m.hide_labels)
            if not items and not read:  # every window file left out: say why
                raise ValueError(" ".join(file_notes))
            ref, same = reference_of(record, table)
            result = monitor_windows(ref, (*items, *read), settings)
        except ValueError as exc:
            return MonitorOutcome(message=in_page_words(exc))
        notes = (*file_notes, *((f"{gone}.",) if gone else ()),
                 *_windows_left_out(cache, page, windows), *(() if table is not None else (
            "No reference predictions hold the record's model: EM, PACC, the re-derived "
            "choice and the score tests need them (load them as a dataset that is not a "
            "window).",)))
        return MonitorOutcome(MonitorReport(record=record, result=result, notes=notes,
                                            reference_fingerprint=same),
                              reference_label=what, key=key, windows=(*items, *read),
                              left_out=tuple(n for n in file_notes if n.startswith(
                                  tuple(f"{f.name} is left out" for f in files))))

    return with_pins(cache.cache.get_or_make(key, make, shared=False), m.pins)


def with_pins(outcome: MonitorOutcome, pins) -> MonitorOutcome:
    """``outcome`` with the thresholds ``pins`` (``(window name, threshold)``) pinned on its
    windows (:func:`~roc_dash.core.monitoring.window_pins.pin_window`); a pin of a window
    not monitored, or one whose rates cannot be read, is said in a note."""
    if outcome.report is None or not pins:
        return outcome
    by_name = {w.name: w for w in outcome.windows}
    made, notes = [], []
    for name, threshold in pins:
        if name not in by_name:
            notes.append(f"The threshold pinned for window {name!r} is left out: no window "
                         "of that name is monitored.")
            continue
        try:
            made.append(pin_window(outcome.report.result, by_name[name], threshold))
        except ValueError as exc:
            notes.append(f"The threshold pinned for window {name!r} is left out: {reason_of(exc)}.")
    report = dataclasses.replace(outcome.report, notes=(*outcome.report.notes, *notes))
    return dataclasses.replace(outcome, report=report, pins=tuple(made),
                               key=(*outcome.key, tuple(pins)))



# ----------------------------------------------------------------------------- window files
def _shown(message: str, folders) -> str:
    """A reader's message without the server's folders (the file's own name stays)."""
    for folder in folders:
        message = message.replace(str(folder) + os.sep, "")
    return message


def _columns_of(path: Path) -> tuple[str, ...]:
    try:
        if path.suffix.lower() == ".parquet":
            import pyarrow.parquet as pq

            return tuple(pq.read_schema(path).names)
        return tuple(str(c) for c in pd.read_csv(path, nrows=0, sep=None,
                                                 engine="python").columns)
    except (OSError, ValueError, ImportError):
        return ()


def read_window_upload(name: str, data: bytes, time: str | None = None,
                       every: str | None = None):
    """``(columns, None)`` of a window file uploaded as ``name`` that reads as
    ``roc-dash monitor`` reads its windows (a score column; labels, model, time and weight
    optional), or ``(None, message)`` naming the file, the column and what to do. With
    ``time`` (the tab's cut, and ``every``, its period) a file holding that column is also
    cut by it, so that one whose times cannot be cut is refused now, not after it was
    ticked (stranger review 11: a file of bad dates blanked the tab)."""
    from ..io import InputError
    from ..io.windows import read_windows
    from .server.monitor_files import safe_name

    with tempfile.TemporaryDirectory(prefix="roc-dash-window-") as folder:
        path = Path(folder) / safe_name(name)
        path.write_bytes(data)
        try:
            read_windows([str(path)])
            columns = _columns_of(path)
            if time is not None and time in columns:
                try:
                    read_windows([str(path)], time=time, every=every)
                except InputError as exc:
                    if exc.file is not None:  # the file's own fault (not: too many windows,
                        raise  # which a period chosen next may cure)
        except InputError as exc:
            return None, _shown(str(exc), [folder])
        except (ValueError, OSError) as exc:  # anything else the readers refuse
            return None, f"{name}: cannot be read as predictions ({exc}). Upload a CSV, TSV " \
                         "or Parquet file with a score column."
        return columns, None


def uploaded_windows(store, page: PageState) -> tuple[list, str]:
    """The window files kept on the server among the tab's windows (ids that are not
    datasets), and what to say of those gone (empty: none)."""
    found, gone = [], 0
    for w in page.monitor.windows:
        if w in page.datasets:
            continue
        kept = get_file(store.root, w, "window")
        if kept is None:
            gone += 1
        else:
            found.append(kept)
    if not gone:
        return found, ""
    return found, (f"{gone} window file{'s' if gone != 1 else ''} of this link "
                   f"{'are' if gone != 1 else 'is'} gone from the server (expired or "
                   f"uploaded elsewhere): upload {'them' if gone != 1 else 'it'} again")


def file_windows(cache: AnalysisCache, files, record, *, time=None, every=None,
                 labels: bool = True) -> tuple[tuple, tuple]:
    """``(windows, notes)`` of the kept window files ``files`` read for ``record`` (as
    ``roc-dash monitor`` reads them; cut by ``time`` when it is one of their columns, else
    each file a window), labels dropped unless ``labels``; cached. A file that cannot be read
    so (e.g. times that are not dates under ``every``, found only once the cut is chosen) is
    left out, and a note names it and says why: the other windows are shown (stranger
    review 11: one bad file blanked the tab). Raises ValueError when the files cannot be
    read together though each can alone."""
    if not files:
        return (), ()
    cut = time is not None and all(time in f.columns for f in files)
    key = ("monitor-files", tuple(f.id for f in files), record.model, record.positive_label,
           time if cut else None, every if cut else None, labels)

    def read(chosen):
        try:
            return read_window_files(record, [str(f.path) for f in chosen],
                                     time=time if cut else None,
                                     every=every if cut else None)
        except MonitorInputError as exc:
            raise ValueError(_shown(str(exc), [f.path.parent for f in chosen])) from None

    def make():
        try:
            windows, notes = read(files)
            left_out = []
        except ValueError as whole:
            left_out = [(files[0], str(whole))] if len(files) == 1 else []
            for f in files if len(files) > 1 else ():  # which cannot be read: each alone
                try:
                    read([f])
                except ValueError as exc:
                    left_out.append((f, str(exc)))
            if not left_out:  # each reads alone, not together (e.g. two positive labels)
                raise
            fine = [f for f in files if f not in {g for g, _ in left_out}]
            windows, notes = read(fine) if fine else ((), ())
        if not labels:
            windows = tuple(dataclasses.replace(w, positives=None) for w in windows)
        said = tuple(f"{f.name} is left out (untick it, or upload it again corrected): "
                     f"{message.removeprefix(f'{f.path.name}: ')}" for f, message in left_out)
        return tuple(windows), (*said, *(_shown(n, [f.path.parent for f in files])
                                         for n in notes))

    return cache.cache.get_or_make(key, make, shared=False)


def file_columns(files) -> list[str]:
    """The columns the kept window files ``files`` may be cut by: those every one of them
    holds, but the ones read as score, label, model or weight (by their usual names)."""
    from ..io.columns import ROLE_NAMES, normalise

    roles = {alias for names in ROLE_NAMES.values() for alias in names}
    found = None
    for f in files:
        cols = [c for c in f.columns if normalise(c) not in roles]
        found = cols if found is None else [c for c in found if c in cols]
    return found or []
