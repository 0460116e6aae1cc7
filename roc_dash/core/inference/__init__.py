"""Statistics and intervals on ROC results: how sure a number is, and how two compare.

Gini, partial AUC, DeLong and Hanley-McNeil intervals and tests (:mod:`.statistics`,
:mod:`.partial_auc`), the cross-validated AUC and its interval (:mod:`.cross_validation`),
k models compared with adjusted p-values and their optimal cost ranges
(:mod:`.model_comparison`), DeLong's one-sided non-inferiority test (:mod:`.noninferiority`),
and whether scores can be read as probabilities (:mod:`.calibration`). Above :mod:`..roc`.
"""
