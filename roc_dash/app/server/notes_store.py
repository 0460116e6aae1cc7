"""The notes and saved views kept with the datasets, and who may change them.
:class:`NotesAndViews` is mixed into :class:`.store.DatasetStore`.

Each dataset has its own record (a note, the time it was written, and the saved views made
while it was loaded, each naming the datasets it was saved with): the page shows, for the
datasets it has loaded, the newest note among theirs and every view of any of them. So a
note written with one dataset stays when a second is added, and when that one is removed
again; a view saved with two datasets stays with the one that remains (opening it says what
of the other could not be restored). Records written before (one per set of datasets) are
still read for that same set.
"""

from __future__ import annotations

import hashlib
import time

from ...text.invisible import without_invisible
from .dataset_ids import EXAMPLES, DatasetNotFound, NotAllowed, clean_ids


class NotesAndViews:
    """Notes and saved views of a :class:`~.store.DatasetStore` (which provides ``info``,
    ``objects``, ``_read_json`` and ``_write_json``)."""

    MAX_NOTE = 5000
    MAX_VIEWS = 50
    READ_ONLY = ("Only the uploader of these datasets can change their note and saved views; "
                 "you can read them. (Add a dataset of your own to keep notes of your own.)")

    def _record_path(self, ids_: list[str], owner: str | None) -> str | None:
        """The key (:mod:`.objects`) of the record of the datasets ``ids_`` (one id: a dataset's own record;
        several: a record written before records were kept per dataset). The bundled
        examples alone have one per owner (nobody's note on the demo is shown to, or
        overwritten by, anyone else)."""
        ids_ = sorted(ids_)
        if not ids_:
            return None
        if all(i in EXAMPLES for i in ids_):
            if owner is None:
                return None
            ids_ = [*ids_, f"#owner={owner}"]
        key = hashlib.sha256("|".join(ids_).encode()).hexdigest()[:40]
        return f"views/{key}.json"

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

    def _writable(self, dataset_ids, owner: str | None) -> list[str]:
        """The datasets whose own records ``owner`` writes: the examples (their own record
        of them) and the datasets they uploaded."""
        out = []
        for i in clean_ids(dataset_ids):
            if i in EXAMPLES:
                out.append(i)
                continue
            try:
                if owner is not None and self.info(i).owner == owner:
                    out.append(i)
            except DatasetNotFound:
                continue
        return out

    def _read(self, key: str | None) -> dict | None:
        if key is None:
            return None
        try:
            raw = self._read_json(key)
        except (OSError, ValueError):  # FileNotFoundError too: no record yet
            return None
        if not isinstance(raw, dict):
            return None
        self.used([f"#notes:{key.split('/', 1)[1]}"])  # read: kept as long as the datasets are used
        return raw

    @staticmethod
    def _views_of(raw: dict, ids_: list[str]) -> list[dict]:
        return [{**v, "datasets": [d for d in v.get("datasets", ids_) if isinstance(d, str)]}
                for v in raw.get("views", []) if isinstance(v, dict)
                and isinstance(v.get("name"), str) and isinstance(v.get("query"), str)]

    def notes(self, dataset_ids, owner: str | None = None) -> dict:
        """``{"note": str, "views": [{"name", "query", "saved", "datasets"}, ...]}`` of
        these datasets as ``owner`` sees them: the newest note among the datasets' records
        and every view of any of them (one per name, the latest), oldest first."""
        ids_ = clean_ids(dataset_ids)
        records = [(self._read(self._record_path([i], owner)), [i]) for i in ids_]
        if len(ids_) > 1:  # a record of this very set, written before records were per dataset
            records.append((self._read(self._record_path(ids_, owner)), ids_))
        note, newest, views = "", -1.0, {}
        for raw, where in records:
            if raw is None:
                continue
            saved = raw.get("note_saved", 0.0)
            saved = float(saved) if isinstance(saved, int | float) else 0.0
            text = str(raw.get("note", ""))[: self.MAX_NOTE]
            if text and saved > newest:
                note, newest = text, saved
            for view in self._views_of(raw, where):
                old = views.get(view["name"])
                if old is None or view.get("saved", 0) >= old.get("saved", 0):
                    views[view["name"]] = view
        ordered = sorted(views.values(), key=lambda v: v.get("saved", 0))
        return {"note": note, "views": ordered[-self.MAX_VIEWS:]}

    def _change(self, dataset_ids, owner: str | None, change) -> None:
        """Apply ``change(record)`` to the record of each dataset ``owner`` may write (and to
        an older record of the whole set, when there is one); raises
        :class:`DatasetNotFound` or :class:`NotAllowed` as :meth:`can_write_notes` says."""
        ids_ = sorted(clean_ids(dataset_ids))
        missing = [i for i in ids_ if i not in EXAMPLES
                   and not self.objects.exists(f"datasets/{i}.json")]
        if not ids_ or missing:
            raise DatasetNotFound("notes are kept only with datasets this server holds")
        if not self.can_write_notes(ids_, owner):
            raise NotAllowed(self.READ_ONLY)
        targets = [[i] for i in self._writable(ids_, owner)]
        older = self._record_path(ids_, owner) if len(ids_) > 1 else None
        if older is not None and self.objects.exists(older):
            targets.append(ids_)
        for where in targets:
            path = self._record_path(where, owner)
            raw = self._read(path) or {}
            record = {"ids": where, "owner": owner if all(i in EXAMPLES for i in where)
                      else None, "note": str(raw.get("note", "")),
                      "note_saved": raw.get("note_saved", 0.0),
                      "views": self._views_of(raw, where)}
            change(record)
            record["views"] = record["views"][-self.MAX_VIEWS:]
            self._write_json(path, record)

    def save_note(self, dataset_ids, text: str, *, owner: str | None = None) -> str:
        """Keep a free-text note with these datasets (each dataset ``owner`` may write keeps
        it); return it as kept (bounded). Raises :class:`NotAllowed` unless ``owner`` may
        (see :meth:`can_write_notes`)."""
        # no invisible characters: a direction override showed "approved" as "devorppa"
        kept = without_invisible(str(text or ""))[: self.MAX_NOTE]
        now = time.time()

        def change(record):
            record["note"], record["note_saved"] = kept, now

        self._change(dataset_ids, owner, change)
        return kept

    def save_view(self, dataset_ids, name: str, query: str, *, owner: str | None = None
                  ) -> list[dict]:
        """Save (or replace) a named view: the page's query string (its state), with the
        datasets it was saved with; kept with each of them ``owner`` may write."""

        name = " ".join(without_invisible(str(name or "")).split())[:80]
        if not name:
            raise ValueError("a saved view needs a name")
        view = {"name": name, "query": str(query or "")[:4000], "saved": time.time(),
                "datasets": clean_ids(dataset_ids)}

        def change(record):
            record["views"] = [v for v in record["views"] if v["name"] != name] + [view]

        self._change(dataset_ids, owner, change)
        return self.notes(dataset_ids, owner)["views"]

    def delete_view(self, dataset_ids, name: str, *, owner: str | None = None) -> list[dict]:
        """Delete the view ``name`` from the records of these datasets ``owner`` may write."""

        def change(record):
            record["views"] = [v for v in record["views"] if v["name"] != name]

        self._change(dataset_ids, owner, change)
        return self.notes(dataset_ids, owner)["views"]
