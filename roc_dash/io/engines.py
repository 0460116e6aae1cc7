"""Predictions too big for memory: aggregate them in a query engine, then analyse the counts.

The exact ROC curve of a model needs only, per distinct score, the (weighted) number of
positives and negatives with that score: Fawcett 2004 §4, Algorithm 1, sorts the instances
and emits a point only when the score changes, i.e. it processes each run of equal scores as
one group. The same counts give the AUC (trapezoids between those points), the convex hull,
the optimal operating points, the fold averages (§6) and the DeLong interval of each AUC
(frequency weights reproduce the repeated-rows result exactly, see
:mod:`roc_dash.core.statistics`). So one query

    SELECT model, fold, score, label, SUM(weight), COUNT(*) ... GROUP BY model, fold, score, label

run where the data lives (DuckDB embedded, streaming Parquet files, globs, directories and
CSV; or Spark on a cluster) shrinks any number of rows to at most
``models x folds x distinct scores x 2`` groups, and the analysis core runs unchanged on those
groups with the summed weights as frequency weights (the ``weight`` column) and the row counts
in a ``rows`` column. What needs individual rows is lost: which rows two models scored in
common, hence DeLong's *paired* test (the report says so).

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

DuckDB is imported when used; pyspark only for ``engine="spark"`` (``pip install
'roc-dash[spark]'``). Neither is imported by :mod:`roc_dash.core`.
"""

from __future__ import annotations

import glob
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .canonical import DEFAULT_FOLD, LoadResult, ReadOptions, _FilePart, assemble
from .columns import describe_choice, resolve_named, resolve_wide
from .decoding import GZIP_MAGIC
from .errors import InputError, plural, quote, quote_list
from .labels import decode_labels
from .readers import PARQUET_MAGIC
from .size_limits import MAX_ROWS_VAR, check_columns, limit_error, limits
from .text_reading import NULL_VALUES, detect_delimiter
from .values import check_name_lengths, is_text, plain, to_text, trimmed_text

#: Engines that aggregate (``"memory"`` is :func:`~roc_dash.io.load_predictions`).
ENGINES = ("duckdb", "spark")

_GLOB_CHARS = frozenset("*?[")
#: Files inside a dataset directory that are not data (Spark/Hadoop markers, checksums).
_SKIPPED_PREFIXES = (".", "_")
_SKIPPED_SUFFIXES = (".crc",)


# --------------------------------------------------------------------------- sources


@dataclass(frozen=True)
class Source:
    """One command-line argument: a file, or the files of a glob or a directory (one dataset)."""

    name: str  # as given
    files: tuple[str, ...]
    kind: str  # "parquet" or "csv"
    delimiter: str = ","
    gzip: bool = False
    dataset: bool = False  # a glob or a directory: its parts together are one source

    @property
    def model_name_base(self) -> str:
        """What a model is named after when the source has no model column: the file, or the
        directory (of a glob, the directory the pattern is in)."""
        if not self.dataset or os.path.isdir(self.name):
            return self.name
        head = self.name
        while head and _GLOB_CHARS & set(os.path.basename(head)):
            head = os.path.dirname(head)
        return head or self.name


def is_pattern(arg: str) -> bool:
    """A glob pattern that is not itself an existing path."""
    return bool(_GLOB_CHARS & set(str(arg))) and not os.path.exists(arg)


def _magic(path: str) -> bytes:
    try:
        with open(path, "rb") as fh:
            return fh.read(4)
    except FileNotFoundError:
        raise InputError(f"{path}: file not found. Check the path.", file=path) from None
    except OSError as exc:
        raise InputError(
            f"{path}: cannot be opened ({exc.strerror or type(exc).__name__}). Check the path "
            "and its permissions.",
            file=path,
        ) from None


def _kind(path: str) -> tuple[str, bool]:
    head = _magic(path)
    if head[:4] == PARQUET_MAGIC:
        return "parquet", False
    return "csv", head[:2] == GZIP_MAGIC


def _header_delimiter(path: str, gz: bool) -> str:
    import gzip

    opener = gzip.open if gz else open
    try:
        with opener(path, "rb") as fh:
            line = fh.readline(1 << 20)
    except (OSError, EOFError):
        raise InputError(
            f"{path}: cannot be read as text or gzip. Check the file.", file=path
        ) from None
    return detect_delimiter(line.decode("utf-8", "replace").lstrip("\ufeff"))


def expand_source(arg: str) -> Source:
    """Files of one argument: a file, a directory (every data file below it, recursively,
    without hidden files, ``_SUCCESS`` markers and ``.crc`` checksums) or a glob pattern
    (``**`` matches directories recursively). All files of one source must be of one kind."""
    arg = str(arg)
    if os.path.isdir(arg):
        files = sorted(
            os.path.join(root, f)
            for root, dirs, names in os.walk(arg)
            for f in names
            if not f.startswith(_SKIPPED_PREFIXES) and not f.endswith(_SKIPPED_SUFFIXES)
            and not any(part.startswith(_SKIPPED_PREFIXES)
                        for part in os.path.relpath(root, arg).split(os.sep) if part != ".")
        )
        if not files:
            raise InputError(
                f"{arg}: is a directory without data files. Give a directory of Parquet or "
                "CSV files (e.g. a partitioned dataset), or the files themselves.",
                file=arg,
            )
        dataset = True
    elif is_pattern(arg):
        files = sorted(f for f in glob.glob(arg, recursive=True) if os.path.isfile(f))
        if not files:
            raise InputError(
                f"{arg}: no files match this pattern. Check the pattern (quote it, e.g. "
                "'data/*.parquet', so that the shell does not expand it).",
                file=arg,
            )
        dataset = True
    else:
        files = [arg]
        dataset = False
        if not os.path.exists(arg):
            raise InputError(f"{arg}: file not found. Check the path.", file=arg)
    kinds = {f: _kind(f) for f in files}
    distinct = {k for k, _ in kinds.values()}
    if len(distinct) > 1:
        parquet = [f for f, (k, _) in kinds.items() if k == "parquet"][:1]
        text = [f for f, (k, _) in kinds.items() if k == "csv"][:1]
        raise InputError(
            f"{arg}: mixes Parquet files ({parquet[0]}) and other files ({text[0]}). A "
            "dataset must be all Parquet or all CSV; give the kinds separately.",
            file=arg,
        )
    kind = distinct.pop()
    gz = kind == "csv" and any(g for _, g in kinds.values())
    if kind == "csv" and len({g for _, g in kinds.values()}) > 1:
        raise InputError(
            f"{arg}: mixes gzip-compressed and plain text files. Compress all or none.",
            file=arg,
        )
    delimiter = _header_delimiter(files[0], gz) if kind == "csv" else ","
    return Source(arg, tuple(files), kind, delimiter, gz, dataset)


def should_stream(args: Sequence[str]) -> bool:
    """``--engine auto``: True when any argument is a glob pattern or a directory, or when the
    files together are more than the in-memory reader accepts: Parquet files holding more
    than ``ROC_DASH_MAX_ROWS`` rows or ``ROC_DASH_MAX_DECOMPRESSED_MB`` of uncompressed data
    (read from their footers), text files bigger than ``ROC_DASH_MAX_DECOMPRESSED_MB``.
    Everything else stays in memory, where ids pair models for DeLong's paired test."""
    import pyarrow.parquet as pq

    lim = limits()
    rows = size = 0
    for arg in args:
        arg = str(arg)
        if os.path.isdir(arg) or is_pattern(arg):
            return True
        try:
            with open(arg, "rb") as fh:
                head = fh.read(4)
            if head[:4] == PARQUET_MAGIC:
                meta = pq.ParquetFile(arg).metadata
                rows += meta.num_rows
                size += sum(meta.row_group(k).total_byte_size
                            for k in range(meta.num_row_groups))
            elif head[:2] != GZIP_MAGIC:
                size += os.path.getsize(arg)
        except Exception:  # noqa: BLE001 - unreadable: the in-memory reader words the error
            continue
        if rows > lim.rows or size > lim.decompressed_bytes:
            return True
    return False


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
                   decimal_comma: bool, filename: str) -> str:
    """The one aggregation query of a source: per score column ``k`` (wide form: one model per
    column), rows grouped by raw model, fold, score and label, with the row count, the summed
    weight and counts of unusable scores and weights."""
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
        keys = ", ".join(e for e in (m, fold, label, s) if e != "NULL")
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
            f"SELECT {k} AS k, {m} AS m, {fold} AS f, {label} AS l, {s} AS s, "
            f"CAST(COUNT(*) AS BIGINT) AS n, {weight_sql}, "
            f"CAST(SUM(CASE WHEN {s_bad or 'FALSE'} THEN 1 ELSE 0 END) AS BIGINT) AS s_bad, "
            f"{span} FROM {relation} GROUP BY {keys}"
        )
    return " UNION ALL ".join(selects)


# --------------------------------------------------------------------------- engines


class _DuckDB:
    name = "DuckDB"
    dialect = _DUCKDB

    def __init__(self) -> None:
        try:
            import duckdb
        except ImportError:  # pragma: no cover - duckdb is a dependency
            raise InputError(
                "the DuckDB engine needs the duckdb package: pip install duckdb"
            ) from None
        self.duckdb = duckdb
        self.con = duckdb.connect()

    def _relation(self, source: Source, text_columns: Iterable[str] = ()) -> str:
        files = "[" + ", ".join("'" + f.replace("'", "''") + "'" for f in source.files) + "]"
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
        try:
            return self.con.sql(sql).to_arrow_table()
        except self.duckdb.Error as exc:
            raise InputError(
                f"{source.name}: cannot be read by DuckDB ({_first_line(exc)}). Check that "
                "every file is a readable Parquet or CSV file and that all of them have the "
                "same columns.",
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
        self.con.close()


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

    def _view(self, source: Source, text_columns: Iterable[str] = ()) -> str:
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
          examples: Callable[[str], list[str]]) -> tuple[_FilePart, list[str], int]:
    """Validate one source's aggregated groups (the in-memory reader's checks, in its order)
    and turn them into a canonical part with a ``rows`` column."""
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
            raise InputError(
                f"{name}: column {quote(choice.weight)} has {plural(bad, 'non-numeric value')}: "
                f"{quote_list(examples(choice.weight), 5)}. Weights must be numbers (0 or "
                "more); fix or remove these rows.",
                file=name, column=choice.weight, count=bad,
            )
        count = _sum(raw, "w_missing")
        if count:
            raise _missing(name, choice.weight, count,
                           "Every row needs a weight (a finite number, 0 or more);",
                           "fill them in, remove these rows, or leave out the weight column.")
        count = _sum(raw, "w_invalid")
        if count:
            raise InputError(
                f"{name}: column {quote(choice.weight)} has {plural(count, 'invalid weight')}: "
                f"{quote_list(examples(choice.weight), 5)}. Weights must be finite numbers, 0 "
                "or more; fix or remove these rows.",
                file=name, column=choice.weight, count=count,
            )

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
        model = pc.take(pa.array(list(choice.scores), pa.string()), raw.column("k"))
        column_models = tuple(choice.scores)
    elif choice.model is not None:
        model = text(choice.model, "model name", False)
        column_models = tuple(pc.unique(model).to_pylist())
    else:
        model = pa.nulls(kept_groups, pa.string())
        column_models = ()

    # groups that differ only in spelling ('yes'/'YES', fold '1'/'1.0') become one
    frame = pd.DataFrame({
        "label": label,
        "score": raw.column("s").to_numpy(zero_copy_only=False).astype(np.float64),
        "model": model.to_pandas(),
        "fold": fold.to_pandas(),
        "weight": raw.column("w").to_numpy(zero_copy_only=False).astype(np.float64),
        "rows": n,
    })
    keys = ["model", "fold", "score", "label"]
    frame = (frame.groupby(keys, sort=True, dropna=False, observed=True)[["weight", "rows"]]
             .sum().reset_index()[["label", "score", "model", "fold", "weight", "rows"]])
    table = pa.Table.from_pandas(frame, preserve_index=False)
    table = table.set_column(2, "model", pc.cast(table.column("model"), pa.string()))
    part = _FilePart(
        name=source.model_name_base,
        table=table,
        label_column=choice.label,
        needs_model_name=choice.model is None and not choice.wide,
        has_fold=choice.fold is not None,
        column_models=column_models,
        positive=labels.positive,
        negative=labels.negative,
    )
    return part, notes, total_rows


def aggregate_predictions(
    sources: Iterable[str],
    *,
    options: ReadOptions | None = None,
    engine: str = "duckdb",
    existing_models: Iterable[str] = (),
    spark_session=None,
) -> LoadResult:
    """Aggregate prediction files in a query engine into the canonical table of counts.

    ``sources`` are paths: files (Parquet, or CSV/TSV/semicolon text, optionally gzip), glob
    patterns (``'data/*.parquet'``, ``'runs/**/*.parquet'``) or directories (a partitioned
    dataset); each is one source, like one file of :func:`~roc_dash.io.load_predictions`.
    ``engine`` is ``"duckdb"`` (embedded, streaming) or ``"spark"`` (``spark_session``, or a
    local session; ``ROC_DASH_SPARK_MASTER`` sets the master).

    Returns the :class:`~roc_dash.io.canonical.LoadResult` the in-memory reader returns, one
    row per distinct (model, fold, score, label) with ``weight`` the summed weights (the count
    of rows without a weight column) and ``rows`` the count of input rows, sorted by model,
    fold, score, label; no ``id`` column. Its ``attrs`` hold ``engine``, ``input_rows`` and
    ``groups``; the first note says how many rows became how many groups.
    """
    if engine not in ENGINES:
        raise ValueError(f"engine must be one of {ENGINES}, got {engine!r}")
    options = options or ReadOptions()
    args = [str(a) for a in sources] if not isinstance(sources, str) else [sources]
    if not args:
        raise InputError("No prediction files were given; choose at least one file.")
    started = time.perf_counter()
    expanded = [expand_source(a) for a in args]
    owner: dict[str, str] = {}
    for source in expanded:
        for f in source.files:
            real = os.path.realpath(f)
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

    runner = _DuckDB() if engine == "duckdb" else _Spark(spark_session)
    notes: list[str] = []
    parts: list[_FilePart] = []
    input_rows = 0
    try:
        for source in expanded:
            part, part_notes, rows = _aggregate_source(runner, source, options)
            parts.append(part)
            notes.extend(part_notes)
            input_rows += rows
    finally:
        runner.close()
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
    summary = (
        f"{runner.name} aggregated {plural(input_rows, 'row')} of {plural(files, 'file')} into "
        f"{groups:,} distinct (model, fold, score, label) groups in {seconds:.1f} s; the "
        "analysis runs on their counts."
    )
    table = result.table
    table.attrs.update(engine=runner.name, input_rows=input_rows, groups=groups)
    return LoadResult(table=table, notes=(summary, *result.notes), digests=())


def _aggregate_source(runner, source: Source, options: ReadOptions):
    d = runner.dialect
    schema = runner.schema(source)
    names = [n for n in schema.names if not n.startswith("__index_level_")]
    check_columns(len(names), source.name)
    choice = resolve_named(
        names, source.name, label=options.label, score=options.score, model=options.model,
        fold=options.fold, weight=options.weight, id=options.id,
    )
    text_columns = [choice.label, *choice.text_columns()] if source.kind == "csv" else []
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
    sql = _aggregate_sql(d, "{src}", choice, schema, decimal_comma, source.name)
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

    part, part_notes, rows = _part(source, choice, raw, options, examples)
    return part, notes + part_notes, rows
