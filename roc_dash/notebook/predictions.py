"""The predictions a notebook gives, read as an upload is and analysed as the page does.

:func:`predictions_table` hands arrays, lists, Series or a DataFrame's columns to
:mod:`roc_dash.io` as an in-memory Parquet file (same checks, same messages, in Python's
words); :func:`analysis_of` analyses them under the given conditions
(:func:`~roc_dash.core.assembly.analysis.analyse`). :mod:`roc_dash.notebook` re-exports
both; its figures (``plot_*``) and displays (:mod:`roc_dash.notebook.displays`) are drawn
from :func:`analysis_of`.
"""

from __future__ import annotations

import io as _bytes_io
import numbers
import re
import warnings

import numpy as np
import pandas as pd

__all__ = ["predictions_table", "analysis_of", "parquet_bytes", "in_python_words"]

#: What ``averaging`` accepts (Fawcett 2004, section 6; the page's "Averaging" control).
AVERAGING = ("none", "pooled", "vertical", "threshold")

#: The name the io messages give the predictions of arrays (a DataFrame's: ``data``).
ARRAYS_NAME = "predictions"

#: The argument that gives each column of the canonical table; predictions given as arrays
#: reach the io under these names, so its messages name the arguments.
ARGUMENTS = {"label": "y_true", "score": "y_score", "model": "model", "fold": "fold",
             "weight": "sample_weight"}


def _as_1d(value, what: str) -> np.ndarray | pd.Series:
    """``value`` as a one-dimensional column (a Series without its index)."""
    if isinstance(value, pd.Series):
        return value.reset_index(drop=True)
    if isinstance(value, pd.DataFrame):
        raise ValueError(f"{what} is a DataFrame; give one column (e.g. df['{what}']), or "
                         f"pass the DataFrame as data= and {what} as the name of a column.")
    try:
        array = np.asarray(value)
    except ValueError:  # ragged: some entries are sequences
        raise ValueError(f"{what} mixes single values and sequences; give one value per "
                         "prediction (a flat list, a 1-D array or a Series).") from None
    if array.ndim == 0:
        raise ValueError(f"{what} is a single value ({value!r}); give one value per "
                         "prediction (a list, an array or a pandas Series).")
    if array.ndim != 1:
        raise ValueError(f"{what} has shape {array.shape}; give a one-dimensional list, "
                         "array or Series (for several models, give a model column).")
    return array


def _arrays_frame(y_true, y_score, model, fold, sample_weight) -> tuple[pd.DataFrame, dict]:
    """The predictions given as arrays, as a table with the io's column names."""
    if y_true is None or y_score is None:
        raise ValueError("give y_true and y_score (arrays, lists or Series), or data= a "
                         "DataFrame with y_true and y_score naming its columns.")
    columns = {"y_true": _as_1d(y_true, "y_true"), "y_score": _as_1d(y_score, "y_score")}
    if model is None:
        name = getattr(y_score, "name", None)
        model = str(name) if isinstance(y_score, pd.Series) and name is not None else "model"
    n = len(columns["y_true"])
    columns["model"] = (np.full(n, model, dtype=object) if isinstance(model, str)
                        else _as_1d(model, "model"))
    if fold is not None:
        columns["fold"] = _as_1d(fold, "fold")
    if sample_weight is not None:
        columns["sample_weight"] = _as_1d(sample_weight, "sample_weight")
    for key, values in columns.items():
        if len(values) != n:
            raise ValueError(f"y_true has {n} values but {key} has {len(values)}; give one "
                             "value per prediction, in the same order.")
    frame = pd.DataFrame({k: (v.to_numpy() if isinstance(v, pd.Series) else v)
                          for k, v in columns.items()})
    return frame, {role: name for role, name in ARGUMENTS.items() if name in columns}


def _data_frame(data: pd.DataFrame, y_true, y_score, model, fold, sample_weight
                ) -> tuple[pd.DataFrame, dict]:
    """The named columns of ``data`` (``y_score`` may name several: one model each)."""
    if not isinstance(data, pd.DataFrame):
        raise ValueError(f"data must be a pandas DataFrame, not {type(data).__name__}.")
    roles = {"label": y_true, "score": y_score, "model": model, "fold": fold,
             "weight": sample_weight}
    names: list[str] = []
    for role, value in roles.items():
        if value is None:
            if role in ("label", "score"):
                raise ValueError(f"with data=, give {ARGUMENTS[role]} as the name of a "
                                 f"column of data (its columns: {_columns(data)}).")
            continue
        wanted = [value] if isinstance(value, str) else list(value) if role == "score" else None
        if wanted is None or not all(isinstance(w, str) for w in wanted):
            raise ValueError(f"with data=, {ARGUMENTS[role]} must name a column of data "
                             f"(its columns: {_columns(data)}), not {type(value).__name__}.")
        for w in wanted:
            if w not in data.columns:
                raise ValueError(f"data has no column {w!r} (for {ARGUMENTS[role]}); its "
                                 f"columns: {_columns(data)}.")
            if w not in names:
                names.append(w)
    frame = data.loc[:, names].reset_index(drop=True)
    roles = {k: v for k, v in roles.items() if v is not None}
    for role, column in (("model", "model"), ("fold", "fold")):
        # a long table's model and fold columns are found as an upload's are (show(df) does)
        if roles.get(role) is None and isinstance(y_score, str) and column in data.columns \
                and column not in names:
            roles[role] = column
            frame[column] = data[column].to_numpy()
            names.append(column)
    if roles.get("model") is None and isinstance(y_score, str):  # one model: its scores' name
        roles["model"] = next(c for c in ("model", "model_name", "model_") if c not in names)
        frame[roles["model"]] = y_score
    return frame, roles


def _columns(data: pd.DataFrame, n: int = 8) -> str:
    cols = [repr(str(c)) for c in data.columns]
    return ", ".join(cols[:n]) + (f" and {len(cols) - n} more" if len(cols) > n else "")


def parquet_bytes(frame: pd.DataFrame) -> bytes:
    """``frame`` as Parquet bytes: the io reads them as it reads an uploaded Parquet file,
    with every value and type kept exactly (floats bit for bit, labels as given)."""
    import pyarrow as pa

    buffer = _bytes_io.BytesIO()
    try:
        frame.to_parquet(buffer, index=False)
    except (pa.ArrowException, TypeError, ValueError) as exc:
        raise ValueError(f"the predictions cannot be read as a table of numbers and labels "
                         f"({exc}); give each column plain values of one kind (numbers, "
                         "text or booleans).") from None
    return buffer.getvalue()


def predictions_table(y_true=None, y_score=None, *, data: pd.DataFrame | None = None,
                      model=None, fold=None, sample_weight=None, pos_label=None,
                      drop_nonfinite: bool = False) -> pd.DataFrame:
    """The canonical table of predictions, read and checked by :mod:`roc_dash.io`.

    The predictions are handed to :func:`roc_dash.io.load_predictions` as an in-memory
    Parquet file, so they are checked, and refused with the same messages, as a file
    uploaded to the page: both classes present, finite scores, one positive label.

    Parameters
    ----------
    y_true : array-like or str
        True labels: booleans, 0/1, or two distinct values (e.g. ``"pos"``/``"neg"``; say
        which is positive with ``pos_label`` when the io cannot tell). With ``data``: the
        name of its label column.
    y_score : array-like, str or list of str
        Scores, larger meaning "more likely positive". With ``data``: the name of its score
        column, or several names (wide form: one model per column).
    data : DataFrame, optional
        A table whose columns the other arguments name.
    model : str or array-like, optional
        The model's name (default: the name of the ``y_score`` Series, else ``"model"``),
        or one model name per prediction (several models); with ``data``: the name of its
        model column (default: the model is named after its score column).
    fold : array-like or str, optional
        Cross-validation fold of each prediction (or, with ``data``, its column): folds
        are averaged (``averaging=``) and pooled for the hull.
    sample_weight : array-like or str, optional
        Non-negative weight of each prediction (instance counts or costs).
    pos_label : str, int or bool, optional
        The label value of the positive class.
    drop_nonfinite : bool
        Drop predictions whose score is missing or infinite (with a warning) instead of
        refusing them.

    Returns
    -------
    DataFrame
        Columns ``label`` (bool), ``score``, ``model``, ``fold``, ``weight``, as
        :func:`roc_dash.io.load_predictions` returns them. Non-fatal notes of the reading
        (e.g. which label was taken as positive) are issued as :class:`UserWarning`.

    Raises
    ------
    ValueError
        Lengths differ, a column is missing, only one class is present, a score is missing
        or not finite, ... (the io's :class:`~roc_dash.io.InputError` is a ValueError; it
        numbers rows from 1, in the order given).

    Examples
    --------
    >>> import pandas as pd, roc_dash
    >>> df = pd.DataFrame({"y": ["pos", "neg", "pos", "neg"], "p": [0.9, 0.2, 0.6, 0.7]})
    >>> roc_dash.predictions_table(data=df, y_true="y", y_score="p", pos_label="pos")[
    ...     ["label", "score"]].to_dict("list")
    {'label': [True, False, True, False], 'score': [0.9, 0.2, 0.6, 0.7]}
    """
    from ..io import InputError, ReadOptions, load_predictions

    if data is not None:
        frame, roles = _data_frame(data, y_true, y_score, model, fold, sample_weight)
        name = "data"
    else:
        frame, roles = _arrays_frame(y_true, y_score, model, fold, sample_weight)
        name = ARRAYS_NAME
    options = ReadOptions(label=roles["label"], score=roles["score"], model=roles.get("model"),
                          fold=roles.get("fold"), weight=roles.get("weight"),
                          positive=None if pos_label is None else str(pos_label),
                          drop_nonfinite=bool(drop_nonfinite), group_columns=())
    try:
        result = load_predictions([(name, parquet_bytes(frame))], options=options)
    except InputError as exc:  # the io's advice in this function's words, not the CLI's
        raise InputError(_in_python_words(str(exc)), file=exc.file, column=exc.column,
                         rows=exc.rows, count=exc.count) from None
    for note in result.notes:
        warnings.warn(note, UserWarning, stacklevel=3)
    return result.table


#: The command line's options named in the io's advice, and the arguments that do the same.
_CLI_WORDS = (
    (re.compile(r"--drop-nonfinite"), "drop_nonfinite=True"),
    (re.compile(r"--positive VALUE on the command line, e\.g\. --positive (\S+?)\)"),
     r"pos_label=..., e.g. pos_label=\1)"),
    (re.compile(r"--positive( CLASS)?"), "pos_label=..."),
    # arrays are not a file: the io's "in the whole file" is all of the rows given
    (re.compile(r"in the whole file"), "in all the rows given"),
)


def in_python_words(message: str) -> str:
    """The io's advice in Python's words: ``pos_label=...`` for ``--positive`` and so on."""
    return _in_python_words(message)


def _in_python_words(message: str) -> str:
    for pattern, words in _CLI_WORDS:
        message = pattern.sub(words, message)
    return message


def _real(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool | np.bool_)


def _conditions(cost_fp, cost_fn, prior, level, band, n_samples):
    from ..core.analysis_types import Conditions

    for what, value in (("cost_fp", cost_fp), ("cost_fn", cost_fn)):
        if not (_real(value) and np.isfinite(value) and value > 0):
            raise ValueError(f"{what} must be a positive number, got {value!r}.")
    if prior is not None and not (_real(prior) and 0 < prior < 1):
        raise ValueError(f"prior is the deployment share of positives p(+), strictly between "
                         f"0 and 1 (None: the data's prevalence); got {prior!r}.")
    if band not in ("pointwise", "simultaneous"):
        raise ValueError(f"band must be 'pointwise' or 'simultaneous', got {band!r}.")
    if not (_real(level) and 0 < level < 1):
        raise ValueError(f"level must lie strictly between 0 and 1, got {level!r}.")
    return Conditions(cost_fp=float(cost_fp), cost_fn=float(cost_fn),
                      prior_pos=None if prior is None else float(prior), level=float(level),
                      band=band, n_samples=int(n_samples))


def analysis_of(y_true=None, y_score=None, *, data=None, model=None, fold=None,
                sample_weight=None, pos_label=None, drop_nonfinite: bool = False,
                cost_fp: float = 1.0,
                cost_fn: float = 1.0, prior: float | None = None, level: float = 0.95,
                band: str = "pointwise", n_samples: int = 101):
    """The page's analysis of the predictions under the given conditions.

    :func:`predictions_table` of the first arguments, analysed by
    :func:`roc_dash.core.assembly.analysis.analyse` (curves, AUC with DeLong interval,
    hulls, the optimum under the costs and prior, fold averages).

    Parameters
    ----------
    y_true, y_score, data, model, fold, sample_weight, pos_label, drop_nonfinite
        As for :func:`predictions_table`.
    cost_fp, cost_fn : float
        Costs of a false positive and of a false negative (only their ratio matters for
        the optimum; Fawcett 2004, section 7).
    prior : float, optional
        Deployment prior p(+) (default: the data's prevalence).
    level : float
        Confidence level of the intervals and bands.
    band : {"pointwise", "simultaneous"}
        The vertical average's band.
    n_samples : int
        FPR (or threshold) samples of the fold averages.

    Returns
    -------
    Analysis
        See :class:`roc_dash.core.assembly.analysis.Analysis`.

    Examples
    --------
    >>> import roc_dash
    >>> a = roc_dash.analysis_of([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> a.models[0].auc
    0.75
    """
    from ..core.assembly.analysis import analyse

    conditions = _conditions(cost_fp, cost_fn, prior, level, band, n_samples)
    table = predictions_table(y_true, y_score, data=data, model=model, fold=fold,
                              sample_weight=sample_weight, pos_label=pos_label,
                              drop_nonfinite=drop_nonfinite)
    return analyse(table, conditions)
