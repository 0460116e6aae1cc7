"""Slice candidates: the extra columns of a file that the page can slice its rows by.

The CLI chooses the group column(s) before reading (``--group COL``, :mod:`.groups`); the
page lets the reader choose after the upload, so a load with
``ReadOptions(keep_slice_columns=True)`` keeps the file's other columns that can be groups:

* at most :data:`MAX_SLICE_COLUMNS` columns not playing a role (label, score, model, fold,
  weight, id, the kind's column, the group column), in file order (the rest named in a note);
* text, categorical and boolean columns are kept as categories (canonical column
  ``"slice:" + name``, :data:`SLICE_PREFIX`) when they have at most
  :data:`MAX_SLICE_VALUES` distinct values no longer than ``ROC_DASH_MAX_NAME_CHARS``
  (else left out, with a note);
* columns of numbers are only listed (``table.attrs[NUMERIC_ATTR]``): choosing one is
  refused with the advice to bin it, as the CLI does.

:func:`slice_choices` lists what a canonical table offers; :func:`slice_groups` makes the
group of each row from one column or two crossed (``"a × b"``), pooled to
:data:`~.groups.MAX_GROUPS` groups as the CLI's group column is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
from pandas.api.types import union_categoricals

from .errors import InputError, plural, quote, quote_list
from .groups import (
    CROSS,
    GROUP_COLUMN,
    MAX_GROUP_COLUMNS,
    MAX_GROUPS,
    MISSING_GROUP,
    _numeric,
    largest_groups,
    pool_groups,
    pooled_name,
    pooling_note,
)
from .size_limits import limits
from .values import as_dictionary, plain, to_text

#: Prefix of a kept candidate's column in the canonical table.
SLICE_PREFIX = "slice:"
#: Candidate columns kept at most per file.
MAX_SLICE_COLUMNS = 12
#: Distinct values a candidate may have (more: not a grouping, left out).
MAX_SLICE_VALUES = 1000
#: ``table.attrs`` key: the candidate columns that hold numbers (listed, refused when chosen).
NUMERIC_ATTR = "numeric_slice_columns"

__all__ = ["take_slices", "put_slices", "SLICE_PREFIX", "MAX_SLICE_COLUMNS", "MAX_SLICE_VALUES", "NUMERIC_ATTR",
           "SliceChoices", "candidate_columns", "slice_values", "slice_choices",
           "slice_groups", "slice_width", "binning_message", "without_the_column"]


def candidate_columns(names: Sequence[str], taken: set[str], filename: str,
                      notes: list[str]) -> tuple[str, ...]:
    """The columns of header ``names`` that may be slices: those not in ``taken`` (columns
    playing a role), the first :data:`MAX_SLICE_COLUMNS` of them (a note names the rest)."""
    free = [n for n in names if n not in taken]
    if len(free) > MAX_SLICE_COLUMNS:
        notes.append(f"{filename}: only the first {MAX_SLICE_COLUMNS} other columns can be "
                     f"chosen as slices; {quote_list(free[MAX_SLICE_COLUMNS:])} cannot (put "
                     "the column to slice by earlier in the file, or choose it with "
                     "roc-dash report --group COLUMN).")
    return tuple(free[:MAX_SLICE_COLUMNS])


def slice_values(sub: Callable[[str], pa.ChunkedArray], columns: Sequence[str],
                 filename: str, notes: list[str]) -> tuple[dict[str, pa.Array], tuple[str, ...]]:
    """The kept candidates as dictionary-encoded text, keyed by canonical column name, and
    the candidates of numbers (names only). ``sub(column)``: the column's kept rows."""
    kept: dict[str, pa.Array] = {}
    numeric: list[str] = []
    left_out: list[str] = []
    limit = limits().name_chars
    for column in columns:
        values = sub(column)
        if pa.types.is_null(values.type):
            continue
        if _numeric(values):
            numeric.append(column)
            continue
        text = to_text(values, filename, column)
        encoded = as_dictionary(text)
        if encoded is None:
            encoded = pc.dictionary_encode(plain(text))
        distinct = encoded.dictionary
        longest = pc.max(pc.utf8_length(distinct)).as_py() if len(distinct) else 0
        if len(distinct) > MAX_SLICE_VALUES or (longest or 0) > limit:
            left_out.append(column)
            continue
        kept[SLICE_PREFIX + column] = encoded
    if left_out:
        notes.append(f"{filename}: {quote_list(left_out)} cannot be chosen as slices: more "
                     f"than {MAX_SLICE_VALUES:,} distinct values, or values longer than "
                     f"{limit} characters (groups are a few categories).")
    return kept, tuple(numeric)


def binning_message(column: str, where: str = "the data loaded") -> str:
    """Why a column of numbers cannot be a slice, and what to do (the CLI's advice)."""
    return (f"Column {quote(column)} of {where} holds numbers, so it cannot be a group "
            "column: groups are categories. Bin it into a text column first, e.g. "
            f"pandas.cut(df[{column!r}], bins=[...], labels=['low', 'mid', 'high']), and "
            "upload the file with that column; if the numbers are codes, write them as text "
            "(e.g. 'g1').")


@dataclass(frozen=True)
class SliceChoices:
    """What a canonical table can be sliced by."""

    #: The value naming the table's ``group`` column (its file column(s), crossed), or None.
    default: str | None
    #: The file columns kept as categories (canonical column ``SLICE_PREFIX + name``).
    categorical: tuple[str, ...]
    #: The file columns of numbers (listed; refused when chosen).
    numeric: tuple[str, ...]

    @property
    def names(self) -> tuple[str, ...]:
        """Every choice, the default first."""
        first = (self.default,) if self.default is not None else ()
        return first + self.categorical + self.numeric


def slice_choices(table: pd.DataFrame | None) -> SliceChoices:
    """The slices ``table`` offers (empty when None)."""
    if table is None:
        return SliceChoices(None, (), ())
    default = None
    if GROUP_COLUMN in table.columns:
        default = CROSS.join(table.attrs.get("group_columns") or ()) or GROUP_COLUMN
    categorical = tuple(str(c)[len(SLICE_PREFIX):] for c in table.columns
                        if str(c).startswith(SLICE_PREFIX))
    numeric = tuple(c for c in table.attrs.get(NUMERIC_ATTR) or ()
                    if c not in categorical and c != default)
    return SliceChoices(default, categorical, numeric)


def _column(table: pd.DataFrame, choices: SliceChoices, column: str) -> pd.Series:
    """The values of one chosen column as stored (an unknown column or one of numbers
    refused with an :class:`InputError` saying what to do)."""
    if column == choices.default:
        return table[GROUP_COLUMN]
    if SLICE_PREFIX + column in table.columns:
        return table[SLICE_PREFIX + column]
    if column in choices.numeric:
        raise InputError(binning_message(column), column=column)
    raise InputError(
        f"No column {quote(column)} to slice by in the data loaded; choose one of "
        f"{quote_list(choices.names) if choices.names else 'none (no column can be a group)'}.",
        column=column)


def _one(table: pd.DataFrame, choices: SliceChoices, column: str) -> pd.Series:
    """The group values of one chosen column (missing: :data:`MISSING_GROUP`), as text."""
    values = _column(table, choices, column)
    if not isinstance(values.dtype, pd.CategoricalDtype):
        values = values.astype("category")
    values = values.cat.rename_categories([str(c) for c in values.cat.categories])
    if values.isna().any():
        if MISSING_GROUP not in values.cat.categories:
            values = values.cat.add_categories([MISSING_GROUP])
        values = values.fillna(MISSING_GROUP)
    return values


def _without_unused(values: pd.Series) -> pd.Series:
    """``values`` without the categories no row holds (counted, not sorted: pandas'
    ``remove_unused_categories`` sorts the codes)."""
    codes = values.cat.codes.to_numpy()
    used = np.bincount(codes[codes >= 0], minlength=len(values.cat.categories)) > 0
    if used.all():
        return values
    return values.cat.remove_categories(values.cat.categories[~used])


def _wanted(columns: Sequence[str] | None, choices: SliceChoices) -> tuple[str, ...]:
    """The chosen columns (none: the group column), at most :data:`MAX_GROUP_COLUMNS`."""
    wanted = tuple(dict.fromkeys(c for c in (columns or ()) if c))
    if not wanted:
        if choices.default is None:
            raise InputError("The data loaded has no group column; choose a column to slice "
                             f"by ({quote_list(choices.names) or 'none can be'}).")
        wanted = (choices.default,)
    if len(wanted) > MAX_GROUP_COLUMNS:
        raise InputError(f"{plural(len(wanted), 'column')} chosen ({quote_list(wanted)}); at "
                         f"most {MAX_GROUP_COLUMNS} can be crossed. Choose one or two.")
    return wanted


def slice_width(table: pd.DataFrame, columns: Sequence[str] | None, *,
                choices: SliceChoices | None = None) -> int:
    """The most groups :func:`slice_groups` can cut ``table``'s rows into before pooling:
    the product of the chosen columns' numbers of values (a missing value counted as one),
    at most the rows. Read from the columns' categories and codes (a column that is not
    categorical: its distinct values); refusals as :func:`slice_groups`."""
    choices = choices if choices is not None else slice_choices(table)
    width = 1
    for column in _wanted(columns, choices):
        values = _column(table, choices, column)
        if isinstance(values.dtype, pd.CategoricalDtype):
            width *= len(values.cat.categories) + bool((values.cat.codes < 0).any())
        else:
            width *= int(values.nunique(dropna=False))
    return max(1, min(width, len(table)))


def slice_groups(table: pd.DataFrame, columns: Sequence[str] | None, *,
                 choices: SliceChoices | None = None,
                 max_groups: int = MAX_GROUPS) -> tuple[pd.Series, tuple[str, ...]]:
    """The group of each row of ``table`` and notes (pooled groups).

    ``columns``: one or two of :func:`slice_choices` ``(table).names`` (two: crossed as
    ``"a × b"``); none: the ``group`` column. A column of numbers, an unknown column or more
    than two are refused with an :class:`InputError` saying what to do. ``choices``: those
    of the table ``table``'s rows come from (default: ``slice_choices(table)``). More than
    ``max_groups`` groups are pooled (:func:`~.groups.pool_groups`' rule and note).
    """
    choices = choices if choices is not None else slice_choices(table)
    parts = [_one(table, choices, c) for c in _wanted(columns, choices)]
    # categories (the names once, a small code per row), not a column of text: counting,
    # pooling and coding the groups (core.slices.group_rocs) then need no hashing of text
    if len(parts) == 1:
        groups, note = pool_groups(_without_unused(parts[0]), max_groups)
    else:
        groups, note = _crossed(*parts, max_groups)
    return groups, (note,) if note else ()


def _pair_codes(a: pd.Series, b: pd.Series) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each row's pair of values as one code: ``(pair, rows, counts)``, ``pair[k]`` the
    k-th pair present (``code(a) · |b| + code(b)``), ``rows`` each row's k and ``counts``
    the rows of each pair. Counted in a table of every possible pair when it is not much
    larger than the rows (linear), else by sorting the codes."""
    width = len(b.cat.categories)
    code = a.cat.codes.to_numpy().astype(np.int64) * width + b.cat.codes.to_numpy()
    possible = len(a.cat.categories) * width
    if possible > 4 * code.size + 2**16:
        pair, rows, counts = np.unique(code, return_inverse=True, return_counts=True)
        return pair, rows.ravel(), counts
    counts = np.bincount(code, minlength=possible)
    pair = np.flatnonzero(counts)
    number = np.zeros(possible, dtype=np.int64)
    number[pair] = np.arange(pair.size)
    return pair, number[code], counts[pair]


def _crossed(a: pd.Series, b: pd.Series, max_groups: int) -> tuple[pd.Series, str | None]:
    """The groups of ``a`` crossed with ``b`` (each pair of values present: ``"x × y"``),
    pooled to ``max_groups`` by :func:`~.groups.pool_groups`' rule, in one pass over the
    rows' codes: only the pairs kept (and those tied with the smallest kept) are named."""
    pair, rows, counts = _pair_codes(a, b)
    width = len(b.cat.categories)
    first = np.asarray(a.cat.categories, dtype=object)
    second = np.asarray(b.cat.categories, dtype=object)

    def names_of(at: np.ndarray) -> np.ndarray:
        return first[pair[at] // width] + CROSS + second[pair[at] % width]

    note = None
    if pair.size <= max_groups:
        names = names_of(np.arange(pair.size))
    else:
        kept = largest_groups(counts, names_of, max_groups - 1)
        kept = kept[np.argsort(pair[kept])]  # in the order of the pairs, as without pooling
        number = np.full(pair.size, kept.size, dtype=np.int64)
        number[kept] = np.arange(kept.size)
        rows = number[rows]
        names = names_of(kept)
        other = pooled_name(names.tolist())
        names = np.append(names, other)
        note = pooling_note(pair.size, max_groups, pair.size - kept.size,
                            counts.sum() - counts[kept].sum(), other)
    # two pairs may read alike ("a × b" × "c" and "a" × "b × c"): one group
    number, distinct = pd.factorize(pd.Series(names, dtype=object))
    if distinct.size < names.size:
        rows = number[rows]
    return pd.Series(pd.Categorical.from_codes(rows, distinct.astype(object).tolist()),
                     index=a.index), note


# -- joining the canonical table (roc_dash.io.canonical.assemble) ---------------------------
def take_slices(parts) -> list[tuple[int, dict[str, pa.ChunkedArray]]]:
    """Each part's row count and slice candidate columns (``slice:`` names), taken out of
    its table: they join the frame as categories (a few values held once), not as text."""
    out = []
    for part in parts:
        names = [n for n in part.table.column_names if n.startswith(SLICE_PREFIX)]
        out.append((part.table.num_rows, {n: part.table.column(n) for n in names}))
        part.table = part.table.drop_columns(names)
    return out


def put_slices(frame: pd.DataFrame, slices: list[tuple[int, dict[str, pa.ChunkedArray]]],
               parts) -> None:
    """The parts' slice candidates as categorical columns of ``frame`` (rows of a part
    without the column: missing), and the candidates of numbers in its attrs."""
    names = list(dict.fromkeys(n for _, columns in slices for n in columns))
    for name in names:
        present = {i: pd.Categorical(columns[name].to_pandas())
                   for i, (_, columns) in enumerate(slices) if name in columns}
        none = next(iter(present.values())).categories[:0]
        pieces = [present[i] if i in present
                  else pd.Categorical.from_codes(np.full(rows, -1, dtype=np.int8), none)
                  for i, (rows, _) in enumerate(slices)]
        values = union_categoricals(pieces)
        frame[name] = pd.Series(values, index=frame.index)
    numeric = tuple(dict.fromkeys(c for p in parts for c in p.numeric_slices))
    if numeric:
        frame.attrs[NUMERIC_ATTR] = numeric


def without_the_column(groups) -> bool:
    """True when every row of one model is missing the sliced column(s) (its dataset has
    none: a second dataset loaded beside one with a group column); such a model is left out
    of the slices rather than shown as one group "(missing)"."""
    values = groups.to_numpy(dtype=object) if hasattr(groups, "to_numpy") else groups
    return len(values) > 0 and all(v == MISSING_GROUP for v in values)
