"""A group's ring on the Slices view, grabbed by its outline, is moved (not resized):
plotly moves a path shape wherever it is grabbed."""

from __future__ import annotations

import pytest

from roc_dash.app import ids
from roc_dash.figures.slices import HANDLE_RADIUS
from tests.rings import ring_size
from tools.slices_example import loan_predictions_wide

from .gestures import drag, js_graph, scroll_into_view, to_screen, wait_idle, wait_until
from .test_slicepage_browser import _pick, _rings
from .test_slices_browser import upload_loans


def test_rng001_a_ring_grabbed_by_its_outline_moves(dash_duo, app, tmp_path, shot):
    frame = loan_predictions_wide()
    upload_loans(dash_duo, app, tmp_path, frame, height=1200)
    _pick(dash_duo, ids.SLC_COLUMN, "region")
    radio = dash_duo.find_element(f"#{ids.SLC_CONSTRAINT} input[value='equal_opportunity']")
    scroll_into_view(dash_duo.driver, radio)
    radio.click()
    dash_duo.wait_for_contains_text(f"#{ids.SLC_TOTAL}", "equal opportunity")
    wait_idle(dash_duo)
    before = wait_until(lambda: (lambda r: r if len(r) == 4 else None)(_rings(dash_duo)),
                        message="four rings")
    group = list(before)[-1]  # the ring on top
    fpr, tpr = before[group]
    d = dash_duo.driver
    # grab its outline at its east point (where a circle shape shows plotly's e-resize)
    grab = (fpr + HANDLE_RADIUS, tpr)
    drag(d, to_screen(d, ids.SLC_GRAPH, *grab),
         to_screen(d, ids.SLC_GRAPH, grab[0] + 0.12, min(0.97, tpr + 0.35)))
    dash_duo.wait_for_contains_text(f"#{ids.SLC_SUMMARY}", f"{group} moved by hand")
    wait_idle(dash_duo)
    after = _rings(dash_duo)
    assert after[group][1] > tpr + 0.1  # moved up its hull, as a drag by the centre does
    for shape in js_graph(d, ids.SLC_GRAPH, "gd.layout.shapes"):  # no ring resized
        assert ring_size(shape) == pytest.approx((2 * HANDLE_RADIUS, 2 * HANDLE_RADIUS))
    shot("rng001_outline_drag")
