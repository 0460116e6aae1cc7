"""A multi-class model's rows prepared once for decisions under any cost matrix and prior
(:func:`~.cost_matrix.decide_on_rows`): checked, their labels coded in the classes' order,
the probabilities in row order, the stratified subset the class weights are fitted on
(beyond :data:`FIT_ROWS` rows), the plain argmax and whether the rows' scores sum to 1.
None of it depends on the cost matrix or the prior, so a page keeps it per data and model
and a new matrix or prior only decides again (:mod:`roc_dash.core.constraints.cost_matrix`
has the method and its references)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["FIT_ROWS", "ClassRows", "check_rows", "class_rows", "subset_rows"]

#: Rows the weights are fitted on at most (a stratified random subset beyond).
FIT_ROWS = 5_000


@dataclass(frozen=True, eq=False)
class ClassRows:
    """A model's rows for decisions among classes.

    Attributes
    ----------
    probabilities : ndarray, shape (n, k)
        One column per class, C-contiguous (row-wise decisions read a row at a time).
    codes : ndarray of int, shape (n,)
        Each row's true class, as its column index.
    classes : ndarray, shape (k,)
    weights : ndarray, shape (n,)
        Instance weights (ones when none were given).
    counts : ndarray, shape (k,)
        Weighted rows per class.
    subset : ndarray of int or None
        The stratified random :data:`FIT_ROWS` rows (seed 0) the class weights and the
        one-vs-rest thresholds are fitted on; None when there are no more rows than that.
    argmax : ndarray of int, shape (n,)
        The class of highest probability per row (ties to the lowest index).
    sums_to_one : bool
        Whether every fitting row's probabilities sum to 1 (within 1e-6).
    """

    probabilities: np.ndarray
    codes: np.ndarray
    classes: np.ndarray
    weights: np.ndarray
    counts: np.ndarray
    subset: np.ndarray | None
    argmax: np.ndarray
    sums_to_one: bool


def check_rows(probabilities, labels, classes, sample_weight):
    """``(P, codes, classes, w)``: the probability matrix, the label codes in ``classes``'
    order, the classes and the weights (ones when None)."""
    p = np.asarray(probabilities, dtype=np.float64)
    if p.ndim != 2 or p.shape[1] < 2:
        raise ValueError(f"probabilities must be a matrix with one column per class (two or "
                         f"more), got shape {p.shape}")
    n, k = p.shape
    if not np.isfinite(p).all() or (p < 0).any():
        raise ValueError("probabilities must be finite and non-negative")
    cls = pd.Index(classes if classes is not None else np.arange(k))
    if len(cls) != k or not cls.is_unique:
        raise ValueError(f"give {k} distinct classes, one per column of probabilities")
    lab = np.asarray(labels)
    if lab.ndim != 1 or lab.size != n:
        raise ValueError(f"labels ({lab.size}) and probabilities ({n} rows) differ in length")
    inverse, found = pd.factorize(lab)
    if (inverse < 0).any():
        raise ValueError(f"{int((inverse < 0).sum()):,} labels are missing (first at row "
                         f"{int(np.argmax(inverse < 0))}); every row needs its true class")
    where = pd.Index(cls.astype(str)).get_indexer(pd.Index(found).astype(str))
    if (where < 0).any():
        bad = [str(v) for v in found[where < 0][:5]]
        raise ValueError(f"labels {', '.join(map(repr, bad))} are not among the classes "
                         f"({', '.join(map(str, cls))})")
    codes = where[inverse]
    w = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    if w.shape != (n,) or not np.isfinite(w).all() or (w < 0).any():
        raise ValueError("sample weights must be finite, non-negative, one per row")
    return p, codes.astype(np.intp), cls.to_numpy(), w


def subset_rows(codes: np.ndarray, k: int, fit_rows: int = FIT_ROWS) -> np.ndarray:
    """A stratified random ``fit_rows`` rows (seed 0): each class's share of them its share
    of the rows (at least one), sorted."""
    key = np.random.default_rng(0).random(codes.size)  # each class's m rows of least key
    keep = []
    for j in range(k):
        rows = np.flatnonzero(codes == j)
        m = min(max(1, round(fit_rows * rows.size / codes.size)), rows.size)
        keep.append(rows[np.argpartition(key[rows], m - 1)[:m]])
    return np.sort(np.concatenate(keep))


def class_rows(probabilities, labels, *, classes=None, sample_weight=None,
               fit_rows: int = FIT_ROWS) -> ClassRows:
    """The rows prepared (see the module docstring; beyond ``fit_rows`` rows a subset of
    that many is drawn to fit on); ``ValueError`` naming what is wrong with them (a class
    without rows is left to the decision, after its cost matrix)."""
    p, codes, cls, w = check_rows(probabilities, labels, classes, sample_weight)
    p = np.ascontiguousarray(p)
    k = p.shape[1]
    subset = subset_rows(codes, k, fit_rows) if p.shape[0] > fit_rows else None
    fitting = p if subset is None else p[subset]
    return ClassRows(probabilities=p, codes=codes, classes=cls, weights=w,
                     counts=np.bincount(codes, weights=w, minlength=k), subset=subset,
                     argmax=np.argmax(p, axis=1),
                     sums_to_one=bool(np.allclose(fitting.sum(axis=1), 1.0, atol=1e-6)))
