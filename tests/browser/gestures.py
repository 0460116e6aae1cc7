"""Real input for browser tests: pointer events through Chrome DevTools, keys through selenium.

Nothing here sets a component property or fakes a plotly event: a drag is a mouse press, a
few moves and a release dispatched by Chromium's input pipeline (``Input.dispatchMouseEvent``),
exactly what a user's mouse produces. Reading the page (where a point of a plot lies on the
screen) is done with plain DOM/plotly geometry.

Waiting: tests wait for the event they need (:func:`wait_until` on a condition,
:func:`wait_idle` for "every Dash callback has answered", :func:`wait_steady` for "a figure
stopped changing"), never a fixed sleep. Every wait has one generous limit, ``WAIT`` seconds
(``ROC_DASH_TEST_WAIT``, default 60), so a busy machine only makes a test slower, not red.
The only pauses are :func:`pace`, the time a hand takes between two input events of one
gesture (used by the gestures below, not by tests).
"""

from __future__ import annotations

import json
import time

from tools.harness import WAIT

POLL = 0.1
# plotly counts two presses closer than its doubleClickDelay (300 ms) as a double click; a
# new gesture starts after it, as a person's next click does
_GESTURE_GAP = 0.35
_last_release = [0.0]


def pace(seconds):
    """The time a hand takes between two input events of one gesture (not a wait)."""
    time.sleep(seconds)


def keys_paced(driver, text, seconds):
    """Press the keys of ``text`` one at a time wherever the focus is, ``seconds`` between
    them (a hand's pace: a dropdown's first key opens its list and moves the focus into its
    search box)."""
    from selenium.webdriver.common.action_chains import ActionChains

    for key in text:
        ActionChains(driver).send_keys(key).perform()
        pace(seconds)


def type_paced(element, text, seconds):
    """Type ``text`` one key at a time, ``seconds`` between keys (a slow typist)."""
    for key in text:
        element.send_keys(key)
        pace(seconds)


def wait_until(predicate, timeout=None, message="condition"):
    """Poll ``predicate`` until it returns something truthy (returned); at most ``WAIT`` s."""
    end = time.monotonic() + (WAIT if timeout is None else timeout)
    last = None
    while True:
        try:
            last = predicate()
            if last:
                return last
        except Exception as exc:  # the page may be mid-render
            last = exc
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {message}; last value {last!r}")
        time.sleep(POLL)


def _steady(read, message, quiet=0.4):
    """Wait until ``read()`` returns the same value for ``quiet`` seconds; return it."""
    state = {"value": object(), "since": time.monotonic()}

    def settled():
        now, value = time.monotonic(), read()
        if value != state["value"]:
            state["value"], state["since"] = value, now
            return False
        return now - state["since"] >= quiet

    wait_until(settled, message=message)
    return state["value"]


# the renderer is up (its entry point drawn, no "Loading..." placeholder) and no callback is
# requested, waiting, running (a request in flight, a clientside promise) or being applied
_IDLE = """
const s = window.store && window.store.getState();
if (!s || !document.querySelector('#react-entry-point *') ||
    document.querySelector('._dash-loading')) { return false; }
const c = s.callbacks || {};
return !s.isLoading && ['requested', 'prioritized', 'blocked', 'executing', 'watched',
    'executed', 'stored'].every(k => !(c[k] && c[k].length));
"""


def wait_idle(dash_duo_or_driver, quiet=0.4):
    """Wait until the page has no pending Dash callback (requests, clientside promises) and
    has stayed so for ``quiet`` seconds (a callback's outputs may trigger the next one)."""
    driver = getattr(dash_duo_or_driver, "driver", dash_duo_or_driver)
    _steady(lambda: "idle" if driver.execute_script(_IDLE) else time.monotonic(),
            "no pending Dash callbacks", quiet)


def wait_steady(driver, graph_id, quiet=0.4):
    """Wait until a graph's traces, layout shapes and axis ranges stop changing."""
    driver = getattr(driver, "driver", driver)
    return _steady(lambda: json.dumps(js_graph(
        driver, graph_id, "[gd.data, gd.layout.shapes, gd.layout.annotations,"
        " gd._fullLayout.xaxis.range, gd._fullLayout.yaxis.range]"), default=str),
        f"{graph_id} steady", quiet)


_RECT = ("const r = arguments[0].getBoundingClientRect();"
         "return [r.left, r.top, r.width, r.height, window.scrollX, window.scrollY];")


def wait_layout_steady(driver, element, quiet=0.3):
    """Wait until ``element`` (and the page's scroll position) stop moving."""
    driver = getattr(driver, "driver", driver)
    return _steady(lambda: driver.execute_script(_RECT, element), "layout steady", quiet)


def scroll_into_view(driver, element, block="center"):
    """Scroll ``element`` to the ``block`` of the window and wait until it stays there."""
    driver = getattr(driver, "driver", driver)
    driver.execute_script(
        f"arguments[0].scrollIntoView({{block: '{block}', inline: 'nearest'}});", element)
    return wait_layout_steady(driver, element)


def centre(driver, element):
    """The element's centre in the viewport, scrolled into the middle of the window first, as
    a user scrolls to what they click (a card lower on the page, the sticky strip above)."""
    driver = getattr(driver, "driver", driver)
    return driver.execute_script(
        "const e = arguments[0]; const r0 = e.getBoundingClientRect();"
        "if (r0.top < 0 || r0.bottom > window.innerHeight) {"
        "  e.scrollIntoView({block: 'center', inline: 'nearest'}); }"
        "const r = e.getBoundingClientRect();"
        "return [r.left + r.width / 2, r.top + r.height / 2];", element)


def scroll_to(driver, y):
    """Scroll the window to ``y`` (``'bottom'`` for the end) and wait until it stays there."""
    driver = getattr(driver, "driver", driver)
    target = "document.body.scrollHeight" if y == "bottom" else str(float(y))
    driver.execute_script(f"window.scrollTo(0, {target});")
    return _steady(lambda: driver.execute_script("return [window.scrollX, window.scrollY];"),
                   "scroll position steady", 0.3)


def wait_file(folder, pattern):
    """Wait for a finished download matching ``pattern`` (non-empty, size steady)."""
    from pathlib import Path

    def found():
        return sorted(str(p) for p in Path(folder).glob(pattern)
                      if not p.name.endswith(".crdownload") and p.stat().st_size > 0)

    wait_until(found, message=f"download {pattern}")
    paths = _steady(lambda: [(p, Path(p).stat().st_size) for p in found()],
                    f"download {pattern} complete", 0.3)
    return [Path(p) for p, _ in paths]


def js_graph(driver, graph_id, expression):
    """Evaluate ``expression`` with ``gd`` bound to the graph's plotly div."""
    return driver.execute_script(
        f"const gd = document.querySelector('#{graph_id} .js-plotly-plot');"
        f"return gd ? ({expression}) : null;")


_POINT = """
const gd = document.querySelector('#' + arguments[0] + ' .js-plotly-plot');
const r = gd.getBoundingClientRect(), fl = gd._fullLayout;
return [r.left + fl.xaxis._offset + fl.xaxis.l2p(arguments[1]),
        r.top + fl.yaxis._offset + fl.yaxis.l2p(arguments[2])];
"""
#: The bottom of the sticky decision summary strip (0 without one): what it covers, a
#: person cannot click.
_STRIP_BOTTOM = """
const s = document.getElementById('decision-summary');
return s && s.offsetHeight ? s.getBoundingClientRect().bottom : 0;
"""


def to_screen(driver, graph_id, x, y):
    """Viewport coordinates (CSS px) of the data point (x, y) of a plot, scrolled into sight
    as a person would: the plot in the middle of the window, and a point that would lie under
    the sticky summary strip (a tall plot in a small window) brought just below it."""
    element = driver.find_element("css selector", f"#{graph_id}")
    scroll_into_view(driver, element)
    point = driver.execute_script(_POINT, graph_id, x, y)
    strip = driver.execute_script(_STRIP_BOTTOM)
    if point[1] < strip + 12:
        driver.execute_script("window.scrollBy(0, arguments[0]);", point[1] - strip - 40)
        wait_layout_steady(driver, element)
        point = driver.execute_script(_POINT, graph_id, x, y)
    return point


def to_data(driver, graph_id, px, py):
    """Inverse of :func:`to_screen`."""
    return driver.execute_script(
        f"const gd = document.querySelector('#{graph_id} .js-plotly-plot');"
        "const r = gd.getBoundingClientRect(), fl = gd._fullLayout;"
        "return [fl.xaxis.p2l(arguments[0] - r.left - fl.xaxis._offset),"
        " fl.yaxis.p2l(arguments[1] - r.top - fl.yaxis._offset)];", px, py)


def _mouse(driver, kind, x, y, buttons=0, button="none", clicks=0):
    driver.execute_cdp_cmd("Input.dispatchMouseEvent", {
        "type": kind, "x": float(x), "y": float(y), "button": button, "buttons": buttons,
        "clickCount": clicks, "pointerType": "mouse"})


def _new_gesture():
    """A new press comes after plotly's double-click window of the previous release."""
    gap = _last_release[0] + _GESTURE_GAP - time.monotonic()
    if gap > 0:
        pace(gap)


def _released():
    _last_release[0] = time.monotonic()


def _arrive(driver, point):
    """A new gesture begins: the pointer moves to ``point``; its ``(x, y)``."""
    x, y = point
    _new_gesture()
    _mouse(driver, "mouseMoved", x, y)
    return x, y


def drag(driver, start, end, steps=12, pause=0.02):
    """Press the left button at ``start``, move to ``end`` in ``steps`` moves, release."""
    x0, y0 = _arrive(driver, start)
    x1, y1 = end
    pace(0.1)
    _mouse(driver, "mousePressed", x0, y0, buttons=1, button="left", clicks=1)
    pace(0.05)
    for k in range(1, steps + 1):
        f = k / steps
        _mouse(driver, "mouseMoved", x0 + f * (x1 - x0), y0 + f * (y1 - y0), buttons=1,
               button="left")
        pace(pause)
    _mouse(driver, "mouseReleased", x1, y1, button="left", clicks=1)
    _released()


def click(driver, point):
    x, y = _arrive(driver, point)
    pace(0.05)
    _mouse(driver, "mousePressed", x, y, buttons=1, button="left", clicks=1)
    _mouse(driver, "mouseReleased", x, y, button="left", clicks=1)
    _released()


def double_click(driver, point):
    x, y = _arrive(driver, point)
    for clicks in (1, 2):
        _mouse(driver, "mousePressed", x, y, buttons=1, button="left", clicks=clicks)
        _mouse(driver, "mouseReleased", x, y, button="left", clicks=clicks)
        pace(0.05)
    _released()


def hover(driver, point):
    _mouse(driver, "mouseMoved", *point)


def rest_on(driver, point, approach=(6, 3, 0)):
    """Bring the pointer to rest on ``point`` from the right, as a person's hand does."""
    x, y = point
    for dx in approach:
        hover(driver, (x + dx, y))
        pace(0.25)


def hover_until(driver, point, condition, message="hover effect"):
    """Hover ``point`` (re-sent, with a 1 px jitter, while the page is still drawing) until
    ``condition()`` holds; plotly ignores a move that arrives mid-redraw."""
    x, y = point
    moves = [0]

    def hovered():
        moves[0] += 1
        hover(driver, (x + (moves[0] % 2), y))
        return condition()

    return wait_until(hovered, message=message)


def type_into(element, text, enter=True):
    """Select what a text box holds and type ``text`` (then Enter), as a user does."""
    from selenium.webdriver.common.keys import Keys

    element.click()
    element.send_keys(Keys.CONTROL, "a")
    element.send_keys(Keys.DELETE)
    if text:
        element.send_keys(text)
    if enter:
        element.send_keys(Keys.ENTER)


_TAB_SHOWN = """
const panel = document.getElementById(arguments[0]);
if (!panel || panel.hidden || !panel.offsetWidth) { return false; }
return [...panel.querySelectorAll('.js-plotly-plot')].filter(gd => gd.offsetWidth)
    .every(gd => !gd._fullLayout || Math.abs(gd._fullLayout.width - gd.offsetWidth) < 2);
"""


def open_tab(dash_duo_or_driver, name):
    """Open the page's tab ``name`` (``"decide"``, ``"compare"``, ``"beyond"``) with a real
    click on its button; wait until its panel shows, its graphs have taken the panel's
    width, and every Dash callback has answered."""
    from roc_dash.app import ids

    driver = getattr(dash_duo_or_driver, "driver", dash_duo_or_driver)
    button = driver.find_element("css selector", f"#{ids.TAB_BUTTON}{name}")
    scroll_into_view(driver, button)
    click(driver, centre(driver, button))
    wait_until(lambda: driver.execute_script(_TAB_SHOWN, ids.TAB_PANEL + name),
               message=f"the {name} tab shown")
    wait_idle(driver)


def hover_label_text(dash_duo, graph, x, y, condition, message="hover label"):
    """Move a real pointer (from 3 px right) onto the screen point (x, y) of ``graph`` until
    its hover label (``.hovertext``, or a unified hover's ``.legend``) satisfies
    ``condition``; return the label's text (several labels joined by " | ")."""
    from selenium.webdriver.common.action_chains import ActionChains

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
