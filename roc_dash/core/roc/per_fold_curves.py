"""The ROC curve of each fold and of all folds pooled, from one split of the rows.

Fawcett (2004), "ROC Graphs: Notes and Practical Considerations for Researchers",
section 6: the curves ``ROCS`` that vertical and threshold
averaging (Algorithms 4 and 5, :mod:`.averaging`) average are one curve per test set (fold);
merging the folds' instances gives the pooled curve (section 6, first paragraph, footnote 4).

* :func:`fold_curves` -- one curve per fold;
* :func:`pooled_curve` -- the curve of every row, whatever its fold;
* :func:`pooled_and_fold_curves` -- both at once, as the dashboard shows them. Each fold's
  rows are sorted on their own (Algorithm 2, :func:`~roc_dash.core.roc.curves.score_runs`), and
  the pooled curve's runs of equal scores are the folds' runs merged: the folds' distinct
  scores, each fold's already in order, merged by one stable sort (a merge of sorted runs,
  ~2·10^6 values in 0.05 s), and the class counts of equal scores summed. Unweighted counts
  are integers, so the pooled curve is exactly :func:`pooled_curve`'s, without sorting the
  rows a second time (10^7 rows in 4 models of 10 folds: 4 sorts of 2.5·10^6 rows saved).
  Weighted rows (sums of floats, which would be added in another order) and integer scores
  beyond 2**53 (whose thresholds float64 may merge) sort the pooled rows as before.

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, section 6 (Averaging ROC curves).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._validation import check_binary_inputs
from ..table_groups import rows_by_code
from .curves import RocCurve, curve_of_runs, roc_curve, score_runs, sorted_run_ends

__all__ = ["PooledAndFoldCurves", "fold_curves", "pooled_curve", "pooled_and_fold_curves"]


@dataclass(frozen=True, eq=False)
class PooledAndFoldCurves:
    """The pooled curve of a model's rows and the curve of each of its folds.

    Attributes
    ----------
    pooled : RocCurve
        The curve of every row (:func:`pooled_curve`).
    positives, negatives : ndarray
        The (weighted) positives and negatives scoring each distinct score, lowest first:
        what :func:`~roc_dash.core.inference.statistics.delong_variance_of_counts` needs for DeLong's
        interval of the pooled AUC.
    folds : dict of str to RocCurve
        The curve of each fold holding both classes, keyed and ordered as by
        :func:`fold_curves`.
    one_class : dict of str to str
        Each other fold and the class it lacks (``"positive"`` or ``"negative"``): its
        own curve is undefined (its rows are in the pooled curve all the same).
    """

    pooled: RocCurve
    positives: np.ndarray
    negatives: np.ndarray
    folds: dict[str, RocCurve]
    one_class: dict[str, str]


def _fold_key(value) -> tuple:
    try:
        x = float(str(value))
    except ValueError:
        return (1, 0.0, str(value))
    return (0, x, str(value)) if np.isfinite(x) else (1, 0.0, str(value))


def _in_fold_order(codes: np.ndarray, uniques) -> tuple[np.ndarray, list]:
    """Renumber factorized fold codes so that the folds come in natural order."""
    order = sorted(range(len(uniques)), key=lambda i: _fold_key(uniques[i]))
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    out = np.where(codes >= 0, rank[np.maximum(codes, 0)], -1) if len(order) else codes
    return out, [uniques[i] for i in order]


def _fold_codes(folds, n: int) -> tuple[np.ndarray, list[str]]:
    """Each row's fold as a code ``0 .. k-1`` and the folds' names, in natural order."""
    if isinstance(folds, pd.Series):  # a table's column: factorized as it is stored
        f = folds.array
    else:  # a Categorical keeps its codes
        f = folds if isinstance(folds, pd.Categorical) else np.asarray(folds)
    if f.ndim != 1 or f.shape != (n,):
        raise ValueError(f"folds ({f.size}) and scores ({n}) differ in length")
    codes, uniques = pd.factorize(f, sort=False)
    codes, uniques = _in_fold_order(codes, uniques)
    if (codes < 0).any():
        raise ValueError("folds must not be missing (NaN or None)")
    names = [str(u) for u in uniques]
    if len(set(names)) != len(names):
        raise ValueError(f"fold values collide when converted to strings: {names}")
    return codes, names


def fold_curves(labels, scores, folds, *, weights=None, pos_label=None) -> dict[str, RocCurve]:
    """One ROC curve per fold (the curves ``ROCS`` that Algorithms 4 and 5 average).

    Parameters
    ----------
    labels, scores, weights
        As for :func:`~roc_dash.core.roc.curves.roc_curve`.
    folds : array-like, shape (n,)
        Fold (or bootstrap sample) of each row; any hashable values (or a Categorical).
    pos_label : scalar, optional
        The label value of the positive class (scikit-learn's convention); every other
        value is negative. Needed when the labels are not a known encoding. The labels are
        decoded once over all rows, so a fold holding one class is named as such rather
        than misread.

    Returns
    -------
    dict of str to RocCurve
        Keyed by ``str(fold)``, in natural order: folds that read as numbers by value
        ("2" before "10"), then the others alphabetically.

    Raises
    ------
    ValueError
        If a fold holds only one class (or one class has zero weight in it) -- the message
        names the fold -- if fold values are missing or collide as strings, or on malformed
        input.
    """
    y, s, w = check_binary_inputs(labels, scores, weights, pos_label=pos_label,
                                  integers="keep")
    codes, names = _fold_codes(folds, s.size)
    result: dict[str, RocCurve] = {}
    for name, rows in zip(names, rows_by_code(codes, len(names)), strict=True):
        try:
            result[name] = roc_curve(y[rows], s[rows], weights=None if w is None else w[rows])
        except ValueError as exc:
            raise ValueError(f"fold {name!r}: {exc}") from exc
    return result


def pooled_curve(labels, scores, *, weights=None, pos_label=None) -> RocCurve:
    """ROC curve of all folds' instances merged into one test set (Fawcett 2004, section 6).

    This is simply :func:`~roc_dash.core.roc.curves.roc_curve` on every row, whatever its fold.
    It gives no measure of variance, and it assumes the scores of the different folds are
    comparable (footnote 4): true when one learning algorithm produced them on
    representative samples, not in general across model classes (section 3.1).

    ``labels``, ``scores``, ``weights`` and ``pos_label`` (the label value of the positive
    class, scikit-learn's convention; needed when the labels are not a known encoding) are
    as for :func:`~roc_dash.core.roc.curves.roc_curve`.
    """
    return roc_curve(labels, scores, weights=weights, pos_label=pos_label)


def _merged_runs(runs: list[list]) -> list:
    """The runs of equal scores of the folds' rows together, from each fold's runs
    (``[thresholds, positives_at_or_below, negatives_at_or_below]``, see
    :func:`~roc_dash.core.roc.curves.score_runs`): one stable sort of the folds' distinct
    scores, each fold's already ascending (a merge), and the counts of equal scores summed."""
    scores = np.concatenate([r[0][:0:-1] for r in runs])  # each fold's scores, ascending
    order = np.argsort(scores, kind="stable")
    run_end, thresholds = sorted_run_ends(scores[order])
    del scores
    out = [thresholds]
    for column in (1, 2):  # the counts per fold and score, in the merged order, summed
        counts = np.concatenate([np.diff(r[column], prepend=0) for r in runs])
        out.append(np.cumsum(counts[order])[run_end])
    return out


def pooled_and_fold_curves(labels, scores, folds, *, weights=None, pos_label=None
                           ) -> PooledAndFoldCurves:
    """The pooled curve (:func:`pooled_curve`), its class counts per distinct score and
    each fold's curve (:func:`fold_curves`), sorting each fold's rows once.

    The same curves as :func:`pooled_curve` and :func:`fold_curves` (the pooled curve
    from the folds' runs of equal scores merged, see the module's docstring), except that
    a fold holding one class is listed in ``one_class`` instead of raising. A single fold's
    curve is the pooled curve itself.

    Parameters
    ----------
    labels, scores, weights, pos_label
        As for :func:`~roc_dash.core.roc.curves.roc_curve`.
    folds : array-like, shape (n,)
        As for :func:`fold_curves`.

    Returns
    -------
    PooledAndFoldCurves

    Raises
    ------
    ValueError
        If the rows together lack a class (the pooled curve is undefined), if fold values
        are missing or collide as strings, or on malformed input.

    References
    ----------
    T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", 2004,
    sections 4 (Algorithm 2) and 6.
    """
    y, s, w = check_binary_inputs(labels, scores, weights, pos_label=pos_label,
                                  integers="keep")
    codes, names = _fold_codes(folds, s.size)
    if len(names) == 1:
        pooled_runs, fold_runs = score_runs(y, s, w), None
    else:
        fold_runs = [score_runs(y[rows], s[rows], None if w is None else w[rows])
                     for rows in rows_by_code(codes, len(names))]
        del codes
        exact = w is None and s.dtype.kind == "f"  # integer counts, float thresholds
        pooled_runs = _merged_runs(fold_runs) if exact else score_runs(y, s, w)
    positives = np.diff(pooled_runs[1], prepend=0)
    negatives = np.diff(pooled_runs[2], prepend=0)
    pooled = curve_of_runs(pooled_runs)
    if fold_runs is None:
        return PooledAndFoldCurves(pooled, positives, negatives, {names[0]: pooled}, {})
    folds_out: dict[str, RocCurve] = {}
    one_class: dict[str, str] = {}
    for name, runs in zip(names, fold_runs, strict=True):
        if runs[1][-1] <= 0 or runs[2][-1] <= 0:
            one_class[name] = "positive" if runs[1][-1] <= 0 else "negative"
        else:
            folds_out[name] = curve_of_runs(runs)
    return PooledAndFoldCurves(pooled, positives, negatives, folds_out, one_class)
