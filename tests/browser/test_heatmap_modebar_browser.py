"""The mode bar of the pairwise-AUC heat map (Beyond binary, multi-class card) stays clear of
the matrix and its colour bar (hmb001): it used to cover the top row's cells and the top of
the colour bar (the figure's top margin was 10 px, the mode bar is about 25 px tall)."""

from __future__ import annotations

from roc_dash.app import ids

from .gestures import hover, open_tab, wait_idle, wait_until
from .test_beyond_browser import WIDE, _scroll_to
from .test_kinds_browser import _example
from .test_trust_browser import start

_RECTS = """
const gd = document.querySelector('#' + arguments[0] + ' .js-plotly-plot');
const bar = gd.querySelector('.modebar');
const r = b => b && (x => [x.left, x.top, x.right, x.bottom])(b.getBoundingClientRect());
return {bar: r(bar), plot: r(gd.querySelector('.nsewdrag')),
        colorbar: r(gd.querySelector('.colorbar')),
        shown: bar ? getComputedStyle(bar.parentNode).opacity : null};
"""


def _overlap(a, b) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return max(w, 0) * max(h, 0)


def test_hmb001_pairwise_heatmap_mode_bar_clear_of_the_matrix(dash_duo, app, shot):
    start(dash_duo, app, size=WIDE)
    d = dash_duo.driver
    _example(dash_duo, "multi-class")
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_STATUS}", "Multi-class file: 3 classes")
    open_tab(dash_duo, "beyond")
    card = dash_duo.find_element(f"#{ids.MC_CARD}")
    _scroll_to(d, card)
    graph = dash_duo.find_element(f"#{ids.MC_PAIRWISE}")
    wait_until(lambda: d.execute_script(_RECTS, ids.MC_PAIRWISE)["colorbar"],
               message="the heat map drawn")
    wait_idle(dash_duo)
    box = graph.rect
    hover(d, (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2))  # shows the bar
    rects = wait_until(lambda: (lambda r: r if r["shown"] == "1" else None)(
        d.execute_script(_RECTS, ids.MC_PAIRWISE)), message="the mode bar shown")
    shot("hmb001_pairwise_heatmap")
    assert _overlap(rects["bar"], rects["plot"]) == 0, rects
    assert _overlap(rects["bar"], rects["colorbar"]) == 0, rects
