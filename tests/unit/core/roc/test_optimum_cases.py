"""Core's optimum rule on the one shared table of cases (the browser's copy,
``assets/optimum.js``, is checked on the same table in ``tests/browser/test_optimum_browser.py``)."""

import pytest

from roc_dash.core.roc.hull import optimal_point
from tests.optimum_cases import brute_force, load_cases

CASES = load_cases()


def test_opt001_the_table_covers_ties_segments_zero_costs_and_extreme_priors():
    names = " ".join(c.name for c in CASES)
    for word in ("tie", "slope 0", "slope inf", "extreme prior", "extreme costs", "rates"):
        assert word in names
    assert sum(c.end is not None for c in CASES) >= 5  # tied segments
    assert sum(c.end is None for c in CASES) >= 5  # single vertices


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_opt002_core_names_the_expected_vertex_and_tied_end(case):
    opt = optimal_point(case.hull, case.slope)
    assert (opt.index, opt.index_end) == (case.index, case.end)
    assert opt.on_segment == (case.end is not None)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_opt003_the_expectations_are_the_exact_brute_force_optimum(case):
    """Each hand-written expectation is the optimum in exact arithmetic (the typed
    decimals as fractions; a slope beyond the doubles' range as the double core holds)."""
    assert brute_force(case) == (case.index, case.end)
