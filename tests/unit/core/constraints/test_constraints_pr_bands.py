"""Bands on the PR curve at the deployment prevalence (prb001-prb005): the precision at fixed
recalls against scikit-learn's precision_recall_curve and the Davis–Goadrich interpolation,
the fold band against a t-interval computed here, the bootstrap band against its
replicates, and the prevalence acting only through the precision formula."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import t as student
from sklearn.metrics import precision_recall_curve

from roc_dash.core.constraints import pr_bootstrap_band, pr_fold_band, resample_thresholds
from roc_dash.core.constraints.pr_bands import fpr_at_recall, recall_grid
from roc_dash.core.decisions.economics import precision_at_prior
from roc_dash.core.roc.curves import roc_curve
from roc_dash.core.roc.pr_interpolation import interpolated_precision


def _data(n=900, seed=0, digits=None):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    s = rng.normal(size=n) + 1.3 * y
    return y, (s if digits is None else np.round(s, digits))


def test_prb001_precision_at_recall_is_sklearns_and_davis_goadrichs():
    y, s = _data()
    curve = roc_curve(y, s)
    prec, rec, _ = precision_recall_curve(y, s)
    pi = y.mean()
    for r in np.unique(rec[rec > 0]):  # at each recall sklearn reaches: its best precision
        got = precision_at_prior(fpr_at_recall(curve.fpr, curve.tpr, np.array([r])), r, pi)
        assert float(np.asarray(got)[0]) == pytest.approx(prec[rec == r].max(), rel=1e-12)
    y2, s2 = _data(seed=1, digits=1)  # ties: between vertices, the interpolated curve
    c2 = roc_curve(y2, s2)
    grid = recall_grid(200)
    mine = precision_at_prior(fpr_at_recall(c2.fpr, c2.tpr, grid), grid, 0.05)
    np.testing.assert_allclose(mine, interpolated_precision(c2, grid, prevalence=0.05),
                               rtol=1e-12)


def test_prb002_fold_band_is_the_t_interval_of_the_folds_fpr():
    y, s = _data(n=2000, seed=2)
    folds = np.arange(y.size) % 5
    curves = {str(k): roc_curve(y[folds == k], s[folds == k]) for k in range(5)}
    band = pr_fold_band(curves, prevalence=0.1, level=0.9, n_points=50)
    f = np.vstack([fpr_at_recall(c.fpr, c.tpr, band.recall) for c in curves.values()])
    mean, sd = f.mean(axis=0), f.std(axis=0, ddof=1)
    half = student.ppf(0.95, 4) * sd / np.sqrt(5)
    lo_f, hi_f = np.clip(mean - half, 0, 1), np.clip(mean + half, 0, 1)
    np.testing.assert_allclose(band.low, precision_at_prior(hi_f, band.recall, 0.1),
                               rtol=1e-9)
    np.testing.assert_allclose(band.high, precision_at_prior(lo_f, band.recall, 0.1),
                               rtol=1e-9)
    np.testing.assert_allclose(band.precision, precision_at_prior(mean, band.recall, 0.1),
                               rtol=1e-9)
    assert band.method == "folds" and band.n_curves == 5
    with pytest.raises(ValueError, match="two or more folds"):
        pr_fold_band({"1": curves["1"]}, prevalence=0.1)


def test_prb003_bootstrap_band_is_the_replicates_percentiles():
    y, s = _data(n=700, seed=3, digits=2)
    reps = resample_thresholds(y, s, n_boot=120, seed=4)
    curve = roc_curve(y, s)
    band = pr_bootstrap_band(reps, curve, prevalence=0.2, level=0.8, n_points=40)
    per = np.vstack([precision_at_prior(
        fpr_at_recall(reps.fp_in[r] / reps.n_neg, reps.tp_in[r] / reps.n_pos, band.recall),
        band.recall, 0.2) for r in range(120)])
    np.testing.assert_allclose(band.low, np.quantile(per, 0.1, axis=0), rtol=1e-9)
    np.testing.assert_allclose(band.high, np.quantile(per, 0.9, axis=0), rtol=1e-9)
    np.testing.assert_allclose(band.precision,
                               interpolated_precision(curve, band.recall, prevalence=0.2))
    inside = (band.low <= band.precision + 1e-12) & (band.precision <= band.high + 1e-12)
    assert inside.mean() > 0.9


def test_prb004_the_prevalence_acts_only_through_the_precision_formula():
    y, s = _data(n=600, seed=5)
    reps = resample_thresholds(y, s, n_boot=61, seed=1)  # limits at whole order statistics
    curve = roc_curve(y, s)
    a = pr_bootstrap_band(reps, curve, prevalence=0.05, level=0.9)
    b = pr_bootstrap_band(reps, curve, prevalence=0.5, level=0.9)

    def fpr_of(band, pi):  # invert precision = π·r / (π·r + (1 − π)·FPR)
        return (1 / band.low - 1) * pi * band.recall / (1 - pi)

    np.testing.assert_allclose(fpr_of(a, 0.05), fpr_of(b, 0.5), rtol=1e-9, atol=1e-12)
    assert (a.high <= b.high + 1e-12).all()  # rarer positives: lower precision


def test_prb005_bad_input_is_named():
    y, s = _data(n=200, seed=6)
    reps = resample_thresholds(y, s, n_boot=10)
    with pytest.raises(ValueError, match="prevalence must lie strictly between 0 and 1"):
        pr_bootstrap_band(reps, roc_curve(y, s), prevalence=1.0)
    with pytest.raises(ValueError, match="n_points must be a whole number >= 2"):
        recall_grid(1)
