"""Streaming uploads: files go to disk in chunks, never through a callback's JSON.

``dcc.Upload`` base64-encodes a file into the callback request, which is hopeless past about
100 MB. Instead the page (``assets/roc_dash.js``) sends each file of a drop as the raw body of
``POST /upload?batch=<token>&index=<i>&name=<file name>``, showing a progress bar and a
Cancel button; this route writes it to ``<data dir>/incoming/<token>/`` in chunks, refusing
it with 413 as soon as it passes the size limit (``ROC_DASH_MAX_UPLOAD_MB``, default 200),
while streaming. When every file has arrived the page hands the batch token to a callback,
which reads the files as one dataset (:func:`take_batch`) and deletes the folder.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

from flask import jsonify, request
from werkzeug.exceptions import ClientDisconnected, RequestEntityTooLarge

from ...bidi import without_bidi
from .auth import current_owner
from .limits import (
    BodyTimeout,
    BodyTooLarge,
    ServerBusy,
    busy_response,
    max_upload_bytes,
    unclaimed_seconds,
    upload_slot,
)
from .store import StorageFull, folder_bytes
from .url_prefix import path_under

__all__ = ["max_upload_bytes", "register_upload_route", "take_batch", "MAX_FILES_PER_DROP"]

_TOKEN = re.compile(r"^[A-Za-z0-9_-]{20,64}$")
_CHUNK = 1 << 20
MAX_FILES_PER_DROP = 20
#: Retry-After when too much is arriving at once, seconds.
_INCOMING_RETRY = 10


def max_incoming_bytes() -> int:
    """``ROC_DASH_MAX_INCOMING_MB`` (default four times the upload limit): the most the
    uploads still arriving (or never collected) may hold together."""
    try:
        mb = float(os.environ.get("ROC_DASH_MAX_INCOMING_MB", "0"))
    except ValueError:
        mb = 0.0
    return int(mb * 2**20) if mb > 0 else 4 * max_upload_bytes()


def _safe_name(name: str) -> str:
    """The file's base name, without path parts, control characters or invisible direction
    controls (:mod:`roc_dash.bidi`), at most 200 chars."""
    base = os.path.basename(str(name).replace("\\", "/")).strip()
    base = re.sub(r"[\x00-\x1f\x7f]", "", without_bidi(base))[:200]
    return base or "upload"


def _incoming(root: Path) -> Path:
    path = root / "incoming"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _prune(folder: Path) -> None:
    limit = time.time() - unclaimed_seconds()  # never claimed: a closed tab, or junk
    for batch in folder.iterdir():
        try:
            if batch.stat().st_mtime < limit:
                shutil.rmtree(batch, ignore_errors=True)
        except OSError:
            continue


def _error(status: int, message: str):
    response = jsonify({"ok": False, "error": message})
    response.status_code = status
    return response


def register_upload_route(server, store) -> None:
    """Add ``POST /upload`` (one file of a drop) and ``DELETE /upload`` (cancel a drop),
    under the server's URL prefix (:mod:`.url_prefix`)."""

    @server.route(path_under(server, "upload"), methods=["POST", "DELETE"])
    def upload_file():
        token = request.args.get("batch", "")
        if not _TOKEN.match(token):
            return _error(400, "The upload is missing its batch token; reload the page.")
        folder = _incoming(store.root)
        batch = folder / token
        if request.method == "DELETE":
            shutil.rmtree(batch, ignore_errors=True)
            return jsonify({"ok": True})
        try:
            index = int(request.args.get("index", "0"))
        except ValueError:
            index = -1
        if not 0 <= index < MAX_FILES_PER_DROP:
            return _error(400, f"At most {MAX_FILES_PER_DROP} files can be dropped at once.")
        name = _safe_name(request.args.get("name", ""))
        limit = max_upload_bytes()
        mb = limit / 2**20
        if request.content_length is not None and request.content_length > limit:
            return _error(413, f"{name} is {request.content_length / 2**20:,.1f} MB; the most "
                               f"this server accepts is {mb:,.0f} MB (ROC_DASH_MAX_UPLOAD_MB).")
        need = request.content_length or 0
        if folder_bytes(folder) + need > max_incoming_bytes():
            return busy_response(_incoming_full(name))
        try:  # the uploader's own quota (with sign-in); nobody else's data goes for it
            store.sweep(need=need, owner=current_owner(), arriving=True)
        except StorageFull as exc:
            return _error(507, f"{name} cannot be stored: {exc}. Nothing was changed; ask "
                               "whoever runs the server to free space or raise the quota.")
        try:
            with upload_slot(name):
                return _receive(folder, batch, index, name, limit)
        except ServerBusy as exc:
            return busy_response(exc)


def _incoming_full(name: str) -> ServerBusy:
    return ServerBusy(f"The server is receiving many uploads at once; {name} is sent again "
                      f"in {_INCOMING_RETRY} s.", retry_after=_INCOMING_RETRY)


def _receive(folder: Path, batch: Path, index: int, name: str, limit: int):
    """Write the request's body to ``batch`` in chunks (see :func:`register_upload_route`);
    the body is read through :class:`.limits.GuardedInput` (size, deadline, rate). Each
    chunk is checked against what the drop's folder holds by then (its other files may be
    arriving at the same time) and against all uploads arriving (a body without a length
    was not checked before it began)."""
    mb = limit / 2**20
    _prune(folder)
    batch.mkdir(exist_ok=True)
    target = batch / f"{index:02d}.part"
    written = 0
    incoming = max_incoming_bytes()
    too_large = _error(413, f"{name} is larger than {mb:,.0f} MB, the most this server "
                            "accepts in one drop (ROC_DASH_MAX_UPLOAD_MB).")
    try:
        with open(target, "wb") as fh:
            while True:
                chunk = request.stream.read(_CHUNK)
                if not chunk:
                    break
                written += len(chunk)
                if folder_bytes(batch) + len(chunk) > limit:  # this file's own bytes too
                    raise RequestEntityTooLarge()
                if folder_bytes(folder) + len(chunk) > incoming:
                    fh.close()
                    target.unlink(missing_ok=True)  # this file only: it is sent again,
                    return busy_response(_incoming_full(name))  # the drop's others stay
                fh.write(chunk)
                fh.flush()  # on disk (and counted by the drop's other files) at once
    except (RequestEntityTooLarge, BodyTooLarge):  # ours, or the server's own limit
        shutil.rmtree(batch, ignore_errors=True)
        return too_large
    except BodyTimeout as exc:
        shutil.rmtree(batch, ignore_errors=True)
        return _error(408, f"{name} arrived too slowly ({exc}); the upload was stopped "
                           "and nothing was changed. Try again on a faster connection.")
    except ClientDisconnected:
        shutil.rmtree(batch, ignore_errors=True)
        return _error(400, f"{name}: the upload was interrupted; nothing was changed.")
    except OSError as exc:
        shutil.rmtree(batch, ignore_errors=True)
        return _error(507, f"{name} could not be stored on the server ({exc.strerror}); "
                           "nothing was changed.")
    try:
        (batch / f"{index:02d}.name").write_text(name, encoding="utf-8")
        os.replace(target, batch / f"{index:02d}.data")
    except FileNotFoundError:  # another file of the drop was refused: the drop is gone
        shutil.rmtree(batch, ignore_errors=True)
        return _error(409, f"{name}: the drop it belongs to was refused (another of its "
                           "files was too large or interrupted); nothing was changed.")
    return jsonify({"ok": True, "bytes": written})


def take_batch(store, token) -> list[tuple[str, bytes]] | None:
    """The files of an uploaded batch ``[(name, bytes), ...]`` in drop order, and remove
    the batch from disk; None when the token is malformed or the batch is gone."""
    if not isinstance(token, str) or not _TOKEN.match(token):
        return None
    batch = _incoming(store.root) / token
    if not batch.is_dir():
        return None
    try:
        files = []
        for data in sorted(batch.glob("*.data"))[:MAX_FILES_PER_DROP]:
            name = data.with_suffix(".name").read_text(encoding="utf-8")
            files.append((name, data.read_bytes()))
        return files or None
    except OSError:
        return None
    finally:
        shutil.rmtree(batch, ignore_errors=True)
