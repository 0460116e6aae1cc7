"""The README's and the docs pages' examples are true: the files their commands and text name
exist, their `report` commands run as written, and the decision summary they quote is what the
page prints on the demo data. (The error example: test_cli008.)

The checks read README.md and docs/*.md as one text, so a section moved between pages stays
checked wherever it lives."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
#: README.md and every docs page, one after the other.
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
README = "\n\n".join(p.read_text(encoding="utf-8") for p in PAGES)
#: A shell block whose first line says so holds templates for the reader's own files.
TEMPLATE = "stand for your own files"


def shell_blocks(text: str = README) -> list[list[str]]:
    """The lines of each ``sh`` block (of ``text``, default every page), continuation lines
    (ending in a backslash) joined."""
    return [b.replace("\\\n", " ").strip("\n").splitlines()
            for b in re.findall(r"^```(?:sh|bash)\n(.*?)^```", text, re.M | re.S)]


def report_commands() -> list[list[str]]:
    """``roc-dash report`` command lines of the runnable shell blocks, as argv lists."""
    out = []
    for block in shell_blocks():
        if block and TEMPLATE in block[0]:
            continue
        for line in block:
            argv = shlex.split(line, comments=True)
            if len(argv) > 1 and argv[0].endswith("roc-dash") and argv[1] == "report" \
                    and not any(a.startswith("[") or a == "FILE..." for a in argv):
                out.append(argv)
    return out


def test_rdm001_paths_the_readme_names_exist():
    """Paths in backticks and links of README.md and docs/*.md (not ARCHITECTURE.md, whose
    worked example names the files of a view one would add; test_docs_links checks its
    links)."""
    text = "\n\n".join(p.read_text(encoding="utf-8") for p in PAGES
                        if p.name != "ARCHITECTURE.md")
    named = set(re.findall(r"`((?:roc_dash|scripts|bench|docs|tests|assets|\.ci)/[\w./-]+)`",
                           text))
    named |= set(re.findall(r"\]\(((?:docs|assets)/[^)\s#]+)[#)]", text))
    named |= {a for argv in report_commands() for k, a in enumerate(argv)
              if k > 1 and not a.startswith("-") and argv[k - 1] not in ("-o", "--output")
              and not re.fullmatch(r"[\d.]+", a) and argv[k - 1] not in (
                  "--cost-fn", "--cost-fp", "--format", "--prior", "--engine")}
    assert "roc_dash/data/demo_predictions.csv" in named
    data = ROOT / "roc_dash" / "data"
    for bare in re.findall(r"`(\w+_demo\.csv)`", README):  # "...multiclass_demo.csv`, `soft_..."
        assert (data / bare).is_file(), bare
    missing = sorted(p for p in named if not (ROOT / p).exists())
    assert missing == []
    assert not any("preds.csv" in " ".join(argv) for argv in report_commands())


@pytest.mark.slow
def test_rdm002_the_report_commands_run_as_written(tmp_path):
    """Each command in a fresh folder holding the checkout's roc_dash/ (so outputs land in
    tmp_path), with this interpreter's roc-dash."""
    (tmp_path / "roc_dash").symlink_to(ROOT / "roc_dash")
    commands = report_commands()
    assert len(commands) >= 2
    for argv in commands:
        out = subprocess.run([sys.executable, "-m", "roc_dash.cli", *argv[1:]], cwd=tmp_path,
                             capture_output=True, text=True, timeout=600)
        assert out.returncode == 0, (argv, out.stderr)
        if "-o" in argv:
            target = tmp_path / argv[argv.index("-o") + 1]
            assert target.stat().st_size > 0
    import json

    doc = json.loads((tmp_path / "report.json").read_text())
    assert doc["optimal"]["model"] == "logistic regression"
    assert "<html" in (tmp_path / "report.html").read_text()[:500].lower()


def test_rdm003_the_quoted_decision_summary_is_what_the_page_prints(tmp_path):
    from roc_dash.app.analysis import AnalysisCache
    from roc_dash.app.components import plain_text
    from roc_dash.app.render import decision_views
    from roc_dash.app.server.store import DEMO_ID, DatasetStore
    from roc_dash.core.analysis_types import Conditions
    from roc_dash.core.assembly.analysis import prevalence
    from roc_dash.core.decisions.economics import Economics

    text = " ".join(README.split())
    quoted = text.split('on the demo data: "', 1)[1].split('", then', 1)[0]
    ranges = text.split('the choice holds ("', 1)[1].split('", from', 1)[0]
    cache = AnalysisCache(DatasetStore(tmp_path / "data"))
    table = cache.store.get(DEMO_ID)
    models = sorted(set(table["model"]), key=list(table["model"]).index)
    analysis = cache.analysis([DEMO_ID], models, Conditions(prior_pos=prevalence(table)))
    strip, _ = decision_views(analysis, [], Economics(cost_fp=1.0, cost_fn=1.0))
    page = plain_text(strip)
    assert page.startswith(quoted)
    assert ranges in page
    assert "≥ 0.510192" in quoted


def gate_commands() -> list[list[str]]:
    """``roc-dash decide`` and ``check`` command lines of the runnable shell blocks of
    "Ship the decision and gate CI" (other pages' examples name files of their own)."""
    section = README.split("## Ship the decision and gate CI", 1)[1].split("\n## ", 1)[0]
    return [argv for block in shell_blocks(section) if not (block and TEMPLATE in block[0])
            for argv in map(shlex.split, block)
            if len(argv) > 1 and argv[0].endswith("roc-dash") and argv[1] in ("decide", "check")
            and not any(a.startswith("[") for a in argv)]


@pytest.mark.slow
def test_rdm004_the_ci_gate_commands_run_and_the_workflow_parses(tmp_path):
    """The decide/check commands of "Ship the decision and gate CI" run as written (check
    passes on the record decide just wrote); the output quoted is what check prints; the
    GitHub Actions step's command is one the parser accepts."""
    import json
    import xml.etree.ElementTree as ET

    from roc_dash.cli import _parser

    (tmp_path / "roc_dash").symlink_to(ROOT / "roc_dash")
    commands = gate_commands()
    assert [argv[1] for argv in commands] == ["decide", "check"]
    outs = []
    for argv in commands:
        out = subprocess.run([sys.executable, "-m", "roc_dash.cli", *argv[1:]], cwd=tmp_path,
                             capture_output=True, text=True, timeout=600)
        assert out.returncode == 0, (argv, out.stdout, out.stderr)
        outs.append(out.stdout)
    record = json.loads((tmp_path / "decision.json").read_text())
    assert record["model"] == "logistic regression" and record["conditions"]["cost_fn"] == 5
    assert ET.parse(tmp_path / "check.xml").getroot().get("failures") == "0"
    section = README.split("## Ship the decision and gate CI", 1)[1].split("\n## ", 1)[0]
    quoted = section.split("```\nPASS", 1)[1].split("```", 1)[0]
    printed = outs[1].splitlines()
    for line in ("PASS" + quoted).strip().splitlines():  # each quoted line starts a printed one
        head = line.split("…", 1)[0]
        assert any(p.startswith(head) for p in printed), line
    workflow = section.split("```yaml\n", 1)[1].split("```", 1)[0]
    step = workflow.split("- run: >\n", 1)[1].split("\n      - ", 1)[0]
    argv = shlex.split(" ".join(step.split()))
    assert argv[0] == "roc-dash" and argv[1] == "check"
    args = _parser().parse_args(argv[1:])
    assert (args.min_auc, args.not_worse_than, args.margin, args.junit) == (
        0.85, "production", 0.01, "roc-dash-check.xml")
