"""Monitor a shipped decision after deployment: ``roc_dash.monitor(record, windows, ...)``.

The decision record (:mod:`roc_dash.decision`, written by ``roc-dash decide`` and the page)
is checked window by window (:mod:`roc_dash.core.monitoring`): with labels, what its
threshold did and whether its cost drifted; without them, each window's prior estimated from
its scores (EM, PACC, ACC) and the choice re-derived at it on the reference's hull; and
whether the scores moved beyond what the prior explains. ``roc-dash monitor``
(:mod:`roc_dash.cli.monitor`) is this on the command line; :class:`MonitorReport` gives the
JSON (:mod:`roc_dash.decision.monitor_report`), the criteria and their JUnit XML.

The reference predictions (``reference=``: the rows the decision was taken on) are what EM,
PACC, the hull and the score comparisons need; without them only the labelled windows'
metrics and drift test and ACC are computed.

Example
-------
>>> import roc_dash
>>> report = roc_dash.monitor("decision.json", ["2024-01.csv", "2024-02.csv"],
...                           reference="validation.csv")             # doctest: +SKIP
>>> report.status, report.exit_status                                  # doctest: +SKIP
('held', 0)
>>> report.to_dict()["windows"][0]["prevalence"]["em"]                 # doctest: +SKIP
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd

from ..core.decisions.data_fingerprint import data_fingerprint
from ..core.labels import label_key
from ..core.monitoring import (
    MonitorResult,
    MonitorSettings,
    Reference,
    WindowCounts,
    reference_from_counts,
    reference_from_curve,
)
from ..core.monitoring import monitor as monitor_windows
from ..core.roc.curves import roc_curve
from . import DecisionRecord, load, model_rows
from .gate import cost_reference_of

__all__ = ["MonitorReport", "MonitorInputError", "monitor", "reference_of", "read_window_files",
           "read_reference", "cost_reference_of"]


class MonitorInputError(ValueError):
    """The record, the windows or the reference cannot be monitored together; the message
    names the file, the column and what to do (exit status 2 on the command line)."""


@dataclass(frozen=True, eq=False)
class MonitorReport:
    """A run of the monitor on a decision record.

    Attributes
    ----------
    record : DecisionRecord
    result : MonitorResult
        The core's result (:mod:`roc_dash.core.monitoring.monitor`).
    notes : tuple of str
        How the inputs were read and what the reference is.
    reference_fingerprint : bool or None
        Whether the reference predictions are the ones the decision was taken on (None
        without them).
    """

    record: DecisionRecord
    result: MonitorResult
    notes: tuple[str, ...] = ()
    reference_fingerprint: bool | None = None

    @property
    def status(self) -> str:
        """``"held"`` or ``"drift"``."""
        return self.result.status

    @property
    def exit_status(self) -> int:
        """0 held, 1 drift (the command's exit status)."""
        return 1 if self.status == "drift" else 0

    def to_dict(self) -> dict:
        """The JSON document (:func:`roc_dash.decision.monitor_report.report_dict`)."""
        from .monitor_report import report_dict

        return report_dict(self)

    def criteria(self) -> list:
        """One :class:`roc_dash.decision.gate.Criterion` per window and criterion."""
        from .monitor_report import criteria

        return criteria(self)

    def junit_xml(self, *, timestamp: str | None = None) -> str:
        """The criteria as JUnit XML (one test case each)."""
        from .gate import junit_xml

        return junit_xml(self.criteria(), suite="roc-dash monitor", timestamp=timestamp)

    def summary_text(self) -> str:
        """One line per criterion and a last line (as ``roc-dash check`` prints)."""
        from .gate import summary_text

        return summary_text(self.criteria()).replace("roc-dash check:", "roc-dash monitor:")


# ----------------------------------------------------------------------------- reference
def reference_of(record: DecisionRecord, table: pd.DataFrame | None = None
                 ) -> tuple[Reference, bool | None]:
    """The core reference of a record and, optionally, the canonical table of its
    predictions (the record's model's rows are used); with whether they are the record's
    own predictions (their fingerprint)."""
    m = record.metrics
    counts = (m.tp, m.fp, m.fn, m.tn)
    kw = {"threshold": record.threshold, "prior_pos": record.prior_pos,
          "economics": record.economics, "model": record.model,
          "drift": cost_reference_of(record)}
    if table is None:
        return reference_from_counts(**kw, tp=m.tp, fp=m.fp, fn=m.fn, tn=m.tn), None
    try:
        y, s, w = model_rows(table, record.model)
        curve = roc_curve(y, s, weights=w)
    except ValueError as exc:
        raise MonitorInputError(f"the reference predictions: {exc}") from None
    same = None if "rows" in table.columns else data_fingerprint(y, s, w) == record.fingerprint
    return reference_from_curve(curve, counts=counts, **kw), same


def _frame_file(frame: pd.DataFrame, folder: str, name: str) -> str:
    path = os.path.join(folder, f"{name}.parquet")
    frame.to_parquet(path, index=False)
    return path


def read_reference(sources, record: DecisionRecord, *, options=None) -> pd.DataFrame:
    """The canonical table of the reference predictions (files, or a DataFrame), checked to
    hold the record's model with the record's positive label."""
    from ..io import InputError, ReadOptions, load_predictions
    from ..io.engine_sources import should_stream
    from ..io.engines import aggregate_predictions

    options = options or ReadOptions(positive=record.positive_label)
    with tempfile.TemporaryDirectory(prefix="roc-dash-monitor-") as folder:
        if isinstance(sources, pd.DataFrame):
            sources = [_frame_file(sources, folder, "reference")]
        paths = [str(sources)] if isinstance(sources, str | os.PathLike) else \
            [str(p) for p in sources]
        try:
            if should_stream(paths):
                result = aggregate_predictions(paths, options=options)
            else:
                result = load_predictions(paths, options=options)
        except InputError as exc:
            raise MonitorInputError(str(exc)) from None
    table = result.table
    models = [str(v) for v in pd.unique(table["model"])]
    if record.model not in models:
        if len(models) == 1:  # a file without a model column: its rows are the model's
            table = table.assign(model=record.model)
            table.attrs["positive_labels"] = {
                record.model: (result.table.attrs.get("positive_labels") or {}).get(models[0])}
        else:
            raise MonitorInputError(
                f"the reference predictions hold models {', '.join(map(repr, models))}, not "
                f"the decision's model {record.model!r}. Give the predictions the decision "
                "was taken on")
    _same_positive(record, (table.attrs.get("positive_labels") or {}).get(record.model),
                   "the reference predictions")
    return table


def _same_positive(record: DecisionRecord, positive, where: str) -> None:
    if record.positive_label is not None and positive is not None \
            and label_key(positive) != label_key(record.positive_label):
        raise MonitorInputError(
            f"{where} are read with label {str(positive)!r} as positive, the decision record "
            f"with {record.positive_label!r}. Give --positive {record.positive_label!r} (the "
            "record's), or the decision record taken with this positive label")


# ----------------------------------------------------------------------------- windows
def _window_sources(windows, folder: str) -> list[str]:
    if isinstance(windows, pd.DataFrame):
        return [_frame_file(windows, folder, "window")]
    if isinstance(windows, Mapping):
        return [_frame_file(f, folder, str(k)) if isinstance(f, pd.DataFrame) else str(f)
                for k, f in windows.items()]
    if isinstance(windows, str | os.PathLike):
        return [str(windows)]
    return [_frame_file(f, folder, f"window {k + 1}") if isinstance(f, pd.DataFrame)
            else str(f) for k, f in enumerate(windows)]


def _read_windows(windows, record: DecisionRecord, reading: dict):
    from ..io import InputError
    from ..io.windows import read_windows

    if isinstance(windows, list | tuple) and windows and all(
            isinstance(w, WindowCounts) for w in windows):
        return tuple(windows), ()
    with tempfile.TemporaryDirectory(prefix="roc-dash-monitor-") as folder:
        try:
            read = read_windows(_window_sources(windows, folder), model=record.model,
                                positive=reading.get("positive") or record.positive_label,
                                **{k: v for k, v in reading.items() if k != "positive"})
        except InputError as exc:
            raise MonitorInputError(str(exc)) from None
    _same_positive(record, read.positive, "the windows")
    return read.windows, read.notes


def read_window_files(record: DecisionRecord, windows, **reading):
    """``(windows, notes)``: the window files ``windows`` read for ``record`` as
    :func:`monitor` reads them (only the record's model's rows, its positive label; a label
    column optional); ``reading``: ``time``, ``every``, ``score``, ``label``,
    ``model_column``, ``weight``, ``positive``, ``drop_nonfinite``. Raises
    :class:`MonitorInputError` naming the file and what to do."""
    return _read_windows(windows, record, reading)


def _reference_notes(record: DecisionRecord, table, same: bool | None) -> list[str]:
    if table is None:
        return ["No reference predictions: give the predictions the decision was taken on "
                "(reference=, --reference) for EM, PACC, the re-derived choice and the score "
                "comparisons."]
    if same is None:
        return ["The reference predictions were counted by a query engine: whether they are "
                "the decision's own cannot be told from their fingerprint."]
    if same:
        return ["The reference predictions are the ones the decision was taken on (same "
                "fingerprint)."]
    return ["The reference predictions are not the ones the decision was taken on (another "
            "fingerprint): the hull and the calibration are theirs, the threshold's rates "
            "the record's."]


def monitor(record, windows, *, reference=None, time: str | None = None,
            every: str | None = None, score: str | None = None, label: str | None = None,
            model_column: str | None = None, weight: str | None = None,
            positive: str | None = None, drop_nonfinite: bool = False,
            settings: MonitorSettings | None = None, **setting_values) -> MonitorReport:
    """Monitor a decision record on windows of predictions.

    Parameters
    ----------
    record : DecisionRecord or path
        The decision (:func:`roc_dash.decision.load` reads a path).
    windows : paths, DataFrame, mapping or list
        Files (CSV, TSV, Parquet, globs, directories: one window each, or cut by ``time``),
        a DataFrame (cut by ``time``), a mapping of window names to DataFrames or files, or
        :class:`~roc_dash.core.monitoring.WindowCounts`. A label column is optional.
    reference : paths or DataFrame, optional
        The predictions the decision was taken on (labels and scores).
    time, every : str, optional
        The time column and its period (``day``, ``week``, ``month``, ``quarter``, ``year``;
        without it each distinct value is a window).
    score, label, model_column, weight, positive, drop_nonfinite
        How the files are read (default: columns found by their usual names, the record's
        positive label).
    settings : MonitorSettings, optional
        Or its fields by keyword (``level``, ``alpha``, ``replicates``, ``seed``,
        ``estimator``, ``psi_min``, ``fail_on_shift``).

    Raises
    ------
    MonitorInputError
        A record that cannot be read, windows or reference of another model or positive
        label, windows without a score column, a labelled window of one class, ... (the
        message says what and what to do).
    """
    from . import DecisionFileError

    if not isinstance(record, DecisionRecord):
        try:
            record = load(record)
        except DecisionFileError as exc:
            raise MonitorInputError(str(exc)) from None
    try:
        s = settings or MonitorSettings(**setting_values)
    except (TypeError, ValueError) as exc:
        raise MonitorInputError(f"settings: {exc}") from None
    reading = {"time": time, "every": every, "score": score, "label": label,
               "model_column": model_column, "weight": weight, "positive": positive,
               "drop_nonfinite": drop_nonfinite}
    table = None
    if reference is not None:
        from ..io import ReadOptions

        table = read_reference(reference, record, options=ReadOptions(
            label=label, score=score, model=model_column, weight=weight,
            positive=positive or record.positive_label, drop_nonfinite=drop_nonfinite))
    items, notes = _read_windows(windows, record, reading)
    ref, same = reference_of(record, table)
    try:
        result = monitor_windows(ref, items, s)
    except ValueError as exc:
        raise MonitorInputError(str(exc)) from None
    return MonitorReport(record=record, result=result,
                         notes=(*notes, *_reference_notes(record, table, same)),
                         reference_fingerprint=same)

