"""Thresholds per group under a fairness constraint, and what each constraint costs.

One model, groups ``g`` with ROC hulls ``H_g`` (:mod:`roc_dash.core.subgroups.slices`). A decision rule
for group ``g`` flags a case with a probability that depends only on its score; its
operating point ``(FPR_g, TPR_g)`` can be any point on or under ``H_g``: hull vertices are
thresholds, points between two vertices are reached by randomising between them (Fawcett
2004, section 7.4.1), points under the hull by also ignoring the
score on a random share of cases (Hardt, Price & Srebro 2016, section 4).

The objective
-------------
With each group's share of cases ``w_g`` and deployment prior ``p_g``
(:func:`~roc_dash.core.subgroups.slices.group_deployment`), the expected cost per case of the whole
population is::

    C = sum_g w_g · [ p_g·(1 − TPR_g)·c(FN) + (1 − p_g)·FPR_g·c(FP) ]
      = sum_g [ a_g·(1 − TPR_g) + b_g·FPR_g ],   a_g = c(FN)·w_g·p_g,  b_g = c(FP)·w_g·(1 − p_g)

(Fawcett 2004, section 7.1, summed over groups). With unit costs and the data's own
prevalence it is the error rate ``1 − accuracy``; with unit costs and ``p(+) = 1/2`` it is
``1 − balanced accuracy`` of the pooled rates.

The constraints (:data:`CONSTRAINTS`), each solved exactly
-----------------------------------------------------------
* ``"single_threshold"``: one score threshold ``t`` for every group, no randomisation; ``C``
  at every distinct score, the lowest kept (the highest threshold among equals).
* ``"group_optima"``: each group its own optimum (the hull vertex of its own iso-performance
  slope ``b_g / a_g``), no constraint: the lowest ``C`` of all, the reference of
  :attr:`ConstrainedSolution.cost_of_constraint`.
* ``"equal_opportunity"``: one true positive rate ``tau`` for all groups (Hardt et al.,
  definition 2). Each group then takes the lowest FPR at TPR ``tau``, the point of its hull
  at height ``tau``, ``X_g(tau)``, convex and piecewise linear in ``tau``; so
  ``C(tau) = sum_g a_g·(1 − tau) + b_g·X_g(tau)`` is convex and piecewise linear, with
  breakpoints at the hull vertices' TPRs: it is evaluated at all of them.
* ``"demographic_parity"``: one share flagged ``s`` in every group, ``p_g·TPR_g +
  (1 − p_g)·FPR_g = s`` (at the group's deployment prior; in the data when the prior is the
  data's prevalence). On that line ``C_g`` rises with ``FPR_g``, so each group takes the
  point where the line crosses its hull (the budget construction of section 7.4.1,
  :func:`~roc_dash.core.combining.capacity_mix.budget_operating_point`); ``C(s)`` is piecewise linear
  with breakpoints at the hull vertices' shares flagged, all evaluated.
* ``"equalized_odds"``: one point ``(x, y)`` for all groups (Hardt et al., definition 1),
  feasible when it lies under every hull: ``y <= min_g H_g(x)``. ``C`` falls as ``y``
  rises, so ``y = min_g H_g(x)``, and ``A·min_g H_g(x) − B·x`` (``A = sum a_g``,
  ``B = sum b_g``) is concave and piecewise linear; its maximum is found among the hull
  vertices' FPRs and the crossings of the hulls next to the best of them. Each group then
  reaches ``(x, y)`` from its hull point ``(x, H_g(x))`` by ignoring the score on a random
  share ``lambda_g = (H_g(x) − y) / (H_g(x) − x)`` of its cases and flagging those with
  probability ``x`` (the point ``(x, x)`` of the diagonal), as fairlearn's
  ``ThresholdOptimizer`` does (its ``p_ignore``).

Ties keep the conservative solution (the fewest cases flagged). Section 7.4.5 of Fawcett
(2004) applies: thresholds chosen on a test set are part of training; validate them on
held-out data.

References
----------
M. Hardt, E. Price, N. Srebro, "Equality of Opportunity in Supervised Learning", NeurIPS 2016.

T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, sections 7.1 and 7.4.1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..combining.capacity_mix import budget_operating_point
from ..decisions.operating import vertex_at_threshold
from ..roc.hull import RocHull, expected_cost
from .slices import SliceAnalysis

__all__ = [
    "CONSTRAINTS", "GroupRule", "ConstrainedSolution", "GroupThresholds", "group_thresholds",
    "follow_constraint",
]

#: The constraints, in the order they are reported.
CONSTRAINTS: tuple[str, ...] = ("single_threshold", "group_optima", "equal_opportunity",
                                "equalized_odds", "demographic_parity")

#: Relative tolerance within which two costs are a tie (the conservative one is kept).
_TIE = 1e-12


@dataclass(frozen=True)
class GroupRule:
    """One group's decision rule and its operating point.

    The rule: a case of the group scoring ``>= threshold_upper`` is flagged with
    probability ``p_upper``, one scoring in ``[threshold_lower, threshold_upper)`` with
    probability ``p_between``, one scoring below ``threshold_lower`` with probability
    ``p_lower``. A plain threshold has ``threshold_lower == threshold_upper``,
    ``p_upper = 1``, ``p_lower = 0`` (``p_between`` NaN: the band is empty).

    Attributes
    ----------
    group : str
    fpr, tpr : float
        The rule's expected rates in the group.
    flagged : float
        Expected share of the group's cases flagged, ``p_g·TPR + (1 − p_g)·FPR``.
    threshold_upper, threshold_lower : float
        Score thresholds of two adjacent hull vertices (``+inf``: nothing scores that
        high); under one threshold for all, both are that threshold.
    p_upper, p_between, p_lower : float
        Probability of flagging a case in each score band.
    mix_weight : float
        Fawcett's ``k`` (section 7.4.1): the share of cases decided by the lower threshold,
        the rest by the upper one (0 for a plain threshold).
    ignore_share : float
        Hardt et al.'s randomisation (fairlearn's ``p_ignore``): the share of cases whose
        score is ignored, flagged instead with probability ``ignore_flag_rate`` (0 unless
        equalized odds brings the group under its hull).
    ignore_flag_rate : float
        Probability of flagging a case whose score is ignored (NaN when none is).
    randomised_share : float
        Expected share of the group's cases whose decision is left to chance (in a band
        flagged with a probability strictly between 0 and 1).
    share, prior_pos : float
        The group's share of cases ``w_g`` and deployment prior ``p_g``.
    expected_cost : float
        Expected cost per case of the group.
    """

    group: str
    fpr: float
    tpr: float
    flagged: float
    threshold_upper: float
    threshold_lower: float
    p_upper: float
    p_between: float
    p_lower: float
    mix_weight: float
    ignore_share: float
    ignore_flag_rate: float
    randomised_share: float
    share: float
    prior_pos: float
    expected_cost: float

    @property
    def randomised(self) -> bool:
        """True when some of the group's cases are decided by chance."""
        return self.randomised_share > 0


@dataclass(frozen=True)
class ConstrainedSolution:
    """The best rules under one constraint, and what the constraint costs.

    Attributes
    ----------
    constraint : str
        One of :data:`CONSTRAINTS`.
    rules : tuple of GroupRule
        One per group, in the order of :attr:`GroupThresholds.groups`.
    expected_cost : float
        ``C``, the expected cost per case of all groups (see the module docstring).
    cost_of_constraint : float
        ``C`` minus that of ``"group_optima"``: what the constraint costs per case
        (0 for ``"group_optima"``, never negative).
    common_threshold, common_tpr, common_fpr, common_flagged : float
        The common value the constraint imposes (the threshold; the TPR; the FPR and TPR;
        the share flagged); NaN for what it leaves free.
    """

    constraint: str
    rules: tuple[GroupRule, ...]
    expected_cost: float
    cost_of_constraint: float
    common_threshold: float = math.nan
    common_tpr: float = math.nan
    common_fpr: float = math.nan
    common_flagged: float = math.nan

    @property
    def randomised(self) -> bool:
        """True when some group's rule leaves cases to chance."""
        return any(r.randomised for r in self.rules)

    def rule(self, group: str) -> GroupRule:
        """The rule of ``group``."""
        for r in self.rules:
            if r.group == group:
                return r
        raise KeyError(f"no group named {group!r}")


@dataclass(frozen=True)
class GroupThresholds:
    """The solutions of one model under every constraint, side by side.

    ``groups`` are the groups with a ROC curve (those of :attr:`SliceAnalysis.optima`);
    ``excluded`` those with a single class, which take no part.
    """

    solutions: tuple[ConstrainedSolution, ...]
    groups: tuple[str, ...]
    excluded: tuple[str, ...]
    cost_fp: float
    cost_fn: float
    prior_pos: float

    def solution(self, constraint: str) -> ConstrainedSolution:
        """The solution under ``constraint``."""
        for s in self.solutions:
            if s.constraint == constraint:
                return s
        raise KeyError(f"no solution for {constraint!r}; constraints: "
                       f"{[s.constraint for s in self.solutions]}")


@dataclass(frozen=True)
class _Setting:
    """What every solver needs: the hulls and curves, shares, priors and the weights a, b."""

    names: tuple[str, ...]
    hulls: tuple[RocHull, ...]
    curves: tuple
    share: np.ndarray
    prior: np.ndarray
    a: np.ndarray  # c(FN)·w_g·p_g
    b: np.ndarray  # c(FP)·w_g·(1 − p_g)
    cost_fp: float
    cost_fn: float


def _setting(analysis: SliceAnalysis) -> _Setting:
    names = tuple(o.name for o in analysis.optima)
    rocs = [analysis.roc(n) for n in names]
    share = np.array([o.share for o in analysis.optima])
    prior = np.array([o.prior_pos for o in analysis.optima])
    return _Setting(names=names, hulls=tuple(r.hull for r in rocs),
                    curves=tuple(r.curve for r in rocs), share=share, prior=prior,
                    a=analysis.cost_fn * share * prior, b=analysis.cost_fp * share * (1 - prior),
                    cost_fp=analysis.cost_fp, cost_fn=analysis.cost_fn)


def _make_rule(st: _Setting, g: int, fpr: float, tpr: float, **fields) -> GroupRule:
    """A :class:`GroupRule` of group ``g`` at ``(fpr, tpr)``, with its share, prior and
    expected cost per case."""
    p, w = float(st.prior[g]), float(st.share[g])
    return GroupRule(group=st.names[g], fpr=fpr, tpr=tpr, flagged=p * tpr + (1 - p) * fpr,
                     share=w, prior_pos=p,
                     expected_cost=expected_cost(fpr, tpr, cost_fp=st.cost_fp,
                                                 cost_fn=st.cost_fn, prior_pos=p), **fields)


def _plain_rule(st: _Setting, g: int, threshold: float, fpr: float, tpr: float) -> GroupRule:
    """"Flag iff score >= threshold" in group ``g``, at its curve's vertex ``(fpr, tpr)``."""
    return _make_rule(st, g, fpr, tpr, threshold_upper=threshold, threshold_lower=threshold,
                      p_upper=1.0, p_between=math.nan, p_lower=0.0, mix_weight=0.0,
                      ignore_share=0.0, ignore_flag_rate=math.nan, randomised_share=0.0)


def _rule(st: _Setting, g: int, upper: int, lower: int, weight: float, *,
          ignore: float = 0.0, flag_rate: float = math.nan) -> GroupRule:
    """Group ``g``'s rule: hull vertex ``upper`` on a share ``1 − weight`` of the cases and
    the next vertex ``lower`` on the rest (Fawcett 2004, section 7.4.1), the score ignored
    on a share ``ignore`` of the cases, flagged then with probability ``flag_rate``."""
    h, p = st.hulls[g], float(st.prior[g])
    if weight <= _TIE:
        lower, weight = upper, 0.0
    elif weight >= 1 - _TIE:
        upper, weight = lower, 0.0
    fpr_h = h.fpr[upper] + weight * (h.fpr[lower] - h.fpr[upper])
    tpr_h = h.tpr[upper] + weight * (h.tpr[lower] - h.tpr[upper])
    x = flag_rate if ignore else 0.0
    probs = ((1 - ignore) + ignore * x,
             (1 - ignore) * weight + ignore * x if lower != upper else math.nan,
             ignore * x)
    above = p * h.tpr[upper] + (1 - p) * h.fpr[upper]      # share scoring >= the upper
    below = 1 - (p * h.tpr[lower] + (1 - p) * h.fpr[lower])  # share scoring < the lower
    bands = (above, 1 - above - below, below)
    randomised = sum(b for b, q in zip(bands, probs, strict=True)
                     if not math.isnan(q) and 0 < q < 1)
    return _make_rule(
        st, g, float((1 - ignore) * fpr_h + ignore * x), float((1 - ignore) * tpr_h + ignore * x),
        threshold_upper=float(h.thresholds[upper]), threshold_lower=float(h.thresholds[lower]),
        p_upper=float(probs[0]), p_between=float(probs[1]), p_lower=float(probs[2]),
        mix_weight=float(weight), ignore_share=float(ignore),
        ignore_flag_rate=float(flag_rate) if ignore else math.nan,
        randomised_share=float(max(0.0, min(1.0, randomised))))


def _segment(key: np.ndarray, target: float, *, last: bool = False) -> tuple[int, int, float]:
    """``(upper, lower, weight)``: the hull point where ``key`` (non-decreasing along the
    hull) equals ``target``, as vertex ``upper`` mixed with the next vertex ``lower`` at
    ``weight``; the first such point, or the last with ``last=True``."""
    n = key.size
    if last:
        k = int(np.searchsorted(key, target, side="right")) - 1
        k = min(max(k, 0), n - 1)
        if key[k] >= target or k == n - 1:
            return k, k, 0.0
        return k, k + 1, float((target - key[k]) / (key[k + 1] - key[k]))
    k = int(np.searchsorted(key, target, side="left"))
    k = min(max(k, 0), n - 1)
    if key[k] <= target or k == 0:
        return k, k, 0.0
    return k - 1, k, float((target - key[k - 1]) / (key[k] - key[k - 1]))


def _interp(key: np.ndarray, values: np.ndarray, at: np.ndarray, *, last: bool = False):
    """``values`` along the hull at ``key == at`` (first or last point with that key)."""
    if last:
        rev = key[::-1]
        uniq, idx = np.unique(rev, return_index=True)
        return np.interp(at, uniq, values[::-1][idx])
    uniq, idx = np.unique(key, return_index=True)
    return np.interp(at, uniq, values[idx])


def _best(candidates: np.ndarray, cost: np.ndarray) -> int:
    """Index of the lowest cost; among ties (relative ``_TIE``) the smallest candidate."""
    low = float(cost.min())
    near = np.flatnonzero(cost <= low + _TIE * max(1.0, abs(low)))
    return int(near[np.argmin(candidates[near])])


def _solution(st: _Setting, constraint: str, rules: list[GroupRule], reference: float,
              **common) -> ConstrainedSolution:
    total = float(sum(r.share * r.expected_cost for r in rules))
    return ConstrainedSolution(constraint=constraint, rules=tuple(rules), expected_cost=total,
                               cost_of_constraint=max(0.0, total - reference)
                               if constraint != "group_optima" else 0.0, **common)


def _single_threshold(st: _Setting, reference: float) -> ConstrainedSolution:
    """One threshold for all: ``C(t) = A − sum_g a_g·TPR_g(t) + sum_g b_g·FPR_g(t)`` at every
    distinct score, from each group's vertex steps (``a_g·ΔTPR`` and ``b_g·ΔFPR`` at each
    vertex's threshold), put in order by one sort of all groups' thresholds and summed from
    the highest threshold down (a sort of the vertices, not of the rows; no weighted ROC
    curve of the pooled steps)."""
    s = np.concatenate([curve.thresholds[1:] for curve in st.curves])
    gain = np.concatenate([st.a[g] * np.diff(c.tpr) for g, c in enumerate(st.curves)])
    loss = np.concatenate([st.b[g] * np.diff(c.fpr) for g, c in enumerate(st.curves)])
    order = np.argsort(-s, kind="stable")
    s = s[order]
    last = np.flatnonzero(np.append(s[1:] != s[:-1], True))  # last step at each threshold
    big_a = float(st.a.sum())
    thresholds = np.concatenate([[np.inf], s[last]])
    cost = np.concatenate([[big_a], big_a - np.cumsum(gain[order])[last]
                           + np.cumsum(loss[order])[last]])
    k = _best(-thresholds, cost)  # among ties the highest threshold
    t = float(thresholds[k])
    rules = []
    for g, curve in enumerate(st.curves):
        j = vertex_at_threshold(curve, t)
        rules.append(_plain_rule(st, g, t, float(curve.fpr[j]), float(curve.tpr[j])))
    return _solution(st, "single_threshold", rules, reference, common_threshold=t)


def _group_optima(st: _Setting, analysis: SliceAnalysis) -> ConstrainedSolution:
    rules = [_rule(st, g, o.optimum.index, o.optimum.index, 0.0)
             for g, o in enumerate(analysis.optima)]
    total = float(sum(r.share * r.expected_cost for r in rules))
    return _solution(st, "group_optima", rules, total)


def _equal_opportunity(st: _Setting, reference: float) -> ConstrainedSolution:
    tau = np.unique(np.concatenate([h.tpr for h in st.hulls]))
    cost = sum(st.a[g] * (1 - tau) + st.b[g] * _interp(h.tpr, h.fpr, tau)
               for g, h in enumerate(st.hulls))
    best = float(tau[_best(tau, cost)])
    rules = [_rule(st, g, *_segment(h.tpr, best)) for g, h in enumerate(st.hulls)]
    return _solution(st, "equal_opportunity", rules, reference, common_tpr=best)


def _demographic_parity(st: _Setting, reference: float) -> ConstrainedSolution:
    keys = [st.prior[g] * h.tpr + (1 - st.prior[g]) * h.fpr for g, h in enumerate(st.hulls)]
    s = np.clip(np.unique(np.concatenate(keys)), 0.0, 1.0)
    cost = sum(st.a[g] * (1 - _interp(keys[g], h.tpr, s)) + st.b[g] * _interp(keys[g], h.fpr, s)
               for g, h in enumerate(st.hulls))
    best = float(s[_best(s, cost)])
    rules = []
    for g, h in enumerate(st.hulls):
        mix = budget_operating_point(h, n_total=1.0, prior_pos=float(st.prior[g]),
                                     fraction=best)
        rules.append(_rule(st, g, mix.index_a, mix.index_b, mix.k))
    return _solution(st, "demographic_parity", rules, reference, common_flagged=best)


def _equalized_odds_point(st: _Setting) -> tuple[float, float]:
    """``(x, y)`` maximising ``A·min_g H_g(x) − B·x`` (concave, piecewise linear)."""
    big_a, big_b = float(st.a.sum()), float(st.b.sum())

    def upper(x):
        return np.min([_interp(h.fpr, h.tpr, x, last=True) for h in st.hulls], axis=0)

    xs = np.unique(np.concatenate([h.fpr for h in st.hulls]))
    ys = upper(xs)
    i = _best(xs, -(big_a * ys - big_b * xs))
    cands = [xs[i]]
    for lo, hi in ((i - 1, i), (i, i + 1)):  # the crossings of the hulls next to it
        if lo < 0 or hi >= xs.size:
            continue
        left, right = np.array([_interp(h.fpr, h.tpr, xs[[lo, hi]], last=True)
                                for h in st.hulls]).T
        width = xs[hi] - xs[lo]
        d = (right - left) / width
        with np.errstate(divide="ignore", invalid="ignore"):
            dx = (left[None, :] - left[:, None]) / (d[:, None] - d[None, :])
        dx = dx[np.isfinite(dx) & (dx > 0) & (dx < width)]
        cands.extend((xs[lo] + dx).tolist())
    cands = np.unique(np.clip(np.asarray(cands, dtype=np.float64), 0.0, 1.0))
    ys = upper(cands)
    j = _best(cands, -(big_a * ys - big_b * cands))
    return float(cands[j]), float(ys[j])


def _equalized_odds(st: _Setting, reference: float) -> ConstrainedSolution:
    x, y = _equalized_odds_point(st)
    return _solution(st, "equalized_odds", _odds_rules(st, x, y), reference, common_fpr=x,
                     common_tpr=y)


def group_thresholds(analysis: SliceAnalysis,
                     constraints: tuple[str, ...] = CONSTRAINTS) -> GroupThresholds:
    """The best rules per group under each constraint, and what each constraint costs.

    See the module docstring for the objective and how each constraint is solved.

    Parameters
    ----------
    analysis : SliceAnalysis
        One model's groups under given costs and priors
        (:func:`~roc_dash.core.subgroups.slices.slice_analysis`).
    constraints : tuple of str, default :data:`CONSTRAINTS`
        Which solutions to compute, in this order (the unconstrained optimum is always
        computed, as the reference).

    Returns
    -------
    GroupThresholds

    Raises
    ------
    ValueError
        On an unknown constraint.
    """
    unknown = [c for c in constraints if c not in CONSTRAINTS]
    if unknown:
        raise ValueError(f"unknown constraints {unknown}; choose from {list(CONSTRAINTS)}")
    st = _setting(analysis)
    optima = _group_optima(st, analysis)
    reference = optima.expected_cost
    solvers = {"single_threshold": _single_threshold, "equal_opportunity": _equal_opportunity,
               "equalized_odds": _equalized_odds, "demographic_parity": _demographic_parity}
    solutions = tuple(optima if c == "group_optima" else solvers[c](st, reference)
                      for c in constraints)
    return GroupThresholds(solutions=solutions, groups=st.names, excluded=analysis.excluded,
                           cost_fp=analysis.cost_fp, cost_fn=analysis.cost_fn,
                           prior_pos=analysis.prior_pos)


# -- a group's point moved by hand, the others following the constraint --------------------
def _nearest_on_hull(h: RocHull, fpr: float, tpr: float) -> tuple[int, int, float]:
    """``(upper, lower, weight)``: the point of hull ``h`` nearest to ``(fpr, tpr)``
    (Euclidean), as vertex ``upper`` mixed with the next vertex ``lower`` at ``weight``."""
    if h.fpr.size == 1:
        return 0, 0, 0.0
    x0, y0 = h.fpr[:-1], h.tpr[:-1]
    dx, dy = np.diff(h.fpr), np.diff(h.tpr)
    length = dx * dx + dy * dy
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(length > 0, ((fpr - x0) * dx + (tpr - y0) * dy) / length, 0.0)
    t = np.clip(t, 0.0, 1.0)
    distance = (x0 + t * dx - fpr) ** 2 + (y0 + t * dy - tpr) ** 2
    k = int(np.argmin(distance))
    return k, k + 1, float(t[k])


def _odds_rules(st: _Setting, x: float, y: float) -> list[GroupRule]:
    """Every group at ``(x, y)`` (under all hulls): its hull point at FPR ``x``, the score
    ignored on the share that brings it down to ``y`` (Hardt et al. 2016, section 4)."""
    rules = []
    for g, h in enumerate(st.hulls):
        upper, lower, weight = _segment(h.fpr, x, last=True)
        top = float(h.tpr[upper] + weight * (h.tpr[lower] - h.tpr[upper]))
        gap = top - y
        ignore = gap / (top - x) if gap > _TIE * max(1.0, top) and top > x else 0.0
        rules.append(_rule(st, g, upper, lower, weight, ignore=min(1.0, ignore),
                           flag_rate=x))
    return rules


def _followers(st: _Setting, analysis: SliceAnalysis, constraint: str, g: int,
               moved: GroupRule, fpr: float, tpr: float) -> tuple[list[GroupRule], dict]:
    """Every group's rule once group ``g`` is at ``moved`` (the dragged ``(fpr, tpr)``
    for one threshold), and the common value the constraint imposes."""
    others = [h for h in range(len(st.names)) if h != g]
    rules: dict[int, GroupRule] = {g: moved}
    if constraint == "group_optima":
        for h in others:
            k = analysis.optima[h].optimum.index
            rules[h] = _rule(st, h, k, k, 0.0)
        return [rules[h] for h in sorted(rules)], {}
    if constraint == "single_threshold":
        c = st.curves[g]
        j = int(np.argmin((c.fpr - fpr) ** 2 + (c.tpr - tpr) ** 2))
        t = float(c.thresholds[j])
        out = []
        for h, curve in enumerate(st.curves):
            k = vertex_at_threshold(curve, t)
            out.append(_plain_rule(st, h, t, float(curve.fpr[k]), float(curve.tpr[k])))
        return out, {"common_threshold": t}
    if constraint == "equal_opportunity":
        for h in others:
            rules[h] = _rule(st, h, *_segment(st.hulls[h].tpr, moved.tpr))
        return [rules[h] for h in sorted(rules)], {"common_tpr": moved.tpr}
    if constraint == "demographic_parity":
        for h in others:
            mix = budget_operating_point(st.hulls[h], n_total=1.0,
                                         prior_pos=float(st.prior[h]),
                                         fraction=min(1.0, max(0.0, moved.flagged)))
            rules[h] = _rule(st, h, mix.index_a, mix.index_b, mix.k)
        return [rules[h] for h in sorted(rules)], {"common_flagged": moved.flagged}
    x = moved.fpr  # equalized odds: the highest common point under every hull
    y = min(moved.tpr, *(float(_interp(h.fpr, h.tpr, np.array([x]), last=True)[0])
                         for h in st.hulls))
    return _odds_rules(st, x, y), {"common_fpr": x, "common_tpr": y}


def follow_constraint(analysis: SliceAnalysis, constraint: str, group: str, fpr: float,
                      tpr: float) -> ConstrainedSolution:
    """Group ``group`` moved by hand to its hull, the other groups following ``constraint``.

    The group's point becomes the point of its ROC convex hull nearest to ``(fpr, tpr)``
    (a mix of two adjacent vertices, Fawcett 2004, section 7.4.1); the others then keep
    what the constraint holds equal (Hardt, Price & Srebro 2016, definitions 1-2):

    * ``"single_threshold"``: the threshold of the group's ROC vertex nearest to
      ``(fpr, tpr)``, for every group (no mixing);
    * ``"group_optima"``: only that group moves; the others stay at their own optima;
    * ``"equal_opportunity"``: every group at its hull point of the same TPR (the lowest
      FPR there);
    * ``"equalized_odds"``: every group at the same ``(x, y)``: ``x`` the group's FPR, ``y``
      its TPR lowered, if need be, to the lowest hull at ``x`` so that every group reaches
      it (by ignoring the score on a share of cases, as :func:`group_thresholds`);
    * ``"demographic_parity"``: every group flags the same share of its cases (at its
      deployment prior), at the point where that budget line crosses its hull.

    Parameters
    ----------
    analysis : SliceAnalysis
        One model's groups under given costs and priors.
    constraint : str
        One of :data:`CONSTRAINTS`.
    group : str
        A group with a ROC curve (one of ``analysis.optima``).
    fpr, tpr : float
        Where the group's point was dropped, in [0, 1].

    Returns
    -------
    ConstrainedSolution
        The rules, the total expected cost per case and its excess over each group at its
        own optimum (:attr:`ConstrainedSolution.cost_of_constraint`: what the hand-moved
        point costs, never negative).

    Raises
    ------
    ValueError
        On an unknown constraint or group, or a point outside the unit square.
    """
    if constraint not in CONSTRAINTS:
        raise ValueError(f"unknown constraint {constraint!r}; choose from {list(CONSTRAINTS)}")
    st = _setting(analysis)
    if group not in st.names:
        raise ValueError(f"no group {group!r} with a ROC curve; groups: {list(st.names)}")
    if not all(math.isfinite(v) and 0.0 <= v <= 1.0 for v in (fpr, tpr)):
        raise ValueError(f"fpr and tpr must be rates in [0, 1], got ({fpr!r}, {tpr!r})")
    g = st.names.index(group)
    reference = _group_optima(st, analysis).expected_cost
    moved = _rule(st, g, *_nearest_on_hull(st.hulls[g], float(fpr), float(tpr)))
    rules, common = _followers(st, analysis, constraint, g, moved, float(fpr), float(tpr))
    total = float(sum(r.share * r.expected_cost for r in rules))
    return ConstrainedSolution(constraint=constraint, rules=tuple(rules), expected_cost=total,
                               cost_of_constraint=max(0.0, total - reference), **common)
