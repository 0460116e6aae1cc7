"""Uploads arriving, kept in the object store when ``ROC_DASH_STORE_URL`` is set, so that a
drop's files may arrive at one replica and be read (:func:`.upload_route.take_batch`) on
another: replicas behind a proxy without sticky sessions need no shared volume.

Each file of a drop is streamed into the store as it arrives (:class:`StreamedFile`: the
request's chunks go into a multipart upload of ``ROC_DASH_S3_BLOCK_MB`` parts, so a replica
holds at most one block of it in memory and none of its bytes on disk), with the size limit
and the caps checked while it streams (:mod:`.upload_route`). The object appears once the
file is whole (the multipart upload completed); a file refused or cut short is aborted and
leaves nothing in the store. In this replica's ``<data dir>/incoming/<token>/`` the file is
only a sparse placeholder whose length is the bytes received so far (no disk blocks): what
the caps count of the uploads arriving here, as without a store. Keys (:mod:`.objects`, folder ``incoming``), all built by the server from the
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

import contextlib
import math
import os
import re
import time
from collections import defaultdict
from pathlib import Path

from .incoming_share import IncomingUsage
from .objects import S3Objects

__all__ = ["claim", "stored_mark", "stored_usage", "take", "forget", "prune",
           "added", "StreamedFile", "StoreFailed", "block_bytes"]

#: S3's smallest part (but the last); the default part size is a little more.
_MIN_BLOCK_MB, _DEFAULT_BLOCK_MB = 5, 8

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


def block_bytes() -> int:
    """``ROC_DASH_S3_BLOCK_MB`` (default 8, at least 5: S3's smallest part) in bytes: the
    part size of a file streamed into the store, and what one arriving file holds in
    memory (plus one chunk of the request)."""
    try:
        mb = float(os.environ.get("ROC_DASH_S3_BLOCK_MB", _DEFAULT_BLOCK_MB))
    except ValueError:
        mb = _DEFAULT_BLOCK_MB
    return int(max(mb, _MIN_BLOCK_MB) * 2**20)


class StoreFailed(Exception):
    """The store did not take a part of a file streamed into it (the upload is aborted)."""


class StreamedFile:
    """File ``index`` of batch ``token`` written into the store as it arrives: its content
    as a multipart upload to ``incoming/<token>.<NN>.data``, then (:meth:`finish`) its
    name; ``placeholder``: the local file whose length follows the bytes written (sparse,
    for the caps of :mod:`.incoming_share`). :meth:`discard` aborts: nothing is stored."""

    def __init__(self, shared: S3Objects, token: str, index: int, placeholder: Path):
        self.shared, self.token, self.index = shared, token, index
        self.placeholder = placeholder
        self._local = open(placeholder, "wb")  # noqa: SIM115 - closed by finish/discard
        self._written, self._remote, self._completed = 0, None, False
        try:
            self._remote = shared.open_stream(self._key("data"), block_bytes())
        except Exception as exc:
            self._close_local()
            raise StoreFailed(exc) from exc

    def _key(self, kind: str) -> str:
        return f"incoming/{self.token}.{self.index:02d}.{kind}"

    def write(self, chunk: bytes) -> None:
        """Send ``chunk`` on (a part goes out each time a block is full)."""
        try:
            self._remote.write(chunk)
        except Exception as exc:
            raise StoreFailed(exc) from exc
        self._written += len(chunk)
        os.ftruncate(self._local.fileno(), self._written)  # counted, no disk blocks

    def finish(self, name: str, *, scratch: Path) -> None:
        """Complete the content (it appears whole), then publish its ``name``."""
        try:
            self._remote.close()
            self._remote, self._completed = None, True
            self.shared.write_bytes(self._key("name"), name.encode("utf-8"), scratch=scratch)
        except Exception as exc:
            self.discard()
            raise StoreFailed(exc) from exc
        self._close_local()

    def discard(self) -> None:
        """Abort: the multipart upload cancelled (its parts deleted), nothing stored; the
        placeholder removed. Safe to call more than once."""
        remote, self._remote = self._remote, None
        if remote is not None:
            try:
                remote.discard()
            except Exception:  # noqa: BLE001, S110 - the store's lifecycle rule ends it
                pass
            finally:
                remote.closed = True  # its __del__ would otherwise try to complete it
        elif self._completed:  # the content completed, its name not stored: removed
            self._completed = False
            with contextlib.suppress(Exception):
                self.shared.remove(self._key("data"))
        self._close_local()

    def _close_local(self) -> None:
        self._local.close()
        self.placeholder.unlink(missing_ok=True)


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
