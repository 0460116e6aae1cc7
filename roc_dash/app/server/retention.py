"""How long datasets stay and how much room they may take: expiry after the last use, the
data folder's quota and each user's, and the collection of orphaned files
(``ROC_DASH_DATASET_TTL_DAYS``, ``ROC_DASH_DATA_QUOTA_MB``, ``ROC_DASH_USER_QUOTA_MB``,
``ROC_DASH_SWEEP_SECONDS``). :class:`Retention` is mixed into :class:`.store.DatasetStore`.
"""

from __future__ import annotations

import contextlib
import threading
import time
from pathlib import Path

from .dataset_ids import EXAMPLES, StorageFull, clean_ids, folder_bytes, is_dataset_id
from .env_settings import env_number  # noqa: F401 - also imported from here


def dataset_ttl_seconds() -> float:
    """``ROC_DASH_DATASET_TTL_DAYS`` (default 30): a dataset nobody opened for that long is
    deleted."""
    return env_number("ROC_DASH_DATASET_TTL_DAYS", 30) * 86400


def data_quota_bytes() -> int:
    """``ROC_DASH_DATA_QUOTA_MB`` (default 5120): the most everything under the data folder
    may take (datasets, uploads arriving, rejected uploads kept, notes, the analysis cache,
    temporary files); the least recently used datasets are deleted first to make room."""
    return int(env_number("ROC_DASH_DATA_QUOTA_MB", 5120) * 2**20)


def min_free_bytes() -> int:
    """``ROC_DASH_MIN_FREE_MB`` (default 64): below this much free disk in the data folder
    ``/health`` says degraded and ``/ready`` not ready."""
    return int(env_number("ROC_DASH_MIN_FREE_MB", 64) * 2**20)


def user_quota_bytes() -> int:
    """``ROC_DASH_USER_QUOTA_MB`` (default: a quarter of the data quota): with sign-in, the
    most one user's datasets may take; their own least recently used go first."""
    return int(env_number("ROC_DASH_USER_QUOTA_MB", data_quota_bytes() / 4 / 2**20) * 2**20)


def sweep_seconds() -> float:
    """``ROC_DASH_SWEEP_SECONDS`` (default 300): how often expired datasets and orphaned
    files are collected (on the clock of incoming requests, also /health, in one worker)."""
    return env_number("ROC_DASH_SWEEP_SECONDS", 300)


#: Temporary files, half-written datasets and stale uploads older than this are orphans (a
#: worker was killed while writing them).
ORPHAN_SECONDS = 3600.0


class Retention:
    """Expiry, quotas and the periodic sweep of a :class:`~.store.DatasetStore` (which
    provides ``root``, ``dir``, ``info``, ``delete`` and the sweep's clock and lock)."""

    def _datasets_by_age(self) -> list[tuple[float, str, int, str | None]]:
        """``(last use, id, bytes, owner)`` of every stored dataset, least recently used
        first."""
        out = []
        listed = {e.name: e for e in self.objects.entries("datasets")}
        # a dataset's owner never changes: read from its sidecar once per process (on an
        # object store, a request per dataset and sweep otherwise)
        owners = self._owners
        for name in [n for n in owners if f"{n}.json" not in listed]:
            owners.pop(name, None)
        for name, meta in listed.items():
            if not name.endswith(".json"):
                continue
            dataset_id = name[: -len(".json")]
            table = listed.get(f"{dataset_id}.parquet")
            if dataset_id in owners:
                owner = owners[dataset_id]
            else:
                try:
                    owner = self._read_json(f"datasets/{name}").get("owner")
                except (OSError, ValueError, AttributeError):
                    continue
                owners[dataset_id] = owner
            size = meta.size + (table.size if table is not None else 0)
            out.append((meta.mtime, dataset_id, size, owner if isinstance(owner, str) else None))
        return sorted(out)

    def usage_bytes(self) -> int:
        """Bytes of everything under the data folder (what the quota counts, and what
        ``/health`` reports): datasets, uploads arriving, rejected uploads kept, notes, the
        shared analysis cache, temporary files; and, with an object store, what it holds)."""
        return folder_bytes(self.root) + self.objects.total_bytes()

    def sweep(self, *, now: float | None = None, need: int = 0, protect: str | None = None,
              owner: str | None = None, arriving: bool = False) -> list[str]:
        """Collect orphaned files and delete expired datasets; then, while everything under
        the data folder but uploads still arriving (they have their own cap,
        ``ROC_DASH_MAX_INCOMING_MB``) and ``need`` more bytes exceed the quota, delete the
        least recently used datasets (``owner``'s own first). With sign-in, ``owner``'s
        datasets are first cut to their per-user quota (their own least recently used go).
        ``arriving``: ``need`` bytes of an upload not yet read (it may be junk): only the
        per-user part applies; nobody else's dataset is deleted for it (the dataset made of
        it makes room when it is stored). Return the deleted ids. Raise
        :class:`StorageFull` if ``need`` bytes (or the dataset ``protect``, which is never
        deleted) do not fit even then."""
        from .auth import user_header

        now = time.time() if now is None else now
        ttl, quota = dataset_ttl_seconds(), data_quota_bytes()
        self.run_due_removals(now=now)  # removals whose undo window has passed
        self.collect_orphans(now=now)
        removed = []
        kept = []
        for entry in self._datasets_by_age():
            used, dataset_id, _size, _owner = entry
            if now - used > ttl and dataset_id != protect:
                self.delete(dataset_id, why="expired")
                removed.append(dataset_id)
            else:
                kept.append(entry)
        own = sum(size for _, i, size, _ in kept if i == protect)
        if need + own > quota:
            raise StorageFull(f"the data is larger than the server's storage quota "
                              f"({quota / 2**20:,.1f} MB, ROC_DASH_DATA_QUOTA_MB)")
        gone = set()
        if owner is not None and user_header() is not None:  # sign-in: per-user quota
            user_quota = user_quota_bytes()
            mine = [e for e in kept if e[3] == owner]
            mine_total = sum(e[2] for e in mine)
            if need + (own if any(e[1] == protect for e in mine) else 0) > user_quota:
                raise StorageFull(f"the data is larger than one user's storage quota "
                                  f"({user_quota / 2**20:,.1f} MB, ROC_DASH_USER_QUOTA_MB)")
            evicted, _ = self._evict(mine, mine_total, need, user_quota, protect,
                                     "removed to stay within your storage quota")
            removed += evicted
            gone.update(evicted)
        # uploads still arriving and rejected ones kept for a second reading have their own
        # caps and never make a dataset go
        total = (self.usage_bytes() - folder_bytes(self.root / "incoming")
                 - folder_bytes(self.root / "pending"))
        # the requester's own data first, then everyone's least recently used
        order = sorted((e for e in kept if e[1] not in gone),
                       key=lambda e: (owner is None or e[3] != owner, e[0]))
        evictable = sum(e[2] for e in order if e[1] != protect)
        if (protect is not None or need) and total - evictable + need > quota:
            # even deleting every other dataset would not make room: delete none
            raise StorageFull(f"the server's storage quota ({quota / 2**20:,.1f} MB, "
                              "ROC_DASH_DATA_QUOTA_MB) is full")
        if arriving:
            self._last_sweep = now
            return removed
        evicted, total = self._evict(order, total, need, quota, protect,
                                     "removed to stay within the storage quota")
        removed += evicted
        if (protect is not None or need) and total + need > quota:
            raise StorageFull(f"the server's storage quota ({quota / 2**20:,.1f} MB, "
                              "ROC_DASH_DATA_QUOTA_MB) is full")
        self._last_sweep = now
        return removed

    def _evict(self, entries, total, need, quota, protect, why):
        """Delete the datasets of ``entries`` (``(used, id, size, owner)``, in that order; never
        ``protect``) until ``total + need`` fits ``quota``; ``(ids deleted, total left)``."""
        evicted = []
        for _used, dataset_id, size, _ in entries:
            if total + need <= quota:
                break
            if dataset_id == protect:
                continue
            self.delete(dataset_id, why=why)
            evicted.append(dataset_id)
            total -= size
        return evicted, total

    def collect_orphans(self, *, now: float | None = None) -> list[Path]:
        """Delete what no one will read again: temporary files (``tmp*.tmp``) and half-written
        datasets left by a killed worker, uploads that never arrived completely, rejected
        uploads older than an hour, notes and views of datasets that are gone (and notes on
        the examples nobody opened for the retention time), old health probes."""
        import shutil

        now = time.time() if now is None else now
        old = now - ORPHAN_SECONDS
        ttl = dataset_ttl_seconds()
        removed: list[Path] = []

        def mtime(path: Path) -> float:
            try:
                return path.stat().st_mtime
            except OSError:
                return now

        def drop(path: Path) -> None:
            try:
                if path.is_dir():
                    shutil.rmtree(path, ignore_errors=True)
                else:
                    path.unlink(missing_ok=True)
                removed.append(path)
            except OSError:
                pass

        for folder in ("datasets", "pending", "views", "gone", "removals", "."):
            for tmp in (self.root / folder).glob("tmp*.tmp"):
                if mtime(tmp) < old:
                    drop(tmp)
        for probe in self.root.glob(".health-*"):
            if mtime(probe) < old:
                drop(probe)
        listed = {e.name: e for e in self.objects.entries("datasets")}
        for name, entry in listed.items():
            stem, kind = name.rsplit(".", 1)
            twin = f"{stem}.{'json' if kind == 'parquet' else 'parquet'}"
            if twin not in listed and entry.mtime < old:  # a dataset half written
                if not self.objects.exists(f"datasets/{twin}"):  # (not written since)
                    self.objects.remove(f"datasets/{name}")
                    removed.append(self._object_path(f"datasets/{name}"))
        incoming = self.root / "incoming"
        if incoming.is_dir():
            from .limits import unclaimed_seconds

            stale = now - unclaimed_seconds()
            for batch in incoming.iterdir():
                if mtime(batch) < stale:
                    drop(batch)
        pending = self.root / "pending"
        if pending.is_dir():
            self._prune_pending(pending)
        stored = {e.name for e in self.objects.entries("datasets")}
        for entry in self.objects.entries("views"):
            key = f"views/{entry.name}"
            try:
                raw = self._read_json(key)
                ids_ = raw.get("ids") if isinstance(raw, dict) else None
            except (OSError, ValueError):
                ids_ = None
            if not isinstance(ids_, list):  # unreadable, or from before ids were kept
                if entry.mtime < now - ttl:
                    self._drop_object(key, removed)
                continue
            uploaded = [i for i in ids_ if isinstance(i, str) and i not in EXAMPLES]
            if any(not is_dataset_id(i) or (f"{i}.json" not in stored and not
                                            self.objects.exists(f"datasets/{i}.json"))
                   for i in uploaded):
                self._drop_object(key, removed)  # a note about datasets that are gone
            elif not uploaded and entry.mtime < now - ttl:
                self._drop_object(key, removed)  # someone's note on the examples, unread
        return removed

    def _object_path(self, key: str) -> Path:
        """How :meth:`collect_orphans` names a removed object: its path under the data
        folder (with an object store, the same relative path)."""
        return self.root / key

    def _drop_object(self, key: str, removed: list) -> None:
        try:
            self.objects.remove(key)
            removed.append(self._object_path(key))
        except OSError:
            pass

    def maybe_sweep(self) -> bool:
        """Start a sweep in the background if none ran for :func:`sweep_seconds` (in any
        worker: the time is kept in ``<data dir>/.swept``); called on each request."""
        now = time.monotonic()
        interval = sweep_seconds()
        if now - self._sweep_clock < min(interval, 60.0):
            return False
        self._sweep_clock = now
        from .shared_state import redis_url, take_sweep_turn

        if redis_url() is not None:  # replicas: one sweep per interval across them all
            if not take_sweep_turn(interval) or not self._sweeping.acquire(blocking=False):
                return False
            threading.Thread(target=self._sweep_now, name="roc-dash-sweep",
                             daemon=True).start()
            return True
        stamp = self.root / ".swept"
        try:
            if time.time() - stamp.stat().st_mtime < interval:
                return False
        except OSError:
            pass
        if not self._sweeping.acquire(blocking=False):
            return False
        threading.Thread(target=self._sweep_in_background, name="roc-dash-sweep",
                         daemon=True).start()
        return True

    def _sweep_in_background(self) -> None:
        import fcntl

        def locked_sweep():
            with open(self.root / ".sweep.lock", "a") as lock:
                try:
                    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    return  # another worker is sweeping
                (self.root / ".swept").touch()
                self._sweep_logged()

        self._sweep_then_release(locked_sweep)

    def _sweep_now(self) -> None:
        """The sweep of the replica whose turn it is (``ROC_DASH_REDIS_URL``), in a thread."""
        self._sweep_then_release(self._sweep_logged)

    def _sweep_then_release(self, sweep) -> None:
        """``sweep()`` in the sweeping thread: what fails is logged, never raised (a failed
        sweep must not take a request down); the sweeping lock is released either way."""
        import logging

        try:
            sweep()
        except Exception:  # noqa: BLE001 - a failed sweep must not take a request down
            logging.getLogger(__name__).exception("roc-dash: the periodic sweep failed")
        finally:
            self._sweeping.release()

    def _sweep_logged(self) -> None:
        import logging

        removed = self.sweep()
        if removed:
            logging.getLogger(__name__).info("roc-dash: sweep removed %d dataset(s)",
                                             len(removed))

    def used(self, dataset_ids) -> None:
        """Mark datasets as used: every read counts (cache hits too), so a dataset people
        look at does not expire. At most one disk write per dataset per
        min(60 s, TTL / 10) in each worker."""
        now = time.monotonic()
        every = min(60.0, dataset_ttl_seconds() / 10)
        notes = [i for i in dataset_ids if isinstance(i, str) and i.startswith("#notes:")] \
            if isinstance(dataset_ids, list | tuple) else []
        for dataset_id in [*clean_ids(dataset_ids), *notes]:
            if dataset_id in EXAMPLES:
                continue
            if now - self._used.get(dataset_id, -1e18) < every:
                continue
            self._used[dataset_id] = now
            if len(self._used) > 100_000:
                self._used.clear()
            if dataset_id.startswith("#notes:"):
                with contextlib.suppress(OSError, ValueError):
                    self.objects.touch(f"views/{dataset_id.split(':', 1)[1]}")
            else:
                self._touch(dataset_id)

    def _touch(self, dataset_id: str) -> None:
        """Mark a dataset as used (its expiry counts from its last use)."""
        with contextlib.suppress(OSError, ValueError):
            self.objects.touch(f"datasets/{dataset_id}.json")
            # an object store writes the sidecar again: if another replica deleted the
            # dataset meanwhile, that must not bring its sidecar back
            if self.objects.shared and not self.objects.exists(
                    f"datasets/{dataset_id}.parquet"):
                self.objects.remove(f"datasets/{dataset_id}.json")
