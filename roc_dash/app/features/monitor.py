"""The *Monitor* tab: is the deployed threshold still right, window by window?

The decision checked is the page's recommendation under its costs and prior, a pin, or a
decision record uploaded in the tab; the windows are loaded datasets ticked as windows (each
one a window, or their rows cut by a column of times, each value or each day, week, month,
quarter or year a window), their labels used or set aside (as after deployment: each
window's share of positives estimated from its scores by EM, PACC or ACC). It shows the
monitor's figures (the operating point's path over the reference's hull with the
iso-performance line of the page's costs and prior; the prior and the cost of staying against
switching over the windows) and a table per window (held or drifted, the re-derived
threshold, what staying and switching cost). Numbers come from
:func:`roc_dash.app.monitoring.page_monitor` (:mod:`roc_dash.core.monitoring`, as
``roc-dash monitor`` computes them). The tab computes only while it is shown
(:func:`..state.tab_shown`); its settings go into the page's link (``mref``, ``mwin``,
``mtime``, ``mevery``, ``mnolab``, ``mest``), and so into saved views.
"""

from __future__ import annotations

import base64
import binascii

from dash import Input, Output, State, ctx, dcc, html, no_update
from dash.exceptions import PreventUpdate

from ...figures.monitoring import ESTIMATE_NAMES, monitor_roc_figure, monitor_time_figure
from .. import ids
from ..analysis import dataset_labels, loaded_infos
from ..components import empty_figure, graph_config
from ..monitor_table import ESTIMATED_SHIFT_HINT, monitor_status, monitor_table, window_rows  # noqa: F401 - re-exported
from ..monitoring import (
    file_columns,
    page_monitor,
    read_record,
    read_window_upload,
    window_columns,
)
from ..page_state import (
    MONITOR_PERIODS,
    PageState,
    dependencies,
    monitor_pins,
    parse_link,
    tab_gate,
    tab_page,
)
from ..removal import windows_now
from ..server.monitor_files import NotKept, digest_of, get_file, put_file
from ..state import FONT

__all__ = ["panel", "register", "window_rows", "window_files", "upload_window_files",
           "OUTPUTS"]

#: The tab's outputs, in the order the callback returns them.
OUTPUTS = ("status", "roc", "time", "table", "pin_windows")

_REFERENCE_HELP = ("The decision checked: the page's recommendation under its costs and "
                   "prior (on the datasets that are not windows), a pin, or a decision record "
                   "uploaded here (the JSON of roc-dash decide or Download decision).")
_WINDOWS_HELP = ("The datasets of predictions after deployment: each one a window, or "
                 "their rows cut into windows by a time column. Only the decision's model's "
                 "rows are read.")

_WINDOW_FILES_HELP = ("Predictions after deployment as files, read as roc-dash monitor "
                      "reads its windows: a score column, and optionally label, model, "
                      "weight and time columns (labels usually arrive late: without them "
                      "each window's share of positives is estimated). Each file is a "
                      "window, or cut by the column chosen below.")
#: The largest window file the tab takes (base64 in the request: larger ones go through
#: the command line, ``roc-dash monitor``).
MAX_WINDOW_FILE_BYTES = 50 * 1024 * 1024

_PIN_HELP = ("A threshold kept for one window: where it puts the window in ROC space "
             "(its labels' rates, else the reference's ROC, which a prior change leaves as "
             "it is) and what it costs at the window's prior; left empty, the window's "
             "re-derived threshold. Shown in the figures, the table, the link and the "
             "report.")
_TIME_HELP = ("A column of the windows' files (kept as categories: dates or month names as "
              "text) whose values cut their rows into windows: each value a window, or each "
              "day, week, month, quarter or year of its dates.")
_ESTIMATOR_HELP = ("The estimate of an unlabelled window's share of positives at which the "
                   "choice is re-derived on the reference's hull: EM on the calibrated scores "
                   "(Saerens et al. 2002), or adjusted classify-and-count with the decision's "
                   "rates (PACC, ACC; Forman 2008).")


def _pin_row():
    """Pin a threshold (or the re-derived one) for a window; clear the pins."""
    return html.Div(className="monitor-row", children=[
        html.Label("Pin a threshold for window", htmlFor=ids.MON_PIN_WINDOW,
                   className="control-label", title=_PIN_HELP),
        dcc.Dropdown(id=ids.MON_PIN_WINDOW, options=[], placeholder="window",
                     className="monitor-choice"),
        dcc.Input(id=ids.MON_PIN_THRESHOLD, type="number",
                  placeholder="its re-derived threshold", className="monitor-threshold"),
        html.Button("Pin", id=ids.MON_PIN_ADD, n_clicks=0, className="button"),
        html.Button("Clear pins", id=ids.MON_PIN_CLEAR, n_clicks=0,
                    className="button light-dark"),
        dcc.Store(id=ids.MON_PINS, data=[]),
    ])


def _window_files_upload():
    """The window files' upload, what became of the last ones, the ids uploaded."""
    return [dcc.Upload(id=ids.MON_WINDOW_UPLOAD, multiple=True,
                       accept=".csv,.tsv,.txt,.gz,.parquet",
                       max_size=MAX_WINDOW_FILE_BYTES, className="monitor-upload",
                       children=html.Button("Upload window files (labels optional)",
                                            className="button light-dark",
                                            title=_WINDOW_FILES_HELP)),
            html.Div(id=ids.MON_WINDOW_STATUS, className="muted", role="status"),
            dcc.Store(id=ids.MON_FILES, data=[]), dcc.Store(id=ids.MON_WINDOW_SEEN, data=[])]


def panel():
    """The tab's cards: the settings, then the figures and the table."""
    return [
        html.Div(className="card monitor-card", children=[
            html.H2("Monitor: is the threshold still right?", title=_REFERENCE_HELP),
            html.Div(className="monitor-controls", children=[
                html.Div(className="monitor-row", children=[
                    html.Label("Decision checked", htmlFor=ids.MON_REFERENCE,
                               className="control-label", title=_REFERENCE_HELP),
                    dcc.Dropdown(id=ids.MON_REFERENCE, value="optimum", clearable=False,
                                 searchable=False, options=_reference_options([]),
                                 className="monitor-choice"),
                    # no accept filter: a file of another type is refused with a message
                    # (the upload drops a file its filter refuses without a word: review 11)
                    dcc.Upload(id=ids.MON_UPLOAD, max_size=4 * 1024 * 1024,
                               className="monitor-upload",
                               children=html.Button("Upload a decision record (JSON)",
                                                    className="button light-dark")),
                    html.Div(id=ids.MON_RECORD + "-name", className="muted"),
                    dcc.Store(id=ids.MON_RECORD, data=None),
                    dcc.Store(id=ids.MON_RECORD_ID, data=None),
                ]),
                html.Div(className="monitor-row", children=[
                    html.Label("Windows", htmlFor=ids.MON_WINDOWS,
                               className="control-label", title=_WINDOWS_HELP),
                    dcc.Checklist(id=ids.MON_WINDOWS, value=[], options=[], inline=True,
                                  className="checklist", labelClassName="check"),
                    *_window_files_upload(),
                ]),
                html.Div(className="monitor-row", children=[
                    html.Label("Cut into windows by", htmlFor=ids.MON_TIME,
                               className="control-label", title=_TIME_HELP),
                    dcc.Dropdown(id=ids.MON_TIME, value=None, options=[],
                                 placeholder="each dataset one window",
                                 className="monitor-choice"),
                    # searchable: "month" typed and Enter chooses it (stranger review 10)
                    dcc.Dropdown(id=ids.MON_EVERY, value=None,
                                 placeholder="each value one window",
                                 className="monitor-choice",
                                 options=[{"label": f"each {p}", "value": p}
                                          for p in MONITOR_PERIODS]),
                ]),
                html.Div(className="monitor-row", children=[
                    dcc.Checklist(id=ids.MON_LABELS, value=[], className="checklist",
                                  options=[{"label": " set the windows' labels aside (as "
                                                     "after deployment: estimate each "
                                                     "window's share of positives)",
                                            "value": "hide"}]),
                    html.Label("Prior re-deriving the choice", htmlFor=ids.MON_ESTIMATOR,
                               className="control-label", title=_ESTIMATOR_HELP),
                    dcc.RadioItems(id=ids.MON_ESTIMATOR, value="em", inline=True,
                                   className="radios inline",
                                   options=[{"label": ESTIMATE_NAMES[k], "value": k}
                                            for k in ("em", "pacc", "acc")]),
                ]),
                _pin_row(),
            ]),
            html.Div(id=ids.MON_STATUS, className="monitor-status", role="status"),
            html.Div(id=ids.MON_TABLE, className="table-scroll"),
        ]),
        html.Div(className="card", children=[
            html.H2("The operating point's path"),
            dcc.Loading(type="circle", delay_show=400, children=dcc.Graph(
                id=ids.MON_ROC, config=graph_config("monitor-roc"), className="graph")),
        ]),
        html.Div(className="card", children=[
            html.H2("Over the windows"),
            dcc.Loading(type="circle", delay_show=400, children=dcc.Graph(
                id=ids.MON_TIME_GRAPH, config=graph_config("monitor-time"),
                className="graph monitor-time-graph")),
        ]),
    ]


def _reference_options(pins) -> list[dict]:
    return [{"label": "the page's recommendation", "value": "optimum"},
            *({"label": f"pin {p['label']}", "value": p["label"]} for p in pins or ()
              if isinstance(p, dict) and isinstance(p.get("label"), str)),
            {"label": "a record uploaded here", "value": "upload"}]


def monitor_outputs(cache, page: PageState, uploaded) -> dict:
    """The tab's outputs for the page's state (:data:`OUTPUTS`)."""
    font = FONT[page.presentation]
    outcome = page_monitor(cache, page, uploaded)
    if outcome.report is None:
        blank = empty_figure(font)
        return {"status": html.P(outcome.message,
                                 className="hint" if outcome.hint else "banner warn"),
                "roc": blank,
                "time": blank, "table": None, "pin_windows": []}
    result = outcome.report.result

    def make():  # plotly builds figures slowly: once per result and font
        pins = outcome.pins
        # each figure takes its graph's height (assets/style.css; presentation mode's is
        # the window's), not the report's fixed one, so that it fits its card (review 11)
        roc = monitor_roc_figure(result, font_size=font, pins=pins)
        time = monitor_time_figure(result, font_size=font, pins=pins)
        for fig in (roc, time):
            fig.update_layout(height=None, autosize=True)
        return {"roc": roc.to_plotly_json(), "time": time.to_plotly_json(),
                "table": monitor_table(outcome.report.to_dict(), pins)}

    views = cache.cache.get_or_make(("monitor-views", *outcome.key, font), make, shared=False)
    return {"status": monitor_status(outcome), **views,
            "pin_windows": [{"label": w.name, "value": w.name} for w in result.windows]}


def pinned(cache, page: PageState, record, kept, window, threshold, clear: bool):
    """The ``ids.MON_PINS`` store after a click on *Pin* (``window`` at ``threshold``, or
    at its re-derived threshold when empty) or *Clear pins*; ``kept``: the store before."""
    if clear:
        return []
    pins = [list(p) for p in monitor_pins(kept)]
    if not isinstance(window, str) or not window:
        raise PreventUpdate
    if threshold is None or threshold == "":
        outcome = page_monitor(cache, page, record)
        row = None if outcome.report is None else next(
            (r for r in window_rows(outcome.report.to_dict()) if r["window"] == window), None)
        if row is None or row["threshold"] is None:
            raise PreventUpdate
        threshold = row["threshold"]
    return [p for p in pins if p[0] != window] + [[window, float(threshold)]]


def _upload(contents, filename):
    """``{"name", "text"}`` of an uploaded record, or ``{"name", "error"}``."""
    name = filename if isinstance(filename, str) and filename else "the uploaded file"
    try:
        text = base64.b64decode(contents.split(",", 1)[1]).decode("utf-8")
    except (AttributeError, IndexError, ValueError, binascii.Error, UnicodeDecodeError):
        return {"name": name, "error": f"{name}: not a text file, so not a decision record; "
                                       "upload the JSON that roc-dash decide or Download "
                                       "decision wrote."}
    record, error = read_record(text, name)
    if record is None:
        return {"name": name, "error": error}
    return {"name": name, "text": text}


def window_files(store, page: PageState, uploaded) -> list:
    """The window files kept on the server that the tab offers: those uploaded in this
    page (``uploaded``, the ``ids.MON_FILES`` store) and those among its windows (a link's),
    each once."""
    seen, out = set(), []
    for file_id in [*(uploaded if isinstance(uploaded, list) else ()),
                    *page.monitor.windows]:
        if file_id in seen or file_id in page.datasets:
            continue
        seen.add(file_id)
        kept = get_file(store.root, file_id, "window")
        if kept is not None:
            out.append(kept)
    return out


def upload_window_files(store, contents, filenames, files, windows, time=None, every=None,
                        seen=None) -> dict:
    """Each uploaded window file read as ``roc-dash monitor`` reads it (cut by the tab's
    ``time`` column and its period ``every`` when the file holds that column): kept on the
    server and ticked as a window, or refused with a message naming it (what was loaded
    before stays). ``seen``: ``[name, digest]`` of the last upload's files; a picker that
    sends them again with new ones (it adds to its list) has only the new ones read, so
    the status says what became of this upload's files only, not of earlier ones (stranger
    review 11: stale red boxes)."""
    contents = contents if isinstance(contents, list) else [contents]
    filenames = filenames if isinstance(filenames, list) else [filenames] * len(contents)
    before = [f for f in (files if isinstance(files, list) else ()) if isinstance(f, str)]
    known = {(k.name, k.digest) for k in (get_file(store.root, f, "window") for f in before)
             if k is not None}
    time = time if isinstance(time, str) and time else None
    every = every if time is not None and every in MONITOR_PERIODS else None
    sent, said = [], []
    for content, filename in zip(contents, filenames, strict=False):
        name = filename if isinstance(filename, str) and filename else "the uploaded file"
        try:
            sent.append((name, base64.b64decode(content.split(",", 1)[1])))
        except (AttributeError, IndexError, ValueError, binascii.Error):
            said.append(html.Div(f"{name}: could not be read as an upload; upload it again.",
                                 className="banner warn"))
    now = [[name, digest_of(data)] for name, data in sent]
    last = {tuple(p) for p in (seen if isinstance(seen, list) else ())
            if isinstance(p, list | tuple) and len(p) == 2}
    fresh = [(n, d, digest) for (n, d), (_, digest) in zip(sent, now, strict=True)
             if (n, digest) not in last]
    kept = []
    for name, data, digest in fresh or [(n, d, g) for (n, d), (_, g) in zip(sent, now,
                                                                              strict=True)]:
        if (name, digest) in known:  # the same file again: one window
            said.append(html.Div(f"Window file: {name} (already loaded)",
                                 className="monitor-file"))
            continue
        columns, error = read_window_upload(name, data, time, every)
        if error is not None:
            said.append(html.Div(error, className="banner warn"))
            continue
        try:
            kept.append(put_file(store.root, "window", name, data, columns=columns))
        except NotKept as exc:  # the object store did not take it: said, the rest kept
            said.append(html.Div(f"{name}: {exc}", className="banner warn"))
            continue
        said.append(html.Div(f"Window file: {name}", className="monitor-file"))
    if not kept:
        return {"files": no_update, "status": said or no_update, "windows": no_update,
                "seen": now}
    ticked = [w for w in (windows if isinstance(windows, list) else ()) if isinstance(w, str)]
    return {"files": before + [f.id for f in kept], "status": said,
            "windows": ticked + [f.id for f in kept], "seen": now}


def refused_record(store, error: str, kept, kept_id) -> dict:
    """The record upload's outputs when a file is refused: its message in place of the line
    before, and the record loaded before (``kept``, this page's upload, or ``kept_id``, a
    link's) still checked, said so."""
    name = kept.get("name") if isinstance(kept, dict) and kept.get("text") else None
    if name is None and kept_id is not None:
        found = get_file(store.root, kept_id, "record")
        name = None if found is None else found.name
    still = [] if not name else [html.Br(), html.Span(
        f"The record loaded before, {name}, is still the one checked.", className="muted")]
    return {"record": no_update,
            "name": html.Span([html.Span(error, className="banner warn"), *still]),
            "reference": no_update, "record_id": no_update}


def linked_record(store, record_id) -> dict:
    """The record store's id and the line naming the record of a link's ``mrec``: the
    record kept on the server, or (gone) a line saying so; the rest of the link is
    restored all the same."""
    if record_id is None:
        return {"record": None, "name": None}
    kept = get_file(store.root, record_id, "record")
    if kept is None:
        return {"record": None, "name": html.Span(
            "The decision record of this link is gone from the server (files are kept "
            "for a limited time, or the link is from another server): upload it again. "
            "The rest of the link is restored.", className="banner warn")}
    return {"record": kept.id, "name": f"Record: {kept.name}"}


def register(app, cache, store) -> None:
    """The tab's settings from a link, its choices, the upload and its views (computed only
    while it is shown)."""

    @app.callback(
        output={"windows": Output(ids.MON_WINDOWS, "options"),
                "time": Output(ids.MON_TIME, "options"),
                "reference": Output(ids.MON_REFERENCE, "options")},
        inputs={"page": dependencies(Input, "datasets", "monitor"),
                "pins": Input(ids.PINNED, "data"),
                "uploaded": Input(ids.MON_FILES, "data")},
    )
    def choices(page, pins, uploaded):
        """Cheap (the datasets' descriptions, the windows' column names): eager, so a link
        naming the tab's settings finds its choices whatever tab is shown."""
        page = PageState.from_dash(page)
        infos, _ = loaded_infos(store, page.datasets)
        windows = [d for d in page.monitor.windows if d in page.datasets]
        files = window_files(store, page, uploaded)
        ticked = [f for f in files if f.id in page.monitor.windows]
        columns = window_columns(store, windows) if windows else []
        columns += [c for c in file_columns(ticked) if c not in columns]
        if page.monitor.time and page.monitor.time not in columns:
            # kept while the windows' datasets are still arriving (a link, a reload): a
            # dropdown would clear it; a column they lack is said in the tab's message
            columns.append(page.monitor.time)
        return {"windows": [*({"label": " " + label, "value": info.id} for info, label in
                              zip(infos, dataset_labels(infos), strict=True)),
                            *({"label": f" {f.name} (window file)", "value": f.id}
                              for f in files)],
                "time": [{"label": c, "value": c} for c in columns],
                "reference": _reference_options(pins)}

    # after the choices: the options' own writer comes first (the link's time column
    # option is a second writer, fig005)
    _register_link(app, store)
    _register_windows_after_removal(app)

    @app.callback(
        output={k: o for k, o in zip(OUTPUTS, (
            Output(ids.MON_STATUS, "children"), Output(ids.MON_ROC, "figure"),
            Output(ids.MON_TIME_GRAPH, "figure"), Output(ids.MON_TABLE, "children"),
            Output(ids.MON_PIN_WINDOW, "options")),
            strict=True)},
        # the Decide tab's capacity and floors too: under them "the page's recommendation"
        # is the point they choose (the summary strip's headline), not the optimum
        inputs={"page": {**dependencies(Input, "monitor", "pins",
                                        "models", "level", "presentation", "datasets",
                                        "capacity", "floors", "floor_confidence", "volume"),
                         "tab": tab_gate("monitor"),
                         **dependencies(State, "conditions", "band", "samples")},
                "record": Input(ids.MON_RECORD, "data")},
    )
    def monitor_views(page, record):
        page = tab_page(page, "monitor")
        if page is None:
            return dict.fromkeys(OUTPUTS, no_update)
        return monitor_outputs(cache, page, record)

    _register_files_and_pins(app, cache, store)


def _register_link(app, store) -> None:
    """The tab's settings from a link (its time column's option with its value)."""

    @app.callback(
        output={"reference": Output(ids.MON_REFERENCE, "value"),
                "windows": Output(ids.MON_WINDOWS, "value"),
                "time": Output(ids.MON_TIME, "value"),
                "time_options": Output(ids.MON_TIME, "options", allow_duplicate=True),
                "every": Output(ids.MON_EVERY, "value"),
                "labels": Output(ids.MON_LABELS, "value"),
                "estimator": Output(ids.MON_ESTIMATOR, "value"),
                "record": Output(ids.MON_RECORD_ID, "data"),
                "pins": Output(ids.MON_PINS, "data"),
                "name": Output(ids.MON_RECORD + "-name", "children")},
        inputs={"search": Input(ids.URL, "search")},
        prevent_initial_call="initial_duplicate",
    )
    def settings_from_link(search):
        link, given = parse_link(search)
        if "monitor" not in given:
            raise PreventUpdate
        m = link.monitor
        # the time column's option comes with its value: a dropdown clears a value that is
        # not among its options, and the columns arrive later, with the datasets (stranger
        # review 10: mtime and mevery were lost on reload and in links)
        return {"reference": m.reference, "windows": list(m.windows), "time": m.time,
                "time_options": [{"label": m.time, "value": m.time}] if m.time else no_update,
                "every": m.every, "labels": ["hide"] if m.hide_labels else [],
                "estimator": m.estimator, "pins": [list(p) for p in m.pins],
                **linked_record(store, m.record)}


def _register_windows_after_removal(app) -> None:
    @app.callback(output=Output(ids.MON_WINDOWS, "value", allow_duplicate=True),
                  inputs={"removed": Input(ids.REMOVED, "data")}, prevent_initial_call=True)
    def windows_after_removal(removed):
        """A dataset removed stops being a window (the link's ``mwin=`` no longer names it);
        *Undo* makes it one again, at its place (:func:`..removal.windows_now`)."""
        windows = windows_now(removed)
        if windows is None:
            raise PreventUpdate
        return windows


def _register_files_and_pins(app, cache, store) -> None:
    """The record's upload, the window files' upload and the pins' buttons."""

    @app.callback(
        output={"record": Output(ids.MON_RECORD, "data"),
                "name": Output(ids.MON_RECORD + "-name", "children", allow_duplicate=True),
                "reference": Output(ids.MON_REFERENCE, "value", allow_duplicate=True),
                "record_id": Output(ids.MON_RECORD_ID, "data", allow_duplicate=True)},
        inputs={"contents": Input(ids.MON_UPLOAD, "contents")},
        state={"filename": State(ids.MON_UPLOAD, "filename"),
               "kept": State(ids.MON_RECORD, "data"),
               "kept_id": State(ids.MON_RECORD_ID, "data")},
        prevent_initial_call=True,
    )
    def upload(contents, filename, kept, kept_id=None):
        if contents is None:
            raise PreventUpdate
        got = _upload(contents, filename)
        if "error" in got:  # the record loaded before stays
            return refused_record(store, got["error"], kept, kept_id)
        try:
            kept = put_file(store.root, "record", got["name"], got["text"].encode("utf-8"))
        except NotKept as exc:  # the record loaded before stays
            return refused_record(store, f"{got['name']}: {exc}", kept, kept_id)
        return {"record": got, "name": f"Record: {got['name']}", "reference": "upload",
                "record_id": kept.id}

    @app.callback(
        output={"files": Output(ids.MON_FILES, "data"),
                "status": Output(ids.MON_WINDOW_STATUS, "children"),
                "windows": Output(ids.MON_WINDOWS, "value", allow_duplicate=True),
                "seen": Output(ids.MON_WINDOW_SEEN, "data")},
        inputs={"contents": Input(ids.MON_WINDOW_UPLOAD, "contents")},
        state={"filenames": State(ids.MON_WINDOW_UPLOAD, "filename"),
               "files": State(ids.MON_FILES, "data"),
               "windows": State(ids.MON_WINDOWS, "value"),
               "time": State(ids.MON_TIME, "value"),
               "every": State(ids.MON_EVERY, "value"),
               "seen": State(ids.MON_WINDOW_SEEN, "data")},
        prevent_initial_call=True,
    )
    def upload_windows(contents, filenames, files, windows, time, every, seen):
        if not contents:
            raise PreventUpdate
        return upload_window_files(store, contents, filenames, files, windows, time, every,
                                   seen)

    @app.callback(
        output={"pins": Output(ids.MON_PINS, "data", allow_duplicate=True)},
        inputs={"add": Input(ids.MON_PIN_ADD, "n_clicks"),
                "clear": Input(ids.MON_PIN_CLEAR, "n_clicks")},
        state={"window": State(ids.MON_PIN_WINDOW, "value"),
               "threshold": State(ids.MON_PIN_THRESHOLD, "value"),
               "page": dependencies(State, "monitor", "conditions", "models", "level",
                                    "datasets", "band", "samples", "pins"),
               "record": State(ids.MON_RECORD, "data")},
        prevent_initial_call=True,
    )
    def pin(add, clear, window, threshold, page, record):
        if not (add or clear):
            raise PreventUpdate
        page = PageState.from_dash(page)
        kept = [list(p) for p in page.monitor.pins]
        return {"pins": pinned(cache, page, record, kept, window, threshold,
                               ctx.triggered_id == ids.MON_PIN_CLEAR)}
