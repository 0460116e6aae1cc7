"""The input kinds in the dashboard: multi-class, soft labels, example-specific costs, leaves.

Every kind is stored as a binary canonical table (:mod:`roc_dash.core.kinds`), so every view
works on it unchanged; this module adds what each kind needs on top:

* **multi-class** (Fawcett 2004 s7.3): the class selector (which class is "positive" for the
  ROC, PR and cost views: :func:`apply_reference` takes its class reference view; the costs
  and the prior then apply to that class against the rest), the class reference curves of
  one model, Hand & Till's pairwise AUC matrix, and M and the Provost-Domingos weighted AUC
  in the model table;
* **soft labels** (Qin, ``001_*``): the model table says so, and which interval it shows;
* **costs** (s7.2): the ROC axes are the fractions of negative cost and positive benefit;
* **leaves** (Flach et al. s4): the labelings ``S_0 .. S_n`` as clickable points on the ROC;
* the bundled example files, loadable from the data panel.

Numbers come from :mod:`roc_dash.core.extensions`, figures from :mod:`roc_dash.figures.kinds`.
"""

from __future__ import annotations

import pandas as pd
from dash import ALL, Input, Output, State, ctx, dcc, html, no_update
from dash.exceptions import PreventUpdate

from ..core.extensions import analyse_leaves, analyse_multiclass, analyse_soft
from ..core.kinds import CLASS_COLUMN, class_score_column, class_view
from ..figures.kinds import add_labelings, class_curves_figure, cost_axis_titles, pairwise_figure
from ..figures.style import style_index
from . import ids
from .help import HELP
from .server.store import EXAMPLES, DatasetInfo, clean_ids

__all__ = ["kind_status", "apply_reference", "class_choices", "example_links",
           "class_control", "multiclass_card", "shown_kinds", "decorate_roc", "table_extras",
           "multiclass_outputs", "load_example_ids", "register_kinds"]

#: The example links of the data panel (the demo keeps its own button).
EXAMPLE_LINKS = (("demo-multiclass", "multi-class"), ("demo-soft", "soft labels"),
                 ("demo-leaves", "tree leaves"))
#: Longest class name taken from the browser or a link.
MAX_CLASS = 200


# -- what was read ------------------------------------------------------------------------
def _listed(items, n: int = 6) -> str:
    items = [str(x) for x in items]
    return ", ".join(items[:n]) + (f" and {len(items) - n} more" if len(items) > n else "")


def kind_status(info: DatasetInfo) -> list[str]:
    """One sentence for the status line on what kind of file was read (none for binary)."""
    col = f" (column {info.kind_column!r})" if info.kind_column else ""
    if info.kind == "multiclass":
        return [f"Multi-class file: {len(info.classes)} classes ({_listed(info.classes)}); the "
                f"ROC, PR and cost views show {info.reference_class} against the rest: choose "
                "the positive class under the dataset list."]
    if info.kind == "soft":
        return [f"Soft labels{col}: each row counts p positives and 1 − p negatives "
                "(Qin's eq. 8); the model table names the interval shown."]
    if info.kind == "costs":
        return [f"Example-specific costs{col}: every view weighs the rows by their cost."]
    if info.kind == "leaves":
        return ["Decision-tree leaves: the ROC shows the labelings S0…Sn of the leaves and "
                "their hull; click one to pin it."]
    return []


# -- the class selector -------------------------------------------------------------------
def clean_class(value) -> str | None:
    """A class name from the browser or a link: a short string, else None."""
    return value if isinstance(value, str) and 0 < len(value) <= MAX_CLASS else None


def apply_reference(table: pd.DataFrame, reference) -> pd.DataFrame:
    """The class reference view of class ``reference`` when ``table`` is multi-class and has
    that class (:func:`roc_dash.core.kinds.class_view`); otherwise ``table`` unchanged."""
    reference = clean_class(reference)
    if (reference is None or CLASS_COLUMN not in table.columns
            or class_score_column(reference) not in table.columns):
        return table
    return class_view(table, reference)


def class_choices(infos: list[DatasetInfo], wanted=None) -> tuple[list[dict], str | None]:
    """The selector's options (the classes of every multi-class dataset, in order) and its
    value: ``wanted`` if it is one of them, else the first dataset's reference class."""
    classes: list[str] = []
    default = None
    for info in infos:
        if info.kind == "multiclass":
            default = default or info.reference_class
            classes.extend(c for c in info.classes if c not in classes)
    options = [{"label": c, "value": c} for c in classes]
    wanted = clean_class(wanted)
    return options, (wanted if wanted in classes else default if classes else None)


# -- layout -------------------------------------------------------------------------------
def example_links():
    """Links that load the bundled examples of the other input kinds."""
    return html.Div(className="examples", title=HELP["examples"], children=[
        html.Span("Examples:", className="hint"),
        *[html.Button(text, id={"type": ids.LOAD_EXAMPLE, "index": key}, n_clicks=0,
                      className="link-button", title=f"Load {EXAMPLES[key][0]}")
          for key, text in EXAMPLE_LINKS]])


def class_control():
    """The positive class of multi-class data (hidden until such data is loaded)."""
    return html.Div(id=ids.CLASS_ROW, className="control class-row", style={"display": "none"},
                    children=[
                        html.Label("Positive class (multi-class data)", htmlFor=ids.CLASS_CHOICE,
                                   className="control-label", title=HELP["class_choice"]),
                        dcc.Dropdown(id=ids.CLASS_CHOICE, options=[], value=None,
                                     clearable=False, searchable=False,
                                     className="class-choice"),
                        html.Div("The ROC, PR and cost views show this class against the rest.",
                                 className="hint")])


def multiclass_card(graph_config):
    """One model's class reference curves and its pairwise AUC matrix (hidden until
    multi-class data is loaded)."""
    return html.Div(id=ids.MC_CARD, className="card mc-card", style={"display": "none"},
                    children=[
        html.Div(className="card-head", children=[
            html.H2("Multi-class: every class against the rest", title=HELP["class_curves"]),
            html.Div(title="The model whose class reference curves and pairwise AUC matrix "
                           "are drawn (Fawcett 2004, section 7.3; Hand & Till 2001)",
                     children=dcc.Dropdown(id=ids.MC_MODEL, options=[], clearable=False,
                                           searchable=False, placeholder="model",
                                           className="mc-model")),
        ]),
        html.Div(id=ids.MC_SUMMARY, className="mc-summary", role="status"),
        html.Div(className="mc-grid", children=[
            dcc.Graph(id=ids.MC_CURVES, config=graph_config("class-curves"),
                      className="graph mc-graph"),
            html.Div(title=HELP["pairwise"], children=[
                html.H3("Pairwise AUC Â(i|j) (Hand & Till)", className="mc-title"),
                dcc.Graph(id=ids.MC_PAIRWISE, config=graph_config("pairwise"),
                          className="graph mc-heat")]),
        ]),
    ])


# -- what the views add -------------------------------------------------------------------
def shown_kinds(table: pd.DataFrame | None, infos: list[DatasetInfo], labels: list[str],
                models) -> dict[str, DatasetInfo]:
    """The dataset (its info) of each shown model, from the combined table's ``dataset``
    column (model names are distinct across datasets)."""
    if table is None or not len(table) or not models:
        return {}
    by_label = dict(zip(labels, infos, strict=True))
    first = table.drop_duplicates("model")[["model", "dataset"]]
    return {str(m): by_label[d] for m, d in zip(first["model"], first["dataset"], strict=True)
            if str(m) in set(models) and d in by_label}


def _rows(table: pd.DataFrame, models) -> pd.DataFrame:
    return table[table["model"].astype(str).isin(list(models))]


def decorate_roc(fig, analysis, table, kinds: dict[str, DatasetInfo], *, colors=None,
                 font_size=14, det=False):
    """Cost-fraction axis titles when every shown model's weights are costs, and the leaf
    labelings of every shown tree (ROC axes only)."""
    if analysis is None or det or not kinds:
        return fig
    names = [m.name for m in analysis.models]
    if all(kinds.get(n) is not None and kinds[n].weights_are_costs for n in names):
        cost_axis_titles(fig)
    trees = [n for n in names if kinds.get(n) is not None and kinds[n].kind == "leaves"]
    if trees and table is not None:
        for result in analyse_leaves(_rows(table, trees)):
            k = names.index(result.name)
            add_labelings(fig, result, model_index=k,
                          style=style_index(colors, result.name, k), font_size=font_size)
    return fig


def multiclass_results(cache, dataset_ids, models, kinds):
    """:func:`analyse_multiclass` of the shown models of multi-class datasets (cached)."""
    wanted = [m for m in models if kinds.get(m) is not None and kinds[m].kind == "multiclass"]
    if not wanted:
        return {}

    def make():
        table = cache.table(dataset_ids)
        out = {}
        for info in {kinds[m].id: kinds[m] for m in wanted}.values():
            mine = [m for m in wanted if kinds[m].id == info.id]
            for r in analyse_multiclass(_rows(table, mine), info.classes):
                out[r.name] = r
        return out

    return cache.cache.get_or_make(("multiclass", tuple(clean_ids(dataset_ids)),
                                    tuple(wanted)), make)


def soft_results(cache, dataset_ids, models, kinds, level):
    """:func:`analyse_soft` of the shown models of soft-label datasets (cached)."""
    wanted = [m for m in models if kinds.get(m) is not None and kinds[m].kind == "soft"]
    if not wanted:
        return {}

    def make():
        rows = _rows(cache.table(dataset_ids), wanted)
        return {r.name: r for r in analyse_soft(rows, level=level)}

    return cache.cache.get_or_make(("soft", tuple(clean_ids(dataset_ids)), tuple(wanted),
                                    level), make)


def table_extras(analysis, multiclass: dict, soft: dict) -> dict | None:
    """Extra columns of the model table: ``{"columns": [(header, help key)], "cells":
    {model: [text or component, ...]}}`` (None when no shown model is multi-class or soft).
    A soft-label model's cell names its interval, or says there is none (the reason in its
    tooltip)."""
    if analysis is None or not (multiclass or soft):
        return None
    columns, cells = [], {m.name: [] for m in analysis.models}
    if multiclass:
        columns += [("M (Hand & Till)", "hand_till"),
                    ("Weighted AUC (Provost–Domingos)", "weighted_auc")]
        for name in cells:
            r = multiclass.get(name)
            cells[name] += ([f"{r.result.hand_till_m:.3f}", f"{r.result.weighted_auc:.3f}"]
                            if r is not None else ["", ""])
    if soft:
        columns.append(("Labels", "soft"))
        for m in analysis.models:
            r = soft.get(m.name)
            if r is None:
                cells[m.name].append("")
            elif r.interval is None:
                cells[m.name].append(html.Span(["soft labels", html.Br(), "no interval"],
                                               title=r.reason, className="kind-cell"))
            else:
                method = ("DeLong (hard labels)" if r.interval.method == "delong"
                          else "soft DeLong (Qin)")
                cells[m.name].append(html.Span(["soft labels", html.Br(), f"CI: {method}"],
                                               className="kind-cell"))
    return {"columns": columns, "cells": cells}


# -- the multi-class card -----------------------------------------------------------------
def multiclass_outputs(results: dict, model, reference, *, font_size=14):
    """``(curves figure, matrix figure, summary)`` of the multi-class card for ``model``."""
    from .callbacks import _empty_figure

    r = results.get(model)
    if r is None:
        return (_empty_figure(font_size), _empty_figure(font_size),
                "Tick a model of the multi-class data to see its classes.")
    res = r.result
    per_class = "; ".join(f"{c}: {a:.3f}" for c, a in zip(res.classes.tolist(),
                                                          res.auc_per_class, strict=True))
    summary = [html.Span(f"M = {res.hand_till_m:.3f}", title=HELP["hand_till"],
                         className="mc-stat"),
               html.Span(f"weighted AUC = {res.weighted_auc:.3f}", title=HELP["weighted_auc"],
                         className="mc-stat"),
               html.Span(f"macro AUC = {res.macro_auc:.3f}", className="mc-stat"),
               html.Span(f"class vs rest AUC: {per_class}", className="hint")]
    return (class_curves_figure(res, r.name, reference=reference, font_size=font_size),
            pairwise_figure(res, r.name, font_size=font_size), summary)


def load_example_ids(current, example) -> tuple[list[str], str]:
    """The dataset ids after clicking an example link, and the status line: the example
    replaces the bundled data shown (the demo or another example), and is added next to
    uploads."""
    current = clean_ids(current)
    if example not in EXAMPLES:
        raise PreventUpdate
    name = EXAMPLES[example][1]
    if example in current:
        return current, f"The {name} is already loaded."
    kept = [] if all(d in EXAMPLES for d in current) else current
    return kept + [example], f"Loaded the {name} ({EXAMPLES[example][0]})."


# -- wiring -------------------------------------------------------------------------------
def register_kinds(app, cache, store) -> None:
    from .callbacks import FONT, dataset_labels, loaded_infos, model_names
    from .controls import ControlState, parse_query

    @app.callback(
        Output(ids.DATASETS, "data", allow_duplicate=True),
        Output(ids.UPLOAD_STATUS, "children", allow_duplicate=True),
        Output(ids.UPLOAD_ERROR, "children", allow_duplicate=True),
        Input({"type": ids.LOAD_EXAMPLE, "index": ALL}, "n_clicks"),
        State(ids.DATASETS, "data"),
        prevent_initial_call=True,
    )
    def load_example(_clicks, dataset_ids):
        trigger = ctx.triggered_id
        if not isinstance(trigger, dict) or not any(t["value"] for t in ctx.triggered):
            raise PreventUpdate
        new, status = load_example_ids(dataset_ids, trigger.get("index"))
        infos, _ = loaded_infos(store, [trigger.get("index")])
        status = " ".join([status, *(kind_status(infos[0]) if infos else [])])
        return (new if new != clean_ids(dataset_ids) else no_update), status, ""

    @app.callback(
        Output(ids.CLASS_CHOICE, "options"),
        Output(ids.CLASS_CHOICE, "value"),
        Output(ids.CLASS_ROW, "style"),
        Input(ids.DATASETS, "data"),
        State(ids.CLASS_CHOICE, "value"),
        State(ids.CONDITIONS, "data"),
        State(ids.URL, "search"),
    )
    def class_selector(dataset_ids, value, state, search):
        infos, _ = loaded_infos(store, dataset_ids)
        wanted = value or ControlState.from_store(state).reference_class or \
            parse_query(search).get("reference_class")
        options, value = class_choices(infos, wanted)
        return options, value, ({"display": "block"} if options else {"display": "none"})

    @app.callback(
        Output(ids.MC_MODEL, "options"),
        Output(ids.MC_MODEL, "value"),
        Output(ids.MC_CARD, "style"),
        Input(ids.DATASETS, "data"),
        Input(ids.MODELS, "value"),
        State(ids.MC_MODEL, "value"),
    )
    def mc_models(dataset_ids, models, current):
        infos, _ = loaded_infos(store, dataset_ids)
        names = model_names(cache, [i.id for i in infos])
        shown = [m for m in (models or []) if m in names]
        kinds = shown_kinds(cache.table(dataset_ids), infos, dataset_labels(infos), shown)
        mc = [m for m in shown if kinds[m].kind == "multiclass"]
        style = {} if mc else {"display": "none"}
        return ([{"label": m, "value": m} for m in mc],
                current if current in mc else (mc[0] if mc else None), style)

    @app.callback(
        Output(ids.MC_CURVES, "figure"),
        Output(ids.MC_PAIRWISE, "figure"),
        Output(ids.MC_SUMMARY, "children"),
        Input(ids.MC_MODEL, "value"),
        Input(ids.CLASS_CHOICE, "value"),
        Input(ids.PRESENTATION, "value"),
        State(ids.DATASETS, "data"),
    )
    def mc_views(model, reference, presentation, dataset_ids):
        if not isinstance(model, str):
            raise PreventUpdate
        infos, _ = loaded_infos(store, dataset_ids)
        kinds = shown_kinds(cache.table(dataset_ids), infos, dataset_labels(infos), [model])
        results = multiclass_results(cache, dataset_ids, [model], kinds)
        return multiclass_outputs(results, model, clean_class(reference),
                                  font_size=FONT[bool(presentation)])
