"""Argument checks shared by the modules of :mod:`roc_dash.core.constraints` (each message
names the argument, what it got and what it needs)."""

from __future__ import annotations

import math

import numpy as np

__all__ = ["prior", "level", "replicates", "seed", "finite", "rates_of"]


def finite(v) -> bool:
    """A real, finite number (not a bool)."""
    return (isinstance(v, int | float | np.integer | np.floating) and not isinstance(v, bool)
            and math.isfinite(float(v)))


def prior(value, what: str = "prior_pos") -> float:
    """A probability strictly between 0 and 1."""
    if not (finite(value) and 0.0 < float(value) < 1.0):
        raise ValueError(f"{what} must lie strictly between 0 and 1, got {value!r}")
    return float(value)


def level(value, what: str = "level") -> float:
    """A confidence level strictly between 0 and 1."""
    if not (finite(value) and 0.0 < float(value) < 1.0):
        raise ValueError(f"{what} must lie strictly between 0 and 1 (e.g. 0.95), got {value!r}")
    return float(value)


def replicates(value, *, most: int = 2000, what: str = "n_boot") -> int:
    """A whole number of bootstrap replicates from 1 to ``most``."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer) \
            or not 1 <= value <= most:
        raise ValueError(f"{what} must be a whole number from 1 to {most}, got {value!r}")
    return int(value)


def seed(value) -> int:
    """A whole number >= 0."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 0:
        raise ValueError(f"seed must be a whole number >= 0, got {value!r}")
    return int(value)


def rates_of(curve) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(fpr, tpr, thresholds)`` of a ROC curve or hull as float arrays (thresholds NaN
    when the object has none)."""
    fpr = np.asarray(curve.fpr, dtype=np.float64)
    tpr = np.asarray(curve.tpr, dtype=np.float64)
    th = getattr(curve, "thresholds", None)
    th = np.full(fpr.size, np.nan) if th is None else np.asarray(th, dtype=np.float64)
    return fpr, tpr, th
