"""The monitor's figures (roc_dash.figures.monitoring) read back: the hull, the deployed
point, each window's point and interval, the prior's band and the estimates (mon040-mon041)."""

from __future__ import annotations

import numpy as np
import pytest

from roc_dash.core.decisions.economics import Economics
from roc_dash.core.monitoring import (
    MonitorSettings,
    choice_at_prior,
    monitor,
    reference_from_scores,
    window_from_rows,
)
from roc_dash.figures.monitoring import monitor_roc_figure, monitor_time_figure
from tests.monitoring_example import sample

ECON = Economics(cost_fp=1.0, cost_fn=3.0)


@pytest.fixture(scope="module")
def result():
    y, s = sample(5000, 0.3, seed=1)
    first = reference_from_scores(y, s, threshold=0.5, prior_pos=0.3, economics=ECON)
    ref = reference_from_scores(y, s, prior_pos=0.3, economics=ECON,
                                threshold=choice_at_prior(first.hull, 0.3, ECON).threshold)
    windows = [window_from_rows("<b>jan</b>", *reversed(sample(3000, 0.3, seed=2))),
               window_from_rows("feb", sample(3000, 0.12, seed=3)[1])]
    return monitor(ref, windows, MonitorSettings(replicates=50))


def _trace(fig, name):
    return next(t for t in fig.data if t.name == name)


def test_mon040_the_roc_path_holds_the_hull_the_record_and_each_window(result):
    fig = monitor_roc_figure(result)
    ref = result.reference
    hull = _trace(fig, "reference hull")
    np.testing.assert_array_equal(hull.x, ref.hull.fpr)
    star = _trace(fig, "deployed (record)")
    assert (star.x[0], star.y[0]) == (ref.fpr, ref.tpr)
    observed = _trace(fig, "windows: observed (labels)")
    m = result.windows[0].labelled
    assert (observed.x[0], observed.y[0]) == (m.fpr.value, m.tpr.value)
    assert observed.error_y.array[0] == pytest.approx(m.tpr.high - m.tpr.value)
    assert observed.text[0] == "&lt;b&gt;jan&lt;/b&gt;"  # names drawn as plain text
    rederived = _trace(fig, "windows: optimum at the estimated prior")
    r = result.windows[1].rederived
    assert (rederived.x[0], rederived.y[0]) == (r.choice.fpr, r.choice.tpr)


def test_mon041_over_time_the_estimates_and_the_band_of_the_choice(result):
    fig = monitor_time_figure(result)
    em = _trace(fig, "EM")
    assert list(em.y) == [w.estimate("em").value for w in result.windows]
    counted = _trace(fig, "counted (labels)")
    assert list(counted.y) == [result.windows[0].estimate("labels").value]
    band = [s for s in fig.layout.shapes if s.type == "rect"]
    low, high = result.windows[0].rederived.holds_over
    assert len(band) == 1 and (band[0].y0, band[0].y1) == (low, high)
    staying = _trace(fig, "staying with the threshold")
    assert staying.y[1] == pytest.approx(result.windows[1].rederived.deployed_cost.value)


def test_mon042_reference_hull_hover_says_the_pages_threshold(result):
    """The reference hull's vertices say their threshold as the page does (rule_threshold:
    never rounded up; +∞ at the origin), not plotly's ``.6g`` of the raw threshold."""
    from roc_dash.text.rounding import rule_threshold

    hull = _trace(monitor_roc_figure(result), "reference hull")
    thresholds = result.reference.hull.thresholds.tolist()
    star = _trace(monitor_roc_figure(result), "deployed (record)")
    own = star.hovertemplate.replace("<extra></extra>", "")
    assert list(hull.hovertext) == [own if (x, y) == (star.x[0], star.y[0]) else
                                    f"hull vertex: score ≥ {rule_threshold(t)}"
                                    for t, x, y in zip(thresholds, hull.x, hull.y, strict=True)]
    assert hull.hovertext[0].endswith("+∞") and "%{customdata" not in hull.hovertemplate


def test_mon043_the_deployed_stars_hover_is_its_own_over_the_hull_vertex_under_it(result):
    """review9: plotly's closest hover picked the hull vertex at the star's place ("hull
    vertex: score ≥ …"); whichever of the two it picks now says the deployed point."""
    from roc_dash.text.rounding import rule_threshold, sig

    ref = result.reference
    fig = monitor_roc_figure(result)
    hull, star = _trace(fig, "reference hull"), _trace(fig, "deployed (record)")
    own = (f"deployed: score ≥ {rule_threshold(ref.threshold)}<br>FPR {sig(ref.fpr)}, "
           f"TPR {sig(ref.tpr)}")
    assert star.hovertemplate == own + "<extra></extra>"
    under = [k for k in range(len(hull.x)) if (hull.x[k], hull.y[k]) == (ref.fpr, ref.tpr)]
    assert len(under) == 1  # the fixture's record is at a hull vertex
    assert hull.hovertext[under[0]] == own
    assert sum(t == own for t in hull.hovertext) == 1


def test_mon044_over_the_windows_in_the_tables_order_whoever_has_labels():
    """Windows without labels before one with them (stranger review 12: the axis read
    m3, u1, u2 and the cost line went back from u2 to m3): the axis is the windows' order,
    and the dotted cost line is the decision's (a record, a pin or the recommendation)."""
    y, s = sample(5000, 0.3, seed=1)
    first = reference_from_scores(y, s, threshold=0.5, prior_pos=0.3, economics=ECON)
    ref = reference_from_scores(y, s, prior_pos=0.3, economics=ECON,
                                threshold=choice_at_prior(first.hull, 0.3, ECON).threshold)
    windows = [window_from_rows("u1", sample(3000, 0.2, seed=2)[1]),
               window_from_rows("u2", sample(3000, 0.12, seed=3)[1]),
               window_from_rows("m3", *reversed(sample(3000, 0.3, seed=4)))]
    fig = monitor_time_figure(monitor(ref, windows, MonitorSettings(replicates=30)))
    assert list(fig.layout.xaxis.categoryarray) == ["u1", "u2", "m3"]
    assert fig.layout.xaxis.categoryorder == "array"
    staying = _trace(fig, "staying with the threshold")
    assert list(staying.x) == ["u1", "u2", "m3"]  # drawn left to right
    words = [a.text for a in fig.layout.annotations]
    assert "the decision's cost" in words and "the record's cost" not in words
