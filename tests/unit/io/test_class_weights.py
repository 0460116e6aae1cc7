"""A class whose rows all weigh 0 leaves the ROC curve undefined: io refuses the file with a
message naming the file, model, fold and class (the stranger review found the page silently
kept the old views, and the CLI and notebook raised core's bare message)."""

import subprocess
import sys

import pandas as pd
import pytest

from roc_dash.io import InputError, load_predictions
from roc_dash.io.engines import aggregate_predictions


def _frame(pos_weights, fold=None):
    df = pd.DataFrame({"label": [1, 1, 0, 0, 0], "score": [0.9, 0.8, 0.1, 0.3, 0.5],
                       "weight": [*pos_weights, 1.0, 2.0, 1.0]})
    if fold is not None:
        df["fold"] = fold
    return df


@pytest.mark.parametrize("weights, fold, where", [
    ((0.0, 0.0), None, "in the whole file"),
    ((0.0, 0.0), 3, "in fold '3'"),
])
def test_czw001_zero_weight_class_refused(weights, fold, where):
    data = _frame(weights, fold).to_csv(index=False).encode()
    with pytest.raises(InputError) as err:
        load_predictions([("w0.csv", data)])
    text = str(err.value)
    assert text.startswith("w0.csv: model 'w0' has positive rows " + where)
    assert "weights add up to 0" in text and err.value.column == "weight"


def test_czw002_some_weight_is_enough():
    result = load_predictions([("w1.csv", _frame((1.0, 0.0)).to_csv(index=False).encode())])
    assert len(result.table) == 5


@pytest.mark.slow  # minutes on a busy machine: the full tier (make test-all) runs it
def test_czw003_engine_and_cli_say_the_same(tmp_path):
    path = tmp_path / "w0.csv"
    _frame((0.0, 0.0)).to_csv(path, index=False)
    with pytest.raises(InputError, match="weights add up to 0"):
        aggregate_predictions([str(path)])
    out = subprocess.run([sys.executable, "-m", "roc_dash.cli", "report", str(path)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 2 and "weights add up to 0" in out.stderr
    assert "Traceback" not in out.stderr
