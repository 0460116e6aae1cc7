"""axe-core on the views that need data or settings to appear: the Monitor tab with windows
ticked, the Slices card with a group column, the Decide tab's capacity and floors card filled
in (a capacity and a floor typed, the gains view), the calibration card with its bands, and
Beyond binary with a multi-class file. Each fails on any serious or critical WCAG 2.0/2.1 A
or AA violation (see ``test_a11y_browser.py`` for the rules and the vendored axe-core)."""

from __future__ import annotations

from selenium.webdriver.common.by import By

from roc_dash.app import ids
from tests.monitoring_example import frame as monitoring_frame
from tools.slices_example import loan_predictions

from . import gestures
from .gestures import open_tab, scroll_into_view, type_into, wait_idle, wait_until
from .test_a11y_browser import assert_clean
from .test_monitor_browser import _tick
from .test_monitor_browser import _upload as upload_one
from .test_trust_browser import start


def test_a11y030_monitor_tab_with_windows_has_no_serious_violation(dash_duo, app, tmp_path):
    start(dash_duo, app, size=(1400, 1100))
    for name, prior, seed in (("ref", 0.3, 1), ("jan", 0.3, 2), ("feb", 0.1, 3)):
        path = tmp_path / f"{name}.csv"
        monitoring_frame(1500, prior, seed=seed).to_csv(path, index=False)
        upload_one(dash_duo, path)
    open_tab(dash_duo, "monitor")
    dash_duo.wait_for_contains_text(f"#{ids.MON_STATUS}", "Tick the datasets")
    _tick(dash_duo, ids.MON_WINDOWS, "jan.csv")
    _tick(dash_duo, ids.MON_WINDOWS, "feb.csv")
    wait_until(lambda: "feb" in dash_duo.find_element(f"#{ids.MON_TABLE}").text,
               message="the windows' table")
    wait_until(lambda: gestures.js_graph(dash_duo.driver, ids.MON_ROC, "gd.data.length"),
               message="the operating point's path")
    wait_idle(dash_duo)
    assert_clean(dash_duo.driver, "the Monitor tab with two windows")


def test_a11y031_slices_card_has_no_serious_violation(dash_duo, app, tmp_path):
    start(dash_duo, app, size=(1280, 1300))
    path = tmp_path / "loans.csv"
    loan_predictions().to_csv(path, index=False)
    upload_one(dash_duo, path)
    open_tab(dash_duo, "compare")
    dash_duo.wait_for_contains_text(f"#{ids.SLC_SOURCE}", "4 groups")
    dash_duo.wait_for_contains_text(f"#{ids.SLC_TOTAL}", "each group its own optimum")
    wait_until(lambda: gestures.js_graph(dash_duo.driver, ids.SLC_GRAPH, "gd.data.length"),
               message="the slices' graph")
    wait_idle(dash_duo)
    assert_clean(dash_duo.driver, "the Compare tab with the Slices card")


def test_a11y032_capacity_and_floors_card_filled_has_no_serious_violation(dash_duo, app):
    start(dash_duo, app)
    capacity = dash_duo.find_element(f"#{ids.DCT_CAPACITY}")
    scroll_into_view(dash_duo.driver, capacity)
    type_into(capacity, "10%")
    wait_until(lambda: "10%" in dash_duo.find_element(f"#{ids.DCT_SUMMARY}").text,
               message="the capacity's row")
    type_into(dash_duo.find_element(f"#{ids.DCT_FLOORS}"), "recall >= 0.8")
    wait_until(lambda: "Holds in" in dash_duo.find_element(f"#{ids.DCT_CONFIDENCE}").text,
               message="how sure the floor is")
    wait_until(lambda: gestures.js_graph(dash_duo.driver, ids.DCT_GRAPH,
                                         "gd.data.length"), message="the gains view")
    wait_idle(dash_duo)
    assert dash_duo.find_element(f"#{ids.DCT_VIEW} input[value='gains']").is_selected()
    assert_clean(dash_duo.driver, "the Decide tab with a capacity and a floor")


def test_a11y033_calibration_card_with_bands_has_no_serious_violation(dash_duo, app):
    start(dash_duo, app)
    open_tab(dash_duo, "compare")
    wait_until(lambda: gestures.js_graph(
        dash_duo.driver, ids.CAL_GRAPH,
        "gd.data.filter(t => (t.uid || '').indexOf('cal-band-') === 0).length") == 4,
        message="a band per model in the reliability diagram")
    wait_idle(dash_duo)
    assert_clean(dash_duo.driver, "the calibration card with its bands")


def test_a11y034_beyond_binary_with_multiclass_data_has_no_serious_violation(dash_duo, app):
    start(dash_duo, app)
    example = next(b for b in dash_duo.driver.find_elements(By.CSS_SELECTOR, ".examples button")
                   if b.text == "multi-class")
    example.click()
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_STATUS}", "Multi-class file: 3 classes")
    wait_until(lambda: dash_duo.find_element(f"#{ids.CLASS_ROW}").is_displayed(),
               message="the class selector")
    open_tab(dash_duo, "beyond")
    wait_until(lambda: gestures.js_graph(dash_duo.driver, ids.MC_PAIRWISE, "gd.data.length"),
               message="the pairwise matrix")
    wait_idle(dash_duo)
    assert_clean(dash_duo.driver, "Beyond binary with the multi-class example")
