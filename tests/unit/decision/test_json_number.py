"""One JSON-safe number for the decision records, the Monitor's JSON and the reports."""

from __future__ import annotations

import math

import numpy as np

from roc_dash.decision import monitor_report, multiclass, record
from roc_dash.report import constraints, slices


def test_jsn001_one_json_safe_number_everywhere():
    f = record.json_number
    assert [f(None), f(math.nan), f(math.inf), f(-np.inf)] == [None] * 4
    assert f(2) == 2.0 and isinstance(f(2), float) and f(np.float32(1.5)) == 1.5
    import roc_dash.report as report

    assert {report._num, constraints.json_number, slices._num, monitor_report._num,
            multiclass._num} == {f}
