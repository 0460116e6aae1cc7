"""Davis & Goadrich interpolation: the exact PR image of straight ROC segments.

Davis & Goadrich (2006), "The relationship between precision-recall and ROC curves", ICML,
section 4: between two ROC vertices the classifier is interpolated in ROC space (randomly
mixing the two thresholds), which is linear in TP and FP counts but *not* linear in PR space
(:func:`interpolate_pr`, :func:`interpolated_precision`); the PR image of the ROC convex hull
is the achievable PR curve (section 3, :func:`achievable_pr_curve`). Precision is taken at a
deployment prevalence as in :mod:`.precision_recall` (Fawcett 2004, section 3.2),
whose conventions hold here; the exact area under this curve is
:func:`~.precision_recall.pr_auc_interpolated`.

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, section 3; section 3.2.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._results import length_of
from .precision_recall import _precision, _skew, _vertices

__all__ = ["InterpolatedPrCurve", "interpolate_pr", "interpolated_precision", "achievable_pr_curve"]


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

    __len__ = length_of("recall")


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
        Hull vertices from (0, 0) to (1, 1), e.g. :class:`roc_dash.core.roc.hull.RocHull`.
    prevalence : float in (0, 1) or None
        Deployment prevalence. None is accepted only if ``hull`` carries ``n_pos`` and
        ``n_neg`` (a hull of several test sets has no single prevalence).
    points_per_segment, max_points, tol
        As in :func:`interpolate_pr`.
    """
    return interpolate_pr(hull, prevalence=prevalence, points_per_segment=points_per_segment,
                          max_points=max_points, tol=tol)
