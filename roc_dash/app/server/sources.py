"""Data where it lives: the server-side sources an operator allows, and opening one in the page.

A team's predictions often sit on the server, in a folder of Parquet files or a DuckDB
database, too big to upload. The operator lists the allowed sources in ``ROC_DASH_SOURCES``
(separated by ``:``, like ``PATH``):

* a directory: offered whole (every data file below it is one dataset, e.g. a partitioned
  Parquet dataset) and each data file or sub-directory directly in it;
* a glob pattern (``/srv/preds/*.parquet``): offered as one dataset;
* a DuckDB database file (``/srv/warehouse.duckdb``): each of its tables;
* a single Parquet or CSV file.

The page lists these offers (:func:`offers`) beside the upload and opens one through the
DuckDB engine of ``roc-dash report --engine duckdb`` (:func:`roc_dash.io.aggregate_predictions`):
the rows are aggregated where they lie, to counts per (model, fold, score, label), and only
those counts are stored as the dataset, so the page never holds the rows. The aggregation
runs in a background thread of the worker that was asked (:class:`SourceJobs`); its progress
is written to a small job file under the data directory, so that any worker can answer the
page's polls.

Only what is offered can be opened: :func:`resolve` accepts exactly an offered value, and
refuses every file that is not below the allowed entry it came from once links are resolved
(a link in an allowed folder that points elsewhere, ``..``, an absolute path). Each file is
checked again as it is opened, and DuckDB reads the opened file, never its name
(:mod:`roc_dash.io.pinned_files`): a name with pattern characters (``[_]x.parquet``) reads
that file alone, and a file swapped for a link after the check is refused. A database that a
link takes outside its folder is not offered, and its tables are not listed.

Names are shown as uploads' are: without invisible format characters (a right-to-left
override, U+202E, would draw the rest of a label reversed; :mod:`roc_dash.text.invisible`) and
control characters; two offers that read alike then show their paths with such characters
written out (``<U+202E>``). What is opened is still the exact path.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import secrets
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from ...io import InputError
from ...io.engine_sources import (
    TABLE_SEPARATOR,
    Source,
    check_no_journal,
    duckdb_tables,
    expand_source,
    is_duckdb_file,
    is_pattern,
)
from ...io.engines import aggregate_predictions
from ...io.pinned_files import opened
from ...text.invisible import shown_plainly, without_invisible
from .retention import env_number
from .store import DatasetStore, StorageFull

__all__ = ["open_queued_source", "SOURCES_VAR", "Offer", "configured", "offers", "resolve", "source_digest",
           "SourceJobs", "MAX_OFFERS", "shown_message", "shown_name", "shown_path"]

log = logging.getLogger(__name__)

#: The environment variable that lists the allowed sources.
SOURCES_VAR = "ROC_DASH_SOURCES"
#: At most this many offers are listed (a directory of thousands of files lists its first).
MAX_OFFERS = 200
#: Files a directory offers one by one (others are skipped, as the engine skips them).
DATA_SUFFIXES = (".parquet", ".pq", ".csv", ".tsv", ".txt", ".gz")
#: DuckDB's memory for one source, in MB (beyond it, DuckDB spills to a temporary folder): it
#: runs inside a worker, whose memory budget it shares.
MEMORY_VAR = "ROC_DASH_SOURCE_MEMORY_MB"
#: Job files older than this are removed when a new job starts.
JOB_KEEP_SECONDS = 24 * 3600.0


@dataclass(frozen=True)
class Offer:
    """One source the page may open: ``value`` is what the engine reads (a path, a pattern
    or ``database.duckdb::table``), ``label`` what the list shows (short: the folder's or
    database's name and what is in it), ``root`` the allowed entry
    of ``ROC_DASH_SOURCES`` it comes from (every file read must lie below it)."""

    value: str
    label: str
    root: str


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def shown_name(text: str) -> str:
    """A name as the page shows it: without invisible format characters and control
    characters (the rule of uploaded files' names)."""
    return _CONTROL.sub("", without_invisible(str(text)))


def shown_path(text: str) -> str:
    """A path as the page shows it where it must be told apart from another (a tooltip,
    offers that read alike): its invisible characters written out, ``<U+202E>``, control
    characters dropped."""
    return _CONTROL.sub("", shown_plainly(str(text)))


def shown_message(exc: BaseException) -> str:
    """A message about a source, without the invisible characters of the names in it."""
    return without_invisible(str(exc))


def configured() -> list[str]:
    """The entries of ``ROC_DASH_SOURCES``, in order, without empty ones and repeats."""
    raw = os.environ.get(SOURCES_VAR, "")
    return list(dict.fromkeys(e.strip() for e in raw.split(os.pathsep) if e.strip()))


def _pattern_root(pattern: str) -> str:
    head = pattern
    while head and set("*?[") & set(os.path.basename(head)):
        head = os.path.dirname(head)
    return head or "."


def _directory_offers(entry: str) -> list[Offer]:
    name = entry.rstrip(os.sep) or os.sep
    short = os.path.basename(name) or name
    out = [Offer(name, f"{short}{os.sep} (all its files)", name)]
    try:
        children = sorted(os.scandir(name), key=lambda e: e.name)
    except OSError as exc:
        log.warning("%s: %s lists %s, which cannot be read: %s", SOURCES_VAR, SOURCES_VAR,
                    name, exc)
        return []
    for child in children:
        if child.name.startswith((".", "_")):
            continue
        if child.is_dir() or child.name.lower().endswith(DATA_SUFFIXES):
            out.append(Offer(child.path, os.path.join(short, child.name)
                             + (os.sep if child.is_dir() else ""), name))
        elif child.is_file() and is_duckdb_file(child.path):
            out.extend(_database_offers(child.path, root=name))
    return out


def _database_offers(path: str, root: str | None = None) -> list[Offer]:
    """Each table of the database ``path``, read from the file as opened below ``root``
    (a link that leads outside it lists nothing)."""
    try:
        with opened([path], within=root or path) as names:
            check_no_journal(path, path)
            tables = duckdb_tables(names[path], shown=path)
    except InputError as exc:
        log.warning("%s: %s", SOURCES_VAR, exc)
        return []
    return [Offer(f"{path}{TABLE_SEPARATOR}{t}", f"{os.path.basename(path)} › {t}",
                  root or path) for t in tables]


def offers() -> list[Offer]:
    """What the page offers, read afresh from ``ROC_DASH_SOURCES`` and the file system
    (entries that do not exist are skipped, and logged)."""
    out: list[Offer] = []
    for entry in configured():
        if is_pattern(entry):
            out.append(Offer(entry, f"{entry} (every matching file)", _pattern_root(entry)))
        elif os.path.isdir(entry):
            out.extend(_directory_offers(entry))
        elif os.path.isfile(entry) and is_duckdb_file(entry):
            out.extend(_database_offers(entry))
        elif os.path.isfile(entry):
            out.append(Offer(entry, entry, entry))
        else:
            log.warning("%s lists %s, which does not exist: not offered", SOURCES_VAR, entry)
    unique = [Offer(o.value, shown_name(o.label), o.root)
              for o in list({o.value: o for o in out}.values())[:MAX_OFFERS]]
    labels = [o.label for o in unique]
    # two offers that read alike (two databases of one name) are told apart by their path
    return [o if labels.count(o.label) == 1 else Offer(o.value, shown_path(o.value), o.root)
            for o in unique]


def resolve(value) -> Source:
    """The source of an offered ``value``, its files checked to lie below its allowed entry.

    Raises :class:`~roc_dash.io.InputError` for anything else: a value that is not offered
    (another path, ``..``, an absolute path), or a file that a link takes outside.
    """
    if not isinstance(value, str) or not value or len(value) > 4096:
        raise InputError("Choose one of the server's data sources from the list.")
    offered = {o.value: o for o in offers()}
    offer = offered.get(value)
    if offer is None:
        raise InputError(
            f"{shown_path(value[:200])}: is not one of the data sources this server allows, "
            f"so it is not read. Choose one from the list; whoever runs the server sets them "
            f"({SOURCES_VAR}).",
            file=shown_path(value[:200]),
        )
    source = expand_source(value, within=offer.root)
    return source


def source_digest(source: Source) -> str:
    """A digest of what a source holds now (its files' paths, sizes and modification times,
    and the table), so that opening it twice unchanged is recognised as "already loaded"."""
    h = hashlib.sha256(f"source\0{source.table or ''}".encode())
    for f in source.files:
        st = os.stat(f)
        h.update(f"\0{os.path.realpath(f)}\0{st.st_size}\0{st.st_mtime_ns}".encode())
    return "source:" + h.hexdigest()


class SourceJobs:
    """Sources being opened: each a background thread writing its progress to a job file
    (``<data dir>/jobs/<token>.json``) that every worker can read.

    One source is read at a time per worker (a second one is refused with a message, not
    queued: the DuckDB aggregation uses both cores).
    """

    _busy = threading.Lock()

    def __init__(self, store: DatasetStore):
        self.store = store
        self.folder = Path(store.root) / "jobs"
        # replicas (ROC_DASH_REDIS_URL): the states in Redis, with a heartbeat
        from .shared_state import RedisJobs, redis_url

        self.shared = RedisJobs(JOB_KEEP_SECONDS) if redis_url() is not None else None

    def _path(self, token: str) -> Path:
        if not isinstance(token, str) or not token.replace("-", "").replace("_", "").isalnum():
            raise KeyError(token)
        return self.folder / f"{token}.json"

    def _write(self, token: str, **state) -> None:
        path = self._path(token)
        if self.shared is not None:
            self.shared.write(token, state)
            return
        tmp = path.with_name(f"{path.stem}.{threading.get_ident()}.part")
        tmp.write_text(json.dumps(state))
        os.replace(tmp, path)

    def status(self, token) -> dict | None:
        """The job's state: ``{"state": "running", "fraction", "source"}``, ``{"state":
        "done", "dataset_id", "label", "rows", "notes"}`` or ``{"state": "failed",
        "error"}``; None for an unknown token."""
        try:
            if self.shared is not None:
                return self.shared.status(self._path(token).stem)
            data = json.loads(self._path(token).read_text())
        except (KeyError, OSError, ValueError):
            return None
        except Exception:  # noqa: BLE001 - Redis unreachable: the page shows it as unknown
            log.warning("roc-dash: the job's state could not be read", exc_info=True)
            return None
        return data if isinstance(data, dict) else None

    def _prune(self) -> None:
        cutoff = time.time() - JOB_KEEP_SECONDS
        for path in self.folder.glob("*"):
            try:
                if path.stat().st_mtime < cutoff:
                    path.unlink()
            except OSError:
                continue

    def start(self, source: Source, *, owner=None, label: str | None = None) -> str:
        """Start opening ``source`` (from :func:`resolve`); return the job's token.

        Raises :class:`~roc_dash.io.InputError` when this worker is already reading one.
        With ``ROC_DASH_JOBS=celery`` the job is queued to the Celery workers instead
        (:mod:`.job_queue`), and this worker reads nothing.
        """
        from . import job_queue

        if job_queue.queued():
            token = secrets.token_urlsafe(18)
            label = shown_name(label or source.name)
            self._write(token, state="running", fraction=0.0, source=source.name,
                        label=label, queued=True)
            job_queue.submit(token, source.name, owner, label)
            return token
        if not self._busy.acquire(blocking=False):
            raise InputError("This server is already opening a data source; try again when "
                             "it has finished.")
        label = shown_name(label or source.name)
        try:
            if self.shared is None:  # (in Redis, a job's state expires by itself)
                self.folder.mkdir(parents=True, exist_ok=True)
                self._prune()
            token = secrets.token_urlsafe(18)
            self._write(token, state="running", fraction=0.0, source=source.name,
                        label=label)
            thread = threading.Thread(
                target=self._run, args=(token, source, owner, label),
                name="roc-dash-source", daemon=True)
            thread.start()
        except BaseException:
            self._busy.release()
            raise
        return token

    def _run(self, token: str, source: Source, owner, label: str) -> None:
        beating = threading.Event()
        if self.shared is not None:
            threading.Thread(target=self._heartbeat, args=(token, beating),
                             name="roc-dash-source-beat", daemon=True).start()
        try:
            self._aggregate(token, source, owner, label)
        finally:
            beating.set()

    def _heartbeat(self, token: str, done: threading.Event) -> None:
        """Say in Redis that this replica still runs the job, until it is done."""
        from .shared_state import JOB_HEARTBEAT_SECONDS

        while not done.wait(JOB_HEARTBEAT_SECONDS):
            try:
                self.shared.beat(token)
            except Exception:  # noqa: BLE001 - the next beat tries again
                log.warning("roc-dash: a source job's heartbeat failed", exc_info=True)

    def _aggregate(self, token: str, source: Source, owner, label: str) -> None:
        started = time.monotonic()

        def progress(fraction: float, _name: str) -> None:
            self._write(token, state="running", fraction=round(fraction, 4),
                        source=source.name, label=label,
                        seconds=round(time.monotonic() - started, 1))

        try:
            digest = source_digest(source)
            # the files resolve() checked, not the path again (a link added since is not read)
            result = aggregate_predictions([source], engine="duckdb", progress=progress,
                                           memory_mb=env_number(MEMORY_VAR, 512))
            info = self.store.put(result.table, files=[label], notes=result.notes,
                                  digests=[digest], owner=owner, kind=result.kind)
            rows = int(result.table.attrs.get("input_rows", 0))
            self._write(token, state="done", dataset_id=info.id, label=label, rows=rows,
                        models=list(info.models),
                        notes=[without_invisible(n) for n in result.notes],
                        seconds=round(time.monotonic() - started, 1))
        except InputError as exc:
            self._write(token, state="failed", error=shown_message(exc))
        except OSError as exc:  # a file that changed while it was looked at (a racing link)
            self._write(token, state="failed",
                        error=f"{label}: changed while it was being opened "
                              f"({exc.strerror or type(exc).__name__}). Nothing was changed; "
                              "open it again once it has stopped changing.")
        except StorageFull as exc:
            self._write(token, state="failed",
                        error=f"{label}: not stored: {exc}. Nothing was changed; ask whoever "
                              "runs the server to free space or raise the quota.")
        except Exception:  # never a traceback in the page; the log keeps it
            log.exception("opening the data source %s failed", source.name)
            self._write(token, state="failed",
                        error=f"{label}: could not be opened because of an internal error. "
                              "Nothing was changed; the server log has details.")
        finally:
            self._busy.release()


def open_queued_source(token: str, value: str, owner, label: str) -> None:
    """A queued source job (:mod:`.job_queue`), in a Celery worker: resolve ``value`` again
    (only what this worker's ``ROC_DASH_SOURCES`` offers is read), aggregate, store, report."""
    jobs = SourceJobs(DatasetStore())
    try:
        source = resolve(value)
    except InputError as exc:
        jobs._write(token, state="failed", error=shown_message(exc))
        return
    except OSError as exc:
        jobs._write(token, state="failed",
                    error=f"{label}: cannot be read ({exc.strerror or type(exc).__name__}). "
                          "Ask whoever runs the server to check it.")
        return
    SourceJobs._busy.acquire()  # one job per worker process (released by the job)
    jobs._write(token, state="running", fraction=0.0, source=source.name, label=label)
    jobs._run(token, source, owner, label)
