"""The app by feature: each module owns what the user sees of one feature — its layout
fragment, its callbacks (``register(app, cache, store)``) and its small pure helpers.

* :mod:`.data` — data and uploads, the dataset list, the demo, the prior's source;
* :mod:`.conditions` — costs, prior and the iso-performance line;
* :mod:`.views` — the linked views (ROC, PR, cost, threshold) and their settings;
* :mod:`.pins` — pins, their comparison and the summary strip;
* :mod:`.exports` — CSV and the HTML report;
* :mod:`.notes` — notes, saved views and links;
* :mod:`.kinds` — input kinds (multi-class, soft labels, costs, leaves);
* :mod:`.combining` — combining classifiers and relative superiority.

A feature never imports another feature: what two of them share lives below them
(:mod:`..state`, :mod:`..analysis`, :mod:`..render`, :mod:`..overlays`,
:mod:`..components`, :mod:`..server`). ``tests/unit/test_architecture.py`` checks it.
"""

from . import combining, conditions, data, exports, kinds, notes, pins, views

#: In the order their callbacks are registered.
FEATURES = (data, conditions, views, pins, combining, kinds, exports, notes)

__all__ = ["FEATURES", "combining", "conditions", "data", "exports", "kinds", "notes", "pins",
           "views"]
