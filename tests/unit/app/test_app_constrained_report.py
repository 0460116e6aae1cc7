"""The HTML report's headline under the Decide tab's capacity or floors (crh001-crh003): the
page's export and ``roc-dash report --format html --capacity/--floor`` show the point the
summary strip shows and *Download decision* / ``roc-dash decide`` write (checked against a
brute force over the demo file read with pandas), and the optimum again when no threshold
meets them."""

from __future__ import annotations

import html
import json
import re

import pytest

from roc_dash import decision
from roc_dash.app import ids
from roc_dash.app.components import plain_text
from roc_dash.app.features.constrained_strip import strip_update
from roc_dash.cli import main
from roc_dash.figures.style import format_threshold

from . import test_app_constrained_strip as strip_tests
from .test_app_constrained_strip import _brute, _ops
from .test_app_constraints import DEMO, MODELS

page_of = strip_tests.page_of  # the strip tests' fixture: the demo under their conditions


def _summary(text: str) -> str:
    """The report's decision headline (plain text)."""
    found = re.search(r'<h2>Decision</h2><p class="summary">(.*?)</p>', text, re.S)
    return html.unescape(found.group(1)) if found else ""


def _operating_box(text: str) -> str:
    found = re.search(r"<th>Operating point \((.*?)\)</th>.*?<td[^>]*>Threshold</td>"
                      r"<td[^>]*>(.*?)</td>", text, re.S)
    return f"{html.unescape(found.group(1))} | {html.unescape(found.group(2))}"


def _report(exports, cache, store, page) -> str:
    analysis = cache.analysis(list(page.datasets), MODELS, exports.page_conditions(page))
    table = cache.table(list(page.datasets), None)
    return exports.html_download(cache, store, page, analysis, table, None, None)["content"]


@pytest.fixture
def exports(monkeypatch):
    import roc_dash.app.features.exports as exports

    monkeypatch.setattr(exports, "current_owner", lambda: "tester")
    # the "How sure?" section is not what is checked here (and takes seconds)
    monkeypatch.setattr(exports, "report_intervals", lambda *a, **k: None)
    return exports


def test_crh001_page_report_headline_is_the_strips_and_the_records(page_of, exports):
    cache, store, page = page_of(capacity="10%")
    strip = _ops(strip_update(cache, page, ids.VIZ_DATA)["summary"])
    analysis = cache.analysis([page.datasets[0]], MODELS, exports.page_conditions(page))
    doc = json.loads(exports.decision_download(cache, store, page, analysis)[0]["content"])
    cost, model, t = _brute(lambda tpr, fpr, flagged: flagged <= 0.1 + 1e-12)
    assert (doc["model"], doc["rule"]["threshold"]) == (model, t)
    report = _report(exports, cache, store, page)
    summary = _summary(report)
    assert summary == plain_text([strip[(0,)], strip[(1,)]])
    assert summary.startswith(f"Use {model} at score ≥ {format_threshold(t)} under the "
                              "capacity of 10% cases:")
    assert _operating_box(report) == ("least expected cost under the capacity of 10% cases | "
                                      f"score ≥ {format_threshold(t)}")
    # without the capacity: the optimum's headline, as before
    _, _, plain = page_of()
    unconstrained = _report(exports, cache, store, plain)
    _, model0, t0 = _brute(lambda *_: True)
    assert _summary(unconstrained).startswith(f"Use {model0} at score ≥ {format_threshold(t0)}:")
    assert _operating_box(unconstrained).startswith("optimal for these conditions")


def test_crh002_none_met_keeps_the_optimum_and_says_so(page_of, exports):
    cache, store, page = page_of(floors="recall >= 0.99; fpr <= 0.001")
    report = _report(exports, cache, store, page)
    _, model, t = _brute(lambda *_: True)
    summary = _summary(report)
    assert summary.startswith(f"Use {model} at score ≥ {format_threshold(t)}:")
    assert "No threshold meets the constraints" in summary
    assert _operating_box(report) == f"optimal for these conditions | score ≥ {format_threshold(t)}"


def test_crh003_standalone_report_headline_follows_the_capacity(capsys, tmp_path):
    out, record = tmp_path / "report.html", tmp_path / "decision.json"
    assert main(["decide", str(DEMO), "--capacity", "5%", "--replicates", "0",
                 "-o", str(record)]) == 0
    assert main(["report", str(DEMO), "--capacity", "5%", "--format", "html", "-o", str(out)]) == 0
    r = decision.load(record)
    text = out.read_text()
    summary = _summary(text)
    assert summary.startswith(f"Use {r.model} at score ≥ {format_threshold(r.threshold)} "
                              "under the capacity of 5% cases:")
    assert "Chosen under share flagged ≤ 5%: the least expected cost" in summary
    assert _operating_box(text) == ("least expected cost under the capacity of 5% cases | "
                                    f"score ≥ {format_threshold(r.threshold)}")
    assert main(["report", str(DEMO), "--format", "html", "-o", str(out)]) == 0
    assert _summary(out.read_text()) == ""  # without a constraint: as before
    capsys.readouterr()


def test_crh010_the_records_notes_say_the_capacitys_share_in_percent(capsys, tmp_path):
    """review9: "share flagged ≤ 0.952381" beside "flags 43%": the capacity's floor and its
    bootstrap estimate in the record's notes in percent, as the strip's rates."""
    record = tmp_path / "decision.json"
    assert main(["decide", str(DEMO), "--capacity", "5%", "--replicates", "20",
                 "-o", str(record)]) == 0
    notes = capsys.readouterr().err  # "roc-dash: note: …", the record's notes
    assert "Chosen under share flagged ≤ 5%:" in notes, notes
    assert re.search(r"share flagged ≤ 5%: [0-9.]+% at this threshold", notes), notes
    assert not re.search(r"≤ 0\.[0-9]|: 0\.[0-9]+ at this threshold", notes), notes
