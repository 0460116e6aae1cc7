"""Several classes with a cost matrix: the Bayes decision, the class weights that minimise
the expected cost on the data, and one-vs-rest thresholds for comparison.

With ``k`` classes, a cost matrix ``C`` (``C[i, j]``: the cost of deciding class ``j`` when
the truth is ``i``; a benefit is a negative cost) and calibrated probabilities ``p(i|x)``,
the decision of least expected cost is the **Bayes decision**
``argmin_j Σ_i p(i|x)·C[i, j]`` (Duda, Hart & Stork 2001, section 2.2; Elkan 2001, "The
foundations of cost-sensitive learning", IJCAI, section 2). A deployment prior ``π`` other
than the data's class shares ``π₀`` re-weights the probabilities,
``p'(i|x) ∝ p(i|x)·π_i/π₀_i`` (Elkan 2001, section 4; Saerens, Latinne & Decaestecker 2002),
so every rule here is

    decide argmin_j Σ_i w_i·p(i|x)·C[i, j]

for class weights ``w`` (the Bayes rule: ``w = π/π₀``). Probabilities are seldom calibrated
class by class; :func:`fit_class_weights` chooses ``w`` to minimise the expected cost at the
prior *on the data*: coordinate descent, each step an exact line search over one weight
(the decisions change only where two classes' risks cross, so the cost along a coordinate
is a step function evaluated at every crossing), restarted from the Bayes weights and from
equal weights. The result is optimal along every coordinate; tests set it against a brute
force over small data. Like any choice on the data it is optimistic there: validate it on
held-out rows (Fawcett 2004, section 7.4.5's warning).

**One-vs-rest thresholds** are the usual alternative: each class against the rest as a
binary problem (Fawcett 2004, section 7.3.1), its threshold the binary optimum under that
class's prior and its average costs of a miss and a false alarm, and the decision the class
whose probability most exceeds its threshold.

References
----------
R. O. Duda, P. E. Hart, D. G. Stork, "Pattern Classification", 2nd ed., Wiley, 2001,
section 2.2.

C. Elkan, "The foundations of cost-sensitive learning", IJCAI 2001, sections 2 and 4.

M. Saerens, P. Latinne, C. Decaestecker, "Adjusting the outputs of a classifier to new a
priori probabilities: a simple procedure", Neural Computation 14(1):21-41, 2002.

T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", 2004,
sections 7.3.1 and 7.4.5.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..roc.curves import roc_curve
from ..roc.hull import iso_performance_slope, optimal_vertex
from .cost_matrix_rows import FIT_ROWS, ClassRows, check_rows, class_rows, subset_rows

__all__ = ["CostMatrixDecision", "check_cost_matrix", "bayes_decisions", "confusion_of",
           "expected_cost_of", "fit_class_weights", "one_vs_rest_thresholds", "ovr_decisions",
           "cost_matrix_decision", "decide_on_rows", "ClassRows", "class_rows", "FIT_ROWS"]


def check_cost_matrix(cost_matrix, k: int, classes=None) -> np.ndarray:
    """A ``k × k`` float matrix of finite costs, with a message naming what is wrong."""
    try:
        c = np.asarray(cost_matrix, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError("the cost matrix must hold numbers (rows: the true class, columns: "
                         "the class decided)") from None
    names = "" if classes is None else f" ({', '.join(map(str, classes))})"
    if c.shape != (k, k):
        raise ValueError(f"the cost matrix has shape {c.shape}, but the {k} classes{names} "
                         f"need {k} × {k} (rows: the true class, columns: the class decided)")
    if not np.isfinite(c).all():
        raise ValueError("the cost matrix must hold finite numbers")
    if not (c - c[:, :1]).any():
        raise ValueError("in the cost matrix every decision costs the same for every true "
                         "class: there is nothing to decide")
    return c


def bayes_decisions(probabilities, cost_matrix, *, class_weights=None) -> np.ndarray:
    """The class (column index) of least weighted risk per row,
    ``argmin_j Σ_i w_i·p_i·C[i, j]`` (ties to the lowest index)."""
    p = np.asarray(probabilities, dtype=np.float64)
    w = np.ones(p.shape[1]) if class_weights is None else np.asarray(class_weights, float)
    m = w[:, None] * np.asarray(cost_matrix, dtype=np.float64)
    return np.argmin(np.einsum("nk,kj->nj", p, m), axis=1)  # one thread (not BLAS)


def confusion_of(codes: np.ndarray, decided: np.ndarray, k: int, w: np.ndarray) -> np.ndarray:
    """The weighted ``k × k`` confusion matrix (rows: truth, columns: decision)."""
    return np.bincount(codes * k + decided, weights=w, minlength=k * k).reshape(k, k)


def expected_cost_of(confusion: np.ndarray, cost_matrix: np.ndarray, prior: np.ndarray
                     ) -> float:
    """Expected cost per case at the prior: ``Σ_i π_i Σ_j (n_ij / n_i)·C[i, j]``."""
    rates = confusion / confusion.sum(axis=1, keepdims=True)
    return float(np.sum(prior[:, None] * rates * cost_matrix))


def _envelope(a: np.ndarray, b: np.ndarray):
    """Per row, where the least of the lines ``λ·a_j + b_j`` (λ > 0) changes: the decision
    just above 0 and up to ``k − 1`` breakpoints with the decision after each (λ = inf
    where there are no more)."""
    n, k = a.shape
    rows = np.arange(n)
    # just above 0: least b, ties to the least a (the line that stays lower), then index
    first = np.argmin(np.where(b == b.min(axis=1, keepdims=True), a, np.inf), axis=1)
    cur = first
    at = np.zeros(n)
    points, after = np.full((n, k - 1), np.inf), np.zeros((n, k - 1), dtype=np.intp)
    for step in range(k - 1):
        ac, bc = a[rows, cur][:, None], b[rows, cur][:, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            cross = (b - bc) / (ac - a)
        cross = np.where((a < ac) & (cross >= at[:, None]), cross, np.inf)
        lam = cross.min(axis=1)
        # of the lines crossing first, the one of least slope stays lowest after
        nxt = np.argmin(np.where(cross == lam[:, None], a, np.inf), axis=1)
        live = np.isfinite(lam)
        points[live, step] = lam[live]
        after[live, step] = nxt[live]
        cur = np.where(live, nxt, cur)
        at = np.where(live, lam, at)
        after[~live, step] = cur[~live]
    return first, points, after


def _line_search(p, codes, c, rw, w, i):
    """The best value of weight ``i`` (others fixed): the cost is a step function of it,
    changing where a row's least risk switches class."""
    a = p[:, i:i + 1] * c[i][None, :]
    b = np.einsum("nk,kj->nj", p, w[:, None] * c) - w[i] * a
    first, points, after = _envelope(a, b)
    loss = c[codes]  # per row, the cost of each decision
    base = float(np.sum(rw * loss[np.arange(codes.size), first]))
    prev = np.concatenate((first[:, None], after[:, :-1]), axis=1)
    live = np.isfinite(points)
    rows = np.nonzero(live)[0]
    lam = points[live]
    delta = rw[rows] * (loss[rows, after[live]] - loss[rows, prev[live]])
    if lam.size == 0:
        return w[i], base
    order = np.argsort(lam, kind="stable")
    lam, delta = lam[order], delta[order]
    uniq, start = np.unique(lam, return_index=True)
    cost = base + np.concatenate(([0.0], np.cumsum(np.add.reduceat(delta, start))))
    # interval m covers (uniq[m-1], uniq[m]); its cost is cost[m]
    lo = np.concatenate(([0.0], uniq))
    hi = np.concatenate((uniq, [np.inf]))
    cur_m = int(np.searchsorted(uniq, w[i], side="left"))
    if cur_m < uniq.size and uniq[cur_m] == w[i]:
        cur_m = min(cur_m + 1, uniq.size)  # on a breakpoint: judge the side above
    best = float(cost.min())
    if cost[cur_m] <= best + 1e-12 * max(1.0, abs(best)):
        return w[i], float(cost[cur_m])
    m = int(np.argmin(cost))
    mid = (hi[m] / 2.0 if lo[m] == 0 else 2.0 * lo[m] if math.isinf(hi[m])
           else math.sqrt(lo[m] * hi[m]))
    return mid, float(cost[m])


def _cost(p, codes, c, rw, w) -> float:
    return float(np.sum(rw * c[codes, bayes_decisions(p, c, class_weights=w)]))


def _descent(p, codes, c, rw, w, max_sweeps):
    w = w.copy()
    cost = _cost(p, codes, c, rw, w)
    for sweep in range(1, max_sweeps + 1):
        improved = False
        for i in range(w.size):
            value, new = _line_search(p, codes, c, rw, w, i)
            if new < cost - 1e-12 * max(1.0, abs(cost)) and value != w[i]:
                trial = w.copy()
                trial[i] = value
                exact = _cost(p, codes, c, rw, trial)
                if exact < cost - 1e-12 * max(1.0, abs(cost)):
                    w, cost, improved = trial, exact, True
        w /= np.exp(np.mean(np.log(w)))  # only the ratios matter
        if not improved:
            return w, cost, sweep
    return w, cost, max_sweeps


#: Lines of the weight plane up to which three classes are searched exhaustively.
EXACT_LINES = 200


def _plane_lines(p, c):
    """For three classes, with ``w = (u, v, 1)``: every line ``a·u + b·v + e = 0`` where a
    row's risks of two decisions are equal, and the two axes."""
    k = c.shape[0]
    rows = []
    for j in range(k):
        for jj in range(j + 1, k):
            d = c[:, j] - c[:, jj]
            rows.append(p * d[None, :])
    abc = np.vstack(rows + [np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])])
    keep = (abc[:, 0] != 0) | (abc[:, 1] != 0)
    abc = abc[keep]
    norm = np.hypot(abc[:, 0], abc[:, 1])
    return abc / norm[:, None]


def _cell_points(abc: np.ndarray) -> np.ndarray:
    """Points inside every cell of the line arrangement ``abc`` in the open positive
    quadrant: every such cell holds no whole line, so it has a vertex, and near that vertex
    it is a sector between two lines through it; for every pair of lines, the four
    bisectors of their directions, a little way out from their crossing (less than the
    distance to any other line), reach every sector (consecutive lines are a pair)."""
    a, b, e = abc.T
    i, j = np.triu_indices(a.size, 1)
    det = a[i] * b[j] - a[j] * b[i]
    ok = np.abs(det) > 1e-14
    i, j, det = i[ok], j[ok], det[ok]
    u = (b[i] * e[j] - b[j] * e[i]) / det
    v = (a[j] * e[i] - a[i] * e[j]) / det
    scale = 1.0 + np.abs(u) + np.abs(v)
    keep = (u > -1e-9 * scale) & (v > -1e-9 * scale)
    i, j, u, v, scale = i[keep], j[keep], u[keep], v[keep], scale[keep]
    eps = np.empty(u.size)
    for s in range(0, u.size, 4096):  # the nearest line not through the crossing
        d = np.abs(u[s:s + 4096, None] * a + v[s:s + 4096, None] * b + e)
        d[d <= 1e-9 * scale[s:s + 4096, None]] = np.inf
        eps[s:s + 4096] = 0.5 * np.minimum(d.min(axis=1), 1.0)
    d1 = np.column_stack((-b[i], a[i]))  # unit directions (the rows of abc are normalised)
    d2 = np.column_stack((-b[j], a[j]))
    out = []
    for direction in (d1 + d2, d1 - d2, -(d1 + d2), d2 - d1):
        norm = np.hypot(direction[:, 0], direction[:, 1])[:, None]
        out.append(np.column_stack((u, v)) + eps[:, None] * direction / norm)
    pts = np.vstack(out) if out else np.empty((0, 2))
    return pts[(pts[:, 0] > 0) & (pts[:, 1] > 0)]


def _exact_three(p, codes, c, rw, w_ref):
    """The least cost over every cell of the weight plane (three classes): weights
    ``(u, v, 1)`` at one point per cell, ties to the point nearest ``w_ref`` in log."""
    pts = _cell_points(_plane_lines(p, c))
    loss = c[codes]
    best, best_w, best_d = np.inf, None, np.inf
    ref = np.log(w_ref / w_ref[2])
    for start in range(0, pts.shape[0], 2048):
        ww = np.column_stack((pts[start:start + 2048], np.ones(min(2048, pts.shape[0] - start))))
        risk = np.einsum("nk,sk,kj->snj", p, ww, c)
        d = np.argmin(risk, axis=2)
        cost = np.take_along_axis(np.broadcast_to(loss, (ww.shape[0],) + loss.shape),
                                  d[..., None], axis=2)[..., 0] @ rw
        gap = np.abs(np.log(ww[:, :2]) - ref[:2]).sum(axis=1)
        for s in np.flatnonzero(cost <= cost.min() + 1e-12 * max(1.0, abs(cost.min()))):
            if cost[s] < best - 1e-12 * max(1.0, abs(best)) or (
                    abs(cost[s] - best) <= 1e-12 * max(1.0, abs(best)) and gap[s] < best_d):
                best, best_w, best_d = float(cost[s]), ww[s].copy(), gap[s]
    return best_w, best


def fit_class_weights(probabilities, labels, cost_matrix, *, classes=None, prior=None,
                      sample_weight=None, max_sweeps: int = 30
                      ) -> tuple[np.ndarray, float, str]:
    """Class weights ``w`` minimising the expected cost at the prior of
    ``argmin_j Σ_i w_i·p_i·C[i, j]`` on the data (see the module docstring).

    With three classes and few rows (at most :data:`EXACT_LINES` lines where two
    decisions' risks tie) every cell of the weight plane is visited: the result is the
    exact optimum. Otherwise coordinate descent with exact line searches, from the Bayes
    weights and from equal weights: optimal along every coordinate. Beyond
    :data:`FIT_ROWS` rows the weights are fitted on a stratified random subset of that
    many (``k − 1`` ratios need no more; the cost returned is the subset's).

    Returns
    -------
    weights : ndarray
        Geometric mean 1 (only their ratios matter).
    cost : float
        The expected cost per case at the prior on the data.
    method : str
        ``"exact"`` or ``"coordinate descent (N sweeps)"``.
    """
    p, codes, cls, c, w, pi0, pi = _setup(probabilities, labels, cost_matrix, classes, prior,
                                     sample_weight)
    rw = w * (pi / np.bincount(codes, weights=w, minlength=c.shape[0]))[codes]
    if p.shape[0] > FIT_ROWS:
        p, codes, rw, _ = _subset(p, codes, rw, w, c.shape[0])
    return _fit(p, codes, c, rw, pi / pi0, max_sweeps)


def _setup(probabilities, labels, cost_matrix, classes, prior, sample_weight):
    """Checked ``(P, codes, classes, C, w, data prior, prior)``."""
    p, codes, cls, w = check_rows(probabilities, labels, classes, sample_weight)
    k = p.shape[1]
    c = check_cost_matrix(cost_matrix, k, cls)
    n_i = np.bincount(codes, weights=w, minlength=k)
    if (n_i <= 0).any():
        raise ValueError(f"every class needs rows: {cls[n_i <= 0].tolist()} has none")
    pi0 = n_i / n_i.sum()
    return p, codes, cls, c, w, pi0, (pi0 if prior is None else _prior(prior, k))


def _fit(p, codes, c, rw, bayes_w, max_sweeps):
    k = c.shape[0]
    if k == 3 and 3 * p.shape[0] + 2 <= EXACT_LINES:
        best_w, cost = _exact_three(p, codes, c, rw, bayes_w)
        method = "exact"
    else:
        starts = [bayes_w] if np.allclose(bayes_w, 1.0) else [bayes_w, np.ones(k)]
        runs = [_descent(p, codes, c, rw, start, max_sweeps) for start in starts]
        best_w, cost, sweeps = min(runs, key=lambda r: r[1])
        method = f"coordinate descent ({sweeps} sweeps)"
    best_w = best_w / np.exp(np.mean(np.log(best_w)))
    return best_w, float(cost), method


def _subset(p, codes, rw, w, k, keep=None):
    """A stratified random :data:`FIT_ROWS` rows (seed 0; ``keep``: those rows, already
    drawn), each class's rows re-weighted to keep its share of the expected cost (and its
    instance weights)."""
    keep = subset_rows(codes, k, FIT_ROWS) if keep is None else keep
    rw_new = rw[keep].copy()
    for j in range(k):
        here = codes[keep] == j
        rw_new[here] *= rw[codes == j].sum() / rw_new[here].sum()
    return p[keep], codes[keep], rw_new, w[keep]


def _prior(prior, k: int) -> np.ndarray:
    pi = np.asarray(prior, dtype=np.float64)
    if pi.shape != (k,) or not np.isfinite(pi).all() or (pi <= 0).any():
        raise ValueError(f"the prior needs {k} positive shares, one per class, got {prior!r}")
    return pi / pi.sum()


def one_vs_rest_thresholds(probabilities, labels, cost_matrix, *, classes=None, prior=None,
                           sample_weight=None) -> np.ndarray:
    """Per class ``c``, the binary optimum of "c against the rest" (Fawcett 2004, section
    7.3.1) on its probability column: prior ``π_c``, a miss costing ``C[c, j] − C[c, c]``
    on average over the other classes ``j``, a false alarm ``C[i, c] − C[i, i]`` averaged
    over the others ``i`` at the prior; the threshold of
    :func:`~roc_dash.core.roc.hull.optimal_vertex` (``+inf`` when never deciding ``c`` is
    best, ``-inf`` when always)."""
    p, codes, _, c, w, _, pi = _setup(probabilities, labels, cost_matrix, classes, prior,
                                   sample_weight)
    return _ovr(p, codes, c, pi, w)


def _ovr(p, codes, c, pi, w) -> np.ndarray:
    k = c.shape[0]
    unit = bool((w == 1.0).all())
    out = np.empty(k)
    for j in range(k):
        others = np.arange(k) != j
        miss = float(np.mean(c[j, others] - c[j, j]))
        alarm = float(np.sum(pi[others] * (c[others, j] - np.diag(c)[others]))
                      / pi[others].sum())
        y = codes == j
        if miss <= 0 or alarm <= 0 or not y.any() or y.all():
            out[j] = -np.inf if alarm <= 0 < miss else np.inf
            continue
        curve = roc_curve(y, p[:, j], weights=None if unit else w)
        out[j] = float(curve.thresholds[optimal_vertex(
            curve, iso_performance_slope(alarm, miss, float(pi[j])))])
    return out


def ovr_decisions(probabilities, thresholds) -> np.ndarray:
    """The class whose probability most exceeds its one-vs-rest threshold (an infinite
    threshold: never, or always, that class)."""
    t = np.asarray(thresholds, dtype=np.float64)
    shift = np.where(np.isfinite(t), t, np.sign(t) * 4.0)
    return np.argmax(np.asarray(probabilities, dtype=np.float64) - shift, axis=1)


@dataclass(frozen=True, eq=False)
class CostMatrixDecision:
    """Decisions among several classes under a cost matrix (see the module docstring).

    Attributes
    ----------
    classes : ndarray, shape (k,)
    cost_matrix : ndarray, shape (k, k)
        ``C[i, j]``: the cost of deciding ``j`` when the truth is ``i``.
    prior : ndarray, shape (k,)
        The deployment prior of the expected costs.
    data_prior : ndarray, shape (k,)
        The data's (weighted) class shares.
    bayes_weights : ndarray, shape (k,)
        ``prior / data_prior``: the Bayes rule's weights on the probabilities.
    weights : ndarray, shape (k,)
        The fitted weights (:func:`fit_class_weights`), geometric mean 1.
    decided : ndarray of int, shape (n,)
        Each row's class (column index) under the fitted weights.
    confusion, bayes_confusion, ovr_confusion, argmax_confusion : ndarray, shape (k, k)
        Weighted counts, rows the truth and columns the decision, of the fitted rule, the
        Bayes rule, the one-vs-rest thresholds and the plain argmax.
    expected_cost, bayes_cost, ovr_cost, argmax_cost : float
        Their expected costs per case at the prior.
    ovr_thresholds : ndarray, shape (k,)
    method : str
        How the weights were fitted (:func:`fit_class_weights`).
    notes : tuple of str
    """

    classes: np.ndarray
    cost_matrix: np.ndarray
    prior: np.ndarray
    data_prior: np.ndarray
    bayes_weights: np.ndarray
    weights: np.ndarray
    decided: np.ndarray
    confusion: np.ndarray
    expected_cost: float
    bayes_confusion: np.ndarray
    bayes_cost: float
    ovr_thresholds: np.ndarray
    ovr_confusion: np.ndarray
    ovr_cost: float
    argmax_confusion: np.ndarray
    argmax_cost: float
    method: str
    notes: tuple[str, ...] = ()


def cost_matrix_decision(probabilities, labels, cost_matrix, *, classes=None, prior=None,
                         sample_weight=None, max_sweeps: int = 30) -> CostMatrixDecision:
    """The Bayes rule, the fitted class weights, one-vs-rest thresholds and the argmax,
    each with its confusion matrix and expected cost at the prior.

    Parameters
    ----------
    probabilities : array, shape (n, k)
        One column per class (calibrated probabilities for the Bayes rule to be optimal).
    labels : array, shape (n,)
        The true classes (matched to ``classes`` as text).
    cost_matrix : array, shape (k, k)
        ``C[i, j]``: cost of deciding ``j`` when the truth is ``i``.
    classes : sequence, optional
        The class of each column (default ``0 … k−1``).
    prior : sequence, optional
        Deployment shares of the classes (normalised); default the data's.
    sample_weight : array, optional
        Instance counts.
    """
    return decide_on_rows(class_rows(probabilities, labels, classes=classes,
                                     sample_weight=sample_weight, fit_rows=FIT_ROWS),
                          cost_matrix, prior=prior, max_sweeps=max_sweeps)


def decide_on_rows(rows: ClassRows, cost_matrix, *, prior=None, max_sweeps: int = 30
                   ) -> CostMatrixDecision:
    """:func:`cost_matrix_decision` on a model's rows prepared once
    (:func:`~.cost_matrix_rows.class_rows`: checked, their fitting subset drawn, their
    argmax taken): a new cost matrix or prior decides again without them."""
    k = rows.probabilities.shape[1]
    c = check_cost_matrix(cost_matrix, k, rows.classes)
    if (rows.counts <= 0).any():
        raise ValueError(f"every class needs rows: {rows.classes[rows.counts <= 0].tolist()} "
                         "has none")
    p, codes, cls, w = rows.probabilities, rows.codes, rows.classes, rows.weights
    pi0 = rows.counts / rows.counts.sum()
    pi = pi0 if prior is None else _prior(prior, k)
    rw = w * (pi / rows.counts)[codes]
    fp_, fc_, frw, fw = (_subset(p, codes, rw, w, k, rows.subset) if rows.subset is not None
                         else (p, codes, rw, w))
    weights, _, method = _fit(fp_, fc_, c, frw, pi / pi0, max_sweeps)
    decided = bayes_decisions(p, c, class_weights=weights)
    bayes = bayes_decisions(p, c, class_weights=pi / pi0)
    ovr_t = _ovr(fp_, fc_, c, pi, fw)
    ovr = ovr_decisions(p, ovr_t)
    arg = rows.argmax
    conf = {name: confusion_of(codes, d, k, w) for name, d in (
        ("fit", decided), ("bayes", bayes), ("ovr", ovr), ("argmax", arg))}
    cost_of = {name: expected_cost_of(m, c, pi) for name, m in conf.items()}
    notes = []
    if cost_of["fit"] > cost_of["bayes"]:  # fitted on a subset, it fits the subset's noise
        weights, decided = pi / pi0, bayes
        conf["fit"], cost_of["fit"] = conf["bayes"], cost_of["bayes"]
        method = "Bayes weights kept"
        notes.append("The weights fitted on the subset cost more on all the rows than the "
                     "Bayes rule's: the Bayes rule's weights are kept.")
    if not rows.sums_to_one:
        notes.append("The scores of a row do not sum to 1: the Bayes rule assumes calibrated "
                     "probabilities; the fitted weights correct only a part of that.")
    if p.shape[0] > FIT_ROWS:
        notes.append(f"The class weights and the one-vs-rest thresholds were fitted on a "
                     f"stratified random {FIT_ROWS:,} of the {p.shape[0]:,} rows; the "
                     "confusion matrices and costs are of all of them.")
    if cost_of["fit"] < cost_of["bayes"] - 1e-12:
        notes.append("The fitted weights cost less than the Bayes rule on these data: the "
                     "probabilities are not calibrated class by class (or the choice fits "
                     "noise: check it on held-out rows).")
    return CostMatrixDecision(
        classes=cls, cost_matrix=c, prior=pi, data_prior=pi0, bayes_weights=pi / pi0,
        weights=weights, decided=decided, confusion=conf["fit"], expected_cost=cost_of["fit"],
        bayes_confusion=conf["bayes"], bayes_cost=cost_of["bayes"], ovr_thresholds=ovr_t,
        ovr_confusion=conf["ovr"], ovr_cost=cost_of["ovr"],
        argmax_confusion=conf["argmax"], argmax_cost=cost_of["argmax"], method=method,
        notes=tuple(notes))
