"""Conditional combinations that remove concavities (Fawcett 2004, section 7.4.2).

Fawcett (2004), "ROC Graphs: Notes and Practical Considerations for Researchers",
after Flach & Wu (2003): with A, B, C thresholds of one
model, B inside a concavity, the classifier B′ that copies A and C where they agree and
inverts B where they differ lies at ``A + C − B`` (:func:`repair_point`,
:func:`flach_wu_decisions`); :func:`repair_concavities` finds every concavity of a curve and
repairs it (:func:`repair_scores` reorders the scores to match).

Section 7.4.5's warning applies to everything here: choosing or combining classifiers on a
test set is part of training; validate the combination on held-out data.

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, section 7.4.2
(Conditional combinations of classifiers to remove concavities).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._results import length_of
from .._validation import as_scores
from ..roc.curve_geometry import _count_coordinates, _cross
from ..roc.curves import RocCurve
from ..roc.hull import convex_hull

__all__ = [
    "repair_point", "flach_wu_decisions", "ConcavityRepair", "repair_concavities", "repair_scores",
]


def repair_point(point_a, point_b, point_c) -> tuple[float, float]:
    """ROC position of Flach and Wu's repaired classifier B′: ``A + C − B``.

    Fawcett (2004) section 7.4.2: B′ says **N** where A and C both say **N**, **Y** where
    both say **Y**, and the opposite of B where A says **N** and C says **Y**. With nested
    classifiers (``TP_A ⊆ TP_B ⊆ TP_C``, ``FP_A ⊆ FP_B ⊆ FP_C``) its true positives are
    ``TP_A ∪ (TP_C − TP_B)``, so ``TPR(B′) = TPR(A) + TPR(C) − TPR(B)`` and likewise for
    FPR: "transposing the decisions in AB with those in BC". The paper also calls this
    "reflecting B about the line AC"; the exact position is the point reflection of B
    through the midpoint of AC (which lies above AC exactly when B lies below it).

    Parameters
    ----------
    point_a, point_b, point_c : (float, float)
        ``(FPR, TPR)`` of A, B and C, nested: A <= B <= C in both coordinates.

    Returns
    -------
    (float, float)

    Raises
    ------
    ValueError
        If the points are not nested (then B′ is not defined by the construction).
    """
    a, b, c = (np.asarray(p, dtype=np.float64) for p in (point_a, point_b, point_c))
    if not ((a <= b).all() and (b <= c).all()):
        raise ValueError("A, B and C must be nested (A <= B <= C in FPR and TPR), as "
                         "thresholds of one model are; got "
                         f"A={tuple(a.tolist())}, B={tuple(b.tolist())}, C={tuple(c.tolist())}")
    out = a + c - b
    return float(out[0]), float(out[1])


def flach_wu_decisions(scores, threshold_a: float, threshold_b: float,
                       threshold_c: float) -> np.ndarray:
    """Decisions of Flach and Wu's repaired classifier B′ on scored rows.

    Fawcett (2004) section 7.4.2, with A, B and C thresholds of one scoring model and this
    package's convention "positive iff score >= t". Nestedness (``TP_A ⊆ TP_B ⊆ TP_C``)
    then means ``t_A >= t_B >= t_C``: A is the most conservative. (The paper writes
    ``T_A < T_B < T_C``, counting the threshold as a position down the ranking.) ::

        B′(x) = N       if A(x) = N and C(x) = N   (score <  t_C)
                Y       if A(x) = Y and C(x) = Y   (score >= t_A)
                not B(x) if A(x) = N and C(x) = Y   (t_C <= score < t_A)

    The fourth case, A says **Y** and C says **N**, cannot happen for nested classifiers
    (the paper's text repeats the third case's condition there by mistake).

    Parameters
    ----------
    scores : array-like of float, shape (n,)
        Scores of the model.
    threshold_a, threshold_b, threshold_c : float
        ``t_A >= t_B >= t_C``.

    Returns
    -------
    ndarray of bool, shape (n,)
        True where B′ says positive.
    """
    ta, tb, tc = (float(t) for t in (threshold_a, threshold_b, threshold_c))
    if not ta >= tb >= tc:
        raise ValueError("thresholds must satisfy t_A >= t_B >= t_C (A the most conservative: "
                         f"positive iff score >= t); got {ta!r}, {tb!r}, {tc!r}")
    s = as_scores(scores)
    band = (s >= tc) & (s < ta)
    return (s >= ta) | (band & ~(s >= tb))


@dataclass(frozen=True, eq=False)
class ConcavityRepair:
    """The concavities of a ROC curve and their repair (Fawcett 2004 section 7.4.2).

    A concavity is a maximal run of curve vertices strictly below the curve's convex hull,
    between two vertices A (index ``start``) and C (``end``) on the hull. Reversing the
    ranking of the instances scoring between them (:func:`repair_scores`) turns every
    threshold B of the run into Flach and Wu's B′ = A + C − B: the run is reflected through
    the midpoint of AC, above the hull.

    Attributes
    ----------
    start, end : ndarray of intp, shape (m,)
        Curve indices of A and C of each concavity.
    deepest : ndarray of intp, shape (m,)
        Curve index of the vertex B farthest below AC (whose B′ gains most).
    threshold_a, threshold_b, threshold_c : ndarray of float64, shape (m,)
        Their score thresholds (``t_A > t_B > t_C``).
    fpr_a, tpr_a, fpr_b, tpr_b, fpr_c, tpr_c : ndarray of float64, shape (m,)
        Their ROC points.
    fpr_repaired, tpr_repaired : ndarray of float64, shape (m,)
        B′ = A + C − B of the deepest B.
    area_gain : ndarray of float64, shape (m,)
        Area added under the curve by repairing the concavity (twice the area between AC
        and the curve).
    vertex : ndarray of intp, shape (v,)
        Every curve vertex strictly inside a concavity ...
    vertex_concavity : ndarray of intp, shape (v,)
        ... which concavity it belongs to ...
    vertex_fpr_repaired, vertex_tpr_repaired : ndarray of float64, shape (v,)
        ... and its repaired position A + C − B.
    curve : RocCurve
        The repaired curve: the original with every concave run reflected (same
        thresholds, read on the scores of :func:`repair_scores`).
    """

    start: np.ndarray
    end: np.ndarray
    deepest: np.ndarray
    threshold_a: np.ndarray
    threshold_b: np.ndarray
    threshold_c: np.ndarray
    fpr_a: np.ndarray
    tpr_a: np.ndarray
    fpr_b: np.ndarray
    tpr_b: np.ndarray
    fpr_c: np.ndarray
    tpr_c: np.ndarray
    fpr_repaired: np.ndarray
    tpr_repaired: np.ndarray
    area_gain: np.ndarray
    vertex: np.ndarray
    vertex_concavity: np.ndarray
    vertex_fpr_repaired: np.ndarray
    vertex_tpr_repaired: np.ndarray
    curve: RocCurve

    __len__ = length_of("start")


def repair_concavities(curve: RocCurve) -> ConcavityRepair:
    """Find the concavities of a ROC curve and repair them (Flach & Wu 2003).

    Fawcett (2004) section 7.4.2: "a concavity occurs whenever a segment of slope r is
    joined at the right to a segment of slope s where s > r"; the instances producing s
    should have been ranked above those producing r. Every vertex strictly below the
    curve's convex hull belongs to a concavity, bounded by the hull-touching vertices A and
    C on either side (vertices on a hull segment, collinear ones included, split
    concavities). Within a concavity every threshold B is repaired to
    ``B′ = A + C − B`` (:func:`repair_point`): the whole run is reflected through the
    midpoint of AC, which is what reversing the order of the scores between ``t_C`` and
    ``t_A`` does (:func:`repair_scores`). The test is exact on whole counts (unweighted or
    integer-weighted data).

    Parameters
    ----------
    curve : RocCurve
        The curve (with thresholds and totals), e.g. from
        :func:`~roc_dash.core.roc.curves.roc_curve`.

    Returns
    -------
    ConcavityRepair
        Empty arrays (and the curve unchanged) when the curve is convex.
    """
    hull = convex_hull(curve)
    t = np.asarray(curve.thresholds, dtype=np.float64)
    # Hull vertices are curve vertices: find them by threshold (strictly decreasing).
    at = np.searchsorted(-t, -hull.thresholds)
    at = np.clip(at, 0, t.size - 1)
    ok = (curve.fpr[at] == hull.fpr) & (curve.tpr[at] == hull.tpr)
    hull_idx = at[ok]
    if hull_idx.size < 2 or hull_idx[0] != 0 or hull_idx[-1] != t.size - 1:
        raise ValueError("repair_concavities needs a ROC curve from (0, 0) to (1, 1) with "
                         "strictly decreasing thresholds (as roc_curve returns)")
    fp, tp, bound = _count_coordinates(curve)
    fp, tp = np.asarray(fp, dtype=np.float64), np.asarray(tp, dtype=np.float64)
    n = t.size
    seg = np.clip(np.searchsorted(hull_idx, np.arange(n), side="right") - 1, 0,
                  hull_idx.size - 2)
    i0, i1 = hull_idx[seg], hull_idx[seg + 1]
    cross = _cross(fp[i1] - fp[i0], tp[i1] - tp[i0], fp - fp[i0], tp - tp[i0], bound)
    # (C − A) × (V − A) < 0: V lies to the right of A→C, i.e. below the hull segment
    if bound is None:  # fractional counts: a tolerance relative to the totals
        below = cross < -(2.0 ** -40) * float(curve.n_neg) * float(curve.n_pos)
    else:
        below = cross < 0  # exact on whole counts
    below[hull_idx] = False
    # runs of consecutive vertices below the hull
    edge = np.diff(below.astype(np.int8), prepend=0, append=0)
    first, stop = np.flatnonzero(edge == 1), np.flatnonzero(edge == -1)
    start, end = first - 1, stop  # A and C: the vertices either side of the run
    m = start.size
    vertex = np.flatnonzero(below)
    which = np.searchsorted(stop, vertex, side="right")
    a_of, c_of = start[which], end[which]
    # Repaired counts: exact for whole counts.
    new_fp, new_tp = fp.copy(), tp.copy()
    # Reflected run: vertex a + j (j = 1..len) becomes A + C − vertex(c − j).
    mirror = a_of + c_of - vertex
    new_fp[vertex] = fp[a_of] + fp[c_of] - fp[mirror]
    new_tp[vertex] = tp[a_of] + tp[c_of] - tp[mirror]
    n_neg, n_pos = float(curve.n_neg), float(curve.n_pos)
    fpr_new, tpr_new = new_fp / n_neg, new_tp / n_pos
    fpr_new[0] = tpr_new[0] = 0.0
    fpr_new[-1] = tpr_new[-1] = 1.0
    repaired = RocCurve(fpr=fpr_new, tpr=tpr_new, thresholds=t.copy(), n_pos=curve.n_pos,
                        n_neg=curve.n_neg)
    # Deepest vertex of each run: largest distance below AC (cross / |AC|, AC fixed per run).
    deepest = np.empty(m, dtype=np.intp)
    if m:
        # distance below AC times |AC| (floats: _cross may return signs only)
        dx, dy = (fp[i1] - fp[i0]), (tp[i1] - tp[i0])
        depth = np.where(below, dy * (fp - fp[i0]) - dx * (tp - tp[i0]), -np.inf)
        order = np.lexsort((-depth[vertex], which))  # per run, deepest first
        firsts = np.searchsorted(which[order], np.arange(m))
        deepest = vertex[order[firsts]]
    # area gain: twice the area between chord AC and the curve, per run (shoelace on counts)
    area = np.zeros(m)
    if m:
        x, y = curve.fpr, curve.tpr
        seg_area = (x[1:] - x[:-1]) * (y[1:] + y[:-1]) / 2.0
        csum = np.concatenate(([0.0], np.cumsum(seg_area)))
        under_curve = csum[end] - csum[start]
        under_chord = (x[end] - x[start]) * (y[end] + y[start]) / 2.0
        area = 2.0 * (under_chord - under_curve)
    fa, ta_, fc, tc_ = fp[start], tp[start], fp[end], tp[end]
    fb, tb_ = fp[deepest], tp[deepest]
    return ConcavityRepair(
        start=start, end=end, deepest=deepest,
        threshold_a=t[start], threshold_b=t[deepest], threshold_c=t[end],
        fpr_a=curve.fpr[start], tpr_a=curve.tpr[start],
        fpr_b=curve.fpr[deepest], tpr_b=curve.tpr[deepest],
        fpr_c=curve.fpr[end], tpr_c=curve.tpr[end],
        fpr_repaired=(fa + fc - fb) / n_neg, tpr_repaired=(ta_ + tc_ - tb_) / n_pos,
        area_gain=area, vertex=vertex, vertex_concavity=which,
        vertex_fpr_repaired=fpr_new[vertex], vertex_tpr_repaired=tpr_new[vertex],
        curve=repaired)


def repair_scores(scores, repair: ConcavityRepair) -> np.ndarray:
    """Scores whose ROC curve is the repaired curve of :func:`repair_concavities`.

    Within each concavity, the distinct scores ``s`` with ``t_C <= s < t_A`` are permuted
    among themselves in reverse order (the largest takes the smallest's value and so on),
    so ties stay ties, every score outside the concavities is unchanged, and thresholding
    the new scores at the concavity's original thresholds gives Flach and Wu's B′
    (Fawcett 2004 section 7.4.2; :func:`flach_wu_decisions`).

    Parameters
    ----------
    scores : array-like of float, shape (n,)
        The scores the curve was computed from.
    repair : ConcavityRepair
        From :func:`repair_concavities` on those scores' curve.

    Returns
    -------
    ndarray of float64, shape (n,)
    """
    s = as_scores(scores)
    if len(repair) == 0:
        return s.copy()
    values, inverse = np.unique(s, return_inverse=True)
    inverse = inverse.ravel()
    # ascending positions of each band's lowest (t_C) and highest (just below t_A) value
    order = np.argsort(repair.threshold_c)
    lo = np.searchsorted(values, repair.threshold_c[order], side="left")
    hi = np.searchsorted(values, repair.threshold_a[order], side="left") - 1
    band = np.searchsorted(lo, np.arange(values.size), side="right") - 1
    inside = (band >= 0) & (np.arange(values.size) <= hi[np.clip(band, 0, None)])
    target = np.arange(values.size)
    bi = band[inside]
    target[inside] = lo[bi] + hi[bi] - target[inside]
    return values[target][inverse]
