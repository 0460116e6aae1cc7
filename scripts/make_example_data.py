"""Build the bundled multi-class and soft-label example files (deterministic, no network).

``roc_dash/data/multiclass_demo.csv`` -- scikit-learn's bundled *wine* data (Forina et al.,
UCI; 178 wines from three cultivars, ``class_0``/``class_1``/``class_2`` with 59/71/48 rows)
classified from two of its thirteen measurements only, **alcohol** and **ash**, so that the
task is hard and uneven: class_0 and class_1 separate well, class_0 and class_2 hardly
(pairwise AUCs from about 0.5 to 0.98), and with unequal class sizes the Provost-Domingos
weighted AUC, the macro mean and Hand & Till's M all differ. Two models, out-of-fold over a
stratified 5-fold split: a logistic regression (smooth scores) and a depth-3 decision tree
(leaf scores, with runs of tied scores). One row per (model, wine)::

    model, fold, id, class, score_class_0, score_class_1, score_class_2

(the scores of a row are the model's class probabilities, rounded to 6 decimals).

``roc_dash/data/soft_labels_demo.csv`` -- scikit-learn's bundled *diabetes* data (Efron et al.
2004, 442 patients) with Qin's fuzzy labels on a numeric target (``../shared/papers/001_*``,
section 3): the disease progression ``t`` one year later belongs to the label "high" with
membership ``p = clip((t - 100) / 150, 0, 1)`` (0 up to 100, 1 from 250, linear between; "low"
is ``1 - p``), so about half of the rows carry a fractional label. Two regressors predict
``t`` out-of-fold over a 10-fold split, and the prediction is the score: a ridge regression and
a 15-nearest-neighbours regressor (whose averages tie now and then). One row per
(model, patient)::

    model, fold, id, label_prob, score

Run ``python scripts/make_example_data.py`` (needs scikit-learn) to regenerate both files;
``--out-dir`` writes them elsewhere.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.datasets import load_diabetes, load_wine
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import KFold, StratifiedKFold
from sklearn.neighbors import KNeighborsRegressor
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

DATA_DIR = Path(__file__).resolve().parents[1] / "roc_dash" / "data"
MULTICLASS_FILE = "multiclass_demo.csv"
SOFT_LABELS_FILE = "soft_labels_demo.csv"

#: Membership of "high progression": 0 at or below LOW, 1 at or above HIGH, linear between.
LOW, HIGH = 100.0, 250.0

MULTICLASS_MODELS = {
    "logistic regression": lambda: make_pipeline(StandardScaler(), LogisticRegression(C=1.0)),
    "decision tree": lambda: DecisionTreeClassifier(max_depth=3, random_state=0),
}

SOFT_MODELS = {
    "ridge regression": lambda: make_pipeline(StandardScaler(), Ridge(alpha=1.0)),
    "nearest neighbours": lambda: make_pipeline(
        StandardScaler(), KNeighborsRegressor(n_neighbors=15)
    ),
}


def multiclass_demo() -> pd.DataFrame:
    """Out-of-fold class probabilities of two models on wine (alcohol and ash only)."""
    data = load_wine()
    columns = [data.feature_names.index("alcohol"), data.feature_names.index("ash")]
    x, y = data.data[:, columns], data.target
    names = np.asarray(data.target_names)
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
    parts = []
    for model_name, make in MULTICLASS_MODELS.items():
        for k, (train, test) in enumerate(folds.split(x, y), start=1):
            model = make().fit(x[train], y[train])
            proba = model.predict_proba(x[test])  # columns in model.classes_ = 0, 1, 2
            part = pd.DataFrame({"model": model_name, "fold": k, "id": test,
                                 "class": names[y[test]]})
            for c, name in zip(model.classes_, names[model.classes_], strict=True):
                part[f"score_{name}"] = np.round(proba[:, int(c)], 6)
            parts.append(part)
    return pd.concat(parts, ignore_index=True)


def soft_labels_demo() -> pd.DataFrame:
    """Out-of-fold predictions of two regressors on diabetes, with Qin's fuzzy labels."""
    data = load_diabetes()
    x, t = data.data, data.target
    label_prob = np.round(np.clip((t - LOW) / (HIGH - LOW), 0.0, 1.0), 6)
    folds = KFold(n_splits=10, shuffle=True, random_state=0)
    parts = []
    for model_name, make in SOFT_MODELS.items():
        for k, (train, test) in enumerate(folds.split(x), start=1):
            model = make().fit(x[train], t[train])
            parts.append(pd.DataFrame({
                "model": model_name,
                "fold": k,
                "id": test,
                "label_prob": label_prob[test],
                "score": np.round(model.predict(x[test]), 3),
            }))
    return pd.concat(parts, ignore_index=True)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out-dir", type=Path, default=DATA_DIR)
    out = parser.parse_args(argv).out_dir
    out.mkdir(parents=True, exist_ok=True)
    for name, table in ((MULTICLASS_FILE, multiclass_demo()),
                        (SOFT_LABELS_FILE, soft_labels_demo())):
        path = out / name
        table.to_csv(path, index=False)
        print(f"wrote {len(table)} rows to {path} ({path.stat().st_size / 1024:.0f} KB)")


if __name__ == "__main__":
    main()
