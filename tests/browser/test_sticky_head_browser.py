"""The tabs stay reachable when the page is scrolled (left10, review9): the sticky summary
strip covered the tab bar once the page scrolled (in presentation mode the tabs scrolled away
with the top bar). Now the tab bar sticks under the strip, and in presentation mode the top
bar holding the tabs sticks with the strip under it: scrolled down, what is at each tab's
centre is that tab, and a real click there opens it."""

from __future__ import annotations

import pytest

from roc_dash.app import ids

from .gestures import click, wait_idle, wait_until
from .test_trust_browser import start

#: each tab's centre, and whether it is in the window and is what the pointer would hit there
HIT = """
const out = [];
for (const b of document.querySelectorAll('#TAB_BAR .page-tab')) {
  const r = b.getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const e = document.elementFromPoint(x, y);
  out.push([b.id, x, y, y >= 0 && y <= window.innerHeight && !!e && b.contains(e)]);
}
return {tabs: out, y: window.scrollY};
""".replace("TAB_BAR", ids.TAB_BAR)

_SHOWN = "const p = document.getElementById(arguments[0]); return !!p && !p.hidden;"


@pytest.mark.parametrize("mode, size", [("normal", (1280, 720)), ("normal", (1600, 1000)),
                                        ("presenting", (1280, 720)),
                                        ("presenting", (960, 900))])
def test_stk001_tabs_reachable_after_scrolling(dash_duo, app, shot, mode, size):
    start(dash_duo, app, size=size)
    d = dash_duo.driver
    if mode == "presenting":
        dash_duo.find_element(f"#{ids.PRESENTATION} input").click()
        wait_until(lambda: "presenting" in dash_duo.find_element(f"#{ids.APP}").get_attribute(
            "class"), message="presentation mode")
        wait_idle(dash_duo, quiet=1.0)
    d.execute_script("window.scrollTo(0, 900)")
    wait_until(lambda: d.execute_script("return window.scrollY") >= 600,
               message="the page scrolled down")
    wait_idle(dash_duo, quiet=0.3)
    g = d.execute_script(HIT)
    shot(f"stk001_{mode}_{size[0]}x{size[1]}_scrolled")
    missed = [t for t in g["tabs"] if not t[3]]
    assert len(g["tabs"]) == 4 and not missed, f"tabs covered or out of the window: {g}"
    # a real click on the Compare tab where it is, without scrolling back up
    _, x, y, _ = next(t for t in g["tabs"] if t[0] == f"{ids.TAB_BUTTON}compare")
    click(d, (x, y))
    wait_until(lambda: d.execute_script(_SHOWN, f"{ids.TAB_PANEL}compare"),
               message="the Compare tab opened by a click while scrolled")
    wait_idle(dash_duo)
    d.execute_script("window.scrollTo(0, 600)")
    g = d.execute_script(HIT)
    _, x, y, hit = next(t for t in g["tabs"] if t[0] == f"{ids.TAB_BUTTON}decide")
    assert hit, g
    click(d, (x, y))
    wait_until(lambda: d.execute_script(_SHOWN, f"{ids.TAB_PANEL}decide"),
               message="back to Decide by a click while scrolled")
