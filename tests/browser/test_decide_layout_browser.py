"""No hole beside the Decide tab's long operating-point card (dly001): in presentation mode at
1280x720 it stood beside the ROC card alone (a blank of about 520 px under the ROC); at
1600x1000 beside the cost card, stretched to its height (about 340 px blank in it). Measured
on the elements' geometry in Chromium, the screenshots kept for a person."""

from __future__ import annotations

import pytest

from roc_dash.app import ids

from .gestures import scroll_to, wait_idle, wait_until
from .test_trust_browser import start

#: the operating card's vertical span, and how much of it the other column's cards' contents
#: (their last shown child, not a box stretched to the row) cover
BESIDE = """
const shown = (e) => e.getClientRects().length > 0;
const cards = Array.from(document.querySelectorAll('#tab-panel-decide > .card')).filter(shown);
const card = cards.find(c => (c.querySelector('h2') || {}).textContent === 'Operating point');
const op = card.getBoundingClientRect();
let covered = 0;
for (const c of cards) {
  const r = c.getBoundingClientRect();
  if (c === card || (r.left < op.right && op.left < r.right)) {
    continue;  // the card itself, or one in its column
  }
  const kids = Array.from(c.children).filter(shown);
  const bottom = Math.max(...kids.map(k => k.getBoundingClientRect().bottom));
  covered += Math.max(0, Math.min(bottom, op.bottom) - Math.max(r.top, op.top));
}
return {height: op.height, covered: covered, columns: new Set(cards.map(
  c => Math.round(c.getBoundingClientRect().left))).size};
"""


@pytest.mark.parametrize("mode, size", [("presenting", (1280, 720)), ("normal", (1600, 1000))])
def test_dly001_no_hole_beside_the_operating_card(dash_duo, app, shot, mode, size):
    start(dash_duo, app, size=size)
    if mode == "presenting":
        dash_duo.find_element(f"#{ids.PRESENTATION} input").click()
        wait_until(lambda: "presenting" in dash_duo.find_element(f"#{ids.APP}").get_attribute(
            "class"), message="presentation mode")
    wait_idle(dash_duo, quiet=1.0)
    d = dash_duo.driver
    op = dash_duo.find_element(f"#{ids.OPERATING}")
    scroll_to(d, max(0, op.location["y"] - 200))
    wait_idle(dash_duo, quiet=0.5)
    g = d.execute_script(BESIDE)
    shot(f"dly001_{mode}_{size[0]}x{size[1]}")
    assert g["columns"] == 2, g
    hole = g["height"] - g["covered"]
    assert hole < 150, f"{hole:.0f} px blank beside the operating card: {g}"
