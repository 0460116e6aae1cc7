"""Intervals at the chosen point in a real headless Chromium (issue 17 item 2): the operating
card's intervals bracket the estimates and equal the core's (same seed) on the demo's rows
read here with pandas; pinning a point by typing adds its column."""

import re
from pathlib import Path

import numpy as np
import pandas as pd

from roc_dash.app import ids
from roc_dash.app.features import intervals as feature
from roc_dash.core.decisions.economics import Economics
from roc_dash.core.decisions.point_intervals import point_intervals

from .gestures import js_graph, scroll_into_view, type_into, wait_until
from .shots import SHOTS
from .test_views_browser import start

DEMO = Path(__file__).resolve().parents[2] / "roc_dash" / "data" / "demo_predictions.csv"

CELL = re.compile(r"^(\S+) \[(\S+)–(\S+)\]$")


def _table(dash_duo):
    """``(header cells, {row name: [cell texts]}, caption)`` of the intervals table."""
    box = dash_duo.find_element(f"#{ids.POINT_INTERVALS}")
    head = [_tag(th) for th in box.find_elements("css selector", "thead th")]
    titles = [th.get_attribute("title") for th in box.find_elements("css selector", "thead th")]
    rows = {}
    for tr in box.find_elements("css selector", "tbody tr"):
        rows[tr.find_element("css selector", "th").text] = [
            td.text for td in tr.find_elements("css selector", "td")]
    return head, titles, rows, box.find_element("css selector", ".interval-caption").text


def _tag(th) -> str:
    """A column's point (``Optimum``, a pin's letter): the head's first line (the second
    says what its intervals are: corrected for the choice, or the threshold fixed)."""
    return th.text.split("\n")[0]


def _ready(dash_duo, columns):
    def ok():
        box = dash_duo.find_element(f"#{ids.POINT_INTERVALS}")
        status = dash_duo.find_element(f"#{ids.POINT_INTERVALS_STATUS}").text
        heads = [_tag(th) for th in box.find_elements("css selector", "thead th")]
        return not status and heads[1:] == columns
    wait_until(ok, message=f"intervals of {columns}")


def _box(dash_duo, name):
    """``[[x0, x1], [y0, y1]]`` of the ROC's interval box ``name`` (a layout shape) as drawn
    (null when absent)."""
    return js_graph(dash_duo.driver, ids.ROC_GRAPH,
                    f"((gd.layout.shapes || []).filter(s => s.name === '{name}')"
                    f".map(s => [[s.x0, s.x1], [s.y0, s.y1]])[0] || null)")


def _float(text):
    return float(text.replace("∞", "inf").replace("−", "-"))


def test_pti101_operating_card_intervals_equal_the_core(dash_duo, app):
    frame = pd.read_csv(DEMO)
    start(dash_duo, app)
    _ready(dash_duo, ["Optimum"])
    head, titles, rows, caption = _table(dash_duo)
    kinds = [k.text for k in dash_duo.find_elements(f"#{ids.POINT_INTERVALS} .interval-kind")]
    assert kinds == ["corrected for the choice"]  # each column says what its intervals are
    model = titles[1]
    used = int(re.search(r"(\d+) of (\d+) replicates", caption).group(1))
    rows_m = frame[frame["model"] == model]
    prior = float((frame["label"] == "pos").mean())
    core = point_intervals(rows_m["label"].to_numpy() == "pos", rows_m["score"].to_numpy(),
                           prior, Economics(cost_fp=1.0, cost_fn=1.0), n_boot=used,
                           seed=feature.SEED).optimum
    for name, attr, _ in feature.ROWS:
        cell = rows[name][0]
        assert cell == feature.interval_text(getattr(core, attr)), name
        est, low, high = map(_float, CELL.match(cell).groups())
        assert low <= est <= high, name
    # the optimum's box on the ROC: its FPR and TPR intervals
    wait_until(lambda: _box(dash_duo, "point-region-optimum"), message="optimum's box")
    x, y = _box(dash_duo, "point-region-optimum")
    assert (min(x), max(x)) == (core.fpr.low, core.fpr.high)
    assert (min(y), max(y)) == (core.tpr.low, core.tpr.high)
    oob = rows["Out-of-bag cost of the choice"][0]
    assert oob.startswith(feature._number(core.optimism.out_of_bag))
    assert np.isfinite(core.optimism.out_of_bag)

    # pin naive Bayes at 0.5 by hand: its column follows, threshold fixed at the pin's vertex
    dash_duo.select_dcc_dropdown(f"#{ids.PIN_MODEL}", "naive Bayes")
    type_into(dash_duo.find_element(f"#{ids.PIN_THRESHOLD}"), "0.5")
    _ready(dash_duo, ["Optimum", "A"])
    head, titles, rows, caption = _table(dash_duo)
    assert titles[2] == "naive Bayes"
    nb = frame[frame["model"] == "naive Bayes"]
    y, s = nb["label"].to_numpy() == "pos", nb["score"].to_numpy()
    est, low, high = map(_float, CELL.match(rows["TPR (recall)"][1]).groups())
    assert abs(est - (s[y] >= 0.5).mean()) < 5e-3 and low <= est <= high
    assert rows["Out-of-bag cost of the choice"][1] == "—"
    wait_until(lambda: _box(dash_duo, "point-region-A"), message="pin A's box")
    x, _ = _box(dash_duo, "point-region-A")
    assert min(x) <= (s[~y] >= 0.5).mean() <= max(x)
    # the pins stay painted last; the boxes lie under every trace, the iso line first
    uids = js_graph(dash_duo.driver, ids.ROC_GRAPH, "gd.data.map(t => t.name || '')")
    assert uids[-1].startswith("pinned A")
    shapes = js_graph(dash_duo.driver, ids.ROC_GRAPH,
                      "gd.layout.shapes.map(s => [s.name, s.layer || 'above'])")
    assert shapes == [["iso-performance line", "above"], ["point-region-optimum", "between"],
                      ["point-region-A", "between"]]
    # three pins at 1280 px: every column stays readable (screenshot)
    dash_duo.driver.set_window_size(1280, 1000)
    dash_duo.select_dcc_dropdown(f"#{ids.PIN_MODEL}", "decision tree")
    type_into(dash_duo.find_element(f"#{ids.PIN_THRESHOLD}"), "0.6")
    _ready(dash_duo, ["Optimum", "A", "B"])
    dash_duo.select_dcc_dropdown(f"#{ids.PIN_MODEL}", "naive Bayes")
    type_into(dash_duo.find_element(f"#{ids.PIN_THRESHOLD}"), "0.2")
    _ready(dash_duo, ["Optimum", "A", "B", "C"])
    head, titles, rows, caption = _table(dash_duo)
    assert titles[2:] == ["naive Bayes", "decision tree", "naive Bayes"]
    assert all(CELL.match(c) for c in rows["FPR"])
    card = dash_duo.find_element(f"#{ids.POINT_INTERVALS}")
    scroll_into_view(dash_duo.driver, card)
    SHOTS.mkdir(parents=True, exist_ok=True)
    dash_duo.driver.save_screenshot(str(SHOTS / "ptpage_operating.png"))
    box = dash_duo.find_element(".point-intervals-box")
    box.screenshot(str(SHOTS / "ptpage_card.png"))
    roc = dash_duo.find_element(f"#{ids.ROC_GRAPH}")
    scroll_into_view(dash_duo.driver, roc)
    roc.screenshot(str(SHOTS / "ptpage_roc.png"))


def _shapes(dash_duo):
    """``[name, x0, y0, x1, y1]`` of each shape of the ROC as drawn."""
    return js_graph(dash_duo.driver, ids.ROC_GRAPH,
                    "gd.layout.shapes.map(s => [s.name, s.x0, s.y0, s.x1, s.y1])")


def test_pti102_a_drag_on_the_box_does_not_move_it(dash_duo, app):
    """The interval boxes are layout shapes in the "between" layer; the ROC's
    ``edits.shapePosition`` (the iso line's drag) would still make them draggable (plotly
    sets up every shape's drag, whatever its layer): the page's CSS lets the pointer through
    them. A real mouse drag from inside the optimum's box (away
    from the iso line) leaves the box, the line and the costs where they were."""
    import math

    from .gestures import drag, to_screen, wait_idle, wait_steady

    start(dash_duo, app)
    _ready(dash_duo, ["Optimum"])
    wait_until(lambda: _box(dash_duo, "point-region-optimum"), message="optimum's box")
    d = dash_duo.driver
    wait_idle(dash_duo)
    wait_steady(d, ids.ROC_GRAPH)
    before = _shapes(dash_duo)
    (x0, x1), (y0, y1) = _box(dash_duo, "point-region-optimum")
    line = before[0][1:]
    a, b = to_screen(d, ids.ROC_GRAPH, *line[:2]), to_screen(d, ids.ROC_GRAPH, *line[2:])

    def away(p):  # screen distance of p from the iso line
        (ax, ay), (bx, by) = a, b
        return abs((bx - ax) * (ay - p[1]) - (ax - p[0]) * (by - ay)) / math.dist(a, b)

    inside = [to_screen(d, ids.ROC_GRAPH, x0 + fx * (x1 - x0), y0 + fy * (y1 - y0))
              for fx in (0.2, 0.5, 0.8) for fy in (0.2, 0.5, 0.8)]
    grab = max(inside, key=away)
    assert away(grab) > 4, (before, grab)  # not on the line (whose drag moves the line)
    cost = dash_duo.find_element(f"#{ids.COST_FP}").get_attribute("value")
    # what the pointer meets there: not the box (the plot's drag layer, which zooms and
    # hovers, lies under it)
    hit = d.execute_script("const e = document.elementFromPoint(arguments[0], arguments[1]);"
                           "return e.closest('.shapelayer') ? 'shape' : e.getAttribute('class');",
                           *grab)
    assert hit != "shape", hit
    js_graph(d, ids.ROC_GRAPH, "(window._ptiRelayout = [], gd.on('plotly_relayout', "
             "e => window._ptiRelayout.push(Object.keys(e))), 0)")
    drag(d, grab, (grab[0] + 30, grab[1] + 25), steps=10)
    # plotly's edit of a shape reports it (shapes[1].x0 ...): none
    assert not [k for keys in d.execute_script("return window._ptiRelayout") for k in keys
                if k.startswith("shapes[")]
    assert _shapes(dash_duo) == before
    wait_idle(dash_duo)
    wait_steady(d, ids.ROC_GRAPH)
    assert dash_duo.find_element(f"#{ids.COST_FP}").get_attribute("value") == cost
