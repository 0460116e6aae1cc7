"""One round trip per gesture: a cost or prior click redraws each view once (the ROC's
interval box comes with the views' patch when its intervals are known, instead of a chained
callback redrawing the ROC again after them)."""

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
    """The ROC's interval boxes as drawn: [[uid, x, y]]."""
    return js_graph(driver, ids.ROC_GRAPH,
                    f"gd.data.filter(t => (t.uid || '').startsWith('{REGION_UID}'))"
                    ".map(t => [t.uid, Array.from(t.x), Array.from(t.y)])")


def _click_settled(dash_duo, button):
    d = dash_duo.driver
    d.execute_script(COUNT, list(GRAPHS))
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
    assert _box(d) == first  # the box of this state, as the intervals callback draws it
    assert back != first  # (the click did move the box)
