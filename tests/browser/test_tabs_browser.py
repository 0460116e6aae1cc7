"""The page's tabs (issue 16, item 6), driven by real clicks in headless Chromium."""

import re

from roc_dash.app import ids

from .gestures import (
    centre,
    click,
    js_graph,
    open_tab,
    scroll_into_view,
    scroll_to,
    type_into,
    wait_idle,
    wait_until,
)
from .test_polish_browser import present_at, viewport
from .test_trust_browser import start, value

TABS = ("decide", "compare", "beyond")
#: Something each tab shows (and the others do not).
SHOWS = {"decide": (f"#{ids.ROC_GRAPH}", f"#{ids.OPERATING}", f"#{ids.THRESHOLD_GRAPH}"),
         "compare": (f"#{ids.MODEL_TABLE}", f"#{ids.SUP_GRAPH}"),
         "beyond": (f"#{ids.BUDGET}", f"#{ids.COMBINE_RESULT}")}
#: On every tab: the summary strip and the cost and prior controls.
ALWAYS = (f"#{ids.SUMMARY}", f"#{ids.COST_FP}", f"#{ids.COST_FN}", f"#{ids.PRIOR}",
          f"#{ids.PRIOR_SLIDER}")


def shown(dash_duo, selector) -> bool:
    return dash_duo.find_element(selector).is_displayed()


def check_tab(dash_duo, tab, always=ALWAYS):
    """Only ``tab``'s cards shown, its button selected, the shared controls visible."""
    for other in TABS:
        for selector in SHOWS[other]:
            assert shown(dash_duo, selector) == (other == tab), (tab, selector)
        button = dash_duo.find_element(f"#{ids.TAB_BUTTON}{other}")
        assert button.get_attribute("aria-selected") == ("true" if other == tab else "false")
    for selector in always:
        assert shown(dash_duo, selector), (tab, selector)


def full_width(driver, graph_id) -> bool:
    """The plot fills its card (not plotly's default 700 px of a graph drawn hidden)."""
    return js_graph(driver, graph_id, "Math.abs(gd._fullLayout.width - gd.offsetWidth) < 2"
                    " && gd.offsetWidth > 0.9 * gd.closest('.card').clientWidth - 40")


def test_tab001_tabs_show_their_cards_and_travel_in_the_link(dash_duo, app, shot):
    start(dash_duo, app, size=(1280, 800))
    viewport(dash_duo, 1280, 800)
    d = dash_duo.driver
    buttons = dash_duo.find_elements(f"#{ids.TAB_BAR} [role=tab]")
    assert [b.text for b in buttons] == ["Decide", "Compare", "Beyond binary", "Monitor"]
    check_tab(dash_duo, "decide")
    assert "tab=" not in d.current_url  # the first tab: links as before
    scroll_to(d, 0)
    shot("tab001_decide_1280x800")

    open_tab(dash_duo, "compare")
    check_tab(dash_duo, "compare")
    dash_duo.wait_for_contains_text(f"#{ids.MODEL_TABLE}", "logistic regression")
    wait_until(lambda: js_graph(d, ids.SUP_GRAPH, "gd.layout.meta && gd.layout.meta.lc")
               is not None, message="superiority graph")
    assert full_width(d, ids.SUP_GRAPH), "a graph first shown on this tab has its full width"
    wait_until(lambda: "tab=compare" in d.current_url, message="the tab in the page's link")
    scroll_to(d, 0)
    shot("tab002_compare_1280x800")
    # the controls work on any tab: a new cost reaches this tab's table and the summary
    summary = dash_duo.find_element(f"#{ids.SUMMARY}").text
    type_into(dash_duo.find_element(f"#{ids.COST_FN}"), "5")
    wait_until(lambda: value(dash_duo, ids.COST_FN) == "5", message="c(FN) typed")
    wait_until(lambda: dash_duo.find_element(f"#{ids.SUMMARY}").text != summary,
               message="the summary strip follows the new cost")
    wait_idle(dash_duo)
    check_tab(dash_duo, "compare")
    assert "tab=compare" in d.current_url and "cfn=5" in d.current_url

    open_tab(dash_duo, "beyond")
    check_tab(dash_duo, "beyond")
    wait_until(lambda: "tab=beyond" in d.current_url, message="the tab in the link")
    scroll_to(d, 0)
    shot("tab003_beyond_1280x800")

    open_tab(dash_duo, "compare")
    copy = dash_duo.find_element(f"#{ids.COPY_LINK}")
    click(d, centre(d, copy))
    dash_duo.wait_for_contains_text(f"#{ids.COPY_STATUS}", "ink")
    link = d.execute_script("return window._rocCopied")
    assert "tab=compare" in link and "cfn=5" in link

    open_tab(dash_duo, "decide")  # the first tab leaves the link
    wait_until(lambda: "tab=" not in d.current_url, message="no tab in the link")
    check_tab(dash_duo, "decide")

    d.get(link)  # the copied link, opened afresh: the same tab, the same conditions
    wait_until(lambda: dash_duo.find_element(f"#{ids.TAB_PANEL}compare").is_displayed(),
               message="the link's tab")
    dash_duo.wait_for_contains_text(f"#{ids.MODEL_TABLE}", "logistic regression")
    wait_until(lambda: value(dash_duo, ids.COST_FN) == "5", message="the link's cost")
    wait_idle(dash_duo)
    check_tab(dash_duo, "compare")
    assert full_width(d, ids.SUP_GRAPH)
    # the Decide tab's graphs, drawn while hidden, take their full width when it is opened
    open_tab(dash_duo, "decide")
    check_tab(dash_duo, "decide")
    for graph in (ids.ROC_GRAPH, ids.PR_GRAPH, ids.COST_GRAPH, ids.THRESHOLD_GRAPH):
        assert full_width(d, graph), graph


def test_tab002_saved_views_keep_their_tab(dash_duo, app):
    start(dash_duo, app, size=(1280, 900))
    d = dash_duo.driver
    open_tab(dash_duo, "beyond")
    type_into(dash_duo.find_element(f"#{ids.VIEW_NAME}"), "beyond view")
    dash_duo.wait_for_contains_text(f"#{ids.VIEW_LIST}", "beyond view")
    open_tab(dash_duo, "decide")
    button = dash_duo.find_element(f"#{ids.VIEW_LIST} button.link-button")
    scroll_into_view(d, button)
    click(d, centre(d, button))
    wait_until(lambda: "tab=beyond" in d.current_url, message="the view's link")
    wait_until(lambda: dash_duo.find_element(f"#{ids.TAB_PANEL}beyond").is_displayed(),
               message="the view's tab")
    wait_idle(dash_duo)
    check_tab(dash_duo, "beyond")


def test_tab003_presentation_mode_tabs_in_the_top_bar(dash_duo, app, shot):
    """Presentation mode as before: the tabs sit in the top bar, so the Decide tab keeps its
    room; the other tabs open there too."""
    start(dash_duo, app, size=(1280, 720))
    d = present_at(dash_duo, 1280, 720)
    box = ("const r = document.querySelector(arguments[0]).getBoundingClientRect();"
           "return [r.left, r.top, r.right, r.bottom];")
    bar, topbar = d.execute_script(box, f"#{ids.TAB_BAR}"), d.execute_script(box, ".topbar")
    assert topbar[1] - 1 <= bar[1] and bar[3] <= topbar[3] + 1, "the tabs in the top bar"
    actions = d.execute_script(box, ".topbar-actions")
    assert bar[2] <= actions[0], "the tabs clear of the top bar's buttons"
    shot("tab004_presentation_decide_1280x720")
    open_tab(dash_duo, "compare")
    check_tab(dash_duo, "compare", always=(f"#{ids.SUMMARY}",))  # the sidebar folded away
    assert "presenting" in dash_duo.find_element(f"#{ids.APP}").get_attribute("class")
    assert full_width(d, ids.SUP_GRAPH)
    scroll_to(d, 0)
    shot("tab005_presentation_compare_1280x720")


def test_tab004_tabs_by_keyboard(dash_duo, app):
    """Left/Right, Home/End on a focused tab open the neighbouring, first or last tab."""
    from selenium.webdriver.common.keys import Keys

    start(dash_duo, app, size=(1280, 800))
    d = dash_duo.driver

    def press(key, tab):
        d.switch_to.active_element.send_keys(key)
        wait_until(lambda: dash_duo.find_element(f"#{ids.TAB_PANEL}{tab}").is_displayed(),
                   message=f"the {tab} tab")
        wait_until(lambda: d.switch_to.active_element.get_attribute("id")
                   == f"{ids.TAB_BUTTON}{tab}", message=f"the focus on the {tab} tab")
        wait_idle(dash_duo)
        check_tab(dash_duo, tab)

    dash_duo.find_element(f"#{ids.TAB_BUTTON}decide").send_keys(Keys.ARROW_RIGHT)
    wait_until(lambda: dash_duo.find_element(f"#{ids.TAB_PANEL}compare").is_displayed(),
               message="the compare tab")
    press(Keys.END, "monitor")
    press(Keys.ARROW_RIGHT, "decide")  # round the end
    press(Keys.ARROW_LEFT, "monitor")
    press(Keys.HOME, "decide")


#: Logs the outputs of each Dash update request the page sends (window._rocSent).
_LOG_REQUESTS = """
window._rocSent = [];
if (!window._rocSentWrapped) {
    const send = window.fetch;
    window.fetch = function (url, init) {
        if (String(url).indexOf('_dash-update-component') >= 0 && init && init.body) {
            try { window._rocSent.push(JSON.parse(init.body).output); } catch (e) {}
        }
        return send.apply(this, arguments);
    };
    window._rocSentWrapped = true;
}
"""
#: The later tabs' cards that follow the costs, the prior or the views' data.
_HIDDEN_CARDS = (ids.COMPARISON_RESULT, ids.SUP_GRAPH, ids.SLC_TABLE, ids.CAL_GRAPH,
                 ids.COMBINE_RESULT, ids.MON_STATUS)


def test_tab005_a_prior_typed_on_decide_reaches_beyond_when_opened(dash_duo, app, shot):
    """A prior typed while Decide shows sends no request for the hidden tabs' cards (their
    gate stays shut); opening Beyond binary then brings its budget read-out up to the new
    prior: the budget line's positives are N × the new prior."""
    start(dash_duo, app, size=(1280, 900))
    d = dash_duo.driver
    open_tab(dash_duo, "beyond")
    type_into(dash_duo.find_element(f"#{ids.BUDGET}"), "800")
    dash_duo.wait_for_contains_text(f"#{ids.COMBINE_RESULT}", "Budget: 800 of N")
    before = dash_duo.find_element(f"#{ids.COMBINE_RESULT}").text
    open_tab(dash_duo, "decide")
    d.execute_script(_LOG_REQUESTS)
    type_into(dash_duo.find_element(f"#{ids.PRIOR}"), "0.3")
    wait_until(lambda: value(dash_duo, ids.PRIOR) == "0.3", message="the prior typed")
    wait_idle(dash_duo)
    sent = " ".join(d.execute_script("return window._rocSent"))
    assert ids.ROC_GRAPH in sent, "the typed prior's request was logged"
    hidden = [card for card in _HIDDEN_CARDS if card in sent]
    assert not hidden, f"requests for the hidden tabs' cards on a prior change: {hidden}"
    assert dash_duo.find_element(f"#{ids.COMBINE_RESULT}").get_attribute("textContent") \
        .startswith(before.split(":")[0])  # still the old read-out, hidden
    open_tab(dash_duo, "beyond")
    dash_duo.wait_for_contains_text(f"#{ids.COMBINE_RESULT}", "p(+) = 0.3")
    text = dash_duo.find_element(f"#{ids.COMBINE_RESULT}").text
    assert text != before
    scroll_to(d, 0)
    shot("tab006_beyond_after_prior_on_decide")
    found = re.search(r"of N = ([\d,.]+) cases.*?TPR·([\d,.]+) = 800", text)
    assert found, text
    n_total, n_pos = (float(g.replace(",", "")) for g in found.groups())
    assert abs(n_pos - 0.3 * n_total) <= 0.5 * 10 ** (len(str(int(n_pos))) - 4) + 1e-9
