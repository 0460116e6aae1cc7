"""Combining classifiers in ROC space.

Implements Fawcett (2004), "ROC Graphs: Notes and Practical Considerations for Researchers",
section 7.4 (``../shared/papers/000_*``):

* 7.4.1, interpolating classifiers: a constraint such as "we can act on K of the n cases"
  is the line ``FPR·N + TPR·P = K`` in ROC space (``P = n·p(+)``, ``N = n − P``); the best
  classifier meeting it lies where the line crosses the ROC convex hull, between two hull
  vertices A and B, and is realised by using B's decisions on a random fraction ``k`` of
  the cases and A's on the rest (:func:`budget_operating_point`, :func:`mix_for_budget`);
* 7.4.2, conditional combinations to remove concavities (Flach & Wu 2003): with A, B, C
  thresholds of one model, B inside a concavity, the classifier B′ that copies A and C where
  they agree and inverts B where they differ lies at ``A + C − B`` (:func:`repair_point`,
  :func:`flach_wu_decisions`); :func:`repair_concavities` finds every concavity of a curve
  and repairs it (:func:`repair_scores` reorders the scores to match);
* 7.4.3, logical combinations: the AND and OR of two classifiers, their bounding rectangles
  and their positions under conditional independence (:func:`logical_combination`), and
  the actual positions when both models scored the same rows
  (:func:`combine_thresholded`).

Section 7.4.5's warning applies to everything here: choosing or combining classifiers on a
test set is part of training; validate the combination on held-out data.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._validation import as_scores, check_binary_inputs
from .curves import RocCurve, _count_coordinates, _cross
from .hull import RocHull, convex_hull, hull_of_points

__all__ = [
    "BudgetMix",
    "BudgetLine",
    "budget_line",
    "mix_for_budget",
    "budget_operating_point",
    "decision_point",
    "repair_point",
    "flach_wu_decisions",
    "ConcavityRepair",
    "repair_concavities",
    "repair_scores",
    "LogicalCombination",
    "ActualCombination",
    "logical_combination",
    "combine_thresholded",
]


# --------------------------------------------------------------------------------------
# 7.4.1 Interpolating classifiers to meet a constraint
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BudgetMix:
    """The classifier meeting a "K of n cases" constraint, as a mix of two classifiers.

    Fawcett (2004) section 7.4.1: the point C = A + k·(B − A) on the segment from A to B
    where the constraint line ``FPR·N + TPR·P = K`` crosses it, realised by using B's
    decision on a random fraction ``k`` of the cases and A's on the rest.

    Attributes
    ----------
    budget : float
        K, the number of cases the constraint allows acting on (as asked).
    n_total, prior_pos : float
        n and the prior p(+): ``P = n·p(+)`` positives and ``N = n − P`` negatives expected.
    fpr, tpr : float
        The point C.
    k : float
        The fraction of cases on which B's decisions are used (A's on the rest), in [0, 1].
    fpr_a, tpr_a, fpr_b, tpr_b : float
        The two classifiers mixed (equal when C is a vertex, ``k = 0``).
    index_a, index_b : int or None
        Their vertex indices on the hull (None when the two points were given).
    threshold_a, threshold_b : float
        Their score thresholds ("positive iff score >= t"; NaN when unknown).
    model_a, model_b : str
        Their models ("" when unknown).
    expected_cases : float
        ``FPR·N + TPR·P`` at C: equal to ``budget`` unless ``clamped``.
    expected_tp, expected_fp : float
        ``TPR·P`` and ``FPR·N`` at C.
    clamped : bool
        True when the budget cannot be met exactly (beyond the all-positive classifier, or
        outside the range of the two given classifiers) and ``k`` was clamped to 0 or 1.
    note : str
        Why it was clamped, or what is special about the point ("" otherwise).
    how : str
        One sentence on how to realise C.
    """

    budget: float
    n_total: float
    prior_pos: float
    fpr: float
    tpr: float
    k: float
    fpr_a: float
    tpr_a: float
    fpr_b: float
    tpr_b: float
    index_a: int | None
    index_b: int | None
    threshold_a: float
    threshold_b: float
    model_a: str
    model_b: str
    expected_cases: float
    expected_tp: float
    expected_fp: float
    clamped: bool
    note: str
    how: str


@dataclass(frozen=True)
class BudgetLine:
    """The constraint line ``FPR·N + TPR·P = K`` clipped to the unit square (for drawing;
    the dashed line of Fawcett 2004 figure 10, section 7.4.1).

    ``fpr`` and ``tpr`` hold its two end points (empty when the line misses the square:
    ``K < 0`` or ``K > n``).
    """

    fpr: np.ndarray
    tpr: np.ndarray


def _class_totals(n_total, prior_pos) -> tuple[float, float]:
    n = float(n_total)
    p = float(prior_pos)
    if not (math.isfinite(n) and n > 0):
        raise ValueError(f"n_total must be a positive number of cases, got {n_total!r}")
    if not 0.0 < p < 1.0:
        raise ValueError(f"prior_pos must lie strictly between 0 and 1, got {prior_pos!r}")
    n_pos = n * p
    return n_pos, n - n_pos


def _resolve_budget(budget, fraction, n_total) -> float:
    """K in cases, from ``budget`` (cases) or ``fraction`` (of ``n_total``)."""
    if (budget is None) == (fraction is None):
        raise ValueError("give exactly one of budget= (a number of cases) and fraction= "
                         "(a share of the cases)")
    n = float(n_total)
    if fraction is not None:
        f = float(fraction)
        if not 0.0 <= f <= 1.0:
            raise ValueError(f"fraction must lie in [0, 1], got {fraction!r}")
        return f * n
    k = float(budget)
    if not math.isfinite(k) or k < 0:
        raise ValueError(f"budget must be a non-negative number of cases, got {budget!r}")
    if 0.0 < k < 1.0 < n:
        raise ValueError(
            f"budget={budget!r} looks like a fraction of the cases, not a number of cases "
            f"(n_total={n_total:g}); pass fraction={budget!r} for {k * n:g} cases, or "
            f"budget={k * n:g}")
    return k


def budget_line(*, n_total: float, prior_pos: float, budget=None, fraction=None) -> BudgetLine:
    """End points of the constraint line ``FPR·N + TPR·P = K`` inside ROC space.

    Fawcett (2004) section 7.4.1, the dashed line of figure 10 (CoIL: ``FPR × 3760 +
    TPR × 240 = 800``). See :func:`budget_operating_point` for the parameters.
    """
    n_pos, n_neg = _class_totals(n_total, prior_pos)
    k = _resolve_budget(budget, fraction, n_total)
    lo, hi = max(0.0, (k - n_pos) / n_neg), min(1.0, k / n_neg)
    if lo > hi:
        return BudgetLine(fpr=np.empty(0), tpr=np.empty(0))
    fpr = np.array([lo, hi])
    tpr = np.clip((k - fpr * n_neg) / n_pos, 0.0, 1.0)
    return BudgetLine(fpr=fpr, tpr=tpr)


def _describe(model: str, threshold: float, fpr: float, tpr: float) -> str:
    if fpr == 0 and tpr == 0:
        return "the all-negative classifier (act on no case)"
    if fpr == 1 and tpr == 1:
        return "the all-positive classifier (act on every case)"
    who = model or "the model"
    if math.isfinite(threshold):
        return f"{who} at score >= {threshold:.6g}"
    where = f"({fpr:.4g}, {tpr:.4g})"
    return f"{model} at {where}" if model else f"the classifier at {where}"


def _how(mix: dict) -> str:
    a = _describe(mix["model_a"], mix["threshold_a"], mix["fpr_a"], mix["tpr_a"])
    b = _describe(mix["model_b"], mix["threshold_b"], mix["fpr_b"], mix["tpr_b"])
    cases = f"about {mix['expected_cases']:,.4g} cases, {mix['expected_tp']:,.4g} of them positive"
    k = mix["k"]
    if k == 0 or (mix["fpr_a"], mix["tpr_a"]) == (mix["fpr_b"], mix["tpr_b"]):
        return f"Use {a} alone; expect {cases}."
    if k == 1:
        return f"Use {b} alone; expect {cases}."
    text = (f"For each case draw a uniform random number u in [0, 1): if u < k = {k:.4g} use "
            f"the decision of {b}, otherwise that of {a}; expect {cases}.")
    ta, tb = mix["threshold_a"], mix["threshold_b"]
    if mix["model_a"] == mix["model_b"] and math.isfinite(ta) and math.isfinite(tb) and tb < ta:
        text += (f" Equivalently, as both are thresholds of one model: act on every case "
                 f"scoring >= {ta:.6g} and on a random {k:.4g} of those scoring in "
                 f"[{tb:.6g}, {ta:.6g}).")
    elif mix["fpr_a"] == 0 and mix["tpr_a"] == 0 and math.isfinite(tb):
        text = (f"Act on a random {k:.4g} of the cases scoring >= {tb:.6g} "
                f"({mix['model_b'] or 'the model'}); expect {cases}.")
    return text


def _mix(k_cases, n_total, prior_pos, n_pos, n_neg, a, b, k, clamped, note) -> BudgetMix:
    """Assemble a :class:`BudgetMix` from vertex descriptions ``a``/``b`` (dicts)."""
    fpr = a["fpr"] + k * (b["fpr"] - a["fpr"])
    tpr = a["tpr"] + k * (b["tpr"] - a["tpr"])
    fields = dict(
        budget=float(k_cases), n_total=float(n_total), prior_pos=float(prior_pos),
        fpr=float(fpr), tpr=float(tpr), k=float(k),
        fpr_a=a["fpr"], tpr_a=a["tpr"], fpr_b=b["fpr"], tpr_b=b["tpr"],
        index_a=a["index"], index_b=b["index"],
        threshold_a=a["threshold"], threshold_b=b["threshold"],
        model_a=a["model"], model_b=b["model"],
        expected_cases=float(fpr * n_neg + tpr * n_pos),
        expected_tp=float(tpr * n_pos), expected_fp=float(fpr * n_neg),
        clamped=bool(clamped), note=note)
    return BudgetMix(**fields, how=_how(fields))


def _point(fpr, tpr, threshold=math.nan, model="", index=None) -> dict:
    f, t = float(fpr), float(tpr)
    if not (0.0 <= f <= 1.0 and 0.0 <= t <= 1.0):
        raise ValueError(f"ROC points must lie in the unit square, got ({fpr!r}, {tpr!r})")
    return {"fpr": f, "tpr": t, "threshold": float(threshold), "model": str(model),
            "index": index}


def mix_for_budget(point_a, point_b, *, n_total: float, prior_pos: float, budget=None,
                   fraction=None, threshold_a: float = math.nan, threshold_b: float = math.nan,
                   model_a: str = "", model_b: str = "") -> BudgetMix:
    """Interpolate two given classifiers to act on exactly ``K`` of ``n`` cases.

    Fawcett (2004) section 7.4.1: "Calculate k as the proportional distance that C lies on
    the line between A and B"; sampling B's decisions at rate ``k`` and A's at ``1 − k``
    attains C. Along the segment the expected number of cases acted on,
    ``g = FPR·N + TPR·P``, is linear, so ``k = (K − g(A)) / (g(B) − g(A))``.

    The paper's CoIL example: A = (.1, .2), B = (.25, .6), 4,000 clients of whom 6% respond
    (P = 240, N = 3,760), budget 800: ``g(A) = 424``, ``g(B) = 1,084``, so
    ``k = 376/660 = 94/165 ≈ 0.570`` and C ≈ (0.1855, 0.4279). (The paper reads C off the
    figure as (.18, .42) and so gets k ≈ .53.) Note that A lies below the hull of
    {(0, 0), B}: :func:`budget_operating_point` on the hull would mix the all-negative
    classifier with B instead and reach TPR ≈ 0.443 on the same budget.

    Parameters
    ----------
    point_a, point_b : (float, float)
        ``(FPR, TPR)`` of A and B (A usually the more conservative).
    n_total : float
        n, the number of cases.
    prior_pos : float
        Expected share of positives p(+), strictly between 0 and 1.
    budget : float, optional
        K, the number of cases that may be acted on (>= 0). A value in (0, 1) with
        ``n_total > 1`` is refused as a probable fraction.
    fraction : float, optional
        K as a share of the cases, in [0, 1] (instead of ``budget``).
    threshold_a, threshold_b : float, optional
        Score thresholds of A and B, for the description.
    model_a, model_b : str, optional
        Model names of A and B, for the description.

    Returns
    -------
    BudgetMix
        ``k`` clamped to [0, 1] (``clamped`` True, ``note`` saying why) when K lies outside
        the range of cases A and B act on.

    Raises
    ------
    ValueError
        On a point outside ROC space, a prior outside (0, 1), a negative budget, a budget
        that looks like a fraction, or neither/both of ``budget`` and ``fraction``.
    """
    n_pos, n_neg = _class_totals(n_total, prior_pos)
    k_cases = _resolve_budget(budget, fraction, n_total)
    a = _point(*point_a, threshold_a, model_a)
    b = _point(*point_b, threshold_b, model_b)
    ga = a["fpr"] * n_neg + a["tpr"] * n_pos
    gb = b["fpr"] * n_neg + b["tpr"] * n_pos
    lo, hi = min(ga, gb), max(ga, gb)
    note, clamped = "", False
    if ga == gb:
        k = 0.0
        clamped = k_cases != ga
        if clamped:
            note = (f"A and B both act on {ga:,.6g} cases: no mix of them acts on "
                    f"{k_cases:,.6g}")
    else:
        k = (k_cases - ga) / (gb - ga)
        if not 0.0 <= k <= 1.0:
            clamped = True
            k = min(max(k, 0.0), 1.0)
            end, cases = ("A", ga) if k == 0.0 else ("B", gb)
            side = "below" if k_cases < lo else "above"
            note = (f"budget {k_cases:,.6g} is {side} the range A and B cover "
                    f"({lo:,.6g} to {hi:,.6g} cases): using {end} alone ({cases:,.6g} cases)")
    return _mix(k_cases, n_total, prior_pos, n_pos, n_neg, a, b, k, clamped, note)


def budget_operating_point(hull, *, n_total: float, prior_pos: float, budget=None,
                           fraction=None) -> BudgetMix:
    """The best classifier acting on exactly ``K`` of ``n`` cases: where the constraint line
    crosses the ROC convex hull.

    Fawcett (2004) section 7.4.1. The constraint ``FPR·N + TPR·P = K`` has negative slope
    ``−N/P``; every achievable classifier lies on or under the hull, so the highest TPR on
    the line is where it crosses the hull. Along the hull ``g = FPR·N + TPR·P`` strictly
    increases from 0 at (0, 0) to n at (1, 1), so exactly one hull segment A→B contains
    the crossing; C = A + k·(B − A) with ``k = (K − g(A)) / (g(B) − g(A))``, realised by
    using B's decisions on a random fraction ``k`` of the cases and A's on the rest.

    Parameters
    ----------
    hull : RocHull or ROC-curve-like
        The hull (or a curve or any object with ``fpr``/``tpr``, hulled first).
    n_total : float
        n, the number of cases.
    prior_pos : float
        Expected share of positives p(+), strictly between 0 and 1.
    budget : float, optional
        K, the number of cases that may be acted on (>= 0). ``0`` gives the all-negative
        classifier; more than ``n`` is clamped to the all-positive one (``clamped``,
        ``note``); a value in (0, 1) with ``n_total > 1`` is refused as a probable fraction.
    fraction : float, optional
        K as a share of the cases, in [0, 1] (instead of ``budget``).

    Returns
    -------
    BudgetMix
        With the two hull vertices (indices, thresholds, models), ``k``, C and a sentence
        on how to realise it. When C is a hull vertex, A = B = that vertex and ``k = 0``.
    """
    if not isinstance(hull, RocHull):
        hull = (convex_hull(hull) if hasattr(hull, "thresholds")
                else hull_of_points(hull.fpr, hull.tpr))
    n_pos, n_neg = _class_totals(n_total, prior_pos)
    k_cases = _resolve_budget(budget, fraction, n_total)
    g = hull.fpr * n_neg + hull.tpr * n_pos
    g[0], g[-1] = 0.0, float(n_total)  # (0, 0) and (1, 1), free of rounding

    def vertex(i):
        return _point(hull.fpr[i], hull.tpr[i], hull.thresholds[i], hull.models[i], int(i))

    last = len(hull) - 1
    if k_cases >= g[-1]:
        clamped = k_cases > g[-1]
        note = (f"budget {k_cases:,.6g} exceeds the {float(n_total):,.6g} cases: acting on "
                f"all of them (the all-positive classifier) uses only {float(n_total):,.6g}"
                if clamped else "the budget covers every case: the all-positive classifier")
        v = vertex(last)
        return _mix(k_cases, n_total, prior_pos, n_pos, n_neg, v, v, 0.0, clamped, note)
    j = int(np.searchsorted(g, k_cases, side="left"))
    if g[j] == k_cases:
        v = vertex(j)
        note = "a budget of 0 cases: the all-negative classifier" if j == 0 else \
            "the constraint line passes through a hull vertex"
        return _mix(k_cases, n_total, prior_pos, n_pos, n_neg, v, v, 0.0, False, note)
    k = (k_cases - g[j - 1]) / (g[j] - g[j - 1])
    return _mix(k_cases, n_total, prior_pos, n_pos, n_neg, vertex(j - 1), vertex(j), k,
                False, "")


# --------------------------------------------------------------------------------------
# Shared: the ROC point of boolean decisions on rows
# --------------------------------------------------------------------------------------


def _decision_rates(y: np.ndarray, decisions: np.ndarray, w: np.ndarray | None):
    """``(FPR, TPR, P, N)`` of boolean ``decisions`` (rows of many classifiers allowed:
    shape (n,) or (n, m))."""
    d = decisions.reshape(y.size, -1)
    if w is None:
        n_pos = float(np.count_nonzero(y))
        n_neg = float(y.size) - n_pos
        tp = np.count_nonzero(d & y[:, None], axis=0).astype(np.float64)
        fp = np.count_nonzero(d & ~y[:, None], axis=0).astype(np.float64)
    else:
        wp, wn = np.where(y, w, 0.0), np.where(y, 0.0, w)
        n_pos, n_neg = float(wp.sum()), float(wn.sum())
        tp, fp = wp @ d, wn @ d
    if n_pos <= 0 or n_neg <= 0:
        raise ValueError("ROC point undefined: no positive or no negative instances "
                         "(or zero total weight)")
    shape = decisions.shape[1:]
    return (np.reshape(fp / n_neg, shape), np.reshape(tp / n_pos, shape), n_pos, n_neg)


def decision_point(labels, decisions, *, weights=None, pos_label=None) -> tuple[float, float]:
    """``(FPR, TPR)`` of a discrete classifier from its boolean decisions on labelled rows.

    Fawcett (2004) section 2: a discrete classifier is one point in ROC space. Used to
    check the combinations of section 7.4 on data.

    Parameters
    ----------
    labels : array-like, shape (n,)
        True class (see :func:`~roc_dash.core.curves.roc_curve`).
    decisions : array-like of bool, shape (n,)
        True where the classifier says positive (**Y**).
    weights : array-like of float, shape (n,), optional
        Non-negative instance weights.
    pos_label : scalar, optional
        The positive label value, when the labels are not a known encoding.
    """
    d = np.asarray(decisions, dtype=bool)
    y, _, w = check_binary_inputs(labels, np.zeros(d.shape[0] if d.ndim else 0), weights,
                                  pos_label=pos_label)
    if d.shape != y.shape:
        raise ValueError(f"decisions ({d.size}) and labels ({y.size}) differ in length")
    fpr, tpr, _, _ = _decision_rates(y, d, w)
    return float(fpr), float(tpr)


# --------------------------------------------------------------------------------------
# 7.4.2 Conditional combinations to remove concavities (Flach & Wu 2003)
# --------------------------------------------------------------------------------------


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

    def __len__(self) -> int:
        return int(self.start.size)


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
        :func:`~roc_dash.core.curves.roc_curve`.

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


# --------------------------------------------------------------------------------------
# 7.4.3 Logical combinations
# --------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class LogicalCombination:
    """Where ``c1 AND c2`` and ``c1 OR c2`` lie in ROC space (Fawcett 2004 section 7.4.3).

    Every field is a float, or an array when the inputs were arrays (broadcast).

    Attributes
    ----------
    fpr_1, tpr_1, fpr_2, tpr_2
        The two classifiers.
    and_fpr, and_tpr
        Expected position of the conjunction under conditional independence (independent
        decisions within each class): ``(FPR1·FPR2, TPR1·TPR2)``.
    or_fpr, or_tpr
        Expected position of the disjunction: ``1 − (1 − FPR1)(1 − FPR2)``, likewise TPR.
    and_fpr_low, and_fpr_high, and_tpr_low, and_tpr_high
        Bounding rectangle of the conjunction, whatever the dependence.
    or_fpr_low, or_fpr_high, or_tpr_low, or_tpr_high
        Bounding rectangle of the disjunction.
    """

    fpr_1: np.ndarray | float
    tpr_1: np.ndarray | float
    fpr_2: np.ndarray | float
    tpr_2: np.ndarray | float
    and_fpr: np.ndarray | float
    and_tpr: np.ndarray | float
    or_fpr: np.ndarray | float
    or_tpr: np.ndarray | float
    and_fpr_low: np.ndarray | float
    and_fpr_high: np.ndarray | float
    and_tpr_low: np.ndarray | float
    and_tpr_high: np.ndarray | float
    or_fpr_low: np.ndarray | float
    or_fpr_high: np.ndarray | float
    or_tpr_low: np.ndarray | float
    or_tpr_high: np.ndarray | float


def _out(a):
    return float(a) if np.ndim(a) == 0 else a


def logical_combination(fpr_1, tpr_1, fpr_2, tpr_2, *,
                        bounds: str = "tight") -> LogicalCombination:
    """Bounding rectangles and expected positions of the AND and OR of two classifiers.

    Fawcett (2004) section 7.4.3. For ``c3 = c1 ∧ c2`` a positive is a true positive of c3
    only if it is one of both, so ``TPR3 <= min(TPR1, TPR2)``; assuming the two classifiers
    decide independently within each class, ``TPR3 ≈ TPR1·TPR2`` and ``FPR3 ≈ FPR1·FPR2``.
    For ``c4 = c1 ∨ c2``: ``max(TPR1, TPR2) <= TPR4 <= min(1, TPR1 + TPR2)`` and
    ``TPR4 ≈ 1 − (1 − TPR1)(1 − TPR2)``, likewise FPR. Both expected points lie outside
    the convex hull of c1 and c2: logical combinations can beat interpolation.

    Parameters
    ----------
    fpr_1, tpr_1, fpr_2, tpr_2 : float or array-like
        The two classifiers' ROC points (arrays broadcast: many pairs at once).
    bounds : {"tight", "paper"}
        ``"tight"`` (default): the conjunction's lower bounds are
        ``max(0, TPR1 + TPR2 − 1)`` (and likewise FPR), the Fréchet bounds, by the same
        argument as the paper's upper bound of the disjunction; ``"paper"``: 0, as printed
        in section 7.4.3. They coincide when the two rates sum to at most 1, and the tight
        rectangle lies inside the paper's.

    Returns
    -------
    LogicalCombination
    """
    if bounds not in ("tight", "paper"):
        raise ValueError("bounds must be 'tight' or 'paper'")
    f1, t1, f2, t2 = np.broadcast_arrays(*(np.asarray(v, dtype=np.float64)
                                           for v in (fpr_1, tpr_1, fpr_2, tpr_2)))
    for v in (f1, t1, f2, t2):
        if not ((v >= 0) & (v <= 1)).all():
            raise ValueError("ROC rates must lie in [0, 1]")

    def low_and(a, b):
        return np.maximum(0.0, a + b - 1.0) if bounds == "tight" else np.zeros_like(a)

    return LogicalCombination(
        fpr_1=_out(f1), tpr_1=_out(t1), fpr_2=_out(f2), tpr_2=_out(t2),
        and_fpr=_out(f1 * f2), and_tpr=_out(t1 * t2),
        or_fpr=_out(1.0 - (1.0 - f1) * (1.0 - f2)), or_tpr=_out(1.0 - (1.0 - t1) * (1.0 - t2)),
        and_fpr_low=_out(low_and(f1, f2)), and_fpr_high=_out(np.minimum(f1, f2)),
        and_tpr_low=_out(low_and(t1, t2)), and_tpr_high=_out(np.minimum(t1, t2)),
        or_fpr_low=_out(np.maximum(f1, f2)), or_fpr_high=_out(np.minimum(1.0, f1 + f2)),
        or_tpr_low=_out(np.maximum(t1, t2)), or_tpr_high=_out(np.minimum(1.0, t1 + t2)),
    )


@dataclass(frozen=True)
class ActualCombination:
    """Actual ROC positions of two thresholded models and of their AND and OR on data.

    Attributes
    ----------
    fpr_a, tpr_a, fpr_b, tpr_b : float
        Each model alone ("positive iff score >= its threshold").
    and_fpr, and_tpr, or_fpr, or_tpr : float
        The conjunction and disjunction, counted on the rows.
    expected : LogicalCombination
        Bounds and positions under conditional independence, from the two single points
        (section 7.4.3), to compare with the actual ones.
    n_pos, n_neg : float
        Total (weighted) positives and negatives.
    """

    fpr_a: float
    tpr_a: float
    fpr_b: float
    tpr_b: float
    and_fpr: float
    and_tpr: float
    or_fpr: float
    or_tpr: float
    expected: LogicalCombination
    n_pos: float
    n_neg: float


def combine_thresholded(labels, scores_a, scores_b, threshold_a: float, threshold_b: float, *,
                        weights=None, pos_label=None, bounds: str = "tight"
                        ) -> ActualCombination:
    """The AND and OR of two thresholded models, counted on rows both models scored.

    Fawcett (2004) section 7.4.3 gives where the combinations are expected under
    independence; interactions between the classifiers (shared errors) move them, and this
    measures where they actually are. Classifier a says positive iff
    ``scores_a >= threshold_a``, likewise b.

    Parameters
    ----------
    labels : array-like, shape (n,)
        True class (see :func:`~roc_dash.core.curves.roc_curve`).
    scores_a, scores_b : array-like of float, shape (n,)
        The two models' scores of the same rows.
    threshold_a, threshold_b : float
        Their thresholds.
    weights : array-like of float, shape (n,), optional
        Non-negative instance weights.
    pos_label : scalar, optional
        The positive label value, when the labels are not a known encoding.
    bounds : {"tight", "paper"}
        Bounds of the ``expected`` rectangles (see :func:`logical_combination`).

    Returns
    -------
    ActualCombination
    """
    y, sa, w = check_binary_inputs(labels, scores_a, weights, pos_label=pos_label)
    _, sb, _ = check_binary_inputs(y, scores_b)
    da, db = sa >= float(threshold_a), sb >= float(threshold_b)
    decisions = np.column_stack((da, db, da & db, da | db))
    fpr, tpr, n_pos, n_neg = _decision_rates(y, decisions, w)
    return ActualCombination(
        fpr_a=float(fpr[0]), tpr_a=float(tpr[0]), fpr_b=float(fpr[1]), tpr_b=float(tpr[1]),
        and_fpr=float(fpr[2]), and_tpr=float(tpr[2]), or_fpr=float(fpr[3]),
        or_tpr=float(tpr[3]),
        expected=logical_combination(fpr[0], tpr[0], fpr[1], tpr[1], bounds=bounds),
        n_pos=n_pos, n_neg=n_neg)
