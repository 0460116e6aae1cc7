"""Which input kind a file is, decided from its header and label column.

* **multi-class** (Fawcett 2004 s7.3): a class column (``--class-col``, else the label
  column found by name, e.g. ``class``) with three or more values (any number with
  ``--class-col``) and one score column per class, ``score_<class>`` (or ``p_``, ``proba_``,
  ``prob_``, ``y_proba_``, yardstick's ``.pred_`` prefix) or named like the class;
* **soft labels** (Qin 2005, see roc_dash.core.kinds.soft_labels): the label column holds P(positive) in [0, 1]
  (``--soft-labels [COL]``, or a ``label_prob`` column when no label column is found);
* **example-specific costs** (Fawcett 2004 s7.2): a ``cost`` column (``--cost COL``), read
  as the rows' weights, all positive and finite;
* **decision-tree leaves** (Flach et al. s4): a table with ``leaf``, ``pos`` and ``neg``
  columns, or (``--leaves``) per-row leaf assignments: a ``leaf`` and a label column.

A binary file is read exactly as before; the canonical form of each kind is described in
:mod:`roc_dash.core.kinds.canonical_kinds`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..core.kinds.canonical_kinds import CLASS_SCORE_PREFIX
from ..text.invisible import without_invisible
from .columns import LABEL_NAMES, SCORE_NAMES, normalise
from .errors import InputError, format_rows, plural, quote, quote_list
from .size_limits import limits, name_too_long
from .values import first_true, plain, to_text

#: Per-class score column names users already have, ``<prefix><class>``: roc-dash's own
#: ``score_``, then scikit-learn-style ``proba_``/``prob_``/``p_``/``y_proba_`` and
#: yardstick's (tidymodels) ``.pred_``; compared case-folded.
CLASS_SCORE_PREFIXES = (CLASS_SCORE_PREFIX, "proba_", "prob_", "p_", "y_proba_", ".pred_")
#: How messages name them.
CLASS_SCORE_FORMS = ("score_<class> (or p_<class>, proba_<class>, y_proba_<class>, "
                     ".pred_<class>)")

SOFT_LABEL_NAMES = ("label_prob",)
COST_NAMES = ("cost",)
LEAVES_TABLE_COLUMNS = ("leaf", "pos", "neg")


def _match(names: Sequence[str], wanted: str) -> str | None:
    key = normalise(wanted)
    found = [n for n in names if normalise(n) == key]
    if len(found) > 1:
        exact = [n for n in found if n.strip() == str(wanted).strip()]
        return exact[0] if len(exact) == 1 else found[0]
    return found[0] if found else None


def _has_any(names: Sequence[str], aliases: Sequence[str]) -> bool:
    return any(_match(names, a) is not None for a in aliases)


def leaves_header(names: Sequence[str], options) -> bool:
    """A leaf table: ``leaf``, ``pos`` and ``neg`` columns and no score column (or
    ``--leaves`` with them)."""
    if not all(_match(names, c) for c in LEAVES_TABLE_COLUMNS):
        return False
    if options.leaves:
        return True
    return options.score is None and not _has_any(names, SCORE_NAMES)


def leaf_rows_header(names: Sequence[str], options) -> str | None:
    """``--leaves`` with per-row assignments: the ``leaf`` column, else None."""
    if not options.leaves:
        return None
    return _match(names, "leaf")


def soft_column(names: Sequence[str], options, filename: str) -> str | None:
    """The column of soft labels, or None for hard labels."""
    flag = options.soft_labels
    if isinstance(flag, str) and flag.strip():
        if _match(names, flag) is None:
            raise InputError(
                f"{filename}: there is no column {quote(flag.strip())} (chosen as the soft "
                f"label column). Columns in this file: {quote_list(names, 30)}. Check the "
                "spelling (--soft-labels COL).", file=filename, column=flag.strip())
        return _match(names, flag)
    if flag:
        if options.label:
            return options.label
        for alias in (*SOFT_LABEL_NAMES, *LABEL_NAMES):
            found = _match(names, alias)
            if found is not None:
                return found
        return None
    if options.label is None and not _has_any(names, LABEL_NAMES):
        for alias in SOFT_LABEL_NAMES:
            found = _match(names, alias)
            if found is not None:
                return found
    return None


def cost_column(names: Sequence[str], options, filename: str) -> str | None:
    """The column of example-specific costs (``--cost COL`` or a ``cost`` column)."""
    if options.cost:
        found = _match(names, options.cost)
        if found is None:
            raise InputError(
                f"{filename}: there is no column {quote(str(options.cost).strip())} (chosen as "
                f"the cost column). Columns in this file: {quote_list(names, 30)}. Check the "
                "spelling (--cost COL).", file=filename, column=str(options.cost).strip())
    else:
        found = next((c for c in (_match(names, a) for a in COST_NAMES) if c), None)
    if found is not None and (options.weight or _match(names, "weight")):
        raise InputError(
            f"{filename}: has both a cost column ({quote(found)}) and a weight column. "
            "Example-specific costs are carried as weights: keep one of them (multiply them "
            "into one column if both apply).", file=filename, column=found)
    return found


def check_costs(costs: np.ndarray, rows, filename: str, column: str) -> None:
    """Fawcett 2004 s7.2: costs and benefits must be positive and finite."""
    bad = ~np.isfinite(costs) | ~(costs > 0)
    if not bad.any():
        return
    count = int(bad.sum())
    numbers = rows(first_true(bad))
    shown = ", ".join(f"{v:g}" for v in dict.fromkeys(costs[np.flatnonzero(bad)[:100]].tolist()))
    raise InputError(
        f"{filename}: column {quote(column)} has {plural(count, 'invalid cost')} "
        f"({format_rows(numbers, count)}): {shown}. Example-specific costs must be positive, "
        "finite numbers (the cost of misclassifying a negative, the benefit of a positive; "
        "Fawcett 2004 s7.2): fix or remove these rows.",
        file=filename, column=column, rows=numbers, count=count)


def check_soft(p: np.ndarray, rows, filename: str, column: str) -> None:
    """Soft labels are probabilities: in [0, 1], none missing."""
    bad = np.isnan(p) | (p < 0) | (p > 1)
    if not bad.any():
        return
    count = int(bad.sum())
    numbers = rows(first_true(bad))
    shown = ", ".join("missing" if np.isnan(v) else f"{v:g}"
                      for v in dict.fromkeys(p[np.flatnonzero(bad)[:100]].tolist()))
    raise InputError(
        f"{filename}: column {quote(column)} has {plural(count, 'invalid soft label')} "
        f"({format_rows(numbers, count)}): {shown}. A soft label is the probability that the "
        "row is positive, a number from 0 to 1: fix or remove these rows.",
        file=filename, column=column, rows=numbers, count=count)


@dataclass(frozen=True)
class MulticlassColumns:
    """A confirmed multi-class file: classes (as text) and their score columns, in the
    file's column order."""

    label: str
    classes: tuple[str, ...]
    scores: tuple[str, ...]


def class_values(column: pa.ChunkedArray) -> list[str]:
    """Distinct class values as text (trimmed, whole numbers without '.0'), in order of
    first appearance; missing values are left out."""
    text = to_text(column, "", "", integral_text=True)
    distinct = text.dictionary if isinstance(text, pa.DictionaryArray) else pc.unique(plain(text))
    return [v for v in distinct.to_pylist() if v is not None]


def confirm_multiclass(table: pa.Table, label: str, used: set[str], options,
                       filename: str) -> MulticlassColumns | None:
    """The classes and score columns when the file is multi-class, else None.

    Multi-class when the label column has at least three values (or ``--class-col`` was
    given) and every value has a score column ``score_<value>`` (or ``p_``, ``proba_``,
    ``prob_``, ``y_proba_``, ``.pred_<value>``, or a column named like the value), matched
    ignoring case and spaces. With roc-dash's own ``score_`` form every ``score_<c>`` column
    is a class, so a class missing from the rows is reported, not dropped.
    """
    forced = bool(options.class_column)
    values = class_values(table.column(label))
    if len(values) < (2 if forced else 3):
        return None
    limit = limits().name_chars
    for v in values:
        if len(v) > limit:
            raise name_too_long(filename, "class name", v, len(v), column=label)
    names = [n for n in table.column_names if n not in used]
    plain_names = {normalise(n): n for n in names}

    def with_prefix(prefix: str) -> dict[str, str]:
        return {normalise(n)[len(prefix):]: n for n in names
                if normalise(n).startswith(prefix) and len(normalise(n)) > len(prefix)}

    # the first prefix naming every class (score_ first); else any mix of the known forms
    families = [with_prefix(prefix) for prefix in CLASS_SCORE_PREFIXES]
    keys = [normalise(v) for v in values]
    prefixed = next((f for f in families if f and all(k in f for k in keys)), None)
    if prefixed is None:
        prefixed = {}
        for family in reversed(families):
            prefixed.update(family)
    chosen: dict[str, str] = {}
    missing = []
    for v, key in zip(values, keys, strict=True):
        column = prefixed.get(key) or plain_names.get(key)
        if column is None:
            missing.append(v)
        else:
            chosen[column] = v
    if missing:
        if not forced and not prefixed:
            return None
        raise InputError(
            f"{filename}: column {quote(label)} holds {len(values)} classes "
            f"({quote_list(values, 10)}), but {plural(len(missing), 'class')} "
            f"{'has' if len(missing) == 1 else 'have'} no score column: "
            f"{quote_list(missing, 10)}. A multi-class file needs one score column per class, "
            f"named {CLASS_SCORE_FORMS} (e.g. {CLASS_SCORE_PREFIX}{missing[0]}) or like the "
            "class; add them, or choose the class column (--class-col).",
            file=filename, column=label)
    use_prefixed = all(normalise(c).startswith(CLASS_SCORE_PREFIX) for c in chosen)
    if use_prefixed:  # every score_<c> column is a class, even one without rows
        for column in with_prefix(CLASS_SCORE_PREFIX).values():
            chosen.setdefault(column, without_invisible(column).strip()[len(CLASS_SCORE_PREFIX):])
    order = [n for n in table.column_names if n in chosen]
    classes = tuple(chosen[c] for c in order)
    absent = [c for c in classes if c not in values]
    if absent:
        raise InputError(
            f"{filename}: the score column(s) {quote_list([c for c in order if chosen[c] in absent])} "
            f"name {plural(len(absent), 'class', 'classes')} with no rows in column "
            f"{quote(label)} ({quote_list(absent)}). Every class needs rows for its class "
            "reference curve: add them, or remove the column.", file=filename, column=label)
    return MulticlassColumns(label=label, classes=classes, scores=tuple(order))
