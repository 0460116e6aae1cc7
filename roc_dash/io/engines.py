"""Predictions too big for memory: aggregate them in a query engine, then analyse the counts.

The exact ROC curve of a model needs only, per distinct score, the (weighted) number of
positives and negatives with that score: Fawcett 2004 §4, Algorithm 1, sorts the instances
and emits a point only when the score changes, i.e. it processes each run of equal scores as
one group. The same counts give the AUC (trapezoids between those points), the convex hull,
the optimal operating points, the fold averages (§6) and the DeLong interval of each AUC
(frequency weights reproduce the repeated-rows result exactly, see
:mod:`roc_dash.core.inference.statistics`). So one query

    SELECT model, fold, score, label, SUM(weight), COUNT(*) ... GROUP BY model, fold, score, label

run where the data lives (DuckDB embedded, streaming Parquet files, globs, directories and
CSV; or Spark on a cluster) shrinks any number of rows to at most
``models x folds x distinct scores x 2`` groups, and the analysis core runs unchanged on those
groups with the summed weights as frequency weights (the ``weight`` column) and the row counts
in a ``rows`` column. What needs individual rows is lost: which rows two models scored in
common, hence DeLong's *paired* test (the report says so).

Slices: the group column(s) of :mod:`roc_dash.io.groups` (``--group COL``, or a
column named ``group``) join the keys, ``GROUP BY model, fold, group, score, label``; their
distinct values are decoded, refused (numbers) and pooled (beyond 50 groups, by input rows)
by the in-memory rules, and each group's curve, DeLong interval and thresholds come from its
counts, as the in-memory report's do.

Columns are found with the same names and overrides as the in-memory reader
(:mod:`roc_dash.io.columns`); label, model and fold values are decoded with the same rules
(:mod:`roc_dash.io.labels`, :mod:`roc_dash.io.values`) applied to their distinct values, which
are few; models are named after files and every (model, fold) is checked for both classes by
:func:`roc_dash.io.canonical.assemble`, as for files read into memory. Missing and
non-finite scores, labels, folds, model names and weights are counted in the same query and
refused (or, for scores, dropped with ``drop_nonfinite``) with the in-memory reader's words,
less the row numbers a stream does not keep.

Size: the input is streamed, so ``ROC_DASH_MAX_ROWS`` and ``ROC_DASH_MAX_DECOMPRESSED_MB`` do
not apply to it; ``ROC_DASH_MAX_ROWS`` bounds the *aggregated* table (the groups the core
holds) instead.

The work is split by step: :mod:`roc_dash.io.engine_sources` (what a path, glob or
directory holds, and when a file is better streamed), :mod:`roc_dash.io.pinned_files` (each
file opened once, checked as opened, and read by DuckDB through that open file: no name it
could expand as a pattern, no link followed late), :mod:`roc_dash.io.engine_queries` (the
aggregating SQL and the DuckDB and Spark sessions that run it) and
:mod:`roc_dash.io.engine_groups` (the aggregated groups checked and decoded into a part of
the canonical table); :func:`aggregate_predictions` drives them.

DuckDB is imported when used; pyspark only for ``engine="spark"`` (``pip install
'roc-dash[spark]'``). Neither is imported by :mod:`roc_dash.core`.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterable

import pyarrow as pa

from .canonical import LoadResult, ReadOptions, _FilePart, assemble
from .columns import describe_choice, resolve_named, resolve_wide
from .engine_groups import _part
from .engine_queries import _aggregate_sql, _DuckDB, _number_sql, _Spark
from .engine_sources import Source, expand_source, opened_source
from .errors import InputError, plural, quote
from .groups import choose_group_columns, roles_taken
from .size_limits import MAX_ROWS_VAR, check_columns, limit_error, limits

#: Engines that aggregate (``"memory"`` is :func:`~roc_dash.io.load_predictions`).
ENGINES = ("duckdb", "spark")


def aggregate_predictions(
    sources: Iterable[str],
    *,
    options: ReadOptions | None = None,
    engine: str = "duckdb",
    existing_models: Iterable[str] = (),
    spark_session=None,
    progress: Callable[[float, str], None] | None = None,
    memory_mb: float | None = None,
) -> LoadResult:
    """Aggregate prediction files in a query engine into the canonical table of counts.

    ``sources`` are paths (or :class:`~roc_dash.io.engine_sources.Source` objects already
    expanded): files (Parquet, or CSV/TSV/semicolon text, optionally gzip), glob
    patterns (``'data/*.parquet'``, ``'runs/**/*.parquet'``) or directories (a partitioned
    dataset); each is one source, like one file of :func:`~roc_dash.io.load_predictions`.
    ``engine`` is ``"duckdb"`` (embedded, streaming) or ``"spark"`` (``spark_session``, or a
    local session; ``ROC_DASH_SPARK_MASTER`` sets the master).

    Returns the :class:`~roc_dash.io.canonical.LoadResult` the in-memory reader returns, one
    row per distinct (model, fold, score, label) with ``weight`` the summed weights (the count
    of rows without a weight column) and ``rows`` the count of input rows, sorted by model,
    fold, score, label; no ``id`` column. Its ``attrs`` hold ``engine``, ``input_rows`` and
    ``groups``; the first note says how many rows became how many groups.

    ``progress``, when given, is called from a watcher thread about four times a second with
    the fraction done (0 to 1, over all sources; within a source as far as the engine can
    tell) and the name of the source being read. ``memory_mb`` caps DuckDB's memory (it
    spills to a temporary folder beyond it; default: DuckDB's own, most of the RAM).
    """
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    options = options or ReadOptions()
    args = ([sources] if isinstance(sources, str)
            else [a if isinstance(a, Source) else str(a) for a in sources])
    if not args:
        raise InputError("No prediction files were given; choose at least one file.")
    started = time.perf_counter()
    # a Source is taken as it was expanded (and checked, see roc_dash.app.server.sources)
    expanded = [a if isinstance(a, Source) else expand_source(a) for a in args]
    owner: dict[str, str] = {}
    for source in expanded:
        for f in source.files:
            real = (os.path.realpath(f), source.table)
            if real in owner:
                first = owner[real]
                what = ("given twice" if first == source.name
                        else f"{f} is also part of {first}")
                raise InputError(
                    f"{source.name}: {what}, so the same predictions would be counted twice. "
                    "Give each file once.",
                    file=source.name,
                )
            owner[real] = source.name

    notes: list[str] = []
    parts: list[_FilePart] = []
    with contextlib.ExitStack() as held:
        if engine == "duckdb":  # DuckDB reads the files opened here, as they were checked
            expanded = [held.enter_context(opened_source(s)) for s in expanded]
        runner = _DuckDB(memory_mb) if engine == "duckdb" else _Spark(spark_session)
        held.callback(runner.close)  # before the files it reads are closed
        input_rows = _aggregate_all(runner, expanded, options, progress, parts, notes)
    groups = sum(p.table.num_rows for p in parts)
    limit = limits().rows
    if groups > limit:
        raise limit_error(
            ", ".join(s.name for s in expanded),
            f"aggregate to {groups:,} distinct (model, fold, score, label) groups, more than "
            f"the {plural(limit, 'row')} the analysis holds in memory",
            MAX_ROWS_VAR,
            "Round the scores (e.g. to 4 decimals) so that fewer distinct values remain, or "
            "analyse fewer models or folds at a time",
        )
    result = assemble(parts, notes, existing_models)
    seconds = time.perf_counter() - started
    files = sum(len(s.files) for s in expanded)
    keys = "model, fold, group, score, label" if result.group_columns else "model, fold, score, label"
    summary = (
        f"{runner.name} aggregated {plural(input_rows, 'row')} of {plural(files, 'file')} into "
        f"{groups:,} distinct ({keys}) groups in {seconds:.1f} s; the analysis runs on their "
        "counts."
    )
    table = result.table
    table.attrs.update(engine=runner.name, input_rows=input_rows, groups=groups)
    return LoadResult(table=table, notes=(summary, *result.notes), digests=(),
                      group_columns=result.group_columns)


def _aggregate_all(runner, expanded: list[Source], options: ReadOptions, progress,
                   parts: list[_FilePart], notes: list[str]) -> int:
    """Aggregate each source in turn into ``parts`` and ``notes``; the input rows read.
    ``progress`` (when given) hears from a watcher thread meanwhile."""
    input_rows = 0
    done = threading.Event()
    at = [0]  # the source being read
    watcher = None
    if progress is not None:
        def watch():
            while not done.wait(0.25):
                k = min(at[0], len(expanded) - 1)
                progress((k + runner.progress()) / len(expanded), expanded[k].name)

        watcher = threading.Thread(target=watch, name="roc-dash-progress", daemon=True)
        watcher.start()
    try:
        for k, source in enumerate(expanded):
            at[0] = k
            part, part_notes, rows = _aggregate_source(runner, source, options)
            parts.append(part)
            notes.extend(part_notes)
            input_rows += rows
    finally:
        done.set()
        if watcher is not None:
            watcher.join()
    return input_rows


def _aggregate_source(runner, source: Source, options: ReadOptions):
    d = runner.dialect
    schema = runner.schema(source)
    names = [n for n in schema.names if not n.startswith("__index_level_")]
    check_columns(len(names), source.name)
    choice = resolve_named(
        names, source.name, label=options.label, score=options.score, model=options.model,
        fold=options.fold, weight=options.weight, id=options.id,
    )
    groups = choose_group_columns(names, source.name, options.group_columns,
                                  roles_taken(choice))
    text_columns = ([choice.label, *choice.text_columns(), *groups[0]]
                    if source.kind == "csv" else [])
    if text_columns:
        schema = runner.schema(source, text_columns)
    choice = resolve_wide(choice, pa.schema([schema.field(n) for n in names]), source.name)
    notes = describe_choice(choice, source.name)
    if choice.id is not None:
        notes.append(
            f"{source.name}: column {quote(choice.id)} (ids) is not used: counts per (model, "
            "fold, score, label) do not keep rows, so no paired tests are computed."
        )
    decimal_comma = source.kind == "csv" and source.delimiter == ";"
    sql = _aggregate_sql(d, "{src}", choice, schema, decimal_comma, source.name, groups[0])
    raw = runner.query(source, lambda rel: sql.replace("{src}", rel), text_columns)

    def examples(column: str) -> list[str]:
        types = {f.name: f.type for f in schema}
        q = d.quote(column)
        value, bad = _number_sql(d, column, types[column], decimal_comma, source.name, "")
        if bad is None:
            bad = f"({value} < 0 OR {d.nonfinite(value)})"
        found = runner.query(
            source,
            lambda rel: f"SELECT DISTINCT CAST({q} AS VARCHAR) AS v FROM {rel} WHERE {bad} "
                        "LIMIT 5",
            text_columns,
        )
        return [str(v).strip() for v in found.column("v").to_pylist()]

    part, part_notes, rows = _part(source, choice, raw, options, examples, groups)
    return part, notes + part_notes, rows
