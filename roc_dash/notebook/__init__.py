"""roc-dash in a notebook: one-call figures and the dashboard on your own predictions.

:func:`plot_roc`, :func:`plot_pr` and :func:`plot_cost` return the page's own Plotly figures
(:mod:`roc_dash.figures`) for predictions given as arrays, lists, pandas Series or columns of
a DataFrame: they are ``from_predictions(...).figure_`` of the display objects in
scikit-learn's shape, :class:`~roc_dash.notebook.displays.RocDisplay`,
:class:`~roc_dash.notebook.displays.PrecisionRecallDisplay` and
:class:`~roc_dash.notebook.displays.CostDisplay` (which also hold the curves' numbers and
``save`` the figure: :func:`~roc_dash.notebook.saving.save_figure`).
:func:`predictions_table` is the canonical table they are drawn from: the predictions go
through :mod:`roc_dash.io` exactly as an uploaded file does (same checks, same messages),
then :func:`~roc_dash.core.assembly.analysis.analyse` computes what the page shows. The
dashboard itself, preloaded with a table, is :func:`roc_dash.show` (:mod:`roc_dash.notebook.showing`).
Everything here is imported on first use: ``import roc_dash.notebook`` loads no Plotly.

Examples
--------
>>> import roc_dash
>>> y = [0, 0, 1, 1, 0, 1]
>>> s = [0.1, 0.4, 0.35, 0.8, 0.2, 0.9]
>>> fig = roc_dash.plot_roc(y, s, cost_fp=1, cost_fn=2)
>>> fig.data[1].name
'model (AUC 0.888889)'
"""

from __future__ import annotations

import io as _bytes_io
import numbers
import re
import warnings

import numpy as np
import pandas as pd

__all__ = ["predictions_table", "analysis_of", "plot_roc", "plot_pr", "plot_cost"]

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


def plot_roc(y_true=None, y_score=None, *, data=None, model=None, fold=None,
             sample_weight=None, pos_label=None, drop_nonfinite: bool = False,
                cost_fp: float = 1.0, cost_fn: float = 1.0,
             prior: float | None = None, averaging: str = "pooled", level: float = 0.95,
             band: str = "pointwise", det: bool = False, ties: bool = False,
             font_size: int = 14):
    """The ROC view of the page, in one call.

    Each model's ROC curve (Fawcett 2004, Algorithm 2: tied scores make one diagonal
    segment) with its AUC in the legend, the convex hull of all models (section 5), the
    iso-performance line of the costs and prior and the optimal operating point on it
    (section 5.1), as :func:`roc_dash.figures.roc.roc_figure` draws them on the page.

    Parameters
    ----------
    y_true, y_score, data, model, fold, sample_weight, pos_label, drop_nonfinite
        The predictions, as for :func:`predictions_table`: arrays, lists or Series, or
        ``data=`` a DataFrame and the names of its columns.
    cost_fp, cost_fn, prior, level, band
        The operating conditions, as for :func:`analysis_of`.
    averaging : {"pooled", "none", "vertical", "threshold"}
        With folds: their pooled curve, every fold's curve, or their vertical or threshold
        average with its band (section 6).
    det : bool
        Draw the DET view instead (miss rate against false alarms, normal-deviate axes).
    ties : bool
        Shade the band between the optimistic and pessimistic orderings of tied scores.
    font_size : int
        Font size of the figure.

    Returns
    -------
    plotly.graph_objects.Figure
        ``RocDisplay.from_predictions(...).figure_``; save it with
        :func:`roc_dash.save_figure` (HTML always; PNG, SVG, PDF with kaleido).

    See Also
    --------
    roc_dash.RocDisplay : the same figure with the numbers it is drawn from.

    Examples
    --------
    >>> import numpy as np, roc_dash
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 200)
    >>> fig = roc_dash.plot_roc(y, y + rng.normal(size=200), cost_fp=1, cost_fn=5)
    >>> [t.name for t in fig.data][-2]
    'optimal operating point'
    """
    from .displays import RocDisplay

    return RocDisplay.from_predictions(
        y_true, y_score, data=data, model=model, fold=fold, sample_weight=sample_weight,
        pos_label=pos_label, drop_nonfinite=drop_nonfinite, cost_fp=cost_fp, cost_fn=cost_fn,
        prior=prior, level=level, band=band, averaging=averaging, det=det, ties=ties,
        font_size=font_size).figure_


def plot_pr(y_true=None, y_score=None, *, data=None, model=None, fold=None,
            sample_weight=None, pos_label=None, drop_nonfinite: bool = False,
                cost_fp: float = 1.0, cost_fn: float = 1.0,
            prior: float | None = None, gain: bool = False, font_size: int = 14):
    """The precision-recall view of the page, at the deployment prior, in one call.

    Each model's PR curve with its average precision recomputed at the deployment prior
    ``prior`` (precision depends on the share of positives: Fawcett 2006, section 6;
    Davis & Goadrich's interpolation between vertices), the achievable PR curve of the
    joint hull, the baseline precision p(+), iso-F1 curves and the optimum under the costs.

    Parameters
    ----------
    y_true, y_score, data, model, fold, sample_weight, pos_label, drop_nonfinite
        The predictions, as for :func:`predictions_table`.
    cost_fp, cost_fn : float
        Costs of errors: they choose the optimum marked.
    prior : float, optional
        Deployment prior p(+) the precision is computed at (default: the data's
        prevalence).
    gain : bool
        Draw precision-recall-gain curves instead (Flach & Kull 2015).
    font_size : int

    Returns
    -------
    plotly.graph_objects.Figure
        ``PrecisionRecallDisplay.from_predictions(...).figure_``; save it with
        :func:`roc_dash.save_figure` (HTML always; PNG, SVG, PDF with kaleido).

    See Also
    --------
    roc_dash.PrecisionRecallDisplay : the same figure with the numbers it is drawn from.

    Examples
    --------
    >>> import roc_dash
    >>> fig = roc_dash.plot_pr([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], prior=0.1)
    >>> fig.layout.yaxis.title.text
    'Precision at p(+) = 0.1'
    """
    from .displays import PrecisionRecallDisplay

    return PrecisionRecallDisplay.from_predictions(
        y_true, y_score, data=data, model=model, fold=fold, sample_weight=sample_weight,
        pos_label=pos_label, drop_nonfinite=drop_nonfinite, cost_fp=cost_fp, cost_fn=cost_fn,
        prior=prior, gain=bool(gain), font_size=font_size).figure_


def plot_cost(y_true=None, y_score=None, *, data=None, model=None, fold=None,
              sample_weight=None, pos_label=None, drop_nonfinite: bool = False,
              cost_fp: float = 1.0, cost_fn: float = 1.0, prior: float | None = None,
              font_size: int = 14):
    """The cost-curve view of the page, in one call.

    Normalised expected cost against the probability cost PC(+) (Drummond & Holte 2006;
    Fawcett 2004, section 7.5.2): each model's lower envelope (the dual of its ROC convex
    hull), the best of all models, the two trivial classifiers, and the optimum's cost read
    off at the PC(+) of ``cost_fp``, ``cost_fn`` and ``prior``.

    Parameters
    ----------
    y_true, y_score, data, model, fold, sample_weight, pos_label, drop_nonfinite
        The predictions, as for :func:`predictions_table`.
    cost_fp, cost_fn, prior
        The operating conditions, as for :func:`analysis_of`.
    font_size : int

    Returns
    -------
    plotly.graph_objects.Figure
        ``CostDisplay.from_predictions(...).figure_``; save it with
        :func:`roc_dash.save_figure` (HTML always; PNG, SVG, PDF with kaleido).

    See Also
    --------
    roc_dash.CostDisplay : the same figure with the numbers it is drawn from.

    Examples
    --------
    >>> import roc_dash
    >>> fig = roc_dash.plot_cost([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], prior=0.2)
    >>> round(fig.layout.meta["pc_pos"], 3)
    0.2
    """
    from .displays import CostDisplay

    return CostDisplay.from_predictions(
        y_true, y_score, data=data, model=model, fold=fold, sample_weight=sample_weight,
        pos_label=pos_label, drop_nonfinite=drop_nonfinite, cost_fp=cost_fp, cost_fn=cost_fn,
        prior=prior, font_size=font_size).figure_
