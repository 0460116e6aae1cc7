"""The calibration card and its download (roc_dash.app.features.calibration), checked against
scikit-learn on the demo file read with pandas."""

import numpy as np
import pandas as pd
import pytest
from sklearn.calibration import calibration_curve
from sklearn.isotonic import IsotonicRegression
from sklearn.metrics import brier_score_loss

from roc_dash.app.analysis import AnalysisCache
from roc_dash.app.features.calibration import (
    calibrated_frame,
    calibration_outputs,
    calibration_table,
    model_calibrations,
)
from roc_dash.app.page_state import ModelRef, PageState
from roc_dash.app.render import RENDERED, update_views
from roc_dash.app.server.store import DEMO_ID, DatasetStore
from roc_dash.app.state import ControlState, parse_query
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.inference.calibration import calibration
from tests.conftest import DATA
from tests.conftest import DEMO_MODELS as MODELS

DEMO = DATA / "demo_predictions.csv"


@pytest.fixture
def demo(tmp_path):
    cache = AnalysisCache(DatasetStore(tmp_path))
    return cache, cache.analysis([DEMO_ID], MODELS, Conditions())


def test_cpg001_calibrated_scores_are_sklearn_isotonic(demo):
    cache, analysis = demo
    frame = calibrated_frame(cache.table([DEMO_ID]), model_calibrations(analysis))
    raw = pd.read_csv(DEMO)
    assert len(frame) == len(raw) and list(pd.unique(frame["model"])) == MODELS
    for model, rows in raw.groupby("model"):
        y = (rows["label"] == "pos").to_numpy(float)
        s = rows["score"].to_numpy(float)
        iso = IsotonicRegression(out_of_bounds="clip").fit(s, y)
        got = frame[frame["model"] == model].set_index("id").loc[rows["id"].astype(str)]
        np.testing.assert_allclose(got["score"].to_numpy(float), s)
        np.testing.assert_allclose(got["calibrated_probability"].to_numpy(float),
                                   iso.predict(s), atol=1e-12)


def test_cpg002_table_numbers_are_sklearns(demo):
    _, analysis = demo
    raw = pd.read_csv(DEMO)
    for strategy in ("uniform", "quantile"):
        results = model_calibrations(analysis, n_bins=5, strategy=strategy)
        for model, rows in raw.groupby("model"):
            y = (rows["label"] == "pos").to_numpy(int)
            s = rows["score"].to_numpy(float)
            cal = results[model]
            assert cal.brier == pytest.approx(brier_score_loss(y, s), abs=1e-12)
            frac, mean = calibration_curve(y, s, n_bins=5, strategy=strategy)
            np.testing.assert_allclose(cal.fraction_positive, frac, atol=1e-12)
            np.testing.assert_allclose(cal.mean_predicted, mean, atol=1e-12)
            # ECE by hand: bins as calibration_curve assigns them
            edges = cal.edges
            b = np.searchsorted(edges[1:-1], s)
            ece = sum(abs(y[b == k].mean() - s[b == k].mean()) * (b == k).sum()
                      for k in np.unique(b)) / len(s)
            assert cal.ece == pytest.approx(ece, abs=1e-12)


def test_cpg003_outputs_say_when_scores_are_not_probabilities(demo):
    _, analysis = demo
    fig, table = calibration_outputs(analysis, MODELS, n_bins=10)
    names = [t.name for t in fig.data]
    assert sum("hull-calibrated" in n for n in names) == 4
    text = str(table)
    for model in MODELS:
        assert model in text
    # scores outside [0, 1]: a note in the table, no Brier
    raw = pd.read_csv(DEMO)
    raw = raw[raw["model"] == "naive Bayes"].assign(score=lambda d: d["score"] * 10 - 3)
    cal = calibration((raw["label"] == "pos").to_numpy(), raw["score"].to_numpy())
    assert not cal.in_unit_interval and "not probabilities" in cal.note
    cell = str(calibration_table({"x": cal}, {}))
    assert "not probabilities" in cell and "n/a" in cell


def _views(cache, state, viz=None, *, changed=False, cost_mode="decision"):
    page = PageState(conditions=ControlState.from_store(state), cost_mode=cost_mode,
                     models=tuple(ModelRef(DEMO_ID, m) for m in MODELS))
    view = {"threshold_axis": "threshold",
            "combine": {"budget": None, "unit": "cases", "repair": None, "logic": False}}
    named = update_views(cache, page, view, viz, conditions_changed=changed)
    return tuple(named.get(k) for k in RENDERED)  # render_views' order


def _best_net_benefit(raw, prior, p_t):
    """Brute force: the best net benefit of any model at any threshold, or of treating
    nobody or everybody (Vickers & Elkin 2006)."""
    odds = p_t / (1 - p_t)
    best = max(0.0, prior - (1 - prior) * odds)
    for _, rows in raw.groupby("model"):
        y = (rows["label"] == "pos").to_numpy()
        s = rows["score"].to_numpy()
        for t in np.unique(s):
            best = max(best, prior * (s[y] >= t).mean() - (1 - prior) * (s[~y] >= t).mean() * odds)
    return best


def test_cpg004_decision_mode_draws_the_decision_curve_and_follows_costs(demo):
    cache, _ = demo
    raw = pd.read_csv(DEMO)
    prior = float((raw["label"] == "pos").mean())
    state = ControlState(prior=prior).to_store()
    out = _views(cache, state)
    fig, viz = out[2], out[4]
    assert fig.layout.meta["view"] == "decision" and viz["cost_mode"] == "decision"
    assert fig.layout.shapes[0].x0 == 0.5
    star = fig.data[viz["optimum_trace"][2]]
    assert star.uid == "optimum" and star.x[0] == 0.5
    assert star.y[0] == pytest.approx(_best_net_benefit(raw, prior, 0.5), abs=1e-12)
    # the model's own curve: treat iff score >= p_t, counted here
    lr = next(t for t in fig.data if t.name == "logistic regression")
    rows = raw[raw["model"] == "logistic regression"]
    y, s = (rows["label"] == "pos").to_numpy(), rows["score"].to_numpy()
    for p_t, nb in zip(lr.x[::10], lr.y[::10], strict=True):
        tp, fp = (s[y] >= p_t).sum(), (s[~y] >= p_t).sum()
        assert nb == pytest.approx(tp / len(s) - fp / len(s) * p_t / (1 - p_t), abs=1e-12)

    # a new c(FN) (the patch path of the views): the whole decision curve, marker at p_t
    moved = _views(cache, {**state, "cost_fn": 3.0}, viz, changed=True)
    fig = moved[2]
    assert fig.layout.shapes[0].x0 == pytest.approx(0.25, abs=1e-15)
    assert fig.layout.meta["net_benefit"] == pytest.approx(
        _best_net_benefit(raw, prior, 0.25), abs=1e-12)
    # back to the cost curves: no decision mode left in the drawn figure or the viz data
    back = _views(cache, state, moved[4], cost_mode="cost")
    assert "cost_mode" not in back[4] and "pc_pos" in back[2].layout.meta


def test_cpg005_cost_mode_in_the_link():
    assert parse_query("?cfn=2&cm=decision")["cost_mode"] == "decision"
    assert parse_query("?cm=cost")["cost_mode"] == "cost"
    for junk in ("?cm=", "?cm=Decision", "?cm=../x", "?cm=" + "d" * 999):
        assert "cost_mode" not in parse_query(junk), junk


def test_cpg006_html_report_calibration_and_decision_numbers(demo):
    import re

    from roc_dash.report.html import calibration_html, render_html

    _, analysis = demo  # unit costs: p_t = 0.5
    raw = pd.read_csv(DEMO)
    prior = float((raw["label"] == "pos").mean())
    text = calibration_html(analysis)
    assert text in render_html(analysis)
    cells = re.findall(r"<tr>(.*?)</tr>", text)
    for model, rows in raw.groupby("model"):
        y = (rows["label"] == "pos").to_numpy(int)
        s = rows["score"].to_numpy(float)
        row = next(c for c in cells if f">{model}<" in c and "net" not in c)
        assert f"{brier_score_loss(y, s):.6g}" in row
        # the model's net benefit at p_t = 0.5: treat iff score >= 0.5, counted here
        nb = ((s >= 0.5) & (y == 1)).sum() / len(s) - ((s >= 0.5) & (y == 0)).sum() / len(s)
        dc_row = [c for c in cells if f">{model}<" in c][1]
        assert f">{nb:.6g}<" in dc_row
    joint = next(c for c in cells if "joint hull" in c)
    assert f">{_best_net_benefit(raw, prior, 0.5):.6g}<" in joint
    treat_all = next(c for c in cells if "treat all" in c)
    assert f">{prior - (1 - prior):.6g}<" in treat_all


def test_cpg007_calibrated_frame_keeps_weights_and_datasets():
    rng = np.random.default_rng(7)
    n = 300
    y = rng.random(n) < 0.3
    s = np.round(np.clip(rng.normal(0.3 + 0.3 * y, 0.2), 0, 1), 2)  # ties
    w = rng.integers(1, 4, n).astype(float)
    table = pd.DataFrame({"label": y, "score": s, "model": "m", "fold": "all", "weight": w,
                          "dataset": np.where(np.arange(n) < 150, "a.csv", "b.csv")})
    cal = calibration(y, s, weights=w)
    assert cal.brier == pytest.approx(np.average((s - y) ** 2, weights=w), abs=1e-12)
    frame = calibrated_frame(table, {"m": cal})
    assert list(frame.columns) == ["model", "dataset", "fold", "label", "score", "weight",
                                   "calibrated_probability"]
    assert set(frame["label"]) == {0, 1}
    iso = IsotonicRegression(out_of_bounds="clip").fit(s, y.astype(float), sample_weight=w)
    np.testing.assert_allclose(frame["calibrated_probability"], iso.predict(s), atol=1e-12)


def test_cpg008_card_redrawn_for_new_data_or_bins_not_for_new_costs(tmp_path):
    from dash.exceptions import PreventUpdate

    from roc_dash.app import create_app

    app = create_app(store=DatasetStore(tmp_path))
    fn = app.callback_map["..cal-graph.figure...cal-table.children...cal-drawn.data.."][
        "callback"].__wrapped__
    keys = [f"{DEMO_ID}/{m}" for m in MODELS]

    def view(viz, n_bins, state, drawn):
        page = {"datasets": [DEMO_ID], "models": (keys, None), "conditions": state,
                "level": 0.95, "band": "pointwise", "samples": 51}
        out = fn(viz=viz, n_bins=n_bins, strategy="uniform", presentation=[], tab="compare",
                 page=page, drawn=drawn)
        return out["figure"], out["table"], out["drawn"]

    state = ControlState(prior=0.3).to_store()
    viz = {"key": "k1", "cost_fp": 1.0}
    fig, table, drawn = view(viz, 10, state, None)
    # the diagram's 9 traces, and each model's interval bars (the bands)
    assert len([t for t in fig.data if "band" not in (t.name or "")]) == 9
    assert drawn == ["k1", 10, "uniform", False]
    with pytest.raises(PreventUpdate):  # new costs: same views key
        view({**viz, "cost_fp": 5.0}, 10, {**state, "cost_fp": 5.0}, drawn)
    fig, _, _ = view(viz, 5, state, drawn)  # other bins: drawn again
    assert max(len(t.x) for t in fig.data if "Brier" in (t.name or "")) <= 5
