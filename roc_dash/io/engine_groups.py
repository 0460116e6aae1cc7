"""The aggregated groups of one source, checked and decoded into a part of the canonical table.

Label, model and fold values are decoded with the in-memory reader's rules
(:mod:`roc_dash.io.labels`, :mod:`roc_dash.io.values`) applied to their distinct values;
missing and non-finite values counted by the query are refused (or, for scores, dropped) with
the in-memory reader's words. See :mod:`roc_dash.io.engines`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .canonical import DEFAULT_FOLD, ReadOptions, _FilePart
from .columns import check_model_count, wide_model_names
from .engine_sources import Source
from .errors import InputError, plural, quote, quote_list
from .groups import GROUP_COLUMN, group_values, usable_group_columns
from .labels import decode_labels
from .values import check_name_lengths, is_text, plain, to_text, trimmed_text

# --------------------------------------------------------------------------- decoding


def _sum(table: pa.Table, column: str, mask: np.ndarray | None = None) -> int:
    values = pc.fill_null(table.column(column), 0).to_numpy().astype(np.int64)
    return int(values[mask].sum() if mask is not None else values.sum())


def _map_distinct(column: pa.ChunkedArray | pa.Array,
                  convert: Callable[[pa.Array], pa.Array]) -> pa.Array:
    """Apply ``convert`` to the distinct values of ``column`` and spread the result back."""
    encoded = pc.dictionary_encode(plain(column), null_encoding="encode")
    return pc.take(convert(encoded.dictionary), encoded.indices)


def _missing_labels(dictionary: pa.Array) -> np.ndarray:
    """True per distinct label value that the in-memory reader reads as missing."""
    column = dictionary
    if is_text(column):
        column = trimmed_text(column)
    elif pa.types.is_floating(column.type):
        column = pc.if_else(pc.is_nan(column), pa.scalar(None, column.type), column)
    return column.is_null().to_numpy(zero_copy_only=False).astype(bool)


def _no_rows(position: np.ndarray) -> np.ndarray:
    return np.asarray(position, dtype=np.int64) + 1


def _missing(name: str, column: str, count: int, what: str, advice: str) -> InputError:
    return InputError(
        f"{name}: column {quote(column)} has {plural(count, 'missing value')}. {what} {advice}",
        file=name,
        column=column,
        count=count,
    )


def _bad_weights(name: str, column: str, count: int, noun: str, examples,
                 requirement: str) -> InputError:
    """``count`` weights of ``column`` that break ``requirement``, five of them shown."""
    return InputError(
        f"{name}: column {quote(column)} has {plural(count, noun)}: "
        f"{quote_list(examples(column), 5)}. {requirement}; fix or remove these rows.",
        file=name, column=column, count=count,
    )


def _check_exact_scores(name: str, choice, raw: pa.Table, k: np.ndarray) -> None:
    """An :class:`InputError` when one double score stands for several integers (the
    in-memory reader's check, from each group's smallest and largest integer)."""
    if "s_lo" not in raw.column_names:
        return
    known = pc.is_valid(raw.column("s_lo")).to_numpy(zero_copy_only=False)
    if not known.any():
        return
    spans = pd.DataFrame({
        "k": k[known],
        "s": raw.column("s").to_numpy(zero_copy_only=False)[known],
        "lo": [int(v) for v in raw.column("s_lo").filter(pa.array(known)).to_pylist()],
        "hi": [int(v) for v in raw.column("s_hi").filter(pa.array(known)).to_pylist()],
    }).groupby(["k", "s"]).agg(lo=("lo", "min"), hi=("hi", "max"))
    merged = spans[spans["lo"] != spans["hi"]]
    if merged.empty:
        return
    from ..core._validation import FLOAT_EXACT_INT

    (j, _), first = merged.index[0], merged.iloc[0]
    a, b = int(first["hi"]), int(first["lo"])
    column = choice.scores[int(j)]
    raise InputError(
        f"{name}: column {quote(column)} holds integers too large to tell apart as "
        f"floating-point numbers: {a} and {b} both become {float(a):.17g} (integers beyond "
        f"2**53 = {FLOAT_EXACT_INT:,} lose their last digits), so the analysis would count "
        "them as tied. Rescale the column (e.g. subtract its minimum, or divide it into "
        "decimals) and load the file again.",
        file=name, column=column, count=2,
    )


def _part(source: Source, choice, raw: pa.Table, options: ReadOptions,
          examples: Callable[[str], list[str]],
          groups: tuple[tuple[str, ...], bool] = ((), False)
          ) -> tuple[_FilePart, list[str], int]:
    """Validate one source's aggregated groups (the in-memory reader's checks, in its order)
    and turn them into a canonical part with a ``rows`` column; ``groups``: the group columns
    (``g0``, ``g1`` of ``raw``) and whether they were chosen (:mod:`roc_dash.io.groups`)."""
    name = source.name
    notes: list[str] = []
    total_rows = _sum(raw, "n")
    k = raw.column("k").to_numpy(zero_copy_only=False)
    n = raw.column("n").to_numpy(zero_copy_only=False).astype(np.int64)
    if total_rows == 0:
        raise InputError(f"{name}: has no rows. Add one row per prediction.", file=name)

    # --- scores: numbers, finite (or dropped)
    for j, column in enumerate(choice.scores):
        sel = k == j
        bad = _sum(raw, "s_bad", sel)
        if bad:
            raise InputError(
                f"{name}: column {quote(column)} has {plural(bad, 'non-numeric value')}: "
                f"{quote_list(examples(column), 5)}. Scores must be numbers; fix or remove "
                "these rows.",
                file=name, column=column, count=bad,
            )
    _check_exact_scores(name, choice, raw, k)
    s = raw.column("s").to_numpy(zero_copy_only=False).astype(np.float64)
    finite = np.isfinite(s)
    n_records = total_rows // max(1, len(choice.scores))
    for j, column in enumerate(choice.scores):
        sel = k == j
        nan = int(n[sel & np.isnan(s)].sum())
        inf = int(n[sel & np.isinf(s)].sum())
        count = nan + inf
        if not count:
            continue
        if count == int(n[sel].sum()):
            raise InputError(
                f"{name}: column {quote(column)} has no usable scores: all "
                f"{plural(count, 'value')} are missing or infinite. Choose the column that "
                "holds the classifier's scores (--score), or fill it in.",
                file=name, column=column, count=count,
            )
        if not options.drop_nonfinite:
            kinds = ", ".join(x for x in (f"{nan:,} missing" if nan else "",
                                          f"{inf:,} infinite" if inf else "") if x)
            raise InputError(
                f"{name}: column {quote(column)} has "
                f"{plural(count, 'missing or infinite score')} ({kinds}). Every row needs a "
                "finite score: fix or remove these rows, or choose to drop them "
                "(--drop-nonfinite).",
                file=name, column=column, count=count,
            )
        notes.append(f"{name}: dropped {plural(count, 'row')} with missing or infinite scores "
                     f"in column {quote(column)}.")
    del n_records
    if not finite.all():
        raw = raw.filter(pa.array(finite))
        n = n[finite]

    # --- labels: decoded on their distinct values, exactly as in memory
    encoded = pc.dictionary_encode(plain(raw.column("l")), null_encoding="encode")
    missing = _missing_labels(encoded.dictionary)
    indices = encoded.indices.to_numpy(zero_copy_only=False)
    if missing.any():
        count = int(n[missing[indices]].sum())
        raise _missing(name, choice.label, count, "Every row needs a label (its true class);",
                       "fill them in or remove these rows.")
    labels = decode_labels(encoded.dictionary, _no_rows, name, choice.label, options.positive)
    label = labels.values[indices]

    # --- weights
    if choice.weight is not None:
        bad = _sum(raw, "w_bad")
        if bad:
            raise _bad_weights(name, choice.weight, bad, "non-numeric value", examples,
                               "Weights must be numbers (0 or more)")
        count = _sum(raw, "w_missing")
        if count:
            raise _missing(name, choice.weight, count,
                           "Every row needs a weight (a finite number, 0 or more);",
                           "fill them in, remove these rows, or leave out the weight column.")
        count = _sum(raw, "w_invalid")
        if count:
            raise _bad_weights(name, choice.weight, count, "invalid weight", examples,
                               "Weights must be finite numbers, 0 or more")

    # --- fold and model names: the in-memory text rules on the distinct values
    def text(column: str, what: str, integral: bool) -> pa.Array:
        values = _map_distinct(raw.column(column_of[column]),
                               lambda d: to_text(d, name, column, integral_text=integral))
        # names shown on the page: capped as in memory (no row numbers in a stream)
        check_name_lengths(values, None, name, column,
                           "fold name" if what == "fold" else what)
        mask = values.is_null().to_numpy(zero_copy_only=False).astype(bool)
        if mask.any():
            raise _missing(name, column, int(n[mask].sum()), f"Every row needs a {what};",
                           "fill them in or remove these rows.")
        return values

    column_of = {c: key for c, key in ((choice.fold, "f"), (choice.model, "m")) if c}
    kept_groups = raw.num_rows
    fold = (text(choice.fold, "fold", True) if choice.fold is not None
            else pa.repeat(pa.scalar(DEFAULT_FOLD, pa.string()), kept_groups))
    if choice.wide:
        column_models = wide_model_names(choice.scores, name)
        model = pc.take(pa.array(list(column_models), pa.string()), raw.column("k"))
    elif choice.model is not None:
        model = text(choice.model, "model name", False)
        distinct = pc.unique(model)
        check_model_count(len(distinct), name, column=choice.model)
        column_models = tuple(distinct.to_pylist())
    else:
        model = pa.nulls(kept_groups, pa.string())
        column_models = ()

    group_columns, group = _group(name, raw, n, groups, notes)
    # groups that differ only in spelling ('yes'/'YES', fold '1'/'1.0') become one
    frame = pd.DataFrame({
        "label": label,
        "score": raw.column("s").to_numpy(zero_copy_only=False).astype(np.float64),
        "model": model.to_pandas(),
        "fold": fold.to_pandas(),
        **({GROUP_COLUMN: group.to_pandas()} if group is not None else {}),
        "weight": raw.column("w").to_numpy(zero_copy_only=False).astype(np.float64),
        "rows": n,
    })
    keys = ["model", "fold", *([GROUP_COLUMN] if group is not None else []), "score", "label"]
    frame = (frame.groupby(keys, sort=True, dropna=False, observed=True)[["weight", "rows"]]
             .sum().reset_index()[["label", "score", "model", "fold", *keys[2:-2], "weight",
                                   "rows"]])
    table = pa.Table.from_pandas(frame, preserve_index=False)
    table = table.set_column(2, "model", pc.cast(table.column("model"), pa.string()))
    part = _FilePart.chosen(source.model_name_base, table, choice, labels, column_models,
                            group_columns=group_columns)
    return part, notes, total_rows


def _group(name: str, raw: pa.Table, n: np.ndarray, groups: tuple[tuple[str, ...], bool],
           notes: list[str]) -> tuple[tuple[str, ...], pa.Array | None]:
    """The usable group columns and each aggregated row's group, decoded from the distinct
    raw values by the in-memory reader's rules (:mod:`roc_dash.io.groups`; a chosen column
    of numbers refused, empty cells counted in input rows)."""
    columns, explicit = groups
    if not columns:
        return (), None
    view = pa.table({c: raw.column(f"g{i}") for i, c in enumerate(columns)})
    columns = usable_group_columns(view, name, columns, explicit, notes)
    group = group_values(view.column, None, columns, name, notes, counts=n)
    return columns, group
