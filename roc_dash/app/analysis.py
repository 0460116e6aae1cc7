"""What the page analyses: the datasets loaded, their tables and the cached analyses.

Below every feature: which datasets are still on the server and how the page names them,
what kind of file each is, the class reference view of multi-class data, and
:class:`AnalysisCache` (combined tables per process, analyses shared by the workers through
:class:`~.server.cache.SharedCache`), bounded in models and in time.
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np
import pandas as pd

from ..core.analysis_types import Analysis, Conditions
from ..core.assembly.analysis import (
    AnalysisTimeout,
    analyse,
    partial_auc_comparison,
    prevalence,
    with_conditions,
)
from ..core.kinds.canonical_kinds import CLASS_COLUMN, class_score_column, class_view
from ..core.table_groups import codes_of
from ..io.side_by_side import combine_datasets, distinct_model_names
from .page_state import ModelRef, PageState, key_ref, model_key
from .server.budget import HeavyWaitTimeout, heavy_analysis, request_timeout
from .server.cache import SharedCache
from .server.store import DatasetInfo, DatasetNotFound, DatasetStore, clean_ids
from .state import ControlState, clean_class, conditions_from_state

__all__ = ["loaded_infos", "dataset_labels", "kind_status", "apply_reference",
           "MAX_SHOWN_MODELS", "shown_analysis", "MAX_COMPARED_MODELS", "ANALYSIS_SHARE", "request_timeout",
           "timeout_message", "AnalysisCache", "model_names", "model_refs", "shown_pins",
           "shown_combine", "legacy_names", "data_prior", "SHOWN_FIELDS", "shown_keys", "page_conditions",
           "pauc_comparison", "PAUC_BOOT"]


def loaded_infos(store: DatasetStore, dataset_ids) -> tuple[list[DatasetInfo], list[str]]:
    """Descriptions of the datasets still on the server, and ids that are gone."""
    infos, missing = [], []
    for dataset_id in clean_ids(dataset_ids):
        try:
            infos.append(store.info(dataset_id))
        except DatasetNotFound:
            missing.append(dataset_id)
    return infos, missing


def dataset_labels(infos: list[DatasetInfo]) -> list[str]:
    """Distinct names of the datasets for the page ("preds.csv", "preds.csv #2", ...)."""
    seen: dict[str, int] = {}
    out = []
    for info in infos:
        k = seen.get(info.label, 0) + 1
        seen[info.label] = k
        out.append(info.label if k == 1 else f"{info.label} #{k}")
    return out


def _listed(items, n: int = 6) -> str:
    items = [str(x) for x in items]
    return ", ".join(items[:n]) + (f" and {len(items) - n} more" if len(items) > n else "")


def kind_status(info: DatasetInfo) -> list[str]:
    """One sentence for the status line on what kind of file was read (none for binary)."""
    col = f" (column {info.kind_column!r})" if info.kind_column else ""
    if info.kind == "multiclass":
        return [f"Multi-class file: {len(info.classes)} classes ({_listed(info.classes)}); the "
                f"ROC, PR and cost views show {info.reference_class} against the rest: choose "
                "the positive class under the dataset list."]
    if info.kind == "soft":
        return [f"Soft labels{col}: each row counts p positives and 1 − p negatives "
                "(Qin's eq. 8); the model table names the interval shown."]
    if info.kind == "costs":
        return [f"Example-specific costs{col}: every view weighs the rows by their cost."]
    if info.kind == "leaves":
        return ["Decision-tree leaves: the ROC shows the labelings S0…Sn of the leaves and "
                "their hull; click one to pin it."]
    return []


def apply_reference(table: pd.DataFrame, reference) -> pd.DataFrame:
    """The class reference view of class ``reference`` when ``table`` is multi-class and has
    that class (:func:`roc_dash.core.kinds.canonical_kinds.class_view`); otherwise ``table`` unchanged."""
    reference = clean_class(reference)
    if (reference is None or CLASS_COLUMN not in table.columns
            or class_score_column(reference) not in table.columns):
        return table
    return class_view(table, reference)


#: At most this many models are analysed and drawn together (each view stays readable and
#: every request's work bounded); the model list says when more are loaded.
MAX_SHOWN_MODELS = 50


#: Paired DeLong tests only for up to this many shown models (pairs grow quadratically).
MAX_COMPARED_MODELS = 12


#: Share of ``ROC_DASH_TIMEOUT`` one request may spend analysing (the rest draws the figures).
ANALYSIS_SHARE = 0.8


def timeout_message(exc: AnalysisTimeout, n_models: int) -> str:
    limit = request_timeout()
    return (f"Analysing {n_models} model{'s' if n_models != 1 else ''} took longer than one "
            f"request may take on this server ({ANALYSIS_SHARE * limit:.0f} s of "
            f"ROC_DASH_TIMEOUT = {limit:g} s): {exc}. Tick fewer models, or ask the operator "
            "to raise ROC_DASH_TIMEOUT.")


class AnalysisCache:
    """Combined tables (per process) and analyses (shared by workers on disk), bounded in
    bytes (see :mod:`.cache`). Keys: dataset ids (an id's content never changes), models,
    analysis settings."""

    def __init__(self, store: DatasetStore, cache: SharedCache | None = None):
        self.store = store
        self.cache = cache or SharedCache(store.root)

    def table(self, dataset_ids, reference=None) -> pd.DataFrame | None:
        """The datasets' rows side by side (a ``dataset`` column; models never merged);
        multi-class datasets in the class reference view of class ``reference`` (see
        :func:`.apply_reference`)."""
        key = self.store.present(dataset_ids)
        reference = clean_class(reference)
        self.store.used(key)  # a cached table is a use of its datasets too

        def make():
            infos, _ = loaded_infos(self.store, key)
            tables = []
            for info, label in zip(infos, dataset_labels(infos), strict=True):
                try:
                    tables.append((label, apply_reference(self.store.get(info.id),
                                                                   reference)))
                except DatasetNotFound:
                    continue
            return combine_datasets(tables)[0]

        return self.cache.get_or_make(("table", key, reference), make, shared=False)

    def model_datasets(self, dataset_ids) -> dict[str, str]:
        """Each model of the datasets' combined table (in order of first appearance) and the
        label of its dataset; read once per process and data, not once per use (10^7 rows:
        a scan of the model column took ~0.2 s, a ``drop_duplicates`` ~1 s)."""
        key = self.store.present(dataset_ids)

        def make():
            table = self.table(dataset_ids)
            if table is None or not len(table):
                return {}
            codes, names = codes_of(table["model"])
            # codes are numbered in order of first appearance, so code k first appears
            # where their running maximum reaches k (a pass over the codes, not a hash of
            # them: ~0.05 instead of ~0.9 s for 10^7 rows)
            first = np.searchsorted(np.maximum.accumulate(codes), np.arange(len(names)))
            labels = (table["dataset"].iloc[first].tolist() if "dataset" in table.columns
                      else [""] * len(first))  # the first rows only: never the whole column
            return {str(m): str(d) for m, d in zip(names, labels, strict=True)}

        return self.cache.get_or_make(("models", key), make, shared=False)

    def analysis(self, dataset_ids, models, conditions: Conditions, reference=None
                 ) -> Analysis | None:
        """The analysis for these data, models and conditions.

        The expensive part (curves, intervals, averages, hulls) is cached per data, models
        and analysis settings; a change of costs or prior only re-selects the optimum.
        Raises :class:`AnalysisTimeout` when computing it takes longer than the request's
        share of ``ROC_DASH_TIMEOUT`` (nothing is cached then).
        """
        settings = dataclasses.replace(conditions, cost_fp=1.0, cost_fn=1.0, prior_pos=None,
                                       benefit_tp=0.0, benefit_tn=0.0)
        models = tuple(models)[:MAX_SHOWN_MODELS]
        reference = clean_class(reference)
        key = ("analysis", self.store.present(dataset_ids), models, settings, reference)
        self.store.used(key[1])  # a cached analysis is a use of its datasets too

        def make():
            table = self.table(dataset_ids, reference)
            if table is None:
                return None
            # every model shown (the usual case): no filtered copy of the rows
            shown = (table if set(self.model_datasets(dataset_ids)) <= set(models)
                     else table[table["model"].isin(list(models))])
            if not len(shown):
                return None
            deadline = started + ANALYSIS_SHARE * request_timeout()
            try:
                with heavy_analysis(len(shown), deadline):  # one big one per worker
                    result = analyse(shown, settings, max_compared=MAX_COMPARED_MODELS,
                                     deadline=deadline)
            except HeavyWaitTimeout as exc:
                raise AnalysisTimeout(str(exc)) from exc
            # the table was in use until now: held again from here (a table too big for the
            # memory cache is kept 10 s after its last use, and the views that follow read
            # it; a long analysis on a busy machine let it go, and they read 10^7 rows again)
            self.cache.memory.put(self.cache.key(("table", key[1], reference)), table)
            return result

        started = time.monotonic()

        base = self.cache.get_or_make(key, make)
        return None if base is None else with_conditions(base, conditions)


def model_names(cache: AnalysisCache, dataset_ids) -> list[str]:
    """The models of the datasets, in order of first appearance."""
    return list(cache.model_datasets(dataset_ids))


def _shown_names(infos: list[DatasetInfo], labels: list[str]) -> dict[str, str]:
    """``{key: shown name}`` of the models of ``infos`` (labelled ``labels``), as
    :func:`~roc_dash.io.side_by_side.combine_datasets` names them in the combined table."""
    mappings = distinct_model_names([(lab, [str(m) for m in i.models])
                                     for lab, i in zip(labels, infos, strict=True)])
    return {model_key(info.id, name): shown
            for info, mapping in zip(infos, mappings, strict=True)
            for name, shown in mapping.items()}


def model_refs(cache: AnalysisCache, dataset_ids) -> dict[str, str]:
    """Every model of the datasets loaded: its key (:class:`.page_state.ModelRef`, dataset id
    and name) and the name the views show it under (the label, which changes with the
    datasets loaded: "rf" alone, "rf (preds.csv)" beside another dataset), in the order of
    :func:`model_names`. From the datasets' descriptions: no table is read."""
    infos, _ = loaded_infos(cache.store, dataset_ids)
    return _shown_names(infos, dataset_labels(infos))


def shown_pins(pins, refs: dict[str, str]) -> list[dict]:
    """The pins (:class:`.page_state.Pin`) of models loaded, as the views take them
    (``{"model": shown name, "threshold", "label"}``), ``refs`` from :func:`model_refs`."""
    return [{"model": refs[p.model.key], "threshold": p.threshold, "label": p.label}
            for p in pins if p.model.key in refs]


def shown_combine(combine, refs: dict[str, str]):
    """The combining options (``ids.COMBINE``) with the repaired model's key replaced by
    its shown name (None when it is not loaded), as the overlays take them."""
    if not isinstance(combine, dict) or not combine.get("repair"):
        return combine
    return {**combine, "repair": refs.get(combine["repair"])}


def legacy_names(store: DatasetStore, dataset_ids) -> dict[str, ModelRef]:
    """What a link made before models were named by dataset means by a model's shown name:
    ``{shown name: ModelRef}`` for the link's datasets ``dataset_ids`` (the names the page
    gave them for those datasets; a dataset no longer stored has no models, and its label is
    the one the server remembers, so the others are named as they were)."""
    infos = []
    for dataset_id in clean_ids(dataset_ids):
        try:
            infos.append(store.info(dataset_id))
        except DatasetNotFound:
            note = store.gone(dataset_id) or {}
            infos.append(DatasetInfo(id=dataset_id, files=(str(note.get("label") or
                                                               dataset_id),), models=(),
                                     n_rows=0))
    return {shown: key_ref(key) for key, shown in
            _shown_names(infos, dataset_labels(infos)).items()}


#: The fields of the page's state the views' analysis depends on (:func:`shown_analysis`).
SHOWN_FIELDS = ("datasets", "models", "conditions", "level", "band", "samples")


def shown_keys(cache: AnalysisCache, page: PageState) -> list[str]:
    """The keys of the models the views show (at most :data:`MAX_SHOWN_MODELS`)."""
    return page.shown_keys(list(model_refs(cache, page.datasets)), MAX_SHOWN_MODELS)


def shown_analysis(cache: AnalysisCache, page: PageState):
    """The views' analysis of the shown models (same level, band and samples: the same cache
    entry as the views), for the cards that follow the views; None when no model is shown
    or the conditions are not resolved yet. Its models carry their shown names."""
    if page.conditions is None:
        return None
    refs = model_refs(cache, page.datasets)
    shown = [refs[k] for k in page.shown_keys(list(refs), MAX_SHOWN_MODELS)]
    return (cache.analysis(list(page.datasets), shown, page_conditions(page),
                           page.control.reference_class) if shown else None)


def page_conditions(page: PageState) -> Conditions:
    """The analysis' conditions of the page's state (costs, prior, level, band, samples)."""
    return conditions_from_state(page.control.to_store(), page.level, page.band, page.samples)


def data_prior(store: DatasetStore, dataset_ids, source, reference=None) -> float | None:
    """The exact prevalence of dataset ``source`` (else of the last dataset loaded); of class
    ``reference`` when the dataset is multi-class."""
    ids_ = [i for i in clean_ids(dataset_ids)]
    candidates = ([source] if source in ids_ else []) + ids_[::-1]
    for dataset_id in candidates:
        try:
            return prevalence(apply_reference(store.get(dataset_id), reference))
        except DatasetNotFound:
            continue
    return None


#: Replicates of the partial-AUC comparison's bootstrap (pROC's default) and its seed.
PAUC_BOOT = 2000
PAUC_SEED = 0


def pauc_comparison(cache: AnalysisCache, dataset_ids, analysis, state):
    """Every pair of the analysis' models compared on the McClish partial AUC over its
    ``FPR <= fpr_max`` by a paired stratified bootstrap
    (:func:`~roc_dash.core.assembly.analysis.partial_auc_comparison`, :data:`PAUC_BOOT`
    replicates, seed 0): the Model comparison card's second matrix and the page's HTML
    report's. Cached by data, class reference, models and limit; None when the models cannot
    be paired."""
    reference = ControlState.from_store(state).reference_class
    names = tuple(m.name for m in analysis.models)
    fpr_max = float(analysis.conditions.fpr_max)

    def make():
        table = cache.table(dataset_ids, reference)
        rows = table[table["model"].astype(str).isin(names)]
        return partial_auc_comparison(rows, fpr_max, n_boot=PAUC_BOOT, seed=PAUC_SEED)

    return cache.cache.get_or_make(("pauc_comparison", cache.store.present(dataset_ids),
                                    reference, names, fpr_max, PAUC_BOOT, PAUC_SEED), make)
