"""Server data: open predictions that live on the server (``ROC_DASH_SOURCES``) beside uploads.

The panel lists the sources the operator allows (:func:`..server.sources.offers`); *Open*
starts their aggregation by DuckDB in the background (:class:`..server.sources.SourceJobs`)
and an interval polls its job file for the progress bar, then adds the stored counts to the
datasets loaded, as an upload would. Nothing is shown when no source is configured.
"""

from __future__ import annotations

from dash import Input, Output, State, dcc, html, no_update
from dash.exceptions import PreventUpdate

from ...io import InputError
from .. import ids
from ..analysis import loaded_infos
from ..components import labelled
from ..help import HELP
from ..server.auth import current_owner
from ..server.sources import (
    SourceJobs,
    offers,
    resolve,
    shown_message,
    shown_name,
    shown_path,
    source_digest,
)
from ..server.store import EXAMPLES, clean_ids

__all__ = ["panel", "source_options", "progress_view", "open_source", "poll_source", "register"]

#: How often the page asks how far a source is (ms).
POLL_MS = 500


def source_options() -> list[dict]:
    """The dropdown's options, read afresh (files added since the server started appear)."""
    return [{"label": o.label, "value": o.value, "title": shown_path(o.value)}
            for o in offers()]


def panel() -> html.Section:
    """The Server data panel: the allowed sources, *Open*, a progress bar and status lines;
    hidden when ``ROC_DASH_SOURCES`` offers nothing. The list is read again on every page
    load (:func:`register`)."""
    options = source_options()
    return html.Section(id=ids.SRC_PANEL, className="panel", hidden=not options, children=[
        html.H2("Server data"),
        labelled("Predictions on this server",
                 dcc.Dropdown(id=ids.SRC_CHOICE, clearable=False, options=options, value=None,
                              placeholder="Choose a source"),
                 html_for=ids.SRC_CHOICE, help_text=HELP["source_choice"]),
        html.Button("Open", id=ids.SRC_OPEN, n_clicks=0, className="button",
                    title=HELP["source_open"]),
        html.Div(id=ids.SRC_PROGRESS, className="upload-progress", hidden=True,
                 children=progress_view(0.0, "")),
        html.Div(id=ids.SRC_STATUS, className="status", role="status"),
        html.Div(id=ids.SRC_ERROR, className="error", role="alert"),
        dcc.Store(id=ids.SRC_JOB, data=None),
        dcc.Interval(id=ids.SRC_POLL, interval=POLL_MS, disabled=True),
    ])


def progress_view(fraction: float, text: str) -> list:
    """The progress bar's children: the bar and what it says."""
    return [html.Progress(max="1", value=f"{min(max(fraction, 0.0), 1.0):.3f}"),
            html.Span(text, className="progress-text", role="status")]


def open_source(jobs: SourceJobs, store, value, dataset_ids) -> tuple[object, str, str]:
    """Start opening the chosen source: (job token or None, status, error)."""
    try:
        source = resolve(value)
        digest = source_digest(source)
    except InputError as exc:
        return None, "", shown_message(exc)
    except OSError as exc:
        return None, "", (f"{shown_path(value)}: cannot be read "
                          f"({exc.strerror or type(exc).__name__}). "
                          "Ask whoever runs the server to check it.")
    label = next((o.label for o in offers() if o.value == value), shown_name(value))
    infos, _ = loaded_infos(store, dataset_ids)
    for info in infos:
        if digest in info.digests:
            return None, f"Already loaded: {label} (as {info.label}). Nothing was changed.", ""
    try:
        token = jobs.start(source, owner=current_owner(), label=label)
    except InputError as exc:
        return None, "", shown_message(exc)
    return token, f"Opening {label}…", ""


def poll_source(jobs: SourceJobs, token, dataset_ids):
    """One poll: (datasets or no_update, stop polling?, progress children, progress hidden,
    status, error, job store)."""
    job = jobs.status(token)
    if job is None:
        return (no_update, True, no_update, True, "",
                "The server lost track of this source (it may have restarted); open it again.",
                None)
    if job.get("state") == "running":
        fraction = float(job.get("fraction") or 0.0)
        text = f"Aggregating {job.get('label', '')}: {fraction:.0%}"
        if job.get("seconds"):
            text += f" after {job['seconds']:.0f} s"
        return no_update, False, progress_view(fraction, text), False, no_update, "", token
    if job.get("state") == "done":
        current = clean_ids(dataset_ids)
        kept = [] if all(d in EXAMPLES for d in current) else current
        status = (f"Loaded {job['label']}: model(s) {', '.join(job.get('models', []))}. "
                  + " ".join(job.get("notes", [])))
        if kept != current:
            status += " It replaces the demo data."
        return (kept + [job["dataset_id"]], True, progress_view(1.0, ""), True, status, "",
                None)
    return no_update, True, no_update, True, "", str(job.get("error", "Failed.")), None


def register(app, cache, store) -> None:
    """Open a source; poll its job until the counts are stored and added to the datasets."""
    jobs = SourceJobs(store)

    @app.callback(
        Output(ids.SRC_CHOICE, "options"),
        Output(ids.SRC_PANEL, "hidden"),
        Input(ids.URL, "pathname"),
    )
    def listing(_path):
        options = source_options()
        return options, not options

    @app.callback(
        Output(ids.SRC_JOB, "data"),
        Output(ids.SRC_POLL, "disabled"),
        Output(ids.SRC_PROGRESS, "hidden"),
        Output(ids.SRC_PROGRESS, "children"),
        Output(ids.SRC_STATUS, "children"),
        Output(ids.SRC_ERROR, "children"),
        Input(ids.SRC_OPEN, "n_clicks"),
        State(ids.SRC_CHOICE, "value"),
        State(ids.DATASETS, "data"),
        prevent_initial_call=True,
    )
    def start(clicks, value, dataset_ids):
        if not clicks:
            raise PreventUpdate
        token, status, error = open_source(jobs, store, value, dataset_ids)
        if token is None:
            return None, True, True, no_update, status, error
        return token, False, False, progress_view(0.0, status), "", ""

    @app.callback(
        Output(ids.DATASETS, "data", allow_duplicate=True),
        Output(ids.SRC_POLL, "disabled", allow_duplicate=True),
        Output(ids.SRC_PROGRESS, "children", allow_duplicate=True),
        Output(ids.SRC_PROGRESS, "hidden", allow_duplicate=True),
        Output(ids.SRC_STATUS, "children", allow_duplicate=True),
        Output(ids.SRC_ERROR, "children", allow_duplicate=True),
        Output(ids.SRC_JOB, "data", allow_duplicate=True),
        Input(ids.SRC_POLL, "n_intervals"),
        State(ids.SRC_JOB, "data"),
        State(ids.DATASETS, "data"),
        prevent_initial_call=True,
    )
    def poll(_n, token, dataset_ids):
        if not token:
            raise PreventUpdate
        return poll_source(jobs, token, dataset_ids)
