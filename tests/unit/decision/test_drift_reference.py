"""The record's side of the drift test is built once, for the CI gate and the Monitor alike."""

from __future__ import annotations

import dataclasses

import pytest

from roc_dash import decision
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import analyse
from roc_dash.decision import gate, monitoring
from roc_dash.io import load_predictions
from tests.conftest import make_predictions


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    path = tmp_path_factory.mktemp("drift") / "p.csv"
    make_predictions(300, seed=3, separation=1.5).to_csv(path, index=False)
    table = load_predictions([path]).table
    return decision.build_decision(analyse(table, Conditions()), table)


@pytest.mark.parametrize("how_chosen", ["optimum", "pinned", "capacity", "floors"])
def test_drf001_monitor_and_check_share_the_records_drift_reference(record, how_chosen):
    """A threshold chosen under a capacity or floors was chosen on the record's data: the
    Monitor says so as ``roc-dash check --decision`` does (its optimism not corrected: such
    a record carries no correction)."""
    assert record.drift_reference is not None
    r = dataclasses.replace(record, how_chosen=how_chosen, drift_reference=None)
    for_check = gate.cost_reference_of(r)
    for_monitor, _ = monitoring.reference_of(r)
    assert for_monitor.drift == for_check
    assert for_check.chosen is (how_chosen != "pinned")
    assert not for_check.corrected
    assert any("chosen on the reference data" in n for n in for_check.notes) is for_check.chosen
