"""The review meeting: pins side by side, tie bounds, PR gain, driven by real input."""

import time

import numpy as np

from roc_dash.app import ids
from roc_dash.app.store import DEMO_ID
from roc_dash.core.analysis import Conditions

from .gestures import click, js_graph, to_screen, wait_until
from .test_trust_browser import _centre, start

GRAPHS = (ids.ROC_GRAPH, ids.PR_GRAPH, ids.COST_GRAPH)


def names(driver, graph):
    return js_graph(driver, graph, "gd.data.map(t => t.name)") or []


def _vertex(app, model, k):
    models = ["logistic regression", "naive Bayes", "decision tree", "gradient boosting"]
    analysis = app.analysis_cache.analysis([DEMO_ID], models, Conditions(prior_pos=0.2737))
    curve = analysis.model(model).curve
    return float(curve.fpr[k]), float(curve.tpr[k]), float(curve.thresholds[k])


def test_mtg001_two_pins_compared_then_one_removed(dash_duo, app, shot):
    start(dash_duo, app)
    d = dash_duo.driver
    tree = _vertex(app, "decision tree", 5)
    click(d, to_screen(d, ids.ROC_GRAPH, tree[0], tree[1]))
    wait_until(lambda: "pinned A" in dash_duo.find_element(f"#{ids.OPERATING}").text,
               message="pin A")
    nb = _vertex(app, "naive Bayes", 60)
    click(d, to_screen(d, ids.ROC_GRAPH, nb[0], nb[1]))
    wait_until(lambda: "pinned B" in dash_duo.find_element(f"#{ids.OPERATING}").text,
               message="pin B")
    table = dash_duo.find_element(f"#{ids.OPERATING} table.compare").text
    assert "Optimum" in table and "A" in table and "B" in table and "Δ" in table
    for g in GRAPHS:
        wait_until(lambda g=g: {"pinned A", "pinned B"} <= {
            n[:8] for n in names(d, g)}, message=f"A and B in {g}")
    assert "pin=A" in d.execute_script("return location.search")
    shot("mtg001_pins")
    # remove A with its own button: B stays
    button = dash_duo.find_element(f"#{ids.OPERATING} button[aria-label='Unpin A']")
    click(d, _centre(d, button))
    wait_until(lambda: not any(n.startswith("pinned A") for n in names(d, ids.ROC_GRAPH)),
               message="A removed")
    assert any(n.startswith("pinned B") for n in names(d, ids.ROC_GRAPH))


def test_mtg002_tie_bounds_and_pr_gain_toggles(dash_duo, app):
    start(dash_duo, app)
    d = dash_duo.driver
    box = dash_duo.find_element(f"#{ids.ROC_TIES} label")
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", box)
    click(d, _centre(d, box))
    wait_until(lambda: any("ties" in (n or "") for n in names(d, ids.ROC_GRAPH)),
               message="tie bounds in the legend")
    assert len([n for n in names(d, ids.ROC_GRAPH) if "tie bounds" in (n or "")]) == 4
    radio = [e for e in dash_duo.find_elements(f"#{ids.PR_MODE} label") if "gain" in e.text][0]
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", radio)
    click(d, _centre(d, radio))
    wait_until(lambda: js_graph(d, ids.PR_GRAPH, "gd.layout.meta && gd.layout.meta.prg"),
               message="PR gain view")
    assert any("AUPRG" in (n or "") for n in names(d, ids.PR_GRAPH))
    assert "prm=prg" in d.execute_script("return location.search")
    assert "ties=1" in d.execute_script("return location.search")
    time.sleep(0.3)
    # hovering the ROC marks the point on the gain axes
    fpr, tpr, _ = _vertex(app, "logistic regression", 40)
    from .gestures import hover

    for _ in range(3):
        hover(d, to_screen(d, ids.ROC_GRAPH, fpr, tpr))
        time.sleep(0.4)
        if js_graph(d, ids.PR_GRAPH,
                    "gd.layout.annotations.find(a => a.name === 'hover').visible"):
            break
    x = js_graph(d, ids.PR_GRAPH, "gd.layout.annotations.find(a => a.name === 'hover').x")
    assert x is not None and -0.01 <= x <= 1.0
    assert not np.isnan(x)


def test_mtg003_presentation_mode_side_by_side_at_1280x720(dash_duo, app, shot):
    start(dash_duo, app, size=(1280, 720))
    d = dash_duo.driver
    label = dash_duo.find_element(f"#{ids.PRESENTATION} label")
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", label)
    click(d, _centre(d, label))
    wait_until(lambda: "presenting" in dash_duo.find_element(f"#{ids.APP}").get_attribute("class"),
               message="presentation mode")
    wait_until(lambda: js_graph(d, ids.ROC_GRAPH, "gd.layout.font.size") == 20)
    d.execute_script("window.scrollTo(0, 0)")
    time.sleep(0.8)
    rect = "const r = document.getElementById(arguments[0]).getBoundingClientRect();" \
           "return [r.left, r.top, r.right, r.bottom];"
    roc = d.execute_script(rect, ids.ROC_GRAPH)
    op = d.execute_script(rect, ids.OPERATING)
    assert roc[2] <= op[0] + 1, "the comparison sits to the right of the ROC"
    assert roc[1] < 720 and op[1] < 720 and roc[1] < 200 and op[1] < 200  # above the fold
    assert not dash_duo.find_element(".sidebar").is_displayed()
    # thicker lines for the room
    widths = js_graph(d, ids.ROC_GRAPH, "gd.data.map(t => t.line && t.line.width).filter(w => w)")
    assert max(widths) >= 4
    shot("mtg003_presentation_1280x720")
    # the controls come back on request
    click(d, _centre(d, dash_duo.find_element(f"#{ids.SIDEBAR_TOGGLE}")))
    wait_until(lambda: dash_duo.find_element(".sidebar").is_displayed(), message="sidebar back")


def test_mtg004_note_and_saved_views(dash_duo, app):
    from .gestures import type_into
    from .test_trust_browser import value

    start(dash_duo, app)
    d = dash_duo.driver
    note = dash_duo.find_element(f"#{ids.NOTE}")
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", note)
    note.click()
    note.send_keys("Go with logistic regression; revisit costs in Q3.")
    dash_duo.find_element(f"#{ids.VIEW_NAME}").click()  # leaving the box saves the note
    dash_duo.wait_for_contains_text(f"#{ids.NOTE_STATUS}", "Note saved")
    dash_duo.find_element(f"#{ids.COST_FN_UP}").click()
    wait_until(lambda: value(dash_duo, ids.COST_FN) == "1.259", message="c(FN) stepped")
    type_into(dash_duo.find_element(f"#{ids.VIEW_NAME}"), "dearer misses")
    dash_duo.wait_for_contains_text(f"#{ids.VIEW_LIST}", "dearer misses")
    # change the conditions again, then bring the saved view back
    dash_duo.find_element(f"#{ids.COST_FN_UP}").click()
    wait_until(lambda: value(dash_duo, ids.COST_FN) == "1.585", message="c(FN) stepped again")
    button = dash_duo.find_element(f"#{ids.VIEW_LIST} button.link-button")
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    click(d, _centre(d, button))
    wait_until(lambda: value(dash_duo, ids.COST_FN) == "1.259", message="the saved view")
    wait_until(lambda: "Q3" in dash_duo.find_element(f"#{ids.NOTE}").get_attribute("value"),
               message="the note, read back from the server")
    assert app.store.notes(["demo"])["views"][0]["name"] == "dearer misses"
