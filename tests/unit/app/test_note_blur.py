"""Leaving the notes box without typing saves nothing and says nothing (nbl001; stranger
review 11, item 15: "Note saved." appeared after a keyboard Tab walk through the box)."""

from __future__ import annotations

from .server.test_ownership import Browser


def test_nbl001_a_blur_without_typing_neither_saves_nor_says_note_saved(app):
    ana = Browser(app, "A" * 32)
    ana.datasets = [ana.upload()]
    record = app.store.notes(ana.datasets)
    out = ana.notes("note.n_blur", **{"note.n_blur": 1, "note.value": ""})
    assert out == {}  # no update: no "Note saved.", nothing written
    assert app.store.notes(ana.datasets) == record
    out = ana.notes("note.n_blur", **{"note.n_blur": 2, "note.value": "Ship forest."})
    assert out["note-status"]["children"] == "Note saved."
    out = ana.notes("note.n_blur", **{"note.n_blur": 3, "note.value": "Ship forest."})
    assert out == {}  # the same text again: already saved, nothing said
    out = ana.notes("note.n_blur", **{"note.n_blur": 4, "note.value": ""})
    assert out["note-status"]["children"] == "Note saved."  # emptied on purpose: saved
    assert app.store.notes(ana.datasets)["note"] == ""
