"""Read prediction files, validate them and build the canonical table."""

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

from ..core.canonical_kinds import (
    BINARY,
    CLASS_COLUMN,
    COSTS,
    LABEL_PROB_COLUMN,
    LEAF_COLUMN,
    LEAVES,
    MULTICLASS,
    SOFT,
    InputKind,
    class_score_column,
    leaf_rows,
    split_soft_rows,
)
from ..core.leaves import leaves_from_rows, leaves_from_table
from . import kinds as _kinds
from .columns import SCORE_NAMES, ColumnChoice, describe_choice, resolve_named, resolve_wide
from .errors import MAX_ROWS_SHOWN, InputError, format_rows, plural, quote
from .labels import Labels, decode_labels
from .parsed import ColumnPlan, ParsedFile
from .readers import parse_bytes, read_source
from .size_limits import _budget_words, _mb, decoded_error, limits, release_memory
from .values import (
    as_dictionary,
    check_exact_as_float,
    check_name_lengths,
    constant_text,
    expanded_bytes,
    first_true,
    missing_error,
    null_mask,
    plain,
    to_float,
    to_text,
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

    def __post_init__(self) -> None:
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
    #: What kind of input the table holds (see :mod:`roc_dash.core.canonical_kinds`).
    kind: InputKind = field(default_factory=InputKind)


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


def model_name_from_filename(filename: str) -> str:
    """``runs/preds.csv.gz`` -> ``preds``: no directories, no data-file extensions."""
    base = re.split(r"[\\/]", str(filename).rstrip("/\\"))[-1]
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


def _as_sources(sources: object) -> list[object]:
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

    ``sources`` holds paths and/or ``(filename, bytes)`` pairs. All or nothing: the first bad
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
    if not items:
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


def _load_all(items: list[object], options: ReadOptions, existing_models: Iterable[str],
              duplicate_files: str) -> LoadResult:
    notes: list[str] = []
    parts: list[_FilePart] = []
    seen: dict[str, str] = {}  # digest -> name of the first file with these contents
    budget = limits().decoded_bytes
    used = 0  # bytes the parts read so far will take as the canonical table
    for item in items:
        name, data = read_source(item)
        digest = content_digest(data)
        first = seen.get(digest)
        if first is not None:
            if duplicate_files == "error":
                what = "given twice" if name == first else f"same contents as {first}"
                raise InputError(
                    f"{name}: {what}, so the same predictions would be counted twice. Give "
                    "each file once.",
                    file=name,
                )
            notes.append(
                f"{name}: given twice; read once."
                if name == first
                else f"{name}: dropped, identical to {first}."
            )
            continue
        seen[digest] = name
        part, file_notes = _load_one(name, data, options, budget - used)
        del data
        used += _check_table_size(part, budget - used)
        parts.append(part)
        notes.extend(file_notes)
    return assemble(parts, notes, existing_models, digests=tuple(seen))


def _check_table_size(part: _FilePart, budget: int) -> int:
    """The bytes ``part`` will take in the canonical table (its text expanded); a
    :class:`~roc_dash.io.errors.DecodedSizeError` naming the biggest text column when that
    is beyond ``budget``. Checked on dictionary-encoded names, before they are expanded."""
    sizes = {name: expanded_bytes(part.table.column(name)) for name in part.table.column_names}
    text = {n for n in part.table.column_names
            if pa.types.is_dictionary(part.table.field(n).type)
            or pa.types.is_string(part.table.field(n).type)}
    return _check_size(part.name, part.table.num_rows, sizes, text, budget)


def _check_size(filename: str, predictions: int, sizes: dict[str, int], text: set[str],
                budget: int) -> int:
    total = sum(sizes.values())
    if total <= budget:
        return total
    biggest = max(text, key=lambda n: sizes[n]) if text else None
    detail = ""
    if biggest is not None:
        column = {"model": "model names", "fold": "fold names", "id": "ids"}.get(biggest,
                                                                                 biggest)
        detail = f"; its {column} alone take {_mb(sizes[biggest])}"
    raise decoded_error(
        filename,
        f"would take {_mb(total)} of memory as a table of "
        f"{predictions:,} predictions{detail}, more than the {_budget_words(budget)}",
        "Use shorter model and fold names (e.g. 'rf' rather than a description) and ids, "
        "upload fewer rows, or split them over several uploads",
    )


def _check_before_converting(parsed: ParsedFile, choice: ColumnChoice, classes: int,
                             budget: int | None) -> dict[str, pa.Array]:
    """Refuse, from the columns as read (names dictionary-encoded), what would be refused
    after the conversions, before they take memory: names beyond
    ``ROC_DASH_MAX_NAME_CHARS`` and a canonical table beyond the decoded budget."""
    table, name = parsed.table, parsed.name
    names: dict[str, pa.Array] = {}  # the names as text, for the conversions to reuse
    for column, what, integral in ((choice.model, "model name", False),
                                   (choice.fold, "fold name", True)):
        if column is not None and pa.types.is_dictionary(table.field(column).type):
            names[column] = to_text(table.column(column), name, column,
                                    integral_text=integral)
            check_name_lengths(names[column], parsed.row_numbers, name, column, what)
    if budget is None:
        return names
    n = table.num_rows
    copies = len(choice.scores) if choice.wide else 1
    sizes = {"label": n * copies, "score": 8 * n * copies * (classes + 1),
             "weight": 8 * n * copies}
    for role, column in (("model", choice.model), ("fold", choice.fold), ("id", choice.id)):
        if column is not None:
            sizes[role] = copies * expanded_bytes(table.column(column))
    if choice.wide:
        sizes["model"] = sum(n * (4 + len(c.encode())) for c in choice.scores)
    _check_size(name, n * copies, sizes, {"model", "fold", "id"} & set(sizes), budget)
    return names


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
    :func:`load_predictions` and the aggregating engines (:mod:`roc_dash.io.engines`), whose
    parts carry a ``rows`` column (input rows per table row), kept in the result."""
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

    kind = _check_kinds(parts)
    _check_both_classes([p for p in parts if p.kind != SOFT])
    positive_labels = _positive_labels(parts)
    for part in parts:  # text held dictionary-encoded while reading becomes plain text
        part.table = _plain_text(part.table)
    _check_soft_totals([p for p in parts if p.kind == SOFT])

    with_id = any("id" in part.table.column_names for part in parts)
    schema = _SCHEMA.append(pa.field("id", pa.string())) if with_id else _SCHEMA
    for extra in parts[0].table.schema:  # kind columns (class, label_prob, leaf), rows
        if extra.name not in schema.names:
            schema = schema.append(extra)
    tables = []
    for part in parts:
        table = part.table
        if with_id and "id" not in table.column_names:
            table = table.append_column("id", pa.nulls(table.num_rows, pa.string()))
        tables.append(table.cast(schema))
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
    if kind.kind == SOFT:
        frame = split_soft_rows(frame)
    frame.attrs["positive_labels"] = positive_labels
    return LoadResult(table=frame, notes=tuple(notes), digests=digests, kind=kind)


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


def _plan(names: list[str], choice: ColumnChoice, state: dict, filename: str,
          budget: int | None) -> ColumnPlan:
    """How to read the columns of ``choice``: model and fold names held once each, ids as
    text, weights as numbers; only these columns are decoded when the header
    alone decides the kind of file (otherwise, e.g. wide form or multi-class, all are)."""
    categories = frozenset(c for c in (choice.model, choice.fold) if c is not None)
    include = None
    if choice.scores and not state.get("mc_possible") and "error" not in state:
        include = frozenset(choice.used() | ({state["leaf"]} if state.get("leaf") else set()))
    return ColumnPlan(
        text=frozenset(choice.text_columns()) - categories,
        categories=categories,
        # scores keep Arrow's inference: integers beyond 2**53 must be seen as integers
        numbers=frozenset([choice.weight]) if choice.weight is not None else frozenset(),
        include=include,
        small_integers=frozenset([choice.label]) if include is not None else frozenset(),
        check=lambda columns: _check_names(columns, choice, filename, budget),
    )


def _check_names(columns: pa.Table, choice: ColumnChoice, filename: str,
                 budget: int | None) -> None:
    """The model and fold columns of a Parquet file, read first: names beyond
    ``ROC_DASH_MAX_NAME_CHARS``, or too big as a table, are refused before the rest is read."""
    for column, what, integral in ((choice.model, "model name", False),
                                   (choice.fold, "fold name", True)):
        if column is not None and column in columns.column_names:
            check_name_lengths(to_text(columns.column(column), filename, column,
                                       integral_text=integral),
                               _parquet_rows, filename, column, what)
    if budget is not None:
        sizes = {c: expanded_bytes(columns.column(c)) for c in columns.column_names}
        sizes = {{choice.model: "model", choice.fold: "fold"}.get(c, c): v
                 for c, v in sizes.items()}
        _check_size(filename, columns.num_rows, sizes, set(sizes), budget)


def _parquet_rows(positions: np.ndarray) -> np.ndarray:
    return np.asarray(positions, dtype=np.int64) + 1


def _load_one(name: str, data: bytes, options: ReadOptions,
              budget: int | None = None) -> tuple[_FilePart, list[str]]:
    notes: list[str] = []
    choice_box: list[ColumnChoice] = []
    state: dict = {}

    def choose(names: list[str]) -> set[str]:
        if _kinds.leaves_header(names, options):
            state["leaves"] = True
            return {_kinds._match(names, "leaf")}
        leaf = _kinds.leaf_rows_header(names, options)
        soft = _kinds.soft_column(names, options, name)
        cost = _kinds.cost_column(names, options, name)
        state.update(leaf=leaf, soft=soft, cost=cost)
        label = options.class_column or soft or options.label
        weight = cost or options.weight
        mc_possible = leaf is None and soft is None and bool(
            options.class_column
            or (options.score is None and not _kinds._has_any(names, SCORE_NAMES)))
        state["mc_possible"] = mc_possible
        if leaf is not None:
            choice = _roles(names, name, label, weight, options, exclude={leaf})
        else:
            try:
                choice = resolve_named(
                    names,
                    name,
                    label=label,
                    score=options.score,
                    model=options.model,
                    fold=options.fold,
                    weight=weight,
                    id=options.id,
                )
            except InputError as exc:
                if not mc_possible:
                    raise
                state["error"] = exc
                choice = _roles(names, name, label, weight, options)
        choice_box.append(choice)
        return _plan(names, choice, state, name, budget)

    parsed = parse_bytes(data, name, string_columns=choose, budget=budget)
    table = parsed.table
    if table.num_rows == 0:
        what = "has a header but no data rows" if parsed.kind == "text" else "has no rows"
        raise InputError(
            f"{name}: {what} (columns: "
            f"{', '.join(quote(c) for c in parsed.names[:30])}). Add one row per "
            "prediction below the header.",
            file=name,
        )
    if state.get("leaves"):
        return _leaf_table_part(name, _plain_text(table).to_pandas(), notes)
    base = choice_box[0]
    mc = None
    if state["mc_possible"]:
        mc = _kinds.confirm_multiclass(table, base.label, base.used(), options, name)
    if mc is None and "error" in state:
        raise state["error"]
    soft, cost, leaf = state["soft"], state["cost"], state["leaf"]
    kind = MULTICLASS if mc else SOFT if soft else LEAVES if leaf else COSTS if cost else BINARY
    if mc is not None:
        choice = ColumnChoice(label=base.label, scores=mc.scores, wide=False, model=base.model,
                              fold=base.fold, weight=base.weight, id=base.id, how=base.how)
        notes.append(
            f"{name}: read as a multi-class file: column {quote(mc.label)} holds "
            f"{len(mc.classes)} classes ({', '.join(quote(c) for c in mc.classes)}), scored by "
            f"{', '.join(quote(c) for c in mc.scores)}.")
    elif leaf is not None:
        choice = base
    else:
        choice = resolve_wide(base, table.schema, name, parsed.unnamed)
        notes.extend(describe_choice(choice, name))
    if soft is not None:
        notes.append(f"{name}: column {quote(choice.label)} read as soft labels (the "
                     "probability that each row is positive; Qin's eq. 8).")
    if cost is not None:
        notes.append(f"{name}: column {quote(cost)} read as example-specific costs (the "
                     "rows' weights; ROC axes are fractions of cost, Fawcett 2004 s7.2).")

    as_text = _check_before_converting(parsed, choice,
                                       len(mc.classes) if mc is not None else 0, budget)
    n = table.num_rows
    decimal_comma = parsed.delimiter == ";"

    # --- scores: one column (long form) or several (wide form), finite or dropped
    score_values: list[np.ndarray] = []
    finite_masks: list[np.ndarray] = []
    for column in choice.scores:
        check_exact_as_float(table.column(column), parsed.row_numbers, name, column)
        values = to_float(
            table.column(column),
            parsed.row_numbers,
            name,
            column,
            "Scores must be numbers",
            decimal_comma=decimal_comma,
        )
        finite = np.isfinite(values)
        if not finite.all():
            bad = ~finite
            count = int(bad.sum())
            numbers = parsed.row_numbers(first_true(bad))
            if count == n:
                raise InputError(
                    f"{name}: column {quote(column)} has no usable scores: all "
                    f"{plural(n, 'value')} are missing or infinite. Choose the column that "
                    "holds the classifier's scores (--score), or fill it in.",
                    file=name,
                    column=column,
                    rows=numbers,
                    count=count,
                )
            if not options.drop_nonfinite:
                n_missing = int(np.isnan(values).sum())
                n_inf = count - n_missing
                kinds = ", ".join(
                    k
                    for k in (
                        f"{n_missing:,} missing" if n_missing else "",
                        f"{n_inf:,} infinite" if n_inf else "",
                    )
                    if k
                )
                raise InputError(
                    f"{name}: column {quote(column)} has "
                    f"{plural(count, 'missing or infinite score')} ({kinds}; "
                    f"{format_rows(numbers, count)}). Every row needs a finite score: fix or "
                    "remove these rows, or choose to drop them (--drop-nonfinite).",
                    file=name,
                    column=column,
                    rows=numbers,
                    count=count,
                )
            notes.append(
                f"{name}: dropped {plural(count, 'row')} with missing or infinite scores in "
                f"column {quote(column)} ({format_rows(numbers, count)})."
            )
        score_values.append(values)
        finite_masks.append(finite)

    # rows that survive in at least one score column: everything else is validated on them
    if leaf is not None:
        finite_masks = [np.ones(n, dtype=bool)]
    if len(finite_masks) > 1:
        combine = np.logical_and if mc is not None else np.logical_or
        keep_any = combine.reduce(finite_masks)
    else:
        keep_any = finite_masks[0]
    if keep_any.all():
        positions = None
        kept = n

        def rows(p: np.ndarray) -> np.ndarray:
            return parsed.row_numbers(p)

        def sub(column: str) -> pa.ChunkedArray:
            return table.column(column)
    else:
        positions = np.flatnonzero(keep_any)
        kept = len(positions)
        take_index = pa.array(positions)

        def rows(p: np.ndarray) -> np.ndarray:
            return parsed.row_numbers(positions[np.asarray(p, dtype=np.int64)])

        def sub(column: str) -> pa.ChunkedArray:
            return table.column(column).take(take_index)

    label_prob = class_text = None
    if mc is not None:
        class_text = to_text(sub(choice.label), name, choice.label, integral_text=True)
        missing = null_mask(class_text)
        if missing.any():
            raise missing_error(missing, rows, name, choice.label,
                                "Every row needs a class (its true class);",
                                "fill them in or remove these rows.")
        reference = mc.classes[0]
        if options.positive is not None and str(options.positive).strip():
            wanted = _kinds.normalise(str(options.positive))
            found = [c for c in mc.classes if _kinds.normalise(c) == wanted]
            if not found:
                raise InputError(
                    f"{name}: the reference class {quote(str(options.positive).strip())} is not "
                    f"one of the classes {', '.join(quote(c) for c in mc.classes)}. Choose one "
                    "of these (--positive CLASS).", file=name, column=choice.label)
            reference = found[0]
        labels = Labels(
            values=pc.equal(class_text, reference).to_numpy(zero_copy_only=False).astype(bool),
            positive=reference, negative=None)
    elif soft is not None:
        label_prob = to_float(sub(choice.label), rows, name, choice.label,
                              "Soft labels must be numbers from 0 to 1",
                              decimal_comma=decimal_comma)
        _kinds.check_soft(label_prob, rows, name, choice.label)
        labels = Labels(values=label_prob > 0.0, positive=None, negative=None)
    else:
        labels = decode_labels(sub(choice.label), rows, name, choice.label, options.positive)

    if choice.weight is not None:
        weights = to_float(
            sub(choice.weight),
            rows,
            name,
            choice.weight,
            "Weights must be numbers (0 or more)",
            decimal_comma=decimal_comma,
        )
        if cost is not None:
            _kinds.check_costs(weights, rows, name, choice.weight)
        else:
            _check_weights(weights, rows, name, choice.weight)
    else:
        weights = np.ones(kept)

    def text_column(column: str, what: str, integral_text: bool,
                    name_of: str | None = None) -> pa.Array:
        if positions is None and column in as_text:  # converted (and checked) already
            values, name_of = as_text[column], None
        else:
            values = to_text(sub(column), name, column, integral_text=integral_text)
        if name_of is not None:  # a name shown on the page: capped in length
            check_name_lengths(values, rows, name, column, name_of)
        missing = null_mask(values)
        if missing.any():
            raise missing_error(
                missing,
                rows,
                name,
                column,
                f"Every row needs a {what};",
                "fill them in or remove these rows.",
            )
        return values

    fold = (
        text_column(choice.fold, "fold", True, "fold name")
        if choice.fold is not None
        else constant_text(DEFAULT_FOLD, kept)
    )
    ids = text_column(choice.id, "id", True) if choice.id is not None else None
    if choice.model is not None:
        model = text_column(choice.model, "model name", False, "model name")
        column_models = tuple(pc.unique(model).to_pylist())
    else:
        model = pa.nulls(kept, pa.string())
        column_models = ()

    if leaf is not None:
        return _leaf_rows_part(name, text_column(leaf, "leaf", True, "leaf name"), labels,
                               weights,
                               choice.label, leaf, notes)
    label_array = pa.array(labels.values, type=pa.bool_())
    weight_array = pa.array(weights, type=pa.float64())
    pieces = []
    piece_masks: list[np.ndarray | None] = []
    if mc is not None:  # one piece: every class score kept side by side
        ref = mc.classes.index(labels.positive)
        columns = {"label": label_array,
                   "score": pa.array(_kept(score_values[ref], positions), type=pa.float64()),
                   "model": model, "fold": fold, "weight": weight_array}
        if ids is not None:
            columns["id"] = ids
        columns[CLASS_COLUMN] = class_text
        for cls, values in zip(mc.classes, score_values, strict=True):
            columns[class_score_column(cls)] = pa.array(_kept(values, positions),
                                                        type=pa.float64())
        pieces.append(pa.table(columns))
        piece_masks.append(None)
        score_items = []
    else:
        score_items = list(zip(choice.scores, score_values, finite_masks, strict=True))
    for column, values, finite in score_items:
        kept_values = values if positions is None else values[positions]
        columns = {
            "label": label_array,
            "score": pa.array(kept_values, type=pa.float64()),
            "model": (
                constant_text(column, kept) if choice.wide else model
            ),
            "fold": fold,
            "weight": weight_array,
        }
        if ids is not None:
            columns["id"] = ids
        if label_prob is not None:
            columns[LABEL_PROB_COLUMN] = pa.array(_kept(label_prob, None), type=pa.float64())
        piece = pa.table(columns)
        local_finite = finite if positions is None else finite[positions]
        if not local_finite.all():
            piece = piece.filter(pa.array(local_finite))
            piece_masks.append(local_finite)
        else:
            piece_masks.append(None)
        pieces.append(piece)
    if choice.wide:
        column_models = tuple(choice.scores)
    part_table = pa.concat_tables(pieces) if len(pieces) > 1 else pieces[0]

    return (
        _FilePart(
            name=name,
            table=part_table,
            label_column=choice.label,
            needs_model_name=choice.model is None and not choice.wide,
            has_fold=choice.fold is not None,
            column_models=column_models,
            positive=labels.positive,
            negative=labels.negative,
            id_column=choice.id,
            rows=_RowMap(rows, kept, piece_masks) if ids is not None else None,
            kind=kind,
            classes=mc.classes if mc is not None else (),
            kind_column=(mc.label if mc is not None else soft if soft is not None
                         else cost),
        ),
        notes,
    )


def _kept(values: np.ndarray, positions: np.ndarray | None) -> np.ndarray:
    return values if positions is None else values[positions]


def _roles(names: list[str], filename: str, label: str | None, weight: str | None,
           options: ReadOptions, exclude: set[str] = frozenset()) -> ColumnChoice:
    """Label, model, fold, weight and id columns without a score column (multi-class and
    per-row leaf files), found as :func:`resolve_named` finds them."""
    from .columns import OPTIONAL_ROLES, _by_name, _override, not_found

    chosen: dict[str, str | None] = {}
    how: dict[str, str] = {}
    overrides = {"label": label, "model": options.model, "fold": options.fold,
                 "weight": weight, "id": options.id}
    taken = set(exclude)
    for role, wanted in overrides.items():
        if wanted is not None and str(wanted).strip():
            chosen[role] = _override(names, str(wanted), role, filename)
            taken.add(chosen[role])
            how[role] = "override"
    for role in ("label", *OPTIONAL_ROLES):
        if role not in chosen:
            chosen[role] = _by_name(names, role, taken, filename)
            if chosen[role] is not None:
                taken.add(chosen[role])
                how[role] = "name"
    if chosen["label"] is None:
        raise not_found(filename, "label", names)
    return ColumnChoice(label=chosen["label"], model=chosen["model"], fold=chosen["fold"],
                        weight=chosen["weight"], id=chosen["id"], how=how)


def _leaf_part(name: str, leaves: pd.DataFrame, column: str) -> _FilePart:
    rows = leaf_rows(leaves, model="")
    table = pa.table({
        "label": pa.array(rows["label"].to_numpy(), type=pa.bool_()),
        "score": pa.array(rows["score"].to_numpy(), type=pa.float64()),
        "model": pa.nulls(len(rows), pa.string()),
        "fold": pa.array(rows["fold"].astype(str).tolist(), type=pa.string()),
        "weight": pa.array(rows["weight"].to_numpy(), type=pa.float64()),
        LEAF_COLUMN: pa.array(rows[LEAF_COLUMN].astype(str).tolist(), type=pa.string()),
    })
    return _FilePart(name=name, table=table, label_column=column, needs_model_name=True,
                     has_fold=False, column_models=(), positive=None, negative=None,
                     kind=LEAVES, kind_column=column)


def _leaf_table_part(name: str, frame: pd.DataFrame, notes: list[str]
                     ) -> tuple[_FilePart, list[str]]:
    """A leaf table (``leaf``, ``pos``, ``neg``; Flach et al. s4) as canonical rows."""
    try:
        leaves = leaves_from_table(frame)
    except ValueError as exc:
        raise InputError(
            f"{name}: read as a decision-tree leaf table (columns leaf, pos, neg), but {exc}. "
            "Each row is one leaf with its numbers of positive (pos) and negative (neg) "
            "training or test instances; fix the table.", file=name) from None
    notes.append(f"{name}: read as a decision-tree leaf table ({plural(len(leaves), 'leaf', 'leaves')}"
                 ", 'leaf', 'pos', 'neg'); each leaf is scored by its share of positives.")
    return _leaf_part(name, leaves, "leaf"), notes


def _leaf_rows_part(name: str, leaf: pa.Array, labels: Labels, weights: np.ndarray,
                    label_column: str, leaf_column: str, notes: list[str]
                    ) -> tuple[_FilePart, list[str]]:
    """Per-row leaf assignments (``--leaves``) aggregated into a leaf table."""
    try:
        leaves = leaves_from_rows(leaf.to_pylist(), labels.values, weights=weights)
        leaves = leaves_from_table(leaves)
    except ValueError as exc:
        raise InputError(f"{name}: cannot make a leaf table from columns {quote(leaf_column)} "
                         f"and {quote(label_column)}: {exc}.", file=name,
                         column=leaf_column) from None
    notes.append(f"{name}: rows aggregated by column {quote(leaf_column)} into "
                 f"{plural(len(leaves), 'leaf', 'leaves')} (decision-tree leaves).")
    return _leaf_part(name, leaves, leaf_column), notes


def _check_weights(weights: np.ndarray, rows, name: str, column: str) -> None:
    missing = np.isnan(weights)
    if missing.any():
        raise missing_error(
            missing,
            rows,
            name,
            column,
            "Every row needs a weight (a finite number, 0 or more);",
            "fill them in, remove these rows, or leave out the weight column.",
        )
    bad = ~np.isfinite(weights) | (weights < 0)
    if bad.any():
        count = int(bad.sum())
        positions = first_true(bad)
        numbers = rows(positions)
        examples = list(dict.fromkeys(float(w) for w in weights[np.flatnonzero(bad)[:1000]]))
        shown = ", ".join(f"{w:g}" for w in examples[:5])
        raise InputError(
            f"{name}: column {quote(column)} has {plural(count, 'invalid weight')} "
            f"({format_rows(numbers, count)}): {shown}. Weights must be finite numbers, 0 or "
            "more; fix or remove these rows.",
            file=name,
            column=column,
            rows=numbers,
            count=count,
        )


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
    first = files[0]
    positive = pos == total
    kind = "positive" if positive else "negative"
    value = first.positive if positive else first.negative
    value_text = f" ({quote(value)})" if value is not None else ""
    file_names = ", ".join(dict.fromkeys(p.name for p in files))
    where = (
        f"in fold {quote(fold)}"
        if any(p.has_fold for p in files)
        else "in the whole file" if len(files) == 1 else "in all its files"
    )
    more = (
        f" ({plural(len(bad) - 1, 'other model/fold combination')} also "
        f"{'has' if len(bad) == 2 else 'have'} a single class.)"
        if len(bad) > 1
        else ""
    )
    raise InputError(
        f"{file_names}: model {quote(model)} has only {kind} labels{value_text} {where} "
        f"({plural(total, 'row')}), so its ROC curve is undefined. Every model and fold needs "
        "both positive and negative examples: add rows of the other class, or remove this "
        f"{'fold' if any(p.has_fold for p in files) else 'model'}.{more}",
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
