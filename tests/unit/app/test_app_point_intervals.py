"""Intervals at the chosen point in the page (features/intervals.py, issue 17 item 2): the
optimum and the pins the views show, with the core's numbers on the model's rows read here
with pandas, the optimum found by brute force, the text of the cells, and the cache."""

import math

import numpy as np
import pandas as pd
import pytest

from roc_dash.app import chosen_points
from roc_dash.app.analysis import model_names
from roc_dash.app.components import plain_text
from roc_dash.app.features import intervals as feature
from roc_dash.app.page_state import ModelRef, PageState, Pin
from roc_dash.app.server.store import DEMO_ID
from roc_dash.app.state import ControlState
from roc_dash.core.decisions.economics import Economics
from roc_dash.core.decisions.point_intervals import PointInterval, point_intervals
from tests.conftest import DATA
from tests.node_cases import run_cases

DEMO = DATA / "demo_predictions.csv"


def _page(state, pins=()):
    """The page's state: the demo, every model shown, the conditions ``state`` and the pins
    (``{"model", "threshold", "label"}`` of the demo's models)."""
    return PageState(conditions=ControlState.from_store(state), pins=tuple(
        Pin(p["label"], ModelRef(DEMO_ID, p["model"]), p["threshold"]) for p in pins))


def _rows(frame, model):
    rows = frame[frame["model"] == model]
    return rows["label"].to_numpy() == "pos", rows["score"].to_numpy(dtype=float)


def _cheapest(frame, prior, c_fp, c_fn):
    """(cost, model, threshold) of the cheapest point of every model, by brute force."""
    best = None
    for model, rows in frame.groupby("model"):
        y, s = rows["label"].to_numpy() == "pos", rows["score"].to_numpy()
        for t in np.unique(s):
            cost = prior * (1 - (s[y] >= t).mean()) * c_fn + (1 - prior) * (s[~y] >= t).mean() * c_fp
            if best is None or cost < best[0] - 1e-12:
                best = (cost, model, t)
    return best


def _same(a: PointInterval, b: PointInterval):
    for key in ("estimate", "low", "high"):
        x, y = getattr(a, key), getattr(b, key)
        assert (math.isnan(x) and math.isnan(y)) or x == y, key
    assert a.interval == b.interval and a.n == b.n


def test_pti001_optimum_and_pins_equal_the_core_on_the_models_rows(cache):
    frame = pd.read_csv(DEMO)
    models = model_names(cache, [DEMO_ID])
    state = ControlState(cost_fp=1.0, cost_fn=3.0, prior=0.3, prior_mode="manual").to_store()
    pins = [{"model": "naive Bayes", "threshold": 0.5, "label": "A"},
            {"model": models[0], "threshold": 0.3, "label": "B"},
            {"model": "naive Bayes", "threshold": 0.9, "label": "C"}]
    chosen = feature.chosen_intervals(cache, _page(state, pins), n_boot=60,
                                      seconds=600)
    assert [label for label, _, _ in chosen] == ["Optimum", "A", "B", "C"]
    # the optimum is the cheapest point of all models (brute force over every threshold)
    cost, model, threshold = _cheapest(frame, 0.3, 1.0, 3.0)
    label, op, u = chosen[0]
    assert op.model == model and u.threshold.estimate == threshold
    assert u.expected_cost.estimate == pytest.approx(cost, abs=1e-12)
    e = Economics(cost_fp=1.0, cost_fn=3.0)
    core = point_intervals(*_rows(frame, model), 0.3, e, n_boot=60, seed=feature.SEED)
    for attr in ("threshold", "tpr", "fpr", "precision", "npv", "lr_pos", "lr_neg",
                 "expected_cost"):
        _same(getattr(u, attr), getattr(core.optimum, attr))
    assert u.optimism.out_of_bag == core.optimum.optimism.out_of_bag
    # the pins: naive Bayes' two share its replicates, in order
    nb = point_intervals(*_rows(frame, "naive Bayes"), 0.3, e, pins=(0.5, 0.9), n_boot=60,
                         seed=feature.SEED)
    for (_label, op, got), want in zip([chosen[1], chosen[3]], nb.pins, strict=True):
        assert got.kind == "pin" and op.model == "naive Bayes"
        for attr in ("tpr", "fpr", "expected_cost"):
            _same(getattr(got, attr), getattr(want, attr))
    y, s = _rows(frame, models[0])
    assert chosen[2][2].tpr.estimate == pytest.approx((s[y] >= 0.3).mean())


def test_pti002_cells_read_estimate_and_interval():
    iv = PointInterval(0.81234, 0.7702, 0.85, "percentile", 10, 0, np.zeros(10))
    assert feature.interval_text(iv) == "0.81234 [0.7702–0.85]"  # 6 significant digits
    fixed = PointInterval(0.5, 0.5, 0.5, "fixed", 10, 0, np.zeros(10))
    assert feature.interval_text(fixed) == "0.5"
    inf = PointInterval(12.5, 4.0, math.inf, "percentile", 10, 3, np.zeros(10))
    assert feature.interval_text(inf) == "12.5 [4–∞]"
    none = PointInterval(math.nan, math.nan, math.nan, "none", 0, 0, np.zeros(0))
    assert feature.interval_text(none) == "n/a"


def test_pti003_table_has_every_row_and_the_out_of_bag_cost(cache):
    model_names(cache, [DEMO_ID])
    state = ControlState(prior=0.3, prior_mode="manual").to_store()
    chosen = feature.chosen_intervals(cache, _page(state, []), n_boot=40,
                                      seconds=600)
    text = plain_text(feature.intervals_table(chosen))
    for name, attr, _ in feature.ROWS:
        assert f"{name} {feature.interval_text(getattr(chosen[0][2], attr))}" in text
    o = chosen[0][2].optimism
    assert "Out-of-bag cost of the choice" in text and feature._number(o.out_of_bag) in text
    assert "40 of 40 replicates" in text
    assert "No intervals" in plain_text(feature.intervals_table([]))


def test_pti004_cached_per_conditions(cache, monkeypatch):
    calls = []
    real = chosen_points.point_intervals

    def counted(*args, **kwargs):
        calls.append(args[2])
        return real(*args, **kwargs)

    monkeypatch.setattr(chosen_points, "point_intervals", counted)
    model_names(cache, [DEMO_ID])
    state = ControlState(prior=0.3, prior_mode="manual").to_store()
    first = feature.chosen_intervals(cache, _page(state, []), n_boot=20)
    again = feature.chosen_intervals(cache, _page(state, []), n_boot=20)
    assert len(calls) == 1 and again[0][2] is first[0][2]
    other = ControlState(prior=0.2, prior_mode="manual").to_store()
    feature.chosen_intervals(cache, _page(other, []), n_boot=20)
    assert calls == [0.3, 0.2]


def test_pti005_roc_boxes_are_the_fpr_and_tpr_intervals(cache):
    from roc_dash.figures.point_regions import point_region_shapes

    model_names(cache, [DEMO_ID])
    state = ControlState(prior=0.3, prior_mode="manual").to_store()
    pins = [{"model": "naive Bayes", "threshold": 0.5, "label": "B"}]
    chosen = feature.chosen_intervals(cache, _page(state, pins), n_boot=40)
    boxes = feature.regions(chosen, det=False)
    assert [b["name"] for b in boxes] == ["point-region-optimum", "point-region-B"]
    for box, (_, _, u) in zip(boxes, chosen, strict=True):
        assert (box["x0"], box["x1"]) == (u.fpr.low, u.fpr.high)
        assert (box["y0"], box["y1"]) == (u.tpr.low, u.tpr.high)
        # layout shapes in data coordinates, under the traces and plotly's drag layer
        assert (box["type"], box["xref"], box["yref"], box["layer"]) == ("rect", "x", "y",
                                                                          "between")
    assert feature.regions(chosen, det=True) == []
    # an undefined interval draws no box
    u = chosen[0][2]
    nan = PointInterval(math.nan, math.nan, math.nan, "none", 0, 0, np.zeros(0))
    broken = type(u)(**{**u.__dict__, "fpr": nan})
    assert point_region_shapes([("", "m", broken)]) == []


@pytest.mark.parametrize("log_fpr", [False, True])
def test_pti011_a_click_moving_the_box_patches_the_roc_layout_only(cache, log_fpr):
    """A change of costs that moves the optimum, its intervals known: the ROC's patch puts
    the optimum's new box into ``layout.shapes`` after the iso line (shapes[0]) and touches
    no ``data`` entry (so plotly recomputes no trace of the view); on a log FPR axis, where
    the iso line is a sampled curve (a trace that does move), none but that curve's, and the
    box's FPR = 0 side sits at the axis's floor."""
    import copy
    import json

    import plotly.io as pio
    from dash import Patch
    from dash._utils import to_json

    from roc_dash.app.render import update_views
    from roc_dash.app.view_patches import regions_drawn

    model_names(cache, [DEMO_ID])

    def page(c_fp, c_fn):
        return PageState(conditions=ControlState(cost_fp=c_fp, cost_fn=c_fn, prior=0.3,
                                                 prior_mode="manual"), log_fpr=log_fpr)

    first, second = page(1.0, 1.0), page(0.2, 5.0)
    named = update_views(cache, first, {"threshold_axis": "threshold"}, None)
    drawn, viz = json.loads(pio.to_json(named["roc"])), named["viz"]
    before = feature.regions(feature.chosen_intervals(cache, first, seconds=120), det=False)
    # the intervals callback's boxes, as the browser puts them (REPLACE_REGIONS)
    drawn["layout"]["shapes"] = drawn["layout"]["shapes"] + before
    chosen = feature.chosen_intervals(cache, second, seconds=120)  # cached: the views draw it
    after = feature.regions(chosen, det=False)
    assert regions_drawn(after) != regions_drawn(before)  # the optimum moved
    named = update_views(cache, second, {"threshold_axis": "threshold"}, viz,
                         conditions_changed=True)
    assert isinstance(named["roc"], Patch)
    ops = json.loads(to_json(named["roc"]))["operations"]
    touched = {op["location"][1] for op in ops if op["location"][0] == "data"}
    assert touched == ({viz["iso_trace"]} if log_fpr else set()), touched
    slot = len(drawn["layout"]["shapes"]) - 1
    boxes = [op for op in ops if op["location"][:2] == ["layout", "shapes"]
             and op["location"][2] != 0]
    assert [op["location"] for op in boxes] == [["layout", "shapes", slot]]
    box = boxes[0]["params"]["value"]
    floor = viz["xlog"]
    want = copy.deepcopy(after[0])
    if log_fpr:
        want["x0"], want["x1"] = max(want["x0"], floor), max(want["x1"], floor)
    assert box == want
    assert named["viz"]["regions"] == regions_drawn(after)


def test_pti006_deadline_cuts_replicates_and_the_cut_result_is_not_kept(cache, monkeypatch):
    model_names(cache, [DEMO_ID])
    state = ControlState(prior=0.3, prior_mode="manual").to_store()
    cut = feature.chosen_intervals(cache, _page(state, []), n_boot=2000,
                                   seconds=-1.0)  # the deadline has passed: one block only
    u = cut[0][2]
    assert u.n_boot_used < 2000 and any("deadline" in n for n in u.notes)
    calls = []
    real = chosen_points.point_intervals
    monkeypatch.setattr(chosen_points, "point_intervals",
                        lambda *a, **k: calls.append(1) or real(*a, **k))
    full = feature.chosen_intervals(cache, _page(state, []), n_boot=2000,
                                    seconds=600)
    assert calls == [1] and full[0][2].n_boot_used == 2000
    text = plain_text(feature.intervals_table(cut))
    assert f"{u.n_boot_used} of 2000 replicates" in text


#: Runs features/intervals.py's REPLACE_REGIONS (argv[2]) on the cases in argv[3].
_REPLACE_DRIVER = """
const fs = require('fs');
global.window = {dash_clientside: {no_update: '__none__'}};
const replace = eval('(' + fs.readFileSync(process.argv[2], 'utf8') + ')');
const out = JSON.parse(fs.readFileSync(process.argv[3], 'utf8')).map(([boxes, fig]) => {
  const got = replace(boxes, fig);
  return got === '__none__' ? null : {shapes: got.layout.shapes, same_data: got.data === fig.data,
                                      meta: got.layout.meta};
});
process.stdout.write(JSON.stringify(out));
"""


@pytest.mark.slow  # needs node, which the quick tier does not install
def test_pti012_replace_regions_swaps_the_box_shapes_and_leaves_the_traces(tmp_path):
    """The clientside callback that puts the intervals callback's boxes into the drawn ROC
    replaces the shapes named ``point-region-*`` after the iso line (``shapes[0]``, where
    the drag code expects it), clips their FPR side at a log axis's floor, hands on the
    traces as they were (the same array: plotly recomputes none), and changes nothing when
    there is nothing to replace."""
    import shutil

    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.fail("node is not installed: `make node-deps` (Debian's nodejs) runs this test")
    line = {"type": "line", "name": "iso-performance line", "x0": 0, "y0": 0.2, "x1": 1,
            "y1": 0.9}
    old = {"type": "rect", "name": "point-region-optimum", "x0": 0.1, "x1": 0.2, "y0": 0.5,
           "y1": 0.6}
    new = [{**old, "x0": 0.0, "x1": 0.3}, {**old, "name": "point-region-A", "x0": 0.4}]
    data = [{"type": "scatter", "uid": "curve", "x": [0, 1], "y": [0, 1]}]
    cases = [[new, {"data": data, "layout": {"shapes": [line, old]}}],
             [new, {"data": data, "layout": {"shapes": [line], "meta": {"xlog": 0.001}}}],
             [[], {"data": data, "layout": {"shapes": [line, old]}}],
             [[], {"data": data, "layout": {"shapes": [line]}}]]
    got = run_cases(tmp_path, node, feature.REPLACE_REGIONS, _REPLACE_DRIVER, cases)
    assert got[0]["shapes"] == [line, *new] and got[0]["same_data"]
    assert got[1]["shapes"] == [line, {**new[0], "x0": 0.001}, new[1]] and got[1]["same_data"]
    assert got[2]["shapes"] == [line] and got[2]["same_data"]
    assert got[3] is None
