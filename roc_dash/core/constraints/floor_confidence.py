"""How sure is a floor to hold on new data?

Three answers, from the least to the most honest about choosing on the data:

* **The metric's interval at the chosen threshold**, the threshold held fixed: a bootstrap
  percentile interval (rows resampled, Efron & Tibshirani 1993;
  :func:`~roc_dash.core.decisions.uncertainty.uncertainty_from_bootstrap`'s replicates), and for the
  rates (recall, specificity, FPR) the exact Clopper–Pearson interval; plus the one-sided
  bound at the level in the floor's direction (exact for the rates, and for precision at
  the data's own prevalence, where TP of the flagged cases is binomial).
* **The share of replicates in which the floor holds** at that fixed threshold
  (:attr:`FloorHold.holds_share`). A threshold chosen where the floor binds meets it on the
  data by construction, and the share is then near one half: the floor holds on new data
  about as often as not.
* **The share in which the choice, made again, holds** (:attr:`FloorHold.procedure_share`):
  each stratified replicate (the resampling of :mod:`~roc_dash.core.decisions.point_intervals`)
  chooses its own least-cost threshold meeting the floors, and the floor is checked at
  that threshold on all the data, the bootstrap's stand-in for the population (Efron &
  Tibshirani 1993, chapter 17: the sample plays the population, the replicate the
  sample). It estimates how often the procedure "choose on this much data" gives a
  threshold whose metric on the population meets the floor; ``bench/simulate_constraints.py``
  sets it against the truth on binormal data.

The replicates of the last answer do not depend on the floors, the costs or the prior
(:func:`resample_thresholds`, made once per model); choosing in them again after a change is
a few array operations (:func:`held_out_shares`).

References
----------
B. Efron, R. J. Tibshirani, "An Introduction to the Bootstrap", Chapman & Hall, 1993.

C. J. Clopper, E. S. Pearson, Biometrika 26(4):404-413, 1934.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._validation import check_binary_inputs, weighted_rows
from ..decisions._point_resampling import prepare
from ..decisions.economics import Economics, regret_per_case
from ..decisions.proportion_intervals import clopper_pearson
from ..decisions.uncertainty import MAX_BOOT, uncertainty_from_bootstrap
from ..roc.confusion import confusion_at_threshold
from ..roc.hull import TIE_RTOL
from . import _checks
from .floors import Floor, conservative_meets, metric_values, parse_floor

__all__ = ["FloorHold", "FloorConfidence", "SHOWN_EXACT", "SHOWN_BOOTSTRAP", "ThresholdReplicates", "resample_thresholds",
           "replicate_choices", "procedure_shares", "floor_confidence", "GRID"]

#: Candidate thresholds per replicate at most (evenly spaced in cases flagged).
GRID = 1024
_EXACT = ("recall", "specificity", "fpr")


@dataclass(frozen=True, eq=False)
class FloorHold:
    """How sure one floor is to hold at a threshold.

    Attributes
    ----------
    floor : Floor
        The floor checked (its metric, direction and value).
    estimate : float
        The metric at the threshold on the data (at the prior).
    low, high : float
        Bootstrap percentile interval at the level (threshold fixed, rows resampled).
    exact_low, exact_high : float
        The exact Clopper–Pearson interval for recall, specificity and FPR (NaN otherwise).
    bound : float
        One-sided bound at the level in the floor's direction (the lower for a ``>=``
        floor, the upper for ``<=``): exact (Clopper–Pearson) where
        :attr:`bound_method` is ``"exact"``, else the bootstrap percentile.
    bound_method : str
        ``"exact"`` or ``"bootstrap"``: how :attr:`bound` was found.
    holds_with_confidence : bool
        :attr:`bound` meets the floor.
    holds_share : float
        Share of the replicates (defining the metric) in which it meets the floor.
    procedure_share : float
        Share of the stratified replicates whose own least-cost choice meets the floor on
        all the data (NaN when not computed or no replicate chose).
    values : ndarray
        The metric in each replicate (NaN where undefined).
    """

    floor: Floor
    estimate: float
    low: float
    high: float
    exact_low: float
    exact_high: float
    bound: float
    bound_method: str
    holds_with_confidence: bool
    holds_share: float
    procedure_share: float
    values: np.ndarray

    @property
    def shown(self) -> tuple[float, float, str]:
        """The one interval a reader is shown, with its method: the exact Clopper–Pearson
        interval where there is one (recall, specificity, FPR), else the bootstrap
        percentile one (page, HTML report; the record keeps both)."""
        if math.isfinite(self.exact_low) and math.isfinite(self.exact_high):
            return self.exact_low, self.exact_high, SHOWN_EXACT
        return self.low, self.high, SHOWN_BOOTSTRAP


#: The names of the two kinds of :attr:`FloorHold.shown` interval.
SHOWN_EXACT = "exact (Clopper–Pearson)"
SHOWN_BOOTSTRAP = "bootstrap percentile"


@dataclass(frozen=True, eq=False)
class FloorConfidence:
    """How sure the floors are to hold at one threshold (see the module docstring).

    Attributes
    ----------
    threshold, prior_pos, level : float
    holds : tuple of FloorHold
        One per floor, in order.
    all_share : float
        Share of replicates meeting every floor at the fixed threshold.
    procedure_all_share : float
        Share of stratified replicates whose choice meets every floor on all the data.
    chosen_share : float
        Share of stratified replicates in which some threshold met every floor.
    n_boot, seed : int
    notes : tuple of str
    """

    threshold: float
    prior_pos: float
    level: float
    holds: tuple[FloorHold, ...]
    all_share: float
    procedure_all_share: float
    chosen_share: float
    n_boot: int
    seed: int
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, eq=False)
class ThresholdReplicates:
    """Stratified bootstrap replicates of one model's rates at a grid of thresholds.

    Attributes
    ----------
    thresholds : ndarray, shape (G,)
        Candidate thresholds (vertices of the rows resampled, at most :data:`GRID`,
        evenly spaced in cases flagged; the first is ``+inf``).
    tp_in, fp_in : ndarray, shape (R, G)
        Positives and negatives flagged in each replicate (its drawn rows).
    tp_data, fp_data : ndarray, shape (G,)
        The same on the rows resampled (the data, or its subset).
    n_pos, n_neg : float
        The class totals (of the data and of each replicate: stratified).
    seed : int
    notes : tuple of str
    """

    thresholds: np.ndarray
    tp_in: np.ndarray
    fp_in: np.ndarray
    tp_data: np.ndarray
    fp_data: np.ndarray
    n_pos: float
    n_neg: float
    seed: int
    notes: tuple[str, ...] = ()

    @property
    def n_boot(self) -> int:
        return int(self.tp_in.shape[0])


def _grid(sample, grid: int) -> np.ndarray:
    """Vertex indices of the candidate thresholds: all of them, or ``grid`` evenly spaced in
    cases flagged (the first and the last kept)."""
    g = sample.pos.upto + sample.neg.upto
    if g.size <= grid:
        return np.arange(g.size)
    want = np.linspace(0.0, float(g[-1]), grid)
    return np.unique(np.concatenate(([0, g.size - 1], np.searchsorted(g, want))))


def _at(cls_weights: np.ndarray, upto: np.ndarray) -> np.ndarray:
    """Per replicate, the weight of the class's first ``upto`` rows (by descending score)."""
    cum = np.zeros((cls_weights.shape[0], cls_weights.shape[1] + 1))
    np.cumsum(cls_weights, axis=1, out=cum[:, 1:])
    return cum[:, upto]


def resample_thresholds(labels, scores, *, weights=None, n_boot: int = 200, seed: int = 0,
                        grid: int = GRID) -> ThresholdReplicates:
    """Stratified bootstrap replicates of the counts at a grid of thresholds, made once per
    model (see the module docstring). The draws are those of
    :func:`~roc_dash.core.decisions.point_intervals.point_intervals` with the same seed (replicate
    ``i`` from ``SeedSequence(seed).spawn(n_boot)[i]``); more than
    :data:`~roc_dash.core.decisions.uncertainty.MAX_ROWS` rows are resampled as a stratified subset
    of that many (noted: the shares then describe that much data, more variable than all
    of it)."""
    n_boot = _checks.replicates(n_boot, most=MAX_BOOT)
    seed = _checks.seed(seed)
    y, s, w = weighted_rows(labels, scores, weights)
    notes: list[str] = []
    sample = prepare(y, s, w, seed, notes)
    idx = _grid(sample, grid)
    if idx.size < sample.thresholds.size:
        notes.append(f"Each replicate chooses among {idx.size:,} thresholds evenly spaced in "
                     f"cases flagged (of {sample.thresholds.size:,}).")
    seeds = np.random.SeedSequence(seed).spawn(n_boot)
    parts = []
    block = sample.block_size()
    for a in range(0, n_boot, block):
        gens = [np.random.default_rng(q) for q in seeds[a:a + block]]
        pos_in, neg_in, _, _ = sample.draw(gens)
        parts.append((_at(pos_in, sample.pos.upto[idx]), _at(neg_in, sample.neg.upto[idx])))
    tp_in, fp_in = (np.concatenate(x) for x in zip(*parts, strict=True))
    pos, neg, _, _ = sample.identity()
    return ThresholdReplicates(thresholds=sample.thresholds[idx], tp_in=tp_in, fp_in=fp_in,
                           tp_data=_at(pos, sample.pos.upto[idx])[0],
                           fp_data=_at(neg, sample.neg.upto[idx])[0],
                           n_pos=float(tp_in[0, -1]), n_neg=float(fp_in[0, -1]), seed=seed,
                           notes=tuple(notes))


def replicate_choices(reps: ThresholdReplicates, floors, *, prior_pos: float,
                      economics: Economics | None = None,
                      confidence: float | None = None) -> np.ndarray:
    """Per replicate, the column of :attr:`ThresholdReplicates.thresholds` it chooses: the least
    expected cost meeting every floor on its own rates (or on their conservative bounds
    with ``confidence``, as :func:`~.floors.floor_decision` does), ties to the threshold
    flagging fewest cases; ``-1`` where none meets them."""
    p = _checks.prior(prior_pos)
    e = economics or Economics(cost_fp=1.0, cost_fn=1.0)
    floors = tuple(parse_floor(f) if isinstance(f, str) else f for f in floors)
    tpr, fpr = reps.tp_in / reps.n_pos, reps.fp_in / reps.n_neg
    if confidence is None:
        ok = np.logical_and.reduce([f.met(fpr, tpr, p) for f in floors])
    else:
        ok, _ = conservative_meets(reps.tp_in, reps.fp_in, reps.n_pos, reps.n_neg, floors, p,
                                   confidence)
    raw = regret_per_case(fpr, tpr, p, e)
    regret = np.where(ok, raw, np.inf)
    best = regret.min(axis=1, keepdims=True)
    tol = 16 * TIE_RTOL * np.abs(np.where(ok, raw, 0.0)).max(axis=1, keepdims=True)
    k = np.argmax(regret <= best + tol, axis=1)
    return np.where(np.isfinite(best[:, 0]), k, -1)


def procedure_shares(reps: ThresholdReplicates, floors, *, prior_pos: float,
                     economics: Economics | None = None, confidence: float | None = None
                     ) -> tuple[np.ndarray, float, float]:
    """Each replicate chooses its threshold (:func:`replicate_choices`); returns the share
    of the choosing replicates whose choice meets each floor on all the data, the share
    meeting all, and the share of replicates that could choose."""
    p = _checks.prior(prior_pos)
    floors = tuple(parse_floor(f) if isinstance(f, str) else f for f in floors)
    k = replicate_choices(reps, floors, prior_pos=p, economics=economics,
                          confidence=confidence)
    chose = k >= 0
    if not chose.any():
        return np.full(len(floors), math.nan), math.nan, 0.0
    t, f = reps.tp_data[k[chose]] / reps.n_pos, reps.fp_data[k[chose]] / reps.n_neg
    met = np.array([fl.met(f, t, p) for fl in floors])
    return met.mean(axis=1), float(met.all(axis=0).mean()), float(chose.mean())


def _exact(fl: Floor, counts, level: float):
    """Exact two-sided interval and one-sided bound of a rate floor, or None."""
    one = 2.0 * level - 1.0  # a one-sided bound at `level` is a two-sided limit at 2·level−1
    if fl.metric == "recall":
        x, n, flip = counts.tp, counts.n_pos, False
    elif fl.metric == "precision":
        x, n, flip = counts.tp, counts.tp + counts.fp, False
    else:
        x, n, flip = counts.fp, counts.n_neg, fl.metric == "specificity"
    if n <= 0:
        return None
    lo, hi = clopper_pearson(x, n, level)
    b_lo, b_hi = clopper_pearson(x, n, one)
    if flip:
        lo, hi, b_lo, b_hi = 1.0 - hi, 1.0 - lo, 1.0 - b_hi, 1.0 - b_lo
    return lo, hi, (b_lo if fl.bound == ">=" else b_hi)


def _hold(fl: Floor, values: np.ndarray, estimate: float, counts, level: float,
          exact_precision: bool, procedure: float) -> FloorHold:
    ok = values[np.isfinite(values)]
    if ok.size:
        low, high = (float(q) for q in np.quantile(ok, [(1 - level) / 2, (1 + level) / 2]))
        holds = float(np.mean(ok >= fl.value if fl.bound == ">=" else ok <= fl.value))
        tail = float(np.quantile(ok, 1 - level if fl.bound == ">=" else level))
    else:
        low = high = holds = tail = math.nan
    nan = math.nan
    exact = (_exact(fl, counts, level)
             if fl.metric in _EXACT or (fl.metric == "precision" and exact_precision) else None)
    e_lo, e_hi, bound, how = (nan, nan, tail, "bootstrap") if exact is None else (
        *exact, "exact")
    if fl.metric == "precision":
        e_lo = e_hi = nan
    sure = bool(math.isfinite(bound) and (bound >= fl.value if fl.bound == ">="
                                          else bound <= fl.value))
    return FloorHold(floor=fl, estimate=float(estimate), low=low, high=high, exact_low=e_lo,
                     exact_high=e_hi, bound=float(bound), bound_method=how,
                     holds_with_confidence=sure, holds_share=holds,
                     procedure_share=float(procedure), values=values)


def floor_confidence(labels, scores, floors, threshold: float, *,
                     prior_pos: float | None = None, economics: Economics | None = None,
                     weights=None, n_boot: int = 200, seed: int = 0, level: float = 0.95,
                     replicates: ThresholdReplicates | None = None, procedure: bool = True,
                     confidence: float | None = None) -> FloorConfidence:
    """How sure the floors are to hold at ``threshold`` (see the module docstring).

    Parameters
    ----------
    labels, scores, weights
        One model's rows, as for :func:`~roc_dash.core.roc.curves.roc_curve`.
    floors : Floor, str or sequence of them
    threshold : float
        Flag iff score >= threshold (``None``: ``+inf``), e.g. a
        :attr:`~.floors.FloorDecision.threshold`.
    prior_pos : float, optional
        Default the data's prevalence.
    economics : Economics, optional
        The costs the choice made again uses (default 1 and 1).
    n_boot, seed, level
        Bootstrap replicates, seed and interval level.
    replicates : ThresholdReplicates, optional
        :func:`resample_thresholds` of these rows, made earlier (default: made here when
        ``procedure``).
    procedure : bool, default True
        Compute the shares of the choice made again (:func:`procedure_shares`).
    confidence : float, optional
        Make the choice again on conservative bounds (as the threshold was chosen).
    """
    floors = tuple(parse_floor(f) if isinstance(f, str) else f for f in (
        (floors,) if isinstance(floors, str | Floor) else floors))
    lvl = _checks.level(level)
    if lvl <= 0.5:
        raise ValueError(f"level must exceed 0.5 (a one-sided bound at it is used), got {level!r}")
    y, s, w = check_binary_inputs(labels, scores, weights)
    counts = confusion_at_threshold(y, s, threshold, weights=w)
    n_pos, n_neg = counts.n_pos, counts.n_neg
    if not (n_pos > 0 and n_neg > 0):
        raise ValueError("both classes must be present with positive weight")
    p = n_pos / (n_pos + n_neg) if prior_pos is None else _checks.prior(prior_pos)
    e = economics or Economics(cost_fp=1.0, cost_fn=1.0)
    u = uncertainty_from_bootstrap(y, s, threshold, p, e, weights=w, n_boot=n_boot, seed=seed,
                                   level=lvl)
    notes = list(u.notes)
    shares, all_again, chosen = np.full(len(floors), math.nan), math.nan, math.nan
    if procedure:
        reps = replicates or resample_thresholds(y, s, weights=w, n_boot=n_boot, seed=seed)
        shares, all_again, chosen = procedure_shares(reps, floors, prior_pos=p, economics=e,
                                                     confidence=confidence)
        notes += list(reps.notes)
    f_vals, t_vals = u.fpr.values, u.tpr.values
    holds = tuple(
        _hold(fl, np.atleast_1d(metric_values(fl.metric, f_vals, t_vals, p)),
              metric_values(fl.metric, counts.fpr, counts.tpr, p), counts, lvl,
              abs(p - n_pos / (n_pos + n_neg)) <= 1e-12 * p, shares[i])
        for i, fl in enumerate(floors))
    every = np.logical_and.reduce([fl.met(f_vals, t_vals, p) for fl in floors])
    finite = np.isfinite(f_vals) & np.isfinite(t_vals)
    return FloorConfidence(threshold=float(counts.threshold), prior_pos=p, level=lvl,
                           holds=holds, all_share=float(every[finite].mean()),
                           procedure_all_share=all_again, chosen_share=chosen,
                           n_boot=int(n_boot), seed=int(seed), notes=tuple(notes))
