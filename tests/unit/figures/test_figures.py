"""Figures: every view from the same analysis, thinned, linked by customdata."""

import numpy as np
import pandas as pd
import pytest

from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import analyse
from roc_dash.figures import cost_figure, pr_figure, roc_figure
from roc_dash.figures.roc import iso_line_endpoints
from roc_dash.text.rounding import sig


@pytest.fixture(scope="module")
def big_analysis():
    rng = np.random.default_rng(0)
    n = 200_000
    y = rng.random(n) < 0.3
    table = pd.DataFrame({"label": y, "score": rng.normal(y * 1.0, 1.0),
                          "model": np.where(rng.random(n) < 0.5, "a", "b"),
                          "fold": rng.integers(1, 4, n).astype(str), "weight": 1.0})
    return analyse(table, Conditions(prior_pos=0.3, cost_fn=2))


@pytest.mark.parametrize("averaging", ["none", "pooled", "vertical", "threshold"])
def test_fig001_no_trace_above_2000_vertices(big_analysis, averaging):
    figs = [roc_figure(big_analysis, averaging=averaging), roc_figure(big_analysis, det=True),
            pr_figure(big_analysis), cost_figure(big_analysis)]
    assert len(big_analysis.models[0].curve) > 50_000
    for fig in figs:
        for trace in fig.data:
            assert len(trace.x) <= 2000, (trace.name, len(trace.x))


def test_fig002_customdata_links_points_to_models(big_analysis):
    names = [m.name for m in big_analysis.models]
    for fig in (roc_figure(big_analysis), pr_figure(big_analysis), cost_figure(big_analysis)):
        for trace in fig.data:
            if trace.customdata is None:
                continue
            for row in trace.customdata[:50]:
                if len(row) == 1:  # a +inf vertex (style.threshold_rows): its model only
                    assert -1 <= row[0] < len(names)
                    continue
                index, threshold, fpr, tpr, shown = row  # shown: hvr007
                assert -1 <= index < len(names)
                if index >= 0 and threshold == threshold:  # not NaN (+inf)
                    curve = big_analysis.models[int(index)].curve
                    k = np.searchsorted(-curve.thresholds, -threshold)
                    assert curve.thresholds[k] == threshold
                    if "achievable" not in trace.name and "hull" not in (trace.name or ""):
                        assert (curve.fpr[k], curve.tpr[k]) == pytest.approx((fpr, tpr), abs=0.02)


def test_fig003_iso_line_is_tangent_at_the_optimum(big_analysis):
    fig = roc_figure(big_analysis)
    line = fig.layout.shapes[0]
    opt = big_analysis.optimal
    m = big_analysis.conditions.slope
    assert (line.y1 - line.y0) / (line.x1 - line.x0) == pytest.approx(m)
    # the line passes through the optimal vertex and lies on or above the joint hull
    assert line.y0 + m * (opt.fpr - line.x0) == pytest.approx(opt.tpr)
    hull = big_analysis.hull
    assert np.all(opt.tpr + m * (hull.fpr - opt.fpr) >= hull.tpr - 1e-12)
    for f, t, s in [(0.2, 0.6, 0.5), (0.0, 0.0, 3.0), (0.5, 0.9, 0.01)]:
        x0, y0, x1, y1 = iso_line_endpoints(f, t, s)
        assert 0 <= x0 <= x1 <= 1 and -1e-12 <= y0 and y1 <= 1 + 1e-12


def test_fig004_every_view_reserves_a_named_hover_marker(big_analysis):
    """The hover marker is its own annotation; the PR view's iso-F1 labels stay put."""
    pr = pr_figure(big_analysis)
    names = [a.name for a in pr.layout.annotations]
    assert names.count("hover") == 1
    assert [a.text for a in pr.layout.annotations if a.name != "hover"] == [
        "F1=0.2", "F1=0.4", "F1=0.6", "F1=0.8", "★"]  # and the optimum's star, last
    for fig in (roc_figure(big_analysis), cost_figure(big_analysis)):
        assert [a.name for a in fig.layout.annotations].count("hover") == 1


def test_fig005_colours_follow_the_model_not_its_position(big_analysis):
    """With a colour map, a model keeps its line style whatever else is shown."""
    from roc_dash.figures.style import PALETTE

    colors = {"zzz": 0, "a": 1, "b": 2}
    for fig in (roc_figure(big_analysis, colors=colors), pr_figure(big_analysis, colors=colors),
                cost_figure(big_analysis, colors=colors)):
        styled = {t.name.split(" ")[0]: t.line.color for t in fig.data
                  if t.name and t.name.split(" ")[0] in ("a", "b")}
        assert styled == {"a": PALETTE[1], "b": PALETTE[2]}
    assert "#F0E442" not in PALETTE and "#56B4E9" not in PALETTE  # no yellow or sky blue


def test_fig006_zoom_is_kept_and_bad_zoom_ignored(big_analysis):
    from roc_dash.app.render import apply_zoom

    fig = roc_figure(big_analysis)
    apply_zoom(fig, {"roc": {"x": [0.2, 0.4], "y": [0.5, 0.9], "det": False}}, "roc")
    assert list(fig.layout.xaxis.range) == [0.2, 0.4] and list(fig.layout.yaxis.range) == [0.5, 0.9]
    for junk in ({"roc": {"x": ["a", 1]}}, {"roc": {"x": [0, 1], "det": True}}, "x", None):
        fig = roc_figure(big_analysis)
        apply_zoom(fig, junk, "roc")
        assert list(fig.layout.xaxis.range) == [-0.01, 1.01]


def test_fig007_model_list_swatches_are_current():
    """The stylesheet's swatches are the figures' line styles, position by position."""
    from importlib import resources

    from roc_dash.figures.style import swatch_css

    css = (resources.files("roc_dash") / "assets" / "style.css").read_text()
    assert swatch_css() in css
    assert "nth-child(24n+2) .dash-options-list-option-text::before { border-top-color: #332288;" \
        " border-top-style: dashed; }" in swatch_css()


def test_fig008_tie_bounds_band_and_prg_mode():
    """Tie bounds drawn around tied curves; PRG mode draws gains; AP at the deployment prior."""
    from roc_dash.app.server.store import load_demo
    from roc_dash.core.roc.curve_geometry import tie_bounds
    from roc_dash.core.roc.precision_recall import average_precision_from_curve
    from roc_dash.core.roc.precision_recall_gain import prg_auc

    analysis = analyse(load_demo().table, Conditions(prior_pos=0.1))
    roc = roc_figure(analysis, ties=True)
    bands = [t for t in roc.data if "tie bounds" in (t.name or "")]
    assert len(bands) == len(analysis.models) and all(t.fill == "toself" for t in bands)
    tree = analysis.model("decision tree")  # few distinct scores: wide bounds
    b = tie_bounds(tree.curve)
    assert b.pessimistic_auc < tree.auc < b.optimistic_auc
    span = f"{sig(b.pessimistic_auc)}–{sig(b.optimistic_auc)}"
    assert span in next(t.name for t in bands if t.name.startswith("decision tree"))
    # the demo has 10 folds: the tie bounds are of the pooled curve, and the legend says so
    assert f"decision tree (AUC {sig(tree.auc)} pooled, ties {span})" in [t.name for t in roc.data]
    assert not [t for t in roc_figure(analysis).data if "tie bounds" in (t.name or "")]
    pr = pr_figure(analysis)
    ap = average_precision_from_curve(tree.curve, prevalence=0.1)
    assert f"decision tree (AP {sig(ap)})" in [t.name for t in pr.data]
    prg = pr_figure(analysis, mode="prg")
    assert prg.layout.meta["prg"] and "Precision gain" in prg.layout.yaxis.title.text
    name = f"decision tree (AUPRG {sig(prg_auc(tree.curve, prevalence=0.1))})"
    trace = next(t for t in prg.data if t.name == name)
    assert np.nanmax(trace.x) <= 1 and np.nanmin(trace.x) >= 0


@pytest.mark.slow
def test_fig009_dict_built_figures_pass_plotly_validation_unchanged():
    """The threshold, cost, PR and ROC views are built as plain dicts without validation (redrawn on
    every change); plotly's validated constructor accepts them and gives the same figures."""
    import json

    import plotly.graph_objects as go

    from roc_dash.app.server.store import load_demo
    from roc_dash.core.decisions.economics import Economics
    from roc_dash.core.decisions.operating import pinned_points
    from roc_dash.figures.threshold import threshold_figure

    analysis = analyse(load_demo().table, Conditions(prior_pos=0.27, cost_fn=3))
    names = [m.name for m in analysis.models]
    pins = pinned_points(analysis, [{"model": names[1], "threshold": 0.5, "label": "A"}])
    for economics in (Economics(cost_fp=1, cost_fn=3),
                      Economics(cost_fp=2, cost_fn=1, benefit_tp=1, unit="€")):
        for axis in ("threshold", "flagged"):
            for model in names:
                fig = threshold_figure(analysis, model, economics, axis=axis, pins=pins,
                                       font_size=20)
                checked = go.Figure(json.loads(fig.to_json()))  # validated, raises if invalid
                assert json.loads(checked.to_json()) == json.loads(fig.to_json())
                assert fig.layout.meta["model"] == model
                assert f"optimum of {model}" in [t.name for t in fig.data]
    colors = {n: k for k, n in enumerate(names)}
    for kw in ({}, {"pins": pins, "colors": colors, "font_size": 20}):
        for fig in (cost_figure(analysis, **kw), pr_figure(analysis, **kw),
                    *(roc_figure(analysis, averaging=a, ties=True, **kw)
                      for a in ("none", "pooled", "vertical", "threshold"))):
            checked = go.Figure(json.loads(fig.to_json()))
            assert json.loads(checked.to_json()) == json.loads(fig.to_json())
            assert {"optimum at PC(+)", "optimal operating point"} & {t.name for t in fig.data}


def test_fig010_legend_scrolls_within_a_third_of_the_figure(big_analysis):
    # two datasets, pins and constraints add legend entries: the legend must scroll inside a
    # bounded share of the figure's height rather than squeeze the plot to a thumbnail
    # (plotly's default for a horizontal legend is half the height)
    for fig in (roc_figure(big_analysis), pr_figure(big_analysis), cost_figure(big_analysis)):
        legend = fig.layout.legend
        assert legend.orientation == "h"
        assert legend.maxheight is not None and 0 < legend.maxheight <= 0.3
    # presentation mode's legend in a column beside the plot keeps the plot's whole height
    from roc_dash.figures.style import presentation_legend

    fig = roc_figure(big_analysis)
    presentation_legend(fig, beside=True)
    assert fig.layout.legend.orientation == "v" and fig.layout.legend.maxheight == 1
