"""Slices: one model group by group, and its thresholds under a fairness constraint.

The *Slices* card of the *Compare* tab. The groups come from the column chosen in the card
(*Slice by*, optionally *crossed with* a second: each pair of values a group), among the
canonical table's ``group`` column (a file column named ``group``, the default) and the
upload's other categorical columns (:mod:`roc_dash.io.slice_columns`; a column of numbers is
listed and refused with the advice to bin it). The card shows the chosen model's ROC
per group with each group's optimum under the costs and prior (the ``CONDITIONS`` store,
as every card; optionally a prior per group, typed as ``group=value``), a table of the groups
(rows, prevalence, AUC with its interval, optimum, cost; small groups flagged), and, for the
constraint chosen, each group's operating point, the total expected cost per case and what
the constraint costs against each group's own optimum. A group's ring can be dragged along
its hull: the others follow the constraint
(:func:`roc_dash.core.subgroups.group_thresholds.follow_constraint`; the drag reaches the server
through the clientside ``rocDash.slicesDrag``). The slice, the constraint and the priors
per group go into the page's link (``slc``, ``slx``, ``sct``, ``sgp``). Numbers come from
:mod:`roc_dash.core.subgroups.slices` (the groups and their curves and intervals made once per data,
model, level and slice by :func:`roc_dash.app.slicing.model_slices`, cached for every worker;
a change of costs, prior or constraint only re-selects the optima) and :func:`roc_dash.core.subgroups.group_thresholds.group_thresholds`;
the figure from :func:`roc_dash.figures.slices.slices_figure` and its rings from
:func:`roc_dash.figures.slices.drag_handles`.
"""

from __future__ import annotations

import uuid

import numpy as np
import pandas as pd
from dash import Input, Output, State, ctx, dcc, html, no_update

from ...core.subgroups.group_thresholds import CONSTRAINTS, follow_constraint, group_thresholds
from ...core.subgroups.slices import slice_optima
from ...figures.slices import CONSTRAINT_NAMES, drag_handles, slices_figure
from ...figures.style import format_threshold
from ...io.errors import InputError
from ...io.groups import GROUP_COLUMN
from ...io.slice_columns import SLICE_PREFIX, binning_message, slice_choices
from ...report.slices import left_out_json, left_out_note, prior_json, why_left_out
from ...text.rounding import sig
from .. import ids
from ..analysis import SHOWN_FIELDS, legacy_names, model_refs, shown_analysis, shown_keys
from ..callbacks import in_browser
from ..components import empty_figure, graph_config
from ..core_words import in_page_words
from ..page_state import PageState, dependencies, parse_link, resolve_refs, tab_gate, tab_page
from ..removal import slices_back
from ..server.budget import HeavyWaitTimeout
from ..slicing import model_slices
from ..state import FONT, conditions_from_state, group_priors

__all__ = ["card", "slices_outputs", "column_choice", "model_choice", "has_columns",
           "headline_key", "register", "NO_GROUPS", "CHOOSE"]

#: What the card says when no loaded file has a column to slice by.
NO_GROUPS = ("No column to slice by in the data loaded. To see each model group by group, "
             "upload a file with a column of categories besides the label and score (a "
             "region, a product, an age band…); a column named group is chosen by default, "
             "any other can be chosen here or on the command line (roc-dash report --group "
             "COL).")
#: The figure's placeholder when no loaded file has a column to slice by.
NO_GROUPS_SHORT = "No column to slice by in the data loaded."
#: Under the figure: the rings can be dragged.
DRAG_HINT = ("Drag a group's ring to move its point along its hull: the other groups follow "
             "the constraint and the costs are recomputed; any other change returns to the "
             "constraint's optimum.")
#: What the card says when there are columns but none is chosen yet.
CHOOSE = "Choose a column to slice by (and optionally a second one to cross with it)."
#: The figure's placeholder then.
CHOOSE_SHORT = "No column chosen: choose one under Slice by, above."


def card():
    """The Slices card: source of the groups, model, constraint, figure, totals, table."""
    return html.Div(id=ids.SLC_CARD, className="card slices-card", children=[
        html.Div(className="card-head", children=[
            html.H2("Slices: the same decision, group by group",
                    title="Each group's ROC and optimum under the current costs and prior, "
                          "and the groups' thresholds under a fairness constraint (Hardt, "
                          "Price & Srebro 2016; Fawcett 2004, section 7.4.1)"),
            html.Div(title="The model whose predictions are sliced by group",
                     children=dcc.Dropdown(id=ids.SLC_MODEL, options=[], clearable=False,
                                           searchable=False, placeholder="model",
                                           className="slices-model")),
        ]),
        html.Div(className="slices-columns", children=[
            html.Label("Slice by", htmlFor=ids.SLC_COLUMN),
            html.Div(title="The column whose values are the groups: any column of categories "
                           "of the file (a column of numbers must be binned first)",
                     children=dcc.Dropdown(id=ids.SLC_COLUMN, options=[], clearable=False,
                                           placeholder="column", className="slices-pick")),
            html.Label("crossed with", htmlFor=ids.SLC_CROSS),
            html.Div(title="Optionally a second column: each pair of values is a group "
                           "(e.g. region × product)",
                     children=dcc.Dropdown(id=ids.SLC_CROSS, options=[], clearable=True,
                                           placeholder="(none)", className="slices-pick")),
        ]),
        html.Div(id=ids.SLC_SOURCE, className="hint", role="status"),
        html.Div(title="How the groups' thresholds are chosen: one threshold for all, each "
                       "group its own optimum, or the optimum under a fairness constraint "
                       "(equal TPR; equal TPR and FPR, by randomising between hull vertices; "
                       "equal share flagged). The total expected cost of each is shown beside "
                       "the unconstrained optimum's.",
                 children=dcc.RadioItems(
                     id=ids.SLC_CONSTRAINT, value="group_optima", inline=True,
                     className="slices-constraint", inputStyle={"marginRight": "4px"},
                     labelStyle={"marginRight": "14px"},
                     options=[{"label": CONSTRAINT_NAMES[c], "value": c}
                              for c in CONSTRAINTS])),
        html.Div(className="slices-priors",
                 title="A deployment prior p(+) for some groups, as group=value separated by "
                       "commas; the other groups take the page's prior (their share of the "
                       "cases is kept). Enter to apply.",
                 children=[
                     html.Label("Prior per group (optional)", htmlFor=ids.SLC_PRIORS),
                     dcc.Input(id=ids.SLC_PRIORS, type="text", debounce=True, value="",
                               placeholder="e.g. north=0.12, west=0.3"),
                 ]),
        html.Div(className="slices-grid", children=[
            html.Div(children=[
                dcc.Graph(id=ids.SLC_GRAPH, className="graph slices-graph",
                          config={**graph_config("slices"), "edits": {"shapePosition": True}}),
                html.Div(DRAG_HINT, className="hint"),
                dcc.Store(id=ids.SLC_DRAG, data=None),
            ]),
            html.Div(children=[
                html.Div(id=ids.SLC_TOTAL, className="slices-total", role="status"),
                html.Div(id=ids.SLC_SUMMARY, className="slices-summary"),
            ]),
        ]),
        html.Div(id=ids.SLC_TABLE, className="table-scroll"),
    ])


def _f(v, fmt=".3f") -> str:
    return "n/a" if v is None or not np.isfinite(v) else format(v, fmt)


def _count(v: float) -> str:
    """A (weighted) count: whole as a whole number, else to one decimal."""
    return f"{v:,.0f}" if float(v).is_integer() else f"{v:,.1f}"


def _table(analysis, solution):
    rules = {r.group: r for r in solution.rules}
    optima = {o.name: o for o in analysis.optima}
    level = next((f"{r.auc_interval.level:.0%} " for r in analysis.rocs if r.auc_interval), "")
    # weighted rows: the counts and the prevalence are weighted, the rows as read (both,
    # headed so, the weighted cases beside the rows)
    weighted = any(abs(r.n_pos + r.n_neg - r.rows) > 1e-9 for r in analysis.rocs)
    counts = (["rows", "weighted cases", "weighted posi­tives", "preva­lence (weighted)"]
              if weighted else ["rows", "posi­tives", "preva­lence"])
    head = ["group", *counts, f"AUC [{level}CI]",
            "own optimum: score ≥ (TPR, FPR)", "its cost / case",
            "constrained: TPR, FPR", "flagged", "decided at random", "its cost / case"]
    body = []
    for r in analysis.rocs:
        o, rule = optima.get(r.name), rules.get(r.name)
        ci = r.auc_interval
        auc = _f(r.auc) + (f" [{_f(ci.low, '.2f')}, {_f(ci.high, '.2f')}]"
                           if ci is not None else "")
        cells = [r.name + (" ⚠ small" if r.small else ""), f"{r.rows:,}",
                 *([_count(r.n_pos + r.n_neg)] if weighted else []), _count(r.n_pos),
                 _f(r.prevalence, ".1%"), auc]
        cells += ([f"{format_threshold(o.optimum.threshold)} ({_f(o.optimum.tpr)}, "
                   f"{_f(o.optimum.fpr)})", _f(o.expected_cost, ".4f")]
                  if o is not None else [f"left out: {why_left_out(r)}", ""])
        cells += ([f"{_f(rule.tpr)}, {_f(rule.fpr)}", _f(rule.flagged, ".1%"),
                   # equalized odds: the share whose score is ignored (Hardt et al.)
                   _f(rule.ignore_share if rule.ignore_share > 0 else rule.randomised_share,
                      ".1%"), _f(rule.expected_cost, ".4f")]
                  if rule is not None else [""] * 4)
        body.append(html.Tr([html.Td(c, title="fewer than 30 positives or negatives: "
                                              "its numbers are uncertain"
                                     if i == 0 and r.small else None)
                             for i, c in enumerate(cells)]))
    return html.Table(className="models slices", children=[
        *([html.Caption("Weighted: the cases, positives and prevalence count each row by "
                        "its weight; rows are the file's rows.", className="hint")]
          if weighted else []),
        html.Thead(html.Tr([html.Th(h) for h in head])), html.Tbody(body)])


def _randomised(solution) -> list:
    """Which groups' cases are decided by chance, and how (Hardt et al. 2016, section 4;
    Fawcett 2004, section 7.4.1)."""
    ignored = [r for r in solution.rules if r.ignore_share > 0]
    mixed = [r for r in solution.rules if r.randomised_share > 0 and r.ignore_share <= 0]
    out = []
    if ignored:
        out.append(html.P(
            "Randomised: the score is ignored on a random share of the cases, which are "
            f"flagged with probability {sig(ignored[0].ignore_flag_rate)} — " + ", ".join(
                f"{r.group} {r.ignore_share:.1%}" for r in ignored) + "."))
    if mixed:
        out.append(html.P(
            "Randomised: cases scoring between two thresholds are flagged with a "
            "probability — " + ", ".join(
                f"{r.group} {sig(r.p_between)} ({r.randomised_share:.1%} of its cases)"
                for r in mixed) + "."))
    return out


def _common(solution) -> str:
    """The common value the constraint imposes on every group, in words."""
    if np.isfinite(solution.common_threshold):
        return f"Every group: score ≥ {format_threshold(solution.common_threshold)}."
    if np.isfinite(solution.common_fpr) and np.isfinite(solution.common_tpr):
        return (f"Every group at TPR {sig(solution.common_tpr)}, FPR "
                f"{sig(solution.common_fpr)}.")
    if np.isfinite(solution.common_tpr):
        return f"Every group at TPR {sig(solution.common_tpr)}."
    if np.isfinite(solution.common_flagged):
        return f"Every group flags {solution.common_flagged:.1%} of its cases."
    return ""


def _summary(analysis, result, solution):
    reference = result.solution("group_optima").expected_cost
    cost = solution.expected_cost
    extra = solution.cost_of_constraint
    pct = f" ({extra / reference:+.1%})" if reference > 0 else ""
    total = html.Span([f"Total expected cost per case under {CONSTRAINT_NAMES[solution.constraint]}: ",
                       html.B(f"{cost:.6g}")])
    lines = [html.P(_common(solution))] if _common(solution) else []
    lines += [html.P(f"What fairness costs here: {extra:+.6g} per case{pct} against each group "
                    f"at its own optimum ({reference:.6g}).")]
    if analysis.auc_gap is not None:
        g = analysis.auc_gap
        lines.append(html.P(f"AUC gap: {g.best} {sig(g.best_value)} against {g.worst} "
                            f"{sig(g.worst_value)} ({sig(g.gap)})."))
    lines.extend(_randomised(solution))
    note = left_out_note(left_out_json(analysis), prior_json(analysis),
                         given="the page's prior")
    if note:
        lines.append(html.P(note, className="slices-left-out"))
    return total, lines


def slices_outputs(table: pd.DataFrame | None, model, state, constraint, *, font_size=14,
                   memo=None, columns=None, drag=None, priors_text=None):
    """``(source line, figure, total, summary, table)`` of the card for ``model``, sliced
    by ``columns`` (one or two of :func:`~roc_dash.io.slice_columns.slice_choices`'s names,
    two crossed; none: the table's ``group`` column).

    ``memo(parts, make)`` caches the groups' curves (:func:`group_rocs`, which do not depend
    on costs or prior) under ``parts``; none: computed each time. ``drag``: a group's point
    moved by hand (``{"group", "fpr", "tpr"}``), the others following the constraint.
    ``priors_text``: priors per group (:func:`group_priors`)."""
    empty = empty_figure(font_size)
    wanted = tuple(c for c in (columns or ()) if isinstance(c, str) and c)
    choices = slice_choices(table)
    if not choices.names:
        return NO_GROUPS, empty_figure(font_size, NO_GROUPS_SHORT), "", "", ""
    if not wanted and choices.default is None:
        return CHOOSE, empty_figure(font_size, CHOOSE_SHORT), "", "", ""
    if not isinstance(model, str):
        return "Tick a model to see it group by group.", empty, "", "", ""
    conditions = conditions_from_state(state)
    try:
        made = model_slices(table, model, wanted, choices, conditions.level, memo=memo)
    except HeavyWaitTimeout as exc:
        return (f"The groups of {model} were not computed: {exc}.", empty, "", "", "")
    except (InputError, ValueError) as exc:
        return in_page_words(exc), empty, "", "", ""
    if isinstance(made, str):  # no value in the chosen columns
        return (f"{made[:-1]}: choose a model of a dataset that has it (above), or another "
                "column.", empty, "", "", "")
    source, rocs = made.source, made.rocs
    try:
        priors, refused = group_priors(priors_text, [r.name for r in rocs if r.curve is not None])
        analysis = slice_optima(rocs, cost_fp=conditions.cost_fp, cost_fn=conditions.cost_fn,
                                prior_pos=conditions.prior_pos, group_priors=priors or None)
    except ValueError as exc:
        return f"{source} {in_page_words(exc, 'the prior')}", empty, "", "", ""
    constraint = constraint if constraint in CONSTRAINTS else "group_optima"
    # only the solutions shown: the chosen constraint's and the unconstrained reference
    result = group_thresholds(analysis, tuple(dict.fromkeys(("group_optima", constraint))))
    moved = _moved(analysis, constraint, drag)
    solution = moved or result.solution(constraint)
    total, lines = _summary(analysis, result, solution)
    if priors or refused:
        lines.append(html.P("Prior per group: " + ", ".join(
            f"{k} {v:.4g}" for k, v in priors.items()) + (" (the others: the page's)."
                                                         if priors else "")
            + (" Not used: " + "; ".join(refused) + "." if refused else ""),
            className="slices-priors-note"))
    if moved is not None:
        lines.insert(0, html.P(f"{drag['group']} moved by hand; the other groups follow "
                               f"{CONSTRAINT_NAMES[constraint]}."))
    figure = slices_figure(analysis, solution, model=str(model), font_size=font_size)
    figure.update_layout(shapes=drag_handles(analysis, solution),
                         editrevision=uuid.uuid4().hex[:8])  # the rings where drawn
    return source, figure, total, lines, _table(analysis, solution)


def _moved(analysis, constraint, drag):
    """The solution with ``drag["group"]`` moved to ``(drag["fpr"], drag["tpr"])``
    (clipped to the unit square), or None without a usable drag."""
    if not isinstance(drag, dict) or not isinstance(drag.get("group"), str):
        return None
    try:
        fpr, tpr = (min(1.0, max(0.0, float(drag[k]))) for k in ("fpr", "tpr"))
        return follow_constraint(analysis, constraint, drag["group"], fpr, tpr)
    except (KeyError, TypeError, ValueError):
        return None


def column_choice(choices, column, cross, linked=None):
    """``(options, value, cross options, cross value)`` of the column selectors: the current
    choice while the data offer it, else the link's (``linked``: one or two names), else the
    ``group`` column (none when the data have no group column). Columns of numbers are
    listed, marked; choosing one says to bin it."""
    names = choices.names
    if column not in names:
        linked = [c for c in (linked or []) if c in names]
        column, cross = (linked + [None])[:2] if linked else (choices.default, None)
    cross = cross if cross in names and cross != column else None

    def options(exclude=None):
        return [{"label": (f"{n} (the group column)" if n == choices.default else
                           f"{n} (numbers: bin first)" if n in choices.numeric else n),
                 "value": n, "title": binning_message(n) if n in choices.numeric else n}
                for n in names if n != exclude]

    return options(), column, options(column), cross


def has_columns(store, dataset_id: str, choices, columns) -> bool:
    """Whether dataset ``dataset_id``'s own table has every one of ``columns`` (names of
    ``choices``, the combined table's :func:`~roc_dash.io.slice_columns.slice_choices`):
    its models can be sliced by them."""
    try:
        own = store.get(dataset_id).columns
    except Exception:  # noqa: BLE001 - gone since: it has nothing
        return False
    return all((c == choices.default and GROUP_COLUMN in own) or SLICE_PREFIX + c in own
               for c in columns)


def model_choice(store, keys: list[str], current, linked, choices, columns,
                 headline=None) -> str | None:
    """The Slices card's model (a key, dataset id and name, of the shown models ``keys``):
    the current one while it is shown and its dataset has the ``columns``, else the link's
    (``linked``), else the headline's (the key ``headline()`` returns: the model the page
    recommends) when its dataset has them, else the first shown model whose dataset has
    them, else the first shown. No column chosen yet: a model "has them" when its dataset
    has any column to slice by (not a model of a file without one)."""
    if not keys:
        return None
    if columns:
        having = {k: has_columns(store, k.partition("/")[0], choices, columns) for k in keys}
    elif choices.names:  # no column chosen yet: a model whose dataset has one to choose
        having = {k: any(has_columns(store, k.partition("/")[0], choices, [c])
                         for c in choices.names) for k in keys}
    else:
        having = dict.fromkeys(keys, True)
    if current in keys and having[current]:
        return current
    if linked in keys:
        return linked
    best = headline() if headline is not None else None
    if best in keys and having[best]:
        return best
    return next((k for k in keys if having[k]), keys[0])


def headline_key(cache, page: PageState, refs: dict) -> str | None:
    """The key of the model of the page's headline (the optimum of the shown models under
    its conditions: the views' analysis), None when there is none yet."""
    try:
        analysis = shown_analysis(cache, page)
    except Exception:  # noqa: BLE001 - the views say what went wrong; the card falls back
        return None
    if analysis is None or analysis.optimal is None:
        return None
    return next((k for k, name in refs.items() if name == analysis.optimal.model), None)


# -- wiring ------------------------------------------------------------------------------
def _register_choices(app, cache, store) -> None:
    """The card's selectors: its model, the slice columns, and the constraint and priors a
    link names (cheap: no analysis; they stay eager whatever tab is shown). The columns are
    those of every dataset loaded; the model follows them (one whose dataset has them)."""

    @app.callback(
        output={"model_options": Output(ids.SLC_MODEL, "options"),
                "model": Output(ids.SLC_MODEL, "value"),
                "options": Output(ids.SLC_COLUMN, "options"),
                "column": Output(ids.SLC_COLUMN, "value"),
                "cross_options": Output(ids.SLC_CROSS, "options"),
                "cross": Output(ids.SLC_CROSS, "value")},
        inputs={"page": {**dependencies(Input, "datasets", "models"),
                         **dependencies(State, *SHOWN_FIELDS[2:], "prior_source")},
                "column": Input(ids.SLC_COLUMN, "value"), "cross": Input(ids.SLC_CROSS, "value"),
                "model": State(ids.SLC_MODEL, "value"),
                "filled": State(ids.SLC_MODEL, "options"), "search": State(ids.URL, "search"),
                # Undo of a removal: the card's model and columns as they were
                "removed": Input(ids.REMOVED, "data")},
    )
    def slice_choice(page, column, cross, model, filled, search, removed):
        page = PageState.from_dash(page)
        refs = model_refs(cache, page.datasets)
        keys = shown_keys(cache, page) or list(refs)
        link, given = parse_link(search)
        first = not filled  # the lists filled for the first time: the link's choice
        linked = link.slices if first and "slices" in given else None
        back = slices_back(removed) if f"{ids.REMOVED}.data" in {
            t["prop_id"] for t in ctx.triggered} else None
        if back is not None:  # Undo: the card's model and columns before the removal
            model, column, cross = back["model"], back["column"], back["cross"]
        choices = slice_choices(cache.table(list(page.datasets)))
        options, column, cross_options, cross = column_choice(
            choices, column, cross, linked.columns if linked else None)
        wanted = None
        if linked is not None and linked.model is not None:
            found, _ = resolve_refs([linked.model], legacy_names(store, link.datasets))
            wanted = found[0].key if found else None
        return {"model_options": [{"label": refs[k], "value": k} for k in keys],
                "model": model_choice(store, keys, model, wanted, choices,
                                      [c for c in (column, cross) if c],
                                      lambda: headline_key(cache, page, refs)),
                "options": options, "column": column, "cross_options": cross_options,
                "cross": cross}

    @app.callback(output=Output(ids.SLC_CONSTRAINT, "value"),
                  inputs={"search": Input(ids.URL, "search")})
    def constraint_from_link(search):
        link, given = parse_link(search)
        return link.slices.constraint if "slices" in given else no_update

    @app.callback(output=Output(ids.SLC_PRIORS, "value"),
                  inputs={"search": Input(ids.URL, "search")})
    def priors_from_link(search):
        link, given = parse_link(search)
        return link.slices.priors if "slices" in given and link.slices.priors else no_update


def register(app, cache, store) -> None:
    """The model and column selectors, and the card's outputs (computed only while the
    Compare tab is shown, and when it is opened)."""
    _register_choices(app, cache, store)

    @app.callback(
        output={"source": Output(ids.SLC_SOURCE, "children"),
                "figure": Output(ids.SLC_GRAPH, "figure"),
                "total": Output(ids.SLC_TOTAL, "children"),
                "summary": Output(ids.SLC_SUMMARY, "children"),
                "table": Output(ids.SLC_TABLE, "children")},
        inputs={"page": {**dependencies(Input, "presentation", "slices"),
                         "tab": tab_gate("compare"), **dependencies(State, "conditions", "datasets")},
                "drag": Input(ids.SLC_DRAG, "data")},
    )
    def slice_views(page, drag):
        page = tab_page(page, "compare")
        if page is None:
            return dict.fromkeys(("source", "figure", "total", "summary", "table"), no_update)
        datasets = list(page.datasets)
        key = cache.store.present(datasets)
        sliced = page.slices
        model = model_refs(cache, datasets).get(sliced.model.key) if sliced.model else None
        out = slices_outputs(
            cache.table(datasets), model, page.control.to_store(), sliced.constraint,
            font_size=FONT[page.presentation], columns=sliced.columns,
            memo=lambda parts, make: cache.cache.get_or_make((*parts, key), make),
            drag=drag if ctx.triggered_id == ids.SLC_DRAG else None,
            priors_text=sliced.priors)
        return dict(zip(("source", "figure", "total", "summary", "table"), out, strict=True))

    # only drags of a group's ring reach the server (a zoom or pan stays in the browser)
    in_browser(app, "slicesDrag",
               Output(ids.SLC_DRAG, "data"), Input(ids.SLC_GRAPH, "relayoutData"),
               State(ids.SLC_GRAPH, "figure"))
