"""Cost curves: lines, lower envelope = hull mapped to cost space, area, trivial classifiers."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roc_dash.core import roc_curve
from roc_dash.core.roc.cost_curves import (
    TRIVIAL_CLASSIFIERS,
    cost_lines,
    envelope_cost_at,
    lower_envelope,
)
from roc_dash.core.roc.hull import (
    convex_hull,
    hull_of_points,
    iso_performance_slope,
    normalized_expected_cost,
    optimal_point,
    pc_pos,
)

# Rates of real ROC points are multiples of 1/N; avoid subnormal floats whose products
# underflow to zero.
RATE = st.integers(0, 10_000).map(lambda k: k / 10_000)


def test_cst001_line_of_a_point():
    class P:
        fpr = np.array([0.2])
        tpr = np.array([0.7])

    lines = cost_lines(P)
    assert lines.start[0] == pytest.approx(0.2) and lines.end[0] == pytest.approx(0.3)
    for pc in (0.0, 0.25, 0.9):
        assert lines.at(pc)[0] == pytest.approx((1 - 0.7) * pc + 0.2 * (1 - pc))


def test_cst002_trivial_classifiers():
    f = np.array([v[0] for v in TRIVIAL_CLASSIFIERS.values()])
    t = np.array([v[1] for v in TRIVIAL_CLASSIFIERS.values()])

    class P:
        fpr, tpr = f, t

    grid = np.linspace(0, 1, 11)
    costs = cost_lines(P).at(grid)
    np.testing.assert_allclose(costs[0], grid)  # always negative: cost = PC(+)
    np.testing.assert_allclose(costs[1], 1 - grid)  # always positive: cost = 1 - PC(+)
    env = lower_envelope(hull_of_points([], []))
    np.testing.assert_allclose(envelope_cost_at(env, grid), np.minimum(grid, 1 - grid))
    assert env.area == pytest.approx(0.25)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(RATE, RATE), min_size=1, max_size=50))
def test_cst003_envelope_is_the_hull_in_cost_space(points):
    x = np.array([p[0] for p in points])
    y = np.array([p[1] for p in points])

    class P:
        fpr, tpr = np.concatenate((x, [0, 1])), np.concatenate((y, [0, 1]))

    env = lower_envelope(hull_of_points(x, y))
    grid = np.linspace(0, 1, 201)
    brute = cost_lines(P).at(grid).min(axis=0)
    np.testing.assert_allclose(envelope_cost_at(env, grid), brute, atol=1e-9)
    # the envelope is the image of the hull: breakpoints at PC(+) = 1/(1 + segment slope)
    hull = env.hull
    for k in env.vertex_index:
        lo, hi = hull.pc_pos_low[k], hull.pc_pos_high[k]
        mid = (lo + hi) / 2
        assert envelope_cost_at(env, mid) == pytest.approx(
            (1 - hull.tpr[k]) * mid + hull.fpr[k] * (1 - mid), abs=1e-9)
    # area by fine numerical integration
    fine = np.linspace(0, 1, 20001)
    assert env.area == pytest.approx(np.trapezoid(brute_at(P, fine), fine), abs=1e-6)


def brute_at(P, grid):
    return cost_lines(P).at(grid).min(axis=0)


def test_cst004_optimum_cost_matches_envelope_at_current_pc():
    rng = np.random.default_rng(5)
    y = rng.random(400) < 0.3
    s = rng.normal(y * 1.0, 1)
    hull = convex_hull(roc_curve(y, s))
    env = lower_envelope(hull)
    for cfp, cfn, p in [(1, 1, 0.3), (1, 5, 0.1), (4, 1, 0.6)]:
        pc = pc_pos(cfp, cfn, p)
        opt = optimal_point(hull, iso_performance_slope(cfp, cfn, p))
        nec = normalized_expected_cost(opt.fpr, opt.tpr, cost_fp=cfp, cost_fn=cfn, prior_pos=p)
        assert envelope_cost_at(env, pc) == pytest.approx(nec)
