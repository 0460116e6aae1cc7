"""The aggregating query and the engines that run it: DuckDB (embedded) and Spark.

One query per source groups the rows by model, fold, score and label, summing the weights
and counting the rows and the missing or non-finite values (Fawcett 2004 §4, Algorithm 1: a
run of equal scores is one group). The SQL differs only in a few spellings between the two
engines (:class:`_Dialect`). DuckDB and pyspark are imported when used. See
:mod:`roc_dash.io.engines`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import pyarrow as pa

from .engine_sources import Source
from .errors import InputError, quote
from .text_reading import NULL_VALUES

# --------------------------------------------------------------------------- dialects


@dataclass(frozen=True)
class _Dialect:
    """The few spellings in which DuckDB and Spark SQL differ."""

    quote: Callable[[str], str]
    nonfinite: Callable[[str], str]  # NaN or +-inf (NULL stays NULL)
    nan: Callable[[str], str]
    try_double: Callable[[str], str]


_DUCKDB = _Dialect(
    quote=lambda c: '"' + c.replace('"', '""') + '"',
    nonfinite=lambda e: f"(NOT isfinite({e}))",
    nan=lambda e: f"isnan({e})",
    try_double=lambda e: f"TRY_CAST({e} AS DOUBLE)",
)
_SPARK = _Dialect(
    quote=lambda c: "`" + c.replace("`", "``") + "`",
    nonfinite=lambda e: f"(isnan({e}) OR abs({e}) = double('Infinity'))",
    nan=lambda e: f"isnan({e})",
    try_double=lambda e: f"try_cast({e} AS DOUBLE)",
)


def _numeric(t: pa.DataType) -> bool:
    if pa.types.is_dictionary(t):
        t = t.value_type
    return (pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_decimal(t)
            or pa.types.is_boolean(t))


def _textual(t: pa.DataType) -> bool:
    if pa.types.is_dictionary(t):
        t = t.value_type
    return (pa.types.is_string(t) or pa.types.is_large_string(t)
            or pa.types.is_string_view(t))


def _number_sql(d: _Dialect, column: str, t: pa.DataType, decimal_comma: bool,
                filename: str, requirement: str) -> tuple[str, str | None]:
    """(double expression, expression true where a non-null value is not a number)."""
    q = d.quote(column)
    if _numeric(t) or pa.types.is_null(t):
        return f"CAST({q} AS DOUBLE)", None
    if _textual(t):
        text = f"trim({q})"
        if decimal_comma:
            text = f"replace({text}, ',', '.')"
        value = d.try_double(f"NULLIF({text}, '')")
        return value, f"({q} IS NOT NULL AND trim({q}) <> '' AND {value} IS NULL)"
    raise InputError(
        f"{filename}: column {quote(column)} holds {t} values, not numbers. {requirement}; "
        "choose another column or convert this one.",
        file=filename,
        column=column,
    )


def _aggregate_sql(d: _Dialect, relation: str, choice, schema: pa.Schema,
                   decimal_comma: bool, filename: str, groups: tuple[str, ...] = ()) -> str:
    """The one aggregation query of a source: per score column ``k`` (wide form: one model per
    column), rows grouped by raw model, fold, group columns (``g0``, ``g1``: their raw values,
    decoded afterwards as in memory), score and label, with the row count, the summed weight
    and counts of unusable scores and weights."""
    types = {f.name: f.type for f in schema}
    if choice.weight is not None:
        w, w_bad = _number_sql(d, choice.weight, types[choice.weight], decimal_comma, filename,
                               "Weights must be numbers (0 or more)")
        w_missing = f"({w} IS NULL OR {d.nan(w)})"
        w_invalid = f"({w} < 0 OR {d.nonfinite(w)})"
        weight_sql = (f"SUM(CASE WHEN {w_missing} OR {w_invalid} THEN 0 ELSE {w} END) AS w, "
                      f"CAST(SUM(CASE WHEN {w_missing} THEN 1 ELSE 0 END) AS BIGINT) AS w_missing, "
                      f"CAST(SUM(CASE WHEN {w_invalid} AND NOT {w_missing} THEN 1 ELSE 0 END) "
                      "AS BIGINT) AS w_invalid, "
                      f"CAST(SUM(CASE WHEN {w_bad or 'FALSE'} THEN 1 ELSE 0 END) AS BIGINT) "
                      "AS w_bad")
    else:
        weight_sql = ("CAST(COUNT(*) AS DOUBLE) AS w, CAST(0 AS BIGINT) AS w_missing, "
                      "CAST(0 AS BIGINT) AS w_invalid, CAST(0 AS BIGINT) AS w_bad")
    model = d.quote(choice.model) if choice.model else "NULL"
    fold = d.quote(choice.fold) if choice.fold else "NULL"
    label = d.quote(choice.label)
    selects = []
    for k, column in enumerate(choice.scores):
        s, s_bad = _number_sql(d, column, types[column], decimal_comma, filename,
                               "Scores must be numbers")
        m = model if not choice.wide else "NULL"
        group_keys = [d.quote(c) for c in groups]
        keys = ", ".join(e for e in (m, fold, *group_keys, label, s) if e != "NULL")
        group_sql = "".join(f"{q} AS g{i}, " for i, q in enumerate(group_keys))
        # 64-bit integer scores: the smallest and largest integer behind each double, which
        # differ when float64 rounded different integers (beyond 2**53) to one score
        t = types[column]
        t = t.value_type if pa.types.is_dictionary(t) else t
        if pa.types.is_integer(t) and t.bit_width > 32:
            q = d.quote(column)
            span = f"CAST(MIN({q}) AS DECIMAL(20,0)) AS s_lo, CAST(MAX({q}) AS DECIMAL(20,0)) AS s_hi"
        else:
            span = "CAST(NULL AS DECIMAL(20,0)) AS s_lo, CAST(NULL AS DECIMAL(20,0)) AS s_hi"
        selects.append(
            f"SELECT {k} AS k, {m} AS m, {fold} AS f, {group_sql}{label} AS l, {s} AS s, "
            f"CAST(COUNT(*) AS BIGINT) AS n, {weight_sql}, "
            f"CAST(SUM(CASE WHEN {s_bad or 'FALSE'} THEN 1 ELSE 0 END) AS BIGINT) AS s_bad, "
            f"{span} FROM {relation} GROUP BY {keys}"
        )
    return " UNION ALL ".join(selects)


# --------------------------------------------------------------------------- engines


class _DuckDB:
    name = "DuckDB"
    dialect = _DUCKDB

    def __init__(self, memory_mb: float | None = None) -> None:
        try:
            import duckdb
        except ImportError:  # pragma: no cover - duckdb is a dependency
            raise InputError(
                "the DuckDB engine needs the duckdb package: pip install duckdb"
            ) from None
        self.duckdb = duckdb
        self._memory_mb = memory_mb
        self.con = self._connect(None)
        self._databases: dict[str, object] = {}
        self._current = self.con  # the connection running the current query

    def _connect(self, database: str | None, shown: str | None = None):
        """A session: in memory (files are read with read_parquet/read_csv), or a DuckDB
        database file opened read-only with external access switched off, so that a view
        in it cannot read files elsewhere (``read_csv('/etc/passwd')``). ``shown``: the
        database's name in messages (``database`` may be the name of its opened file)."""
        try:
            con = (self.duckdb.connect() if database is None
                   else self.duckdb.connect(database, read_only=True))
        except self.duckdb.Error as exc:
            shown = shown or database
            raise InputError(
                f"{shown}: cannot be opened as a DuckDB database "
                f"({_first_line(exc).replace(str(database), str(shown))}). "
                "Check that no other process is writing it.",
                file=shown,
            ) from None
        # query_progress() (read by a watcher while a long aggregation runs) needs it on
        con.execute("SET enable_progress_bar = true; SET enable_progress_bar_print = false")
        if self._memory_mb is not None:  # a server's worker: bounded, spilling to a temp folder
            import tempfile

            spill = os.path.join(tempfile.gettempdir(), f"roc-dash-duckdb-{os.getpid()}")
            con.execute(f"SET memory_limit = '{int(self._memory_mb)}MB'; "
                        "SET preserve_insertion_order = false; "
                        f"SET temp_directory = '{spill.replace(chr(39), chr(39) * 2)}'")
        if database is not None:
            con.execute("SET enable_external_access = false; SET lock_configuration = true")
        return con

    def _con(self, source: Source):
        if source.kind != "duckdb":
            return self.con
        path = source.readable[0]  # the opened file (roc_dash.io.pinned_files)
        if path not in self._databases:
            self._databases[path] = self._connect(path, source.files[0])
        return self._databases[path]

    def progress(self) -> float:
        """How far the running query is, 0 to 1 (0 when DuckDB cannot tell)."""
        try:
            done = self._current.query_progress()
        except self.duckdb.Error:  # pragma: no cover - no query running
            return 0.0
        return min(max(float(done) / 100.0, 0.0), 1.0)

    def _relation(self, source: Source, text_columns: Iterable[str] = ()) -> str:
        if source.kind == "duckdb":  # on its own connection (:meth:`_con`)
            return f"main.{self.dialect.quote(source.table)}"
        files = "[" + ", ".join("'" + f.replace("'", "''") + "'" for f in source.readable) + "]"
        if source.kind == "parquet":
            return f"read_parquet({files})"
        nulls = "[" + ", ".join("'" + v.replace("'", "''") + "'" for v in NULL_VALUES) + "]"
        types = ", ".join(f"'{c.replace(chr(39), chr(39) * 2)}': 'VARCHAR'"
                          for c in text_columns)
        sep = source.delimiter.replace("'", "''")
        options = [
            "header = true", f"delim = '{sep}'", f"nullstr = {nulls}",
            f"compression = '{'gzip' if source.gzip else 'none'}'",
            "union_by_name = false",
        ]
        if source.delimiter == ";":
            options.append("decimal_separator = ','")
        if types:
            options.append(f"types = {{{types}}}")
        return f"read_csv({files}, {', '.join(options)})"

    def _run(self, source: Source, sql: str) -> pa.Table:
        self._current = con = self._con(source)
        try:
            return con.sql(sql).to_arrow_table()
        except self.duckdb.Error as exc:
            raise InputError(
                f"{source.name}: cannot be read by DuckDB ({source.named(_first_line(exc))}). "
                "Check that every file is a readable Parquet or CSV file and that all of them "
                "have the same columns.",
                file=source.name,
            ) from None

    def schema(self, source: Source, text_columns: Iterable[str] = ()) -> pa.Schema:
        return self._run(
            source, f"SELECT * FROM {self._relation(source, text_columns)} LIMIT 0"
        ).schema

    def query(self, source: Source, sql_of: Callable[[str], str],
              text_columns: Iterable[str]) -> pa.Table:
        return self._run(source, sql_of(self._relation(source, text_columns)))

    def close(self) -> None:
        for con in (self.con, *self._databases.values()):
            con.close()


class _Spark:
    name = "Spark"
    dialect = _SPARK

    def __init__(self, session=None) -> None:
        if session is None:
            try:
                from pyspark.sql import SparkSession
            except ImportError:
                raise InputError(
                    "the Spark engine needs pyspark (and Java): pip install 'roc-dash[spark]'"
                ) from None
            session = (SparkSession.builder.master(os.environ.get("ROC_DASH_SPARK_MASTER",
                                                                  "local[*]"))
                       .appName("roc-dash")
                       .config("spark.ui.showConsoleProgress", "false")
                       .config("spark.ui.enabled", "false")
                       .getOrCreate())
            session.sparkContext.setLogLevel("ERROR")
        self.spark = session
        self._views: dict[tuple, str] = {}

    def progress(self) -> float:
        """Spark's progress is not read here: 0."""
        return 0.0

    def _view(self, source: Source, text_columns: Iterable[str] = ()) -> str:
        if source.kind == "duckdb":
            raise InputError(
                f"{source.name}: is a table of a DuckDB database; read it with the DuckDB "
                "engine (--engine duckdb).",
                file=source.name,
            )
        key = (source.files, tuple(sorted(text_columns)))
        if key not in self._views:
            if source.kind == "parquet":
                frame = self.spark.read.parquet(*source.files)
            else:
                frame = self.spark.read.csv(list(source.files), header=True,
                                            sep=source.delimiter, inferSchema=True)
                for c in text_columns:
                    frame = frame.withColumn(c, frame[c].cast("string"))
            name = f"roc_dash_src_{len(self._views)}"
            frame.createOrReplaceTempView(name)
            self._views[key] = name
        return self._views[key]

    def _run(self, source: Source, run: Callable[[], object]) -> pa.Table:
        try:
            frame = run()
            if hasattr(frame, "toArrow"):
                return frame.toArrow()
            return pa.Table.from_pandas(frame.toPandas(), preserve_index=False)
        except InputError:
            raise
        except Exception as exc:  # noqa: BLE001 - py4j and Spark raise many kinds
            raise InputError(
                f"{source.name}: cannot be read by Spark ({_first_line(exc)}). Check that every "
                "file is a readable Parquet or CSV file with the same columns.",
                file=source.name,
            ) from None

    def schema(self, source: Source, text_columns: Iterable[str] = ()) -> pa.Schema:
        table = self._run(
            source,
            lambda: self.spark.sql(f"SELECT * FROM {self._view(source, text_columns)} LIMIT 0"),
        )
        return table.schema

    def query(self, source: Source, sql_of: Callable[[str], str],
              text_columns: Iterable[str]) -> pa.Table:
        return self._run(source, lambda: self.spark.sql(sql_of(self._view(source,
                                                                          text_columns))))

    def close(self) -> None:
        for name in self._views.values():
            self.spark.catalog.dropTempView(name)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    line = text[0] if text else type(exc).__name__
    return line if len(line) <= 300 else line[:297] + "..."
