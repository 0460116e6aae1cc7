"""Names are drawn as plain text (issue 14 item 7): a model, class, fold, leaf or unit named
``<a href="http://x">...</a>`` must not become a link (or bold, or a line break) in a legend,
a hover label, a title, a tick label or the HTML report. Plotly reads a subset of HTML in
every string it draws; every name goes through ``roc_dash.figures.style.plain`` once."""

from __future__ import annotations

import re

import numpy as np
import plotly.graph_objects as go
import pytest

from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import analyse
from roc_dash.core.assembly.combining_views import budget_view, superiority_view
from roc_dash.core.assembly.extensions import (
    analyse_leaves,
    analyse_multiclass,
    concavity_repairs,
)
from roc_dash.core.decisions.economics import Economics
from roc_dash.core.decisions.operating import operating_point, pinned_points
from roc_dash.figures import cost_figure, pr_figure, roc_figure
from roc_dash.figures.combining import add_budget, add_repair, superiority_figure
from roc_dash.figures.kinds import add_labelings, class_curves_figure, pairwise_figure
from roc_dash.figures.style import plain, presentation_legend
from roc_dash.figures.threshold import threshold_figure
from roc_dash.io import load_predictions
from tests.figure_text import drawn_strings

EVIL = '<a href="http://x.test">m</a><b>B</b>'
ESCAPED = '&lt;a href="http://x.test"&gt;'


def _csv_cell(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def _assert_plain(fig, *, must_show=True):
    text = drawn_strings(fig)
    assert "<a " not in text and "</a>" not in text, text[:500]
    assert EVIL not in text and "<b>B</b>" not in text
    if must_show:
        assert ESCAPED in text  # the name is there, as text


@pytest.fixture(scope="module")
def binary():
    rng = np.random.default_rng(4)
    rows = ["model,fold,label,score"]
    for model, sep in ((EVIL, 2.0), ("plain model", 0.8)):
        for i in range(400):
            y = int(rng.random() < 0.4)
            fold = EVIL if i % 2 else "f2"
            rows.append(f"{_csv_cell(model)},{_csv_cell(fold)},{y},"
                        f"{1 / (1 + np.exp(-(rng.normal() + sep * y))):.5f}")
    table = load_predictions([("evil.csv", "\n".join(rows).encode())]).table
    assert EVIL in set(table["model"])
    return analyse(table, Conditions(prior_pos=0.4, cost_fn=2.0))


def test_esc001_plain_escapes_markup_once():
    assert plain(EVIL) == '&lt;a href="http://x.test"&gt;m&lt;/a&gt;&lt;b&gt;B&lt;/b&gt;'
    assert plain("R&D <3") == "R&amp;D &lt;3"
    assert plain("a &lt; b") == "a &amp;lt; b"  # an entity in a name stays as typed
    assert plain(12) == "12" and plain("plain") == "plain"


@pytest.mark.parametrize("averaging", ["pooled", "none", "vertical", "threshold"])
def test_esc002_roc_pr_cost_and_threshold_views(binary, averaging):
    opt = operating_point(binary)
    assert opt.model == EVIL
    pins = pinned_points(binary, [{"model": EVIL, "threshold": opt.threshold, "label": "A"}])
    roc = roc_figure(binary, averaging=averaging, operating=opt, pins=pins, ties=True)
    _assert_plain(roc)
    presentation_legend(roc)
    _assert_plain(roc)
    _assert_plain(roc_figure(binary, det=True, pins=pins))
    _assert_plain(pr_figure(binary, pins=pins))
    _assert_plain(pr_figure(binary, pins=pins, mode="prg"))
    _assert_plain(cost_figure(binary, pins=pins))
    economics = Economics(cost_fp=1.0, cost_fn=2.0, unit='<a href="http://x.test">€</a>')
    _assert_plain(threshold_figure(binary, EVIL, economics, pins=pins))


def test_esc003_combining_views(binary):
    fig = go.Figure()
    add_repair(fig, concavity_repairs(binary)[EVIL], EVIL)
    add_budget(fig, budget_view(binary, 50.0, population=1000))
    _assert_plain(fig)
    _assert_plain(superiority_figure(superiority_view(binary, EVIL, "plain model")))


def _multiclass(classes, n, seed, boost, name="mc.csv"):
    """The multi-class analysis of ``n`` rows of model "m" cycling through ``classes``, each
    row's own class's probability raised by ``boost`` before normalising."""
    rng = np.random.default_rng(seed)
    rows = ["model,class," + ",".join(_csv_cell(f"score_{c}") for c in classes)]
    for i in range(n):
        k = i % len(classes)
        s = rng.random(len(classes))
        s[k] += boost
        s = s / s.sum()
        rows.append(f"m,{_csv_cell(classes[k])}," + ",".join(f"{v:.4f}" for v in s))
    table = load_predictions([(name, "\n".join(rows).encode())]).table
    return analyse_multiclass(table)[0]


def test_esc004_class_and_leaf_names():
    result = _multiclass([EVIL, "b", "c"], 300, 1, 1.0)
    _assert_plain(class_curves_figure(result.result, EVIL))
    _assert_plain(pairwise_figure(result.result, EVIL))
    leaves = "leaf,pos,neg\n" + "\n".join(f"{_csv_cell(EVIL + str(k))},{k + 1},{5 - k}"
                                          for k in range(4))
    table = load_predictions([("tree.csv", leaves.encode())]).table
    result = analyse_leaves(table)[0]
    _assert_plain(add_labelings(go.Figure(), result, model_index=0, style=0))


def test_esc005_html_report(binary):
    from roc_dash.report.html import ReportState, render_html

    opt = operating_point(binary)
    page = render_html(binary, state=ReportState(operating=opt, pins=(opt,),
                                                 datasets=(EVIL,), note=EVIL))
    assert "<a href=\"http://x.test\"" not in page
    # inside the figures' JSON the raw name is only a legend group's id, never drawn
    raw = [m.start() for m in re.finditer(r"\\u003ca href", page)]
    assert raw and all(page[k - 15:k] == '"legendgroup":"' for k in raw)
    assert "&lt;a href" in page  # the tables and the note (html.escape)
    assert '"name":"&lt;a href=' in page  # a legend entry, as text


def test_esc006_pairwise_cells_fit_hover_keeps_six_digits():
    """Review of 2026-11-29: with 4 classes at 1280 px the cells' 6-digit values ran together
    ("0.9052840.876499"). Cells say 3 decimals; the hover keeps the page's 6 digits."""
    result = _multiclass(["a", "b", "c", "d"], 400, 2, 0.7, "mc4.csv").result
    heat = pairwise_figure(result, "m").data[0]
    z = np.asarray(result.pairwise, dtype=float)
    for row_text, row_z in zip(heat.text, z, strict=True):
        for cell, v in zip(row_text, row_z, strict=True):
            assert cell == ("" if np.isnan(v) else f"{v:.3f}"), (cell, v)
    assert "%{z:" in heat.hovertemplate
