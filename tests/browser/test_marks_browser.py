"""A click on a cost or prior stepper changes no trace's data in the ROC and cost views (nor
in the PR view on a cost click): the marks it moves -- the optimum's star, the ROC's ring --
are layout annotations (roc_dash/figures/marks.py). In a real headless Chromium on the
demo; the stars are checked against core's optimum for the slope the page shows."""

import pytest

from roc_dash.app import ids
from roc_dash.app.analysis import AnalysisCache, model_names
from roc_dash.app.server.store import DEMO_ID, DatasetStore
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.roc.cost_curves import envelope_cost_at, lower_envelope
from roc_dash.core.roc.hull import iso_performance_slope, optimal_point

from .gestures import scroll_into_view, wait_idle, wait_steady, wait_until
from .test_views_browser import js_graph, start

#: Views whose traces a click must leave alone: on a cost click, and on a prior click.
UNTOUCHED = {ids.COST_FP_UP: (ids.ROC_GRAPH, ids.COST_GRAPH, ids.PR_GRAPH),
             ids.PRIOR_UP: (ids.ROC_GRAPH, ids.COST_GRAPH)}

#: Count each view's redraws.
ARM = """
for (const id of arguments[0]) {
  const gd = document.querySelector('#' + id + ' .js-plotly-plot');
  gd._mrkDraws = 0;
  if (!gd._mrkHooked) { gd._mrkHooked = true; gd.on('plotly_afterplot', () => gd._mrkDraws++); }
}
"""

STAR = "(a => [a.x, a.y, a.text])(gd.layout.annotations.find(a => a.name === 'optimum'))"
RING = "(a => [a.x, a.y])(gd.layout.annotations.find(a => a.name === 'optimum ring'))"
#: Every trace's data (the ROC's interval boxes, which move with the optimal vertex, are
#: layout shapes).
DATA = ("JSON.stringify(gd.data"
        ".map(t => [t.uid, t.name, Array.from(t.x || []), Array.from(t.y || [])]))")


def _core(tmp_path):
    """Core's analysis of the demo (its hull does not depend on the costs or the prior)."""
    cache = AnalysisCache(DatasetStore(tmp_path / "oracle"))
    return cache.analysis([DEMO_ID], model_names(cache, [DEMO_ID]), Conditions())


def _conditions(dash_duo):
    return [float(dash_duo.find_element(f"#{i}").get_attribute("value"))
            for i in (ids.COST_FP, ids.COST_FN, ids.PRIOR)]


def _click(dash_duo, button):
    """Click a stepper; wait until the views show the new conditions and settle."""
    slope = js_graph(dash_duo, ids.ROC_GRAPH, "gd.layout.meta.slope")
    element = dash_duo.find_element(f"#{button}")
    scroll_into_view(dash_duo.driver, element)
    element.click()
    wait_until(lambda: js_graph(dash_duo, ids.ROC_GRAPH, "gd.layout.meta.slope") != slope,
               message="the new conditions drawn")
    wait_idle(dash_duo)
    for g in (ids.ROC_GRAPH, ids.PR_GRAPH, ids.COST_GRAPH):
        wait_steady(dash_duo.driver, g)


def _untouched(dash_duo, button, hull):
    """One click: the views of UNTOUCHED[button] redrawn with no trace's data changed (but
    the ROC's interval box, which moves with the optimal vertex) and the stars at core's
    optimum. Returns where the ROC's star is."""
    views = UNTOUCHED[button]
    data = {g: js_graph(dash_duo, g, DATA) for g in views}
    dash_duo.driver.execute_script(ARM, list(views))
    _click(dash_duo, button)
    for g in views:
        assert js_graph(dash_duo, g, "gd._mrkDraws") >= 1, g  # the view did redraw ...
        assert js_graph(dash_duo, g, DATA) == data[g], g  # ... no trace's data changed
    cfp, cfn, prior = _conditions(dash_duo)
    slope = js_graph(dash_duo, ids.ROC_GRAPH, "gd.layout.meta.slope")
    assert slope == pytest.approx(iso_performance_slope(cfp, cfn, prior), rel=1e-3)
    opt = optimal_point(hull, slope)
    x, y, glyph = js_graph(dash_duo, ids.ROC_GRAPH, STAR)
    assert (glyph, x, y) == ("★", pytest.approx(opt.fpr, abs=1e-12),
                             pytest.approx(opt.tpr, abs=1e-12))
    assert js_graph(dash_duo, ids.ROC_GRAPH, RING) == [x, y]
    # the cost view's star: where PC(+) meets the joint lower envelope
    pc = 1 / (1 + slope)
    cx, cy, _ = js_graph(dash_duo, ids.COST_GRAPH, STAR)
    assert cx == pytest.approx(pc, rel=1e-9)
    assert cy == pytest.approx(float(envelope_cost_at(lower_envelope(hull), pc)), rel=1e-9,
                               abs=1e-12)
    # the PR view's star at the optimum's recall and precision under the prior
    rx, ry, _ = js_graph(dash_duo, ids.PR_GRAPH, STAR)
    pi = js_graph(dash_duo, ids.PR_GRAPH, "gd.layout.meta.prior")
    assert rx == pytest.approx(opt.tpr, abs=1e-12)
    assert ry == pytest.approx(pi * opt.tpr / (pi * opt.tpr + (1 - pi) * opt.fpr), rel=1e-9)
    return [x, y]


def test_mrk001_cost_and_prior_clicks_move_the_star_without_redrawing_a_trace(
        dash_duo, app, tmp_path, shot):
    start(dash_duo, app)
    wait_idle(dash_duo)
    hull = _core(tmp_path).hull
    for button in UNTOUCHED:
        star = js_graph(dash_duo, ids.ROC_GRAPH, STAR)[:2]
        for _ in range(8):  # until the optimum moves to another vertex
            if _untouched(dash_duo, button, hull) != star:
                break
        assert js_graph(dash_duo, ids.ROC_GRAPH, STAR)[:2] != star, button
    shot("mrk001_after_clicks")


#: Each trace's drawn data (plotly's own, after its defaults), boxes included.
DRAWN = ("JSON.stringify(gd._fullData.map(t => [t.uid, Array.from(t.x || []),"
         " Array.from(t.y || [])]))")
MARK = "gd.calcdata._kptMark = true"
KEPT = "Boolean(gd.calcdata && gd.calcdata._kptMark)"


def test_kpt001_a_click_keeps_the_computed_traces_of_views_whose_data_did_not_change(
        dash_duo, app):
    """``Plotly.react`` recomputes a view's traces (``gd.calcdata`` anew) only when what it
    draws changed: a cost click keeps the cost and PR views' computed traces (a marker set on
    ``gd.calcdata`` survives), the ROC's too unless its interval box moved; a prior click
    redraws the PR curves (their drawn precision changes) and keeps the cost view's."""
    start(dash_duo, app)
    wait_idle(dash_duo)
    for button, kept, redrawn in ((ids.COST_FP_UP, (ids.COST_GRAPH, ids.PR_GRAPH), ()),
                                  (ids.PRIOR_UP, (ids.COST_GRAPH,), (ids.PR_GRAPH,))):
        views = (ids.ROC_GRAPH, ids.PR_GRAPH, ids.COST_GRAPH)
        before = {g: js_graph(dash_duo, g, DRAWN) for g in views}
        for g in views:
            js_graph(dash_duo, g, MARK)
        dash_duo.driver.execute_script(ARM, list(views))
        _click(dash_duo, button)
        after = {g: js_graph(dash_duo, g, DRAWN) for g in views}
        for g in views:
            assert js_graph(dash_duo, g, "gd._mrkDraws") >= 1, (button, g)  # redrawn ...
        for g in kept:  # ... its traces not recomputed
            assert after[g] == before[g], (button, g)
            assert js_graph(dash_duo, g, KEPT), (button, g)
        for g in redrawn:  # ... its curves drawn anew
            assert after[g] != before[g], (button, g)
            assert not js_graph(dash_duo, g, KEPT), (button, g)
        # the ROC: recomputed exactly when its drawn data (the optimum's box) changed
        roc_same = after[ids.ROC_GRAPH] == before[ids.ROC_GRAPH]
        assert js_graph(dash_duo, ids.ROC_GRAPH, KEPT) == roc_same, button
