"""Several loaded datasets side by side, never blended.

A *dataset* is one upload (one drop of one or more files that together form one table): one
test set. A model is identified by (dataset, model name), so two datasets that both hold a
model called "logistic regression" must not be merged into one curve of both test sets. When
datasets are shown together, :func:`combine_datasets` keeps every row's dataset in a
``dataset`` column and tags every model with its dataset: ``"logistic regression
(preds.csv)"`` (a model named after its own file, ``preds`` of ``preds.csv``, already names
it and keeps its name unless another dataset uses it), so that no view shows a model whose
test set the reader has to guess.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from pandas.api.types import union_categoricals

from ..core.table_groups import codes_of
from .slice_columns import NUMERIC_ATTR

__all__ = ["Renamed", "combine_datasets", "distinct_model_names", "names_its_dataset"]


@dataclass(frozen=True)
class Renamed:
    """A model shown under another name because an earlier dataset uses its own name."""

    dataset: str
    original: str
    shown: str


def names_its_dataset(name: str, label: str) -> bool:
    """True when a model's name already says its dataset: the name of one of its files
    (``preds`` of ``preds.csv``, a file without a model column) or the label itself."""
    from .canonical import model_name_from_filename

    files = re.sub(r" #\d+$", "", label).split(", ")
    return name == label or name in {model_name_from_filename(f) for f in files}


def distinct_model_names(datasets: Sequence[tuple[str, Sequence[str]]], *,
                         tag_all: bool | None = None) -> list[dict[str, str]]:
    """For ``[(dataset label, model names), ...]`` in order, the shown name of every model.

    With ``tag_all`` (the default when there is more than one dataset) every model is shown
    as ``"name (dataset label)"``, except one whose name already names its dataset
    (:func:`names_its_dataset`); without it the first dataset keeps its names. A name that
    is still taken gets ``"name (dataset label)"`` (then ``"name (dataset label) 2"``, ...).
    """
    if tag_all is None:
        tag_all = len(datasets) > 1
    taken: set[str] = set()
    out = []
    for label, models in datasets:
        mapping = {}
        for name in models:
            shown = name
            if tag_all and not names_its_dataset(name, label):
                shown = f"{name} ({label})"
            if shown in taken:
                shown = f"{name} ({label})"
                k = 2
                while shown in taken:
                    shown = f"{name} ({label}) {k}"
                    k += 1
            mapping[name] = shown
            taken.add(shown)
        out.append(mapping)
    return out


def _dataset_column(labels: list[str], lengths: list[int]):
    """Each row's dataset label, as a categorical column: one small code per row (a text
    column of 10^7 copies of the label took ~0.8 s to build). Repeated labels (which
    callers avoid) give a text column."""
    if len(set(labels)) != len(labels):
        return np.repeat(np.array(labels, dtype=object), lengths)
    codes = np.repeat(np.arange(len(labels), dtype=np.int32), lengths)
    return pd.Categorical.from_codes(codes, categories=labels)


def _model_column(columns: Sequence[pd.Series], mappings: list[dict[str, str]]
                  ) -> pd.Categorical:
    """The model column of the combined table: each part's names renamed by its mapping, as
    one categorical column whose categories come in order of first appearance (one small
    code per row; renaming or concatenating text columns made a text object per row: 10
    datasets of 45,000 rows took ~60 MB while they were combined)."""
    pieces = []
    for column, mapping in zip(columns, mappings, strict=True):
        codes, values = codes_of(column)
        shown = [mapping.get(str(v), str(v)) for v in values]
        pieces.append(pd.Categorical.from_codes(codes, categories=shown))
    return union_categoricals(pieces) if len(pieces) > 1 else pieces[0]


def combine_datasets(tables: Sequence[tuple[str, pd.DataFrame]]
                     ) -> tuple[pd.DataFrame | None, list[Renamed]]:
    """One table of several canonical tables, each row tagged with its dataset.

    Parameters
    ----------
    tables : sequence of (label, table)
        Canonical tables (see :func:`roc_dash.io.load_predictions`) with a label naming the
        dataset (its file names). Labels should be distinct.

    Returns
    -------
    table : DataFrame or None
        The rows of all tables in order, with a ``dataset`` column (the label) and model
        names made distinct across datasets; None when ``tables`` is empty.
    renamed : list of Renamed
        The models shown under another name.
    """
    if not tables:
        return None, []
    names = distinct_model_names(
        [(label, [str(m) for m in pd.unique(t["model"])]) for label, t in tables])
    parts, renamed = [], []
    for (label, table), mapping in zip(tables, names, strict=True):
        changed = {k: v for k, v in mapping.items() if k != v}
        renamed.extend(Renamed(label, k, v) for k, v in changed.items())
        # copy-on-write: the stored table is never changed; the model column is put back
        # below, as one categorical column of all parts
        parts.append(table.drop(columns="model").copy(deep=False))
    combined = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
    combined.insert(list(tables[0][1].columns).index("model"), "model",
                    _model_column([t["model"] for _, t in tables], names))
    combined["dataset"] = _dataset_column([label for label, _ in tables],
                                          [len(p) for p in parts])
    positives = {}
    for (_, table), mapping in zip(tables, names, strict=True):
        for model, label in (table.attrs.get("positive_labels") or {}).items():
            positives[mapping.get(model, model)] = label
    combined.attrs = {**combined.attrs, "positive_labels": positives}
    numeric = tuple(dict.fromkeys(c for _, t in tables for c in t.attrs.get(NUMERIC_ATTR) or ()))
    if numeric:  # slices: the columns of numbers any table offers
        combined.attrs[NUMERIC_ATTR] = numeric
    grouped = {tuple(t.attrs.get("group_columns") or ()) for _, t in tables} - {()}
    if len(grouped) == 1:  # the group column's source, when all tables agree
        combined.attrs["group_columns"] = grouped.pop()
    return combined, renamed
