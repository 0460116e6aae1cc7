"""A cost or prior click draws the ROC and cost views in the browser at once, without waiting
for the server (the patches sent ahead with the views, roc_dash/app/fast_clicks.py); the
server's answer then redraws only the other views, so each view is drawn once per click; and
what the browser drew is what the server draws for the same state."""

from __future__ import annotations

import threading

import pytest

from roc_dash.app import ids
from roc_dash.app.features import views as views_feature
from tools.harness import WAIT

from .gestures import js_graph, wait_idle, wait_until
from .test_roundtrip_browser import COUNT, GRAPHS, _click_settled
from .test_trust_browser import start

STEPS = pytest.mark.parametrize(("up", "down"), [(ids.COST_FP_UP, ids.COST_FP_DOWN),
                                                 (ids.PRIOR_UP, ids.PRIOR_DOWN)],
                                ids=["cost", "prior"])

#: what a change of costs or prior moves in a view, read from the figure drawn: every
#: trace's values and the layout's shapes, notes (not the hover marker) and meta
_DRAWN = """
const pick = (t) => ({uid: t.uid || null, name: t.name || null,
  x: t.x ? Array.from(t.x) : null, y: t.y ? Array.from(t.y) : null,
  customdata: t.customdata ? Array.from(t.customdata, r => r && r.length !== undefined
                                         ? Array.from(r) : r) : null,
  text: t.text === undefined ? null : t.text});
return {data: gd.data.map(pick), shapes: gd.layout.shapes || [],
        notes: (gd.layout.annotations || []).filter(a => a.name !== 'hover'),
        meta: gd.layout.meta || {}};
"""


def _drawn(driver, graph):
    return driver.execute_script(
        f"const gd = document.querySelector('#{graph} .js-plotly-plot');" + _DRAWN)


def _close(a, b, path="") -> list[str]:
    """Where two drawn figures differ (numbers to 1e-12 relative), as paths."""
    if isinstance(a, bool) or isinstance(b, bool) or not (
            isinstance(a, int | float) and isinstance(b, int | float)):
        if isinstance(a, dict) and isinstance(b, dict):
            return [d for k in sorted(set(a) | set(b))
                    for d in _close(a.get(k), b.get(k), f"{path}.{k}")]
        if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            return [d for k, (u, v) in enumerate(zip(a, b, strict=True))
                    for d in _close(u, v, f"{path}[{k}]")]
        return [] if a == b else [f"{path}: {a!r} != {b!r}"]
    return [] if abs(a - b) <= 1e-12 * max(1.0, abs(a), abs(b)) else [f"{path}: {a} != {b}"]


def _counts(driver):
    return driver.execute_script("return window._rtCount;")


@STEPS
def test_fcl001_a_click_draws_roc_and_cost_before_the_answer_each_view_once(
        dash_duo, app, monkeypatch, up, down):
    start(dash_duo, app)
    d = dash_duo.driver
    _click_settled(dash_duo, up)  # a state visited (its intervals known), then back
    _click_settled(dash_duo, down)
    before = [_drawn(d, ids.ROC_GRAPH), _drawn(d, ids.COST_GRAPH)]
    gate, real = threading.Event(), views_feature.decide

    def held(*args, **kwargs):  # the views callback's answer waits until the test says
        gate.wait(WAIT)
        return real(*args, **kwargs)

    monkeypatch.setattr(views_feature, "decide", held)
    try:
        d.execute_script(COUNT, list(GRAPHS))
        dash_duo.find_element(f"#{up}").click()
        # the ROC and cost views are drawn while the server still holds the answer
        wait_until(lambda: _counts(d)[ids.ROC_GRAPH] and _counts(d)[ids.COST_GRAPH],
                   message="the ROC and cost views drawn before the answer")
        held_counts = _counts(d)
        assert held_counts[ids.PR_GRAPH] == 0 and held_counts[ids.THRESHOLD_GRAPH] == 0
        moved = [_drawn(d, ids.ROC_GRAPH), _drawn(d, ids.COST_GRAPH)]
        assert moved[0]["shapes"][0] != before[0]["shapes"][0]  # the iso line moved
        assert moved[1]["shapes"][0]["x0"] != before[1]["shapes"][0]["x0"]  # PC(+) moved
    finally:
        gate.set()
        monkeypatch.undo()
    wait_idle(dash_duo, quiet=1.5)  # the answer and everything it sets off
    assert _counts(d) == dict.fromkeys(GRAPHS, 1), _counts(d)  # each view drawn once
    # the answer left the browser's drawing alone
    assert _drawn(d, ids.ROC_GRAPH) == moved[0] and _drawn(d, ids.COST_GRAPH) == moved[1]


@STEPS
def test_fcl002_the_browser_draws_what_the_server_draws_for_that_state(dash_duo, app, up, down):
    start(dash_duo, app)
    d = dash_duo.driver
    _click_settled(dash_duo, down)
    counts = _click_settled(dash_duo, up)  # back to the first state ...
    counts = _click_settled(dash_duo, up)  # ... then a new one, drawn by the browser
    assert counts[ids.COST_GRAPH] == 1, counts
    fast = [_drawn(d, ids.ROC_GRAPH), _drawn(d, ids.COST_GRAPH)]
    shown = [d.find_element("id", i).get_attribute("value") for i in (ids.COST_FP, ids.PRIOR)]
    link = d.current_url
    # the same state drawn whole by the server: the page's link opened afresh
    d.get(link)
    wait_until(lambda: all(js_graph(d, g, "gd.data.length") for g in GRAPHS),
               message="the views of the link")
    wait_idle(dash_duo, quiet=1.5)
    assert [d.find_element("id", i).get_attribute("value")
            for i in (ids.COST_FP, ids.PRIOR)] == shown  # the same state
    drawn = [_drawn(d, ids.ROC_GRAPH), _drawn(d, ids.COST_GRAPH)]
    for view, (a, b) in zip(("roc", "cost"), zip(fast, drawn, strict=True), strict=True):
        assert not _close(a, b, view), _close(a, b, view)[:8]
