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

With more than :data:`~roc_dash.core.uncertainty.MAX_ROWS` rows the bootstrap runs on a
stratified random subset of that many rows and each replicate's deviation from the subset's
own value is scaled to the full sample (:func:`rescale`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .economics import Economics, expected_cost_per_case, regret_per_case
from .hull import TIE_RTOL
from .uncertainty import _CHUNK, MAX_BOOT, MAX_ROWS

__all__ = ["MAX_UNITS", "Sample", "prepare", "evaluate", "rescale"]

#: Unit rows (total whole-number weight) up to which a replicate draws them one by one.
MAX_UNITS = 4 * MAX_ROWS
#: Replicates per block at most (how often the deadline is looked at).
BLOCK = 32


@dataclass(frozen=True, eq=False)
class _Class:
    """The rows of one class: where they sit in score order and how they are drawn."""

    at: np.ndarray  # position of each row (data order) in descending score order
    w: np.ndarray  # weights (ones when unweighted)
    mode: str  # "units", "multinomial" or "rows"
    total: int  # units (units, multinomial) or rows (rows) drawn per replicate
    cum: np.ndarray | None  # cumulative whole weights ("units" with weights)

    def draw(self, g: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """``(in_bag, out_of_bag)`` weight of every row in one replicate."""
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
    descending), as a :class:`~roc_dash.core.curves.RocCurve`'s, so
    :func:`~roc_dash.core.operating.vertex_at_threshold` reads them. With ``subset`` the
    rows are a subset of the data; ``factor = √(m/n)`` scales the rates' deviations and
    ``ratio = m/n`` (units of the subset over units of the data).
    """

    thresholds: np.ndarray
    run_end: np.ndarray
    n: int
    pos: _Class
    neg: _Class
    subset: bool = False
    ratio: float = 1.0

    def block_size(self) -> int:
        return max(1, min(BLOCK, _CHUNK // self.n))

    def draw(self, gens) -> tuple[np.ndarray, ...]:
        """In-bag and out-of-bag weights ``(tp_in, fp_in, tp_out, fp_out)``, each of shape
        ``(len(gens), n)`` in score order, one row per generator (positives drawn first)."""
        arrays = tuple(np.zeros((len(gens), self.n)) for _ in range(4))
        tp_in, fp_in, tp_out, fp_out = arrays
        for i, g in enumerate(gens):
            tp_in[i, self.pos.at], tp_out[i, self.pos.at] = self.pos.draw(g)
            fp_in[i, self.neg.at], fp_out[i, self.neg.at] = self.neg.draw(g)
        return arrays

    def identity(self) -> tuple[np.ndarray, ...]:
        """The data itself as one replicate (every row once, nothing out of bag)."""
        tp_in, fp_in = np.zeros((1, self.n)), np.zeros((1, self.n))
        tp_in[0, self.pos.at], fp_in[0, self.neg.at] = self.pos.w, self.neg.w
        return tp_in, fp_in, np.zeros((1, self.n)), np.zeros((1, self.n))


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


def _class(rows: np.ndarray, inv: np.ndarray, w: np.ndarray | None, mode: str) -> _Class:
    wc = np.ones(rows.size) if w is None else w[rows]
    if mode == "rows":
        return _Class(inv[rows], wc, mode, int(rows.size), None)
    total = int(round(float(wc.sum())))
    unit = w is None or bool((wc == 1.0).all())
    cum = None if (unit or mode != "units") else np.cumsum(wc.astype(np.int64))
    return _Class(inv[rows], wc, mode, total, cum)


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
    inv = np.empty(y.size, dtype=np.intp)
    inv[order] = np.arange(y.size)
    return Sample(thresholds=np.concatenate(([np.inf], ss[run_end])), run_end=run_end,
                  n=int(y.size), pos=_class(np.flatnonzero(y), inv, w, mode),
                  neg=_class(np.flatnonzero(~y), inv, w, mode), subset=subset, ratio=ratio)


def _vertices(c: np.ndarray, run_end: np.ndarray) -> np.ndarray:
    """Cumulative weight at every vertex, the origin first (``c`` is overwritten)."""
    np.cumsum(c, axis=1, out=c)
    return np.concatenate((np.zeros((c.shape[0], 1)), c[:, run_end]), axis=1)


def choose(regret: np.ndarray) -> np.ndarray:
    """Per row, the first vertex whose regret is within ``16·TIE_RTOL`` (relative to the
    row's largest) of the row's minimum: the minimum, ties going to the vertex flagging
    fewest cases (the rule of :func:`~roc_dash.core.hull.optimal_vertex`)."""
    best = regret.min(axis=1, keepdims=True)
    tol = 16 * TIE_RTOL * np.abs(regret).max(axis=1, keepdims=True)
    return np.argmax(regret <= best + tol, axis=1)


def evaluate(sample: Sample, arrays, p: float, e: Economics, pin_idx) -> dict:
    """Per replicate: the optimum's ``threshold``, ``fpr``, ``tpr``, its ``in_bag_cost``
    and ``oob_cost`` (NaN when the left-out rows lack a class), and ``pin_fpr``,
    ``pin_tpr`` of shape ``(replicates, pins)`` at the vertices ``pin_idx``."""
    tp_in, fp_in, tp_out, fp_out = arrays
    tp, fp = _vertices(tp_in, sample.run_end), _vertices(fp_in, sample.run_end)
    tpr, fpr = tp / tp[:, -1:], fp / fp[:, -1:]
    k = choose(regret_per_case(fpr, tpr, p, e))
    rows = np.arange(k.size)
    idx = np.asarray(pin_idx, dtype=np.intp)
    out = {"threshold": sample.thresholds[k], "fpr": fpr[rows, k], "tpr": tpr[rows, k],
           "pin_fpr": fpr[:, idx], "pin_tpr": tpr[:, idx]}
    out["in_bag_cost"] = np.atleast_1d(expected_cost_per_case(out["fpr"], out["tpr"], p, e))
    tpo, fpo = _vertices(tp_out, sample.run_end), _vertices(fp_out, sample.run_end)
    with np.errstate(divide="ignore", invalid="ignore"):
        oob_tpr = np.where(tpo[:, -1] > 0, tpo[rows, k] / tpo[:, -1], np.nan)
        oob_fpr = np.where(fpo[:, -1] > 0, fpo[rows, k] / fpo[:, -1], np.nan)
    out["oob_cost"] = np.atleast_1d(expected_cost_per_case(oob_fpr, oob_tpr, p, e))
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
