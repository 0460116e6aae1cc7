"""Every (model, fold) needs weight on both classes: rows of both classes whose weights all
are 0 leave the ROC curve as undefined as rows of one class only (every rate divides by the
class's total weight; Fawcett 2004 §4 counts weighted instances)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from .errors import InputError, quote

__all__ = ["check_class_weights"]


def _zero_weight_class(table: pa.Table):
    """The first (model, fold, class) of ``table`` with rows but zero total weight (grouped
    by Arrow on the columns as read: no Python strings per row)."""
    if "weight" not in table.column_names or table.num_rows == 0:
        return None
    sums = (table.select(["model", "fold", "label", "weight"]).unify_dictionaries()
            .group_by(["model", "fold", "label"], use_threads=False)
            .aggregate([("weight", "sum")]))
    total = sums.column("weight_sum").to_numpy(zero_copy_only=False).astype(np.float64)
    bad = np.flatnonzero(~(total > 0))
    if bad.size == 0:
        return None
    k = int(bad[0])
    return (sums.column("model")[k].as_py(), sums.column("fold")[k].as_py(),
            bool(sums.column("label")[k].as_py()))


def check_class_weights(parts) -> None:
    """Refuse a part (binary, costs or aggregated counts) in which some model and fold has
    rows of a class whose weights sum to 0, naming the file, model, fold and class."""
    for part in parts:
        found = _zero_weight_class(part.table)
        if found is None:
            continue
        model, fold, positive = found
        kind = "positive" if positive else "negative"
        where = f"in fold {quote(fold)}" if part.has_fold else "in the whole file"
        raise InputError(
            f"{part.name}: model {quote(model)} has {kind} rows {where}, but their weights "
            f"add up to 0, so its ROC curve is undefined (every rate divides by the "
            f"{kind} class's total weight). Give some {kind} rows a weight above 0, or "
            "remove this model or fold.",
            file=part.name,
            column="weight",
        )
