"""Cross-validation made explicit on the page (issue 17, item 1): the model table's
cross-validated AUC and per-fold AUC/AP, legends that say what their AUC is computed from,
and the summary's fold spread labelled as a range. Numbers are checked against
scikit-learn on the demo's folds."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score

from roc_dash.app.components import model_table
from roc_dash.app.features.exports import curves_csv
from roc_dash.app.render import render_views
from roc_dash.app.server.store import DEMO_ID
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.inference.model_comparison import NEVER_OPTIMAL, OptimalRange
from roc_dash.figures import roc_figure
from roc_dash.report.comparison_text import cv_auc_text, optimal_range_text
from roc_dash.text.rounding import sig
from tests.conftest import DEMO_MODELS as MODELS


def _fold_scores(table: pd.DataFrame, model: str):
    """Each fold's sklearn AUC and AP of ``model`` on the demo (an independent computation)."""
    rows = table[table["model"] == model]
    out = {}
    for fold, g in rows.groupby("fold", sort=False):
        y, s = g["label"].to_numpy(bool), g["score"].to_numpy(float)
        out[str(fold)] = (roc_auc_score(y, s), average_precision_score(y, s))
    return out


def test_cvp001_model_table_shows_fold_aucs_and_the_cv_interval(cache, demo):
    analysis = cache.analysis([DEMO_ID], MODELS, Conditions(prior_pos=0.3))
    text = str(model_table(analysis))
    assert "AUC pooled" in text and "CV AUC: fold mean ± SD" in text
    for name in MODELS:
        folds = _fold_scores(demo, name)
        aucs = np.array([a for a, _ in folds.values()])
        cv = analysis.model(name).cross_validation
        # the mean ± SD of the folds' own AUCs (sample SD, ddof=1) as sklearn computes them
        assert cv.auc_mean == pytest.approx(aucs.mean())
        assert cv.auc_sd == pytest.approx(aucs.std(ddof=1))
        assert f"{sig(aucs.mean())} ± {sig(aucs.std(ddof=1))} [95% CI" in text
        assert cv_auc_text(cv) in text
        for auc, ap in folds.values():  # every fold's AUC and AP is in the details
            assert f"'{sig(auc)}'" in text and f"'{sig(ap)}'" in text


def test_cvp002_legend_says_what_its_auc_is_computed_from(demo):
    from roc_dash.core.assembly.analysis import analyse

    analysis = analyse(demo, Conditions(prior_pos=0.3))
    pooled = roc_figure(analysis, averaging="pooled")
    for name in MODELS:
        y = demo["model"] == name
        auc = roc_auc_score(demo.loc[y, "label"], demo.loc[y, "score"])
        assert f"{name} (AUC {sig(auc)} pooled)" in [t.name for t in pooled.data]
        aucs = np.array([a for a, _ in _fold_scores(demo, name).values()])
        for mode in ("vertical", "threshold", "none"):
            names = [t.name for t in roc_figure(analysis, averaging=mode).data]
            assert (f"{name} (AUC fold mean {sig(aucs.mean())} ± {sig(aucs.std(ddof=1))})"
                    in names), mode
    assert "pooled" in pooled.layout.title.text and "hull" in pooled.layout.title.text
    title = roc_figure(analysis, averaging="threshold").layout.title.text
    assert "hull and ★ optimum from pooled predictions" in title
    # one test set: no folds, nothing to say
    one = analyse(demo[demo["fold"] == demo["fold"].iloc[0]], Conditions(prior_pos=0.3))
    assert any(t.name.endswith(f"(AUC {sig(one.models[0].auc)})")
               for t in roc_figure(one, averaging="vertical").data)


def test_cvp003_summary_labels_the_fold_spread_as_a_range(cache):
    views = render_views(cache, [DEMO_ID], MODELS, Conditions(prior_pos=0.3))
    summary = str(views[7])
    assert "range over 10 folds: " in summary and " across " not in summary
    # the operating panel says its point is computed from the pooled predictions
    assert "optimal for the current costs and prior (pooled predictions of 10 folds)" in str(
        views[3])


def test_cvp004_optimal_range_wording():
    r = OptimalRange(model="m", slope_low=np.array([0.0, 1.0]), slope_high=np.array([0.5, np.inf]),
                     cost_ratio_low=np.array([0.0, 0.25]),
                     cost_ratio_high=np.array([0.125, np.inf]), prior_pos=0.2)
    # the page says c(FN)/c(FP), as everywhere: c(FP)/c(FN) <= 0.125 is c(FN)/c(FP) >= 8
    assert optimal_range_text(r) == ("optimal for c(FN)/c(FP) below 4 or above 8 at "
                                     "prior p(+) = 0.2")
    never = OptimalRange(model="m", slope_low=np.array([]), slope_high=np.array([]),
                         cost_ratio_low=np.array([]), cost_ratio_high=np.array([]),
                         prior_pos=0.2)
    assert optimal_range_text(never) == NEVER_OPTIMAL
    every = OptimalRange(model="m", slope_low=np.array([0.0]), slope_high=np.array([np.inf]),
                         cost_ratio_low=np.array([0.0]), cost_ratio_high=np.array([np.inf]),
                         prior_pos=0.2)
    assert optimal_range_text(every) == "optimal for any c(FN)/c(FP) at prior p(+) = 0.2"


def test_cvp005_curves_csv_has_each_folds_curve(cache, demo):
    """The page's Curves CSV: each model's pooled curve and every fold's own curve, each
    fold's rows giving sklearn's AUC by the trapezoid rule."""
    analysis = cache.analysis([DEMO_ID], MODELS, Conditions(prior_pos=0.3))
    curves = pd.read_csv(io.StringIO(curves_csv(analysis)), dtype={"fold": str})
    assert list(curves.columns) == ["model", "fold", "fpr", "tpr", "threshold"]
    for name in MODELS:
        rows = curves[curves["model"] == name]
        pooled = rows[rows["fold"] == "pooled"]
        y = demo["model"] == name
        assert np.trapezoid(pooled["tpr"], pooled["fpr"]) == pytest.approx(
            roc_auc_score(demo.loc[y, "label"], demo.loc[y, "score"]))
        for fold, (auc, _) in _fold_scores(demo, name).items():
            f = rows[rows["fold"] == fold]
            assert np.trapezoid(f["tpr"], f["fpr"]) == pytest.approx(auc)


def test_cvp006_html_report_has_fold_aucs_and_the_cv_interval(demo):
    """The HTML report: each model's CV AUC (mean ± SD of sklearn's fold AUCs, the LeDell
    interval) and every fold's AUC / AP; none of it for a single test set."""
    import html as _html

    from roc_dash.core.assembly.analysis import analyse
    from roc_dash.report.html import render_html

    analysis = analyse(demo, Conditions(prior_pos=0.3))
    page = _html.unescape(render_html(analysis))
    assert "<h2>Cross-validation</h2>" in page and "AUC (pooled)" in page
    for name in MODELS:
        folds = _fold_scores(demo, name)
        aucs = np.array([a for a, _ in folds.values()])
        cv = analysis.model(name).cross_validation
        assert f"{sig(aucs.mean())} ± {sig(aucs.std(ddof=1))} [95% CI" in page
        assert cv_auc_text(cv) in page
        per_fold = page.split("Each fold: AUC / average precision")[1]
        row = per_fold.split(f"<td class=\"\">{name}</td>")[1].split("</tr>")[0]
        cells = [f"{sig(a)} / {sig(ap)}" for a, ap in folds.values()]
        assert all(c in row for c in cells), name
    one = analyse(demo[demo["fold"] == demo["fold"].iloc[0]], Conditions(prior_pos=0.3))
    assert "<h2>Cross-validation</h2>" not in render_html(one)
