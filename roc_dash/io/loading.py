"""Read prediction files, validate them and build the canonical table.

:func:`load_predictions` is the entry point: it takes paths or ``(filename, bytes)`` pairs,
reads each file into its part (:mod:`roc_dash.io.file_parts`), drops or refuses duplicated
files, keeps the decoded size of the whole load within ``ROC_DASH_MAX_DECODED_MB``
(:mod:`roc_dash.io.size_limits`) and assembles the canonical table
(:func:`roc_dash.io.canonical.assemble`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable

import pyarrow as pa

from .canonical import (
    DUPLICATE_FILE_POLICIES,
    LoadResult,
    ReadOptions,
    _FilePart,
    assemble,
)
from .distinct_files import DistinctFiles, SourceFile, source_file
from .errors import InputError
from .file_parts import _check_size, _load_one
from .size_limits import limits, release_memory
from .values import (
    expanded_bytes,
)


def _as_sources(sources: object) -> list[object] | DistinctFiles:
    if isinstance(sources, DistinctFiles):
        return sources  # read, hashed and told apart already: taken as they are
    if isinstance(sources, str | bytes | os.PathLike):
        return [sources]
    if (
        isinstance(sources, tuple)
        and len(sources) == 2
        and isinstance(sources[1], bytes | bytearray | memoryview)
    ):
        return [sources]
    return list(sources)  # type: ignore[call-overload]


def load_predictions(
    sources: Iterable[object],
    *,
    options: ReadOptions | None = None,
    existing_models: Iterable[str] = (),
    duplicate_files: str = "error",
) -> LoadResult:
    """Read, validate and concatenate prediction files into one canonical table.

    ``sources`` holds paths and/or ``(filename, bytes)`` pairs, or is the
    :class:`~roc_dash.io.distinct_files.DistinctFiles` of an upload (its fresh files are
    read as they are: neither hashed nor compared again). All or nothing: the first bad
    file raises :class:`InputError` (naming it) and nothing is returned.

    Files with identical contents (the same bytes, under any name) would count the same
    predictions twice: with ``duplicate_files="error"`` the second one raises
    :class:`InputError` naming both; with ``"drop"`` it is skipped with a note. The
    :attr:`LoadResult.digests` are the :func:`content_digest` of the files read. When an id
    column exists, an id that appears on more than one row of the same model (within one file
    or across files) raises :class:`InputError`; rows without an id are never duplicates.

    The table has the columns ``label`` (bool), ``score`` (float64), ``model`` (str),
    ``fold`` (str), ``weight`` (float64), then ``id`` (str) when any file has an id column;
    rows keep their order within each file, files follow in the given order (wide-form files:
    all rows of the first score column, then of the next), and the index is 0..n-1.
    """
    if duplicate_files not in DUPLICATE_FILE_POLICIES:
        raise ValueError(
            f"duplicate_files must be one of {DUPLICATE_FILE_POLICIES}, got {duplicate_files!r}"
        )
    options = options or ReadOptions()
    items = _as_sources(sources)
    if not (items.fresh if isinstance(items, DistinctFiles) else items):
        raise InputError("No prediction files were given; choose at least one file.")

    try:
        result = _load_all(items, options, existing_models, duplicate_files)
    except InputError as exc:
        error = _detached(exc)
    else:
        if result.table.memory_usage(deep=False).sum() > _BIG_LOAD:
            release_memory(collect=False)  # the copies made on the way go back
        return result
    # refused: raised again without the frames (and the Arrow data they hold), so that
    # the memory it took really goes back before anyone handles the error
    release_memory()
    raise error


#: A load whose table is bigger than this gives the memory of its intermediate copies back
#: to the system at once (smaller ones leave it for the next load: cheaper).
_BIG_LOAD = 16 << 20


def _detached(error: InputError) -> InputError:
    """``error`` without its traceback or the exceptions it was raised from (their frames
    would keep the columns read so far alive); the message says everything."""
    error.__traceback__ = None
    error.__context__ = None
    error.__cause__ = None
    return error


def _load_all(items: list[object] | DistinctFiles, options: ReadOptions,
              existing_models: Iterable[str], duplicate_files: str) -> LoadResult:
    notes: list[str] = []
    parts: list[_FilePart] = []
    digests: list[str] = []
    budget = limits().decoded_bytes
    used = 0  # bytes the parts read so far will take as the canonical table
    files = (items.fresh if isinstance(items, DistinctFiles)
             else _distinct(items, duplicate_files, notes))
    for item in files:
        name, data = item.name, item.data
        digests.append(item.digest)
        del item
        part, file_notes = _load_one(name, data, options, budget - used)
        del data
        used += _check_table_size(part, budget - used)
        parts.append(part)
        notes.extend(file_notes)
    return assemble(parts, notes, existing_models, digests=tuple(digests))


def _distinct(items: list[object], duplicate_files: str, notes: list[str]):
    """Each item read and hashed (:func:`source_file`) as it comes, the files with the
    contents of an earlier one refused (``"error"``) or dropped with a note (``"drop"``)."""
    seen: dict[str, str] = {}  # digest -> name of the first file with these contents
    for source in items:
        item: SourceFile | None = source_file(source)
        name, first = item.name, seen.get(item.digest)
        if first is None:
            seen[item.digest] = name
            yield item
        elif duplicate_files == "error":
            what = "given twice" if name == first else f"same contents as {first}"
            raise InputError(
                f"{name}: {what}, so the same predictions would be counted twice. Give "
                "each file once.",
                file=name,
            )
        else:
            notes.append(
                f"{name}: given twice; read once."
                if name == first
                else f"{name}: dropped, identical to {first}."
            )
        item = None  # its bytes go before the next file is read


def _check_table_size(part: _FilePart, budget: int) -> int:
    """The bytes ``part`` will take in the canonical table (its text expanded); a
    :class:`~roc_dash.io.errors.DecodedSizeError` naming the biggest text column when that
    is beyond ``budget``. Checked on dictionary-encoded names, before they are expanded."""
    sizes = {name: expanded_bytes(part.table.column(name)) for name in part.table.column_names}
    text = {n for n in part.table.column_names
            if pa.types.is_dictionary(part.table.field(n).type)
            or pa.types.is_string(part.table.field(n).type)}
    return _check_size(part.name, part.table.num_rows, sizes, text, budget)
