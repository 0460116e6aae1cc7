"""The core's ROC curve and convex hull as they were before the sorted-keys path: the
reference that ``bench_core.py`` measures side by side with the current code, and the oracle
that the core's tests compare the current code with (bit for bit).

A verbatim copy of ``roc_curve`` (with the sort paths it chose from) from
``roc_dash/core/roc/curves.py`` and of ``convex_hull`` (with the hull helpers it used) from
``roc_dash/core/roc/hull.py`` at commit 04cd0df. The helpers that the sorted-keys change
left as they were are imported from the current modules instead of copied:
``sorted_run_ends``, the label-in-the-key sort (now ``_runs_by_split_key``), the hash and
integer run paths, ``_rates``, the block-by-block chain candidates (now
``_blockwise_candidates``), the hull of points in any order and the final pass of
``hull_of_points``, ``_totals`` and their constants; also ``curve_of_runs``, whose current
version only adds a private mark that this ``convex_hull`` does not read. What is defined
here is what the change rewrote.
"""

from __future__ import annotations

import numpy as np

from roc_dash.core._validation import check_binary_inputs
from roc_dash.core.roc.curves import (
    _HASH_MAX_DISTINCT,
    _HASH_MIN_ROWS,
    _HASH_SAMPLE,
    RocCurve,
    _runs_by_hash,
    _runs_by_split_key,
    _runs_of_integers,
    curve_of_runs,
    sorted_run_ends,
)
from roc_dash.core.roc.hull import (
    RocHull,
    _blockwise_candidates,
    _ending_at_one,
    _hull_of_candidates,
    _totals,
    _unordered_candidates,
)

__all__ = ["roc_curve", "convex_hull", "curve_of_runs", "score_runs"]


def score_runs(y, s, w):
    """``[thresholds, positives_at_or_below, negatives_at_or_below]`` as before."""
    return [*_runs(y, s, w)]


# The label-in-the-key sort as it was; the current code keeps it, unchanged but for its
# docstring, as the path for scores of both signs.
_runs_by_label_key = _runs_by_split_key


def _runs_by_weight(y: np.ndarray, s: np.ndarray, w: np.ndarray):
    """Weighted variant of :func:`_runs_by_label_key`: one sort carrying label and weight.

    Each row becomes the complex number ``score + i * (w if positive else -w)``, and numpy
    sorts complex numbers by real part, then imaginary part: the scores ascending, with the
    label and weight travelling with each (a zero weight counts for neither class, whatever
    the sign of its zero). Float comparison is exact and ``-0.0 == 0.0``. About twice one
    ``np.sort`` of the scores, no gather afterwards.
    """
    z = np.empty(s.size, dtype=np.complex128)
    z.real = s
    np.negative(w, out=z.imag)
    np.copyto(z.imag, w, where=y)
    z.sort()
    run_end, thresholds = sorted_run_ends(z.real)
    # Separate cumulative sums of non-negative terms never decrease, so the rates below
    # are exactly non-decreasing and within [0, 1].
    part = np.maximum(z.imag, 0.0)
    pos_le = np.cumsum(part)[run_end]
    np.minimum(z.imag, 0.0, out=part)
    np.negative(part, out=part)
    del z
    neg_le = np.cumsum(part)[run_end]
    return thresholds, pos_le, neg_le


def _distinct_estimate(s: np.ndarray) -> float:
    """Estimated number of distinct values of ``s`` (``inf`` below ``_HASH_MIN_ROWS`` rows).

    From a fixed pseudo-random sample of rows (with replacement) by Chao's (1984) estimator
    ``seen + f1 (f1 - 1) / (2 (f2 + 1))``, where ``f1`` and ``f2`` count the values seen once
    and twice: a long tail of values seen once stands for many unseen ones. Only the choice
    of path, hence the speed, depends on it: every path is exact.
    """
    n = s.size
    if n < _HASH_MIN_ROWS:
        return np.inf
    rows = np.random.default_rng(0).integers(0, n, _HASH_SAMPLE)
    _, counts = np.unique(s[rows], return_counts=True)
    f1 = int(np.count_nonzero(counts == 1))
    f2 = int(np.count_nonzero(counts == 2))
    return counts.size + f1 * (f1 - 1) / (2.0 * (f2 + 1))


def _runs(y: np.ndarray, s: np.ndarray, w: np.ndarray | None):
    """``(thresholds, positives_at_or_below, negatives_at_or_below)`` by the fastest exact path.

    Few distinct scores: :func:`_runs_by_hash`; otherwise one sort, :func:`_runs_by_label_key`
    (unweighted) or :func:`_runs_by_weight`; integers that float64 would merge:
    :func:`_runs_of_integers`.
    """
    if s.dtype.kind != "f":
        return _runs_of_integers(y, s, w)
    distinct = _distinct_estimate(s)
    if distinct <= min(_HASH_MAX_DISTINCT, s.size / 8):
        return _runs_by_hash(y, s, w, size_hint=2 * int(distinct) + 1024)
    if w is None:
        return _runs_by_label_key(y, s)
    return _runs_by_weight(y, s, w)


def roc_curve(labels, scores, *, weights=None, pos_label=None) -> RocCurve:
    """:func:`roc_dash.core.roc.curves.roc_curve` as it was (Fawcett 2004, section 4,
    Algorithm 2, vectorised; its parameters, returns and references are the current
    docstring's): unweighted rows sorted once with the label in a spare bit of an integer
    sort key (:func:`_runs_by_label_key`), weighted rows in one sort of complex numbers
    (:func:`_runs_by_weight`), few distinct scores grouped by hashing (:func:`_runs_by_hash`).
    """
    y, s, w = check_binary_inputs(labels, scores, weights, pos_label=pos_label,
                                  integers="keep")
    return curve_of_runs([*_runs(y, s, w)])


# The chain's candidates as they were: block by block, with no sampled thinning first.
_chain_candidates = _blockwise_candidates


def _is_roc_chain(x: np.ndarray, y: np.ndarray) -> bool:
    """True when the points already run from (0, 0) with FPR and TPR non-decreasing."""
    if x.size == 0 or x[0] != 0 or y[0] != 0:
        return False
    return bool((x[1:] >= x[:-1]).all() and (y[1:] >= y[:-1]).all())


def hull_of_points(fpr, tpr, *, thresholds=None, models=None, totals=None) -> RocHull:
    """:func:`roc_dash.core.roc.hull.hull_of_points` as it was (its parameters, returns and
    references are the current docstring's).
    """
    x = np.asarray(fpr, dtype=np.float64).ravel()
    y = np.asarray(tpr, dtype=np.float64).ravel()
    if x.shape != y.shape:
        raise ValueError("fpr and tpr differ in length")
    n = x.size
    if n:
        lo, hi = min(x.min(), y.min()), max(x.max(), y.max())
        if not (np.isfinite(lo) and np.isfinite(hi)):
            raise ValueError("ROC points must be finite")
        if lo < 0 or hi > 1:
            raise ValueError("ROC points must lie in the unit square")

    # Index n is the all-negative classifier (0, 0), n + 1 the all-positive one (1, 1).
    if _is_roc_chain(x, y):
        top, origin = _ending_at_one(x, y, _chain_candidates(x, y)), 0
    else:
        top, origin = _unordered_candidates(x, y)
    return _hull_of_candidates(x, y, top, origin, totals=totals, thresholds=thresholds,
                               models=models)


def convex_hull(curve, *, model: str = "") -> RocHull:
    """:func:`roc_dash.core.roc.hull.convex_hull` as it was: the curve's points are checked
    for being a chain again (the current one trusts a curve that ``roc_curve`` made)."""
    return hull_of_points(curve.fpr, curve.tpr, thresholds=getattr(curve, "thresholds", None),
                          models=model or None, totals=_totals([curve]))


