"""The canonical table: its columns, the options and result of a load, and its assembly.

:func:`assemble` turns the validated part of each file (:class:`_FilePart`, made by
:mod:`roc_dash.io.file_parts` or by an aggregating engine, :mod:`roc_dash.io.engines`) into
one canonical table, naming models after their files where needed and checking what only
the whole table can show: mixed input kinds, both classes in every (model, fold), soft-label
totals, unique ids per model. :func:`~roc_dash.io.loading.load_predictions` reads the files.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..core.kinds.canonical_kinds import (
    BINARY,
    COSTS,
    LABEL_PROB_COLUMN,
    MULTICLASS,
    SOFT,
    InputKind,
    split_soft_rows,
)
from ..text.invisible import without_invisible
from .class_weights import check_class_weights
from .errors import MAX_ROWS_SHOWN, InputError, format_rows, plural, quote
from .groups import GROUP_COLUMN, MISSING_GROUP, fill_missing_groups, pool_groups
from .size_limits import limits
from .slice_columns import put_slices, take_slices
from .values import (
    as_dictionary,
    plain,
)

#: Columns of the canonical table, in order; "id" (str) follows only when an id column exists.
CANONICAL_COLUMNS: tuple[str, ...] = ("label", "score", "model", "fold", "weight")

#: Fold of rows from files without a fold column.
DEFAULT_FOLD = "all"

#: What ``load_predictions(duplicate_files=...)`` accepts.
DUPLICATE_FILE_POLICIES = ("error", "drop")

#: How many repeated ids a message shows with their rows.
MAX_IDS_SHOWN = 3

#: Extensions removed (repeatedly, any case) when a model is named after its file.
DATA_EXTENSIONS = frozenset(
    {".gz", ".gzip", ".csv", ".tsv", ".tab", ".txt", ".dat", ".parquet", ".parq", ".pq"}
)

_SCHEMA = pa.schema(
    [
        ("label", pa.bool_()),
        ("score", pa.float64()),
        ("model", pa.string()),
        ("fold", pa.string()),
        ("weight", pa.float64()),
    ]
)


@dataclass(frozen=True)
class ReadOptions:
    """How to read prediction files; every field applies to all files of one call.

    Column overrides are matched case-insensitively, ignoring surrounding whitespace.
    ``score`` may name several columns: wide form, one model per column.
    """

    label: str | None = None
    score: str | Sequence[str] | None = None
    model: str | None = None
    fold: str | None = None
    weight: str | None = None
    id: str | None = None
    positive: str | None = None
    drop_nonfinite: bool = False
    #: Multi-class: the column of true classes (then any number of classes >= 2); without
    #: it a label column with three or more values and score_<class> columns is multi-class.
    class_column: str | None = None
    #: Soft labels: True (the label column, or ``label_prob``, holds P(positive)) or the
    #: name of that column; None: a ``label_prob`` column is used when no label column is.
    soft_labels: bool | str | None = None
    #: Example-specific costs: the cost column (default: a column named ``cost``).
    cost: str | None = None
    #: Leaves: read per-row leaf assignments (a ``leaf`` and a label column); a table with
    #: ``leaf``, ``pos`` and ``neg`` columns is a leaf table without it.
    leaves: bool = False
    #: Slices: the categorical column(s) whose values group the rows, two crossed as
    #: "a × b" (:mod:`roc_dash.io.groups`); None: a column named ``group`` if any; an empty
    #: tuple: none.
    group_columns: str | Sequence[str] | None = None
    #: Slices chosen in the page: keep the file's other columns that may be groups
    #: (:mod:`roc_dash.io.slice_columns`).
    keep_slice_columns: bool = False

    def __post_init__(self) -> None:
        groups = self.group_columns
        if groups is not None:
            if isinstance(groups, str):
                groups = (groups,) if groups.strip() else ()
            object.__setattr__(self, "group_columns",
                               tuple(str(g) for g in groups if str(g).strip()))
        score = self.score
        if score is not None and not isinstance(score, str):
            names = tuple(str(s) for s in score if str(s).strip())
            if not names:
                names = None
            elif len(names) == 1:
                names = names[0]
            object.__setattr__(self, "score", names)


@dataclass(frozen=True)
class LoadResult:
    """The canonical table of all files and non-fatal remarks about how they were read."""

    table: pd.DataFrame
    notes: tuple[str, ...] = field(default=())
    #: :func:`content_digest` of each file that was read (not of dropped twins), in file order.
    digests: tuple[str, ...] = field(default=())
    #: What kind of input the table holds (see :mod:`roc_dash.core.kinds.canonical_kinds`).
    kind: InputKind = field(default_factory=InputKind)
    #: The file columns whose values make the table's ``group`` column (two: crossed);
    #: empty when the table has no ``group`` column.
    group_columns: tuple[str, ...] = field(default=())


def content_digest(data: bytes) -> str:
    """Hex sha256 of a file's bytes: how the same file is recognised under any name."""
    return hashlib.sha256(data).hexdigest()


class _RowMap:
    """Row numbers (as in the file) of a part's table rows, kept without the file's text.

    A part is the file's kept records (rows with a finite score in at least one score
    column), repeated once per score column (wide form), each copy filtered to its finite
    scores. The record -> row mapping is stored as an offset when rows are consecutive (no
    blank lines, nothing dropped), else as an array.
    """

    def __init__(self, rows, kept: int, pieces: list[np.ndarray | None]) -> None:
        ends = rows(np.array([0, kept - 1], dtype=np.int64)) if kept else np.array([1, 1])
        if int(ends[1]) - int(ends[0]) == kept - 1:  # row numbers strictly increase
            self._offset: int | None = int(ends[0])
            self._record_rows = None
        else:
            self._offset = None
            self._record_rows = rows(np.arange(kept, dtype=np.int64))
        self._pieces = pieces  # per score column: mask of the kept records it keeps, or None
        sizes = [kept if m is None else int(m.sum()) for m in pieces]
        self._starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)

    def __call__(self, positions: np.ndarray) -> np.ndarray:
        positions = np.asarray(positions, dtype=np.int64)
        piece = np.searchsorted(self._starts, positions, side="right") - 1
        records = positions - self._starts[piece]
        for k in np.unique(piece):
            mask = self._pieces[int(k)]
            if mask is not None:
                sel = piece == k
                records[sel] = np.flatnonzero(mask)[records[sel]]
        if self._offset is not None:
            return records + self._offset
        return self._record_rows[records]


@dataclass
class _FilePart:
    """One validated file, before model names from file names are assigned."""

    name: str
    table: pa.Table  # canonical columns; "model" is null when named after the file
    label_column: str
    needs_model_name: bool
    has_fold: bool
    column_models: tuple[str, ...]  # model names read from a model column or wide form
    positive: str | None
    negative: str | None
    id_column: str | None = None
    rows: _RowMap | None = None  # row numbers of the table's rows, when it has ids
    kind: str = BINARY
    classes: tuple[str, ...] = ()
    kind_column: str | None = None  # the column that made the kind (class, soft, cost, leaf)
    group_columns: tuple[str, ...] = ()  # the columns of the table's "group" column
    #: slice candidates (io.slice_columns): kept ones are "slice:" columns of the table;
    #: those of numbers are only named
    numeric_slices: tuple[str, ...] = ()

    @classmethod
    def chosen(cls, name: str, table: pa.Table, choice, labels,
               column_models: tuple[str, ...], **fields) -> _FilePart:
        """The part of a file read with the columns of ``choice`` (a
        :class:`~roc_dash.io.columns.ColumnChoice`) and its labels decoded as ``labels``
        (their ``positive`` and ``negative``); ``fields``: the other attributes."""
        return cls(name=name, table=table, label_column=choice.label,
                   needs_model_name=choice.model is None and not choice.wide,
                   has_fold=choice.fold is not None, column_models=column_models,
                   positive=labels.positive, negative=labels.negative, **fields)


def model_name_from_filename(filename: str) -> str:
    """``runs/preds.csv.gz`` -> ``preds``: no directories, no data-file extensions, no
    invisible direction controls (:mod:`roc_dash.text.invisible`)."""
    base = re.split(r"[\\/]", without_invisible(str(filename)).rstrip("/\\"))[-1]
    stem = base
    while True:
        root, ext = os.path.splitext(stem)
        if root and ext.lower() in DATA_EXTENSIONS:
            stem = root
        else:
            break
    return stem.strip() or base.strip() or "model"


def _unique_name(base: str, taken: set[str]) -> str:
    if base not in taken:
        return base
    k = 2
    while f"{base} ({k})" in taken:
        k += 1
    return f"{base} ({k})"


def _check_models_together(parts: list[_FilePart]) -> None:
    """Files read together (one drop, one dataset) name at most ``ROC_DASH_MAX_MODELS``
    models between them, as one file does: 20 files of 200 models each made a dataset of
    4,000 and page answers of 100 MB (stranger review 2)."""
    if len(parts) < 2:
        return
    models = set()
    for part in parts:
        models.update(part.column_models if not part.needs_model_name
                      else part.table.column("model").unique().to_pylist()[:1])
    names = [part.name for part in parts]
    shown = ", ".join(names[:3]) + (f" and {len(names) - 3:,} more" if len(names) > 3 else "")
    from .columns import check_model_count  # columns imports this module

    check_model_count(len(models), shown, together=True,
                      found=f"these {len(names)} files name {len(models):,} models together")


def assemble(
    parts: list[_FilePart],
    notes: list[str],
    existing_models: Iterable[str] = (),
    *,
    digests: tuple[str, ...] = (),
) -> LoadResult:
    """The canonical table of validated file parts: models named after their files where
    needed (unique among ``existing_models`` and the files' own), every (model, fold) checked
    for both classes, ids checked per model, all parts concatenated in order. Shared by
    :func:`~roc_dash.io.loading.load_predictions` and the aggregating engines
    (:mod:`roc_dash.io.engines`), whose parts carry a ``rows`` column (input rows per table
    row), kept in the result."""
    taken = set(existing_models)
    for part in parts:
        taken.update(part.column_models)
    for part in parts:
        if not part.needs_model_name:
            continue
        base = model_name_from_filename(part.name)
        limit = limits().name_chars
        if len(base) > limit:
            base = base[: limit - 1] + "…"
        model = _unique_name(base, taken)
        taken.add(model)
        if model != base:
            notes.append(
                f"{part.name}: the model is named {quote(model)} because {quote(base)} is "
                "already in use."
            )
        column = pa.repeat(pa.scalar(model, pa.string()), part.table.num_rows)
        part.table = part.table.set_column(
            part.table.schema.get_field_index("model"), "model", column
        )
    _check_models_together(parts)

    kind = _check_kinds(parts)
    _check_both_classes([p for p in parts if p.kind != SOFT])
    check_class_weights([p for p in parts if p.kind not in (SOFT, MULTICLASS)])
    positive_labels = _positive_labels(parts)
    slices = take_slices(parts)
    for part in parts:  # text held dictionary-encoded while reading becomes plain text
        part.table = _plain_text(part.table)
    _check_soft_totals([p for p in parts if p.kind == SOFT])

    with_id = any("id" in part.table.column_names for part in parts)
    with_group = any(GROUP_COLUMN in part.table.column_names for part in parts)
    schema = _SCHEMA.append(pa.field("id", pa.string())) if with_id else _SCHEMA
    if with_group:
        schema = schema.append(pa.field(GROUP_COLUMN, pa.string()))
    for extra in parts[0].table.schema:  # kind columns (class, label_prob, leaf), rows
        if extra.name not in schema.names:
            schema = schema.append(extra)
    tables = []
    for part in parts:
        table = part.table
        if with_id and "id" not in table.column_names:
            table = table.append_column("id", pa.nulls(table.num_rows, pa.string()))
        if with_group and GROUP_COLUMN not in table.column_names:
            table = fill_missing_groups(table)
            notes.append(f"{part.name}: has no group column, so its rows are in the group "
                         f"{quote(MISSING_GROUP)}.")
        tables.append(table.select(schema.names).cast(schema))
    combined = pa.concat_tables(tables) if len(tables) > 1 else tables[0]
    if with_id:
        _check_unique_ids(combined, parts)
    del tables, table
    for part in parts:  # the rows now live in ``combined`` only (the schema stays)
        part.table = part.table.slice(0, 0)
    # each column's Arrow memory is freed as soon as it is converted: the peak holds one
    # column twice, not the table
    frame = combined.to_pandas(split_blocks=True, self_destruct=True)
    del combined
    frame.index = pd.RangeIndex(len(frame))
    put_slices(frame, slices, parts)
    if kind.kind == SOFT:  # the file's rows, not the weighted halves, are what a user reads
        rows = len(frame)
        frame = split_soft_rows(frame)
        frame.attrs["input_rows"] = rows
    frame.attrs["positive_labels"] = positive_labels
    group_columns: tuple[str, ...] = ()
    if with_group:
        frame[GROUP_COLUMN], pooled = pool_groups(
            frame[GROUP_COLUMN], rows=frame["rows"] if "rows" in frame.columns else None)
        if pooled:
            notes.append(pooled)
        group_columns = tuple(dict.fromkeys(c for p in parts for c in p.group_columns))
        frame.attrs["group_columns"] = group_columns
    return LoadResult(table=frame, notes=tuple(notes), digests=digests, kind=kind,
                      group_columns=group_columns)


def _plain_text(table: pa.Table) -> pa.Table:
    """``table`` with its dictionary-encoded columns decoded."""
    for i, f in enumerate(table.schema):
        if pa.types.is_dictionary(f.type):
            table = table.set_column(i, f.name, pc.cast(table.column(i), f.type.value_type))
    return table


def _positive_labels(parts: list[_FilePart]) -> dict[str, str]:
    """Each model's positive label as written in its file (``'1'``, ``'pos'``, ...), for
    messages such as "scores look inverted for positive label 'pos'"."""
    out: dict[str, str] = {}
    for part in parts:
        if part.positive is None:
            continue
        column = part.table.column("model")
        encoded = as_dictionary(column)
        distinct = encoded.dictionary if encoded is not None else pc.unique(column)
        for model in distinct.to_pylist():
            if model is not None:
                out.setdefault(str(model), str(part.positive))
    return out


def _check_kinds(parts: list[_FilePart]) -> InputKind:
    """All files of one load are of one kind (and multi-class files of the same classes)."""
    first = parts[0]
    for part in parts[1:]:
        if part.kind != first.kind:
            raise InputError(
                f"{part.name}: is a {part.kind} file but {first.name} is a {first.kind} file; "
                "files loaded together must be of one kind. Load them separately.",
                file=part.name)
        if part.classes != first.classes:
            raise InputError(
                f"{part.name}: has the classes {', '.join(map(quote, part.classes))} but "
                f"{first.name} has {', '.join(map(quote, first.classes))}; multi-class files "
                "loaded together need the same classes (same score columns, same order).",
                file=part.name)
    reference = first.positive if first.kind == MULTICLASS else None
    return InputKind(kind=first.kind, classes=first.classes, reference_class=reference,
                     weights_are_costs=first.kind == COSTS, source_column=first.kind_column)


def _check_soft_totals(parts: list[_FilePart]) -> None:
    """Soft labels: every (model, fold) needs positive mass n+ = sum w p and negative mass
    n- = sum w (1 - p) (Qin eq. 8), or its ROC curve is undefined."""
    for part in parts:
        t = part.table
        frame = pd.DataFrame({"model": t.column("model").to_pandas().fillna(""),
                              "fold": t.column("fold").to_pandas(),
                              "pos": (t.column("weight").to_numpy()
                                      * t.column(LABEL_PROB_COLUMN).to_numpy()),
                              "neg": (t.column("weight").to_numpy()
                                      * (1.0 - t.column(LABEL_PROB_COLUMN).to_numpy()))})
        sums = frame.groupby(["model", "fold"], sort=False).sum()
        bad = sums[(sums["pos"] <= 0) | (sums["neg"] <= 0)]
        if len(bad):
            (model, fold), row = next(iter(bad.iterrows()))
            what = "positive" if row["pos"] <= 0 else "negative"
            model_text = f"model {quote(model)}" if model else "the file"
            raise InputError(
                f"{part.name}: {model_text} has no {what} mass in fold {quote(fold)} (its soft "
                f"labels are all {'0' if what == 'positive' else '1'}), so its ROC curve is "
                "undefined. Add rows of the other class, or remove this fold.",
                file=part.name, column=part.label_column)


def _check_both_classes(parts: list[_FilePart]) -> None:
    """Every (model, fold) needs positive and negative rows, or its ROC curve is undefined."""
    groups: dict[tuple[str, str], list] = {}
    for part in parts:
        for model, fold, pos, total in _class_counts(part.table):
            entry = groups.setdefault((model, fold), [0, 0, []])
            entry[0] += pos
            entry[1] += total
            entry[2].append(part)

    bad = [(key, entry) for key, entry in groups.items() if entry[0] in (0, entry[1])]
    if bad:
        # a multi-class file's fold may lack the class shown (class against the rest): its
        # own curve is undefined but the model's pooled curves, M and the PD-weighted AUC
        # are not; the analysis leaves such folds out of the per-fold views with a note
        totals: dict[str, list[int]] = {}
        for (model, _), (pos, total, _) in groups.items():
            entry = totals.setdefault(model, [0, 0])
            entry[0] += pos
            entry[1] += total
        bad = [(key, entry) for key, entry in bad
               if not all(p.kind == MULTICLASS for p in entry[2])
               or totals[key[0]][0] in (0, totals[key[0]][1])]
    if not bad:
        return
    (model, fold), (pos, total, files) = bad[0]
    folds = [(k, e) for k, e in groups.items() if k[0] == model]
    m_pos, m_total = sum(e[0] for _, e in folds), sum(e[1] for _, e in folds)
    whole = m_pos in (0, m_total)  # every fold of the model has the same single class
    if whole:
        pos, total = m_pos, m_total
        files = [p for _, e in folds for p in e[2]]
    first = files[0]
    positive = pos == total
    kind = "positive" if positive else "negative"
    value = first.positive if positive else first.negative
    value_text = f" ({quote(value)})" if value is not None else ""
    file_names = ", ".join(dict.fromkeys(p.name for p in files))
    has_fold = any(p.has_fold for p in files)
    others = [key for key, _ in bad if key[0] != model] if whole else bad[1:]
    all_bad = all(key in dict(bad) for key, _ in folds)
    n_models = len({k[0] for k in groups})
    if whole and n_models > 1 and len(bad) == len(groups) and all(
            (e[0] == e[1]) == positive for _, e in bad):  # the whole load: one class
        rows = sum(e[1] for e in groups.values())
        names = ", ".join(dict.fromkeys(p.name for e in groups.values() for p in e[2]))
        raise InputError(
            f"{names}: every row has a {kind} label{value_text} (all {plural(rows, 'row')}, "
            f"{n_models} models), so no ROC curve is defined. Every model and fold needs both "
            "positive and negative examples: add rows of the other class.",
            file=first.name, column=first.label_column)
    if whole and has_fold and len(folds) > 1:
        where = f"in all its {plural(total, 'row')} ({plural(len(folds), 'fold')})"
    else:
        where = (f"in fold {quote(fold)}" if has_fold and not whole
                 else "in the whole file" if len(files) == 1 else "in all its files")
        where = f"{where} ({plural(total, 'row')})"
    if whole:  # removing a fold cannot help; removing the model only with another model
        fix = ("add rows of the other class" +
               (", or remove this model" if len(groups) > len(folds) else "") + ".")
    elif all_bad:
        fix = "add rows of the other class to each of its folds."
    else:
        fix = "add rows of the other class, or remove this fold."
    more = (
        f" ({plural(len(others), 'other model/fold combination')} also "
        f"{'has' if len(others) == 1 else 'have'} a single class.)"
        if others
        else ""
    )
    raise InputError(
        f"{file_names}: model {quote(model)} has only {kind} labels{value_text} {where}, so "
        "its ROC curve is undefined. Every model and fold needs both positive and negative "
        f"examples: {fix}{more}",
        file=first.name,
        column=first.label_column,
    )


def _codes(column: pa.ChunkedArray) -> tuple[np.ndarray, list]:
    """Integer codes of a text column and the values they stand for (None for missing), in
    order of first appearance; dictionary-encoded columns are not expanded."""
    encoded = as_dictionary(column, compact=False)  # unused values count 0: left out
    if encoded is None:
        encoded = pc.dictionary_encode(plain(column))
    values = encoded.dictionary.to_pylist() + [None]
    indices = encoded.indices
    if indices.null_count:
        indices = pc.fill_null(indices, len(values) - 1)
    return indices.to_numpy(zero_copy_only=False), values  # no copy: int32 as read


def _class_counts(table: pa.Table) -> list[tuple[object, object, int, int]]:
    """(model, fold, positives, rows) of each (model, fold) of a part, in order of first
    appearance; aggregated parts count each table row as its ``rows`` input rows."""
    models, model_values = _codes(table.column("model"))
    folds, fold_values = _codes(table.column("fold"))
    size = len(model_values) * len(fold_values)
    key = models.astype(np.int32 if size < 2**31 else np.int64)  # one array the size of
    key *= len(fold_values)                                      # the codes, filled in place
    key += folds
    label = table.column("label").to_numpy().astype(bool)
    if "rows" in table.column_names:
        n = table.column("rows").to_numpy().astype(np.float64)
        total = np.bincount(key, weights=n, minlength=size)
        pos = np.bincount(key, weights=n * label, minlength=size)
    else:
        total = np.bincount(key, minlength=size)
        pos = np.bincount(key[label], minlength=size)
    present = np.flatnonzero(total)
    order = present if len(present) == 1 else pd.unique(key)
    return [(model_values[k // len(fold_values)], fold_values[k % len(fold_values)],
             int(pos[k]), int(total[k])) for k in order.tolist()]


def _unique_per_model_run(ids: pa.Array, model_index: pa.Array) -> bool:
    """Fast path of :func:`_check_unique_ids`: True when every model's rows are one run of
    the table and each run's ids are unique. Models scored on the same rows usually repeat
    the same ids in the same order, so a run equal to one already checked costs a
    comparison, not a hash pass. False means "not shown", not "repeated"."""
    codes = model_index.to_numpy(zero_copy_only=False)
    starts = np.concatenate([[0], np.flatnonzero(codes[1:] != codes[:-1]) + 1])
    if len(np.unique(codes[starts])) != len(starts):
        return False  # a model in several runs (e.g. sorted by fold, or across files)
    ends = np.append(starts[1:], len(codes))
    checked: list[pa.Array] = []
    for start, end in zip(starts.tolist(), ends.tolist(), strict=True):
        run = ids.slice(start, end - start)
        if any(len(c) == len(run) and c.equals(run) for c in checked):
            continue
        values = run.drop_null() if run.null_count else run
        if len(values):
            counts = np.bincount(
                pc.dictionary_encode(values).indices.to_numpy(zero_copy_only=False)
            )
            if counts.max() > 1:
                return False
        checked.append(run)
    return True


def _check_unique_ids(combined: pa.Table, parts: list[_FilePart]) -> None:
    """Each id may appear once per model (within a file and across files); null ids (rows
    of files without an id column) are never duplicates. One hash pass over the ids, then a
    count (or a hash) of (model, id) codes."""
    ids = combined.column("id").combine_chunks()
    valid = ids.is_valid().to_numpy(zero_copy_only=False).astype(bool)
    if not valid.any():
        return
    model_codes = pc.dictionary_encode(combined.column("model").combine_chunks())
    if _unique_per_model_run(ids, model_codes.indices):
        return
    id_codes = pc.dictionary_encode(ids)
    n_ids = len(id_codes.dictionary)
    key = model_codes.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    key *= n_ids
    key += pc.fill_null(id_codes.indices, 0).to_numpy(zero_copy_only=False)
    positions = None if valid.all() else np.flatnonzero(valid)
    if positions is not None:
        key = key[positions]
    span = len(model_codes.dictionary) * n_ids
    if span <= 2 * len(key) + 1024:  # the usual case: counting beats hashing
        repeated = np.bincount(key, minlength=span)[key] > 1
    else:
        repeated = pd.Series(key).duplicated(keep=False).to_numpy()
    if not repeated.any():
        return

    # rows whose (model, id) occurs more than once, in table order; the first one's model
    dup = np.flatnonzero(repeated) if positions is None else positions[repeated]
    dup_keys = key[repeated]
    dup_models = dup_keys // n_ids
    first_model = dup_models[0]
    n_other_models = len(np.unique(dup_models)) - 1
    mine = dup[dup_models == first_model]
    id_of = dup_keys[dup_models == first_model] % n_ids
    model = model_codes.dictionary[int(first_model)].as_py()

    # where each of the model's offending rows is: file and row number in that file
    starts = np.cumsum([0] + [p.table.num_rows for p in parts])
    part_of = np.searchsorted(starts, mine, side="right") - 1
    row_of = np.empty(len(mine), dtype=np.int64)
    for k in np.unique(part_of):
        sel = part_of == k
        row_of[sel] = parts[int(k)].rows(mine[sel] - starts[int(k)])
    files = [parts[int(k)].name for k in dict.fromkeys(part_of.tolist())]

    # the ids, in order of first appearance, each with its rows
    order = np.argsort(id_of, kind="stable")
    groups = np.split(order, np.flatnonzero(np.diff(id_of[order])) + 1)
    groups.sort(key=lambda g: int(g[0]))

    def where(members: np.ndarray) -> str:
        if len(files) == 1:
            return format_rows(row_of[members][:MAX_ROWS_SHOWN], len(members))
        by_file = dict.fromkeys(part_of[members].tolist())
        return "; ".join(
            f"{parts[k].name} "
            + format_rows(row_of[members][part_of[members] == k][:MAX_ROWS_SHOWN],
                          int((part_of[members] == k).sum()))
            for k in by_file
        )

    def id_value(members: np.ndarray) -> str:
        return ids[int(mine[members[0]])].as_py()

    count = len(mine)
    if len(groups) == 1:
        what = f"has id {quote(id_value(groups[0]))} on {count:,} rows ({where(groups[0])})"
    else:
        shown = ", ".join(
            f"{quote(id_value(g))} ({where(g)})" for g in groups[:MAX_IDS_SHOWN]
        )
        more = (
            f" and {len(groups) - MAX_IDS_SHOWN:,} more" if len(groups) > MAX_IDS_SHOWN else ""
        )
        what = (
            f"has {len(groups):,} ids that appear on more than one row ({count:,} rows in "
            f"all): {shown}{more}"
        )
    others = (
        f" ({plural(n_other_models, 'other model')} also "
        f"{'has' if n_other_models == 1 else 'have'} repeated ids.)"
        if n_other_models
        else ""
    )
    first_part = parts[int(part_of[0])]
    first_rows = np.sort(row_of[part_of == part_of[0]])[:MAX_ROWS_SHOWN]
    column = first_part.id_column
    raise InputError(
        f"{', '.join(files)}: model {quote(model)} {what}. Each id must appear once per "
        f"model: remove the repeated rows, or drop the id column"
        f"{f' {quote(column)}' if column else ''}.{others}",
        file=first_part.name,
        column=column,
        rows=first_rows,
        count=count,
    )
