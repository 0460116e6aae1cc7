"""Assembly only: turn a canonical table into the result objects the report and the page show.

Nothing here computes a measure of its own: beyond bookkeeping (grouping rows by model and
fold, pairing rows, choosing defaults, checking a deadline) the only arithmetic is the
table's own shares (:func:`~.analysis.prevalence`) and the benefits added back to an
optimum's cost (:meth:`~roc_dash.core.analysis_types.Conditions.benefit_per_case`). Every other number comes
from the core module named after what it computes. From a number on screen to its function:

* :mod:`.analysis` -- :func:`~.analysis.analyse` and :func:`~.analysis.with_conditions`,
  per model of a binary canonical table and across models:

  - ROC points, AUC: :mod:`roc_dash.core.roc.curves`;
  - AUC interval (DeLong / Hanley-McNeil), paired DeLong test, Gini, partial AUC:
    :mod:`roc_dash.core.inference.statistics` (soft labels:
    :mod:`roc_dash.core.kinds.soft_labels`);
  - vertical and threshold averages across folds: :mod:`roc_dash.core.roc.averaging`;
  - convex hull, iso-performance slope, optimal point, expected cost:
    :mod:`roc_dash.core.roc.hull`;
  - average precision, interpolated PR area: :mod:`roc_dash.core.roc.precision_recall`;
  - the table's kind (soft labels, ...): :mod:`roc_dash.core.kinds.canonical_kinds`.

* :mod:`.extensions` -- what is shown beyond one binary scorer, per model: multi-class
  (:mod:`roc_dash.core.kinds.multiclass`), soft labels (:mod:`roc_dash.core.kinds.soft_labels`),
  example-specific costs (:mod:`roc_dash.core.kinds.instance_costs`), tree leaves
  (:mod:`roc_dash.core.kinds.leaves`), budget (:mod:`roc_dash.core.combining.capacity_mix`),
  concavity repair (:mod:`roc_dash.core.combining.concavity_repair`), logical combinations
  (:mod:`roc_dash.core.combining.logical_combining`), relative superiority and LC index
  (:mod:`roc_dash.core.combining.superiority`).

* :mod:`.combining_views` -- the dashboard's views of combining and comparing classifiers
  for one analysis: budget, repair, AND/OR and superiority, computed by
  :mod:`roc_dash.core.combining.capacity_mix`, :mod:`roc_dash.core.combining.concavity_repair`,
  :mod:`roc_dash.core.combining.logical_combining` and :mod:`roc_dash.core.combining.superiority`.

The result types are in :mod:`roc_dash.core.analysis_types`. The money, the chosen point
and its robustness are computed from an :class:`~roc_dash.core.analysis_types.Analysis` by
:mod:`roc_dash.core.decisions.economics`, :mod:`roc_dash.core.decisions.threshold_costs`,
:mod:`roc_dash.core.decisions.optimality`, :mod:`roc_dash.core.decisions.decision_summary`,
:mod:`roc_dash.core.decisions.uncertainty` and
:mod:`roc_dash.core.decisions.optimum_frequency`; an operating point's consequences by
:mod:`roc_dash.core.decisions.operating`.

This package imports nothing on purpose: import its modules directly
(``from roc_dash.core.assembly.analysis import analyse``).
"""
