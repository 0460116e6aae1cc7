"""Stranger review 11's layout findings, measured in Chromium (items 9, 10, 12, 13, 15)."""

from pathlib import Path

from roc_dash.app import ids

from .gestures import js_graph, scroll_into_view, wait_file, wait_idle, wait_until
from .test_trust_browser import start

RECT = ("const r = arguments[0].getBoundingClientRect();"
        "return [r.left, r.top, r.right, r.bottom];")


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_p11001_the_download_note_never_covers_the_strips_headline(dash_duo, app, shot):
    start(dash_duo, app, size=(1600, 900))
    d = dash_duo.driver
    folder = Path(dash_duo.download_path)
    button = dash_duo.find_element(f"#{ids.EXPORT_DECISION}")
    button.click()
    wait_file(folder, "roc-dash-decision*.json")
    dash_duo.wait_for_contains_text(f"#{ids.EXPORT_STATUS}", "the recommendation")
    note = d.execute_script(RECT, dash_duo.find_element(f"#{ids.EXPORT_STATUS} > span"))
    headline = d.execute_script(RECT, dash_duo.find_element(f"#{ids.SUMMARY}"))
    shot("p11001_download_note")
    assert note[2] > note[0] and note[3] > note[1], note  # shown
    assert not _overlap(note, headline), (note, headline)
    size = d.execute_script("return [window.innerWidth, window.innerHeight]")
    assert 0 <= note[0] and note[2] <= size[0] and 0 <= note[1] and note[3] <= size[1]


#: the ROC's subtitle: each of its lines' right end, and the graph's right end
TITLE = """
const g = document.getElementById(arguments[0]);
const svg = g.querySelector('svg.main-svg').getBoundingClientRect();
const t = g.querySelector('.g-gtitle .gtitle');
const lines = Array.from(t.querySelectorAll('tspan.line'));
const parts = (lines.length ? lines : [t]).map(e => e.getBoundingClientRect());
const plot = g.querySelector('.cartesianlayer .bg, .nsewdrag').getBoundingClientRect();
return {svg: [svg.left, svg.right, svg.top], lines: parts.map(r => [r.left, r.right, r.bottom, r.top]),
        plotTop: plot.top, text: t.textContent};
"""


def test_p11002_the_roc_subtitle_is_whole_in_vertical_and_threshold_averaging(dash_duo, app,
                                                                           shot):
    for mode in ("vertical", "threshold", "none"):
        start(dash_duo, app, f"/?avg={mode}", size=(1600, 900))
        wait_until(lambda: "fold mean" in (js_graph(dash_duo.driver, ids.ROC_GRAPH,
                                                    "gd.layout.title.text") or ""),
                   message=f"{mode} averaging")
        wait_idle(dash_duo)
        scroll_into_view(dash_duo.driver, dash_duo.find_element(f"#{ids.ROC_GRAPH}"))
        g = dash_duo.driver.execute_script(TITLE, ids.ROC_GRAPH)
        shot(f"p11002_roc_subtitle_{mode}")
        assert "hull and ★ optimum from pooled predictions" in g["text"], g["text"]
        for left, right, bottom, top in g["lines"]:
            assert g["svg"][0] <= left and right <= g["svg"][1], (mode, g)
            assert g["svg"][2] <= top, (mode, g)  # not cut at the top either
            assert bottom <= g["plotTop"] + 1, (mode, g)  # above the plot, not over it


#: the floors' confidence table: its header cells' sizes and whether it or a box around it
#: (up to its card) scrolls sideways
FLOOR_TABLE = """
const t = document.querySelector('.dct-confidence-table');
const heads = Array.from(t.querySelectorAll('th')).map(th => {
  const r = th.getBoundingClientRect();
  return [th.textContent, r.width, r.height];
});
const scrolls = [];
for (let e = t; e && !e.classList.contains('card'); e = e.parentElement) {
  if (e.scrollWidth > e.clientWidth + 1) { scrolls.push([e.className, e.scrollWidth, e.clientWidth]); }
}
const card = t.closest('.card').getBoundingClientRect(), r = t.getBoundingClientRect();
return {heads, scrolls, inside: r.right <= card.right + 1, line: parseFloat(getComputedStyle(t).fontSize)};
"""


def test_p11003_the_floors_table_fits_its_card_at_1600(dash_duo, app, shot):
    start(dash_duo, app, "/?floor=precision%20%3E%3D%200.6%3B%20recall%20%3E%3D%200.5"
                         "&fconf=95%25", size=(1600, 900))
    wait_until(lambda: dash_duo.driver.find_elements("css selector", ".dct-confidence-table"),
               message="how sure each floor is")
    wait_idle(dash_duo)
    table = dash_duo.find_element(".dct-confidence-table")
    scroll_into_view(dash_duo.driver, table)
    g = dash_duo.driver.execute_script(FLOOR_TABLE)
    shot("p11003_floors_table")
    assert not g["scrolls"] and g["inside"], g
    for text, width, height in g["heads"]:
        # at most three lines of header, each at least a word wide (not a letter per line)
        assert height <= 4 * 1.4 * g["line"], (text, width, height)
        assert width >= 3 * g["line"], (text, width, height)


#: the ROC in presentation mode: its plot area, its legend, the card, the ★ and the K labels
ROC_PARTS = """
const g = document.getElementById(arguments[0]);
const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
const plot = g.querySelector('.cartesianlayer .bg, .nsewdrag');
const legend = g.querySelector('.legend');
const stars = Array.from(g.querySelectorAll('.annotation-text, .annotation'))
  .filter(a => a.textContent.trim() === '★').map(box);
const ks = Array.from(g.querySelectorAll('.scatterlayer .textpoint text'))
  .filter(t => t.textContent.trim() === 'K').map(box);
return {plot: box(plot), legend: legend ? box(legend) : null, graph: box(g), stars, ks};
"""


def test_p11004_presentation_1280x720_roc_is_usable(dash_duo, app, shot):
    start(dash_duo, app, "/?pres=1&avg=vertical&cap=300", size=(1280, 720))
    d = dash_duo.driver
    viewport = d.execute_script("return [window.innerWidth, window.innerHeight]")
    d.set_window_size(2 * 1280 - viewport[0], 2 * 720 - viewport[1])
    wait_until(lambda: "presenting" in dash_duo.find_element(f"#{ids.APP}").get_attribute(
        "class"), message="presentation mode")
    wait_until(lambda: js_graph(d, ids.ROC_GRAPH, "gd.data.some(t => t.name === 'capacity')"),
               message="the capacity's K on the ROC")
    wait_idle(dash_duo, quiet=1.0)
    d.execute_script("window.scrollTo(0, 0)")
    g = d.execute_script(ROC_PARTS, ids.ROC_GRAPH)
    title = d.execute_script(TITLE, ids.ROC_GRAPH)
    shot("p11004_presenting_roc")
    width, height = g["plot"][2] - g["plot"][0], g["plot"][3] - g["plot"][1]
    graph_width = g["graph"][2] - g["graph"][0]
    assert min(width, height) >= 300, g
    if g["legend"]:
        assert g["legend"][2] - g["legend"][0] <= 0.4 * graph_width, g
    assert g["stars"] and g["ks"], g
    for left, right, bottom, top in title["lines"]:  # the subtitle whole, over the plot
        assert title["svg"][0] <= left and right <= title["svg"][1], title
        assert title["svg"][2] <= top and bottom <= title["plotTop"] + 1, title
    for k in g["ks"]:
        for star in g["stars"]:
            assert not _overlap(k, star), g
