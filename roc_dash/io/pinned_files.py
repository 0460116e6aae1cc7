"""Files opened exactly as they were checked: no pattern expanded, no link followed late.

A server's sources (:mod:`roc_dash.app.server.sources`) must read only files below the folder
an operator allowed. Checking a path and then handing the *name* to DuckDB leaves two ways
out: DuckDB's ``read_parquet``/``read_csv`` expand ``*``, ``?`` and ``[...]`` in a name as a
pattern (a file named ``[_]x.parquet`` reads the link ``_x.parquet`` beside it, and a folder
named like a pattern matches another folder), and a file replaced by a link between the
check and DuckDB's open is followed wherever it leads.

So a file is opened here, once, and what DuckDB reads is that open file:

1. the path's links are resolved (a link inside the allowed folder to another file inside
   it stays allowed) and the result checked to lie below the allowed folder;
2. that resolved path is opened read-only with ``O_NOFOLLOW`` (a link put in its place since
   the check is refused, ``ELOOP``) and ``O_NONBLOCK`` (a named pipe does not hang the
   worker); the opened file must be a regular file (``fstat``);
3. the kernel's own name of the opened file (``/proc/self/fd/N``, which no later rename or
   link changes) is checked again to lie below the allowed folder: a folder on the way
   swapped for a link since step 1 is caught here;
4. DuckDB is given ``/proc/self/fd/N``: a name without pattern characters that the kernel
   resolves to the open file itself, not to whatever the path names by then. For files
   read by ``read_parquet``/``read_csv`` the name is a link to it in a private folder
   (:func:`linked`), under the path's ``key=value`` folders: DuckDB reads those as columns
   (hive partitioning: ``preds/model=rf/part-0.parquet`` has a ``model`` column), as it did
   from the path itself.

The descriptors stay open until the reading is done (:func:`opened`). On a system without
``/proc/self/fd`` (macOS, BSD) step 3 and 4 are not available: the resolved path is read,
checked again after the open (device and inode), and a name with pattern characters is
refused when a folder is to be kept to.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
import tempfile
from collections.abc import Iterable, Iterator

from .errors import InputError

__all__ = ["FD_FOLDER", "PATTERN_CHARACTERS", "check_within", "linked", "open_checked",
           "opened", "outside"]

#: Where the kernel lists a process's open files, each as a name that opens that very file.
FD_FOLDER = "/proc/self/fd"
#: Characters DuckDB's file readers expand as a pattern (``*``, ``?``, ``[...]``).
PATTERN_CHARACTERS = frozenset("*?[")
_DELETED = " (deleted)"  # what /proc adds to the name of an open file since removed
_SPARE_DESCRIPTORS = 64  # kept free for everything else the process opens meanwhile


def _has_fd_folder() -> bool:
    return os.path.isdir(FD_FOLDER)


def outside(path: str, top: str) -> bool:
    """True when the absolute, link-free ``path`` is neither ``top`` nor below it."""
    return path != top and not path.startswith(top.rstrip(os.sep) + os.sep)


def _leads_outside(arg: str, name: str, within: str) -> InputError:
    return InputError(
        f"{arg}: {name} leads outside the allowed source {within} (through a link), so it "
        "is not read. Ask whoever runs the server to list its real place.",
        file=arg,
    )


def _changing(arg: str, name: str) -> InputError:
    return InputError(
        f"{arg}: {name} was replaced by a link while it was being opened, so it is not "
        "read. Open it again once it has stopped changing.",
        file=arg,
    )


def _real(path: str, arg: str) -> str:
    """``path`` with its links resolved; a link that changes while it is resolved (its
    target read after it stopped being a link: EINVAL) is refused."""
    try:
        return os.path.realpath(path)
    except OSError:
        raise _changing(arg, path) from None


def check_within(arg: str, files: Iterable[str], within: str) -> None:
    """Refuse ``files`` of the source ``arg`` when one of them, its links resolved now, is
    not below ``within`` (a quick check before anything is opened; :func:`open_checked`
    checks the opened file again)."""
    top = _real(within, arg)
    for f in files:
        if outside(_real(f, arg), top):
            raise _leads_outside(arg, f, within)


def _open_error(arg: str, name: str, exc: OSError) -> InputError:
    if exc.errno == errno.ENOENT:
        return InputError(f"{name}: file not found. Check the path.", file=arg)
    if exc.errno == errno.ELOOP:  # the resolved path is a link now: it changed meanwhile
        return _changing(arg, name)
    return InputError(
        f"{name}: cannot be opened ({exc.strerror or type(exc).__name__}). Check the path "
        "and its permissions.",
        file=arg,
    )


def open_checked(path: str, *, within: str | None = None, source: str | None = None) -> int:
    """A read-only descriptor of the regular file ``path``, which lies below ``within``
    (when given) both as checked and as opened; see the module docstring. ``source`` names
    the source in messages (default: ``path``).

    Raises :class:`~roc_dash.io.InputError` when the file is missing, unreadable, not a
    regular file, or leads (or was swapped to lead) outside ``within``.
    """
    arg = source or path
    real = _real(path, arg)
    top = _real(within, arg) if within is not None else None
    if top is not None and outside(real, top):
        raise _leads_outside(arg, path, within)
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(real, flags)
    except OSError as exc:
        raise _open_error(arg, path, exc) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise InputError(f"{arg}: {path} is not a regular file, so it is not read.",
                             file=arg)
        if top is not None:
            if _has_fd_folder():
                where = os.readlink(os.path.join(FD_FOLDER, str(fd)))
                where = where.removesuffix(_DELETED)
            else:  # no kernel name: the resolved path must still be this very file
                try:
                    now = os.stat(real, follow_symlinks=False)
                except OSError:
                    raise _changing(arg, path) from None
                where = real if (now.st_dev, now.st_ino) == (info.st_dev, info.st_ino) else ""
            if not where.startswith(os.sep) or outside(where, top):
                raise _leads_outside(arg, path, within)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _readable_name(fd: int, path: str, within: str | None, arg: str) -> str:
    if _has_fd_folder():
        return os.path.join(FD_FOLDER, str(fd))
    real = _real(path, arg)
    if within is not None and PATTERN_CHARACTERS & set(real):
        raise InputError(
            f"{arg}: {path} has one of the characters * ? [ in its name, which the reader "
            "would take as a pattern, so it is not read here. Rename it.",
            file=arg,
        )
    return real


def _make_room(count: int, arg: str) -> None:
    """Raise this process's soft limit of open files when ``count`` more are needed (up to
    its hard limit); refuse when even that is too few."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not POSIX
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        in_use = len(os.listdir(FD_FOLDER)) if _has_fd_folder() else 0
    except OSError:  # pragma: no cover
        in_use = 0
    needed = in_use + count + _SPARE_DESCRIPTORS
    if soft == resource.RLIM_INFINITY or needed <= soft:
        return
    if hard == resource.RLIM_INFINITY or needed <= hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))
        return
    raise InputError(
        f"{arg}: has {count:,} files, more than this server may hold open at once "
        f"({hard:,} in all). Ask whoever runs the server to raise its limit of open files "
        "(ulimit -n) or to split the folder.",
        file=arg,
    )


@contextlib.contextmanager
def opened(paths: Iterable[str], *, within: str | None = None,
           source: str | None = None) -> Iterator[dict[str, str]]:
    """Open every one of ``paths`` with :func:`open_checked` and yield ``{path: name to
    read}``, the names DuckDB (or Python, in this process) reads the opened files by; every
    descriptor is closed on leaving. Close whatever reads them (a DuckDB connection) before
    leaving: the names point at these descriptors only while they are open."""
    paths = list(dict.fromkeys(paths))
    descriptors: list[int] = []
    try:
        if len(paths) > 1:
            _make_room(len(paths), source or paths[0])
        names = {}
        for path in paths:
            fd = open_checked(path, within=within, source=source)
            descriptors.append(fd)
            names[path] = _readable_name(fd, path, within, source or path)
        yield names
    finally:
        for fd in descriptors:
            with contextlib.suppress(OSError):
                os.close(fd)


@contextlib.contextmanager
def linked(names: dict[str, str]) -> Iterator[dict[str, str]]:
    """For ``{path: name}`` from :func:`opened`: yield ``{path: link}``, each a link to the
    opened file's name in a private folder (``mkdtemp``: this process's alone), placed
    under the ``key=value`` folders of ``path`` in their order, so that DuckDB reads them
    as columns (hive partitioning) as it did from the path; removed on leaving. The links
    are numbered: nothing of a file's own name reaches DuckDB but those folders, and a
    pattern in one of them can match only this folder's links. Names that are not the
    kernel's names of open files (no ``/proc``) are yielded as they are."""
    if not names or not all(n.startswith(FD_FOLDER + os.sep) for n in names.values()):
        yield dict(names)
        return
    farm = tempfile.mkdtemp(prefix="roc-dash-open-")
    try:
        out = {}
        for k, (path, name) in enumerate(names.items()):
            folders = [part for part in os.path.dirname(path).split(os.sep) if "=" in part]
            where = os.path.join(farm, *folders)
            os.makedirs(where, exist_ok=True)
            out[path] = os.path.join(where, str(k))
            os.symlink(name, out[path])
        yield out
    finally:
        shutil.rmtree(farm, ignore_errors=True)
