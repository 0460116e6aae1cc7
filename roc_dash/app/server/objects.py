"""Where the dataset store keeps its files: the data folder (the default) or an S3-compatible
object store (``ROC_DASH_STORE_URL=s3://bucket/prefix``, through fsspec/s3fs).

The stored tables (``datasets/<id>.parquet`` and their ``datasets/<id>.json`` sidecars), the
notes and saved views (``views/<key>.json``), the put-off removals (``removals/<id>.json``),
the notes of deleted datasets (``gone/<id>.json``), the Monitor tab's kept files
(``monitor/<id>.bin`` and their ``monitor/<id>.json`` descriptions, :mod:`.monitor_files`),
the uploads arriving (``incoming/<token>.<NN>.data``, :mod:`.incoming_store`) and the
rejected uploads kept (``pending/<token>.<NN>.bin``, :mod:`.pending_store`)
are read and written here through one
small interface: :meth:`Objects.read_bytes`, :meth:`Objects.write`, :meth:`Objects.exists`,
:meth:`Objects.remove`, :meth:`Objects.entries` and :meth:`Objects.touch`.

**Keys** are built by the server: a folder of :data:`FOLDERS` and a name of
:data:`NAME_PATTERN` or the folder's own in :data:`FOLDER_NAMES` (ids the server handed out, hex digests; never a file name a user gave).
Every call checks its key at the moment it uses it (:func:`check_key`), so a crafted id with
``*``, ``..``, ``/``, ``%2F`` or a space is refused even if a caller forgot to check it.
Nothing here expands globs or follows links: the S3 side uses ``cat_file``, ``put_file``,
``open`` (a multipart upload, for a file streamed in as it arrives), ``info``, ``rm_file`` and
a plain ``ls`` of a fixed folder, whose names are filtered through the same check.

**Writes are atomic from the readers' view**: the data folder writes a temporary file beside
the target and renames it over (as before); S3 uploads a finished local file in one PUT, or
streams a file arriving as a multipart upload completed at its end, and an object appears
whole or not at all.

Last use (the expiry clock and the least-recently-used order of the quota) is a file's
modification time; on S3, an object's ``LastModified``: :meth:`Objects.touch` writes the
small object again.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

#: The folders the store keeps objects in (anything else is refused).
FOLDERS = ("datasets", "views", "removals", "gone", "monitor", "incoming", "pending")
#: An object's name: an id the server handed out (or a hex digest) and its kind.
NAME_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,64}\.(?:parquet|json)$")
#: The names of a folder whose objects are not tables and records: a Monitor file's id (as
#: :mod:`.dataset_ids` hands ids out) with its content (``.bin``) or description (``.json``).
FOLDER_NAMES = {"monitor": re.compile(r"^[A-Za-z0-9_-]{20,64}\.(?:bin|json)$"),
                # an upload arriving (:mod:`.incoming_store`): a batch token, then a file's
                # index and its content or name, or the batch's owner
                "incoming": re.compile(r"^[A-Za-z0-9_-]{20,64}\.(?:\d\d\.(?:data|name)|owner)$"),
                # a rejected upload kept (:mod:`.pending_store`): its files, then their names
                "pending": re.compile(r"^[A-Za-z0-9_-]{20,64}\.(?:\d\d\.bin|json)$")}
_BUCKET = re.compile(r"^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$")
_PREFIX_PART = re.compile(r"^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$")


def atomic_write(path: Path, write, *, folder: Path) -> None:
    """``write(tmp)`` to a temporary file in ``folder`` (the same file system as ``path``),
    then rename it to ``path``: a reader sees the old file or the new one, never half."""
    fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class BadKey(ValueError):
    """A key that is not one the server builds (refused before any storage is touched)."""


def check_key(key) -> tuple[str, str]:
    """``(folder, name)`` of a valid key ``"<folder>/<name>"``; raise :class:`BadKey`."""
    if not isinstance(key, str) or key.count("/") != 1:
        raise BadKey(f"not a store key: {key!r}")
    folder, name = key.split("/")
    if folder not in FOLDERS or not name_pattern(folder).match(name):
        raise BadKey(f"not a store key: {key!r}")
    return folder, name


def name_pattern(folder: str) -> re.Pattern:
    """The names the objects of ``folder`` may have (:data:`NAME_PATTERN` unless
    :data:`FOLDER_NAMES` says otherwise)."""
    return FOLDER_NAMES.get(folder, NAME_PATTERN)


@dataclass(frozen=True)
class Entry:
    """One object of a folder: its name, size in bytes and last change (epoch seconds)."""

    name: str
    size: int
    mtime: float


class Objects:
    """The interface of both backends (see the module's docstring)."""

    shared = False
    """True when the objects live apart from the data folder (S3): the quota adds them."""

    def read_bytes(self, key: str) -> bytes:  # pragma: no cover - interface
        raise NotImplementedError

    def write(self, key: str, write, *, scratch: Path) -> None:  # pragma: no cover
        """``write(path)`` writes the content to a local file; it is published at ``key``
        whole (``scratch``: a local folder for the temporary file)."""
        raise NotImplementedError

    def exists(self, key: str) -> bool:  # pragma: no cover - interface
        raise NotImplementedError

    def remove(self, key: str) -> None:  # pragma: no cover - interface
        raise NotImplementedError

    def entries(self, folder: str) -> list[Entry]:  # pragma: no cover - interface
        raise NotImplementedError

    def touch(self, key: str) -> None:  # pragma: no cover - interface
        raise NotImplementedError

    def write_bytes(self, key: str, data: bytes, *, scratch: Path) -> None:
        self.write(key, lambda p: Path(p).write_bytes(data), scratch=scratch)

    def total_bytes(self) -> int:
        """Bytes of every object in :data:`FOLDERS` but uploads arriving and rejected ones
        kept (they have their own caps, ``ROC_DASH_MAX_INCOMING_MB`` and twice the upload
        limit, and never make a dataset go)."""
        return sum(e.size for folder in FOLDERS if folder not in ("incoming", "pending")
                   for e in self.entries(folder))

    def describe(self) -> str:  # pragma: no cover - interface
        raise NotImplementedError

    def unreachable(self) -> str | None:
        """None when the store answers, else a sentence saying what is wrong and what to do
        (what ``/ready`` reports)."""
        return None


class LocalObjects(Objects):
    """Files under the data folder (``<root>/<folder>/<name>``): today's layout."""

    def __init__(self, root: Path):
        self.root = Path(root)

    def path(self, key: str) -> Path:
        folder, name = check_key(key)
        return self.root / folder / name

    def read_bytes(self, key: str) -> bytes:
        return self.path(key).read_bytes()

    def write(self, key: str, write, *, scratch: Path | None = None) -> None:
        path = self.path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, write, folder=path.parent)

    def exists(self, key: str) -> bool:
        return self.path(key).exists()

    def remove(self, key: str) -> None:
        self.path(key).unlink(missing_ok=True)

    def entries(self, folder: str) -> list[Entry]:
        if folder not in FOLDERS:
            raise BadKey(f"not a store folder: {folder!r}")
        out = []
        try:
            listed = list(os.scandir(self.root / folder))
        except OSError:
            return []
        for item in listed:
            if not name_pattern(folder).match(item.name):
                continue
            try:
                if not item.is_file(follow_symlinks=False):
                    continue
                stat = item.stat(follow_symlinks=False)
            except OSError:
                continue
            out.append(Entry(item.name, stat.st_size, stat.st_mtime))
        return out

    def touch(self, key: str) -> None:
        with contextlib.suppress(OSError):
            os.utime(self.path(key))

    def total_bytes(self) -> int:
        return 0  # the data folder's own count (folder_bytes) holds them already

    def describe(self) -> str:
        return f"the data folder {self.root}"


class S3Objects(Objects):
    """Objects in an S3-compatible store, through s3fs (the bucket must exist)."""

    shared = True

    def __init__(self, url: str):
        self.bucket, self.prefix = parse_store_url(url)
        self._fs, self._pid = None, None

    @property
    def fs(self):
        """This process's s3fs file system: made on first use in each process (s3fs is not
        fork-safe, and gunicorn forks its workers from a master that made the store)."""
        if self._fs is None or self._pid != os.getpid():
            self._fs, self._pid = s3_filesystem(), os.getpid()
        return self._fs

    def path(self, key: str) -> str:
        folder, name = check_key(key)
        return "/".join(p for p in (self.bucket, self.prefix, folder, name) if p)

    def read_bytes(self, key: str) -> bytes:
        return self.fs.cat_file(self.path(key))

    def write(self, key: str, write, *, scratch: Path) -> None:
        path = self.path(key)
        Path(scratch).mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=scratch, suffix=".tmp")
        os.close(fd)
        try:
            write(tmp)
            self.fs.put_file(tmp, path)  # one PUT: the object appears whole or not at all
        finally:
            Path(tmp).unlink(missing_ok=True)

    def open_stream(self, key: str, block_size: int):
        """A file to write ``key`` in parts of ``block_size`` bytes (at least 5 MiB, S3's
        smallest part): each full block is sent as a part of a multipart upload, so at
        most one block is held in memory; ``close()`` completes the object (one PUT when
        it stayed under a block), ``discard()`` aborts it and nothing is stored. Never use
        it in a ``with`` block: fsspec's ``__exit__`` would complete a failed upload."""
        return self.fs.open(self.path(key), "wb", block_size=block_size)

    def exists(self, key: str) -> bool:
        try:
            self.fs.info(self.path(key))
        except FileNotFoundError:
            return False
        return True

    def remove(self, key: str) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.fs.rm_file(self.path(key))

    def entries(self, folder: str) -> list[Entry]:
        if folder not in FOLDERS:
            raise BadKey(f"not a store folder: {folder!r}")
        where = "/".join(p for p in (self.bucket, self.prefix, folder) if p)
        try:
            listed = self.fs.ls(where, detail=True, refresh=True)
        except FileNotFoundError:
            return []
        out = []
        for item in listed:
            name = str(item.get("name", "")).rsplit("/", 1)[-1]
            if item.get("type") != "file" or not name_pattern(folder).match(name):
                continue
            out.append(Entry(name, int(item.get("size") or 0), _mtime(item)))
        return out

    def touch(self, key: str) -> None:
        """A new ``LastModified``: the (small) object written again (S3 has no utime)."""
        path = self.path(key)
        with contextlib.suppress(FileNotFoundError, OSError):
            self.fs.pipe_file(path, self.fs.cat_file(path))

    def describe(self) -> str:
        return f"the object store s3://{self.bucket}/{self.prefix}".rstrip("/")

    def unreachable(self) -> str | None:
        try:
            self.fs.info(self.bucket)  # HEAD of the bucket
        except FileNotFoundError:
            return (f"the object store's bucket {self.bucket!r} does not exist: create it, "
                    f"or correct {STORE_VAR}")
        except Exception as exc:  # noqa: BLE001 - whatever the client says, reported
            return (f"{self.describe()} does not answer ({type(exc).__name__}: "
                    f"{str(exc)[:160]}): check ROC_DASH_S3_ENDPOINT_URL, the credentials "
                    "(AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY) and the network")
        return None


def _mtime(item: dict) -> float:
    when = item.get("LastModified") or item.get("mtime")
    if hasattr(when, "timestamp"):
        return float(when.timestamp())
    try:
        return float(when)
    except (TypeError, ValueError):
        return 0.0


def parse_store_url(url: str) -> tuple[str, str]:
    """``(bucket, prefix)`` of ``s3://bucket[/prefix]``; raise ValueError saying what is
    wrong."""
    what = ("ROC_DASH_STORE_URL must be s3://bucket or s3://bucket/prefix (letters, digits, "
            f"'.', '-', '_'); got {url!r}")
    if not isinstance(url, str) or not url.startswith("s3://"):
        raise ValueError(what)
    bucket, _, prefix = url[len("s3://"):].partition("/")
    parts = [p for p in prefix.split("/") if p]
    if not _BUCKET.match(bucket) or ".." in bucket or any(
            not _PREFIX_PART.match(p) or set(p) == {"."} for p in parts):
        raise ValueError(what)
    return bucket, "/".join(parts)


def s3_filesystem():
    """An s3fs file system from the standard AWS variables (``AWS_ACCESS_KEY_ID``,
    ``AWS_SECRET_ACCESS_KEY``, ``AWS_DEFAULT_REGION``, ...) and ``ROC_DASH_S3_ENDPOINT_URL``
    (or ``AWS_ENDPOINT_URL``) for a store other than AWS's; no listing cache (another
    replica may have changed a folder since)."""
    try:
        import s3fs
    except ImportError as exc:  # pragma: no cover - the s3 extra not installed
        raise RuntimeError("ROC_DASH_STORE_URL names an S3 store but s3fs is not installed: "
                           "pip install 'roc-dash[s3]'") from exc
    endpoint = os.environ.get("ROC_DASH_S3_ENDPOINT_URL") or os.environ.get("AWS_ENDPOINT_URL")
    client = {"endpoint_url": endpoint} if endpoint else {}
    # a store that does not answer is told within seconds (not after botocore's retries)
    config = {"connect_timeout": 5, "read_timeout": 60, "retries": {"max_attempts": 3}}
    return s3fs.S3FileSystem(client_kwargs=client, config_kwargs=config,
                             use_listings_cache=False, skip_instance_cache=True)


#: The standard AWS variables the S3 client reads (botocore; named here for the deployment
#: files and their tests): the credentials and the region of the store.
AWS_VARIABLES = ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_DEFAULT_REGION")
#: The variable that names the store (unset: the data folder).
STORE_VAR = "ROC_DASH_STORE_URL"


def store_url() -> str | None:
    """``ROC_DASH_STORE_URL`` (None: the data folder)."""
    return os.environ.get(STORE_VAR) or None


def check_store_url() -> None:
    """Raise ValueError saying what is wrong with ``ROC_DASH_STORE_URL`` (a malformed URL,
    s3fs not installed); nothing when it is unset or usable (checked at start-up)."""
    url = store_url()
    if url is None:
        return
    parse_store_url(url)
    try:
        import s3fs  # noqa: F401
    except ImportError:
        raise ValueError(f"{STORE_VAR} names an S3 store but s3fs is not installed: "
                         "pip install 'roc-dash[s3]'") from None


_SHARED: dict[str, S3Objects] = {}  # by URL and endpoint


def shared_objects() -> S3Objects | None:
    """The object store ``ROC_DASH_STORE_URL`` names (one per URL and process, for what is
    kept apart from a dataset store: Monitor files, uploads arriving), None when unset."""
    url = store_url()
    if url is None:
        return None
    key = "|".join((url, os.environ.get("ROC_DASH_S3_ENDPOINT_URL", ""),
                    os.environ.get("AWS_ENDPOINT_URL", "")))
    if key not in _SHARED:
        _SHARED[key] = S3Objects(url)
    return _SHARED[key]


def open_objects(root: Path) -> Objects:
    """The backend the environment names: S3 with ``ROC_DASH_STORE_URL``, else the data
    folder ``root``."""
    url = store_url()
    return S3Objects(url) if url else LocalObjects(root)
