"""Callbacks: thin glue between the layout, the dataset store, core and figures.

Each callback body is a plain function of its inputs (plus the store), so unit tests call it
directly; :func:`register_callbacks` only wires those functions to component ids. Moving the
iso-performance line while a slider is dragged, hover linking, the URL and the copy-link
button run in the browser (``assets/roc_dash.js``).
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import logging
import math
import threading
from collections import OrderedDict
from urllib.parse import parse_qs

import numpy as np
import pandas as pd
from dash import ALL, ClientsideFunction, Input, Output, State, ctx, dcc, no_update
from dash.exceptions import PreventUpdate

from ..core.analysis import Analysis, Conditions, analyse, prevalence, with_conditions
from ..core.operating import OperatingSummary, operating_point
from ..figures import cost_figure, pr_figure, roc_figure
from ..io import InputError, ReadOptions, load_predictions
from . import ids
from .components import dataset_list, model_table, model_table_rows, operating_panel
from .layout import PRIOR_MAX, PRIOR_MIN, cost_to_slider, slider_to_cost
from .store import DatasetInfo, DatasetNotFound, DatasetStore

log = logging.getLogger(__name__)

FONT = {False: 14, True: 20}


# -- data ---------------------------------------------------------------------------------
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


def apply_upload(store: DatasetStore, contents, filenames, dataset_ids, positive=None):
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
    options = ReadOptions(positive=(positive or "").strip() or None)
    try:
        sources = [(name, decode_upload(name, data))
                   for name, data in zip(filenames, contents, strict=True)]
        result = load_predictions(sources, options=options, existing_models=existing)
        info = store.put(result.table, files=filenames, notes=result.notes)
    except InputError as exc:
        return no_update, "", str(exc)
    except Exception:  # never a traceback in the UI; the log keeps it
        log.exception("upload of %s failed", filenames)
        return no_update, "", (f"{', '.join(filenames)}: could not be loaded because of an "
                               "internal error. Nothing was changed; the server log has details.")
    status = (f"Loaded {', '.join(info.files)}: {info.n_rows:,} rows, "
              f"model(s) {', '.join(info.models)}.")
    if info.notes:
        status += " " + " ".join(info.notes)
    return dataset_ids + [info.id], status, ""


def remove_dataset(dataset_ids, dataset_id):
    return [d for d in (dataset_ids or []) if d != dataset_id]


class AnalysisCache:
    """Per-process LRU of combined tables and analyses (keys: dataset ids, models, settings)."""

    def __init__(self, store: DatasetStore, size: int = 16):
        self.store = store
        self.size = size
        self._tables: OrderedDict = OrderedDict()
        self._analyses: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def _get(self, cache, key, make):
        with self._lock:
            if key in cache:
                cache.move_to_end(key)
                return cache[key]
        value = make()
        with self._lock:
            cache[key] = value
            while len(cache) > self.size:
                cache.popitem(last=False)
        return value

    def table(self, dataset_ids) -> pd.DataFrame | None:
        key = tuple(dataset_ids or ())

        def make():
            tables = []
            for dataset_id in key:
                try:
                    tables.append(self.store.get(dataset_id))
                except DatasetNotFound:
                    continue
            if not tables:
                return None
            return pd.concat(tables, ignore_index=True) if len(tables) > 1 else tables[0]

        return self._get(self._tables, key, make)

    def analysis(self, dataset_ids, models, conditions: Conditions) -> Analysis | None:
        """The analysis for these data, models and conditions.

        The expensive part (curves, intervals, averages, hulls) is cached per data, models
        and analysis settings; a change of costs or prior only re-selects the optimum.
        """
        settings = dataclasses.replace(conditions, cost_fp=1.0, cost_fn=1.0, prior_pos=None)
        key = (tuple(dataset_ids or ()), tuple(models), settings)

        def make():
            table = self.table(dataset_ids)
            if table is None:
                return None
            shown = table[table["model"].isin(list(models))]
            return analyse(shown, settings) if len(shown) else None

        base = self._get(self._analyses, key, make)
        return None if base is None else with_conditions(base, conditions)


def model_names(cache: AnalysisCache, dataset_ids) -> list[str]:
    table = cache.table(dataset_ids)
    return [] if table is None else [str(m) for m in pd.unique(table["model"])]


# -- controls -----------------------------------------------------------------------------
def _positive(value, default):
    try:
        v = float(value)
    except (TypeError, ValueError):
        return default
    return v if math.isfinite(v) and v > 0 else default


def _prior(value, default):
    v = _positive(value, None)
    return v if v is not None and v < 1 else default


def conditions_from_controls(cost_fp, cost_fn, prior, level, band, samples) -> Conditions:
    """Conditions from the controls' raw values; anything invalid falls back to a default."""
    n = int(samples) if samples and 5 <= int(samples) <= 1001 else 51
    return Conditions(cost_fp=_positive(cost_fp, 1.0), cost_fn=_positive(cost_fn, 1.0),
                      prior_pos=_prior(prior, 0.5), level=float(level or 0.95), n_samples=n,
                      band=band or "pointwise")


def parse_query(search: str | None) -> dict:
    """Settings encoded in the page's query string (see assets/roc_dash.js ``writeUrl``)."""
    q = {k: v[-1] for k, v in parse_qs((search or "").lstrip("?")).items()}
    out = {}
    if "cfp" in q:
        out["cost_fp"] = _positive(q["cfp"], None)
    if "cfn" in q:
        out["cost_fn"] = _positive(q["cfn"], None)
    if "prior" in q:
        out["prior"] = _prior(q["prior"], None)
    if q.get("avg") in ("none", "pooled", "vertical", "threshold"):
        out["averaging"] = q["avg"]
    if q.get("band") in ("pointwise", "simultaneous"):
        out["band"] = q["band"]
    if "level" in q and _prior(q["level"], None) in (0.8, 0.9, 0.95, 0.99):
        out["level"] = float(q["level"])
    if "n" in q and q["n"].isdigit() and 5 <= int(q["n"]) <= 1001:
        out["samples"] = int(q["n"])
    if "det" in q:
        out["det"] = ["det"] if q["det"] == "1" else []
    if "pres" in q:
        out["presentation"] = ["on"] if q["pres"] == "1" else []
    if "models" in q:
        out["models"] = [m for m in q["models"].split("|") if m]
    if "pin" in q and "|" in q["pin"]:
        model, _, thr = q["pin"].rpartition("|")
        t = None if thr in ("", "inf") else _finite(thr)
        out["pin"] = {"model": model, "threshold": t}
    return {k: v for k, v in out.items() if v is not None}


def _finite(text):
    try:
        v = float(text)
    except ValueError:
        return None
    return v if math.isfinite(v) else None


def sync_controls(trigger, values: dict, *, relayout=None, search=None, data_prior=None,
                  prior_mode="auto"):
    """Keep each slider and its exact-value input in step; apply a dragged iso line.

    ``values`` has the current ``cost_fp``, ``cost_fn``, ``prior`` (exact inputs) and the
    sliders ``fp_slider``, ``fn_slider``, ``prior_slider``. Returns the new
    ``(cost_fp, cost_fn, prior, prior_mode)``.
    """
    cfp = _positive(values.get("cost_fp"), 1.0)
    cfn = _positive(values.get("cost_fn"), 1.0)
    prior = _prior(values.get("prior"), 0.5)
    if trigger == ids.COST_FP_SLIDER:
        cfp = slider_to_cost(values["fp_slider"])
    elif trigger == ids.COST_FN_SLIDER:
        cfn = slider_to_cost(values["fn_slider"])
    elif trigger == ids.PRIOR_SLIDER:
        prior, prior_mode = float(values["prior_slider"]), "manual"
    elif trigger == ids.PRIOR:
        prior_mode = "manual"
    elif trigger == ids.PRIOR_RESET:
        prior_mode = "auto"
    elif trigger == ids.ROC_GRAPH:
        slope = dragged_slope(relayout)
        if slope is None:
            raise PreventUpdate
        # m = c(FP)(1 - p) / (c(FN) p): keep the prior and c(FN), move c(FP)
        cfp = float(f"{slope * prior / (1 - prior) * cfn:.4g}")
    elif trigger is None:  # first load: the link's settings
        restored = parse_query(search)
        cfp = restored.get("cost_fp", cfp)
        cfn = restored.get("cost_fn", cfn)
        if "prior" in restored:
            prior, prior_mode = restored["prior"], "manual"
    if prior_mode == "auto" and data_prior is not None:
        prior = float(f"{data_prior:.4g}")
    return cfp, cfn, prior, prior_mode


def dragged_slope(relayout) -> float | None:
    """Slope of the iso-performance line after the user dragged it (``shapes[0]``)."""
    if not relayout:
        return None
    keys = {k.split(".", 1)[1]: v for k, v in relayout.items() if k.startswith("shapes[0].")}
    if not {"x0", "x1", "y0", "y1"} <= set(keys):
        return None
    dx = keys["x1"] - keys["x0"]
    dy = keys["y1"] - keys["y0"]
    if dx == 0:
        return None
    slope = dy / dx
    return slope if math.isfinite(slope) and slope > 0 else None


# -- views --------------------------------------------------------------------------------
def resolve_operating(analysis: Analysis | None, pinned) -> OperatingSummary | None:
    """The pinned operating point if it is valid for the shown models, else the optimum."""
    return None if analysis is None else operating_point(analysis, pinned)


def viz_data(analysis: Analysis | None) -> dict | None:
    """What the browser needs to move the iso line and markers without the server."""
    if analysis is None:
        return None
    h = analysis.hull
    return {
        "models": [m.name for m in analysis.models],
        "hull": {"fpr": h.fpr.tolist(), "tpr": h.tpr.tolist()},
        "prior": analysis.conditions.prior_pos,
        "cost_fp": analysis.conditions.cost_fp,
        "cost_fn": analysis.conditions.cost_fn,
    }


def render_views(cache: AnalysisCache, dataset_ids, models, conditions: Conditions, *,
                 averaging="pooled", det=False, presentation=False, pinned=None):
    """All views for the current data, models and conditions."""
    analysis = cache.analysis(dataset_ids, models, conditions)
    font = FONT[bool(presentation)]
    if analysis is None:
        return (_empty_figure(font), _empty_figure(font), _empty_figure(font),
                operating_panel(None, None),
                model_table(None), None, "")
    op = resolve_operating(analysis, pinned)
    roc = roc_figure(analysis, averaging=averaging, det=det, operating=op, font_size=font)
    roc.update_layout(editrevision=f"{analysis.conditions.slope:.12g}")
    c = analysis.conditions
    slope_text = (f"Iso-performance slope m = c(FP)·p(−) / (c(FN)·p(+)) = {c.slope:.4g}; "
                  f"PC(+) = {c.pc_pos:.3f}")
    return (roc, pr_figure(analysis, operating=op, font_size=font),
            cost_figure(analysis, operating=op, font_size=font), operating_panel(op, analysis),
            model_table(analysis), viz_data(analysis), slope_text)


def _empty_figure(font):
    import plotly.graph_objects as go

    from ..figures.style import base_layout

    fig = go.Figure()
    base_layout(fig, x_title="", y_title="", font_size=font)
    fig.add_annotation(text="No model to show: load predictions or tick a model.",
                       x=0.5, y=0.5, showarrow=False, font={"size": 15})
    return fig


def pin_from_click(click, models) -> dict | None:
    """``{"model", "threshold"}`` of a clicked point, or None if it is no model's point.

    Points carry ``customdata = [model index, threshold, fpr, tpr]`` (threshold null for
    +inf); ``models`` are the names the indices refer to (the viz-data store).
    """
    try:
        data = click["points"][0]["customdata"]
        if isinstance(data, dict):  # a typed-array row serialised by the browser
            data = [data[str(i)] for i in range(len(data))]
        index = int(data[0])
    except (KeyError, IndexError, TypeError, ValueError):
        return None
    if not models or not 0 <= index < len(models):
        return None
    threshold = data[1] if len(data) > 1 else None
    if threshold is not None and not math.isfinite(threshold):
        threshold = None
    return {"model": str(models[index]), "threshold": threshold}


def curves_csv(analysis: Analysis) -> str:
    frames = [pd.DataFrame({"model": m.name, "fpr": m.curve.fpr, "tpr": m.curve.tpr,
                            "threshold": np.where(np.isinf(m.curve.thresholds), np.nan,
                                                  m.curve.thresholds)})
              for m in analysis.models]
    return pd.concat(frames, ignore_index=True).to_csv(index=False)


# -- wiring -------------------------------------------------------------------------------
def register_callbacks(app, store: DatasetStore) -> None:
    cache = AnalysisCache(store)
    app.analysis_cache = cache

    @app.callback(
        Output(ids.DATASETS, "data"),
        Output(ids.UPLOAD_STATUS, "children"),
        Output(ids.UPLOAD_ERROR, "children"),
        Input(ids.UPLOAD, "contents"),
        Input({"type": ids.REMOVE_DATASET, "index": ALL}, "n_clicks"),
        State(ids.UPLOAD, "filename"),
        State(ids.DATASETS, "data"),
        State(ids.POSITIVE_LABEL, "value"),
        prevent_initial_call=True,
    )
    def update_datasets(contents, _remove_clicks, filenames, dataset_ids, positive):
        trigger = ctx.triggered_id
        if isinstance(trigger, dict) and trigger.get("type") == ids.REMOVE_DATASET:
            if not any(t["value"] for t in ctx.triggered):  # button just rendered
                raise PreventUpdate
            return remove_dataset(dataset_ids, trigger["index"]), "", ""
        return apply_upload(store, contents, filenames, dataset_ids, positive)

    @app.callback(
        Output(ids.DATASET_LIST, "children"),
        Output(ids.MODELS, "options"),
        Output(ids.MODELS, "value"),
        Output(ids.PIN_MODEL, "options"),
        Input(ids.DATASETS, "data"),
        State(ids.MODELS, "value"),
        State(ids.MODELS, "options"),
        State(ids.URL, "search"),
    )
    def update_models(dataset_ids, selected, old_options, search):
        infos, missing = loaded_infos(store, dataset_ids)
        names = model_names(cache, [i.id for i in infos])
        old = {o["value"] for o in old_options or []}
        if ctx.triggered_id is None:  # first load: the link's model selection
            wanted = parse_query(search).get("models")
            value = [n for n in names if n in wanted] if wanted else names
        else:  # keep the user's choice; new models are shown
            value = [n for n in names if n in (selected or []) or n not in old]
        options = [{"label": n, "value": n} for n in names]
        return dataset_list(infos, missing), options, value, options

    @app.callback(
        Output(ids.COST_FP_SLIDER, "value"),
        Output(ids.COST_FP, "value"),
        Output(ids.COST_FN_SLIDER, "value"),
        Output(ids.COST_FN, "value"),
        Output(ids.PRIOR_SLIDER, "value"),
        Output(ids.PRIOR, "value"),
        Output(ids.PRIOR_MODE, "data"),
        Input(ids.COST_FP_SLIDER, "value"),
        Input(ids.COST_FP, "value"),
        Input(ids.COST_FN_SLIDER, "value"),
        Input(ids.COST_FN, "value"),
        Input(ids.PRIOR_SLIDER, "value"),
        Input(ids.PRIOR, "value"),
        Input(ids.PRIOR_RESET, "n_clicks"),
        Input(ids.ROC_GRAPH, "relayoutData"),
        Input(ids.DATASETS, "data"),
        State(ids.URL, "search"),
        State(ids.PRIOR_MODE, "data"),
    )
    def controls(fp_slider, cost_fp, fn_slider, cost_fn, prior_slider, prior, _reset, relayout,
                 dataset_ids, search, prior_mode):
        trigger = ctx.triggered_id
        if trigger == ids.ROC_GRAPH and dragged_slope(relayout) is None:
            raise PreventUpdate  # a zoom or pan, not the iso line
        table = cache.table(dataset_ids)
        data_prior = prevalence(table) if table is not None else None
        cfp, cfn, p, mode = sync_controls(
            trigger,
            {"cost_fp": cost_fp, "cost_fn": cost_fn, "prior": prior, "fp_slider": fp_slider,
             "fn_slider": fn_slider, "prior_slider": prior_slider},
            relayout=relayout, search=search, data_prior=data_prior, prior_mode=prior_mode)
        return (cost_to_slider(cfp), cfp, cost_to_slider(cfn), cfn,
                min(max(p, PRIOR_MIN), PRIOR_MAX), p, mode)

    @app.callback(
        Output(ids.AVERAGING, "value"),
        Output(ids.LEVEL, "value"),
        Output(ids.BAND, "value"),
        Output(ids.SAMPLES, "value"),
        Output(ids.DET, "value"),
        Output(ids.PRESENTATION, "value"),
        Input(ids.URL, "search"),
    )
    def restore_view(search):
        if ctx.triggered_id is not None and ctx.triggered_id != ids.URL:
            raise PreventUpdate
        q = parse_query(search)
        if not q:
            raise PreventUpdate
        return (q.get("averaging", no_update), q.get("level", no_update),
                q.get("band", no_update), q.get("samples", no_update),
                q.get("det", no_update), q.get("presentation", no_update))

    @app.callback(
        Output(ids.PINNED, "data"),
        Input(ids.ROC_GRAPH, "clickData"),
        Input(ids.PR_GRAPH, "clickData"),
        Input(ids.COST_GRAPH, "clickData"),
        Input(ids.UNPIN, "n_clicks"),
        Input(ids.PIN_BUTTON, "n_clicks"),
        State(ids.PIN_MODEL, "value"),
        State(ids.PIN_THRESHOLD, "value"),
        State(ids.URL, "search"),
        State(ids.VIZ_DATA, "data"),
    )
    def pin(roc_click, pr_click, cost_click, _unpin, _pin, pin_model, pin_threshold, search,
            viz):
        trigger = ctx.triggered_id
        if trigger is None:
            return parse_query(search).get("pin")
        if trigger == ids.UNPIN:
            return None
        if trigger == ids.PIN_BUTTON:
            if not pin_model or pin_threshold is None:
                raise PreventUpdate
            return {"model": pin_model, "threshold": float(pin_threshold)}
        click = {ids.ROC_GRAPH: roc_click, ids.PR_GRAPH: pr_click,
                 ids.COST_GRAPH: cost_click}[trigger]
        pinned = pin_from_click(click, (viz or {}).get("models"))
        if pinned is None:
            raise PreventUpdate
        return pinned

    @app.callback(
        Output(ids.ROC_GRAPH, "figure"),
        Output(ids.PR_GRAPH, "figure"),
        Output(ids.COST_GRAPH, "figure"),
        Output(ids.OPERATING, "children"),
        Output(ids.MODEL_TABLE, "children"),
        Output(ids.VIZ_DATA, "data"),
        Output(ids.SLOPE_TEXT, "children"),
        Input(ids.DATASETS, "data"),
        Input(ids.MODELS, "value"),
        Input(ids.COST_FP, "value"),
        Input(ids.COST_FN, "value"),
        Input(ids.PRIOR, "value"),
        Input(ids.AVERAGING, "value"),
        Input(ids.LEVEL, "value"),
        Input(ids.BAND, "value"),
        Input(ids.SAMPLES, "value"),
        Input(ids.DET, "value"),
        Input(ids.PRESENTATION, "value"),
        Input(ids.PINNED, "data"),
    )
    def views(dataset_ids, models, cost_fp, cost_fn, prior, averaging, level, band, samples,
              det, presentation, pinned):
        conditions = conditions_from_controls(cost_fp, cost_fn, prior, level, band, samples)
        return render_views(cache, dataset_ids, models or [], conditions,
                            averaging=averaging or "pooled", det=bool(det),
                            presentation=bool(presentation), pinned=pinned)

    @app.callback(
        Output(ids.DOWNLOAD, "data"),
        Input(ids.EXPORT_CURVES, "n_clicks"),
        Input(ids.EXPORT_TABLE, "n_clicks"),
        Input(ids.EXPORT_HTML, "n_clicks"),
        State(ids.DATASETS, "data"),
        State(ids.MODELS, "value"),
        State(ids.COST_FP, "value"),
        State(ids.COST_FN, "value"),
        State(ids.PRIOR, "value"),
        State(ids.LEVEL, "value"),
        State(ids.BAND, "value"),
        State(ids.SAMPLES, "value"),
        prevent_initial_call=True,
    )
    def export(_c, _t, _h, dataset_ids, models, cost_fp, cost_fn, prior, level, band, samples):
        conditions = conditions_from_controls(cost_fp, cost_fn, prior, level, band, samples)
        analysis = cache.analysis(dataset_ids, models or [], conditions)
        if analysis is None:
            raise PreventUpdate
        if ctx.triggered_id == ids.EXPORT_CURVES:
            return dcc.send_string(curves_csv(analysis), "roc-dash-curves.csv")
        if ctx.triggered_id == ids.EXPORT_TABLE:
            return dcc.send_string(pd.DataFrame(model_table_rows(analysis)).to_csv(index=False),
                                   "roc-dash-models.csv")
        from ..html_report import render_html

        return dcc.send_string(render_html(analysis), "roc-dash-report.html")

    # -- in the browser -------------------------------------------------------------------
    app.clientside_callback(
        ClientsideFunction("rocDash", "moveIsoLine"),
        Output(ids.ROC_GRAPH, "figure", allow_duplicate=True),
        Output(ids.COST_GRAPH, "figure", allow_duplicate=True),
        Input(ids.COST_FP_SLIDER, "drag_value"),
        Input(ids.COST_FN_SLIDER, "drag_value"),
        Input(ids.PRIOR_SLIDER, "drag_value"),
        State(ids.VIZ_DATA, "data"),
        State(ids.ROC_GRAPH, "figure"),
        prevent_initial_call=True,
    )
    app.clientside_callback(
        ClientsideFunction("rocDash", "linkHover"),
        Output(ids.ROC_GRAPH, "figure", allow_duplicate=True),
        Output(ids.PR_GRAPH, "figure", allow_duplicate=True),
        Output(ids.COST_GRAPH, "figure", allow_duplicate=True),
        Input(ids.ROC_GRAPH, "hoverData"),
        Input(ids.PR_GRAPH, "hoverData"),
        Input(ids.COST_GRAPH, "hoverData"),
        State(ids.VIZ_DATA, "data"),
        State(ids.DET, "value"),
        prevent_initial_call=True,
    )
    app.clientside_callback(
        ClientsideFunction("rocDash", "writeUrl"),
        Output(ids.URL_SYNC, "data"),
        Input(ids.COST_FP, "value"),
        Input(ids.COST_FN, "value"),
        Input(ids.PRIOR, "value"),
        Input(ids.PRIOR_MODE, "data"),
        Input(ids.AVERAGING, "value"),
        Input(ids.LEVEL, "value"),
        Input(ids.BAND, "value"),
        Input(ids.SAMPLES, "value"),
        Input(ids.DET, "value"),
        Input(ids.PRESENTATION, "value"),
        Input(ids.MODELS, "value"),
        Input(ids.MODELS, "options"),
        Input(ids.PINNED, "data"),
        prevent_initial_call=True,
    )
    app.clientside_callback(
        ClientsideFunction("rocDash", "copyLink"),
        Output(ids.COPY_LINK, "content"),
        Input(ids.COPY_LINK, "n_clicks"),
        prevent_initial_call=True,
    )
    app.clientside_callback(
        ClientsideFunction("rocDash", "presentation"),
        Output(ids.APP, "className"),
        Input(ids.PRESENTATION, "value"),
    )
