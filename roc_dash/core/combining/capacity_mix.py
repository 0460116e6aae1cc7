"""Interpolating classifiers to act on a given number of cases: a capacity, which Fawcett
(2004, section 7.4.1) calls a budget (a number of cases, not the server's request time).

Fawcett (2004), "ROC Graphs: Notes and Practical Considerations for Researchers":
a constraint such as "we can act on K of the n cases" is the
line ``FPR·N + TPR·P = K`` in ROC space (``P = n·p(+)``, ``N = n − P``); the best classifier
meeting it lies where the line crosses the ROC convex hull, between two hull vertices A and
B, and is realised by using B's decisions on a random fraction ``k`` of the cases and A's on
the rest (:func:`budget_operating_point`, :func:`mix_for_budget`).

Section 7.4.5's warning applies to everything here: choosing or combining classifiers on a
test set is part of training; validate the combination on held-out data.

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, section 7.4.1 (Interpolating classifiers).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..roc.hull import RocHull, convex_hull, hull_of_points

__all__ = ["BudgetMix", "BudgetLine", "budget_line", "mix_for_budget", "mix_for_cases",
           "budget_operating_point"]


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
    _class_totals(n_total, prior_pos)
    return mix_for_cases(point_a, point_b, n_total=n_total, prior_pos=prior_pos,
                         cases=_resolve_budget(budget, fraction, n_total),
                         threshold_a=threshold_a, threshold_b=threshold_b,
                         model_a=model_a, model_b=model_b)


def mix_for_cases(point_a, point_b, *, n_total: float, prior_pos: float, cases: float,
                  threshold_a=None, threshold_b=None, model_a=None,
                  model_b=None) -> BudgetMix:
    """:func:`mix_for_budget` for a number of cases already computed (``cases``: K, may be
    below one case, as an expected count flagged by a point near (0, 0) is): no guess that
    a K in (0, 1) was meant as a share. For callers that derive K themselves (the floors'
    best hull point), never for a number a user typed."""
    n_pos, n_neg = _class_totals(n_total, prior_pos)
    k_cases = float(cases)
    if not (math.isfinite(k_cases) and k_cases >= 0):
        raise ValueError(f"the number of cases must be finite and non-negative, got {cases!r}")
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
