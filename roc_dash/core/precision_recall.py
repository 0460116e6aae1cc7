"""Precision-recall analysis under class skew, derived from ROC points.

ROC graphs are insensitive to the class distribution, precision-recall graphs are not
(Fawcett 2004, section 3.2 and figure 5, ``../shared/papers/000_*``): precision mixes the
positive and the negative column of the confusion matrix. Every function here therefore
starts from ROC vertices ``(FPR, TPR)`` and a *deployment prevalence* ``pi`` (probability of
the positive class where the classifier will be used), with

    recall = TPR,        precision = pi·TPR / (pi·TPR + (1 − pi)·FPR).

With ``prevalence=None`` the test set's own prevalence ``P / (P + N)`` is used, and the formula
is evaluated as ``TP / (TP + FP)`` on the (weighted) counts, so that the vertices are exactly
those of :func:`sklearn.metrics.precision_recall_curve`. Replicating the negatives ``k`` times
changes nothing in ROC space and is the same as ``prevalence = P / (P + kN)`` here.

Implemented:

* the PR point of every ROC vertex (:func:`precision_recall_curve`, :func:`pr_curve`);
* Davis & Goadrich (2006), "The relationship between precision-recall and ROC curves",
  ICML, section 4: between two vertices the classifier is interpolated in ROC space (randomly
  mixing the two thresholds), which is linear in TP and FP counts but *not* linear in PR
  space (:func:`interpolate_pr`, :func:`interpolated_precision`); the PR image of the ROC
  convex hull is the achievable PR curve (section 3, :func:`achievable_pr_curve`);
* average precision, the step sum of scikit-learn (:func:`average_precision`), and the exact
  area under the Davis-Goadrich interpolated curve (:func:`pr_auc_interpolated`), which are
  different numbers;
* iso-F1 curves and the random/always-positive baseline precision ``pi``;
* Flach & Kull (2015), "Precision-Recall-Gain curves: PR analysis done right", NIPS
  (:func:`prg_curve`, :func:`prg_auc`).

Conventions
-----------
* The origin vertex (threshold ``+inf``, TP = FP = 0) has undefined precision. In the vertex
  arrays (:class:`PrCurve`) it gets precision 1 at recall 0, the scikit-learn convention; it
  carries no weight in average precision (its recall step is 0). The same holds for any other
  vertex with TP = FP = 0 (zero-weight instances scored above all others).
* The interpolated curve (:func:`interpolate_pr`, :func:`pr_auc_interpolated`) instead starts
  at recall 0 with the *limit* of precision along the first ROC segment, which is the
  precision of the first vertex with TP + FP > 0 (the segment from the origin has constant
  precision), or 0 when the top-scored instances are all negative.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .curves import RocCurve, roc_curve

__all__ = [
    "PrCurve",
    "InterpolatedPrCurve",
    "IsoF1Curve",
    "PrgCurve",
    "precision_recall_curve",
    "pr_curve",
    "interpolate_pr",
    "interpolated_precision",
    "achievable_pr_curve",
    "average_precision",
    "average_precision_from_curve",
    "pr_auc_interpolated",
    "iso_f1_curves",
    "baseline_precision",
    "prg_curve",
    "prg_auc",
]


# --------------------------------------------------------------------------------------------
# Result types
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class PrCurve:
    """Precision and recall at every vertex of a ROC curve, under a given prevalence.

    Attributes
    ----------
    recall : ndarray of float64
        Recall (= TPR) of each ROC vertex, non-decreasing.
    precision : ndarray of float64
        Precision of each vertex under ``prevalence``. Where TP = FP = 0 (the origin) it is
        1.0 by the scikit-learn convention (see the module docstring).
    thresholds : ndarray of float64
        The ROC vertex thresholds, index-aligned (``+inf`` first); NaN when the source had none.
    fpr : ndarray of float64
        False positive rate of each vertex: with ``recall`` it fixes the ROC point, so the
        curve can be re-skewed or interpolated (:func:`interpolate_pr`).
    prevalence : float
        The prevalence ``pi`` the precisions are computed for (the test set's ``P/(P+N)``
        when none was given).
    """

    recall: np.ndarray
    precision: np.ndarray
    thresholds: np.ndarray
    fpr: np.ndarray
    prevalence: float

    @property
    def f1(self) -> np.ndarray:
        """F1 score (harmonic mean of precision and recall) of each vertex; 0 at recall 0."""
        total = self.precision + self.recall
        out = np.zeros_like(total)
        np.divide(2.0 * self.precision * self.recall, total, out=out, where=total > 0)
        return out

    def __len__(self) -> int:
        return int(self.recall.size)


@dataclass(frozen=True, eq=False)
class InterpolatedPrCurve:
    """A dense PR curve: the exact image of straight ROC segments (Davis & Goadrich 2006).

    Attributes
    ----------
    recall, precision : ndarray of float64
        Points for plotting, in order of decreasing threshold (recall non-decreasing). Every
        distinct ROC vertex is included; interior points are added where the segment bends.
    segment : ndarray of int64
        Index (into the source's vertex arrays) of the vertex starting the ROC segment that
        each point lies on, e.g. ``thresholds[segment]`` for hover text.
    fraction : ndarray of float64
        Position ``x`` in ``[0, 1)`` along that segment, towards the next distinct vertex:
        the point is ``TPR_A + x·ΔTPR, FPR_A + x·ΔFPR`` (0 at the vertices themselves).
    prevalence : float
        The prevalence the precisions are computed for.
    """

    recall: np.ndarray
    precision: np.ndarray
    segment: np.ndarray
    fraction: np.ndarray
    prevalence: float

    def __len__(self) -> int:
        return int(self.recall.size)


@dataclass(frozen=True, eq=False)
class IsoF1Curve:
    """The (recall, precision) pairs of equal F1 score ``level``, recall increasing."""

    level: float
    recall: np.ndarray
    precision: np.ndarray


@dataclass(frozen=True, eq=False)
class PrgCurve:
    """A precision-recall-gain curve (Flach & Kull 2015).

    Only the part with recall gain ``>= 0`` (recall ``>= pi``) is kept; it starts with a
    crossing point at recall gain 0 unless a vertex lies exactly there. Precision gains below
    0 are kept (not clipped), and crossing points at precision gain 0 are inserted, so that
    ``in_unit_square`` selects exactly the part of the curve inside ``[0, 1]²``.

    Attributes
    ----------
    recall_gain, precision_gain : ndarray of float64
        ``(rec − pi) / ((1 − pi)·rec)`` and ``(prec − pi) / ((1 − pi)·prec)``; both are <= 1.
    recall, precision : ndarray of float64
        The same points in PR space (under ``prevalence``).
    thresholds : ndarray of float64
        Threshold of each ROC vertex; NaN for crossing points (they lie between thresholds).
    is_crossing : ndarray of bool
        Points inserted where the curve crosses recall gain 0 or precision gain 0.
    in_unit_square : ndarray of bool
        Both gains ``>= 0``. Plot ``np.where(in_unit_square, precision_gain, nan)`` to draw
        only the unit square, as Flach & Kull do.
    prevalence : float
        The prevalence ``pi`` of the gains.
    """

    recall_gain: np.ndarray
    precision_gain: np.ndarray
    recall: np.ndarray
    precision: np.ndarray
    thresholds: np.ndarray
    is_crossing: np.ndarray
    in_unit_square: np.ndarray
    prevalence: float

    def __len__(self) -> int:
        return int(self.recall_gain.size)


# --------------------------------------------------------------------------------------------
# Shared helpers
# --------------------------------------------------------------------------------------------


_ROUNDING_SLACK = 1e-9
"""How far a rate may stray outside ``[0, 1]`` or below its predecessor by rounding."""


def _check_prevalence(prevalence) -> float:
    pi = float(prevalence)
    if not (math.isfinite(pi) and 0.0 < pi < 1.0):
        raise ValueError(f"prevalence must lie strictly between 0 and 1, got {prevalence!r}")
    return pi


def _vertices(curve):
    """``(fpr, tpr, thresholds)`` of a RocCurve, PrCurve, hull or any ``fpr``/``tpr`` object."""
    if isinstance(curve, PrCurve):
        fpr, tpr, thresholds = curve.fpr, curve.recall, curve.thresholds
    else:
        try:
            fpr, tpr = curve.fpr, curve.tpr
        except AttributeError:
            raise TypeError(
                f"expected a ROC curve, hull or PrCurve (fpr and tpr arrays), got "
                f"{type(curve).__name__}"
            ) from None
        thresholds = getattr(curve, "thresholds", None)
    fpr = np.asarray(fpr, dtype=np.float64)
    tpr = np.asarray(tpr, dtype=np.float64)
    if fpr.ndim != 1 or fpr.shape != tpr.shape or fpr.size == 0:
        raise ValueError("fpr and tpr must be non-empty one-dimensional arrays of equal length")
    if not (np.isfinite(fpr).all() and np.isfinite(tpr).all()):
        raise ValueError("fpr and tpr must be finite")
    slack = _ROUNDING_SLACK
    if (fpr < -slack).any() or (fpr > 1 + slack).any() or (tpr < -slack).any() or (
            tpr > 1 + slack).any():
        raise ValueError("fpr and tpr must lie in [0, 1]")
    if (np.diff(fpr) < -slack).any() or (np.diff(tpr) < -slack).any():
        raise ValueError("ROC vertices must be ordered by decreasing threshold "
                         "(fpr and tpr non-decreasing)")
    # Rounding in weighted sums can leave a rate a few ulps outside [0, 1] or below its
    # predecessor; snap those (a no-op on clean input).
    fpr = np.maximum.accumulate(np.clip(fpr, 0.0, 1.0))
    tpr = np.maximum.accumulate(np.clip(tpr, 0.0, 1.0))
    if thresholds is None:
        thresholds = np.full(fpr.size, np.nan)
    else:
        thresholds = np.asarray(thresholds, dtype=np.float64)
        if thresholds.shape != fpr.shape:
            raise ValueError("thresholds must have one entry per vertex")
    return fpr, tpr, thresholds


def _skew(curve, prevalence):
    """Class weights ``(a, b)`` with precision ``a·TPR / (a·TPR + b·FPR)``, and ``pi``.

    Precision depends only on the ratio ``a : b``. With a prevalence, ``(pi, 1 − pi)``; without
    one, the curve's own totals ``(P, N)``, which makes ``a·TPR = TP`` and ``b·FPR = FP``.
    """
    if prevalence is not None:
        pi = _check_prevalence(prevalence)
        return pi, 1.0 - pi, pi
    if isinstance(curve, PrCurve):
        pi = curve.prevalence
        return pi, 1.0 - pi, pi
    n_pos = getattr(curve, "n_pos", None)
    n_neg = getattr(curve, "n_neg", None)
    if n_pos is None or n_neg is None:
        raise ValueError(
            "prevalence is required: this curve carries no class totals (n_pos, n_neg)"
        )
    n_pos, n_neg = float(n_pos), float(n_neg)
    if not (n_pos > 0 and n_neg > 0):
        raise ValueError("both classes need a positive total weight")
    return n_pos, n_neg, n_pos / (n_pos + n_neg)


def _precision(tpr, fpr, a, b, undefined=1.0):
    """``a·tpr / (a·tpr + b·fpr)`` elementwise, ``undefined`` where both are 0."""
    num = a * tpr
    den = num + b * fpr
    out = np.full(np.shape(den), undefined, dtype=np.float64)
    np.divide(num, den, out=out, where=den > 0)
    return out


def _mean_weight(u):
    """``w(rho) = (rho·ln rho − rho + 1) / (rho − 1)²`` with ``rho = 1 + u``, for ``u >= 0``.

    On a ROC segment whose precision denominator grows by the factor ``rho``, the mean of the
    (linear-fractional) precision over the segment is ``p_B + (p_A − p_B)·w``; ``w(1) = 1/2``
    (the trapezoid) and ``w → 0`` as ``rho → inf``. A Taylor series avoids cancellation near 1.
    """
    u = np.asarray(u, dtype=np.float64)
    out = np.empty_like(u)
    small = u < 1e-2
    s = u[small]
    # sum_{n>=2} (-1)^n u^(n-2) / (n (n-1)), truncated after u^6 (error < u^7/72).
    out[small] = 0.5 + s * (-1 / 6 + s * (1 / 12 + s * (-1 / 20 + s * (
        1 / 30 + s * (-1 / 42 + s / 56)))))
    big = u[~small]
    with np.errstate(over="ignore"):
        out[~small] = ((1.0 + big) * np.log1p(big) - big) / (big * big)
    return out


# --------------------------------------------------------------------------------------------
# PR points at the ROC vertices
# --------------------------------------------------------------------------------------------


def precision_recall_curve(curve: RocCurve, *, prevalence: float | None = None) -> PrCurve:
    """Precision and recall at every vertex of a ROC curve.

    Fawcett (2004) section 3.2: the ROC curve does not depend on the class distribution, so
    the PR curve for any deployment prevalence ``pi`` follows from it:
    ``precision = pi·TPR / (pi·TPR + (1 − pi)·FPR)``, ``recall = TPR``.

    Parameters
    ----------
    curve : RocCurve
        ROC vertices (any object with ``fpr``, ``tpr`` and, if ``prevalence`` is None,
        ``n_pos`` and ``n_neg``; ``thresholds`` is used when present).
    prevalence : float in (0, 1), optional
        Deployment prevalence ``pi``. None uses the test set's own ``P / (P + N)``, and then
        ``precision = TP / (TP + FP)`` on the weighted counts.

    Returns
    -------
    PrCurve
        One entry per ROC vertex, aligned with ``curve.thresholds``. The origin vertex has
        precision 1 (scikit-learn convention).

    References
    ----------
    T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", 2004, §3.2.
    """
    fpr, tpr, thresholds = _vertices(curve)
    a, b, pi = _skew(curve, prevalence)
    return PrCurve(
        recall=tpr.copy(),
        precision=_precision(tpr, fpr, a, b),
        thresholds=thresholds.copy(),
        fpr=fpr.copy(),
        prevalence=pi,
    )


def pr_curve(labels, scores, *, weights=None, prevalence: float | None = None,
             pos_label=None) -> PrCurve:
    """PR points of ``scores`` against ``labels``: :func:`precision_recall_curve` of the ROC.

    See :func:`roc_dash.core.curves.roc_curve` for ``labels``, ``scores``, ``weights`` and
    ``pos_label`` (the label value of the positive class, scikit-learn's convention; every
    other value is negative; needed when the labels are not a known encoding), and
    :func:`precision_recall_curve` for ``prevalence``.
    """
    curve = roc_curve(labels, scores, weights=weights, pos_label=pos_label)
    return precision_recall_curve(curve, prevalence=prevalence)


# --------------------------------------------------------------------------------------------
# Davis & Goadrich interpolation
# --------------------------------------------------------------------------------------------


def _distinct_vertices(curve, prevalence):
    """Vertices with consecutive duplicates removed, their precisions and the skew.

    Returns ``(idx, tpr, fpr, p, D, a, b, pi)`` where ``D = a·tpr + b·fpr`` and the precision
    of a leading TP = FP = 0 vertex is the limit along the first segment.
    """
    fpr, tpr, _ = _vertices(curve)
    a, b, pi = _skew(curve, prevalence)
    keep = np.ones(fpr.size, dtype=bool)
    keep[1:] = (np.diff(fpr) != 0) | (np.diff(tpr) != 0)
    idx = np.flatnonzero(keep)
    t, f = tpr[idx], fpr[idx]
    den = a * t + b * f
    p = _precision(t, f, a, b)
    # After de-duplication only the first vertex can have D = 0 (it is then the origin);
    # precision is constant along a segment leaving the origin, so its limit is p[1].
    if den[0] == 0 and t.size > 1:
        p[0] = p[1]
    return idx, t, f, p, den, a, b, pi


def interpolate_pr(
    pr_or_roc,
    *,
    prevalence: float | None = None,
    points_per_segment: int = 64,
    max_points: int = 4000,
    tol: float = 1e-4,
) -> InterpolatedPrCurve:
    """Dense PR curve with the correct, non-linear interpolation between vertices.

    Davis & Goadrich (2006) section 4: between ROC vertices A and B the achievable
    classifiers are the random mixtures of the two thresholds, a straight line in ROC space,
    ``TPR = TPR_A + x·ΔTPR``, ``FPR = FPR_A + x·ΔFPR`` for ``x`` in ``[0, 1]`` (linear in the
    TP and FP counts). Its PR image has ``recall = TPR`` and precision the linear-fractional
    function ``pi·TPR / (pi·TPR + (1 − pi)·FPR)`` of ``x``: a curve, not the straight line
    between the PR points, which overstates precision where it falls.

    Interior points are placed geometrically in the precision denominator (dense where the
    curve bends) and only where needed: a segment gets the fewest points that keep the
    polyline within about ``tol`` of the exact curve, at most ``points_per_segment``.
    Segments of constant precision and vertical PR drops (ROC segments with ΔTPR = 0) get
    none. If the interior points would take the output past ``max_points``, they are thinned
    in proportion; the distinct vertices themselves are always all kept.

    Parameters
    ----------
    pr_or_roc : RocCurve, PrCurve or hull
        The vertices (any object with ``fpr`` and ``tpr``).
    prevalence : float in (0, 1), optional
        Deployment prevalence; None uses the test set's (for a PrCurve: its own).
    points_per_segment : int
        Upper bound on the interior points of one segment.
    max_points : int
        Upper bound on the output size unless the distinct vertices alone exceed it.
    tol : float
        Target distance in precision between the polyline and the exact curve.

    Returns
    -------
    InterpolatedPrCurve
        Starting at recall 0 with the limiting precision of the first segment.

    References
    ----------
    J. Davis and M. Goadrich, "The relationship between precision-recall and ROC curves",
    ICML 2006.
    """
    points_per_segment = int(points_per_segment)
    max_points = int(max_points)
    if points_per_segment < 0 or max_points < 1 or not tol > 0:
        raise ValueError("points_per_segment >= 0, max_points >= 1 and tol > 0 are required")
    idx, t, f, p, den, a, b, pi = _distinct_vertices(pr_or_roc, prevalence)
    nv = t.size
    if nv == 1:
        zero = np.zeros(1)
        return InterpolatedPrCurve(t.copy(), p, idx.astype(np.int64), zero, pi)

    dt, df = np.diff(t), np.diff(f)
    d0 = den[:-1]
    dden = a * dt + b * df  # > 0: every segment has positive length
    dp = np.abs(p[:-1] - p[1:])
    curved = (d0 > 0) & (dt > 0) & (dp > 0)
    log_rho = np.zeros(nv - 1)
    n_sub = np.ones(nv - 1)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        u = dden[curved] / d0[curved]
        log_rho[curved] = np.log1p(u)
        # Chord error of p = c0 + c/D on [D, D·r] is at most |Δp|·rho/(rho−1)·(r−1)²/4 with
        # r = rho^(1/n); solve for the number n of sub-intervals.
        q = np.sqrt(4.0 * tol * u / ((1.0 + u) * dp[curved]))
        n_sub[curved] = np.ceil(log_rho[curved] / np.log1p(q))
    interior = np.clip(n_sub - 1, 0, points_per_segment).astype(np.int64)
    budget = max(max_points - nv, 0)
    total = int(interior.sum())
    if total > budget:
        interior = (interior * (budget / total)).astype(np.int64)

    # Output layout: vertex i, then the interior points of segment i.
    counts = np.ones(nv, dtype=np.int64)
    counts[:-1] += interior
    vertex_at = np.concatenate(([0], np.cumsum(counts)[:-1]))
    size = int(counts.sum())
    recall = np.empty(size)
    precision = np.empty(size)
    segment = np.empty(size, dtype=np.int64)
    fraction = np.zeros(size)
    recall[vertex_at] = t
    precision[vertex_at] = p
    segment[vertex_at] = idx

    seg = np.repeat(np.arange(nv - 1), interior)
    if seg.size:
        starts = np.concatenate(([0], np.cumsum(interior)[:-1]))
        j = np.arange(seg.size) - starts[seg] + 1
        s = j / (interior[seg] + 1.0)
        lr = log_rho[seg]
        x = np.where(lr > 0, np.expm1(s * lr) / np.expm1(np.where(lr > 0, lr, 1.0)), s)
        ti = t[seg] + x * dt[seg]
        fi = f[seg] + x * df[seg]
        at = vertex_at[seg] + j
        recall[at] = ti
        precision[at] = _precision(ti, fi, a, b)
        segment[at] = idx[seg]
        fraction[at] = x
    return InterpolatedPrCurve(recall, precision, segment, fraction, pi)


def interpolated_precision(curve, recall, *, prevalence: float | None = None) -> np.ndarray:
    """Precision of the Davis-Goadrich interpolated PR curve at given recalls.

    Where the curve drops vertically at a recall (ROC segments with ΔTPR = 0, i.e. only
    negatives between two thresholds) the highest precision at that recall is returned,
    the best operating point with that recall. At recall 0 it is the curve's starting
    precision (see the module docstring). Recalls outside the curve's range give NaN.

    Parameters
    ----------
    curve : RocCurve, PrCurve or hull
        The vertices.
    recall : array-like of float
        Query recalls.
    prevalence : float in (0, 1), optional
        Deployment prevalence; None uses the test set's.

    Returns
    -------
    ndarray of float64, the shape of ``recall``.
    """
    _, t, f, p, _, a, b, _ = _distinct_vertices(curve, prevalence)
    r = np.asarray(recall, dtype=np.float64)
    flat = r.ravel()
    out = np.full(flat.shape, np.nan)
    inside = (flat >= t[0]) & (flat <= t[-1])
    q = flat[inside]
    # First vertex with tpr >= q: the one of smallest fpr among equal recalls.
    i = np.searchsorted(t, q, side="left")
    at_vertex = t[i] == q
    res = np.empty(q.size)
    res[at_vertex] = p[i[at_vertex]]
    k = i[~at_vertex] - 1  # q strictly inside segment (k, k + 1), which has ΔTPR > 0
    x = (q[~at_vertex] - t[k]) / (t[k + 1] - t[k])
    fq = f[k] + x * (f[k + 1] - f[k])
    res[~at_vertex] = _precision(q[~at_vertex], fq, a, b)
    out[inside] = res
    return out.reshape(r.shape)


def achievable_pr_curve(
    hull,
    *,
    prevalence: float | None,
    points_per_segment: int = 64,
    max_points: int = 4000,
    tol: float = 1e-4,
) -> InterpolatedPrCurve:
    """The achievable PR curve: the PR image of the ROC convex hull.

    Davis & Goadrich (2006) section 3: a curve dominates in ROC space if and only if it
    dominates in PR space, so the ROC convex hull maps to the best PR curve achievable by
    choosing (and randomly mixing) thresholds of the hulled classifiers. Between hull
    vertices the same non-linear interpolation as :func:`interpolate_pr` is used; straight
    lines in PR space would overstate it.

    Parameters
    ----------
    hull : object with ``fpr`` and ``tpr`` (and optionally ``thresholds``) arrays
        Hull vertices from (0, 0) to (1, 1), e.g. :class:`roc_dash.core.hull.RocHull`.
    prevalence : float in (0, 1) or None
        Deployment prevalence. None is accepted only if ``hull`` carries ``n_pos`` and
        ``n_neg`` (a hull of several test sets has no single prevalence).
    points_per_segment, max_points, tol
        As in :func:`interpolate_pr`.
    """
    return interpolate_pr(hull, prevalence=prevalence, points_per_segment=points_per_segment,
                          max_points=max_points, tol=tol)


# --------------------------------------------------------------------------------------------
# Areas
# --------------------------------------------------------------------------------------------


def average_precision_from_curve(curve: RocCurve, *, prevalence: float | None = None) -> float:
    """Average precision of a ROC curve: ``sum_k (R_k − R_(k−1))·P_k`` over its vertices.

    The step-wise (non-interpolated) sum of :func:`sklearn.metrics.average_precision_score`:
    each recall increment is weighted by the precision at the end of the step. A run of tied
    scores is one step, with the precision of the whole run. With ``prevalence`` the
    precisions are those under ``pi``. This is not the area under the interpolated curve
    (:func:`pr_auc_interpolated`).
    """
    fpr, tpr, _ = _vertices(curve)
    a, b, _ = _skew(curve, prevalence)
    return float(np.dot(np.diff(tpr), _precision(tpr[1:], fpr[1:], a, b)))


def average_precision(labels, scores, *, weights=None, pos_label=None) -> float:
    """Average precision of ``scores`` against ``labels``, ties and weights included.

    Equal to :func:`sklearn.metrics.average_precision_score` (step-wise sum
    ``sum_k (R_k − R_(k−1))·P_k`` over distinct thresholds); see
    :func:`average_precision_from_curve`. ``labels``, ``scores``, ``weights`` and
    ``pos_label`` (the label value of the positive class, scikit-learn's convention; needed
    when the labels are not a known encoding) are as for
    :func:`roc_dash.core.curves.roc_curve`.
    """
    curve = roc_curve(labels, scores, weights=weights, pos_label=pos_label)
    return average_precision_from_curve(curve)


def pr_auc_interpolated(curve, *, prevalence: float | None = None) -> float:
    """Exact area under the Davis-Goadrich interpolated PR curve.

    Not average precision: this integrates precision over recall along the PR image of the
    straight ROC segments (:func:`interpolate_pr`). On a segment with ``x`` in ``[0, 1]``
    precision is linear-fractional, ``p(x) = pi·TPR(x) / D(x)`` with
    ``D = pi·TPR + (1 − pi)·FPR`` linear in ``x``; its mean is, in closed form,

        p_B + (p_A − p_B)·w(rho),   rho = D_B / D_A,   w(rho) = (rho ln rho − rho + 1)/(rho − 1)²,

    so the segment contributes ``ΔTPR·(p_B + (p_A − p_B)·w)``. ``w(1) = 1/2`` would be the
    trapezoid rule; ``w < 1/2`` otherwise, so straight lines in PR space overestimate the area
    where precision falls. The area runs over recall from 0 to 1: the segment leaving the
    origin has constant precision (``rho = inf``, ``w = 0``), so the curve starts at recall 0
    with the precision of the first vertex with TP + FP > 0.

    A perfect ranking gives 1; a constant score (the ROC diagonal) gives exactly ``pi``.

    Parameters
    ----------
    curve : RocCurve, PrCurve or hull
        The vertices.
    prevalence : float in (0, 1), optional
        Deployment prevalence; None uses the test set's.

    References
    ----------
    J. Davis and M. Goadrich, "The relationship between precision-recall and ROC curves",
    ICML 2006, section 4.
    """
    fpr, tpr, _ = _vertices(curve)
    a, b, _ = _skew(curve, prevalence)
    den = a * tpr + b * fpr
    p = _precision(tpr, fpr, a, b, undefined=0.0)
    dt = np.diff(tpr)
    d0 = den[:-1]
    step = (dt > 0) & (d0 > 0)  # segments not leaving the origin (those have w = 0)
    w = np.zeros(dt.size)
    w[step] = _mean_weight((a * dt[step] + b * np.diff(fpr)[step]) / d0[step])
    mean = p[1:] + (p[:-1] - p[1:]) * w
    return float(np.dot(dt, mean))


# --------------------------------------------------------------------------------------------
# Iso-F1 curves and baseline
# --------------------------------------------------------------------------------------------


def iso_f1_curves(levels=(0.2, 0.4, 0.6, 0.8), *, n: int = 200) -> tuple[IsoF1Curve, ...]:
    """Curves of constant F1 in PR space, for drawing behind PR curves.

    For level ``f`` in (0, 1]: ``precision = f·r / (2r − f)`` for recall ``r`` in
    ``[f / (2 − f), 1]``, running from (f/(2−f), 1) to (1, f/(2−f)). The curve is symmetric
    in recall and precision; each half is sampled uniformly from the point (f, f) outwards,
    so the steep part near precision 1 is as well resolved as the flat part.

    Parameters
    ----------
    levels : iterable of float in (0, 1]
    n : int
        Points per curve (>= 3).
    """
    n = int(n)
    if n < 3:
        raise ValueError("n must be at least 3")
    half = n // 2 + 1  # the shared point (f, f) is counted once
    curves = []
    for level in levels:
        f1 = float(level)
        if not (0.0 < f1 <= 1.0):
            raise ValueError(f"F1 levels must lie in (0, 1], got {level!r}")
        # Lower branch: recall from f to 1. Upper branch, its mirror image: precision from
        # 1 down to f, recall from f/(2-f) up to f.
        r_low = np.linspace(f1, 1.0, n - half + 1)
        p_low = f1 * r_low / (2.0 * r_low - f1)
        p_up = np.linspace(f1, 1.0, half)[::-1]
        r_up = f1 * p_up / (2.0 * p_up - f1)
        curves.append(IsoF1Curve(
            level=f1,
            recall=np.concatenate((r_up, r_low[1:])),
            precision=np.concatenate((p_up, p_low[1:])),
        ))
    return tuple(curves)


def baseline_precision(prevalence: float) -> float:
    """Precision of random classification, and of calling everything positive: ``pi``.

    Every point of the ROC diagonal has precision ``pi`` (Fawcett 2004, §3.2), so it is the
    horizontal baseline of a PR plot under prevalence ``pi``.
    """
    return _check_prevalence(prevalence)


# --------------------------------------------------------------------------------------------
# Precision-recall-gain
# --------------------------------------------------------------------------------------------


def prg_curve(curve, *, prevalence: float | None = None) -> PrgCurve:
    """Precision-recall-gain curve of a ROC curve (Flach & Kull 2015).

    ``precision gain = (prec − pi) / ((1 − pi)·prec)``, ``recall gain = (rec − pi) /
    ((1 − pi)·rec)``: the always-positive classifier maps to (1, 0), perfect precision and
    recall to gain 1. Substituting the precision under ``pi`` gives
    ``precision gain = 1 − FPR / TPR`` (for any ``pi``), which is how it is computed.

    Both gains are affine functions of ``1 / TPR`` along a straight ROC segment, so the PRG
    image of a ROC segment is a straight line: linear interpolation *is* correct in PRG space
    (unlike PR space).

    Convention (that of the authors' reference implementation): vertices with recall below
    ``pi`` (recall gain < 0, down to −inf at recall 0) are dropped and replaced by the
    crossing point at recall gain 0 on the ROC segment through recall ``pi``. Vertices with
    negative precision gain are kept unclipped, and crossing points at precision gain 0 are
    inserted between sign changes, so that ``in_unit_square`` marks exactly the part of the
    curve inside the unit square (the part Flach & Kull plot).

    Parameters
    ----------
    curve : RocCurve, PrCurve or hull
        The vertices.
    prevalence : float in (0, 1), optional
        Deployment prevalence; None uses the test set's.

    References
    ----------
    P. A. Flach and M. Kull, "Precision-Recall-Gain curves: PR analysis done right",
    NIPS 2015.
    """
    fpr, tpr, thresholds = _vertices(curve)
    a, b, pi = _skew(curve, prevalence)
    j = int(np.searchsorted(tpr, pi, side="left"))  # first vertex with recall >= pi
    t, f, thr = tpr[j:], fpr[j:], thresholds[j:]
    prec = _precision(t, f, a, b)
    crossing = np.zeros(t.size, dtype=bool)
    if j > 0 and t[0] > pi:
        x = (pi - tpr[j - 1]) / (t[0] - tpr[j - 1])
        fc = fpr[j - 1] + x * (f[0] - fpr[j - 1])
        t = np.concatenate(([pi], t))
        f = np.concatenate(([fc], f))
        thr = np.concatenate(([np.nan], thr))
        prec = np.concatenate((_precision(np.array([pi]), np.array([fc]), a, b), prec))
        crossing = np.concatenate(([True], crossing))
    rg = (t - pi) / ((1.0 - pi) * t)
    pg = 1.0 - f / t
    if t[0] == pi:
        rg[0] = 0.0

    # Crossings of precision gain 0 (a straight line in PRG space between two points).
    k = np.flatnonzero(pg[:-1] * pg[1:] < 0)
    if k.size:
        rg_c = rg[k] - pg[k] * (rg[k + 1] - rg[k]) / (pg[k + 1] - pg[k])
        rg = np.insert(rg, k + 1, rg_c)
        pg = np.insert(pg, k + 1, 0.0)
        t = np.insert(t, k + 1, pi / (1.0 - rg_c * (1.0 - pi)))
        prec = np.insert(prec, k + 1, pi)
        thr = np.insert(thr, k + 1, np.nan)
        crossing = np.insert(crossing, k + 1, True)
    return PrgCurve(
        recall_gain=rg,
        precision_gain=pg,
        recall=t,
        precision=prec,
        thresholds=thr,
        is_crossing=crossing,
        in_unit_square=(rg >= 0) & (pg >= 0),
        prevalence=pi,
    )


def prg_auc(curve, *, prevalence: float | None = None) -> float:
    """Area under the precision-recall-gain curve (AUPRG, Flach & Kull 2015).

    The integral of precision gain over recall gain from 0 to 1 along :func:`prg_curve`,
    by trapezoids, which is exact because the PRG curve is piecewise linear (straight ROC
    segments map to straight PRG segments). As in the authors' reference implementation,
    parts with negative precision gain count negatively; the always-positive and the random
    classifier score 0, a perfect ranking 1.

    Parameters
    ----------
    curve : PrgCurve, RocCurve, PrCurve or hull
        A PRG curve, or vertices to build one from.
    prevalence : float in (0, 1), optional
        Deployment prevalence; None uses the test set's (or the PrgCurve's own).
    """
    if isinstance(curve, PrgCurve):
        if prevalence is not None and _check_prevalence(prevalence) != curve.prevalence:
            raise ValueError("prevalence differs from the one the PRG curve was built for")
        c = curve
    else:
        c = prg_curve(curve, prevalence=prevalence)
    rg, pg = c.recall_gain, c.precision_gain
    return float(np.dot(np.diff(rg), pg[1:] + pg[:-1]) / 2.0)
