"""The Decide tab's capacity table in Chromium (left10): with a capacity and a floor typed,
no column is cut (scrolled out of its card) at window widths from 1280 to 1920 px; before,
its nine columns of nowrap cells hid the Threshold column at 1600x1000."""

from __future__ import annotations

from roc_dash.app import ids

from .gestures import scroll_into_view, type_into, wait_idle, wait_until
from .test_trust_browser import start

#: the table's box against its scroller's and its card's: every header cell inside both
FIT = """
const box = document.getElementById(arguments[0]);
const card = document.getElementById(arguments[1]).getBoundingClientRect();
const table = box.querySelector('table.dct-table');
const heads = Array.from(table.querySelectorAll('thead th')).map(th => {
  const r = th.getBoundingClientRect(); return [th.textContent, r.left, r.right]; });
return {scroll: box.scrollWidth, client: box.clientWidth, right: box.getBoundingClientRect().right,
        card: card.right, heads: heads, text: table.innerText};
"""


def test_ctw001_no_cut_column_from_1280_to_1920_px(dash_duo, app, shot):
    start(dash_duo, app, size=(1600, 1000))
    d = dash_duo.driver
    capacity = dash_duo.find_element(f"#{ids.DCT_CAPACITY}")
    scroll_into_view(d, capacity)
    type_into(capacity, "10%")  # binds, with the exact-K mix in the note
    type_into(dash_duo.find_element(f"#{ids.DCT_FLOORS}"), "recall >= 0.8")
    wait_until(lambda: "floors" in dash_duo.find_element(f"#{ids.DCT_SUMMARY}").text,
               message="the capacity's and the floors' rows")
    for width, height in ((1600, 1000), (1280, 720), (1301, 900), (1366, 768), (1440, 900),
                          (1920, 1080)):
        d.set_window_size(width, height)
        wait_idle(dash_duo, quiet=0.6)
        scroll_into_view(d, dash_duo.find_element(f"#{ids.DCT_SUMMARY}"))
        g = d.execute_script(FIT, ids.DCT_SUMMARY, ids.DCT_CARD)
        dash_duo.find_element(f"#{ids.DCT_CARD}").screenshot(
            str(shot(f"ctw001_{width}x{height}").with_name(f"ctw001_{width}x{height}_card.png")))
        assert g["scroll"] <= g["client"], (width, g)
        for name, _left, right in g["heads"]:
            assert right <= min(g["right"], g["card"]) + 0.5, (width, name, g)
        assert "by mixing two thresholds" in g["text"] and "Threshold" in g["text"]
