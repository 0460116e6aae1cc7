"""How often each model is the optimal choice across folds or bootstrap replicates.

In each fold or replicate every model's optimum is its minimum expected cost with net costs
(:func:`~roc_dash.core.decisions.economics.regret_per_case`; Fawcett 2004, section 7.1:
a linear cost is minimised at a hull vertex); the cheapest model
wins. The bootstrap (Efron & Tibshirani 1993) stands in for folds when there is one.

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, section 7.1 (The ROC convex hull).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from .._validation import check_binary_inputs
from ..analysis_types import Analysis
from ..roc.curves import RocCurve
from ..roc.hull import TIE_RTOL
from .economics import Economics, _check_prior, net_costs, regret_per_case
from .uncertainty import _CHUNK, MAX_BOOT, MAX_ROWS, _check_n_boot

__all__ = [
    "OptimumFrequency", "optimum_frequency", "optimum_frequency_of", "optimum_frequency_bootstrap",
    "MAX_BOOT", "MAX_ROWS",
]


@dataclass(frozen=True)
class OptimumFrequency:
    """How often each model is the optimal choice across folds or bootstrap replicates.

    Attributes
    ----------
    fractions : dict of str to float
        Share of folds/replicates each model wins (ties split equally); sums to 1. Every
        model is a key (0 if it never wins).
    wins : dict of str to float
        The same as (fractional) counts.
    n : int
        Folds or replicates used.
    method : str
        ``"folds"`` or ``"bootstrap"``.
    notes : tuple of str
    """

    fractions: dict[str, float]
    wins: dict[str, float]
    n: int
    method: str
    notes: tuple[str, ...] = ()


def _winners(regret: np.ndarray) -> np.ndarray:
    """Share of each win per row of ``regret`` (rows: folds/replicates, columns: models);
    models within a relative ``TIE_RTOL``-scale tolerance of the row's minimum share it."""
    best = regret.min(axis=1, keepdims=True)
    tol = 16 * TIE_RTOL * np.maximum(np.abs(best), np.abs(regret).max(axis=1, keepdims=True))
    win = regret <= best + tol
    return win / win.sum(axis=1, keepdims=True)


def _frequency(names, regret, method, notes) -> OptimumFrequency:
    share = _winners(regret)
    wins = share.sum(axis=0)
    n = regret.shape[0]
    return OptimumFrequency(fractions={k: float(v / n) for k, v in zip(names, wins, strict=True)},
                            wins={k: float(v) for k, v in zip(names, wins, strict=True)},
                            n=int(n), method=method, notes=tuple(notes))


def optimum_frequency(fold_curves: Mapping[str, Mapping[str, RocCurve]], prior_pos: float,
                      economics: Economics) -> OptimumFrequency:
    """How often each model is the optimum across folds, under fixed conditions.

    In each fold every model's optimum is the minimum expected cost (net costs) over its
    fold curve's vertices, which is the cost at its fold hull's optimal vertex (Fawcett 2004,
    section 7.1: a linear cost is minimised at a hull vertex); the model with the lowest
    wins the fold, ties split equally. Folds are matched by name; only folds every model
    has are used (noted when some are left out).

    Parameters
    ----------
    fold_curves : mapping of model to (mapping of fold to RocCurve)
        E.g. ``{m.name: m.folds for m in analysis.models}``.
    prior_pos : float
    economics : Economics

    Raises
    ------
    ValueError
        Without models or without a fold common to all of them.
    """
    p = _check_prior(prior_pos)
    names = [str(k) for k in fold_curves]
    if not names:
        raise ValueError("no models")
    per_model = list(fold_curves.values())
    common = [f for f in per_model[0] if all(f in fc for fc in per_model[1:])]
    if not common:
        raise ValueError("the models share no fold")
    notes = []
    n_all = len({f for fc in per_model for f in fc})
    if len(common) < n_all:
        notes.append(f"{n_all - len(common)} folds not shared by every model are left out.")
    regret = np.array([[float(np.min(regret_per_case(fc[f].fpr, fc[f].tpr, p, economics)))
                        for fc in per_model] for f in common])
    return _frequency(names, regret, "folds", notes)


def optimum_frequency_of(analysis: Analysis,
                         economics: Economics | None = None) -> OptimumFrequency:
    """:func:`optimum_frequency` of an analysis' models and folds at its prior (economics
    default: the analysis' costs)."""
    e = economics or Economics.from_conditions(analysis.conditions)
    return optimum_frequency({m.name: m.folds for m in analysis.models},
                             analysis.conditions.prior_pos, e)


def optimum_frequency_bootstrap(labels, scores: Mapping[str, np.ndarray], prior_pos: float,
                                economics: Economics, *, weights=None, n_boot: int = 200,
                                seed: int = 0) -> OptimumFrequency:
    """How often each model is the optimum over bootstrap replicates of paired rows.

    For data with a single fold. All models are scored on the same rows (``scores[model]``
    aligned with ``labels``); each replicate resamples the rows with replacement (the same
    resample for every model), rebuilds every model's ROC vertices from cumulative sums over
    its score order (Fawcett 2004, Algorithm 2, one vertex per distinct score) and takes its
    minimum expected cost with net costs; the cheapest model wins the replicate (ties split).
    Replicates lacking a class are dropped. With more than :data:`MAX_ROWS` rows a random
    subset of that many rows is resampled (noted); the replicates then vary as much as a
    sample of that size would, so the frequencies are less extreme than on all the rows.

    Parameters
    ----------
    labels, weights
        As for :func:`~roc_dash.core.roc.curves.roc_curve`.
    scores : mapping of model to array
        One score per row for each model.
    prior_pos : float
    economics : Economics
    n_boot : int, default 200
        At most :data:`MAX_BOOT`.
    seed : int, default 0
    """
    p = _check_prior(prior_pos)
    n_boot = _check_n_boot(n_boot)
    names = [str(k) for k in scores]
    if not names:
        raise ValueError("no models")
    first = next(iter(scores.values()))
    y, _, w = check_binary_inputs(labels, first, weights)
    cols = [check_binary_inputs(y, s)[1] for s in scores.values()]
    w = np.ones(y.size) if w is None else w
    rng = np.random.default_rng(seed)
    notes = []
    n = y.size
    if n > MAX_ROWS:
        sub = np.sort(rng.choice(n, MAX_ROWS, replace=False))
        notes.append(f"Bootstrap on a random {MAX_ROWS:,} of the {n:,} rows.")
        y, w, cols, n = y[sub], w[sub], [c[sub] for c in cols], MAX_ROWS
    c_fp, c_fn = net_costs(economics)
    wy, wn = np.where(y, w, 0.0), np.where(y, 0.0, w)
    prepared = []
    for s in cols:
        order = np.argsort(-s, kind="stable")
        ss = s[order]
        run_end = np.flatnonzero(np.append(ss[1:] != ss[:-1], True))
        prepared.append((order, run_end, wy[order], wn[order]))
    regret = np.empty((n_boot, len(names)))
    chunk = min(n_boot, max(1, _CHUNK // n))
    c_buf, t_buf = np.empty((chunk, n)), np.empty((chunk, n))
    offsets = n * np.arange(chunk)[:, None]
    for a in range(0, n_boot, chunk):
        b = min(a + chunk, n_boot)
        r = b - a
        idx = rng.integers(0, n, size=(r, n))
        idx += offsets[:r]
        counts = np.bincount(idx.ravel(), minlength=n * r).reshape(r, n).astype(np.float64)
        del idx
        pos_total, neg_total = counts @ wy, counts @ wn
        c, t = c_buf[:r], t_buf[:r]
        with np.errstate(divide="ignore", invalid="ignore"):
            # regret = p·c'(FN) + β·FP − α·TP with the replicate's totals
            alpha = (p * c_fn / pos_total)[:, None]
            beta = ((1.0 - p) * c_fp / neg_total)[:, None]
            for j, (order, run_end, wy_o, wn_o) in enumerate(prepared):
                # (weighted) TP and FP at every row in score order: sums of whole counts
                # times weights, exact for unweighted data, so exact ties stay ties
                np.take(counts, order, axis=1, out=c)
                np.multiply(c, wy_o, out=t)
                np.cumsum(t, axis=1, out=t)
                c *= wn_o
                np.cumsum(c, axis=1, out=c)
                if run_end.size < n:  # tied scores: only the last row of a run is a vertex
                    tp, fp = t[:, run_end], c[:, run_end]
                else:
                    tp, fp = t, c
                fp *= beta
                tp *= alpha
                fp -= tp
                regret[a:b, j] = p * c_fn + np.minimum(fp.min(axis=1), 0.0)  # 0: origin
        bad = ~((pos_total > 0) & (neg_total > 0))
        regret[a:b][bad] = np.nan
    ok = np.isfinite(regret).all(axis=1)
    if not ok.all():
        notes.append(f"{int((~ok).sum())} of {n_boot} replicates lacked a class and were "
                     "dropped.")
    if not ok.any():
        raise ValueError("every replicate lacked a class")
    return _frequency(names, regret[ok], "bootstrap", notes)
