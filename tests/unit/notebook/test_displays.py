"""Display objects in scikit-learn's shape (RocDisplay, PrecisionRecallDisplay, CostDisplay)
and saving figures (roc_dash.save_figure).

The curves a display holds are checked against scikit-learn (``roc_curve``,
``precision_recall_curve`` with ``drop_intermediate=False``, ``auc``,
``average_precision_score``) and the cost envelopes against a brute-force minimum over every
ROC point; the figures of ``plot_roc``/``plot_pr``/``plot_cost`` against the figures built
the way those functions built them before the displays existed (analysis, figure, title).
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import auc, average_precision_score, precision_recall_curve, roc_curve

import roc_dash
from roc_dash.notebook import analysis_of
from roc_dash.notebook.displays import _points, _titled
from roc_dash.notebook.saving import ImageExportError

RNG = np.random.default_rng(2026)
N = 300
Y = RNG.random(N) < 0.35
#: rounded: many tied scores, some shared by both classes
S = np.round(RNG.normal(Y * 1.2, 1.0), 1)
S2 = np.round(RNG.normal(Y * 0.7, 1.0), 2)
W = np.round(RNG.uniform(0.5, 3.0, N), 2)
FOLD = RNG.integers(0, 4, N)


def _close(a, b, tol=1e-12):
    a, b = np.asarray(a, float), np.asarray(b, float)
    return a.shape == b.shape and bool(np.all((a == b) | (np.abs(a - b) <= tol)))


# -- ROC ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("weighted", [False, True])
def test_dsp001_roc_display_holds_scikit_learns_curve(weighted):
    """Ties and weights: every vertex, threshold and the AUC are scikit-learn's."""
    w = W if weighted else None
    d = roc_dash.RocDisplay.from_predictions(Y, S, sample_weight=w)
    fpr, tpr, thr = roc_curve(Y, S, sample_weight=w, drop_intermediate=False)
    assert _close(d.fpr, fpr) and _close(d.tpr, tpr)
    assert np.array_equal(d.thresholds, thr)
    assert d.roc_auc == pytest.approx(auc(fpr, tpr), abs=1e-12)
    assert d.name == d.estimator_name == "model"
    assert d.curves["model"].fpr is d.fpr  # the core's RocCurve itself


def test_dsp002_pos_label_chooses_the_positive_class():
    """String labels: the negative class taken as positive by pos_label gives scikit-learn's
    curve of pos_label="neg" (the scores' order unchanged: a curve below the diagonal)."""
    labels = np.where(Y, "pos", "neg")
    d = roc_dash.RocDisplay.from_predictions(labels, S, pos_label="neg", sample_weight=W)
    fpr, tpr, _ = roc_curve(labels, S, pos_label="neg", sample_weight=W,
                            drop_intermediate=False)
    assert _close(d.fpr, fpr) and _close(d.tpr, tpr)
    assert d.roc_auc == pytest.approx(auc(fpr, tpr), abs=1e-12) and d.roc_auc < 0.5
    assert d.pos_label == "neg"


# -- precision-recall --------------------------------------------------------------------------


@pytest.mark.parametrize("weighted", [False, True])
def test_dsp003_pr_display_holds_scikit_learns_curve(weighted):
    """At the data's prevalence: precision, recall and thresholds in scikit-learn's order
    and length, and its average precision."""
    w = W if weighted else None
    d = roc_dash.PrecisionRecallDisplay.from_predictions(Y, S, sample_weight=w)
    precision, recall, thr = precision_recall_curve(Y, S, sample_weight=w,
                                                    drop_intermediate=False)
    assert _close(d.precision, precision) and _close(d.recall, recall)
    assert np.array_equal(d.thresholds, thr)
    assert d.average_precision == pytest.approx(average_precision_score(Y, S, sample_weight=w),
                                                abs=1e-12)
    expected_prevalence = np.average(Y, weights=w)
    assert d.prevalence_pos_label == pytest.approx(expected_prevalence, abs=1e-12)


def test_dsp004_pr_display_at_a_deployment_prior():
    """At prior p(+) = 0.05 the precisions are scikit-learn's on the rows reweighted to that
    class mix (positives' total weight 0.05, negatives' 0.95)."""
    prior = 0.05
    d = roc_dash.PrecisionRecallDisplay.from_predictions(Y, S, prior=prior)
    w = np.where(Y, prior / Y.sum(), (1 - prior) / (~Y).sum())
    precision, recall, _ = precision_recall_curve(Y, S, sample_weight=w,
                                                  drop_intermediate=False)
    assert _close(d.precision, precision, 1e-9) and _close(d.recall, recall, 1e-9)
    assert d.average_precision == pytest.approx(average_precision_score(Y, S, sample_weight=w),
                                                abs=1e-9)
    assert d.prevalence_pos_label == prior


# -- cost curves -------------------------------------------------------------------------------


def _brute_force_cost(fpr, tpr, pc):
    """Normalised expected cost of the best ROC point at each PC(+) (Drummond & Holte 2006:
    NEC = (1 - TPR) PC + FPR (1 - PC))."""
    return np.min(np.multiply.outer(1 - tpr, pc) + np.multiply.outer(fpr, 1 - pc), axis=0)


def test_dsp005_cost_display_envelope_is_the_best_roc_point():
    cost_fp, cost_fn, prior = 1.0, 4.0, 0.2
    d = roc_dash.CostDisplay.from_predictions(Y, S, sample_weight=W, cost_fp=cost_fp,
                                              cost_fn=cost_fn, prior=prior)
    fpr, tpr, _ = roc_curve(Y, S, sample_weight=W, drop_intermediate=False)
    grid = np.linspace(0, 1, 201)
    envelope = np.interp(grid, d.pc_pos, d.cost)
    assert _close(envelope, _brute_force_cost(fpr, tpr, grid), 1e-12)
    pc = prior * cost_fn / (prior * cost_fn + (1 - prior) * cost_fp)
    assert d.pc_operating == pytest.approx(pc, abs=1e-12)
    assert d.cost_operating == pytest.approx(_brute_force_cost(fpr, tpr, np.array([pc]))[0],
                                             abs=1e-12)
    # the area under a piecewise-linear envelope, by the trapezoid rule on its breakpoints
    fine = np.linspace(0, 1, 20001)
    assert d.area == pytest.approx(np.trapezoid(_brute_force_cost(fpr, tpr, fine), fine),
                                   abs=1e-6)


# -- the functions are the displays' figures ---------------------------------------------------


def _old_plot(kind, y_true=None, y_score=None, *, font_size=14, averaging="pooled", det=False,
              ties=False, gain=False, **conditions):
    """The figure as plot_roc/plot_pr/plot_cost built it before the displays: the analysis,
    the page's figure of it, the conditions as its title."""
    from roc_dash.figures.cost import cost_figure
    from roc_dash.figures.precision_recall import pr_figure
    from roc_dash.figures.roc import roc_figure

    analysis = analysis_of(y_true, y_score, **conditions)
    if kind == "roc":
        fig = roc_figure(analysis, averaging=averaging, det=bool(det), ties=bool(ties),
                         font_size=_points(font_size))
    elif kind == "pr":
        fig = pr_figure(analysis, mode="prg" if gain else "pr", font_size=_points(font_size))
    else:
        fig = cost_figure(analysis, font_size=_points(font_size))
    return _titled(fig, analysis)


FRAME = pd.DataFrame({"y": np.where(Y, "churn", "stay"), "a": S, "b": S2, "w": W})
MODELS = np.where(RNG.random(N) < 0.5, "lr", "gb")

CASES = [
    ("roc", (Y, S), {}),
    ("roc", (Y, S), {"sample_weight": W, "cost_fn": 5.0, "prior": 0.1}),
    ("roc", (Y, S), {"fold": FOLD, "averaging": "vertical", "band": "simultaneous",
                     "level": 0.9}),
    ("roc", (Y, S), {"model": MODELS, "det": True, "ties": True, "font_size": 11}),
    ("roc", (), {"data": FRAME, "y_true": "y", "y_score": ["a", "b"], "pos_label": "churn",
                 "sample_weight": "w"}),
    ("pr", (Y, S), {"prior": 0.05}),
    ("pr", (Y, S), {"model": MODELS, "gain": True, "font_size": 18}),
    ("pr", (), {"data": FRAME, "y_true": "y", "y_score": ["a", "b"], "pos_label": "stay"}),
    ("cost", (Y, S), {"cost_fn": 3.0}),
    ("cost", (), {"data": FRAME, "y_true": "y", "y_score": ["a", "b"], "pos_label": "churn",
                  "prior": 0.2, "font_size": 10}),
]
DISPLAYS = {"roc": "RocDisplay", "pr": "PrecisionRecallDisplay", "cost": "CostDisplay"}


@pytest.mark.parametrize("kind, args, kwargs", CASES)
def test_dsp006_functions_draw_the_old_figures_through_the_displays(kind, args, kwargs):
    """plot_roc/plot_pr/plot_cost's JSON is the figure built the old way, and the display's."""
    kw = dict(kwargs)
    if "data" in kw:
        args = (kw.pop("y_true"), kw.pop("y_score"))
    new = getattr(roc_dash, f"plot_{kind}")(*args, **kw).to_json()
    old = _old_plot(kind, *args, **kw).to_json()
    display = getattr(roc_dash, DISPLAYS[kind]).from_predictions(*args, **kw).figure_
    assert json.loads(new) == json.loads(old)
    assert new == old == display.to_json()


# -- several models ----------------------------------------------------------------------------


def test_dsp007_several_models_give_lists_in_name_order():
    """A dict of scores, a model column and wide columns of data= give one curve per model,
    each scikit-learn's on its own rows; the dict draws the wide table's figure."""
    d = roc_dash.RocDisplay.from_predictions(Y, {"a": S, "b": S2}, sample_weight=W)
    assert d.name == ["a", "b"] and len(d.fpr) == len(d.roc_auc) == 2
    for scores, fpr, tpr, area in zip((S, S2), d.fpr, d.tpr, d.roc_auc, strict=True):
        f, t, _ = roc_curve(Y, scores, sample_weight=W, drop_intermediate=False)
        assert _close(fpr, f) and _close(tpr, t) and area == pytest.approx(auc(f, t), abs=1e-12)
    wide = roc_dash.RocDisplay.from_predictions(
        "y", ["a", "b"], data=FRAME.assign(y=Y), sample_weight="w")
    assert d.figure_.to_json() == wide.figure_.to_json()

    # one deployment prior for all models (default: the prevalence of all the rows), so
    # each model's rows are reweighted to that class mix for scikit-learn
    p = roc_dash.PrecisionRecallDisplay.from_predictions(Y, S, model=MODELS)
    prior = p.prevalence_pos_label
    assert prior == pytest.approx(Y.mean(), abs=1e-12)
    for name, precision, recall, ap in zip(p.name, p.precision, p.recall,
                                           p.average_precision, strict=True):
        y, s = Y[MODELS == name], S[MODELS == name]
        w = np.where(y, prior / y.sum(), (1 - prior) / (~y).sum())
        pr, rc, _ = precision_recall_curve(y, s, sample_weight=w, drop_intermediate=False)
        assert _close(precision, pr, 1e-9) and _close(recall, rc, 1e-9)
        assert ap == pytest.approx(average_precision_score(y, s, sample_weight=w), abs=1e-9)
    assert sorted(p.name) == ["gb", "lr"]


def test_dsp008_name_and_bad_combinations_are_refused_clearly():
    d = roc_dash.CostDisplay.from_predictions(Y, S, name="logistic")
    assert d.name == "logistic" and repr(d) == "CostDisplay('logistic')"
    with pytest.raises(ValueError, match="name= or model=, not both"):
        roc_dash.RocDisplay.from_predictions(Y, S, name="a", model="b")
    with pytest.raises(ValueError, match="its keys: give neither data= nor model="):
        roc_dash.RocDisplay.from_predictions(Y, {"a": S}, model="b")
    with pytest.raises(ValueError, match="give y_true, the true labels"):
        roc_dash.RocDisplay.from_predictions(None, {"a": S})
    with pytest.raises(ValueError, match="differ in length"):
        roc_dash.RocDisplay.from_predictions(Y, {"a": S, "b": S2[:-1]})
    with pytest.raises(TypeError, match="no option 'gain'; its plot options: averaging"):
        roc_dash.RocDisplay.from_predictions(Y, S, gain=True)
    with pytest.raises(ValueError, match="averaging must be one of"):
        roc_dash.RocDisplay.from_predictions(Y, S, averaging="mean")


# -- from_estimator ----------------------------------------------------------------------------


def test_dsp009_from_estimator_scores_the_positive_class():
    """A fitted classifier's predict_proba column of pos_label (default classes_[1]) or its
    decision_function, with the estimator's class name."""
    X = np.column_stack([S, S2])
    labels = np.where(Y, "yes", "no")
    clf = LogisticRegression().fit(X, labels)
    d = roc_dash.RocDisplay.from_estimator(clf, X, labels)
    proba = clf.predict_proba(X)[:, list(clf.classes_).index("yes")]
    fpr, tpr, _ = roc_curve(labels, proba, pos_label="yes", drop_intermediate=False)
    assert d.name == "LogisticRegression" and d.pos_label == "yes"
    assert _close(d.fpr, fpr) and _close(d.tpr, tpr)
    neg = roc_dash.RocDisplay.from_estimator(clf, X, labels, pos_label="no",
                                             response_method="decision_function", name="lr")
    f, t, _ = roc_curve(labels, -clf.decision_function(X), pos_label="no",
                        drop_intermediate=False)
    assert neg.name == "lr" and _close(neg.fpr, f) and _close(neg.tpr, t)
    # boolean labels, the positive class given as False: the other column of predict_proba
    boolean = LogisticRegression().fit(X, Y)
    false = roc_dash.RocDisplay.from_estimator(boolean, X, Y, pos_label=False)
    f, t, _ = roc_curve(~Y, boolean.predict_proba(X)[:, 0], drop_intermediate=False)
    assert false.pos_label is False and _close(false.fpr, f) and _close(false.tpr, t)
    with pytest.raises(ValueError, match="fit it first"):
        roc_dash.RocDisplay.from_estimator(LogisticRegression(), X, labels)
    with pytest.raises(ValueError, match="not one of the estimator's classes"):
        roc_dash.RocDisplay.from_estimator(clf, X, labels, pos_label="maybe")


# -- plot() ------------------------------------------------------------------------------------


def test_dsp010_plot_redraws_and_returns_the_display(monkeypatch):
    """plot(...) keeps the analysis, redraws figure_ with the options given (the others as
    before) and returns the display itself, as scikit-learn's plot does."""
    d = roc_dash.RocDisplay.from_predictions(Y, S, fold=FOLD, font_size=12)
    analysis, first = d.analysis, d.figure_
    assert d.plot(averaging="vertical") is d and d.analysis is analysis
    assert d.figure_ is not first
    assert d.figure_.to_json() == roc_dash.plot_roc(Y, S, fold=FOLD, font_size=12,
                                                    averaging="vertical").to_json()
    p = roc_dash.PrecisionRecallDisplay.from_predictions(Y, S)
    assert p.plot(gain=True).figure_.layout.xaxis.title.text != \
        roc_dash.plot_pr(Y, S).layout.xaxis.title.text
    import plotly.io as pio

    monkeypatch.setattr(pio.renderers, "default", "plotly_mimetype")  # as in Jupyter
    # a display of an analysis made beforehand draws the function's figure
    made = roc_dash.RocDisplay(analysis_of(Y, S, fold=FOLD)).plot(averaging="vertical",
                                                                   font_size=12)
    assert made.figure_.to_json() == d.figure_.to_json()
    bundle = d._repr_mimebundle_()
    assert bundle["application/vnd.plotly.v1+json"]["data"][1]["name"] == d.figure_.data[1].name


# -- saving ------------------------------------------------------------------------------------


def test_dsp011_save_html_and_json(tmp_path):
    d = roc_dash.RocDisplay.from_predictions(Y, S, name="logistic")
    page = d.save(tmp_path / "roc.html")
    text = page.read_text(encoding="utf-8")
    assert text.lower().startswith("<!doctype html>") and "logistic (AUC" in text
    assert "plotly.js v" in text  # Plotly's JavaScript inside: opens offline
    small = roc_dash.save_figure(d.figure_, tmp_path / "roc-cdn.html", include_plotlyjs="cdn")
    assert small.stat().st_size < page.stat().st_size / 10
    saved = json.loads(d.save(tmp_path / "roc.json").read_text(encoding="utf-8"))
    assert saved["data"][1]["name"] == d.figure_.data[1].name


def test_dsp012_save_refuses_unknown_suffix_and_missing_folder(tmp_path):
    fig = roc_dash.plot_cost(Y, S)
    with pytest.raises(ValueError, match=r"'roc\.gif'.*ending in one of \.html"):
        roc_dash.save_figure(fig, tmp_path / "roc.gif")
    with pytest.raises(ValueError, match="the folder .*nowhere.* does not exist"):
        roc_dash.save_figure(fig, tmp_path / "nowhere" / "roc.html")
    assert list(tmp_path.iterdir()) == []


def test_dsp013_image_without_kaleido_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "kaleido", None)  # find_spec: not installed
    fig = roc_dash.plot_roc(Y, S)
    with pytest.raises(ImageExportError,
                       match=r"PNG .*needs the optional kaleido.*roc-dash\[image\].*\.html"):
        roc_dash.save_figure(fig, tmp_path / "roc.png")
    assert not (tmp_path / "roc.png").exists()


@pytest.mark.slow
def test_dsp014_image_without_chrome_names_browser_path(tmp_path):
    """kaleido installed but BROWSER_PATH naming no browser: the error says so (a fresh
    interpreter: kaleido keeps the browser it found)."""
    code = ("import roc_dash\n"
            "fig = roc_dash.plot_roc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])\n"
            "try:\n"
            f"    roc_dash.save_figure(fig, {str(tmp_path / 'roc.png')!r})\n"
            "except roc_dash.notebook.saving.ImageExportError as exc:\n"
            "    print('REFUSED', exc)\n")
    env = {"BROWSER_PATH": str(tmp_path / "no-chrome"), "PATH": "/usr/bin:/bin",
           "HOME": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.stdout.startswith("REFUSED"), out.stdout + out.stderr
    assert "needs Chrome or Chromium" in out.stdout and "BROWSER_PATH names" in out.stdout
    assert "Traceback" not in out.stderr
    assert not (tmp_path / "roc.png").exists()


@pytest.mark.slow
def test_dsp015_png_and_svg_through_kaleido(tmp_path):
    """The optional image extra: a PNG (its signature and the size asked, at scale 2) and
    an SVG (an <svg> document with the legend's text)."""
    d = roc_dash.RocDisplay.from_predictions(Y, S, name="logistic")
    png = d.save(tmp_path / "roc.png", width=640, height=480, scale=2).read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert (width, height) == (1280, 960)
    svg = d.save(tmp_path / "roc.svg").read_text(encoding="utf-8")
    assert svg.lstrip().startswith("<svg") and "logistic (AUC" in svg


# -- exports -----------------------------------------------------------------------------------


def test_dsp016_displays_exported_from_the_top_level_and_light():
    """roc_dash.RocDisplay & co. are the classes, listed in __all__; importing the displays
    module loads neither Plotly nor Dash (they load when a figure is drawn)."""
    from roc_dash.notebook import displays, saving

    for name in ("RocDisplay", "PrecisionRecallDisplay", "CostDisplay"):
        assert getattr(roc_dash, name) is getattr(displays, name) and name in roc_dash.__all__
    assert roc_dash.save_figure is saving.save_figure and "save_figure" in roc_dash.__all__
    code = ("import sys, roc_dash\nroc_dash.RocDisplay, roc_dash.save_figure\n"
            "print(sorted(m for m in ('plotly', 'dash') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True)
    assert out.stdout.strip() == "[]"


def test_dsp017_the_docstring_examples_hold():
    import doctest

    from roc_dash.notebook import displays, predictions, saving

    for module in (displays, saving, predictions):
        result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
        assert result.attempted >= 2 and result.failed == 0


@pytest.mark.parametrize("font_size, fold", [(14, None), (20, FOLD), (10, None)])
def test_dsp018_the_title_fits_in_the_top_margin(font_size, fold):
    """The conditions' title (and the ROC's note on folds below it) fit in the top margin,
    at Plotly's default height for the title (the middle of the margin): a saved image no
    longer cuts the first line off."""
    fig = roc_dash.plot_roc(Y, S, fold=fold, averaging="vertical", font_size=font_size)
    title = fig.layout.title
    lines = title.text.count("<br>") + 1
    size = title.font.size or 1.2 * fig.layout.font.size  # Plotly's default title font
    # with folds, the ROC's note in two lines below the conditions (review 11, item 13)
    assert lines == (1 if fold is None else 3)
    assert fig.layout.margin.t >= lines * 1.3 * size
    assert title.y is None and title.yanchor is None and title.pad.t is None
