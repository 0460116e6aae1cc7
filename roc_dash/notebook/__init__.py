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

import re

# the reading and analysis live below the figures and displays (no import cycle)
from .predictions import ARGUMENTS as ARGUMENTS
from .predictions import ARRAYS_NAME as ARRAYS_NAME
from .predictions import AVERAGING as AVERAGING
from .predictions import analysis_of as analysis_of
from .predictions import in_python_words as in_python_words
from .predictions import parquet_bytes as parquet_bytes
from .predictions import predictions_table as predictions_table

__all__ = ["predictions_table", "analysis_of", "plot_roc", "plot_pr", "plot_cost"]

#: The end of every plot function's docstring: its last parameter, Returns and See Also.
_FONT_SIZE_AND_RETURNS = """font_size : int
    Font size of the figure's text, in px.

Returns
-------
plotly.graph_objects.Figure
    ``{display}.from_predictions(...).figure_``; save it with
    :func:`roc_dash.save_figure` (HTML always; PNG, SVG, PDF with kaleido).

See Also
--------
roc_dash.{display} : the same figure with the numbers it is drawn from."""


def _returns_figure_of(display: str):
    """Put the ``font_size`` parameter and the Returns and See Also sections of a figure of
    ``display`` (a display class of :mod:`.displays`) where the decorated function's
    docstring says ``{font_size_and_returns}``."""

    def fill(func):
        indent = re.search(r"^( *)\{font_size_and_returns\}", func.__doc__, re.M).group(1)
        lines = _FONT_SIZE_AND_RETURNS.format(display=display).splitlines()
        block = "\n".join(indent + line if line else "" for line in lines)
        func.__doc__ = func.__doc__.replace(indent + "{font_size_and_returns}", block)
        return func

    return fill


def _figure_of(display: str, arguments: dict):
    """``display.from_predictions(**arguments).figure_``: what a plot function returns, for
    the arguments it was given (its ``locals()``, all passed by name)."""
    from . import displays

    return getattr(displays, display).from_predictions(**arguments).figure_


@_returns_figure_of("RocDisplay")
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
    {font_size_and_returns}

    Examples
    --------
    >>> import numpy as np, roc_dash
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 200)
    >>> fig = roc_dash.plot_roc(y, y + rng.normal(size=200), cost_fp=1, cost_fn=5)
    >>> [t.name for t in fig.data][-1]
    'optimal operating point'
    """
    return _figure_of("RocDisplay", locals())


@_returns_figure_of("PrecisionRecallDisplay")
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
    {font_size_and_returns}

    Examples
    --------
    >>> import roc_dash
    >>> fig = roc_dash.plot_pr([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], prior=0.1)
    >>> fig.layout.yaxis.title.text
    'Precision at p(+) = 0.1'
    """
    gain = bool(gain)
    return _figure_of("PrecisionRecallDisplay", locals())


@_returns_figure_of("CostDisplay")
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
    {font_size_and_returns}

    Examples
    --------
    >>> import roc_dash
    >>> fig = roc_dash.plot_cost([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], prior=0.2)
    >>> round(fig.layout.meta["pc_pos"], 3)
    0.2
    """
    return _figure_of("CostDisplay", locals())
