"""The page: the features' fragments in their places, and the stores several features share.

Each feature (:mod:`.features`) owns its panels and cards; this module only places them: the
top bar, the summary strip, the sidebar (data, costs and class mix, folds, models and view,
notes) and, beside it, the tabs (*Decide*, *Compare*, *Beyond binary*), each a group of
cards. The stores at the bottom hold the state the
features pass between them (the datasets loaded, the pins, what the views were drawn with,
a dragged line, zooms, clicks, the query string) and the download component.
"""

from __future__ import annotations

from dash import dcc, html

from . import features, ids
from .components import graph_config
from .server.store import DEMO_ID

__all__ = ["build_layout"]


def _topbar():
    return html.Header(
        className="topbar",
        children=[
            html.H1("roc-dash"),
            html.Span("Which classifier, at which threshold, under these costs and "
                      "this class mix?", className="tagline"),
            html.Div(className="topbar-actions", children=[
                html.Button("Controls", id=ids.SIDEBAR_TOGGLE, n_clicks=0,
                            className="button light present-toggle",
                            title="Show or hide the controls (presentation mode)",
                            **{"aria-expanded": "false"}),
                *features.notes.link_buttons(),
                *features.exports.buttons(),
            ]),
        ],
    )


def _shared_stores():
    return [
        dcc.Store(id=ids.DATASETS, data=[DEMO_ID], storage_type="session"),
        dcc.Store(id=ids.PINNED, data=[]),
        dcc.Store(id=ids.VIZ_DATA, data=None),
        dcc.Store(id=ids.LINE_DRAG, data=None),
        dcc.Store(id=ids.ZOOM, data=None),
        dcc.Store(id=ids.ZOOM_LINK, data=None),
        dcc.Store(id=ids.CLICK, data=None),
        dcc.Store(id=ids.URL_SYNC, data=None),
        dcc.Download(id=ids.DOWNLOAD),
    ]


def build_layout() -> html.Div:
    """Controls on the left; on the right the tabs: the linked views and the operating point
    (*Decide*), the model table and relative superiority (*Compare*), multi-class data and
    combining classifiers (*Beyond binary*)."""
    return html.Div(
        id=ids.APP,
        className="app",
        children=[
            dcc.Location(id=ids.URL, refresh=False),
            # the keyboard's short path past the top bar and the controls
            html.A("Skip to the views", href=f"#{ids.VIEWS_MAIN}", className="skip-link"),
            _topbar(),
            features.pins.summary(),
            html.Div(
                className="main",
                children=[
                    html.Aside(className="sidebar", **{"aria-label": "Controls"}, children=[
                        features.data.panel(features.kinds.class_control(),
                                            features.kinds.example_links()),
                        features.sources.panel(),
                        features.conditions.panel(), features.views.folds_panel(),
                        features.views.view_panel(),
                        features.notes.panel(),
                    ]),
                    html.Main(id=ids.VIEWS_MAIN, className="views", tabIndex="-1", children=[
                        html.Div(id=ids.UPDATE_FAILED, className="banner warn", role="alert",
                                 hidden=True),
                        html.Div(id=ids.MISSING, className="banner warn", role="alert"),
                        html.Div(id=ids.BANNER, className="banner", role="status"),
                        html.Nav(features.tabs.bar(), **{"aria-label": "Tabs"}),
                        features.tabs.panel("decide", [
                            features.views.roc_card(), features.views.pr_card(),
                            features.views.cost_card(),
                            features.pins.operating_card(), features.views.threshold_card(),
                            features.constraints.card(),
                        ]),
                        features.tabs.panel("compare", [
                            features.views.models_card(),
                            features.combining.superiority_card(graph_config("superiority")),
                            features.comparison.comparison_card(),
                            features.slices.card(),
                            features.calibration.calibration_card(graph_config("calibration")),
                        ], className="stack"),
                        features.tabs.panel("beyond", [
                            features.kinds.multiclass_card(features.views.graph_config),
                            features.cost_matrix.card(),
                            features.combining.combining_card(),
                        ], className="stack"),
                        features.tabs.panel("monitor", features.monitor.panel(),
                                            className="stack"),
                    ]),
                ],
            ),
            *_shared_stores(),
        ],
    )
