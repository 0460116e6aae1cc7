"""The Slices card's groups of one model: its rows cut into groups and each group's curves.

What the card shows depends on the costs, the prior, the priors per group and the
constraint only through :func:`~roc_dash.core.subgroups.slices.slice_optima` and
:func:`~roc_dash.core.subgroups.group_thresholds.group_thresholds`, which work on the groups' hulls.
Everything before them -- the model's rows, their groups (one column, or two crossed:
:func:`~roc_dash.io.slice_columns.slice_groups`, pooled to
:data:`~roc_dash.io.groups.MAX_GROUPS`) and each group's curve, hull and AUC interval
(:func:`~roc_dash.core.subgroups.slices.group_rocs`) -- depends on the data, the model, the columns
and the intervals' level only: :func:`model_slices` makes it once per these (``memo``, the
card's cache, shared by the workers as the views' analyses are), so that a change of costs,
prior or constraint re-selects the optima from the groups' hulls.

Making it is big work (:func:`~.server.budget.heavy_analysis`) by its size
(:func:`~.server.budget.slice_work`): the model's rows, times the groups for a crossed slice
(the product of the two columns' numbers of values, at most the rows).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..core.subgroups.slices import GroupRoc, group_rocs
from ..io.groups import CROSS, MISSING_GROUP
from ..io.slice_columns import SliceChoices, slice_groups, slice_width
from .server.budget import heavy_analysis, slice_work

__all__ = ["ModelSlices", "model_slices"]


@dataclass(frozen=True, eq=False)
class ModelSlices:
    """One model's groups and their curves (independent of costs, priors and constraint).

    Attributes
    ----------
    rocs : tuple of GroupRoc
        Each group's curve, hull, AUC interval and counts (:func:`group_rocs`).
    columns : tuple of str
        The columns the groups come from (two: crossed).
    notes : tuple of str
        What was done to the groups (pooled to at most
        :data:`~roc_dash.io.groups.MAX_GROUPS`).
    """

    rocs: tuple[GroupRoc, ...]
    columns: tuple[str, ...]
    notes: tuple[str, ...]

    @property
    def source(self) -> str:
        """The card's line on where the groups come from."""
        return (f"Groups from the column {CROSS.join(self.columns)} ({len(self.rocs)} "
                "groups)." + "".join(f" {n}" for n in self.notes))


def model_slices(table: pd.DataFrame, model: str, columns: Sequence[str],
                 choices: SliceChoices, level: float, *,
                 memo: Callable | None = None) -> ModelSlices | str:
    """``model``'s rows of ``table`` cut by ``columns`` (none: the group column; two:
    crossed) and each group's curves at interval level ``level``; a sentence instead when
    the model's rows have no value in those columns.

    ``memo(parts, make)`` caches ``make()`` under ``parts`` (the model, columns and level;
    the caller adds the data); none: made each time. Refusals of the columns raise
    :class:`~roc_dash.io.errors.InputError`; a worker whose big-work slot stays taken,
    :class:`~.server.budget.HeavyWaitTimeout` (nothing cached then)."""
    shown = tuple(columns) or (choices.default,)

    def make():
        mask = (table["model"].astype(str) == model).to_numpy()
        n = int(mask.sum())
        width = min(n, slice_width(table, columns, choices=choices)) if len(shown) > 1 else 1
        with heavy_analysis(slice_work(n, width)):
            rows = table[mask]
            groups, notes = slice_groups(rows, columns, choices=choices)
            if rows.empty or bool((groups == MISSING_GROUP).all()):
                return (f"The model {model} has no {CROSS.join(shown)} column in its file.")
            weights = rows["weight"].to_numpy(dtype=np.float64)
            rocs = group_rocs(rows["label"].to_numpy(dtype=bool),
                              rows["score"].to_numpy(dtype=np.float64), groups,
                              weights=None if bool((weights == 1.0).all()) else weights,
                              level=level)
        return ModelSlices(rocs=rocs, columns=shown, notes=notes)

    return make() if memo is None else memo(("slice-groups", model, float(level), shown),
                                            make)
