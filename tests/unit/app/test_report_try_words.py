"""The HTML report's "Try other costs and priors" under a capacity or floors (rtc001-rtc002):
its controls recompute the optimum under the costs and the prior alone (the one rule over
the hulls), so under constraints the report says that they leave them out, in the page's
export and in ``roc-dash report --capacity``."""

from __future__ import annotations

import html
import re

from roc_dash.cli import main
from roc_dash.figures.style import format_threshold

from . import test_app_constrained_strip as strip_tests
from .test_app_constrained_report import _operating_box, _report, exports  # noqa: F401
from .test_app_constrained_strip import _brute
from .test_app_constraints import DEMO

page_of = strip_tests.page_of  # the strip tests' fixture: the demo under their conditions


def _try(text: str) -> tuple[str, str]:
    """The header's link sentence and the controls' paragraph (plain text)."""
    link = re.search(r'<a href="#rr-try">Try other costs and priors</a>([^<]*)</p>', text)
    para = re.search(r'<h2 id="rr-try">Try other costs and priors</h2>\s*<p class="muted">'
                     r"(.*?)</p>", text, re.S)
    return html.unescape(link.group(1)), " ".join(html.unescape(para.group(1)).split())


def test_rtc001_under_a_capacity_the_controls_say_they_leave_it_out(page_of, exports):  # noqa: F811
    cache, store, page = page_of(capacity="10%")
    report = _report(exports, cache, store, page)
    # what the controls show at the exported conditions (the optimum without the
    # capacity) is not the point the capacity chose: brute force over the demo file
    _, model, t = _brute(lambda *_: True)
    _, model_k, t_k = _brute(lambda tpr, fpr, flagged: flagged <= 0.1)
    assert (model, t) != (model_k, t_k)
    assert _operating_box(report).endswith(f"score ≥ {format_threshold(t_k)}")
    link, para = _try(report)
    assert link == " (no server needed; the optimum without the capacity of 10% cases)."
    assert "This page leaves out the capacity of 10% cases: once moved, the controls show " \
           "the optimum under the costs and the prior alone" in para
    # none met: the headline is the optimum, and the controls still leave the floors out
    _, _, none = page_of(floors="recall >= 0.99; fpr <= 0.001")
    _, para = _try(_report(exports, cache, store, none))
    assert "This page leaves out the floors recall ≥ 0.99; FPR ≤ 0.001: once moved" in para
    # without constraints: as before
    _, _, plain = page_of()
    link, para = _try(_report(exports, cache, store, plain))
    assert link == " (no server needed)." and "leaves out" not in para


def test_rtc002_the_command_lines_report_says_it_too(tmp_path):
    out = tmp_path / "report.html"
    assert main(["report", str(DEMO), "--capacity", "5%", "--format", "html",
                 "-o", str(out)]) == 0
    link, para = _try(out.read_text())
    assert link == " (no server needed; the optimum without the capacity of 5% cases)."
    assert "This page leaves out the capacity of 5% cases" in para
