"""The calibration card (Compare tab) and the decision-curve mode of the cost card in a real
headless Chromium, checked against the demo file read with pandas and scikit-learn."""

from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.isotonic import IsotonicRegression

from roc_dash.app import ids

from . import gestures
from .gestures import open_tab, wait_file, wait_idle, wait_until
from .test_views_browser import start

DEMO = Path(__file__).resolve().parents[2] / "roc_dash" / "data" / "demo_predictions.csv"


def _names(dash_duo, graph_id):
    return gestures.js_graph(dash_duo.driver, graph_id, "gd.data.map(t => t.name)") or []


def _card_shot(dash_duo, shot, element_id, name):
    """A screenshot of the window scrolled to the card, and one of the card alone."""
    dash_duo.driver.set_window_size(1280, 1000)  # a laptop's width
    dash_duo.driver.execute_script(
        "document.getElementById(arguments[0]).scrollIntoView({block: 'start'});"
        "window.scrollBy(0, -140);", element_id)  # clear of the summary pinned at the top
    wait_idle(dash_duo.driver)
    path = shot(name)
    card = dash_duo.find_element(f"#{element_id}").find_element(
        "xpath", "./ancestor-or-self::div[contains(concat(' ', @class, ' '), ' card ')][1]")
    card.screenshot(str(path.with_name(f"{name}_card.png")))


def test_cpg101_calibration_card_and_download(dash_duo, app, shot):
    frame = pd.read_csv(DEMO)
    start(dash_duo, app)
    open_tab(dash_duo, "compare")
    wait_until(lambda: sum("hull-calibrated" in n for n in _names(dash_duo, ids.CAL_GRAPH))
               == 4, message="four hull maps in the reliability diagram")
    table = dash_duo.find_element(f"#{ids.CAL_TABLE}").text
    assert "Brier" in table and "ECE" in table and "naive Bayes" in table

    # equal-count bins with a real click: the reliability points move
    before = gestures.js_graph(dash_duo.driver, ids.CAL_GRAPH, "JSON.stringify(gd.data[1].x)")
    label = next(e for e in dash_duo.driver.find_elements(
        "css selector", f"#{ids.CAL_STRATEGY} label") if "equal count" in e.text)
    label.click()
    wait_until(lambda: gestures.js_graph(dash_duo.driver, ids.CAL_GRAPH,
                                         "JSON.stringify(gd.data[1].x)") != before,
               message="the bins changed")

    folder = Path(dash_duo.download_path)
    for old in folder.glob("roc-dash-calibrated-scores*.csv"):
        old.unlink()
    dash_duo.find_element(f"#{ids.CAL_DOWNLOAD_BUTTON}").click()
    got = pd.read_csv(wait_file(folder, "roc-dash-calibrated-scores*.csv")[0],
                      dtype={"id": str})
    assert len(got) == len(frame)
    for model, rows in frame.groupby("model"):
        y = (rows["label"] == "pos").to_numpy(int)
        s = rows["score"].to_numpy(float)
        mine = got[got["model"] == model].set_index("id").loc[rows["id"].astype(str)]
        np.testing.assert_array_equal(mine["label"].to_numpy(), y)
        np.testing.assert_allclose(mine["score"].to_numpy(float), s)
        iso = IsotonicRegression(out_of_bounds="clip").fit(s, y)
        np.testing.assert_allclose(mine["calibrated_probability"].to_numpy(float),
                                   iso.predict(s), atol=1e-12)
    _card_shot(dash_duo, shot, ids.CAL_CARD, "calpage_calibration_card")


def _best_net_benefit(frame, prior, p_t):
    """The best net benefit of any model at any threshold (or of treating nobody/everyone),
    by brute force over the demo rows."""
    odds = p_t / (1 - p_t)
    best = max(0.0, prior - (1 - prior) * odds)
    for _, rows in frame.groupby("model"):
        y = rows["label"].to_numpy() == "pos"
        s = rows["score"].to_numpy()
        for t in np.unique(s):
            tpr, fpr = (s[y] >= t).mean(), (s[~y] >= t).mean()
            best = max(best, prior * tpr - (1 - prior) * fpr * odds)
    return best


def _decision_marker(dash_duo):
    return gestures.js_graph(
        dash_duo.driver, ids.COST_GRAPH,
        "gd.layout.meta && gd.layout.meta.view === 'decision' ? "
        "[gd.layout.shapes[0].x0, gd.layout.meta.net_benefit, "
        "gd.data.find(t => t.uid === 'optimum') ? "
        "gd.data.find(t => t.uid === 'optimum').y[0] : null] : null")


def test_cpg102_decision_curve_mode_follows_the_costs(dash_duo, app, shot):
    frame = pd.read_csv(DEMO)
    prior = float((frame["label"] == "pos").mean())
    start(dash_duo, app)
    label = next(e for e in dash_duo.driver.find_elements(
        "css selector", f"#{ids.COST_MODE} label") if "Decision curve" in e.text)
    label.click()
    wait_until(lambda: _decision_marker(dash_duo) is not None, message="the decision curve")
    assert dash_duo.find_element(f"#{ids.COST_TITLE}").text == "Decision curve: net benefit"
    names = " ".join(_names(dash_duo, ids.COST_GRAPH))
    assert "treat all" in names and "treat none" in names and "joint hull" in names
    x, nb, star = _decision_marker(dash_duo)
    assert abs(x - 0.5) < 1e-12  # c(FP) = c(FN) = 1
    assert abs(nb - _best_net_benefit(frame, prior, 0.5)) < 1e-9 and abs(star - nb) < 1e-12
    wait_until(lambda: "cm=decision" in dash_duo.driver.current_url,
               message="the mode in the link")

    gestures.type_into(dash_duo.find_element(f"#{ids.COST_FN}"), "3")
    wait_until(lambda: abs((_decision_marker(dash_duo) or [0])[0] - 0.25) < 1e-12,
               message="the marker at p_t = 1 / (1 + 3)")
    wait_idle(dash_duo.driver)
    x, nb, star = _decision_marker(dash_duo)
    assert abs(nb - _best_net_benefit(frame, prior, 0.25)) < 1e-9 and abs(star - nb) < 1e-12
    _card_shot(dash_duo, shot, ids.COST_GRAPH, "calpage_decision_curve")

    # its exported image is named after what it shows (a real click on the modebar button)
    folder = Path(dash_duo.download_path)
    button = dash_duo.find_element(
        f"#{ids.COST_GRAPH} .modebar-btn[data-title^='Download plot as PNG']")
    gestures.scroll_into_view(dash_duo.driver, button)
    x0, y0, w, h = dash_duo.driver.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return [r.x, r.y, r.width, r.height];",
        button)
    gestures.click(dash_duo.driver, (x0 + w / 2, y0 + h / 2))
    png = wait_file(folder, "roc-dash-decision-curve.png")
    assert Path(png[0]).read_bytes()[:4] == b"\x89PNG"

    # back to the cost curves with a real click: the cost view's read-off again
    label = next(e for e in dash_duo.driver.find_elements(
        "css selector", f"#{ids.COST_MODE} label") if "Cost curves" in e.text)
    label.click()
    wait_until(lambda: _decision_marker(dash_duo) is None
               and "pc_pos" in (gestures.js_graph(dash_duo.driver, ids.COST_GRAPH,
                                                  "gd.layout.meta") or {}),
               message="the cost curves back")
    assert "cm=decision" not in dash_duo.driver.current_url
    assert dash_duo.find_element(f"#{ids.COST_TITLE}").text == "Cost curves"


def test_cpg103_slider_drag_moves_the_decision_marker_in_the_browser(dash_duo, app):
    from selenium.webdriver.common.action_chains import ActionChains

    frame = pd.read_csv(DEMO)
    prior = float((frame["label"] == "pos").mean())
    start(dash_duo, app, "/?cm=decision")  # the mode from a link
    wait_until(lambda: _decision_marker(dash_duo) is not None, message="the decision curve")
    wait_idle(dash_duo.driver)
    handle = dash_duo.find_element(f"#{ids.COST_FP_SLIDER} [role=slider]")
    drag = ActionChains(dash_duo.driver)
    drag.click_and_hold(handle).move_by_offset(40, 0).pause(0.3).move_by_offset(20, 0).perform()
    try:
        wait_until(lambda: _decision_marker(dash_duo)[0] > 0.5,
                   message="the marker moved during the drag (dearer false positives)")
        x, nb, star = _decision_marker(dash_duo)
        # where the browser put the star is the best net benefit at that p_t
        assert abs(star - _best_net_benefit(frame, prior, x)) < 1e-9 and abs(nb - star) < 1e-12
        text = gestures.js_graph(dash_duo.driver, ids.COST_GRAPH, "gd.layout.annotations[1].text")
        assert "net benefit" in text and "PC(+)" not in text
    finally:
        ActionChains(dash_duo.driver).release().perform()
    wait_until(lambda: float(dash_duo.find_element(f"#{ids.COST_FP}").get_attribute("value")) > 1,
               message="the cost committed on release")
    wait_idle(dash_duo.driver)
    cfp = float(dash_duo.find_element(f"#{ids.COST_FP}").get_attribute("value"))
    x, _, _ = _decision_marker(dash_duo)
    assert abs(x - cfp / (cfp + 1.0)) < 1e-3  # the box shows the cost rounded


def _x_range(dash_duo):
    return gestures.js_graph(dash_duo.driver, ids.COST_GRAPH, "gd.layout.xaxis.range")


def test_cpg104_the_decision_curve_keeps_its_own_zoom(dash_duo, app):
    start(dash_duo, app, "/?cm=decision")
    wait_until(lambda: _decision_marker(dash_duo) is not None, message="the decision curve")
    wait_idle(dash_duo.driver)
    driver = dash_duo.driver
    gestures.scroll_into_view(driver, dash_duo.find_element(f"#{ids.COST_GRAPH}"))
    gestures.drag(driver, gestures.to_screen(driver, ids.COST_GRAPH, 0.2, 0.2),
                  gestures.to_screen(driver, ids.COST_GRAPH, 0.6, 0.0))
    wait_until(lambda: abs(_x_range(dash_duo)[0] - 0.2) < 0.02
               and abs(_x_range(dash_duo)[1] - 0.6) < 0.02, message="zoomed by the drag")
    zoomed = _x_range(dash_duo)
    gestures.type_into(dash_duo.find_element(f"#{ids.COST_FN}"), "3")
    wait_until(lambda: abs((_decision_marker(dash_duo) or [0])[0] - 0.25) < 1e-12,
               message="the marker at p_t = 0.25")
    wait_idle(driver)
    assert _x_range(dash_duo) == zoomed  # the zoom survives a redraw
    label = next(e for e in driver.find_elements(
        "css selector", f"#{ids.COST_MODE} label") if "Cost curves" in e.text)
    label.click()
    wait_until(lambda: _decision_marker(dash_duo) is None
               and "pc_pos" in (gestures.js_graph(driver, ids.COST_GRAPH, "gd.layout.meta")
                                or {}), message="the cost curves back")
    wait_idle(driver)
    home = gestures.js_graph(driver, ids.COST_GRAPH, "gd.layout.meta.home.x")
    assert _x_range(dash_duo) == home  # the cost curves are not zoomed by the decision curve
