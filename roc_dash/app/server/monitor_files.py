"""Files uploaded in the Monitor tab, kept on the server under unguessable ids: windows of
predictions (label-less ones too, read as ``roc-dash monitor`` reads its window files) and
decision records. The page holds only their ids, so a link or a saved view carries them;
one whose file is gone (expired, or another server) is told so and the rest restored.

Each file lives in its own folder ``<data dir>/monitor/<id>/`` under its own (cleaned) name,
so that its window is named as the command line names the same file's window, with a
``meta.json`` giving its kind and name. Files older than ``ROC_DASH_MONITOR_FILE_DAYS``
(default 30) are dropped when a new one is kept.

With ``ROC_DASH_STORE_URL`` set (:mod:`.objects`), the file is kept in the object store, so
that every replica finds it: its bytes at ``monitor/<id>.bin`` and then, last, its
description at ``monitor/<id>.json`` (a file is listed and read only once both are whole).
The folder ``<data dir>/monitor/<id>/`` is then this replica's copy, made on first read
(checked against the description's SHA-256) and used while the description is in the store;
a file removed from the store (expired, by any replica) is gone for every replica.
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
from .objects import S3Objects, shared_objects

__all__ = ["MonitorFile", "KINDS", "NotKept", "put_file", "get_file", "is_file_id",
           "safe_name", "digest_of"]

#: What a kept file is.
KINDS = ("window", "record")


class NotKept(RuntimeError):
    """The object store did not take a file (its message says what to do)."""


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
    shared = _shared()
    if shared is not None:
        try:
            _prune_shared(shared)
            shared.write_bytes(f"monitor/{file_id}.bin", data, scratch=folder)
            shared.write_bytes(f"monitor/{file_id}.json", json.dumps(meta).encode(),
                               scratch=folder)  # last: listed once its content is whole
        except Exception as exc:  # noqa: BLE001 - whatever the client says, reported
            shutil.rmtree(tmp, ignore_errors=True)
            raise NotKept(f"could not be kept: {shared.describe()} did not take it "
                          f"({type(exc).__name__}); try again in a moment, and if it "
                          "persists ask the server's administrator (/ready says what "
                          "is wrong)") from exc
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
    shared = _shared()
    if shared is not None and not _copied(shared, where, file_id):
        return None
    try:
        meta = json.loads((where / "meta.json").read_text())
        path = where / meta["file"]
        if not path.is_file() or (kind is not None and meta["kind"] != kind):
            return None
        return MonitorFile(file_id, meta["kind"], meta["name"], path,
                           tuple(meta.get("columns") or ()), str(meta.get("digest") or ""))
    except (OSError, ValueError, KeyError, TypeError):
        return None


# ------------------------------------------------------------ the object store's side
def _shared() -> S3Objects | None:
    """The object store ``ROC_DASH_STORE_URL`` names, or None (:func:`.objects.shared_objects`)."""
    return shared_objects()


def _copied(shared: S3Objects, where: Path, file_id: str) -> bool:
    """Whether the store keeps the file ``file_id``, with this replica's copy of it made at
    ``where`` (whole, checked against its digest) when it had none or an older one."""
    try:
        meta = json.loads(shared.read_bytes(f"monitor/{file_id}.json"))
        digest = str(meta["digest"])
        safe = safe_name(meta["file"])
    except FileNotFoundError:
        shutil.rmtree(where, ignore_errors=True)  # removed from the store: gone here too
        return False
    except Exception:  # noqa: BLE001 - unreadable, or the store does not answer (/ready
        return False  # says so): not used now, the copy kept for when it answers again
    try:
        local = json.loads((where / "meta.json").read_text())
        if local.get("digest") == digest and (where / safe).is_file():
            return True
    except (OSError, ValueError, AttributeError):
        pass
    try:
        data = shared.read_bytes(f"monitor/{file_id}.bin")
    except Exception:  # noqa: BLE001 - gone meanwhile, or the store does not answer
        return False
    if digest_of(data) != digest:  # not the bytes described: refused, not shown
        return False
    where.parent.mkdir(parents=True, exist_ok=True)
    tmp = where.parent / f".{file_id}.{secrets.token_hex(4)}.tmp"
    tmp.mkdir()
    (tmp / safe).write_bytes(data)
    (tmp / "meta.json").write_text(json.dumps({**meta, "file": safe}))
    shutil.rmtree(where, ignore_errors=True)
    try:
        os.replace(tmp, where)
    except OSError:  # another worker made it meanwhile
        shutil.rmtree(tmp, ignore_errors=True)
    return True


def _prune_shared(shared: S3Objects) -> None:
    """Files kept longer than ``ROC_DASH_MONITOR_FILE_DAYS`` removed from the store: the
    description first (the file is gone from then on), then the content; a content left
    without a description (a replica stopped between the two writes) goes as well."""
    limit = time.time() - _days() * 86400
    entries = shared.entries("monitor")
    described = {e.name[:-5] for e in entries if e.name.endswith(".json")}
    for entry in sorted(entries, key=lambda e: not e.name.endswith(".json")):
        stem = entry.name.rsplit(".", 1)[0]
        if entry.mtime < limit and (entry.name.endswith(".json") or stem not in described):
            shared.remove(f"monitor/{entry.name}")
            if entry.name.endswith(".json"):
                shared.remove(f"monitor/{stem}.bin")
