"""Server-side dataset store: canonical tables on disk under unguessable ids.

An upload is parsed once, written as Parquet (plus a small JSON sidecar with its metadata) to
``<data dir>/datasets/<id>.parquet`` and only the id travels to the browser. Any gunicorn
worker can load any id, so the app works with several processes; each process keeps a small
in-memory cache of recently used tables. The bundled demo data has the fixed id ``demo`` and is
read from the package, not from disk.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import re
import secrets
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field, fields
from importlib import resources
from pathlib import Path

import pandas as pd

from ...io import load_predictions
from ...io.canonical import content_digest  # noqa: F401 - the app recognises files by it

DEMO_ID = "demo"
DEMO_FILE = "demo_predictions.csv"
#: The bundled example files, under fixed ids (read from the package like the demo; too short
#: to be mistaken for a stored id): the id, its file and how the data panel names it.
EXAMPLES = {
    DEMO_ID: (DEMO_FILE, "demo"),
    "demo-multiclass": ("multiclass_demo.csv", "multi-class example"),
    "demo-soft": ("soft_labels_demo.csv", "soft-label example"),
    "demo-leaves": ("tree_leaves_demo.csv", "tree-leaves example"),
}
_ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{20,64}$")


#: At most this many datasets are shown together (a request naming more is cut to this).
MAX_DATASETS = 20


def is_dataset_id(value) -> bool:
    """True for the fixed ids of the bundled examples (:data:`EXAMPLES`) and for ids of the
    form the store hands out."""
    return isinstance(value, str) and (value in EXAMPLES or bool(_ID_PATTERN.match(value)))


def clean_ids(values) -> list[str]:
    """A request's dataset ids, validated: strings of the right form, each once, at most
    :data:`MAX_DATASETS` (anything else a browser could send is dropped)."""
    if not isinstance(values, list | tuple):
        return []
    out: list[str] = []
    for v in values[: MAX_DATASETS * 4]:
        if is_dataset_id(v) and v not in out:
            out.append(v)
            if len(out) == MAX_DATASETS:
                break
    return out


def folder_bytes(root: str | os.PathLike) -> int:
    """Bytes of the files under ``root``, counted while other threads and workers may be
    deleting in it: a file or folder that vanishes during the walk is skipped, never an
    error (an upload batch removed by its owner's Cancel while another request counts)."""
    total = 0
    stack = [os.fspath(root)]
    while stack:
        folder = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                elif entry.is_file(follow_symlinks=False):
                    total += entry.stat(follow_symlinks=False).st_size
            except OSError:
                continue
    return total


def default_data_dir() -> Path:
    """``$ROC_DASH_DATA_DIR``, else the per-user cache folder (``$XDG_CACHE_HOME/roc-dash``)."""
    env = os.environ.get("ROC_DASH_DATA_DIR")
    if env:
        return Path(env)
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "roc-dash"


@dataclass(frozen=True)
class DatasetInfo:
    """What the app shows about a loaded dataset."""

    id: str
    files: tuple[str, ...]
    models: tuple[str, ...]
    n_rows: int
    notes: tuple[str, ...] = field(default=())
    digests: tuple[str, ...] = field(default=())
    """sha256 of each file's bytes: the same file uploaded again is recognised."""
    owner: str | None = None
    """The uploader, when sign-in is configured (see :mod:`.auth`)."""
    kind: str = "binary"
    """What the table holds: ``"binary"``, ``"multiclass"``, ``"soft"``, ``"costs"`` or
    ``"leaves"`` (see :mod:`roc_dash.core.canonical_kinds`); sidecars written before it existed load
    as ``"binary"``."""
    classes: tuple[str, ...] = ()
    """Multi-class: the classes, in score-column order (``score_<class>`` columns)."""
    reference_class: str | None = None
    """Multi-class: the class whose class reference view the stored ``label``/``score`` hold."""
    weights_are_costs: bool = False
    """The ``weight`` column holds example-specific costs (Fawcett 2004 s7.2)."""
    kind_column: str | None = None
    """The file column that made the kind (class, soft label, cost or leaf column)."""

    @property
    def input_kind(self):
        """The :class:`~roc_dash.core.canonical_kinds.InputKind` of the dataset."""
        from ...core.canonical_kinds import InputKind

        return InputKind(kind=self.kind, classes=self.classes,
                         reference_class=self.reference_class,
                         weights_are_costs=self.weights_are_costs,
                         source_column=self.kind_column)

    @property
    def label(self) -> str:
        """How the dataset is named in the page: its file names."""
        return ", ".join(self.files)


def _kind_fields(kind) -> dict:
    """DatasetInfo fields of an :class:`~roc_dash.core.canonical_kinds.InputKind` (None: binary)."""
    if kind is None:
        return {}
    return {"kind": kind.kind, "classes": tuple(kind.classes),
            "reference_class": kind.reference_class,
            "weights_are_costs": bool(kind.weights_are_costs),
            "kind_column": kind.source_column}


class DatasetNotFound(KeyError):
    """The id is unknown here (expired, deleted, or never existed)."""


class NotAllowed(PermissionError):
    """The request may read this but not change it (someone else's note, views, dataset)."""


class StorageFull(OSError):
    """No room for a new dataset: the data folder's quota or the disk itself is full."""


def _env_number(name: str, default: float) -> float:
    try:
        v = float(os.environ.get(name, default))
    except ValueError:
        return default
    return v if v > 0 else default


def dataset_ttl_seconds() -> float:
    """``ROC_DASH_DATASET_TTL_DAYS`` (default 30): a dataset nobody opened for that long is
    deleted."""
    return _env_number("ROC_DASH_DATASET_TTL_DAYS", 30) * 86400


def data_quota_bytes() -> int:
    """``ROC_DASH_DATA_QUOTA_MB`` (default 5120): the most everything under the data folder
    may take (datasets, uploads arriving, rejected uploads kept, notes, the analysis cache,
    temporary files); the least recently used datasets are deleted first to make room."""
    return int(_env_number("ROC_DASH_DATA_QUOTA_MB", 5120) * 2**20)


def user_quota_bytes() -> int:
    """``ROC_DASH_USER_QUOTA_MB`` (default: a quarter of the data quota): with sign-in, the
    most one user's datasets may take; their own least recently used go first."""
    return int(_env_number("ROC_DASH_USER_QUOTA_MB", data_quota_bytes() / 4 / 2**20) * 2**20)


def sweep_seconds() -> float:
    """``ROC_DASH_SWEEP_SECONDS`` (default 300): how often expired datasets and orphaned
    files are collected (on the clock of incoming requests, also /health, in one worker)."""
    return _env_number("ROC_DASH_SWEEP_SECONDS", 300)


#: Temporary files, half-written datasets and stale uploads older than this are orphans (a
#: worker was killed while writing them).
ORPHAN_SECONDS = 3600.0


class DatasetStore:
    """Canonical tables stored as Parquet under unguessable ids."""

    def __init__(self, root: str | os.PathLike | None = None, *, cache_mb: float | None = None):
        """``cache_mb``: the tables kept in this process's memory, least recently used out
        (default ``ROC_DASH_TABLE_CACHE_MB``, 64; a table over a quarter of it is read from
        its Parquet file each time: ~1 s for 10^7 rows, and the analyses are cached apart)."""
        from .cache import ByteLRU

        cache_mb = cache_mb or _env_number("ROC_DASH_TABLE_CACHE_MB", 64)
        self.root = Path(root) if root is not None else default_data_dir()
        self.dir = self.root / "datasets"
        self.dir.mkdir(parents=True, exist_ok=True)
        # A table too big for this cache is not held here even while in use: the analysis
        # cache holds the combined table made from it (two copies of 10^7 rows otherwise).
        self._cache = ByteLRU(int(cache_mb * 2**20), big_seconds=None)
        self._last_sweep = 0.0
        self._sweep_clock = time.monotonic()
        self._sweeping = threading.Lock()
        self._used: dict[str, float] = {}

    # -- lifecycle -----------------------------------------------------------------------
    def _files(self, dataset_id: str) -> list[Path]:
        return [self.dir / f"{dataset_id}.parquet", self.dir / f"{dataset_id}.json"]

    def delete(self, dataset_id: str, *, user: str | None = None, why: str = "removed"
               ) -> bool:
        """Remove a dataset and its files (the demo is not stored and stays). With ``user``
        given (a request's :func:`~.auth.current_owner`), only the dataset's owner may delete
        it (a dataset without an owner: nobody; it expires); without, the server itself
        deletes it (expiry, quota). Returns whether the files were deleted."""
        if dataset_id in EXAMPLES or not is_dataset_id(dataset_id):
            return False
        if user is not None:
            try:
                owner = self.info(dataset_id).owner
            except DatasetNotFound:
                return False
            if owner is None or owner != user:
                return False
        self._remember_gone(dataset_id, why)
        for path in self._files(dataset_id):
            path.unlink(missing_ok=True)
        self._cache.put(dataset_id, None, size=0)
        return True

    def _remember_gone(self, dataset_id: str, why: str) -> None:
        """A small note (``gone/<id>.json``: file names, date, why) so that a link naming a
        deleted dataset can say *which* files are missing; notes older than a year go."""

        try:
            info = self.info(dataset_id)
        except DatasetNotFound:
            return
        folder = self.root / "gone"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            note = {"label": info.label, "why": why, "when": time.time()}
            self._atomic_write(folder / f"{dataset_id}.json",
                               lambda p: Path(p).write_text(json.dumps(note)), folder=folder)
            for old in folder.glob("*.json"):
                if time.time() - old.stat().st_mtime > 365 * 86400:
                    old.unlink(missing_ok=True)
        except OSError:
            pass  # only a nicer message is lost

    def gone(self, dataset_id: str) -> dict | None:
        """What :meth:`_remember_gone` kept of a deleted dataset, or None."""
        if not is_dataset_id(dataset_id):
            return None
        try:
            data = json.loads((self.root / "gone" / f"{dataset_id}.json").read_text())
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def _datasets_by_age(self) -> list[tuple[float, str, int, str | None]]:
        """``(last use, id, bytes, owner)`` of every stored dataset, least recently used
        first."""
        out = []
        for meta in self.dir.glob("*.json"):
            dataset_id = meta.stem
            try:
                used = meta.stat().st_mtime
                size = sum(p.stat().st_size for p in self._files(dataset_id) if p.exists())
                owner = json.loads(meta.read_text()).get("owner")
            except (OSError, ValueError, AttributeError):
                continue
            out.append((used, dataset_id, size, owner if isinstance(owner, str) else None))
        return sorted(out)

    def usage_bytes(self) -> int:
        """Bytes of everything under the data folder (what the quota counts, and what
        ``/health`` reports): datasets, uploads arriving, rejected uploads kept, notes, the
        shared analysis cache, temporary files."""
        return folder_bytes(self.root)

    def sweep(self, *, now: float | None = None, need: int = 0, protect: str | None = None,
              owner: str | None = None) -> list[str]:
        """Collect orphaned files and delete expired datasets; then, while everything under
        the data folder and ``need`` more bytes exceed the quota, delete the least recently
        used datasets (``owner``'s own first). With sign-in, ``owner``'s datasets are first
        cut to their per-user quota (their own least recently used go). Return the deleted
        ids. Raise :class:`StorageFull` if ``need`` bytes (or the dataset ``protect``, which
        is never deleted) do not fit even then."""
        from .auth import user_header

        now = time.time() if now is None else now
        ttl, quota = dataset_ttl_seconds(), data_quota_bytes()
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
            for _used, dataset_id, size, _ in mine:
                if mine_total + need <= user_quota:
                    break
                if dataset_id == protect:
                    continue
                self.delete(dataset_id, why="removed to stay within your storage quota")
                removed.append(dataset_id)
                gone.add(dataset_id)
                mine_total -= size
        total = self.usage_bytes()
        # the requester's own data first, then everyone's least recently used
        order = sorted((e for e in kept if e[1] not in gone),
                       key=lambda e: (owner is None or e[3] != owner, e[0]))
        evictable = sum(e[2] for e in order if e[1] != protect)
        if (protect is not None or need) and total - evictable + need > quota:
            # even deleting every other dataset would not make room: delete none
            raise StorageFull(f"the server's storage quota ({quota / 2**20:,.1f} MB, "
                              "ROC_DASH_DATA_QUOTA_MB) is full")
        for _used, dataset_id, size, _ in order:
            if total + need <= quota:
                break
            if dataset_id == protect:
                continue
            self.delete(dataset_id, why="removed to stay within the storage quota")
            removed.append(dataset_id)
            total -= size
        if (protect is not None or need) and total + need > quota:
            raise StorageFull(f"the server's storage quota ({quota / 2**20:,.1f} MB, "
                              "ROC_DASH_DATA_QUOTA_MB) is full")
        self._last_sweep = now
        return removed

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

        for folder in ("datasets", "pending", "views", "gone", "."):
            for tmp in (self.root / folder).glob("tmp*.tmp"):
                if mtime(tmp) < old:
                    drop(tmp)
        for probe in self.root.glob(".health-*"):
            if mtime(probe) < old:
                drop(probe)
        for path in list(self.dir.glob("*.parquet")) + list(self.dir.glob("*.json")):
            twin = path.with_suffix(".json" if path.suffix == ".parquet" else ".parquet")
            if not twin.exists() and mtime(path) < old:  # a dataset half written
                drop(path)
        incoming = self.root / "incoming"
        if incoming.is_dir():
            from .limits import upload_timeout

            stale = now - max(ORPHAN_SECONDS, 2 * upload_timeout())
            for batch in incoming.iterdir():
                if mtime(batch) < stale:
                    drop(batch)
        pending = self.root / "pending"
        if pending.is_dir():
            for path in pending.iterdir():
                if mtime(path) < old:
                    drop(path)
        views = self.root / "views"
        if views.is_dir():
            for path in views.glob("*.json"):
                try:
                    raw = json.loads(path.read_text())
                    ids_ = raw.get("ids") if isinstance(raw, dict) else None
                except (OSError, ValueError):
                    ids_ = None
                if not isinstance(ids_, list):  # unreadable, or from before ids were kept
                    if mtime(path) < now - ttl:
                        drop(path)
                    continue
                uploaded = [i for i in ids_ if isinstance(i, str) and i not in EXAMPLES]
                if any(not is_dataset_id(i) or not (self.dir / f"{i}.json").exists()
                       for i in uploaded):
                    drop(path)  # a note about datasets that are gone
                elif not uploaded and mtime(path) < now - ttl:
                    drop(path)  # someone's note on the examples, unread for the TTL
        return removed

    def maybe_sweep(self) -> bool:
        """Start a sweep in the background if none ran for :func:`sweep_seconds` (in any
        worker: the time is kept in ``<data dir>/.swept``); called on each request."""
        now = time.monotonic()
        interval = sweep_seconds()
        if now - self._sweep_clock < min(interval, 60.0):
            return False
        self._sweep_clock = now
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
        import logging

        try:
            with open(self.root / ".sweep.lock", "a") as lock:
                try:
                    fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    return  # another worker is sweeping
                (self.root / ".swept").touch()
                removed = self.sweep()
                if removed:
                    logging.getLogger(__name__).info("roc-dash: sweep removed %d dataset(s)",
                                                     len(removed))
        except Exception:  # noqa: BLE001 - a failed sweep must not take a request down
            logging.getLogger(__name__).exception("roc-dash: the periodic sweep failed")
        finally:
            self._sweeping.release()

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
                with contextlib.suppress(OSError):
                    os.utime(self.root / "views" / dataset_id.split(":", 1)[1])
            else:
                self._touch(dataset_id)

    def _touch(self, dataset_id: str) -> None:
        """Mark a dataset as used (its expiry counts from its last use)."""
        try:
            os.utime(self.dir / f"{dataset_id}.json")
        except OSError:
            pass

    # -- writing -------------------------------------------------------------------------
    def put(self, table: pd.DataFrame, *, files, notes=(), digests=(), owner=None,
            kind=None) -> DatasetInfo:
        """Store ``table`` under a new random id; return its description.

        ``kind`` is the :class:`~roc_dash.core.canonical_kinds.InputKind` of the table
        (``LoadResult.kind``; None: binary), kept in the sidecar.

        Expired datasets are deleted first, and the least recently used ones while the
        quota lacks room. Raises :class:`StorageFull` (nothing half-written is left) when
        there is no room on the quota or on the disk.
        """
        self.sweep()
        dataset_id = secrets.token_urlsafe(24)
        info = DatasetInfo(
            id=dataset_id,
            files=tuple(files),
            models=tuple(pd.unique(table["model"]).tolist()),
            n_rows=len(table),
            notes=tuple(notes),
            digests=tuple(digests),
            owner=owner,
            **_kind_fields(kind),
        )
        try:
            self._atomic_write(self.dir / f"{dataset_id}.parquet",
                               lambda p: table.to_parquet(p, index=False))
            self._atomic_write(self.dir / f"{dataset_id}.json",
                               lambda p: Path(p).write_text(json.dumps(asdict(info))))
        except OSError as exc:
            for path in self._files(dataset_id):
                path.unlink(missing_ok=True)
            if exc.errno in (errno.ENOSPC, errno.EDQUOT):
                raise StorageFull("the server's disk is full") from exc
            raise
        try:  # make room under the quota: the least recently used datasets go first
            self.sweep(protect=dataset_id, owner=owner)
        except StorageFull:
            self.delete(dataset_id)
            raise
        self._remember(dataset_id, table)
        return info

    def _atomic_write(self, path: Path, write, *, folder: Path | None = None) -> None:
        fd, tmp = tempfile.mkstemp(dir=folder or self.dir, suffix=".tmp")
        os.close(fd)
        try:
            write(tmp)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    # -- uploads waiting for an answer (e.g. which label is the positive class) -----------
    def put_pending(self, sources) -> str:
        """Keep rejected upload ``[(filename, bytes), ...]`` so that it can be read again
        (with other options) without a second drop; return its token."""
        token = secrets.token_urlsafe(24)
        folder = self.root / "pending"
        folder.mkdir(parents=True, exist_ok=True)
        payload = {"files": [name for name, _ in sources]}
        for i, (_, data) in enumerate(sources):
            self._atomic_write(folder / f"{token}.{i}", lambda p, d=data: Path(p).write_bytes(d),
                               folder=folder)
        self._atomic_write(folder / f"{token}.json",
                           lambda p: Path(p).write_text(json.dumps(payload)), folder=folder)
        self._prune_pending(folder)
        return token

    def get_pending(self, token: str):
        """The ``[(filename, bytes), ...]`` kept under ``token``, or None if it is gone."""
        if not _ID_PATTERN.match(str(token)):
            return None
        folder = self.root / "pending"
        try:
            files = json.loads((folder / f"{token}.json").read_text())["files"]
            return [(name, (folder / f"{token}.{i}").read_bytes())
                    for i, name in enumerate(files)]
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def drop_pending(self, token: str) -> None:
        if _ID_PATTERN.match(str(token)):
            for path in (self.root / "pending").glob(f"{token}.*"):
                path.unlink(missing_ok=True)

    @staticmethod
    def _prune_pending(folder: Path, keep_seconds: float = 3600.0) -> None:
        """Rejected uploads are kept for an hour at most."""

        limit = time.time() - keep_seconds
        for path in folder.iterdir():
            try:
                if path.stat().st_mtime < limit:
                    path.unlink(missing_ok=True)
            except OSError:
                continue

    # -- reading -------------------------------------------------------------------------
    def _check_id(self, dataset_id: str) -> None:
        if not is_dataset_id(dataset_id):
            raise DatasetNotFound(dataset_id)

    def get(self, dataset_id: str) -> pd.DataFrame:
        """The canonical table stored under ``dataset_id``."""
        self._check_id(dataset_id)
        cached = self._cache.get(dataset_id)
        if cached is not None:
            self.used([dataset_id])  # a cache hit is a use too
            return cached
        if dataset_id in EXAMPLES:
            table = load_example(dataset_id).table
        else:
            path = self.dir / f"{dataset_id}.parquet"
            if not path.exists():
                raise DatasetNotFound(dataset_id)
            table = pd.read_parquet(path)
            self.used([dataset_id])
        self._remember(dataset_id, table)
        return table

    def info(self, dataset_id: str) -> DatasetInfo:
        self._check_id(dataset_id)
        if dataset_id in EXAMPLES:
            table = self.get(dataset_id)
            return DatasetInfo(id=dataset_id, files=(EXAMPLES[dataset_id][1],),
                               models=tuple(pd.unique(table["model"]).tolist()),
                               n_rows=len(table),
                               **_kind_fields(load_example(dataset_id).kind))
        path = self.dir / f"{dataset_id}.json"
        if not path.exists():
            raise DatasetNotFound(dataset_id)
        raw = json.loads(path.read_text())
        self.used([dataset_id])
        known = {f.name for f in fields(DatasetInfo)}  # keys of newer versions are skipped
        return DatasetInfo(**{k: tuple(v) if isinstance(v, list) else v
                              for k, v in raw.items() if k in known})

    def _remember(self, dataset_id: str, table: pd.DataFrame) -> None:
        self._cache.put(dataset_id, table)

    # -- notes and saved views, kept with the datasets they are about ----------------------
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
        data["note"] = str(text or "")[: self.MAX_NOTE]
        self._write_notes(dataset_ids, data, owner)
        return data["note"]

    def save_view(self, dataset_ids, name: str, query: str, *, owner: str | None = None
                  ) -> list[dict]:
        """Save (or replace) a named view: the page's query string (controls and pins)."""

        name = " ".join(str(name or "").split())[:80]
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

    def health(self, *, details: bool = True) -> dict:
        """What ``/health`` reports about the data folder (``details``: besides ok / not ok,
        its state; walking the folder costs, so only for those who may see it)."""
        import shutil

        probe = self.root / f".health-{os.getpid()}"
        try:
            probe.write_bytes(b"ok")
            probe.unlink()
            writable = True
        except OSError:
            writable = False
        try:
            free = shutil.disk_usage(self.root).free
        except OSError:
            free = 0
        ok = writable and free > 64 * 2**20
        if not details:
            return {"status": "ok" if ok else "degraded"}
        used = self.usage_bytes()
        quota = data_quota_bytes()
        return {"status": "ok" if ok else "degraded", "data_dir_writable": writable,
                "disk_free_mb": round(free / 2**20, 1), "datasets": len(self._datasets_by_age()),
                "used_mb": round(used / 2**20, 1), "quota_mb": round(quota / 2**20, 1)}


def load_demo():
    """The bundled demo predictions, read through the same io path as any upload."""
    return load_example(DEMO_ID)


_EXAMPLE_CACHE: dict = {}


def load_example(dataset_id: str):
    """The bundled example ``dataset_id`` (a key of :data:`EXAMPLES`), read through the same
    io path as any upload (its ``LoadResult``, with the kind; read once per process)."""
    if dataset_id not in _EXAMPLE_CACHE:
        filename = EXAMPLES[dataset_id][0]
        ref = resources.files("roc_dash.data") / filename
        _EXAMPLE_CACHE[dataset_id] = load_predictions([(filename, ref.read_bytes())])
    return _EXAMPLE_CACHE[dataset_id]
