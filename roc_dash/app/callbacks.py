"""Callbacks: thin glue between the layout, the dataset store, core and figures.

Each callback body is a plain function of its inputs (plus the store), so unit tests call it
directly; :func:`register_callbacks` only wires those functions to component ids.
"""

from __future__ import annotations

import base64
import binascii
import logging

import pandas as pd
from dash import ALL, Input, Output, State, ctx, html, no_update

from ..core.summary import ModelRoc, summarise_models
from ..figures import roc_figure
from ..io import InputError, load_predictions
from . import ids
from .store import DatasetInfo, DatasetNotFound, DatasetStore

log = logging.getLogger(__name__)


# -- pure-ish logic -----------------------------------------------------------------------
def decode_upload(filename: str, contents: str) -> bytes:
    """Bytes of a ``dcc.Upload`` data URL."""
    try:
        _, encoded = contents.split(",", 1)
        return base64.b64decode(encoded, validate=False)
    except (ValueError, binascii.Error) as exc:
        raise InputError(f"{filename}: the upload arrived damaged; please try again.",
                         file=filename) from exc


def loaded_infos(store: DatasetStore, dataset_ids) -> tuple[list[DatasetInfo], list[str]]:
    """Descriptions of the datasets still on the server, and ids that are gone."""
    infos, missing = [], []
    for dataset_id in dataset_ids or []:
        try:
            infos.append(store.info(dataset_id))
        except DatasetNotFound:
            missing.append(dataset_id)
    return infos, missing


def apply_upload(store: DatasetStore, contents, filenames, dataset_ids):
    """Parse and store uploaded files; return ``(dataset_ids, status, error)``.

    All-or-nothing: on bad input the ids are returned unchanged and ``error`` says what was
    wrong, so every dataset already loaded stays as it was.
    """
    dataset_ids = list(dataset_ids or [])
    if not contents:
        return no_update, no_update, no_update
    if isinstance(contents, str):
        contents, filenames = [contents], [filenames]
    infos, _ = loaded_infos(store, dataset_ids)
    existing = [m for info in infos for m in info.models]
    try:
        sources = [(name, decode_upload(name, data))
                   for name, data in zip(filenames, contents, strict=True)]
        result = load_predictions(sources, existing_models=existing)
        info = store.put(result.table, files=filenames, notes=result.notes)
    except InputError as exc:
        return no_update, "", str(exc)
    except Exception:  # never a traceback in the UI; the log keeps it
        log.exception("upload of %s failed", filenames)
        return no_update, "", (f"{', '.join(filenames)}: could not be loaded because of an "
                               "internal error. Nothing was changed; the server log has details.")
    models = ", ".join(info.models)
    status = f"Loaded {', '.join(info.files)}: {info.n_rows:,} rows, model(s) {models}."
    if info.notes:
        status += " " + " ".join(info.notes)
    return dataset_ids + [info.id], status, ""


def remove_dataset(dataset_ids, dataset_id):
    return [d for d in (dataset_ids or []) if d != dataset_id]


def combined_table(store: DatasetStore, dataset_ids) -> pd.DataFrame | None:
    tables = []
    for dataset_id in dataset_ids or []:
        try:
            tables.append(store.get(dataset_id))
        except DatasetNotFound:
            continue
    if not tables:
        return None
    return pd.concat(tables, ignore_index=True) if len(tables) > 1 else tables[0]


def dataset_list(infos: list[DatasetInfo], missing: list[str]):
    items = []
    for info in infos:
        items.append(
            html.Li(
                className="dataset",
                children=[
                    html.Div([
                        html.Span(", ".join(info.files), className="dataset-files"),
                        html.Button("×", id={"type": ids.REMOVE_DATASET, "index": info.id},
                                    className="remove", title="Remove this dataset",
                                    n_clicks=0, **{"aria-label": f"Remove {', '.join(info.files)}"}),
                    ], className="dataset-head"),
                    html.Div(f"{info.n_rows:,} rows · {', '.join(info.models)}",
                             className="dataset-meta"),
                ],
            )
        )
    if missing:
        items.append(html.Li(f"{len(missing)} dataset(s) are no longer on the server "
                             "(expired or removed); upload them again.", className="warning"))
    if not items:
        return html.P("Nothing loaded. Drop a file above.", className="hint")
    return html.Ul(items)


def model_table(models: list[ModelRoc]):
    if not models:
        return html.P("No models.", className="hint")
    header = html.Tr([html.Th(h) for h in
                      ("Model", "Rows", "Positives", "Negatives", "Folds", "AUC")])
    rows = [
        html.Tr([
            html.Td(m.name),
            html.Td(f"{m.n_rows:,}", className="num"),
            html.Td(f"{m.n_pos:,.6g}", className="num"),
            html.Td(f"{m.n_neg:,.6g}", className="num"),
            html.Td(str(m.n_folds), className="num"),
            html.Td(f"{m.auc:.3f}", className="num auc"),
        ])
        for m in models
    ]
    return html.Table([html.Thead(header), html.Tbody(rows)], className="models")


def render_views(store: DatasetStore, dataset_ids):
    """Figure, loaded-data list and model table for the loaded datasets."""
    infos, missing = loaded_infos(store, dataset_ids)
    table = combined_table(store, [i.id for i in infos])
    models = summarise_models(table) if table is not None else []
    return roc_figure(models), dataset_list(infos, missing), model_table(models)


# -- wiring -------------------------------------------------------------------------------
def register_callbacks(app, store: DatasetStore) -> None:
    @app.callback(
        Output(ids.DATASETS, "data"),
        Output(ids.UPLOAD_STATUS, "children"),
        Output(ids.UPLOAD_ERROR, "children"),
        Input(ids.UPLOAD, "contents"),
        Input({"type": ids.REMOVE_DATASET, "index": ALL}, "n_clicks"),
        State(ids.UPLOAD, "filename"),
        State(ids.DATASETS, "data"),
        prevent_initial_call=True,
    )
    def update_datasets(contents, _remove_clicks, filenames, dataset_ids):
        trigger = ctx.triggered_id
        if isinstance(trigger, dict) and trigger.get("type") == ids.REMOVE_DATASET:
            if not any(t["value"] for t in ctx.triggered):  # button just rendered
                return no_update, no_update, no_update
            return remove_dataset(dataset_ids, trigger["index"]), "", ""
        return apply_upload(store, contents, filenames, dataset_ids)

    @app.callback(
        Output(ids.ROC_GRAPH, "figure"),
        Output(ids.DATASET_LIST, "children"),
        Output(ids.MODEL_TABLE, "children"),
        Input(ids.DATASETS, "data"),
    )
    def update_views(dataset_ids):
        return render_views(store, dataset_ids)
