"""Real input for browser tests: pointer events through Chrome DevTools, keys through selenium.

Nothing here sets a component property or fakes a plotly event: a drag is a mouse press, a
few moves and a release dispatched by Chromium's input pipeline (``Input.dispatchMouseEvent``),
exactly what a user's mouse produces. Reading the page (where a point of a plot lies on the
screen) is done with plain DOM/plotly geometry.
"""

from __future__ import annotations

import time


def wait_until(predicate, timeout=20, message="condition"):
    end = time.monotonic() + timeout
    last = None
    while time.monotonic() < end:
        try:
            last = predicate()
            if last:
                return last
        except Exception as exc:  # the page may be mid-render
            last = exc
        time.sleep(0.15)
    raise AssertionError(f"timed out waiting for {message}; last value {last!r}")


def js_graph(driver, graph_id, expression):
    """Evaluate ``expression`` with ``gd`` bound to the graph's plotly div."""
    return driver.execute_script(
        f"const gd = document.querySelector('#{graph_id} .js-plotly-plot');"
        f"return gd ? ({expression}) : null;")


def to_screen(driver, graph_id, x, y):
    """Viewport coordinates (CSS px) of the data point (x, y) of a plot."""
    driver.execute_script(
        f"document.querySelector('#{graph_id}').scrollIntoView({{block: 'center'}});")
    time.sleep(0.2)
    return driver.execute_script(
        f"const gd = document.querySelector('#{graph_id} .js-plotly-plot');"
        "const r = gd.getBoundingClientRect(), fl = gd._fullLayout;"
        "return [r.left + fl.xaxis._offset + fl.xaxis.l2p(arguments[0]),"
        " r.top + fl.yaxis._offset + fl.yaxis.l2p(arguments[1])];", x, y)


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


def drag(driver, start, end, steps=12, pause=0.02):
    """Press the left button at ``start``, move to ``end`` in ``steps`` moves, release."""
    (x0, y0), (x1, y1) = start, end
    _mouse(driver, "mouseMoved", x0, y0)
    time.sleep(0.1)
    _mouse(driver, "mousePressed", x0, y0, buttons=1, button="left", clicks=1)
    time.sleep(0.05)
    for k in range(1, steps + 1):
        f = k / steps
        _mouse(driver, "mouseMoved", x0 + f * (x1 - x0), y0 + f * (y1 - y0), buttons=1,
               button="left")
        time.sleep(pause)
    _mouse(driver, "mouseReleased", x1, y1, button="left", clicks=1)


def click(driver, point):
    x, y = point
    _mouse(driver, "mouseMoved", x, y)
    time.sleep(0.05)
    _mouse(driver, "mousePressed", x, y, buttons=1, button="left", clicks=1)
    _mouse(driver, "mouseReleased", x, y, button="left", clicks=1)


def double_click(driver, point):
    x, y = point
    _mouse(driver, "mouseMoved", x, y)
    for clicks in (1, 2):
        _mouse(driver, "mousePressed", x, y, buttons=1, button="left", clicks=clicks)
        _mouse(driver, "mouseReleased", x, y, button="left", clicks=clicks)
        time.sleep(0.05)


def hover(driver, point):
    _mouse(driver, "mouseMoved", *point)


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
