"""One model group by group: per-group ROC and optima, thresholds under a fairness constraint.

:mod:`.slices` repeats one model's analysis within each group of a categorical column;
:mod:`.group_thresholds` chooses each group's threshold under a fairness constraint and says
what the constraint costs. Above :mod:`..decisions` and :mod:`..combining`.
"""
