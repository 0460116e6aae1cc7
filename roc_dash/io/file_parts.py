"""One file to its part of the canonical table.

:func:`_load_one` parses one file (:mod:`roc_dash.io.readers`), decides from its header which
column plays which role (:mod:`roc_dash.io.columns`), recognises the input kind
(:mod:`roc_dash.io.kinds`), decodes the labels (:mod:`roc_dash.io.labels`) and checks the
values (:mod:`roc_dash.io.values`): the result is a validated :class:`_FilePart`. The decoded
size is checked before each column is converted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..core.kinds.canonical_kinds import (
    BINARY,
    CLASS_COLUMN,
    COSTS,
    LABEL_PROB_COLUMN,
    LEAF_COLUMN,
    LEAVES,
    MULTICLASS,
    SOFT,
    class_score_column,
    leaf_rows,
)
from ..core.kinds.leaves import leaves_from_rows, leaves_from_table
from ..text.invisible import without_invisible
from . import groups as _groups
from . import kinds as _kinds
from . import slice_columns as _slices
from .canonical import DEFAULT_FOLD, ReadOptions, _FilePart, _plain_text, _RowMap
from .columns import (
    SCORE_NAMES,
    ColumnChoice,
    check_model_count,
    describe_choice,
    resolve_named,
    resolve_wide,
    wide_model_names,
)
from .errors import InputError, format_rows, plural, quote
from .labels import Labels, decode_labels
from .parsed import ColumnPlan, ParsedFile
from .readers import parse_bytes
from .size_limits import _budget_words, _mb, decoded_error
from .values import (
    check_exact_as_float,
    check_name_lengths,
    check_present,
    check_weights,
    constant_text,
    expanded_bytes,
    first_true,
    null_mask,
    to_float,
    to_text,
)


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
        taken = _groups.roles_taken(choice, leaf)
        state["groups"] = _groups.choose_group_columns(names, name, options.group_columns,
                                                       taken)
        plan = _groups.with_group_plan(_plan(names, choice, state, name, budget),
                                       state["groups"][0])
        if options.keep_slice_columns and leaf is None:
            state["slices"] = _slices.candidate_columns(
                names, set(taken) | {soft, cost} | set(state["groups"][0]), name, notes)
            if plan.include is not None:
                plan = replace(plan, include=plan.include | frozenset(state["slices"]))
        return plan

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
    groups = _groups.usable_group_columns(table, name, *state.get("groups", ((), False)),
                                          notes)
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
    score_values, finite_masks = _read_scores(table, parsed, choice, name, options,
                                              decimal_comma, notes)

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

    labels, label_prob, class_text = _read_labels(sub, rows, choice, mc, soft, name, options,
                                                  decimal_comma)

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
            check_weights(weights, rows, name, choice.weight)
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
        check_present(null_mask(values), rows, name, column, f"Every row needs a {what};",
                      "fill them in or remove these rows.")
        return values

    fold = (
        text_column(choice.fold, "fold", True, "fold name")
        if choice.fold is not None
        else constant_text(DEFAULT_FOLD, kept)
    )
    ids = text_column(choice.id, "id", True) if choice.id is not None else None
    group = _groups.group_values(sub, rows, groups, name, notes) if leaf is None else None
    slices, numeric_slices = _slices.slice_values(
        sub, [c for c in state.get("slices", ()) if c not in choice.used() and c not in groups
              and c != (mc.label if mc is not None else None)], name, notes)
    if choice.model is not None:
        model = text_column(choice.model, "model name", False, "model name")
        distinct = pc.unique(model)  # one file names at most ROC_DASH_MAX_MODELS models
        check_model_count(len(distinct), name, column=choice.model)
        column_models = tuple(distinct.to_pylist())
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
        if group is not None:
            columns[_groups.GROUP_COLUMN] = group
        columns.update(slices)
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
                constant_text(without_invisible(column), kept) if choice.wide else model
            ),
            "fold": fold,
            "weight": weight_array,
        }
        if ids is not None:
            columns["id"] = ids
        if group is not None:
            columns[_groups.GROUP_COLUMN] = group
        columns.update(slices)
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
    if choice.wide:  # header names as model names, as the model column's are read
        column_models = wide_model_names(choice.scores, name)
    part_table = pa.concat_tables(pieces) if len(pieces) > 1 else pieces[0]

    return (
        _FilePart.chosen(
            name, part_table, choice, labels, column_models,
            id_column=choice.id,
            rows=_RowMap(rows, kept, piece_masks) if ids is not None else None,
            kind=kind,
            classes=mc.classes if mc is not None else (),
            kind_column=(mc.label if mc is not None else soft if soft is not None
                         else cost),
            group_columns=groups,
            numeric_slices=numeric_slices,
        ),
        notes,
    )


def _read_scores(table: pa.Table, parsed: ParsedFile, choice: ColumnChoice, name: str,
                 options: ReadOptions, decimal_comma: bool, notes: list[str]
                 ) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Each score column as float64 and its mask of finite values; a column with missing or
    infinite scores is refused, or (``options.drop_nonfinite``) its rows noted as dropped."""
    n = table.num_rows
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
    return score_values, finite_masks


def _read_labels(sub: Callable[[str], pa.ChunkedArray], rows: Callable, choice: ColumnChoice,
                 mc, soft: str | None, name: str, options: ReadOptions, decimal_comma: bool
                 ) -> tuple[Labels, np.ndarray | None, pa.Array | None]:
    """The labels of the kept rows (``sub``: a column's kept values; ``rows``: their row
    numbers), with the soft labels' probabilities or the multi-class file's class column:
    the true class against the reference class (``mc``), soft labels (``soft``) or decoded
    two-class labels."""
    label_prob = class_text = None
    if mc is not None:
        class_text = to_text(sub(choice.label), name, choice.label, integral_text=True)
        check_present(null_mask(class_text), rows, name, choice.label,
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
    return labels, label_prob, class_text


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
