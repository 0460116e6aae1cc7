"""The iso-performance slope of a cost/prior setting and the cost curves' PC(+), in one place.

Fawcett (2004), section 7.1: the slope of the lines of equal expected
cost in ROC space; Drummond & Holte (2006) for the probability cost PC(+). Computed in logs
where the plain products would overflow or underflow. Split from :mod:`.hull`, which
re-exports these names.

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, section 7.1 (The ROC convex hull).
"""

from __future__ import annotations

import math

import numpy as np


def iso_performance_slope(cost_fp: float = 1.0, cost_fn: float = 1.0,
                          prior_pos: float = 0.5) -> float:
    """Slope ``m = c(FP)·p(−) / (c(FN)·p(+))`` of the iso-performance lines.

    Fawcett (2004) section 7.1; Flach et al. section 3 write it ``(C_FP/C_FN)·(Neg/Pos)``.
    Computed as written (so ties on the iso line are found, see :func:`optimal_point`) unless
    a product leaves the normal floating-point range (costs near 1e±308, a prior near 0),
    then through logarithms: an overflowing slope is ``inf``, an underflowing one ``0``.
    """
    _check_conditions(cost_fp, cost_fn, prior_pos)
    num = cost_fp * (1.0 - prior_pos)
    den = cost_fn * prior_pos
    if _normal(num) and _normal(den):
        return float(num / den)
    log_m = (math.log(cost_fp) + math.log1p(-prior_pos)) - (math.log(cost_fn)
                                                            + math.log(prior_pos))
    return math.inf if log_m > _LOG_MAX else math.exp(log_m)


_TINY = float(np.finfo(np.float64).tiny)


_LOG_MAX = math.log(float(np.finfo(np.float64).max))


def _normal(v: float) -> bool:
    """A positive normal (full-precision, finite) float."""
    return _TINY <= v < math.inf


def pc_pos(cost_fp: float = 1.0, cost_fn: float = 1.0, prior_pos: float = 0.5) -> float:
    """Probability-cost ``PC(+) = p(+)c(FN) / (p(+)c(FN) + p(−)c(FP))`` (Drummond & Holte).

    Equal to ``1 / (1 + m)`` for the iso-performance slope ``m``.
    """
    _check_conditions(cost_fp, cost_fn, prior_pos)
    num = prior_pos * cost_fn
    other = (1.0 - prior_pos) * cost_fp
    if _normal(num) and _normal(other) and _normal(num + other):
        return float(num / (num + other))
    return pc_pos_from_slope(iso_performance_slope(cost_fp, cost_fn, prior_pos))


def pc_pos_from_slope(slope):
    """``PC(+) = 1 / (1 + m)`` (``m = inf`` gives 0)."""
    m = np.asarray(slope, dtype=np.float64)
    with np.errstate(divide="ignore"):
        out = np.where(np.isinf(m), 0.0, 1.0 / (1.0 + m))
    return float(out) if out.ndim == 0 else out


def slope_from_pc_pos(pc):
    """Inverse of :func:`pc_pos_from_slope`: ``m = (1 − PC(+)) / PC(+)``."""
    p = np.asarray(pc, dtype=np.float64)
    with np.errstate(divide="ignore"):
        out = np.where(p == 0, np.inf, (1.0 - p) / p)
    return float(out) if out.ndim == 0 else out


def _check_conditions(cost_fp, cost_fn, prior_pos) -> None:
    if not (cost_fp > 0 and cost_fn > 0 and np.isfinite(cost_fp) and np.isfinite(cost_fn)):
        raise ValueError("costs must be positive and finite")
    if not 0.0 < prior_pos < 1.0:
        raise ValueError("the prior p(+) must lie strictly between 0 and 1")
