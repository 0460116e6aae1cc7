"""ROC points and the area under them.

Implements Fawcett (2004), "ROC Graphs: Notes and Practical Considerations for Researchers":

* section 4, Algorithm 2 -- ROC points from one sort of the scores, one point per distinct
  score, so that a run of tied scores yields the single diagonal segment of section 4.1
  (the expected performance, halfway between the optimistic and pessimistic orderings);
* section 5, Algorithm 3 -- the area under the curve by trapezoids, which equals the
  Mann-Whitney statistic with ties counted one half. With whole counts (unweighted rows,
  frequency weights) the area is that statistic counted in integers and rounded once (the
  float nearest the exact value, :func:`auc`); weighted sums are summed by trapezoids.

Weights are instance counts (or example-specific costs, section 7.2): every count below is a
sum of weights, so an aggregated input (score histograms, leaf counts) and the raw rows it
summarises give the same curve.

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, section 4; Algorithm 2.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd

from .._validation import check_binary_inputs, check_finite_scores
from ._exact_paths import (
    AREA_BLOCK,
    area_of_pairs,
    grid_cells,
    grid_digits,
    magnitude_bits,
    runs_of_order,
    runs_on_grid,
    signed_rows,
    sorted_keys,
    trapezoids,
    twice_pairs_of_counts,
    vertices_of_keys,
    weighted_order,
)

__all__ = [
    "RocCurve",
    "OperatingPoint",
    "roc_curve",
    "curve_of_runs",
    "score_runs",
    "sorted_run_ends",
    "roc_curve_with_counts",
    "roc_auc",
    "auc",
    "best_accuracy",
    "accuracy_at_threshold",
    "accuracy_at_thresholds",
    "gini",
]


@dataclass(frozen=True, eq=False)
class RocCurve:
    """The vertices of an empirical ROC curve, from (0, 0) to (1, 1).

    Attributes
    ----------
    fpr, tpr : ndarray of float64
        False and true positive rates of each vertex, non-decreasing.
    thresholds : ndarray of float64
        ``thresholds[k]`` is the score threshold of vertex ``k``: an instance is called
        positive when its score is ``>= thresholds[k]``. ``thresholds[0]`` is ``+inf``
        (nothing is called positive); the last is the smallest score (everything is).
    n_pos, n_neg : float
        Total (weighted) positives P and negatives N.
    """

    fpr: np.ndarray
    tpr: np.ndarray
    thresholds: np.ndarray
    n_pos: float
    n_neg: float

    @property
    def tp(self) -> np.ndarray:
        """(Weighted) true positives at each vertex, ``tpr * P``."""
        return self.tpr * self.n_pos

    @property
    def fp(self) -> np.ndarray:
        """(Weighted) false positives at each vertex, ``fpr * N``."""
        return self.fpr * self.n_neg

    def __len__(self) -> int:
        return int(self.fpr.size)


def _made_rising(curve: RocCurve) -> RocCurve:
    """Mark a curve this module made, from (0, 0) with both rates non-decreasing by
    construction, so that :func:`roc_dash.core.roc.hull.convex_hull` need not check it again (a
    plain attribute, not a field: a curve made otherwise, or by ``dataclasses.replace``,
    has none and is checked)."""
    object.__setattr__(curve, "_rising", True)
    return curve


@dataclass(frozen=True)
class OperatingPoint:
    """One vertex of a ROC curve with the threshold that produces it."""

    index: int
    fpr: float
    tpr: float
    threshold: float
    value: float
    """The criterion that selected the point (accuracy for :func:`best_accuracy`)."""


_ONE = np.uint64(1)
# XOR turning ``bits << 1`` of a negative float into its order key (every bit but the label's).
_NEG_FLIP = np.uint64(0xFFFF_FFFF_FFFF_FFFE)


def _runs_by_label_key(y: np.ndarray, s: np.ndarray):
    """One sort of the scores with the label riding in the lowest bit of the sort key.

    Exact for every finite score: the keys of :func:`~roc_dash.core.roc._exact_paths.sorted_keys`
    (about one ``np.sort`` of the scores), or, for magnitudes too far apart for them, those
    of :func:`_runs_by_split_key`.

    Returns ``(thresholds, positives_at_or_below, negatives_at_or_below)``: the vertex
    thresholds (``+inf`` first, then the distinct scores descending) and, per distinct score
    ascending, the counts of each class scoring at or below it.
    """
    keyed = sorted_keys(y, s)
    if keyed is None:
        return _runs_by_split_key(y, s)
    n_pos = int(np.count_nonzero(y))
    thresholds, tp, fp = vertices_of_keys(keyed, n_pos, counts=True)
    return thresholds, n_pos - tp[-2::-1], (s.size - n_pos) - fp[-2::-1]


def _runs_by_split_key(y: np.ndarray, s: np.ndarray):
    """:func:`_runs_by_label_key` for any finite scores, each sign sorted on its own.

    The scores are split by sign (negatives first); within
    each half the top (sign) bit of the IEEE pattern is constant, which frees one bit:

    * non-negative ``x``: key ``bits(x)``, which already orders them (``-0.0`` joins this
      half, and dropping its sign bit makes it ``+0.0``);
    * negative ``x``: key ``~bits(x)``, which reverses the order of the magnitudes.

    Either key is below ``2**63``, so ``key << 1 | label`` keeps every bit of the score: two
    rows share a key exactly when their scores are equal and so are their labels. Each half
    is sorted on its own (together about one ``np.sort`` of the scores) and the boundary
    between the halves is always the end of a run.

    Returns ``(thresholds, positives_at_or_below, negatives_at_or_below)``: the vertex
    thresholds (``+inf`` first, then the distinct scores descending) and, per distinct score
    ascending, the counts of each class scoring at or below it.
    """
    n = s.size
    bits = s.view(np.uint64)
    neg = np.less(s, 0.0)
    m = int(np.count_nonzero(neg))
    spare = neg.view(np.uint8)  # a byte per row, reused for the labels after the sort
    k = np.left_shift(bits, _ONE)  # drops the sign bit (so -0.0 -> +0.0) ...
    np.bitwise_or(k, y.view(np.uint8), out=k)  # ... and makes room for the label
    if 0 < m < n:  # both signs: negatives first, each half sorted on its own
        mixed = k
        k = np.empty(n, dtype=np.uint64)
        np.compress(neg, mixed, out=k[:m])
        np.logical_not(neg, out=neg)
        np.compress(neg, mixed, out=k[m:])
        del mixed
        k[:m] ^= _NEG_FLIP
        k[:m].sort()
        k[m:].sort()
    else:
        if m:
            k ^= _NEG_FLIP
        k.sort()
    change = np.empty(n, dtype=bool)
    label = spare
    np.bitwise_and(k, _ONE, out=label, casting="unsafe")
    k >>= _ONE
    np.not_equal(k[1:], k[:-1], out=change[:-1])
    change[-1] = True
    if 0 < m < n:
        change[m - 1] = True  # equal keys on either side of the sign boundary differ in sign
    run_end = np.flatnonzero(change)
    del change
    thresholds = np.empty(run_end.size + 1)
    thresholds[0] = np.inf
    keys = thresholds[1:].view(np.uint64)
    np.take(k, run_end[::-1], out=keys, mode="clip")  # "raise" would buffer `out`
    del k
    if m:  # the runs of negative scores come last (descending): undo their key
        negative_runs = keys[run_end.size - int(np.searchsorted(run_end, m)):]
        np.invert(negative_runs, out=negative_runs)
    cum = np.cumsum(label, dtype=np.int32 if label.size < 2**31 else np.int64)
    del label, spare, neg
    pos_le = cum[run_end].astype(np.int64)
    del cum
    run_end += 1  # instances at or below each distinct score ...
    run_end -= pos_le  # ... of which negatives
    return thresholds, pos_le, run_end


def sorted_run_ends(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each run of equal values of ``values`` (ascending, at least one) ends, and the
    ROC vertex thresholds they give: ``+inf``, then each run's value, highest first
    (``-0.0`` written as ``+0.0``). Fawcett 2004 §4, Algorithm 1: a point per distinct
    score, so that tied scores make one diagonal segment."""
    change = np.empty(values.size, dtype=bool)
    np.not_equal(values[1:], values[:-1], out=change[:-1])
    change[-1] = True
    run_end = np.flatnonzero(change)
    del change
    thresholds = np.empty(run_end.size + 1)
    thresholds[0] = np.inf
    np.take(values, run_end[::-1], out=thresholds[1:], mode="clip")  # "raise" buffers `out`
    thresholds[1:] += 0.0  # -0.0 -> +0.0
    return run_end, thresholds


def _runs_by_weight(y: np.ndarray, s: np.ndarray, w: np.ndarray):
    """Weighted variant of :func:`_runs_by_label_key`: one sort carrying label and weight.

    Each row becomes the complex number ``score + i * (w if positive else -w)``, in the
    order numpy sorts complex numbers: by real part, then imaginary part -- the scores
    ascending, with the label and weight travelling with each (a zero weight counts for
    neither class, whatever the sign of its zero). That order comes from one sort of uint64
    keys holding the rows' indices (:func:`~roc_dash.core.roc._exact_paths.
    weighted_order`) and one gather, or, for magnitudes too far apart for those keys, from
    sorting the complex numbers themselves. Float comparison is exact and ``-0.0 == 0.0``.
    The two classes' cumulative sums run in that order
    (:func:`~roc_dash.core.roc._exact_paths.runs_of_order`).
    """
    spare, distinct = [], []
    z = weighted_order(y, s, w, spare=spare, distinct=distinct)
    if z is None:
        z = signed_rows(y, s, w)
        z.sort()
    return runs_of_order(z, spare, distinct=bool(distinct) and distinct[0])


# Scores with few distinct values (rounded scores, integer scorecards, histograms) are grouped
# by hashing instead of sorted: one pass over the rows, then a sort of the distinct values
# only. Chosen when a sample puts the number of distinct scores at most _HASH_MAX_DISTINCT and
# an eighth of the rows (measured crossovers: about n/5 at 10^6 rows, beyond 2 * 10^5 at
# 10^7, where the hash table outgrows the cache and one sort of the rows is faster).
_HASH_MIN_ROWS = 1 << 15
_HASH_SAMPLE = 1 << 12
_HASH_MAX_DISTINCT = 1 << 17


def _sample(s: np.ndarray) -> np.ndarray | None:
    """A fixed pseudo-random sample of ``_HASH_SAMPLE`` scores (with replacement), or None
    below ``_HASH_MIN_ROWS`` rows."""
    if s.size < _HASH_MIN_ROWS:
        return None
    return s[_sample_rows(s.size, _HASH_SAMPLE)]


@lru_cache(maxsize=16)
def _sample_rows(n: int, size: int) -> np.ndarray:
    """The rows :func:`_sample` reads, ascending (kept: making a generator and its draws
    cost more than the read itself, about 0.02x of one ``np.sort`` of 10^6 scores; in
    order, the read goes through memory one way)."""
    rows = np.sort(np.random.default_rng(0).integers(0, n, size))
    rows.flags.writeable = False
    return rows


def _distinct_estimate(s: np.ndarray, sample: np.ndarray | None = None) -> float:
    """Estimated number of distinct values of ``s`` (``inf`` below ``_HASH_MIN_ROWS`` rows).

    From a fixed pseudo-random sample of rows (with replacement, :func:`_sample`, or the one
    given) by Chao's (1984) estimator ``seen + f1 (f1 - 1) / (2 (f2 + 1))``, where ``f1``
    and ``f2`` count the values seen once and twice: a long tail of values seen once stands
    for many unseen ones. Only the choice of path, hence the speed, depends on it: every
    path is exact.
    """
    sample = _sample(s) if sample is None else sample
    if sample is None:
        return np.inf
    _, counts = np.unique(sample, return_counts=True)
    f1 = int(np.count_nonzero(counts == 1))
    f2 = int(np.count_nonzero(counts == 2))
    return counts.size + f1 * (f1 - 1) / (2.0 * (f2 + 1))


def _runs_by_hash(y: np.ndarray, s: np.ndarray, w: np.ndarray | None, size_hint: int = 1024):
    """Variant of :func:`_runs_by_label_key` for few distinct scores: group, then sort groups.

    ``pandas.factorize`` numbers the distinct scores by hashing (exact float equality, so
    ``-0.0`` and ``+0.0`` are one score), ``np.bincount`` sums each class per score, and
    only the distinct scores are sorted.
    """
    codes, uniques = pd.factorize(s, sort=False, size_hint=size_hint)
    d = uniques.size
    if w is None:
        pos = np.bincount(codes[y], minlength=d)
        neg = np.bincount(codes, minlength=d)
        neg -= pos
    else:
        pos = np.bincount(codes, weights=np.where(y, w, 0.0), minlength=d)
        neg = np.bincount(codes, weights=np.where(y, 0.0, w), minlength=d)
    del codes
    order = np.argsort(uniques)
    thresholds = np.empty(d + 1)
    thresholds[0] = np.inf
    np.take(uniques, order[::-1], out=thresholds[1:])
    thresholds[1:] += 0.0  # -0.0 -> +0.0
    # Cumulative sums of non-negative terms never decrease: the rates stay monotone.
    return thresholds, np.cumsum(pos[order]), np.cumsum(neg[order])


def _runs_of_integers(y: np.ndarray, s: np.ndarray, w: np.ndarray | None):
    """Integer scores that float64 would merge (beyond 2**53): grouped by ``np.unique`` on
    the integers themselves, so every distinct score keeps its own vertex. The thresholds
    are their nearest float64 values (as scikit-learn's), so neighbours may share one."""
    uniques, codes = np.unique(s, return_inverse=True)
    d = uniques.size
    if w is None:
        pos = np.bincount(codes[y], minlength=d)
        neg = np.bincount(codes, minlength=d) - pos
    else:
        pos = np.bincount(codes, weights=np.where(y, w, 0.0), minlength=d)
        neg = np.bincount(codes, weights=np.where(y, 0.0, w), minlength=d)
    thresholds = np.empty(d + 1)
    thresholds[0] = np.inf
    thresholds[1:] = uniques[::-1].astype(np.float64)
    return thresholds, np.cumsum(pos), np.cumsum(neg)


def _runs_on_grid(y: np.ndarray, s: np.ndarray, w: np.ndarray | None,
                  sample: np.ndarray | None, distinct: float):
    """:func:`~roc_dash.core.roc._exact_paths.runs_on_grid` when the sample shows scores on a
    decimal grid of few enough steps (integers, rounded scores), else None. Checks every
    score (None if one is off the grid, or not finite). ``distinct``: the estimated number
    of distinct scores (:func:`_distinct_estimate`: more than the grid's steps, no grid)."""
    cells = grid_cells(s.size)
    if sample is None or distinct > cells / 2:
        return None
    grid = grid_digits(sample, cells)
    return None if grid is None else runs_on_grid(y, s, w, *grid, cells)


def _runs(y: np.ndarray, s: np.ndarray, w: np.ndarray | None, *, grid: bool = True):
    """``(thresholds, positives_at_or_below, negatives_at_or_below)`` by the fastest exact path.

    Scores on a decimal grid of few steps (integers, rounded scores): counted per step
    (:func:`_runs_on_grid`, unless ``grid`` is False: already tried); few distinct scores:
    :func:`_runs_by_hash`; otherwise one sort, :func:`_runs_by_label_key` (unweighted) or
    :func:`_runs_by_weight`; integers that float64 would merge: :func:`_runs_of_integers`.
    """
    if s.dtype.kind != "f":
        return _runs_of_integers(y, s, w)
    sample = _sample(s)
    distinct = _distinct_estimate(s, sample)
    runs = _runs_on_grid(y, s, w, sample, distinct) if grid else None
    if runs is not None:
        return runs
    if distinct <= min(_HASH_MAX_DISTINCT, s.size / 8):
        return _runs_by_hash(y, s, w, size_hint=2 * int(distinct) + 1024)
    if w is None:
        return _runs_by_label_key(y, s)
    return _runs_by_weight(y, s, w)


def score_runs(y: np.ndarray, s: np.ndarray, w: np.ndarray | None) -> list:
    """``[thresholds, positives_at_or_below, negatives_at_or_below]`` of checked inputs (as
    :func:`~roc_dash.core._validation.check_binary_inputs` returns them): the vertex
    thresholds (``+inf``, then the distinct scores descending) and, per distinct score
    ascending, the (weighted) count of each class scoring at or below it, by the fastest
    exact path (see :func:`roc_curve`). :func:`curve_of_runs` makes the curve of them; a
    class may be absent here (its counts are then 0)."""
    return [*_runs(y, s, w)]


def _rates(counts_le: np.ndarray, total: float) -> np.ndarray:
    """Rates of the vertices, origin first: ``(total − count strictly below t) / total``."""
    out = np.empty(counts_le.size + 1)
    out[0] = 0.0
    np.subtract(total, counts_le[-2::-1], out=out[1:-1])
    out[1:-1] /= total
    out[-1] = 1.0
    return out


def roc_curve(labels, scores, *, weights=None, pos_label=None) -> RocCurve:
    """Compute the ROC curve of a scoring classifier.

    Fawcett (2004) section 4, Algorithm 2, vectorised: the scores are sorted once and the
    (weighted) numbers of positives and negatives scoring at or above every distinct score
    are cumulative sums over the sorted runs. Exactly one vertex is emitted per distinct
    score, so a run of equally scored instances of both classes produces one diagonal
    segment (section 4.1) whatever their order.

    Every finite score distribution (probabilities, logits and margins of either sign,
    integer scorecards, ``±0.0``, subnormals, the largest floats) takes a fast exact path
    (:mod:`roc_dash.core.roc._exact_paths`; ``docs/performance.md`` has their cost):
    unweighted rows are sorted once as integer keys holding every bit of the score with the
    label in the lowest bit (:func:`_curve_by_keys`, about twice one ``np.sort`` of the
    scores, the vertices, their area and the sort included); weighted rows are put in order
    by one such sort of keys holding the rows' indices and one gather
    (:func:`_runs_by_weight`); scores on a decimal grid (integers, rounded scores) are
    counted per grid step without sorting (:func:`_runs_on_grid`); and when a sample shows
    few distinct scores off any grid, weighted rows are grouped by hashing and only the
    distinct scores sorted (:func:`_runs_by_hash`).

    Parameters
    ----------
    labels : array-like, shape (n,)
        True class: booleans (``True`` for positive), or two values of a known encoding
        (0/1, -1/+1, true/false, yes/no, p/n, pos/neg, positive/negative; any case,
        numbers or text, the first of each pair positive), or any two values with
        ``pos_label``. See :func:`roc_dash.core.labels.binary_labels`.
    scores : array-like of float, shape (n,)
        Classifier scores; higher means more likely positive. Must be finite. Integer
        scores are ranked exactly, also beyond 2**53 where float64 would round distinct
        ones together (their thresholds are then the rounded values, as scikit-learn's).
    weights : array-like of float, shape (n,), optional
        Non-negative instance weights (counts or example-specific costs, section 7.2).
    pos_label : scalar, optional
        The label value of the positive class (scikit-learn's convention); every other
        value is negative. Needed when the labels are not a known encoding.

    Returns
    -------
    RocCurve
        ``fpr``, ``tpr`` and ``thresholds`` with one entry per distinct score plus the
        origin (threshold ``+inf``).

    Raises
    ------
    ValueError
        If either class is absent or has zero total weight (the ROC curve is undefined),
        if the labels are more than two classes or need ``pos_label``, or on malformed
        input.

    References
    ----------
    T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", 2004.
    """
    y, s, w = check_binary_inputs(labels, scores, weights, pos_label=pos_label,
                                  integers="keep", finite=False)
    if s.dtype.kind == "f":  # the fast paths check the scores are finite as they go
        sample = _sample(s)
        distinct = _distinct_estimate(s, sample)
        runs = _runs_on_grid(y, s, w, sample, distinct)
        if runs is not None:
            return curve_of_runs([*runs])
        curve = _curve_by_keys(y, s, w, sample, distinct)
        if curve is not None:
            return curve
    check_finite_scores(s)
    return curve_of_runs([*_runs(y, s, w, grid=False)])


def _curve_by_keys(y: np.ndarray, s: np.ndarray, w: np.ndarray | None,
                   sample: np.ndarray | None, distinct: float) -> RocCurve | None:
    """:func:`roc_curve` of unweighted float scores, both classes present, by the keys of
    :func:`~roc_dash.core.roc._exact_paths.sorted_keys` (``sample``: :func:`_sample`'s,
    ``distinct``: :func:`_distinct_estimate`'s); None for any other input, or scores the
    keys do not take (not finite, or magnitudes too far apart)."""
    n = s.size
    n_pos = int(np.count_nonzero(y))
    if w is not None or not 0 < n_pos < n:
        return None
    top = None
    if sample is not None:  # room for magnitudes up to 2**64 times the sample's largest
        top = magnitude_bits(float(np.abs(sample).max()) * 2.0 ** 64)
    few = distinct <= n / 8  # else the rates are written beside the keys, in one block
    keyed = sorted_keys(y, s, top, room=not few)
    if keyed is None and top is not None:  # maybe a score beyond the sample's range
        keyed = sorted_keys(y, s, room=not few)
    if keyed is None:
        return None
    thresholds, tpr, fpr, area = vertices_of_keys(keyed, n_pos, few=few)
    curve = _made_rising(RocCurve(fpr=fpr, tpr=tpr, thresholds=thresholds,
                                  n_pos=float(n_pos), n_neg=float(n - n_pos)))
    object.__setattr__(curve, "_area", area)  # counted on the way (see auc())
    return curve


def roc_curve_with_counts(labels, scores, *, weights=None, pos_label=None
                          ) -> tuple[RocCurve, np.ndarray, np.ndarray]:
    """:func:`roc_curve` and the (weighted) positives and negatives scoring each distinct
    value, lowest score first: from the same sort, what
    :func:`roc_dash.core.inference.statistics.delong_variance_of_counts` needs for DeLong's interval
    (a second sort of 10^7 rows took about as long as the curve). Parameters as
    :func:`roc_curve`."""
    y, s, w = check_binary_inputs(labels, scores, weights, pos_label=pos_label,
                                  integers="keep")
    runs = [*_runs(y, s, w)]
    pos, neg = np.diff(runs[1], prepend=0), np.diff(runs[2], prepend=0)
    return curve_of_runs(runs), pos, neg


def curve_of_runs(runs: list) -> RocCurve:
    """The :class:`RocCurve` of ``runs = [thresholds, positives_at_or_below,
    negatives_at_or_below]`` (the sorted runs of equal scores, see :func:`roc_curve`); the
    list is emptied so that the counts can be freed as soon as their rates are made.

    For callers that need the runs' class counts too (the DeLong interval of
    :func:`roc_dash.core.inference.statistics.delong_variance_of_counts`): keep a reference to them.
    """
    thresholds, pos_le, neg_le = runs
    runs.clear()
    n_pos, n_neg = float(pos_le[-1]), float(neg_le[-1])
    if n_pos <= 0 or n_neg <= 0:
        missing = "positive" if n_pos <= 0 else "negative"
        raise ValueError(f"ROC curve undefined: no {missing} instances (or zero total weight)")
    # Vertex r (after the origin) counts the instances scoring >= thresholds[r]: the total
    # minus those at or below the next smaller distinct score.
    area = None
    if _whole(pos_le) and _whole(neg_le):  # counts, or whole weights: the exact area
        # the counts at or below each score trace the curve from its far end: the area
        # under them is the pairs ranked the wrong way round (and half the ties)
        wrong = twice_pairs_of_counts(pos_le, neg_le, origin=False)
        area = area_of_pairs(2 * int(n_pos) * int(n_neg) - wrong, n_pos, n_neg)
    tpr = _rates(pos_le, n_pos)
    del pos_le
    fpr = _rates(neg_le, n_neg)
    del neg_le
    curve = _made_rising(RocCurve(fpr=fpr, tpr=tpr, thresholds=thresholds, n_pos=n_pos,
                                  n_neg=n_neg))
    if area is not None:
        object.__setattr__(curve, "_area", area)
    return curve


def _whole(counts: np.ndarray) -> bool:
    """True for integer counts, and for float sums that are all whole numbers below
    ``2**53`` (frequency weights, as the query engines' groups carry: every partial sum is
    then exact, so they are counts too). A few first sums are looked at first: weights with
    fractions rarely keep them whole."""
    if counts.dtype.kind in "iu":
        return True
    if counts.dtype.kind != "f" or not counts.size or not float(counts[-1]) < 2.0 ** 53:
        return False
    head = counts[:64]
    return bool(np.array_equal(head, np.rint(head))
                and np.array_equal(counts, np.rint(counts)))


def auc(curve: RocCurve) -> float:
    """Area under a ROC curve by trapezoids (Fawcett 2004, section 5, Algorithm 3).

    An unweighted curve made by :func:`roc_curve` (or :func:`curve_of_runs` of whole
    counts) carries its area already, counted exactly from the pairs of positives and
    negatives and correctly rounded (the Mann-Whitney statistic, which the trapezoids
    equal: :func:`~roc_dash.core.roc._exact_paths.area_of_pairs`). Any other curve
    (weighted rows, rates without counts) is summed by trapezoids block by block, so that
    the temporaries stay small whatever the curve's size.
    """
    area = getattr(curve, "_area", None)
    if area is not None:
        return area
    f, t = curve.fpr, curve.tpr
    area = 0.0
    for a in range(0, f.size - 1, AREA_BLOCK):
        area += trapezoids(f, t, a, min(a + AREA_BLOCK, f.size - 1))
    return area / 2.0


def roc_auc(labels, scores, *, weights=None, pos_label=None) -> float:
    """Area under the ROC curve of ``scores`` against ``labels``.

    Equal to the probability that a random positive is scored above a random negative,
    ties counted one half (the Mann-Whitney / Wilcoxon statistic; Fawcett 2004, section 5).
    See :func:`roc_curve` for the parameters.
    """
    return auc(roc_curve(labels, scores, weights=weights, pos_label=pos_label))


def accuracy_at_thresholds(curve: RocCurve) -> np.ndarray:
    """Accuracy ``(TP + N - FP) / (P + N)`` at every vertex of a ROC curve (Fawcett 2004, s. 3).

    Entry ``k`` is the accuracy of the rule "positive iff score >= curve.thresholds[k]";
    :func:`best_accuracy` picks its maximum.
    """
    return (curve.tp + curve.n_neg - curve.fp) / (curve.n_pos + curve.n_neg)


def best_accuracy(curve: RocCurve) -> OperatingPoint:
    """The vertex of highest accuracy ``(TP + N - FP) / (P + N)`` on the test set.

    Fawcett (2004) section 3: on the 20 instances of figure 3 this is (0.1, 0.5), threshold
    0.54, accuracy 70 %. Ties between vertices go to the most conservative one.
    """
    accuracy = accuracy_at_thresholds(curve)
    k = int(np.argmax(accuracy))
    return OperatingPoint(
        index=k,
        fpr=float(curve.fpr[k]),
        tpr=float(curve.tpr[k]),
        threshold=float(curve.thresholds[k]),
        value=float(accuracy[k]),
    )


def accuracy_at_threshold(labels, scores, threshold: float, *, weights=None,
                          pos_label=None) -> float:
    """Accuracy of the rule "positive iff score >= threshold" (used for Fawcett figure 4).

    See :func:`roc_curve` for ``labels``, ``weights`` and ``pos_label``.
    """
    y, s, w = check_binary_inputs(labels, scores, weights, pos_label=pos_label)
    correct = (s >= threshold) == y
    if w is None:
        return float(correct.mean())
    return float(w[correct].sum() / w.sum())


def gini(auc_value: float) -> float:
    """Gini coefficient (accuracy ratio, Somers' D) of a classifier: ``2 * AUC - 1``.

    Parameters
    ----------
    auc_value : float
        Area under the ROC curve, in ``[0, 1]``.

    Returns
    -------
    float
        In ``[-1, 1]``; 0 for a random ranking, 1 for a perfect one.
    """
    return 2.0 * float(auc_value) - 1.0
