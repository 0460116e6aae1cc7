"""Server-side dataset store: canonical tables on disk under unguessable ids.

An upload is parsed once, written as Parquet (plus a small JSON sidecar with its metadata) to
``<data dir>/datasets/<id>.parquet`` and only the id travels to the browser. Any gunicorn
worker can load any id, so the app works with several processes; each process keeps a small
in-memory cache of recently used tables. The bundled demo data has the fixed id ``demo`` and is
read from the package, not from disk.
"""

from __future__ import annotations

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
    def put(self, table: pd.DataFrame, *, files, notes=()) -> DatasetInfo:
        """Store ``table`` under a new random id; return its description."""
        dataset_id = secrets.token_urlsafe(24)
        info = DatasetInfo(
            id=dataset_id,
            files=tuple(files),
            models=tuple(pd.unique(table["model"]).tolist()),
            n_rows=len(table),
            notes=tuple(notes),
        )
        self._atomic_write(self.dir / f"{dataset_id}.parquet",
                           lambda p: table.to_parquet(p, index=False))
        self._atomic_write(self.dir / f"{dataset_id}.json",
                           lambda p: Path(p).write_text(json.dumps(asdict(info))))
        self._remember(dataset_id, table)
        return info

    def _atomic_write(self, path: Path, write) -> None:
        fd, tmp = tempfile.mkstemp(dir=self.dir, suffix=".tmp")
        os.close(fd)
        try:
            write(tmp)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    # -- reading -------------------------------------------------------------------------
    def _check_id(self, dataset_id: str) -> None:
        if dataset_id != DEMO_ID and not _ID_PATTERN.match(str(dataset_id)):
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
            return DatasetInfo(id=DEMO_ID, files=("demo: diabetes, 4 models × 10 folds",),
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
