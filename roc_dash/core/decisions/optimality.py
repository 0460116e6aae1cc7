"""Over which cost ratios and priors a hull vertex stays the optimal operating point.

Each vertex of a ROC convex hull is optimal between the slopes of its two hull segments
(Fawcett 2004, section 7.1; Flach et al. 2003, section 3),
and the slope is ``m = c'(FP)·p(−) / (c'(FN)·p(+))`` with the net costs of
:mod:`.economics`. :func:`optimality_range` turns the slope range into ranges of the cost
ratio, the prior and each cost.

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, section 7.1 (The ROC convex hull).

P. Flach, H. Blockeel, C. Ferri, J. Hernández-Orallo, J. Struyf, "Decision support for data
mining: an introduction to ROC analysis and its applications", chapter 7 of D. Mladenić, N.
Lavrač, M. Bohanec, S. Moyle (eds.), "Data Mining and Decision Support: Integration and
Collaboration", Kluwer Academic Publishers, 2003, section 3.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..roc.hull import RocHull
from .economics import Economics, _check_prior, net_costs, net_slope

__all__ = ["Interval", "OptimalityRange", "optimality_range"]

#: Relative tolerance of "the current slope is at an end of a vertex's range".
_EDGE = 2.0 ** -40


@dataclass(frozen=True)
class Interval:
    """A range ``[low, high]`` of one quantity, with its current ``value``.

    ``low_open`` / ``high_open`` say that the range has no limit on that side within the
    quantity's domain: the vertex stays optimal however small (large) the quantity gets
    (``low`` is then the domain's end, 0; ``high`` is ``inf``, or 1 for a prior).
    """

    low: float
    high: float
    low_open: bool
    high_open: bool
    value: float

    @property
    def contains_value(self) -> bool:
        """``low <= value <= high``, the ends widened by a relative ``2**-40`` (a value on an
        end, e.g. a tie on the iso line, is inside despite rounding)."""
        return bool(self.low * (1 - _EDGE) <= self.value <= self.high * (1 + _EDGE))

    @property
    def at_low(self) -> bool:
        """The value is on the low end (within ``2**-40``): a tie with the neighbour there."""
        return bool(abs(self.value - self.low) <= _EDGE * abs(self.low))

    @property
    def at_high(self) -> bool:
        """The value is on the high end (within ``2**-40``): a tie with the neighbour there."""
        return bool(abs(self.value - self.high) <= _EDGE * abs(self.high))


@dataclass(frozen=True)
class OptimalityRange:
    """Where one hull vertex is the optimal operating point (Fawcett 2004, section 7.1).

    Attributes
    ----------
    index : int
        The vertex (index into the hull).
    model : str
    threshold, fpr, tpr : float
    optimal_now : bool
        True when the current net slope lies in the vertex's slope range (within a relative
        ``2**-40``, so that a slope computed from costs and a prior that ties with a hull
        segment counts as inside, as in :func:`~roc_dash.core.roc.hull.optimal_point`).
    slope : Interval
        ``[slope_low, slope_high]`` of the vertex; ``value`` is the current net slope.
    ratio : Interval
        Net cost ratio ``c'(FN)/c'(FP)`` at the current prior:
        ``[(1−p)/(p·slope_high), (1−p)/(p·slope_low)]``.
    prior : Interval
        Prior ``p(+)`` at the current net costs, from ``m(p) ∈ [slope_low, slope_high]``:
        ``[c'(FP)/(c'(FP) + slope_high·c'(FN)), c'(FP)/(c'(FP) + slope_low·c'(FN))]``.
    cost_fn : Interval
        ``c(FN)`` with ``c(FP)``, the benefits and the prior fixed: ``ratio·c'(FP) − b(TP)``
        (clipped at 0; a ``low`` clipped to 0 is open: no positive cost of a miss is too
        small).
    cost_fp : Interval
        ``c(FP)`` with ``c(FN)``, the benefits and the prior fixed: ``c'(FN)/ratio − b(TN)``
        (clipped at 0 likewise).
    conservative_model, conservative_threshold : str or None, float
        The vertex that becomes optimal below ``ratio.low`` / ``prior.low`` (the previous
        hull vertex, flagging fewer cases); ``None``/NaN for the first vertex.
    liberal_model, liberal_threshold : str or None, float
        The vertex that becomes optimal above ``ratio.high`` / ``prior.high`` (the next
        hull vertex, flagging more cases); ``None``/NaN for the last vertex.
    uses_benefits : bool
        True when the ratio and slopes are of net costs that include benefits.
    """

    index: int
    model: str
    threshold: float
    fpr: float
    tpr: float
    optimal_now: bool
    slope: Interval
    ratio: Interval
    prior: Interval
    cost_fn: Interval
    cost_fp: Interval
    conservative_model: str | None
    conservative_threshold: float
    liberal_model: str | None
    liberal_threshold: float
    uses_benefits: bool


def optimality_range(hull: RocHull, index: int, prior_pos: float,
                     economics: Economics) -> OptimalityRange:
    """Over which cost ratios and priors hull vertex ``index`` stays the optimal choice.

    A hull vertex is optimal for every iso-performance slope between the slopes of its two
    hull segments, ``slope_low <= m <= slope_high`` (Fawcett 2004, section 7.1; Flach et al.
    section 3). With ``m = c'(FP)·(1−p) / (c'(FN)·p)`` (net costs) this is, at the current
    prior, a range of the ratio ``r = c'(FN)/c'(FP)``:
    ``(1−p)/(p·slope_high) <= r <= (1−p)/(p·slope_low)``; and at the current costs, since
    ``m`` falls as ``p`` rises, a range of the prior: ``p = c'(FP) / (c'(FP) + m·c'(FN))``
    evaluated at ``slope_high`` (low end) and ``slope_low`` (high end). At an end both
    neighbouring vertices are optimal (a tie); beyond it, the neighbour is.

    Parameters
    ----------
    hull : RocHull
        A model's own hull or the joint hull of several models.
    index : int
        The vertex, e.g. ``optimal_point(hull, net_slope(p, economics)).index``.
    prior_pos : float
    economics : Economics

    Returns
    -------
    OptimalityRange
    """
    p = _check_prior(prior_pos)
    n = len(hull)
    k = int(index)
    if not 0 <= k < n:
        raise IndexError(f"vertex {index} is not on a hull of {n} vertices")
    c_fp, c_fn = net_costs(economics)
    m = net_slope(p, economics)
    lo, hi = float(hull.slope_low[k]), float(hull.slope_high[k])
    # steep: no segment above (slope_high = inf), so no limit on the cheap-miss / rare-positive
    # side; flat: no segment below (slope_low = 0), no limit on the other side
    steep, flat = hi == math.inf, lo == 0.0
    # numpy scalars: a zero or infinite slope gives the limits 0, inf or 1, not an error
    q, p64, s_lo, s_hi = np.float64(1.0 - p), np.float64(p), np.float64(lo), np.float64(hi)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        r_lo, r_hi = float(q / (p64 * s_hi)), float(q / (p64 * s_lo))
        p_lo = float(c_fp / (c_fp + s_hi * c_fn))
        p_hi = float(c_fp / (c_fp + s_lo * c_fn))
        fp_lo = float(c_fn / np.float64(r_hi)) - economics.benefit_tn
        fp_hi = float(c_fn / np.float64(r_lo)) - economics.benefit_tn
    fn_lo = r_lo * c_fp - economics.benefit_tp
    fn_hi = r_hi * c_fp - economics.benefit_tp
    ratio = Interval(low=r_lo, high=r_hi, low_open=steep, high_open=flat,
                     value=c_fn / c_fp)
    cost_fn = Interval(low=max(fn_lo, 0.0), high=max(fn_hi, 0.0),
                       low_open=steep or fn_lo <= 0, high_open=flat,
                       value=float(economics.cost_fn))
    cost_fp = Interval(low=max(fp_lo, 0.0), high=max(fp_hi, 0.0),
                       low_open=flat or fp_lo <= 0, high_open=steep,
                       value=float(economics.cost_fp))
    prev, nxt = (k - 1 if k > 0 else None), (k + 1 if k < n - 1 else None)
    return OptimalityRange(
        index=k, model=str(hull.models[k]), threshold=float(hull.thresholds[k]),
        fpr=float(hull.fpr[k]), tpr=float(hull.tpr[k]), optimal_now=bool(lo * (1 - _EDGE) <= m <= hi * (1 + _EDGE)),
        slope=Interval(low=lo, high=hi, low_open=flat, high_open=steep, value=m),
        ratio=ratio,
        prior=Interval(low=p_lo, high=p_hi, low_open=steep, high_open=flat, value=p),
        cost_fn=cost_fn, cost_fp=cost_fp,
        conservative_model=None if prev is None else str(hull.models[prev]),
        conservative_threshold=math.nan if prev is None else float(hull.thresholds[prev]),
        liberal_model=None if nxt is None else str(hull.models[nxt]),
        liberal_threshold=math.nan if nxt is None else float(hull.thresholds[nxt]),
        uses_benefits=economics.has_benefits,
    )
