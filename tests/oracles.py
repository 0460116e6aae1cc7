"""Naive reference computations (oracles) shared by the tests, written out the slow, obvious
way so that the package's fast code is checked against something independent of it.

DeLong's AUC variance and paired test, from the full P x N Mann-Whitney kernel:
DeLong, E. R., DeLong, D. M. and Clarke-Pearson, D. L. (1988). "Comparing the areas under two
or more correlated receiver operating characteristic curves: a nonparametric approach".
Biometrics 44(3), 837-845 (the structural components V10 and V01, section 2).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from scipy.stats import norm


def delong_components(y, s, w=None):
    """The structural components of DeLong et al. (1988) from every (positive, negative) pair
    (ties count one half): ``v10`` per positive, ``v01`` per negative, the positives' and
    negatives' weights and their totals. ``w`` are frequency weights (None: all ones)."""
    y = np.asarray(y).astype(bool)
    s = np.asarray(s, dtype=float)
    w = np.ones(y.size) if w is None else np.asarray(w, dtype=float)
    x, z = s[y], s[~y]
    wx, wz = w[y], w[~y]
    psi = (x[:, None] > z[None, :]) + 0.5 * (x[:, None] == z[None, :])
    p_tot, n_tot = wx.sum(), wz.sum()
    v10 = psi @ wz / n_tot
    v01 = wx @ psi / p_tot
    return v10, v01, wx, wz, p_tot, n_tot


def delong_auc_variance(y, s, w=None) -> tuple[float, float]:
    """One model's AUC and DeLong's variance of it (sample variances of the components, with
    frequency weights counted as repeated rows)."""
    v10, v01, wx, wz, p_tot, n_tot = delong_components(y, s, w)
    a = float(wx @ v10 / p_tot)
    s10 = float(wx @ (v10 - a) ** 2) / (p_tot - 1)
    s01 = float(wz @ (v01 - a) ** 2) / (n_tot - 1)
    return a, s10 / p_tot + s01 / n_tot


class Paired(NamedTuple):
    """DeLong's paired comparison of two models scored on the same rows."""

    auc_a: float
    auc_b: float
    diff: float  # auc_a - auc_b
    var: float  # variance of the difference
    se: float
    z: float
    p: float  # two-sided
    corr: float  # correlation of the two AUC estimates


def delong_paired(y, a, b) -> Paired:
    """DeLong et al. (1988) paired test (unweighted): the components' sample covariances
    (``np.cov``) give the variance of the difference of the two AUCs."""
    y = np.asarray(y).astype(bool)
    a10, a01, *_ = delong_components(y, a)
    b10, b01, *_ = delong_components(y, b)
    cov = (np.cov(np.vstack([a10, b10])) / y.sum()
           + np.cov(np.vstack([a01, b01])) / (~y).sum())
    auc_a, auc_b = float(a10.mean()), float(b10.mean())
    diff = auc_a - auc_b
    var = float(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1])
    se = math.sqrt(var)
    z = diff / se if se > 0 else math.copysign(math.inf, diff) if diff else math.nan
    p = float(2 * norm.sf(abs(z))) if not math.isnan(z) else math.nan
    corr = float(cov[0, 1] / math.sqrt(cov[0, 0] * cov[1, 1]))
    return Paired(auc_a, auc_b, diff, var, se, z, p, corr)
