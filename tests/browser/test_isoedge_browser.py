"""The iso-performance line can be grabbed where it lies along the plot's frame and right
beside the ring around the optimum, and turns the way it is pulled (ide001-ide003).

Review of 2026-11-29: at prior 0.99 the line lies along TPR = 1, the top edge, and the
optimum is its upper end; a press within ~10 px of the ring takes that end (plotly's end
handle, 10 px around it) and the drag was read as a turn of the line's other side, outside
the plot: a pull down flattened the line to c(FP)'s minimum (0.01), the opposite of the
hand. At prior 0.01 the line lies along FPR = 0, the left edge, its lower end the optimum.
Real mouse drags in Chromium (:func:`.gestures.drag`); each must move the c(FP) slider the
way the line was pulled (steeper: c(FP) up; flatter: down).
"""

from __future__ import annotations

import math

from selenium.webdriver.common.by import By

from roc_dash.app import ids

from .gestures import drag, js_graph, to_screen, type_into, wait_idle, wait_steady, wait_until
from .test_trust_browser import start, value

_LINE = "(s => [s.x0, s.y0, s.x1, s.y1])(gd.layout.shapes[0])"
_RING = "(a => [a.x, a.y])(gd.layout.annotations.find(a => a.name === 'optimum ring'))"


def _slider(d) -> float:
    handle = d.find_element(By.CSS_SELECTOR, f"#{ids.COST_FP_SLIDER} [role=slider]")
    return float(handle.get_attribute("aria-valuenow"))


def _prior(dash_duo, prior: str) -> None:
    type_into(dash_duo.find_element(f"#{ids.PRIOR}"), prior)
    wait_until(lambda: value(dash_duo, ids.PRIOR) == prior, message=f"prior {prior}")
    wait_idle(dash_duo)
    wait_steady(dash_duo.driver, ids.ROC_GRAPH)


def _screen_line(d):
    """The line's ends on the screen, and its unit direction and a unit normal there."""
    seg = js_graph(d, ids.ROC_GRAPH, _LINE)
    a = to_screen(d, ids.ROC_GRAPH, *seg[:2])
    b = to_screen(d, ids.ROC_GRAPH, *seg[2:])
    n = math.dist(a, b)
    u = ((b[0] - a[0]) / n, (b[1] - a[1]) / n)
    return seg, a, b, u, (-u[1], u[0])


def _reset(dash_duo) -> None:
    """c(FP) back to 1 (typed), the views redrawn for it."""
    if value(dash_duo, ids.COST_FP) != "1":
        type_into(dash_duo.find_element(f"#{ids.COST_FP}"), "1")
        wait_until(lambda: value(dash_duo, ids.COST_FP) == "1", message="c(FP) = 1")
    wait_idle(dash_duo)
    wait_steady(dash_duo.driver, ids.ROC_GRAPH)


def _pull(dash_duo, point, towards, what, steeper: bool):
    """Drag from ``point`` to ``towards`` (screen px): c(FP) and its slider move up when the
    line was pulled steeper, down when flatter."""
    d = dash_duo.driver
    before, slider = float(value(dash_duo, ids.COST_FP)), _slider(d)
    drag(d, point, towards, steps=10)
    wait_until(lambda: float(value(dash_duo, ids.COST_FP)) != before,
               message=f"c(FP) follows a drag of the line {what}")
    wait_idle(dash_duo)
    after = float(value(dash_duo, ids.COST_FP))
    assert (after > before) == steeper, (what, before, after)
    assert (_slider(d) > slider) == steeper, (what, slider, _slider(d))


def _near_ring(d, pixels):
    """A point on the line ``pixels`` from the ring's centre, towards the line's far end."""
    seg, a, b, _, _ = _screen_line(d)
    cx, cy = to_screen(d, ids.ROC_GRAPH, *js_graph(d, ids.ROC_GRAPH, _RING))
    far = a if math.dist(a, (cx, cy)) > math.dist(b, (cx, cy)) else b
    n = math.dist(far, (cx, cy))
    return (cx + pixels * (far[0] - cx) / n, cy + pixels * (far[1] - cy) / n)


def test_ide001_prior_099_the_line_on_the_top_edge_turns_as_pulled(dash_duo, app, shot):
    start(dash_duo, app)
    d = dash_duo.driver
    _prior(dash_duo, "0.99")
    seg, a, b, _, _ = _screen_line(d)
    assert min(seg[1], seg[3]) > 0.99 and abs(seg[2] - seg[0]) > 0.5, seg  # along TPR = 1
    ring = js_graph(d, ids.ROC_GRAPH, _RING)
    assert ring == [seg[2], seg[3]] and ring[1] == 1, (ring, seg)  # the optimum: its upper end
    shot("ide001_before")
    # beside the ring (6 px along the line from it: plotly's end handle), pulled down 25 px
    grab = _near_ring(d, 6)
    _pull(dash_duo, grab, (grab[0], grab[1] + 25), "6 px beside the ring, down", True)
    shot("ide001_after_ring")
    _reset(dash_duo)
    # and up 25 px, out of the plot: flatter
    grab = _near_ring(d, 6)
    _pull(dash_duo, grab, (grab[0], grab[1] - 25), "6 px beside the ring, up", False)
    _reset(dash_duo)
    # a third of the way along the top edge, far from both ends: pulled down 25 px
    seg, a, b, _, _ = _screen_line(d)
    grab = (a[0] + (b[0] - a[0]) / 3, a[1] + (b[1] - a[1]) / 3)
    _pull(dash_duo, grab, (grab[0], grab[1] + 25), "along the top edge, down", True)
    shot("ide001_after_edge")


def test_ide002_prior_001_the_line_on_the_left_edge_turns_as_pulled(dash_duo, app, shot):
    start(dash_duo, app)
    d = dash_duo.driver
    _prior(dash_duo, "0.01")
    seg, a, b, _, _ = _screen_line(d)
    assert max(seg[0], seg[2]) < 0.02 and abs(seg[3] - seg[1]) > 0.5, seg  # along FPR = 0
    ring = js_graph(d, ids.ROC_GRAPH, _RING)
    assert ring == [seg[0], seg[1]] and ring[0] == 0, (ring, seg)  # the optimum: its lower end
    shot("ide002_before")
    # beside the ring (6 px up the line from it), pulled right 25 px: flatter
    grab = _near_ring(d, 6)
    _pull(dash_duo, grab, (grab[0] + 25, grab[1]), "6 px beside the ring, right", False)
    shot("ide002_after_ring")
    _reset(dash_duo)
    # two thirds of the way up the left edge, pulled right 25 px: flatter
    seg, a, b, _, _ = _screen_line(d)
    grab = (a[0] + 2 * (b[0] - a[0]) / 3, a[1] + 2 * (b[1] - a[1]) / 3)
    _pull(dash_duo, grab, (grab[0] + 25, grab[1]), "along the left edge, right", False)
    shot("ide002_after_edge")
