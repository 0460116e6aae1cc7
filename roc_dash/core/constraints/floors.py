"""A floor on a metric (Neyman–Pearson): the operating points that meet it, and the best of
them under the costs.

Teams state a decision as "precision ≥ 0.9", "recall ≥ 0.95" or "FPR ≤ 1%" more often than
as costs. Each such floor, at a deployment prior ``p = p(+)``, is a half-plane of ROC space
``a·FPR + b·TPR ≥ c`` (:meth:`Floor.half_plane`):

* recall ≥ r: ``TPR ≥ r``; specificity ≥ s: ``FPR ≤ 1 − s``; FPR ≤ α: ``FPR ≤ α``;
* precision ≥ q: ``p(1−q)·TPR ≥ q(1−p)·FPR``, a line through the origin (Fawcett 2004,
  section 3.2: precision depends on the class mix, so the line turns with the prior);
* NPV ≥ v: ``v·p·TPR − (1−p)(1−v)·FPR ≥ v·p − (1−p)(1−v)``, a line through (1, 1);
* share flagged ≤ f (a capacity, :mod:`.capacity`): ``p·TPR + (1−p)·FPR ≤ f``, Fawcett's
  budget line (2004, section 7.4.1).

Their intersection with the unit square is a convex polygon, the *feasible region*
(:class:`FeasibleRegion`, drawn on the ROC and the PR views). The classifiers reachable by
mixing thresholds at random lie under the ROC convex hull (Fawcett 2004, section 7.1), and
every floor here improves when TPR rises and FPR falls together, so the least expected cost
inside the region lies on the hull: at a hull vertex inside it or where a floor's boundary
crosses a hull segment; such a point is a random mix of the segment's two vertices
(section 7.4.1, :class:`~roc_dash.core.combining.capacity_mix.BudgetMix`). :func:`floor_decision` finds
it exactly (the expected cost is linear along each segment), and the model's single
threshold of least cost meeting every floor, which needs no randomisation (the one a
decision record ships).

A threshold chosen where a floor binds meets it on the data by construction and misses it on
new data about half the time. :func:`floor_decision` with ``confidence`` chooses instead on
exact one-sided Clopper–Pearson bounds of the rates at each threshold (Bonferroni over the
bounds used), in the spirit of the Neyman–Pearson umbrella algorithm of Tong, Feng & Li
(2018): with one rate floor (recall or FPR) the chosen threshold meets it on the population
with probability at least ``confidence``; :mod:`.floor_confidence` measures how sure a chosen
threshold is to hold (``bench/simulate_constraints.py`` simulates both).

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", 2004, sections
3.2, 7.1 and 7.4.1.

X. Tong, Y. Feng, J. J. Li, "Neyman-Pearson classification algorithms and NP receiver
operating characteristics", Science Advances 4(2):eaao1659, 2018.

C. J. Clopper, E. S. Pearson, "The use of confidence or fiducial limits illustrated in the
case of the binomial", Biometrika 26(4):404-413, 1934.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np
from scipy.special import betaincinv

from ..combining.capacity_mix import BudgetMix, mix_for_cases
from ..decisions.economics import (
    Economics,
    expected_cost_per_case,
    flagged_at_prior,
    net_slope,
    precision_at_prior,
    regret_per_case,
)
from ..decisions.point_intervals import npv_at_prior
from ..roc.curve_geometry import whole_counts
from ..roc.curves import RocCurve
from ..roc.hull import TIE_RTOL, RocHull, convex_hull, optimal_vertex
from . import _checks

__all__ = ["METRICS", "Floor", "parse_floor", "metric_values", "FeasibleRegion",
           "feasible_region", "FloorDecision", "floor_decision", "least_cost_index",
           "conservative_meets", "vertex_counts"]

#: The metrics a floor can bound, each with the only direction that makes it a floor
#: (a limit the team wants kept): ">=" for the good rates, "<=" for FPR and the share flagged.
METRICS = {"precision": ">=", "recall": ">=", "specificity": ">=", "npv": ">=",
           "fpr": "<=", "flagged": "<="}

#: Other names accepted for them (``fnr <= x`` is read as ``recall >= 1 − x``).
ALIASES = {"tpr": "recall", "sensitivity": "recall", "ppv": "precision", "tnr": "specificity",
           "queue": "flagged", "queue_rate": "flagged", "share_flagged": "flagged"}

#: How a metric is named in sentences.
LABELS = {"precision": "precision", "recall": "recall", "specificity": "specificity",
          "npv": "NPV", "fpr": "FPR", "flagged": "share flagged"}

_SLACK = 1e-12  # relative tolerance of "on the boundary" (rounding of the rates)


@dataclass(frozen=True)
class Floor:
    """One limit on a metric: ``metric >= value`` (or ``<=`` for ``fpr`` and ``flagged``).

    Attributes
    ----------
    metric : str
        One of :data:`METRICS`.
    bound : str
        ``">="`` or ``"<="`` (the direction :data:`METRICS` gives the metric).
    value : float
        In [0, 1].
    """

    metric: str
    bound: str
    value: float

    def __post_init__(self):
        if self.metric not in METRICS:
            raise ValueError(f"unknown metric {self.metric!r}: a floor bounds one of "
                             f"{', '.join(METRICS)}")
        if self.bound != METRICS[self.metric]:
            good = METRICS[self.metric]
            raise ValueError(
                f"{self.metric} {self.bound} {self.value:g} is not a floor: a limit on "
                f"{LABELS[self.metric]} keeps it {'high' if good == '>=' else 'low'} "
                f"({self.metric} {good} x)")
        if not (_checks.finite(self.value) and 0.0 <= float(self.value) <= 1.0):
            raise ValueError(f"the floor on {self.metric} must lie in [0, 1] (a share; "
                             f"write 1% as 0.01 or 1%), got {self.value!r}")

    @property
    def text(self) -> str:
        """E.g. ``"precision ≥ 0.9"``."""
        sign = "≥" if self.bound == ">=" else "≤"
        return f"{LABELS[self.metric]} {sign} {float(self.value):.6g}"

    def half_plane(self, prior_pos: float) -> tuple[float, float, float]:
        """``(a, b, c)`` with the floor met exactly where ``a·FPR + b·TPR ≥ c``."""
        p, v = prior_pos, float(self.value)
        q = 1.0 - p
        return {
            "recall": (0.0, 1.0, v),
            "specificity": (-1.0, 0.0, v - 1.0),
            "fpr": (-1.0, 0.0, -v),
            "precision": (-v * q, p * (1.0 - v), 0.0),
            "npv": (-q * (1.0 - v), v * p, v * p - q * (1.0 - v)),
            "flagged": (-q, -p, -v),
        }[self.metric]

    def margin(self, fpr, tpr, prior_pos: float) -> np.ndarray:
        """``a·FPR + b·TPR − c``: >= 0 where the floor is met (up to rounding)."""
        a, b, c = self.half_plane(prior_pos)
        return a * np.asarray(fpr, dtype=np.float64) + b * np.asarray(tpr, dtype=np.float64) - c

    def met(self, fpr, tpr, prior_pos: float) -> np.ndarray:
        """Where the floor is met (a relative ``1e-12`` of slack for rounding)."""
        a, b, c = self.half_plane(prior_pos)
        return self.margin(fpr, tpr, prior_pos) >= -_SLACK * (abs(a) + abs(b) + abs(c) + 1.0)


_FLOOR_TEXT = re.compile(r"^\s*([A-Za-z_]+)\s*(>=|=>|≥|<=|=<|≤|>|<)\s*([0-9.eE+-]+)\s*(%?)\s*$")


def parse_floor(text: str) -> Floor:
    """A :class:`Floor` from text such as ``"precision>=0.9"``, ``"recall ≥ 95%"``,
    ``"fpr<=1%"``, ``"fnr<=0.05"`` (read as recall ≥ 0.95) or ``"queue_rate<=0.02"``.

    Raises
    ------
    ValueError
        Naming the text and what a floor looks like.
    """
    m = _FLOOR_TEXT.match(str(text))
    if not m:
        raise ValueError(f"{text!r} is not a floor: write METRIC>=VALUE or METRIC<=VALUE, "
                         f"e.g. precision>=0.9, recall>=95%, fpr<=1% (metrics: "
                         f"{', '.join(METRICS)}, fnr)")
    name, op, number, pct = m.groups()
    name = name.lower()
    bound = ">=" if op in (">=", "=>", "≥", ">") else "<="
    try:
        value = float(number) / (100.0 if pct else 1.0)
    except ValueError:
        raise ValueError(f"{text!r}: {number!r} is not a number") from None
    if name == "fnr":
        if bound != "<=":
            raise ValueError(f"{text!r} is not a floor: a limit on FNR keeps it low (fnr<=x)")
        return Floor("recall", ">=", 1.0 - value)
    return Floor(ALIASES.get(name, name), bound, value)


def metric_values(metric: str, fpr, tpr, prior_pos: float):
    """The metric at ROC points ``(fpr, tpr)`` at the prior (precision NaN where nothing is
    flagged, NPV NaN where everything is)."""
    fpr = np.asarray(fpr, dtype=np.float64)
    tpr = np.asarray(tpr, dtype=np.float64)
    out = {"precision": lambda: precision_at_prior(fpr, tpr, prior_pos),
           "recall": lambda: tpr, "specificity": lambda: 1.0 - fpr, "fpr": lambda: fpr,
           "npv": lambda: npv_at_prior(fpr, tpr, prior_pos),
           "flagged": lambda: flagged_at_prior(fpr, tpr, prior_pos)}[metric]()
    return float(out) if np.ndim(out) == 0 else np.asarray(out, dtype=np.float64)


# ------------------------------------------------------------------------- the region
@dataclass(frozen=True, eq=False)
class FeasibleRegion:
    """Where every floor holds, as polygons to draw.

    Attributes
    ----------
    fpr, tpr : ndarray
        The convex polygon in ROC space (closed: the first vertex repeated last; empty when
        no point of the unit square meets every floor).
    recall, precision : ndarray
        Its outline in precision-recall space at the prior: each edge sampled (straight
        lines in ROC space are curves there), the origin left out (precision is undefined
        where nothing is flagged).
    prior_pos : float
    """

    fpr: np.ndarray
    tpr: np.ndarray
    recall: np.ndarray
    precision: np.ndarray
    prior_pos: float

    @property
    def empty(self) -> bool:
        return self.fpr.size == 0


def _clip(poly: np.ndarray, a: float, b: float, c: float) -> np.ndarray:
    """Sutherland–Hodgman: the convex polygon ``poly`` (rows of x, y) cut to
    ``a·x + b·y ≥ c``."""
    if poly.shape[0] == 0:
        return poly
    h = a * poly[:, 0] + b * poly[:, 1] - c
    tol = _SLACK * (abs(a) + abs(b) + abs(c) + 1.0)
    out = []
    n = poly.shape[0]
    for i in range(n):
        j = (i + 1) % n
        pi, pj, hi, hj = poly[i], poly[j], h[i], h[j]
        if hi >= -tol:
            out.append(pi)
        if (hi >= -tol) != (hj >= -tol) and hi != hj:
            t = hi / (hi - hj)
            out.append(pi + t * (pj - pi))
    return np.asarray(out, dtype=np.float64).reshape(-1, 2)


_EDGE_SAMPLES = 48


def feasible_region(floors, prior_pos: float) -> FeasibleRegion:
    """The polygon of ROC space where every floor holds, and its outline in PR space at
    ``prior_pos`` (see :class:`FeasibleRegion`)."""
    p = _checks.prior(prior_pos)
    poly = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    for f in floors:
        poly = _clip(poly, *f.half_plane(p))
    if poly.shape[0] < 1:
        e = np.empty(0)
        return FeasibleRegion(e, e, e, e, p)
    closed = np.vstack([poly, poly[:1]])
    t = np.linspace(0.0, 1.0, _EDGE_SAMPLES, endpoint=False)
    seg = closed[:-1, None, :] + t[None, :, None] * np.diff(closed, axis=0)[:, None, :]
    x, y = seg[..., 0].ravel(), seg[..., 1].ravel()
    x, y = np.append(x, closed[-1, 0]), np.append(y, closed[-1, 1])
    keep = (p * y + (1.0 - p) * x) > 0
    return FeasibleRegion(fpr=closed[:, 0].copy(), tpr=closed[:, 1].copy(), recall=y[keep],
                          precision=precision_at_prior(x[keep], y[keep], p), prior_pos=p)


# ------------------------------------------------------------------------- the decision
@dataclass(frozen=True, eq=False)
class FloorDecision:
    """The best operating points of one model under floors and costs.

    Attributes
    ----------
    floors : tuple of Floor
    prior_pos : float
    economics : Economics
        Its net costs choose among the feasible points.
    confidence : float or None
        When given, :attr:`threshold` was chosen on one-sided Clopper–Pearson bounds
        (see :func:`floor_decision`); :attr:`best` always on the estimates.
    region : FeasibleRegion
    feasible : bool
        Some point under the hull meets every floor.
    best : BudgetMix or None
        The hull point of least expected cost meeting every floor: a hull vertex (``k = 0``)
        or a random mix of two (Fawcett 2004, section 7.4.1); its ``expected_cases`` are per
        ``n_total`` (the data's cases).
    best_cost : float
        Expected cost per case of :attr:`best` (NaN when infeasible).
    index : int or None
        The curve vertex of :attr:`threshold` (None when no single threshold meets the floors).
    threshold : float
        Flag iff score >= threshold: the single threshold of least expected cost meeting
        every floor (NaN when none; ``+inf`` flags nothing).
    fpr, tpr, expected_cost : float
        At :attr:`threshold` (NaN when none).
    metrics : dict
        Every metric of :data:`METRICS` at :attr:`threshold`, at the prior.
    optimum_threshold, optimum_fpr, optimum_tpr, optimum_cost : float
        The least-cost single threshold without floors (:func:`~roc_dash.core.roc.hull.optimal_vertex`).
    meets : ndarray of bool
        Per vertex of the model's curve: does its threshold meet every floor (on the
        bounds, with ``confidence``)?
    closest : dict
        Per floor text: the best value of its metric among the thresholds meeting the
        other floors (NaN when none does): what the model can reach.
    notes : tuple of str
    """

    floors: tuple[Floor, ...]
    prior_pos: float
    economics: Economics
    confidence: float | None
    region: FeasibleRegion
    feasible: bool
    best: BudgetMix | None
    best_cost: float
    index: int | None
    threshold: float
    fpr: float
    tpr: float
    expected_cost: float
    metrics: dict
    optimum_threshold: float
    optimum_fpr: float
    optimum_tpr: float
    optimum_cost: float
    meets: np.ndarray
    closest: dict
    notes: tuple[str, ...] = ()

    @property
    def cost_of_floors(self) -> float:
        """What the floors cost per case: the threshold's expected cost minus the
        unconstrained optimum's (0 when they do not bind; NaN when infeasible)."""
        return self.expected_cost - self.optimum_cost


def least_cost_index(regret: np.ndarray, allowed: np.ndarray) -> int | None:
    """The first allowed index whose regret is within ``16·TIE_RTOL`` (relative) of the
    least allowed regret: the tie rule of :func:`~roc_dash.core.roc.hull.optimal_vertex` (the
    vertex flagging fewest cases). None when nothing is allowed."""
    if not allowed.any():
        return None
    r = np.where(allowed, regret, np.inf)
    best = float(r.min())
    tol = 16 * TIE_RTOL * float(np.abs(regret[allowed]).max())
    return int(np.argmax(r <= best + tol))


def _one_sided(x: np.ndarray, n: float, lvl: float, upper: bool) -> np.ndarray:
    """Exact one-sided Clopper–Pearson bound of ``x`` successes of ``n`` at level ``lvl``."""
    x = np.clip(np.asarray(x, dtype=np.float64), 0.0, n)
    out = np.empty_like(x)
    if upper:
        full = x >= n
        out[full] = 1.0
        out[~full] = betaincinv(x[~full] + 1.0, n - x[~full], lvl)
    else:
        none = x <= 0
        out[none] = 0.0
        out[~none] = betaincinv(x[~none], n - x[~none] + 1.0, 1.0 - lvl)
    return out


#: The rate bounds each metric's conservative value needs: TPR low, TPR high, FPR high.
_BOUNDS = {"recall": ("tpr_lo",), "specificity": ("fpr_hi",), "fpr": ("fpr_hi",),
           "precision": ("tpr_lo", "fpr_hi"), "npv": ("tpr_lo", "fpr_hi"),
           "flagged": ("tpr_hi", "fpr_hi")}


_BRACKET_GRID = 2049


def _bound_bracket(x: np.ndarray, n: float, lvl: float, upper: bool):
    """Two arrays enclosing each one-sided bound of ``x`` (of ``n``): the bound is
    increasing in ``x``, so its exact values at a grid of counts bracket it between the
    grid's neighbours (the exact bound at ``x`` itself is left to the few points whose
    floor the bracket cannot decide)."""
    grid = np.linspace(0.0, n, _BRACKET_GRID)
    at = _one_sided(grid, n, lvl, upper)
    i = np.clip(np.searchsorted(grid, x, side="right") - 1, 0, grid.size - 1)
    j = np.minimum(i + 1, grid.size - 1)
    return at[i], np.where(grid[i] == x, at[i], at[j])


def conservative_meets(tp, fp, n_pos: float, n_neg: float, floors, prior_pos: float,
                       confidence: float) -> tuple[np.ndarray, float]:
    """Where every floor is met by its metric at the conservative one-sided bounds of the
    rates (``tp`` of ``n_pos`` positives, ``fp`` of ``n_neg`` negatives flagged; arrays of
    any one shape), and the level of each bound: ``1 − (1 − confidence)/m`` for the ``m``
    distinct bounds the floors use (TPR's lower, TPR's upper for the share flagged, FPR's
    upper), each metric taken at its worst corner (Bonferroni).

    Every metric is monotone in each bound, so it is first decided on brackets of the
    bounds (:func:`_bound_bracket`); the exact bounds are computed only where the brackets
    straddle a floor."""
    used = sorted({b for f in floors for b in _BOUNDS[f.metric]})
    lvl = 1.0 - (1.0 - confidence) / len(used)
    tp = np.asarray(tp, dtype=np.float64)
    fp = np.asarray(fp, dtype=np.float64)
    of = {"tpr_lo": (tp, n_pos, False), "tpr_hi": (tp, n_pos, True),
          "fpr_hi": (fp, n_neg, True)}
    # per bound: (pessimistic, optimistic) values; the lower bound of TPR is pessimistic
    # low, the upper bounds (of FPR, and of TPR for the share flagged) high
    brackets = {}
    for name in used:
        x, n, upper = of[name]
        lo, hi = _bound_bracket(x, n, lvl, upper)
        brackets[name] = (lo, hi) if name == "tpr_lo" else (hi, lo)

    def meets(bounds, where=None):
        ok = None
        for f in floors:
            if f.metric == "flagged":
                fpr, tpr = bounds["fpr_hi"], bounds["tpr_hi"]
            else:
                fpr = bounds.get("fpr_hi", (fp if where is None else fp[where]) / n_neg)
                tpr = bounds.get("tpr_lo", (tp if where is None else tp[where]) / n_pos)
            m = f.met(fpr, tpr, prior_pos)
            ok = m if ok is None else ok & m
        return ok

    sure = meets({k: v[0] for k, v in brackets.items()})
    maybe = meets({k: v[1] for k, v in brackets.items()})
    open_ = maybe & ~sure
    if open_.any():
        exact = {name: _one_sided(of[name][0][open_], of[name][1], lvl, of[name][2])
                 for name in used}
        sure[open_] = meets(exact, open_)
    return sure, lvl


def vertex_counts(curve: RocCurve) -> tuple[np.ndarray, np.ndarray]:
    """``(TP, FP)`` at each vertex of a curve, exact whole numbers for unweighted data."""
    def one(rates, total):
        c = whole_counts(rates, total)
        return rates * total if c is None else c
    return one(curve.tpr, curve.n_pos), one(curve.fpr, curve.n_neg)


def _hull_best(hull: RocHull, floors, p: float, e: Economics, n_total: float):
    """The least-cost point of the hull meeting every floor: candidates are the hull's
    vertices and each floor boundary's crossings of its segments."""
    f, t = hull.fpr, hull.tpr
    seg, frac = [np.arange(f.size)], [np.zeros(f.size)]
    for fl in floors:
        h = fl.margin(f, t, p)
        j = np.flatnonzero((h[:-1] < 0) != (h[1:] < 0))
        j = j[h[j] != h[j + 1]]
        seg.append(j)
        frac.append(h[j] / (h[j] - h[j + 1]))
    j, u = np.concatenate(seg), np.clip(np.concatenate(frac), 0.0, 1.0)
    j1 = np.minimum(j + 1, f.size - 1)
    cf, ct = f[j] + u * (f[j1] - f[j]), t[j] + u * (t[j1] - t[j])
    ok = np.ones(cf.size, dtype=bool)
    for fl in floors:
        ok &= fl.met(cf, ct, p)
    if not ok.any():
        return None
    g = flagged_at_prior(cf, ct, p)
    order = np.argsort(g, kind="stable")  # ties go to the point flagging fewest cases
    k = least_cost_index(regret_per_case(cf, ct, p, e)[order], ok[order])
    i = int(order[k])
    a, b = int(j[i]), int(j1[i])
    if u[i] == 0.0 or a == b:
        b = a
    if u[i] == 1.0:
        a = b
    ga = flagged_at_prior(f[a], t[a], p) * n_total
    gb = flagged_at_prior(f[b], t[b], p) * n_total
    cases = min(max(float(g[i]) * n_total, min(ga, gb)), max(ga, gb))
    return mix_for_cases((f[a], t[a]), (f[b], t[b]), n_total=n_total, prior_pos=p,
                         cases=cases, threshold_a=float(hull.thresholds[a]),
                         threshold_b=float(hull.thresholds[b]),
                         model_a=str(hull.models[a]), model_b=str(hull.models[b]))


def _closest(curve: RocCurve, floors, p: float, met: list[np.ndarray]) -> dict:
    out = {}
    for i, fl in enumerate(floors):
        others = np.ones(curve.fpr.size, dtype=bool)
        for j, m in enumerate(met):
            if j != i:
                others &= m
        v = metric_values(fl.metric, curve.fpr, curve.tpr, p)
        v = np.atleast_1d(v)[others]
        v = v[np.isfinite(v)]
        out[fl.text] = (math.nan if v.size == 0
                        else float(v.max() if fl.bound == ">=" else v.min()))
    return out


def _infeasible_note(floors, closest: dict) -> str:
    parts = []
    for fl in floors:
        v = closest[fl.text]
        others = "" if len(floors) == 1 else " with the other floors met"
        reach = ("no threshold meets the others" if math.isnan(v) else
                 f"the model reaches {LABELS[fl.metric]} {v:.6g}{others}")
        parts.append(f"{fl.text}: {reach}")
    return ("No threshold of the model meets every floor (" + "; ".join(parts) + "). Relax a "
            "floor or improve the model (precision and NPV also depend on the prior).")


def _check_floors(floors) -> tuple[Floor, ...]:
    if isinstance(floors, Floor | str):
        floors = (floors,)
    out = tuple(parse_floor(f) if isinstance(f, str) else f for f in floors)
    if not out or not all(isinstance(f, Floor) for f in out):
        raise ValueError("give at least one floor (a Floor, or text such as 'precision>=0.9')")
    return out


def floor_decision(curve: RocCurve, floors, *, prior_pos: float | None = None,
                   economics: Economics | None = None, confidence: float | None = None,
                   hull: RocHull | None = None) -> FloorDecision:
    """The best operating points of a model meeting every floor, under the costs.

    Parameters
    ----------
    curve : RocCurve
        The model's ROC curve (:func:`~roc_dash.core.roc.curves.roc_curve`).
    floors : Floor, str or sequence of them
        E.g. ``"precision>=0.9"`` (:func:`parse_floor`).
    prior_pos : float, optional
        The deployment prior p(+) of precision, NPV and the share flagged; default the
        data's prevalence.
    economics : Economics, optional
        Costs and benefits (their net costs choose); default a false positive and a false
        negative cost 1 each.
    confidence : float, optional
        Choose :attr:`FloorDecision.threshold` on conservative bounds: each rate's exact
        one-sided Clopper–Pearson bound at level ``1 − (1 − confidence)/m`` (``m`` the
        distinct bounds the floors use: TPR's lower, TPR's upper for the share flagged,
        FPR's upper), each metric evaluated at its worst corner.
    hull : RocHull, optional
        ``convex_hull(curve)`` when at hand.

    Returns
    -------
    FloorDecision
        With the feasible region, the best hull point (:attr:`~FloorDecision.best`) and the
        best single threshold (:attr:`~FloorDecision.threshold`); infeasible floors give
        NaN and ``None`` there and a note saying what the model reaches.
    """
    floors = _check_floors(floors)
    n_total = float(curve.n_pos + curve.n_neg)
    p = (curve.n_pos / n_total) if prior_pos is None else _checks.prior(prior_pos)
    e = economics or Economics(cost_fp=1.0, cost_fn=1.0)
    if confidence is not None:
        confidence = _checks.level(confidence, "confidence")
    h = convex_hull(curve) if hull is None else hull
    region = feasible_region(floors, p)
    met = [fl.met(curve.fpr, curve.tpr, p) for fl in floors]
    meets = np.logical_and.reduce(met)
    notes = []
    if confidence is not None:
        tp, fp = vertex_counts(curve)
        meets, lvl = conservative_meets(tp, fp, curve.n_pos, curve.n_neg, floors, p,
                                        confidence)
        conservative = (f"at the conservative bounds of its rates (exact one-sided "
                        f"Clopper–Pearson, each at level {lvl:.6g}, Bonferroni for "
                        f"{confidence:.6g} in all)")
    regret = regret_per_case(curve.fpr, curve.tpr, p, e)
    k = least_cost_index(regret, meets)
    if confidence is not None and k is not None:
        # said only of a threshold that exists (never beside "no threshold meets ...")
        notes.append(f"The threshold meets every floor {conservative}; the hull point uses "
                     "the estimates.")
    k_opt = optimal_vertex(curve, net_slope(p, e), hull=h)
    best = _hull_best(h, floors, p, e, n_total)
    closest = _closest(curve, floors, p, met)
    if best is None:
        notes.append(_infeasible_note(floors, closest) + (
            "" if confidence is None else " These figures are the estimates on the data; "
            "at the conservative bounds the confidence asks for, the floors are harder "
            "still to meet."))
    elif k is None:
        notes.append("Only a random mix of two thresholds meets every floor (the hull "
                     "point); no single threshold does" + (" at the conservative bounds."
                                                           if confidence else "."))
    nan = math.nan
    fpr, tpr = (nan, nan) if k is None else (float(curve.fpr[k]), float(curve.tpr[k]))
    if k == 0:
        notes.append("The best threshold meeting the floors flags nothing (precision is "
                     "then undefined: a floor on it holds vacuously).")
    cost = lambda f, t: float(expected_cost_per_case(f, t, p, e))  # noqa: E731
    return FloorDecision(
        floors=floors, prior_pos=p, economics=e, confidence=confidence, region=region,
        feasible=best is not None, best=best,
        best_cost=nan if best is None else cost(best.fpr, best.tpr),
        index=k, threshold=nan if k is None else float(curve.thresholds[k]),
        fpr=fpr, tpr=tpr, expected_cost=nan if k is None else cost(fpr, tpr),
        metrics={m: (nan if k is None else metric_values(m, fpr, tpr, p)) for m in METRICS},
        optimum_threshold=float(curve.thresholds[k_opt]),
        optimum_fpr=float(curve.fpr[k_opt]), optimum_tpr=float(curve.tpr[k_opt]),
        optimum_cost=cost(curve.fpr[k_opt], curve.tpr[k_opt]), meets=meets,
        closest=closest, notes=tuple(notes))
