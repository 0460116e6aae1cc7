"""ROC analysis of a classifier with more than two classes.

Implements Fawcett (2004), "ROC Graphs: Notes and Practical Considerations for Researchers",
section 7.3, and the measure of Hand & Till (2001) it cites:

* section 7.3.1 -- the *class reference* (one-vs-rest) formulation: for each class ``c`` the
  ROC curve of "``c`` against the union of the other classes" (equations 1-2), scored by the
  classifier's score for ``c``;
* section 7.3.2 -- the multi-class AUC of Provost & Domingos (2001): the class reference AUCs
  weighted by the prevalence of the reference class, ``AUC_total = sum_c AUC(c) p(c)``; and
  Hand & Till's (2001) ``M``, the unweighted mean over all pairs of classes of the pairwise
  discriminability ``A(i, j)``, insensitive to the class distribution.

Input: one row per instance with its true class (any hashable value), a score matrix with one
column per class (higher means more likely that class; probabilities need not sum to one) and
optional non-negative weights (instance counts: integer weights equal repeated rows).

Long-format table (``roc_dash/data/multiclass_demo.csv``, read by :func:`scores_from_table`)::

    model,fold,id,class,score_class_0,score_class_1,score_class_2
    logistic regression,1,4,class_0,0.45105,0.04328,0.50567
    ...

``class`` holds the true class of the row and ``score_<c>`` the score for class ``c``, one
column per class; the class names are the column suffixes, matched to the ``class`` values as
text. ``model`` and ``fold`` are optional groupings (select one model, and pool or split the
folds, before calling the functions here); ``id`` identifies the instance, so the rows of two
models pair up.

References
----------
T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, section 7.3
(Decision problems with more than two classes).

D. J. Hand, R. J. Till, "A simple generalisation of the area under the ROC curve for multiple
class classification problems", Machine Learning 45:171-186, 2001.

F. Provost, P. Domingos, "Well-trained PETs: improving probability estimation trees",
CeDER working paper IS-00-04, New York University, 2001.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._validation import as_scores, check_weights
from ..roc.curves import RocCurve, auc, roc_curve

__all__ = [
    "MulticlassAnalysis", "multiclass_roc", "multiclass_auc", "one_vs_rest_curves",
    "pairwise_auc_matrix", "hand_till_m", "scores_from_table",
]

#: Offending values listed in a message at most.
_MAX_LISTED = 5


@dataclass(frozen=True, eq=False)
class MulticlassAnalysis:
    """Class reference ROC curves and the multi-class AUCs of one classifier.

    Attributes
    ----------
    classes : ndarray, shape (C,)
        The classes, in the order of the score columns.
    curves : tuple of RocCurve, length C
        ``curves[c]`` is the class reference ROC curve of class ``c`` against the rest
        (Fawcett 2004, section 7.3.1), scored by column ``c``.
    auc_per_class : ndarray of float64, shape (C,)
        ``AUC(c)``, the area under ``curves[c]``.
    n_per_class : ndarray of float64, shape (C,)
        Weighted number of rows of each class.
    prevalence : ndarray of float64, shape (C,)
        ``p(c) = n_per_class / n_per_class.sum()``.
    weighted_auc : float
        Provost & Domingos' ``sum_c p(c) AUC(c)`` (section 7.3.2); scikit-learn's
        ``roc_auc_score(multi_class="ovr", average="weighted")``.
    macro_auc : float
        The unweighted mean of ``auc_per_class`` (``multi_class="ovr", average="macro"``).
    pairwise : ndarray of float64, shape (C, C)
        Hand & Till's ``Â(i|j)`` in cell ``[i, j]``: the probability that a random row of class
        ``i`` has a higher score for class ``i`` than a random row of class ``j`` (ties one
        half), from the rows of classes ``i`` and ``j`` only. The diagonal is NaN.
    pairwise_symmetric : ndarray of float64, shape (C, C)
        ``A(i, j) = (Â(i|j) + Â(j|i)) / 2``, symmetric, diagonal NaN.
    hand_till_m : float
        ``M = 2 / (C (C - 1)) sum_{i<j} A(i, j)`` (Hand & Till 2001, equation 7); equal to
        scikit-learn's ``roc_auc_score(multi_class="ovo", average="macro")``.
    """

    classes: np.ndarray
    curves: tuple[RocCurve, ...]
    auc_per_class: np.ndarray
    n_per_class: np.ndarray
    prevalence: np.ndarray
    weighted_auc: float
    macro_auc: float
    pairwise: np.ndarray
    pairwise_symmetric: np.ndarray
    hand_till_m: float

    def index(self, cls) -> int:
        """Position of class ``cls`` in :attr:`classes` (``KeyError`` if absent)."""
        for k, c in enumerate(self.classes.tolist()):
            if c == cls:
                return k
        raise KeyError(cls)

    def curve(self, cls) -> RocCurve:
        """The class reference ROC curve of class ``cls`` (by value, not position)."""
        return self.curves[self.index(cls)]


# --------------------------------------------------------------------------------------------
# Input checks
# --------------------------------------------------------------------------------------------


def _show(value) -> str:
    """``repr`` of a value, numpy scalars as the Python values they hold (``1``, not
    ``np.int64(1)``)."""
    if isinstance(value, np.generic):
        value = value.item()
    return repr(value)


def _listing(items) -> str:
    items = list(items)
    text = ", ".join(items[:_MAX_LISTED])
    if len(items) > _MAX_LISTED:
        text += f", ... ({len(items):,} in all)"
    return text


def _as_index(values, message: str) -> pd.Index:
    """A flat ``pd.Index`` of any hashable values (tuples stay single values)."""
    if isinstance(values, pd.Series | pd.Index | np.ndarray):
        if values.ndim != 1:
            raise ValueError(message)
        if isinstance(values, pd.Series):
            return pd.Index(values.array, tupleize_cols=False)
        return pd.Index(values, tupleize_cols=False)
    items = list(values)
    if any(isinstance(v, list | np.ndarray) for v in items):
        raise ValueError(message)
    if all(isinstance(v, tuple) for v in items) and items:
        return pd.Index(np.fromiter(items, dtype=object, count=len(items)),
                        tupleize_cols=False)
    return pd.Index(items, tupleize_cols=False)


def _check_multiclass_inputs(labels, scores, classes, weights):
    """Return ``(codes, S, classes, w, n_per_class)``.

    ``codes`` (int64, shape (n,)) is the position of each row's class in ``classes``, ``S``
    the float64 score matrix (n, C), ``classes`` an ndarray, ``w`` float64 or None and
    ``n_per_class`` the weighted class totals.

    Raises
    ------
    ValueError
        With a message naming the problem: labels not one-dimensional or empty; fewer than two
        classes or repeated classes; a label that is not among ``classes``; a score matrix
        whose shape is not ``(n, C)``; a non-finite score (first row and column named);
        weights of another length, negative or non-finite; a class with no rows (or zero
        total weight).
    """
    label_index = _as_index(labels, "labels must be one-dimensional (one true class per row)")
    n = len(label_index)
    if n == 0:
        raise ValueError("no instances: labels are empty")

    if classes is None:
        found = label_index.unique()
        try:
            found = found.sort_values()
        except TypeError as exc:
            raise ValueError(
                "the labels mix types that cannot be sorted: pass classes=[...] in the "
                "order of the score columns"
            ) from exc
        class_index = pd.Index(found)
    else:
        class_index = _as_index(classes, "classes must be a one-dimensional sequence")
    n_classes = len(class_index)
    if not class_index.is_unique:
        repeated = class_index[class_index.duplicated()].unique()
        raise ValueError(f"classes must be distinct; repeated: {_listing(map(_show, repeated))}")
    if n_classes < 2:
        raise ValueError(f"need at least two classes, got {n_classes}")

    codes = class_index.get_indexer(label_index).astype(np.int64)
    unknown = codes < 0
    if unknown.any():
        rows = np.flatnonzero(unknown)
        values = pd.Index(label_index[rows]).unique()
        raise ValueError(
            f"{rows.size:,} labels are not among the classes "
            f"({_listing(map(_show, class_index))}): {_listing(map(_show, values))} "
            f"(first at row {int(rows[0])})"
        )

    s = as_scores(scores)
    if s.ndim != 2 or s.shape != (n, n_classes):
        raise ValueError(
            f"score matrix has shape {tuple(s.shape)} but must be ({n}, {n_classes}): one row "
            f"per label and one column per class ({_listing(map(_show, class_index))})"
        )
    finite = np.isfinite(s)
    if not finite.all():
        bad_rows, bad_cols = np.nonzero(~finite)
        r, c = int(bad_rows[0]), int(bad_cols[0])
        raise ValueError(
            f"scores must be finite: {bad_rows.size:,} NaN or infinite "
            f"{'value' if bad_rows.size == 1 else 'values'}, the first at "
            f"row {r}, column {c} (class {_show(class_index[c])}): {_show(s[r, c])}"
        )

    w = check_weights(weights, n, "labels")

    n_per_class = np.bincount(codes, weights=w, minlength=n_classes).astype(np.float64)
    empty = np.flatnonzero(n_per_class <= 0)
    if empty.size:
        names = _listing(_show(class_index[k]) for k in empty)
        one = empty.size == 1
        raise ValueError(
            f"{'class' if one else 'classes'} {names} {'has' if one else 'have'} no rows (or "
            f"zero total weight): {'its' if one else 'their'} class reference ROC "
            f"{'curve' if one else 'curves'} and pairwise AUCs are undefined; drop "
            f"{'its score column' if one else 'their score columns'} and pass the remaining "
            "classes"
        )
    return codes, np.asfortranarray(s), class_index.to_numpy(), w, n_per_class


# --------------------------------------------------------------------------------------------
# Computation
# --------------------------------------------------------------------------------------------


def _pairwise_from_checked(codes, s, w, n_per_class) -> np.ndarray:
    """Hand & Till's ``Â(i|j)`` for every ordered pair: one sort per score column.

    For column ``i`` every row ``r`` gets its *placement* among class ``i``: the weight of
    class-``i`` rows scoring strictly above it on column ``i`` plus half the weight of those
    tied with it (the Mann-Whitney kernel). Summing the weighted placements of the rows of
    class ``j`` (one ``bincount``) gives ``n_i n_j Â(i|j)`` for every ``j`` at once; only the
    rows of classes ``i`` and ``j`` enter cell ``[i, j]``.
    """
    n, n_classes = s.shape
    out = np.empty((n_classes, n_classes))
    for i in range(n_classes):
        order = np.argsort(s[:, i])
        ss = s[order, i]
        code_sorted = codes[order]
        mass = (code_sorted == i).astype(np.float64)
        if w is not None:
            w_sorted = w[order]
            mass *= w_sorted
        start = np.empty(n, dtype=bool)
        start[0] = True
        np.not_equal(ss[1:], ss[:-1], out=start[1:])
        bounds = np.append(np.flatnonzero(start), n)
        cum = np.empty(n + 1)
        cum[0] = 0.0
        np.cumsum(mass, out=cum[1:])
        in_run = cum[bounds[1:]] - cum[bounds[:-1]]
        above = cum[-1] - cum[bounds[1:]]
        placement = np.repeat(above + 0.5 * in_run, np.diff(bounds))
        if w is not None:
            placement *= w_sorted
        totals = np.bincount(code_sorted, weights=placement, minlength=n_classes)
        out[i] = totals / (n_per_class[i] * n_per_class)
        out[i, i] = np.nan
    return out


def _symmetric(pairwise: np.ndarray) -> np.ndarray:
    return (pairwise + pairwise.T) / 2.0


def _m_of(symmetric: np.ndarray) -> float:
    upper = np.triu_indices(symmetric.shape[0], k=1)
    return float(symmetric[upper].mean())


def one_vs_rest_curves(labels, scores, *, classes=None, weights=None) -> tuple[RocCurve, ...]:
    """Class reference ROC curves: each class against the rest (Fawcett 2004, section 7.3.1).

    Curve ``c`` plots the performance with class ``c`` as the positive class ``P_c = c`` and
    the union of all other classes as the negative class ``N_c`` (equations 1 and 2), scored
    by column ``c`` of the score matrix; it is :func:`roc_dash.core.roc.curves.roc_curve` of the
    boolean labels ``labels == c`` (Algorithm 2, one vertex per distinct score).

    As the section warns, these curves depend on the mix of the other classes: changing the
    prevalence of one class inside ``N_c`` can change curve ``c``.

    Parameters
    ----------
    labels : array-like, shape (n,)
        True class of each row: any hashable values.
    scores : array-like of float, shape (n, C)
        One column per class, in the order of ``classes``; higher means more likely that
        class. Must be finite.
    classes : sequence, length C, optional
        The class of each score column. Default: the sorted distinct labels (scikit-learn's
        convention).
    weights : array-like of float, shape (n,), optional
        Non-negative instance weights (counts): integer weights equal repeated rows.

    Returns
    -------
    tuple of RocCurve
        One curve per class, in the order of ``classes``.

    Raises
    ------
    ValueError
        See :func:`multiclass_roc`.

    References
    ----------
    T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", 2004, 7.3.1.
    """
    codes, s, _, w, _ = _check_multiclass_inputs(labels, scores, classes, weights)
    return tuple(roc_curve(codes == c, s[:, c], weights=w) for c in range(s.shape[1]))


def pairwise_auc_matrix(labels, scores, *, classes=None, weights=None) -> np.ndarray:
    """Hand & Till's pairwise ``Â(i|j)`` for every ordered pair of classes.

    ``Â(i|j)`` is the area under the two-class ROC curve of class ``i`` (positive) against
    class ``j`` (negative) computed on the rows of classes ``i`` and ``j`` only, scored by the
    column of class ``i``: the probability that a random row of class ``i`` scores higher on
    column ``i`` than a random row of class ``j``, ties counted one half (Hand & Till 2001,
    section 3; Fawcett 2004, section 7.3.2, ``AUC(c_i, c_j)``). In general
    ``Â(i|j) != Â(j|i)``: they use different score columns.

    Computed with one sort per score column and cumulative sums (see
    :func:`_pairwise_from_checked`), O(C n log n) in all, never the O(n_i n_j) comparison of
    every pair of rows.

    Parameters
    ----------
    labels, scores, classes, weights
        As in :func:`one_vs_rest_curves`.

    Returns
    -------
    ndarray of float64, shape (C, C)
        ``Â(i|j)`` in cell ``[i, j]``; the diagonal is NaN.

    References
    ----------
    D. J. Hand, R. J. Till, Machine Learning 45:171-186, 2001.
    """
    codes, s, _, w, n_per_class = _check_multiclass_inputs(labels, scores, classes, weights)
    return _pairwise_from_checked(codes, s, w, n_per_class)


def hand_till_m(labels, scores, *, classes=None, weights=None) -> float:
    """Hand & Till's multi-class AUC ``M`` (Fawcett 2004, section 7.3.2).

    ``A(i, j) = (Â(i|j) + Â(j|i)) / 2`` is the discriminability of classes ``i`` and ``j``
    (see :func:`pairwise_auc_matrix`) and ``M = 2 / (C (C - 1)) sum_{i<j} A(i, j)``, the
    unweighted mean over the ``C (C - 1) / 2`` unordered pairs. Each pairwise term uses only
    the rows of its two classes, so ``M`` does not depend on the class distribution. With
    two classes ``M = (Â(0|1) + Â(1|0)) / 2``, the binary AUC when the two score columns rank
    the rows in opposite orders (e.g. probabilities summing to one). Equal to scikit-learn's
    ``roc_auc_score(labels, scores, multi_class="ovo", average="macro")``.

    Parameters
    ----------
    labels, scores, classes, weights
        As in :func:`pairwise_auc_matrix`, whose matrix it averages.

    Returns
    -------
    float

    References
    ----------
    D. J. Hand, R. J. Till, Machine Learning 45:171-186, 2001, equation (7).
    """
    return _m_of(_symmetric(pairwise_auc_matrix(labels, scores, classes=classes,
                                                weights=weights)))


def multiclass_roc(labels, scores, *, classes=None, weights=None) -> MulticlassAnalysis:
    """Class reference curves, per-class AUCs, Provost-Domingos AUC and Hand & Till's M.

    Fawcett (2004) section 7.3: the class reference ROC curve of every class (7.3.1, via
    :func:`one_vs_rest_curves`), its area (Algorithm 3), the prevalence-weighted
    ``AUC_total = sum_c AUC(c) p(c)`` of Provost & Domingos and the unweighted macro mean
    (7.3.2), and Hand & Till's pairwise matrix and ``M`` (:func:`pairwise_auc_matrix`,
    :func:`hand_till_m`). The inputs are checked once.

    Parameters
    ----------
    labels : array-like, shape (n,)
        True class of each row: any hashable values (strings, integers, ...).
    scores : array-like of float, shape (n, C)
        One column per class, in the order of ``classes``. Must be finite.
    classes : sequence, length C, optional
        The class of each score column. Default: the sorted distinct labels.
    weights : array-like of float, shape (n,), optional
        Non-negative instance weights (counts): integer weights equal repeated rows, and the
        prevalences ``p(c)`` are weighted shares.

    Returns
    -------
    MulticlassAnalysis

    Raises
    ------
    ValueError
        If a label is not among ``classes``; if a class has no rows (or zero total weight:
        its curve and pairwise AUCs are undefined); if the score matrix is not ``(n, C)``;
        if a score is NaN or infinite (the first row and column are named); if fewer than
        two classes are given or a class is repeated; on malformed weights.

    References
    ----------
    T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", 2004, 7.3.
    D. J. Hand, R. J. Till, Machine Learning 45:171-186, 2001.
    """
    codes, s, cls, w, n_per_class = _check_multiclass_inputs(labels, scores, classes, weights)
    curves = tuple(roc_curve(codes == c, s[:, c], weights=w) for c in range(s.shape[1]))
    per_class = np.array([auc(c) for c in curves])
    prevalence = n_per_class / n_per_class.sum()
    pairwise = _pairwise_from_checked(codes, s, w, n_per_class)
    symmetric = _symmetric(pairwise)
    return MulticlassAnalysis(
        classes=cls,
        curves=curves,
        auc_per_class=per_class,
        n_per_class=n_per_class,
        prevalence=prevalence,
        weighted_auc=float(np.dot(prevalence, per_class)),
        macro_auc=float(per_class.mean()),
        pairwise=pairwise,
        pairwise_symmetric=symmetric,
        hand_till_m=_m_of(symmetric),
    )


_METHODS = ("hand_till", "weighted", "macro")


def multiclass_auc(labels, scores, *, classes=None, weights=None,
                   method: str = "hand_till") -> float:
    """One multi-class AUC (Fawcett 2004, section 7.3.2).

    Parameters
    ----------
    labels, scores, classes, weights
        As in :func:`multiclass_roc`.
    method : {"hand_till", "weighted", "macro"}
        ``"hand_till"``: Hand & Till's ``M`` (:func:`hand_till_m`), insensitive to the class
        distribution. ``"weighted"``: Provost & Domingos' prevalence-weighted mean of the class
        reference AUCs. ``"macro"``: their unweighted mean.

    Returns
    -------
    float
    """
    if method not in _METHODS:
        raise ValueError(f"method must be one of {', '.join(map(_show, _METHODS))}, "
                         f"got {method!r}")
    if method == "hand_till":
        return hand_till_m(labels, scores, classes=classes, weights=weights)
    result = multiclass_roc(labels, scores, classes=classes, weights=weights)
    return result.weighted_auc if method == "weighted" else result.macro_auc


def scores_from_table(table: pd.DataFrame, *, class_column: str = "class",
                      prefix: str = "score_"):
    """Labels, score matrix and classes of a long-format multi-class table.

    The table has a column ``class_column`` with the true class of each row and one column
    ``<prefix><c>`` per class ``c`` (the format of ``roc_dash/data/multiclass_demo.csv``, see
    the module docstring). The classes are the column suffixes, in column order; the labels
    are matched to them as text, so a class ``3`` read from a file as the number 3 still
    matches the column ``score_3``. Other columns (``id``, ``model``, ``fold``) are ignored:
    select the rows of one model first.

    Parameters
    ----------
    table : pandas.DataFrame
    class_column : str, default "class"
    prefix : str, default "score_"

    Returns
    -------
    labels : ndarray of object, shape (n,)
        The class of each row, as text.
    scores : ndarray of float64, shape (n, C)
    classes : ndarray of object, shape (C,)
        The class names (column suffixes), as text.

    Raises
    ------
    ValueError
        If ``class_column`` is missing or fewer than two score columns are found.
    """
    if class_column not in table.columns:
        raise ValueError(f"no column {class_column!r} with the true class of each row")
    score_columns = [c for c in table.columns if str(c).startswith(prefix) and str(c) != prefix]
    if len(score_columns) < 2:
        raise ValueError(
            f"need one score column per class named {prefix}<class>, found "
            f"{len(score_columns)}"
        )
    classes = np.array([str(c)[len(prefix):] for c in score_columns], dtype=object)
    labels = table[class_column].astype(str).to_numpy(dtype=object)
    scores = table[score_columns].to_numpy(dtype=np.float64)
    return labels, scores, classes
