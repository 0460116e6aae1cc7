"""A change of costs or prior patches the model table and the threshold view (issue 14): in
a real headless Chromium, what the page shows after clicks on the cost and prior steppers is
what the same link shows when opened anew (everything drawn whole)."""

from roc_dash.app import ids

from .gestures import scroll_into_view, wait_idle, wait_steady, wait_until
from .test_views_browser import js_graph, start

#: What the threshold view shows: every trace's points, the flat band, the cost axis and
#: the title with its note.
THRESHOLD_SHOWN = (
    "[gd._fullData.map(t => [t.name, Array.from(t.x || []), Array.from(t.y || [])]),"
    " (gd.layout.shapes || []).map(s => [s.x0, s.x1]), gd._fullLayout.yaxis.range,"
    " gd.layout.title.text, gd.layout.title.subtitle.text, gd.layout.meta]")


def shown(dash_duo):
    d = dash_duo.driver
    wait_idle(dash_duo)
    wait_steady(d, ids.THRESHOLD_GRAPH)
    rows = d.execute_script(
        f"return [...document.querySelectorAll('#{ids.MODEL_TABLE} table.models:not(.pairs)"
        " > tbody > tr')].map(r => [...r.cells].map(c => c.textContent));")
    return rows, js_graph(dash_duo, ids.THRESHOLD_GRAPH, THRESHOLD_SHOWN)


def test_ccb001_stepper_clicks_show_what_the_link_shows_drawn_anew(dash_duo, app, shot):
    start(dash_duo, app)
    d = dash_duo.driver
    before = shown(dash_duo)
    for button in (ids.COST_FP_UP, ids.COST_FP_UP, ids.COST_FN_DOWN, ids.PRIOR_UP,
                   ids.COST_FP_UP):
        element = dash_duo.find_element(f"#{button}")
        scroll_into_view(d, element)
        element.click()
        wait_idle(dash_duo)
    wait_until(lambda: "cfp=" in d.execute_script("return location.search")
               and "prior=" in d.execute_script("return location.search"),
               message="the link holds the new conditions")
    clicked = shown(dash_duo)
    assert clicked != before  # the costs moved the optimum's costs, the prior the rates
    assert [r[:5] for r in clicked[0]] == [r[:5] for r in before[0]]  # AUC etc. unchanged
    scroll_into_view(d, dash_duo.find_element(f"#{ids.THRESHOLD_GRAPH}"))
    shot("ccb001_after_clicks")
    d.get(d.current_url)  # the same link, drawn whole
    wait_until(lambda: js_graph(dash_duo, ids.THRESHOLD_GRAPH,
                                "gd.layout.meta && gd.layout.meta.model"),
               message="the threshold view drawn")
    wait_until(lambda: d.find_elements("css selector", f"#{ids.MODEL_TABLE} table.models"),
               message="the model table drawn")
    assert shown(dash_duo) == clicked
