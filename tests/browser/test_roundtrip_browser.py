"""One round trip per gesture: a cost or prior click redraws each view once (the ROC's
interval box comes with the views' patch when its intervals are known, instead of a chained
callback redrawing the ROC again after them); the box is a layout shape, so the ROC's redraw
is layout-only: plotly recomputes none of its traces (rtp001)."""

from __future__ import annotations

import pytest

from roc_dash.app import ids
from roc_dash.figures.point_regions import REGION_UID

from .gestures import js_graph, wait_idle
from .test_trust_browser import start

GRAPHS = (ids.ROC_GRAPH, ids.PR_GRAPH, ids.COST_GRAPH, ids.THRESHOLD_GRAPH)

#: count each view's redraws (plotly_afterplot) from now on
COUNT = """
window._rtCount = {};
for (const id of arguments[0]) {
  const gd = document.querySelector('#' + id + ' .js-plotly-plot');
  window._rtCount[id] = 0;
  if (!gd._rtHooked) {
    gd._rtHooked = true;
    gd.on('plotly_afterplot', () => { window._rtCount[id] = (window._rtCount[id] || 0) + 1; });
  }
}
"""


def _box(driver):
    """The ROC's interval boxes as drawn (layout shapes): [[name, [x0, x1], [y0, y1]]]."""
    return js_graph(driver, ids.ROC_GRAPH,
                    f"(gd.layout.shapes || []).filter(s => (s.name || '')"
                    f".startsWith('{REGION_UID}') && s.visible !== false)"
                    ".map(s => [s.name, [s.x0, s.x1], [s.y0, s.y1]])")


#: mark each view's computed traces (gone when plotly recomputes them, as in
#: bench/bench_browser.py)
MARK = """
for (const id of arguments[0]) {
  const gd = document.querySelector('#' + id + ' .js-plotly-plot');
  if (gd.calcdata) gd.calcdata._rtKept = true;
}
"""
KEPT = ("return arguments[0].filter(id => { const gd = document.querySelector('#' + id + "
        "' .js-plotly-plot'); return gd.calcdata && gd.calcdata._rtKept; });")


def _click_settled(dash_duo, button):
    d = dash_duo.driver
    d.execute_script(COUNT, list(GRAPHS))
    d.execute_script(MARK, list(GRAPHS))
    dash_duo.find_element(f"#{button}").click()
    wait_idle(dash_duo, quiet=1.5)  # every callback the click set off has answered
    return d.execute_script("return window._rtCount;")


@pytest.mark.parametrize(("up", "down"), [(ids.COST_FP_UP, ids.COST_FP_DOWN),
                                          (ids.PRIOR_UP, ids.PRIOR_DOWN)],
                         ids=["cost", "prior"])
def test_rtp001_a_click_redraws_each_view_once(dash_duo, app, up, down):
    start(dash_duo, app)
    d = dash_duo.driver
    _click_settled(dash_duo, up)  # a new state: its intervals are computed after the views
    first = _box(d)
    assert len(first) == 1 and first[0][0] == REGION_UID + "optimum"
    _click_settled(dash_duo, down)
    back = _box(d)
    counts = _click_settled(dash_duo, up)  # the same state again: its intervals are known
    # each view drawn once: the box came with the views' patch, no chained second redraw
    assert counts == dict.fromkeys(GRAPHS, 1), counts
    # the ROC's redraw moved layout only (star, ring, iso line, box): its traces were not
    # recomputed (the box as a trace made plotly recompute every trace of the view)
    assert ids.ROC_GRAPH in d.execute_script(KEPT, list(GRAPHS))
    assert _box(d) == first  # the box of this state, as the intervals callback draws it
    assert back != first  # (the click did move the box)
