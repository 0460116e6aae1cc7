"""Exact interval of a binomial proportion (Clopper & Pearson 1934).

Where a rate is 0 or 1 on the data, a bootstrap of it cannot vary it (every replicate draws
from rows that all fall on the same side of the threshold) and a percentile interval
collapses to a point; the exact interval keeps its coverage there.
:mod:`.point_intervals` uses it for TPR and FPR at such points.

References
----------
C. J. Clopper, E. S. Pearson, "The use of confidence or fiducial limits illustrated in the
case of the binomial", Biometrika 26(4):404-413, 1934.
"""

from __future__ import annotations

# the beta quantile B(q; a, b) is betaincinv(a, b, q), as scipy.stats.beta.ppf computes it;
# scipy.stats itself (with scipy.optimize and scipy.linalg) costs a server worker ~40 MB
# resident (tests/unit/project/test_import_footprint.py)
from scipy.special import betaincinv

from .economics import _finite
from .uncertainty import _check_level

__all__ = ["clopper_pearson"]


def clopper_pearson(successes: float, trials: float, level: float = 0.95
                    ) -> tuple[float, float]:
    """Exact two-sided interval of a binomial proportion (Clopper & Pearson 1934).

    ``(B((1−level)/2; x, n−x+1), B((1+level)/2; x+1, n−x))`` with ``B`` the beta quantile,
    the lower limit 0 when ``x = 0`` and the upper 1 when ``x = n`` (statsmodels'
    ``proportion_confint(method="beta")``). Its coverage is at least ``level`` for every
    true proportion, 0 and 1 included. Weighted (non-integer) counts are accepted.

    Raises
    ------
    ValueError
        Unless ``0 <= successes <= trials`` and ``trials > 0``, or a level outside (0, 1).
    """
    level = _check_level(level)
    if not (_finite(trials) and trials > 0 and _finite(successes)
            and 0 <= successes <= trials):
        raise ValueError(f"clopper_pearson needs 0 <= successes <= trials and trials > 0 "
                         f"(got {successes!r} of {trials!r})")
    a = (1.0 - level) / 2.0
    x, n = float(successes), float(trials)
    low = 0.0 if x <= 0 else float(betaincinv(x, n - x + 1.0, a))
    high = 1.0 if x >= n else float(betaincinv(x + 1.0, n - x, 1.0 - a))
    return low, high
