"""review8 item 2: a model (or a whole load) with a single class in every fold is named at
that level, never blamed on one fold, and removing a fold is not offered when it cannot
help."""

import pandas as pd
import pytest

from roc_dash.io import InputError, load_predictions


def _error(tmp_path, frame, name="f.csv"):
    path = tmp_path / name
    frame.to_csv(path, index=False)
    with pytest.raises(InputError) as err:
        load_predictions([path])
    return str(err.value)


def test_ocl001_a_model_with_one_class_in_every_fold_is_named_as_a_whole(tmp_path):
    folds = [5, 1, 3, 5, 4, 2, 3, 4, 1, 2] * 21  # 210 rows, fold '5' first, as review8's
    frame = pd.DataFrame({"model": "logreg", "fold": folds, "label": 1,
                          "score": [i / 210 for i in range(210)]})
    msg = _error(tmp_path, frame)
    assert "model 'logreg' has only positive labels ('1') in all its 210 rows (5 folds)" in msg
    assert "fold '" not in msg and "remove this fold" not in msg
    assert "other model/fold" not in msg
    assert "remove this model" not in msg  # the only model: removing it leaves nothing


def test_ocl002_a_whole_load_of_one_class_says_so(tmp_path):
    frame = pd.DataFrame({"model": ["a"] * 4 + ["b"] * 4, "fold": [1, 1, 2, 2] * 2,
                          "label": 0, "score": [0.1, 0.2, 0.3, 0.4] * 2})
    msg = _error(tmp_path, frame)
    assert "every row has a negative label ('0') (all 8 rows, 2 models)" in msg
    assert "remove this" not in msg


def test_ocl003_fold_advice_only_when_removing_folds_helps(tmp_path):
    # model b has one class in every fold while a is fine: remove the model, not a fold
    frame = pd.DataFrame({"model": ["b"] * 4 + ["a"] * 4, "fold": [1, 1, 2, 2] * 2,
                          "label": [1] * 4 + [1, 0, 1, 0], "score": [0.1, 0.2, 0.3, 0.4] * 2})
    msg = _error(tmp_path, frame)
    assert "model 'b' has only positive labels ('1') in all its 4 rows (2 folds)" in msg
    assert "or remove this model." in msg and "remove this fold" not in msg
    # every fold single-class but the model has both classes: no fold can be removed
    frame = pd.DataFrame({"model": "a", "fold": [1, 1, 2, 2], "label": [1, 1, 0, 0],
                          "score": [0.1, 0.2, 0.3, 0.4]})
    msg = _error(tmp_path, frame)
    assert "in fold '1' (2 rows)" in msg and "remove this fold" not in msg
    assert "to each of its folds" in msg
    # one bad fold among good ones: the first in the file's order, and removing it helps
    frame = pd.DataFrame({"model": "a", "fold": [3, 3, 2, 2, 1, 1], "label": [1, 0, 1, 1, 0, 0],
                          "score": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]})
    msg = _error(tmp_path, frame)
    assert "in fold '2' (2 rows)" in msg and "or remove this fold." in msg
