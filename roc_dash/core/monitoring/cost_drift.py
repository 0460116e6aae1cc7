"""The drift test of a labelled window: has the deployed threshold's expected cost risen?

**A stand-in.** The CI gate (``roc-dash check --decision``) is getting a two-sample drift
test with a stated false-alarm rate of its own; the monitor must run that very test. Until
it is merged, :func:`labelled_drift_test` is the one function to swap for it: it takes the
decision's confusion matrix (the record's), the window's, the decision's prior and costs
and the level, and returns a :class:`DriftTest`.

The test here: the expected cost per case at the decision's prior and costs depends on the
window only through its TPR and FPR at the threshold (Fawcett 2004, section 7.1), so the
difference of costs, window minus reference, is
``Δ = p·c'(FN)·(TPR_r − TPR_w) + (1−p)·c'(FP)·(FPR_w − FPR_r)``; under "no change" both
rates are each one binomial proportion seen twice, so ``Δ / SE`` with the pooled
two-proportion variances ``TPR(1−TPR)(1/P_r + 1/P_w)`` (and the same for FPR) is
approximately standard normal, and the test rejects when its one-sided p-value
``Φ(−z)`` is below ``alpha`` (a false alarm rate of ``alpha`` under no change).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from scipy.special import ndtr

from ..economics import Economics

__all__ = ["DriftTest", "labelled_drift_test"]


@dataclass(frozen=True)
class DriftTest:
    """One window's drift test.

    Attributes
    ----------
    difference : float
        The window's expected cost per case minus the reference's, at the decision's
        prior and costs.
    std_error, z, p_value : float
        The test (one-sided: the cost rose).
    alpha : float
        The level it was run at.
    drifted : bool
        ``p_value < alpha``.
    method : str
        What was run, as printed.
    """

    difference: float
    std_error: float
    z: float
    p_value: float
    alpha: float
    drifted: bool
    method: str


def _pooled_variance(k_r: float, n_r: float, k_w: float, n_w: float) -> float:
    rate = (k_r + k_w) / (n_r + n_w)
    return rate * (1.0 - rate) * (1.0 / n_r + 1.0 / n_w)


def labelled_drift_test(reference: tuple[float, float, float, float],
                        window: tuple[float, float, float, float], *, prior_pos: float,
                        economics: Economics, alpha: float,
                        allowance: float = 0.0) -> DriftTest:
    """Has the expected cost of the deployed threshold risen from the reference to the
    window? (Module docstring: the stand-in for the CI gate's test.)

    Parameters
    ----------
    reference, window : (tp, fp, fn, tn)
        The decision's and the window's (weighted) confusion matrices at the threshold.
    prior_pos : float
        The decision's prior.
    economics : Economics
        The decision's costs and benefits.
    alpha : float
        The false-alarm rate under no change.
    allowance : float
        The reference cost's optimism, allowed before the cost counts as risen.
    """
    tp_r, fp_r, fn_r, tn_r = (float(v) for v in reference)
    tp_w, fp_w, fn_w, tn_w = (float(v) for v in window)
    p_r, n_r, p_w, n_w = tp_r + fn_r, fp_r + tn_r, tp_w + fn_w, fp_w + tn_w
    if min(p_r, n_r, p_w, n_w) <= 0:
        raise ValueError("the drift test needs both classes in the reference and the window")
    p, c_fn, c_fp = float(prior_pos), economics.net_cost_fn, economics.net_cost_fp
    diff = (p * c_fn * (tp_r / p_r - tp_w / p_w)
            + (1.0 - p) * c_fp * (fp_w / n_w - fp_r / n_r))
    var = ((p * c_fn) ** 2 * _pooled_variance(tp_r, p_r, tp_w, p_w)
           + ((1.0 - p) * c_fp) ** 2 * _pooled_variance(fp_r, n_r, fp_w, n_w))
    se = math.sqrt(var)
    excess = diff - float(allowance)
    if se > 0:
        z = excess / se
    else:
        z = math.copysign(math.inf, excess) if excess else 0.0
    p_value = float(ndtr(-z))
    return DriftTest(difference=float(diff), std_error=se, z=float(z), p_value=p_value,
                     alpha=float(alpha), drifted=p_value < alpha,
                     method="one-sided two-proportion z-test of the expected cost at the "
                            "decision's prior and costs (pooled variances" + (
                                f", allowing {allowance:.4g} of optimism)" if allowance
                                else ")"))
