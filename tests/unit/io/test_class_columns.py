"""Multi-class score columns as users already name them, and plurals in messages (issue 15
§3): ``p_<class>``, ``proba_<class>``, ``prob_<class>``, ``y_proba_<class>`` and
yardstick's ``.pred_<class>`` (with its ``truth`` label column and ``.pred_class``) read
like ``score_<class>``; "4 classs" is "4 classes"."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

from roc_dash.core.assembly.extensions import analyse_multiclass
from roc_dash.io import InputError, ReadOptions, load_predictions
from roc_dash.io.errors import plural, plural_of

CLASSES = ["setosa", "versicolor", "virginica"]


def frame(prefix: str, seed: int = 0, n: int = 90) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = np.array(CLASSES)[np.arange(n) % 3]
    logits = rng.normal(0, 1, (n, 3)) + 1.5 * (y[:, None] == np.array(CLASSES))
    p = np.round(np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True), 5)
    out = pd.DataFrame({"label": y})
    for k, c in enumerate(CLASSES):
        out[f"{prefix}{c}"] = p[:, k]
    return out


@pytest.mark.parametrize("prefix", ["score_", "p_", "proba_", "prob_", "y_proba_", ".pred_",
                                    "P_", "Proba_"])
def test_col001_common_per_class_column_names_are_multi_class(tmp_path, prefix):
    data = frame(prefix)
    path = tmp_path / "iris.csv"
    data.to_csv(path, index=False)
    result = load_predictions([path])
    assert result.kind.kind == "multiclass" and list(result.kind.classes) == CLASSES
    assert any(f"scored by '{prefix}setosa'" in n for n in result.notes)
    m = analyse_multiclass(result.table)[0].result
    p = data[[f"{prefix}{c}" for c in CLASSES]].to_numpy()
    assert m.hand_till_m == pytest.approx(
        roc_auc_score(data["label"], p, multi_class="ovo", labels=CLASSES), abs=1e-12)


def test_col002_yardstick_predictions_with_truth_and_pred_class(tmp_path):
    data = frame(".pred_").rename(columns={"label": "truth"})
    data[".pred_class"] = np.array(CLASSES)[
        data[[f".pred_{c}" for c in CLASSES]].to_numpy().argmax(axis=1)]
    path = tmp_path / "collect_predictions.csv"
    data.to_csv(path, index=False)
    result = load_predictions([path], options=ReadOptions(positive="virginica"))
    assert list(result.kind.classes) == CLASSES and result.kind.reference_class == "virginica"
    assert set(result.table["score_virginica"]) == set(data[".pred_virginica"])


def test_col003_a_missing_class_column_names_the_accepted_forms(tmp_path):
    data = frame("p_").drop(columns=["p_virginica"])
    path = tmp_path / "two.csv"
    data.to_csv(path, index=False)
    with pytest.raises(InputError) as info:
        load_predictions([path], options=ReadOptions(class_column="label"))
    assert "p_<class>" in info.value.message and ".pred_<class>" in info.value.message


def test_col004_plurals_in_messages(tmp_path):
    assert plural(4, "class") == "4 classes" and plural(1, "class") == "1 class"
    assert plural(2, "row") == "2 rows" and plural(3, "box") == "3 boxes"
    assert plural(2, "category") == "2 categories" and plural(2, "day") == "2 days"
    assert plural(2, "leaf", "leaves") == "2 leaves" and plural_of("match") == "matches"
    # the message the review saw: four classes, two without a score column
    path = tmp_path / "four.csv"
    pd.DataFrame({"label": list("ABCD"), "score_A": [.1, .2, .3, .4],
                  "score_B": [.4, .3, .2, .1]}).to_csv(path, index=False)
    with pytest.raises(InputError) as info:
        load_predictions([path])
    assert "holds 4 classes" in info.value.message
    assert "2 classes have no score column" in info.value.message
    assert "classs" not in info.value.message
