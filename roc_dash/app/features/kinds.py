"""The input kinds in the dashboard: multi-class, soft labels, example-specific costs, leaves.

Every kind is stored as a binary canonical table (:mod:`roc_dash.core.kinds.canonical_kinds`), so every view
works on it unchanged; this module adds what each kind needs on top:

* **multi-class** (Fawcett 2004 s7.3): the class selector (which class is "positive" for the
  ROC, PR and cost views: :func:`apply_reference` takes its class reference view; the costs
  and the prior then apply to that class against the rest), the class reference curves of
  one model, Hand & Till's pairwise AUC matrix, and M and the Provost-Domingos weighted AUC
  in the model table;
* **soft labels** (Qin 2005, see roc_dash.core.kinds.soft_labels): the model table says so, and which interval it shows;
* **costs** (s7.2): the ROC axes are the fractions of negative cost and positive benefit;
* **leaves** (Flach et al. s4): the labelings ``S_0 .. S_n`` as clickable points on the ROC;
* the bundled example files, loadable from the data panel.

Numbers come from :mod:`roc_dash.core.assembly.extensions`, figures from :mod:`roc_dash.figures.kinds`;
what the kinds add to the linked views and the model table is in :mod:`..overlays`
(the views draw it), what kind a dataset is in :mod:`..analysis`.
"""

from __future__ import annotations

from dash import ALL, Input, Output, State, ctx, dcc, html, no_update
from dash.exceptions import PreventUpdate

from ...figures.kinds import class_curves_figure, pairwise_figure
from ...text.rounding import sig
from .. import ids
from ..analysis import dataset_labels, kind_status, loaded_infos, model_refs, shown_keys
from ..components import empty_figure
from ..help import HELP
from ..overlays import multiclass_results, shown_kinds
from ..page_state import PageState, dependencies, parse_link
from ..server.store import EXAMPLES, DatasetInfo, clean_ids
from ..state import FONT, clean_class, tab_shown

__all__ = ["EXAMPLE_LINKS", "class_choices", "example_links", "class_control",
           "multiclass_card", "multiclass_outputs", "load_example_ids", "register"]


#: The example links of the data panel (the demo keeps its own button).
EXAMPLE_LINKS = (("demo-multiclass", "multi-class"), ("demo-soft", "soft labels"),
                 ("demo-leaves", "tree leaves"))


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


def multiclass_outputs(results: dict, model, reference, *, font_size=14):
    """``(curves figure, matrix figure, summary)`` of the multi-class card for ``model``."""
    r = results.get(model)
    if r is None:
        return (empty_figure(font_size), empty_figure(font_size),
                "Tick a model of the multi-class data to see its classes.")
    res = r.result
    per_class = "; ".join(f"{c}: {sig(a)}" for c, a in zip(res.classes.tolist(),
                                                          res.auc_per_class, strict=True))
    summary = [html.Span(f"M = {sig(res.hand_till_m)}", title=HELP["hand_till"],
                         className="mc-stat"),
               html.Span(f"weighted AUC = {sig(res.weighted_auc)}", title=HELP["weighted_auc"],
                         className="mc-stat"),
               html.Span(f"macro AUC = {sig(res.macro_auc)}", className="mc-stat"),
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


# -- wiring ------------------------------------------------------------------------------
def register(app, cache, store) -> None:
    """The example links, the class selector and the multi-class card."""

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
        output={"options": Output(ids.CLASS_CHOICE, "options"),
                "value": Output(ids.CLASS_CHOICE, "value"),
                "row": Output(ids.CLASS_ROW, "style")},
        inputs={"page": {**dependencies(Input, "datasets"), **dependencies(State, "conditions")},
                "value": State(ids.CLASS_CHOICE, "value"), "search": State(ids.URL, "search")},
    )
    def class_selector(page, value, search):
        page = PageState.from_dash(page)
        infos, _ = loaded_infos(store, page.datasets)
        wanted = value or page.control.reference_class or \
            parse_link(search)[0].control.reference_class
        options, value = class_choices(infos, wanted)
        return {"options": options, "value": value,
                "row": {"display": "block"} if options else {"display": "none"}}

    @app.callback(
        output={"options": Output(ids.MC_MODEL, "options"),
                "value": Output(ids.MC_MODEL, "value"), "style": Output(ids.MC_CARD, "style")},
        inputs={"page": dependencies(Input, "datasets", "models"),
                "current": State(ids.MC_MODEL, "value")},
    )
    def mc_models(page, current):
        # the models by key (dataset id and name), shown under their names
        page = PageState.from_dash(page)
        infos, _ = loaded_infos(store, page.datasets)
        refs = model_refs(cache, page.datasets)
        shown = shown_keys(cache, page)
        kinds = shown_kinds(cache.model_datasets(page.datasets), infos, dataset_labels(infos),
                            [refs[k] for k in shown])
        mc = [k for k in shown if kinds[refs[k]].kind == "multiclass"]
        return {"options": [{"label": refs[k], "value": k} for k in mc],
                "value": current if current in mc else (mc[0] if mc else None),
                "style": {} if mc else {"display": "none"}}

    @app.callback(
        output={"curves": Output(ids.MC_CURVES, "figure"),
                "pairwise": Output(ids.MC_PAIRWISE, "figure"),
                "summary": Output(ids.MC_SUMMARY, "children")},
        inputs={"model": Input(ids.MC_MODEL, "value"),
                "reference": Input(ids.CLASS_CHOICE, "value"),
                "presentation": Input(ids.PRESENTATION, "value"),
                "tab": Input(ids.TAB, "data"),  # computed only while Beyond binary is shown
                "datasets": State(ids.DATASETS, "data")},
    )
    def mc_views(model, reference, presentation, tab, datasets):
        model = model_refs(cache, datasets).get(model)  # its shown name
        if not isinstance(model, str) or not tab_shown(tab, "beyond"):
            raise PreventUpdate
        infos, _ = loaded_infos(store, datasets)
        kinds = shown_kinds(cache.model_datasets(datasets), infos, dataset_labels(infos),
                            [model])
        results = multiclass_results(cache, datasets, [model], kinds)
        curves, pairwise, summary = multiclass_outputs(results, model, clean_class(reference),
                                                       font_size=FONT[bool(presentation)])
        return {"curves": curves, "pairwise": pairwise, "summary": summary}
