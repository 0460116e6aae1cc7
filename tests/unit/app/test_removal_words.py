"""The removal question names the pins at the thresholds the views show."""

from __future__ import annotations

import pytest

from roc_dash.app.page_state import ModelRef, Pin
from roc_dash.app.removal import as_shown, confirm_box
from roc_dash.app.server.store import DEMO_ID
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import analyse
from roc_dash.core.decisions.operating import operating_point


def test_rmw001_typed_pins_are_named_at_the_vertex_they_snap_to(store, demo):
    model = "logistic regression"
    pins = [{"label": "A", "dataset": DEMO_ID, "model": model, "threshold": 0.3},
            {"label": "B", "dataset": DEMO_ID, "model": model, "threshold": 2.0},
            {"label": "C", "dataset": DEMO_ID, "model": model, "threshold": None}]
    # the views' own reading of the typed threshold (core, on the pooled curve)
    analysis = analyse(demo, Conditions(prior_pos=0.3))
    shown = operating_point(analysis, {"model": model, "threshold": 0.3}).threshold
    assert shown != 0.3
    text = str(confirm_box(store, [DEMO_ID], DEMO_ID, pins, owner=None))
    assert f"A ({model} at score ≥ {format(shown, '.6g')})" in text
    assert "B (" in text and "at score ≥ +∞" in text  # above every score: flags nothing
    snapped = as_shown(store, DEMO_ID, [Pin("A", ModelRef(DEMO_ID, model), 0.3)])
    assert snapped[0].threshold == pytest.approx(shown, abs=0)
    assert as_shown(store, "0" * 32, snapped) == snapped  # unreadable: as given
