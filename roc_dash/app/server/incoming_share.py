"""Who sent each upload still arriving, and each owner's share of them.

The uploads arriving (``<data dir>/incoming/<token>/``, see :mod:`.upload_route`) have a cap
for everybody together (``ROC_DASH_MAX_INCOMING_MB``). Without a share per owner, one person
could park uploads up to that cap, never claim them, and every other upload was "busy" until
they expired (``ROC_DASH_UPLOAD_TIMEOUT`` + 2 min; found by a hostile review of the upload limits). So:

* the first file of a batch records its owner (:func:`.auth.current_owner`) in the batch's
  folder, as a file named :data:`OWNER_FILE` holding a hash of it (:func:`owner_mark`; never
  the browser's key, nor the user's name), created exclusively, so that one owner wins even
  when two gunicorn workers (which share only the data folder) race; a batch's later files,
  its Cancel and its reading are for that owner only;
* what one owner's batches hold together is capped at
  ``ROC_DASH_MAX_INCOMING_PER_OWNER_MB`` (:func:`max_incoming_per_owner_bytes`).

With sign-in the share holds per signed-in user. Without sign-in an owner is the browser's
key, which the browser makes up: a hostile client can invent as many keys as it likes and
take several shares; the cap for everybody still bounds the total, and a browser that sends
no key shares one "anonymous" owner with every other such client.
"""

from __future__ import annotations

import hashlib
import math
import os
import time
from dataclasses import dataclass
from pathlib import Path

from .dataset_ids import folder_bytes
from .limits import max_upload_bytes

__all__ = ["OWNER_FILE", "IncomingUsage", "batch_mark", "claim_batch", "incoming_usage",
           "max_incoming_bytes", "max_incoming_per_owner_bytes", "owner_mark"]

#: The owner's mark in a batch folder (not ``*.data`` / ``*.name``: never read as a file).
OWNER_FILE = "owner"


def max_incoming_bytes() -> int:
    """``ROC_DASH_MAX_INCOMING_MB`` (default four times the upload limit): the most the
    uploads still arriving (or never collected) may hold together."""
    try:
        mb = float(os.environ.get("ROC_DASH_MAX_INCOMING_MB", "0"))
    except ValueError:
        mb = 0.0
    return int(mb * 2**20) if mb > 0 else 4 * max_upload_bytes()


def max_incoming_per_owner_bytes() -> int:
    """``ROC_DASH_MAX_INCOMING_PER_OWNER_MB``: the most one owner's uploads still arriving
    (or never collected) may hold together. Default: half of ``ROC_DASH_MAX_INCOMING_MB``
    (so that one owner leaves at least half of it to the others), but never less than one
    upload limit (one drop of the largest size must always fit; with the defaults, 2 x the
    upload limit: one drop being read while the next is sent). A value set explicitly is
    used as it is."""
    try:
        mb = float(os.environ.get("ROC_DASH_MAX_INCOMING_PER_OWNER_MB", "0"))
    except ValueError:
        mb = 0.0
    if mb > 0:
        return int(mb * 2**20)
    return max(max_incoming_bytes() // 2, max_upload_bytes())


def owner_mark(owner: str | None) -> str:
    """How a batch records its owner: a hash of :func:`.auth.current_owner` (32 hex
    characters; the owner None, a request without a key, is one shared "anonymous")."""
    text = "anonymous" if owner is None else "owner:" + owner
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def batch_mark(batch: Path) -> str | None:
    """The owner mark recorded in ``batch``; None when the batch (or its mark) is gone."""
    try:
        with open(batch / OWNER_FILE, encoding="ascii") as fh:
            return fh.read(64).strip() or None
    except (OSError, ValueError):
        return None


def claim_batch(batch: Path, mark: str) -> bool:
    """Make the folder ``batch`` and record ``mark`` as its owner if it has none yet (the
    file is created exclusively: of two owners racing, one wins). True when the batch is
    ``mark``'s. Raise FileNotFoundError when the batch was removed meanwhile."""
    batch.mkdir(exist_ok=True)
    path = batch / OWNER_FILE
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return batch_mark(batch) == mark
    with os.fdopen(fd, "w", encoding="ascii") as fh:
        fh.write(mark)
    return True


@dataclass(frozen=True)
class IncomingUsage:
    """Bytes of the uploads arriving, counted in one walk of the incoming folder."""

    #: every batch together (what ``ROC_DASH_MAX_INCOMING_MB`` caps)
    total: int
    #: the batches of one owner (what ``ROC_DASH_MAX_INCOMING_PER_OWNER_MB`` caps)
    mine: int
    #: the one batch asked about (what ``ROC_DASH_MAX_UPLOAD_MB`` caps for a drop)
    batch: int
    #: seconds until the oldest of the owner's batches is removed unclaimed (0 if none)
    mine_expire_in: float


def incoming_usage(folder: Path, mark: str, batch_name: str = "",
                   unclaimed: float = 0.0) -> IncomingUsage:
    """What the folder of uploads arriving holds: in all, in ``mark``'s batches, in the
    batch ``batch_name``; a batch removed during the walk is skipped (see
    :func:`.dataset_ids.folder_bytes`). ``unclaimed``: seconds after its last change that
    a batch is removed (:func:`.limits.unclaimed_seconds`)."""
    total = mine = this = 0
    oldest = math.inf
    try:
        entries = list(os.scandir(folder))
    except OSError:
        entries = []
    for entry in entries:
        try:
            if not entry.is_dir(follow_symlinks=False):
                total += entry.stat(follow_symlinks=False).st_size
                continue
            changed = entry.stat(follow_symlinks=False).st_mtime
        except OSError:
            continue
        size = folder_bytes(entry.path)
        total += size
        if entry.name == batch_name:
            this = size
        if batch_mark(Path(entry.path)) == mark:
            mine += size
            oldest = min(oldest, changed)
    expire = 0.0 if oldest == math.inf else max(0.0, oldest + unclaimed - time.time())
    return IncomingUsage(total=total, mine=mine, batch=this, mine_expire_in=expire)
