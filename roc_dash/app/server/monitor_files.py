"""Files uploaded in the Monitor tab, kept on the server under unguessable ids: windows of
predictions (label-less ones too, read as ``roc-dash monitor`` reads its window files) and
decision records. The page holds only their ids, so a link or a saved view carries them;
one whose file is gone (expired, or another server) is told so and the rest restored.

Each file lives in its own folder ``<data dir>/monitor/<id>/`` under its own (cleaned) name,
so that its window is named as the command line names the same file's window, with a
``meta.json`` giving its kind and name. Files older than ``ROC_DASH_MONITOR_FILE_DAYS``
(default 30) are dropped when a new one is kept.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from .dataset_ids import ID_PATTERN

__all__ = ["MonitorFile", "KINDS", "put_file", "get_file", "is_file_id", "safe_name",
           "digest_of"]

#: What a kept file is.
KINDS = ("window", "record")


@dataclass(frozen=True)
class MonitorFile:
    """A kept file: its id, kind, name as uploaded and path on the server."""

    id: str
    kind: str
    name: str
    path: Path
    columns: tuple[str, ...] = ()
    digest: str = ""


def _folder(root) -> Path:
    return Path(root) / "monitor"


def safe_name(name: str) -> str:
    """The file's own name (no folders), with only harmless characters."""
    base = re.split(r"[\\/]", str(name))[-1].strip()
    base = re.sub(r"[^\w.+ -]", "_", base)[:120].lstrip(".")
    return base or "window.csv"


def is_file_id(value) -> bool:
    """True for a string of the form the store hands out (not whether it exists)."""
    return isinstance(value, str) and bool(ID_PATTERN.match(value))


def _days() -> float:
    try:
        return float(os.environ.get("ROC_DASH_MONITOR_FILE_DAYS", "30") or 30)
    except ValueError:
        return 30.0


def _prune(folder: Path) -> None:
    limit = time.time() - _days() * 86400
    for entry in folder.iterdir():
        try:
            if entry.is_dir() and entry.stat().st_mtime < limit:
                shutil.rmtree(entry, ignore_errors=True)
        except OSError:
            continue


def put_file(root, kind: str, name: str, data: bytes, *, columns=()) -> MonitorFile:
    """Keep ``data`` uploaded as ``name``; its :class:`MonitorFile` (with a new id)."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}")
    folder = _folder(root)
    folder.mkdir(parents=True, exist_ok=True)
    _prune(folder)
    file_id = secrets.token_urlsafe(24)
    tmp = folder / f".{file_id}.tmp"
    tmp.mkdir()
    safe = safe_name(name)
    (tmp / safe).write_bytes(data)
    meta = {"kind": kind, "name": str(name)[:200], "file": safe,
            "columns": [str(c) for c in columns][:500], "digest": digest_of(data)}
    (tmp / "meta.json").write_text(json.dumps(meta))
    os.replace(tmp, folder / file_id)
    return MonitorFile(file_id, kind, meta["name"], folder / file_id / safe,
                       tuple(meta["columns"]), meta["digest"])


def digest_of(data: bytes) -> str:
    """The SHA-256 of a file's bytes (the same file uploaded twice is one file)."""
    return hashlib.sha256(data).hexdigest()


def get_file(root, file_id, kind: str | None = None) -> MonitorFile | None:
    """The file kept under ``file_id`` (of ``kind`` when given), None when there is none."""
    if not is_file_id(file_id):
        return None
    where = _folder(root) / file_id
    try:
        meta = json.loads((where / "meta.json").read_text())
        path = where / meta["file"]
        if not path.is_file() or (kind is not None and meta["kind"] != kind):
            return None
        return MonitorFile(file_id, meta["kind"], meta["name"], path,
                           tuple(meta.get("columns") or ()), str(meta.get("digest") or ""))
    except (OSError, ValueError, KeyError, TypeError):
        return None
