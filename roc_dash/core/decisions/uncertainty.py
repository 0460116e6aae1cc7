"""How much the consequences of one fixed threshold vary across folds or bootstrap replicates.

Fold-to-fold variation is the spread that Fawcett's averaging (2004, section 6)
shows for whole curves; the bootstrap (Efron & Tibshirani 1993;
used for ROC bands by Macskassy & Provost 2004, cited in section 6) stands in for it when
there is a single fold. The rates are turned into money and precision by :mod:`.economics`.

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, section 6 (Averaging ROC curves).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from .._validation import check_binary_inputs
from ..analysis_types import ModelAnalysis
from ..roc.curves import RocCurve
from .economics import Economics, _check_prior, _finite, metrics_at_prior
from .operating import vertex_at_threshold

__all__ = [
    "Spread",
    "DecisionUncertainty",
    "uncertainty_from_folds",
    "uncertainty_from_bootstrap",
    "decision_uncertainty",
    "MAX_BOOT",
    "MAX_ROWS",
]

#: Upper bound on the number of bootstrap replicates.
MAX_BOOT = 2000
#: Rows beyond which a row bootstrap of whole curves works on a random subset.
MAX_ROWS = 200_000
#: Draws per bootstrap at most (bounds the time of the row-index fallback).
_BUDGET = 20_000_000
#: Elements per temporary array in the vectorised bootstraps (bounds memory: 16 MB).
_CHUNK = 2_000_000


@dataclass(frozen=True, eq=False)
class Spread:
    """How one number varies across folds or bootstrap replicates.

    Attributes
    ----------
    point : float
        The estimate on all the data (pooled curve or full sample; NaN if not given).
    mean, std : float
        Mean and sample standard deviation (``ddof=1``; NaN below two values) of the
        finite values.
    low, high : float
        The interval: percentiles ``(1−level)/2`` and ``(1+level)/2`` when each tail holds
        at least one value (``n·(1−level)/2 >= 1``, e.g. 40 values at 95 %), else the
        minimum and maximum.
    interval : str
        ``"percentile"`` or ``"range"`` (min/max), as above.
    n : int
        Number of finite values.
    values : ndarray
        One value per fold or replicate (NaN where undefined, e.g. precision when nothing
        is flagged).
    """

    point: float
    mean: float
    std: float
    low: float
    high: float
    interval: str
    n: int
    values: np.ndarray


def _spread(values: np.ndarray, point: float, level: float) -> Spread:
    v = np.asarray(values, dtype=np.float64)
    ok = v[np.isfinite(v)]
    n = int(ok.size)
    if n == 0:
        return Spread(point=float(point), mean=math.nan, std=math.nan, low=math.nan,
                      high=math.nan, interval="range", n=0, values=v)
    if n * (1.0 - level) / 2.0 >= 1.0:
        low, high = np.quantile(ok, [(1.0 - level) / 2.0, (1.0 + level) / 2.0])
        kind = "percentile"
    else:
        low, high = ok.min(), ok.max()
        kind = "range"
    return Spread(point=float(point), mean=float(ok.mean()),
                  std=float(ok.std(ddof=1)) if n > 1 else math.nan,
                  low=float(low), high=float(high), interval=kind, n=n, values=v)


@dataclass(frozen=True, eq=False)
class DecisionUncertainty:
    """How the consequences of one fixed threshold vary with the sample.

    Attributes
    ----------
    method : str
        ``"folds"`` (one value per fold) or ``"bootstrap"`` (one per replicate).
    threshold, prior_pos, level : float
    names : tuple of str
        The folds' names (``"folds"``) or empty (``"bootstrap"``).
    tpr, fpr, flagged, precision, expected_cost : Spread
        Recall, false positive rate, share flagged and precision at the prior, expected cost
        per case.
    notes : tuple of str
        E.g. replicates dropped because a class was absent, or a subsampled bootstrap.
    """

    method: str
    threshold: float
    prior_pos: float
    level: float
    names: tuple[str, ...]
    tpr: Spread
    fpr: Spread
    flagged: Spread
    precision: Spread
    expected_cost: Spread
    notes: tuple[str, ...] = ()

    @property
    def n(self) -> int:
        return self.tpr.n


def _check_level(level) -> float:
    if not (_finite(level) and 0.0 < level < 1.0):
        raise ValueError("level must lie strictly between 0 and 1")
    return float(level)


def _threshold(t) -> float:
    t = math.inf if t is None else float(t)
    if math.isnan(t):
        raise ValueError("the threshold must be a number (or None for +inf)")
    return t


def _uncertainty(method, fpr, tpr, point, threshold, p, e, level, names, notes):
    pf, pt = point
    at, at_point = metrics_at_prior(fpr, tpr, p, e), metrics_at_prior(pf, pt, p, e)
    vals = {"tpr": (tpr, pt), "fpr": (fpr, pf), **{k: (at[k], at_point[k]) for k in at}}
    return DecisionUncertainty(
        method=method, threshold=threshold, prior_pos=p, level=level, names=tuple(names),
        notes=tuple(notes),
        **{k: _spread(np.atleast_1d(v), float(pv), level) for k, (v, pv) in vals.items()})


def uncertainty_from_folds(fold_curves: Mapping[str, RocCurve], threshold: float,
                           prior_pos: float, economics: Economics, *, level: float = 0.95,
                           pooled: RocCurve | None = None) -> DecisionUncertainty:
    """Spread of TPR, FPR, share flagged, precision and expected cost across folds at one
    fixed threshold.

    Each fold's rates are read off the fold's own curve at the vertex of "flag iff
    score >= threshold" (:func:`~roc_dash.core.decisions.operating.vertex_at_threshold`), the reading
    that threshold averaging (Fawcett 2004, section 6.2, Algorithm 5) takes at each
    threshold; the folds count equally.

    Parameters
    ----------
    fold_curves : mapping of str to RocCurve
        E.g. :attr:`ModelAnalysis.folds`.
    threshold : float
        ``None`` means ``+inf`` (flag nothing).
    prior_pos : float
    economics : Economics
    level : float, default 0.95
        Level of the percentile interval (see :class:`Spread`; with few folds the interval
        is the range).
    pooled : RocCurve, optional
        The pooled curve, for the point estimates (NaN without it).
    """
    p = _check_prior(prior_pos)
    level = _check_level(level)
    t = _threshold(threshold)
    if not fold_curves:
        raise ValueError("no fold curves")
    names = [str(k) for k in fold_curves]
    idx = [vertex_at_threshold(c, t) for c in fold_curves.values()]
    fpr = np.array([c.fpr[i] for c, i in zip(fold_curves.values(), idx, strict=True)])
    tpr = np.array([c.tpr[i] for c, i in zip(fold_curves.values(), idx, strict=True)])
    if pooled is not None:
        k = vertex_at_threshold(pooled, t)
        point = (float(pooled.fpr[k]), float(pooled.tpr[k]))
    else:
        point = (math.nan, math.nan)
    return _uncertainty("folds", fpr, tpr, point, t, p, economics, level, names, ())


def _check_n_boot(n_boot) -> int:
    if not (isinstance(n_boot, (int, np.integer)) and 1 <= n_boot <= MAX_BOOT):
        raise ValueError(f"n_boot must be an integer between 1 and {MAX_BOOT}")
    return int(n_boot)


def _category_totals(code: np.ndarray, w: np.ndarray | None) -> np.ndarray:
    """Weighted totals of the categories 0 = TN, 1 = FP, 2 = FN, 3 = TP."""
    return np.bincount(code, weights=w, minlength=4).astype(np.float64)


def _rates(totals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(FPR, TPR)`` from category totals (last axis TN, FP, FN, TP); NaN where a class is
    absent."""
    neg = totals[..., 0] + totals[..., 1]
    pos = totals[..., 2] + totals[..., 3]
    with np.errstate(divide="ignore", invalid="ignore"):
        fpr = np.where(neg > 0, totals[..., 1] / np.where(neg > 0, neg, 1.0), np.nan)
        tpr = np.where(pos > 0, totals[..., 3] / np.where(pos > 0, pos, 1.0), np.nan)
    return fpr, tpr


def _boot_totals(code, w, n_boot, rng, notes):
    """Bootstrap category totals ``(n_boot, 4)`` of a row resample, and the resample size.

    Resampling ``n`` rows with replacement puts a Multinomial(``n``, sizes/``n``) number of
    draws in each group of identical rows, so the rows are grouped by (category, weight)
    and the groups' counts are drawn directly: exact, and ``O(n_boot × groups)`` (four
    groups for unweighted rows, whatever ``n``). With too many distinct weights for that,
    rows are drawn by index; past the work budget an ``m``-out-of-``n`` bootstrap is used.
    """
    n = code.size
    if w is None:
        sizes = np.bincount(code, minlength=4)
        return rng.multinomial(n, sizes / n, size=n_boot).astype(np.float64), n
    order = np.lexsort((w, code))
    cs, ws = code[order], w[order]
    first = np.ones(n, dtype=bool)
    first[1:] = (cs[1:] != cs[:-1]) | (ws[1:] != ws[:-1])
    starts = np.flatnonzero(first)
    sizes = np.diff(np.append(starts, n))
    g_code, g_w = cs[starts], ws[starts]
    k = starts.size
    out = np.empty((n_boot, 4))
    if k * n_boot <= _BUDGET:
        chunk = max(1, _CHUNK // k)
        onehot = np.zeros((k, 4))
        onehot[np.arange(k), g_code] = g_w  # weight of one row of each group, per category
        for a in range(0, n_boot, chunk):
            b = min(a + chunk, n_boot)
            draws = rng.multinomial(n, sizes / n, size=b - a).astype(np.float64)
            out[a:b] = draws @ onehot
        return out, n
    m = int(min(n, MAX_ROWS, max(1000, _BUDGET // n_boot)))
    if m < n:
        notes.append(f"Bootstrap of {m:,} rows drawn from the {n:,} per replicate "
                     f"(m-out-of-n), its spread rescaled by √(m/n) to the full sample.")
    chunk = max(1, _CHUNK // m)
    for a in range(0, n_boot, chunk):
        b = min(a + chunk, n_boot)
        idx = rng.integers(0, n, size=(b - a, m))
        keys = code[idx] + 4 * np.arange(b - a)[:, None]
        out[a:b] = np.bincount(keys.ravel(), weights=w[idx].ravel(),
                               minlength=4 * (b - a)).reshape(b - a, 4)
    return out, m


def uncertainty_from_bootstrap(labels, scores, threshold: float, prior_pos: float,
                               economics: Economics, *, weights=None, n_boot: int = 200,
                               seed: int = 0, level: float = 0.95) -> DecisionUncertainty:
    """Spread of the consequences of one fixed threshold over bootstrap resamples of rows.

    Each replicate resamples the rows with replacement (Efron & Tibshirani 1993), counts the
    (weighted) true/false positives and negatives of "flag iff score >= threshold", and
    turns them into rates; the deployment prior stays fixed. Only the four category totals
    matter at a fixed threshold, so the draws are made per group of identical
    (category, weight) rows (see :func:`_boot_totals`): unweighted data of any size costs
    ``O(n_boot)``. Data with very many distinct weights falls back to drawing rows by
    index, and beyond the work budget (about ``2·10⁷`` draws) to an ``m``-out-of-``n``
    bootstrap (``m <= MAX_ROWS``) whose deviations from the full-sample estimate are scaled
    by ``√(m/n)``; a note says so. Replicates lacking a class are dropped (noted).

    Parameters
    ----------
    labels, scores, weights
        As for :func:`~roc_dash.core.roc.curves.roc_curve`.
    threshold : float
        ``None`` means ``+inf``.
    prior_pos : float
    economics : Economics
    n_boot : int, default 200
        Replicates, at most :data:`MAX_BOOT`.
    seed : int, default 0
    level : float, default 0.95
    """
    p = _check_prior(prior_pos)
    level = _check_level(level)
    n_boot = _check_n_boot(n_boot)
    t = _threshold(threshold)
    y, s, w = check_binary_inputs(labels, scores, weights)
    code = 2 * y.astype(np.intp) + (s >= t)
    point = _rates(_category_totals(code, w))
    if not (np.isfinite(point[0]) and np.isfinite(point[1])):
        raise ValueError("both classes must be present (with positive weight)")
    notes: list[str] = []
    rng = np.random.default_rng(seed)
    totals, m = _boot_totals(code, w, n_boot, rng, notes)
    fpr, tpr = _rates(totals)
    if m < code.size:
        shrink = math.sqrt(m / code.size)
        fpr = np.clip(point[0] + (fpr - point[0]) * shrink, 0.0, 1.0)
        tpr = np.clip(point[1] + (tpr - point[1]) * shrink, 0.0, 1.0)
    dropped = int((~(np.isfinite(fpr) & np.isfinite(tpr))).sum())
    if dropped:
        notes.append(f"{dropped} of {n_boot} replicates lacked a class and were dropped.")
    return _uncertainty("bootstrap", fpr, tpr, (float(point[0]), float(point[1])), t, p,
                        economics, level, (), notes)


def decision_uncertainty(model: ModelAnalysis, threshold: float, prior_pos: float,
                         economics: Economics, *, labels=None, scores=None, weights=None,
                         method: str = "auto", n_boot: int = 200, seed: int = 0,
                         level: float = 0.95) -> DecisionUncertainty:
    """Spread of a model's consequences at a fixed threshold: across its folds when it has
    several, else over bootstrap replicates of its rows.

    ``method="auto"`` takes the folds when ``model.folds`` holds at least two, else the
    bootstrap, which needs the model's rows (``labels``, ``scores``, optional ``weights``:
    the model's slice of the canonical table). ``"folds"`` and ``"bootstrap"`` force one.
    See :func:`uncertainty_from_folds` and :func:`uncertainty_from_bootstrap`.

    Raises
    ------
    ValueError
        When the bootstrap is needed and no rows are given, or on a bad ``method``.
    """
    if method not in ("auto", "folds", "bootstrap"):
        raise ValueError("method must be 'auto', 'folds' or 'bootstrap'")
    if method == "folds" or (method == "auto" and len(model.folds) > 1):
        return uncertainty_from_folds(model.folds, threshold, prior_pos, economics,
                                      level=level, pooled=model.curve)
    if labels is None or scores is None:
        raise ValueError(f"{model.name} has a single fold: give its labels and scores for a "
                         "bootstrap")
    return uncertainty_from_bootstrap(labels, scores, threshold, prior_pos, economics,
                                      weights=weights, n_boot=n_boot, seed=seed, level=level)
