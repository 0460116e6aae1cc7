"""Has the score distribution moved in a way a change of prior cannot explain?

When only the prior moves, each class's score distribution stays the reference's and the
window's scores follow the reference's mixture at the new prior,
``F_π = π·F₊ + (1−π)·F₋`` (the assumption behind EM and ACC). So the comparison that
separates a prior shift from any other is the window against the reference's mixture at the
window's estimated prior; with labels, each class against the reference's same class. The
window against the reference as it was (its own mixture) is reported too: it moves with
the prior alone.

Each comparison gives the two-sample Kolmogorov–Smirnov statistic ``D`` (the largest gap
between the two distribution functions) with its asymptotic p-value
``Q_KS(D·√(n·m/(n+m)))`` (Kolmogorov's limiting distribution; the mixture's effective size
``1 / (π²/P + (1−π)²/N)``) and the population stability index
``PSI = Σ (w − r)·ln(w/r)`` over ten bins of equal reference mass (shares floored at 10⁻⁴;
0.1 and 0.25 are the customary "moderate" and "major" shifts: Yurdakul 2018). A shift is
flagged when the KS test rejects at ``alpha`` *and* the PSI is at least ``psi_min``: the
test bounds the false alarms of small windows, the PSI keeps large windows from alarming
on differences too small to matter. Scores are compared on the reference's grid of bins
(:class:`~roc_dash.core.monitoring.reference.ScoreGrid`), which can only lower ``D``; the
prior estimated from the same window fits the mixture to it, which lowers it too (as
fitting parameters does for Lilliefors): both make the test conservative.

References
----------
N. Smirnov, "Table for estimating the goodness of fit of empirical distributions", Annals
of Mathematical Statistics 19(2):279-281, 1948.
B. Yurdakul, "Statistical properties of population stability index", PhD dissertation,
Western Michigan University, 2018.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import kolmogorov

__all__ = ["COMPARISONS", "ScoreShift", "score_shift", "PSI_BINS", "PSI_FLOOR"]

#: What a window's scores are compared with.
COMPARISONS = ("as-before", "prior-adjusted", "positives", "negatives")
#: Bins of equal reference mass of the PSI, and the floor of a bin's share.
PSI_BINS = 10
PSI_FLOOR = 1e-4


@dataclass(frozen=True)
class ScoreShift:
    """One comparison of a window's scores with the reference's.

    Attributes
    ----------
    comparison : str
        ``"as-before"`` (the reference's mixture at its own prevalence),
        ``"prior-adjusted"`` (at the window's estimated prior), ``"positives"`` or
        ``"negatives"`` (a labelled window's class against the reference's).
    ks, p_value : float
        Kolmogorov–Smirnov's ``D`` and its asymptotic p-value.
    psi : float
    n_reference, n_window : float
        The (effective) sizes compared.
    alpha, psi_min : float
        The flag's limits.
    shifted : bool
        ``p_value < alpha`` and ``psi >= psi_min``.
    """

    comparison: str
    ks: float
    p_value: float
    psi: float
    n_reference: float
    n_window: float
    alpha: float
    psi_min: float
    shifted: bool


def _psi(reference: np.ndarray, window: np.ndarray) -> float:
    """PSI of two distributions over the same bins, pooled into :data:`PSI_BINS` groups of
    about equal reference mass."""
    before = np.concatenate(([0.0], np.cumsum(reference)[:-1]))
    group = np.minimum((before * PSI_BINS + 1e-9).astype(int), PSI_BINS - 1)
    r = np.maximum(np.bincount(group, weights=reference, minlength=PSI_BINS), PSI_FLOOR)
    w = np.maximum(np.bincount(group, weights=window, minlength=PSI_BINS), PSI_FLOOR)
    return float(np.sum((w - r) * np.log(w / r)))


def score_shift(comparison: str, reference, n_reference: float, window, *, alpha: float,
                psi_min: float) -> ScoreShift:
    """Compare a window's (weighted) cases per bin with a reference distribution over the
    same bins (shares summing to 1) of (effective) size ``n_reference``."""
    if comparison not in COMPARISONS:
        raise ValueError(f"comparison must be one of {COMPARISONS}, got {comparison!r}")
    r = np.asarray(reference, dtype=np.float64)
    r = r / r.sum()
    counts = np.asarray(window, dtype=np.float64)
    m = float(counts.sum())
    w = counts / m
    d = float(np.max(np.abs(np.cumsum(w) - np.cumsum(r))))
    n = float(n_reference)
    p_value = float(kolmogorov(d * math.sqrt(n * m / (n + m))))
    psi = _psi(r, w)
    return ScoreShift(comparison=comparison, ks=d, p_value=p_value, psi=psi,
                      n_reference=n, n_window=m, alpha=float(alpha), psi_min=float(psi_min),
                      shifted=bool(p_value < alpha and psi >= psi_min))
