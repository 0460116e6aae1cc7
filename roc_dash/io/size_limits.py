"""Size limits of one file: what it may decode to, read from the environment at each call.

A few hundred kilobytes of gzip or Parquet can expand to gigabytes (a 0.5 MB ``.csv.gz`` of
repeated lines holds 32 million rows; a 200 KB Parquet file can hold a million copies of a
1,000-character string), so the limits apply to what a file *decodes to*, not to what is
sent. They are read from environment variables *at each call* (a running server picks up no
change, a new worker does; tests may ``monkeypatch.setenv``). A file beyond a limit is
rejected with a :class:`~roc_dash.io.errors.LimitError` (an
:class:`~roc_dash.io.errors.InputError`) naming the file, the limit, the size found and the
variable that sets it; over the decoded budget it is the subclass
:class:`~roc_dash.io.errors.DecodedSizeError`.

================================ ========== ==================================================
variable                         default    limit
================================ ========== ==================================================
``ROC_DASH_MAX_DECOMPRESSED_MB`` 1024       megabytes (MiB) of one file after gzip
                                            decompression, and of a Parquet file's
                                            uncompressed column data (from its metadata)
``ROC_DASH_MAX_DECODED_MB``      1024       megabytes (MiB) of memory the decoded data of
                                            one load may take: the Arrow columns held while
                                            reading, then the canonical table they make
``ROC_DASH_MAX_ROWS``            10000000   data rows of one file; in wide form (one model
                                            per column) rows x score columns
``ROC_DASH_MAX_COLUMNS``         1000       columns of one file
``ROC_DASH_MAX_MODELS``          200        models read from one file (distinct names in
                                            its model column, or wide-form score columns)
``ROC_DASH_MAX_NAME_CHARS``      256        characters of a name: column names, model, fold
                                            and class names, label values
================================ ========== ==================================================

The header line may be at most
:data:`~roc_dash.io.text_reading.MAX_HEADER_BYTES` (1 MiB) long.

How they are enforced, before the memory is taken:

* text (plain or gzip) is never decompressed as a whole: it is decoded in 1 MiB pieces and
  parsed in blocks by Arrow's streaming CSV reader, which stops as soon as the rows pass
  ``ROC_DASH_MAX_ROWS`` or the Arrow columns held pass ``ROC_DASH_MAX_DECODED_MB``, whatever
  the quoting; decompression stops as soon as the output passes
  ``ROC_DASH_MAX_DECOMPRESSED_MB``. The header is read first (the columns counted, the names
  checked) and binary files (e.g. gigabytes of zeros) are refused from their first 64 KiB;
* when the reason for an error has to be found (rows with the wrong number of values,
  invalid UTF-8, row numbers after blank lines), the text is scanned again in 256 KiB pieces,
  so error paths are bounded like the happy path;
* Parquet: rows, columns and uncompressed size come from the footer metadata before any data
  page is read; the memory each row group will take is estimated from its metadata before it
  is read, row group by row group; text columns are read dictionary-encoded (a repeated
  string is held once), and a name column whose table would be too big is refused from its
  distinct values (:mod:`roc_dash.io.canonical`) before it is expanded;
* memory Arrow freed is given back to the system after every load, accepted or refused
  (:func:`release_memory`).

Why these defaults: a 10^7-row file of ``label,score,model,fold`` decodes to ~230 MB of Arrow
columns and a ~410 MB canonical table; 1 GiB leaves room for weights and ids at that size
while a hostile file costs at most about the budget (plus the Python process, ~150 MB).
1 GiB of text is 10 million rows of ~100 characters. 200 models is far more curves than a
chart can show; 1000 columns leaves room for feature columns next to the predictions while a
10,000-column file is refused from its header line.
"""

from __future__ import annotations

import gc
import logging
import math
import os
from dataclasses import dataclass

import pyarrow as pa

from .errors import DecodedSizeError, LimitError, plural, quote

log = logging.getLogger(__name__)


MAX_DECOMPRESSED_MB_VAR = "ROC_DASH_MAX_DECOMPRESSED_MB"
MAX_DECODED_MB_VAR = "ROC_DASH_MAX_DECODED_MB"
MAX_ROWS_VAR = "ROC_DASH_MAX_ROWS"
MAX_COLUMNS_VAR = "ROC_DASH_MAX_COLUMNS"
MAX_MODELS_VAR = "ROC_DASH_MAX_MODELS"
MAX_NAME_CHARS_VAR = "ROC_DASH_MAX_NAME_CHARS"

#: Default of each limit (see the module docstring); megabytes for the first two, counts
#: otherwise.
LIMIT_DEFAULTS: dict[str, float] = {
    MAX_DECOMPRESSED_MB_VAR: 1024,
    MAX_DECODED_MB_VAR: 1024,
    MAX_ROWS_VAR: 10_000_000,
    MAX_COLUMNS_VAR: 1000,
    MAX_MODELS_VAR: 200,
    MAX_NAME_CHARS_VAR: 256,
}

_MEGABYTE_VARS = (MAX_DECOMPRESSED_MB_VAR, MAX_DECODED_MB_VAR)

_MB = 1 << 20


@dataclass(frozen=True)
class Limits:
    """The size limits in force; :meth:`from_env` reads them (at call time)."""

    decompressed_bytes: int
    rows: int
    columns: int
    models: int
    decoded_bytes: int = int(LIMIT_DEFAULTS[MAX_DECODED_MB_VAR] * _MB)
    name_chars: int = int(LIMIT_DEFAULTS[MAX_NAME_CHARS_VAR])

    @classmethod
    def from_env(cls) -> Limits:
        """The limits set by the environment variables, defaults where unset or invalid."""
        return cls(
            decompressed_bytes=max(1, int(_env_number(MAX_DECOMPRESSED_MB_VAR) * _MB)),
            rows=int(_env_number(MAX_ROWS_VAR)),
            columns=int(_env_number(MAX_COLUMNS_VAR)),
            models=int(_env_number(MAX_MODELS_VAR)),
            decoded_bytes=max(1, int(_env_number(MAX_DECODED_MB_VAR) * _MB)),
            name_chars=int(_env_number(MAX_NAME_CHARS_VAR)),
        )


def limits() -> Limits:
    """The size limits in force now (read from the environment on every call)."""
    return Limits.from_env()


_warned: set[tuple[str, str]] = set()


def _env_number(var: str) -> float:
    """A positive number from ``var`` ('1024', '0.5', '2e7', '20_000_000'); the default,
    with one logged warning, when the value is not one."""
    default = LIMIT_DEFAULTS[var]
    raw = os.environ.get(var, "").strip()
    if not raw:
        return default
    try:
        value = float(raw.replace("_", ""))
    except ValueError:
        value = math.nan
    integral = var not in _MEGABYTE_VARS
    if not (math.isfinite(value) and (value >= 1 if integral else value > 0)):
        if (var, raw) not in _warned:
            _warned.add((var, raw))
            log.warning("%s=%r is not a positive number; using the default %g", var, raw,
                        default)
        return default
    return value


def _mb(n_bytes: float) -> str:
    """Megabytes (MiB) as shown in messages: '1,024 MB', '0.5 MB'."""
    mb = n_bytes / _MB
    return f"{mb:,.0f} MB" if mb >= 10 else f"{mb:.3g} MB"


def limit_error(filename: str, problem: str, var: str, advice: str, *,
                limit: int | float = 0, cls: type[LimitError] = LimitError) -> LimitError:
    """The error for a file beyond a size limit: ``'{file}: {problem}. {advice}. The limit is
    set by the environment variable {var}; whoever runs the server can raise it.'``"""
    return cls(
        f"{filename}: {problem}. {advice}. The limit is set by the environment variable "
        f"{var}; whoever runs the server can raise it.",
        variable=var,
        limit=limit,
        file=filename,
    )


def check_rows(
    n_rows: int, filename: str, *, found: str | None = None, scope: str = "per file"
) -> None:
    """Raise :class:`LimitError` when ``n_rows`` is beyond ``ROC_DASH_MAX_ROWS``.

    ``found`` describes the count (default ``'has N rows'``); a caller that combines files can
    pass e.g. ``found='together have 12,000,000 rows', scope='in one upload'``.
    """
    limit = limits().rows
    if n_rows > limit:
        raise _rows_error(filename, found or "has " + plural(n_rows, "row"), limit, scope)


def _rows_error(filename: str, found: str, limit: int, scope: str = "per file") -> LimitError:
    return limit_error(
        filename,
        f"{found}, more than the {plural(limit, 'row')} accepted {scope}",
        MAX_ROWS_VAR,
        "Upload fewer rows (a random sample, or the rows split over several uploads)",
        limit=limit,
    )


def check_columns(n_columns: int, filename: str) -> None:
    """Raise :class:`LimitError` when ``n_columns`` is beyond ``ROC_DASH_MAX_COLUMNS``."""
    now = limits()
    if n_columns > now.columns:
        raise limit_error(
            filename,
            f"has {plural(n_columns, 'column')}, more than the "
            f"{plural(now.columns, 'column')} accepted per file",
            MAX_COLUMNS_VAR,
            "Keep only the label and score columns (and model, fold, weight or id if used); "
            f"with one model per column, at most {plural(now.models, 'score column')}",
            limit=now.columns,
        )


def name_too_long(filename: str, what: str, value: str, length: int, *,
                  column: str | None = None, where: str = "") -> LimitError:
    """The error for a name beyond ``ROC_DASH_MAX_NAME_CHARS``: ``what`` says which kind of
    name ('column name', 'model name', ...), ``where`` where it is ('row 5', 'column 3')."""
    limit = limits().name_chars
    place = f" ({where})" if where else ""
    in_column = f"column {quote(column)} has " if column is not None else "has "
    error = limit_error(
        filename,
        f"{in_column}a {what} of {length:,} characters{place}: {quote(value)}; "
        f"{what}s may have at most {plural(limit, 'character')}",
        MAX_NAME_CHARS_VAR,
        f"Shorten the {what}s (e.g. 'rf' instead of a description), or check that this "
        "column holds what it should",
        limit=limit,
    )
    error.column = column
    return error


def check_header_names(names: list[str], filename: str) -> None:
    """Raise :class:`LimitError` for a column name beyond ``ROC_DASH_MAX_NAME_CHARS``."""
    limit = limits().name_chars
    for i, name in enumerate(names):
        if len(name) > limit:
            error = name_too_long(filename, "column name", name, len(name),
                                  where=f"column {i + 1}")
            raise error


def _too_much_data(filename: str, problem: str) -> LimitError:
    return limit_error(
        filename,
        problem,
        MAX_DECOMPRESSED_MB_VAR,
        "Upload a smaller file (fewer rows or columns, or the rows split over several uploads)",
        limit=limits().decompressed_bytes,
    )


def decoded_error(filename: str, problem: str, advice: str | None = None, *,
                  column: str | None = None) -> DecodedSizeError:
    """The error for data beyond the decoded budget (``ROC_DASH_MAX_DECODED_MB``)."""
    error = limit_error(
        filename,
        problem,
        MAX_DECODED_MB_VAR,
        advice or "Keep only the columns needed (label and score, and model, fold, weight or "
        "id if used), shorten long text values, or split the rows over several uploads",
        limit=limits().decoded_bytes,
        cls=DecodedSizeError,
    )
    error.column = column
    return error  # type: ignore[return-value]


def _budget_words(budget: int) -> str:
    """'1,024 MB accepted', or how much of it is left after the files before this one."""
    limit = limits().decoded_bytes
    if budget >= limit:
        return f"{_mb(limit)} accepted"
    return (f"{_mb(budget)} left of the {_mb(limit)} accepted per load after the files "
            "before it")


def release_memory(collect: bool = True) -> None:
    """Give the memory freed since the last call back to the operating system: Arrow's pool
    keeps freed blocks for reuse otherwise, so a worker that refused a big file would stay
    big. ``collect``: first collect garbage cycles (tens of milliseconds in a big process;
    done after a refusal, whose frames may hold what was read). Called after every refused
    load and every big one."""
    if collect:
        gc.collect()
    pa.default_memory_pool().release_unused()
    if _malloc_trim is not None:  # numpy's and Python's big buffers freed into the C heap
        _malloc_trim(0)


def _find_malloc_trim():
    try:
        import ctypes

        return ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):  # not glibc: nothing to trim
        return None


_malloc_trim = _find_malloc_trim()
