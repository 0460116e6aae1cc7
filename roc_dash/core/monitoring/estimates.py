"""A number with its interval, and the percentile interval of bootstrap replicates."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["Estimate", "percentile_estimate"]


@dataclass(frozen=True)
class Estimate:
    """A number with its interval (``low``, ``high``; NaN when there is none)."""

    value: float
    low: float = math.nan
    high: float = math.nan


def percentile_estimate(value: float, replicates, level: float) -> Estimate:
    """``value`` with the ``(1 − level)/2`` and ``(1 + level)/2`` percentiles of the finite
    ``replicates`` (Efron & Tibshirani 1993, section 13.3); no interval below two."""
    reps = np.asarray(replicates, dtype=np.float64)
    reps = reps[np.isfinite(reps)]
    if reps.size < 2 or not math.isfinite(value):
        return Estimate(float(value))
    low, high = np.quantile(reps, [(1 - level) / 2, (1 + level) / 2])
    return Estimate(float(value), float(low), float(high))
