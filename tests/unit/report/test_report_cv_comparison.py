"""Report keys of issue 17 items 1 and 3 (rpk001-rpk009): per-fold AUC/AP and the cvAUC, the
k-model comparison matrices and each model's optimal range, in the analysis and the JSON
document; the Curves table's ``fold`` column. Numbers against scikit-learn, statsmodels and
brute force over the document's own ROC vertices."""

import io
import json

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score
from sklearn.metrics import roc_curve as sk_roc_curve
from statsmodels.stats.multitest import multipletests

from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import analyse, partial_auc_comparison, with_conditions
from roc_dash.core.inference.model_comparison import NEVER_OPTIMAL
from roc_dash.report import NOT_PAIRED_NOTE, build_report
from roc_dash.report.exports import POOLED, curves_table, to_safe_csv


@pytest.fixture(scope="module")
def demo_doc(demo):
    return build_report(analyse(demo))


def test_rpk001_folds_and_cv_auc_equal_scikit_learn_per_fold(demo, demo_doc):
    for m in demo_doc["models"]:
        frame = demo[demo["model"] == m["name"]]
        names = list(dict.fromkeys(frame["fold"]))
        assert [f["fold"] for f in m["folds"]] == names
        aucs, aps = [], []
        for f, row in zip(names, m["folds"], strict=True):
            g = frame[frame["fold"] == f]
            aucs.append(roc_auc_score(g["label"], g["score"]))
            aps.append(average_precision_score(g["label"], g["score"]))
            assert row["auc"] == pytest.approx(aucs[-1], rel=1e-12)
            assert row["ap"] == pytest.approx(aps[-1], rel=1e-12)
            assert (row["n_pos"], row["n_neg"]) == (g["label"].sum(), (~g["label"]).sum())
        cv = m["cv_auc"]
        assert cv["mean"] == pytest.approx(np.mean(aucs), rel=1e-12)
        assert cv["sd"] == pytest.approx(np.std(aucs, ddof=1), rel=1e-10)
        assert cv["ap_mean"] == pytest.approx(np.mean(aps), rel=1e-12)
        assert cv["ci_low"] < cv["mean"] < cv["ci_high"] and cv["level"] == 0.95
        assert cv["method"] == "LeDell et al. 2015 influence curve"
        assert "averaged over 10 folds" in cv["basis"]


def test_rpk002_comparison_matrices_equal_pairwise_tests_and_statsmodels(demo, demo_doc):
    c = demo_doc["comparison"]
    names = c["models"]
    assert c["paired"] and c["method"] == "delong" and c["measure"] == "auc"
    assert names == [m["name"] for m in demo_doc["models"]] and c["n_tests"] == 6
    auc = {n: roc_auc_score(demo[demo["model"] == n]["label"], demo[demo["model"] == n]["score"])
           for n in names}
    raw = []
    for pair in demo_doc["comparisons"]:  # the existing per-pair key, from the same tests
        i, j = names.index(pair["a"]), names.index(pair["b"])
        assert c["difference"][i][j] == pytest.approx(auc[pair["a"]] - auc[pair["b"]])
        assert c["difference"][j][i] == pytest.approx(-c["difference"][i][j])
        assert c["p_value"][i][j] == c["p_value"][j][i] == pair["p_value"]
        assert c["z"][i][j] == pair["z"]
        raw.append((i, j, pair["p_value"]))
    p = [r[2] for r in raw]
    for key, method in (("p_holm", "holm"), ("p_bh", "fdr_bh")):
        want = multipletests(p, method=method)[1]
        for (i, j, _), w in zip(raw, want, strict=True):
            assert c[key][i][j] == pytest.approx(w, rel=1e-12) and c[key][j][i] == c[key][i][j]
    assert all(c[k][i][i] is None for k in ("difference", "p_value", "p_holm")
               for i in range(len(names)))
    assert c["untested_pairs"] == []


def _min_cost_model(doc, slope):
    """The model whose ROC vertex maximises TPR − m·FPR, from the document's own vertices;
    None on a near-tie or when only the trivial classifiers win."""
    best = {m["name"]: max(t - slope * f for f, t in zip(m["roc"]["fpr"], m["roc"]["tpr"],
                                                         strict=True))
            for m in doc["models"]}
    ranked = sorted(best.items(), key=lambda kv: -kv[1])
    trivial = max(0.0, 1.0 - slope)
    tol = 1e-9 * (1 + slope)
    if ranked[0][1] - max(ranked[1][1], trivial) <= tol:
        return None
    return ranked[0][0]


def test_rpk003_optimal_ranges_agree_with_a_sweep_of_the_document_vertices(demo_doc):
    r = demo_doc["optimal_ranges"]
    p = r["prior_pos"]
    assert p == pytest.approx(demo_doc["conditions"]["prior_pos"])
    ranges = {m["name"]: m for m in r["models"]}
    never = [n for n, m in ranges.items() if not m["optimal"]]
    assert never and all(ranges[n]["note"] == NEVER_OPTIMAL and ranges[n]["slope"] == []
                         for n in never)
    for m in ranges.values():
        for (lo, hi), (clo, chi) in zip(m["slope"], m["cost_ratio_fp_fn"], strict=True):
            assert clo == pytest.approx(lo * p / (1 - p))
            assert (hi is None and chi is None) or chi == pytest.approx(hi * p / (1 - p))
    seen = set()
    for slope in np.geomspace(1e-2, 1e2, 2001):
        want = _min_cost_model(demo_doc, slope)
        if want is None:
            continue
        seen.add(want)
        owners = [n for n, m in ranges.items() for lo, hi in m["slope"]
                  if lo <= slope <= (np.inf if hi is None else hi)]
        assert owners == [want], (slope, owners)
    assert seen == {n for n, m in ranges.items() if m["optimal"]}


def test_rpk004_models_on_different_rows_are_said_not_paired(demo):
    a = demo[demo["model"] == "naive Bayes"]
    b = demo[demo["model"] == "decision tree"].iloc[:-5]
    doc = build_report(analyse(pd.concat([a, b], ignore_index=True)))
    assert doc["comparison"] == {"paired": False, "note": NOT_PAIRED_NOTE}
    assert [m["name"] for m in doc["optimal_ranges"]["models"]] == ["naive Bayes",
                                                                   "decision tree"]
    single = build_report(analyse(a))
    assert single["comparison"] is None and single["optimal_ranges"] is None
    assert len(single["models"][0]["folds"]) == 10
    one_fold = build_report(analyse(a.assign(fold="1")))
    assert one_fold["models"][0]["folds"] == [] and one_fold["models"][0]["cv_auc"] is None
    json.dumps(doc, allow_nan=False)
    json.dumps(single, allow_nan=False)


def test_rpk005_curves_table_has_pooled_and_fold_rows_as_scikit_learn(demo):
    analysis = analyse(demo[demo["model"].isin(["naive Bayes", "decision tree"])])
    table = curves_table(analysis)
    assert list(table.columns) == ["model", "fold", "fpr", "tpr", "threshold"]
    for name in ("naive Bayes", "decision tree"):
        frame = demo[demo["model"] == name]
        for fold in (POOLED, "1", "7"):
            g = frame if fold == POOLED else frame[frame["fold"] == fold]
            rows = table[(table["model"] == name) & (table["fold"] == fold)]
            fpr, tpr, thr = sk_roc_curve(g["label"], g["score"], drop_intermediate=False)
            np.testing.assert_allclose(rows["fpr"], fpr)
            np.testing.assert_allclose(rows["tpr"], tpr)
            if fold == POOLED:  # the pooled curve has no thresholds of its own
                assert np.isnan(rows["threshold"].iloc[0])
            else:
                np.testing.assert_allclose(rows["threshold"].iloc[1:], thr[1:])
        assert set(table[table["model"] == name]["fold"]) == {POOLED, *map(str, range(1, 11))}
    back = pd.read_csv(io.StringIO(to_safe_csv(table)), dtype={"fold": str})
    assert back["fold"].iloc[0] == POOLED and len(back) == len(table)


def test_rpk006_partial_auc_bootstrap_in_the_report(demo):
    part = partial_auc_comparison(demo, 0.2, n_boot=30, seed=1)
    names = list(dict.fromkeys(demo["model"]))
    assert list(part.models) == names
    for k, n in enumerate(names):
        g = demo[demo["model"] == n]
        assert part.estimate[k] == pytest.approx(roc_auc_score(g["label"], g["score"],
                                                               max_fpr=0.2), rel=1e-12)
    doc = build_report(analyse(demo), partial_auc_comparison=part)
    c = doc["comparison_partial_auc"]
    assert c["method"] == "paired stratified bootstrap" and c["measure"] == "partial_auc_mcclish"
    assert (c["max_fpr"], c["n_boot"], c["seed"]) == (0.2, 30, 1)
    upper = [c["p_value"][i][j] for i in range(4) for j in range(i + 1, 4)]
    np.testing.assert_allclose([c["p_holm"][i][j] for i in range(4) for j in range(i + 1, 4)],
                               multipletests(upper, method="holm")[1])
    json.dumps(doc, allow_nan=False)
    shifted = demo[demo["model"] == names[1]].iloc[:-3]
    assert partial_auc_comparison(pd.concat([demo[demo["model"] == names[0]], shifted]),
                                  0.2, n_boot=5) is None


def test_rpk007_new_prior_moves_the_cost_ratios_not_the_slopes(demo):
    base = analyse(demo)
    moved = with_conditions(base, Conditions(prior_pos=0.6))
    for a, b in zip(base.optimal_ranges.ranges, moved.optimal_ranges.ranges, strict=True):
        np.testing.assert_array_equal(a.slope_low, b.slope_low)
        np.testing.assert_allclose(b.cost_ratio_low, b.slope_low * 0.6 / 0.4)
    assert moved.model_comparison is base.model_comparison


def test_rpk008_a_fold_without_one_class_is_left_out_and_said(demo):
    frame = demo[demo["model"] == "naive Bayes"].copy()
    lonely = frame.index[~frame["label"]][:3]
    frame.loc[lonely, "fold"] = "lonely"
    m = analyse(frame).models[0]
    assert "lonely" not in m.cross_validation.folds.tolist()
    assert m.cross_validation.n_folds == 10
    assert any("fold AUCs" in n and "lonely" in n for n in m.notes)


def test_rpk009_weighted_rows_give_the_cv_of_repeated_rows(demo):
    frame = demo[demo["model"] == "naive Bayes"].reset_index(drop=True)
    w = np.random.default_rng(9).integers(1, 4, len(frame))
    weighted = frame.assign(weight=w.astype(float))
    repeated = frame.loc[np.repeat(frame.index, w)].assign(id=lambda d: range(len(d)))
    a = analyse(weighted).models[0].cross_validation
    b = analyse(repeated.reset_index(drop=True)).models[0].cross_validation
    for name in ("auc_mean", "auc_sd", "std_error", "ci_low", "ci_high"):
        assert getattr(a, name) == pytest.approx(getattr(b, name), rel=1e-10)
