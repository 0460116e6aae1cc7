"""Slices: one model's ROC analysis group by group (a region, a product, an age band).

A model that is best overall can be poor for one group of cases. This module repeats the
analysis of one model within each group of a categorical column:

* :func:`group_rocs` -- per group, the empirical ROC curve and its convex hull (Fawcett 2004,
  section 4 Algorithm 2 and section 7.1), the AUC with DeLong's
  interval (:func:`~roc_dash.core.inference.statistics.auc_confidence_interval`), the prevalence and a
  small-group flag. These depend on the data only, not on costs or prior.
* :func:`slice_optima` -- per group, the optimal operating point under the costs and the
  deployment prior (the hull vertex touched by the iso-performance line of the group's own
  slope, Fawcett 2004 section 7.1), its expected cost, and the gap between the best and the
  worst group.
* :func:`slice_analysis` -- both in one call.

How a deployment prior applies to groups (:func:`group_deployment`)
--------------------------------------------------------------------
Let ``P_g``, ``N_g`` be the (weighted) positives and negatives of group ``g`` in the data,
``P = sum P_g``, ``N = sum N_g``. Under one deployment prior ``p(+)`` the groups keep their
share of each class: group ``g`` holds the fraction ``P_g / P`` of the positives and
``N_g / N`` of the negatives. Its mass of positives and negatives per case of the whole
population is then ``pi+_g = p · P_g / P`` and ``pi-_g = (1 − p) · N_g / N``; its share of
the cases ``w_g = pi+_g + pi-_g`` and its own prior ``p_g = pi+_g / w_g``. With ``p`` the
data's prevalence these are the data's group shares and prevalences; another ``p``
multiplies every group's odds of being positive by the same factor. Alternatively a prior
per group may be given: the groups then keep their share of cases in the data
(``w_g = (P_g + N_g) / (P + N)``) and take the given priors (groups not named keep the prior
of the rule above).

Every expected cost is per case, ``p_g·(1 − TPR)·c(FN) + (1 − p_g)·FPR·c(FP)`` within a
group (:func:`~roc_dash.core.roc.hull.expected_cost`), and ``sum_g w_g · cost_g`` over all
groups (see :mod:`roc_dash.core.subgroups.group_thresholds`).

Groups whose rows hold a single class (or no weight) have no ROC curve: they are listed, with
their counts, but take no part in the optima, the gaps or the thresholds, and the default
prior is the prevalence of the other groups (``SliceAnalysis.prevalence_analysed``, not
``prevalence_all``); the page and the reports say so. Groups with fewer
than ``min_positives`` positives or ``min_negatives`` negatives are flagged ``small``, not
hidden: their curves and optima are estimated from few cases.

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, section 4; Algorithm 2; section 7.1.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from .._validation import check_binary_inputs
from ..inference.statistics import AucInterval, delong_variance_of_counts, wald_auc_interval
from ..roc import hull as rh
from ..roc.curves import RocCurve, auc, roc_curve_with_counts
from ..table_groups import rows_by_code

__all__ = [
    "MIN_POSITIVES", "MIN_NEGATIVES", "GroupRoc", "GroupOptimum", "GroupGap", "SliceAnalysis",
    "group_rocs", "group_deployment", "slice_optima", "slice_analysis",
]

#: Default minimum (weighted) numbers of positives and of negatives of a group below which
#: it is flagged ``small``.
MIN_POSITIVES = 30
MIN_NEGATIVES = 30


@dataclass(frozen=True, eq=False)
class GroupRoc:
    """One group's ROC analysis, independent of costs and prior.

    Attributes
    ----------
    name : str
        The group.
    rows : int
        Rows of the group.
    n_pos, n_neg : float
        Weighted positives ``P_g`` and negatives ``N_g``.
    prevalence : float
        ``P_g / (P_g + N_g)`` (NaN when the group has no weight).
    curve : RocCurve or None
        The group's empirical ROC curve (Fawcett 2004, Algorithm 2); None when the group
        holds a single class (the curve is undefined).
    hull : RocHull or None
        Its convex hull (Fawcett 2004, section 7.1): the feasible operating points of the
        group are the points on and under it (interpolation, section 7.4.1).
    auc : float
        Area under ``curve`` (NaN without a curve).
    auc_interval : AucInterval or None
        DeLong's interval for the AUC (DeLong et al. 1988), None without a curve or when a
        class has a weighted total of at most 1 (the variance is undefined).
    small : bool
        True when ``n_pos < min_positives`` or ``n_neg < min_negatives``: flagged, not
        hidden.
    """

    name: str
    rows: int
    n_pos: float
    n_neg: float
    prevalence: float
    curve: RocCurve | None
    hull: rh.RocHull | None
    auc: float
    auc_interval: AucInterval | None
    small: bool

    @property
    def defined(self) -> bool:
        """True when the group has a ROC curve (both classes present)."""
        return self.curve is not None


@dataclass(frozen=True)
class GroupOptimum:
    """One group's optimal operating point under the costs and its deployment prior.

    Attributes
    ----------
    name : str
        The group.
    share : float
        ``w_g``, the group's share of the deployed cases (see the module docstring).
    prior_pos : float
        ``p_g``, the group's deployment prior.
    slope : float
        Its iso-performance slope ``c(FP)·(1 − p_g) / (c(FN)·p_g)``.
    optimum : HullOptimum
        The hull vertex the iso line touches (Fawcett 2004, section 7.1; ties resolved to
        the conservative end, :func:`~roc_dash.core.roc.hull.optimal_point`).
    expected_cost : float
        Expected cost per case of the group at the optimum.
    normalized_expected_cost : float
        The same divided by ``p_g·c(FN) + (1 − p_g)·c(FP)`` (Drummond & Holte's normalised
        cost; 1 is the cost of the better trivial classifier's worst case).
    """

    name: str
    share: float
    prior_pos: float
    slope: float
    optimum: rh.HullOptimum
    expected_cost: float
    normalized_expected_cost: float


@dataclass(frozen=True)
class GroupGap:
    """The best and the worst group by one measure, and how far apart they are.

    ``gap`` is ``|best_value − worst_value|`` (best: the highest AUC, the lowest cost).
    """

    measure: str
    best: str
    worst: str
    best_value: float
    worst_value: float
    gap: float


@dataclass(frozen=True, eq=False)
class SliceAnalysis:
    """One model, group by group, under given costs and prior.

    Attributes
    ----------
    rocs : tuple of GroupRoc
        Every group, in the order of :func:`group_rocs`.
    optima : tuple of GroupOptimum
        The groups with a ROC curve, in the same order.
    excluded : tuple of str
        Groups without a ROC curve (a single class): not in ``optima``, the gaps or the
        totals.
    cost_fp, cost_fn : float
        The costs of a false positive and a false negative.
    prior_pos : float
        The deployment prior ``p(+)`` (the data's prevalence over the groups of ``optima``
        when none was given).
    group_priors : dict of str to float
        The priors given per group (empty when none).
    expected_cost : float
        ``sum_g w_g · cost_g`` over ``optima``: the expected cost per case when every group
        uses its own optimum (the unconstrained optimum of
        :mod:`~roc_dash.core.subgroups.group_thresholds`).
    auc_gap, cost_gap : GroupGap or None
        Best and worst group by AUC and by expected cost per case at the group's optimum
        (None with fewer than two groups in ``optima``). Small groups take part (they are
        flagged in ``rocs``).
    prior_given : bool
        True when ``prior_pos`` was given; False when it is the prevalence of the groups
        of ``optima`` (which differs from all the groups' when some are ``excluded``:
        :attr:`prevalence_all`).
    """

    rocs: tuple[GroupRoc, ...]
    optima: tuple[GroupOptimum, ...]
    excluded: tuple[str, ...]
    cost_fp: float
    cost_fn: float
    prior_pos: float
    group_priors: dict[str, float]
    expected_cost: float
    auc_gap: GroupGap | None
    cost_gap: GroupGap | None
    prior_given: bool = False

    @property
    def prevalence_all(self) -> float:
        """The (weighted) prevalence of every group, the excluded ones included (NaN
        without weight)."""
        return _prevalence(self.rocs)

    @property
    def prevalence_analysed(self) -> float:
        """The prevalence of the groups of ``optima`` (the default ``prior_pos``)."""
        return _prevalence([r for r in self.rocs if r.defined])

    def roc(self, name: str) -> GroupRoc:
        """The :class:`GroupRoc` of group ``name``."""
        return _named(self.rocs, name)

    def optimum(self, name: str) -> GroupOptimum:
        """The :class:`GroupOptimum` of group ``name`` (KeyError for an excluded group)."""
        return _named(self.optima, name)


def _prevalence(rocs) -> float:
    pos = sum(r.n_pos for r in rocs)
    total = pos + sum(r.n_neg for r in rocs)
    return pos / total if total > 0 else math.nan


def _named(items, name: str):
    for item in items:
        if item.name == name:
            return item
    raise KeyError(f"no group named {name!r}; groups: {[i.name for i in items]}")


def _group_codes(groups, n: int) -> tuple[list[str], np.ndarray]:
    """Group names (sorted) and each row's code; missing values refused. Categorical groups
    (a pandas ``Categorical`` or categorical ``Series``) are coded from their categories:
    the rows' text is never hashed."""
    if isinstance(groups, pd.Categorical) or (isinstance(groups, pd.Series) and isinstance(
            groups.dtype, pd.CategoricalDtype)):
        return _categorical_codes(pd.Categorical(groups), n)
    values = pd.Series(np.asarray(groups, dtype=object) if not isinstance(groups, pd.Series)
                       else groups.to_numpy(dtype=object))
    _check_groups(values.size, n, values.isna().to_numpy())
    codes, names = pd.factorize(values.astype(str), sort=True)
    return [str(v) for v in names], codes.astype(np.int64)


def _check_groups(size: int, n: int, missing: np.ndarray) -> None:
    if size != n:
        raise ValueError(f"groups ({size}) and labels ({n}) differ in length")
    if missing.any():
        raise ValueError(f"groups has {int(missing.sum()):,} missing values (first at row "
                         f"{int(np.flatnonzero(missing)[0])}); give them a group name, e.g. "
                         "'(missing)'")


def _categorical_codes(groups: pd.Categorical, n: int) -> tuple[list[str], np.ndarray]:
    """:func:`_group_codes` of categories: the categories with rows, as text (categories
    equal as text are one group), sorted; each row's code through a table of categories."""
    codes = np.asarray(groups.codes, dtype=np.int64)
    _check_groups(codes.size, n, codes < 0)
    used = np.bincount(codes, minlength=len(groups.categories)) > 0
    text = np.asarray(groups.categories, dtype=object)[used].astype(str)
    new, names = pd.factorize(pd.Series(text, dtype=object), sort=True)
    table = np.full(used.size, -1, dtype=np.int64)
    table[used] = new
    return [str(v) for v in names], table[codes]


def _check_minimum(value, what: str) -> float:
    v = float(value)
    if not (math.isfinite(v) and v >= 0):
        raise ValueError(f"{what} must be a non-negative number, got {value!r}")
    return v


def group_rocs(labels, scores, groups, *, weights=None, pos_label=None, level: float = 0.95,
               min_positives: float = MIN_POSITIVES,
               min_negatives: float = MIN_NEGATIVES, row_counts=None) -> tuple[GroupRoc, ...]:
    """Each group's ROC curve, hull, AUC with DeLong interval, prevalence and size flag.

    The rows are sorted by group once; each group's curve is
    :func:`~roc_dash.core.roc.curves.roc_curve` of its rows (Fawcett 2004, section 4, Algorithm
    2), its hull :func:`~roc_dash.core.roc.hull.convex_hull` (section 7.1) and its interval
    :func:`~roc_dash.core.inference.statistics.auc_confidence_interval` (DeLong, DeLong &
    Clarke-Pearson 1988), the last from the class counts of the curve's runs of equal scores
    (:func:`~roc_dash.core.inference.statistics.delong_variance_of_counts`): one sort of each group's
    scores serves both.

    Parameters
    ----------
    labels, scores : array-like, shape (n,)
        One model's labels and scores, as for :func:`~roc_dash.core.roc.curves.roc_curve`.
    groups : array-like, shape (n,)
        Each row's group (any values, compared as text; no missing values). A pandas
        ``Categorical`` (or categorical ``Series``) is coded from its categories, fastest.
    weights : array-like of float, shape (n,), optional
        Non-negative frequency weights.
    pos_label : scalar, optional
        The positive label, when the labels are not a known encoding.
    level : float, default 0.95
        Coverage of the AUC intervals.
    min_positives, min_negatives : float, default 30
        A group with fewer weighted positives or negatives is flagged ``small``.
    row_counts : array-like of int, shape (n,), optional
        The input rows each row stands for, when the rows are aggregated counts (a query
        engine's ``rows`` column): each group's ``rows`` is their sum (default: 1 each).

    Returns
    -------
    tuple of GroupRoc
        One per group, sorted by name.

    Raises
    ------
    ValueError
        On malformed input (see :func:`~roc_dash.core._validation.check_binary_inputs`),
        groups of another length or with missing values, or a negative minimum.
    """
    y, s, w = check_binary_inputs(labels, scores, weights, pos_label=pos_label,
                                  integers="keep")
    min_pos = _check_minimum(min_positives, "min_positives")
    min_neg = _check_minimum(min_negatives, "min_negatives")
    names, codes = _group_codes(groups, y.size)
    counts = None if row_counts is None else np.asarray(row_counts, dtype=np.int64)
    if counts is not None and counts.shape != y.shape:
        raise ValueError(f"row_counts ({counts.size}) and labels ({y.size}) differ in length")
    out = []
    for name, rows in zip(names, rows_by_code(codes, len(names)), strict=True):
        group = _one_group(name, y[rows], s[rows], None if w is None else w[rows],
                           level, min_pos, min_neg)
        if counts is not None:
            group = replace(group, rows=int(counts[rows].sum()))
        out.append(group)
    return tuple(out)


def _one_group(name: str, y: np.ndarray, s: np.ndarray, w: np.ndarray | None, level: float,
               min_pos: float, min_neg: float) -> GroupRoc:
    n_pos = float(y.sum() if w is None else w[y].sum())
    n_neg = float((~y).sum() if w is None else w[~y].sum())
    total = n_pos + n_neg
    curve = hull = interval = None
    area = math.nan
    if n_pos > 0 and n_neg > 0:
        # one sort: the runs of equal scores give the curve and DeLong's interval
        curve, pos, neg = roc_curve_with_counts(y, s, weights=w)
        hull = rh.convex_hull(curve)
        area = auc(curve)
        if n_pos > 1 and n_neg > 1:
            d = delong_variance_of_counts(pos, neg)
            interval = wald_auc_interval(d.auc, d.std_error, level=level)
    return GroupRoc(name=name, rows=int(y.size), n_pos=n_pos, n_neg=n_neg,
                    prevalence=n_pos / total if total > 0 else math.nan, curve=curve,
                    hull=hull, auc=area, auc_interval=interval,
                    small=bool(n_pos < min_pos or n_neg < min_neg))


def group_deployment(n_pos, n_neg, *, prior_pos: float | None = None,
                     group_priors=None) -> tuple[np.ndarray, np.ndarray]:
    """Each group's share of the deployed cases ``w_g`` and deployment prior ``p_g``.

    See the module docstring: under one prior ``p`` the groups keep their share of each
    class (``pi+_g = p·P_g/P``, ``pi-_g = (1 − p)·N_g/N``, ``w_g = pi+_g + pi-_g``,
    ``p_g = pi+_g / w_g``); with ``group_priors`` they keep their share of the cases in the
    data and take the given priors where finite.

    Parameters
    ----------
    n_pos, n_neg : array-like of float
        ``P_g`` and ``N_g``, each group with both classes (positive totals).
    prior_pos : float, optional
        The deployment prior ``p(+)``, strictly between 0 and 1 (default: ``P / (P + N)``).
    group_priors : array-like of float, optional
        A prior per group, strictly between 0 and 1, or NaN for "not given".

    Returns
    -------
    share, prior : ndarray of float64
        ``w_g`` (summing to 1) and ``p_g``.
    """
    pos = np.asarray(n_pos, dtype=np.float64)
    neg = np.asarray(n_neg, dtype=np.float64)
    if pos.shape != neg.shape or pos.ndim != 1:
        raise ValueError("n_pos and n_neg must be one-dimensional and of one length")
    if not (np.isfinite(pos).all() and np.isfinite(neg).all() and (pos > 0).all()
            and (neg > 0).all()):
        raise ValueError("every group needs positive, finite totals of both classes")
    total_pos, total_neg = float(pos.sum()), float(neg.sum())
    p = total_pos / (total_pos + total_neg) if prior_pos is None else float(prior_pos)
    if not 0.0 < p < 1.0:
        raise ValueError(f"the prior p(+) must lie strictly between 0 and 1, got {prior_pos!r}")
    mass_pos = p * pos / total_pos
    mass_neg = (1.0 - p) * neg / total_neg
    share = mass_pos + mass_neg
    prior = mass_pos / share
    if group_priors is not None:
        given = np.asarray(group_priors, dtype=np.float64)
        if given.shape != pos.shape:
            raise ValueError("group_priors must give one value (or NaN) per group")
        chosen = np.isfinite(given)
        if ((given[chosen] <= 0) | (given[chosen] >= 1)).any():
            raise ValueError("every group prior must lie strictly between 0 and 1")
        share = (pos + neg) / (total_pos + total_neg)
        prior = np.where(chosen, given, prior)
    return share, prior


def _priors_array(names: list[str], group_priors: Mapping[str, float] | None):
    if not group_priors:
        return None, {}
    unknown = [g for g in group_priors if g not in names]
    if unknown:
        raise ValueError(f"group_priors names groups that are not analysed: {unknown}; "
                         f"groups: {names}")
    given = {str(g): float(v) for g, v in group_priors.items()}
    return np.array([given.get(n, math.nan) for n in names]), given


def slice_optima(rocs: tuple[GroupRoc, ...], *, cost_fp: float = 1.0, cost_fn: float = 1.0,
                 prior_pos: float | None = None,
                 group_priors: Mapping[str, float] | None = None) -> SliceAnalysis:
    """Each group's optimal operating point under the costs and its deployment prior.

    Group ``g``'s optimum is where the most north-west iso-performance line of slope
    ``m_g = c(FP)·(1 − p_g) / (c(FN)·p_g)`` touches its hull (Fawcett 2004, section 7.1;
    Flach et al. section 3), ``p_g`` its deployment prior (:func:`group_deployment`).

    Parameters
    ----------
    rocs : tuple of GroupRoc
        From :func:`group_rocs`.
    cost_fp, cost_fn : float, default 1.0
        Costs of a false positive and a false negative (positive; with benefits, the net
        costs of :func:`~roc_dash.core.decisions.economics.net_costs`).
    prior_pos : float, optional
        Deployment prior ``p(+)``; default the data's prevalence over the groups with a
        ROC curve.
    group_priors : mapping of str to float, optional
        A deployment prior for some or all groups (see the module docstring).

    Returns
    -------
    SliceAnalysis

    Raises
    ------
    ValueError
        If no group has both classes, on costs that are not positive and finite, a prior
        outside (0, 1), or a group prior for a group not analysed.
    """
    defined = [r for r in rocs if r.defined]
    if not defined:
        raise ValueError("no group has both positive and negative cases, so no group has a "
                         "ROC curve; choose another group column or pool the groups")
    rh.iso_performance_slope(cost_fp, cost_fn, 0.5)  # checks the costs
    names = [r.name for r in defined]
    priors, given = _priors_array(names, group_priors)
    share, prior = group_deployment([r.n_pos for r in defined], [r.n_neg for r in defined],
                                    prior_pos=prior_pos, group_priors=priors)
    optima = []
    for r, w_g, p_g in zip(defined, share.tolist(), prior.tolist(), strict=True):
        slope = rh.iso_performance_slope(cost_fp, cost_fn, p_g)
        opt = rh.optimal_point(r.hull, slope)
        optima.append(GroupOptimum(
            name=r.name, share=w_g, prior_pos=p_g, slope=slope, optimum=opt,
            expected_cost=rh.expected_cost(opt.fpr, opt.tpr, cost_fp=cost_fp, cost_fn=cost_fn,
                                           prior_pos=p_g),
            normalized_expected_cost=rh.normalized_expected_cost(
                opt.fpr, opt.tpr, cost_fp=cost_fp, cost_fn=cost_fn, prior_pos=p_g)))
    resolved = _prevalence(defined) if prior_pos is None else float(prior_pos)
    return SliceAnalysis(
        rocs=tuple(rocs), optima=tuple(optima),
        excluded=tuple(r.name for r in rocs if not r.defined),
        cost_fp=float(cost_fp), cost_fn=float(cost_fn), prior_pos=resolved,
        group_priors=given,
        expected_cost=float(sum(o.share * o.expected_cost for o in optima)),
        auc_gap=_gap("auc", names, [r.auc for r in defined], higher_is_better=True),
        cost_gap=_gap("expected_cost", names, [o.expected_cost for o in optima],
                      higher_is_better=False),
        prior_given=prior_pos is not None)


def _gap(measure: str, names: list[str], values: list[float], *,
         higher_is_better: bool) -> GroupGap | None:
    if len(names) < 2:
        return None
    v = np.asarray(values, dtype=np.float64)
    best = int(np.argmax(v) if higher_is_better else np.argmin(v))
    worst = int(np.argmin(v) if higher_is_better else np.argmax(v))
    return GroupGap(measure=measure, best=names[best], worst=names[worst],
                    best_value=float(v[best]), worst_value=float(v[worst]),
                    gap=float(abs(v[best] - v[worst])))


def slice_analysis(labels, scores, groups, *, weights=None, pos_label=None,
                   cost_fp: float = 1.0, cost_fn: float = 1.0, prior_pos: float | None = None,
                   group_priors: Mapping[str, float] | None = None, level: float = 0.95,
                   min_positives: float = MIN_POSITIVES,
                   min_negatives: float = MIN_NEGATIVES, row_counts=None) -> SliceAnalysis:
    """:func:`group_rocs` then :func:`slice_optima`: one model analysed group by group.

    See those two functions for the parameters. A caller that changes only the costs or
    the priors can keep the result of :func:`group_rocs` and call :func:`slice_optima`
    again.
    """
    rocs = group_rocs(labels, scores, groups, weights=weights, pos_label=pos_label,
                      level=level, min_positives=min_positives, min_negatives=min_negatives,
                      row_counts=row_counts)
    return slice_optima(rocs, cost_fp=cost_fp, cost_fn=cost_fn, prior_pos=prior_pos,
                        group_priors=group_priors)
