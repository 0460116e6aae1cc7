"""Server-side dataset store: canonical tables on disk under unguessable ids.

An upload is parsed once, written as Parquet (plus a small JSON sidecar with its metadata) to
``<data dir>/datasets/<id>.parquet`` and only the id travels to the browser. Any gunicorn
worker can load any id, so the app works with several processes; each process keeps a small
in-memory cache of recently used tables. The bundled demo data has the fixed id ``demo`` and is
read from the package, not from disk.
"""

from __future__ import annotations

import errno
import json
import os
import secrets
import threading
import time
from dataclasses import asdict, dataclass, field, fields
from importlib import resources
from pathlib import Path

import pandas as pd

from ...io import load_predictions
from ...io.canonical import content_digest  # noqa: F401 - the app recognises files by it
from ...io.size_limits import release_memory
from . import pending_store
from .dataset_ids import (  # noqa: F401 - the store's names, as the app imports them
    DEMO_FILE,
    DEMO_ID,
    EXAMPLES,
    ID_PATTERN,
    MAX_DATASETS,
    DatasetNotFound,
    NotAllowed,
    StorageFull,
    clean_ids,
    default_data_dir,
    folder_bytes,
    is_dataset_id,
)
from .notes_store import NotesAndViews
from .objects import LocalObjects, atomic_write, open_objects
from .removals import PendingRemovals
from .retention import (  # noqa: F401
    ORPHAN_SECONDS,
    Retention,
    data_quota_bytes,
    dataset_ttl_seconds,
    env_number,
    min_free_bytes,
    sweep_seconds,
    user_quota_bytes,
)

#: Text columns read as categories (pandas ``category``) from a stored table: a handful of
#: values over every row; the model list, the split by model and by fold then take their codes
#: instead of hashing 10^7 strings again.
DICTIONARY_COLUMNS = ("model", "fold")


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
    ``"leaves"`` (see :mod:`roc_dash.core.kinds.canonical_kinds`); sidecars written before it existed load
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
        """The :class:`~roc_dash.core.kinds.canonical_kinds.InputKind` of the dataset."""
        from ...core.kinds.canonical_kinds import InputKind

        return InputKind(kind=self.kind, classes=self.classes,
                         reference_class=self.reference_class,
                         weights_are_costs=self.weights_are_costs,
                         source_column=self.kind_column)

    @property
    def label(self) -> str:
        """How the dataset is named in the page: its file names."""
        return ", ".join(self.files)


def _kind_fields(kind) -> dict:
    """DatasetInfo fields of an :class:`~roc_dash.core.kinds.canonical_kinds.InputKind` (None: binary)."""
    if kind is None:
        return {}
    return {"kind": kind.kind, "classes": tuple(kind.classes),
            "reference_class": kind.reference_class,
            "weights_are_costs": bool(kind.weights_are_costs),
            "kind_column": kind.source_column}






class DatasetStore(Retention, NotesAndViews, PendingRemovals):
    """Canonical tables stored as Parquet under unguessable ids."""

    def __init__(self, root: str | os.PathLike | None = None, *, cache_mb: float | None = None):
        """``cache_mb``: the tables kept in this process's memory, least recently used out
        (default ``ROC_DASH_TABLE_CACHE_MB``, 64; a table over a quarter of it is read from
        its Parquet file each time: ~1 s for 10^7 rows, and the analyses are cached apart)."""
        from .cache import ByteLRU

        cache_mb = cache_mb or env_number("ROC_DASH_TABLE_CACHE_MB", 64)
        self.root = Path(root) if root is not None else default_data_dir()
        self.dir = self.root / "datasets"
        self.dir.mkdir(parents=True, exist_ok=True)
        #: Where the tables, notes and removals are kept: this folder, or the object store
        #: ``ROC_DASH_STORE_URL`` names (:mod:`.objects`).
        self.objects = open_objects(self.root)
        # A table too big for this cache is not held here even while in use: the analysis
        # cache holds the combined table made from it (two copies of 10^7 rows otherwise).
        self._cache = ByteLRU(int(cache_mb * 2**20), big_seconds=None)
        self._last_sweep = 0.0
        self._sweep_clock = time.monotonic()
        self._sweeping = threading.Lock()
        self._used: dict[str, float] = {}
        self._owners: dict[str, str | None] = {}  # dataset id -> its uploader (immutable)

    # -- lifecycle -----------------------------------------------------------------------
    def _files(self, dataset_id: str) -> list[Path]:
        return [self.dir / f"{dataset_id}.parquet", self.dir / f"{dataset_id}.json"]

    @staticmethod
    def _keys(dataset_id: str) -> list[str]:
        """The keys of a dataset's objects (:mod:`.objects`): its table and its sidecar."""
        return [f"datasets/{dataset_id}.parquet", f"datasets/{dataset_id}.json"]

    def _read_json(self, key: str):
        """The JSON object stored at ``key`` (FileNotFoundError, ValueError as they come)."""
        return json.loads(self.objects.read_bytes(key))

    def _write_json(self, key: str, value) -> None:
        self.objects.write_bytes(key, json.dumps(value).encode(), scratch=self.root)

    def delete(self, dataset_id: str, *, user: str | None = None, why: str = "removed"
               ) -> bool:
        """Remove a dataset and its files (the demo is not stored and stays). With ``user``
        given (a request's :func:`~.auth.current_owner`), only the dataset's owner may delete
        it (a dataset without an owner: nobody; it expires); without, the server itself
        deletes it (expiry, quota). Returns whether the files were deleted."""
        if dataset_id in EXAMPLES or not is_dataset_id(dataset_id):
            return False
        if user is not None and not self.may_delete(dataset_id, user):
            return False
        self._remember_gone(dataset_id, why)
        for key in self._keys(dataset_id):
            self.objects.remove(key)
        self._cache.put(dataset_id, None, size=0)
        return True

    def _remember_gone(self, dataset_id: str, why: str) -> None:
        """A small note (``gone/<id>.json``: file names, date, why) so that a link naming a
        deleted dataset can say *which* files are missing; notes older than a year go."""

        try:
            info = self.info(dataset_id)
        except DatasetNotFound:
            return
        try:
            kept = self.notes([dataset_id])  # what of it a link can no longer show
            note = {"label": info.label, "why": why, "when": time.time(),
                    "models": list(info.models)[:200], "note": bool(kept["note"]),
                    "views": len(kept["views"])}
            self._write_json(f"gone/{dataset_id}.json", note)
            for old in self.objects.entries("gone"):
                if old.name.endswith(".json") and time.time() - old.mtime > 365 * 86400:
                    self.objects.remove(f"gone/{old.name}")
        except OSError:
            pass  # only a nicer message is lost

    def gone(self, dataset_id: str) -> dict | None:
        """What :meth:`_remember_gone` kept of a deleted dataset, or None."""
        if not is_dataset_id(dataset_id):
            return None
        try:
            data = self._read_json(f"gone/{dataset_id}.json")
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    # -- writing -------------------------------------------------------------------------
    def put(self, table: pd.DataFrame, *, files, notes=(), digests=(), owner=None,
            kind=None) -> DatasetInfo:
        """Store ``table`` under a new random id; return its description.

        ``kind`` is the :class:`~roc_dash.core.kinds.canonical_kinds.InputKind` of the table
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
            # an aggregated table (a server-side source): the rows it counts, not its groups
            n_rows=int(table.attrs.get("input_rows", len(table))),
            notes=tuple(notes),
            digests=tuple(digests),
            owner=owner,
            **_kind_fields(kind),
        )
        try:
            # the table first, its sidecar last: a dataset is listed (and readable) only
            # once both are whole
            self.objects.write(f"datasets/{dataset_id}.parquet",
                               lambda p: table.to_parquet(p, index=False), scratch=self.root)
            release_memory(collect=False)  # the Arrow copy written
            self._write_json(f"datasets/{dataset_id}.json", asdict(info))
        except OSError as exc:
            for key in self._keys(dataset_id):
                self.objects.remove(key)
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
        atomic_write(path, write, folder=folder or self.dir)

    # -- uploads waiting for an answer (e.g. which label is the positive class) -----------
    def put_pending(self, sources) -> str | None:
        """Keep rejected upload ``[(filename, bytes), ...]`` so that it can be read again
        (with other options) without a second drop; return its token (None: an object
        store that did not take it)."""
        if self.objects.shared:  # any replica reads it again (pending_store)
            return pending_store.put(self.objects, sources, scratch=self.root)
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
        if not ID_PATTERN.match(str(token)):
            return None
        if self.objects.shared:
            return pending_store.get(self.objects, token)
        folder = self.root / "pending"
        try:
            files = json.loads((folder / f"{token}.json").read_text())["files"]
            return [(name, (folder / f"{token}.{i}").read_bytes())
                    for i, name in enumerate(files)]
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def drop_pending(self, token: str) -> None:
        if ID_PATTERN.match(str(token)) and self.objects.shared:
            pending_store.drop(self.objects, token)
        elif ID_PATTERN.match(str(token)):
            for path in (self.root / "pending").glob(f"{token}.*"):
                path.unlink(missing_ok=True)

    @staticmethod
    def _prune_pending(folder: Path) -> None:
        """Rejected uploads are a convenience (read again with a positive label, no second
        drop): kept for the upload time limit + 2 min, and at most twice the upload limit
        together, the oldest dropped first. They never make anybody's dataset go (the
        quota's evictions leave them aside: stranger review 2, where six rejected drops made
        the next upload delete another user's dataset)."""
        items = []
        for path in folder.iterdir():
            try:
                stat = path.stat()
            except OSError:
                continue
            items.append((path.name.split(".", 1)[0], stat.st_mtime, stat.st_size,
                          lambda p=path: p.unlink(missing_ok=True)))
        pending_store.prune_kept(items)

    # -- reading -------------------------------------------------------------------------
    def _check_id(self, dataset_id: str) -> None:
        if not is_dataset_id(dataset_id):
            raise DatasetNotFound(dataset_id)

    def get(self, dataset_id: str) -> pd.DataFrame:
        """The canonical table stored under ``dataset_id``."""
        self._check_id(dataset_id)
        key = f"datasets/{dataset_id}.parquet"
        cached = self._cache.get(dataset_id)
        if cached is not None:
            if dataset_id not in EXAMPLES and not self.objects.exists(key):  # deleted elsewhere
                self._cache.put(dataset_id, None, size=0)
                raise DatasetNotFound(dataset_id)
            self.used([dataset_id])  # a cache hit is a use too
            return cached
        if dataset_id in EXAMPLES:
            table = load_example(dataset_id).table
        else:
            try:
                # the text columns of few values as categories, straight from the file's
                # dictionary pages (10^7 rows: 0.4 instead of 1 s CPU, 180 instead of 470 MB)
                table = self._read_table(key)
            except FileNotFoundError:  # also when deleted between a check and the read
                raise DatasetNotFound(dataset_id) from None
            release_memory(collect=False)  # Arrow's read buffers (10^7 rows: ~340 MB)
            self.used([dataset_id])
        self._remember(dataset_id, table)
        return table

    def info(self, dataset_id: str) -> DatasetInfo:
        self._check_id(dataset_id)
        if dataset_id in EXAMPLES:
            table = self.get(dataset_id)
            return DatasetInfo(id=dataset_id, files=(EXAMPLES[dataset_id][1],),
                               models=tuple(pd.unique(table["model"]).tolist()),
                               # an aggregated table (a server-side source): the rows it counts, not its groups
            n_rows=int(table.attrs.get("input_rows", len(table))),
                               **_kind_fields(load_example(dataset_id).kind))
        try:
            raw = self._read_json(f"datasets/{dataset_id}.json")
        except FileNotFoundError:
            raise DatasetNotFound(dataset_id) from None
        self.used([dataset_id])
        known = {f.name for f in fields(DatasetInfo)}  # keys of newer versions are skipped
        return DatasetInfo(**{k: tuple(v) if isinstance(v, list) else v
                              for k, v in raw.items() if k in known})

    def present(self, dataset_ids) -> tuple[str, ...]:
        """The ids of ``dataset_ids`` (cleaned, in order) still stored. Every cache key of an
        analysis is made of these: a dataset its owner deleted (in any worker) drops out of
        every view at once, instead of being served from another worker's memory."""
        return tuple(i for i in clean_ids(dataset_ids)
                     if i in EXAMPLES or self.objects.exists(f"datasets/{i}.parquet"))

    def _read_table(self, key: str) -> pd.DataFrame:
        """The Parquet table at ``key``: read in place from the data folder, through memory
        from an object store."""
        if isinstance(self.objects, LocalObjects):
            source = self.objects.path(key)
        else:
            import io

            source = io.BytesIO(self.objects.read_bytes(key))
        return pd.read_parquet(source, read_dictionary=list(DICTIONARY_COLUMNS))

    def _remember(self, dataset_id: str, table: pd.DataFrame) -> None:
        self._cache.put(dataset_id, table)

    # -- notes and saved views: .notes_store.NotesAndViews ---------------------------------

    def probe_disk(self) -> tuple[bool, int]:
        """Whether a file can be written in the data folder now, and the disk's free bytes
        there (0 when unknown); what ``/health`` and ``/ready`` look at."""
        import shutil

        # one probe file per call: two threads of a worker answering /health at once must
        # not unlink each other's probe (that read as "not writable": a 503 under load)
        probe = self.root / f".health-{os.getpid()}-{secrets.token_hex(6)}"
        try:
            probe.write_bytes(b"ok")
            probe.unlink(missing_ok=True)
            writable = True
        except OSError:
            writable = False
        try:
            free = shutil.disk_usage(self.root).free
        except OSError:
            free = 0
        return writable, free

    def health(self, *, details: bool = True) -> dict:
        """What ``/health`` reports about the data folder (``details``: besides ok / not ok,
        its state; walking the folder costs, so only for those who may see it)."""
        writable, free = self.probe_disk()
        ok = writable and free > min_free_bytes()
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
