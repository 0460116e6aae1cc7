"""A fold without the reference class does not block a multi-class report (issue 15 §3):
M, the PD-weighted AUC and the pooled curves are defined (scikit-learn is the oracle); only
that fold's own curve is not, and the output says it is left out."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score
from sklearn.metrics import roc_curve as sk_roc_curve

from roc_dash.core.assembly.analysis import analyse
from roc_dash.core.assembly.extensions import analyse_multiclass
from roc_dash.core.kinds.canonical_kinds import class_view
from roc_dash.io import InputError, ReadOptions, load_predictions

CLASSES = ["A", "B", "C"]


def two_folds_without_c(seed: int = 0, n: int = 90) -> pd.DataFrame:
    """Fold 1 has all three classes, fold 2 only A and B; noisy class probabilities."""
    rng = np.random.default_rng(seed)
    rows = []
    for fold, present in (("1", CLASSES), ("2", ["A", "B"])):
        for k in range(n):
            true = present[k % len(present)]
            logits = rng.normal(0, 1, 3) + 1.2 * (np.array(CLASSES) == true)
            p = np.exp(logits) / np.exp(logits).sum()
            rows.append({"fold": fold, "label": true,
                         **{f"score_{c}": round(float(v), 5) for c, v in zip(CLASSES, p,
                                                                               strict=True)}})
    return pd.DataFrame(rows)


def test_mcf001_the_report_of_class_c_runs_and_matches_scikit_learn(tmp_path):
    frame = two_folds_without_c()
    path = tmp_path / "f.csv"
    frame.to_csv(path, index=False)
    out = subprocess.run([sys.executable, "-m", "roc_dash.cli", "report", str(path),
                          "--positive", "C"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    y = frame["label"].to_numpy()
    p = frame[[f"score_{c}" for c in CLASSES]].to_numpy()
    mc = doc["multiclass"]["models"][0]
    assert doc["multiclass"]["reference_class"] == "C"
    assert mc["hand_till_m"] == pytest.approx(
        roc_auc_score(y, p, multi_class="ovo", labels=CLASSES), abs=1e-12)
    assert mc["auc_weighted"] == pytest.approx(
        roc_auc_score(y, p, multi_class="ovr", average="weighted", labels=CLASSES), abs=1e-12)
    # the pooled curve of C against the rest
    model = doc["models"][0]
    fpr, tpr, _ = sk_roc_curve(y == "C", p[:, 2], drop_intermediate=False)
    assert np.allclose(model["roc"]["fpr"], fpr) and np.allclose(model["roc"]["tpr"], tpr)
    assert model["auc"] == pytest.approx(roc_auc_score(y == "C", p[:, 2]), abs=1e-12)
    assert model["n_folds"] == 2
    # the per-fold views: only fold 1, and the output says why
    assert model["threshold_average"]["n_curves"] == 1
    note = next(n for n in doc["notes"] if "fold '2'" in n)
    assert "no positive rows (class 'C')" in note and "leave it out" in note
    assert "fold '2' has no positive rows" in out.stderr


def test_mcf002_the_analysis_keeps_every_fold_that_has_both_classes(tmp_path):
    frame = two_folds_without_c(seed=3)
    path = tmp_path / "f.csv"
    frame.to_csv(path, index=False)
    table = load_predictions([path], options=ReadOptions(positive="C")).table
    m = analyse(table).models[0]
    assert list(m.folds) == ["1"] and m.n_folds == 2
    fold1 = frame[frame["fold"] == "1"]
    fpr, tpr, _ = sk_roc_curve(fold1["label"] == "C", fold1["score_C"], drop_intermediate=False)
    assert np.allclose(m.folds["1"].fpr, fpr) and np.allclose(m.folds["1"].tpr, tpr)
    # the other classes keep both folds (the app's class selector)
    for cls in ("A", "B"):
        view = analyse(class_view(table, cls)).models[0]
        assert sorted(view.folds) == ["1", "2"] and not view.notes
    mc = analyse_multiclass(table)[0].result
    y = frame["label"].to_numpy()
    p = frame[[f"score_{c}" for c in CLASSES]].to_numpy()
    assert mc.hand_till_m == pytest.approx(
        roc_auc_score(y, p, multi_class="ovo", labels=CLASSES), abs=1e-12)


def test_mcf003_html_report_too(tmp_path):
    path = tmp_path / "f.csv"
    two_folds_without_c(seed=1).to_csv(path, index=False)
    target = tmp_path / "r.html"
    out = subprocess.run([sys.executable, "-m", "roc_dash.cli", "report", str(path),
                          "--positive", "C", "--format", "html", "-o", str(target)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "fold &#x27;2&#x27; has no positive rows" in target.read_text() or \
        "fold '2' has no positive rows" in target.read_text()


def test_mcf004_binary_files_and_a_class_missing_from_a_whole_model_still_refused(tmp_path):
    binary = tmp_path / "b.csv"
    pd.DataFrame({"fold": ["1", "1", "2", "2"], "label": [1, 0, 0, 0],
                  "score": [0.9, 0.1, 0.2, 0.3]}).to_csv(binary, index=False)
    with pytest.raises(InputError, match=r"only negative labels \('0'\) in fold '2'"):
        load_predictions([binary])
    frame = two_folds_without_c()
    frame["model"] = np.where(frame["fold"] == "1", "m1", "m2")  # m2 never sees C
    multi = tmp_path / "m.csv"
    frame.to_csv(multi, index=False)
    with pytest.raises(InputError, match="model 'm2' has only negative labels"):
        load_predictions([multi], options=ReadOptions(positive="C"))
