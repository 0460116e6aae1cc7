"""A dataset removed from the page is deleted from the server only after a while, so that the
removal can be undone (``ROC_DASH_UNDO_SECONDS``, default 600). :class:`PendingRemovals` is
mixed into :class:`.store.DatasetStore`.

The owner's × of the dataset list asks :meth:`PendingRemovals.delete_later`: a small file
``removals/<id>.json`` holds the time the deletion is due. Until then the dataset stays on the
server (its note and saved views too), *Undo* calls :meth:`PendingRemovals.cancel_delete`,
and any worker deletes what is due on its next request or sweep
(:meth:`PendingRemovals.run_due_removals`).
"""

from __future__ import annotations

import time

from .dataset_ids import EXAMPLES, DatasetNotFound, is_dataset_id

__all__ = ["undo_seconds", "PendingRemovals"]


def undo_seconds() -> float:
    """``ROC_DASH_UNDO_SECONDS`` (default 600): how long a removal can be undone (the
    dataset is deleted from the server after that)."""
    from .retention import env_number

    return env_number("ROC_DASH_UNDO_SECONDS", 600)


class PendingRemovals:
    """Deletions put off for the undo window (the store provides ``info``, ``delete``,
    ``objects``, ``_read_json`` and ``_write_json``)."""

    def _removal_path(self, dataset_id: str) -> str:
        return f"removals/{dataset_id}.json"

    def delete_later(self, dataset_id: str, *, user: str | None,
                     seconds: float | None = None) -> float | None:
        """Put off the deletion of ``dataset_id`` by its owner ``user`` by ``seconds``
        (:func:`undo_seconds`); return when it is due, or None when ``user`` may not delete
        it (anyone else only takes it off their page: nothing to undo on the server)."""
        if user is None or not self.may_delete(dataset_id, user):
            return None
        due = time.time() + (undo_seconds() if seconds is None else seconds)
        self._write_json(self._removal_path(dataset_id), {"due": due, "user": user})
        return due

    def may_delete(self, dataset_id: str, user: str | None) -> bool:
        """Whether ``user`` may delete ``dataset_id`` (a stored upload of theirs; with
        ``user`` None, the server itself: any stored upload)."""
        if dataset_id in EXAMPLES or not is_dataset_id(dataset_id):
            return False
        try:
            owner = self.info(dataset_id).owner
        except DatasetNotFound:
            return False
        return user is None or (owner is not None and owner == user)

    def removal_due(self, dataset_id: str) -> float | None:
        """When the put-off deletion of ``dataset_id`` is due, or None."""
        if not is_dataset_id(dataset_id):
            return None
        try:
            due = self._read_json(self._removal_path(dataset_id)).get("due")
        except (OSError, ValueError, AttributeError):
            return None
        return float(due) if isinstance(due, int | float) else None

    def cancel_delete(self, dataset_id: str) -> bool:
        """Undo a put-off deletion: True when the dataset is still stored (its deletion,
        if one was due, is called off)."""
        if is_dataset_id(dataset_id):
            self.objects.remove(self._removal_path(dataset_id))
        try:
            self.info(dataset_id)
        except DatasetNotFound:
            return False
        return True

    def run_due_removals(self, *, now: float | None = None) -> list[str]:
        """Delete the datasets whose put-off deletion is due; return their ids."""
        now = time.time() if now is None else now
        done = []
        for entry in self.objects.entries("removals"):
            if not entry.name.endswith(".json"):
                continue
            dataset_id = entry.name[: -len(".json")]
            key = self._removal_path(dataset_id)
            due = self.removal_due(dataset_id)
            if due is not None and due > now:
                continue
            try:
                user = self._read_json(key).get("user")
            except (OSError, ValueError, AttributeError):
                user = None
            if is_dataset_id(dataset_id) and self.delete(dataset_id, user=user):
                done.append(dataset_id)
            self.objects.remove(key)
        return done
