"""Server-side dataset store: canonical tables on disk under unguessable ids.

An upload is parsed once, written as Parquet (plus a small JSON sidecar with its metadata) to
``<data dir>/datasets/<id>.parquet`` and only the id travels to the browser. Any gunicorn
worker can load any id, so the app works with several processes; each process keeps a small
in-memory cache of recently used tables. The bundled demo data has the fixed id ``demo`` and is
read from the package, not from disk.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import tempfile
import threading
from collections import OrderedDict
from dataclasses import asdict, dataclass, field
from importlib import resources
from pathlib import Path

import pandas as pd

from ..io import load_predictions

DEMO_ID = "demo"
DEMO_FILE = "demo_predictions.csv"
_ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{20,64}$")


#: At most this many datasets are shown together (a request naming more is cut to this).
MAX_DATASETS = 20


def is_dataset_id(value) -> bool:
    """True for the demo id and for ids of the form the store hands out."""
    return isinstance(value, str) and (value == DEMO_ID or bool(_ID_PATTERN.match(value)))


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


def content_digest(data: bytes) -> str:
    """sha256 of a file's bytes: how an upload recognises a file it already has."""
    return hashlib.sha256(data).hexdigest()


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

    @property
    def label(self) -> str:
        """How the dataset is named in the page: its file names."""
        return ", ".join(self.files)


class DatasetNotFound(KeyError):
    """The id is unknown here (expired, deleted, or never existed)."""


class DatasetStore:
    """Canonical tables stored as Parquet under unguessable ids."""

    def __init__(self, root: str | os.PathLike | None = None, *, cache_size: int = 8):
        self.root = Path(root) if root is not None else default_data_dir()
        self.dir = self.root / "datasets"
        self.dir.mkdir(parents=True, exist_ok=True)
        self._cache: OrderedDict[str, pd.DataFrame] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    # -- writing -------------------------------------------------------------------------
    def put(self, table: pd.DataFrame, *, files, notes=(), digests=()) -> DatasetInfo:
        """Store ``table`` under a new random id; return its description."""
        dataset_id = secrets.token_urlsafe(24)
        info = DatasetInfo(
            id=dataset_id,
            files=tuple(files),
            models=tuple(pd.unique(table["model"]).tolist()),
            n_rows=len(table),
            notes=tuple(notes),
            digests=tuple(digests),
        )
        self._atomic_write(self.dir / f"{dataset_id}.parquet",
                           lambda p: table.to_parquet(p, index=False))
        self._atomic_write(self.dir / f"{dataset_id}.json",
                           lambda p: Path(p).write_text(json.dumps(asdict(info))))
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
        import time

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
        with self._lock:
            if dataset_id in self._cache:
                self._cache.move_to_end(dataset_id)
                return self._cache[dataset_id]
        if dataset_id == DEMO_ID:
            table = load_demo().table
        else:
            path = self.dir / f"{dataset_id}.parquet"
            if not path.exists():
                raise DatasetNotFound(dataset_id)
            table = pd.read_parquet(path)
        self._remember(dataset_id, table)
        return table

    def info(self, dataset_id: str) -> DatasetInfo:
        self._check_id(dataset_id)
        if dataset_id == DEMO_ID:
            table = self.get(DEMO_ID)
            return DatasetInfo(id=DEMO_ID, files=("demo",),
                               models=tuple(pd.unique(table["model"]).tolist()),
                               n_rows=len(table))
        path = self.dir / f"{dataset_id}.json"
        if not path.exists():
            raise DatasetNotFound(dataset_id)
        raw = json.loads(path.read_text())
        return DatasetInfo(**{k: tuple(v) if isinstance(v, list) else v for k, v in raw.items()})

    def _remember(self, dataset_id: str, table: pd.DataFrame) -> None:
        with self._lock:
            self._cache[dataset_id] = table
            self._cache.move_to_end(dataset_id)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)


def load_demo():
    """The bundled demo predictions, read through the same io path as any upload."""
    ref = resources.files("roc_dash.data") / DEMO_FILE
    return load_predictions([(DEMO_FILE, ref.read_bytes())])
