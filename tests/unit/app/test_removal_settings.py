"""What a dataset's removal moves off it and *Undo* puts back (rms001-rms003): the deployment
prior's source and the Monitor's windows (a link's ``psrc=`` and ``mwin=``), and the pins
back in their letters' order."""

from __future__ import annotations

import pandas as pd
import pytest

from roc_dash.app.features.data import apply_upload
from roc_dash.app.features.pins import after_removal
from roc_dash.app.monitor_state import MonitorState
from roc_dash.app.page_state import PageState, pins_of
from roc_dash.app.removal import remove, settings_now, undo, windows_now
from roc_dash.app.server.store import DatasetStore
from tests.conftest import make_predictions

OWNER = "key:ana"
WINDOW_FILE = "f" * 32  # a window file's id beside the datasets in the Monitor's windows


@pytest.fixture
def three(tmp_path, monkeypatch):
    """A store with three uploads by OWNER (models rf, lr): (store, a, b, c)."""
    import roc_dash.app.features.data as data

    monkeypatch.setattr(data, "current_owner", lambda: OWNER)
    store = DatasetStore(tmp_path)
    loaded: list[str] = []
    for name, seed in (("a.csv", 1), ("b.csv", 5), ("c.csv", 9)):
        raw = pd.concat([make_predictions(120, seed=seed + k, model=m)
                         for k, m in enumerate(("rf", "lr"))]).to_csv(index=False).encode()
        loaded = apply_upload(store, [(name, raw)], loaded).dataset_ids
    return (store, *loaded)


def test_rms001_undo_puts_the_priors_source_and_the_window_back(three):
    store, a, b, c = three
    before = {"source": b, "windows": [a, b, WINDOW_FILE], "auto": True}
    new, record, box = remove(store, [a, b, c], b, [], OWNER, before)
    assert new == [a, c]
    # the prior followed b: it now follows the last dataset that stays, and says so
    assert record["after"]["source"] == c
    assert "The deployment prior is now the prevalence of c.csv." in str(box)
    # b is no window any more: the link carries no mwin= naming it
    assert record["after"]["windows"] == [a, WINDOW_FILE]
    link = PageState(datasets=tuple(new), prior_source=record["after"]["source"],
                     monitor=MonitorState(windows=tuple(record["after"]["windows"]))).to_query()
    assert b not in link and c in link

    # what the models callback (the source) and the Monitor's callback (the windows) set
    assert settings_now(record) == record["after"]
    assert windows_now(record) == [a, WINDOW_FILE]
    back, undone, box = undo(store, new, record, [], record["after"])
    assert settings_now(undone) == undone["restored"]
    assert windows_now(undone) == [a, b, WINDOW_FILE]
    assert back == [a, b, c]
    assert undone["restored"]["source"] == b
    assert undone["restored"]["windows"] == [a, b, WINDOW_FILE]  # at its place
    said = str(box)
    assert "The deployment prior is its prevalence again" in said
    assert "a window of the Monitor tab again" in said


def test_rms002_undo_keeps_a_source_chosen_after_the_removal_and_says_so(three):
    store, a, b, c = three
    new, record, _ = remove(store, [a, b, c], c, [], OWNER,
                            {"source": c, "windows": [], "auto": True})
    assert record["after"]["source"] == b
    assert windows_now(record) is None and settings_now("not a record") is None
    chosen = {"source": a, "windows": [], "auto": True}  # chosen in the list meanwhile
    _, undone, box = undo(store, new, record, [], chosen)
    assert undone["restored"] == chosen
    assert "stays the prevalence of a.csv, chosen after the removal" in str(box)
    # a typed prior: the source goes back silently (it does not set the prior)
    _, record, box = remove(store, [a, b, c], c, [], OWNER,
                            {"source": c, "windows": [], "auto": False})
    assert "deployment prior" not in str(box)
    _, undone, box = undo(store, [a, b], record, [], record["after"])
    assert undone["restored"]["source"] == c and "deployment prior" not in str(box)



def test_rms003_pins_brought_back_are_in_their_letters_order(three):
    store, a, b, c = three
    pins = [{"label": "A", "dataset": b, "model": "rf", "threshold": 0.5},
            {"label": "B", "dataset": a, "model": "lr", "threshold": 0.2},
            {"label": "C", "dataset": b, "model": "lr", "threshold": 0.4}]
    new, record, _ = remove(store, [a, b, c], b, pins, OWNER)
    kept = after_removal(pins, record)
    assert kept == [pins[1]]
    _, undone, _ = undo(store, new, record, kept)
    back = after_removal(kept, undone)
    assert [p["label"] for p in back] == ["A", "B", "C"] and back == pins
    link = PageState(datasets=(a, b, c), pins=pins_of(back)).to_query()
    letters = [part.split("=")[1][0] for part in link.lstrip("?").split("&")
               if part.startswith("pin=")]
    assert letters == ["A", "B", "C"]


def test_rms004_undo_ticks_the_datasets_models_as_they_were(three):
    from roc_dash.app.removal import shown_back

    store, a, b, c = three
    every = [f"{d}/{m}" for d in (a, b, c) for m in ("rf", "lr")]
    ticked = [f"{a}/rf", f"{b}/lr", f"{c}/rf", f"{c}/lr"]  # b's rf unticked before
    new, record, _ = remove(store, [a, b, c], b, [], OWNER,
                            {"source": None, "windows": [], "models": ticked})
    assert record["shown"] == [f"{b}/lr"]
    assert shown_back(every, record) == every  # the removal itself changes nothing
    _, undone, _ = undo(store, new, record, [])
    # the models callback shows b's models as new ones: Undo keeps b's rf unticked
    others = [k for k in ticked if not k.startswith(b)]
    back = shown_back(others + [f"{b}/rf", f"{b}/lr"], undone)
    assert back == others + [f"{b}/lr"]
    # a record made without the shown models leaves the selection as it is
    assert shown_back(every, {**undone, "shown": None}) == every


def test_rms005_undo_words_the_kept_source_it_is_given(three):
    from roc_dash.app.removal import restored_settings

    store, a, b, c = three
    new, record, _ = remove(store, [a, b, c], c, [], OWNER,
                            {"source": c, "windows": [c], "auto": True})
    settings, prior, window = restored_settings(
        record, {"source": a, "windows": [], "auto": True})
    assert (settings["source"], prior, window) == (a, a, True)
    settings, prior, _ = restored_settings(record, record["after"])
    assert (settings["source"], prior) == (c, c)
    _, prior, _ = restored_settings(record, {**record["after"], "auto": False})
    assert prior is None  # a typed prior: nothing said
    _, _, box = undo(store, new, record, [], {"source": a, "windows": [], "auto": True})
    assert "{other}" not in str(box) and "stays the prevalence of a.csv" in str(box)
