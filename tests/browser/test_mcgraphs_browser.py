"""The multi-class card (Beyond binary) keeps its mode bars and titles clear (mcc001).

Review of 2026-11-29, with the multi-class example: the class curves' mode bar (vertical, at
the figure's right edge) overlapped the plot by ~6 px (a right margin of 20 px), and the
pairwise matrix's colour-bar title Â(i|j) touched the label "1" of its top tick, in
presentation mode overlapped it (plotly's title sat 4-6 px above the bar, the label half a
line above the bar's end). Checked on the elements' boxes in Chromium at 1280x720 and
1600x1000, normal and presentation mode.
"""

from __future__ import annotations

import pytest

from roc_dash.app import ids

from .gestures import centre, click, open_tab, scroll_into_view, wait_idle, wait_until
from .test_kinds_browser import _example
from .test_trust_browser import start

_BOXES = """
const box = e => { if (!e) return null; const r = e.getBoundingClientRect();
                   return [r.left, r.top, r.right, r.bottom]; };
const gd = id => document.querySelector('#' + id + ' .js-plotly-plot');
const curves = gd(arguments[0]), heat = gd(arguments[1]);
if (!curves || !heat || !heat.querySelector('.colorbar')) { return null; }
const texts = [...heat.querySelectorAll('.colorbar text, .infolayer .annotation text')];
return {curves_bar: box(curves.querySelector('.modebar')),
        curves_plot: box(curves.querySelector('.nsewdrag')),
        heat_bar: box(heat.querySelector('.modebar')),
        heat_plot: box(heat.querySelector('.nsewdrag')),
        labels: texts.map(t => [t.textContent, box(t)])};
"""


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("size,presenting", [((1280, 720), False), ((1280, 720), True),
                                             ((1600, 1000), True)])
def test_mcc001_mode_bars_and_the_colour_bars_title_clear(dash_duo, app, shot, size,
                                                          presenting):
    start(dash_duo, app, size=size)
    d = dash_duo.driver
    _example(dash_duo, "multi-class")
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_STATUS}", "Multi-class file: 3 classes")
    wait_idle(dash_duo)
    if presenting:
        click(d, centre(d, dash_duo.find_element(f"#{ids.PRESENTATION} label")))
        wait_until(lambda: "presenting" in dash_duo.find_element(f"#{ids.APP}")
                   .get_attribute("class"), message="presentation mode")
        wait_idle(dash_duo)
    open_tab(dash_duo, "beyond")
    scroll_into_view(d, dash_duo.find_element(f"#{ids.MC_CURVES}"))
    boxes = wait_until(lambda: d.execute_script(_BOXES, ids.MC_CURVES, ids.MC_PAIRWISE),
                       message="the class curves and the matrix drawn")
    wait_idle(dash_duo)
    boxes = d.execute_script(_BOXES, ids.MC_CURVES, ids.MC_PAIRWISE)
    shot(f"mcc001_{size[0]}x{size[1]}{'_presenting' if presenting else ''}")
    # the class curves: the mode bar (vertical, right) beside the plot, not on it
    assert not _overlap(boxes["curves_bar"], boxes["curves_plot"]), boxes
    # the matrix: its title clear of every label of the colour bar and of the mode bar
    labels = dict((text, box) for text, box in boxes["labels"])
    title = labels.pop("Â(i|j)")
    assert "1" in labels and "0.5" in labels, labels
    for text, box in labels.items():
        assert not _overlap(title, box), (text, box, title)
    assert not _overlap(title, boxes["heat_bar"]), (title, boxes["heat_bar"])
    assert not _overlap(boxes["heat_bar"], boxes["heat_plot"]), boxes
