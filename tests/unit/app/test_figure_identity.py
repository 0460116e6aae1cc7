"""The figures the views callback returns for the demo stay exactly what they were (fig001).

Each figure is reduced to a canonical digest (:func:`digest`): its plotly JSON with numbers
rounded to 12 significant digits (typed arrays decoded first), keys sorted and the random
``layout.editrevision`` dropped. A refactor of the app must not change any of them; a
deliberate change of a figure updates :data:`EXPECTED` and says why in its commit.

Run this file as a script to print the digests of the current code:
``python -m tests.unit.app.test_figure_identity``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math

import numpy as np

from roc_dash.app.analysis import AnalysisCache, data_prior, model_names
from roc_dash.app.page_state import PageState
from roc_dash.app.render import RENDERED, update_views
from roc_dash.app.server.store import DEMO_ID, DatasetStore
from roc_dash.app.state import ControlState

#: Digests of (roc, pr, cost, threshold, viz data) per scenario, recorded on the base commit;
#: the ROC, PR and cost figures then gained stable trace uids for the optimum and its ring
#: (and nothing else: with ``uid`` dropped their digests are the base's). Re-recorded for
#: issue 17 item 1 (branch cvpage): the ROC legend says "pooled" and the subtitle that the
#: hull and optimum are pooled (the demo has 10 folds); only the ROC digests changed.
#: Re-recorded for issue 17 item 8 (branch hover): every hover names its threshold (the
#: pooled curve's hover gains the cross-validated AUC) with 6 significant digits (``.6~g``):
#: the ROC, PR, cost and threshold digests changed, the viz data did not. Then the +inf
#: vertex of each curve keeps only its model index in customdata (plotly read its null
#: threshold as "≥ 0"; ``style.threshold_rows``) and its hover says "+∞".
#: Re-recorded for issue 19 item 4 (branch logfpr): the viz data names the iso curve's
#: trace and the log axis's floor (``iso_trace``, ``xlog``: None on linear axes); no
#: figure changed.
#: Re-recorded after the merges of this session: a cost change now patches the cost view's
#: optimum hover text too (it kept the old model and threshold: cch006), so the patched
#: cost digests are those of a full render.
#: Re-recorded for the one rounding rule (issue 17 item 8): legends, read-off boxes and texts
#: give 6 significant digits; nothing else changed.
#: Re-recorded for LeanFigure (issue 14, server time): figures hold customdata as arrays and
#: send a +inf threshold as null where plotly's encoder turned the NaN into null; the JSON the
#: browser receives is the same as before (compared with 96da6fa's, random editrevision
#: aside), only this digest's reading of the figure objects changed.
#: Re-recorded for issue 14 (branch costclick, a cost change's server CPU): the viz data keeps
#: a record of the threshold view drawn (model, axis, vertices, prior), and after a cost or
#: prior change the threshold view is a patch of the drawn figure, not a new figure (only
#: the "patched" threshold digests and every viz digest changed; ROC, PR and cost did not).
#: test_cost_change.py ccp001 applies such patches and compares them with a full redraw.
#: Re-recorded for the page's one state (branch state): the viz-data store lists the
#: drawn models' keys (dataset id and name) beside their shown names; no figure changed.
#: Re-recorded for accessibility (branch a11y): the PR view's iso-F1 labels are #6b6b6b
#: (5.3:1 on white) instead of #8a8a8a (3.45:1); only the PR figures changed.
#: Re-recorded (branch meeting, merged after a11y): the viz-data store carries core's tie
#: tolerance, the ROC's rendered trace count and the interval boxes drawn (every viz digest);
#: the presentation ROC keeps room for the mode bar right of its legend; the PR figures keep
#: a11y's iso-F1 colour.
#: Re-recorded (branch a11y2): models have marker symbols as well as dashes, a palette whose
#: lines keep 3:1 on white and stay apart under deuteranopia/protanopia, and no model is
#: dotted like the chance line (the ROC, PR and cost figures changed).
#: Re-recorded (branch marks): the optimum's star (ROC, PR, cost) and the ROC's ring are layout
#: annotations, the legend's star entry a trace without points (ROC, PR and cost figures);
#: the viz data finds them by name (``optimum_note``, ``ring_note``). The threshold view is
#: unchanged. Re-recorded when the legend got a maximum height (30 % of the figure, then it
#: scrolls), so that many entries no longer squeeze the plot.
#: Re-recorded (branch left8, hover rounding): every point's customdata gains a fifth column,
#: its threshold as the page writes it (``style.shown_thresholds``: 6 digits, never rounded
#: up), which the hovertemplates print instead of plotly's ``.6~g`` of the threshold; the
#: threshold view's rate lines point to the cost line's threshold and its unified hover's title is
#: "score threshold" (not x to 7 digits, which can round up). ROC, PR, cost and
#: threshold figures and the viz data (the threshold view's vertices key) changed; the
#: patched ROC and cost (a patch sends no customdata) did not.
#: Re-recorded (branch perf9): after a prior change the PR view is a patch of the one drawn
#: (the parts that changed, ``view_patches.changed_parts``), not a new figure, and the viz
#: data keeps digests of the PR figure's parts (``pr_parts``): the "patched prior" PR digest
#: (a patch's operations) and every viz digest changed; no figure drawn changed (ccp001,
#: ccp005 and cch010 apply the patch and compare it with a full redraw).
#: Re-recorded (main, 2026-11-29) after left8 and perf9 met (a hover on the ROC's star was
#: tried and taken back: it caught the drags of the iso line near the optimum).
#: Re-recorded (branch perf10b): the ROC's interval boxes are layout shapes, not traces; the
#: viz-data store records the ROC's rendered shape count (``roc_shapes``, their slot) instead
#: of its trace count (every viz digest); no figure drawn changed (the views draw no box).
#: Re-recorded (branch left9): the ROC's star holds the optimum's hover text (model,
#: threshold, FPR, TPR; drawn and patched) without catching the mouse (``captureevents``
#: false; assets/roc_star.js shows it over the iso line's drag handle): only the ROC digests
#: changed (default, presentation, patched, patched prior).
#: Re-recorded (main) after perf10b and left9 met: both changes above, nothing else.
#: Re-recorded (branch fix14, review 11 item 11): the threshold view reserves
#: ``layout.annotations[1]`` (hidden) for the ◆ of a capacity's or floors' choice, which the
#: constrained strip's callback patches in (``figures.threshold.chosen_marks``): only the
#: drawn threshold digests changed (default, presentation); the patched ones did not (a patch
#: of costs or prior does not touch the annotations).
EXPECTED = {
    'default': ('360c2b65f63e918a', 'abc9ca6f828be038', 'a3ee78c393b345fe',
                '03ec09bcfe276a02', '723319789ec500a4'),
    'presentation': ('1bc8910936e67a6b', '864a21c29f41f980', 'c8ecdf6cb5da3e85',
                     'afb8f3ce9af81e78', '139ea619e980e40b'),
    'patched': ('0e7dc2097818a66d', 'd395eac98f6a653a', 'afa565d6c43b1bd2',
                'ed64a3e908e4b952', 'f8f6e6261eda21a9'),
    'patched prior': ('170f76d83863af11', '15ef70a093ec4cc8', '717e6e3702cdf827',
                      '901c8ae866cd124c', '3f2fb342328a8591'),
}

#: What the page's controls hold before anyone touches them.
DEFAULTS = dict(averaging="pooled", level=0.95, band="pointwise", samples="51", det=[],
                presentation=[], pinned=[], ties=[], pr_mode="pr", threshold_model=None,
                threshold_axis="threshold",
                combine={"budget": None, "unit": "cases", "repair": None, "logic": False},
                zoom=None, viz=None)


def _number(x):
    if isinstance(x, bool) or x is None:
        return x
    if isinstance(x, int | np.integer):
        return int(x)
    v = float(x)
    if not math.isfinite(v):
        return repr(v)
    return float(f"{v:.12g}")


def _typed(value: dict):
    """A plotly typed array (``{"dtype", "bdata", "shape"}``) as a plain list."""
    data = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
    shape = value.get("shape")
    if shape:
        data = data.reshape([int(s) for s in str(shape).split(",")])
    return canonical(data)


def canonical(obj):
    """``obj`` (a figure's plotly JSON, a patch's operations) in a form that compares equal
    exactly when the drawn figure is the same."""
    if isinstance(obj, dict):
        if set(obj) >= {"dtype", "bdata"}:
            return _typed(obj)
        return {str(k): canonical(v) for k, v in obj.items() if k != "editrevision"}
    if isinstance(obj, list | tuple):
        # a patch's operation on the random edit revision is dropped like the key itself
        return [canonical(v) for v in obj if not (
            isinstance(v, dict) and v.get("location", [None])[-1:] == ["editrevision"])]
    if isinstance(obj, np.ndarray):
        return [canonical(v) for v in obj.tolist()]
    if isinstance(obj, str):
        return obj
    if isinstance(obj, int | float | np.number | bool) or obj is None:
        return _number(obj)
    return str(obj)


def digest(fig) -> str:
    """A short canonical digest of a figure (or a ``dash.Patch``)."""
    if hasattr(fig, "to_plotly_json"):
        data = fig.to_plotly_json()
    else:
        data = fig
    if not isinstance(data, dict):
        data = {"value": data}
    data = json.loads(json.dumps(data, default=_json_default))
    text = json.dumps(canonical(data), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _json_default(obj):
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, np.generic):
        return obj.item()
    if hasattr(obj, "to_plotly_json"):
        return obj.to_plotly_json()
    raise TypeError(f"not serialisable: {type(obj).__name__}")


def _figures(out) -> tuple[str, ...]:
    """The digests of the ROC, PR, cost and threshold views of a views-callback output, and
    of the viz-data store (which traces the browser patches)."""
    return tuple(digest(out[k]) for k in (0, 1, 2, 8, 4))


def scenarios(tmp_path) -> dict[str, tuple[str, ...]]:
    """The demo at default state; in presentation mode; and a cost change and a prior change
    after the default state (the views patched, not redrawn)."""
    store = DatasetStore(tmp_path)
    cache = AnalysisCache(store)
    ids_ = [DEMO_ID]
    assert model_names(cache, ids_)
    state = ControlState(prior=data_prior(store, ids_, None)).to_store()

    def run(state, **changes):
        kw = {**DEFAULTS, **changes}
        page = PageState.from_dash({
            "datasets": ids_, "conditions": state, "averaging": kw["averaging"],
            "level": kw["level"], "band": kw["band"], "samples": kw["samples"],
            "det": kw["det"], "presentation": kw["presentation"], "pins": kw["pinned"],
            "ties": kw["ties"], "pr_mode": kw["pr_mode"]})
        view = {"threshold_model": kw["threshold_model"],
                "threshold_axis": kw["threshold_axis"], "combine": kw["combine"]}
        named = update_views(cache, page, view, kw["viz"], kw["zoom"],
                             conditions_changed=kw.get("conditions_changed", False))
        return tuple(named.get(k) for k in RENDERED)  # render_views' order

    default = run(state)
    out = {"default": _figures(default), "presentation": _figures(run(state,
                                                                      presentation=["on"]))}
    costly = {**state, "cost_fn": 5.0}
    out["patched"] = _figures(run(costly, viz=default[4], conditions_changed=True))
    prior = {**state, "prior": 0.4, "prior_mode": "manual"}  # the PR view is redrawn
    out["patched prior"] = _figures(run(prior, viz=default[4], conditions_changed=True))
    return out


def test_fig001_demo_figures_unchanged(tmp_path):
    got = scenarios(tmp_path)
    assert got == EXPECTED, (
        "a figure of the demo changed; if that is deliberate, record the new digests "
        f"(python -m tests.unit.app.test_figure_identity): {got}")


def layout_and_wiring(tmp_path) -> tuple[str, str]:
    """Digests of the page's component tree and of its callbacks (every output, input,
    state and clientside function, in a stable order)."""
    from roc_dash.app import create_app

    app = create_app(store=DatasetStore(tmp_path))
    wiring = sorted(json.dumps(c, sort_keys=True, default=str) for c in app._callback_list)
    inline = sorted(app._inline_scripts)
    return digest(app.layout), digest({"callbacks": wiring, "inline": inline})


#: The page and its wiring. At the base commit ('759d7f7a6c2fa33c', 'f2219da5903d0a72'): the
#: split of the app by feature moved code, never a component, a callback's inputs or outputs
#: or a clientside function. Re-recorded for the page's tabs (issue 16 item 6): the cards
#: regrouped into three tab panels under a tab bar, the combining card's hint naming the
#: Decide tab (the layout), and the tabs' three callbacks plus the tab as a new input of
#: ``writeUrl`` (the wiring); no figure changed. Re-recorded for the samples box (issue 15
#: §1, trs018): the box no longer debounces (the layout), it is read on Enter/blur and the
#: views, exports, combining card and link read the checked number ``SAMPLES_OK`` (the
#: wiring); no figure changed. Re-recorded for *Download decision* (issue 17 item 6): one
#: more button in the top bar (the layout) and its clicks as a new input of the export
#: callback (the wiring). Re-recorded for the intervals at the chosen point (issue 17
#: item 2): a box in the operating card and its store (the layout), its callback after the
#: views and the clientside one that puts the interval boxes in the ROC
#: (the wiring); no figure changed.
#: Re-recorded for the folds and the model comparison (issue 17 items 1 and 3): the Curves CSV
#: button's tooltip names the fold column and the Compare tab gains the Model comparison card
#: (the layout), whose one callback is new (the wiring).
#: Re-recorded for the *Slices* card (issue 18): one more
#: card in the Compare tab (the layout) and its two callbacks (the wiring); no figure changed.
#: Re-recorded for the calibration card and the decision-curve mode (issue 17 items 4-5):
#: the card (with a store of what it was drawn for) on the Compare tab, the cost card's "Cost curves | Decision curve" radio and its title's span (the layout); the
#: card's two callbacks, the title following the mode (clientside), the mode as an input of
#: the views callback, a state of the controls callback, an output of the link's restore and
#: an input of ``writeUrl`` (the wiring); no demo figure changed. Re-recorded for the Slices
#: card's tooltips on its model and constraint choices (the layout only). Re-recorded for
#: the Table CSV button's tooltip naming its cross-validation columns (branch hover, the
#: layout only). Re-recorded for
#: the summary strip's line of intervals (branch pointci): a store in the operating card's
#: intervals box (the layout), one more output of the intervals callback and the callback
#: that patches the line into the strip (the wiring); and for the Model comparison card's
#: "compare: AUC (DeLong) | partial AUC (bootstrap)" radio (the layout, and one more input
#: of its callback, and a state of the export callback: the HTML report has its matrix
#: when the card shows it); no demo figure changed. Re-recorded for the standalone report
#: (issue 19): the zoom store is a state of the export callback (the wiring).
#: Re-recorded after merging the branches sources, prefix, notebook, hover, pointci,
#: slicescale and standalone (their additions together).
#: Re-recorded for the log FPR axis (issue 19 item 4, branch logfpr): its checklist in
#: "Models and view" (the layout); an input of the views callback and of ``writeUrl`` and
#: the ROC hint, a state of the controls callback, an output of the link's restore, the DET
#: hint saying that the iso line is a curve there, the interval boxes clamped to its floor
#: (the wiring).
#: Re-recorded for the Slices card's page work (branch slicepage, merged with main): column
#: selectors, the slice and constraint in the link, the drag of a group's ring and the prior
#: per group (layout; their callbacks, inputs of writeUrl, states of the export callback).
#: Re-recorded after merging slicepage with the log-FPR axis (both sets together).
#: Re-recorded for issue 18's leftover (branch slicefast): the priors per group go into the
#: link (``sgp``: an input of writeUrl, and a callback filling the box from the link); the
#: layout is unchanged (the first digest), only the wiring.
#: Re-recorded for lazy tabs (issue 14, branch lazytabs): the tab store is an input of the
#: Compare and Beyond binary cards' callbacks (the wiring only; the layout is unchanged).
#: Re-recorded after merging both (their wiring together).
#: Re-recorded for the page load (issue 14, branch pageload): the dataset list's × buttons
#: feed a clientside callback that fills a new ``remove-request`` store (the layout), the
#: datasets callback's input instead of the buttons (the wiring): their appearing on every
#: first load no longer sends the datasets callback a request that answered 204.
#: Re-recorded for the page's one state (branch state): the views callback reads the
#: gestures and writes the conditions and the views (one owner per output), callbacks take
#: the page's fields by name, the link is written by the server from the state, models are
#: named by key in the selectors, a line saying what a decision file holds and each point's
#: decision button, the dataset list's question and Undo (a box and a store), the missing-data
#: banner reading the link, the zoom a link names (a store, read into the zoom store).
#: Re-recorded for the Monitor tab (branch montab): its tab button and panel (the layout);
#: its callbacks, its settings as inputs of the link and states of the export callback, the
#: uploaded record a state of the export callback (the wiring). No figure changed.
#: Re-recorded for accessibility (branch a11y): the skip link, the views a <main> and the tab
#: bar in a <nav>, the controls' <aside> labelled, the upload area named by what it shows and
#: the removal box a live region (the layout only; the wiring is unchanged).
#: Re-recorded after merging the three (with dectab's capacity and floors card and its
#: settings in the link): the layout and the wiring.
#: Re-recorded (branch left6): the datasets callback reads the Monitor's windows, the models
#: callback follows the removal record (the prior's source a removal moves, Undo puts back)
#: and a Monitor callback writes its windows from it (the wiring only; the layout and the
#: figures are unchanged).
#: Re-recorded after branches left7, perf8 and fix7: the datasets callback reads the models ticked
#: (Undo of a removal ticks the dataset's as they were) and the pin callback the conditions
#: (a typed pin's class); a gate store per later tab (the layout), set in the browser from the
#: tab, the conditions and the views' data, which the later tabs' cards take as input (they
#: read the conditions and the views' data as state). The Slices card's choice
#: reads the conditions and the headline's inputs as state (it starts on the headline's model).
#: No figure changed.
#: Re-recorded (branch left8): the operating-point card carries the class ``operating-card``
#: (the Decide tab's CSS pairs it with the capacity card). No callback changed.
#: Re-recorded (branch perf9): the views callback reads the message under the controls as
#: state (it leaves it when unchanged); the wiring only.
#: Re-recorded (branch perf10): the Compare tab's model table is no longer an output of the
#: views callback but of its own callback gated by the Compare tab (a click on Decide replaced
#: its ~300 components each time); the wiring only.
#: Re-recorded (branch perf10b): the clientside callback that puts the interval boxes into
#: the drawn ROC replaces layout shapes by name (REPLACE_REGIONS); the wiring only.
#: Re-recorded (branch fix11, merged on main): the Monitor tab's period list is searchable
#: (the layout); the link's settings restore the time column's option with its value, a second
#: writer of its options registered after the options' own callback (the wiring).
#: Re-recorded (branch fix12, review10): a session store keeping the prior's source (the
#: layout), written in the browser from the source and read by the models callback; the
#: datasets callback reads the Slices card's model and columns, the Slices card's choice
#: follows the removal record (Undo puts them back). No demo figure changed.
#: Re-recorded (branch fix14, review 11 item 11): the constrained strip's callback also writes
#: the threshold view (its ★ words and the choice's ◆) and reads the view's model and axis
#: (the wiring only; the layout is unchanged).
#: Re-recorded (branch fix15, review 11): a clientside callback takes the controls' message
#: away on Enter or blur of a cost or prior box with a valid value typed (the wiring only;
#: the layout and the demo's figures are unchanged).
#: Re-recorded (merge of fix13, fix14, fix15): the Monitor tab's window upload keeps the files
#: it has read (a store, fix13) and the tab's layout (its figures' classes): layout and wiring.
EXPECTED_PAGE = ('821e4a5dab9809c6', 'aa51b680585c2f09')


def test_fig003_page_and_wiring_unchanged(tmp_path):
    assert layout_and_wiring(tmp_path) == EXPECTED_PAGE


def test_fig004_optimum_found_by_uid_not_name(tmp_path):
    """The viz-data store finds the optimum's star (an annotation of the ROC, PR and cost
    views) and the ring by their names, not by the traces' names: renaming every trace (as
    presentation mode shortens names) finds the same ones."""
    from roc_dash.app.render import render_views, viz_data
    from roc_dash.core.analysis_types import Conditions

    store = DatasetStore(tmp_path)
    cache = AnalysisCache(store)
    models = model_names(cache, [DEMO_ID])
    roc, pr, cost, *_ = render_views(cache, [DEMO_ID], models, Conditions(prior_pos=0.3))
    analysis = cache.analysis([DEMO_ID], models, Conditions(prior_pos=0.3))
    before = viz_data(analysis, (roc, pr, cost))
    for fig in (roc, pr, cost):
        for trace in fig.data:
            trace.name = "renamed"
    after = viz_data(analysis, (roc, pr, cost))
    assert after["optimum_note"] == before["optimum_note"]
    assert after["ring_note"] == before["ring_note"] is not None
    assert None not in before["optimum_note"]
    assert before["optimum_trace"] == [None, None, None]  # no star trace left to redraw
    for fig, k in zip((roc, pr, cost), before["optimum_note"], strict=True):
        assert fig.layout.annotations[k].text == "★"


def test_fig005_an_outputs_own_writer_is_registered_first(tmp_path):
    """Where several callbacks write one output, the one without ``allow_duplicate`` comes
    first in the app's callback list (a lookup by first output finds it)."""
    from roc_dash.app import create_app

    app = create_app(store=DatasetStore(tmp_path))
    first_seen: dict[str, bool] = {}
    for c in app._callback_list:
        for out in c["output"].strip(".").split("..."):
            plain, _, dup = out.partition("@")
            first_seen.setdefault(plain, not dup)
    assert [o for o, primary in first_seen.items() if not primary] == []


def test_fig002_digest_sees_a_change(tmp_path):
    """The digest is not blind: a one-digit change of a drawn number changes it."""
    import plotly.graph_objects as go

    a = go.Figure(go.Scatter(x=np.array([0.0, 0.5, 1.0]), y=np.array([0.0, 0.7, 1.0])))
    b = go.Figure(go.Scatter(x=np.array([0.0, 0.5, 1.0]), y=np.array([0.0, 0.7000001, 1.0])))
    c = go.Figure(a)
    c.update_layout(editrevision="something else")
    assert digest(a) != digest(b)
    assert digest(a) == digest(c)


if __name__ == "__main__":  # print the digests of the current code
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        print(f"EXPECTED_PAGE = {layout_and_wiring(Path(folder) / 'page')!r}")
        for name, values in scenarios(Path(folder)).items():
            print(f"    {name!r}: ({', '.join(map(repr, values[:3]))},\n"
                  f"{' ' * (len(name) + 9)}{', '.join(map(repr, values[3:]))}),")

