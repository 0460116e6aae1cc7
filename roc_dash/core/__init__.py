"""Pure ROC analysis: numpy in, small frozen dataclasses of numpy arrays out.

No Dash, Plotly or Flask import is allowed anywhere under this package (a test checks it).
"""

from .curves import (
    OperatingPoint,
    RocCurve,
    accuracy_at_threshold,
    auc,
    best_accuracy,
    roc_auc,
    roc_curve,
)

__all__ = [
    "OperatingPoint",
    "RocCurve",
    "accuracy_at_threshold",
    "auc",
    "best_accuracy",
    "roc_auc",
    "roc_curve",
]
