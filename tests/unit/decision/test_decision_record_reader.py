"""Reading a decision record that is not what ``roc-dash decide`` wrote: every malformed
record is refused with a message naming the file and what is wrong (``roc-dash check``: exit
2), never a traceback, and never exit 1, which a CI pipeline reads as "a criterion failed".
A small hypothesis fuzz mutates a real record to find what the hand-written cases miss."""

from __future__ import annotations

import copy
import json
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from roc_dash import decision
from roc_dash.cli import main
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import analyse
from roc_dash.decision import gate
from roc_dash.io import load_predictions
from tests.conftest import make_predictions


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A predictions file, its canonical table and the JSON document of its decision."""
    folder = tmp_path_factory.mktemp("reader")
    path = folder / "preds.csv"
    make_predictions(300, seed=4, model="m").to_csv(path, index=False)
    table = load_predictions([path]).table
    record = decision.build_decision(analyse(table, Conditions()), table, replicates=40,
                                     created_utc="2025-01-01T00:00:00Z")
    return path, table, record.to_dict()


def _check(tmp_path, path, text: str, capsys):
    record = tmp_path / "decision.json"
    record.write_text(text)
    code = main(["check", str(path), "--decision", str(record)])
    return code, capsys.readouterr(), record


def _with_threshold(doc: dict, literal: str) -> str:
    """The document as JSON with the threshold written as ``literal`` (a number JSON
    allows but Python's float cannot hold, or its int parser refuses)."""
    text = json.dumps(doc, indent=1)
    value = json.dumps(doc["rule"]["threshold"])
    return text.replace(f'"threshold": {value}', f'"threshold": {literal}', 1)


def test_rdr001_a_deeply_nested_record_exits_2_naming_the_file(made, tmp_path, capsys):
    path, _, _ = made
    code, out, record = _check(tmp_path, path, "[" * 100_000 + "]" * 100_000, capsys)
    assert code == 2, out.err
    assert str(record) in out.err and "nested too deeply" in out.err
    assert "Traceback" not in out.err and out.out == ""


@pytest.mark.parametrize("digits", [400, 5_001])
def test_rdr002_a_threshold_of_many_digits_exits_2_naming_the_file_and_key(
        made, tmp_path, capsys, digits):
    path, _, doc = made
    code, out, record = _check(tmp_path, path, _with_threshold(doc, "9" * digits), capsys)
    assert code == 2, out.err
    assert str(record) in out.err
    assert "Traceback" not in out.err and out.out == ""
    if digits == 400:  # parsed by JSON, too large for a float: the key is named
        assert "'rule.threshold' must be a number (finite" in out.err
        assert "a whole number of 400 digits" in out.err and "9" * 100 not in out.err
    else:  # refused by Python's JSON reader itself
        assert "not a JSON roc-dash can read" in out.err


def test_rdr003_other_huge_numbers_and_oversized_files_are_refused(made, tmp_path):
    _, _, doc = made
    bad = copy.deepcopy(doc)
    bad["intervals"]["expected_cost"] = [0.1, 10 ** 400]
    bad["conditions"]["cost_fn"] = -(10 ** 401)
    path = tmp_path / "d.json"
    path.write_text(json.dumps(bad))
    with pytest.raises(decision.DecisionFileError) as err:
        decision.load(path)
    assert str(path) in str(err.value)
    big = tmp_path / "big.json"
    big.write_text(" " * (decision.MAX_RECORD_BYTES + 1) + json.dumps(doc))
    with pytest.raises(decision.DecisionFileError, match="too large for a decision record"):
        decision.load(big)


def test_rdr004_an_unexpected_error_in_check_is_exit_2_not_a_failed_criterion(
        made, tmp_path, capsys, monkeypatch):
    path, _, doc = made
    def boom(*args, **kwargs):
        raise ZeroDivisionError("a bug")
    monkeypatch.setattr(gate, "recheck_decision", boom)
    code, out, _ = _check(tmp_path, path, json.dumps(doc), capsys)
    assert code == 2 and "Traceback" not in out.err
    assert "roc-dash check: unexpected error" in out.err and "ZeroDivisionError" in out.err


# ------------------------------------------------------------------------------ fuzzing
_LEAVES = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10 ** 500), max_value=10 ** 500),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8),
    st.sampled_from([10 ** 400, -(10 ** 320), 1e308, -1e308, 5e-324, 0, -0.0, 2 ** 63]))
_VALUES = st.recursive(_LEAVES, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)),
    max_leaves=6)


def _paths(doc, prefix=()):
    """Every key path of the document (dict keys and list indices)."""
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) \
        if isinstance(doc, list) else ()
    for k, v in items:
        yield (*prefix, k)
        yield from _paths(v, (*prefix, k))


def _mutated(doc: dict, edits) -> dict:
    out = copy.deepcopy(doc)
    paths = list(_paths(out))
    for pick, action, value in edits:
        *head, last = paths[pick % len(paths)]
        node = out
        try:
            for k in head:
                node = node[k]
            if action == "delete" and isinstance(node, dict):
                del node[last]
            else:
                node[last] = value
        except (KeyError, IndexError, TypeError):  # an earlier edit removed the path
            continue
    return out


_EDITS = st.lists(st.tuples(st.integers(0, 10 ** 6), st.sampled_from(["set", "delete"]),
                            _VALUES), min_size=1, max_size=4)


@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@pytest.mark.slow  # minutes on a busy machine: the full tier (make test-all) runs it
@given(edits=_EDITS)
def test_rdr005_fuzz_a_mutated_record_is_read_or_refused_never_a_crash(made, edits):
    """A record with leaves replaced (huge, nested, wrong kinds) or keys deleted: read, or
    refused with :class:`DecisionFileError` naming the source; a record that reads is
    re-checked on the data without any error but the documented one."""
    _, table, doc = made
    try:
        record = decision.from_dict(_mutated(doc, edits), source="fuzz.json")
    except decision.DecisionFileError as exc:
        assert str(exc).startswith("fuzz.json: ")
        return
    try:
        criteria = gate.recheck_decision(record, table, record.model)
    except gate.CheckInputError:
        return
    assert gate.summary_text(criteria) and gate.junit_xml(criteria)
    assert all(c.status in ("PASS", "FAIL", "INFO") for c in criteria)


def test_rdr006_a_valid_record_still_reads_and_checks(made, tmp_path, capsys):
    path, table, doc = made
    code, out, _ = _check(tmp_path, path, json.dumps(doc), capsys)
    assert code == 0, out.err
    record = decision.from_dict(doc)
    assert record.threshold == doc["rule"]["threshold"]
    assert math.isclose(record.metrics.expected_cost, doc["metrics"]["expected_cost"])
    assert isinstance(table, pd.DataFrame) and np.isfinite(record.threshold)
