"""Calibration with its uncertainty: bands on the reliability diagram, the calibration slope
and intercept with intervals, and Spiegelhalter's z test.

* **Bands** (:func:`reliability_bands`): each bin's fraction of positives is a binomial
  proportion of the bin's cases; its Wilson score interval (Wilson 1927; Brown, Cai &
  DasGupta 2001 recommend it over the Wald interval) or the exact Clopper–Pearson one.
  Pointwise: each band covers its bin at the level, not all bins at once.
* **Logistic recalibration** (:func:`calibration_fit`, Cox 1958; Steyerberg 2019, chapter
  15): ``logit P(y = 1) = a + b·logit(p)``, fitted by maximum likelihood on the distinct
  scores (binomial counts, Newton's method); ``b`` is the calibration slope (1 when
  calibrated, below 1 when the scores are too extreme), ``a`` its intercept; with ``b``
  fixed at 1, ``a`` is the calibration-in-the-large (0 when the mean score matches the
  rate of positives). Wald intervals from the observed information.
* **Spiegelhalter's z** (:func:`spiegelhalter_test`, Spiegelhalter 1986): under perfect
  calibration ``Σ (y − p)(1 − 2p)`` has mean 0 and variance ``Σ (1 − 2p)² p (1 − p)``;
  their ratio is standard normal, a two-sided p-value tests calibration.

Everything is read off a model's ROC curve (the counts at each distinct score,
:func:`~roc_dash.core.inference.calibration.score_counts`), so weights count as instances and 10⁶ rows
with few distinct scores cost little. Scores must lie in [0, 1]; a score of exactly 0 or 1
has an infinite logit and is moved to ``EPS`` or ``1 − EPS`` for the fit (noted).

References
----------
E. B. Wilson, "Probable inference, the law of succession, and statistical inference",
JASA 22:209-212, 1927. L. D. Brown, T. T. Cai, A. DasGupta, "Interval estimation for a
binomial proportion", Statistical Science 16(2):101-133, 2001.

D. R. Cox, "Two further applications of a model for binary regression", Biometrika
45:562-565, 1958. E. W. Steyerberg, "Clinical Prediction Models", 2nd ed., Springer, 2019,
chapter 15.

D. J. Spiegelhalter, "Probabilistic prediction in patient management and clinical trials",
Statistics in Medicine 5:421-433, 1986.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import expit, ndtr, ndtri

from ..decisions.proportion_intervals import clopper_pearson
from ..inference.calibration import Calibration, calibration_from_curve, score_counts
from ..roc.curves import RocCurve
from . import _checks

__all__ = ["EPS", "BAND_METHODS", "ReliabilityBands", "reliability_bands", "LogisticFit",
           "logistic_fit", "CalibrationFit", "calibration_fit", "SpiegelhalterTest",
           "spiegelhalter_test", "CalibrationUncertainty", "calibration_uncertainty"]

#: Scores of exactly 0 or 1 are moved this far inside for their logit.
EPS = 1e-12
#: How the reliability bands are computed.
BAND_METHODS = ("wilson", "clopper-pearson")


@dataclass(frozen=True, eq=False)
class ReliabilityBands:
    """Per non-empty bin of a reliability diagram, an interval of its fraction positive.

    Attributes
    ----------
    mean_predicted, fraction_positive, count : ndarray
        As :class:`~roc_dash.core.inference.calibration.Calibration`'s.
    low, high : ndarray
        The interval of each bin's fraction positive.
    covers : ndarray of bool
        The bin's mean score lies in its interval.
    method : str
        ``"wilson"`` or ``"clopper-pearson"``.
    level : float
    """

    mean_predicted: np.ndarray
    fraction_positive: np.ndarray
    count: np.ndarray
    low: np.ndarray
    high: np.ndarray
    covers: np.ndarray
    method: str
    level: float


def reliability_bands(cal: Calibration, *, level: float = 0.95,
                      method: str = "wilson") -> ReliabilityBands:
    """Pointwise intervals of each bin's fraction of positives (see the module docstring);
    weighted counts are used as counts."""
    lvl = _checks.level(level)
    if method not in BAND_METHODS:
        raise ValueError(f"method must be one of {', '.join(BAND_METHODS)}, got {method!r}")
    n, o = np.asarray(cal.count, dtype=np.float64), np.asarray(cal.fraction_positive, float)
    if method == "wilson":
        z = float(ndtri((1.0 + lvl) / 2.0))
        z2 = z * z
        denom = 1.0 + z2 / n
        center = (o + z2 / (2.0 * n)) / denom
        half = z / denom * np.sqrt(o * (1.0 - o) / n + z2 / (4.0 * n * n))
        low, high = np.clip(center - half, 0.0, 1.0), np.clip(center + half, 0.0, 1.0)
    else:
        pairs = [clopper_pearson(min(oo * nn, nn), nn, lvl) for oo, nn in zip(o, n, strict=True)]
        low = np.array([a for a, _ in pairs]).reshape(-1)
        high = np.array([b for _, b in pairs]).reshape(-1)
    mp = np.asarray(cal.mean_predicted, dtype=np.float64)
    return ReliabilityBands(mean_predicted=mp, fraction_positive=o, count=n, low=low,
                            high=high, covers=(low <= mp) & (mp <= high), method=method,
                            level=lvl)


@dataclass(frozen=True, eq=False)
class LogisticFit:
    """Maximum likelihood of ``logit P(y=1) = offset + X·beta`` on binomial counts.

    Attributes
    ----------
    coef : ndarray
    covariance : ndarray
        Inverse of the observed information at ``coef``.
    converged : bool
    iterations : int
    """

    coef: np.ndarray
    covariance: np.ndarray
    converged: bool
    iterations: int

    @property
    def std_error(self) -> np.ndarray:
        return np.sqrt(np.diag(self.covariance))


def _softplus(eta: np.ndarray) -> np.ndarray:
    """``log(1 + exp(eta))`` without overflow."""
    return np.maximum(eta, 0.0) + np.log1p(np.exp(-np.abs(eta)))


def logistic_fit(X, positives, negatives, *, offset=None, start=None, max_iter: int = 100,
                 tol: float = 1e-11) -> LogisticFit:
    """Binomial logistic regression on grouped data by Newton's method with step halving.

    ``X`` (m × q) holds each group's covariates, ``positives`` and ``negatives`` its
    (weighted) counts: the same estimates as the rows' regression (statsmodels'
    ``GLM(..., family=Binomial())`` with frequency weights). ``start``: the first
    coefficients (default zeros). The sums are ``np.einsum`` (one thread: BLAS threads
    wait for one another on a busy server, see :mod:`roc_dash.core._sums`)."""
    cols = [np.ascontiguousarray(c, dtype=np.float64)
            for c in np.atleast_2d(np.asarray(X, dtype=np.float64)).T]
    q = len(cols)
    pos = np.asarray(positives, dtype=np.float64)
    n = pos + np.asarray(negatives, dtype=np.float64)
    off = np.zeros(n.size) if offset is None else np.asarray(offset, dtype=np.float64)
    beta = np.zeros(q) if start is None else np.asarray(start, dtype=np.float64)

    def dot(a, b) -> float:
        return float(np.einsum("i,i->", a, b))

    def linear(b):
        eta = off.copy()
        for c, bj in zip(cols, b, strict=True):
            eta += bj * c
        return eta

    def loglik(b):
        eta = linear(b)
        return dot(pos, eta) - dot(n, _softplus(eta)), eta

    def information(eta):
        mu = expit(eta)
        v = n * mu * (1.0 - mu)
        vc = [v * c for c in cols]
        return mu, np.array([[dot(vc[j], cols[k]) for k in range(q)] for j in range(q)])

    eta = linear(beta)
    converged, it = False, 0
    for it in range(1, max_iter + 1):  # noqa: B007 -- `it` is reported
        mu, info = information(eta)
        resid = pos - n * mu
        try:
            step = np.linalg.solve(info, np.array([dot(c, resid) for c in cols]))
        except np.linalg.LinAlgError:  # no information left (the fitted probabilities are
            break                      # 0 or 1: the classes separate): not converged
        if np.all(np.abs(step) <= 1.0):  # a plain Newton step near the optimum (the
            new = beta + step          # log-likelihood is concave)
        else:  # far from it: halve the step until the log-likelihood rises
            ll = loglik(beta)[0]
            t = 1.0
            while True:
                new = beta + t * step
                if loglik(new)[0] >= ll - 1e-12 * abs(ll) or t < 1e-8:
                    break
                t /= 2.0
        done = np.max(np.abs(new - beta)) <= tol * (1.0 + np.max(np.abs(beta)))
        beta = new
        eta = linear(beta)
        if done:
            converged = True
            break
    _, info = information(eta)
    try:
        covariance = np.linalg.inv(info)
    except np.linalg.LinAlgError:  # not estimable: no standard errors
        covariance, converged = np.full((q, q), np.nan), False
    return LogisticFit(coef=beta, covariance=covariance, converged=converged, iterations=it)


@dataclass(frozen=True)
class CalibrationFit:
    """Calibration slope and intercept with Wald intervals (see the module docstring).

    Attributes
    ----------
    intercept, slope : float
        ``a`` and ``b`` of ``logit P(y=1) = a + b·logit(p)``.
    intercept_low, intercept_high, slope_low, slope_high : float
    intercept_se, slope_se : float
    in_the_large, in_the_large_low, in_the_large_high, in_the_large_se : float
        ``a`` with ``b`` fixed at 1 (an offset): calibration-in-the-large.
    level : float
    n_clipped : float
        Cases whose score was 0 or 1 (moved by :data:`EPS` for the logit).
    converged : bool
    """

    intercept: float
    intercept_low: float
    intercept_high: float
    intercept_se: float
    slope: float
    slope_low: float
    slope_high: float
    slope_se: float
    in_the_large: float
    in_the_large_low: float
    in_the_large_high: float
    in_the_large_se: float
    level: float
    n_clipped: float
    converged: bool


def _logit(s: np.ndarray) -> np.ndarray:
    c = np.clip(s, EPS, 1.0 - EPS)
    return np.log(c) - np.log1p(-c)


def _in_unit(s: np.ndarray) -> None:
    if s.size and (s[0] < 0.0 or s[-1] > 1.0):
        raise ValueError(f"the scores range from {s[0]:.6g} to {s[-1]:.6g}: calibration "
                         "slope, intercept and Spiegelhalter's test need probabilities in "
                         "[0, 1]")


def calibration_fit(curve: RocCurve, *, level: float = 0.95) -> CalibrationFit:
    """Logistic recalibration of a model's scores (see the module docstring)."""
    lvl = _checks.level(level)
    s, pos, neg = score_counts(curve)
    _in_unit(s)
    keep = (pos + neg) > 0
    s, pos, neg = s[keep], pos[keep], neg[keep]
    x = _logit(s)
    z = float(ndtri((1.0 + lvl) / 2.0))
    both = logistic_fit(np.column_stack((np.ones(s.size), x)), pos, neg, start=(0.0, 1.0))
    large = logistic_fit(np.ones((s.size, 1)), pos, neg, offset=x)
    se, se1 = both.std_error, large.std_error
    a, b, a1 = (float(v) for v in (both.coef[0], both.coef[1], large.coef[0]))
    se0, se_b, se_l = float(se[0]), float(se[1]), float(se1[0])
    return CalibrationFit(
        intercept=a, intercept_low=a - z * se0, intercept_high=a + z * se0, intercept_se=se0,
        slope=b, slope_low=b - z * se_b, slope_high=b + z * se_b, slope_se=se_b,
        in_the_large=a1, in_the_large_low=a1 - z * se_l, in_the_large_high=a1 + z * se_l,
        in_the_large_se=se_l, level=lvl,
        n_clipped=float(np.sum((pos + neg)[(s <= 0.0) | (s >= 1.0)])),
        converged=bool(both.converged and large.converged))


@dataclass(frozen=True)
class SpiegelhalterTest:
    """Spiegelhalter's (1986) test of calibration.

    Attributes
    ----------
    z : float
        ``Σ (y − p)(1 − 2p) / √(Σ (1 − 2p)² p (1 − p))``.
    p_value : float
        Two-sided, from the standard normal.
    """

    z: float
    p_value: float


def spiegelhalter_test(curve: RocCurve) -> SpiegelhalterTest:
    """Spiegelhalter's z of a model's scores (see the module docstring); NaN when every
    score is 0, 1/2 or 1 (no variance)."""
    s, pos, neg = score_counts(curve)
    _in_unit(s)
    n = pos + neg
    num = float(np.sum((pos - n * s) * (1.0 - 2.0 * s)))
    var = float(np.sum(n * (1.0 - 2.0 * s) ** 2 * s * (1.0 - s)))
    if not var > 0:
        return SpiegelhalterTest(z=math.nan, p_value=math.nan)
    z = num / math.sqrt(var)
    return SpiegelhalterTest(z=z, p_value=float(2.0 * ndtr(-abs(z))))


@dataclass(frozen=True, eq=False)
class CalibrationUncertainty:
    """A model's reliability diagram with bands, its calibration slope and intercept and
    Spiegelhalter's test (None where the scores are not probabilities)."""

    calibration: Calibration
    bands: ReliabilityBands | None
    fit: CalibrationFit | None
    spiegelhalter: SpiegelhalterTest | None
    notes: tuple[str, ...] = ()


def calibration_uncertainty(curve: RocCurve, *, n_bins: int = 10, strategy: str = "uniform",
                            level: float = 0.95, band: str = "wilson"
                            ) -> CalibrationUncertainty:
    """:func:`~roc_dash.core.inference.calibration.calibration_from_curve` with its uncertainty:
    :func:`reliability_bands`, :func:`calibration_fit` and :func:`spiegelhalter_test`."""
    cal = calibration_from_curve(curve, n_bins=n_bins, strategy=strategy)
    if not cal.in_unit_interval:
        return CalibrationUncertainty(cal, None, None, None, notes=(
            "The scores are not probabilities: no bands, calibration slope or test.",))
    fit = calibration_fit(curve, level=level)
    notes = []
    if fit.n_clipped:
        notes.append(f"{fit.n_clipped:,.6g} cases score exactly 0 or 1; their logit is taken "
                     f"at {EPS:g} from the end for the slope and intercept.")
    if not fit.converged:
        notes.append("The logistic recalibration did not converge (the scores may separate "
                     "the classes perfectly): its slope and intercept are unreliable.")
    test = spiegelhalter_test(curve)
    if test.p_value < 1.0 - level:
        notes.append(f"Spiegelhalter's test rejects calibration at level {level:g} "
                     f"(z = {test.z:.3g}, p = {test.p_value:.3g}).")
    return CalibrationUncertainty(cal, reliability_bands(cal, level=level, method=band), fit,
                                  test, notes=tuple(notes))
