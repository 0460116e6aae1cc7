"""A hover never rounds a threshold up (hrd001): a real pointer on the ROC vertex at a score of
0.46702173 reads "≥ 0.467021" (the page's rule), not plotly's ``.6~g`` "0.467022", a rule that
would leave out the point shown. The vertex lies under the hull, so the model's curve (its
threshold read from customdata) answers the hover, not the hull (a text of its own)."""

from __future__ import annotations

import pandas as pd
from selenium.webdriver.common.action_chains import ActionChains

from roc_dash.app import ids

from .gestures import js_graph, to_screen, wait_idle, wait_steady, wait_until
from .test_trust_browser import start
from .test_upload_browser import upload


def _hover_text(dash_duo, graph, x, y, condition, message):
    label = f"#{graph} .hoverlayer .hovertext, #{graph} .hoverlayer .legend"

    def hovered():
        actions = ActionChains(dash_duo.driver)
        actions.w3c_actions.pointer_action.move_to_location(int(round(x)) + 3, int(round(y)))
        actions.w3c_actions.pointer_action.move_to_location(int(round(x)), int(round(y)))
        actions.perform()
        found = dash_duo.driver.find_elements("css selector", label)
        text = " | ".join(f.text for f in found)
        return found and condition(text) and text

    return wait_until(hovered, message=message)


def test_hrd001_roc_hover_says_the_pages_threshold_never_rounded_up(dash_duo, app, tmp_path,
                                                                    shot):
    start(dash_duo, app, size=(1400, 1000))
    # descending: P N N P N P, so the vertex at 0.46702173 is (2/3, 2/3), a corner under
    # the hull
    frame = pd.DataFrame({"model": "m", "label": [1, 0, 0, 1, 0, 1],
                          "score": [0.91234567, 0.81234567, 0.71234567, 0.46702173,
                                    0.31234567, 0.21234567]})
    path = tmp_path / "digits.csv"
    frame.to_csv(path, index=False)
    upload(dash_duo, path)
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_STATUS}", "replaces the demo")
    wait_idle(dash_duo)
    wait_steady(dash_duo.driver, ids.ROC_GRAPH)
    wait_until(lambda: "m (AUC" in str(js_graph(dash_duo.driver, ids.ROC_GRAPH,
                                                 "gd.data.map(t => t.name)")),
               message="the uploaded model drawn")
    wait_steady(dash_duo.driver, ids.ROC_GRAPH)
    x, y = to_screen(dash_duo.driver, ids.ROC_GRAPH, 2 / 3, 2 / 3)
    shot("hrd001_before")
    text = _hover_text(dash_duo, ids.ROC_GRAPH, x, y, lambda t: "threshold" in t,
                       "the hover on the vertex (2/3, 2/3)")
    shot("hrd001_roc_hover")
    assert "≥ 0.467021" in text and "0.467022" not in text, text
