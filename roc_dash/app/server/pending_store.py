"""Rejected uploads kept for a second reading (e.g. with the positive label chosen, without
a second drop), in the object store when ``ROC_DASH_STORE_URL`` is set, so that the replica
that answers the second reading need not be the one that refused the first
(:meth:`.store.DatasetStore.put_pending`; without a store they are files under
``<data dir>/pending/``).

Keys (:mod:`.objects`, folder ``pending``), built by the server from a token it made:
``pending/<token>.<NN>.bin`` for each file, then, last, ``pending/<token>.json`` with their
names (a kept upload exists once its list is there). They go after the upload time limit
+ 2 min, and at most twice the upload limit are kept together, the oldest going first
(:func:`prune_kept`, the same rule as the data folder's).
"""

from __future__ import annotations

import contextlib
import json
import secrets
import time
from collections import defaultdict
from pathlib import Path

__all__ = ["prune_kept", "put", "get", "drop"]


def prune_kept(items) -> None:
    """Of ``items`` ``(token, last change, bytes, remove)``: each older than the upload
    time limit + 2 min removed, then whole tokens, oldest first, while all together hold
    more than twice the upload limit (``remove()`` removes one item)."""
    from .limits import max_upload_bytes, unclaimed_seconds

    limit = time.time() - unclaimed_seconds()
    tokens: dict[str, list] = {}  # token -> [newest change, bytes, removers]
    for token, mtime, size, remove in items:
        if mtime < limit:
            remove()
            continue
        entry = tokens.setdefault(token, [0.0, 0, []])
        entry[0] = max(entry[0], mtime)
        entry[1] += size
        entry[2].append(remove)
    total, cap = sum(e[1] for e in tokens.values()), 2 * max_upload_bytes()
    for _newest, size, removers in sorted(tokens.values(), key=lambda e: e[0]):
        if total <= cap:
            break
        for remove in removers:
            remove()
        total -= size


def _entries(objects) -> dict[str, list]:
    out: dict[str, list] = defaultdict(list)
    for entry in objects.entries("pending"):
        out[entry.name.split(".", 1)[0]].append(entry)
    return out


def put(objects, sources, *, scratch: Path) -> str | None:
    """Keep ``[(filename, bytes), ...]`` in the store; its new token (None when the store
    did not take it: the files are then dropped again for a second reading)."""
    token = secrets.token_urlsafe(24)
    try:
        for i, (_, data) in enumerate(sources):
            objects.write_bytes(f"pending/{token}.{i:02d}.bin", data, scratch=scratch)
        names = {"files": [name for name, _ in sources]}
        objects.write_bytes(f"pending/{token}.json", json.dumps(names).encode(),
                            scratch=scratch)
    except Exception:  # noqa: BLE001 - the store does not answer (/ready says so)
        return None
    with contextlib.suppress(Exception):  # else the next one prunes
        prune_kept((token_, e.mtime, e.size,
                    lambda k=f"pending/{e.name}": objects.remove(k))
                   for token_, listed in _entries(objects).items() for e in listed)
    return token


def get(objects, token: str):
    """The ``[(filename, bytes), ...]`` kept under ``token`` (checked by the caller), or
    None when it is gone."""
    try:
        files = json.loads(objects.read_bytes(f"pending/{token}.json"))["files"]
        return [(str(name), objects.read_bytes(f"pending/{token}.{i:02d}.bin"))
                for i, name in enumerate(files)]
    except Exception:  # noqa: BLE001 - gone, unreadable, or the store does not answer
        return None


def drop(objects, token: str) -> None:
    """Remove what is kept under ``token`` (checked by the caller): its list first (what
    a store that does not answer keeps goes with its age)."""
    with contextlib.suppress(Exception):
        objects.remove(f"pending/{token}.json")
        for entry in _entries(objects).get(token, []):
            objects.remove(f"pending/{entry.name}")
