"""Read a Parquet file within the size limits.

Rows, columns and uncompressed size come from the footer metadata before any data page is
read; the memory each row group will take is estimated from its metadata before it is read,
row group by row group; text columns are read dictionary-encoded (a repeated string is held
once). See :mod:`roc_dash.io.size_limits`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection

import pyarrow as pa
import pyarrow.parquet as pq

from .errors import InputError, plural
from .parsed import (
    ColumnPlan,
    ParsedFile,
    _as_plan,
    _check_duplicates,
    _empty,
    _final_names,
    _unnamed,
)
from .size_limits import (
    _budget_words,
    _mb,
    _too_much_data,
    check_columns,
    check_header_names,
    check_rows,
    decoded_error,
    limits,
)

#: Columns pandas writes for a non-trivial index in a Parquet file; they are not data.
_PANDAS_INDEX_COLUMN = re.compile(r"^__index_level_\d+__$")


#: Bytes per value Arrow holds for each Parquet physical type (plus a validity bit).
_PHYSICAL_WIDTH = {"BOOLEAN": 1, "INT32": 4, "INT64": 8, "INT96": 8, "FLOAT": 4, "DOUBLE": 8}


def _is_text_type(t: pa.DataType) -> bool:
    if pa.types.is_dictionary(t):
        t = t.value_type
    return (pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_binary(t)
            or pa.types.is_large_binary(t) or pa.types.is_string_view(t)
            or pa.types.is_binary_view(t))


def _row_group_bytes(metadata: pq.FileMetaData, i: int, wanted: set[int] | None) -> int:
    """Memory the columns ``wanted`` (leaf indices; None: all) of row group ``i`` take once
    read, from the metadata: fixed-width values at their width, text held as a dictionary
    (4 bytes per row plus at most its pages' uncompressed size), anything else generously."""
    group = metadata.row_group(i)
    rows = max(0, group.num_rows)
    total = 0
    for j in range(group.num_columns):
        if wanted is not None and j not in wanted:
            continue
        column = group.column(j)
        pages = max(0, column.total_uncompressed_size)
        width = _PHYSICAL_WIDTH.get(column.physical_type)
        if width is not None:
            total += rows * width + rows // 8 + 1
        else:  # BYTE_ARRAY (dictionary indices + values), FIXED_LEN_BYTE_ARRAY, ...
            total += rows * 4 + rows // 8 + 1 + 2 * pages
    return total


def _parse_parquet(
    data: bytes,
    filename: str,
    string_columns: Callable[[list[str]], ColumnPlan | Collection[str]] | None,
    budget: int,
) -> ParsedFile:
    damaged = InputError(
        f"{filename}: starts like a Parquet file but cannot be read; it is probably "
        "truncated or damaged. Write it again (or export it as CSV).",
        file=filename,
    )
    try:
        metadata = pq.read_metadata(pa.BufferReader(data))
        schema = metadata.schema.to_arrow_schema()
    except Exception:  # noqa: BLE001 - any reader failure means the same to the user
        raise damaged from None
    _check_parquet_size(metadata, filename)
    # pandas metadata would turn named index columns back into an index; keep them as data
    raw = [n for n in schema.names if not _PANDAS_INDEX_COLUMN.match(n)]
    if not raw:
        raise _empty(filename)
    check_header_names(raw, filename)
    names = _final_names(raw)
    _check_duplicates(names, filename)
    plan = _as_plan(string_columns(names)) if string_columns is not None else ColumnPlan()
    keep = [r for r, n in zip(raw, names, strict=True)
            if plan.include is None or n in plan.include]
    text = [f.name for f in schema if f.name in keep and _is_text_type(f.type)
            and not pa.types.is_nested(f.type)]
    kept = set(keep)
    wanted = None if len(keep) == len(schema.names) else {
        j for j in range(metadata.num_columns)
        if metadata.schema.column(j).path.split(".")[0] in kept}
    try:
        reader = pq.ParquetFile(pa.BufferReader(data), metadata=metadata, read_dictionary=text)
    except Exception:  # noqa: BLE001
        raise damaged from None
    estimate = sum(_row_group_bytes(metadata, i, wanted) for i in range(metadata.num_row_groups))
    if estimate > budget:
        raise decoded_error(
            filename,
            f"would take about {_mb(estimate)} of memory once read (from its metadata: "
            f"{metadata.num_rows:,} rows of {plural(len(keep), 'column')} read), more than "
            f"the {_budget_words(budget)}",
        )
    final = dict(zip(raw, names, strict=True))

    def read(columns: list[str]) -> pa.Table:
        """``columns`` of every row group, one row group at a time, under the budget."""
        groups: list[pa.Table] = []
        held = 0
        for i in range(metadata.num_row_groups):
            try:
                groups.append(reader.read_row_group(i, columns=columns))
            except Exception:  # noqa: BLE001
                groups.clear()
                raise damaged from None
            held += groups[-1].nbytes
            if held > budget:
                groups.clear()
                raise decoded_error(filename, f"takes more than {_mb(held)} of memory once "
                                    f"read, more than the {_budget_words(budget)}")
        table = (pa.concat_tables(groups) if len(groups) > 1 else groups[0] if groups
                 else schema.empty_table().select(columns))
        table = table.replace_schema_metadata(None)
        return table.rename_columns([final[c] for c in columns])

    # names (model, fold) first: a caller's check may refuse them before the rest is read
    first = [k for k in keep if final[k] in plan.categories] if plan.check else []
    early = read(first) if first else None
    if early is not None:
        plan.check(early)  # type: ignore[misc]
    rest = read([k for k in keep if k not in first])
    if early is not None:
        columns = {**{n: early.column(n) for n in early.column_names},
                   **{n: rest.column(n) for n in rest.column_names}}
        table = pa.table({final[k]: columns[final[k]] for k in keep})
        del early, rest, columns
    else:
        table = rest
    if table.nbytes > budget:
        raise decoded_error(filename, f"takes {_mb(table.nbytes)} of memory once read, more "
                            f"than the {_budget_words(budget)}")
    check_rows(table.num_rows, filename)  # the metadata said so; the data agrees
    encoded = frozenset(n for r, n in zip(raw, names, strict=True) if r in text
                        and not pa.types.is_dictionary(schema.field(r).type))
    return ParsedFile(filename, table, "parquet", unnamed=_unnamed(raw, names),
                      names=tuple(names), encoded=encoded)


def _check_parquet_size(metadata: pq.FileMetaData, filename: str) -> None:
    """Rows, columns and uncompressed bytes from the footer, before any page is read."""
    check_columns(metadata.num_columns, filename)
    check_rows(metadata.num_rows, filename)
    limit = limits().decompressed_bytes
    total = 0
    for i in range(metadata.num_row_groups):
        total += max(0, metadata.row_group(i).total_byte_size)
        if total > limit:
            whole = sum(
                max(0, metadata.row_group(j).total_byte_size)
                for j in range(metadata.num_row_groups)
            )
            raise _too_much_data(
                filename,
                f"holds {_mb(whole)} of uncompressed data, more than the {_mb(limit)} "
                "accepted per file",
            )
