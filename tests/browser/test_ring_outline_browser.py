"""A group's ring on the Slices view, grabbed by its outline, is moved (not resized):
plotly moves a path shape wherever it is grabbed."""

from __future__ import annotations

import pytest

from roc_dash.app import ids
from roc_dash.figures.slices import HANDLE_RADIUS
from tests.rings import ring_size

from .gestures import drag, js_graph, to_screen, wait_idle
from .test_slicepage_browser import _rings, four_rings


def test_rng001_a_ring_grabbed_by_its_outline_moves(dash_duo, app, tmp_path, shot):
    before = four_rings(dash_duo, app, tmp_path)
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
