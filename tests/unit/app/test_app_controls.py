"""The cost and prior controls as plain functions: typing, stepping, dragging, clamping."""

import math

import pytest

from roc_dash.app import ids
from roc_dash.app.features.conditions import (
    Gesture,
    apply_gesture,
    control_outputs,
    dragged_slope,
    parse_cost,
    parse_prior,
    step_cost,
    step_prior,
)
from roc_dash.app.state import ControlState, clamp_samples
from roc_dash.core.roc.hull import iso_performance_slope

LINE = [0.0, 0.15, 0.425, 1.0]  # slope 2 through the vertex (0.1, 0.35)
VERTEX = [0.1, 0.35]


def test_ctl001_typed_values_are_kept_clamped_or_refused_visibly():
    assert parse_cost("0.5", 1.0, "c") == (0.5, "")
    assert parse_cost(" 2,5 ", 1.0, "c") == (2.5, "")  # a decimal comma is understood
    assert parse_cost("1e-3", 1.0, "c") == (0.001, "")
    for bad in ("0", "-3"):
        value, message = parse_cost(bad, 0.5, "Cost of a false positive")
        assert value == 0.5 and "must be positive" in message and "kept 0.5" in message
    value, message = parse_cost("", 0.5, "Cost of a false positive")
    assert value == 0.5 and "empty" in message
    value, message = parse_cost("abc", 0.5, "Cost")
    assert value == 0.5 and "not a number" in message
    value, message = parse_cost("1e9", 1.0, "Cost")
    assert value == 1e6 and "out of range" in message and "1e+06" in message
    assert parse_prior("0.2738", 0.5) == (0.2738, "")
    value, message = parse_prior("1.5", 0.3)
    assert value == 0.999 and "strictly between 0 and 1" in message
    value, message = parse_prior("0", 0.3)
    assert value == 0.001 and message
    assert clamp_samples(2000) == (1001, clamp_samples(2000)[1])
    assert "1001" in clamp_samples(2000)[1] and "2000" in clamp_samples(2000)[1]
    assert clamp_samples(33) == (33, "")
    assert clamp_samples(2)[0] == 5
    # what a user types in the text box: text, fractions, junk and an empty box
    assert clamp_samples("201") == (201, "")
    n, message = clamp_samples("7.5", 20)
    assert n == 8 and "whole number" in message and "7.5" in message
    for junk in ("abc", "", None, "  "):
        n, message = clamp_samples(junk, 20)
        assert n == 20 and "kept 20" in message and "None" not in message


def test_ctl002_steppers_step_sensibly():
    assert step_cost(1.0, +1) == pytest.approx(10 ** 0.1, rel=1e-3)
    assert step_cost(0.5, -1) == pytest.approx(0.5 / 10 ** 0.1, rel=1e-3)
    # ten presses make a decade
    v = 1.0
    for _ in range(10):
        v = step_cost(v, +1)
    assert v == pytest.approx(10, rel=5e-3)
    assert step_prior(0.2738, +1) == 0.2838
    assert step_prior(0.2738, -1) == 0.2638
    assert step_prior(0.995, +1) == 0.999 and step_prior(0.005, -1) == 0.001


def test_ctl003_end_drag_rotates_about_the_vertex():
    # a real drag of the upper end sends only x1/y1
    slope = dragged_slope({"shapes[0].x1": 0.6, "shapes[0].y1": 0.65}, LINE, VERTEX)
    assert slope == pytest.approx((0.65 - 0.35) / (0.6 - 0.1))
    slope = dragged_slope({"shapes[0].x0": 0.0, "shapes[0].y0": 0.3}, LINE, VERTEX)
    assert slope == pytest.approx(0.5)  # the lower end moved up: a flatter line


def test_ctl004_middle_drag_is_a_rotation_too():
    # the whole line moved right by 0.2 and down by 0.1: its middle went to (0.4125, 0.475)
    moved = {"shapes[0].x0": 0.2, "shapes[0].y0": 0.05, "shapes[0].x1": 0.625,
             "shapes[0].y1": 0.9}
    slope = dragged_slope(moved, LINE, VERTEX)
    assert slope == pytest.approx((0.475 - 0.35) / (0.4125 - 0.1))
    assert slope != pytest.approx(2.0)  # not the line's own (unchanged) slope
    # a slide of the line along itself keeps the slope
    along = {"shapes[0].x0": 0.05, "shapes[0].y0": 0.25, "shapes[0].x1": 0.475,
             "shapes[0].y1": 1.1}
    assert dragged_slope(along, LINE, VERTEX) == pytest.approx(2.0)


def test_ctl005_steep_flat_and_non_drags():
    assert dragged_slope({"shapes[0].x1": 0.1, "shapes[0].y1": 0.9}, LINE, VERTEX) == math.inf
    # past the vertical: nearer upright -> inf; past the horizontal: nearer flat -> 0
    assert dragged_slope({"shapes[0].x1": 0.05, "shapes[0].y1": 0.9}, LINE, VERTEX) == math.inf
    assert dragged_slope({"shapes[0].x1": 0.9, "shapes[0].y1": 0.3}, LINE, VERTEX) == 0.0
    assert dragged_slope({"xaxis.range[0]": 0.1}, LINE, VERTEX) is None  # a zoom
    assert dragged_slope({"shapes[0].x1": "nan"}, LINE, VERTEX) is None
    assert dragged_slope(None, LINE, VERTEX) is None
    assert dragged_slope({"shapes[0].x1": 0.5}, None, VERTEX) is None


def test_ctl006_gestures_update_the_exact_state():
    s = ControlState(cost_fp=1.0, cost_fn=1.0, prior=0.3, prior_mode="manual")
    new, msg = apply_gesture(Gesture(ids.COST_FP_SLIDER, fp_slider=1.0), s, None)
    assert new.cost_fp == 10.0 and msg == ""
    new, _ = apply_gesture(Gesture(ids.COST_FN, cost_fn_text="4"), s, None)
    assert new.cost_fn == 4.0
    new, msg = apply_gesture(Gesture(ids.COST_FN, cost_fn_text=""), s, None)
    assert new.cost_fn == 1.0 and "empty" in msg  # never silently replaced
    new, _ = apply_gesture(Gesture(ids.PRIOR_UP), s, None)
    assert new.prior == 0.31 and new.prior_mode == "manual"
    new, _ = apply_gesture(Gesture(ids.COST_FP_DOWN), s, None)
    assert new.cost_fp == pytest.approx(10 ** -0.1, rel=1e-3)
    # auto prior: the exact prevalence, never rounded
    auto = ControlState(prior_mode="auto")
    new, msg = apply_gesture(Gesture(ids.PRIOR_SOURCE), auto, 0.27375565610859727)
    assert new.prior == 0.27375565610859727
    assert "now follows the prevalence" in msg and "0.2738" in msg  # a switch is said
    again, msg = apply_gesture(Gesture(ids.PRIOR_SOURCE), new, 0.27375565610859727)
    assert again.prior == new.prior and msg == ""  # no change, nothing to say
    manual, msg = apply_gesture(Gesture(ids.PRIOR_SOURCE), s, 0.58)
    assert manual.prior == 0.3 and msg == ""  # a typed prior is never replaced
    new, _ = apply_gesture(Gesture(ids.PRIOR_RESET), s, 0.2737556)
    assert new.prior_mode == "auto" and new.prior == 0.2737556
    # a drag: prior and c(FN) stay, c(FP) follows, every drag bumps the revision
    drag = Gesture(ids.ROC_GRAPH, relayout={"shapes[0].x1": 0.6, "shapes[0].y1": 0.65},
                   line=LINE, vertex=VERTEX)
    new, _ = apply_gesture(drag, s, None)
    assert iso_performance_slope(new.cost_fp, new.cost_fn, new.prior) == pytest.approx(0.6)
    assert (new.cost_fn, new.prior, new.rev) == (1.0, 0.3, 1)
    # vertical / negative drags clamp to the slider's range, with a message
    steep = Gesture(ids.ROC_GRAPH, relayout={"shapes[0].x1": 0.1, "shapes[0].y1": 0.9},
                    line=LINE, vertex=VERTEX)
    new, msg = apply_gesture(steep, s, None)
    assert new.cost_fp == 100 and "end of the range" in msg
    assert apply_gesture(Gesture(ids.ROC_GRAPH, relayout={"autosize": True}, line=LINE,
                                 vertex=VERTEX), s, None) is None
    # the first load takes the link's settings
    new, _ = apply_gesture(Gesture(None, search="?cfp=3&cfn=0.5&prior=0.05"), ControlState(),
                           0.27)
    assert (new.cost_fp, new.cost_fn, new.prior, new.prior_mode) == (3.0, 0.5, 0.05, "manual")


def test_ctl007_display_rounds_but_the_store_is_exact():
    s = ControlState(cost_fp=0.123456789, prior=0.27375565610859727)
    out = control_outputs(s)
    assert out["fp"] == "0.1235" and out["prior"] == "0.2738"
    assert ControlState.from_store(s.to_store()) == s
    # junk in the store falls back to defaults
    assert ControlState.from_store({"cost_fp": -1, "prior": 7, "rev": "x"}) == ControlState()
    assert ControlState.from_store("nonsense") == ControlState()


def test_ctl008_a_short_lever_turns_the_line_gently():
    """A point grabbed near the optimal vertex has a short lever: the old reading turned a
    move of 0.01 (3 px on a 350 px plot) there into a swing of about 45 degrees. The lever
    is now at least ``MIN_LEVER`` (the point taken that far out along the line, moved by as
    much), so the same move turns the line by about 4 degrees; long levers (ctl003-ctl005)
    are exact rotations as before."""
    vertex = [0.3, 0.7]
    line = [0.0, 0.4, 0.6, 1.0]  # slope 1, its middle on the vertex
    # the middle (= the vertex) pulled 0.01 up-left: the line moves, the slope barely
    moved = {"shapes[0].x0": -0.01, "shapes[0].y0": 0.41, "shapes[0].x1": 0.59,
             "shapes[0].y1": 1.01}
    slope = dragged_slope(moved, line, vertex)
    turn = abs(math.degrees(math.atan(slope) - math.atan(1.0)))
    assert 0 < turn < 5, (slope, turn)
    from roc_dash.app.gestures import MIN_LEVER

    # exactly the rotation of a point MIN_LEVER out along the line, moved by (-0.01, +0.01)
    u = MIN_LEVER / math.sqrt(2)
    assert slope == pytest.approx((u + 0.01) / (u - 0.01))
    # a stub on near-perfect data: vertex (0.01, 0.99), slope 1, ends 0.014 from it
    vertex, line = [0.01, 0.99], [0.0, 0.98, 0.02, 1.0]
    slope = dragged_slope({"shapes[0].x1": 0.02, "shapes[0].y1": 1.005}, line, vertex)
    turn = abs(math.degrees(math.atan(slope) - math.atan(1.0)))
    assert 0 < turn < 2, (slope, turn)  # the old reading: 11 degrees
    # the same move of an end far from the vertex is the exact rotation it always was
    assert dragged_slope({"shapes[0].x1": 0.425, "shapes[0].y1": 1.01}, LINE, VERTEX) == (
        pytest.approx((1.01 - 0.35) / (0.425 - 0.1)))


def test_ctl009_the_end_on_the_vertex_turns_the_line_the_way_it_is_dragged():
    """Review of 2026-11-29: at prior 0.05 the demo's optimum is the line's lower end
    (FPR 0, TPR 0.18182; slope 19). Dragging that end right and down (50 px, 60 px) made the
    old reading rotate about the vertex a point that sat on it: the direction pointed below
    the horizontal, read as "past the vertical", and c(FP) jumped to its maximum. The end is
    now taken MIN_LEVER out along the line and moved by as much: the line turns flatter, as
    dragged, and stays a finite positive slope."""
    vertex = [0.0, 0.18182]
    line = [0.0, 0.18182, 0.0431, 1.0]  # slope 19 from the vertex up to the top edge
    slope = dragged_slope({"shapes[0].x0": 0.12, "shapes[0].y0": 0.03}, line, vertex)
    assert slope is not None and 0 < slope < 19 and math.isfinite(slope)
    # dragged up and left instead: steeper (or vertical), never flatter
    steeper = dragged_slope({"shapes[0].x0": -0.01, "shapes[0].y0": 0.3}, line, vertex)
    assert steeper > 19


def test_ctl010_the_upper_end_on_the_vertex_turns_the_line_the_way_it_is_dragged():
    """Review of 2026-11-29: at prior 0.99 the demo's optimum (FPR 0.70093, TPR 1) is the
    line's upper end, on the top edge, and the line is drawn to its left. A press within
    ~10 px of the ring takes that end (plotly's end handle): the old reading took the lever
    out on the line's right-hand side, beyond the plot, so a pull down flattened the line to
    c(FP)'s minimum and a pull up steepened it, the opposite of the hand. The lever now lies
    on the side the line is drawn (the farther end): down is steeper, up is flatter."""
    vertex = [0.7009345794392523, 1.0]
    line = [0.0, 0.9929198527329368, 0.7009345794392523, 1.0]  # slope 0.0101
    old = (line[3] - line[1]) / (line[2] - line[0])
    down = dragged_slope({"shapes[0].x1": vertex[0], "shapes[0].y1": 0.93}, line, vertex)
    assert down is not None and old < down < 1, down  # steeper, as pulled
    up = dragged_slope({"shapes[0].x1": vertex[0], "shapes[0].y1": 1.05}, line, vertex)
    assert up == 0.0  # flatter, as pulled (past the horizontal: the slider's end)
    # the same for the lower end on the vertex (ctl009's case stays as it was)
    vertex, line = [0.0, 0.18182], [0.0, 0.18182, 0.0431, 1.0]
    assert 0 < dragged_slope({"shapes[0].x0": 0.12, "shapes[0].y0": 0.03}, line, vertex) < 19
