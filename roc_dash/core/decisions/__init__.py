"""Costs and decisions: what an operating point costs, which one to choose, how sure the choice is.

An operating point's consequences (:mod:`.operating`), costs, benefits and volume
(:mod:`.economics`), the cost at every threshold (:mod:`.threshold_costs`), the conditions
under which a vertex stays optimal (:mod:`.optimality`), the decision summary
(:mod:`.decision_summary`), a threshold's spread across folds or bootstrap replicates
(:mod:`.uncertainty`), how often each model is the optimum (:mod:`.optimum_frequency`),
bootstrap intervals at the optimum and at pins (:mod:`.point_intervals`, with
:mod:`.proportion_intervals`), net benefit (:mod:`.decision_curve`) and the fingerprint of
the data a decision was taken on (:mod:`.data_fingerprint`). Reads the analysis's types
from :mod:`roc_dash.core.analysis_types`, the floor below.
"""
