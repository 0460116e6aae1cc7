"""The page state a tab's callback reads: stopped while its tab is hidden, nothing to draw
until the conditions are known."""

from __future__ import annotations

import pytest
from dash.exceptions import PreventUpdate

from roc_dash.app.page_state import PageState, tab_page
from roc_dash.app.state import TABS, ControlState


@pytest.mark.parametrize("shown", [*TABS, None, "nonsense"])
def test_tbp001_a_hidden_tab_stops_its_callback(shown):
    conditions = ControlState(prior=0.3).to_store()
    for tab in TABS:
        raw = {"tab": shown, "conditions": conditions}
        if tab == (shown if shown in TABS else TABS[0]):
            page = tab_page(raw, tab)
            assert page == PageState.from_dash(raw) and page.conditions is not None
        else:
            with pytest.raises(PreventUpdate):
                tab_page(raw, tab)


def test_tbp002_no_conditions_yet_is_nothing_to_draw():
    assert tab_page({"tab": "monitor", "conditions": None}, "monitor") is None
    with pytest.raises(PreventUpdate):  # hidden comes first: no work at all
        tab_page({"tab": "decide", "conditions": None}, "monitor")
