"""Display objects in scikit-learn's shape: the page's ROC, precision-recall and cost views.

:class:`RocDisplay`, :class:`PrecisionRecallDisplay` and :class:`CostDisplay` are built as
scikit-learn's ``RocCurveDisplay`` and ``PrecisionRecallDisplay`` are: ``from_predictions``
(true labels and scores) or ``from_estimator`` (a fitted binary classifier and its data)
computes the results, ``plot(...)`` draws them and returns the display, whose ``figure_`` is
the Plotly figure the dashboard draws (:mod:`roc_dash.figures`). Each holds the analysis the
figure is drawn from (``analysis``, :class:`~roc_dash.core.analysis_types.Analysis`) and
scikit-learn's attributes of it (``fpr``, ``tpr``, ``roc_auc``; ``precision``, ``recall``,
``average_precision``; ...): an array or number for one model, a list of them (in the
order of ``name``) for several, as scikit-learn's displays of several curves hold them.
:func:`roc_dash.plot_roc`, :func:`~roc_dash.plot_pr` and :func:`~roc_dash.plot_cost` are
``from_predictions(...).figure_``. ``save(path)`` writes the figure (:func:`save_figure`:
HTML always; PNG, SVG, PDF with the optional ``kaleido``).

Examples
--------
>>> import roc_dash
>>> d = roc_dash.RocDisplay.from_predictions([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
>>> d.roc_auc, d.name, [float(x) for x in d.fpr]
(0.75, 'model', [0.0, 0.0, 0.5, 0.5, 1.0])
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from .predictions import AVERAGING, analysis_of
from .saving import save_figure

__all__ = ["RocDisplay", "PrecisionRecallDisplay", "CostDisplay"]


def _one_or_list(values: list):
    """One model's value as it is, several models' as a list (scikit-learn's convention)."""
    return values[0] if len(values) == 1 else values


def _points(font_size) -> int:
    """``font_size`` checked: a whole number of points."""
    real = isinstance(font_size, numbers.Real) and not isinstance(font_size, bool | np.bool_)
    if not real or not 6 <= font_size <= 72 or font_size != int(font_size):
        raise ValueError(f"font_size must be a whole number of points from 6 to 72 (e.g. 14), "
                         f"not {font_size!r}.")
    return int(font_size)


def _titled(fig, analysis):
    """The figure with the conditions it was drawn under as its title, so that a saved
    figure (``write_html``, ``write_image``) still says which costs and prior its iso line
    and optimum are for."""
    from ..text.rounding import sig

    c = analysis.conditions
    text = f"c(FP) = {sig(c.cost_fp)}, c(FN) = {sig(c.cost_fn)}, p(+) = {sig(c.prior_pos)}"
    before = fig.layout.title.text  # the ROC view's note on folds stays, below
    title = f"{text}<br>{before}" if before else text
    # Plotly's title is 1.2 times the figure's font unless set (the note's is smaller);
    # the top margin grows to hold every line, or a saved image cuts the first one off
    size = fig.layout.title.font.size or 1.2 * (fig.layout.font.size or 12)
    top = int(np.ceil((title.count("<br>") + 1) * 1.3 * size)) + 18
    fig.update_layout(title={"text": title, "x": 0.01, "xanchor": "left"},
                      margin={"t": max(fig.layout.margin.t or 0, top)})
    # Plotly's default height: the middle of the top margin (set heights put a multi-line
    # title's first line above the figure)
    fig.layout.title.y = fig.layout.title.yanchor = fig.layout.title.pad.t = None
    return fig


def _spare_name(taken, base: str = "y_true") -> str:
    name = base
    while name in taken:
        name = f"_{name}"
    return name


def _mapping_frame(y_true, y_score: Mapping, fold, sample_weight):
    """``{name: scores}``: one model per entry, as a wide table with named columns."""
    if not y_score:
        raise ValueError("y_score is an empty dict; give one entry per model, "
                         "{name: scores}.")
    if y_true is None:
        raise ValueError("give y_true, the true labels of the rows every model in the "
                         "y_score dict scored.")
    columns = {str(k): (v.to_numpy() if isinstance(v, pd.Series) else v)
               for k, v in y_score.items()}
    roles = {}
    for role, values in (("y_true", y_true), ("fold", fold), ("sample_weight", sample_weight)):
        if values is not None:
            roles[role] = _spare_name(columns, role)
            columns[roles[role]] = (values.to_numpy() if isinstance(values, pd.Series)
                                    else values)
    lengths = {k: len(v) for k, v in columns.items() if hasattr(v, "__len__")}
    if len(set(lengths.values())) > 1:
        raise ValueError(f"the predictions differ in length ({lengths}); give one value per "
                         "prediction to each model's scores and to y_true.")
    try:
        frame = pd.DataFrame(columns)
    except ValueError as exc:
        raise ValueError(f"y_score's entries cannot make a table ({exc}); give each model "
                         "a one-dimensional array, list or Series of scores.") from None
    return frame, roles


class _Display:
    """What the three displays share: the results, ``from_predictions``/``from_estimator``,
    ``plot`` (drawn by the subclass's ``_draw``), ``save`` and notebook display."""

    #: The plot options and their defaults (the subclass's ``plot`` keywords).
    _VIEW: dict = {}

    def __init__(self, analysis, *, pos_label=None):
        self.analysis = analysis
        self.pos_label = pos_label
        self.figure_ = None

    # -- construction ------------------------------------------------------------------------

    @classmethod
    def from_predictions(cls, y_true=None, y_score=None, *, sample_weight=None,
                         pos_label=None, name=None, data=None, model=None, fold=None,
                         drop_nonfinite: bool = False, cost_fp: float = 1.0,
                         cost_fn: float = 1.0, prior: float | None = None,
                         level: float = 0.95, band: str = "pointwise", **plot_options):
        """The display of predictions, plotted (scikit-learn's ``from_predictions``).

        Parameters
        ----------
        y_true : array-like or str
            True labels (with ``data``: the name of its label column); see
            :func:`roc_dash.predictions_table`.
        y_score : array-like, str, list of str or dict
            Scores, larger meaning "more likely positive"; a dict ``{name: scores}`` for
            several models on the same rows; with ``data``: the name of its score column
            or several names (one model per column).
        sample_weight : array-like or str, optional
            Non-negative weight of each prediction.
        pos_label : str, int or bool, optional
            The label value of the positive class.
        name : str, optional
            The model's name in the legend (scikit-learn's ``name``; default: the name of
            the ``y_score`` Series, else ``"model"``). For several models use ``model``.
        data, model, fold, drop_nonfinite
            As for :func:`roc_dash.predictions_table`.
        cost_fp, cost_fn, prior, level, band
            The operating conditions, as for :func:`roc_dash.analysis_of`.
        **plot_options
            The options of :meth:`plot` (e.g. ``font_size``), checked before anything is
            computed.

        Returns
        -------
        display
            With ``analysis`` and the curves' attributes set and ``figure_`` drawn.
        """
        options = cls._checked_options(plot_options)
        if name is not None:
            if model is not None:
                raise ValueError("give the model's name as name= or model=, not both.")
            if not isinstance(name, str):
                raise ValueError(f"name is the model's name in the legend, a str (several "
                                 f"models: model= or a dict of scores), not {name!r}.")
            model = name
        if isinstance(y_score, Mapping):
            if data is not None or model is not None:
                raise ValueError("with y_score a dict {name: scores} the models are its "
                                 "keys: give neither data= nor model=/name=.")
            data, roles = _mapping_frame(y_true, y_score, fold, sample_weight)
            y_true, y_score = roles.get("y_true"), [str(k) for k in y_score]
            fold, sample_weight = roles.get("fold"), roles.get("sample_weight")
        analysis = analysis_of(y_true, y_score, data=data, model=model, fold=fold,
                               sample_weight=sample_weight, pos_label=pos_label,
                               drop_nonfinite=drop_nonfinite, cost_fp=cost_fp, cost_fn=cost_fn,
                               prior=prior, level=level, band=band)
        return cls(analysis, pos_label=pos_label).plot(**options)

    @classmethod
    def from_estimator(cls, estimator, X, y, *, sample_weight=None, pos_label=None,
                       response_method: str = "auto", name=None, **kwargs):
        """The display of a fitted binary classifier's scores on ``X`` against ``y``.

        Parameters
        ----------
        estimator : fitted classifier
            Anything with ``classes_`` (two classes) and ``predict_proba`` or
            ``decision_function``, as scikit-learn's classifiers and pipelines.
        X : array-like or DataFrame
            The inputs scored.
        y : array-like
            Their true labels.
        sample_weight : array-like, optional
        pos_label : label, optional
            The positive class (default: ``estimator.classes_[1]``, as scikit-learn).
        response_method : {"auto", "predict_proba", "decision_function"}
            The scores used; ``"auto"`` tries ``predict_proba`` first.
        name : str, optional
            The model's name (default: the estimator's class name).
        **kwargs
            As for :meth:`from_predictions` (conditions and plot options).
        """
        score = _estimator_scores(estimator, X, pos_label, response_method)
        pos_label = estimator.classes_[1] if pos_label is None else pos_label
        if name is None:
            name = type(estimator).__name__
        return cls.from_predictions(y, score, sample_weight=sample_weight,
                                    pos_label=_plain(pos_label), name=name, **kwargs)

    @classmethod
    def _checked_options(cls, options: dict) -> dict:
        unknown = sorted(set(options) - set(cls._VIEW))
        if unknown:
            raise TypeError(f"{cls.__name__} has no option {', '.join(map(repr, unknown))}; "
                            f"its plot options: {', '.join(cls._VIEW) or 'none'}.")
        out = {**cls._VIEW, **options}
        out["font_size"] = _points(out["font_size"])
        return out

    # -- drawing and saving ------------------------------------------------------------------

    def plot(self, **options):
        """Draw ``figure_`` with the given options (the others as last drawn, or their
        defaults) and return the display itself, as scikit-learn's ``plot`` does."""
        options = self._checked_options({**getattr(self, "_options", {}), **options})
        self._options = options
        self.figure_ = _titled(self._draw(**options), self.analysis)
        return self

    def _draw(self, **options):  # pragma: no cover - every display defines it
        raise NotImplementedError

    def save(self, path, **kwargs) -> Path:
        """Write ``figure_`` to ``path``: see :func:`roc_dash.save_figure` (``.html``
        always; ``.png``, ``.svg``, ``.pdf`` with the optional ``kaleido``)."""
        return save_figure(self._figure(), path, **kwargs)

    def show(self, **kwargs) -> None:
        """Show ``figure_`` (Plotly's ``Figure.show``)."""
        self._figure().show(**kwargs)

    def _figure(self):
        if self.figure_ is None:
            self.plot()
        return self.figure_

    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
        """In Jupyter a display shows as its figure."""
        return self._figure()._repr_mimebundle_(include, exclude, **kwargs)

    def __repr__(self) -> str:
        names = ", ".join(repr(n) for n in self.names)
        return f"{type(self).__name__}({names})"

    # -- scikit-learn's attributes -----------------------------------------------------------

    @property
    def names(self) -> list[str]:
        """The models' names, in the order of the list-valued attributes."""
        return [m.name for m in self.analysis.models]

    @property
    def name(self):
        """The model's name (several models: the list of their names)."""
        return _one_or_list(self.names)

    @property
    def estimator_name(self):
        """scikit-learn's older name for :attr:`name`."""
        return self.name

    def _per_model(self, attribute: str):
        return _one_or_list([getattr(m, attribute) for m in self.analysis.models])


def _plain(label):
    """A numpy scalar label as the Python value it holds (``str`` of it is the label)."""
    return label.item() if isinstance(label, np.generic) else label


def _estimator_scores(estimator, X, pos_label, response_method: str) -> np.ndarray:
    """The estimator's score of the positive class for each row of ``X``."""
    classes = getattr(estimator, "classes_", None)
    if classes is None:
        raise ValueError(f"{type(estimator).__name__} has no classes_: fit it first, or "
                         "use from_predictions with its scores.")
    classes = list(classes)
    if len(classes) != 2:
        raise ValueError(f"{type(estimator).__name__} has {len(classes)} classes "
                         f"({classes}); these displays are for binary classifiers.")
    positive = classes[1] if pos_label is None else pos_label
    if positive not in classes:
        raise ValueError(f"pos_label={pos_label!r} is not one of the estimator's classes "
                         f"{classes}.")
    methods = {"auto": ("predict_proba", "decision_function"),
               "predict_proba": ("predict_proba",),
               "decision_function": ("decision_function",)}.get(response_method)
    if methods is None:
        raise ValueError(f"response_method must be 'auto', 'predict_proba' or "
                         f"'decision_function', not {response_method!r}.")
    for method in methods:
        if hasattr(estimator, method):
            scores = np.asarray(getattr(estimator, method)(X))
            if method == "predict_proba":
                return scores[:, classes.index(positive)]
            # decision_function: larger means classes_[1]
            return scores if classes.index(positive) == 1 else -scores
    raise ValueError(f"{type(estimator).__name__} has no {' or '.join(methods)}; give "
                     "its scores to from_predictions.")


class RocDisplay(_Display):
    """The ROC view (:func:`roc_dash.plot_roc`) as a display, in scikit-learn's shape.

    Attributes
    ----------
    analysis : Analysis
        The core's results the figure is drawn from.
    curves : dict of str to RocCurve
        Each model's ROC curve (all its vertices; ties as one diagonal step).
    fpr, tpr, thresholds : ndarray or list of ndarray
        The vertices of the curve (several models: one array each, in ``name`` order);
        an instance is positive when its score is ``>= thresholds[k]``, ``+inf`` first.
    roc_auc : float or list of float
        Area under each curve.
    name, estimator_name : str or list of str
        The models' names.
    pos_label
        The positive label given (None: the io's inference).
    figure_ : plotly.graph_objects.Figure
        The figure last drawn by :meth:`plot`.

    References
    ----------
    T. Fawcett, "An introduction to ROC analysis", Pattern Recognition Letters 27(8),
    2006, sections 4-5 (Algorithm 2: tied scores make one diagonal segment).
    """

    _VIEW = {"averaging": "pooled", "det": False, "ties": False, "font_size": 14}

    @classmethod
    def _checked_options(cls, options: dict) -> dict:
        out = super()._checked_options(options)
        if out["averaging"] not in AVERAGING:
            raise ValueError(f"averaging must be one of {AVERAGING}, got {out['averaging']!r}.")
        out["det"], out["ties"] = bool(out["det"]), bool(out["ties"])
        return out

    def plot(self, *, averaging: str | None = None, det: bool | None = None,
             ties: bool | None = None, font_size: int | None = None) -> RocDisplay:
        """Draw the ROC view; see :func:`roc_dash.plot_roc` for the options. Returns self."""
        given = {"averaging": averaging, "det": det, "ties": ties, "font_size": font_size}
        return super().plot(**{k: v for k, v in given.items() if v is not None})

    def _draw(self, *, averaging, det, ties, font_size):
        from ..figures.roc import roc_figure

        return roc_figure(self.analysis, averaging=averaging, det=det, ties=ties,
                          font_size=font_size)

    @property
    def curves(self) -> dict:
        return {m.name: m.curve for m in self.analysis.models}

    @property
    def fpr(self):
        return _one_or_list([m.curve.fpr for m in self.analysis.models])

    @property
    def tpr(self):
        return _one_or_list([m.curve.tpr for m in self.analysis.models])

    @property
    def thresholds(self):
        return _one_or_list([m.curve.thresholds for m in self.analysis.models])

    @property
    def roc_auc(self):
        return self._per_model("auc")


class PrecisionRecallDisplay(_Display):
    """The precision-recall view (:func:`roc_dash.plot_pr`) as a display, in scikit-learn's
    shape, at the deployment prior.

    Attributes
    ----------
    analysis : Analysis
    curves : dict of str to PrCurve
        Each model's precision and recall at every ROC vertex, under the prior
        (``prevalence_pos_label``): the vertices the drawn curves interpolate between.
    precision, recall, thresholds : ndarray or list of ndarray
        Those vertices in scikit-learn's order (recall decreasing: ``precision[-1] = 1``,
        ``recall[-1] = 0``, ``thresholds`` one shorter, increasing).
    average_precision : float or list of float
        Average precision at the prior (the legend's AP).
    prevalence_pos_label : float
        The prior p(+) the precisions are computed at (default: the data's prevalence).
    name, estimator_name, pos_label, figure_
        As for :class:`RocDisplay`.

    References
    ----------
    J. Davis and M. Goadrich, "The relationship between precision-recall and ROC curves",
    ICML 2006. T. Fawcett, "ROC Graphs: Notes and Practical Considerations for
    Researchers", 2004, section 3.2 (precision at any class distribution).
    """

    _VIEW = {"gain": False, "font_size": 14}

    def plot(self, *, gain: bool | None = None,
             font_size: int | None = None) -> PrecisionRecallDisplay:
        """Draw the PR view (``gain=True``: precision-recall-gain curves); see
        :func:`roc_dash.plot_pr`. Returns self."""
        given = {"gain": gain, "font_size": font_size}
        return super().plot(**{k: v for k, v in given.items() if v is not None})

    def _draw(self, *, gain, font_size):
        from ..figures.precision_recall import pr_figure

        return pr_figure(self.analysis, mode="prg" if gain else "pr", font_size=font_size)

    @property
    def prevalence_pos_label(self) -> float:
        return float(self.analysis.conditions.prior_pos)

    @property
    def curves(self) -> dict:
        from ..core.roc.precision_recall import precision_recall_curve

        pi = self.prevalence_pos_label
        return {m.name: precision_recall_curve(m.curve, prevalence=pi)
                for m in self.analysis.models}

    def _sklearn_order(self, field: str):
        out = []
        for pr in self.curves.values():
            values = getattr(pr, field)[::-1]
            out.append(values[:-1] if field == "thresholds" else values)
        return _one_or_list(out)

    @property
    def precision(self):
        return self._sklearn_order("precision")

    @property
    def recall(self):
        return self._sklearn_order("recall")

    @property
    def thresholds(self):
        return self._sklearn_order("thresholds")

    @property
    def average_precision(self):
        from ..core.roc.precision_recall import average_precision_from_curve

        pi = self.prevalence_pos_label
        return _one_or_list([average_precision_from_curve(m.curve, prevalence=pi)
                             for m in self.analysis.models])


class CostDisplay(_Display):
    """The cost-curve view (:func:`roc_dash.plot_cost`) as a display.

    Attributes
    ----------
    analysis : Analysis
    envelopes : dict of str to LowerEnvelope
        Each model's lower envelope of cost lines (the dual of its ROC convex hull).
    envelope : LowerEnvelope
        The lower envelope of all models (the best of them at each PC(+)).
    pc_pos, cost : ndarray or list of ndarray
        Each model's envelope: its breakpoints in probability cost PC(+) and the
        normalised expected cost there.
    area : float or list of float
        Area under each model's envelope (expected cost over a uniform PC(+)).
    pc_operating, cost_operating : float
        The PC(+) of the conditions (costs and prior) and the best normalised expected
        cost there (the figure's read-off).
    name, estimator_name, pos_label, figure_
        As for :class:`RocDisplay`.

    References
    ----------
    C. Drummond and R. C. Holte, "Cost curves: An improved method for visualizing
    classifier performance", Machine Learning 65(1), 2006. T. Fawcett, "ROC Graphs: Notes
    and Practical Considerations for Researchers", 2004, section 7.5.2.
    """

    _VIEW = {"font_size": 14}

    def plot(self, *, font_size: int | None = None) -> CostDisplay:
        """Draw the cost-curve view; see :func:`roc_dash.plot_cost`. Returns self."""
        return super().plot(**({} if font_size is None else {"font_size": font_size}))

    def _draw(self, *, font_size):
        from ..figures.cost import cost_figure

        return cost_figure(self.analysis, font_size=font_size)

    @property
    def envelopes(self) -> dict:
        from ..core.roc.cost_curves import lower_envelope

        return {m.name: lower_envelope(m.hull) for m in self.analysis.models}

    @property
    def envelope(self):
        from ..core.roc.cost_curves import lower_envelope

        return lower_envelope(self.analysis.hull)

    @property
    def pc_pos(self):
        return _one_or_list([e.pc_pos for e in self.envelopes.values()])

    @property
    def cost(self):
        return _one_or_list([e.cost for e in self.envelopes.values()])

    @property
    def area(self):
        return _one_or_list([e.area for e in self.envelopes.values()])

    @property
    def pc_operating(self) -> float:
        return float(self.analysis.conditions.pc_pos)

    @property
    def cost_operating(self) -> float:
        from ..core.roc.cost_curves import envelope_cost_at

        return float(envelope_cost_at(self.envelope, self.pc_operating))
