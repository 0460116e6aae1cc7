"""Read and validate prediction files into one canonical table.

>>> result = load_predictions(["preds.csv"])          # doctest: +SKIP
>>> result.table.columns.tolist()                     # doctest: +SKIP
['label', 'score', 'model', 'fold', 'weight']
"""

from .canonical import CANONICAL_COLUMNS, LoadResult, ReadOptions
from .errors import DecodedSizeError, InputError, LimitError
from .groups import GROUP_COLUMN, MAX_GROUPS
from .loading import load_predictions
from .readers import read_table
from .size_limits import Limits, limits, release_memory

__all__ = [
    "CANONICAL_COLUMNS", "DecodedSizeError", "GROUP_COLUMN", "InputError", "LimitError", "Limits",
    "LoadResult", "MAX_GROUPS", "ReadOptions", "limits", "load_predictions", "read_table",
    "release_memory",
]
