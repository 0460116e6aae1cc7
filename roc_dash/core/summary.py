"""Per-model analysis of a canonical predictions table.

The table has the columns produced by :mod:`roc_dash.io`: ``label`` (bool), ``score``
(float64), ``model`` (str), ``fold`` (str) and ``weight`` (float64). Every model's folds are
pooled here (Fawcett 2004, section 6: merging the test sets of the folds); averaging with
variance across folds is a separate computation.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .curves import RocCurve, auc, roc_curve

__all__ = ["ModelRoc", "summarise_models"]


@dataclass(frozen=True)
class ModelRoc:
    """One model's pooled ROC curve and the counts it came from."""

    name: str
    curve: RocCurve
    auc: float
    n_pos: float
    n_neg: float
    n_rows: int
    n_folds: int


def _weights_or_none(group: pd.DataFrame) -> np.ndarray | None:
    w = group["weight"].to_numpy(dtype=np.float64)
    return None if bool((w == 1.0).all()) else w


def summarise_models(table: pd.DataFrame) -> list[ModelRoc]:
    """Pooled ROC curve and AUC of every model in ``table``, in order of first appearance."""
    results = []
    for name, group in table.groupby("model", sort=False, observed=True):
        curve = roc_curve(
            group["label"].to_numpy(dtype=bool),
            group["score"].to_numpy(dtype=np.float64),
            weights=_weights_or_none(group),
        )
        results.append(
            ModelRoc(
                name=str(name),
                curve=curve,
                auc=auc(curve),
                n_pos=curve.n_pos,
                n_neg=curve.n_neg,
                n_rows=len(group),
                n_folds=int(group["fold"].nunique()),
            )
        )
    return results
