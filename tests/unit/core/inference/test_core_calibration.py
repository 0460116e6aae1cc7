"""Calibration (cal001-cal014): reliability bins against scikit-learn's calibration_curve, the
Brier score against brier_score_loss, ECE/MCE against a naive loop over rows, the chance ECE
against a simulation, and the hull's calibration map against scikit-learn's
IsotonicRegression (PAV) on every observed score.

The PAV correspondence, ties included: scikit-learn's ``IsotonicRegression.fit`` first pools
rows with tied scores (``_make_unique``: weighted mean label, summed weight) and drops rows of
zero weight, then runs PAV over the distinct scores; the ROC curve has one vertex per distinct
score (Fawcett 2004, section 4.1) and its hull pools the same runs (Fawcett &
Niculescu-Mizil 2007). So the two agree on every score seen with positive weight. Two
differences, both away from the observed scores: between observed scores scikit-learn
interpolates linearly while the hull map is a step ("positive iff score >= t"), and
scikit-learn also pools distinct scores less than ``np.finfo(float).resolution`` (1e-15)
apart, which the ROC curve keeps apart (cal010 shows it).
"""

import math

import numpy as np
import pytest
from sklearn.calibration import calibration_curve
from sklearn.isotonic import IsotonicRegression
from sklearn.metrics import brier_score_loss

from roc_dash.core.inference.calibration import (
    ECE_LIMIT,
    bin_edges,
    calibration,
    calibration_from_curve,
    hull_calibration,
    score_counts,
)
from roc_dash.core.roc.curves import roc_curve

# Fawcett (2004), figure 4: ten Naive Bayes scores, perfectly ranked, badly calibrated.
FIG4_CLASS = "ppppppnnnn"
FIG4_SCORE = [0.99999, 0.99999, 0.99993, 0.99986, 0.99964, 0.99955, 0.68139, 0.50961,
              0.48880, 0.44951]


def _data(seed, n=300, *, decimals=None, weights=None, shift=1.5, bias=-1.0):
    """Labels, scores in (0, 1) (rounded to ``decimals`` for ties), weights."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    y[:2], y[2:4] = True, False
    s = 1.0 / (1.0 + np.exp(-(rng.normal(size=n) + shift * y + bias)))
    if decimals is not None:
        s = np.round(s, decimals)
    w = None
    if weights == "int":
        w = rng.integers(1, 5, n).astype(float)
    elif weights == "float":
        w = rng.uniform(0.1, 3.0, n)
    return y, s, w


CASES = [(seed, dec, nb) for seed in range(12) for dec, nb in
         ((None, 10), (2, 10), (1, 7), (2, 23), (None, 1), (3, 5))]


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize(("seed", "decimals", "n_bins"), CASES)
def test_cal001_bins_match_sklearn_calibration_curve(seed, decimals, n_bins, strategy):
    n = (40, 101, 300, 1001)[seed % 4]  # 101, 1001: quantile positions land on data values
    y, s, _ = _data(seed, n, decimals=decimals)
    c = calibration(y, s, n_bins=n_bins, strategy=strategy)
    prob_true, prob_pred = calibration_curve(y, s, n_bins=n_bins, strategy=strategy)
    assert c.fraction_positive.size == prob_true.size
    np.testing.assert_allclose(c.fraction_positive, prob_true, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(c.mean_predicted, prob_pred, rtol=1e-12, atol=1e-15)
    if strategy == "quantile":
        np.testing.assert_array_equal(c.edges, np.percentile(s, np.linspace(0, 1, n_bins + 1)
                                                             * 100))


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("seed", range(6))
def test_cal002_whole_weights_equal_repeated_rows(seed, strategy):
    y, s, w = _data(seed, 150, decimals=2 if seed % 2 else None, weights="int")
    c = calibration(y, s, weights=w, n_bins=8, strategy=strategy)
    ry, rs = np.repeat(y, w.astype(int)), np.repeat(s, w.astype(int))
    prob_true, prob_pred = calibration_curve(ry, rs, n_bins=8, strategy=strategy)
    np.testing.assert_allclose(c.fraction_positive, prob_true, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(c.mean_predicted, prob_pred, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(c.count.sum(), w.sum())
    assert c.brier == pytest.approx(brier_score_loss(ry, rs), rel=1e-12)


@pytest.mark.parametrize("weights", [None, "int", "float"])
@pytest.mark.parametrize("seed", range(5))
def test_cal003_brier_matches_sklearn(seed, weights):
    y, s, w = _data(seed, 200, decimals=2 if seed % 2 else None, weights=weights)
    expected = brier_score_loss(y, s, sample_weight=w)
    assert calibration(y, s, weights=w).brier == pytest.approx(expected, rel=1e-12)


def _naive_ece(y, s, w, edges):
    """ECE, MCE and per-bin numbers by a loop over bins and rows."""
    w = np.ones(s.size) if w is None else w
    total, ece, mce = w.sum(), 0.0, 0.0
    for b in range(edges.size - 1):
        lo, hi = edges[b], edges[b + 1]
        rows = [i for i in range(s.size) if (s[i] > lo or (b == 0 and s[i] >= lo))
                and (s[i] <= hi or b == edges.size - 2)]
        n_b = sum(w[i] for i in rows)
        if n_b == 0:
            continue
        gap = abs(sum(w[i] * y[i] for i in rows) / n_b - sum(w[i] * s[i] for i in rows) / n_b)
        ece += n_b / total * gap
        mce = max(mce, gap)
    return ece, mce


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("weights", [None, "float"])
@pytest.mark.parametrize("seed", range(4))
def test_cal004_ece_and_mce_match_a_naive_loop(seed, weights, strategy):
    y, s, w = _data(seed, 120, decimals=2 if seed % 2 else None, weights=weights)
    c = calibration(y, s, weights=w, n_bins=6, strategy=strategy)
    ece, mce = _naive_ece(y, s, w, c.edges)
    assert c.ece == pytest.approx(ece, rel=1e-12)
    assert c.mce == pytest.approx(mce, rel=1e-12)


def test_cal005_chance_ece_is_the_ece_of_calibrated_labels():
    """ece_chance predicts the mean ECE of labels drawn with probability equal to the score
    (simulated, 400 draws)."""
    rng = np.random.default_rng(5)
    s = rng.beta(2, 3, 3000)
    eces, chance = [], set()
    for _ in range(400):
        y = rng.random(s.size) < s
        c = calibration(y, s, n_bins=10)
        eces.append(c.ece)
        chance.add(round(c.ece_chance, 12))
    assert len(chance) == 1  # it depends on the scores only
    assert np.mean(eces) == pytest.approx(chance.pop(), rel=0.08)


def _isotonic(s, y, w=None):
    return IsotonicRegression(increasing=True, out_of_bounds="clip").fit(s, y, sample_weight=w)


@pytest.mark.parametrize(("seed", "decimals"), [(k, (None, 1, 2, 3)[k % 4]) for k in range(24)])
def test_cal006_hull_map_is_pav_on_every_observed_score(seed, decimals):
    n = (8, 30, 200, 1000)[seed % 4]
    y, s, _ = _data(seed, n, decimals=decimals, shift=(0.3, 1.5, 3.0)[seed % 3])
    got = hull_calibration(roc_curve(y, s)).calibrated_scores(s)
    np.testing.assert_allclose(got, _isotonic(s, y).predict(s), rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("weights", ["int", "float"])
@pytest.mark.parametrize("seed", range(10))
def test_cal007_hull_map_is_weighted_pav(seed, weights):
    y, s, w = _data(seed, 250, decimals=2 if seed % 2 else None, weights=weights)
    got = calibration(y, s, weights=w).hull_map.calibrated_scores(s)
    np.testing.assert_allclose(got, _isotonic(s, y, w).predict(s), rtol=1e-10, atol=1e-13)


def test_cal008_between_and_beyond_the_observed_scores():
    """Outside the range seen: clipped as out_of_bounds="clip". Between two scores seen: the
    value of the largest score seen below (the hull's threshold rule), where scikit-learn
    interpolates linearly."""
    y, s, _ = _data(3, 300, decimals=2)
    hm = hull_calibration(roc_curve(y, s))
    iso = _isotonic(s, y)
    outside = np.array([s.min() - 1.0, s.min() - 1e-9, s.max() + 1e-9, s.max() + 5.0])
    np.testing.assert_allclose(hm.calibrated_scores(outside), iso.predict(outside), rtol=1e-12)
    seen = np.unique(s)
    mid = (seen[:-1] + seen[1:]) / 2
    np.testing.assert_allclose(hm.calibrated_scores(mid), iso.predict(seen[:-1]), rtol=1e-12)


def test_cal009_probability_is_the_segment_share_of_positives_and_follows_the_prior():
    """π·m / (π·m + 1 − π) equals ΔTP / (ΔTP + ΔFP) counted over the rows of each step, and
    a prior π' multiplies the odds by π'(1 − π) / ((1 − π')π) (Bayes' rule, rates fixed)."""
    y, s, _ = _data(7, 400, decimals=2)
    hm = hull_calibration(roc_curve(y, s))
    for k in range(len(hm)):
        rows = (s >= hm.lower[k]) & (s < hm.upper[k])
        if k == 0:
            rows |= s < hm.lower[0]
        assert hm.probability[k] == pytest.approx(y[rows].mean(), rel=1e-12)
        assert hm.positives[k] == pytest.approx(y[rows].sum())
    pi, pi2 = y.mean(), 0.05
    shifted = hull_calibration(roc_curve(y, s), prior_pos=pi2).probability
    inner = (hm.probability > 0) & (hm.probability < 1)
    odds = hm.probability[inner] / (1 - hm.probability[inner])
    odds2 = odds * pi2 * (1 - pi) / ((1 - pi2) * pi)
    np.testing.assert_allclose(shifted[inner], odds2 / (1 + odds2), rtol=1e-12)
    np.testing.assert_array_equal(shifted[~inner], hm.probability[~inner])


def test_cal010_sklearn_pools_scores_closer_than_its_resolution_the_roc_does_not():
    """The one tie rule that differs, stated in the module docstring of this file."""
    a = 0.5
    b = a + 4e-16  # a different float, less than 1e-15 above
    s = np.array([0.1, a, b, 0.9])
    y = np.array([False, False, True, True])  # a perfect ranking
    iso = _isotonic(s, y)
    assert iso.predict([a])[0] == 0.5  # a and b pooled: half positive
    hm = hull_calibration(roc_curve(y, s))
    np.testing.assert_array_equal(hm.calibrated_scores(s), [0.0, 0.0, 1.0, 1.0])  # apart


def test_cal011_fawcett_figure_4_worked_example():
    """Fawcett 2004, section 3.1: a perfect ranking (AUC 1) whose scores are not calibrated:
    the hull is vertical then horizontal, so PAV maps positives to 1 and negatives to 0."""
    y = np.array([c == "p" for c in FIG4_CLASS])
    s = np.array(FIG4_SCORE)
    c = calibration(y, s, n_bins=5)
    np.testing.assert_array_equal(c.hull_map.calibrated_scores(s), y.astype(float))
    np.testing.assert_array_equal(c.hull_map.probability, [0.0, 1.0])
    assert c.brier == pytest.approx(np.mean((s - y) ** 2))
    assert c.in_unit_interval


def test_cal012_scores_outside_the_unit_interval_get_only_the_hull_map():
    rng = np.random.default_rng(0)
    y = rng.random(300) < 0.4
    s = rng.normal(size=300) + 2 * y  # margins, not probabilities
    c = calibration(y, s)
    assert not c.in_unit_interval
    assert all(math.isnan(v) for v in (c.brier, c.ece, c.mce, c.ece_chance))
    assert c.mean_predicted.size == c.count.size == 0
    assert "not probabilities" in c.note and "hull-calibrated" in c.note
    np.testing.assert_allclose(c.hull_map.calibrated_scores(s), _isotonic(s, y).predict(s),
                               rtol=1e-12, atol=1e-15)


def test_cal013_bad_calibration_note_only_when_beyond_chance():
    rng = np.random.default_rng(1)
    p = rng.beta(2, 3, 5000)
    y = rng.random(p.size) < p
    calibrated = calibration(y, p)
    assert calibrated.notes == () and calibrated.ece < ECE_LIMIT
    overconfident = calibration(y, np.clip(0.5 + 2.5 * (p - 0.5), 0, 1))
    assert overconfident.ece > ECE_LIMIT and "Badly calibrated" in overconfident.note
    # a tiny sample: an ECE above the limit that chance alone explains is not flagged
    small = calibration(y[:30], p[:30])
    assert small.ece > ECE_LIMIT and small.ece <= 2 * small.ece_chance and small.notes == ()


def test_cal014_bad_inputs_say_what_to_do():
    y, s, _ = _data(0, 50)
    with pytest.raises(ValueError, match="n_bins must be a whole number"):
        calibration(y, s, n_bins=0)
    with pytest.raises(ValueError, match="strategy must be one of uniform, quantile"):
        calibration(y, s, strategy="equal")
    with pytest.raises(ValueError, match="prior_pos must lie strictly between 0 and 1"):
        calibration(y, s, prior_pos=1.0)
    with pytest.raises(ValueError, match="no negative instances"):
        calibration(np.ones(5, dtype=bool), np.linspace(0, 1, 5))
    with pytest.raises(ValueError, match="must be finite"):
        calibration(y, s).hull_map.calibrated_scores([0.5, np.nan])


def test_cal015_counts_and_edges_from_the_curve():
    """score_counts recovers the rows' counts per distinct score; bin_edges' quantiles are
    np.percentile of the repeated scores."""
    y, s, w = _data(4, 200, decimals=2, weights="int")
    scores, pos, neg = score_counts(roc_curve(y, s, weights=w))
    np.testing.assert_array_equal(scores, np.unique(s))
    np.testing.assert_array_equal(pos, [w[(s == v) & y].sum() for v in scores])
    np.testing.assert_array_equal(neg, [w[(s == v) & ~y].sum() for v in scores])
    rep = np.repeat(s, w.astype(int))
    for n_bins in (1, 3, 10, 17):
        np.testing.assert_array_equal(bin_edges(scores, pos + neg, n_bins, "quantile"),
                                      np.percentile(rep, np.linspace(0, 1, n_bins + 1) * 100))
    c = calibration_from_curve(roc_curve(y, s, weights=w), n_bins=4, strategy="quantile")
    assert c.count.sum() == pytest.approx(w.sum())
