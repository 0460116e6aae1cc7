"""Big models on screen (issue 19, item 4): the log FPR axis, the DET view's iso line and
optimum, and the zoom carried by exported figures.

Independent checks: the curve's points are computed here with scikit-learn's ``roc_curve``,
the optimum by a brute-force scan of the hull vertices for the expected cost, DET
coordinates with ``scipy.stats.norm.ppf``, and the iso line's equation is evaluated here.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm
from sklearn.metrics import roc_curve

from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import analyse
from roc_dash.figures.marks import RING_NOTE, STAR_NOTE, note_index
from roc_dash.figures.roc import OPTIMUM_UID, roc_figure
from roc_dash.figures.roc_axes import ISO_UID, det_iso_curve, iso_curve, log_fpr_floor
from roc_dash.figures.zoom import zoom_figure


def _binormal(n_pos=400, n_neg=4000, d=3.3, seed=19):
    """A seeded binormal model with AUC = Phi(d / sqrt 2) ~ 0.99."""
    rng = np.random.default_rng(seed)
    y = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
    s = np.r_[rng.normal(d, 1, n_pos), rng.normal(0, 1, n_neg)]
    return pd.DataFrame({"label": y, "score": s, "model": "big", "fold": "1",
                         "weight": 1.0})


@pytest.fixture(scope="module")
def big():
    table = _binormal()
    return table, analyse(table, Conditions(prior_pos=0.1, cost_fp=1, cost_fn=5))


def _trace(fig, uid):
    return next(t for t in fig.data if t.uid == uid)


def _brute_optimum(analysis):
    """The hull vertex with the least expected cost, by a scan (Fawcett 2004, 7.1)."""
    c = analysis.conditions
    p = c.prior_pos
    h = analysis.hull
    cost = c.cost_fp * (1 - p) * h.fpr + c.cost_fn * p * (1 - h.tpr)
    k = int(np.argmin(cost + 1e-12 * h.fpr))  # ties: the vertex flagging fewer
    return h.fpr[k], h.tpr[k]


def test_lgf001_auc_is_big(big):
    table, analysis = big
    assert analysis.models[0].auc > 0.985


def test_lgf002_axis_is_log_and_points_drawn_at_their_fpr(big):
    table, analysis = big
    fig = roc_figure(analysis, log_fpr=True)
    assert fig.layout.xaxis.type == "log"
    fpr, tpr, _ = roc_curve(table.label, table.score, drop_intermediate=False)
    floor = log_fpr_floor(analysis)
    n_neg = int((~table.label).sum())
    assert floor == pytest.approx(1 / (2 * n_neg))
    curve = next(t for t in fig.data if t.name and t.name.startswith("big"))
    x, y = np.asarray(curve.x, float), np.asarray(curve.y, float)
    # customdata rows [model, threshold, fpr, tpr]; the +inf vertex (0, 0) keeps only its model
    true_fpr = np.array([r[2] if len(r) > 2 else 0.0 for r in curve.customdata], float)
    drawn = true_fpr > 0
    # every drawn point with FPR > 0 sits at its FPR; FPR = 0 sits at the floor
    np.testing.assert_array_equal(x[drawn], true_fpr[drawn])
    np.testing.assert_array_equal(x[~drawn], floor)
    # ... and each drawn point is a point of scikit-learn's curve
    pts = set(zip(np.round(fpr, 12), np.round(tpr, 12), strict=True))
    assert all((round(a, 12), round(b, 12)) in pts for a, b in zip(true_fpr, y, strict=True))
    # the axis starts left of the floor (in decades, as plotly's log ranges are)
    lo, hi = fig.layout.xaxis.range
    assert lo < math.log10(floor) and hi >= 0
    assert f"FPR = 0 drawn at {floor:.2g}" in fig.layout.xaxis.title.text
    # hovers read the true FPR, not the drawn one
    assert "customdata[2]" in curve.hovertemplate and "%{x:" not in curve.hovertemplate


def test_lgf003_optimum_marker_and_ring_at_core_optimum(big):
    _, analysis = big
    fig = roc_figure(analysis, log_fpr=True)
    f, t = _brute_optimum(analysis)
    star, ring = (_note(fig, n) for n in (STAR_NOTE, RING_NOTE))
    # annotations on a log axis are placed by log10 of the value
    assert (10 ** star.x, star.y) == pytest.approx((f, t))
    assert (10 ** ring.x, ring.y) == pytest.approx((f, t))
    assert f > 0  # the optimum of this model is not on the axis: drawn where it is
    assert (math.log10(analysis.optimal.fpr), analysis.optimal.tpr) == (star.x, star.y)


def test_lgf004_iso_curve_is_the_line(big):
    _, analysis = big
    fig = roc_figure(analysis, log_fpr=True)
    iso = _trace(fig, ISO_UID)
    # no straight line shown, none to grab: the hidden one lies outside the figure
    assert [(s.opacity, s.xref, s.x0 < 0) for s in fig.layout.shapes] == [(0, "paper", True)]
    x, y = np.asarray(iso.x, float), np.asarray(iso.y, float)
    f, t = _brute_optimum(analysis)
    c = analysis.conditions
    m = c.cost_fp * (1 - c.prior_pos) / (c.cost_fn * c.prior_pos)
    np.testing.assert_allclose(y, t + m * (x - f), atol=1e-12)
    assert len(x) > 100 and np.all(np.diff(x) > 0)
    assert x[0] >= log_fpr_floor(analysis) and x[-1] <= 1
    # it passes through the optimum: the line there, between two samples
    assert np.interp(f, x, y) == pytest.approx(t, abs=1e-9)


@pytest.mark.parametrize("slope", [0.0, 0.3, 1.0, 7.0, math.inf])
def test_lgf005_iso_curve_stays_in_square(slope):
    x, y = iso_curve(0.2, 0.7, slope, x_min=1e-3)
    assert np.all((y >= 0) & (y <= 1)) and np.all((x >= 1e-3) & (x <= 1) | np.isinf(slope))
    if math.isfinite(slope):
        np.testing.assert_allclose(y, 0.7 + slope * (x - 0.2), atol=1e-12)


def test_lgf006_linear_axis_unchanged(big):
    _, analysis = big
    lin = roc_figure(analysis)
    assert lin.layout.xaxis.type in (None, "linear", "-")
    assert len(lin.layout.shapes) == 1 and not any(t.uid == ISO_UID for t in lin.data)


def test_lgf007_det_iso_line_and_optimum_against_scipy(big):
    _, analysis = big
    fig = roc_figure(analysis, det=True)
    f, t = _brute_optimum(analysis)
    star = _trace(fig, OPTIMUM_UID)
    assert (star.x[0], star.y[0]) == pytest.approx((norm.ppf(f), norm.ppf(1 - t)))
    iso = _trace(fig, ISO_UID)
    u, v = np.asarray(iso.x, float), np.asarray(iso.y, float)
    c = analysis.conditions
    m = c.cost_fp * (1 - c.prior_pos) / (c.cost_fn * c.prior_pos)
    # back to ROC space with scipy: every sample lies on TPR = t + m (FPR - f)
    np.testing.assert_allclose(1 - norm.cdf(v), t + m * (norm.cdf(u) - f), atol=1e-9)
    assert len(u) > 100
    # the curve passes through the optimum's DET point
    assert np.interp(norm.ppf(f), u, v) == pytest.approx(norm.ppf(1 - t), abs=1e-3)


def test_lgf008_det_curve_points_against_scipy(big):
    table, analysis = big
    fig = roc_figure(analysis, det=True)
    curve = next(t for t in fig.data if t.name and t.name.startswith("big"))
    data = np.asarray(curve.customdata, float)
    np.testing.assert_allclose(curve.x, norm.ppf(data[:, 2]))
    np.testing.assert_allclose(curve.y, norm.ppf(1 - data[:, 3]))


def test_lgf009_det_iso_vertical_and_edges():
    u, v = det_iso_curve(0.3, 0.8, math.inf)
    np.testing.assert_allclose(u, norm.ppf([0.3, 0.3]))
    u, v = det_iso_curve(0.0, 1.0, math.inf)  # on the axis: nothing to draw
    assert u.size == 0


def test_lgf010_zoom_applies_to_exported_figure(big):
    _, analysis = big
    fig = roc_figure(analysis)
    out = zoom_figure(fig, {"roc": {"x": [0.0, 0.1], "y": [0.8, 1.0], "det": False}}, "roc")
    assert tuple(out.layout.xaxis.range) == (0.0, 0.1)
    assert tuple(out.layout.yaxis.range) == (0.8, 1.0)
    assert fig.layout.xaxis.range != out.layout.xaxis.range  # a copy, fig untouched
    # a zoom taken on other axes (DET, or linear FPR for a log figure) is not applied
    log = roc_figure(analysis, log_fpr=True)
    same = zoom_figure(log, {"roc": {"x": [0.0, 0.1], "y": [0.8, 1.0]}}, "roc")
    assert tuple(same.layout.xaxis.range) == tuple(log.layout.xaxis.range)
    zoomed = zoom_figure(log, {"roc": {"x": [-3, -1], "y": [0.8, 1], "xlog": True}}, "roc")
    assert tuple(zoomed.layout.xaxis.range) == (-3, -1)
    for bad in (None, {}, {"roc": "x"}, {"roc": {"x": ["a", 1]}}, {"roc": {"x": [0, math.nan]}}):
        assert zoom_figure(fig, bad, "roc").layout.xaxis.range == fig.layout.xaxis.range


# -- the page: the control, the link, a render and a cost-only patch ---------------------
def test_lgf011_link_carries_the_axis():
    from roc_dash.app.state import parse_query

    assert parse_query("?xlog=1")["log_fpr"] == ["log"]
    assert parse_query("?xlog=0")["log_fpr"] == []
    assert "log_fpr" not in parse_query("?cfn=2")


def _views(cache, ids_, models, state, *, log_fpr, viz=None, det=None, changed=False):
    from roc_dash.app.page_state import ModelRef, PageState
    from roc_dash.app.render import RENDERED, update_views
    from roc_dash.app.state import ControlState

    page = PageState(datasets=tuple(ids_), conditions=ControlState.from_store(state),
                     models=tuple(ModelRef(ids_[0], m) for m in models), det=bool(det),
                     log_fpr=log_fpr)  # the models of the one dataset
    named = update_views(cache, page, {"threshold_axis": "threshold"}, viz,
                         conditions_changed=changed)
    return tuple(named.get(k) for k in RENDERED)  # render_views' order


def _patched(patch, fig: dict, index: int, field: str, part: str = "data"):
    """The value a ``dash.Patch`` assigns to ``data[index][field]`` (``part="annotations"``:
    to ``layout.annotations[index][field]``), else the figure's."""
    where = ["data", index, field] if part == "data" else ["layout", part, index, field]
    for op in patch.to_plotly_json()["operations"]:
        if op["location"] == where and op["operation"] == "Assign":
            return op["params"]["value"]
    return fig["data"][index][field] if part == "data" else fig["layout"][part][index][field]


def _note(fig, name):
    return fig.layout.annotations[note_index(fig.layout.annotations, name)]


def test_lgf012_page_render_and_patch_on_log_axis(tmp_path):
    from roc_dash.app.analysis import AnalysisCache, model_names
    from roc_dash.app.server.store import DatasetStore
    from roc_dash.app.state import ControlState

    store = DatasetStore(tmp_path)
    dataset = store.put(_binormal(), files=["big.csv"]).id
    cache = AnalysisCache(store)
    ids_ = [dataset]
    models = model_names(cache, ids_)
    assert len(models) == 1
    state = ControlState(prior=0.1).to_store()
    out = _views(cache, ids_, models, state, log_fpr=True)
    roc, viz = out[0], out[4]
    assert roc.layout.xaxis.type == "log" and viz["xlog"] == roc.layout.meta["xlog"]
    assert roc.data[viz["iso_trace"]].uid == ISO_UID
    # new costs: a patch, and what it draws equals a fresh render under those costs
    new_state = ControlState(prior=0.1, cost_fn=20.0).to_store()
    patched = _views(cache, ids_, models, new_state, log_fpr=True, viz=viz, changed=True)
    fresh = _views(cache, ids_, models, new_state, log_fpr=True)[0]
    from dash import Patch

    assert isinstance(patched[0], Patch)  # patched, not redrawn
    drawn = roc.to_plotly_json()
    k = next(i for i, t in enumerate(fresh.data) if t.uid == ISO_UID)
    for field in ("x", "y"):
        np.testing.assert_allclose(np.asarray(_patched(patched[0], drawn, k, field), float),
                                   np.asarray(fresh.data[k][field], float))
    for name in (STAR_NOTE, RING_NOTE):  # the star and ring: annotations, x in decades
        k = note_index(fresh.layout.annotations, name)
        assert k == note_index(roc.layout.annotations, name)
        for field in ("x", "y"):
            assert _patched(patched[0], drawn, k, field, "annotations") == pytest.approx(
                fresh.layout.annotations[k][field], rel=1e-12)
    # linear axes and DET do not turn log
    assert _views(cache, ids_, models, state, log_fpr=False)[0].layout.xaxis.type != "log"
    det = _views(cache, ids_, models, state, log_fpr=True, det=["det"])[0]
    assert det.layout.xaxis.type != "log" and det.layout.meta["det"]


def test_lgf013_pins_drawn_at_their_fpr_or_the_floor(big):
    from roc_dash.core.decisions.operating import pinned_points

    table, analysis = big
    # a threshold above every score (FPR = 0) and one inside the negatives' range
    top = float(table.score.max()) + 1
    pins = pinned_points(analysis, [{"model": "big", "threshold": top, "label": "A"},
                                    {"model": "big", "threshold": 1.5, "label": "B"}])
    fig = roc_figure(analysis, log_fpr=True, pins=pins)
    drawn = {t.name: (t.x[0], t.y[0]) for t in fig.data if (t.name or "").startswith("pinned")}
    floor = log_fpr_floor(analysis)
    negatives = table.score[~table.label]
    positives = table.score[table.label]
    want = {"A": (floor, 0.0),
            "B": (float((negatives >= 1.5).mean()), float((positives >= 1.5).mean()))}
    assert len(drawn) == 2
    for name, (x, y) in drawn.items():
        label = name.split()[1].rstrip(":")  # "pinned A: big"
        assert (x, y) == pytest.approx(want[label]), name


def test_lgf014_det_patch_moves_the_iso_curve(tmp_path):
    from dash import Patch

    from roc_dash.app.analysis import AnalysisCache, model_names
    from roc_dash.app.server.store import DatasetStore
    from roc_dash.app.state import ControlState

    store = DatasetStore(tmp_path)
    ids_ = [store.put(_binormal(), files=["big.csv"]).id]
    cache = AnalysisCache(store)
    models = model_names(cache, ids_)
    out = _views(cache, ids_, models, ControlState(prior=0.1).to_store(), log_fpr=False,
                 det=["det"])
    new_state = ControlState(prior=0.1, cost_fn=20.0).to_store()
    patched = _views(cache, ids_, models, new_state, log_fpr=False, det=["det"], viz=out[4],
                     changed=True)[0]
    fresh = _views(cache, ids_, models, new_state, log_fpr=False, det=["det"])[0]
    assert isinstance(patched, Patch)
    drawn = out[0].to_plotly_json()
    moved = False
    for uid in (ISO_UID, OPTIMUM_UID):
        k = next(i for i, t in enumerate(fresh.data) if t.uid == uid)
        for field in ("x", "y"):
            got = np.asarray(_patched(patched, drawn, k, field), float)
            np.testing.assert_allclose(got, np.asarray(fresh.data[k][field], float))
            moved |= got.shape != np.shape(drawn["data"][k][field]) or not np.allclose(
                got, np.asarray(drawn["data"][k][field], float))
    assert moved  # the costs moved the optimum and the curve
