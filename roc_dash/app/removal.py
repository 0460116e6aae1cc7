"""Removing a dataset from the page: asked first, said what it takes, undone for a while.

The × of the dataset list asks for a confirmation that names what goes with the dataset (its
models, the pins on them); the removal keeps everything that belongs to the datasets that
remain (pins, notes, saved views are named by dataset id: :mod:`.page_state`), says what it
dropped and offers *Undo*. For the dataset's owner the server deletes it only when the undo
window has passed (:mod:`.server.removals`); for anyone else it only leaves their page. The
record of a removal (``ids.REMOVED``) is what *Undo* restores: the dataset at its place in
the list and its pins (:mod:`.features.pins` reads it), and the settings the removal moved
off the dataset (:func:`moved_settings`): the deployment prior's source and the Monitor's
windows, put back by *Undo* unless they were changed meanwhile (then it says so), and the
Slices card's model and columns when its model was the dataset's (:func:`slices_on`, put
back by the card's choice callback: :func:`slices_back`). A link or saved view that leaves
out a dataset the tab had loaded says so (:func:`left_out`).

Below the features: the data feature's callback calls these functions; everything here is a
plain function of the store and the page's values.
"""

from __future__ import annotations

import dataclasses
import datetime
import math
import time

import numpy as np
from dash import html

from ..core.decisions.operating import PIN_LABELS
from ..text.rounding import rule_threshold
from . import ids
from .analysis import dataset_labels, loaded_infos
from .page_state import Pin, key_ref, pins_of
from .server.removals import undo_seconds
from .server.store import DEMO_ID, DatasetStore, clean_ids
from .state import clean_pins

__all__ = ["pins_on", "pins_after", "as_shown", "confirm_box", "remove", "undo", "pin_words",
           "recall", "moved_settings", "restored_settings", "settings_now", "windows_now",
           "shown_back", "vertex_threshold", "slices_on", "slices_words", "slices_back", "left_out"]


def pins_on(pins, dataset_id: str) -> list[Pin]:
    """The pins (``ids.PINNED`` store) on the models of ``dataset_id``."""
    return [p for p in pins_of(pins) if p.model.dataset == dataset_id]


def pin_words(pins: list[Pin]) -> str:
    """``"pin A (rf at score ≥ 0.5)"``, ``"pins A (…) and C (…)"``."""
    if not pins:
        return ""
    parts = [f"{p.label} ({p.model.name} at score ≥ "
             f"{rule_threshold(math.inf if p.threshold is None else p.threshold)})" for p in pins]
    return ("pin " if len(parts) == 1 else "pins ") + " and ".join(
        [", ".join(parts[:-1]), parts[-1]] if len(parts) > 1 else parts)


def _label(store: DatasetStore, datasets, dataset_id: str) -> str:
    infos, _ = loaded_infos(store, datasets)
    labels = dict(zip((i.id for i in infos), dataset_labels(infos), strict=True))
    return labels.get(dataset_id) or (store.gone(dataset_id) or {}).get("label") or \
        f"the dataset {dataset_id[:8]}…"


def _models_words(store: DatasetStore, dataset_id: str) -> str:
    try:
        models = list(store.info(dataset_id).models)
    except Exception:  # noqa: BLE001 - gone meanwhile: nothing to name
        return "its models"
    shown = ", ".join(map(str, models[:6])) + (f" and {len(models) - 6} more"
                                               if len(models) > 6 else "")
    return f"its model{'s' if len(models) != 1 else ''} {shown}"


def _owned(store: DatasetStore, dataset_id: str, owner) -> bool:
    try:
        info = store.info(dataset_id)
    except Exception:  # noqa: BLE001
        return False
    return owner is not None and info.owner == owner


def _button(text: str, kind: str, dataset_id: str, cls: str = "button light-dark"):
    return html.Button(text, id={"type": kind, "index": dataset_id}, n_clicks=0,
                       className=cls)


def as_shown(store: DatasetStore, dataset_id: str, pins: list[Pin]) -> list[Pin]:
    """The pins with their thresholds as the views show them: a typed threshold is the
    vertex it falls on, the lowest score of the model at or above it (one vertex per distinct
    score, Fawcett 2004 section 4; ``+inf`` above every score). As typed when the table
    cannot be read."""
    typed = [p for p in pins if p.threshold is not None]
    if not typed:
        return pins
    try:
        table = store.get(dataset_id)
    except Exception:  # noqa: BLE001 - gone meanwhile: say the pins as typed
        return pins
    out = []
    for p in pins:
        if p.threshold is None:
            out.append(p)
            continue
        scores = table["score"].to_numpy()[(table["model"] == p.model.name).to_numpy()]
        out.append(dataclasses.replace(p, threshold=vertex_threshold(scores, p.threshold)))
    return out


def vertex_threshold(scores, threshold: float) -> float | None:
    """The threshold of the vertex a typed ``threshold`` falls on: the lowest of ``scores``
    at or above it, which flags the same cases (one vertex per distinct score, Fawcett 2004
    section 4); None (``+inf``) when it is above every score."""
    scores = np.asarray(scores, dtype=float)
    above = scores[scores >= threshold]
    return float(np.min(above)) if above.size else None


_CARD = "the Slices card's model "


def slices_on(settings, dataset_id: str) -> dict | None:
    """The Slices card's choice (``settings["slices"]``: its model's key, the column and
    the crossed one) when its model is one of ``dataset_id``'s: what the dataset's removal
    takes off the card and *Undo* puts back; None otherwise."""
    raw = settings.get("slices") if isinstance(settings, dict) else None
    if not isinstance(raw, dict) or getattr(key_ref(raw.get("model")), "dataset",
                                            None) != dataset_id:
        return None
    return {k: raw.get(k) if isinstance(raw.get(k), str) and raw.get(k) else None
            for k in ("model", "column", "cross")}


def slices_words(slices: dict | None) -> str:
    """``"the Slices card's model LogReg (sliced by sex × region)"``; "" without one."""
    if not slices:
        return ""
    cut = " × ".join(c for c in (slices.get("column"), slices.get("cross")) if c)
    return (f"{_CARD}{key_ref(slices['model']).name}"
            + (f" (sliced by {cut})" if cut else ""))


def _window_words(settings, dataset_id: str) -> str:
    return ("its place among the Monitor's windows"
            if dataset_id in _settings(settings)["windows"] else "")


def _leave(goes: list[str]) -> str:
    """``"A leaves"``, ``"A and B leave"``: one subject in the singular takes "leaves"."""
    plural = len(goes) > 1 or goes[0].startswith(("its models", "pins "))
    return f"{' and '.join(goes)} {'leave' if plural else 'leaves'}"


def confirm_box(store: DatasetStore, datasets, dataset_id: str, pins, owner, settings=None):
    """The question asked by a dataset's ×: what goes with it (pins at the thresholds the
    views show, the Slices card's choice when its model is the dataset's, its place among
    the Monitor's windows: ``settings``, as :func:`remove` takes them), what the server
    does, and the two answers."""
    label = _label(store, datasets, dataset_id)
    goes = [_models_words(store, dataset_id)]
    words = pin_words(as_shown(store, dataset_id, pins_on(pins, dataset_id)))
    if words:
        goes.append(words)
    goes += [w for w in (slices_words(slices_on(settings, dataset_id)),
                         _window_words(settings, dataset_id)) if w]
    minutes = undo_seconds() / 60
    server = (f"It is deleted from the server {minutes:.0f} minutes later, unless you undo "
              "the removal." if _owned(store, dataset_id, owner) else
              "It stays on the server (only its uploader can delete it).")
    return html.Div(className="removal confirm", role="alertdialog", children=[
        html.P([html.B(f"Remove {label}?"), f" {_leave(goes)} the page; "
                "everything of the other datasets stays. " + server]),
        html.Div(className="removal-buttons", children=[
            _button("Remove", ids.REMOVE_YES, dataset_id, "button danger"),
            _button("Keep it", ids.REMOVE_NO, dataset_id)]),
    ])


def remove(store: DatasetStore, datasets, dataset_id: str, pins, owner, settings=None):
    """``(new ids, removal record, box)`` of a confirmed removal: the dataset off the page,
    its deletion from the server put off for the undo window (its owner's only), and what
    was dropped, with *Undo*. ``settings``: the page's settings that may name the dataset
    (:func:`moved_settings`); the record keeps them as they were and as they become
    (``record["after"]``, what the page shows now), and the dataset's models ticked among
    ``settings["models"]`` (``record["shown"]``, :func:`shown_back`)."""
    current = clean_ids(datasets)
    if dataset_id not in current:
        return current, None, None
    label = _label(store, current, dataset_id)
    models = _models_words(store, dataset_id)
    dropped = pins_on(pins, dataset_id)
    due = store.delete_later(dataset_id, user=owner)
    record = {"dataset": dataset_id, "label": label, "at": current.index(dataset_id),
              "pins": [p.to_store() for p in dropped], "due": due, "undone": False,
              "stamp": time.time()}
    remaining = [d for d in current if d != dataset_id]
    before = _settings(settings)
    after = moved_settings(before, dataset_id, remaining)
    record.update(before=before, after=after)
    shown = settings.get("models") if isinstance(settings, dict) else None
    if isinstance(shown, list):  # the dataset's models ticked: Undo ticks them again
        record["shown"] = [k for k in shown if isinstance(k, str)
                           and getattr(key_ref(k), "dataset", None) == dataset_id]
    slices = slices_on(settings, dataset_id)
    if slices:  # the card's model and columns: Undo puts them back
        record["slices"] = slices
    went = [models] + ([pin_words(as_shown(store, dataset_id, dropped))] if dropped else [])
    went += [w for w in (slices_words(slices), _window_words(before, dataset_id)) if w]
    until = (f"; it is deleted from the server at "
             f"{datetime.datetime.fromtimestamp(due).strftime('%H:%M')} unless you undo"
             if due is not None else "")
    box = html.Div(className="removal done", role="status", children=[
        html.P([html.B(f"Removed {label}: "), f"{' and '.join(went)} left the page. The "
                "other datasets' "
                "pins, notes and saved views are kept; its own note and views stay with it "
                f"on the server{until}."
                f"{_prior_moved(store, remaining, before, after)}"]),
        _button("Undo", ids.UNDO_REMOVE, dataset_id)])
    return remaining, record, box


def undo(store: DatasetStore, datasets, record, current_pins=(), settings=None):
    """``(new ids, record, box)`` of *Undo*: the dataset back at its place (its deletion
    called off) and the record marked undone (its pins come back: named with the letters
    they take beside ``current_pins``; the settings the removal moved, ``settings`` being
    the page's now, as :func:`restored_settings` puts them back: ``record["restored"]``), or
    a box saying it is too late."""
    current = clean_ids(datasets)
    dataset_id = record.get("dataset") if isinstance(record, dict) else None
    if not dataset_id:
        return current, None, None
    label = record.get("label") or dataset_id
    if not store.cancel_delete(dataset_id):
        return current, None, html.Div(className="removal done", role="status", children=html.P(
            f"{label} was deleted from the server already: it cannot come back. Upload its "
            "files again."))
    at = record.get("at") if isinstance(record.get("at"), int) else len(current)
    new = current if dataset_id in current else \
        current[:at] + [dataset_id] + current[at:]
    record = {**record, "undone": True, "stamp": time.time()}
    # named by the letters they come back with (a letter taken meanwhile: the first free)
    pins = pins_on(pins_after(clean_pins(current_pins), record), dataset_id)
    back = f", with {pin_words(as_shown(store, dataset_id, pins))}" if pins else ""
    restored, prior, window = restored_settings(record, _settings(settings))
    record["restored"] = restored
    words = []
    if prior == restored["source"] == dataset_id:
        words.append("The deployment prior is its prevalence again, as before the removal.")
    elif prior is not None:
        words.append(f"The deployment prior stays the prevalence of {_label(store, new, prior)}"
                     ", chosen after the removal: choose this dataset under “Use the data's "
                     "prevalence … of” to go back to its prevalence.")
    if window:
        words.append("It is a window of the Monitor tab again.")
    if record.get("slices"):
        words.append("The Slices card is back on "
                     f"{slices_words(record['slices']).removeprefix(_CARD)}.")
    said = " ".join([f"{label} is back{back}.", *words])
    return new, record, html.Div(className="removal done", role="status", children=html.P(said))


def _settings(raw) -> dict:
    """The settings a removal may move (``{"source", "windows", "auto"}``), cleaned: the
    prior's source (a dataset id or None), the Monitor's windows (dataset and window-file
    ids) and whether the prior follows the source (``"auto"``: not typed)."""
    raw = raw if isinstance(raw, dict) else {}
    source = raw.get("source")
    windows = raw.get("windows")
    return {"source": source if isinstance(source, str) and clean_ids([source]) else None,
            "windows": [w for w in windows if isinstance(w, str)]
            if isinstance(windows, list) else [],
            "auto": raw.get("auto") is not False}


def moved_settings(before: dict, dataset_id: str, remaining: list[str]) -> dict:
    """The settings once ``dataset_id`` left the page (``remaining``: the datasets that
    stay): the deployment prior's source, when it was that dataset, moves to the last
    dataset that stays (as a page without a chosen source takes it); the dataset is no
    longer a Monitor window (a link would carry it as ``mwin=``)."""
    before = _settings(before)
    source = before["source"]
    if source == dataset_id:
        source = remaining[-1] if remaining else None
    return {**before, "source": source,
            "windows": [w for w in before["windows"] if w != dataset_id]}


def restored_settings(record: dict, now: dict) -> tuple[dict, str | None, bool]:
    """``(settings, prior, window)``: the settings *Undo* leaves (``now``: the page's at the
    time), the dataset whose prevalence the prior follows when *Undo* should say so (the
    removed dataset: put back; another: chosen since the removal, kept; None: nothing to
    say, the prior being typed or untouched) and whether the dataset is a Monitor window
    again. The prior's source goes back to the removed dataset when it was the source and
    nobody chose another since the removal; the dataset is a window again at its place
    when it was one."""
    gone = record.get("dataset")
    before, after, now = (_settings(record.get(k)) if k != "now" else _settings(now)
                          for k in ("before", "after", "now"))
    out, prior = dict(now), None
    if before["source"] == gone and now["source"] != gone:
        if now["source"] in (after["source"], None):
            out["source"] = gone
        prior = out["source"] if now["auto"] else None
    window = gone in before["windows"] and gone not in now["windows"]
    if window:
        at = before["windows"].index(gone)
        out["windows"] = now["windows"][:at] + [gone] + now["windows"][at:]
    return out, prior, window


def shown_back(value: list[str], record) -> list[str]:
    """The models ticked (keys, ``value``) once *Undo* brought ``record``'s dataset back:
    its models as they were ticked before the removal (``record["shown"]``), not all of
    them as new models are; ``value`` as it is for anything else (a removal, a record made
    without the shown models)."""
    if not isinstance(record, dict) or not record.get("undone") or \
            not isinstance(record.get("shown"), list):
        return value
    gone = record.get("dataset")
    return [k for k in value if getattr(key_ref(k), "dataset", None) != gone
            or k in record["shown"]]


def slices_back(record) -> dict | None:
    """The Slices card's choice (model key, column, crossed column) *Undo* of ``record``
    puts back; None for a removal, or when the card's model was not the dataset's."""
    if not isinstance(record, dict) or not record.get("undone"):
        return None
    slices = record.get("slices")
    return slices if isinstance(slices, dict) and isinstance(slices.get("model"), str) \
        else None


def settings_now(record) -> dict | None:
    """The settings a removal record sets on the page: as the removal left them
    (``record["after"]``) or, undone, as *Undo* put them back (``record["restored"]``);
    None for anything else."""
    if not isinstance(record, dict):
        return None
    now = record.get("restored") if record.get("undone") else record.get("after")
    return _settings(now) if isinstance(now, dict) else None


def windows_now(record) -> list[str] | None:
    """The Monitor's windows a removal or its *Undo* set (the dataset taken out of them or
    put back), None when the dataset was no window (nothing to change)."""
    now = settings_now(record)
    if now is None or record.get("dataset") not in _settings(record.get("before"))["windows"]:
        return None
    return now["windows"]


def _prior_moved(store: DatasetStore, remaining, before: dict, after: dict) -> str:
    """The removal's words on the deployment prior, when it followed the removed dataset's
    prevalence and now follows another's (``remaining``: the datasets that stay)."""
    if not before["auto"] or before["source"] == after["source"] or after["source"] is None:
        return ""
    return (f" The deployment prior is now the prevalence of "
            f"{_label(store, remaining, after['source'])}.")


def pins_after(pins: list[dict], record: dict) -> list[dict]:
    """The pins (``ids.PINNED``, cleaned) once ``record``'s dataset was removed (its pins
    go) or, the record undone, brought back (they come back with their letters while free,
    else the first free letter, while there is room; all of them then in their letters'
    order)."""
    gone = record.get("dataset")
    kept = [p for p in pins if p.get("dataset") != gone]
    if not record.get("undone"):
        return kept
    for back in clean_pins(record.get("pins")):
        if back.get("dataset") != gone or len(kept) >= len(PIN_LABELS):
            continue
        taken = {p["label"] for p in kept}
        label = back["label"] if back["label"] not in taken else next(
            x for x in PIN_LABELS if x not in taken)
        kept.append({**back, "label": label})
    # listed (and linked: ``pin=``) in their letters' order, as they were pinned
    return sorted(kept, key=lambda p: PIN_LABELS.index(p["label"]))


def left_out(store: DatasetStore, before, opened) -> str:
    """A link or saved view opened in a tab that had other datasets loaded (``before``, the
    tab's; ``opened``, the link's): the sentence naming those the page no longer shows (still
    on the server; the demo data and datasets gone from the server are not named), "" when
    there are none. The page shows what the view saved; the browser's Back button returns
    to the page as it was."""
    opened = set(clean_ids(opened))
    gone = [d for d in store.present(clean_ids(before))
            if d not in opened and d != DEMO_ID]
    if not gone:
        return ""
    labels = [_label(store, before, d) for d in gone]
    names = labels[0] if len(labels) == 1 else f"{', '.join(labels[:-1])} and {labels[-1]}"
    return (f"Opening this left out {names}, loaded before (with what the page showed of "
            f"{'it' if len(labels) == 1 else 'them'}: pins, Monitor windows): "
            f"{'it stays' if len(labels) == 1 else 'they stay'} on the server, and the "
            "browser's Back button returns to the page as it was.")


def recall(store: DatasetStore, dataset_ids, owner) -> str:
    """A link or saved view opened with datasets whose deletion is put off (removed with ×,
    the undo window still open): the owner's own deletions are called off, as *Undo* does,
    since the page shows the dataset again (else the server would delete it under the page
    when the window passes); a deletion by someone else is said, with when it is due.
    Returns the sentence saying so ("" when there was none)."""
    back, due_later = [], []
    for dataset_id in clean_ids(dataset_ids):
        due = store.removal_due(dataset_id)
        if due is None:
            continue
        label = _label(store, dataset_ids, dataset_id)
        if _owned(store, dataset_id, owner) and store.cancel_delete(dataset_id):
            back.append(label)
        else:
            due_later.append(f"{label} (at "
                             f"{datetime.datetime.fromtimestamp(due).strftime('%H:%M')})")
    words = []
    if back:
        words.append(f"{', '.join(back)} had been removed: opening this brought "
                     f"{'it' if len(back) == 1 else 'them'} back, so "
                     f"{'its' if len(back) == 1 else 'their'} deletion from the server is "
                     "called off.")
    if due_later:
        words.append(f"Its owner removed {', '.join(due_later)}: it is deleted from the "
                     "server then. Download what you need before.")
    return " ".join(words)
