"""The standalone HTML report (issue 19): the hulls it embeds for its script, its lossless
curves, its size and that it needs no network. The script itself is checked in Chromium
(tests/browser/test_standalone_browser.py)."""

from __future__ import annotations

import json
import math
import re
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest

from roc_dash.app.server.store import load_demo
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import analyse, with_conditions
from roc_dash.core.decisions.operating import operating_point
from roc_dash.figures import roc_figure
from roc_dash.report.html import LOSSLESS, render_html
from roc_dash.report.html_interactive import interactive_payload


@pytest.fixture(scope="module")
def demo():
    return analyse(load_demo().table, Conditions())


@pytest.fixture(scope="module")
def demo_page(demo):
    return render_html(demo)


def _num(v):
    return {"inf": math.inf, "-inf": -math.inf, "nan": math.nan}.get(v, v)


def test_sdl001_each_vertex_carries_the_point_operating_point_names(demo):
    """For settings that make each joint-hull vertex optimal, the embedded row of that vertex
    is what ``operating_point`` computes from the model's curve."""
    payload = json.loads(json.dumps(interactive_payload(demo)))  # as the page reads it
    joint = payload["joint"]
    np.testing.assert_array_equal(joint["fpr"], demo.hull.fpr)
    np.testing.assert_array_equal(joint["tpr"], demo.hull.tpr)
    rng = np.random.default_rng(3)
    seen = set()
    c = demo.conditions
    for _ in range(300):
        cfp, cfn, p = 10 ** rng.uniform(-2, 2), 10 ** rng.uniform(-2, 2), rng.uniform(.01, .99)
        a = with_conditions(demo, Conditions(cost_fp=cfp, cost_fn=cfn, prior_pos=p,
                                             fpr_max=c.fpr_max, level=c.level))
        k, ref = a.optimal.optimum.index, operating_point(a)
        seen.add(k)
        assert joint["model"][k] == ref.model
        assert _num(joint["point_threshold"][k]) == ref.threshold
        assert (joint["point_fpr"][k], joint["point_tpr"][k]) == (ref.fpr, ref.tpr)
        assert [joint[x][k] for x in ("tp", "fp", "fn", "tn")] == [ref.tp, ref.fp, ref.fn,
                                                                   ref.tn]
    assert len(seen) > 3  # several vertices were visited
    for m, row in zip(demo.models, payload["models"], strict=True):
        assert row["name"] == m.name
        assert [_num(t) for t in row["hull"]["threshold"]] == m.hull.thresholds.tolist()


def _on_polyline(px, py, x, y) -> bool:
    """Brute force: (px, py) lies on one of the segments of the polyline (x, y)."""
    for x0, y0, x1, y1 in zip(x[:-1], y[:-1], x[1:], y[1:], strict=True):
        cross = (x1 - x0) * (py - y0) - (y1 - y0) * (px - x0)
        inside = min(x0, x1) - 1e-12 <= px <= max(x0, x1) + 1e-12 and \
            min(y0, y1) - 1e-12 <= py <= max(y0, y1) + 1e-12
        if inside and abs(cross) <= 1e-12:
            return True
    return False


def test_sdl002_drawn_curves_pass_through_every_vertex():
    """The report's ROC curves drop only repeated and collinear vertices, also beyond the
    page's 2,000 drawn vertices: every vertex of the curve lies on the drawn polyline."""
    rng = np.random.default_rng(7)
    n = 8000
    y = rng.random(n) < 0.4
    scores = np.round(rng.normal(y * 1.2, 1.0), 4)  # some ties: collinear runs
    table = pd.DataFrame({"model": "m", "fold": "1", "id": np.arange(n).astype(str),
                          "label": y, "score": scores, "weight": 1.0})
    a = analyse(table, Conditions())
    curve = a.models[0].curve
    fig = roc_figure(a, max_vertices=LOSSLESS)
    drawn = next(t for t in fig.data if t.legendgroup == "m")
    x, yy = np.asarray(drawn.x), np.asarray(drawn.y)
    assert 2000 < x.size <= curve.fpr.size  # more than the page draws
    order = np.argsort(x, kind="stable")
    for px, py in zip(curve.fpr, curve.tpr, strict=True):
        # the segments around the point's abscissa only (the curve is monotone)
        lo = max(int(np.searchsorted(x[order], px, "left")) - 2, 0)
        hi = int(np.searchsorted(x[order], px, "right")) + 2
        assert _on_polyline(px, py, x[lo:hi], yy[lo:hi]), (px, py)


class _Refs(HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("src", "href", "data", "action", "poster") and value:
                self.refs.append((tag, name, value))


def test_sdl003_demo_file_is_small_and_needs_no_network(demo_page):
    size = len((demo_page + "\n").encode("utf-8"))
    assert size < 5_000_000, size  # the "< 5 MB"; plotly.js alone is 4,815,814 bytes
    parser = _Refs()
    parser.feed(demo_page)  # script bodies are not parsed as markup: only the page's tags
    for tag, name, value in parser.refs:
        if re.match(r"\s*(https?:)?//", value):
            assert tag == "a" and name == "href", (tag, name, value)  # a plain text link
    assert not re.search(r"<(link|iframe|img|embed|object)\b", demo_page, re.I)
    assert "@import" not in demo_page and "url(http" not in demo_page
    assert demo_page.count("<script src") == 0


def test_sdl006_the_embedded_plotlyjs_is_the_installed_one(tmp_path):
    """The demo's file as ``roc-dash report --format html`` writes it: under 5,000,000 bytes,
    and its compressed payload, base64-decoded and gunzipped by the standard library, is
    byte for byte the plotly.js that plotly.py ships (``plotly/package_data/plotly.min.js``,
    read from the package's folder, not through our code)."""
    import base64
    import gzip
    from pathlib import Path

    import plotly

    from roc_dash.cli import main

    target = tmp_path / "report.html"
    demo_csv = Path(__file__).parents[3] / "roc_dash" / "data" / "demo_predictions.csv"
    assert main(["report", str(demo_csv), "--format", "html", "-o", str(target)]) == 0
    raw = target.read_bytes()
    assert len(raw) < 5_000_000, len(raw)
    page = raw.decode("utf-8")
    found = re.findall(r'<script type="application/gzip;base64" id="rr-plotly">([^<]*)</script>',
                       page)
    assert len(found) == 1
    shipped = (Path(plotly.__file__).parent / "package_data" / "plotly.min.js").read_bytes()
    assert gzip.decompress(base64.b64decode(found[0], validate=True)) == shipped
    assert len(found[0]) < len(shipped) / 2  # the point of it
    # nothing else carries plotly.js: the file without the payload is small
    assert len(raw) - len(found[0]) < 500_000


def _layouts(page):
    """The layouts of the report's three figures, from the JSON the loader draws them from."""
    out = [json.loads(m)["layout"] for m in re.findall(
        r'<script type="application/json" class="rr-figure" data-target="rr-\w+">(.*?)</script>',
        page, re.S)]
    assert len(out) == 3
    return out


def test_sdl004_zoom_reaches_the_figures_a_det_zoom_does_not(demo):
    zoom = {"roc": {"x": [0.0123, 0.4567], "y": [0.25, 1.0], "det": False},
            "pr": {"x": [0.1, 0.9], "y": None}, "cost": {"x": "bad", "y": [0, 0.3]}}
    roc, pr, cost = _layouts(render_html(demo, zoom=zoom))
    assert roc["xaxis"]["range"] == [0.0123, 0.4567] and roc["yaxis"]["range"] == [0.25, 1.0]
    assert pr["xaxis"]["range"] == [0.1, 0.9]
    assert cost["yaxis"]["range"] == [0, 0.3] and cost["xaxis"].get("range") != "bad"
    roc, _, _ = _layouts(render_html(demo, zoom={"roc": {"x": [0.0123, 0.4567], "det": True}}))
    assert roc["xaxis"].get("range") != [0.0123, 0.4567]


def test_sdl005_a_hostile_model_name_stays_text():
    """A model name that closes the script element stays inside the embedded JSON."""
    rng = np.random.default_rng(1)
    n = 200
    y = rng.random(n) < 0.5
    evil = "</script><img src=x onerror=alert(1)>"
    table = pd.DataFrame({"model": evil, "fold": "1", "id": np.arange(n).astype(str),
                          "label": y, "score": rng.normal(y * 1.0, 1.0), "weight": 1.0})
    page = render_html(analyse(table, Conditions()))
    parser = _Refs()
    parser.feed(page)
    assert not [r for r in parser.refs if r[0] == "img"]  # no element made of the name
    assert "</script><img" not in page
    data = re.search(r'<script type="application/json" id="rr-data">(.*?)</script>', page,
                     re.S).group(1)
    assert json.loads(data)["models"][0]["name"] == evil
