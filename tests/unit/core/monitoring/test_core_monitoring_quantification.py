"""Prevalence estimation of the monitor (roc_dash.core.monitoring.quantification) against
quapy's EMQ, ACC and PACC run on the same scores (mon001-mon006)."""

from __future__ import annotations

import numpy as np
import pytest
import quapy as qp
from quapy.method.aggregative import ACC, EMQ, PACC
from sklearn.base import BaseEstimator, ClassifierMixin

from roc_dash.core.decisions.economics import Economics
from roc_dash.core.monitoring import (
    MonitorSettings,
    em_prior,
    estimate_prevalence,
    mle_prior,
    monitor,
    reference_from_scores,
    reference_replicates,
    window_from_rows,
)
from tests.monitoring_example import sample

ECON = Economics(cost_fp=1.0, cost_fn=3.0)


class _Fixed(ClassifierMixin, BaseEstimator):
    """A classifier whose predictions are given (quapy only asks for its classes)."""

    def fit(self, *_):
        return self

    def predict(self, x):
        return np.asarray(x)


def _fitted() -> _Fixed:
    clf = _Fixed()
    clf.classes_ = np.array([0, 1])  # fitted, as check_is_fitted sees it
    return clf


def _reference(n=4000, prior=0.3, seed=1, threshold=0.6):
    y, s = sample(n, prior, seed=seed)
    return y, s, reference_from_scores(y, s, threshold=threshold, prior_pos=prior,
                                       economics=ECON)


def _posteriors(p):
    return np.column_stack((1 - p, p))


def test_mon001_em_is_quapys_emq_and_the_likelihoods_maximiser():
    y, s, ref = _reference()
    _, sw = sample(3000, 0.12, seed=2)
    post = ref.calibration.calibrated_scores(sw)  # the reference's PAV map, row by row
    expected = EMQ.EM(np.array([1 - ref.prevalence, ref.prevalence]), _posteriors(post),
                      epsilon=1e-13)[0][1]
    values, counts = np.unique(post, return_counts=True)
    mine, steps, converged = em_prior(values, counts, ref.prevalence)
    assert converged and steps > 1
    assert mine == pytest.approx(expected, abs=1e-7)
    assert mle_prior(values, counts, ref.prevalence) == pytest.approx(mine, abs=1e-9)
    # and through the monitor's grid: the same number from the window's counts per bin
    window = window_from_rows("w", sw)
    est = estimate_prevalence(ref, window, reference_replicates(ref, 50, np.random.default_rng(0)),
                              level=0.95, rng=np.random.default_rng(1))
    assert est[0].method == "em" and est[0].value == pytest.approx(expected, abs=1e-7)


def test_mon002_acc_is_quapys_acc_with_the_references_rates():
    y, s, ref = _reference()
    _, sw = sample(3000, 0.45, seed=3)
    quantifier = ACC(_fitted(), fit_classifier=False, val_split=None, solver="exact-raise", norm="clip")
    quantifier.aggregation_fit((s >= ref.threshold).astype(int), y.astype(int))
    expected = quantifier.aggregate((sw >= ref.threshold).astype(int))[1]
    assert qp.functional.solve_adjustment_binary(
        np.mean(sw >= ref.threshold), ref.tpr, ref.fpr) == pytest.approx(expected)
    acc = _estimate(ref, sw, "acc")
    assert acc.value == pytest.approx(expected, abs=1e-12)


def _estimate(ref, sw, method: str):
    """The window ``sw``'s prevalence estimate by ``method``, 50 reference replicates."""
    est = estimate_prevalence(ref, window_from_rows("w", sw),
                              reference_replicates(ref, 50, np.random.default_rng(0)),
                              level=0.95, rng=np.random.default_rng(1))
    return next(e for e in est if e.method == method)


def test_mon003_pacc_is_quapys_pacc_on_the_calibrated_posteriors():
    y, s, ref = _reference()
    _, sw = sample(3000, 0.2, seed=4)
    quantifier = PACC(_fitted(), fit_classifier=False, val_split=None, solver="exact-raise", norm="clip")
    quantifier.aggregation_fit(_posteriors(ref.calibration.calibrated_scores(s)), y.astype(int))
    expected = quantifier.aggregate(_posteriors(ref.calibration.calibrated_scores(sw)))[1]
    pacc = _estimate(ref, sw, "pacc")
    assert pacc.value == pytest.approx(expected, abs=1e-12)


def test_mon004_clipped_adjustments_say_so_and_em_reaches_the_bounds():
    # all posteriors 0 -> the likelihood falls with the prior: 0; all 1 -> 1
    assert mle_prior([0.0, 0.2], [10, 0], 0.3) == 0.0
    assert mle_prior([1.0], [5], 0.3) == 1.0
    assert em_prior([0.0], [10], 0.3)[0] == pytest.approx(0.0, abs=1e-9)
    y, s, ref = _reference(threshold=0.6)
    low = np.full(500, 0.01)  # scores far below every positive's: ACC and PACC go negative
    est = estimate_prevalence(ref, window_from_rows("w", low),
                              reference_replicates(ref, 50, np.random.default_rng(0)),
                              level=0.95, rng=np.random.default_rng(1))
    for e in est:
        assert e.value == pytest.approx(0.0, abs=1e-6)
    acc = next(e for e in est if e.method == "acc")
    assert acc.raw < 0 and acc.value == 0.0


def test_mon005_intervals_hold_the_estimate_and_widen_with_the_level():
    _, _, ref = _reference()
    _, sw = sample(2000, 0.25, seed=5)
    window = window_from_rows("w", sw)
    reps = reference_replicates(ref, 200, np.random.default_rng(0))
    narrow = estimate_prevalence(ref, window, reps, level=0.8, rng=np.random.default_rng(1))
    wide = estimate_prevalence(ref, window, reps, level=0.99, rng=np.random.default_rng(1))
    for a, b in zip(narrow, wide, strict=True):
        assert b.low <= a.low <= a.value <= a.high <= b.high
        assert a.replicates == 200 and np.isfinite(a.spread)


def test_mon006_a_run_without_the_references_predictions_estimates_acc_alone():
    from roc_dash.core.monitoring import reference_from_counts

    y, s = sample(4000, 0.3, seed=1)
    tp = float(((s >= 0.6) & y).sum())
    fp = float(((s >= 0.6) & ~y).sum())
    ref = reference_from_counts(threshold=0.6, prior_pos=0.3, economics=ECON, tp=tp, fp=fp,
                                fn=float(y.sum()) - tp, tn=float((~y).sum()) - fp)
    _, sw = sample(3000, 0.45, seed=3)
    result = monitor(ref, [window_from_rows("w", sw)], MonitorSettings(replicates=100))
    (w,) = result.windows
    assert [e.method for e in w.prevalence] == ["acc"]
    assert w.rederived is None and w.shifts == ()
    assert qp.functional.solve_adjustment_binary(np.mean(sw >= 0.6), tp / y.sum(),
                                                 fp / (~y).sum()) == pytest.approx(
        w.prevalence[0].value)
    assert any("reference's predictions" in n for n in w.notes)
