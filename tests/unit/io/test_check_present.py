"""One check for a column's missing values, shared by the label, class, name and weight
columns: nothing raised when none is missing; else the file, the column, the first rows
(as the file numbers them) and what to do."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
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


def test_chp003_a_column_that_cannot_be_text_names_file_column_type_and_use():
    from roc_dash.io.labels import _normalised
    from roc_dash.io.values import to_text

    lists = pa.array([[1, 2], [3]])
    with pytest.raises(InputError) as err:
        to_text(lists, "a.parquet", "fold")
    assert str(err.value) == ("a.parquet: column 'fold' holds list<item: int64> values, which "
                              "cannot be used as text. Choose another column or convert this "
                              "one.")
    assert (err.value.file, err.value.column) == ("a.parquet", "fold")
    with pytest.raises(InputError) as err:
        _normalised(lists, "a.parquet", "y")
    assert str(err.value).endswith("which cannot be used as class labels. Choose another "
                                   "label column.")
