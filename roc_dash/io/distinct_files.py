"""Files told apart by their contents, each read and hashed once.

A drop of files (or the files of one command) may hold the same bytes twice, under one name
or two, or a file already loaded: counted again, its predictions would weigh twice.
:func:`distinct_files` reads every source once, takes its :func:`content_digest` once and
sorts it into the files to read (:class:`SourceFile`), those already loaded and the twins of
an earlier file of the same call. :func:`~roc_dash.io.loading.load_predictions` takes the
result as it is: the files are neither read nor hashed nor compared again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .canonical import content_digest
from .readers import read_source

__all__ = ["SourceFile", "DistinctFiles", "distinct_files", "source_file"]


@dataclass(frozen=True)
class SourceFile:
    """One file's name, bytes and :func:`content_digest`; unpacks as ``(name, bytes)`` like
    the pairs it is made from."""

    name: str
    data: bytes = field(repr=False)
    digest: str

    def __iter__(self):
        return iter((self.name, self.data))


@dataclass(frozen=True)
class DistinctFiles:
    """The files of one call sorted by contents, in the order given.

    ``fresh``: the files to read, no two with the same bytes; ``known``: ``(name, what it is
    loaded as)`` of each file whose digest was in ``known``; ``twins``: ``(name, name of the
    first file with the same bytes)`` of each later copy in the same call.
    """

    fresh: tuple[SourceFile, ...]
    known: tuple[tuple[str, object], ...] = ()
    twins: tuple[tuple[str, str], ...] = ()

    @property
    def digests(self) -> tuple[str, ...]:
        """The digests of the fresh files, in order."""
        return tuple(f.digest for f in self.fresh)


def source_file(source: object) -> SourceFile:
    """A path or ``(filename, bytes)`` pair read (once) and hashed (once)."""
    if isinstance(source, SourceFile):
        return source
    name, data = read_source(source)
    return SourceFile(name, data, content_digest(data))


def distinct_files(sources: Iterable[object],
                   known: Mapping[str, object] | None = None) -> DistinctFiles:
    """Read and hash each of ``sources`` (paths, ``(filename, bytes)`` pairs or
    :class:`SourceFile`) once and sort them by contents.

    ``known`` maps the digest of each file already loaded to what it is loaded as (e.g. its
    dataset); such files are neither fresh nor twins.
    """
    known = known or {}
    fresh: list[SourceFile] = []
    already: list[tuple[str, object]] = []
    twins: list[tuple[str, str]] = []
    seen: dict[str, str] = {}  # digest -> name of the first file with these contents
    for source in sources:
        item = source_file(source)
        if item.digest in known:
            already.append((item.name, known[item.digest]))
        elif item.digest in seen:
            twins.append((item.name, seen[item.digest]))
        else:
            seen[item.digest] = item.name
            fresh.append(item)
    return DistinctFiles(tuple(fresh), tuple(already), tuple(twins))
