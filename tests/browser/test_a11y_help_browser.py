"""Help reachable by keyboard and touch (WCAG 2.1 1.4.13, 2.1.1): every help text that was
only the ``title`` of an element taking no focus is a toggletip, a "?" button after it (see
``assets/roc_dash_a11y.js``), driven here by real keys and a real click."""

from __future__ import annotations

from selenium.webdriver.common.keys import Keys

from roc_dash.app import ids
from roc_dash.app.features.constraints import _CAPACITY_HELP, _HELP

from .gestures import centre, click, scroll_into_view, wait_until
from .test_a11y_browser import assert_clean
from .test_a11y_keys_browser import press, tab_to
from .test_trust_browser import start

#: What can take the focus (an element with a title among these is reachable as it is).
FOCUSABLE = ("a[href], button, input, select, textarea, summary, [tabindex], "
             "[contenteditable], [role='tab'], [role='button'], [role='slider'], option")

_TIP = """
const b = document.querySelector(arguments[0]);
const bubble = b && document.getElementById(b.getAttribute('aria-describedby'));
return b && bubble && [b.getAttribute('aria-expanded'), !bubble.hidden && bubble.offsetHeight > 0,
    bubble.textContent, bubble.getAttribute('role'), document.activeElement === b];
"""
_ONLY_TITLE = """
const tipOf = e => e.querySelector(':scope > .help-toggletip') ||
    (e.nextElementSibling && e.nextElementSibling.matches('.help-toggletip')
     ? e.nextElementSibling : null);
return [...document.querySelectorAll('[title]')].filter(e => {
    const t = e.getAttribute('title').trim();
    if (!t || e.matches(arguments[0]) || e.closest('.js-plotly-plot, svg')) { return false; }
    const tip = tipOf(e);
    if (tip) { return tip.getAttribute('data-text') !== t; }
    if (e.getAttribute('aria-description') === t) { return false; }  // said with a data cell
    return !e.textContent.replace(/\\s+/g, ' ').trim().includes(t);
}).map(e => e.tagName + '#' + e.id + ' ' + e.getAttribute('title').slice(0, 40));
"""
CAPACITY_TIP = f"#{ids.DCT_CARD} label[for='{ids.DCT_CAPACITY}'] .help-tip"
HEADING_TIP = f"#{ids.DCT_CARD} h2 .help-tip"


def _tip(driver, selector):
    return driver.execute_script(_TIP, selector)


def test_a11y050_help_is_a_toggletip_by_keyboard_and_click(dash_duo, app, shot):
    start(dash_duo, app)
    d = dash_duo.driver
    # no help is left only as the title of an element that cannot take the focus: each has
    # a toggletip, or its words are among those it shows or says (a data cell's, said with it)
    wait_until(lambda: d.execute_script(
        "return document.querySelectorAll('.help-tip').length") > 20, message="the toggletips")
    hidden_help = d.execute_script(_ONLY_TITLE, FOCUSABLE)
    assert hidden_help == [], hidden_help

    # keyboard: Tab to the capacity's "?", Enter shows the help, Escape hides it
    radio = d.find_element("css selector", f"#{ids.DCT_VIEW} input:checked")
    scroll_into_view(d, radio)
    d.execute_script("arguments[0].focus()", radio)
    assert tab_to(d, CAPACITY_TIP, limit=6) <= 3
    expanded, shown, text, role, focused = _tip(d, CAPACITY_TIP)
    assert (expanded, shown, text) == ("false", False, "")
    press(d, Keys.ENTER)
    wait_until(lambda: _tip(d, CAPACITY_TIP)[1], message="the help shown by Enter")
    expanded, shown, text, role, focused = _tip(d, CAPACITY_TIP)
    assert expanded == "true" and text == _CAPACITY_HELP and role == "status" and focused
    name = d.find_element("css selector", CAPACITY_TIP).get_attribute("aria-label")
    assert name == "Help: We can review"
    # the label's input keeps the label's own words as its name
    assert dash_duo.find_element(f"#{ids.DCT_CAPACITY}").get_attribute("aria-label") == \
        "We can review"
    shot("a11y050_toggletip_by_keyboard")
    press(d, Keys.ESCAPE)
    wait_until(lambda: not _tip(d, CAPACITY_TIP)[1], message="the help hidden by Escape")
    assert _tip(d, CAPACITY_TIP)[0] == "false" and _tip(d, CAPACITY_TIP)[4]

    # pointer or touch: a click on the heading's "?" shows its help, a second hides it
    button = d.find_element("css selector", HEADING_TIP)
    click(d, centre(d, button))
    wait_until(lambda: _tip(d, HEADING_TIP)[1], message="the help shown by a click")
    assert _tip(d, HEADING_TIP)[2] == _HELP
    assert not _tip(d, CAPACITY_TIP)[1]  # one help at a time
    shot("a11y050_toggletip_by_click")
    assert_clean(d, "the Decide tab with a help shown")
    click(d, centre(d, button))
    wait_until(lambda: not _tip(d, HEADING_TIP)[1], message="the help hidden by a click")
    assert dash_duo.get_logs() == []
