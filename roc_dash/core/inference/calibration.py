"""Can the scores be read as probabilities? Reliability, Brier score, calibration errors and the
ROC convex hull's calibration map.

* The **reliability diagram** (DeGroot & Fienberg 1983; Niculescu-Mizil & Caruana 2005, "Predicting
  good probabilities with supervised learning", ICML): the scores are cut into bins
  and each bin's mean score is set against the fraction of positives in it; a calibrated
  model lies on the diagonal. The bins are those of scikit-learn's ``calibration_curve``.
* The **Brier score** (Brier 1950), the mean squared difference between score and outcome,
  and the **expected** and **maximum calibration errors** (Naeini, Cooper & Hauskrecht 2015,
  "Obtaining well calibrated probabilities using Bayesian binning", AAAI): the
  bin-count-weighted mean and the maximum of ``|fraction positive − mean score|`` over the
  bins.
* The **hull's calibration map**: the pool-adjacent-violators algorithm (isotonic regression of
  the labels on the scores) gives exactly the slopes of the ROC convex hull (Fawcett &
  Niculescu-Mizil 2007, "PAV and the ROC convex hull", Machine Learning 68:97–106: "isotonic
  regression based calibration using the Pool Adjacent Violators algorithm is equivalent to
  the ROC convex hull method"). A score falling in the hull segment of slope ``m`` gets the
  probability ``π·m / (π·m + (1−π))``, ``π`` the prevalence: the segment's share of
  positives ``ΔTP / (ΔTP + ΔFP)``. Fawcett (2004, section 3.1) notes that
  ROC analysis needs no calibrated scores; this map is what calibration the hull implies.

Everything is read off a model's ROC curve (:func:`~roc_dash.core.roc.curves.roc_curve`), which
holds the (weighted) numbers of positives and negatives at each distinct score: one sort of
the scores, weights as instance counts, and aggregated inputs give the same numbers as the
rows they summarise.

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, section 3.1 (Relative versus absolute scores).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._results import length_of
from .._validation import as_scores, check_binary_inputs
from ..roc.curve_geometry import whole_counts
from ..roc.curves import RocCurve, roc_curve
from ..roc.hull import RocHull, convex_hull

__all__ = [
    "ECE_LIMIT", "STRATEGIES", "HullCalibration", "Calibration", "calibration",
    "calibration_from_curve", "hull_calibration", "score_counts", "bin_edges",
]

#: ECE above which (and above twice :attr:`Calibration.ece_chance`) a model is called badly
#: calibrated; see :func:`calibration_from_curve`.
ECE_LIMIT = 0.05
#: Binning strategies of the reliability diagram (as scikit-learn's ``calibration_curve``).
STRATEGIES = ("uniform", "quantile")
_HALF_NORMAL_MEAN = math.sqrt(2.0 / math.pi)  # E|Z| for a standard normal Z


@dataclass(frozen=True, eq=False)
class HullCalibration:
    """The ROC convex hull's calibration map: a non-decreasing step function of the score.

    Step ``k`` covers the scores ``lower[k] <= s < upper[k]`` (ascending): the instances a
    hull segment adds, under the rule "positive iff score >= threshold", so a score equal to
    a hull vertex's threshold belongs to the segment ending at that vertex, with the
    instances tied at it. Scores below ``lower[0]`` (the smallest score seen) map to the
    first step, scores at or above the last step's ``lower`` to the last
    (``upper[-1] = inf``).

    Attributes
    ----------
    lower, upper : ndarray of float64
        Score range of each step (ascending).
    probability : ndarray of float64
        Calibrated probability of each step, ``π·m / (π·m + (1−π))`` (non-decreasing).
    slope : ndarray of float64
        The hull segment's slope ``m = (ΔTPR) / (ΔFPR)`` (``inf`` for a vertical segment).
    positives, negatives : ndarray of float64
        (Weighted) positives and negatives scoring in the step.
    prior_pos : float
        The prevalence ``π`` of the map (the test set's unless another was given).
    score_min, score_max : float
        Smallest and largest score seen.
    """

    lower: np.ndarray
    upper: np.ndarray
    probability: np.ndarray
    slope: np.ndarray
    positives: np.ndarray
    negatives: np.ndarray
    prior_pos: float
    score_min: float
    score_max: float

    __len__ = length_of("lower")

    def calibrated_scores(self, scores) -> np.ndarray:
        """The calibrated probability of each score (any finite score; outside the range
        seen, the nearest step's, as ``IsotonicRegression(out_of_bounds="clip")``).

        Between two scores seen the value is the step's, not a linear interpolation as
        scikit-learn's ``IsotonicRegression.predict``: the map is what the hull's
        thresholds do ("positive iff score >= t"), so it agrees with PAV on every score
        seen and with the hull on every other.
        """
        s = as_scores(scores)
        if s.size and not np.isfinite(s).all():
            raise ValueError("scores to calibrate must be finite (no NaN or infinity)")
        k = np.searchsorted(self.lower, s, side="right") - 1
        return self.probability[np.clip(k, 0, self.lower.size - 1)]


@dataclass(frozen=True, eq=False)
class Calibration:
    """How well one model's scores read as probabilities.

    The reliability bins keep only the non-empty bins (as scikit-learn's
    ``calibration_curve``); with scores outside ``[0, 1]`` they are empty and the numbers
    that need probabilities (``brier``, ``ece``, ``mce``, ``ece_chance``) are NaN: only
    :attr:`hull_map` applies.

    Attributes
    ----------
    strategy : str
        ``"uniform"`` or ``"quantile"`` bins.
    edges : ndarray of float64
        The ``n_bins + 1`` bin edges; bin ``b`` holds the scores ``edges[b] < s <=
        edges[b+1]`` (the first bin includes ``edges[0]``).
    bin : ndarray of int
        Index of each non-empty bin.
    mean_predicted, fraction_positive : ndarray of float64
        Mean score and (weighted) share of positives in each non-empty bin.
    count : ndarray of float64
        (Weighted) instances in each non-empty bin.
    brier : float
        Brier score ``Σ w·(s − y)² / Σ w``.
    ece, mce : float
        Expected (bin-count-weighted mean) and maximum of ``|fraction_positive −
        mean_predicted|`` over the non-empty bins.
    ece_chance : float
        The ECE a perfectly calibrated model with these scores would show from sampling
        alone (normal approximation; see :func:`calibration_from_curve`).
    in_unit_interval : bool
        Every score lies in ``[0, 1]``.
    hull_map : HullCalibration
        The hull's (PAV) calibration map.
    n_pos, n_neg : float
        (Weighted) positives and negatives.
    notes : tuple of str
        Plain-language warnings: scores that are not probabilities, bad calibration.
    """

    strategy: str
    edges: np.ndarray
    bin: np.ndarray
    mean_predicted: np.ndarray
    fraction_positive: np.ndarray
    count: np.ndarray
    brier: float
    ece: float
    mce: float
    ece_chance: float
    in_unit_interval: bool
    hull_map: HullCalibration
    n_pos: float
    n_neg: float
    notes: tuple[str, ...] = ()

    @property
    def note(self) -> str:
        """The notes as one sentence ("" when there is nothing to say)."""
        return " ".join(self.notes)


def score_counts(curve: RocCurve) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(scores, positives, negatives)``: each distinct score of a ROC curve (ascending)
    with the (weighted) positives and negatives scoring exactly it.

    Vertex ``k`` of the curve adds the instances scoring ``thresholds[k]`` (Fawcett 2004,
    section 4, Algorithm 2), so these are the differences of ``TP`` and ``FP`` between
    consecutive vertices; whole counts are recovered exactly (:func:`~.curve_geometry.whole_counts`).
    """
    s = np.asarray(curve.thresholds[1:], dtype=np.float64)[::-1]

    def steps(rates, total):
        c = whole_counts(rates, total)
        c = rates * total if c is None else c
        return np.maximum(np.diff(c), 0.0)[::-1]

    return s, steps(curve.tpr, curve.n_pos), steps(curve.fpr, curve.n_neg)


def _check_prior(prior_pos) -> None:
    if prior_pos is not None and not (isinstance(prior_pos, int | float | np.integer
                                                 | np.floating) and 0.0 < prior_pos < 1.0):
        raise ValueError(f"prior_pos must lie strictly between 0 and 1 (got {prior_pos!r})")


def _check_options(n_bins, strategy, prior_pos) -> None:
    if isinstance(n_bins, bool) or not isinstance(n_bins, int | np.integer) or n_bins < 1:
        raise ValueError(f"n_bins must be a whole number of at least 1 (got {n_bins!r})")
    if strategy not in STRATEGIES:
        raise ValueError(f"strategy must be one of {', '.join(STRATEGIES)} (got {strategy!r})")
    _check_prior(prior_pos)


def bin_edges(scores: np.ndarray, counts: np.ndarray, n_bins: int,
              strategy: str = "uniform") -> np.ndarray:
    """The ``n_bins + 1`` edges of the reliability bins of ``scores`` (ascending, distinct)
    seen ``counts`` times.

    ``"uniform"``: ``n_bins`` equal widths over ``[0, 1]``. ``"quantile"``: the
    ``k / n_bins`` quantiles of the scores, by numpy's default ("linear", Hyndman & Fan
    type 7) interpolation over the scores repeated by their counts, computed from the counts
    without repeating them: for whole counts these are exactly
    ``np.percentile(repeated, 100·k/n_bins)``, the edges of scikit-learn's
    ``calibration_curve(strategy="quantile")``; fractional weights use the same rule on the
    weighted empirical distribution (position ``q·(W − 1)`` of total weight ``W``).
    """
    q = np.linspace(0.0, 1.0, n_bins + 1)
    if strategy == "uniform":
        return q
    # np.percentile(x, 100·q) divides the levels by 100 again; doing the same keeps the
    # virtual positions, hence the edges, bit for bit those of numpy.
    q = (q * 100) / 100
    cum = np.cumsum(counts)
    total = float(cum[-1])
    h = (total - 1.0) * q  # numpy's "linear" virtual index
    lo = np.floor(h)
    hi = lo + 1.0
    at_end = h >= total - 1.0
    gamma = h - lo

    def value_at(pos):  # the score at 0-based position ``pos`` of the repeated scores
        k = np.searchsorted(cum, pos, side="right")
        return scores[np.minimum(k, scores.size - 1)]

    a = np.where(at_end, scores[-1], value_at(lo))
    b = np.where(at_end, scores[-1], value_at(hi))
    # numpy's _lerp: a + (b − a)·t, or b − (b − a)·(1 − t) for t >= 1/2 (exact at the ends)
    d = b - a
    return np.where(gamma >= 0.5, b - d * (1.0 - gamma), a + d * gamma)


def hull_calibration(curve: RocCurve, *, hull: RocHull | None = None,
                     prior_pos: float | None = None) -> HullCalibration:
    """The calibration map of a ROC curve's convex hull (PAV ≡ ROCCH).

    Fawcett & Niculescu-Mizil (2007), their main result: isotonic regression of the labels
    on the scores by the pool-adjacent-violators algorithm pools exactly the instances of each
    hull segment, and its value there is the segment's share of positives
    ``ΔTP / (ΔTP + ΔFP) = π·m / (π·m + (1−π))`` for the segment slope ``m`` and the
    test set's prevalence ``π = P / (P + N)``. Tied scores stay together, as both PAV
    (scikit-learn pools tied inputs first) and the ROC curve (one vertex per distinct score,
    Fawcett 2004 section 4.1) keep them; points below the hull are pooled into the segment
    above them, collinear points into one step.

    With ``prior_pos`` another prevalence ``π'`` is used in the same formula: the
    probabilities a deployment with that class mix should expect (the class-conditional
    score distributions, hence the slopes, unchanged).

    The map is fitted on the data it is shown on: on that data it is calibrated by
    construction (in-sample, optimistic); on new data it is an estimate.

    Parameters
    ----------
    curve : RocCurve
        The model's ROC curve (:func:`~roc_dash.core.roc.curves.roc_curve`).
    hull : RocHull, optional
        ``convex_hull(curve)`` when at hand.
    prior_pos : float, optional
        Prevalence ``π`` of the map; default the curve's ``P / (P + N)``.
    """
    _check_prior(prior_pos)
    h = convex_hull(curve) if hull is None else hull
    pi = curve.n_pos / (curve.n_pos + curve.n_neg) if prior_pos is None else float(prior_pos)
    m = h.segment_slopes[::-1]  # ascending score: the hull's last segment first
    with np.errstate(over="ignore", invalid="ignore"):
        pm = pi * m
        prob = np.where(np.isinf(m), 1.0, pm / (pm + (1.0 - pi)))
    th = np.asarray(h.thresholds, dtype=np.float64)  # +inf first, decreasing
    scores = np.asarray(curve.thresholds[1:], dtype=np.float64)
    return HullCalibration(
        lower=th[1:][::-1].copy(),
        upper=th[:-1][::-1].copy(),
        probability=prob,
        slope=m.copy(),
        positives=np.diff(h.tpr)[::-1] * curve.n_pos,
        negatives=np.diff(h.fpr)[::-1] * curve.n_neg,
        prior_pos=float(pi),
        score_min=float(scores.min()),
        score_max=float(scores.max()),
    )


def _reliability(s, pos, neg, edges, n_bins):
    """Per-bin sums of the reliability diagram from distinct scores and their counts: the
    bin of each score as ``calibration_curve`` assigns it (``searchsorted`` on the inner
    edges: a score on an edge falls in the lower bin)."""
    ids = np.searchsorted(edges[1:-1], s)
    n = pos + neg
    count = np.bincount(ids, weights=n, minlength=n_bins)
    pred = np.bincount(ids, weights=n * s, minlength=n_bins)
    true = np.bincount(ids, weights=pos, minlength=n_bins)
    var = np.bincount(ids, weights=n * s * (1.0 - s), minlength=n_bins)
    used = np.flatnonzero(count > 0)
    return used, count[used], pred[used] / count[used], true[used] / count[used], var[used]


def _notes(in_unit, s, ece, ece_chance) -> tuple[str, ...]:
    if not in_unit:
        return (f"These scores are not probabilities (they range from {s[0]:.6g} to "
                f"{s[-1]:.6g}, outside [0, 1]): no reliability diagram, Brier score or "
                "calibration error; the hull-calibrated map turns them into probabilities.",)
    if ece > ECE_LIMIT and ece > 2.0 * ece_chance:
        return (f"Badly calibrated: the scores are off the observed frequency of positives by "
                f"{ece:.6g} on average (ECE; a calibrated model would show about "
                f"{ece_chance:.6g} from chance alone). Read them as probabilities only after "
                "recalibration, e.g. with the hull-calibrated map.",)
    return ()


def calibration_from_curve(curve: RocCurve, *, n_bins: int = 10, strategy: str = "uniform",
                           hull: RocHull | None = None,
                           prior_pos: float | None = None) -> Calibration:
    """Reliability diagram, Brier score, ECE, MCE and the hull's calibration map of a model.

    Read off the (weighted) counts at each distinct score of ``curve``
    (:func:`score_counts`), so weights are instance counts and the result is that of the
    rows the curve came from.

    *Bins* follow scikit-learn's ``calibration_curve``: ``"uniform"`` edges
    ``linspace(0, 1, n_bins + 1)`` or ``"quantile"`` edges (:func:`bin_edges`); a score on
    an inner edge counts in the lower bin; empty bins are dropped.

    *Errors* (Naeini et al. 2015): ``ECE = Σ_b (n_b / n)·|o_b − e_b|`` and
    ``MCE = max_b |o_b − e_b|`` for bin ``b``'s weighted count ``n_b``, fraction of
    positives ``o_b`` and mean score ``e_b``.

    *When a note says "badly calibrated"*: ``ECE > ECE_LIMIT = 0.05`` *and*
    ``ECE > 2·ece_chance``. The first is a tolerance on the probability scale: the scores
    miss the observed frequency of positives by more than five percentage points on
    average, which is the whole width of many decision thresholds' plausible range (a
    threshold probability of 0.1 against 0.15 is a cost ratio of 1:9 against 1:5.7, see
    :mod:`.decision_curve`). The second asks that the gap be more than sampling noise:
    ``ece_chance`` is what a perfectly
    calibrated model with the same scores would show from sampling alone: if each label
    were a Bernoulli draw with probability its score, ``o_b − e_b`` would have mean 0 and
    variance ``Σ_{i∈b} w_i s_i (1 − s_i) / n_b²`` (weights as counts), and a normal
    ``|Z|`` has mean ``σ·√(2/π)``; so ``ece_chance = Σ_b (n_b / n)·√(2/π)·σ_b``. The
    second condition keeps small samples, whose ECE is mostly noise, from being flagged.

    Parameters
    ----------
    curve : RocCurve
        The model's ROC curve.
    n_bins : int, default 10
        Number of bins.
    strategy : {"uniform", "quantile"}, default "uniform"
    hull : RocHull, optional
        ``convex_hull(curve)`` when at hand.
    prior_pos : float, optional
        Prevalence of the hull map (:func:`hull_calibration`); the reliability numbers
        always use the data's own labels.

    Returns
    -------
    Calibration

    Raises
    ------
    ValueError
        On ``n_bins`` below 1, an unknown ``strategy`` or a prior outside ``(0, 1)``.
    """
    _check_options(n_bins, strategy, prior_pos)
    hull_map = hull_calibration(curve, hull=hull, prior_pos=prior_pos)
    s, pos, neg = score_counts(curve)
    in_unit = bool(s[0] >= 0.0 and s[-1] <= 1.0)
    nan = math.nan
    if not in_unit:
        empty = np.empty(0)
        return Calibration(
            strategy=strategy, edges=np.full(n_bins + 1, nan), bin=np.empty(0, dtype=np.intp),
            mean_predicted=empty, fraction_positive=empty, count=empty, brier=nan, ece=nan,
            mce=nan, ece_chance=nan, in_unit_interval=False, hull_map=hull_map,
            n_pos=curve.n_pos, n_neg=curve.n_neg, notes=_notes(False, s, nan, nan))
    total = curve.n_pos + curve.n_neg
    edges = bin_edges(s, pos + neg, n_bins, strategy)
    used, count, mean_pred, frac_pos, var = _reliability(s, pos, neg, edges, n_bins)
    gap = np.abs(frac_pos - mean_pred)
    ece = float(np.dot(count, gap) / total)
    ece_chance = float(_HALF_NORMAL_MEAN * np.sum(np.sqrt(var)) / total)
    brier = float((np.dot(pos, (1.0 - s) ** 2) + np.dot(neg, s ** 2)) / total)
    return Calibration(
        strategy=strategy, edges=edges, bin=used, mean_predicted=mean_pred,
        fraction_positive=frac_pos, count=count, brier=brier, ece=ece,
        mce=float(gap.max()), ece_chance=ece_chance, in_unit_interval=True,
        hull_map=hull_map, n_pos=curve.n_pos, n_neg=curve.n_neg,
        notes=_notes(True, s, ece, ece_chance))


def calibration(labels, scores, *, weights=None, pos_label=None, n_bins: int = 10,
                strategy: str = "uniform", prior_pos: float | None = None) -> Calibration:
    """:func:`calibration_from_curve` of the ROC curve of ``scores`` against ``labels``.

    See :func:`~roc_dash.core.roc.curves.roc_curve` for ``labels``, ``scores``, ``weights``
    (non-negative instance counts) and ``pos_label``; both classes must be present.
    """
    _check_options(n_bins, strategy, prior_pos)
    y, s, w = check_binary_inputs(labels, scores, weights, pos_label=pos_label)
    return calibration_from_curve(roc_curve(y, s, weights=w), n_bins=n_bins,
                                  strategy=strategy, prior_pos=prior_pos)
