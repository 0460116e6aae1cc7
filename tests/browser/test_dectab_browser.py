"""The Decide tab's capacity and floors card in a real headless Chromium: typed capacity and
floors, their points and region on the ROC and PR views, bad input's messages, the link."""

from urllib.parse import parse_qs, urlsplit

from roc_dash.app import ids

from . import gestures
from .gestures import type_into, wait_idle, wait_until
from .test_views_browser import start

_OVERLAY = "gd.data.filter(t => (t.uid || '').indexOf('dct-') === 0)"


def _overlay(dash_duo, graph_id):
    return gestures.js_graph(dash_duo.driver, graph_id,
                             _OVERLAY + ".map(t => [t.name, t.mode, !!t.fill])") or []


def _text(dash_duo, element_id):
    return dash_duo.find_element(f"#{element_id}").text


def _card_shot(dash_duo, shot, name):
    dash_duo.driver.execute_script(
        "document.getElementById(arguments[0]).scrollIntoView({block: 'start'});"
        "window.scrollBy(0, -140);", ids.DCT_CARD)
    wait_idle(dash_duo.driver)
    path = shot(name)
    dash_duo.find_element(f"#{ids.DCT_CARD}").screenshot(str(path.with_name(f"{name}_card.png")))


def test_dct101_capacity_and_floors_typed_drawn_and_linked(dash_duo, app, shot):
    start(dash_duo, app)
    capacity = dash_duo.find_element(f"#{ids.DCT_CAPACITY}")
    gestures.scroll_into_view(dash_duo.driver, capacity)
    type_into(capacity, "10%")
    wait_until(lambda: any(mode == "markers+text" for _, mode, _ in
                           _overlay(dash_duo, ids.ROC_GRAPH)),
               message="the capacity's points on the ROC")
    wait_until(lambda: "10%" in _text(dash_duo, ids.DCT_SUMMARY),
               message="the queue rate in the card")
    assert "Precision" in _text(dash_duo, ids.DCT_SUMMARY) and "by mixing two thresholds" in _text(
        dash_duo, ids.DCT_SUMMARY)
    assert _text(dash_duo, ids.DCT_CAPACITY_MSG) == ""

    # a floor and a bad one: the good one's region is drawn, the bad one is named
    type_into(dash_duo.find_element(f"#{ids.DCT_FLOORS}"), "recall >= 0.8; prec ~ 3")
    wait_until(lambda: any(fill for _, _, fill in _overlay(dash_duo, ids.ROC_GRAPH)),
               message="the floors' region on the ROC")
    wait_until(lambda: any(fill for _, _, fill in _overlay(dash_duo, ids.PR_GRAPH)),
               message="the floors' region on the PR view")
    wait_until(lambda: "prec ~ 3" in _text(dash_duo, ids.DCT_FLOORS_MSG),
               message="the bad floor's message")
    # the capacity survives the floors' change
    assert any(mode == "markers+text" for _, mode, _ in _overlay(dash_duo, ids.ROC_GRAPH))
    wait_until(lambda: "Holds in" in _text(dash_duo, ids.DCT_CONFIDENCE),
               message="how sure the floor is")
    _card_shot(dash_duo, shot, "dectab_capacity_floors")
    dash_duo.driver.execute_script(
        "document.getElementById(arguments[0]).scrollIntoView({block: 'start'});",
        ids.ROC_GRAPH)
    shot("dectab_roc_overlay")

    # a capacity larger than the data: its message, the floors kept
    type_into(dash_duo.find_element(f"#{ids.DCT_CAPACITY}"), "100000")
    wait_until(lambda: "more than the" in _text(dash_duo, ids.DCT_CAPACITY_MSG),
               message="the capacity's message")
    wait_until(lambda: not any(m == "markers+text" for _, m, _ in
                               _overlay(dash_duo, ids.ROC_GRAPH)),
               message="no capacity point")
    assert any(fill for _, _, fill in _overlay(dash_duo, ids.ROC_GRAPH))

    # the PR bands at the deployment prior: a real click on the toggle
    dash_duo.find_element(f"#{ids.DCT_PR_BANDS} input").click()
    wait_until(lambda: sum("band" in (name or "") for name, _, fill in
                           _overlay(dash_duo, ids.PR_GRAPH) if fill) == 4,
               message="a band per model on the PR view")
    dash_duo.driver.execute_script(
        "document.getElementById(arguments[0]).scrollIntoView({block: 'start'});",
        ids.PR_GRAPH)
    shot("dectab_pr_bands")

    # the view radio: lift
    label = next(e for e in dash_duo.driver.find_elements(
        "css selector", f"#{ids.DCT_VIEW} label") if e.text.strip() == "lift")
    label.click()
    wait_until(lambda: gestures.js_graph(dash_duo.driver, ids.DCT_GRAPH,
                                         "gd.layout.yaxis.title.text") == "Lift",
               message="the lift view")

    # the link carries the settings; opened afresh, they come back
    type_into(dash_duo.find_element(f"#{ids.DCT_CAPACITY}"), "30/1000")
    wait_until(lambda: "cap=" in dash_duo.driver.current_url, message="the link")
    wait_until(lambda: parse_qs(urlsplit(dash_duo.driver.current_url).query).get("cap")
               == ["30/1000"], message="the capacity in the link")
    url = dash_duo.driver.current_url
    q = parse_qs(urlsplit(url).query)
    assert q["floor"] == ["recall >= 0.8; prec ~ 3"] and q["cview"] == ["lift"]
    assert q["prb"] == ["1"]
    dash_duo.driver.get(url)
    wait_until(lambda: dash_duo.find_element(f"#{ids.DCT_CAPACITY}").get_attribute("value")
               == "30/1000", message="the capacity restored")
    wait_until(lambda: "3%" in _text(dash_duo, ids.DCT_SUMMARY),
               message="the capacity's queue rate after reload")
    wait_until(lambda: any(mode == "markers+text" for _, mode, _ in
                           _overlay(dash_duo, ids.ROC_GRAPH)),
               message="the capacity's points after reload " + str(gestures.js_graph(
                   dash_duo.driver, ids.ROC_GRAPH, "gd.data.map(t => t.uid + ' ' + t.name)")))
    assert dash_duo.find_element(f"#{ids.DCT_FLOORS}").get_attribute("value") == \
        "recall >= 0.8; prec ~ 3"
