"""Notes, saved views and links: a note and named views kept with the loaded datasets, the
page's query string written as the controls change, and the *Copy link* button."""

from __future__ import annotations

from dash import ALL, Input, Output, State, ctx, dcc, html, no_update
from dash.exceptions import PreventUpdate

from .. import ids
from ..callbacks import in_browser
from ..components import view_list
from ..help import HELP
from ..page_state import PageState, dependencies
from ..server.auth import current_owner
from ..server.store import DatasetNotFound, NotAllowed, clean_ids

__all__ = ["panel", "link_buttons", "register"]


def panel():
    """Notes and saved views, kept on the server with the loaded datasets."""
    return html.Section(className="panel", children=[
        html.H2("Notes and saved views", title="Kept on the server with the loaded datasets: "
                "anyone opening them (or a link to them) sees the same note and views."),
        dcc.Textarea(id=ids.NOTE, title=HELP["note"], placeholder="A note for this review (saved when you leave "
                     "the box)", className="note", maxLength=5000),
        html.Div(className="save-row", children=[
            html.Div(title=HELP["view_name"], className="view-name-box", children=dcc.Input(
                id=ids.VIEW_NAME, type="text", placeholder="name this view", maxLength=80,
                className="text", debounce=False)),
            html.Button("Save view", id=ids.SAVE_VIEW, n_clicks=0, className="button",
                        title="Save the controls and pins under this name"),
        ]),
        html.Div(id=ids.NOTE_STATUS, className="hint", role="status"),
        html.Ul(id=ids.VIEW_LIST, className="view-list"),
        dcc.Store(id=ids.VIEWS, data=[]),
        dcc.Store(id=ids.URL_WRITTEN, data=None),
    ])


def link_buttons():
    """*Copy link* and its status, in the top bar."""
    return [html.Button("Copy link", id=ids.COPY_LINK, n_clicks=0,
                        className="button light", title=HELP["copy_link"]),
            html.Span(id=ids.COPY_STATUS, className="copy-status", role="status")]


# -- wiring ------------------------------------------------------------------------------
def register(app, cache, store) -> None:
    """Notes and views; opening a view, the page's URL and *Copy link* (clientside)."""

    _register_notes(app, cache, store)
    _register_links(app, cache, store)


def _register_notes(app, cache, store) -> None:
    """The note and the saved views."""

    @app.callback(
        output={"list": Output(ids.VIEW_LIST, "children"), "views": Output(ids.VIEWS, "data"),
                "note": Output(ids.NOTE, "value"), "status": Output(ids.NOTE_STATUS, "children"),
                "name": Output(ids.VIEW_NAME, "value"),
                "read_only": (Output(ids.NOTE, "readOnly"), Output(ids.VIEW_NAME, "disabled"),
                              Output(ids.SAVE_VIEW, "disabled"))},
        inputs={"datasets": Input(ids.DATASETS, "data"),
                "save": (Input(ids.SAVE_VIEW, "n_clicks"), Input(ids.VIEW_NAME, "n_submit")),
                "blur": Input(ids.NOTE, "n_blur"),
                "delete": Input({"type": ids.DELETE_VIEW, "index": ALL}, "n_clicks"),
                "name": State(ids.VIEW_NAME, "value"), "note": State(ids.NOTE, "value"),
                "query": State(ids.URL_SYNC, "data"), "search": State(ids.URL, "search")},
    )
    def notes_and_views(datasets, save, blur, delete, name, note, query, search):
        # the view saved: the page's link, written from its state (its query string)
        query = query if isinstance(query, str) else search
        datasets = clean_ids(datasets)
        owner = current_owner()
        status, name_out, note_out = "", no_update, no_update
        try:
            status, name_out, note_out = _note_or_view(store, ctx.triggered_id, datasets, name,
                                                       note, query, owner)
        except NotAllowed as exc:
            status = str(exc)
            note_out = store.notes(datasets, owner)["note"]  # theirs stays as it was
        except DatasetNotFound:
            status = ("Could not save: notes are kept only with datasets this server holds "
                      "(load or upload one first).")
        except (OSError, ValueError) as exc:
            status = f"Could not save: {exc}."
        editable = store.can_write_notes(datasets, owner)
        if not editable and not status and datasets:
            status = store.READ_ONLY
        views = store.notes(datasets, owner)["views"]
        return {"list": view_list(views, editable=editable, loaded=datasets), "views": views,
                "note": note_out, "status": status, "name": name_out,
                "read_only": (not editable,) * 3}


def _note_or_view(store, trigger, datasets, name, note, query, owner):
    """``(status, name box, note box)`` after the gesture ``trigger`` (save a view, leave the
    note's box, delete a view, or other datasets: their note)."""
    if trigger in (ids.SAVE_VIEW, ids.VIEW_NAME):
        if not (name or "").strip():
            raise PreventUpdate
        views = store.save_view(datasets, name, query if isinstance(query, str) else "",
                                owner=owner)
        saved = next((v["name"] for v in views[::-1]
                      if v["name"] == " ".join(str(name).split())[:80]), name)
        return f"Saved the view “{saved}”.", "", no_update
    if trigger == ids.NOTE:
        if (note or "") == store.notes(datasets, owner)["note"]:
            # left as it was (a Tab walk through the box): nothing to save, nothing to say
            raise PreventUpdate
        kept = store.save_note(datasets, note, owner=owner)
        return ("Note saved." if kept == (note or "") else
                f"Note saved (cut to {store.MAX_NOTE:,} characters)."), no_update, no_update
    if isinstance(trigger, dict) and trigger.get("type") == ids.DELETE_VIEW:
        if not any(t["value"] for t in ctx.triggered):
            raise PreventUpdate
        store.delete_view(datasets, trigger.get("index"), owner=owner)
        return "View deleted.", no_update, no_update
    return "", no_update, store.notes(datasets, owner)["note"]  # other datasets: their note


def _register_links(app, cache, store) -> None:
    """Opening a view, the page's URL and *Copy link* (clientside)."""

    in_browser(app, "openView",
               Output(ids.NOTE_STATUS, "children", allow_duplicate=True),
               Input({"type": ids.OPEN_VIEW, "index": ALL}, "n_clicks"), State(ids.VIEWS, "data"))

    @app.callback(output=Output(ids.URL_SYNC, "data"), inputs={"page": dependencies(Input)},
                  prevent_initial_call=True)
    def link(page):
        """The page's link, written from its state (every field of it), as it changes."""
        state = PageState.from_dash(page)
        if state.conditions is None:
            raise PreventUpdate  # the link the page was opened with is still being read
        return state.to_query()

    # the address bar shows it (history.replaceState: no reload, no new history entry)
    in_browser(app, "writeUrl", Output(ids.URL_WRITTEN, "data"), Input(ids.URL_SYNC, "data"))

    in_browser(app, "copyLink",
               Output(ids.COPY_STATUS, "children"), Input(ids.COPY_LINK, "n_clicks"))
