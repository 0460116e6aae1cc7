"""Read and validate prediction files into one canonical table.

>>> result = load_predictions(["preds.csv"])          # doctest: +SKIP
>>> result.table.columns.tolist()                     # doctest: +SKIP
['label', 'score', 'model', 'fold', 'weight']
"""

from .canonical import CANONICAL_COLUMNS, LoadResult, ReadOptions, load_predictions
from .errors import InputError
from .readers import read_table

__all__ = [
    "CANONICAL_COLUMNS",
    "InputError",
    "LoadResult",
    "ReadOptions",
    "load_predictions",
    "read_table",
]
