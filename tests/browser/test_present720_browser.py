"""Presentation mode at 1280×720 with three pins and a capacity fits: the summary and pin lines are not cut,
the operating-point table does not scroll sideways, the legends are clear of the mode bars
and the pin row can be reached — checked on the elements' geometry in Chromium."""

from __future__ import annotations

from roc_dash.app import ids

from .gestures import scroll_into_view, type_into, wait_idle, wait_until
from .test_state_browser import pin_typed
from .test_trust_browser import start

#: the geometry of what must fit (every measure in CSS pixels)
PROBE = """
const q = (s) => Array.from(document.querySelectorAll(s));
const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
const box = (e) => { const r = e.getBoundingClientRect();
                     return [r.left, r.top, r.right, r.bottom]; };
const out = {};
out.lines = q('.summary .summary-main, .summary .summary-detail, .summary .summary-pins')
  .filter(shown).map(e => [e.className, e.scrollWidth, e.clientWidth, e.textContent]);
out.tables = q('#tab-panel-decide table.compare').filter(shown).map(t => {
  let e = t.parentElement;
  const outs = [];
  while (e && e !== document.body) {
    outs.push([e.id || e.className, e.scrollWidth, e.clientWidth]); e = e.parentElement; }
  return {table: [t.scrollWidth, t.getBoundingClientRect().width], parents: outs};
});
out.page = [document.documentElement.scrollWidth, document.documentElement.clientWidth];
out.graphs = q('.js-plotly-plot').filter(shown).map(g => {
  const legend = g.querySelector('.legend'), bar = g.querySelector('.modebar');
  return [g.parentElement.id, legend && shown(legend) ? box(legend) : null,
          bar ? box(bar) : null];
});
const row = document.querySelector('.pin-row');
out.pin_row = row ? [shown(row), box(row)] : null;
return out;
"""


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_p72001_presentation_at_1280x720_with_three_pins_fits(dash_duo, app, shot):
    start(dash_duo, app, size=(1280, 720))
    for letter, (model, threshold) in zip("ABC", (("naive Bayes", 0.5), ("decision tree", 0.6),
                                                  ("gradient boosting", 0.3)), strict=True):
        pin_typed(dash_duo, model, threshold, letter)
    # a capacity typed: its table (a row per model, eight columns) is wider than its card
    type_into(dash_duo.find_element(f"#{ids.DCT_CAPACITY}"), "200")
    wait_until(lambda: "capacity of 200" in dash_duo.find_element(".summary").text,
               message="the strip under the capacity")
    dash_duo.find_element(f"#{ids.PRESENTATION} input").click()
    wait_until(lambda: "presenting" in dash_duo.find_element(f"#{ids.APP}").get_attribute("class"),
               message="presentation mode")
    wait_idle(dash_duo, quiet=1.0)
    d = dash_duo.driver
    assert d.execute_script("return [window.innerWidth, window.innerHeight]")[0] <= 1280
    d.execute_script("window.scrollTo(0, 0)")
    g = d.execute_script(PROBE)
    shot("p72001_presenting")
    # the summary's lines, the pins' line among them, whole (not cut with "…")
    assert any("Pinned A" in t and "C:" in t for *_, t in g["lines"]), g["lines"]
    for cls, scroll, client, text in g["lines"]:
        assert scroll <= client, f"{cls} cut: {text!r}"
    # the operating-point table with three pins: no sideways scroll, nor of the page
    assert g["tables"], "the operating-point comparison"
    for t in g["tables"]:
        for name, scroll, client in t["parents"]:
            assert scroll <= client, f"{name} scrolls sideways ({scroll} > {client})"
    assert g["page"][0] <= g["page"][1]
    # legends clear of the mode bars
    for graph, legend, bar in g["graphs"]:
        if legend and bar:
            assert not _overlap(legend, bar), f"{graph}: the mode bar covers the legend"
    # the pin row is there and can be reached
    shown, _ = g["pin_row"]
    assert shown, "the pin row is hidden in presentation mode"
    row = dash_duo.find_element(".pin-row")
    scroll_into_view(d, row)
    top, bottom = d.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return [r.top, r.bottom];", row)
    assert 0 <= top and bottom <= 720
    # not under the sticky summary strip: what is at the threshold box's centre is the box
    assert d.execute_script(
        "const e = arguments[0], r = e.getBoundingClientRect();"
        "return e.contains(document.elementFromPoint(r.left + r.width / 2,"
        " r.top + r.height / 2));", dash_duo.find_element(f"#{ids.PIN_THRESHOLD}"))
    dash_duo.find_element(f"#{ids.PIN_THRESHOLD}").click()  # reachable by the mouse
    shot("p72001_pin_row")


#: each shown graph of the Decide tab: its id, the plot area's height and the card's blank
#: height below its last child (a card stretched to its neighbour's height)
AREAS = """
const shown = (e) => e.getClientRects().length > 0;
const graphs = Array.from(document.querySelectorAll('#tab-panel-decide .js-plotly-plot'))
  .filter(shown).map(g => {
    const bg = g.querySelector('.cartesianlayer .bg, .nsewdrag');
    return [g.parentElement.id, bg ? bg.getBoundingClientRect().height : null];
  });
const blank = Array.from(document.querySelectorAll('#tab-panel-decide .grid > .card'))
  .filter(shown).map(c => {
    const kids = Array.from(c.children).filter(shown);
    const last = Math.max(...kids.map(k => k.getBoundingClientRect().bottom));
    return [c.id || c.className, c.getBoundingClientRect().bottom - last];
  });
return {graphs, blank};
"""


def test_p72002_presentation_at_1280x720_gives_every_view_room(dash_duo, app, shot):
    """A stranger's review: in presentation mode at 1280×720 the cost-against-threshold view's
    plot was 30 px tall (its ticks on top of each other), the gains chart's 75 px, and the
    ROC's card stretched to the operating card's height (two screens of blank)."""
    start(dash_duo, app, size=(1280, 720))
    dash_duo.find_element(f"#{ids.PRESENTATION} input").click()
    wait_until(lambda: "presenting" in dash_duo.find_element(f"#{ids.APP}").get_attribute("class"),
               message="presentation mode")
    wait_idle(dash_duo, quiet=1.0)
    d = dash_duo.driver
    for graph in (ids.THRESHOLD_GRAPH, ids.DCT_GRAPH):
        scroll_into_view(d, dash_duo.find_element(f"#{graph}"))
    wait_idle(dash_duo, quiet=0.5)
    g = d.execute_script(AREAS)
    shot("p72002_presenting_views")
    heights = dict(g["graphs"])
    assert {ids.ROC_GRAPH, ids.THRESHOLD_GRAPH, ids.DCT_GRAPH} <= set(heights), heights
    small = {graph: h for graph, h in heights.items() if h is None or h < 150}
    blank = {card: round(gap) for card, gap in g["blank"] if gap > 80}
    assert not small and not blank, f"plot areas too small: {small}; blank cards: {blank}"


#: the strip's height, what it holds, and whether its last line shows inside it
STRIP = """
const s = document.querySelector('.summary'), r = s.getBoundingClientRect();
const last = s.lastElementChild.getBoundingClientRect();
return {height: r.height, scroll: s.scrollHeight, client: s.clientHeight, at: s.scrollTop,
        pins: !!s.querySelector('.summary-pins'), end: last.bottom <= r.bottom + 1,
        text: s.textContent};
"""


def test_p72003_the_sticky_strip_keeps_two_lines_at_1280x720(dash_duo, app, shot):
    """The strip took ~200 px of 720 with three pins (and covered the tabs once the page was
    scrolled): at 1280×720 out of presentation mode it keeps its headline's two lines and
    scrolls inside (the mouse wheel over it) for the details and the pins. (Presentation
    mode shows the whole decision: p72004.)"""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.actions.wheel_input import ScrollOrigin

    start(dash_duo, app, size=(1280, 720))
    for letter, (model, threshold) in zip("ABC", (("naive Bayes", 0.5), ("decision tree", 0.6),
                                                  ("gradient boosting", 0.3)), strict=True):
        pin_typed(dash_duo, model, threshold, letter)
    d = dash_duo.driver
    for mode in ("normal",):
        wait_idle(dash_duo, quiet=1.0)
        d.execute_script("window.scrollTo(0, 300)")
        g = d.execute_script(STRIP)
        font = float(d.execute_script(
            "return parseFloat(getComputedStyle(document.querySelector('.summary')).fontSize)"))
        # two lines of the headline (line height 1.35) and a few px of padding and border
        assert g["height"] <= 2 * 1.35 * font + 16, (mode, g)
        assert g["pins"] and "C:" in g["text"], (mode, g)  # the pins are in it...
        assert g["scroll"] > g["client"] and not g["end"], (mode, g)  # ...below the headline
        strip = dash_duo.find_element(".summary")
        ActionChains(d).scroll_from_origin(ScrollOrigin.from_element(strip), 0, 600).perform()
        wait_until(lambda: d.execute_script(STRIP)["end"], message=f"{mode}: the rest by wheel")
        assert d.execute_script("return window.scrollY") == 300  # the strip scrolled, not the page
        shot(f"p72003_{mode}_strip_scrolled")


#: the sticky head's bottom (the strip's; the top bar's when it is lower) and each shown
#: Decide view's plot area
VIEWS = """
const shown = (e) => e.getClientRects().length > 0;
const s = document.querySelector('.summary').getBoundingClientRect();
const bar = document.querySelector('.topbar').getBoundingClientRect();
const plots = Array.from(document.querySelectorAll('#tab-panel-decide .js-plotly-plot'))
  .filter(shown).map(g => {
    const r = (g.querySelector('.nsewdrag') || g).getBoundingClientRect();
    return [g.parentElement.id, r.top, r.bottom, r.height];
  });
return {head: Math.max(s.bottom, bar.bottom), strip: [s.top, s.bottom], plots: plots,
        height: window.innerHeight};
"""


#: whether the strip's headline is what shows at its four inner corners
HEADLINE_SHOWN = """
const h = document.querySelector('.summary .summary-main'), r = h.getBoundingClientRect();
return [[r.left + 4, r.top + 3], [r.right - 4, r.top + 3], [r.left + 4, r.bottom - 3],
        [r.right - 4, r.bottom - 3]].every(([x, y]) => h.contains(document.elementFromPoint(x, y)));
"""


def test_p72004_presentation_at_1280x720_shows_the_whole_decision(dash_duo, app, shot):
    """Issue 28 item 9, "no cut summary or pin lines": in presentation mode at 1280×720 the
    compact strip showed its headline only, the details, intervals and pins scrolled inside
    it. Now all of it is shown (nothing to scroll inside, no line cut), with three pins and
    the intervals' line; the views take the height it leaves: the ROC's plot above the fold,
    and every Decide view's plot fits under the sticky head once scrolled to."""
    start(dash_duo, app, size=(1280, 720))
    for letter, (model, threshold) in zip("ABC", (("naive Bayes", 0.5), ("decision tree", 0.6),
                                                  ("gradient boosting", 0.3)), strict=True):
        pin_typed(dash_duo, model, threshold, letter)
    d = dash_duo.driver
    d.execute_script("window.scrollTo(0, 0)")
    dash_duo.find_element(f"#{ids.PRESENTATION} input").click()
    wait_until(lambda: "presenting" in dash_duo.find_element(f"#{ids.APP}").get_attribute(
        "class"), message="presentation mode")
    wait_until(lambda: d.find_elements("css selector", ".summary .summary-intervals"),
               message="the intervals' line in the strip")
    wait_idle(dash_duo, quiet=1.0)
    d.execute_script("window.scrollTo(0, 0)")
    g = d.execute_script(STRIP)
    shot("p72004_presenting_strip")
    assert g["pins"] and "C:" in g["text"], g
    assert g["scroll"] <= g["client"] + 1 and g["end"], f"the strip scrolls inside: {g}"
    lines = d.execute_script(PROBE)["lines"]
    assert len(lines) >= 4, lines  # headline, details, intervals, pins
    for cls, scroll, client, text in lines:
        assert scroll <= client, f"{cls} cut: {text!r}"
    v = d.execute_script(VIEWS)
    plots = {name: (top, bottom, height) for name, top, bottom, height in v["plots"]}
    top, bottom, height = plots[ids.ROC_GRAPH]
    assert bottom <= v["height"] and height >= 200, f"the ROC's plot under the fold: {v}"
    d.execute_script("window.scrollTo(0, 400)")  # scrolled: the head sticks
    wait_idle(dash_duo, quiet=0.3)
    v = d.execute_script(VIEWS)
    room = v["height"] - v["head"]
    too_tall = {name: round(h) for name, _, _, h in v["plots"] if h > room}
    assert not too_tall, f"plots taller than the {room:.0f} px under the sticky head: {v}"
    # ...where the headline stays whole, under the top bar (what is at its corners is it)
    assert d.execute_script(HEADLINE_SHOWN), "the headline hidden once scrolled"
    shot("p72004_presenting_scrolled")
