"""core.assembly.analysis: one table to every number, and cheap re-evaluation under new
conditions."""

import dataclasses

import pytest

from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import analyse, with_conditions


def test_ana001_with_conditions_equals_fresh_analysis(demo):
    base = analyse(demo, Conditions())
    assert base.conditions.prior_pos == pytest.approx(base.data_prevalence)
    for cond in (Conditions(cost_fp=5), Conditions(cost_fn=7, prior_pos=0.05),
                 Conditions(prior_pos=0.9)):
        fast = with_conditions(base, cond)
        fresh = analyse(demo, cond)
        assert fast.conditions == fresh.conditions
        assert (fast.optimal.model, fast.optimal.threshold) == (
            fresh.optimal.model, fresh.optimal.threshold)
        assert fast.optimal.expected_cost == pytest.approx(fresh.optimal.expected_cost)
        for a, b in zip(fast.models, fresh.models, strict=True):
            assert a.optimal.threshold == b.optimal.threshold
            assert a.curve is base.model(a.name).curve  # nothing recomputed


def test_ana002_with_conditions_refuses_other_settings(demo):
    base = analyse(demo, Conditions())
    with pytest.raises(ValueError, match="settings"):
        with_conditions(base, dataclasses.replace(base.conditions, level=0.8))
