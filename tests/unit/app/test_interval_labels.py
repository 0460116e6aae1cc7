"""Review 11 item 4: one name, one number. The Decide tab showed three different "95%
intervals" for the same recall at the same threshold (the operating card at the optimum,
the card's floors choice, the "How sure is each floor to hold?" table), and the record a
fourth (its exact Clopper-Pearson one). Each is now labelled with what it is, and the floors
table shows the exact interval docs/constraints.md promises for recall, specificity and FPR
(scipy's beta quantiles the oracle)."""

import re

import numpy as np
from scipy.stats import beta

import roc_dash
from roc_dash.app.analysis import model_names
from roc_dash.app.components import plain_text
from roc_dash.app.features import intervals as feature
from roc_dash.app.features.constraints import confidence_table
from roc_dash.app.server.store import DEMO_ID
from roc_dash.app.state import ControlState
from roc_dash.core.constraints.floor_confidence import floor_confidence
from roc_dash.report.constraints_html import _floors_html
from roc_dash.text.rounding import sig

from .test_app_point_intervals import _page


def _cp(k, n, level=0.95):
    """Two-sided Clopper-Pearson interval (scipy's beta quantiles)."""
    a = (1 - level) / 2
    return (0.0 if k == 0 else float(beta.ppf(a, k, n - k + 1)),
            1.0 if k == n else float(beta.ppf(1 - a, k + 1, n - k)))


def _data(n=600, seed=3):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    s = np.round(rng.normal(np.where(y, 1.2, 0.0), 1.0), 3)
    return y, s


def test_ilb001_floor_table_shows_the_exact_interval_for_recall_and_names_each_method():
    y, s = _data()
    t = float(np.quantile(s[y], 0.2))
    fc = floor_confidence(y, s, ["recall >= 0.75", "precision >= 0.6"], t, n_boot=100,
                          procedure=False)
    text = plain_text(confidence_table([("m", fc)]))
    k, n = int((s[y] >= t).sum()), int(y.sum())
    lo, hi = _cp(k, n)
    recall, precision = fc.holds
    assert recall.estimate == k / n
    assert f"{sig(k / n)} [{sig(lo)}–{sig(hi)}] exact (Clopper–Pearson)" in text
    # precision: the bootstrap percentile interval, and said so
    assert (f"{sig(precision.estimate)} [{sig(precision.low)}–{sig(precision.high)}] "
            "bootstrap percentile") in text
    # the bootstrap interval of recall is not shown under the same name
    assert f"[{sig(recall.low)}–{sig(recall.high)}]" not in text


def test_ilb002_report_floor_table_shows_the_same_interval_as_the_page():
    y, s = _data()
    models = roc_dash.constraints_of(y, s, floors=["recall >= 0.75"], n_boot=60)
    h = models[0].floor_confidence.holds[0]
    k, n = round(h.estimate * int(y.sum())), int(y.sum())
    lo, hi = _cp(k, n)
    page = plain_text(confidence_table([("m", models[0].floor_confidence)]))
    report = _floors_html(models, {})
    assert f"[{sig(lo)}, {sig(hi)}] exact (Clopper–Pearson)" in report
    assert f"[{sig(lo)}–{sig(hi)}] exact (Clopper–Pearson)" in page


def test_ilb003_operating_card_names_its_intervals_kind_per_column(cache):
    model_names(cache, [DEMO_ID])
    state = ControlState(prior=0.3, prior_mode="manual").to_store()
    pins = [{"model": "logistic regression", "threshold": 0.5, "label": "A"}]
    chosen = feature.chosen_intervals(cache, _page(state, pins), n_boot=40, seconds=600)
    text = plain_text(feature.intervals_table(chosen))
    assert text.startswith("How sure? 95% bootstrap intervals")
    assert "Optimum corrected for the choice" in text and "A threshold fixed" in text


def test_ilb004_report_floor_notes_name_their_model_in_the_tables_order():
    """Stranger review 12: the HTML report's notes under the floors table said "No threshold
    of the model meets every floor (...)" once per model, sorted by their text, and never
    which model. Each note now starts with its model's name, in the table's order."""
    rng = np.random.default_rng(5)
    n = 900
    y = rng.random(n) < 0.3
    scores = np.concatenate([rng.normal(np.where(y, sep, 0.0), 1.0) for sep in (0.3, 1.0, 2.0)])
    models = roc_dash.constraints_of(np.tile(y, 3), scores,
                                     model=np.repeat(["weak", "fair", "good"], n),
                                     floors=["precision >= 0.99", "recall >= 0.9"], n_boot=0)
    report = _floors_html(models, {})
    items = re.findall(r"<li><strong>([^<]+)</strong>: No threshold of the model", report)
    assert items == [m.name for m in models if not m.floors.feasible]
    assert len(items) == 3
    assert "<li>No threshold" not in report
