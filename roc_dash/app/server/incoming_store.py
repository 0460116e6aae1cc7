"""Uploads arriving, kept in the object store when ``ROC_DASH_STORE_URL`` is set, so that a
drop's files may arrive at one replica and be read (:func:`.upload_route.take_batch`) on
another: replicas behind a proxy without sticky sessions need no shared volume.

Each file of a drop is still received in chunks into this replica's
``<data dir>/incoming/<token>/`` (with the size limit and the caps checked while it
streams, :mod:`.upload_route`); once whole it is published to the store and its local copy
removed. Keys (:mod:`.objects`, folder ``incoming``), all built by the server from the
batch token it checked and the file's index:

* ``incoming/<token>.owner``: a hash of the batch's owner (:func:`.incoming_share.owner_mark`),
  written by the first file; every later file, the Cancel and the reading compare it;
* ``incoming/<token>.<NN>.data`` and then, last, ``incoming/<token>.<NN>.name``: a file
  counts as arrived only once its name is there (each object is whole or absent).

The caps (``ROC_DASH_MAX_INCOMING_MB``, the owner's share, the drop's size) count what the
store holds (listed once as each file begins) plus what is arriving at this replica. A batch
not read within ``ROC_DASH_UPLOAD_TIMEOUT`` + 2 min of its last file is removed from the store
by whichever replica receives the next upload.
"""

from __future__ import annotations

import math
import re
import time
from collections import defaultdict
from pathlib import Path

from .incoming_share import IncomingUsage
from .objects import S3Objects

__all__ = ["claim", "publish", "stored_mark", "stored_usage", "take", "forget", "prune",
           "added"]

_NAME = re.compile(r"^(?P<token>[A-Za-z0-9_-]{20,64})\.(?:(?P<index>\d\d)\.(?P<kind>data|name)"
                   r"|owner)$")


def _batches(shared: S3Objects) -> dict[str, list]:
    """``{token: [Entry, ...]}`` of the store's uploads arriving (one listing)."""
    out: dict[str, list] = defaultdict(list)
    for entry in shared.entries("incoming"):
        found = _NAME.match(entry.name)
        if found:
            out[found["token"]].append(entry)
    return out


def stored_mark(shared: S3Objects, token: str) -> str | None:
    """The owner mark the store records for batch ``token`` (None: none yet, or gone)."""
    try:
        return shared.read_bytes(f"incoming/{token}.owner").decode("ascii")[:64].strip() or None
    except (FileNotFoundError, UnicodeDecodeError):
        return None


def claim(shared: S3Objects, token: str, mark: str, *, scratch: Path) -> bool:
    """Record ``mark`` as batch ``token``'s owner if the store has none; True when the batch
    is ``mark``'s. (Tokens are the page's own random ones: two owners racing for one token
    between the read and the write is a token guessed, not a race to win.)"""
    known = stored_mark(shared, token)
    if known is None:
        shared.write_bytes(f"incoming/{token}.owner", mark.encode("ascii"), scratch=scratch)
        return True
    return known == mark


def publish(shared: S3Objects, token: str, index: int, name: str, data: Path, *,
            scratch: Path) -> None:
    """The whole file ``data`` published as file ``index`` of batch ``token``: its content,
    then its name (from then on it counts as arrived)."""
    shared.put_path(f"incoming/{token}.{index:02d}.data", data)
    shared.write_bytes(f"incoming/{token}.{index:02d}.name", name.encode("utf-8"),
                       scratch=scratch)


def stored_usage(shared: S3Objects, mark: str, token: str, unclaimed: float) -> IncomingUsage:
    """What the store's uploads arriving hold: in all, in ``mark``'s batches, in batch
    ``token`` (as :func:`.incoming_share.incoming_usage` counts a folder)."""
    total = mine = this = 0
    oldest = math.inf
    for batch, entries in _batches(shared).items():
        size = sum(e.size for e in entries)
        total += size
        if batch == token:
            this = size
        if stored_mark(shared, batch) == mark:
            mine += size
            oldest = min(oldest, max(e.mtime for e in entries))
    expire = 0.0 if oldest == math.inf else max(0.0, oldest + unclaimed - time.time())
    return IncomingUsage(total=total, mine=mine, batch=this, mine_expire_in=expire)


def take(shared: S3Objects, token: str, mark: str | None,
         limit: int) -> list[tuple[str, bytes]] | None:
    """The arrived files of batch ``token`` ``[(name, bytes), ...]`` in drop order (at most
    ``limit``), and the batch removed from the store; None when it has none, or when
    ``mark`` is given and is not its owner's (then nothing is read or removed)."""
    if mark is not None and stored_mark(shared, token) not in (None, mark):
        return None
    entries = _batches(shared).get(token, [])
    named = sorted(e.name for e in entries if e.name.endswith(".name"))[:limit]
    try:
        files = []
        for name_key in named:
            stem = name_key[:-len(".name")]
            name = shared.read_bytes(f"incoming/{name_key}").decode("utf-8", "replace")
            files.append((name, shared.read_bytes(f"incoming/{stem}.data")))
        return files or None
    except FileNotFoundError:  # taken (and removed) by another request meanwhile
        return None
    finally:
        forget(shared, token, entries)


def forget(shared: S3Objects, token: str, entries=None) -> None:
    """Remove batch ``token`` from the store (its files, then its owner)."""
    names = [e.name for e in (entries if entries is not None
                              else _batches(shared).get(token, []))]
    for name in sorted(names, key=lambda n: n.endswith(".owner")):
        shared.remove(f"incoming/{name}")


def prune(shared: S3Objects, unclaimed: float) -> None:
    """Batches whose last file arrived more than ``unclaimed`` seconds ago (never read: a
    closed tab, or junk) removed from the store."""
    limit = time.time() - unclaimed
    for token, entries in _batches(shared).items():
        if max(e.mtime for e in entries) < limit:
            forget(shared, token, entries)


def added(a: IncomingUsage, b: IncomingUsage | None) -> IncomingUsage:
    """``a`` and ``b`` counted together (``b`` None: ``a``)."""
    if b is None:
        return a
    expire = [u.mine_expire_in for u in (a, b) if u.mine]
    return IncomingUsage(total=a.total + b.total, mine=a.mine + b.mine,
                         batch=a.batch + b.batch, mine_expire_in=min(expire, default=0.0))
