"""Exports: the curves and the model table as CSV, the HTML report of what the page shows, and
the decision record of the current operating point (:mod:`roc_dash.decision`). The HTML
report has the operating card's intervals at each model's optimum, and the partial-AUC
matrix when the Model comparison card shows it."""

from __future__ import annotations

import json
import time

import pandas as pd
from dash import Input, Output, State, ctx, dcc, html
from dash.exceptions import PreventUpdate

from ...core.assembly.analysis import Analysis, AnalysisTimeout
from ...core.economics import Economics
from ...core.operating import pinned_points
from ...decision import build_decision
from ...exports import cross_validation_table, csv_safe, curves_table, to_safe_csv
from .. import ids
from ..analysis import dataset_labels, loaded_infos, pauc_comparison
from ..components import model_table_rows
from ..help import HELP
from ..render import SHOWN_STATES, decision_views
from ..server.auth import current_owner
from ..state import (
    AVERAGING_MODES,
    ControlState,
    clean_pins,
    conditions_from_state,
    economics_from_state,
)

__all__ = ["buttons", "curves_csv", "table_csv", "decision_json", "register",
           "slices_for_report", "report_intervals", "REPORT_SECONDS"]

#: Server time the HTML export's bootstrap intervals may take (all shown models together).
REPORT_SECONDS = 10.0


def buttons():
    """The export buttons of the top bar."""
    return [html.Button("Curves CSV", id=ids.EXPORT_CURVES, n_clicks=0,
                        className="button light", title=HELP["curves_csv"]),
            html.Button("Table CSV", id=ids.EXPORT_TABLE, n_clicks=0,
                        className="button light", title=HELP["table_csv"]),
            html.Button("HTML report", id=ids.EXPORT_HTML, n_clicks=0,
                        className="button light", title=HELP["html_report"]),
            html.Button("Download decision", id=ids.EXPORT_DECISION, n_clicks=0,
                        className="button light", title=HELP["decision_json"])]


def curves_csv(analysis: Analysis) -> str:
    """The Curves CSV (:func:`roc_dash.exports.curves_table`): each model's pooled curve
    (``fold`` "pooled") and each of its folds' curves."""
    return to_safe_csv(curves_table(analysis))


def table_csv(analysis: Analysis) -> str:
    """The model table with the conditions it was computed under on every row, and each
    model's cross-validated AUC (mean, SD, LeDell interval, folds: issue 17)."""
    c = analysis.conditions
    frame = pd.DataFrame(model_table_rows(analysis))
    if len(frame):
        cv = cross_validation_table(analysis).drop(columns="model")
        frame = pd.concat([frame, cv.set_index(frame.index)], axis=1)
    frame = frame.assign(
        cost_fp=c.cost_fp, cost_fn=c.cost_fn, prior_pos=c.prior_pos, slope=c.slope,
        pc_pos=c.pc_pos)
    return csv_safe(frame).to_csv(index=False)


def decision_json(analysis: Analysis, table: pd.DataFrame, pins, economics: Economics,
                  note: str = "") -> str:
    """The decision record (JSON text) of the page's operating point: the latest pin (the
    last of ``pins``, as :func:`~roc_dash.app.state.clean_pins` keeps them), else the
    optimum, under the page's costs, benefits and prior."""
    pinned = pins[-1] if pins else None
    record = build_decision(
        analysis, table, economics=economics, note=note,
        pinned=None if pinned is None else {"model": pinned["model"],
                                            "threshold": pinned["threshold"]})
    return json.dumps(record.to_dict(), indent=2, allow_nan=False) + "\n"


# -- wiring ------------------------------------------------------------------------------
def register(app, cache, store) -> None:
    """The export callback (a file to the page's download component)."""

    @app.callback(
        Output(ids.DOWNLOAD, "data"),
        Input(ids.EXPORT_CURVES, "n_clicks"),
        Input(ids.EXPORT_TABLE, "n_clicks"),
        Input(ids.EXPORT_HTML, "n_clicks"),
        Input(ids.EXPORT_DECISION, "n_clicks"),
        *SHOWN_STATES,
        State(ids.AVERAGING, "value"),
        State(ids.PINNED, "data"),
        State(ids.URL, "href"),
        State(ids.CMP_MEASURE, "value"),
        State(ids.ZOOM, "data"),
        prevent_initial_call=True,
    )
    def export(_c, _t, _h, _d, dataset_ids, models, state, level, band, samples, averaging,
               pinned, href, measure=None, zoom=None):
        from urllib.parse import urlsplit, urlunsplit

        from ..components import plain_text

        conditions = conditions_from_state(state, level, band, samples)
        models = [m for m in models if isinstance(m, str)] if isinstance(models, list) else []
        reference = ControlState.from_store(state).reference_class
        try:
            analysis = (cache.analysis(dataset_ids, models, conditions, reference) if models
                        else None)
        except AnalysisTimeout:
            analysis = None  # the views already say so
        if analysis is None:
            raise PreventUpdate
        if ctx.triggered_id == ids.EXPORT_CURVES:
            return dcc.send_string(curves_csv(analysis), "roc-dash-curves.csv")
        if ctx.triggered_id == ids.EXPORT_TABLE:
            return dcc.send_string(table_csv(analysis), "roc-dash-models.csv")
        if ctx.triggered_id == ids.EXPORT_DECISION:
            shown = {m.name for m in analysis.models}
            pins = [p for p in clean_pins(pinned) if p["model"] in shown]
            text = decision_json(analysis, cache.table(dataset_ids, reference), pins,
                                 economics_from_state(state),
                                 store.notes(dataset_ids, owner=current_owner())["note"])
            return dcc.send_string(text, "roc-dash-decision.json")
        from ...html_report import ReportState, render_html

        infos, _ = loaded_infos(store, dataset_ids)
        pins = pinned_points(analysis, clean_pins(pinned))
        # the summary as the strip shows it: the recommendation (uncertainty, sensitivity
        # included), then the pins compared with it
        strip, _ = decision_views(analysis, pins, economics_from_state(state))
        headline = [k for k in strip if getattr(k, "className", "") != "summary-pins"] \
            if isinstance(strip, list) else strip
        compared = [k for k in strip if getattr(k, "className", "") == "summary-pins"] \
            if isinstance(strip, list) else []
        notes = store.notes(dataset_ids, owner=current_owner())
        link = href if isinstance(href, str) else None
        base = urlsplit(link) if link else None
        views = tuple(
            (str(v.get("name", "")), urlunsplit(base._replace(
                query=str(v.get("query") or "").lstrip("?"))) if base else
             str(v.get("query") or ""))
            for v in notes["views"] if isinstance(v, dict))
        report_state = ReportState(
            averaging=averaging if averaging in AVERAGING_MODES else "pooled",
            datasets=tuple(dataset_labels(infos)),
            operating=None,  # the recommendation; the pins are compared below it
            link=link, note=notes["note"], pins=tuple(pins), summary=plain_text(headline),
            pins_summary=plain_text(compared), views=views)
        table = cache.table(dataset_ids, reference)
        return dcc.send_string(render_html(
            analysis, state=report_state, slices=slices_for_report(table, models, conditions),
            intervals=report_intervals(analysis, table, economics_from_state(state)),
            partial_auc_comparison=pauc_comparison(cache, dataset_ids, analysis, state)
            if measure == "pauc" and len(analysis.models) > 1 else None,
            zoom=zoom if isinstance(zoom, dict) else None),
            "roc-dash-report.html")


def slices_for_report(table, models, conditions) -> dict | None:
    """The report's slices section for the shown models, when the data has groups."""
    from ...io.groups import GROUP_COLUMN, MISSING_GROUP
    from ...slices_report import slices_sections

    if table is None or GROUP_COLUMN not in table.columns:
        return None
    rows = table[table["model"].astype(str).isin(models)]
    rows = rows.assign(**{GROUP_COLUMN: rows[GROUP_COLUMN].fillna(MISSING_GROUP)})
    return slices_sections(rows, conditions,
                           group_columns=tuple(table.attrs.get("group_columns") or ()))


def report_intervals(analysis: Analysis, table, economics: Economics, *,
                     seconds: float = REPORT_SECONDS) -> dict | None:
    """The HTML report's "How sure is the chosen point?" section, as ``roc-dash report``
    makes it (:func:`~roc_dash.report.model_point_intervals`, each shown model's optimum)
    with the replicates and seed of the operating card's table (200, seed 0), so its
    numbers are the card's; within ``seconds`` (a late model gets fewer replicates and says
    so). ``None`` when the rows cannot be resampled (the rest of the report stands)."""
    from ...report import model_point_intervals

    if table is None or "label" not in table or "score" not in table:
        return None
    try:
        return model_point_intervals(analysis, table, economics, n_boot=200, seed=0,
                                     deadline=time.monotonic() + seconds)
    except ValueError:
        return None
