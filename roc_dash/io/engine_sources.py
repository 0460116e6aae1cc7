"""The sources an aggregating engine reads, and when a file is better streamed than loaded.

A source is a file, a glob or a directory of Parquet or CSV files (Spark/Hadoop marker and
checksum files skipped), or a table of a DuckDB database file (``warehouse.duckdb::predictions``,
:data:`TABLE_SEPARATOR`); its format is read from the first file's magic bytes and, for
text, the delimiter from its header line (the in-memory reader's rules,
:mod:`roc_dash.io.text_reading`). :func:`should_stream` says when a file is beyond what the
in-memory reader accepts (:mod:`roc_dash.io.size_limits`). See :mod:`roc_dash.io.engines`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import glob
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .decoding import GZIP_MAGIC
from .errors import InputError
from .pinned_files import check_within, linked, opened
from .readers import PARQUET_MAGIC
from .size_limits import limits
from .text_reading import detect_delimiter

_GLOB_CHARS = frozenset("*?[")
#: Between a DuckDB database file and one of its tables: ``warehouse.duckdb::predictions``.
TABLE_SEPARATOR = "::"
#: A DuckDB database file's magic bytes (at offset 8 of its header).
DUCKDB_MAGIC = b"DUCK"
#: Files inside a dataset directory that are not data (Spark/Hadoop markers, checksums, and
#: what else sits beside data in a team's folder: databases, notes, configuration, images).
_SKIPPED_PREFIXES = (".", "_")
_SKIPPED_SUFFIXES = (".crc", ".duckdb", ".db", ".wal", ".md", ".rst", ".json", ".yaml", ".yml",
                     ".log", ".py", ".ipynb", ".html", ".png", ".jpg", ".pdf", ".zip")


# --------------------------------------------------------------------------- sources


@dataclass(frozen=True)
class Source:
    """One command-line argument: a file, or the files of a glob or a directory (one dataset)."""

    name: str  # as given
    files: tuple[str, ...]
    kind: str  # "parquet", "csv" or "duckdb" (a table of a database file)
    delimiter: str = ","
    gzip: bool = False
    dataset: bool = False  # a glob or a directory: its parts together are one source
    table: str | None = None  # of a DuckDB database file (kind "duckdb")
    #: the folder (or file) every file must lie in, also when it is opened (a server's
    #: source: :mod:`roc_dash.io.pinned_files`)
    within: str | None = None
    #: while the files are held open (:func:`opened_source`): the names that read them,
    #: in the order of ``files``
    opened: tuple[str, ...] = ()

    @property
    def readable(self) -> tuple[str, ...]:
        """The names an engine reads: the opened files' while they are held open, else the
        files' own."""
        return self.opened or self.files

    def named(self, text: str) -> str:
        """``text`` (an engine's message) with the opened files' names put back as the
        files' own."""
        if not self.opened:
            return text
        own = dict(zip(self.opened, self.files, strict=False))
        names = "|".join(re.escape(n) for n in sorted(own, key=len, reverse=True))
        return re.sub(f"(?:{names})(?![0-9])", lambda m: own[m.group(0)], text)

    @property
    def model_name_base(self) -> str:
        """What a model is named after when the source has no model column: the file, or the
        directory (of a glob, the directory the pattern is in)."""
        if self.table is not None:
            return self.table
        if not self.dataset or os.path.isdir(self.name):
            return self.name
        head = self.name
        while head and _GLOB_CHARS & set(os.path.basename(head)):
            head = os.path.dirname(head)
        return head or self.name


def is_pattern(arg: str) -> bool:
    """A glob pattern that is not itself an existing path."""
    return bool(_GLOB_CHARS & set(str(arg))) and not os.path.exists(arg)


def _magic(path: str) -> bytes:
    try:
        with open(path, "rb") as fh:
            return fh.read(4)
    except FileNotFoundError:
        raise InputError(f"{path}: file not found. Check the path.", file=path) from None
    except OSError as exc:
        raise InputError(
            f"{path}: cannot be opened ({exc.strerror or type(exc).__name__}). Check the path "
            "and its permissions.",
            file=path,
        ) from None


def _kind(path: str) -> tuple[str, bool]:
    head = _magic(path)
    if head[:4] == PARQUET_MAGIC:
        return "parquet", False
    return "csv", head[:2] == GZIP_MAGIC


def is_duckdb_file(path: str) -> bool:
    """True when ``path`` is a DuckDB database file (read from its header, not its name)."""
    try:  # O_NONBLOCK: a named pipe in its place answers at once instead of waiting
        with open(os.open(path, os.O_RDONLY | os.O_NONBLOCK), "rb") as fh:
            return fh.read(12)[8:12] == DUCKDB_MAGIC
    except OSError:
        return False


def duckdb_tables(path: str, *, shown: str | None = None) -> list[str]:
    """The tables and views of a DuckDB database file, opened read-only, in name order
    (``shown``: the name messages give the file, when ``path`` is the name of an opened
    file, :mod:`roc_dash.io.pinned_files`)."""
    import duckdb

    shown = str(shown or path)
    try:
        con = duckdb.connect(str(path), read_only=True)
    except duckdb.Error as exc:
        message = str(exc).splitlines()[0].replace(str(path), shown)
        raise InputError(
            f"{shown}: cannot be opened as a DuckDB database ({message}). "
            "Check that it is a DuckDB file of this DuckDB version and that no other process "
            "is writing it.",
            file=shown,
        ) from None
    try:
        rows = con.sql("SELECT table_name FROM information_schema.tables "
                       "WHERE table_schema = 'main' ORDER BY table_name").fetchall()
    finally:
        con.close()
    return [r[0] for r in rows]


def _table_source(arg: str, within: str | None = None) -> Source:
    path, _, table = arg.rpartition(TABLE_SEPARATOR)
    if not os.path.isfile(path):
        raise InputError(f"{path}: file not found. Check the path.", file=arg)
    with opened([path], within=within, source=arg) as names:
        if not is_duckdb_file(names[path]):
            raise InputError(
                f"{path}: is not a DuckDB database, so it has no table {table!r}. Give "
                f"'database.duckdb{TABLE_SEPARATOR}table' for a table of a DuckDB file.",
                file=arg,
            )
        check_no_journal(path, arg)
        tables = duckdb_tables(names[path], shown=path)
    if table not in tables:
        shown = ", ".join(repr(t) for t in tables[:10]) or "none"
        raise InputError(
            f"{path}: has no table {table!r} (its tables: {shown}). Check the name after "
            f"{TABLE_SEPARATOR!r}.",
            file=arg,
        )
    return Source(arg, (path,), "duckdb", table=table, within=within)


def check_no_journal(path: str, arg: str) -> None:
    """Refuse a DuckDB database with a write-ahead log beside it (``<file>.wal``: changes
    a writer made and did not yet move into the file, e.g. as it crashed): the file is read
    through its opened descriptor, where DuckDB does not look for that log."""
    if os.path.lexists(path + ".wal"):
        raise InputError(
            f"{path}: has changes not yet written into it ({os.path.basename(path)}.wal "
            "beside it), so it is not read. Open it once with DuckDB (or run CHECKPOINT) "
            "to write them in, then try again.",
            file=arg,
        )


def _header_delimiter(path: str, gz: bool, shown: str | None = None) -> str:
    import gzip

    opener = gzip.open if gz else open
    try:
        with opener(path, "rb") as fh:
            line = fh.readline(1 << 20)
    except (OSError, EOFError):
        shown = shown or path
        raise InputError(
            f"{shown}: cannot be read as text or gzip. Check the file.", file=shown
        ) from None
    return detect_delimiter(line.decode("utf-8", "replace").lstrip("\ufeff"))


def expand_source(arg: str, *, within: str | None = None) -> Source:
    """Files of one argument: a file, a directory (every data file below it, recursively,
    without hidden files, ``_SUCCESS`` markers and ``.crc`` checksums) or a glob pattern
    (``**`` matches directories recursively), or a table of a DuckDB database file
    (``warehouse.duckdb::predictions``). All files of one source must be of one kind.

    ``within``: a folder (or file) that every file must lie in once links are resolved;
    checked before any file is opened, and again on each file as it is opened
    (:mod:`roc_dash.io.pinned_files`; :mod:`roc_dash.app.server.sources`). Every file is read
    through a descriptor opened here, never by a name the reader could take as a pattern."""
    arg = str(arg)
    if TABLE_SEPARATOR in arg and not os.path.exists(arg):
        if within is not None:
            check_within(arg, [arg.rpartition(TABLE_SEPARATOR)[0]], within)
        return _table_source(arg, within)
    if os.path.isdir(arg):
        files = sorted(
            os.path.join(root, f)
            for root, dirs, names in os.walk(arg)
            for f in names
            if not f.startswith(_SKIPPED_PREFIXES) and not f.lower().endswith(_SKIPPED_SUFFIXES)
            and not any(part.startswith(_SKIPPED_PREFIXES)
                        for part in os.path.relpath(root, arg).split(os.sep) if part != ".")
        )
        if not files:
            raise InputError(
                f"{arg}: is a directory without data files. Give a directory of Parquet or "
                "CSV files (e.g. a partitioned dataset), or the files themselves.",
                file=arg,
            )
        dataset = True
    elif is_pattern(arg):
        files = sorted(f for f in glob.glob(arg, recursive=True) if os.path.isfile(f))
        if not files:
            raise InputError(
                f"{arg}: no files match this pattern. Check the pattern (quote it, e.g. "
                "'data/*.parquet', so that the shell does not expand it).",
                file=arg,
            )
        dataset = True
    else:
        files = [arg]
        dataset = False
        if not os.path.exists(arg):
            raise InputError(f"{arg}: file not found. Check the path.", file=arg)
    if within is not None:
        check_within(arg, files, within)
    kinds = {}
    for f in files:
        with opened([f], within=within, source=arg) as names:
            if not dataset and is_duckdb_file(names[f]):
                shown = ", ".join(repr(t) for t in duckdb_tables(names[f], shown=f)[:10])
                raise InputError(
                    f"{arg}: is a DuckDB database; give one of its tables as "
                    f"'{arg}{TABLE_SEPARATOR}TABLE' (its tables: {shown or 'none'}).",
                    file=arg,
                )
            kinds[f] = _kind(names[f])
    distinct = {k for k, _ in kinds.values()}
    if len(distinct) > 1:
        parquet = [f for f, (k, _) in kinds.items() if k == "parquet"][:1]
        text = [f for f, (k, _) in kinds.items() if k == "csv"][:1]
        raise InputError(
            f"{arg}: mixes Parquet files ({parquet[0]}) and other files ({text[0]}). A "
            "dataset must be all Parquet or all CSV; give the kinds separately.",
            file=arg,
        )
    kind = distinct.pop()
    gz = kind == "csv" and any(g for _, g in kinds.values())
    if kind == "csv" and len({g for _, g in kinds.values()}) > 1:
        raise InputError(
            f"{arg}: mixes gzip-compressed and plain text files. Compress all or none.",
            file=arg,
        )
    delimiter = ","
    if kind == "csv":
        with opened(files[:1], within=within, source=arg) as names:
            delimiter = _header_delimiter(names[files[0]], gz, files[0])
    return Source(arg, tuple(files), kind, delimiter, gz, dataset, within=within)


@contextlib.contextmanager
def opened_source(source: Source) -> Iterator[Source]:
    """``source`` with its files held open while the block runs (:func:`opened`, checked to
    lie in ``source.within`` as opened), its ``opened`` names the ones to read them by;
    close the engine's connections to them before the block ends."""
    if source.kind == "duckdb":
        check_no_journal(source.files[0], source.name)
    with contextlib.ExitStack() as held:
        names = held.enter_context(opened(source.files, within=source.within,
                                          source=source.name))
        if source.kind != "duckdb":  # read_parquet/read_csv: key=value folders kept
            names = held.enter_context(linked(names))
        yield dataclasses.replace(source, opened=tuple(names[f] for f in source.files))


def should_stream(args: Sequence[str]) -> bool:
    """``--engine auto``: True when any argument is a glob pattern, a directory or a DuckDB
    table (``db.duckdb::table``), or when the
    files together are more than the in-memory reader accepts: Parquet files holding more
    than ``ROC_DASH_MAX_ROWS`` rows or ``ROC_DASH_MAX_DECOMPRESSED_MB`` of uncompressed data
    (read from their footers), text files bigger than ``ROC_DASH_MAX_DECOMPRESSED_MB``.
    Everything else stays in memory, where ids pair models for DeLong's paired test."""
    import pyarrow.parquet as pq

    lim = limits()
    rows = size = 0
    for arg in args:
        arg = str(arg)
        if os.path.isdir(arg) or is_pattern(arg) or is_duckdb_file(arg) or (
                TABLE_SEPARATOR in arg and not os.path.exists(arg)):
            return True
        try:
            with open(arg, "rb") as fh:
                head = fh.read(4)
            if head[:4] == PARQUET_MAGIC:
                meta = pq.ParquetFile(arg).metadata
                rows += meta.num_rows
                size += sum(meta.row_group(k).total_byte_size
                            for k in range(meta.num_row_groups))
            elif head[:2] != GZIP_MAGIC:
                size += os.path.getsize(arg)
        except Exception:  # noqa: BLE001 - unreadable: the in-memory reader words the error
            continue
        if rows > lim.rows or size > lim.decompressed_bytes:
            return True
    return False
