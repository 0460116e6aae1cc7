"""roc_dash.plot_roc / plot_pr / plot_cost (issue 19 §2): the page's figures in one call.

The numbers drawn are checked against scikit-learn (``roc_curve``, ``roc_auc_score``,
``average_precision_score``) and against brute-force minima of the expected cost over every
ROC point, never against this package's own output.
"""

from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score, roc_curve

import roc_dash
from roc_dash.core.roc.curves import roc_curve as core_roc_curve
from roc_dash.core.roc.hull import convex_hull, iso_performance_slope, optimal_point

RNG = np.random.default_rng(19)
N = 300
Y = RNG.random(N) < 0.35
#: rounded: many tied scores, some shared by both classes
S = np.round(RNG.normal(Y * 1.2, 1.0), 1)
W = np.round(RNG.uniform(0.5, 3.0, N), 2)


def _model_trace(fig, name="model"):
    return next(t for t in fig.data if t.name and t.name.startswith(f"{name} (AUC"))


def _optimum(fig):
    """The optimum's star (an annotation: roc_dash.figures.marks), its x and y as lists."""
    from types import SimpleNamespace

    star = next(a for a in fig.layout.annotations if a.name == "optimum")
    return SimpleNamespace(x=[star.x], y=[star.y])


def _on_polyline(px, py, x, y, tol=1e-12) -> bool:
    """(px, py) lies on the polyline through (x, y)."""
    for x0, y0, x1, y1 in zip(x[:-1], y[:-1], x[1:], y[1:], strict=True):
        if min(x0, x1) - tol <= px <= max(x0, x1) + tol and \
                min(y0, y1) - tol <= py <= max(y0, y1) + tol:
            cross = (x1 - x0) * (py - y0) - (y1 - y0) * (px - x0)
            if abs(cross) <= tol:
                return True
    return False


@pytest.mark.parametrize("weighted", [False, True])
def test_nbk001_roc_trace_is_scikit_learns_curve(weighted):
    """Every vertex scikit-learn finds (``drop_intermediate=False``: one point per distinct
    score, ties as one diagonal step) lies on the drawn curve, and every drawn vertex is one
    of them (collinear vertices may be left out: the same picture)."""
    w = W if weighted else None
    fig = roc_dash.plot_roc(Y, S, sample_weight=w)
    trace = _model_trace(fig)
    x, y = np.asarray(trace.x, float), np.asarray(trace.y, float)
    fpr, tpr, _ = roc_curve(Y, S, sample_weight=w, drop_intermediate=False)
    assert all(_on_polyline(a, b, x, y) for a, b in zip(fpr, tpr, strict=True))
    theirs = set(zip(np.round(fpr, 12), np.round(tpr, 12), strict=True))
    assert set(zip(np.round(x, 12), np.round(y, 12), strict=True)) <= theirs
    assert len(x) < len(fpr)  # the collinear vertices of tied runs were dropped


@pytest.mark.parametrize("weighted", [False, True])
def test_nbk002_auc_in_the_legend_is_roc_auc_score(weighted):
    w = W if weighted else None
    name = _model_trace(roc_dash.plot_roc(Y, S, sample_weight=w)).name
    shown = re.search(r"AUC ([\d.]+)", name).group(1)
    assert shown == format(roc_auc_score(Y, S, sample_weight=w), ".6g")


@pytest.mark.parametrize("cost_fp, cost_fn, prior", [(1, 1, None), (1, 5, 0.1), (4, 1, 0.6)])
def test_nbk003_optimum_marker_has_the_least_expected_cost(cost_fp, cost_fn, prior):
    """The star sits on the ROC point of least expected cost
    ``p·(1−TPR)·c(FN) + (1−p)·FPR·c(FP)``, brute force over scikit-learn's points (plus
    the two trivial ones), and the iso-performance line has the slope of the conditions."""
    fig = roc_dash.plot_roc(Y, S, cost_fp=cost_fp, cost_fn=cost_fn, prior=prior)
    star = _optimum(fig)
    p = Y.mean() if prior is None else prior
    fpr, tpr, _ = roc_curve(Y, S, drop_intermediate=False)
    cost = p * (1 - tpr) * cost_fn + (1 - p) * fpr * cost_fp
    star_cost = p * (1 - star.y[0]) * cost_fn + (1 - p) * star.x[0] * cost_fp
    assert star_cost == pytest.approx(cost.min(), abs=1e-12)
    line = fig.layout.shapes[0]
    slope = (line.y1 - line.y0) / (line.x1 - line.x0)
    assert slope == pytest.approx(cost_fp * (1 - p) / (cost_fn * p), rel=1e-9)
    # and it is core's optimum of the same rows (the page's)
    core = optimal_point(convex_hull(core_roc_curve(Y, S)),
                         iso_performance_slope(cost_fp, cost_fn, p))
    assert (star.x[0], star.y[0]) == (core.fpr, core.tpr)
    # its threshold: the hull vertex drawn under the star (customdata [model, threshold,
    # fpr, tpr], 6 significant digits)
    hull = next(t for t in fig.data if (t.name or "").startswith("convex hull"))
    at = next(r for r, x, y in zip(hull.customdata, hull.x, hull.y, strict=True)
              if (x, y) == (core.fpr, core.tpr))
    assert float(at[1]) == pytest.approx(core.threshold, rel=1e-5)


def test_nbk004_every_container_gives_the_same_figure():
    df = pd.DataFrame({"truth": Y, "p": S, "w": W})
    figs = [roc_dash.plot_roc(Y.tolist(), S.tolist(), sample_weight=W.tolist()),
            roc_dash.plot_roc(Y, S, sample_weight=W),
            roc_dash.plot_roc(pd.Series(Y, index=np.arange(N) * 7), pd.Series(S),
                              sample_weight=pd.Series(W)),
            roc_dash.plot_roc(data=df.rename(columns={"p": "model"}), y_true="truth",
                              y_score="model", sample_weight="w")]
    first = _model_trace(figs[0])
    for fig in figs[1:]:
        trace = _model_trace(fig)
        assert trace.name == first.name
        np.testing.assert_array_equal(trace.x, first.x)
        np.testing.assert_array_equal(trace.y, first.y)


def test_nbk005_models_and_text_labels():
    """A model column, text labels with ``pos_label``, a Series naming its model; the
    legend's AUC of each model is scikit-learn's on its rows."""
    other = np.round(S + RNG.normal(0, 1.5, N), 1)
    df = pd.DataFrame({"y": np.where(Y, "churn", "stay"), "a": S, "b": other})
    long = pd.DataFrame({"y": np.concatenate([df.y, df.y]),
                         "score": np.concatenate([S, other]),
                         "model": ["a"] * N + ["b"] * N})
    wide = roc_dash.plot_roc(data=df, y_true="y", y_score=["a", "b"], pos_label="churn")
    tall = roc_dash.plot_roc(long.y, long.score, model=long.model, pos_label="churn")
    for fig in (wide, tall):
        for name, s in (("a", S), ("b", other)):
            shown = re.search(r"AUC ([\d.]+)", _model_trace(fig, name).name).group(1)
            assert shown == format(roc_auc_score(Y, s), ".6g")
    named = roc_dash.plot_roc(Y, pd.Series(S, name="logit"))
    assert _model_trace(named, "logit")


def test_nbk006_pr_figure_at_the_data_prevalence_and_a_deployment_prior():
    s = RNG.normal(Y * 1.2, 1.0)  # no ties: average precision is unambiguous
    fig = roc_dash.plot_pr(Y, s)
    trace = _model_trace_pr(fig)
    shown = re.search(r"AP ([\d.]+)", trace.name).group(1)
    assert shown == format(average_precision_score(Y, s), ".6g")
    # at a deployment prior: precision of the star = p·TPR / (p·TPR + (1−p)·FPR)
    fig = roc_dash.plot_pr(Y, s, prior=0.05, cost_fn=10)
    star = _optimum(fig)
    roc = _optimum(roc_dash.plot_roc(Y, s, prior=0.05, cost_fn=10))  # checked in nbk003
    fpr, tpr = roc.x[0], roc.y[0]
    assert star.x[0] == pytest.approx(tpr)
    assert star.y[0] == pytest.approx(0.05 * tpr / (0.05 * tpr + 0.95 * fpr))
    assert fig.layout.yaxis.title.text == "Precision at p(+) = 0.05"


def _model_trace_pr(fig, name="model"):
    return next(t for t in fig.data if t.name and t.name.startswith(f"{name} (AP"))


@pytest.mark.parametrize("cost_fp, cost_fn, prior", [(1, 1, None), (1, 5, 0.1)])
def test_nbk007_cost_figure_reads_off_the_least_normalised_cost(cost_fp, cost_fn, prior):
    """PC(+) = p·c(FN) / (p·c(FN) + (1−p)·c(FP)) and the cost read off there is the least
    normalised expected cost ``(1−TPR)·PC + FPR·(1−PC)`` over every ROC point (Drummond &
    Holte), brute force over scikit-learn's points."""
    fig = roc_dash.plot_cost(Y, S, cost_fp=cost_fp, cost_fn=cost_fn, prior=prior)
    p = Y.mean() if prior is None else prior
    pc = p * cost_fn / (p * cost_fn + (1 - p) * cost_fp)
    fpr, tpr, _ = roc_curve(Y, S, drop_intermediate=False)
    fpr, tpr = np.append(fpr, 1.0), np.append(tpr, 1.0)
    star = _optimum(fig)
    assert star.x[0] == pytest.approx(pc, rel=1e-12)
    assert star.y[0] == pytest.approx(((1 - tpr) * pc + fpr * (1 - pc)).min(), abs=1e-12)


def test_nbk008_fold_averages_show_the_mean_of_the_folds_auc():
    folds = np.arange(N) % 3
    fig = roc_dash.plot_roc(Y, S, fold=folds, averaging="vertical")
    aucs = [roc_auc_score(Y[folds == k], S[folds == k]) for k in range(3)]
    name = next(t.name for t in fig.data if t.name and "fold mean" in t.name)
    mean, sd = re.search(r"fold mean ([\d.]+) ± ([\d.]+)", name).groups()
    assert mean == format(float(np.mean(aucs)), ".6g")
    assert sd == format(float(np.std(aucs, ddof=1)), ".6g")
    assert any(t.fill == "toself" for t in fig.data)  # the band


@pytest.mark.parametrize("call, message", [
    (lambda: roc_dash.plot_roc([0, 1, 1], [0.1, 0.2]),
     r"y_true has 3 values but y_score has 2"),
    (lambda: roc_dash.plot_roc([0, 1, 1], [0.1, 0.2, 0.3], sample_weight=[1, 2]),
     r"y_true has 3 values but sample_weight has 2"),
    (lambda: roc_dash.plot_roc([1, 1, 1], [0.1, 0.2, 0.3]), r"only positive labels"),
    (lambda: roc_dash.plot_pr([0, 1, 1], [0.1, np.nan, 0.3]),
     r"'y_score' has 1 missing or infinite score .*row 2.*drop_nonfinite=True"),
    (lambda: roc_dash.plot_cost([0, 1], [[0.1, 0.2], [0.3, 0.4]]), r"y_score has shape"),
    (lambda: roc_dash.plot_roc([0, [1], 1], [0.1, 0.2, 0.3]), r"y_true mixes single values"),
    (lambda: roc_dash.plot_roc([1, 2, 2, 1], [0.1, 0.9, 0.4, 0.5]),
     r"'y_true' has the values '1', '2'.*\(pos_label=..., e.g. pos_label=1\)\.$"),
    (lambda: roc_dash.plot_roc([0, 1, 1], ["x", 0.2, 0.3]),
     r"'y_score' has 1 non-numeric value \(row 1\): 'x'"),
    (lambda: roc_dash.plot_roc(data=pd.DataFrame({"y": [0, 1]}), y_true="y", y_score="p"),
     r"data has no column 'p' \(for y_score\); its columns: 'y'"),
    (lambda: roc_dash.plot_roc([0, 1], [0.2, 0.4], prior=1.5), r"prior .* strictly between"),
    (lambda: roc_dash.plot_roc([0, 1], [0.2, 0.4], averaging="mean"), r"averaging must be"),
    (lambda: roc_dash.plot_roc([0, 1], [0.2, 0.4], cost_fn=-1), r"cost_fn must be a positive number, got -1"),
])
def test_nbk009_bad_input_says_what_and_where(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_nbk010_nonfinite_scores_can_be_dropped_with_a_warning():
    s = S.copy()
    s[[3, 10]] = np.nan
    with pytest.warns(UserWarning, match="2"):
        table = roc_dash.predictions_table(Y, s, drop_nonfinite=True)
    assert len(table) == N - 2
    keep = np.isfinite(s)
    with pytest.warns(UserWarning, match="dropped 2 rows"):
        name = _model_trace(roc_dash.plot_roc(Y, s, drop_nonfinite=True)).name
    assert float(re.search(r"AUC (\d\.\d{3})", name).group(1)) == round(
        roc_auc_score(Y[keep], s[keep]), 3)


def test_nbk011_import_roc_dash_stays_light():
    """``import roc_dash`` loads neither Plotly nor Dash; the figures load Plotly, not Dash."""
    code = ("import sys, roc_dash; a = {'plotly', 'dash'} & set(sys.modules); "
            "roc_dash.plot_roc([0, 1, 0, 1], [0.1, 0.9, 0.4, 0.3]); "
            "print(sorted(a), 'plotly' in sys.modules, 'dash' in sys.modules, "
            "'roc_dash.app' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True).stdout.split()
    assert out == ["[]", "True", "False", "False"]


def test_nbk012_the_docstring_examples_hold():
    import doctest

    from roc_dash import notebook

    result = doctest.testmod(notebook, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 6 and result.failed == 0


def test_nbk020_a_long_tables_model_column_is_found_as_an_upload_finds_it():
    """The stranger review: plot_roc(data=df, y_true=..., y_score=...) on a long table pooled
    its models into one curve; the model column is used, as show(df) and an upload use it."""
    rng = np.random.default_rng(3)
    y = rng.random(300) < 0.3
    df = pd.DataFrame({"label": np.r_[y, y].astype(int),
                       "score": np.r_[rng.normal(y * 1.0), rng.normal(y * 2.0)],
                       "model": ["a"] * 300 + ["b"] * 300})
    fig = roc_dash.plot_roc(data=df, y_true="label", y_score="score")
    for name, part in (("a", df.iloc[:300]), ("b", df.iloc[300:])):
        shown = re.search(r"AUC ([\d.]+)", _model_trace(fig, name).name).group(1)
        assert float(shown) == pytest.approx(roc_auc_score(part.label, part.score), abs=5e-4)


def test_nbk021_show_gives_python_advice_not_command_line_flags(tmp_path):
    df = pd.DataFrame({"y": ["churn", "stay"] * 20, "score": np.linspace(0, 1, 40)})
    with pytest.raises(ValueError) as err:
        roc_dash.show(df, y_true="y", y_score="score", mode="external", port=0,
                      data_dir=str(tmp_path))
    assert "pos_label=" in str(err.value) and "--positive" not in str(err.value)


def test_nbk022_a_saved_figure_says_its_conditions_and_font_size_is_checked():
    fig = roc_dash.plot_roc(Y, S, cost_fp=2, cost_fn=5, prior=0.1)
    assert fig.layout.title.text == "c(FP) = 2, c(FN) = 5, p(+) = 0.1"
    folds = roc_dash.plot_roc(Y, S, fold=np.arange(N) % 3)
    assert folds.layout.title.text.startswith("c(FP) = 1, c(FN) = 1, p(+) = ")
    assert "<br>3 folds pooled" in folds.layout.title.text  # the fold note stays
    assert roc_dash.plot_cost(Y, S, prior=0.25).layout.title.text.endswith("p(+) = 0.25")
    with pytest.raises(ValueError, match="font_size must be a whole number of points"):
        roc_dash.plot_pr(Y, S, font_size="big")
