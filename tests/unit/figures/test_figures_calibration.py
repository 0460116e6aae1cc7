"""The reliability diagram and the decision-curve view (fcd001-fcd008): every trace read back
against the core results it draws, names escaped, colours from the shared style, hovers with
6 significant digits, and the dict-built figures accepted unchanged by plotly's validation."""

import json

import numpy as np
import plotly.graph_objects as go
import pytest

from roc_dash.core.decisions.decision_curve import decision_curve, hull_net_benefit
from roc_dash.core.inference.calibration import calibration
from roc_dash.core.roc.curves import roc_curve
from roc_dash.core.roc.hull import hull_of_curves
from roc_dash.figures.calibration import DIAGONAL_NAME, calibration_figure
from roc_dash.figures.decision_curve import (
    JOINT_NAME,
    TREAT_ALL,
    TREAT_NONE,
    decision_curve_figure,
)
from roc_dash.figures.roc import OPTIMUM_UID
from roc_dash.figures.style import PALETTE
from tests.figure_text import drawn_strings

HOSTILE = '<a href="http://x">m</a>'
SAFE = "&lt;a href=\"http://x\"&gt;m&lt;/a&gt;"


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(11)
    n = 1500
    y = rng.random(n) < 0.3
    p = np.round(1 / (1 + np.exp(-(1.3 * rng.normal(size=n) + 2 * y - 1.8))), 3)
    over = np.clip(0.5 + 1.8 * (p - 0.5), 0, 1)
    margin = rng.normal(size=n) + y  # not probabilities
    return y, {"logistic": p, HOSTILE: over, "margin": margin}


def _by_name(fig, name):
    found = [t for t in fig.data if t.name == name]
    assert len(found) == 1, [t.name for t in fig.data]
    return found[0]


def test_fcd001_reliability_and_hull_map_traces_are_the_core_numbers(data):
    y, scores = data
    results = {k: calibration(y, s, n_bins=8) for k, s in scores.items() if k != "margin"}
    fig = calibration_figure(results)
    assert _by_name(fig, DIAGONAL_NAME).x == (0, 1)
    for name, cal in results.items():
        label = name.replace(HOSTILE, SAFE)
        rel = _by_name(fig, f"{label} (Brier {cal.brier:.6g}, ECE {cal.ece:.6g})")
        np.testing.assert_array_equal(rel.x, cal.mean_predicted)
        np.testing.assert_array_equal(rel.y, cal.fraction_positive)
        cd = np.array(rel.customdata)
        np.testing.assert_array_equal(cd[:, 0], cal.edges[cal.bin])
        np.testing.assert_array_equal(cd[:, 1], cal.edges[cal.bin + 1])
        np.testing.assert_array_equal(cd[:, 2], cal.count)
        hm = cal.hull_map
        step = _by_name(fig, f"{label} hull-calibrated (PAV)")
        assert step.line.shape == "hv"
        np.testing.assert_array_equal(step.y[:-1], hm.probability)
        np.testing.assert_array_equal(step.x[:-1], np.maximum(hm.lower, hm.score_min))
        assert step.x[-1] == hm.score_max
        # every step's hover names its score range and probability with 6 significant digits
        for k in range(len(hm)):
            assert f"probability {hm.probability[k]:.6g}" in step.text[k]
            # 6 digits, rounded down where rounding would go up past the bound
            shown = step.text[k].split("scores ≥ ")[1].split("<br>")[0].split(" ")[0]
            assert float(shown) <= hm.lower[k]
            six, unit = float(f"{hm.lower[k]:.6g}"), 10.0 ** (
                np.floor(np.log10(abs(hm.lower[k]))) - 5)
            assert float(shown) == pytest.approx(six if six <= hm.lower[k] else six - unit,
                                                 rel=1e-12)


def test_fcd002_names_escaped_and_colours_from_the_style(data):
    y, scores = data
    results = {k: calibration(y, s) for k, s in scores.items()}
    fig = calibration_figure(results, colors={HOSTILE: 5, "logistic": 2, "margin": 0})
    names = [t.name for t in fig.data]
    assert not any(HOSTILE in n for n in names) and any(SAFE in n for n in names)
    for trace in fig.data[1:]:
        owner = next(k for k in ("logistic", SAFE, "margin") if trace.name.startswith(k))
        index = {"logistic": 2, SAFE: 5, "margin": 0}[owner]
        assert trace.line.color == PALETTE[index]
    rel = next(t for t in fig.data if t.name.startswith("logistic (Brier"))
    for part in ("%{x:.6~g}", "%{y:.6~g}", "%{customdata[2]:.6~g}", "%{customdata[0]:.6~g}"):
        assert part in rel.hovertemplate
    assert SAFE in fig.layout.title.text or "margin" in fig.layout.title.text


def test_fcd003_scores_that_are_not_probabilities_show_the_hull_map_only(data):
    y, scores = data
    fig = calibration_figure({"margin": calibration(y, scores["margin"])})
    assert [t.name for t in fig.data] == ["margin hull-calibrated (PAV)"]  # no diagonal
    assert fig.layout.xaxis.autorange is True and fig.layout.xaxis.title.text == "Score"
    assert "not probabilities" in fig.layout.title.text
    mixed = calibration_figure({"logistic": calibration(y, scores["logistic"]),
                                "margin": calibration(y, scores["margin"])})
    assert DIAGONAL_NAME in [t.name for t in mixed.data]
    assert not any(t.name.startswith("margin (Brier") for t in mixed.data)


@pytest.fixture(scope="module")
def decision(data):
    y, scores = data
    curves = {k: decision_curve(y, s) for k, s in scores.items()}
    pi = curves["logistic"].prior_pos
    joint_hull = hull_of_curves({k: roc_curve(y, s) for k, s in scores.items()})
    joint = hull_net_benefit(joint_hull, prior_pos=pi)
    current = hull_net_benefit(joint_hull, [0.15], prior_pos=pi)
    return curves, joint, current


def test_fcd004_decision_curve_traces_are_the_core_numbers(decision):
    curves, joint, current = decision
    fig = decision_curve_figure(curves, joint=joint, current=current)
    first = curves["logistic"]
    np.testing.assert_array_equal(_by_name(fig, TREAT_NONE).y, first.treat_none)
    np.testing.assert_array_equal(_by_name(fig, TREAT_ALL).y, first.treat_all)
    for i, (name, dc) in enumerate(curves.items()):
        label = name.replace(HOSTILE, SAFE)
        hull = _by_name(fig, f"{label} hull (best threshold per p<sub>t</sub>)")
        np.testing.assert_array_equal(hull.x, dc.threshold_probability)
        np.testing.assert_array_equal(hull.y, dc.hull.net_benefit)
        cd = np.array(hull.customdata, dtype=float)
        assert (cd[:, 0] == i).all()
        finite = np.isfinite(dc.hull.threshold)
        np.testing.assert_array_equal(cd[finite, 1], dc.hull.threshold[finite])
        assert np.isnan(cd[~finite, 1]).all()  # +inf (treat none) travels as null
        if dc.in_unit_interval:
            model = _by_name(fig, label)
            np.testing.assert_array_equal(model.y, dc.net_benefit)
            np.testing.assert_array_equal(np.array(model.customdata)[:, 1],
                                          dc.threshold_probability)
            # p_t (x) is the threshold: printed as the page writes thresholds (hvr007)
            assert "%{customdata[4]:.6~g}" in model.hovertemplate
            assert "%{y:.6~g}" in model.hovertemplate
    assert "margin" not in [t.name for t in fig.data]  # margins: no model curve
    joint_trace = _by_name(fig, JOINT_NAME)
    np.testing.assert_array_equal(joint_trace.y, joint.net_benefit)
    for text, model in zip(joint_trace.text, joint.model, strict=True):
        assert (str(model).replace(HOSTILE, SAFE) or "treat") in text


def test_fcd005_current_p_t_marker_and_read_off(decision):
    curves, joint, current = decision
    fig = decision_curve_figure(curves, joint=joint, current=current)
    shape = fig.layout.shapes[0]
    assert shape.x0 == shape.x1 == 0.15 and shape.name == "current p_t"
    star = next(t for t in fig.data if t.uid == OPTIMUM_UID)
    assert star.x == (0.15,) and star.y == (current.net_benefit[0],)
    assert fig.layout.annotations[0].name == "hover"
    read = fig.layout.annotations[1]
    assert read.text == f"p<sub>t</sub> = 0.15<br>net benefit {current.net_benefit[0]:.6g}"
    assert fig.layout.meta["p_t"] == 0.15
    bare = decision_curve_figure(curves, p_t=0.3)
    assert bare.layout.shapes[0].x0 == 0.3 and len(bare.layout.annotations) == 1
    assert not any(t.uid == OPTIMUM_UID for t in bare.data)
    assert decision_curve_figure(curves).layout.shapes[0].visible is False


def test_fcd006_colours_and_model_indices_follow_the_analysis(decision):
    curves, _, _ = decision
    fig = decision_curve_figure(curves, colors={"logistic": 4}, hull=False,
                                model_indices={"logistic": 7})
    model = _by_name(fig, "logistic")
    assert model.line.color == PALETTE[4]
    assert {row[0] for row in model.customdata} == {7}
    # without hull curves, a model whose scores are not probabilities still shows its hull
    assert any(t.name.startswith("margin hull") for t in fig.data)
    assert not any(t.name.startswith("logistic hull") for t in fig.data)
    assert "margin" in fig.layout.title.text


def test_fcd007_figures_pass_plotly_validation_unchanged(data, decision):
    y, scores = data
    curves, joint, current = decision
    figs = (calibration_figure({k: calibration(y, s, strategy="quantile")
                                for k, s in scores.items()}, font_size=18),
            decision_curve_figure(curves, joint=joint, current=current, font_size=18),
            calibration_figure({}), decision_curve_figure({}))
    for fig in figs:
        checked = go.Figure(json.loads(fig.to_json()))  # validated: raises if invalid
        assert json.loads(checked.to_json()) == json.loads(fig.to_json())


def test_fcd008_prevalences_that_differ_get_a_treat_all_line_each(data):
    y, scores = data
    curves = {"a": decision_curve(y, scores["logistic"]),
              "b": decision_curve(y[:500], scores["logistic"][:500])}
    fig = decision_curve_figure(curves)
    lines = [t for t in fig.data if t.name.startswith(TREAT_ALL)]
    assert len(lines) == 2
    for trace, dc in zip(lines, curves.values(), strict=True):
        assert trace.name == f"{TREAT_ALL} (prevalence {dc.prior_pos:.6g})"
        np.testing.assert_array_equal(trace.y, dc.treat_all)


def test_fcd009_a_hostile_name_is_drawn_as_text_everywhere(data, decision):
    """Legend, hover texts, meta and subtitles: the name appears, escaped, never as markup
    (its scores here are probabilities; the same name as a margin model fills the subtitle)."""
    y, scores = data
    curves, joint, current = decision
    margin_named = {HOSTILE: calibration(y, scores["margin"]), "logistic":
                    calibration(y, scores["logistic"])}
    figs = (calibration_figure({k: calibration(y, s) for k, s in scores.items()}),
            calibration_figure(margin_named),
            decision_curve_figure(curves, joint=joint, current=current),
            decision_curve_figure({HOSTILE: decision_curve(y, scores["margin"])}))
    for fig in figs:
        text = drawn_strings(fig)
        assert HOSTILE not in text and "<a " not in text
        assert SAFE in text
    assert SAFE in figs[1].layout.title.text and SAFE in figs[3].layout.title.text
