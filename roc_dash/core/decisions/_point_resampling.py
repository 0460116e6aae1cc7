"""The resampling behind :mod:`.point_intervals`: stratified draws of one model's rows, and
each replicate's optimum, pins and out-of-bag cost.

How a class of ``n`` rows with weights ``w`` is drawn in a replicate (``g`` its generator):

* ``"units"`` (unweighted rows, or whole-number weights with at most :data:`MAX_UNITS` unit
  rows in all): ``u = g.integers(0, W, W)`` over the ``W = Σw`` unit rows, row ``r``
  standing for units ``[Σw[:r], Σw[:r+1])``. Exactly the bootstrap of the repeated rows,
  with the same draws. Out of bag: the units never drawn.
* ``"multinomial"`` (whole-number weights, more units): the counts per row are
  Multinomial(``W``, ``w/W``), the same distribution in ``O(n)`` per replicate; out of bag,
  the expected number of a row's units never drawn given its count ``c``,
  ``w·(1 − 1/w)^c``.
* ``"rows"`` (fractional weights): ``n`` rows drawn uniformly, each carrying its weight;
  out of bag, the rows never drawn.

With more than :data:`~roc_dash.core.decisions.uncertainty.MAX_ROWS` rows the bootstrap runs on a
stratified random subset of that many rows and each replicate's deviation from the subset's
own value is scaled to the full sample (:func:`rescale`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..roc.hull import TIE_RTOL
from .economics import Economics, expected_cost_per_case, regret_per_case
from .uncertainty import _CHUNK, MAX_BOOT, MAX_ROWS

__all__ = ["MAX_UNITS", "Sample", "prepare", "evaluate", "rescale"]

#: Unit rows (total whole-number weight) up to which a replicate draws them one by one.
MAX_UNITS = 4 * MAX_ROWS
#: Replicates per block at most (how often the deadline is looked at).
BLOCK = 32


@dataclass(frozen=True, eq=False)
class _Class:
    """The rows of one class: where they sit in score order and how they are drawn."""

    order: np.ndarray  # the class's rows (data order) sorted by descending score
    upto: np.ndarray  # per vertex (origin first), how many of them score >= its threshold
    w: np.ndarray  # weights (ones when unweighted), data order
    mode: str  # "units", "multinomial" or "rows"
    total: int  # units (units, multinomial) or rows (rows) drawn per replicate
    cum: np.ndarray | None  # cumulative whole weights ("units" with weights)

    def draw(self, g: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """``(in_bag, out_of_bag)`` weight of every row (data order) in one replicate."""
        n = self.w.size
        if self.mode == "rows":
            c = np.bincount(g.integers(0, n, n), minlength=n).astype(np.float64)
            return c * self.w, np.where(c == 0, self.w, 0.0)
        if self.mode == "multinomial":
            c = g.multinomial(self.total, self.w / self.total).astype(np.float64)
            return c, self.w * (1.0 - 1.0 / self.w) ** c
        u = g.integers(0, self.total, self.total)
        if self.cum is None:
            c = np.bincount(u, minlength=n).astype(np.float64)
            return c, (c == 0).astype(np.float64)
        c = np.bincount(np.searchsorted(self.cum, u, side="right"),
                        minlength=n).astype(np.float64)
        hit = np.zeros(self.total, dtype=np.int64)
        hit[u] = 1
        drawn = np.add.reduceat(hit, (self.cum - self.w).astype(np.intp))
        return c, self.w - drawn


@dataclass(frozen=True, eq=False)
class Sample:
    """One model's rows ready for resampling.

    ``thresholds`` are the vertices' thresholds (``+inf``, then the distinct scores
    descending), as a :class:`~roc_dash.core.roc.curves.RocCurve`'s, so
    :func:`~roc_dash.core.decisions.operating.vertex_at_threshold` reads them. With ``subset`` the
    rows are a stratified subset of the data and ``ratio = m/n`` is its units over the
    data's (see :func:`rescale`).
    """

    thresholds: np.ndarray
    n: int
    pos: _Class
    neg: _Class
    subset: bool = False
    ratio: float = 1.0

    def block_size(self) -> int:
        return max(1, min(BLOCK, _CHUNK // self.n))

    def draw(self, gens) -> tuple[np.ndarray, ...]:
        """In-bag and out-of-bag weights ``(pos_in, neg_in, pos_out, neg_out)``, one row
        per generator (its positives drawn first), each class's rows by descending score."""
        r, n_pos, n_neg = len(gens), self.pos.w.size, self.neg.w.size
        pos_in, pos_out = np.empty((r, n_pos)), np.empty((r, n_pos))
        neg_in, neg_out = np.empty((r, n_neg)), np.empty((r, n_neg))
        for i, g in enumerate(gens):
            a, o = self.pos.draw(g)
            pos_in[i], pos_out[i] = a[self.pos.order], o[self.pos.order]
            a, o = self.neg.draw(g)
            neg_in[i], neg_out[i] = a[self.neg.order], o[self.neg.order]
        return pos_in, neg_in, pos_out, neg_out

    def full_rates(self) -> tuple[np.ndarray, np.ndarray]:
        """``(fpr, tpr)`` of every vertex on all the rows (weighted)."""
        pos, neg, _, _ = self.identity()
        tpr = _cumulative(pos)[0, self.pos.upto]
        fpr = _cumulative(neg)[0, self.neg.upto]
        return fpr / fpr[-1], tpr / tpr[-1]

    def identity(self) -> tuple[np.ndarray, ...]:
        """The data itself as one replicate (every row once, nothing out of bag)."""
        pos, neg = self.pos.w[self.pos.order][None, :], self.neg.w[self.neg.order][None, :]
        return pos, neg, np.zeros_like(pos), np.zeros_like(neg)


def _mode(w: np.ndarray | None, notes: list[str]) -> str:
    """How rows are drawn (see the module docstring)."""
    if w is None or bool((w == 1.0).all()):
        return "units"
    if bool((w == np.floor(w)).all()) and float(w.sum()) < 2.0 ** 53:
        if float(w.sum()) <= MAX_UNITS:
            return "units"
        notes.append(f"{float(w.sum()):,.0f} weighted rows: each replicate draws its counts "
                     "per row from a multinomial (the same distribution as drawing the "
                     "rows); the out-of-bag weights are their expected values.")
        return "multinomial"
    notes.append("Fractional weights: each replicate draws rows (each with its weight) "
                 "rather than unit rows.")
    return "rows"


def _class(member: np.ndarray, order: np.ndarray, run_end: np.ndarray,
           w: np.ndarray | None, mode: str) -> _Class:
    """The class of the rows where ``member`` is True, the rows sorted by ``order``."""
    rows = np.flatnonzero(member)
    wc = np.ones(rows.size) if w is None else w[rows]
    in_order = member[order]
    rank = np.cumsum(member) - 1  # each member's index among the class's rows
    by_score = rank[order[in_order]]
    upto = np.concatenate(([0], np.cumsum(in_order)[run_end]))
    if mode == "rows":
        return _Class(by_score, upto, wc, mode, int(rows.size), None)
    total = int(round(float(wc.sum())))
    unit = w is None or bool((wc == 1.0).all())
    cum = None if (unit or mode != "units") else np.cumsum(wc.astype(np.int64))
    return _Class(by_score, upto, wc, mode, total, cum)


def _subset(y, s, w, seed: int, notes: list[str]):
    """A stratified random subset of :data:`MAX_ROWS` rows (data order kept) and the ratio
    of its units to the data's."""
    n = y.size
    g = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(MAX_BOOT,)))
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)
    m_pos = min(pos.size, max(1, round(MAX_ROWS * pos.size / n)))
    m_neg = min(neg.size, MAX_ROWS - m_pos)
    pick = np.sort(np.concatenate((g.choice(pos, m_pos, replace=False),
                                   g.choice(neg, m_neg, replace=False))))
    whole = w is None or bool((w == np.floor(w)).all())
    units = (lambda idx: float(idx.size)) if w is None or not whole else (
        lambda idx: float(w[idx].sum()))
    ratio = units(pick) / units(np.arange(n))
    notes.append(f"Bootstrap of a stratified random {pick.size:,} of the {n:,} rows; each "
                 f"replicate's deviation from that subset's value is scaled to the full "
                 f"sample (rates by √(m/n) = {math.sqrt(ratio):.3g}, the optimum's "
                 f"threshold by (m/n)^(1/3)), an approximation; the out-of-bag costs are "
                 "those of the subset.")
    return y[pick], s[pick], None if w is None else w[pick], ratio


def prepare(y: np.ndarray, s: np.ndarray, w: np.ndarray | None, seed: int,
            notes: list[str]) -> Sample:
    """Sort the rows once and decide how they are drawn (checked inputs, no zero weight)."""
    subset, ratio = y.size > MAX_ROWS, 1.0
    if subset:
        y, s, w, ratio = _subset(y, s, w, seed, notes)
    mode = _mode(w, notes)
    order = np.argsort(-s, kind="stable")
    ss = s[order]
    run_end = np.flatnonzero(np.append(ss[1:] != ss[:-1], True))
    return Sample(thresholds=np.concatenate(([np.inf], ss[run_end])), n=int(y.size),
                  pos=_class(y, order, run_end, w, mode),
                  neg=_class(~y, order, run_end, w, mode), subset=subset, ratio=ratio)


def _cumulative(c: np.ndarray) -> np.ndarray:
    """Cumulative weights along each row, a zero first: column ``j`` sums the first ``j``."""
    out = np.zeros((c.shape[0], c.shape[1] + 1))
    np.cumsum(c, axis=1, out=out[:, 1:])
    return out


def choose(regret: np.ndarray) -> np.ndarray:
    """Per row, the first vertex whose regret is within ``16·TIE_RTOL`` (relative to the
    row's largest) of the row's minimum: the minimum, ties going to the vertex flagging
    fewest cases (the rule of :func:`~roc_dash.core.roc.hull.optimal_vertex`)."""
    best = regret.min(axis=1, keepdims=True)
    tol = 16 * TIE_RTOL * np.abs(regret).max(axis=1, keepdims=True)
    return np.argmax(regret <= best + tol, axis=1)


def evaluate(sample: Sample, arrays, p: float, e: Economics, pin_idx) -> dict:
    """Per replicate: the optimum's ``threshold``, ``fpr``, ``tpr``, its ``in_bag_cost``
    and ``oob_cost`` (NaN when the left-out rows lack a class), and ``pin_fpr``,
    ``pin_tpr`` of shape ``(replicates, pins)`` at the vertices ``pin_idx``."""
    pos_in, neg_in, pos_out, neg_out = arrays
    tpr = _cumulative(pos_in)[:, sample.pos.upto]
    tpr /= tpr[:, -1:]
    fpr = _cumulative(neg_in)[:, sample.neg.upto]
    fpr /= fpr[:, -1:]
    k = choose(regret_per_case(fpr, tpr, p, e))
    rows = np.arange(k.size)
    idx = np.asarray(pin_idx, dtype=np.intp)
    full_fpr, full_tpr = sample.full_rates()
    out = {"threshold": sample.thresholds[k], "fpr": fpr[rows, k], "tpr": tpr[rows, k],
           "pin_fpr": fpr[:, idx], "pin_tpr": tpr[:, idx],
           # the replicate's choice on all the rows, the bootstrap world's population: what
           # its in-bag rates are optimistic about
           "full_fpr": full_fpr[k], "full_tpr": full_tpr[k]}
    out["in_bag_cost"] = np.atleast_1d(expected_cost_per_case(out["fpr"], out["tpr"], p, e))
    tpo, fpo = _cumulative(pos_out), _cumulative(neg_out)
    tpo_k, fpo_k = tpo[rows, sample.pos.upto[k]], fpo[rows, sample.neg.upto[k]]
    with np.errstate(divide="ignore", invalid="ignore"):
        oob_tpr = np.where(tpo[:, -1] > 0, tpo_k / tpo[:, -1], np.nan)
        oob_fpr = np.where(fpo[:, -1] > 0, fpo_k / fpo[:, -1], np.nan)
    out["oob_cost"] = np.atleast_1d(expected_cost_per_case(oob_fpr, oob_tpr, p, e))
    out["oob_fpr"], out["oob_tpr"] = oob_fpr, oob_tpr
    return out


def _shift(values, center, estimate, factor, low=-np.inf, high=np.inf):
    """``estimate + (values − center)·factor`` (clipped), infinite values left as they are."""
    with np.errstate(invalid="ignore"):
        moved = np.clip(estimate + (values - center) * factor, low, high)
    return np.where(np.isfinite(values) & np.isfinite(center) & np.isfinite(estimate),
                    moved, values)


def rescale(sample: Sample, reps: dict, opt_est, pin_est, p: float, e: Economics,
            pin_idx) -> None:
    """Move a subset bootstrap's replicates to the full sample, in place: each replicate's
    deviation from the subset's own value, times ``√(m/n)`` for the rates and
    ``(m/n)^(1/3)`` for the optimum's threshold (the cube-root rate of an argmin, Kim &
    Pollard 1990), is added to the full data's estimate."""
    center = evaluate(sample, sample.identity(), p, e, pin_idx)
    f = math.sqrt(sample.ratio)
    reps["threshold"] = _shift(reps["threshold"], center["threshold"][0], opt_est[0],
                               sample.ratio ** (1.0 / 3.0))
    reps["fpr"] = _shift(reps["fpr"], center["fpr"][0], opt_est[1], f, 0.0, 1.0)
    reps["tpr"] = _shift(reps["tpr"], center["tpr"][0], opt_est[2], f, 0.0, 1.0)
    for j, est in enumerate(pin_est):
        reps["pin_fpr"][:, j] = _shift(reps["pin_fpr"][:, j], center["pin_fpr"][0, j],
                                       est[1], f, 0.0, 1.0)
        reps["pin_tpr"][:, j] = _shift(reps["pin_tpr"][:, j], center["pin_tpr"][0, j],
                                       est[2], f, 0.0, 1.0)
