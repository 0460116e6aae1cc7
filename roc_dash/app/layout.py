"""Dash layout: upload and loaded-data panel on the left, views on the right."""

from __future__ import annotations

from dash import dcc, html

from ..figures import GRAPH_CONFIG
from . import ids
from .store import DEMO_ID

ACCEPTED = ".csv,.tsv,.txt,.gz,.parquet,.pq"


def _format_help() -> html.Details:
    return html.Details(
        className="format-help",
        children=[
            html.Summary("Input format"),
            html.P([
                "One row per prediction with a ", html.Code("label"), " and a ",
                html.Code("score"), " column; optional ", html.Code("model"), ", ",
                html.Code("fold"), ", ", html.Code("weight"), " and ", html.Code("id"), ".",
            ]),
            html.P("Labels: 0/1, -1/+1, true/false, yes/no, p/n, pos/neg, positive/negative. "
                   "CSV, TSV, semicolon-separated, gzip or Parquet."),
        ],
    )


def build_layout() -> html.Div:
    return html.Div(
        className="app",
        children=[
            html.Header(
                className="topbar",
                children=[
                    html.H1("roc-dash"),
                    html.Span("ROC analysis of classifier predictions", className="tagline"),
                ],
            ),
            html.Div(
                className="main",
                children=[
                    html.Aside(
                        className="sidebar",
                        children=[
                            dcc.Upload(
                                id=ids.UPLOAD,
                                className="upload",
                                multiple=True,
                                accept=ACCEPTED,
                                children=html.Div([
                                    html.Div("Drop prediction files here", className="upload-title"),
                                    html.Div("or click to choose (CSV, TSV, gzip, Parquet)",
                                             className="hint"),
                                ]),
                            ),
                            dcc.Loading(
                                type="dot",
                                children=html.Div(id=ids.UPLOAD_STATUS, className="status"),
                            ),
                            html.Div(id=ids.UPLOAD_ERROR, className="error", role="alert"),
                            html.H2("Loaded data"),
                            html.Div(id=ids.DATASET_LIST, className="dataset-list"),
                            _format_help(),
                        ],
                    ),
                    html.Section(
                        className="views",
                        children=[
                            html.Div(
                                className="card",
                                children=[
                                    html.H2("ROC curves"),
                                    dcc.Loading(
                                        type="circle",
                                        children=dcc.Graph(
                                            id=ids.ROC_GRAPH,
                                            config=GRAPH_CONFIG,
                                            className="graph-roc",
                                        ),
                                    ),
                                ],
                            ),
                            html.Div(
                                className="card",
                                children=[html.H2("Models"), html.Div(id=ids.MODEL_TABLE)],
                            ),
                        ],
                    ),
                ],
            ),
            dcc.Store(id=ids.DATASETS, data=[DEMO_ID], storage_type="session"),
        ],
    )
