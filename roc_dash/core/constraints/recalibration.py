"""A recalibration of a model's scores into probabilities, to store beside a threshold.

Three maps, each fitted on a model's rows and applied to any score:

* ``"logistic"``: ``q = σ(a + b·logit(s))`` for probabilities ``s`` (logistic
  recalibration, Cox 1958; the map of :func:`~.calibration_intervals.calibration_fit`);
* ``"platt"``: ``q = σ(a + b·s)`` for any score (Platt 1999's sigmoid, fitted by maximum
  likelihood on the 0/1 labels, without his smoothing of the targets);
* ``"isotonic"``: the ROC convex hull's step function (PAV ≡ ROCCH, Fawcett &
  Niculescu-Mizil 2007; :func:`~roc_dash.core.inference.calibration.hull_calibration`).

Each map is non-decreasing, so a threshold on the raw score keeps its decisions: a decision
record stores the map beside the raw threshold, and the classifier it gives returns the
recalibrated probabilities while deciding on the raw score (:mod:`roc_dash.decision.estimators`).

References
----------
D. R. Cox, Biometrika 45:562-565, 1958. J. Platt, "Probabilistic outputs for support vector
machines and comparisons to regularized likelihood methods", Advances in Large Margin
Classifiers, MIT Press, 1999. T. Fawcett, A. Niculescu-Mizil, "PAV and the ROC convex
hull", Machine Learning 68:97-106, 2007.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy.special import expit

from ..inference.calibration import hull_calibration, score_counts
from ..roc.curves import RocCurve
from .calibration_intervals import EPS, logistic_fit

__all__ = ["METHODS", "Recalibration", "fit_recalibration"]

#: The recalibrations that can be fitted and stored.
METHODS = ("logistic", "platt", "isotonic")


@dataclass(frozen=True, eq=False)
class Recalibration:
    """A fitted, non-decreasing map from raw scores to probabilities.

    Attributes
    ----------
    method : str
        One of :data:`METHODS`.
    intercept, slope : float
        ``a`` and ``b`` (``"logistic"``, ``"platt"``; NaN for ``"isotonic"``).
    lower, probability : ndarray
        ``"isotonic"``: the steps' lowest scores (ascending) and their probabilities;
        a score takes the probability of the last step whose ``lower`` it reaches (the
        first step's below them all). Empty otherwise.
    """

    method: str
    intercept: float = math.nan
    slope: float = math.nan
    lower: np.ndarray = field(default_factory=lambda: np.empty(0))
    probability: np.ndarray = field(default_factory=lambda: np.empty(0))

    def __post_init__(self):
        if self.method not in METHODS:
            raise ValueError(f"recalibration method must be one of {', '.join(METHODS)}, "
                             f"got {self.method!r}")
        if self.method == "isotonic":
            lo, pr = np.asarray(self.lower, float), np.asarray(self.probability, float)
            if lo.ndim != 1 or lo.size == 0 or lo.shape != pr.shape or (np.diff(lo) <= 0).any() \
                    or (np.diff(pr) < 0).any() or not ((pr >= 0) & (pr <= 1)).all():
                raise ValueError("an isotonic recalibration needs ascending step scores and "
                                 "non-decreasing probabilities in [0, 1], one per step")
        elif not (math.isfinite(self.intercept) and math.isfinite(self.slope)
                  and self.slope >= 0):
            raise ValueError(f"a {self.method} recalibration needs a finite intercept and a "
                             f"slope >= 0 (a decreasing map would reverse the threshold), "
                             f"got {self.intercept!r}, {self.slope!r}")

    def apply(self, scores) -> np.ndarray:
        """The recalibrated probability of each score."""
        s = np.asarray(scores, dtype=np.float64)
        if self.method == "isotonic":
            k = np.searchsorted(np.asarray(self.lower), s, side="right") - 1
            return np.asarray(self.probability)[np.clip(k, 0, len(self.lower) - 1)]
        if self.method == "logistic":
            c = np.clip(s, EPS, 1.0 - EPS)
            x = np.log(c) - np.log1p(-c)
        else:
            x = s
        return expit(self.intercept + self.slope * x)

    def to_dict(self) -> dict:
        """The JSON form (as a decision record stores it)."""
        if self.method == "isotonic":
            return {"method": self.method, "lower": [float(v) for v in self.lower],
                    "probability": [float(v) for v in self.probability]}
        return {"method": self.method, "intercept": float(self.intercept),
                "slope": float(self.slope)}

    @classmethod
    def from_dict(cls, raw: dict) -> Recalibration:
        """From :meth:`to_dict`'s form (``ValueError`` naming what is wrong)."""
        if not isinstance(raw, dict) or "method" not in raw:
            raise ValueError("a recalibration is an object with a 'method'")
        m = raw["method"]
        if m == "isotonic":
            lo, pr = raw.get("lower"), raw.get("probability")
            if not (isinstance(lo, list) and isinstance(pr, list)):
                raise ValueError("an isotonic recalibration needs the lists 'lower' and "
                                 "'probability'")
            return cls(method=m, lower=np.asarray(lo, float), probability=np.asarray(pr, float))
        a, b = raw.get("intercept"), raw.get("slope")
        if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in (a, b)):
            raise ValueError(f"a {m} recalibration needs the numbers 'intercept' and 'slope'")
        return cls(method=m, intercept=float(a), slope=float(b))


def fit_recalibration(curve: RocCurve, method: str = "logistic") -> Recalibration:
    """Fit a recalibration of a model's scores on its ROC curve's counts (weights count as
    instances; see the module docstring).

    Raises
    ------
    ValueError
        An unknown method; ``"logistic"`` on scores outside [0, 1]; a fitted slope that is
        negative (the scores rank the classes backwards: no increasing map fits).
    """
    if method not in METHODS:
        raise ValueError(f"recalibration method must be one of {', '.join(METHODS)}, got "
                         f"{method!r}")
    if method == "isotonic":
        h = hull_calibration(curve)
        return Recalibration(method=method, lower=h.lower.copy(),
                             probability=h.probability.copy())
    s, pos, neg = score_counts(curve)
    if method == "logistic" and (s[0] < 0.0 or s[-1] > 1.0):
        raise ValueError(f"logistic recalibration needs probabilities (the scores range from "
                         f"{s[0]:.6g} to {s[-1]:.6g}); use 'platt' or 'isotonic'")
    if method == "logistic":
        c = np.clip(s, EPS, 1.0 - EPS)
        x = np.log(c) - np.log1p(-c)
    else:
        x = s
    fit = logistic_fit(np.column_stack((np.ones(s.size), x)), pos, neg)
    a, b = (float(v) for v in fit.coef)
    if b < 0:
        raise ValueError(f"the {method} recalibration's slope is negative ({b:.6g}): the "
                         "scores rank the classes backwards, and no increasing map fits")
    return Recalibration(method=method, intercept=a, slope=b)
