"""Windows of predictions after deployment, counted per distinct score by DuckDB.

Each argument is a file, a glob or a directory (as for the query engines,
:mod:`roc_dash.io.engine_sources`). Without a time column each argument is one window,
named after it; with ``time`` the rows of all arguments are cut into windows by that
column: each distinct value is a window, or with ``every`` (``day``, ``week``, ``month``,
``quarter``, ``year``) the column is read as dates and times and each period is one
(``2024-03-05``, ``2024-W10`` (ISO weeks), ``2024-03``, ``2024-Q1``, ``2024``).

One query per argument groups the rows by window, label and score (Fawcett 2004, section 4:
a run of equal scores is one group), so any number of rows becomes at most ``windows ×
distinct scores × 2`` groups (``ROC_DASH_MAX_ROWS`` bounds them); the monitor needs nothing
else (:class:`~roc_dash.core.monitoring.windows.WindowCounts`). The label column is
optional: a window is labelled when every row of it has a label, unlabelled when none has;
a window with some labels missing is monitored as unlabelled (a note says so). With a model
column only the decision's model is read.

Bad input is an :class:`~roc_dash.io.errors.InputError` naming the file, the column and what
to do: no score column, scores that are not numbers (or missing: dropped with
``drop_nonfinite``), rows without a time, a time that is not a date under ``every``, a model
column without the decision's model, labels of more than two values, a labelled window of
one class.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..core.monitoring.windows import WindowCounts, window_from_counts
from .canonical import model_name_from_filename
from .columns import ROLE_NAMES, chosen_column, normalise, not_found
from .engine_queries import _DuckDB, _number_sql
from .engine_sources import Source, expand_source
from .errors import (
    MAX_VALUES_SHOWN,
    InputError,
    LimitError,
    format_rows,
    plural,
    quote,
    quote_list,
)
from .labels import decode_labels, label_key
from .parsed import ColumnPlan
from .readers import parse_bytes
from .size_limits import MAX_ROWS_VAR, limit_error, limits

__all__ = ["EVERY", "MAX_WINDOWS", "WindowsRead", "read_windows"]

def _iso_week(t) -> str:
    year, week, _ = t.isocalendar()
    return f"{year}-W{week:02d}"


#: The periods of ``every``: what DuckDB truncates the times to (one key per row, cheap),
#: and how a period's start is named (once per window).
EVERY = {
    "day": ("day", lambda t: t.strftime("%Y-%m-%d")),
    "week": ("week", _iso_week),
    "month": ("month", lambda t: t.strftime("%Y-%m")),
    "quarter": ("quarter", lambda t: f"{t.year}-Q{(t.month - 1) // 3 + 1}"),
    "year": ("year", lambda t: t.strftime("%Y")),
}
#: Windows at most (a time column of many distinct values wants ``every``).
MAX_WINDOWS = 500


@dataclass(frozen=True)
class WindowsRead:
    """The windows read, in time order (or the order given), and what was noted.

    Attributes
    ----------
    windows : tuple of WindowCounts
    notes : tuple of str
    positive : str or None
        The label value read as positive (None when no window has labels).
    input_rows : int
    """

    windows: tuple[WindowCounts, ...]
    notes: tuple[str, ...]
    positive: str | None
    input_rows: int


@dataclass(frozen=True)
class _Columns:
    score: str
    label: str | None
    model: str | None
    weight: str | None
    time: str | None


def _find(names: Sequence[str], role: str, wanted: str | None, filename: str,
          taken: set[str]) -> str | None:
    """The column of ``role``: the one chosen, else the first of its accepted names."""
    if wanted is not None and str(wanted).strip():
        return chosen_column(names, str(wanted), role, filename)
    for alias in ROLE_NAMES[role]:
        hits = [n for n in names if normalise(n) == alias and n not in taken]
        if hits:
            return hits[0]
    return None


def _time_column(names: Sequence[str], wanted: str, filename: str) -> str:
    hits = [n for n in names if normalise(n) == normalise(wanted)]
    exact = [n for n in hits if n.strip() == wanted.strip()]
    if len(hits) == 1 or len(exact) == 1:
        return (exact or hits)[0]
    if hits:
        raise InputError(f"{filename}: several columns could be the time column: "
                         f"{quote_list(hits)}. Rename all but one.", file=filename)
    raise InputError(f"{filename}: there is no column {quote(wanted.strip())} (chosen as the "
                     f"time column with --time). Columns in this file: "
                     f"{quote_list(names, limit=30)}. Check its spelling.", file=filename,
                     column=wanted.strip())


def _columns(names: Sequence[str], filename: str, *, score, label, model, weight,
             time) -> _Columns:
    taken: set[str] = set()
    t = _time_column(names, str(time), filename) if time is not None else None
    if t is not None:
        taken.add(t)
    found = {}
    for role, wanted in (("score", score), ("label", label), ("model", model),
                         ("weight", weight)):
        found[role] = _find(names, role, wanted, filename, taken)
        if found[role] is not None:
            if found[role] in taken:
                raise InputError(f"{filename}: column {quote(found[role])} cannot be both the "
                                 f"{role} and another column; choose different columns.",
                                 file=filename, column=found[role])
            taken.add(found[role])
    if found["score"] is None:
        raise not_found(filename, "score", names)
    return _Columns(time=t, **found)


def _key_sql(d, cols: _Columns, types: dict, every: str | None, source: Source) -> tuple:
    """(window key expression, its sort expression, expression true where the time is not a
    date) of a source."""
    if cols.time is None:
        return "NULL", "NULL", "FALSE"
    q = d.quote(cols.time)
    t = types[cols.time]
    if every is None:
        return f"CAST({q} AS VARCHAR)", q, "FALSE"
    if pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_decimal(t):
        raise InputError(
            f"{source.name}: column {quote(cols.time)} holds numbers, not dates, so it cannot "
            f"be cut into {every}s. Give dates or times (e.g. 2024-03-05 or "
            "2024-03-05T14:30:00), or leave out --every to make each value a window.",
            file=source.name, column=cols.time)
    if pa.types.is_timestamp(t) or pa.types.is_date(t):
        ts = f"CAST({q} AS TIMESTAMP)"
        return f"date_trunc('{EVERY[every][0]}', {ts})", ts, "FALSE"
    ts = f"TRY_CAST(trim(CAST({q} AS VARCHAR)) AS TIMESTAMP)"
    return (f"date_trunc('{EVERY[every][0]}', {ts})", ts,
            f"({q} IS NOT NULL AND {ts} IS NULL)")


def _source_sql(d, cols: _Columns, types: dict, every, source: Source, model: str | None):
    key, sort, bad_time = _key_sql(d, cols, types, every, source)
    s, s_bad = _number_sql(d, cols.score, types[cols.score], False, source.name,
                           "Scores must be numbers")
    if cols.weight is not None:
        w, w_bad = _number_sql(d, cols.weight, types[cols.weight], False, source.name,
                               "Weights must be numbers (0 or more)")
        weight = f"SUM({w})"
        w_invalid = (f"SUM(CASE WHEN {w} IS NULL OR {w} < 0 OR {d.nonfinite(w)} "
                     f"{'OR ' + w_bad if w_bad else ''} THEN 1 ELSE 0 END)")
    else:
        weight, w_invalid = "CAST(COUNT(*) AS DOUBLE)", "0"
    label = d.quote(cols.label) if cols.label is not None else "NULL"
    where = (f"WHERE trim(CAST({d.quote(cols.model)} AS VARCHAR)) = "
             f"'{model.replace(chr(39), chr(39) * 2)}'" if cols.model and model else "")
    return (f"SELECT {key} AS w, {label} AS l, {s} AS s, "
            f"CAST({s_bad or 'FALSE'} AS BOOLEAN) AS s_bad, {bad_time} AS t_bad, "
            f"CAST(COUNT(*) AS BIGINT) AS n, {weight} AS ws, "
            f"CAST({w_invalid} AS BIGINT) AS w_bad, MIN({sort}) AS t0, MAX({sort}) AS t1 "
            f"FROM {{src}} {where} GROUP BY ALL")


def _models_found(runner, source: Source, cols: _Columns, text) -> list[str]:
    q = runner.dialect.quote(cols.model)
    found = runner.query(source, lambda rel: f"SELECT DISTINCT trim(CAST({q} AS VARCHAR)) "
                         f"AS m FROM {rel} LIMIT 21", text)
    return sorted(str(v) for v in found.column("m").to_pylist() if v is not None)


#: A text file up to this size is also read by the main reader (:func:`.readers.parse_bytes`):
#: its checks (the file is empty, not a text, gzip or Parquet file, ...) and its row numbers
#: (which rows hold a value that is not a number or not a date) are the main upload's.
LOCAL_CHECK_BYTES = 64 * 1024 * 1024


class _HeaderRead(Exception):
    """The main reader has read the header: enough to check the file."""


def _local_file(source: Source) -> str | None:
    """The source's one text file (plain or gzip) when small enough to read in memory."""
    if source.kind != "csv" or source.dataset or len(source.files) != 1:
        return None
    path = source.readable[0]
    try:
        return path if os.path.getsize(path) <= LOCAL_CHECK_BYTES else None
    except OSError:
        return None


def _check_readable(source: Source) -> None:
    """Refuse a text file the main upload refuses before its columns are looked at (empty,
    binary, UTF-16, not UTF-8, a broken header), in the main upload's words (fix13: DuckDB's
    own message, or "no score column" for an empty file, said less)."""
    path = _local_file(source)
    if path is None:
        return

    def stop(names):
        raise _HeaderRead

    try:
        parse_bytes(Path(path).read_bytes(), source.name, stop)
    except (_HeaderRead, LimitError, OSError):  # read so far; the in-memory reader's limits
        return  # (rows, columns) are not the windows' (their groups are counted, not rows)


def _parsed_rows(source: Source, cols: _Columns, column: str, model: str | None):
    """``(values, rows)``: the main reader's text values of ``column`` (trimmed) among the
    decision's model's rows and a mapper of their positions to the file's row numbers; None
    when the file is not read in memory."""
    path = _local_file(source)
    if path is None:
        return None
    by_model = cols.model if cols.model is not None and model is not None else None
    wanted = frozenset(c for c in (column, by_model) if c is not None)
    try:
        parsed = parse_bytes(Path(path).read_bytes(), source.name,
                             lambda names: ColumnPlan(text=wanted, include=wanted))
    except (InputError, OSError):
        return None
    values = pc.utf8_trim_whitespace(pc.cast(parsed.table.column(column), pa.string()))
    positions = np.arange(len(values))
    if by_model is not None:
        names = pc.utf8_trim_whitespace(pc.cast(parsed.table.column(by_model), pa.string()))
        keep = pc.fill_null(pc.equal(names, model), False).to_numpy(zero_copy_only=False)
        positions = np.flatnonzero(keep)
        values = values.combine_chunks().take(pa.array(positions))
    return values, lambda p: parsed.row_numbers(positions[np.asarray(p, dtype=np.int64)])


def _bad_scores(source: Source, cols: _Columns, model: str | None, count: int) -> InputError:
    """The scores that are not numbers, named with their rows and values as the main upload
    names them (:func:`.values.to_float`), else counted."""
    from .values import to_float

    found = _parsed_rows(source, cols, cols.score, model)
    if found is not None:
        try:
            to_float(found[0], found[1], source.name, cols.score, "Scores must be numbers")
        except InputError as exc:
            return exc
    return InputError(f"{source.name}: column {quote(cols.score)} has "
                      f"{plural(count, 'non-numeric value')}. Scores must be numbers; fix or "
                      "remove these rows.", file=source.name, column=cols.score, count=count)


def _check_rows(raw: pa.Table, source: Source, cols: _Columns, drop_nonfinite: bool,
                notes: list[str], model: str | None = None) -> pa.Table:
    """Refuse (or drop) what cannot be counted; the rows kept."""
    n = raw.column("n").to_numpy()

    def count(mask) -> int:
        return int(n[np.asarray(mask, dtype=bool)].sum())

    bad_text = count(raw.column("s_bad").to_numpy(zero_copy_only=False))
    s = raw.column("s").to_numpy(zero_copy_only=False).astype(np.float64)
    unusable = ~np.isfinite(s)
    if bad_text:
        raise _bad_scores(source, cols, model, bad_text)
    if unusable.any():
        k = count(unusable)
        if not drop_nonfinite:
            raise InputError(
                f"{source.name}: column {quote(cols.score)} has {plural(k, 'row')} with a "
                "missing, NaN or infinite score. Remove them, or give --drop-nonfinite to "
                "leave them out.", file=source.name, column=cols.score, count=k)
        notes.append(f"{source.name}: {plural(k, 'row')} with a missing, NaN or infinite "
                     "score left out (--drop-nonfinite).")
        raw = raw.filter(pa.array(~unusable))
    w_bad = int(pc.sum(raw.column("w_bad")).as_py() or 0)
    if w_bad:
        raise InputError(f"{source.name}: column {quote(cols.weight)} has "
                         f"{plural(w_bad, 'row')} with a missing, negative or non-numeric "
                         "weight. Weights must be numbers of 0 or more.",
                         file=source.name, column=cols.weight, count=w_bad)
    return raw


def _bad_times(runner, source: Source, cols: _Columns, types, every, model, text,
               count: int) -> InputError:
    """The times that are not dates, named with their values (and rows, as the main upload
    names a column's bad values: :func:`_parsed_rows`)."""
    d = runner.dialect
    _, _, bad_time = _key_sql(d, cols, types, every, source)
    where = (f" AND trim(CAST({d.quote(cols.model)} AS VARCHAR)) = "
             f"'{model.replace(chr(39), chr(39) * 2)}'" if cols.model and model else "")
    q = d.quote(cols.time)
    found = runner.query(source, lambda rel: f"SELECT DISTINCT trim(CAST({q} AS VARCHAR)) AS v "
                         f"FROM {rel} WHERE {bad_time}{where} LIMIT 1000", text)
    values = sorted(str(v) for v in found.column("v").to_pylist() if v is not None)
    where_rows = ""
    parsed = _parsed_rows(source, cols, cols.time, model)
    if parsed is not None and values:
        mask = pc.fill_null(pc.is_in(parsed[0], value_set=pa.array(values)), False)
        positions = np.flatnonzero(mask.to_numpy(zero_copy_only=False))
        if positions.size:
            where_rows = f" ({format_rows(parsed[1](positions[:5]), count)})"
    one = count == 1
    return InputError(
        f"{source.name}: column {quote(cols.time)} has {plural(count, 'value')} that "
        f"{'is' if one else 'are'} not a date or time{where_rows}: "
        f"{quote_list(values, MAX_VALUES_SHOWN)}, so {'it' if one else 'they'} cannot be put "
        f"in a {every}. Write times as 2024-03-05 or 2024-03-05 14:30:00.",
        file=source.name, column=cols.time, count=count)


def _check_times(raw: pa.Table, source: Source, cols: _Columns, every,
                 bad_times=None) -> None:
    if cols.time is None:
        return
    n = raw.column("n").to_numpy()
    bad = int(n[raw.column("t_bad").to_numpy(zero_copy_only=False).astype(bool)].sum())
    if bad:
        if bad_times is not None:
            raise bad_times(bad)
        raise InputError(
            f"{source.name}: column {quote(cols.time)} has {plural(bad, 'value')} that "
            f"{'is' if bad == 1 else 'are'} not a date or time, so {'it' if bad == 1 else 'they'}"
            f" cannot be put in a {every}. Write times as 2024-03-05 or 2024-03-05 14:30:00.",
            file=source.name, column=cols.time, count=bad)
    missing = int(n[raw.column("w").is_null().to_numpy(zero_copy_only=False)].sum())
    if missing:
        raise InputError(
            f"{source.name}: column {quote(cols.time)} has {plural(missing, 'empty cell')}: "
            "every row needs its time to be put in a window. Fill them in or remove these "
            "rows.", file=source.name, column=cols.time, count=missing)


def _read_source(runner, arg: str, options: dict, model: str | None, every,
                 drop_nonfinite: bool, notes: list[str]) -> tuple[pa.Table, _Columns, Source]:
    source = arg if isinstance(arg, Source) else expand_source(arg)
    d = runner.dialect
    _check_readable(source)
    schema = runner.schema(source)
    names = [n for n in schema.names if not n.startswith("__index_level_")]
    cols = _columns(names, source.name, **options)
    text = ([c for c in (cols.label, cols.model, cols.time) if c is not None]
            if source.kind == "csv" else [])
    if text:
        schema = runner.schema(source, text)
    types = {f.name: f.type for f in schema}
    sql = _source_sql(d, cols, types, every, source, model)
    raw = runner.query(source, lambda rel: sql.replace("{src}", rel), text)
    if cols.model is not None and model is not None and raw.num_rows == 0:
        found = _models_found(runner, source, cols, text)
        shown = quote_list(found[:20]) + (", …" if len(found) > 20 else "")
        raise InputError(
            f"{source.name}: no rows of model {quote(model)} (the decision's model) in column "
            f"{quote(cols.model)}; its models: {shown}. Give the predictions of the model the "
            "decision was taken on, or the decision record of one of these models.",
            file=source.name, column=cols.model)
    if raw.num_rows == 0:
        raise InputError(f"{source.name}: has no rows of predictions.", file=source.name)
    _check_times(raw, source, cols, every, lambda count: _bad_times(
        runner, source, cols, types, every, model, text, count))
    return _check_rows(raw, source, cols, drop_nonfinite, notes, model), cols, source


def _decode(raws: list[tuple[pa.Table, _Columns, Source]], positive) -> tuple:
    """Each source's labels per group as ``(known, positive)`` boolean arrays (None for a
    source without a label column), and the positive value as shown."""
    shown_positive = None
    out = []
    for raw, cols, source in raws:
        if cols.label is None:
            out.append(None)
            continue
        column = raw.column("l")
        present = pc.invert(pc.is_null(column)).to_numpy(zero_copy_only=False)
        if pa.types.is_string(column.type) or pa.types.is_large_string(column.type):
            present &= pc.not_equal(pc.utf8_trim_whitespace(pc.fill_null(column, "")),
                                    "").to_numpy(zero_copy_only=False)
        y = np.zeros(raw.num_rows, dtype=bool)
        if present.any():
            kept = column.filter(pa.array(present))
            distinct = pc.unique(kept).to_pylist()
            if positive is not None and len(distinct) == 1:  # one class: which one?
                y[present] = label_key(distinct[0]) == label_key(positive)
            else:
                labels = decode_labels(kept, lambda k: np.asarray(k) + 1, source.name,
                                       cols.label, positive)
                y[present] = labels.values
                shown_positive = shown_positive or labels.positive
        out.append((present, y))
    return out, shown_positive


def _keys(raw: pa.Table, cols: _Columns, source: Source, every) -> tuple[list, np.ndarray]:
    """The source's window names and each group's index among them (names made once per
    window, not per group)."""
    if cols.time is None:
        return [model_name_from_filename(source.model_name_base)], np.zeros(raw.num_rows,
                                                                            dtype=np.intp)
    encoded = pc.dictionary_encode(raw.column("w")).combine_chunks()
    values = encoded.dictionary.to_pylist()
    if every is not None:  # a period's start -> its name
        values = [EVERY[every][1](v) for v in values]
    codes = encoded.indices.to_numpy(zero_copy_only=False).astype(np.intp)
    return [str(v) for v in values], codes


def _windows(raws, labels, every, notes: list[str]) -> list[WindowCounts]:
    """The windows: groups of every source gathered by window (by source without a time
    column), each made of its distinct scores."""
    parts: dict[str, list] = {}
    for (raw, cols, source), lab in zip(raws, labels, strict=True):
        names, codes = _keys(raw, cols, source, every)
        order = np.argsort(codes, kind="stable")
        bounds = np.searchsorted(codes[order], np.arange(len(names) + 1))
        for j, name in enumerate(names):
            rows = order[bounds[j]:bounds[j + 1]]
            if rows.size:
                parts.setdefault(name, []).append(
                    (raw.take(pa.array(rows)), None if lab is None else
                     (lab[0][rows], lab[1][rows])))
    if len(parts) > MAX_WINDOWS:
        raise InputError(f"the time column makes {len(parts):,} windows, more than "
                         f"{MAX_WINDOWS}; cut it into periods with --every (day, week, "
                         "month, quarter or year)")
    out = [_window(name, group, notes) for name, group in parts.items()]
    if all(cols.time is not None for _, cols, _ in raws):
        try:  # in time order: by each window's first time
            out.sort(key=lambda x: x[1])
        except TypeError:  # times of different kinds in different files: by name
            out.sort(key=lambda x: x[0].name)
    return [w for w, _ in out]


def _column(parts, name: str) -> np.ndarray:
    return np.concatenate([p.column(name).to_numpy(zero_copy_only=False) for p, _ in parts])


def _times(parts, name: str, pick):
    found = [v for v in (pc.min_max(p.column(name)).as_py()[pick] for p, _ in parts)
             if v is not None]
    return (min(found) if pick == "min" else max(found)) if found else None


def _window(name: str, parts, notes: list[str]) -> tuple[WindowCounts, object]:
    s = _column(parts, "s").astype(np.float64)
    ws = _column(parts, "ws").astype(np.float64)
    n = _column(parts, "n").astype(np.int64)
    rows = int(n.sum())
    known = np.concatenate([np.zeros(p.num_rows, bool) if lab is None else lab[0]
                            for p, lab in parts])
    first, last = _times(parts, "t0", "min"), _times(parts, "t1", "max")
    distinct, at = np.unique(s, return_inverse=True)
    totals = np.bincount(at, weights=ws, minlength=distinct.size)
    positives = None
    if known.all():
        y = np.concatenate([lab[1] for _, lab in parts])
        positives = np.bincount(at, weights=ws * y, minlength=distinct.size)
    elif known.any():
        notes.append(f"window {name!r}: {plural(int(n[~known].sum()), 'row')} of {rows:,} "
                     "have no label, so it is monitored as unlabelled. Give all its labels, "
                     "or none.")
    try:
        window = window_from_counts(name, distinct, totals, positives, rows=rows,
                                    start="" if first is None else str(first),
                                    end="" if last is None else str(last))
    except ValueError as exc:
        raise InputError(str(exc)) from None
    return window, (0 if first is None else first, name)


def read_windows(sources: Iterable[str], *, time: str | None = None, every: str | None = None,
                 model: str | None = None, score: str | None = None, label: str | None = None,
                 model_column: str | None = None, weight: str | None = None,
                 positive: str | None = None, drop_nonfinite: bool = False,
                 memory_mb: float | None = None) -> WindowsRead:
    """Read windows of predictions (module docstring).

    Parameters
    ----------
    sources : iterable of str
        Files, globs or directories (Parquet, CSV/TSV, gzip).
    time : str, optional
        The time (or window) column; without it each source is one window.
    every : {"day", "week", "month", "quarter", "year"}, optional
        Cut the time column into periods.
    model : str, optional
        The decision's model: with a model column, only its rows are read.
    score, label, model_column, weight : str, optional
        Column names (default: found by their common names, as elsewhere).
    positive : str, optional
        The label value of the positive class.
    """
    if every is not None and every not in EVERY:
        raise InputError(f"--every must be one of {', '.join(EVERY)}, got {every!r}")
    if every is not None and time is None:
        raise InputError("--every cuts the time column into periods: give the column with "
                         "--time")
    args = [sources] if isinstance(sources, str) else list(sources)
    if not args:
        raise InputError("No window files were given; give at least one.")
    options = {"score": score, "label": label, "model": model_column, "weight": weight,
               "time": time}
    notes: list[str] = []
    runner = _DuckDB(memory_mb)
    try:
        raws = [_read_source(runner, a, options, model, every, drop_nonfinite, notes)
                for a in args]
    finally:
        runner.close()
    groups = sum(r.num_rows for r, _, _ in raws)
    if groups > limits().rows:
        raise limit_error(", ".join(str(a) for a in args),
                          f"count to {groups:,} distinct (window, label, score) groups, more "
                          "than the analysis holds in memory", MAX_ROWS_VAR,
                          "Round the scores (e.g. to 4 decimals) so that fewer distinct "
                          "values remain, or monitor fewer windows at a time")
    labels, shown = _decode(raws, positive)
    windows = _windows(raws, labels, every, notes)
    rows = sum(w.rows for w in windows)
    return WindowsRead(windows=tuple(windows), notes=tuple(notes), positive=shown,
                       input_rows=rows)
