"""One check for a column's missing values, shared by the label, class, name and weight
columns: nothing raised when none is missing; else the file, the column, the first rows
(as the file numbers them) and what to do."""

from __future__ import annotations

import numpy as np
import pytest

from roc_dash.io.errors import InputError
from roc_dash.io.values import check_present


def _file_rows(positions: np.ndarray) -> np.ndarray:
    return positions + 2  # a header line, lines counted from 1


def test_chp001_nothing_missing_passes():
    assert check_present(np.zeros(5, dtype=bool), _file_rows, "a.csv", "w", "Need;",
                         "fix.") is None


def test_chp002_missing_values_name_file_column_rows_and_advice():
    mask = np.array([False, True, False, True, True])
    with pytest.raises(InputError) as err:
        check_present(mask, _file_rows, "a.csv", "weight", "Every row needs a weight;",
                      "fill them in.")
    e = err.value
    assert (e.file, e.column, e.count) == ("a.csv", "weight", 3)
    assert list(e.rows) == list(np.flatnonzero(mask) + 2)
    assert str(e).startswith("a.csv: column") and "3 missing values" in str(e)
    assert str(e).endswith("Every row needs a weight; fill them in.")
