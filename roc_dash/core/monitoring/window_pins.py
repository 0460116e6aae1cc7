"""A threshold pinned for one window: where it puts the window in ROC space and what it
costs there.

A labelled window's rates at the pinned threshold are its own (its positives and negatives
scored at or above it). An unlabelled window has none, but its ROC curve is the reference's
as long as only the prior moved (Fawcett 2004, section 3.2: ROC graphs are insensitive to
the class distribution), so its rates at the threshold are read off the reference's curve;
the expected cost per case is then taken at the window's prior (its labels' share, else
the estimate the choice is re-derived at) under the decision's costs.

References
----------
Fawcett, T. (2004). ROC graphs: notes and practical considerations for researchers.
Technical report HPL-2003-4, HP Laboratories, section 3.2 (class skew) and 7.1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .monitor import MonitorResult
from .rederive import cost_at_prior
from .windows import WindowCounts

__all__ = ["WindowPin", "pin_window"]


@dataclass(frozen=True)
class WindowPin:
    """A pinned threshold in one window.

    Attributes
    ----------
    window : str
    threshold : float
        Flag a case iff its score is ``>= threshold``.
    fpr, tpr : float
        The rates there: the window's own (``rates == "labels"``) or the reference's
        (``rates == "reference"``).
    prior_pos : float
        The window's prior the cost is taken at.
    expected_cost : float
        Per case, benefits subtracted (the decision's costs).
    rates : str
    """

    window: str
    threshold: float
    fpr: float
    tpr: float
    prior_pos: float
    expected_cost: float
    rates: str


def _rates_of_counts(window: WindowCounts, threshold: float) -> tuple[float, float]:
    at = window.scores >= threshold
    pos, neg = window.positives, window.negatives
    return float(neg[at].sum() / window.n_neg), float(pos[at].sum() / window.n_pos)


def _rates_of_curve(curve, threshold: float) -> tuple[float, float]:
    """The curve's point of "flag iff score >= threshold" (its thresholds descend)."""
    k = int(np.searchsorted(-np.asarray(curve.thresholds, dtype=float), -threshold,
                            side="right")) - 1
    k = min(max(k, 0), len(curve.fpr) - 1)
    return float(curve.fpr[k]), float(curve.tpr[k])


def pin_window(result: MonitorResult, window: WindowCounts, threshold: float) -> WindowPin:
    """The window ``window`` (one of ``result``'s, by name) at the pinned ``threshold``.

    Raises
    ------
    ValueError
        A threshold that is not a finite number, a window not in ``result``, or an
        unlabelled window without the reference's predictions (no curve to read).
    """
    t = float(threshold)
    if not math.isfinite(t):
        raise ValueError(f"a pinned threshold must be a finite number (got {threshold!r})")
    found = next((w for w in result.windows if w.name == window.name), None)
    if found is None:
        raise ValueError(f"window {window.name!r} is not among the windows monitored")
    ref = result.reference
    if window.labelled and window.n_pos > 0 and window.n_neg > 0:
        (fpr, tpr), rates = _rates_of_counts(window, t), "labels"
    elif ref.curve is not None:
        (fpr, tpr), rates = _rates_of_curve(ref.curve, t), "reference"
    else:
        raise ValueError(f"window {window.name!r} has no labels and there are no reference "
                         "predictions: its rates at a pinned threshold cannot be read")
    prior = found.prior.value if found.prior is not None else ref.prior_pos
    return WindowPin(window=window.name, threshold=t, fpr=fpr, tpr=tpr,
                     prior_pos=float(prior),
                     expected_cost=float(cost_at_prior(fpr, tpr, prior, ref.economics)),
                     rates=rates)
