"""One helper for the point the capacity or floors choose (ccp001): the operating card's
intervals (features.intervals.recommendation) and the summary strip's card
(features.constrained_strip.strip_update) stand on the same unpinned point, the brute-force
least cost within the capacity over the demo file."""

from roc_dash.app import ids
from roc_dash.app.analysis import shown_analysis
from roc_dash.app.chosen_points import RECOMMENDATION
from roc_dash.app.components import plain_text
from roc_dash.app.constrained import constrained_point, page_constrained
from roc_dash.app.features.constrained_strip import strip_update
from roc_dash.app.features.intervals import recommendation
from roc_dash.app.state import economics_from_state
from roc_dash.figures.style import format_threshold

from . import test_app_constrained_strip as strip_tests
from .test_app_constrained_strip import _brute

page_of = strip_tests.page_of  # the strip tests' fixture: the demo under their conditions


def test_ccp001_the_constrained_point_is_one_unpinned_summary_for_card_and_intervals(page_of):
    cache, _, page = page_of(capacity="10%")
    analysis = shown_analysis(cache, page)
    made = page_constrained(page, analysis, None,
                            economics_from_state(page.control.to_store()), n_boot=0)
    op = constrained_point(analysis, made)
    cost, model, t = _brute(lambda tpr, fpr, flagged: flagged <= 0.1 + 1e-12)
    assert (op.model, op.threshold) == (model, t)
    assert abs(op.expected_cost - cost) < 1e-12
    assert not op.pinned and op.label == ""
    assert recommendation(page, analysis) == (RECOMMENDATION, op)
    card = plain_text(strip_update(cache, page, ids.VIZ_DATA)["operating"])
    assert f"score ≥ {format_threshold(t)}" in card and "least expected cost under" in card
