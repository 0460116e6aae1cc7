"""ROC space: curves, their convex hull, and the curves read from them.

The empirical ROC curve of scores and labels (:mod:`.curves`; ties, DET and collinear
points in :mod:`.curve_geometry`), its convex hull, the iso-performance lines and the
optimal vertex (:mod:`.hull`, :mod:`.iso_performance`), averages across folds
(:mod:`.averaging`, :mod:`.per_fold_curves`, :mod:`.score_scales`, :mod:`.fold_thresholds`),
the counts at one threshold (:mod:`.confusion`), and the curves derived from ROC points:
precision-recall at a deployment prevalence (:mod:`.precision_recall`,
:mod:`.pr_interpolation`, :mod:`.precision_recall_gain`) and Drummond & Holte's cost curves
(:mod:`.cost_curves`). The lowest floor of core above its ground floor.
"""
