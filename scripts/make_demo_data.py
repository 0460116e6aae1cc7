"""Build the bundled demo predictions: 4 models x 10-fold cross-validation on a real dataset.

Dataset: scikit-learn's bundled *diabetes* data (Efron et al. 2004, 442 patients, 10 baseline
measurements). The regression target (disease progression one year later) is turned into a
binary question: "is progression above 200?" (positive class, about 26 % of patients). The
task is genuinely hard, so the four models' ROC curves differ visibly and cross, and the
decision tree's leaf scores produce runs of tied scores.

Each row of the output is one out-of-fold prediction: ``model, fold, id, label, score``
(``id`` is the patient, so the models' rows pair up for paired comparisons).
Run ``python scripts/make_demo_data.py`` (needs scikit-learn) to regenerate
``roc_dash/data/demo_predictions.csv``; the result is deterministic.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.datasets import load_diabetes
from sklearn.ensemble import GradientBoostingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

OUT = Path(__file__).resolve().parents[1] / "roc_dash" / "data" / "demo_predictions.csv"
THRESHOLD = 200.0

MODELS = {
    "logistic regression": lambda: make_pipeline(StandardScaler(), LogisticRegression(C=1.0)),
    "naive Bayes": lambda: GaussianNB(),
    "decision tree": lambda: DecisionTreeClassifier(max_depth=4, min_samples_leaf=8, random_state=0),
    "gradient boosting": lambda: GradientBoostingClassifier(
        n_estimators=150, max_depth=2, learning_rate=0.05, random_state=0
    ),
}


def main() -> None:
    data = load_diabetes()
    x, y = data.data, data.target > THRESHOLD
    folds = StratifiedKFold(n_splits=10, shuffle=True, random_state=42)
    rows = []
    for name, make in MODELS.items():
        for k, (train, test) in enumerate(folds.split(x, y), start=1):
            model = make().fit(x[train], y[train])
            score = model.predict_proba(x[test])[:, 1]
            rows.append(
                pd.DataFrame(
                    {
                        "model": name,
                        "fold": k,
                        "id": test,
                        "label": np.where(y[test], "pos", "neg"),
                        "score": np.round(score, 6),
                    }
                )
            )
    table = pd.concat(rows, ignore_index=True)
    table.to_csv(OUT, index=False)
    print(f"wrote {len(table)} rows to {OUT} (prevalence {y.mean():.3f})")


if __name__ == "__main__":
    main()
