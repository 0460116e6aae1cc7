"""The constraints in a notebook: decisions under a capacity, floors on metrics, several
classes with a cost matrix, calibration with its uncertainty and PR bands, in one call each.

The predictions are read as :func:`roc_dash.predictions_table` reads them (the io's checks
and messages), analysed by :func:`~roc_dash.core.assembly.analysis.analyse`, and the
constraints computed by :func:`~roc_dash.core.constraints.assembly.analyse_constraints`; the
figures are the page's and the report's (:mod:`roc_dash.figures`).

Examples
--------
>>> import numpy as np, roc_dash
>>> rng = np.random.default_rng(0)
>>> y = rng.integers(0, 2, 500)
>>> s = y + rng.normal(size=500)
>>> [m] = roc_dash.constraints_of(y, s, floors=["precision>=0.8"], n_boot=50)
>>> m.floors.metrics["precision"] >= 0.8
True
>>> fig = roc_dash.plot_gains(y, s, capacity="10%")
"""

from __future__ import annotations

from ..core.constraints.cost_matrix import CostMatrixDecision, cost_matrix_decision

__all__ = ["constraints_of", "plot_gains", "plot_lift", "plot_floors",
           "plot_reliability_bands", "plot_pr_bands", "decide_classes"]


def constraints_of(y_true=None, y_score=None, *, data=None, model=None, fold=None,
                   sample_weight=None, pos_label=None, cost_fp: float = 1.0,
                   cost_fn: float = 1.0, prior: float | None = None, capacity=None,
                   volume: float | None = None, floors=(), confidence: float | None = None,
                   n_boot: int = 200, seed: int = 0, level: float = 0.95,
                   pr_bands: bool = False, calibration_bins: int = 10):
    """Every model's constraints views (:class:`~roc_dash.core.constraints.assembly.ModelConstraints`).

    Parameters
    ----------
    y_true, y_score, data, model, fold, sample_weight, pos_label
        The predictions, as for :func:`roc_dash.predictions_table`.
    cost_fp, cost_fn, prior, level
        The conditions (the prior defaults to the data's prevalence).
    capacity : float or str, optional
        Cases that can be reviewed per ``volume`` (800), a share ("3%") or "30/1000".
    volume : float, optional
        Cases per period (default the data's).
    floors : sequence of str
        E.g. ``["precision>=0.9", "fpr<=1%"]``.
    confidence : float, optional
        Choose the floors' threshold on exact one-sided bounds at this level.
    n_boot, seed
        Bootstrap replicates of how sure the floors are (0: none) and of the PR bands.
    pr_bands : bool
        Compute fold and bootstrap bands of the PR curve at the prior.
    calibration_bins : int
    """
    from ..core.analysis_types import Conditions
    from ..core.assembly.analysis import analyse
    from ..core.constraints.assembly import ConstraintSettings, analyse_constraints
    from ..core.constraints.capacity import parse_capacity
    from ..core.decisions.economics import Economics
    from . import predictions_table

    Economics(cost_fp=cost_fp, cost_fn=cost_fn)  # checks the costs, names a bad one
    if prior is not None and not 0 < prior < 1:
        raise ValueError(f"prior must lie strictly between 0 and 1, got {prior!r}")
    table = predictions_table(y_true, y_score, data=data, model=model, fold=fold,
                              sample_weight=sample_weight, pos_label=pos_label)
    analysis = analyse(table, Conditions(cost_fp=float(cost_fp), cost_fn=float(cost_fn),
                                         prior_pos=prior, level=float(level)))
    cases, fraction = (None, None) if capacity is None else parse_capacity(capacity)
    if isinstance(floors, str):
        floors = (floors,)
    settings = ConstraintSettings(capacity=cases, capacity_fraction=fraction, volume=volume,
                                  floors=tuple(floors), confidence=confidence,
                                  n_boot=int(n_boot), seed=int(seed),
                                  calibration_bins=int(calibration_bins),
                                  pr_bands=bool(pr_bands))
    return analyse_constraints(analysis, table, settings)


def plot_gains(y_true=None, y_score=None, *, lift: bool = False, font_size: int = 14,
               **kwargs):
    """Cumulative gains (the CAP curve) of each model, or its lift (``lift=True``), with the
    capacity's point when ``capacity=`` is given (keywords of :func:`constraints_of`)."""
    from ..figures.gains import gains_figure, lift_figure

    models = constraints_of(y_true, y_score, **{"n_boot": 0, **kwargs})
    cap = next((m.capacity for m in models if m.capacity is not None), None)
    build = lift_figure if lift else gains_figure
    return build({m.name: m.gains for m in models}, capacity=cap, font_size=font_size)


def plot_lift(y_true=None, y_score=None, **kwargs):
    """:func:`plot_gains` with ``lift=True``."""
    return plot_gains(y_true, y_score, lift=True, **kwargs)


def plot_floors(y_true=None, y_score=None, *, floors, space: str = "roc",
                font_size: int = 14, **kwargs):
    """The floors' feasible region and best points on the first model's ROC (``space=
    "roc"``) or PR curve at the prior (``"pr"``)."""
    from ..core.roc.curves import roc_curve
    from ..figures.floors import floor_figure
    from . import predictions_table

    models = constraints_of(y_true, y_score, floors=floors, **{"n_boot": 0, **kwargs})
    m = models[0]
    keep = {k: kwargs[k] for k in ("data", "model", "fold", "sample_weight", "pos_label")
            if k in kwargs}
    table = predictions_table(y_true, y_score, **keep)
    rows = table[table["model"].astype(str) == m.name]
    w = rows["weight"].to_numpy(dtype=float)
    curve = roc_curve(rows["label"].to_numpy(dtype=bool), rows["score"].to_numpy(dtype=float),
                      weights=None if (w == 1).all() else w)
    return floor_figure(m.floors, curve, name=m.name, space=space, font_size=font_size)


def plot_reliability_bands(y_true=None, y_score=None, *, font_size: int = 14, **kwargs):
    """The reliability diagram with bands per bin, the logistic recalibration line, and the
    slope, intercept and Spiegelhalter's test in the legend."""
    from ..figures.calibration_bands import reliability_band_figure

    models = constraints_of(y_true, y_score, **{"n_boot": 0, **kwargs})
    return reliability_band_figure({m.name: m.calibration for m in models},
                                   font_size=font_size)


def plot_pr_bands(y_true=None, y_score=None, *, method: str = "bootstrap",
                  font_size: int = 14, **kwargs):
    """The PR curve at the prior with its ``"bootstrap"`` or ``"folds"`` band."""
    from ..figures.pr_bands import pr_band_figure

    if method not in ("bootstrap", "folds"):
        raise ValueError(f"method must be 'bootstrap' or 'folds', got {method!r}")
    models = constraints_of(y_true, y_score, pr_bands=True, **kwargs)
    attr = "pr_bootstrap_band" if method == "bootstrap" else "pr_fold_band"
    bands = {m.name: getattr(m, attr) for m in models if getattr(m, attr) is not None}
    if not bands:
        raise ValueError("no band: fold bands need two or more folds (fold=), bootstrap "
                         "bands replicates (n_boot > 0)")
    return pr_band_figure(bands, font_size=font_size)


def decide_classes(probabilities, labels, cost_matrix, *, classes=None, prior=None,
                   sample_weight=None) -> CostMatrixDecision:
    """Decisions among several classes under a cost matrix
    (:func:`~roc_dash.core.constraints.cost_matrix.cost_matrix_decision`): the Bayes rule,
    the class weights of least expected cost on the data, one-vs-rest thresholds and the
    argmax, each with its confusion matrix and expected cost at the prior."""
    return cost_matrix_decision(probabilities, labels, cost_matrix, classes=classes,
                                prior=prior, sample_weight=sample_weight)
