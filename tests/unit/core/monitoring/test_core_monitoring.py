"""The monitor's core (roc_dash.core.monitoring) against independent computations:
scikit-learn's metrics for a labelled window, brute-force optima over the ROC vertices,
scipy's two-sample KS, the CI gate's drift test, and the statuses of windows with known
changes (mon010-mon031)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import ks_2samp, kstwobign
from sklearn.metrics import confusion_matrix, precision_score, recall_score

from roc_dash.core.decisions.drift import (
    cost_drift_test,
    counts_at_threshold,
    reference_from_sample,
)
from roc_dash.core.decisions.economics import Economics, expected_cost_per_case
from roc_dash.core.monitoring import (
    MonitorSettings,
    choice_at_prior,
    monitor,
    prior_range,
    reference_from_scores,
    window_from_counts,
    window_from_rows,
)
from roc_dash.core.roc.curves import roc_curve
from tests.monitoring_example import sample

ECON = Economics(cost_fp=1.0, cost_fn=3.0, benefit_tp=0.5)


def _reference(n=4000, prior=0.3, seed=1, threshold=None):
    y, s = sample(n, prior, seed=seed)
    ref = reference_from_scores(y, s, threshold=0.5, prior_pos=prior, economics=ECON)
    t = choice_at_prior(ref.hull, prior, ECON).threshold if threshold is None else threshold
    return y, s, reference_from_scores(y, s, threshold=t, prior_pos=prior, economics=ECON)


def _run(ref, windows, **kw):
    return monitor(ref, windows, MonitorSettings(replicates=100, **kw))


def test_mon010_labelled_metrics_are_scikit_learns_at_the_threshold():
    _, _, ref = _reference()
    yw, sw = sample(5000, 0.2, seed=7)
    weights = np.random.default_rng(3).integers(1, 4, sw.size).astype(float)
    (w,) = _run(ref, [window_from_rows("w", sw, yw, weights=weights)]).windows
    m = w.labelled
    flagged = sw >= ref.threshold
    tn, fp, fn, tp = confusion_matrix(yw, flagged, sample_weight=weights).ravel()
    assert (m.tp, m.fp, m.fn, m.tn) == pytest.approx((tp, fp, fn, tn))
    assert m.tpr.value == pytest.approx(recall_score(yw, flagged, sample_weight=weights))
    assert m.fpr.value == pytest.approx(fp / (fp + tn))
    assert m.precision.value == pytest.approx(precision_score(yw, flagged,
                                                              sample_weight=weights))
    assert m.flagged.value == pytest.approx(np.average(flagged, weights=weights))
    # the expected cost at the decision's prior uses only the rates (the record's formula)
    assert m.expected_cost.value == pytest.approx(expected_cost_per_case(
        fp / (fp + tn), tp / (tp + fn), ref.prior_pos, ECON))
    # the window's own cost: errors minus benefits per (weighted) case
    cost = (fn * ECON.cost_fn + fp * ECON.cost_fp - tp * ECON.benefit_tp) / weights.sum()
    assert m.cost.value == pytest.approx(cost)
    for est in (m.tpr, m.fpr, m.precision, m.flagged, m.expected_cost, m.cost):
        assert est.low <= est.value <= est.high


def test_mon011_the_windows_own_optimum_is_the_cheapest_threshold():
    _, _, ref = _reference()
    yw, sw = sample(3000, 0.12, seed=8)
    (w,) = _run(ref, [window_from_rows("w", sw, yw)]).windows
    curve = roc_curve(yw, sw)
    p = yw.mean()
    costs = expected_cost_per_case(curve.fpr, curve.tpr, p, ECON)
    best = np.flatnonzero(np.isclose(costs, costs.min(), rtol=0, atol=1e-12))
    assert w.labelled.optimum.expected_cost == pytest.approx(costs.min())
    assert w.labelled.optimum.threshold in curve.thresholds[best]
    assert w.labelled.switching_saves >= -1e-12


def test_mon012_the_rederived_choice_is_the_cheapest_reference_vertex_at_the_new_prior():
    y, s, ref = _reference()
    curve = roc_curve(y, s)
    for p in (0.05, 0.15, 0.3, 0.6, 0.9):
        choice = choice_at_prior(ref.hull, p, ECON)
        costs = expected_cost_per_case(curve.fpr, curve.tpr, p, ECON)
        assert choice.expected_cost == pytest.approx(costs.min(), abs=1e-12)
    base = choice_at_prior(ref.hull, 0.3, ECON)
    low, high = prior_range(ref.hull, base.index, ECON)
    assert low < 0.3 < high
    for p in (low + 1e-9, high - 1e-9):  # inside: the same vertex
        assert choice_at_prior(ref.hull, p, ECON).index == base.index
    for p in (low - 1e-6, high + 1e-6):  # just outside: another
        assert choice_at_prior(ref.hull, p, ECON).index != base.index


def test_mon013_score_comparisons_are_scipys_ks_on_distinct_scores():
    y, s = sample(600, 0.3, seed=1)  # few distinct scores: the grid is every score
    s = np.round(s, 2)
    ref = reference_from_scores(y, s, threshold=0.5, prior_pos=0.3, economics=ECON)
    yw, sw = sample(800, 0.3, seed=9, shift=0.4)
    sw = np.round(sw, 2)
    (w,) = _run(ref, [window_from_rows("w", sw, yw)]).windows
    shifts = {x.comparison: x for x in w.shifts}
    assert shifts["as-before"].ks == pytest.approx(ks_2samp(s, sw).statistic)
    assert shifts["negatives"].ks == pytest.approx(ks_2samp(s[~y], sw[~yw]).statistic)
    assert shifts["positives"].ks == pytest.approx(ks_2samp(s[y], sw[yw]).statistic)
    # Kolmogorov's limiting distribution at the effective size n·m/(n+m)
    n, m = (~y).sum(), (~yw).sum()
    limit = kstwobign.sf(shifts["negatives"].ks * np.sqrt(n * m / (n + m)))
    assert shifts["negatives"].p_value == pytest.approx(limit, rel=1e-9)


def test_mon014_the_drift_test_is_the_ci_gates_against_a_corrected_reference():
    y, s = sample(4000, 0.3, seed=1)
    drift = reference_from_sample(y, s, prior_pos=0.3, economics=ECON, n_boot=50)
    assert drift.corrected and drift.optimism > 0  # the threshold is the data's optimum
    ref = reference_from_scores(y, s, threshold=drift.threshold, prior_pos=0.3,
                                economics=ECON, drift=drift)
    yw, sw = sample(3000, 0.3, seed=2, shift=0.3)
    window = window_from_rows("w", sw, yw)
    (w,) = _run(ref, [window]).windows
    expected = cost_drift_test(drift, *counts_at_threshold(yw, sw, drift.threshold),
                               alpha=w.findings[0].alpha)
    assert w.labelled.drift == expected
    assert {f.criterion: f.status for f in w.findings}["cost-drift"] == (
        "FAIL" if expected.drifted else "PASS")
    # without a drift reference, the one of a threshold fixed in advance (binomial)
    fixed = reference_from_scores(y, s, threshold=drift.threshold, prior_pos=0.3,
                                  economics=ECON)
    assert not fixed.drift.chosen and fixed.drift.optimism == 0


def test_mon015_known_changes_get_their_statuses():
    _, _, ref = _reference(n=20000)
    held = window_from_rows("same", *reversed(sample(20000, 0.3, seed=11)))
    prior = window_from_rows("prior", sample(20000, 0.08, seed=12)[1])
    drift_y, drift_s = sample(20000, 0.3, seed=13, shift=0.7)
    drift = window_from_rows("drift", drift_s, drift_y)
    result = _run(ref, [held, prior, drift])
    status = {w.name: {f.criterion: f.status for f in w.findings} for w in result.windows}
    assert status["same"] == {"cost-drift": "PASS", "choice": "PASS", "score-shift": "PASS"}
    assert status["prior"] == {"choice": "FAIL", "score-shift": "PASS"}
    assert status["drift"]["cost-drift"] == "FAIL"
    assert status["drift"]["score-shift"] == "WARN"
    assert result.status == "drift" and result.windows[0].status == "held"
    # two labelled windows (drift and choice tests), one unlabelled (choice): 5 tests
    assert result.alpha_per_test == pytest.approx(0.05 / 5)
    assert result.windows[0].findings[0].alpha == pytest.approx(0.05 / 5)
    assert result.shift_alpha == pytest.approx(0.05 / 3)
    # the prior the choice is re-derived at: labels when there are, EM otherwise
    assert result.windows[0].prior.method == "labels"
    assert result.windows[1].prior.method == "em"
    assert result.windows[1].rederived.saving > 0


def test_mon016_bad_windows_are_refused_with_what_to_do():
    with pytest.raises(ValueError, match=r"every labelled case is positive.*unlabelled.*\.$"):
        window_from_rows("jan", [0.1, 0.2], [1, 1])  # a sentence: another may follow it
    with pytest.raises(ValueError, match="finite"):
        window_from_rows("jan", [0.1, np.nan])
    with pytest.raises(ValueError, match="listed twice"):
        window_from_counts("jan", [0.1, 0.1], [1, 2])
    with pytest.raises(ValueError, match="no predictions"):
        window_from_counts("jan", [0.1], [0])
    _, _, ref = _reference()
    with pytest.raises(ValueError, match="two windows are named 'a'"):
        _run(ref, [window_from_rows("a", [0.1]), window_from_rows("a", [0.2])])
    with pytest.raises(ValueError, match="no window"):
        _run(ref, [])
    with pytest.raises(ValueError, match="estimator"):
        MonitorSettings(estimator="cc")


def test_mon017_the_grid_counts_the_share_flagged_exactly():
    y, s = sample(3000, 0.3, seed=1)
    for threshold in (0.5123, float(s.min()), float(s.min()) - 0.1, 0.99):
        ref = reference_from_scores(y, s, threshold=threshold, prior_pos=0.3, economics=ECON,
                                    max_bins=50)
        sw = np.concatenate([sample(2000, 0.4, seed=2)[1], [threshold - 1e-9, threshold,
                                                           -5.0, 5.0]])
        counts = ref.grid.counts(sw)
        assert counts[ref.flagged_bin:].sum() == (sw >= threshold).sum()
        distinct, many = np.unique(sw, return_counts=True)
        np.testing.assert_array_equal(ref.grid.sums_of_sorted(distinct, many)[0], counts)
        assert np.all(np.diff(ref.grid.representative) > 0)
        # the map is constant in each bin: the window's mean posterior is the rows'
        post = ref.calibration.calibrated_scores(sw)
        assert counts @ ref.posterior == pytest.approx(post.sum())


def test_mon018_a_window_does_not_depend_on_the_others():
    _, _, ref = _reference()
    a = window_from_rows("a", sample(2000, 0.2, seed=20)[1])
    b = window_from_rows("b", sample(2000, 0.4, seed=21)[1])
    alone = _run(ref, [a]).windows[0]
    first = _run(ref, [a, b]).windows[0]
    assert [e.low for e in alone.prevalence] == [e.low for e in first.prevalence]


def test_mon030_a_significant_change_too_small_to_matter_does_not_fail():
    _, _, ref = _reference(n=20000)
    y, s = sample(100_000, 0.36, seed=30)
    window = [window_from_rows("w", s, y)]
    strict = _run(ref, window, min_saving=0.0).windows[0]
    r = strict.rederived
    assert r.p_value < strict.findings[1].alpha  # the prior left the vertex's range
    assert {f.criterion: f.status for f in strict.findings}["choice"] == "FAIL"
    assert 0 < r.normalized_saving == pytest.approx(
        r.saving / (0.36 * ECON.net_cost_fn + 0.64 * ECON.net_cost_fp), rel=0.05)
    lenient = _run(ref, window, min_saving=r.normalized_saving * 2).windows[0]
    assert {f.criterion: f.status for f in lenient.findings}["choice"] == "PASS"


def test_mon031_a_window_from_an_analysis_curve_is_the_window_of_its_rows():
    from roc_dash.core.monitoring import window_from_curve

    y, s = sample(3000, 0.2, seed=31)
    w = np.random.default_rng(0).integers(1, 4, s.size).astype(float)
    rows = window_from_rows("w", s, y, weights=w)
    curve = window_from_curve("w", roc_curve(y, s, weights=w))
    np.testing.assert_array_equal(curve.scores, rows.scores)
    np.testing.assert_allclose(curve.totals, rows.totals)
    np.testing.assert_allclose(curve.positives, rows.positives)


def test_mon032_one_window_monitored_alone_gets_the_runs_numbers():
    from roc_dash.core.monitoring import failing_tests, monitor_window, run_replicates

    _, _, ref = _reference()
    windows = [window_from_rows("a", *reversed(sample(2000, 0.3, seed=40))),
               window_from_rows("b", sample(2000, 0.15, seed=41)[1])]
    settings = MonitorSettings(replicates=100)
    run = monitor(ref, windows, settings)
    alone = monitor_window(ref, windows[1], run_replicates(ref, settings), settings, index=1,
                           alpha=settings.alpha / failing_tests(ref, windows, settings),
                           shift_alpha=settings.alpha / 2)
    assert alone.prevalence == run.windows[1].prevalence
    assert alone.findings == run.windows[1].findings
