"""A recalibration chosen on the page's calibration card (rcp001-rcp004): *Download decision*
stores it beside the threshold (the optimum's record and the one chosen under a capacity),
and the classifier scikit-learn gets from the record applies it; checked against
statsmodels' logistic fit (``GLM(Binomial)``) applied by hand to new rows."""

from __future__ import annotations

import json

import numpy as np
import pytest
import statsmodels.api as sm
from dash import no_update
from scipy.special import expit, logit
from sklearn.linear_model import LogisticRegression

from roc_dash import decision
from roc_dash.app import create_app, ids
from roc_dash.app.analysis import AnalysisCache, shown_analysis
from roc_dash.app.page import build_layout
from roc_dash.app.page_state import PageState, parse_link
from roc_dash.app.server.store import DatasetStore
from roc_dash.app.state import ControlState
from roc_dash.io import load_predictions

CONDITIONS = ControlState(cost_fp=1.0, cost_fn=3.0, prior=0.3, prior_mode="manual")


@pytest.fixture
def fitted(tmp_path, monkeypatch):
    """An under-confident logistic regression (strong regularisation: the calibration slope
    is well above 1), its predictions on 800 rows loaded as the page's dataset, and 400 new
    rows to apply the record to."""
    import roc_dash.app.features.exports as exports

    monkeypatch.setattr(exports, "current_owner", lambda: "tester")
    rng = np.random.default_rng(7)
    X = rng.normal(size=(1200, 3))
    y = (X @ [1.5, -1.0, 0.5] + rng.logistic(size=1200) > 0.8).astype(int)
    est = LogisticRegression(C=0.002).fit(X[:800], y[:800])
    s = est.predict_proba(X[:800])[:, 1]
    path = tmp_path / "preds.csv"
    path.write_text("label,score\n" + "\n".join(f"{a},{float(b)!r}"
                                               for a, b in zip(y[:800], s, strict=True)))
    store = DatasetStore(tmp_path / "store")
    dataset = store.put(load_predictions([str(path)]).table, files=["preds.csv"]).id
    return exports, store, AnalysisCache(store), dataset, est, X, y, s


def _download(exports, store, cache, page, tmp_path):
    """Download decision for ``page``: (record loaded back from the file, its JSON, status)."""
    file, status = exports.decision_download(cache, store, page, shown_analysis(cache, page))
    assert file is not no_update, status
    target = tmp_path / "decision.json"
    target.write_text(file["content"])
    return decision.load(target), json.loads(file["content"]), status


def _statsmodels(y, x):
    """``(a, b)`` of statsmodels' logistic fit ``logit P(y=1) = a + b·x``."""
    fit = sm.GLM(y, sm.add_constant(x), family=sm.families.Binomial()).fit()
    return fit.params


def test_rcp001_optimum_record_stores_logistic_recalibration_as_statsmodels(fitted, tmp_path):
    exports, store, cache, dataset, est, X, y, s = fitted
    page = PageState(datasets=(dataset,), conditions=CONDITIONS, recalibration="logistic")
    record, doc, status = _download(exports, store, cache, page, tmp_path)
    assert doc["schema_version"] == 2 and doc["rule"]["how_chosen"] == "optimum"
    assert doc["recalibration"]["method"] == "logistic" and "logistic recalibration" in status
    a, b = _statsmodels(y[:800], logit(s))
    assert b > 1.5  # under-confident scores: the recalibration matters
    assert doc["recalibration"]["intercept"] == pytest.approx(a, abs=1e-6)
    assert doc["recalibration"]["slope"] == pytest.approx(b, abs=1e-6)
    clf = record.classifier(est)
    new = est.predict_proba(X[800:])[:, 1]
    np.testing.assert_allclose(clf.predict_proba(X[800:])[:, 1], expit(a + b * logit(new)),
                               atol=1e-7)
    # the decision is still the raw score at the record's threshold
    np.testing.assert_array_equal(clf.predict(X[800:]), (new >= record.threshold).astype(int))
    # without the card's choice the record is as before: no recalibration, schema 1
    _, plain, status = _download(exports, store, cache, PageState(
        datasets=(dataset,), conditions=CONDITIONS), tmp_path)
    assert "recalibration" not in plain and plain["schema_version"] == 1
    assert "recalibration" not in status
    assert plain["rule"]["threshold"] == doc["rule"]["threshold"]


def test_rcp002_capacity_record_carries_platt_recalibration(fitted, tmp_path):
    exports, store, cache, dataset, est, X, y, s = fitted
    page = PageState(datasets=(dataset,), conditions=CONDITIONS, capacity="10%",
                     recalibration="platt")
    record, doc, status = _download(exports, store, cache, page, tmp_path)
    assert doc["rule"]["how_chosen"] == "capacity" and "platt recalibration" in status
    flag, pos = s >= record.threshold, y[:800] == 1
    assert 0.3 * flag[pos].mean() + 0.7 * flag[~pos].mean() <= 0.10 + 1e-12  # at the prior
    a, b = _statsmodels(y[:800], s)
    new = est.predict_proba(X[800:])[:, 1]
    np.testing.assert_allclose(record.classifier(est).predict_proba(X[800:])[:, 1],
                               expit(a + b * new), atol=1e-7)


def test_rcp003_logistic_on_scores_beyond_probabilities_is_refused_with_a_message(tmp_path,
                                                                                  monkeypatch):
    import roc_dash.app.features.exports as exports

    monkeypatch.setattr(exports, "current_owner", lambda: "tester")
    rng = np.random.default_rng(3)
    y = rng.random(300) < 0.4
    s = rng.normal(size=300) + 1.5 * y  # margins, not probabilities
    path = tmp_path / "margins.csv"
    path.write_text("label,score\n" + "\n".join(f"{int(a)},{float(b)!r}" for a, b in zip(
        y, s, strict=True)))
    store = DatasetStore(tmp_path / "store")
    dataset = store.put(load_predictions([str(path)]).table, files=["margins.csv"]).id
    cache = AnalysisCache(store)
    page = PageState(datasets=(dataset,), conditions=CONDITIONS, recalibration="logistic")
    file, status = exports.decision_download(cache, store, page, shown_analysis(cache, page))
    assert file is no_update
    assert status.startswith("Nothing was downloaded: logistic recalibration needs "
                             "probabilities") and "'platt' or 'isotonic'" in status


def test_rcp004_the_choice_is_on_the_card_and_in_the_link(tmp_path):
    query = PageState(recalibration="isotonic").to_query()
    assert "recal=isotonic" in query
    assert parse_link(query)[0].recalibration == "isotonic"
    assert parse_link("?v=2&recal=sideways")[0].recalibration == ""  # unknown: none
    assert parse_link("?v=2")[0].recalibration == ""
    create_app(store=DatasetStore(tmp_path))  # the app builds with the control wired
    radio = _find(build_layout(), ids.CAL_RECALIBRATE)
    assert radio.value == "" and [o["value"] for o in radio.options] == [
        "", "logistic", "platt", "isotonic"]
    assert _find(build_layout(), ids.CAL_CARD) is not None


def _find(component, wanted):
    """The component of id ``wanted`` in a layout tree (None when absent)."""
    if getattr(component, "id", None) == wanted:
        return component
    children = getattr(component, "children", None)
    for child in children if isinstance(children, list | tuple) else [children]:
        if child is not None and not isinstance(child, str | int | float):
            found = _find(child, wanted)
            if found is not None:
                return found
    return None
