"""ROC analysis of a decision tree's leaves: the labelings of the leaves and their hull.

Implements Flach, Blockeel, Ferri, Hernandez-Orallo and Struyf, "Decision support for data
mining: an introduction to ROC analysis and its applications", section 4,
after Blockeel & Struyf (2002) and Ferri, Flach &
Hernandez-Orallo (2002), and Fawcett (2004) Appendix A, Algorithm 7:

* a tree with ``n`` leaves is a set of ``2**n`` classifiers, one per labeling of its leaves
  (each leaf predicts positive or negative); the points are mirrored through (0.5, 0.5),
  since every labeling has an opposite one;
* the convex hull of all ``2**n`` consists of ``n + 1`` labelings ``S_0 .. S_n``: order the
  leaves by their proportion of positives, descending, and label the first ``i`` positive;
* those are exactly the vertices of the ROC curve of the tree used as a scoring classifier,
  each instance scored by its leaf's proportion of positives (so the leaf counts are just
  weights for :func:`~roc_dash.core.roc.curves.roc_curve`).

A leaf table has one row per leaf and the columns ``leaf`` (a name), ``pos`` and ``neg``
(the (weighted) numbers of positive and negative instances reaching it);
:func:`leaves_from_rows` aggregates per-row leaf assignments and labels into one.

References
----------
P. Flach, H. Blockeel, C. Ferri, J. Hernández-Orallo, J. Struyf, "Decision support for data
mining: an introduction to ROC analysis and its applications", chapter 7 of D. Mladenić, N.
Lavrač, M. Bohanec, S. Moyle (eds.), "Data Mining and Decision Support: Integration and
Collaboration", Kluwer Academic Publishers, 2003, section 4.

T. Fawcett, "ROC Graphs: Notes and Practical Considerations for Researchers", HP Laboratories
technical report HPL-2003-4, Palo Alto, CA, 2004, appendix A, Algorithm 7.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._results import length_of
from .._validation import check_weights
from ..labels import binary_labels
from ..roc.curves import RocCurve, roc_curve

__all__ = [
    "LEAF_COLUMNS", "MAX_LABELING_LEAVES", "LeafLabelings", "AllLabelings", "TreePoints",
    "leaves_from_table", "leaves_from_rows", "optimal_labelings", "all_labelings", "leaf_roc_curve",
    "leaf_scores", "tree_roc_points",
]

#: The columns of a leaf table.
LEAF_COLUMNS = ("leaf", "pos", "neg")

#: :func:`all_labelings` refuses trees with more leaves (2**16 = 65,536 labelings).
MAX_LABELING_LEAVES = 16

#: Leaves listed in a message at most.
_MAX_LISTED = 8


def _listed(names, *, quote: bool = True) -> str:
    names = [str(v) for v in names]
    more = f" and {len(names) - _MAX_LISTED} more" if len(names) > _MAX_LISTED else ""
    return ", ".join(repr(v) if quote else v for v in names[:_MAX_LISTED]) + more


def leaves_from_table(frame) -> pd.DataFrame:
    """Validate a leaf table and return it in canonical form.

    Parameters
    ----------
    frame : pandas.DataFrame or mapping of columns
        One row per leaf with the columns ``leaf``, ``pos`` and ``neg`` (names matched
        ignoring case and surrounding spaces; other columns are ignored). ``pos`` and
        ``neg`` are the (weighted) numbers of positive and negative instances in the leaf,
        as in Flach et al. section 4 (figure 7-4's table) or a C4.5 printout.

    Returns
    -------
    pandas.DataFrame
        Columns ``leaf`` (as text), ``pos``, ``neg`` (float64), in the input's order, with a
        fresh 0-based index.

    Raises
    ------
    ValueError
        Naming a missing column; the leaves whose counts are not numbers, negative or not
        finite; the leaves with no instances (their proportion of positives is undefined);
        duplicate leaf names; an empty table; or a table without positives or without
        negatives (the ROC curve is undefined).
    """
    df = frame if isinstance(frame, pd.DataFrame) else pd.DataFrame(frame)
    by_key = {}
    for col in df.columns:
        by_key.setdefault(str(col).strip().casefold(), col)
    missing = [c for c in LEAF_COLUMNS if c not in by_key]
    if missing:
        found = ", ".join(repr(str(c)) for c in df.columns) or "none"
        raise ValueError(f"leaf table is missing column(s) {', '.join(map(repr, missing))} "
                         f"(needs {', '.join(LEAF_COLUMNS)}; found {found})")
    if len(df) == 0:
        raise ValueError("leaf table has no rows: a tree has at least one leaf")
    leaf = df[by_key["leaf"]].astype(str).str.strip().to_numpy(dtype=object)
    counts = {}
    for col in ("pos", "neg"):
        raw = df[by_key[col]]
        values = pd.to_numeric(raw, errors="coerce").to_numpy(dtype=np.float64)
        with np.errstate(invalid="ignore"):
            bad = ~np.isfinite(values) | (values < 0)
        if bad.any():
            examples = [f"{name!r} ({v!r})" for name, v in zip(leaf[bad], raw[bad].tolist(),
                                                            strict=True)]
            raise ValueError(f"column '{col}' must hold non-negative finite counts; "
                             f"{int(bad.sum())} leaf/leaves offend: {_listed(examples, quote=False)}")
        counts[col] = values
    empty = (counts["pos"] + counts["neg"]) == 0
    if empty.any():
        raise ValueError("leaves with no instances (pos = neg = 0) have no proportion of "
                         f"positives; drop them: {_listed(leaf[empty])}")
    names, seen = pd.Series(leaf), pd.Series(leaf).duplicated(keep=False)
    if seen.any():
        raise ValueError(f"leaf names must be unique; repeated: {_listed(names[seen].unique())}")
    for col, what in (("pos", "positive"), ("neg", "negative")):
        if counts[col].sum() <= 0:
            raise ValueError(f"no {what} instances in any leaf ('{col}' sums to 0): "
                             "the ROC curve is undefined")
    return pd.DataFrame({"leaf": leaf, "pos": counts["pos"], "neg": counts["neg"]})


def leaves_from_rows(leaf, labels, *, weights=None, pos_label=None) -> pd.DataFrame:
    """Aggregate per-row leaf assignments and true labels into a leaf table.

    The leaf counts of Flach et al. section 4 (and the ``matched``/``errors`` of Fawcett 2004
    Algorithm 7) computed from the rows a tree sorted into its leaves.

    Parameters
    ----------
    leaf : array-like, shape (n,)
        The leaf each instance reaches (any hashable ids; reported as text).
    labels : array-like, shape (n,)
        True class, decoded by :func:`~roc_dash.core.labels.binary_labels`.
    weights : array-like of float, shape (n,), optional
        Non-negative instance weights (counts or example-specific costs).
    pos_label : scalar, optional
        The positive label value, when the labels are not a known encoding.

    Returns
    -------
    pandas.DataFrame
        The validated leaf table (see :func:`leaves_from_table`), one row per distinct leaf
        in order of first appearance.
    """
    ids = np.asarray(leaf)
    y = binary_labels(np.asarray(labels), pos_label=pos_label)
    if ids.ndim != 1 or ids.shape != y.shape:
        raise ValueError(f"leaf ({ids.size}) and labels ({y.size}) must be one-dimensional "
                         "and of equal length")
    w = np.ones(y.size) if weights is None else check_weights(weights, y.size, "labels")
    codes, uniques = pd.factorize(ids, sort=False)
    if (codes < 0).any():
        raise ValueError("leaf assignments must not be missing (NaN/None)")
    k = uniques.size
    pos = np.bincount(codes, weights=np.where(y, w, 0.0), minlength=k)
    neg = np.bincount(codes, weights=np.where(y, 0.0, w), minlength=k)
    return leaves_from_table(pd.DataFrame({"leaf": np.asarray(uniques).astype(str),
                                           "pos": pos, "neg": neg}))


@dataclass(frozen=True, eq=False)
class LeafLabelings:
    """The ``n + 1`` hull-optimal labelings ``S_0 .. S_n`` of a tree's leaves.

    Flach et al. section 4: the leaves ordered by proportion of positives, descending;
    ``S_i`` labels the first ``i`` of them positive and the rest negative. The object is
    ROC-curve-like (``fpr``, ``tpr``, ``thresholds``, ``n_pos``, ``n_neg``), so
    :func:`~roc_dash.core.roc.hull.convex_hull` accepts it.

    Attributes
    ----------
    leaf : ndarray of object, shape (n,)
        Leaf names in the sorted order (highest proportion of positives first).
    pos, neg : ndarray of float64, shape (n,)
        Their counts, in that order.
    positive_rate : ndarray of float64, shape (n,)
        ``pos / (pos + neg)`` of each leaf, non-increasing.
    order : ndarray of intp, shape (n,)
        Row of the input table of each sorted leaf.
    tp, fp : ndarray of float64, shape (n + 1,)
        (Weighted) true and false positives of ``S_0 .. S_n``: cumulative sums of ``pos``
        and ``neg`` from 0. Exact fractions are ``tp / n_pos`` and ``fp / n_neg``.
    fpr, tpr : ndarray of float64, shape (n + 1,)
        The ROC points of ``S_0 .. S_n``, from (0, 0) to (1, 1).
    thresholds : ndarray of float64, shape (n + 1,)
        ``S_i`` calls positive the leaves whose proportion of positives is at least
        ``thresholds[i]`` (``+inf`` for ``S_0``; ``positive_rate[i - 1]`` otherwise, up to
        ties between leaves of equal proportion).
    labeling : ndarray of bool, shape (n + 1, n)
        Row ``i`` is ``S_i``: True where the leaf (sorted order) is labeled positive.
    n_pos, n_neg : float
        Total (weighted) positives and negatives.
    """

    leaf: np.ndarray
    pos: np.ndarray
    neg: np.ndarray
    positive_rate: np.ndarray
    order: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    fpr: np.ndarray
    tpr: np.ndarray
    thresholds: np.ndarray
    labeling: np.ndarray
    n_pos: float
    n_neg: float

    __len__ = length_of("fpr")


@dataclass(frozen=True, eq=False)
class AllLabelings:
    """Every one of the ``2**n`` labelings of a tree's leaves and its ROC point (Flach et
    al. section 4, figure 7-4).

    Attributes
    ----------
    leaf : ndarray of object, shape (n,)
        Leaf names in the input table's order.
    labeling : ndarray of bool, shape (2**n, n)
        Row ``k`` labels leaf ``j`` positive iff bit ``j`` of ``k`` is set: row 0 is the
        all-negative tree, the last row the all-positive one, and rows ``k`` and
        ``2**n - 1 - k`` are opposite labelings (mirrored through (0.5, 0.5)).
    tp, fp : ndarray of float64, shape (2**n,)
        (Weighted) true and false positives of each labeling.
    fpr, tpr : ndarray of float64, shape (2**n,)
        Their ROC points.
    n_pos, n_neg : float
        Total (weighted) positives and negatives.
    """

    leaf: np.ndarray
    labeling: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    fpr: np.ndarray
    tpr: np.ndarray
    n_pos: float
    n_neg: float

    __len__ = length_of("fpr")


def _rates(leaves) -> tuple[pd.DataFrame, np.ndarray]:
    table = leaves_from_table(leaves)
    pos, neg = table["pos"].to_numpy(), table["neg"].to_numpy()
    return table, pos / (pos + neg)


def optimal_labelings(leaves) -> LeafLabelings:
    """The ``n + 1`` labelings of a tree's leaves on the ROC convex hull.

    Flach et al. section 4 (after Ferri, Flach & Hernandez-Orallo 2002): of the ``2**n``
    labelings of ``n`` leaves, the convex hull consists of ``S_0 .. S_n``, where the leaves
    are ordered by their proportion of positives (their "accuracy on the positives"),
    descending, and ``S_i`` labels the first ``i`` leaves positive. The paper's example,
    leaves (pos, neg) = (5, 1), (4, 2), (3, 5), gives (0, 0), (1/8, 5/12), (3/8, 3/4),
    (1, 1). Ordering by proportion is ordering by the likelihood ratio ``pos/neg`` of the
    leaf, the slope of its segment, so the chain is convex. Leaves of equal proportion keep
    their table order (their segments are collinear, so any order gives the same hull).

    Parameters
    ----------
    leaves : pandas.DataFrame or mapping of columns
        A leaf table (``leaf``, ``pos``, ``neg``; see :func:`leaves_from_table`).

    Returns
    -------
    LeafLabelings
    """
    table, rate = _rates(leaves)
    order = np.argsort(-rate, kind="stable")
    pos, neg = table["pos"].to_numpy()[order], table["neg"].to_numpy()[order]
    n = order.size
    tp, fp = np.zeros(n + 1), np.zeros(n + 1)
    np.cumsum(pos, out=tp[1:])
    np.cumsum(neg, out=fp[1:])
    n_pos, n_neg = float(tp[-1]), float(fp[-1])
    # rates as count / total (one rounding), exactly 1 at the end
    fpr, tpr = fp / n_neg, tp / n_pos
    fpr[-1] = tpr[-1] = 1.0
    labeling = np.arange(n)[None, :] < np.arange(n + 1)[:, None]
    return LeafLabelings(
        leaf=table["leaf"].to_numpy(dtype=object)[order], pos=pos, neg=neg,
        positive_rate=rate[order], order=order, tp=tp, fp=fp, fpr=fpr, tpr=tpr,
        thresholds=np.concatenate(([np.inf], rate[order])), labeling=labeling,
        n_pos=n_pos, n_neg=n_neg)


def all_labelings(leaves, *, max_leaves: int = MAX_LABELING_LEAVES) -> AllLabelings:
    """Every labeling of a tree's leaves and its ROC point (Flach et al. section 4, fig. 7-4).

    A tree with ``n`` leaves is ``2**n`` classifiers; all their points lie on or below the
    hull of the ``n + 1`` labelings of :func:`optimal_labelings`, and are symmetric through
    (0.5, 0.5). Vectorised: a ``2**n x n`` boolean matrix times the leaf counts.

    Parameters
    ----------
    leaves : pandas.DataFrame or mapping of columns
        A leaf table (see :func:`leaves_from_table`).
    max_leaves : int
        Refuse trees with more leaves (at most :data:`MAX_LABELING_LEAVES`, 16: 65,536
        labelings).

    Returns
    -------
    AllLabelings

    Raises
    ------
    ValueError
        If the tree has more than ``max_leaves`` leaves (``2**n`` grows too fast to list;
        the hull is :func:`optimal_labelings` whatever ``n``).
    """
    table = leaves_from_table(leaves)
    n = len(table)
    limit = min(int(max_leaves), MAX_LABELING_LEAVES)
    if n > limit:
        raise ValueError(f"a tree with {n} leaves has 2**{n} = {2 ** n:,} labelings; "
                         f"all_labelings lists them for at most {limit} leaves "
                         f"({2 ** limit:,} labelings). The {n + 1} labelings on the hull are "
                         "optimal_labelings(leaves), for any number of leaves.")
    codes = np.arange(2 ** n, dtype=np.int64)
    labeling = ((codes[:, None] >> np.arange(n)) & 1).astype(bool)
    pos, neg = table["pos"].to_numpy(), table["neg"].to_numpy()
    tp, fp = labeling @ pos, labeling @ neg
    n_pos, n_neg = float(pos.sum()), float(neg.sum())
    return AllLabelings(leaf=table["leaf"].to_numpy(dtype=object), labeling=labeling,
                        tp=tp, fp=fp, fpr=fp / n_neg, tpr=tp / n_pos, n_pos=n_pos, n_neg=n_neg)


def leaf_roc_curve(leaves) -> RocCurve:
    """ROC curve of the tree used as a scoring classifier: score = leaf's positive proportion.

    Flach et al. section 4 (Blockeel & Struyf 2002; Ferri et al. 2002); Fawcett (2004)
    Appendix A derives scores from a tree the same way.

    Every instance in a leaf gets the leaf's proportion of positives as its score (a
    probability estimation tree); the leaf counts are the weights of one positive and one
    negative row per leaf, so this is :func:`~roc_dash.core.roc.curves.roc_curve` on ``2n``
    weighted rows and equals the curve of the raw rows. Its vertices are exactly the hull
    labelings ``S_0 .. S_n`` of :func:`optimal_labelings` (leaves of equal proportion merge
    into one vertex, their ``S_i`` lying on the segment between).

    Parameters
    ----------
    leaves : pandas.DataFrame or mapping of columns
        A leaf table (see :func:`leaves_from_table`).

    Returns
    -------
    RocCurve
    """
    table, rate = _rates(leaves)
    n = rate.size
    labels = np.concatenate((np.ones(n, dtype=bool), np.zeros(n, dtype=bool)))
    weights = np.concatenate((table["pos"].to_numpy(), table["neg"].to_numpy()))
    return roc_curve(labels, np.concatenate((rate, rate)), weights=weights)


def leaf_scores(leaf, leaves) -> np.ndarray:
    """Score of each instance: the proportion of positives of the leaf it reaches.

    The tree as a scoring classifier (Flach et al. section 4; Fawcett 2004 Appendix A): the
    ROC curve of these scores is :func:`leaf_roc_curve`.

    Parameters
    ----------
    leaf : array-like, shape (m,)
        Leaf of each instance (compared as text with the table's ``leaf`` column).
    leaves : pandas.DataFrame or mapping of columns
        A leaf table (see :func:`leaves_from_table`).

    Returns
    -------
    ndarray of float64, shape (m,)

    Raises
    ------
    ValueError
        Naming leaves that are not in the table.
    """
    table, rate = _rates(leaves)
    ids = pd.Index(table["leaf"])
    keys = pd.Series(np.asarray(leaf)).astype(str).str.strip()
    pos = ids.get_indexer(keys)
    if (pos < 0).any():
        raise ValueError(f"leaves not in the table: {_listed(keys[pos < 0].unique())}")
    return rate[pos]


@dataclass(frozen=True, eq=False)
class TreePoints:
    """ROC points of Fawcett's Algorithm 7, sorted by FPR.

    Attributes
    ----------
    fpr, tpr : ndarray of float64
        (0, 0), one point per leaf, (1, 1), sorted increasing by FPR (then TPR).
    leaf : ndarray of object
        The leaf of each point ("" for the two trivial classifiers).
    leaf_positive : ndarray of bool
        Whether that leaf concludes the positive class (False for the trivial points).
    """

    fpr: np.ndarray
    tpr: np.ndarray
    leaf: np.ndarray
    leaf_positive: np.ndarray


def tree_roc_points(leaves, *, leaf_class=None) -> TreePoints:
    """ROC points of a decision tree's leaves, Fawcett (2004) Appendix A, Algorithm 7.

    Each leaf concludes a class (C4.5's ``class``, with ``matched`` instances of which
    ``errors`` are of the other class). A leaf concluding positive gives the point
    ``(neg / N, pos / P)`` -- the classifier "positive iff in this leaf"; a leaf concluding
    negative gives ``((N − neg) / N, (P − pos) / P)`` -- "positive unless in this leaf". The
    points, with (0, 0) and (1, 1), sorted by FPR, are the algorithm's output ``R``. All are
    labelings of the tree (:func:`all_labelings`), on or below the hull of
    :func:`optimal_labelings`.

    As printed, Algorithm 7 adds only each leaf's correct instances to the class totals
    (``count[node.class] += TP``), so a positive leaf's negatives never reach
    ``count[neg_class]`` and the rates can exceed 1. Here the totals are all positives and
    all negatives, which is what the normalisation in lines 4-11 needs.

    Parameters
    ----------
    leaves : pandas.DataFrame or mapping of columns
        A leaf table (see :func:`leaves_from_table`).
    leaf_class : array-like of bool, shape (n,), optional
        True where the leaf concludes the positive class, in table order. Default: the
        majority class of the leaf (positive when ``pos >= neg``).

    Returns
    -------
    TreePoints
    """
    table = leaves_from_table(leaves)
    pos, neg = table["pos"].to_numpy(), table["neg"].to_numpy()
    positive = pos >= neg if leaf_class is None else np.asarray(leaf_class, dtype=bool)
    if positive.shape != pos.shape:
        raise ValueError(f"leaf_class ({positive.size}) and leaves ({pos.size}) differ in length")
    n_pos, n_neg = pos.sum(), neg.sum()
    fp = np.where(positive, neg, n_neg - neg)
    tp = np.where(positive, pos, n_pos - pos)
    fpr = np.concatenate(([0.0], fp / n_neg, [1.0]))
    tpr = np.concatenate(([0.0], tp / n_pos, [1.0]))
    leaf = np.concatenate(([""], table["leaf"].to_numpy(dtype=object), [""])).astype(object)
    flag = np.concatenate(([False], positive, [False]))
    order = np.lexsort((tpr, fpr))
    return TreePoints(fpr=fpr[order], tpr=tpr[order], leaf=leaf[order], leaf_positive=flag[order])
