"""A cost click redraws the PR view without plotly's full redraw: its traces read their own
``meta`` in their hover templates, not the layout's, so ``plotly_keep.js`` hands plotly the
layout meta it drew last (a meta of a new identity makes ``Plotly.react`` redraw every trace,
``_doPlot``, which announces itself with ``plotly_beforeplot``), and puts the new meta into
the graph right after. In a real headless Chromium on the demo."""

import pytest

from roc_dash.app import ids
from roc_dash.core.roc.hull import iso_performance_slope

from .gestures import scroll_into_view, wait_idle, wait_steady, wait_until
from .test_views_browser import js_graph, start

#: Count each view's full redraws (plotly_beforeplot) and redraws (plotly_afterplot).
ARM = """
for (const id of arguments[0]) {
  const gd = document.querySelector('#' + id + ' .js-plotly-plot');
  gd._kmFull = 0; gd._kmDraws = 0;
  if (!gd._kmHooked) {
    gd._kmHooked = true;
    gd.on('plotly_beforeplot', () => { gd._kmFull++; });
    gd.on('plotly_afterplot', () => { gd._kmDraws++; });
  }
}
"""


def test_kpt003_a_cost_click_redraws_the_pr_view_without_a_full_redraw(dash_duo, app):
    start(dash_duo, app)
    wait_idle(dash_duo)
    view = ids.PR_GRAPH
    names = js_graph(dash_duo, view, "gd._fullData.map(t => t.meta || null)")
    assert any(names)  # its traces carry their own meta (read by their hover templates)
    for button in (ids.COST_FP_UP, ids.COST_FP_DOWN):
        slope = js_graph(dash_duo, ids.ROC_GRAPH, "gd.layout.meta.slope")
        dash_duo.driver.execute_script(ARM, [view])
        element = dash_duo.find_element(f"#{button}")
        scroll_into_view(dash_duo.driver, element)
        element.click()
        wait_until(lambda s=slope: js_graph(dash_duo, ids.ROC_GRAPH, "gd.layout.meta.slope")
                   != s, message="the new conditions drawn")
        wait_idle(dash_duo)
        wait_steady(dash_duo.driver, view)
        assert js_graph(dash_duo, view, "gd._kmDraws") >= 1  # the view did redraw ...
        assert js_graph(dash_duo, view, "gd._kmFull") == 0  # ... without a full redraw
        # the page's scripts read the new conditions from the layout's meta
        cfp, cfn, prior = (float(dash_duo.find_element(f"#{i}").get_attribute("value"))
                           for i in (ids.COST_FP, ids.COST_FN, ids.PRIOR))
        assert js_graph(dash_duo, view, "gd.layout.meta.prior") == pytest.approx(prior, abs=5e-5)
        assert js_graph(dash_duo, view, "gd._fullLayout.meta === gd.layout.meta")
        assert js_graph(dash_duo, ids.ROC_GRAPH, "gd.layout.meta.slope") == pytest.approx(
            iso_performance_slope(cfp, cfn, prior), rel=1e-3)
        # the traces' hover texts still read their own meta
        assert js_graph(dash_duo, view, "gd._fullData.map(t => t.meta || null)") == names
