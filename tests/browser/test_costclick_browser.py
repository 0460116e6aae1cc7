"""A change of costs or prior patches the threshold view (issue 14), and the Compare tab's
model table, drawn when that tab opens, follows (step 6 of docs/performance.md): in
a real headless Chromium, what the page shows after clicks on the cost and prior steppers is
what the same link shows when opened anew (everything drawn whole)."""

from roc_dash.app import ids

from .gestures import open_tab, scroll_into_view, wait_idle, wait_steady, wait_until
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
    threshold = js_graph(dash_duo, ids.THRESHOLD_GRAPH, THRESHOLD_SHOWN)
    open_tab(dash_duo, "compare")  # the model table is drawn when its tab shows
    wait_until(lambda: d.find_elements("css selector", f"#{ids.MODEL_TABLE} table.models"),
               message="the model table drawn")
    rows = d.execute_script(
        f"return [...document.querySelectorAll('#{ids.MODEL_TABLE} table.models:not(.pairs)"
        " > tbody > tr')].map(r => [...r.cells].map(c => c.textContent));")
    open_tab(dash_duo, "decide")
    return rows, threshold


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
    assert shown(dash_duo) == clicked


def test_ccb002_the_model_table_follows_a_prior_changed_on_the_compare_tab(dash_duo, app):
    """The model table is drawn by its own callback when the Compare tab shows: a prior
    changed there (the controls stay beside every tab) redraws its threshold and cost cells
    at once; the same link opened anew shows the same table."""
    start(dash_duo, app)
    d = dash_duo.driver
    open_tab(dash_duo, "compare")

    def rows():
        return d.execute_script(
            f"return [...document.querySelectorAll('#{ids.MODEL_TABLE} table.models"
            ":not(.pairs) > tbody > tr')].map(r => [...r.cells].map(c => c.textContent));")

    before = wait_until(rows, message="the model table drawn")
    for _ in range(3):
        button = dash_duo.find_element(f"#{ids.PRIOR_UP}")
        scroll_into_view(d, button)
        button.click()
        wait_idle(dash_duo)
    after = wait_until(lambda: rows() != before and rows(), message="the table follows")
    assert [r[:5] for r in after] == [r[:5] for r in before]  # AUC etc. unchanged
    wait_until(lambda: "prior=" in d.execute_script("return location.search"),
               message="the link holds the new prior")
    d.get(d.current_url)  # the same link (tab=compare), drawn whole
    wait_until(lambda: rows() == after, message="the link's table is the one shown")


#: Counts what dash's renderer does between a click and the moment it is idle again: every
#: action dispatched to its store, and those that reset a component's state (each component
#: a response replaces, with everything under it, is reset: one action each, and every action
#: is a pass of the renderer over every mounted component).
COUNT_ACTIONS = """
const store = window.store;
if (!store._rocCounted) {
  store._rocCounted = true;
  const dispatch = store.dispatch;
  store.dispatch = function (action) {
    if (window._rocActions) {
      window._rocActions.push(typeof action === 'function' ? 'thunk' : action.type);
    }
    return dispatch.apply(this, arguments);
  };
}
window._rocActions = [];
"""


def test_ccb003_a_cost_click_resets_no_component_of_a_hidden_tab(dash_duo, app):
    """A cost or prior click on Decide replaces the operating card and the summary's lines,
    not the Compare tab's model table (~300 components): the old views callback patched that
    table on every click, and dash reset each of its components: 417 resets a click on the
    demo until the page is idle (367 before the views are drawn), ~115 now (the operating
    card's 61 and the summary's 3 with the views, then the point's intervals and the Decide
    tab's capacity card)."""
    start(dash_duo, app)
    d = dash_duo.driver
    wait_idle(dash_duo)
    for button in (ids.COST_FP_UP, ids.PRIOR_UP):
        d.execute_script(COUNT_ACTIONS)
        element = dash_duo.find_element(f"#{button}")
        scroll_into_view(d, element)
        element.click()
        wait_idle(dash_duo)
        actions = d.execute_script("const a = window._rocActions; window._rocActions = null;"
                                   " return a;")
        resets = actions.count("RESET_COMPONENT_STATE")
        assert 0 < resets < 200, (button, resets, len(actions))
