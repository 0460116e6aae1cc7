"""Which column of a file plays which role (label, score, model, fold, weight, id).

The number of models one file may create is limited by ``ROC_DASH_MAX_MODELS`` (default 200,
read at call time; see :mod:`roc_dash.io.size_limits` for all size limits): a wide-form file (one
model per numeric column) or a list of score columns beyond it is refused, and so is a wide
form whose rows times score columns exceed ``ROC_DASH_MAX_ROWS``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import pyarrow as pa

from ..text.invisible import merged_names, shown_plainly, without_invisible
from .errors import InputError, plural, quote, quote_list
from .size_limits import MAX_MODELS_VAR, check_rows, limit_error, limits

#: Accepted column names per role, in priority order (matched case-insensitively, stripped).
LABEL_NAMES: tuple[str, ...] = ("label", "y_true", "target", "class", "actual", "y", "truth")
SCORE_NAMES: tuple[str, ...] = ("score", "y_score", "prob", "probability", "pred", "prediction")
OPTIONAL_ROLES: tuple[str, ...] = ("model", "fold", "weight", "id")
ROLE_NAMES: dict[str, tuple[str, ...]] = {
    "label": LABEL_NAMES,
    "score": SCORE_NAMES,
    **{role: (role,) for role in OPTIONAL_ROLES},
}

#: Command-line spelling of each override, used in advice (the group column is chosen
#: like a role, see :mod:`roc_dash.io.groups`).
OPTION_FLAGS = {role: f"--{role}" for role in (*ROLE_NAMES, "group")}

_PANDAS_UNNAMED = re.compile(r"^Unnamed: \d+$")


def normalise(name: str) -> str:
    """How column names are compared: without invisible characters
    (:mod:`roc_dash.text.invisible`), whitespace-stripped and case-folded."""
    return without_invisible(str(name)).strip().casefold()


def wide_model_names(scores: Sequence[str], filename: str) -> tuple[str, ...]:
    """The model names of a wide file's score columns: their headers without invisible
    characters. Refuses two headers that become one name without them (two models' scores
    would be pooled into one curve)."""
    pair = merged_names(scores)
    if pair is not None:
        a, b = pair
        raise InputError(
            f"{filename}: columns {quote(shown_plainly(a))} and {quote(shown_plainly(b))} "
            "differ only by invisible characters (written <U+...> here: direction controls, "
            f"zero-width spaces), so both would name the model "
            f"{quote(without_invisible(a).strip())}. Rename one of them.",
            file=filename, column=b)
    return tuple(without_invisible(c) for c in scores)


@dataclass(frozen=True)
class ColumnChoice:
    """The columns chosen in one file (names exactly as in the file)."""

    label: str
    scores: tuple[str, ...] = ()
    wide: bool = False
    model: str | None = None
    fold: str | None = None
    weight: str | None = None
    id: str | None = None
    #: role -> "override" | "name" | "wide" — how each column was found.
    how: dict[str, str] = field(default_factory=dict, compare=False)

    def text_columns(self) -> set[str]:
        """Columns best read as text (so '007' stays '007')."""
        return {c for c in (self.model, self.fold, self.id) if c is not None}

    def used(self) -> set[str]:
        return {c for c in (self.label, *self.scores, self.model, self.fold, self.weight, self.id)
                if c is not None}


def _columns_list(names: Sequence[str]) -> str:
    return quote_list(names, limit=30) if names else "(none)"


def _find(names: Sequence[str], wanted: str) -> list[str]:
    key = normalise(wanted)
    return [n for n in names if normalise(n) == key]


def _ambiguous(filename: str, role: str, matches: Sequence[str]) -> InputError:
    return InputError(
        f"{filename}: several columns could be the {role} column: {quote_list(matches)} "
        f"(names are compared ignoring case and spaces). Rename all but one, or choose one "
        f"explicitly ({OPTION_FLAGS[role]} COLUMN on the command line).",
        file=filename,
        column=matches[0],
    )


def _override(names: Sequence[str], wanted: str, role: str, filename: str) -> str:
    matches = _find(names, wanted)
    if len(matches) > 1:
        exact = [m for m in matches if m.strip() == str(wanted).strip()]
        if len(exact) == 1:
            return exact[0]
        raise _ambiguous(filename, role, matches)
    if not matches:
        raise InputError(
            f"{filename}: there is no column {quote(str(wanted).strip())} (chosen as the {role} "
            f"column). Columns in this file: {_columns_list(names)}. Check the spelling of the "
            f"{role} column ({OPTION_FLAGS[role]}), or leave it unset to find it by name.",
            file=filename,
            column=str(wanted).strip(),
        )
    return matches[0]


def chosen_column(names: Sequence[str], wanted: str, role: str, filename: str) -> str:
    """The column of ``names`` chosen as ``wanted`` for ``role`` (compared ignoring case and
    surrounding spaces); :class:`InputError` when there is none or it is ambiguous."""
    return _override(names, wanted, role, filename)


def _by_name(names: Sequence[str], role: str, taken: set[str], filename: str) -> str | None:
    for alias in ROLE_NAMES[role]:
        matches = [m for m in _find(names, alias) if m not in taken]
        if len(matches) > 1:
            raise _ambiguous(filename, role, matches)
        if matches:
            return matches[0]
    return None


def _looks_like_json(filename: str, names: Sequence[str]) -> bool:
    first = str(names[0]).lstrip() if len(names) else ""
    return str(filename).lower().endswith(".json") or first.startswith(("{", "["))


def not_found(filename: str, role: str, names: Sequence[str]) -> InputError:
    if _looks_like_json(filename, names):
        return InputError(
            f"{filename}: this looks like a JSON file (a roc-dash decision record or "
            "report?), not a predictions table. Give a CSV or Parquet file of predictions "
            "(a label and a score column); a decision record is given to `roc-dash check` "
            "with --decision.", file=filename)
    accepted = ", ".join(ROLE_NAMES[role])
    what = {
        "label": "the true classes",
        "score": "the classifier's scores",
    }[role]
    extra = (
        f"; several {OPTION_FLAGS['score']} options read one model per column"
        if role == "score"
        else ""
    )
    return InputError(
        f"{filename}: no {role} column found. Columns in this file: {_columns_list(names)}. "
        f"Name the column holding {what} one of: {accepted} (any case); or choose it "
        f"explicitly ({OPTION_FLAGS[role]} COLUMN on the command line{extra}).",
        file=filename,
    )


def resolve_named(
    names: Sequence[str],
    filename: str,
    *,
    label: str | None = None,
    score: str | Sequence[str] | None = None,
    model: str | None = None,
    fold: str | None = None,
    weight: str | None = None,
    id: str | None = None,  # noqa: A002 - mirrors ReadOptions.id
) -> ColumnChoice:
    """Choose the columns that can be chosen from the header alone.

    Overrides win; other roles are found by their accepted names. When no score column is
    given or found by name, ``scores`` is empty and :func:`resolve_wide` decides from the
    column types (wide form).
    """
    chosen: dict[str, str | None] = {}
    how: dict[str, str] = {}
    owner: dict[str, str] = {}

    def claim(role: str, column: str) -> bool:
        """Record that ``column`` plays ``role``; False if it already plays that role."""
        if owner.get(column) == role:
            return False
        if column in owner:
            raise InputError(
                f"{filename}: column {quote(column)} cannot be both the {owner[column]} and "
                f"the {role} column. Choose a different column for one of them.",
                file=filename,
                column=column,
            )
        owner[column] = role
        return True

    overrides = {"label": label, "model": model, "fold": fold, "weight": weight, "id": id}
    score_list: tuple[str, ...]
    if score is None:
        score_list = ()
    elif isinstance(score, str):
        score_list = (score,)
    else:
        score_list = tuple(str(s) for s in score)

    for role, wanted in overrides.items():
        if wanted is not None and str(wanted).strip():
            column = _override(names, str(wanted), role, filename)
            claim(role, column)
            chosen[role] = column
            how[role] = "override"
    scores: list[str] = []
    for wanted in score_list:
        column = _override(names, wanted, "score", filename)
        if claim("score", column):
            scores.append(column)
    if scores:
        how["score"] = "override"

    taken = set(owner)
    for role in ("label", *OPTIONAL_ROLES):
        if role in chosen:
            continue
        column = _by_name(names, role, taken, filename)
        chosen[role] = column
        if column is not None:
            taken.add(column)
            owner[column] = role
            how[role] = "name"
    if chosen["label"] is None:
        raise not_found(filename, "label", names)
    if not scores:
        column = _by_name(names, "score", taken, filename)
        if column is not None:
            scores.append(column)
            how["score"] = "name"

    wide = len(scores) > 1
    if wide:
        check_model_count(len(scores), filename, found=f"{len(scores):,} score columns were "
                          "chosen, one model each")
    if wide and chosen["model"] is not None:
        raise InputError(
            f"{filename}: several score columns were chosen ({quote_list(scores)}), but the file "
            f"also has a model column ({quote(chosen['model'])}). Either choose one score "
            "column (the models are then read from the model column) or leave out the model "
            "column.",
            file=filename,
            column=chosen["model"],
        )
    if not scores and chosen["model"] is not None:
        raise not_found(filename, "score", names)
    return ColumnChoice(
        label=chosen["label"],  # type: ignore[arg-type]
        scores=tuple(scores),
        wide=wide,
        model=chosen["model"],
        fold=chosen["fold"],
        weight=chosen["weight"],
        id=chosen["id"],
        how=how,
    )


def _is_numeric(data_type: pa.DataType) -> bool:
    if pa.types.is_dictionary(data_type):
        data_type = data_type.value_type
    return (
        pa.types.is_integer(data_type)
        or pa.types.is_floating(data_type)
        or pa.types.is_decimal(data_type)
    )


def check_model_count(n_models: int, filename: str, *, found: str | None = None,
                      column: str | None = None, together: bool = False) -> None:
    """Raise :class:`InputError` when one file would create more than ``ROC_DASH_MAX_MODELS``
    models. ``found`` words the count (default ``'has N models'``); ``column`` names the model
    column when the models come from one; ``together``: files read as one dataset."""
    limit = limits().models
    if n_models <= limit:
        return
    if together:
        found = found or f"name {plural(n_models, 'model')} together"
        advice = "Upload fewer files at once, or the models to compare from each"
    elif column is not None:
        found = found or f"column {quote(column)} names {plural(n_models, 'model')}"
        advice = "Upload the models to compare (fewer distinct names in the model column)"
    else:
        found = found or f"has {plural(n_models, 'model')}"
        advice = (
            "Choose the score columns to compare (--score), remove the other numeric columns, "
            "or use long form: a 'score' column and a 'model' column"
        )
    error = limit_error(
        filename,
        f"{found}, more than the {plural(limit, 'model')} accepted per "
        f"{'dataset' if together else 'file'}",
        MAX_MODELS_VAR,
        advice,
    )
    error.column = column
    raise error


def resolve_wide(
    choice: ColumnChoice,
    schema: pa.Schema,
    filename: str,
    unnamed: frozenset[str] = frozenset(),
    *,
    num_rows: int | None = None,
) -> ColumnChoice:
    """Wide form: no score column by name and no model column, so every remaining numeric
    column is one model's scores (named after the column).

    Refuses more score columns than ``ROC_DASH_MAX_MODELS`` and, when ``num_rows`` is given,
    more predictions (rows x score columns) than ``ROC_DASH_MAX_ROWS``.
    """
    if choice.scores:
        _check_wide_rows(len(choice.scores) if choice.wide else 1, num_rows, filename)
        return choice
    used = choice.used()
    candidates = [
        f.name
        for f in schema
        if f.name not in used
        and f.name not in unnamed
        and not _PANDAS_UNNAMED.match(f.name)
        and _is_numeric(f.type)
    ]
    if not candidates:
        raise not_found(filename, "score", schema.names)
    check_model_count(
        len(candidates),
        filename,
        found=f"has {plural(len(candidates), 'numeric column')}, each of which would be one "
        "model's scores (wide form, as no column is named 'score')",
    )
    _check_wide_rows(len(candidates), num_rows, filename)
    how = dict(choice.how)
    how["score"] = "wide"
    return ColumnChoice(
        label=choice.label,
        scores=tuple(candidates),
        wide=True,
        model=None,
        fold=choice.fold,
        weight=choice.weight,
        id=choice.id,
        how=how,
    )


def _check_wide_rows(n_scores: int, num_rows: int | None, filename: str) -> None:
    """Wide form stacks every score column under the others: rows x columns predictions."""
    if num_rows is None or n_scores < 2:
        return
    total = n_scores * num_rows
    check_rows(
        total,
        filename,
        found=f"has {plural(num_rows, 'row')} x {plural(n_scores, 'score column')} = "
        f"{total:,} predictions (wide form, one model per column)",
    )


def describe_choice(choice: ColumnChoice, filename: str) -> list[str]:
    """Notes on a label or score column found under another accepted name ('y_true',
    'prob', …) and on wide form; empty when the columns are simply 'label' and 'score'."""
    parts = []
    if choice.how.get("label") == "name" and normalise(choice.label) != "label":
        parts.append(f"{quote(choice.label)} as the label")
    if (
        choice.how.get("score") == "name"
        and len(choice.scores) == 1
        and normalise(choice.scores[0]) != "score"
    ):
        parts.append(f"{quote(choice.scores[0])} as the score")
    notes = []
    if parts:
        notes.append(f"{filename}: using column {' and '.join(parts)}.")
    if choice.how.get("score") == "wide":
        models = quote_list(choice.scores, limit=10)
        if len(choice.scores) == 1:
            notes.append(
                f"{filename}: no score column found by name, so the numeric column {models} "
                "is read as the scores of a model of that name (wide form)."
            )
        else:
            notes.append(
                f"{filename}: no score column found by name, so each of the "
                f"{plural(len(choice.scores), 'numeric column')} is read as one model's "
                f"scores (wide form): {models}."
            )
    return notes
