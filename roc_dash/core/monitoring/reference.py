"""The reference a deployment is monitored against.

A reference is the shipped decision (threshold, costs, benefits, deployment prior and its
confusion matrix on the data it was taken on) and, when those data's predictions are at
hand, their score distribution by class: the ROC curve, its convex hull (where the choice
is re-derived when the prior moves: Fawcett 2004, section 7.1, the hull stays and the
iso-performance slope moves) and the hull's calibration map (Fawcett & Niculescu-Mizil
2007: PAV is the ROCCH), which turns scores into the posteriors the prevalence estimators
need.

Scores are compared on a :class:`ScoreGrid` of bins: the hull's thresholds (where the
calibration map steps), the deployed threshold and up to :data:`MAX_BINS` quantiles of the
reference's scores. The map is constant inside a bin and the threshold is a bin edge, so a
window's share flagged, its mean posterior and its EM estimate are those of its rows
exactly; only the score-distribution tests see the scores through the bins.

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", 2004,
section 7.1.
T. Fawcett, A. Niculescu-Mizil, "PAV and the ROC convex hull", Machine Learning 68(1):97-106,
2007.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._forward import forwarded
from .._results import length_of
from ..decisions.drift import CostReference
from ..decisions.drift import reference_from_counts as drift_reference_from_counts
from ..decisions.economics import Economics, expected_cost_per_case
from ..decisions.operating import vertex_at_threshold
from ..inference.calibration import HullCalibration, hull_calibration, score_counts
from ..roc.confusion import ConfusionCounts
from ..roc.curves import RocCurve, curve_of_runs, roc_curve
from ..roc.hull import RocHull, convex_hull

__all__ = ["MAX_BINS", "ScoreGrid", "Reference", "reference_from_counts",
           "reference_from_curve", "reference_from_scores", "curve_of_counts"]

#: Quantile bins of the reference's scores at most (the hull's thresholds and the deployed
#: threshold are edges besides).
MAX_BINS = 1000


@dataclass(frozen=True, eq=False)
class ScoreGrid:
    """Score bins: bin ``k`` holds the scores ``s`` with ``edges[k] <= s < edges[k + 1]``;
    ``edges[0]`` is ``-inf`` and the last bin is open above.

    Attributes
    ----------
    edges : ndarray of float64
        Lower edges, ascending, ``-inf`` first.
    representative : ndarray of float64
        A score of each bin (its lower edge; the first bin's: the smallest reference
        score), used as the bin's threshold when a curve is made of binned counts.
    """

    edges: np.ndarray
    representative: np.ndarray

    __len__ = length_of("edges")

    def bin_of(self, scores) -> np.ndarray:
        """The bin of each score."""
        s = np.asarray(scores, dtype=np.float64)
        return np.searchsorted(self.edges, s, side="right") - 1

    def counts(self, scores, weights=None) -> np.ndarray:
        """(Weighted) number of scores in each bin."""
        w = None if weights is None else np.asarray(weights, dtype=np.float64)
        return np.bincount(self.bin_of(scores), weights=w,
                           minlength=len(self)).astype(np.float64)

    def sums_of_sorted(self, scores, *values) -> list[np.ndarray]:
        """Per bin, the sums of each of ``values`` over ``scores`` sorted ascending (a
        window's distinct scores): the bins' ends found in the scores, then differences of
        cumulative sums (no search per score)."""
        s = np.asarray(scores, dtype=np.float64)
        ends = np.concatenate(([0], np.searchsorted(s, self.edges[1:], side="left"),
                               [s.size]))
        out = []
        for v in values:
            cum = np.concatenate(([0.0], np.cumsum(v, dtype=np.float64)))
            out.append(np.diff(cum[ends]))
        return out

    def first_at_or_above(self, threshold: float) -> int:
        """The first bin whose scores are all ``>= threshold`` (``len(self)`` for ``+inf``);
        exact when ``threshold`` is an edge."""
        if math.isinf(threshold) and threshold > 0:
            return len(self)
        return int(np.searchsorted(self.edges, threshold, side="left"))


def _grid(scores: np.ndarray, counts: np.ndarray, cuts: np.ndarray, threshold: float,
          max_bins: int) -> ScoreGrid:
    """Edges at ``cuts`` (the hull's thresholds), at ``threshold`` and at up to ``max_bins``
    quantiles of ``scores`` (distinct, ascending) seen ``counts`` times."""
    if scores.size <= max_bins:
        quantiles = scores
    else:
        cum = np.cumsum(counts)
        at = np.searchsorted(cum, np.linspace(0.0, cum[-1], max_bins + 1)[1:-1], side="left")
        quantiles = scores[np.minimum(at + 1, scores.size - 1)]
    inner = np.concatenate((quantiles, cuts[np.isfinite(cuts)]))
    bottom = scores[0]
    if math.isfinite(threshold):
        inner = np.append(inner, threshold)
        if threshold <= scores[0]:  # an edge of its own, nothing of the reference below it
            inner = np.append(inner, scores[0])
            bottom = np.nextafter(threshold, -np.inf)
    inner = np.unique(inner)
    inner = inner[inner > bottom]
    edges = np.concatenate(([-np.inf], inner))
    representative = np.concatenate(([bottom], inner))
    return ScoreGrid(edges=edges, representative=representative)


def curve_of_counts(scores, positives, negatives) -> RocCurve:
    """The ROC curve of distinct scores (ascending) with the (weighted) positives and
    negatives scoring each: Fawcett's (2004, section 4, Algorithm 2) vertices, one per
    distinct score, from cumulative sums (no sort)."""
    s = np.asarray(scores, dtype=np.float64)
    runs = [np.concatenate(([np.inf], s[::-1])), np.cumsum(positives, dtype=np.float64),
            np.cumsum(negatives, dtype=np.float64)]
    return curve_of_runs(runs)


@dataclass(frozen=True, eq=False)
class Reference:
    """What a deployment is monitored against (see the module docstring).

    Attributes
    ----------
    threshold : float
        The deployed rule: flag a case iff its score is ``>= threshold``.
    prior_pos : float
        The decision's deployment prior ``p(+)``.
    economics : Economics
        The decision's costs and benefits.
    tp, fp, fn, tn : float
        The decision's (weighted) confusion matrix on the reference data.
    model : str
    curve, hull, calibration : optional
        The reference predictions' ROC curve, its convex hull and the hull's calibration
        map (at the reference's prevalence); ``None`` without the predictions.
    grid : ScoreGrid or None
    positives, negatives : ndarray or None
        The reference's (weighted) positives and negatives per grid bin.
    posterior : ndarray or None
        The calibrated posterior ``P(+ | score)`` of each grid bin at the reference's
        prevalence.
    drift : CostReference
        The reference side of the drift test of a labelled window, the CI gate's
        (:func:`roc_dash.core.decisions.drift.cost_drift_test`): the decision's cost and its standard
        error, corrected for the choice of the threshold on the reference data when it was
        chosen as their optimum (:func:`roc_dash.core.decisions.drift.reference_from_sample`, a
        record's ``drift_reference``); by default that of a threshold fixed in advance
        (binomial variances of the counts).
    """

    threshold: float
    prior_pos: float
    economics: Economics
    tp: float
    fp: float
    fn: float
    tn: float
    model: str = ""
    curve: RocCurve | None = None
    hull: RocHull | None = None
    calibration: HullCalibration | None = None
    grid: ScoreGrid | None = None
    positives: np.ndarray | None = None
    negatives: np.ndarray | None = None
    posterior: np.ndarray | None = None
    drift: CostReference | None = None

    def __post_init__(self):
        if self.drift is None:  # a threshold fixed in advance
            object.__setattr__(self, "drift", drift_reference_from_counts(
                self.threshold, self.tp, self.fp, self.fn, self.tn,
                prior_pos=self.prior_pos, economics=self.economics))

    @property
    def confusion(self) -> ConfusionCounts:
        """The decision's confusion matrix on the reference (its rates, class totals)."""
        return ConfusionCounts(self.threshold, self.tp, self.fp, self.fn, self.tn)

    n_pos = forwarded("confusion", "n_pos")
    n_neg = forwarded("confusion", "n_neg")

    @property
    def prevalence(self) -> float:
        """The reference data's share of positives (the prior its posteriors carry)."""
        return self.n_pos / (self.n_pos + self.n_neg)

    tpr = forwarded("confusion", "tpr")
    fpr = forwarded("confusion", "fpr")

    @property
    def has_scores(self) -> bool:
        """True when the reference predictions are at hand (hull, map, grid)."""
        return self.grid is not None

    @property
    def expected_cost(self) -> float:
        """The decision's expected cost per case at its prior."""
        return float(expected_cost_per_case(self.fpr, self.tpr, self.prior_pos,
                                            self.economics))

    @property
    def flagged_bin(self) -> int:
        """The first grid bin flagged by the threshold."""
        return self.grid.first_at_or_above(self.threshold)


def _check_counts(tp, fp, fn, tn) -> tuple[float, float, float, float]:
    out = tuple(float(v) for v in (tp, fp, fn, tn))
    if not all(math.isfinite(v) and v >= 0 for v in out):
        raise ValueError(f"the reference's confusion matrix must hold non-negative counts "
                         f"(got TP {tp!r}, FP {fp!r}, FN {fn!r}, TN {tn!r})")
    if out[0] + out[2] <= 0 or out[1] + out[3] <= 0:
        raise ValueError("the reference needs both classes: its confusion matrix has no "
                         f"{'positive' if out[0] + out[2] <= 0 else 'negative'} case")
    return out


def _check_decision(threshold, prior_pos) -> float:
    t = math.inf if threshold is None else float(threshold)
    if math.isnan(t):
        raise ValueError("the reference threshold must be a number (or +inf), not NaN")
    if not 0.0 < float(prior_pos) < 1.0:
        raise ValueError(f"the reference's prior p(+) must lie strictly between 0 and 1 "
                         f"(got {prior_pos!r})")
    return t


def reference_from_counts(*, threshold: float, prior_pos: float, economics: Economics,
                          tp: float, fp: float, fn: float, tn: float,
                          model: str = "", drift: CostReference | None = None
                          ) -> Reference:
    """A reference of the decision alone (a decision record without its predictions):
    enough for the labelled windows' metrics and drift test and for ACC (Forman 2008),
    not for EM, PACC, the re-derived choice or the score-distribution tests.

    Raises
    ------
    ValueError
        Negative or non-finite counts, a class without cases, a NaN threshold, a prior
        outside (0, 1).
    """
    t = _check_decision(threshold, prior_pos)
    tp, fp, fn, tn = _check_counts(tp, fp, fn, tn)
    return Reference(threshold=t, prior_pos=float(prior_pos), economics=economics,
                     tp=tp, fp=fp, fn=fn, tn=tn, model=str(model), drift=drift)


def reference_from_curve(curve: RocCurve, *, threshold: float, prior_pos: float,
                         economics: Economics, model: str = "",
                         counts: tuple[float, float, float, float] | None = None,
                         max_bins: int = MAX_BINS, drift: CostReference | None = None
                         ) -> Reference:
    """A reference with its predictions, given as their ROC curve.

    Parameters
    ----------
    curve : RocCurve
        The reference predictions' curve (:func:`~roc_dash.core.roc.curves.roc_curve`); with
        weights, their weighted counts.
    threshold, prior_pos, economics
        The decision.
    counts : (tp, fp, fn, tn), optional
        The decision's confusion matrix (a record's); default: counted on the curve at
        ``threshold``.
    max_bins : int
        Quantile bins of the :class:`ScoreGrid` at most.
    drift : CostReference, optional
        See :class:`Reference`.
    """
    t = _check_decision(threshold, prior_pos)
    if counts is None:
        k = vertex_at_threshold(curve, t)
        tp, fp = float(curve.tp[k]), float(curve.fp[k])
        counts = (tp, fp, curve.n_pos - tp, curve.n_neg - fp)
    tp, fp, fn, tn = _check_counts(*counts)
    hull = convex_hull(curve, model=model)
    calibration = hull_calibration(curve, hull=hull)
    scores, pos, neg = score_counts(curve)
    grid = _grid(scores, pos + neg, hull.thresholds, t, max(int(max_bins), 2))
    at = grid.bin_of(scores)
    positives = np.bincount(at, weights=pos, minlength=len(grid)).astype(np.float64)
    negatives = np.bincount(at, weights=neg, minlength=len(grid)).astype(np.float64)
    return Reference(threshold=t, prior_pos=float(prior_pos), economics=economics,
                     tp=tp, fp=fp, fn=fn, tn=tn, model=str(model), curve=curve, hull=hull,
                     calibration=calibration, grid=grid, positives=positives,
                     negatives=negatives,
                     posterior=calibration.calibrated_scores(grid.representative),
                     drift=drift)


def reference_from_scores(labels, scores, *, threshold: float, prior_pos: float,
                          economics: Economics, weights=None, model: str = "",
                          counts: tuple[float, float, float, float] | None = None,
                          max_bins: int = MAX_BINS, drift: CostReference | None = None
                         ) -> Reference:
    """:func:`reference_from_curve` of the rows' ROC curve (labels, scores and weights as
    :func:`~roc_dash.core.roc.curves.roc_curve` takes them)."""
    return reference_from_curve(roc_curve(labels, scores, weights=weights),
                                threshold=threshold, prior_pos=prior_pos,
                                economics=economics, model=model, counts=counts,
                                max_bins=max_bins, drift=drift)
