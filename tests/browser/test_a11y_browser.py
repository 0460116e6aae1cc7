"""Accessibility in headless Chromium: axe-core's WCAG 2.0/2.1 A and AA rules over each tab
of the page, presentation mode and the standalone HTML report, failing on any serious or
critical violation (the rule ids and the nodes' selectors in the message).

axe-core 4.14 (the version of the audit; its WCAG 2.1 rules are newer than the copy that
``axe-selenium-python`` bundles) is kept beside this file (``vendor/``, MPL-2.0) and injected
with ``axe-selenium-python``'s :class:`Axe` (the ``test`` extra). See docs/accessibility.md.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from roc_dash.app import ids
from roc_dash.app.server.store import load_demo
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import analyse
from roc_dash.report.html import render_html

from .gestures import wait_idle, wait_until
from .test_trust_browser import start

axe_selenium_python = pytest.importorskip(
    "axe_selenium_python", reason="the test extra installs axe-selenium-python")

#: axe-core, kept with the tests (no network at test time).
AXE_JS = Path(__file__).parent / "vendor" / "axe-4.14.1.min.js"
#: The WCAG 2.0 and 2.1 level A and AA rules of axe-core.
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
#: The impacts that fail a test.
FAILING = {"serious", "critical"}


def axe_failures(driver, context=None) -> list[dict]:
    """axe-core's serious and critical WCAG A/AA violations on the page shown (hidden tab
    panels are skipped by axe itself)."""
    axe = axe_selenium_python.Axe(driver, script_url=str(AXE_JS))
    axe.inject()
    driver.set_script_timeout(240)  # a whole page on a busy machine
    options = {"runOnly": {"type": "tag", "values": WCAG_TAGS},
               "resultTypes": ["violations"]}
    result = axe.run(context=context, options=json.dumps(options))
    return [v for v in result["violations"] if v.get("impact") in FAILING]


def describe(failures: list[dict]) -> str:
    """Each failing rule with its impact, help text and (up to 8 of) its nodes' targets."""
    lines = []
    for v in failures:
        targets = [" ".join(map(str, n["target"])) for n in v["nodes"]]
        more = f" (+{len(targets) - 8} more)" if len(targets) > 8 else ""
        lines.append(f"{v['id']} [{v['impact']}] {v['help']}: {len(targets)} node(s): "
                     + "; ".join(targets[:8]) + more)
    return "\n".join(lines)


def assert_clean(driver, where: str) -> None:
    failures = axe_failures(driver)
    assert not failures, f"axe on {where}:\n{describe(failures)}"


def _show_tab(dash_duo, name: str) -> None:
    dash_duo.find_element(f"#{ids.TAB_BUTTON}{name}").click()
    wait_until(lambda: dash_duo.find_element(f"#{ids.TAB_PANEL}{name}").is_displayed(),
               message=f"the {name} tab")
    wait_idle(dash_duo)


def test_a11y001_decide_tab_has_no_serious_violation(dash_duo, app):
    start(dash_duo, app)
    assert_clean(dash_duo.driver, "the Decide tab")


def test_a11y002_compare_tab_has_no_serious_violation(dash_duo, app):
    start(dash_duo, app)
    _show_tab(dash_duo, "compare")
    assert_clean(dash_duo.driver, "the Compare tab")


def test_a11y003_beyond_binary_tab_has_no_serious_violation(dash_duo, app):
    start(dash_duo, app)
    _show_tab(dash_duo, "beyond")
    assert_clean(dash_duo.driver, "the Beyond binary tab")


def test_a11y004_presentation_mode_has_no_serious_violation(dash_duo, app):
    start(dash_duo, app, path="/?pres=1")
    wait_until(lambda: dash_duo.driver.execute_script(
        "return document.querySelector('.app.presenting, .presenting') !== null"),
        message="presentation mode")
    assert_clean(dash_duo.driver, "presentation mode")


def test_a11y005_standalone_report_has_no_serious_violation(dash_duo, tmp_path):
    d = dash_duo.driver
    path = tmp_path / "report.html"
    path.write_text(render_html(analyse(load_demo().table, Conditions())), encoding="utf-8")
    d.get(path.as_uri())
    wait_until(lambda: d.execute_script(
        "return !!(window.rocReport && document.getElementById('rr-roc').data)"),
        message="the report's script and figures")
    assert_clean(d, "the standalone report")


def test_a11y006_graphs_are_named_figures_with_a_live_summary(dash_duo, app):
    start(dash_duo, app)
    d = dash_duo.driver
    for graph in (ids.ROC_GRAPH, ids.PR_GRAPH, ids.COST_GRAPH):
        wait_until(lambda graph=graph: d.execute_script(
            "const g = document.getElementById(arguments[0]);"
            "return g.getAttribute('role') === 'figure' && !!g.getAttribute('aria-label')"
            " && !!g.getAttribute('aria-describedby')", graph), message=f"{graph} named")
        about = d.execute_script(
            "const g = document.getElementById(arguments[0]);"
            "const s = document.getElementById(g.getAttribute('aria-describedby'));"
            "return [s.getAttribute('aria-live'), s.textContent,"
            " s.querySelector('a') && s.querySelector('a').getAttribute('href')]", graph)
        live, text, link = about
        assert live == "polite"
        # what it shows: the models drawn, by name, and the chosen point
        shown = d.execute_script(
            "return document.getElementById(arguments[0]).querySelector('.js-plotly-plot')"
            ".data.filter("
            "t => t.name && t.showlegend !== false).map(t => t.name)", graph)
        assert shown and all(name in text for name in shown), (text, shown)
        assert "Chosen point:" in text
        assert link == f"#{ids.OPERATING}"
