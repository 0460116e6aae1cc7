"""The app by feature: each module owns what the user sees of one feature — its layout
fragment, its callbacks (``register(app, cache, store)``) and its small pure helpers.

* :mod:`.data` — data and uploads, the dataset list, the demo, the prior's source;
* :mod:`.conditions` — costs, prior and the iso-performance line;
* :mod:`.views` — the linked views (ROC, PR, cost, threshold) and their settings;
* :mod:`.pins` — pins, their comparison and the summary strip;
* :mod:`.exports` — CSV and the HTML report;
* :mod:`.notes` — notes, saved views and links;
* :mod:`.kinds` — input kinds (multi-class, soft labels, costs, leaves);
* :mod:`.combining` — combining classifiers and relative superiority;
* :mod:`.tabs` — the page's tabs, each a group of cards;
* :mod:`.intervals` — bootstrap intervals at the chosen points (operating card);
* :mod:`.comparison` — the k-model comparison matrix and each model's optimal cost range;
* :mod:`.slices` — one model group by group, thresholds under fairness constraints;
* :mod:`.calibration` — reliability, Brier/ECE and the calibrated scores (Compare tab);
* :mod:`.monitor` — the Monitor tab: a decision checked on windows after deployment;
* :mod:`.sources` — predictions that live on the server (``ROC_DASH_SOURCES``), opened in place;
* :mod:`.constraints` — capacity and floors (Decide tab): their points, gains/lift/KS, how sure.
* :mod:`.constrained_strip` — the summary strip's headline and the operating card under them.
* :mod:`.cost_matrix` — several classes under a cost matrix (Beyond binary): the rules, a record.

A feature never imports another feature: what two of them share lives below them
(:mod:`..state`, :mod:`..analysis`, :mod:`..render`, :mod:`..overlays`,
:mod:`..components`, :mod:`..server`). ``tests/unit/project/test_architecture.py`` checks it.
"""

from . import (
    calibration,
    combining,
    comparison,
    conditions,
    constrained_strip,
    constraints,
    cost_matrix,
    data,
    exports,
    intervals,
    kinds,
    monitor,
    notes,
    pins,
    slices,
    sources,
    tabs,
    views,
)

#: In the order their callbacks are registered. Where several callbacks write one output
#: (``allow_duplicate``), its own writer comes first: the views before the conditions (whose
#: controls callback and iso-line drag also write the views), the data before the kinds
#: (whose example links also write the datasets). Dash does not need it, but a client that
#: looks a callback up by its first output in ``_dash-dependencies`` then finds the primary
#: one first, as it did before the app was split (tests/hostile's harness does).
FEATURES = (data, views, conditions, pins, combining, kinds, exports, notes, tabs, intervals,
            comparison, slices, calibration, sources, monitor, constraints, constrained_strip,
            cost_matrix)

__all__ = ["FEATURES", "combining", "conditions", "data", "exports", "kinds", "notes", "pins",
           "tabs", "views", "intervals", "comparison", "slices", "calibration", "sources",
           "monitor", "constraints", "constrained_strip",
           "cost_matrix"]
