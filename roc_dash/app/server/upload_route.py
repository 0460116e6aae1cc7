"""Streaming uploads: files go to disk in chunks, never through a callback's JSON.

``dcc.Upload`` base64-encodes a file into the callback request, which is hopeless past about
100 MB. Instead the page (``assets/roc_dash.js``) sends each file of a drop as the raw body of
``POST /upload?batch=<token>&index=<i>&name=<file name>``, showing a progress bar and a
Cancel button; this route writes it to ``<data dir>/incoming/<token>/`` in chunks, refusing
it with 413 as soon as it passes the size limit (``ROC_DASH_MAX_UPLOAD_MB``, default 200),
while streaming. When every file has arrived the page hands the batch token to a callback,
which reads the files as one dataset (:func:`take_batch`) and deletes the folder.

What may be waiting in ``incoming/`` (uploads arriving, or never claimed: those go after
``ROC_DASH_UPLOAD_TIMEOUT`` + 2 min) is capped twice, as each file begins (by its
Content-Length) and again as each chunk arrives:

* ``ROC_DASH_MAX_INCOMING_MB`` (default four times the upload limit), for everybody
  together: past it the file gets 503 + ``Retry-After`` and the page sends it again;
* ``ROC_DASH_MAX_INCOMING_PER_OWNER_MB`` (default half of that, never less than one upload
  limit), for one owner's batches (the signed-in user, or the browser's key; see
  :mod:`.incoming_share`, which records each batch's owner): past it the file gets 429 with
  a message naming the cap, and the page stops (waiting would not help: its owner's own
  uploads fill the share). One owner who parks uploads can no longer make everybody else's
  "busy". Without sign-in a hostile client can make up owner keys and take several shares;
  the cap for everybody still bounds the total.

Only the file refused is dropped (the drop's files that arrived stay, for the file sent
again); a batch's files, its Cancel and its reading are for the owner who sent its first
file (403 for anyone else).

With ``ROC_DASH_STORE_URL`` set, each file is streamed into the object store as it arrives
(:class:`.incoming_store.StreamedFile`: a multipart upload, at most one block in memory,
nothing on disk but a sparse placeholder the caps count) and read from there by whichever
replica answers the reading; the caps then count what the store holds too. Unset, nothing
here changes.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import shutil
import time
from pathlib import Path

from flask import has_request_context, jsonify, request
from werkzeug.exceptions import ClientDisconnected, RequestEntityTooLarge

from ...text.invisible import without_invisible
from . import incoming_store
from .auth import current_owner
from .incoming_share import (
    IncomingUsage,
    batch_mark,
    claim_batch,
    incoming_usage,
    max_incoming_bytes,
    max_incoming_per_owner_bytes,
    owner_mark,
)
from .limits import (
    BodyTimeout,
    BodyTooLarge,
    ServerBusy,
    busy_response,
    max_upload_bytes,
    unclaimed_seconds,
    upload_slot,
)
from .objects import shared_objects
from .store import StorageFull
from .url_prefix import path_under

__all__ = ["max_incoming_bytes", "max_upload_bytes", "register_upload_route", "take_batch",
           "MAX_FILES_PER_DROP"]

_TOKEN = re.compile(r"^[A-Za-z0-9_-]{20,64}$")
_CHUNK = 1 << 20
MAX_FILES_PER_DROP = 20
#: Retry-After when too much is arriving at once, seconds.
_INCOMING_RETRY = 10


def _safe_name(name: str) -> str:
    """The file's base name, without path parts, control characters or invisible direction
    controls (:mod:`roc_dash.text.invisible`), at most 200 chars."""
    base = os.path.basename(str(name).replace("\\", "/")).strip()
    base = re.sub(r"[\x00-\x1f\x7f]", "", without_invisible(base))[:200]
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
        owner = current_owner()
        mark = owner_mark(owner)
        shared = shared_objects()  # ROC_DASH_STORE_URL: the drop's files go to the store
        try:
            if batch_mark(batch) not in (None, mark) or (
                    shared is not None
                    and incoming_store.stored_mark(shared, token) not in (None, mark)):
                return _not_yours()
            if request.method == "DELETE":
                shutil.rmtree(batch, ignore_errors=True)
                if shared is not None:
                    incoming_store.forget(shared, token)
                return jsonify({"ok": True})
            base = None if shared is None else incoming_store.stored_usage(
                shared, mark, token, unclaimed_seconds())
        except Exception as exc:  # noqa: BLE001 - the store does not answer: sent again
            return busy_response(_store_busy(shared, exc))
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
        usage = incoming_store.added(incoming_usage(folder, mark, token, unclaimed_seconds()),
                                     base)
        if usage.mine + need > max_incoming_per_owner_bytes():  # this owner's share first:
            return _share_full(name, usage, need)  # waiting for others would not help them
        if usage.total + need > max_incoming_bytes():
            return busy_response(_incoming_full(name))
        try:  # the uploader's own quota (with sign-in); nobody else's data goes for it
            store.sweep(need=need, owner=owner, arriving=True)
        except StorageFull as exc:
            return _error(507, f"{name} cannot be stored: {exc}. Nothing was changed; ask "
                               "whoever runs the server to free space or raise the quota.")
        try:
            with upload_slot(name):
                return _receive(folder, batch, index, name, mark, shared, base)
        except ServerBusy as exc:
            return busy_response(exc)


def _store_busy(shared, exc: Exception) -> ServerBusy:
    return ServerBusy(f"{shared.describe()} does not answer ({type(exc).__name__}); the "
                      f"file is sent again in {_INCOMING_RETRY} s.",
                      retry_after=_INCOMING_RETRY)


def _incoming_full(name: str) -> ServerBusy:
    return ServerBusy(f"The server is receiving many uploads at once; {name} is sent again "
                      f"in {_INCOMING_RETRY} s.", retry_after=_INCOMING_RETRY)


def _not_yours():
    return _error(403, "This upload's batch was started by someone else (another browser or "
                       "user): only they can add files to it, cancel it or read it. Nothing "
                       "was changed; reload the page and drop the files again.")


def _share_full(name: str, usage: IncomingUsage, need: int):
    """429 for a file that would take its owner's uploads waiting past their share
    (``ROC_DASH_MAX_INCOMING_PER_OWNER_MB``); ``Retry-After``: when the oldest of them
    expires unclaimed. The page shows the message and does not send the file again."""
    share = max_incoming_per_owner_bytes()
    minutes = math.ceil(unclaimed_seconds() / 60)
    response = _error(429, (
        f"{name} was not accepted: your uploads waiting on this server (sent, not yet read) "
        f"would hold {_mb(usage.mine + need)} MB with it, more than one person's "
        f"share of {_mb(share)} MB (ROC_DASH_MAX_INCOMING_PER_OWNER_MB). Wait until "
        f"your earlier uploads have been read, or cancel them, then drop {name} again "
        f"(uploads never read are removed after {minutes} min)."))
    response.headers["Retry-After"] = str(max(1, math.ceil(usage.mine_expire_in)))
    return response


def _mb(size: int) -> str:
    """``size`` bytes in MB, to a precision that shows small caps too (0.01, 1.8, 400)."""
    mb = size / 2**20
    return f"{mb:,.0f}" if mb >= 10 else f"{mb:.1f}" if mb >= 0.1 else f"{mb:.3g}"


def _check_chunk(folder: Path, batch: Path, mark: str, name: str, size: int, base=None):
    """None when the next ``size`` bytes of ``name`` may be written to ``batch``; else the
    answer for this file only (the drop's other files stay): 429 past its owner's share,
    503 past the cap for everybody. Raise RequestEntityTooLarge when the drop (its files
    arriving together, this one's bytes too) passes the upload limit. ``base``: what the
    object store held as the file began (None: no store)."""
    usage = incoming_store.added(
        incoming_usage(folder, mark, batch.name, unclaimed_seconds()), base)
    if usage.batch + size > max_upload_bytes():
        raise RequestEntityTooLarge()
    if usage.mine + size > max_incoming_per_owner_bytes():
        return _share_full(name, usage, size)
    if usage.total + size > max_incoming_bytes():
        return busy_response(_incoming_full(name))
    return None


def _receive(folder: Path, batch: Path, index: int, name: str, mark: str, shared=None,
             base=None):
    """Write the request's body to ``batch`` in chunks (see :func:`register_upload_route`);
    the body is read through :class:`.limits.GuardedInput` (size, deadline, rate). The
    first file of a drop records its owner (``mark``, :func:`.incoming_share.claim_batch`).
    Each chunk is checked against what the drop's folder holds by then (its other files may
    be arriving at the same time), against its owner's uploads arriving and against all
    uploads arriving (a body without a length was not checked before it began). With the
    object store (``shared``), it is streamed into the store as it arrives
    (:class:`.incoming_store.StreamedFile`) and appears there once whole; ``base``: what
    the store held as the file began."""
    _prune(folder)
    try:
        if not claim_batch(batch, mark):
            return _not_yours()
    except FileNotFoundError:
        return _drop_gone(name)
    if shared is not None:
        try:
            incoming_store.prune(shared, unclaimed_seconds())
            if not incoming_store.claim(shared, batch.name, mark, scratch=folder):
                return _not_yours()
        except Exception as exc:  # noqa: BLE001 - the store does not answer: sent again
            return busy_response(_store_busy(shared, exc))
    target = batch / f"{index:02d}.part"
    too_large = _error(413, f"{name} is larger than {max_upload_bytes() / 2**20:,.0f} MB, "
                            "the most this server accepts in one drop "
                            "(ROC_DASH_MAX_UPLOAD_MB).")
    try:
        sink = (_LocalFile(target) if shared is None
                else incoming_store.StreamedFile(shared, batch.name, index, target))
        written, refused = _stream_body(sink, folder, batch, mark, name, base)
        if refused is not None:
            return refused
    except (RequestEntityTooLarge, BodyTooLarge):  # ours, or the server's own limit
        shutil.rmtree(batch, ignore_errors=True)
        if shared is not None:
            with contextlib.suppress(Exception):
                incoming_store.forget(shared, batch.name)
        return too_large
    except BodyTimeout as exc:
        shutil.rmtree(batch, ignore_errors=True)
        return _error(408, f"{name} arrived too slowly ({exc}); the upload was stopped "
                           "and nothing was changed. Try again on a faster connection.")
    except ClientDisconnected:
        shutil.rmtree(batch, ignore_errors=True)
        return _error(400, f"{name}: the upload was interrupted; nothing was changed.")
    except incoming_store.StoreFailed as exc:  # this file only: sent again
        return busy_response(_store_busy(shared, exc))
    except OSError as exc:
        shutil.rmtree(batch, ignore_errors=True)
        return _error(507, f"{name} could not be stored on the server ({exc.strerror}); "
                           "nothing was changed.")
    try:
        if not batch.is_dir():  # another file of the drop was refused: the drop is gone
            raise FileNotFoundError(batch)
        sink.finish(name, scratch=folder)
    except FileNotFoundError:
        sink.discard()
        shutil.rmtree(batch, ignore_errors=True)
        return _drop_gone(name)
    except incoming_store.StoreFailed as exc:  # the store did not take it: sent again
        return busy_response(_store_busy(shared, exc))
    return jsonify({"ok": True, "bytes": written})


def _stream_body(sink, folder: Path, batch: Path, mark: str, name: str, base):
    """The request's body written to ``sink`` chunk by chunk, each checked first
    (:func:`_check_chunk`); ``(bytes written, None)``, or ``(n, answer)`` when a chunk was
    refused. On a refusal or any error the sink is discarded (nothing kept of this file)."""
    written = 0
    try:
        while True:
            chunk = request.stream.read(_CHUNK)
            if not chunk:
                return written, None
            written += len(chunk)
            refused = _check_chunk(folder, batch, mark, name, len(chunk), base)
            if refused is not None:
                sink.discard()  # this file only: the drop's others stay (a busy file is
                return written, refused  # sent again)
            sink.write(chunk)
    except BaseException:
        sink.discard()
        raise


class _LocalFile:
    """File ``NN`` of a drop received into its batch folder (no object store): written to
    ``NN.part``, flushed chunk by chunk (counted by the drop's other files at once), then
    renamed ``NN.data`` beside its ``NN.name``."""

    def __init__(self, target: Path):
        self.target = target
        self._fh = open(target, "wb")  # noqa: SIM115 - closed by finish/discard

    def write(self, chunk: bytes) -> None:
        self._fh.write(chunk)
        self._fh.flush()

    def finish(self, name: str, *, scratch: Path) -> None:
        self._fh.close()
        stem = self.target.with_suffix("")
        stem.with_suffix(".name").write_text(name, encoding="utf-8")
        os.replace(self.target, stem.with_suffix(".data"))

    def discard(self) -> None:
        self._fh.close()
        self.target.unlink(missing_ok=True)


def _drop_gone(name: str):
    return _error(409, f"{name}: the drop it belongs to was refused (another of its files "
                       "was too large or interrupted); nothing was changed.")


def take_batch(store, token) -> list[tuple[str, bytes]] | None:
    """The files of an uploaded batch ``[(name, bytes), ...]`` in drop order, and remove
    the batch from disk; None when the token is malformed, the batch is gone, or (in a
    request) it was sent by another owner than the request's."""
    if not isinstance(token, str) or not _TOKEN.match(token):
        return None
    batch = _incoming(store.root) / token
    mark = owner_mark(current_owner()) if has_request_context() else None
    shared = shared_objects()
    if shared is not None:  # the drop's files are in the store (any replica received them)
        if mark is not None and batch_mark(batch) not in (None, mark):
            return None
        try:
            return incoming_store.take(shared, token, mark, MAX_FILES_PER_DROP)
        except Exception:  # noqa: BLE001 - the store does not answer: "did not reach"
            return None
        finally:
            shutil.rmtree(batch, ignore_errors=True)
    if not batch.is_dir():
        return None
    if mark is not None and batch_mark(batch) not in (None, mark):
        return None  # someone else's upload: neither read nor removed
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
