"""The group column: which categorical column(s) of a file slice its rows into groups.

A column named ``group`` (any case) is used by default; ``ReadOptions.group_columns`` names
others (at most :data:`MAX_GROUP_COLUMNS`, crossed as ``"a × b"``) or none (an empty tuple).
The canonical table then has a text column ``group`` (:data:`GROUP_COLUMN`).

* Groups are categories: a column holding numbers only is refused when chosen, with advice
  to bin it (a default ``group`` column of numbers is left unused, with a note, so that files
  read before keep their meaning).
* Empty cells, and the rows of files without the column when others have it, form the group
  :data:`MISSING_GROUP` (said in a note).
* At most :data:`MAX_GROUPS` groups are kept: the largest ``MAX_GROUPS − 1`` by rows, the
  rest pooled as :data:`OTHER_GROUP` (said in a note).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .columns import ColumnChoice, chosen_column, normalise
from .errors import InputError, plural, quote, quote_list
from .parsed import ColumnPlan
from .values import RowMapper, as_dictionary, check_name_lengths, plain, to_text

#: The canonical table's group column, and the file column used by default.
GROUP_COLUMN = "group"
#: Columns that can be crossed into one group.
MAX_GROUP_COLUMNS = 2
#: Groups kept at most (the rest pooled as OTHER_GROUP).
MAX_GROUPS = 50
#: The pooled small groups.
OTHER_GROUP = "other"
#: Rows without a group value.
MISSING_GROUP = "(missing)"
#: Separator of crossed group values.
CROSS = " × "

_NUMBER = r"^\s*[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?)\s*$"


def choose_group_columns(names: Sequence[str], filename: str,
                         wanted: tuple[str, ...] | None,
                         taken: dict[str, str]) -> tuple[tuple[str, ...], bool]:
    """The file's group columns (as named in the file) and whether they were chosen
    explicitly (``wanted``) rather than found by name.

    ``taken`` maps the columns already playing a role to that role; a chosen group column
    among them is refused, a default one is left unused.
    """
    if wanted is not None:
        if len(wanted) > MAX_GROUP_COLUMNS:
            raise InputError(
                f"{filename}: {plural(len(wanted), 'group column')} were chosen "
                f"({quote_list(wanted)}); at most {MAX_GROUP_COLUMNS} can be crossed. Choose "
                "one or two (--group COLUMN, given once or twice).", file=filename)
        found: list[str] = []
        for column in wanted:
            real = chosen_column(names, column, "group", filename)
            if real in taken:
                raise InputError(
                    f"{filename}: column {quote(real)} cannot be both the {taken[real]} and "
                    "a group column. Choose a different column for one of them.",
                    file=filename, column=real)
            if real in found:
                raise InputError(f"{filename}: column {quote(real)} was chosen twice as a "
                                 "group column. Choose two different columns to cross.",
                                 file=filename, column=real)
            found.append(real)
        return tuple(found), True
    matches = [n for n in names if normalise(n) == GROUP_COLUMN and n not in taken]
    return (tuple(matches[:1]), False) if len(matches) == 1 else ((), False)


def roles_taken(choice: ColumnChoice, leaf: str | None = None) -> dict[str, str]:
    """Each column already playing a role in ``choice`` (and the leaf column) -> its role."""
    taken = {c: "score" for c in choice.scores}
    for role in ("label", "model", "fold", "weight", "id"):
        column = getattr(choice, role)
        if column is not None:
            taken[column] = role
    if leaf is not None:
        taken[leaf] = "leaf"
    return taken


def with_group_plan(plan: ColumnPlan, columns: tuple[str, ...]) -> ColumnPlan:
    """``plan`` reading the group columns too, as categories (text held once per value)."""
    if not columns:
        return plan
    extra = frozenset(columns)
    return replace(plan, categories=plan.categories | extra, text=plan.text - extra,
                   include=None if plan.include is None else plan.include | extra)


def _numeric(column: pa.ChunkedArray | pa.Array) -> bool:
    """True when every present value of the column is a number (typed or as text)."""
    encoded = as_dictionary(column)
    values = encoded.dictionary if encoded is not None else plain(column)
    data_type = values.type
    if (pa.types.is_integer(data_type) or pa.types.is_floating(data_type)
            or pa.types.is_decimal(data_type)):
        return True
    if not (pa.types.is_string(data_type) or pa.types.is_large_string(data_type)):
        return False
    present = pc.drop_null(values)
    present = present.filter(pc.not_equal(pc.utf8_trim_whitespace(present), ""))
    return len(present) > 0 and bool(pc.all(pc.match_substring_regex(present, _NUMBER)).as_py())


def _numeric_error(filename: str, column: str, values: pa.ChunkedArray) -> InputError:
    distinct = len(pc.unique(pc.drop_null(plain(values))))
    return InputError(
        f"{filename}: column {quote(column)} holds numbers ({plural(distinct, 'distinct value')})"
        ", so it cannot be a group column: groups are categories. Bin it into a text column "
        f"first, e.g. pandas.cut(df[{column!r}], bins=[...], labels=['low', 'mid', 'high']), "
        "and choose that column; if the numbers are codes, write them as text (e.g. 'g1').",
        file=filename, column=column)


def usable_group_columns(table: pa.Table, filename: str, columns: tuple[str, ...],
                         explicit: bool, notes: list[str]) -> tuple[str, ...]:
    """``columns`` once the file is read: a chosen column of numbers is refused; a default
    ``group`` column of numbers is left unused with a note."""
    for column in columns:
        if column in table.column_names and _numeric(table.column(column)):
            if explicit:
                raise _numeric_error(filename, column, table.column(column))
            notes.append(f"{filename}: column {quote(column)} holds numbers, so it is not used "
                         "as the group column (groups are categories); bin it into a text "
                         "column and choose that one to slice by it.")
            return ()
    if columns:
        notes.append(describe_groups(filename, columns, explicit))
    return columns


def group_values(sub: Callable[[str], pa.ChunkedArray], rows: RowMapper | None,
                 columns: tuple[str, ...], filename: str, notes: list[str],
                 counts: np.ndarray | None = None) -> pa.Array | None:
    """The group of each kept row (``sub``: a column's kept values; ``rows``: their row
    numbers) as text: one column's values, or two crossed as ``"a × b"``; empty cells are
    :data:`MISSING_GROUP`. Names beyond ``ROC_DASH_MAX_NAME_CHARS`` are refused.
    ``counts``: the input rows each row stands for (aggregated rows of a query engine)."""
    if not columns:
        return None
    parts = []
    for column in columns:
        text = to_text(sub(column), filename, column, integral_text=True)
        check_name_lengths(text, rows, filename, column, "group name")
        text = plain(text)
        if text.null_count:
            empty = (text.null_count if counts is None else
                     int(counts[text.is_null().to_numpy(zero_copy_only=False)].sum()))
            notes.append(f"{filename}: {plural(empty, 'row')} with an empty "
                         f"{quote(column)} cell {'is' if empty == 1 else 'are'} in the group "
                         f"{quote(MISSING_GROUP)}.")
            text = pc.fill_null(text, MISSING_GROUP)
        parts.append(text)
    values = parts[0] if len(parts) == 1 else pc.binary_join_element_wise(*parts, CROSS)
    return values


def describe_groups(filename: str, columns: tuple[str, ...], explicit: bool) -> str:
    """A note on the group column(s) used."""
    if len(columns) == 2:
        return (f"{filename}: rows grouped by {quote(columns[0])} × {quote(columns[1])} "
                "(the two columns crossed).")
    how = "chosen" if explicit else "found by name"
    return f"{filename}: rows grouped by column {quote(columns[0])} ({how})."


def largest_groups(counts, names_of: Callable[[np.ndarray], Sequence[str]],
                   keep: int) -> np.ndarray:
    """The pooling rule: the positions of the ``keep`` largest of ``counts`` (rows per group),
    ties broken by name (the first in code-point order kept), in no particular order.

    ``names_of(positions)``: the names of the groups at those positions, as text; it is
    asked only for the groups tied at the smallest count kept, so that a crossing of
    10^6 pairs names a few of them, not all."""
    counts = np.asarray(counts)
    if keep >= counts.size:
        return np.arange(counts.size)
    if keep <= 0:
        return np.arange(0)
    smallest = np.partition(counts, counts.size - keep)[counts.size - keep]
    above = np.flatnonzero(counts > smallest)
    tied = np.flatnonzero(counts == smallest)
    names = [str(n) for n in names_of(tied)]
    first = heapq.nsmallest(keep - above.size, range(tied.size), key=names.__getitem__)
    return np.concatenate([above, tied[np.asarray(first, dtype=np.int64)]])


def pooled_name(kept) -> str:
    """The pooled groups' name: :data:`OTHER_GROUP`, unless a kept group has that name."""
    kept = set(kept)
    other = OTHER_GROUP
    while other in kept:
        other = f"{other} (pooled)"
    return other


def pooling_note(groups: int, max_groups: int, pooled: int, rows: float, other: str) -> str:
    """What :func:`pool_groups` says when it pooled ``pooled`` of ``groups`` groups."""
    return (f"The group column has {groups:,} groups; the {max_groups - 1} largest are "
            f"kept and the other {pooled:,} ({plural(int(rows), 'row')}) are pooled as "
            f"{quote(other)}.")


def pool_groups(groups: pd.Series, max_groups: int = MAX_GROUPS, *,
                rows: pd.Series | None = None) -> tuple[pd.Series, str | None]:
    """At most ``max_groups`` groups: the ``max_groups − 1`` largest by rows kept (ties by
    name, :func:`largest_groups`), the rest pooled as :data:`OTHER_GROUP`; with a note when
    any was pooled. ``rows``: the input rows each row stands for (aggregated rows of a
    query engine)."""
    counts = (groups.value_counts(sort=False) if rows is None else
              rows.groupby(groups.to_numpy(), sort=False).sum())
    if len(counts) <= max_groups:
        return groups, None
    names = counts.index.to_numpy(dtype=object)
    top = largest_groups(counts.to_numpy(), lambda at: names[at], max_groups - 1)
    kept = set(names[top].tolist())
    other = pooled_name(map(str, kept))
    mask = ~groups.isin(kept).to_numpy()
    out = groups.copy()
    if isinstance(out.dtype, pd.CategoricalDtype):  # a new category first
        out = out.cat.add_categories([other])
    out[mask] = other
    if isinstance(out.dtype, pd.CategoricalDtype):
        out = out.cat.remove_unused_categories()
    pooled_rows = counts.to_numpy().sum() - counts.to_numpy()[top].sum()
    return out, pooling_note(len(counts), max_groups, len(counts) - top.size, pooled_rows,
                             other)


def fill_missing_groups(table: pa.Table) -> pa.Table:
    """``table`` with a ``group`` column of :data:`MISSING_GROUP` when it has none."""
    if GROUP_COLUMN in table.column_names:
        return table
    return table.append_column(GROUP_COLUMN, pa.array(np.full(table.num_rows, MISSING_GROUP,
                                                              dtype=object), pa.string()))
