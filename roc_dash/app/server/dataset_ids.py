"""The dataset store's ids, the bundled examples, the data folder and the store's errors.

Shared by :mod:`.store` (the tables), :mod:`.retention` (expiry and quotas) and
:mod:`.notes_store` (notes and saved views); :mod:`.store` re-exports every name.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

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
ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{20,64}$")


#: At most this many datasets are shown together (a request naming more is cut to this).
MAX_DATASETS = 20


def is_dataset_id(value) -> bool:
    """True for the fixed ids of the bundled examples (:data:`EXAMPLES`) and for ids of the
    form the store hands out."""
    return isinstance(value, str) and (value in EXAMPLES or bool(ID_PATTERN.match(value)))


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


class DatasetNotFound(KeyError):
    """The id is unknown here (expired, deleted, or never existed)."""


class NotAllowed(PermissionError):
    """The request may read this but not change it (someone else's note, views, dataset)."""


class StorageFull(OSError):
    """No room for a new dataset: the data folder's quota or the disk itself is full."""
