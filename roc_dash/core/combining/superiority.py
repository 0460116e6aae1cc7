"""Relative superiority graphs and the LC index (Adams & Hand 1999).

Implements Fawcett (2004), "ROC Graphs: Notes and Practical Considerations for Researchers",
section 7.5.3, after N. M. Adams and D. J. Hand, "Comparing
classifiers when the misallocation costs are uncertain", Pattern Recognition 32 (1999):

* precise costs are rare, but an expert can usually say how much more expensive one error
  is than the other: a range for the cost ratio and a most likely value;
* the ratio of error costs is mapped onto (0, 1); two ROC curves become a *relative
  superiority graph*, a line over (0, 1) marking where each classifier has the lower
  expected cost (a "binary version of cost curves");
* the expert's range and most likely value define a distribution on (0, 1) (triangular:
  zero outside the range, peaked at the most likely value); the LC ("loss comparison")
  index ``∫ sign(c) · density(c) dc`` in [−1, 1] is a measure of confidence that one
  classifier is superior within that range.

Convention. The cost ratio is ``k = c(FN) / c(FP)`` (how many times a missed positive costs
as much as a false alarm) and is mapped to ``u = k / (1 + k) = c(FN) / (c(FN) + c(FP))``
in (0, 1): ``u → 0`` when false positives dominate the cost, ``u = 1/2`` for equal costs,
``u → 1`` when false negatives do. Fawcett's summary does not print the map; this is the
natural one (Adams and Hand's normalised cost), and :func:`ratio_to_unit` /
:func:`unit_to_ratio` convert. The class prior ``p(+)`` is taken as known, as in Adams and
Hand. At each ``u`` each classifier is taken at its best operating point (its ROC convex
hull), whose expected cost per case, in units of ``c(FN) + c(FP)``, is
``p(+)·u·(1 − TPR) + (1 − p(+))·(1 − u)·FPR``; in Drummond and Holte's terms that is the
lower envelope of the cost curves at ``PC(+) = p(+)u / (p(+)u + (1 − p(+))(1 − u))``
(:mod:`.cost_curves`), scaled by a positive factor, so the sign of the difference is the
sign of the envelopes' difference. Everything is exact up to rounding: the graph changes
sign only at the envelopes' breakpoints and crossings, found in closed form, and the LC
index integrates the density over each constant-sign interval in closed form.

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, section 7.5.3
(Relative superiority graphs and the LC index).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..roc.cost_curves import lower_envelope
from ..roc.hull import RocHull, convex_hull, hull_of_points

__all__ = [
    "ratio_to_unit", "unit_to_ratio", "CostRatioDistribution", "triangular_distribution",
    "distribution_from_arrays", "RelativeSuperiority", "relative_superiority", "LcIndex",
    "lc_index",
]

#: Two envelope costs (in [0, 1]) closer than this count as equal: the graph shows 0.
EQUAL_ATOL = 1e-12


def ratio_to_unit(ratio):
    """Map a cost ratio ``k = c(FN)/c(FP)`` in [0, inf] onto [0, 1]: ``u = k / (1 + k)``.

    Fawcett (2004) section 7.5.3: "Adams and Hand's method maps the ratio of error costs
    onto the interval (0,1)". ``k = 1`` (equal costs) maps to 1/2, ``k = inf`` to 1.
    """
    k = np.asarray(ratio, dtype=np.float64)
    if np.any(np.isnan(k)) or np.any(k < 0):
        raise ValueError("cost ratios must be non-negative numbers (inf allowed)")
    with np.errstate(invalid="ignore"):
        u = np.where(np.isinf(k), 1.0, k / (1.0 + k))
    return float(u) if u.ndim == 0 else u


def unit_to_ratio(u):
    """Inverse of :func:`ratio_to_unit`: ``k = u / (1 − u)`` (``u = 1`` gives ``inf``).

    Reads a point of the mapped axis of Fawcett (2004) section 7.5.3 back as a cost ratio.
    """
    x = np.asarray(u, dtype=np.float64)
    if np.any(np.isnan(x)) or np.any((x < 0) | (x > 1)):
        raise ValueError("mapped cost ratios must lie in [0, 1]")
    with np.errstate(divide="ignore"):
        k = np.where(x == 1, np.inf, x / (1.0 - x))
    return float(k) if k.ndim == 0 else k


@dataclass(frozen=True, eq=False)
class CostRatioDistribution:
    """A probability density over the mapped cost ratio ``u`` in [0, 1], piecewise linear.

    The density is linear between consecutive knots ``u`` (values ``density``) and zero
    outside ``[u[0], u[-1]]``; it integrates to 1. A triangular distribution (the expert's
    range and most likely value, Adams & Hand 1999) has the knots low, mode, high.

    Attributes
    ----------
    u : ndarray of float64
        Knots, strictly increasing, within [0, 1].
    density : ndarray of float64
        Density at each knot (non-negative).
    kind : str
        ``"triangular"`` or ``"arrays"``.
    low, mode, high : float
        The triangular distribution's range and most likely value on the mapped axis (NaN
        for ``"arrays"``; ``low``/``high`` are then the first and last knot).
    """

    u: np.ndarray
    density: np.ndarray
    kind: str
    low: float
    mode: float
    high: float

    @property
    def ratio(self) -> np.ndarray:
        """The knots as cost ratios ``c(FN)/c(FP)``."""
        return unit_to_ratio(self.u)

    def _cumulative(self) -> np.ndarray:
        h = np.diff(self.u)
        return np.concatenate(([0.0], np.cumsum(h * (self.density[1:] + self.density[:-1]) / 2)))

    def cdf(self, x):
        """Probability that the mapped ratio is at most ``x`` (exact for the piecewise-linear
        density; vectorised)."""
        x = np.asarray(x, dtype=np.float64)
        knots, d = self.u, self.density
        cum = self._cumulative()
        j = np.clip(np.searchsorted(knots, x, side="right") - 1, 0, knots.size - 2)
        t = np.clip(x, knots[0], knots[-1]) - knots[j]
        h = knots[j + 1] - knots[j]
        out = cum[j] + t * d[j] + t * t * (d[j + 1] - d[j]) / (2.0 * h)
        out = np.where(x >= knots[-1], 1.0, np.where(x <= knots[0], 0.0, out))
        return float(out) if out.ndim == 0 else out

    def pdf(self, x):
        """Density at ``x`` (zero outside the knots)."""
        x = np.asarray(x, dtype=np.float64)
        out = np.interp(x, self.u, self.density, left=0.0, right=0.0)
        return float(out) if out.ndim == 0 else out


def triangular_distribution(low: float, mode: float, high: float, *,
                            scale: str = "ratio") -> CostRatioDistribution:
    """The expert's range and most likely cost ratio as a triangular density on (0, 1).

    Fawcett (2004) section 7.5.3: "An expert provides a sub-range of (0,1) within which the
    ratio is expected to fall, as well as a most likely value for the ratio." The density is
    zero outside ``[low, high]``, rises linearly to its peak at ``mode`` and falls linearly
    back (Adams & Hand 1999), on the mapped axis ``u``.

    Parameters
    ----------
    low, mode, high : float
        ``low <= mode <= high``, ``low < high``.
    scale : {"ratio", "unit"}
        ``"ratio"`` (default): the three values are cost ratios ``c(FN)/c(FP)`` (e.g. 2, 5,
        10: a missed positive costs 2 to 10 times a false alarm, most likely 5), mapped by
        :func:`ratio_to_unit`; ``"unit"``: they are already on the mapped axis [0, 1].

    Returns
    -------
    CostRatioDistribution
    """
    if scale not in ("ratio", "unit"):
        raise ValueError("scale must be 'ratio' or 'unit'")
    vals = [float(v) for v in (low, mode, high)]
    a, m, b = (ratio_to_unit(v) for v in vals) if scale == "ratio" else vals
    if scale == "unit" and not all(0.0 <= v <= 1.0 for v in (a, m, b)):
        raise ValueError("on the unit scale low, mode and high must lie in [0, 1]")
    if not (a <= m <= b and a < b):
        raise ValueError(f"need low <= mode <= high and low < high; got {vals} ({scale} scale). "
                         "For a known ratio read the sign off relative_superiority(...)"
                         ".sign_at(u).")
    peak = 2.0 / (b - a)
    if a == m:
        knots, dens = [a, b], [peak, 0.0]
    elif m == b:
        knots, dens = [a, b], [0.0, peak]
    else:
        knots, dens = [a, m, b], [0.0, peak, 0.0]
    return CostRatioDistribution(u=np.array(knots), density=np.array(dens), kind="triangular",
                                 low=a, mode=m, high=b)


def distribution_from_arrays(u, density) -> CostRatioDistribution:
    """A user-given density over the mapped cost ratio, linear between the given points.

    Fawcett (2004) section 7.5.3, generalising the triangular distribution: any belief
    about the cost ratio, as a density sampled at knots on the mapped axis (convert ratio
    knots with :func:`ratio_to_unit`; a density per unit of ratio ``k`` is a density per
    unit of ``u`` times ``dk/du = 1/(1 − u)**2``). It is normalised to integrate to 1.

    Parameters
    ----------
    u : array-like of float
        Knots in [0, 1], strictly increasing (at least two).
    density : array-like of float
        Non-negative, finite density at each knot, not all zero.

    Returns
    -------
    CostRatioDistribution
    """
    x = np.asarray(u, dtype=np.float64)
    d = np.asarray(density, dtype=np.float64)
    if x.ndim != 1 or x.shape != d.shape or x.size < 2:
        raise ValueError("u and density must be one-dimensional arrays of equal length >= 2")
    if not (np.isfinite(x).all() and (x >= 0).all() and (x <= 1).all()):
        raise ValueError("knots u must lie in [0, 1] (map cost ratios with ratio_to_unit)")
    if not (np.diff(x) > 0).all():
        raise ValueError("knots u must be strictly increasing")
    if not (np.isfinite(d).all() and (d >= 0).all()):
        raise ValueError("density must be finite and non-negative")
    mass = float(np.sum(np.diff(x) * (d[1:] + d[:-1]) / 2.0))
    if not mass > 0:
        raise ValueError("density has no mass")
    return CostRatioDistribution(u=x.copy(), density=d / mass, kind="arrays",
                                 low=float(x[0]), mode=float("nan"), high=float(x[-1]))


@dataclass(frozen=True, eq=False)
class RelativeSuperiority:
    """A relative superiority graph: which of two models is cheaper at each cost ratio
    (Fawcett 2004 section 7.5.3; Adams & Hand 1999).

    The mapped axis ``u`` in [0, 1] is cut at ``edges``; on each open interval
    ``(edges[i], edges[i + 1])`` the sign is constant: ``sign[i] = +1`` where model A's
    best expected cost is lower, ``−1`` where higher, ``0`` where equal (within
    :data:`EQUAL_ATOL`). Adjacent intervals have different signs.

    Attributes
    ----------
    edges : ndarray of float64, shape (m + 1,)
        From 0 to 1.
    sign : ndarray of int8, shape (m,)
    ratio_edges : ndarray of float64, shape (m + 1,)
        The edges as cost ratios ``c(FN)/c(FP)`` (0 to inf).
    prior_pos : float
        The class prior p(+) used.
    model_a, model_b : str
        Names of the two models.
    """

    edges: np.ndarray
    sign: np.ndarray
    ratio_edges: np.ndarray
    prior_pos: float
    model_a: str
    model_b: str

    def sign_at(self, u):
        """Sign at mapped ratio(s) ``u`` (at an edge, the sign of the interval to its right;
        at 1, of the last interval)."""
        x = np.asarray(u, dtype=np.float64)
        i = np.clip(np.searchsorted(self.edges, x, side="right") - 1, 0, self.sign.size - 1)
        out = self.sign[i]
        return int(out) if out.ndim == 0 else out

    def step(self) -> tuple[np.ndarray, np.ndarray]:
        """``(u, sign)`` for a step plot: each interval's two ends with its sign."""
        u = np.repeat(self.edges, 2)[1:-1]
        return u, np.repeat(self.sign, 2).astype(np.float64)


def _hull_of(model) -> RocHull:
    if isinstance(model, RocHull):
        return model
    if hasattr(model, "thresholds") and hasattr(model, "n_pos"):
        return convex_hull(model)
    if hasattr(model, "fpr"):
        return hull_of_points(model.fpr, model.tpr)
    fpr, tpr = model
    return hull_of_points(fpr, tpr)


def _prior(prior_pos, model_a, model_b) -> float:
    if prior_pos is None:
        found = {(getattr(m, "n_pos", None), getattr(m, "n_neg", None))
                 for m in (model_a, model_b)}
        if len(found) == 1:
            n_pos, n_neg = found.pop()
            if n_pos is not None and n_neg is not None:
                return float(n_pos) / (float(n_pos) + float(n_neg))
        raise ValueError("prior_pos is needed (the models carry no common class totals)")
    p = float(prior_pos)
    if not 0.0 < p < 1.0:
        raise ValueError("prior_pos must lie strictly between 0 and 1")
    return p


def _pc_to_u(pc: np.ndarray, p: float) -> np.ndarray:
    """Invert ``PC(u) = p·u / (p·u + (1 − p)(1 − u))``."""
    num = pc * (1.0 - p)
    den = num + p * (1.0 - pc)
    with np.errstate(invalid="ignore", divide="ignore"):
        u = np.where(den > 0, num / den, pc)
    u = np.clip(u, 0.0, 1.0)
    u[0], u[-1] = 0.0, 1.0
    return u


def relative_superiority(model_a, model_b, *, prior_pos: float | None = None,
                         names: tuple[str, str] = ("A", "B"),
                         atol: float = EQUAL_ATOL) -> RelativeSuperiority:
    """The relative superiority graph of two models over the mapped cost ratio.

    Fawcett (2004) section 7.5.3 (Adams & Hand 1999): for every cost ratio
    ``k = c(FN)/c(FP)``, mapped to ``u = k/(1 + k)`` in (0, 1), each model is used at its
    best operating point (on its ROC convex hull); the graph is ``+1`` where model A's
    expected cost is lower, ``−1`` where it is higher and ``0`` where they are equal. It is
    computed exactly: the two cost envelopes (:func:`~roc_dash.core.roc.cost_curves.lower_envelope`)
    are piecewise linear in ``PC(+)``, so the sign can change only at their breakpoints and
    at one crossing at most between consecutive breakpoints.

    Parameters
    ----------
    model_a, model_b : RocHull, RocCurve, object with ``fpr``/``tpr``, or (fpr, tpr)
        The two models (curves are hulled first).
    prior_pos : float, optional
        Class prior p(+) of the deployment population. Default: the prevalence of the two
        curves' data, when both carry the same ``n_pos``/``n_neg``.
    names : (str, str)
        Names of the models, for labels.
    atol : float
        Envelope costs (normalised, in [0, 1]) closer than this count as equal.

    Returns
    -------
    RelativeSuperiority
    """
    p = _prior(prior_pos, model_a, model_b)
    ea, eb = lower_envelope(_hull_of(model_a)), lower_envelope(_hull_of(model_b))
    knots = np.union1d(ea.pc_pos, eb.pc_pos)
    knots = knots[(knots >= 0) & (knots <= 1)]
    knots = np.union1d(knots, [0.0, 1.0])
    d = np.interp(knots, ea.pc_pos, ea.cost) - np.interp(knots, eb.pc_pos, eb.cost)
    # one crossing at most inside each interval, where d changes sign strictly
    cross = (np.abs(d[:-1]) > atol) & (np.abs(d[1:]) > atol) & (np.sign(d[:-1]) != np.sign(d[1:]))
    i = np.flatnonzero(cross)
    x = knots[i] + (knots[i + 1] - knots[i]) * d[i] / (d[i] - d[i + 1])
    pts = np.union1d(knots, x)
    mid = (pts[:-1] + pts[1:]) / 2.0
    dm = np.interp(mid, ea.pc_pos, ea.cost) - np.interp(mid, eb.pc_pos, eb.cost)
    sign = np.where(dm < -atol, 1, np.where(dm > atol, -1, 0)).astype(np.int8)
    # merge neighbouring intervals of equal sign
    keep = np.concatenate(([True], sign[1:] != sign[:-1]))
    edges_pc = np.concatenate((pts[:-1][keep], [1.0]))
    sign = sign[keep]
    edges = _pc_to_u(edges_pc, p)
    return RelativeSuperiority(edges=edges, sign=sign, ratio_edges=unit_to_ratio(edges),
                               prior_pos=p, model_a=str(names[0]), model_b=str(names[1]))


@dataclass(frozen=True, eq=False)
class LcIndex:
    """The LC (loss comparison) index of model A against model B (Fawcett 2004 section
    7.5.3; Adams & Hand 1999).

    Attributes
    ----------
    lc : float
        ``∫ sign(u) · density(u) du`` in [−1, 1]: ``+1`` when A is cheaper over the whole
        range the expert believes in, ``−1`` when B is, 0 when the belief is split evenly.
    prob_a_better, prob_b_better, prob_equal : float
        Probability, under the distribution, of a cost ratio where A is cheaper, B is, or
        they are equal (``lc = prob_a_better − prob_b_better``).
    superiority : RelativeSuperiority
        The graph integrated.
    distribution : CostRatioDistribution
        The belief about the cost ratio.
    """

    lc: float
    prob_a_better: float
    prob_b_better: float
    prob_equal: float
    superiority: RelativeSuperiority
    distribution: CostRatioDistribution


def lc_index(model_a, model_b, distribution, *, prior_pos: float | None = None,
             names: tuple[str, str] = ("A", "B"), atol: float = EQUAL_ATOL) -> LcIndex:
    """Adams and Hand's LC index: confidence that model A is superior to model B.

    Fawcett (2004) section 7.5.3: upon the relative superiority graph "a measure of
    confidence -- the LC index -- can be defined indicating how likely it is that one
    classifier is superior to another within this interval":
    ``LC = ∫_0^1 sign(u) · D(u) du``, with ``sign`` from :func:`relative_superiority` and
    ``D`` the expert's density over the mapped cost ratio. Computed in closed form: the
    sign is constant between the graph's edges and the density's integral over an interval
    is a difference of its CDF.

    Parameters
    ----------
    model_a, model_b
        The two models (see :func:`relative_superiority`).
    distribution : CostRatioDistribution or (u, density)
        The belief about the cost ratio: :func:`triangular_distribution` for the expert's
        range and most likely value, or arrays for :func:`distribution_from_arrays`.
    prior_pos : float, optional
        Class prior p(+) (see :func:`relative_superiority`).
    names : (str, str)
        Names of the models.
    atol : float
        Tolerance of equal costs (see :func:`relative_superiority`).

    Returns
    -------
    LcIndex
    """
    if not isinstance(distribution, CostRatioDistribution):
        distribution = distribution_from_arrays(*distribution)
    graph = relative_superiority(model_a, model_b, prior_pos=prior_pos, names=names, atol=atol)
    mass = np.diff(distribution.cdf(graph.edges))
    a = float(mass[graph.sign > 0].sum())
    b = float(mass[graph.sign < 0].sum())
    e = float(mass[graph.sign == 0].sum())
    return LcIndex(lc=a - b, prob_a_better=a, prob_b_better=b, prob_equal=e,
                   superiority=graph, distribution=distribution)
