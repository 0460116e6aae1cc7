"""What the input kinds and the combining options add to the linked views (pure).

Below the features: the views (:mod:`.render`) draw these on the ROC and into the model
table, and the combining and kinds features read the same results for their cards.

* combining (Fawcett 2004, §7.4): :func:`active`, :func:`combine_results`,
  :func:`overlay_roc`: the combining card's settings handed to
  :func:`roc_dash.core.assembly.combining_overlays.combining_overlays`, which computes every
  overlay; :func:`roc_dash.figures.combining.add_overlays` draws them;
* input kinds: :func:`shown_kinds`, :func:`decorate_roc` (cost-fraction axes, leaf
  labelings), :func:`multiclass_results`, :func:`soft_results` and :func:`table_extras`
  (M, the weighted AUC and the soft-label interval in the model table).
"""

from __future__ import annotations

import pandas as pd
from dash import html

from ..core.analysis_types import Analysis
from ..core.assembly.combining_overlays import combining_overlays
from ..core.assembly.extensions import analyse_leaves, analyse_multiclass, analyse_soft
from ..figures.combining import add_overlays
from ..figures.kinds import add_labelings, cost_axis_titles
from ..figures.style import style_index
from ..text.rounding import sig
from .server.store import DatasetInfo

__all__ = ["active", "combining_options", "combine_results", "overlay_roc", "shown_kinds", "decorate_roc",
           "multiclass_results", "soft_results", "table_extras"]


def active(combine) -> bool:
    """True when an overlay is on (a cost change then redraws the ROC rather than patching
    it: the budget point and the AND/OR of the optimum move with the costs)."""
    return isinstance(combine, dict) and bool(
        combine.get("budget") is not None or combine.get("repair") or combine.get("logic"))


def combining_options(combine) -> dict:
    """The combining card's settings (its store's dict) as the keywords of
    :func:`~roc_dash.core.assembly.combining_overlays.combining_overlays`."""
    if not isinstance(combine, dict):
        return {}
    return {"budget": combine.get("budget"), "unit": combine.get("unit", "cases"),
            "repair": combine.get("repair"), "logic": bool(combine.get("logic"))}


def combine_results(analysis: Analysis, combine, pins, *, population=None, table=None):
    """``(budget, repair, logic)``: each a core result, an error message, or None (off);
    computed in core (:func:`~roc_dash.core.assembly.combining_overlays.combining_overlays`)."""
    return combining_overlays(analysis, **combining_options(combine), pins=pins,
                              population=population, table=table).as_tuple()


def overlay_roc(fig, analysis: Analysis, combine, *, pins, colors=None, population=None,
                table=None, font_size: int = 14, det: bool = False):
    """Add the chosen overlays to the ROC figure (ROC axes only; traces only): computed in
    core, drawn by :func:`~roc_dash.figures.combining.add_overlays`."""
    if det or not active(combine) or analysis is None:
        return fig
    overlays = combining_overlays(analysis, **combining_options(combine), pins=pins,
                                  population=population, table=table)
    return add_overlays(fig, overlays, [m.name for m in analysis.models], colors=colors,
                        font_size=font_size)


def shown_kinds(model_datasets: dict[str, str], infos: list[DatasetInfo], labels: list[str],
                models) -> dict[str, DatasetInfo]:
    """The dataset (its info) of each shown model, from each model's dataset label in the
    combined table (``AnalysisCache.model_datasets``; model names are distinct across
    datasets)."""
    if not model_datasets or not models:
        return {}
    by_label = dict(zip(labels, infos, strict=True))
    wanted = set(models)
    return {m: by_label[d] for m, d in model_datasets.items() if m in wanted and d in by_label}


def _rows(table: pd.DataFrame, models) -> pd.DataFrame:
    return table[table["model"].astype(str).isin(list(models))]


def decorate_roc(fig, analysis, table, kinds: dict[str, DatasetInfo], *, colors=None,
                 font_size=14, det=False):
    """Cost-fraction axis titles when every shown model's weights are costs, and the leaf
    labelings of every shown tree (ROC axes only)."""
    if analysis is None or det or not kinds:
        return fig
    names = [m.name for m in analysis.models]
    if all(kinds.get(n) is not None and kinds[n].weights_are_costs for n in names):
        cost_axis_titles(fig)
    trees = [n for n in names if kinds.get(n) is not None and kinds[n].kind == "leaves"]
    if trees and table is not None:
        for result in analyse_leaves(_rows(table, trees)):
            k = names.index(result.name)
            add_labelings(fig, result, model_index=k,
                          style=style_index(colors, result.name, k), font_size=font_size)
    return fig


def multiclass_results(cache, dataset_ids, models, kinds):
    """:func:`analyse_multiclass` of the shown models of multi-class datasets (cached)."""
    wanted = [m for m in models if kinds.get(m) is not None and kinds[m].kind == "multiclass"]
    if not wanted:
        return {}

    def make():
        table = cache.table(dataset_ids)
        out = {}
        for info in {kinds[m].id: kinds[m] for m in wanted}.values():
            mine = [m for m in wanted if kinds[m].id == info.id]
            for r in analyse_multiclass(_rows(table, mine), info.classes):
                out[r.name] = r
        return out

    return cache.cache.get_or_make(("multiclass", cache.store.present(dataset_ids),
                                    tuple(wanted)), make)


def soft_results(cache, dataset_ids, models, kinds, level):
    """:func:`analyse_soft` of the shown models of soft-label datasets (cached)."""
    wanted = [m for m in models if kinds.get(m) is not None and kinds[m].kind == "soft"]
    if not wanted:
        return {}

    def make():
        rows = _rows(cache.table(dataset_ids), wanted)
        return {r.name: r for r in analyse_soft(rows, level=level)}

    return cache.cache.get_or_make(("soft", cache.store.present(dataset_ids), tuple(wanted),
                                    level), make)


def table_extras(analysis, multiclass: dict, soft: dict) -> dict | None:
    """Extra columns of the model table: ``{"columns": [(header, help key)], "cells":
    {model: [text or component, ...]}}`` (None when no shown model is multi-class or soft).
    A soft-label model's cell names its interval, or says there is none (the reason in its
    tooltip)."""
    if analysis is None or not (multiclass or soft):
        return None
    columns, cells = [], {m.name: [] for m in analysis.models}
    if multiclass:
        columns += [("M (Hand & Till)", "hand_till"),
                    ("Weighted AUC (Provost–Domingos)", "weighted_auc")]
        for name in cells:
            r = multiclass.get(name)
            cells[name] += ([f"{sig(r.result.hand_till_m)}", f"{sig(r.result.weighted_auc)}"]
                            if r is not None else ["", ""])
    if soft:
        columns.append(("Labels", "soft"))
        for m in analysis.models:
            r = soft.get(m.name)
            if r is None:
                cells[m.name].append("")
            elif r.interval is None:
                cells[m.name].append(html.Span(["soft labels", html.Br(), "no interval"],
                                               title=r.reason, className="kind-cell"))
            else:
                method = ("DeLong (hard labels)" if r.interval.method == "delong"
                          else "soft DeLong (Qin)")
                cells[m.name].append(html.Span(["soft labels", html.Br(), f"CI: {method}"],
                                               className="kind-cell"))
    return {"columns": columns, "cells": cells}
