"""The note and the saved views of a set of datasets, and who may change them.
:class:`NotesAndViews` is mixed into :class:`.store.DatasetStore`.
"""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path

from ...text.invisible import without_invisible
from .dataset_ids import EXAMPLES, DatasetNotFound, NotAllowed, clean_ids


class NotesAndViews:
    """Notes and saved views of a :class:`~.store.DatasetStore` (which provides ``root``,
    ``info`` and ``_atomic_write``)."""

    MAX_NOTE = 5000
    MAX_VIEWS = 50
    READ_ONLY = ("Only the uploader of these datasets can change their note and saved views; "
                 "you can read them. (Add a dataset of your own to keep notes of your own.)")

    def _views_path(self, dataset_ids, owner: str | None = None) -> Path | None:
        """The file of the note and views of these datasets. Uploaded datasets have one,
        shared by everyone who opens them; the bundled examples alone have one per owner
        (nobody's note on the demo is shown to, or overwritten by, anyone else)."""
        ids_ = sorted(clean_ids(dataset_ids))
        if not ids_:
            return None
        if all(i in EXAMPLES for i in ids_):
            if owner is None:
                return None
            ids_ = [*ids_, f"#owner={owner}"]
        key = hashlib.sha256("|".join(ids_).encode()).hexdigest()[:40]
        folder = self.root / "views"
        folder.mkdir(parents=True, exist_ok=True)
        return folder / f"{key}.json"

    def can_write_notes(self, dataset_ids, owner: str | None) -> bool:
        """Whether ``owner`` may change the note and views of these datasets: every one of
        them exists, and ``owner`` uploaded one of them (the examples alone: their own)."""
        ids_ = clean_ids(dataset_ids)
        if owner is None or not ids_:
            return False
        uploaded = [i for i in ids_ if i not in EXAMPLES]
        try:
            owners = {self.info(i).owner for i in uploaded}
        except DatasetNotFound:
            return False
        return not uploaded or owner in owners

    def notes(self, dataset_ids, owner: str | None = None) -> dict:
        """``{"note": str, "views": [{"name", "query", "saved"}, ...]}`` for these datasets
        (as ``owner`` sees them: the examples alone have one per owner)."""
        path = self._views_path(dataset_ids, owner)
        empty = {"note": "", "views": []}
        if path is None or not path.exists():
            return empty
        try:
            raw = json.loads(path.read_text())
        except (OSError, ValueError):
            return empty
        if not isinstance(raw, dict):
            return empty
        self.used([f"#notes:{path.name}"])  # read: kept as long as the datasets are used
        views = [v for v in raw.get("views", []) if isinstance(v, dict)
                 and isinstance(v.get("name"), str) and isinstance(v.get("query"), str)]
        return {"note": str(raw.get("note", ""))[: self.MAX_NOTE], "views": views}

    def _write_notes(self, dataset_ids, data: dict, owner: str | None) -> None:
        ids_ = sorted(clean_ids(dataset_ids))
        missing = [i for i in ids_ if i not in EXAMPLES
                   and not (self.dir / f"{i}.json").exists()]
        if not ids_ or missing:
            raise DatasetNotFound("notes are kept only with datasets this server holds")
        if not self.can_write_notes(ids_, owner):
            raise NotAllowed(self.READ_ONLY)
        path = self._views_path(ids_, owner)
        private = owner if all(i in EXAMPLES for i in ids_) else None
        record = {"ids": ids_, "owner": private, "note": data["note"], "views": data["views"]}
        self._atomic_write(path, lambda p: Path(p).write_text(json.dumps(record)),
                           folder=path.parent)

    def save_note(self, dataset_ids, text: str, *, owner: str | None = None) -> str:
        """Keep a free-text note with these datasets; return it as kept (bounded). Raises
        :class:`NotAllowed` unless ``owner`` may (see :meth:`can_write_notes`)."""
        data = self.notes(dataset_ids, owner)
        # no invisible characters: a direction override showed "approved" as "devorppa"
        data["note"] = without_invisible(str(text or ""))[: self.MAX_NOTE]
        self._write_notes(dataset_ids, data, owner)
        return data["note"]

    def save_view(self, dataset_ids, name: str, query: str, *, owner: str | None = None
                  ) -> list[dict]:
        """Save (or replace) a named view: the page's query string (controls and pins)."""

        name = " ".join(without_invisible(str(name or "")).split())[:80]
        if not name:
            raise ValueError("a saved view needs a name")
        data = self.notes(dataset_ids, owner)
        views = [v for v in data["views"] if v["name"] != name]
        views.append({"name": name, "query": str(query or "")[:4000], "saved": time.time()})
        data["views"] = views[-self.MAX_VIEWS:]
        self._write_notes(dataset_ids, data, owner)
        return data["views"]

    def delete_view(self, dataset_ids, name: str, *, owner: str | None = None) -> list[dict]:
        data = self.notes(dataset_ids, owner)
        data["views"] = [v for v in data["views"] if v["name"] != name]
        self._write_notes(dataset_ids, data, owner)
        return data["views"]
