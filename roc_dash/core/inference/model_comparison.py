"""Comparing k models scored on the same rows.

* Every pair's AUC difference, tested by DeLong's paired test (DeLong et al. 1988;
  :func:`~roc_dash.core.inference.statistics.delong_paired_test`), or, for the partial AUC, by a paired
  stratified bootstrap of the difference (the ``method = "bootstrap"`` test of pROC's
  ``roc.test``, Robin et al. 2011); the raw p-values adjusted for the ``k(k−1)/2`` tests by
  Holm's (1979) step-down method (family-wise error) and by Benjamini & Hochberg's (1995)
  step-up method (false discovery rate) (:func:`compare_models`,
  :func:`pairwise_from_tests`, :func:`holm_adjust`, :func:`benjamini_hochberg_adjust`).
* For each model, the operating conditions under which it is the best choice: the slopes of
  the iso-performance lines at which one of its vertices is on the joint ROC convex hull of
  all models (Fawcett 2004, section 7.1; Provost & Fawcett 2001,
  the ROCCH method), as slopes and as cost ratios at a prior, or "never optimal under any
  costs or prior" (:func:`optimal_ranges`).

References
----------
E. R. DeLong, D. M. DeLong, D. L. Clarke-Pearson, Biometrics 44(3):837-845, 1988.

X. Robin et al., "pROC: an open-source package for R and S+ to analyze and compare ROC
curves", BMC Bioinformatics 12:77, 2011.

S. Holm, "A simple sequentially rejective multiple test procedure", Scandinavian Journal of
Statistics 6(2):65-70, 1979.

Y. Benjamini, Y. Hochberg, "Controlling the false discovery rate: a practical and powerful
approach to multiple testing", Journal of the Royal Statistical Society B 57(1):289-300, 1995.

F. Provost, T. Fawcett, "Robust classification for imprecise environments", Machine Learning
42(3):203-231, 2001.

T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, section 7.1 (The ROC convex hull).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from .._validation import check_binary_inputs
from ..roc.curves import roc_curve
from ..roc.hull import RocHull, hull_of_curves, model_slope_ranges, vertex_models
from . import statistics as stats

__all__ = [
    "BOOTSTRAP", "DELONG", "NEVER_OPTIMAL", "OptimalRange", "OptimalRanges", "PairwiseComparison",
    "benjamini_hochberg_adjust", "compare_models", "holm_adjust", "optimal_ranges",
    "pairwise_from_tests",
]

#: The methods of :attr:`PairwiseComparison.method`.
DELONG = "delong"
BOOTSTRAP = "paired stratified bootstrap"
#: What is said of a model with no vertex on the joint hull.
NEVER_OPTIMAL = "never optimal under any costs or prior"
#: Most bootstrap replicates :func:`compare_models` accepts.
MAX_BOOT = 100_000


# --------------------------------------------------------------------------------------------
# Multiplicity
# --------------------------------------------------------------------------------------------


def _finite_p(p_values) -> tuple[np.ndarray, np.ndarray]:
    p = np.asarray(p_values, dtype=np.float64)
    ok = np.isfinite(p)
    if ((p[ok] < 0.0) | (p[ok] > 1.0)).any():
        raise ValueError("p-values must lie in [0, 1]")
    return p, ok


def _adjusted(p_values, step) -> np.ndarray:
    """The finite p-values adjusted by ``step`` (their ascending values -> the adjusted
    ones, in the same order), capped at 1; NaN entries stay NaN. The two procedures below
    differ only in their ``step``."""
    p, ok = _finite_p(p_values)
    out = np.full(p.shape, np.nan)
    q = p[ok]
    order = np.argsort(q, kind="stable")
    adjusted = np.empty(q.size)
    adjusted[order] = np.minimum(step(q[order]), 1.0)
    out[ok] = adjusted
    return out


def holm_adjust(p_values) -> np.ndarray:
    """Holm's (1979) step-down adjusted p-values (family-wise error rate).

    With the ``m`` finite p-values sorted, ``p_(1) <= ... <= p_(m)``, the adjusted value of
    ``p_(i)`` is ``min(1, max_{j <= i} (m − j + 1)·p_(j))``; rejecting where it is ``<= α``
    is Holm's procedure at level ``α``. NaN entries (untested pairs) stay NaN and are not
    counted in ``m``. Same shape as the input.
    """
    return _adjusted(p_values,
                     lambda s: np.maximum.accumulate((s.size - np.arange(s.size)) * s))


def benjamini_hochberg_adjust(p_values) -> np.ndarray:
    """Benjamini & Hochberg's (1995) step-up adjusted p-values (false discovery rate).

    With the ``m`` finite p-values sorted, the adjusted value of ``p_(i)`` is
    ``min(1, min_{j >= i} m·p_(j) / j)``; rejecting where it is ``<= q`` controls the false
    discovery rate at ``q`` for independent (or positively dependent) tests. NaN entries stay
    NaN and are not counted in ``m``. Same shape as the input.
    """
    return _adjusted(p_values, lambda s: np.minimum.accumulate(
        (s * s.size / np.arange(1, s.size + 1))[::-1])[::-1])


# --------------------------------------------------------------------------------------------
# Pairwise tests
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class PairwiseComparison:
    """Every pair of k models compared, with adjusted p-values.

    Matrix entry ``[i, j]`` compares model ``i`` (row) with model ``j`` (column):
    ``difference[i, j] = estimate[i] − estimate[j]`` (antisymmetric, as is ``z``);
    ``std_error`` and the p-values are symmetric. The diagonal, and pairs that were not
    tested (not scored on the same rows), are NaN.

    Attributes
    ----------
    models : tuple of str
    estimate : ndarray, shape (k,)
        Each model's AUC, or McClish-standardised partial AUC (``measure``); NaN for a model
        in no tested pair.
    difference, std_error, z, p_value : ndarray, shape (k, k)
        The difference, its standard error, ``z = difference / std_error`` and the raw
        two-sided normal p-value.
    p_holm, p_bh : ndarray, shape (k, k)
        ``p_value`` adjusted over the tested pairs by :func:`holm_adjust` and
        :func:`benjamini_hochberg_adjust`.
    method : str
        :data:`DELONG` or :data:`BOOTSTRAP`.
    measure : str
        ``"auc"`` or ``"partial_auc_mcclish"``.
    max_fpr : float or None
        The partial AUC's FPR bound (None for the full AUC).
    n_boot, seed : int or None
        The bootstrap's replicates and seed (None for DeLong).
    """

    models: tuple[str, ...]
    estimate: np.ndarray
    difference: np.ndarray
    std_error: np.ndarray
    z: np.ndarray
    p_value: np.ndarray
    p_holm: np.ndarray
    p_bh: np.ndarray
    method: str
    measure: str = "auc"
    max_fpr: float | None = None
    n_boot: int | None = None
    seed: int | None = None

    @property
    def n_tests(self) -> int:
        """Number of pairs tested (the size of the multiplicity family)."""
        upper = np.triu_indices(len(self.models), 1)
        return int(np.count_nonzero(np.isfinite(self.p_value[upper])))

    @property
    def untested(self) -> list[tuple[str, str]]:
        """The pairs ``(a, b)`` (``a`` before ``b``) that were not tested."""
        k = len(self.models)
        return [(self.models[i], self.models[j]) for i, j in itertools.combinations(range(k), 2)
                if not np.isfinite(self.p_value[i, j])]


def pairwise_from_tests(models, tests: Mapping[tuple[str, str], stats.PairedAucTest], *,
                        method: str = DELONG, measure: str = "auc",
                        max_fpr: float | None = None, n_boot: int | None = None,
                        seed: int | None = None) -> PairwiseComparison:
    """The comparison matrices of k models from their pairwise tests.

    Parameters
    ----------
    models : sequence of str
        The k models, in the order of the matrices' rows and columns.
    tests : mapping of (str, str) to PairedAucTest
        ``tests[a, b]`` tests model ``a`` against model ``b`` (``auc_a`` is ``a``'s); pairs
        absent in either order were not tested (NaN). Every tested pair is one test of the
        family the p-values are adjusted over.
    method, measure, max_fpr, n_boot, seed
        Recorded as they are (see :class:`PairwiseComparison`).

    Returns
    -------
    PairwiseComparison
    """
    names = tuple(str(m) for m in models)
    index = {n: i for i, n in enumerate(names)}
    if len(index) != len(names):
        raise ValueError(f"model names repeat: {list(names)}")
    k = len(names)
    estimate = np.full(k, np.nan)
    diff, se, z, p = (np.full((k, k), np.nan) for _ in range(4))
    for (a, b), t in tests.items():
        if a not in index or b not in index or a == b:
            raise ValueError(f"test of {a!r} against {b!r}: not two of the models {list(names)}")
        i, j = index[a], index[b]
        estimate[i], estimate[j] = t.auc_a, t.auc_b
        diff[i, j], diff[j, i] = t.auc_difference, -t.auc_difference
        z[i, j], z[j, i] = t.z, -t.z
        se[i, j] = se[j, i] = t.std_error
        p[i, j] = p[j, i] = t.p_value
    upper = np.triu_indices(k, 1)
    holm, bh = np.full((k, k), np.nan), np.full((k, k), np.nan)
    holm[upper], bh[upper] = holm_adjust(p[upper]), benjamini_hochberg_adjust(p[upper])
    holm.T[upper], bh.T[upper] = holm[upper], bh[upper]
    return PairwiseComparison(models=names, estimate=estimate, difference=diff, std_error=se,
                              z=z, p_value=p, p_holm=holm, p_bh=bh, method=method,
                              measure=measure, max_fpr=max_fpr, n_boot=n_boot, seed=seed)


def _check_scores(labels, scores: Mapping[str, object], weights, pos_label):
    if not isinstance(scores, Mapping):
        raise ValueError("scores must map model names to their scores (a dict), got "
                         f"{type(scores).__name__}")
    if len(scores) < 2:
        raise ValueError(f"scores must map at least two model names to their scores, got "
                         f"{len(scores)}")
    y = w = None
    out = {}
    for name, s in scores.items():
        try:
            if y is None:
                y, out[str(name)], w = check_binary_inputs(labels, s, weights,
                                                           pos_label=pos_label)
            else:
                _, out[str(name)], _ = check_binary_inputs(y, s, w)
        except ValueError as exc:
            raise ValueError(f"model {name!r}: {exc}") from exc
    return y, out, w


def _stratified_counts(y: np.ndarray, w: np.ndarray | None, rng) -> np.ndarray:
    """One stratified bootstrap replicate as a count (frequency weight) per row.

    Each class is resampled on its own, so both are always present: as many draws as the
    class's (rounded) total weight, each row drawn with probability proportional to its
    weight. Unweighted rows: ``P`` draws among the positives and ``N`` among the negatives,
    the ordinary stratified bootstrap.
    """
    counts = np.zeros(y.size)
    for rows in (np.flatnonzero(y), np.flatnonzero(~y)):
        weight = np.ones(rows.size) if w is None else w[rows]
        total = float(weight.sum())
        counts[rows] = rng.multinomial(int(round(total)), weight / total)
    return counts


def _bootstrap_tests(y, scores: dict[str, np.ndarray], w, max_fpr: float, n_boot: int,
                     seed: int) -> dict[tuple[str, str], stats.PairedAucTest]:
    """Paired stratified bootstrap of every pair's partial-AUC difference (pROC's
    ``roc.test(method = "bootstrap")``): the same resampled rows for every model in each
    replicate; ``SE`` is the standard deviation of the replicated differences and
    ``z = (pAUC_a − pAUC_b) / SE``."""
    names = list(scores)

    def paucs(keep, weight):
        return [stats.partial_auc_from_curve(roc_curve(y[keep], scores[n][keep], weights=weight),
                                             max_fpr).mcclish for n in names]

    full = np.array(paucs(slice(None), w))
    rng = np.random.default_rng(seed)
    boot = np.empty((n_boot, len(names)))
    for b in range(n_boot):
        counts = _stratified_counts(y, w, rng)
        keep = counts > 0
        boot[b] = paucs(keep, counts[keep])
    tests = {}
    for i, j in itertools.combinations(range(len(names)), 2):
        d = boot[:, i] - boot[:, j]
        se = float(np.std(d, ddof=1))
        diff = float(full[i] - full[j])
        z, p = stats.two_sided_normal_test(diff, 0.0, se)
        sa, sb = float(np.std(boot[:, i])), float(np.std(boot[:, j]))
        corr = (float(np.corrcoef(boot[:, i], boot[:, j])[0, 1]) if sa > 0 and sb > 0
                else math.nan)
        tests[names[i], names[j]] = stats.PairedAucTest(
            auc_a=float(full[i]), auc_b=float(full[j]), auc_difference=diff, std_error=se,
            z=z, p_value=p, correlation=corr)
    return tests


def compare_models(labels, scores: Mapping[str, object], *, weights=None,
                   max_fpr: float | None = None, n_boot: int = 2000, seed: int = 0,
                   pos_label=None) -> PairwiseComparison:
    """Test every pair of k models scored on the same rows, with adjusted p-values.

    Without ``max_fpr``: DeLong's paired test of the AUC difference for each pair
    (:func:`~roc_dash.core.inference.statistics.delong_paired_test`). With ``max_fpr``: the
    McClish-standardised partial AUC over ``FPR <= max_fpr``
    (:func:`~roc_dash.core.inference.statistics.partial_auc_from_curve`), whose difference has no
    DeLong variance here, is tested by a paired stratified bootstrap: each replicate
    resamples the positives and the negatives separately, with the same rows for every
    model, and ``SE`` is the standard deviation of the ``n_boot`` replicated differences
    (pROC's ``roc.test(method = "bootstrap")``, Robin et al. 2011). Either way
    ``z = difference / SE`` with a two-sided normal p-value, adjusted over the
    ``k(k−1)/2`` pairs by Holm and by Benjamini-Hochberg (:func:`pairwise_from_tests`).

    Parameters
    ----------
    labels : array-like, shape (n,)
        True class of each row, shared by all models (see
        :func:`~roc_dash.core.roc.curves.roc_curve`).
    scores : mapping of str to array-like, shape (n,)
        Each model's scores for the same rows in the same order (paired); at least two.
    weights : array-like, shape (n,), optional
        Frequency weights of the rows; the bootstrap draws each class's rounded total weight
        of instances, rows in proportion to their weight.
    max_fpr : float in (0, 1], optional
        Compare partial AUCs over ``FPR <= max_fpr`` by the bootstrap.
    n_boot : int, default 2000
        Bootstrap replicates (partial AUC only), 2 to :data:`MAX_BOOT`.
    seed : int, default 0
        Seed of the bootstrap's generator (results are reproducible).
    pos_label : scalar, optional
        The label value of the positive class.

    Returns
    -------
    PairwiseComparison

    Raises
    ------
    ValueError
        Fewer than two models, scores of another length than the labels (the model is
        named), a class with (weighted) total ``<= 1`` (DeLong), or a bad ``max_fpr`` or
        ``n_boot``.
    """
    y, s, w = _check_scores(labels, scores, weights, pos_label)
    names = list(s)
    if max_fpr is None:
        tests = {(a, b): stats.delong_paired_test(y, s[a], s[b], weights=w)
                 for a, b in itertools.combinations(names, 2)}
        return pairwise_from_tests(names, tests, method=DELONG)
    a = float(max_fpr)
    if not 0.0 < a <= 1.0:
        raise ValueError(f"max_fpr must be in (0, 1], got {max_fpr!r}")
    if isinstance(n_boot, bool) or not isinstance(n_boot, int | np.integer) or not (
            2 <= n_boot <= MAX_BOOT):
        raise ValueError(f"n_boot must be an integer from 2 to {MAX_BOOT}, got {n_boot!r}")
    totals = [float(np.count_nonzero(c)) if w is None else float(w[c].sum())
              for c in (y, ~y)]
    if min(totals) < 1.5:
        raise ValueError("the bootstrap needs a total weight of at least 2 in each class")
    tests = _bootstrap_tests(y, s, w, a, int(n_boot), int(seed))
    return pairwise_from_tests(names, tests, method=BOOTSTRAP, measure="partial_auc_mcclish",
                               max_fpr=a, n_boot=int(n_boot), seed=int(seed))


# --------------------------------------------------------------------------------------------
# Under which conditions each model is the best choice
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class OptimalRange:
    """The operating conditions under which one model is on the joint hull.

    The model is the optimal choice (one of its thresholds, or a mix of two of them, is the
    min-cost classifier among all models' thresholds) for every iso-performance slope
    ``m = c(FP)·p(−) / (c(FN)·p(+))`` in one of the closed intervals
    ``[slope_low[i], slope_high[i]]`` (ascending, disjoint; at an end it ties with the
    neighbouring vertex). The slope form holds whatever the prior: it is the one number
    that costs and class mix fix together. At the prior ``prior_pos`` it is the cost
    ratio ``c(FP)/c(FN) = m·p/(1 − p)`` in ``[cost_ratio_low[i], cost_ratio_high[i]]``.
    With benefits of right decisions the costs are the net costs (Fawcett 2004, section 7.1).
    No interval: :data:`NEVER_OPTIMAL`.

    Attributes
    ----------
    model : str
    slope_low, slope_high : ndarray of float64
        ``0`` and ``inf`` are open ends (no limit).
    cost_ratio_low, cost_ratio_high : ndarray of float64
        ``c(FP)/c(FN)`` at ``prior_pos``.
    prior_pos : float
    ties_at_every_cost : tuple of str
        The other models on exactly the same hull vertices (their curves pass through the
        same optimal points, e.g. a monotone recalibration of this model): wherever this
        model is optimal they are too, at the same cost; both are optimal.
    ties_in_part : tuple of str
        The other models sharing some, not all, of its hull vertices.
    """

    model: str
    slope_low: np.ndarray
    slope_high: np.ndarray
    cost_ratio_low: np.ndarray
    cost_ratio_high: np.ndarray
    prior_pos: float
    ties_at_every_cost: tuple[str, ...] = ()
    ties_in_part: tuple[str, ...] = ()

    @property
    def never_optimal(self) -> bool:
        """True when no vertex of the model is on the joint hull."""
        return self.slope_low.size == 0

    def contains_slope(self, slope: float) -> bool:
        """Whether the model is optimal at iso-performance slope ``slope`` (ends included)."""
        return bool(((self.slope_low <= slope) & (slope <= self.slope_high)).any())


@dataclass(frozen=True, eq=False)
class OptimalRanges:
    """Each model's :class:`OptimalRange` on the joint hull, in the models' order."""

    ranges: tuple[OptimalRange, ...]
    prior_pos: float

    @property
    def models(self) -> tuple[str, ...]:
        return tuple(r.model for r in self.ranges)

    def of(self, model: str) -> OptimalRange:
        """The range of ``model``."""
        for r in self.ranges:
            if r.model == model:
                return r
        raise KeyError(model)


def optimal_ranges(curves: Mapping[str, object], *, prior_pos: float,
                   hull: RocHull | None = None) -> OptimalRanges:
    """For each model, the slopes and cost ratios under which it is on the joint hull.

    Fawcett (2004), section 7.1 (and Provost & Fawcett 2001, the ROCCH method): only the
    vertices of the convex hull of all models' ROC points are potentially optimal, and hull
    vertex ``k`` is the optimum for every iso-performance slope between the slopes of its
    two hull segments (:attr:`~roc_dash.core.roc.hull.RocHull.slope_low`/``slope_high``). A
    model's range is the union of its vertices' ranges (adjacent ones merged,
    :func:`~roc_dash.core.roc.hull.model_slope_ranges`); the trivial vertices (0, 0) "flag
    nothing" and (1, 1) "flag everything" belong to no model, so at very steep or very flat
    slopes no model is optimal. A model whose curve passes through a hull vertex is on it,
    whichever model the hull took the vertex from: two models with the same ROC curve (one a
    monotone recalibration of the other) are both optimal over the same ranges and are
    named as ties (:attr:`OptimalRange.ties_at_every_cost`), whatever their order. A model
    with no point on a hull vertex is :data:`NEVER_OPTIMAL`: another model, or a mix of
    two, costs less under every costs and prior. (A model whose curve only touches the hull
    along a segment, between two vertices, ties there at a single slope and is reported as
    never optimal.)

    Parameters
    ----------
    curves : mapping of str to RocCurve
        Each model's ROC curve (any object with ``fpr``, ``tpr``; ``thresholds``,
        ``n_pos``, ``n_neg`` when known).
    prior_pos : float in (0, 1)
        The prior ``p(+)`` at which slopes are turned into cost ratios ``c(FP)/c(FN)``.
    hull : RocHull, optional
        ``hull_of_curves(curves)`` when it is at hand.

    Returns
    -------
    OptimalRanges
    """
    p = float(prior_pos)
    if not 0.0 < p < 1.0:
        raise ValueError(f"prior_pos must lie strictly between 0 and 1, got {prior_pos!r}")
    names = [str(n) for n in curves]
    h = hull_of_curves(curves) if hull is None else hull
    on_hull = {str(m) for m in h.models} - {""}
    if not on_hull <= set(names):
        raise ValueError(f"the hull holds models {sorted(on_hull - set(names))} that are not "
                         f"among the curves {names}")
    touching = vertex_models(h, curves)
    spans = model_slope_ranges(h, touching)
    ranged = [k for k in range(len(h)) if h.slope_high[k] > h.slope_low[k]]
    on = {n: frozenset(k for k in ranged if n in touching[k]) for n in names}
    out = []
    for name in names:
        pairs = sorted(spans.get(name, []))
        lo = np.array([a for a, _ in pairs], dtype=np.float64)
        hi = np.array([b for _, b in pairs], dtype=np.float64)
        mine = on[name]
        same = tuple(o for o in names if o != name and mine and on[o] == mine)
        part = tuple(o for o in names if o != name and o not in same and mine & on[o])
        out.append(OptimalRange(model=name, slope_low=lo, slope_high=hi,
                                cost_ratio_low=lo * (p / (1.0 - p)),
                                cost_ratio_high=hi * (p / (1.0 - p)), prior_pos=p,
                                ties_at_every_cost=same, ties_in_part=part))
    return OptimalRanges(ranges=tuple(out), prior_pos=p)
