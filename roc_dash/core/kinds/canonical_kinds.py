"""The canonical table of every input kind: binary, multi-class, soft labels, costs, leaves.

Every kind is stored in the binary canonical table (``label`` bool, ``score``, ``model``,
``fold``, ``weight``, optional ``id``) so that every binary view works unchanged; a kind adds
columns and metadata (see :class:`InputKind`) that say how to read it.

========== ==================================================================================
kind       canonical form
========== ==================================================================================
binary     as ever.
multiclass one row per instance; ``class`` (str, the true class) and one score column per
           class, ``score_<class>`` (:func:`class_score_column`), in the classes' order.
           ``label``/``score`` hold the class reference view (Fawcett 2004 section 7.3.1) of
           the *reference class* (the first class unless chosen): ``label = class == c``,
           ``score = score_<c>``. :func:`class_view` switches the reference class.
soft       Qin's soft labels (Qin 2005, eq. 8): an instance with P(positive) = p and weight
           w becomes a positive row of weight ``w·p`` (when p > 0) followed by a negative row
           of weight ``w·(1 − p)`` (when p < 1), both carrying ``label_prob = p``. Every
           weighted binary computation then counts p positives and 1 − p negatives; hard
           labels (p in {0, 1}) give exactly the binary table plus ``label_prob``.
           :func:`soft_instances` recovers ``(p, score, w)`` per instance for the interval.
costs      Fawcett 2004 section 7.2 (Algorithm 6): ``weight`` holds the example-specific
           cost (benefit of a positive, cost of a negative); ``weights_are_costs`` is set.
leaves     Flach et al. section 4: a leaf with (pos, neg) counts becomes a positive row of
           weight ``pos`` and a negative row of weight ``neg``, both scored by the leaf's
           positive proportion, with a ``leaf`` column: the weighted ROC curve of these rows
           is :func:`roc_dash.core.kinds.leaves.leaf_roc_curve`. :func:`leaf_table` recovers the
           leaf table.
========== ==================================================================================
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd

__all__ = [
    "KINDS", "BINARY", "MULTICLASS", "SOFT", "COSTS", "LEAVES",
    "CLASS_COLUMN", "CLASS_SCORE_PREFIX", "LABEL_PROB_COLUMN", "LEAF_COLUMN",
    "COST_AXIS_TITLES", "InputKind", "class_score_column", "classes_of", "class_view",
    "split_soft_rows", "is_soft", "soft_instances", "leaf_rows", "leaf_table",
]

BINARY, MULTICLASS, SOFT, COSTS, LEAVES = "binary", "multiclass", "soft", "costs", "leaves"
KINDS = (BINARY, MULTICLASS, SOFT, COSTS, LEAVES)

#: The true class of a multi-class row.
CLASS_COLUMN = "class"
#: Per-class score columns of a multi-class table: ``score_<class>``.
CLASS_SCORE_PREFIX = "score_"
#: P(positive) of the instance a soft-label row comes from.
LABEL_PROB_COLUMN = "label_prob"
#: The leaf of a leaves row.
LEAF_COLUMN = "leaf"

#: Axis titles of ROC space when weights are example-specific costs (Fawcett 2004 s7.2).
COST_AXIS_TITLES = {"x": "fraction of negative cost", "y": "fraction of positive benefit"}


@dataclass(frozen=True)
class InputKind:
    """What kind of input a canonical table holds (stored with a dataset, see
    ``roc_dash.app.server.store.DatasetInfo``).

    Attributes
    ----------
    kind : str
        One of :data:`KINDS`.
    classes : tuple of str
        Multi-class: the classes in score-column order (empty otherwise).
    reference_class : str or None
        Multi-class: the class whose class reference view fills ``label``/``score``.
    weights_are_costs : bool
        ``weight`` holds example-specific costs (axis titles :data:`COST_AXIS_TITLES`).
    source_column : str or None
        The file column that made the kind: the class column, the soft label column, the
        cost column, or the leaf column.
    """

    kind: str = BINARY
    classes: tuple[str, ...] = ()
    reference_class: str | None = None
    weights_are_costs: bool = False
    source_column: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {KINDS}, got {self.kind!r}")
        object.__setattr__(self, "classes", tuple(str(c) for c in self.classes))

    def to_dict(self) -> dict:
        out = asdict(self)
        out["classes"] = list(self.classes)
        return out

    @classmethod
    def from_dict(cls, raw: dict | None) -> InputKind:
        """From :meth:`to_dict` output; missing or unknown keys are ignored (old metadata
        gives the binary kind)."""
        raw = raw or {}
        known = {k: raw[k] for k in ("kind", "classes", "reference_class",
                                     "weights_are_costs", "source_column") if k in raw}
        if known.get("kind") not in KINDS:
            known.pop("kind", None)
        return cls(**known)


# ------------------------------------------------------------------------- multi-class


def class_score_column(cls: object) -> str:
    """The canonical column holding the scores for class ``cls``: ``score_<cls>``."""
    return f"{CLASS_SCORE_PREFIX}{cls}"


def classes_of(table: pd.DataFrame) -> list[str]:
    """The classes of a multi-class canonical table, in score-column order."""
    n = len(CLASS_SCORE_PREFIX)
    return [str(c)[n:] for c in table.columns
            if str(c).startswith(CLASS_SCORE_PREFIX) and len(str(c)) > n]


def class_view(table: pd.DataFrame, cls: object) -> pd.DataFrame:
    """The class reference view of class ``cls`` (Fawcett 2004 section 7.3.1): a copy of a
    multi-class table whose ``label`` is ``class == cls`` and ``score`` is ``score_<cls>``,
    so every binary view (ROC, PR, cost, operating point) shows ``cls`` against the rest.

    Raises ``ValueError`` for a class without a score column.
    """
    column = class_score_column(cls)
    if column not in table.columns or CLASS_COLUMN not in table.columns:
        raise ValueError(f"no class {cls!r} in this table; classes: {classes_of(table)}")
    out = table.copy()
    out["label"] = (table[CLASS_COLUMN].astype(str) == str(cls)).to_numpy(dtype=bool)
    out["score"] = table[column].to_numpy(dtype=np.float64)
    out.attrs = dict(table.attrs)
    out.attrs["reference_class"] = str(cls)
    return out


# ------------------------------------------------------------------------- soft labels


def split_soft_rows(frame: pd.DataFrame) -> pd.DataFrame:
    """Qin's soft labels as weighted binary rows (Qin 2005, eq. 8; see the module docstring).

    ``frame`` has the canonical columns with ``label_prob`` (p in [0, 1]) and ``weight`` (w,
    the instance weight); ``label`` is ignored. Each instance becomes a positive row of weight
    ``w·p`` (when ``p > 0``) followed by a negative row of weight ``w·(1 − p)`` (when
    ``p < 1``); rows keep their order and the index is 0..m-1.
    """
    p = frame[LABEL_PROB_COLUMN].to_numpy(dtype=np.float64)
    w = frame["weight"].to_numpy(dtype=np.float64)
    has_pos, has_neg = p > 0.0, p < 1.0
    reps = has_pos.astype(np.int64) + has_neg.astype(np.int64)
    take = np.repeat(np.arange(len(frame)), reps)
    first = np.ones(len(take), dtype=bool)
    if len(take) > 1:
        first[1:] = take[1:] != take[:-1]
    label = first & has_pos[take]
    pt, wt = p[take], w[take]
    weight = np.where(label, wt * pt, wt * (1.0 - pt))
    out = frame.iloc[take].reset_index(drop=True)
    out["label"] = label
    out["weight"] = weight
    return out


def is_soft(frame: pd.DataFrame) -> bool:
    """True when ``frame`` holds soft-label rows (a complete ``label_prob`` column)."""
    return (LABEL_PROB_COLUMN in frame.columns and len(frame) > 0
            and bool(frame[LABEL_PROB_COLUMN].notna().all()))


def soft_instances(frame: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """``(p, scores, weights)`` per instance of soft-label rows made by
    :func:`split_soft_rows` (weights None when all 1).

    Each instance has exactly one positive row (p > 0) or, when p = 0, one negative row;
    its weight is the row's weight divided by p (exact for hard labels).
    """
    p = frame[LABEL_PROB_COLUMN].to_numpy(dtype=np.float64)
    y = frame["label"].to_numpy(dtype=bool)
    weight = frame["weight"].to_numpy(dtype=np.float64)
    mask = y | (p == 0.0)
    pi = p[mask]
    with np.errstate(divide="ignore", invalid="ignore"):
        w = np.where(y[mask], weight[mask] / np.where(pi > 0, pi, 1.0), weight[mask])
    s = frame["score"].to_numpy(dtype=np.float64)[mask]
    return pi, s, (None if bool((w == 1.0).all()) else w)


# ------------------------------------------------------------------------- leaves


def leaf_rows(leaves: pd.DataFrame, model: str = "tree") -> pd.DataFrame:
    """Canonical rows of a leaf table (columns ``leaf``, ``pos``, ``neg``, as validated by
    :func:`roc_dash.core.kinds.leaves.leaves_from_table`): per leaf a positive row of weight
    ``pos`` and a negative row of weight ``neg`` scored ``pos / (pos + neg)`` (Flach et al.
    section 4: the tree as a probability estimation tree). Zero-count rows are kept so that
    :func:`leaf_table` sees every leaf."""
    pos = leaves["pos"].to_numpy(dtype=np.float64)
    neg = leaves["neg"].to_numpy(dtype=np.float64)
    rate = pos / (pos + neg)
    n = len(leaves)
    names = leaves["leaf"].astype(str).to_numpy(dtype=object)
    return pd.DataFrame({
        "label": np.tile([True, False], n),
        "score": np.repeat(rate, 2),
        "model": model,
        "fold": "all",
        "weight": np.column_stack((pos, neg)).ravel(),
        LEAF_COLUMN: np.repeat(names, 2),
    })


def leaf_table(frame: pd.DataFrame) -> pd.DataFrame:
    """The leaf table (``leaf``, ``pos``, ``neg``) of leaves rows (one model), leaves in
    order of first appearance."""
    leaf = frame[LEAF_COLUMN].astype(str)
    w = frame["weight"].to_numpy(dtype=np.float64)
    y = frame["label"].to_numpy(dtype=bool)
    parts = pd.DataFrame({"leaf": leaf.to_numpy(), "pos": np.where(y, w, 0.0),
                          "neg": np.where(y, 0.0, w)})
    return parts.groupby("leaf", sort=False).sum().reset_index()
