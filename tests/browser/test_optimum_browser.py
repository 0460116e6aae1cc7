"""The browser's one optimum rule (``assets/optimum.js``, ``window.rocDashOptimum``) run in
Chromium on the page and in the standalone report, on the one table of cases core is checked
on (``tests/fixtures/optimum_cases.json``, ``tests/unit/core/roc/test_optimum_cases.py``)."""

from __future__ import annotations

import json
import math

from roc_dash.app.server.store import load_demo
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import analyse
from roc_dash.core.roc.hull import TIE_RTOL, optimal_point
from roc_dash.report.html import render_html
from tests.optimum_cases import FIXTURE, load_cases

from .gestures import wait_until
from .test_trust_browser import start

RUN = """
var cases = arguments[0], rtol = arguments[1], O = window.rocDashOptimum;
return cases.map(function (c) {
    var out = {}, m = Number(c.slope);
    if (c.conditions) {
        var s = O.isoSlope(Number(c.conditions[0]), Number(c.conditions[1]),
                           Number(c.conditions[2]));
        out.slope_same = s === m;
    }
    var o = O.optimalIndex(c.hull, m, rtol);
    out.index = o.index;
    out.end = o.end;
    return out;
});
"""


def _payload():
    raw = {c["name"]: c for c in json.loads(FIXTURE.read_text(encoding="utf-8"))["cases"]}
    out = []
    for case in load_cases():
        c = raw[case.name].get("conditions")
        out.append({"hull": case.js_hull(),
                    "slope": "Infinity" if math.isinf(case.slope) else repr(case.slope),
                    "conditions": None if c is None else [c["cost_fp"], c["cost_fn"],
                                                          c["prior_pos"]]})
    return out


def _check(results):
    cases = load_cases()
    assert len(results) == len(cases)
    for case, got in zip(cases, results, strict=True):
        opt = optimal_point(case.hull, case.slope)
        assert (got["index"], got["end"]) == (opt.index, opt.index_end), case.name
        assert (got["index"], got["end"]) == (case.index, case.end), case.name
        assert got.get("slope_same", True), f"{case.name}: isoSlope differs from core's"


def test_opt010_the_page_runs_core_rule_on_the_shared_cases(dash_duo, app):
    start(dash_duo, app)
    d = dash_duo.driver
    assert d.execute_script("return typeof window.rocDashOptimum.optimalIndex") == "function"
    _check(d.execute_script(RUN, _payload(), TIE_RTOL))
    # no tolerance, no answer: the module never falls back on a constant of its own
    err = d.execute_script("try { window.rocDashOptimum.optimalIndex({fpr: [0, 1], tpr: [0, 1]}, 1);"
                           " return ''; } catch (e) { return String(e.message); }")
    assert "TIE_RTOL" in err


def test_opt011_the_standalone_report_runs_the_same_module(dash_duo, tmp_path):
    path = tmp_path / "report.html"
    path.write_text(render_html(analyse(load_demo().table, Conditions())), encoding="utf-8")
    d = dash_duo.driver
    d.get(path.as_uri())
    wait_until(lambda: d.execute_script("return !!window.rocReport"),
               message="the report's script")
    rtol = d.execute_script(
        "return JSON.parse(document.getElementById('rr-data').textContent).tie_rtol;")
    assert rtol == TIE_RTOL  # core's constant, carried by the report's data
    _check(d.execute_script(RUN, _payload(), rtol))
