"""A capacity and floors that no threshold meets together (each alone is met): the Decide
tab's capacity table says so in the summary strip's words (cun001)."""

import dataclasses

import numpy as np

from roc_dash.app import create_app, ids
from roc_dash.app.components import plain_text
from roc_dash.app.features.constrained_strip import strip_update
from roc_dash.app.page_state import PageState
from roc_dash.app.server.store import DEMO_ID, DatasetStore
from roc_dash.app.state import ControlState
from tests.card_inputs import call_card
from tests.conftest import DEMO_MODELS

from .test_app_constrained_strip import _brute, _ops
from .test_app_constraints import CFN, CFP, PRIOR

CAPACITY, FLOOR = "5%", "recall >= 0.8"


def _table(app, page: PageState):
    """The capacity and floors card's outputs for ``page`` (every demo model shown)."""
    return call_card(app, f"{ids.DCT_CAPACITY_MSG}.children", page,
                     loaded=[f"{DEMO_ID}/{m}" for m in DEMO_MODELS],
                     **{f"{ids.VIZ_DATA}.data": {"drawn": 1}})


def test_cun001_the_capacity_table_says_the_strips_words_when_none_meets_both(tmp_path):
    # brute force over every threshold of every demo model: each alone is met, not both
    assert np.isfinite(_brute(lambda tpr, fpr, flagged: flagged <= 0.05)[0])
    assert np.isfinite(_brute(lambda tpr, fpr, flagged: tpr >= 0.8)[0])
    assert not np.isfinite(_brute(lambda tpr, fpr, flagged: tpr >= 0.8 and flagged <= 0.05)[0])

    app = create_app(store=DatasetStore(tmp_path))
    conditions = ControlState(cost_fp=CFP, cost_fn=CFN, prior=PRIOR, prior_mode="manual")
    page = PageState(datasets=(DEMO_ID,), conditions=conditions, capacity=CAPACITY,
                     floors=FLOOR, tab="decide")
    strip = plain_text(_ops(strip_update(app.analysis_cache, page, ids.VIZ_DATA)["summary"])[
        (1,)])
    assert strip.startswith("No threshold meets the constraints: ")

    table = _table(app, page)["summary"]
    assert plain_text(table).startswith(strip)  # the same words, above the rows
    assert "capacity" in plain_text(table) and "floors" in plain_text(table)

    # met together: no such line
    table = _table(app, dataclasses.replace(page, floors="recall >= 0.1"))["summary"]
    assert "No threshold meets" not in plain_text(table)


def test_cun002_a_capacity_too_big_is_said_under_its_box_only(tmp_path):
    capacity = "100000"  # more cases than the demo has
    app = create_app(store=DatasetStore(tmp_path))
    conditions = ControlState(cost_fp=CFP, cost_fn=CFN, prior=PRIOR, prior_mode="manual")
    out = _table(app, PageState(datasets=(DEMO_ID,), conditions=conditions,
                                capacity=capacity, floors=FLOOR, tab="decide"))
    assert out["capacity_msg"].startswith("Capacity not used")
    assert "No threshold meets" not in plain_text(out["summary"])
