"""The page by keyboard alone and at 200% zoom (WCAG 2.1.1, 2.4.1, 2.4.3, 1.4.10, 4.1.3).

Real keys through selenium's ActionChains: the skip link, the tabs, a cost typed, a pin,
Copy link and an export; a dataset removed with Enter (focus goes to the dataset list and a
live region says what went); and the page at 640×360 CSS px (a 1280×720 window at 200%),
where the summary strip must not keep the ROC covered.
"""

from __future__ import annotations

from pathlib import Path

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from roc_dash.app import ids

from .gestures import wait_file, wait_idle, wait_until
from .test_state_browser import summary
from .test_trust_browser import start


def active(driver) -> str:
    """The focused element: its id, else its class (``""`` for the body)."""
    return driver.execute_script(
        "const a = document.activeElement;"
        "return a === document.body ? '' : (a.id || a.className || a.tagName);")


def press(driver, *keys) -> None:
    chain = ActionChains(driver)
    for k in keys:
        chain.send_keys(k)
    chain.perform()


def tab_to(driver, element_id: str, limit: int = 150, back: bool = False) -> int:
    """Press Tab (Shift+Tab with ``back``) until the element ``element_id`` (an id, or a CSS
    selector starting with ``#``/``.``) has the focus; the number of presses it took."""
    selector = element_id if element_id[:1] in "#." else f"#{element_id}"
    if driver.execute_script("return document.activeElement.matches(arguments[0])", selector):
        return 0
    for n in range(1, limit + 1):  # noqa: B007 (the count is the answer)
        if back:
            ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(
                Keys.SHIFT).perform()
        else:
            press(driver, Keys.TAB)
        if driver.execute_script("return document.activeElement.matches(arguments[0])",
                                 selector):
            return n
    raise AssertionError(f"{element_id} not reached in {limit} Tabs (at {active(driver)!r})")


def test_a11y010_meeting_flow_by_keyboard_alone(dash_duo, app, shot):
    start(dash_duo, app)
    d = dash_duo.driver
    d.execute_script("document.activeElement && document.activeElement.blur();"
                     "window.scrollTo(0, 0);")
    # the skip link is the first stop; Enter jumps over the top bar and the controls
    press(d, Keys.TAB)
    assert "skip-link" in active(d)
    press(d, Keys.ENTER)
    wait_until(lambda: active(d) == ids.VIEWS_MAIN, message="focus on the views")
    assert tab_to(d, ids.TAB_BUTTON + "decide") <= 2  # the tabs right after the skip
    press(d, Keys.TAB, Keys.ENTER)  # Compare
    wait_until(lambda: dash_duo.find_element(f"#{ids.TAB_PANEL}compare").is_displayed(),
               message="the Compare tab by Enter")
    tab_to(d, ids.TAB_BUTTON + "decide", back=True)
    press(d, Keys.ENTER)
    wait_until(lambda: dash_duo.find_element(f"#{ids.TAB_PANEL}decide").is_displayed(),
               message="back on Decide")
    # a cost typed: the false negative's exact value, then Enter
    before = summary(dash_duo)
    tab_to(d, ids.COST_FN, back=True)
    ActionChains(d).key_down(Keys.CONTROL).send_keys("a").key_up(Keys.CONTROL).perform()
    press(d, "5", Keys.ENTER)
    wait_until(lambda: summary(dash_duo) != before, message="the summary under c(FN) = 5")
    wait_idle(dash_duo)
    # a pin: the pin row's model (its dropdown by Enter and the arrow keys), then its
    # threshold typed, Enter
    tab_to(d, ids.PIN_MODEL)
    press(d, Keys.ENTER)
    wait_until(lambda: d.find_elements("css selector", ".dash-dropdown-content input"),
               message="the model list open")
    press(d, Keys.ARROW_DOWN)  # the first model takes the focus (then Enter chooses it)
    wait_until(lambda: "dash-options-list-option-checkbox" in active(d),
               message="a model of the list focused by the arrow key")
    press(d, Keys.ENTER)
    wait_until(lambda: "model" != dash_duo.find_element(f"#{ids.PIN_MODEL}").text.strip(),
               message="a model chosen")
    tab_to(d, ids.PIN_THRESHOLD)
    ActionChains(d).key_down(Keys.CONTROL).send_keys("a").key_up(Keys.CONTROL).perform()
    press(d, "0.5", Keys.ENTER)
    wait_until(lambda: "Pinned A:" in summary(dash_duo), message="pin A by keyboard")
    # copy the link: the top bar's button, by Enter
    tab_to(d, ids.COPY_LINK, back=True)
    press(d, Keys.ENTER)
    dash_duo.wait_for_contains_text(f"#{ids.COPY_STATUS}", "ink")
    link = d.execute_script("return window._rocCopied") or ""
    assert "cfn=5" in link and "pin=A" in link
    # export: the table CSV, by Enter
    folder = Path(dash_duo.download_path)
    tab_to(d, ids.EXPORT_TABLE)
    press(d, Keys.ENTER)
    assert wait_file(folder, "*.csv")
    shot("a11y010_keyboard_flow")


def test_a11y011_removal_by_keyboard_moves_focus_and_announces(dash_duo, app):
    start(dash_duo, app)
    d = dash_duo.driver
    region = dash_duo.find_element(f"#{ids.REMOVAL}")
    assert region.get_attribute("aria-live") == "polite"  # in the page before any removal
    d.execute_script("window.scrollTo(0, 0)")
    remove = dash_duo.find_element(f"#{ids.DATASET_LIST} button.remove")
    d.execute_script("arguments[0].focus()", remove)
    press(d, Keys.ENTER)
    dash_duo.wait_for_contains_text(f"#{ids.REMOVAL}", "?")
    tab_to(d, f"#{ids.REMOVAL} button.danger")
    press(d, Keys.ENTER)
    dash_duo.wait_for_contains_text(f"#{ids.REMOVAL}", "Removed")
    wait_until(lambda: active(d) == ids.DATASET_LIST, message="focus on the dataset list")


def test_a11y012_roc_not_covered_by_the_strip_at_200_percent(dash_duo, app, shot):
    start(dash_duo, app)
    d = dash_duo.driver
    # a 1280×720 window at 200%: 640×360 CSS pixels, each drawn with 2 device pixels
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 640, "height": 360, "deviceScaleFactor": 2, "mobile": False})
    try:
        wait_until(lambda: d.execute_script("return window.innerHeight") == 360,
                   message="640×360 CSS px")
        d.execute_script(f"document.getElementById('{ids.ROC_GRAPH}')"
                         ".scrollIntoView({block: 'start'})")
        wait_idle(dash_duo)
        # what is drawn at the graph's top edge and across its visible part is the graph,
        # not the strip or the top bar
        covered = d.execute_script(f"""
            const g = document.getElementById('{ids.ROC_GRAPH}');
            const r = g.getBoundingClientRect();
            const out = [];
            for (const fy of [0.02, 0.25, 0.5, 0.9]) {{
              const y = r.top + fy * Math.min(r.height, innerHeight - r.top);
              for (const fx of [0.1, 0.5, 0.9]) {{
                const e = document.elementFromPoint(r.left + fx * r.width, y);
                if (!e || !g.contains(e)) out.push([fx, fy, e && (e.id || e.className)]);
              }}
            }}
            return out;""")
        assert not covered, f"the ROC is covered at {covered}"
        strip = d.execute_script(
            f"return getComputedStyle(document.getElementById('{ids.SUMMARY}')).position")
        assert strip != "sticky"
        # the strip's lines wrap: nothing of them is cut off
        cut = d.execute_script(
            "return [...document.querySelectorAll('.summary > div')]"
            ".filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.className)")
        assert not cut, f"cut lines in the strip: {cut}"
        shot("a11y012_zoom_200")
    finally:
        d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
