"""Assembly only: turn a canonical table into the result objects the report and the page show.

Nothing here computes a measure of its own: beyond bookkeeping (grouping rows by model and
fold, pairing rows, choosing defaults, checking a deadline) the only arithmetic is the
table's own shares (:func:`~.analysis.prevalence`) and the benefits added back to an
optimum's cost (:meth:`~.analysis.Conditions.benefit_per_case`). Every other number comes
from the core module named after what it computes. From a number on screen to its function:

* :mod:`.analysis` -- :func:`~.analysis.analyse` and :func:`~.analysis.with_conditions`,
  per model of a binary canonical table and across models:

  - ROC points, AUC: :mod:`roc_dash.core.curves`;
  - AUC interval (DeLong / Hanley-McNeil), paired DeLong test, Gini, partial AUC:
    :mod:`roc_dash.core.statistics` (soft labels: :mod:`roc_dash.core.soft_labels`);
  - vertical and threshold averages across folds: :mod:`roc_dash.core.averaging`;
  - convex hull, iso-performance slope, optimal point, expected cost:
    :mod:`roc_dash.core.hull`;
  - average precision, interpolated PR area: :mod:`roc_dash.core.precision_recall`;
  - the table's kind (soft labels, ...): :mod:`roc_dash.core.canonical_kinds`.

* :mod:`.beyond_binary` -- what is shown beyond one binary scorer, per model: multi-class
  (:mod:`roc_dash.core.multiclass`), soft labels (:mod:`roc_dash.core.soft_labels`),
  example-specific costs (:mod:`roc_dash.core.instance_costs`), tree leaves
  (:mod:`roc_dash.core.leaves`), budget (:mod:`roc_dash.core.budget_mix`), concavity
  repair (:mod:`roc_dash.core.concavity_repair`), logical combinations
  (:mod:`roc_dash.core.logical_combining`), relative superiority and LC index
  (:mod:`roc_dash.core.superiority`).

* :mod:`.combining_views` -- the dashboard's views of combining and comparing classifiers
  for one analysis: budget, repair, AND/OR and superiority, computed by
  :mod:`roc_dash.core.budget_mix`, :mod:`roc_dash.core.concavity_repair`,
  :mod:`roc_dash.core.logical_combining` and :mod:`roc_dash.core.superiority`.

The money, the chosen point and its robustness are computed from an :class:`Analysis` by
:mod:`roc_dash.core.economics`, :mod:`roc_dash.core.threshold_costs`,
:mod:`roc_dash.core.optimality`, :mod:`roc_dash.core.chosen_point`,
:mod:`roc_dash.core.uncertainty` and :mod:`roc_dash.core.optimum_wins`; an operating point's
consequences by :mod:`roc_dash.core.operating`.

This package imports nothing on purpose: import its modules directly
(``from roc_dash.core.assembly.analysis import analyse``).
"""
