"""Exports: the curves and the model table as CSV, the HTML report of what the page shows, and
the decision record of the current operating point (:mod:`roc_dash.decision`). The HTML
report has the operating card's intervals at each model's optimum, and the partial-AUC
matrix when the Model comparison card's selector asks for it. Every export computes what it
holds itself, from the selectors' values, so it is whole though the Compare and Beyond binary
tabs (whose cards compute only while shown) were never opened."""

from __future__ import annotations

import dataclasses
import json
import time

import pandas as pd
from dash import ALL, Input, Output, State, ctx, dcc, html, no_update
from dash.exceptions import PreventUpdate

from ...core.analysis_types import Analysis
from ...core.assembly.analysis import AnalysisTimeout
from ...core.decisions.economics import Economics
from ...core.decisions.operating import pinned_points
from ...decision import build_decision
from ...figures.style import format_threshold
from ...report.exports import (
    cross_validation_table,
    csv_safe,
    curves_table,
    group_curves_table,
    group_table,
    to_safe_csv,
    with_group_rows,
)
from .. import ids
from ..analysis import (
    dataset_labels,
    loaded_infos,
    model_refs,
    page_conditions,
    pauc_comparison,
    shown_analysis,
    shown_keys,
    shown_pins,
)
from ..chosen_points import OPTIMUM, decision_record
from ..class_costs import page_cost_matrix_html
from ..components import model_table_rows
from ..constrained import constrained_record, page_constraints_html
from ..constrained_headline import chosen_by, pins_line, report_headline
from ..core_words import reason_of
from ..help import HELP
from ..page_state import PageState, dependencies
from ..render import decision_views
from ..server.auth import current_owner
from ..server.url_prefix import page_link, server_prefix
from ..state import conditions_from_state, economics_from_state, group_priors

__all__ = ["buttons", "monitor_section", "curves_csv", "table_csv", "decision_json", "decision_download",
           "html_download", "register",
           "slices_for_report", "sliced", "csv_download", "report_intervals", "REPORT_SECONDS"]

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
                        className="button light", title=HELP["decision_json"]),
            html.Div(id=ids.EXPORT_STATUS, className="export-status", role="status")]


def curves_csv(analysis: Analysis, slices=()) -> str:
    """The Curves CSV (:func:`roc_dash.report.exports.curves_table`): each model's pooled curve
    (``fold`` "pooled") and each of its folds' curves; with ``slices`` (:func:`sliced`), a
    ``group`` column and each group's curve."""
    return to_safe_csv(with_group_rows(curves_table(analysis), [
        group_curves_table(model, sliced_.rocs) for model, sliced_, _ in slices]))


def table_csv(analysis: Analysis, slices=()) -> str:
    """The model table with the conditions it was computed under on every row, and each
    model's cross-validated AUC (mean, SD, LeDell interval, folds); with
    ``slices`` (:func:`sliced`), a ``group`` column and each group's row as the Slices card
    shows it (own optimum, point under the card's constraint)."""
    c = analysis.conditions
    frame = pd.DataFrame(model_table_rows(analysis))
    if len(frame):
        cv = cross_validation_table(analysis).drop(columns="model")
        frame = pd.concat([frame, cv.set_index(frame.index)], axis=1)
    frame = frame.assign(
        cost_fp=c.cost_fp, cost_fn=c.cost_fn, prior_pos=c.prior_pos, slope=c.slope,
        pc_pos=c.pc_pos)
    frame = with_group_rows(frame, [group_table(model, sliced_, solution)
                                    for model, sliced_, solution in slices])
    return csv_safe(frame).to_csv(index=False)


def csv_download(table, analysis: Analysis, state, which, column=None, cross=None,
                 constraint=None, priors=None):
    """The Curves CSV (``which``: its button's id) or the Table CSV, with each group's rows
    when the Slices card slices the data (its ``column``, ``cross``, ``constraint`` and
    ``priors``, see :func:`sliced`)."""
    slices = sliced(table, [m.name for m in analysis.models], state, [column, cross],
                    constraint, priors)
    if which == ids.EXPORT_CURVES:
        return dcc.send_string(curves_csv(analysis, slices), "roc-dash-curves.csv")
    return dcc.send_string(table_csv(analysis, slices), "roc-dash-models.csv")


def sliced(table, models, state, columns, constraint, priors_text=None) -> list:
    """``[(model, SliceAnalysis, ConstrainedSolution)]``: the ``models`` sliced as the Slices
    card slices them (``columns``; none: the group column) under its ``constraint`` and the
    page's costs and prior (and the card's priors per group, ``priors_text``, see
    :func:`~roc_dash.app.state.group_priors`); empty when the data offer no slice or the
    choice is refused."""
    from ...core.subgroups.group_thresholds import CONSTRAINTS, group_thresholds
    from ...core.subgroups.slices import slice_analysis
    from ...io.errors import InputError
    from ...io.slice_columns import slice_choices, slice_groups, without_the_column

    choices = slice_choices(table)
    wanted = [c for c in (columns or ()) if isinstance(c, str) and c]
    if table is None or not choices.names or (not wanted and choices.default is None):
        return []
    constraint = constraint if constraint in CONSTRAINTS else "group_optima"
    conditions = conditions_from_state(state)  # as the card: its costs, prior and level
    out = []
    for model in models:
        rows = table[table["model"].astype(str) == model]
        try:
            groups, _ = slice_groups(rows, wanted, choices=choices)
            if without_the_column(groups):
                continue  # its dataset has no such column: not one group "(missing)"
            priors, _ = group_priors(priors_text, set(groups))
            weights = rows["weight"].to_numpy(dtype=float)
            analysis = slice_analysis(
                rows["label"].to_numpy(dtype=bool), rows["score"].to_numpy(dtype=float),
                groups.to_numpy(dtype=object),
                weights=None if bool((weights == 1.0).all()) else weights,
                cost_fp=conditions.cost_fp, cost_fn=conditions.cost_fn,
                prior_pos=conditions.prior_pos, level=conditions.level,
                group_priors=priors or None)
        except (InputError, ValueError):
            continue
        out.append((model, analysis, group_thresholds(analysis).solution(constraint)))
    return out


def decision_json(analysis: Analysis, table: pd.DataFrame, economics: Economics,
                  note: str = "", *, pinned: dict | None = None, point=None, choice=None,
                  model: str | None = None, constrained=None,
                  recalibration: str | None = None) -> str:
    """The decision record (JSON text) of the recommendation under the page's costs,
    benefits and prior, or of the point ``pinned`` (``{"model", "threshold"}``, the vertex
    the page shows), with the page's intervals of it (``point``: a pin's; ``choice``: the
    optimum's, :func:`..chosen_points.chosen_intervals`). ``model``: the model's own name,
    written in place of the name it is shown under. ``constrained``: the choice under the
    Decide tab's capacity or floors (:func:`..constrained.page_constrained`), whose point
    ``pinned`` is and whose ``how_chosen``, constraints and notes go into the record.
    ``recalibration``: the calibration card's (``"logistic"``, ...; fitted on the model's rows
    and stored beside the threshold)."""
    record = build_decision(analysis, table, economics=economics, note=note, pinned=pinned,
                            point=point, choice=choice, recalibration=recalibration or None)
    if constrained is not None:
        record = constrained.apply(record)
    if model and model != record.model:
        record = dataclasses.replace(record, model=model, notes=(
            *record.notes, f"Shown on the page as “{record.model}”."))
    return json.dumps(record.to_dict(), indent=2, allow_nan=False) + "\n"


def decision_download(cache, store, page: PageState, analysis: Analysis, which=None):
    """``(file, status)`` of *Download decision*: the recommendation (``which`` None, the
    summary's headline) or the pin ``which`` (a letter: an explicit choice), with the
    page's intervals of that point (one computation: :func:`..chosen_points.chosen_intervals`,
    the same replicates and seed, cached); the status line names the point in the file."""
    if which is None and (page.capacity.strip() or page.floors.strip()):
        return _constrained_download(cache, store, page, analysis)
    note = store.notes(list(page.datasets), owner=current_owner())["note"]
    try:
        record, op, _ = decision_record(cache, page, analysis, which, seconds=REPORT_SECONDS,
                                        note=note)
    except ValueError as exc:  # a recalibration that cannot be fitted on these scores
        return no_update, f"Nothing was downloaded: {reason_of(exc, 'the capacity')}."
    if record is None:
        return no_update, f"Pin {which} is not shown: nothing was downloaded."
    text = json.dumps(record.to_dict(), indent=2, allow_nan=False) + "\n"
    what = "the recommendation" if which is None else f"pin {which}"
    status = (f"Downloaded the decision of {what}: {op.model} at score ≥ "
              f"{format_threshold(op.threshold)}{_recalibrated(page)}.")
    return dcc.send_string(text, "roc-dash-decision.json"), status


def _recalibrated(page: PageState) -> str:
    """The status line's words on the recalibration stored (the calibration card's)."""
    return f", with its {page.recalibration} recalibration" if page.recalibration else ""


def _constrained_download(cache, store, page: PageState, analysis: Analysis):
    """*Download decision* under the Decide tab's capacity or floors: the least expected
    cost meeting them over the shown models (:func:`..constrained.constrained_record`, what
    the Monitor tab checks too), its intervals those of its fixed threshold; when none of
    what was typed can be read, the recommendation as without it."""
    try:
        made = constrained_record(cache, page, analysis,
                                  store.notes(list(page.datasets), owner=current_owner())["note"])
    except ValueError as exc:
        return no_update, f"Nothing was downloaded: {reason_of(exc, 'the capacity')}."
    if made is None:
        return decision_download(cache, store, dataclasses.replace(page, capacity="",
                                                                   floors=""), analysis)
    record, constrained, _ = made
    pinned = constrained.pinned
    text = json.dumps(record.to_dict(), indent=2, allow_nan=False) + "\n"
    status = (f"Downloaded the decision under {chosen_by(page, constrained.how_chosen)}: "
              f"{pinned['model']} at score ≥ {format_threshold(pinned['threshold'])}"
              f"{_recalibrated(page)}.")
    return dcc.send_string(text, "roc-dash-decision.json"), status


#: The export buttons: only a click on one of these (or on an operating card's ↓) downloads
_BUTTONS = (ids.EXPORT_CURVES, ids.EXPORT_TABLE, ids.EXPORT_HTML, ids.EXPORT_DECISION)


# -- wiring ------------------------------------------------------------------------------
def register(app, cache, store) -> None:
    """The export callback (a file to the page's download component, and a line saying what
    the decision file holds)."""

    @app.callback(
        output={"file": Output(ids.DOWNLOAD, "data"),
                "status": Output(ids.EXPORT_STATUS, "children")},
        inputs={"buttons": {"curves": Input(ids.EXPORT_CURVES, "n_clicks"),
                            "table": Input(ids.EXPORT_TABLE, "n_clicks"),
                            "html": Input(ids.EXPORT_HTML, "n_clicks"),
                            "decision": Input(ids.EXPORT_DECISION, "n_clicks")},
                "point": Input({"type": ids.EXPORT_POINT, "index": ALL}, "n_clicks"),
                "page": dependencies(State), "href": State(ids.URL, "href"),
                "measure": State(ids.CMP_MEASURE, "value"),
                "monitor_record": State(ids.MON_RECORD, "data")},
        prevent_initial_call=True,
    )
    def export(buttons, point, page, href, measure, monitor_record=None):
        trigger = ctx.triggered_id
        if not any(t["value"] for t in ctx.triggered):
            # the operating card's buttons appearing or going (Clear pins): no click. Dash
            # then names no trigger, which must not fall through to a download
            raise PreventUpdate
        if not isinstance(trigger, dict) and trigger not in _BUTTONS:
            raise PreventUpdate
        page = PageState.from_dash(page)
        try:
            analysis = shown_analysis(cache, page)
        except AnalysisTimeout:
            analysis = None  # the views already say so
        if analysis is None:
            raise PreventUpdate
        if trigger == ids.EXPORT_DECISION or isinstance(trigger, dict):
            which = trigger.get("index") if isinstance(trigger, dict) else None
            file, status = decision_download(cache, store, page, analysis,
                                             None if which == OPTIMUM else which)
            # a new element each time: its note shows, then fades (assets/style.css)
            return {"file": file, "status": html.Span(status, key=str(time.time()))}
        table = cache.table(list(page.datasets), page.control.reference_class)
        if trigger in (ids.EXPORT_CURVES, ids.EXPORT_TABLE):
            s = page.slices
            return {"file": csv_download(table, analysis, page.control.to_store(), trigger,
                                         s.column, s.cross, s.constraint, s.priors),
                    "status": ""}
        # the page's address as the browser sent it, if it is one of this app's pages
        own = page_link(href, server_prefix(app.server))
        return {"file": html_download(cache, store, page, analysis, table, own, measure,
                                      monitor_record),
                "status": ""}


def html_download(cache, store, page: PageState, analysis: Analysis, table, href, measure,
                  monitor_record=None):
    """The HTML report of what the page shows (:func:`roc_dash.report.html.render_html`),
    its link written from the page's state (:meth:`..page_state.PageState.to_query`) on
    ``href``, this app's page address (:func:`..server.url_prefix.page_link`; None: no link);
    with the Monitor tab's section when windows are ticked there (``monitor_record``: the
    record uploaded in the tab), though the tab was never opened."""
    from urllib.parse import urlsplit, urlunsplit

    from ...report.html import ReportState, render_html
    from ..components import plain_text

    state = page.control.to_store()
    infos, _ = loaded_infos(store, page.datasets)
    pins = pinned_points(analysis, shown_pins(page.pins, model_refs(cache, page.datasets)))
    # the summary as the strip shows it: the recommendation (uncertainty, sensitivity
    # included), then the pins compared with it
    strip, _ = decision_views(analysis, pins, economics_from_state(state))
    headline = [k for k in strip if getattr(k, "className", "") != "summary-pins"] \
        if isinstance(strip, list) else strip
    compared = [k for k in strip if getattr(k, "className", "") == "summary-pins"] \
        if isinstance(strip, list) else []
    # under the Decide tab's capacity or floors: the strip's constrained headline and point
    under = report_headline(page, analysis, economics_from_state(state))
    summary = plain_text(headline)
    if under is not None:
        summary = under.summary if under.operating is not None else \
            f"{summary} {under.summary}"
    if under is not None and under.operating is not None and compared:
        # the pins compared with the point the constraints chose, as the strip does
        chosen = {"model": under.operating.model, "threshold": under.operating.threshold}
        compared = [pins_line(cache, page, analysis, economics_from_state(state), chosen)]
    notes = store.notes(list(page.datasets), owner=current_owner())
    base = urlsplit(href) if isinstance(href, str) else None
    link = urlunsplit(base._replace(query=page.to_query().lstrip("?"))) if base else None
    views = tuple(
        (str(v.get("name", "")), urlunsplit(base._replace(
            query=str(v.get("query") or "").lstrip("?"))) if base else
         str(v.get("query") or ""))
        for v in notes["views"] if isinstance(v, dict))
    report_state = ReportState(
        averaging=page.averaging, datasets=tuple(dataset_labels(infos)),
        # the recommendation (or the point under the capacity or floors); the pins are
        # compared below it
        operating=None if under is None else under.operating,
        chosen_by="" if under is None else under.chosen_by,
        constraints="" if under is None else under.constraints,
        link=link, note=notes["note"], pins=tuple(pins), summary=summary,
        pins_summary=plain_text(compared), views=views)
    conditions = page_conditions(page)
    return dcc.send_string(render_html(
        analysis, state=report_state, slices=slices_for_report(
            table, [m.name for m in analysis.models], conditions, page.slices.columns,
            page.slices.priors),
        intervals=report_intervals(analysis, table, economics_from_state(state)),
        partial_auc_comparison=pauc_comparison(cache, list(page.datasets), analysis, state)
        if measure == "pauc" and len(analysis.models) > 1 else None,
        zoom=page.zoom_store(),
        constraints_html=page_constraints_html(page, analysis, table)
        + page_cost_matrix_html(cache, page, shown_keys(cache, page))
        + monitor_section(cache, page, monitor_record)),
        "roc-dash-report.html")


def monitor_section(cache, page: PageState, uploaded=None) -> str:
    """The report's Monitor section (:func:`roc_dash.report.html_monitor.monitor_section_html`)
    of the Monitor tab's settings, or a line saying why there is none; "" when no window is
    ticked."""
    import html as _html

    from ...report.html_monitor import monitor_section_html
    from ..monitoring import page_monitor

    if not page.monitor.windows:
        return ""
    outcome = page_monitor(cache, page, uploaded)
    if outcome.report is None:
        return (f"<h2>Monitor</h2><p class=\"muted\">{_html.escape(outcome.message)}</p>")
    return monitor_section_html(outcome.report, pins=outcome.pins,
                                title=f"Monitor: {outcome.reference_label}")


def slices_for_report(table, models, conditions, columns=None, priors_text=None
                      ) -> dict | None:
    """The report's slices section for the shown models, sliced as the Slices card
    (``columns``: its column and the one crossed; none: the group column; ``priors_text``:
    its priors per group), when the data offer a slice."""
    from ...io.errors import InputError
    from ...io.groups import GROUP_COLUMN
    from ...io.slice_columns import slice_choices, slice_groups, without_the_column
    from ...report.slices import slices_sections

    choices = slice_choices(table)
    wanted = tuple(c for c in (columns or ()) if isinstance(c, str) and c)
    if table is None or not choices.names or (not wanted and choices.default is None):
        return None
    rows = table[table["model"].astype(str).isin(models)]
    try:
        groups, _ = slice_groups(rows, wanted, choices=choices)
    except InputError:
        return None
    rows = rows.assign(**{GROUP_COLUMN: groups.to_numpy(dtype=object)})
    # the models of a dataset without the column are left out, not one group "(missing)"
    keep = ~rows.groupby(rows["model"].astype(str))[GROUP_COLUMN].transform(
        lambda g: without_the_column(g)).astype(bool)
    rows = rows[keep.to_numpy()]
    if rows.empty:
        return None
    groups = rows[GROUP_COLUMN]
    priors, _ = group_priors(priors_text, set(groups))
    return slices_sections(rows, conditions, group_priors=priors or None, group_columns=(
        wanted or tuple(table.attrs.get("group_columns") or ()) or (GROUP_COLUMN,)))


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
