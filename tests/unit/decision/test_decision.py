"""Decision records (roc_dash.decision): what they say is checked against scikit-learn and
naive computations in the test; the fingerprint against its documented serialization."""

from __future__ import annotations

import hashlib
import json
import math
import struct
import sys

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import confusion_matrix, roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from roc_dash import decision
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import analyse
from roc_dash.core.decisions.economics import Economics
from roc_dash.io import load_predictions
from tests.conftest import make_predictions


@pytest.fixture(scope="module")
def cancer():
    """A logistic regression fitted on half of scikit-learn's breast-cancer data, and its
    held-out half with the scores it gives (probabilities and decision function)."""
    X, y = load_breast_cancer(return_X_y=True)
    X_fit, X_test, y_fit, y_test = train_test_split(X, y, test_size=0.5, random_state=0,
                                                    stratify=y)
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000)).fit(X_fit, y_fit)
    return model, X_test, y_test


def _written(tmp_path, name, frame):
    path = tmp_path / name
    frame.to_csv(path, index=False)
    return load_predictions([path]).table


def _record(table, **kw):
    conditions = kw.pop("conditions", Conditions())
    return decision.build_decision(analyse(table, conditions), table, **kw)


def _sklearn_counts(y_true, y_pred):
    tn, fp, fn, tp = confusion_matrix(y_true, y_pred, labels=[0, 1]).ravel()
    return {"tp": int(tp), "fp": int(fp), "fn": int(fn), "tn": int(tn)}


@pytest.mark.parametrize("response", ["predict_proba", "decision_function"])
def test_shp001_classifier_reproduces_the_records_confusion_matrix(tmp_path, cancer, response):
    model, X, y = cancer
    scores = (model.predict_proba(X)[:, 1] if response == "predict_proba"
              else model.decision_function(X))
    table = _written(tmp_path, "cancer.csv", pd.DataFrame({"label": y, "score": scores}))
    record = _record(table, conditions=Conditions(cost_fp=1.0, cost_fn=5.0), note="go")
    path = decision.save(record, tmp_path / "decision.json")
    loaded = decision.load(path)
    assert loaded.response_method == response  # inferred from the score range
    assert loaded.note == "go" and loaded.how_chosen == "optimum"
    clf = loaded.classifier(model)
    from sklearn.model_selection import FixedThresholdClassifier

    assert isinstance(clf, FixedThresholdClassifier)
    doc = json.loads(path.read_text())
    assert _sklearn_counts(y, clf.predict(X)) == doc["confusion_matrix"]
    # the threshold is a score of the data: that row sits exactly on the tie rule
    assert (scores == loaded.threshold).sum() >= 1
    assert clf.predict(X)[scores == loaded.threshold].tolist() == [1] * int(
        (scores == loaded.threshold).sum())
    # metrics against their definitions on scikit-learn's counts
    c = doc["confusion_matrix"]
    tpr, fpr = c["tp"] / (c["tp"] + c["fn"]), c["fp"] / (c["fp"] + c["tn"])
    p = y.mean()
    assert doc["conditions"]["prior_pos"] == pytest.approx(p)
    m = doc["metrics"]
    assert m["tpr"] == pytest.approx(tpr) and m["fpr"] == pytest.approx(fpr)
    assert m["precision"] == pytest.approx(p * tpr / (p * tpr + (1 - p) * fpr))
    assert m["expected_cost"] == pytest.approx(p * (1 - tpr) * 5.0 + (1 - p) * fpr * 1.0)
    assert m["auc"] == pytest.approx(roc_auc_score(y, scores))
    # and the threshold is the cheapest one: brute force over every cut-off of the data
    cuts = np.unique(scores)
    costs = [p * (1 - ((scores >= t) & (y == 1)).sum() / (y == 1).sum()) * 5.0
             + (1 - p) * ((scores >= t) & (y == 0)).sum() / (y == 0).sum() for t in cuts]
    assert m["expected_cost"] == pytest.approx(min(costs))


def test_shp002_pinned_threshold_equal_to_a_score_and_infinity(tmp_path, cancer):
    model, X, y = cancer
    scores = model.predict_proba(X)[:, 1]
    table = _written(tmp_path, "cancer.csv", pd.DataFrame({"label": y, "score": scores}))
    name = str(table["model"].iloc[0])
    tie = float(np.sort(scores)[len(scores) // 2])  # a score of the data: ties decide
    record = _record(table, pinned={"model": name, "threshold": tie})
    assert record.how_chosen == "pinned" and record.threshold == tie
    loaded = decision.load(decision.save(record, tmp_path / "pin.json"))
    counts = {k: int(getattr(loaded.metrics, k)) for k in ("tp", "fp", "fn", "tn")}
    assert _sklearn_counts(y, loaded.classifier(model).predict(X)) == counts
    assert counts == _sklearn_counts(y, (scores >= tie).astype(int))
    # +inf (a pin at "nothing flagged"): JSON null, and the classifier flags nothing
    none = _record(table, pinned={"model": name, "threshold": None})
    doc = none.to_dict()
    assert doc["rule"]["threshold"] is None and doc["metrics"]["precision"] is None
    back = decision.load(decision.save(none, tmp_path / "none.json"))
    assert math.isinf(back.threshold) and back.threshold > 0
    assert back.classifier(model).predict(X).sum() == 0


def test_shp003_benefits_and_a_given_prior(tmp_path):
    frame = make_predictions(400, seed=7, separation=1.5)
    table = _written(tmp_path, "p.csv", frame)
    e = Economics(cost_fp=2.0, cost_fn=3.0, benefit_tp=4.0, benefit_tn=0.5)
    prior = 0.2
    conditions = Conditions(cost_fp=e.net_cost_fp, cost_fn=e.net_cost_fn, benefit_tp=4.0,
                            benefit_tn=0.5, prior_pos=prior)
    record = _record(table, conditions=conditions, economics=e)
    y, s = frame["label"].to_numpy() == 1, frame["score"].to_numpy()

    def value(t):  # cost per case, errors minus benefits, at the prior: a naive loop
        tpr, fpr = (s[y] >= t).mean(), (s[~y] >= t).mean()
        return (prior * (1 - tpr) * 3.0 + (1 - prior) * fpr * 2.0
                - prior * tpr * 4.0 - (1 - prior) * (1 - fpr) * 0.5)

    best = min(value(t) for t in np.append(np.unique(s), np.inf))
    assert record.metrics.expected_cost == pytest.approx(best)
    assert record.metrics.expected_cost == pytest.approx(value(record.threshold))
    doc = record.to_dict()
    assert doc["conditions"] == {"cost_fp": 2.0, "cost_fn": 3.0, "benefit_tp": 4.0,
                                 "benefit_tn": 0.5, "prior_pos": 0.2, "unit": ""}
    assert decision.from_dict(json.loads(json.dumps(doc))).to_dict() == doc


def _naive_fingerprint(labels, scores, weights):
    """The serialization of the fingerprint's docstring, written out with a dict and struct."""
    sums: dict[tuple[float, int], list[float]] = {}
    for label, score, weight in zip(labels, scores, weights, strict=True):
        if weight > 0:
            sums.setdefault((float(score) + 0.0, int(bool(label))), []).append(float(weight))
    keys = sorted(sums)
    body = b"roc-dash-data-v1\n" + struct.pack("<Q", len(keys))
    body += b"".join(struct.pack("<d", k[0]) for k in keys)
    body += bytes(k[1] for k in keys)
    body += b"".join(struct.pack("<d", math.fsum(sums[k])) for k in keys)
    return "sha256:" + hashlib.sha256(body).hexdigest()


def test_shp004_fingerprint_stable_across_reads_and_changes_with_a_row(tmp_path):
    frame = make_predictions(300, seed=3)
    frame.loc[5, "score"] = frame.loc[6, "score"]  # a tie across classes or within one
    first = _record(_written(tmp_path, "a.csv", frame)).fingerprint
    again = _record(load_predictions([tmp_path / "a.csv"]).table).fingerprint
    shuffled = frame.sample(frac=1.0, random_state=1)
    shuffled.to_parquet(tmp_path / "b.parquet", index=False)
    parquet = _record(load_predictions([tmp_path / "b.parquet"]).table).fingerprint
    y = frame["label"].to_numpy() == 1
    assert first == again == parquet == _naive_fingerprint(y, frame["score"], np.ones(len(y)))
    for change in ("score", "label", "row"):
        other = frame.copy()
        if change == "score":
            other.loc[17, "score"] += 1e-4
        elif change == "label":
            other.loc[17, "label"] = 1 - other.loc[17, "label"]
        else:
            other = pd.concat([other, other.iloc[[17]]])
        changed = _record(_written(tmp_path, f"{change}.csv", other)).fingerprint
        assert changed != first, change
    w = np.random.default_rng(2).uniform(0.1, 3.0, len(y))
    w[3] = 0.0
    s = frame["score"].to_numpy().copy()
    s[:40] = 0.5  # a group of many fractional weights: their sum in any order
    order = np.random.default_rng(5).permutation(len(y))
    assert decision.data_fingerprint(y, s, w) == decision.data_fingerprint(
        y[order], s[order], w[order]) == _naive_fingerprint(y, s, w)
    assert decision.data_fingerprint(y, frame["score"], w) == _naive_fingerprint(
        y, frame["score"], w)


def test_shp005_intervals_are_seeded_and_hold_the_point(tmp_path):
    table = _written(tmp_path, "p.csv", make_predictions(500, seed=11))
    a = _record(table, seed=4, created_utc="2026-01-01T00:00:00Z")
    b = _record(table, seed=4, created_utc="2026-01-01T00:00:00Z")
    assert a.to_dict() == b.to_dict()
    # at the optimum: of what the chosen threshold gives, corrected for its choice (they
    # need not hold the apparent values; the cost's holds the corrected cost)
    i = a.intervals
    assert i.method.startswith("stratified bootstrap of the choice, corrected")
    assert i.interval == "corrected" and i.replicates == 200 and i.level == 0.95
    assert i.expected_cost[0] <= a.drift_reference.cost <= i.expected_cost[1]
    assert a.drift_reference.cost == a.metrics.expected_cost + a.drift_reference.optimism
    assert a.drift_reference.optimism > 0  # a choice looks better on its own data
    assert a.to_dict()["intervals"]["what"].startswith("the metrics of the shipped "
                                                       "threshold, chosen as the optimum")
    # at a pinned threshold: the fixed threshold's bootstrap (positives and negatives
    # resampled, as the page's and the report's, shp040), holding the point
    pinned = _record(table, seed=4, pinned={"model": a.model, "threshold": 0.5})
    i = pinned.intervals
    assert i.method == "stratified bootstrap, percentile" and i.replicates == 200
    assert i.level == 0.95
    for key in ("tpr", "fpr", "precision", "flagged", "expected_cost"):
        low, high = getattr(i, key)
        assert low <= getattr(pinned.metrics, key) <= high, key
    assert pinned.drift_reference.optimism == 0
    empty = _record(table, replicates=0)
    assert empty.intervals is None and empty.drift_reference is None


@pytest.mark.parametrize("content, says", [
    (None, "cannot read"),
    ("{not json", "not JSON"),
    ('{"schema": "something else"}', "not a roc-dash decision record"),
    ("SCHEMA_2", "newer roc-dash"),
    ("THRESHOLD_TEXT", "'rule.threshold' must be a number"),
    ("PRIOR_ONE", "'conditions.prior_pos' must lie strictly between 0 and 1"),
    ("NO_METRICS", "'metrics' is missing"),
    ("BAD_FINGERPRINT", "'data.fingerprint'"),
])
def test_shp006_load_refuses_bad_files_with_the_key_and_what_to_do(tmp_path, content, says):
    record = _record(_written(tmp_path, "p.csv", make_predictions(100, seed=1)), replicates=0)
    doc = record.to_dict()
    if content == "SCHEMA_2":
        doc["schema_version"] = decision.SCHEMA_VERSION + 1
    elif content == "THRESHOLD_TEXT":
        doc["rule"]["threshold"] = "0.5"
    elif content == "PRIOR_ONE":
        doc["conditions"]["prior_pos"] = 1.0
    elif content == "NO_METRICS":
        del doc["metrics"]
    elif content == "BAD_FINGERPRINT":
        doc["data"]["fingerprint"] = "md5:abc"
    path = tmp_path / "decision.json"
    if content is not None:
        path.write_text(content if content.startswith("{") else json.dumps(doc))
    with pytest.raises(decision.DecisionFileError) as err:
        decision.load(path)
    message = str(err.value)
    assert says in message and "decision.json" in message
    assert any(w in message for w in ("roc-dash decide", "upgrade", "check the path"))


def test_shp007_classifier_without_scikit_learn_says_what_to_install(tmp_path, monkeypatch):
    record = _record(_written(tmp_path, "p.csv", make_predictions(100, seed=1)), replicates=0)
    monkeypatch.setitem(sys.modules, "sklearn.model_selection", None)
    with pytest.raises(ImportError, match=r"scikit-learn 1\.6 or later.*pip install"):
        record.classifier(object())


def test_shp008_pinned_model_must_exist(tmp_path):
    table = _written(tmp_path, "p.csv", make_predictions(100, seed=1))
    with pytest.raises(ValueError, match="'nope' is not in the data"):
        _record(table, pinned={"model": "nope", "threshold": 0.5})


def test_shp009_the_page_records_the_recommendation_or_the_pin_chosen(tmp_path):
    from roc_dash.app.features.exports import decision_json

    a = make_predictions(200, seed=1, model="a")
    b = make_predictions(200, seed=2, model="b", separation=2.0)
    table = _written(tmp_path, "p.csv", pd.concat([a, b]))
    analysis = analyse(table, Conditions())
    e = Economics(cost_fp=1.0, cost_fn=1.0)
    doc = json.loads(decision_json(analysis, table, e, "note",
                                   pinned={"model": "a", "threshold": 0.6}))
    flagged, y = a["score"].to_numpy() >= 0.6, a["label"].to_numpy() == 1
    assert (doc["model"], doc["rule"]["threshold"], doc["note"]) == ("a", 0.6, "note")
    assert doc["rule"]["how_chosen"] == "pinned"
    assert doc["confusion_matrix"]["tp"] == int((flagged & y).sum())
    assert doc["confusion_matrix"]["fp"] == int((flagged & ~y).sum())
    optimum = json.loads(decision_json(analysis, table, e))  # the default: the headline
    assert optimum["rule"]["how_chosen"] == "optimum"
    assert optimum["model"] == analysis.optimal.model
    assert optimum["rule"]["threshold"] == analysis.optimal.threshold


def test_shp010_weighted_counts_equal_repeated_rows_counted_by_sklearn():
    from roc_dash.core.roc.confusion import confusion_at_threshold

    rng = np.random.default_rng(4)
    y = rng.random(60) < 0.4
    s = np.round(rng.random(60), 1)  # many ties, some equal to the threshold
    w = rng.integers(0, 4, 60)
    c = confusion_at_threshold(y, s, 0.5, weights=w)
    tn, fp, fn, tp = confusion_matrix(y, s >= 0.5, sample_weight=w).ravel()
    assert (c.tp, c.fp, c.fn, c.tn) == (tp, fp, fn, tn)
    assert (s == 0.5).any()
    none = confusion_at_threshold(y, s, None)
    assert none.tp == none.fp == 0 and none.fn == y.sum() and math.isinf(none.threshold)


@pytest.mark.parametrize("installed, refused", [("1.5.2", True), ("1.4.0", True),
                                                ("1.6.0", False), ("1.10.1", False)])
def test_shp011_classifier_refuses_scikit_learn_older_than_1_6_naming_it(
        tmp_path, cancer, monkeypatch, installed, refused):
    """scikit-learn 1.5's FixedThresholdClassifier cannot predict with a prefitted
    estimator (NotFittedError); the record says so, naming the installed version."""
    import sklearn

    model, X, y = cancer
    record = _record(_written(tmp_path, "p.csv", pd.DataFrame(
        {"label": y, "score": model.predict_proba(X)[:, 1]})), replicates=0)
    monkeypatch.setattr(sklearn, "__version__", installed)
    if refused:
        with pytest.raises(ImportError, match=rf"1\.6 or later \(scikit-learn "
                                              rf"{installed.replace('.', '[.]')} is installed"):
            record.classifier(model)
    else:
        assert len(record.classifier(model).predict(X)) == len(y)


def test_shp012_a_missing_threshold_key_is_refused_an_explicit_null_is_infinity(tmp_path):
    record = _record(_written(tmp_path, "p.csv", make_predictions(100, seed=1)), replicates=0)
    doc = record.to_dict()
    del doc["rule"]["threshold"]
    path = tmp_path / "decision.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(decision.DecisionFileError,
                       match=r"decision\.json: 'rule\.threshold' is missing"):
        decision.load(path)
    doc["rule"]["threshold"] = None
    path.write_text(json.dumps(doc))
    assert decision.load(path).threshold == math.inf


def test_shp013_weighted_counts_are_noted_and_the_classifier_gives_unweighted_ones(
        tmp_path, cancer):
    model, X, y = cancer
    scores = model.decision_function(X)
    w = np.random.default_rng(3).integers(1, 4, len(y)).astype(float)
    table = _written(tmp_path, "w.csv", pd.DataFrame({"label": y, "score": scores,
                                                      "weight": w}))
    record = _record(table, replicates=0)
    doc = record.to_dict()
    assert decision.WEIGHTED_COUNTS_NOTE in doc["notes"]
    predicted = record.classifier(model).predict(X)
    weighted = confusion_matrix(y, predicted, labels=[0, 1], sample_weight=w).ravel()
    tn, fp, fn, tp = weighted
    assert doc["confusion_matrix"] == {"tp": tp, "fp": fp, "fn": fn, "tn": tn}
    assert doc["data"]["n_pos"] + doc["data"]["n_neg"] == w.sum() != doc["data"]["n_rows"]
    assert _sklearn_counts(y, predicted) == _sklearn_counts(y, scores >= record.threshold)
    unweighted = _record(_written(tmp_path, "u.csv", pd.DataFrame(
        {"label": y, "score": scores})), replicates=0)
    assert decision.WEIGHTED_COUNTS_NOTE not in unweighted.notes


def test_shp040_decide_threshold_gives_the_reports_pin_intervals(tmp_path, capsys):
    """Stranger review 10: ``roc-dash decide --threshold`` resampled rows while the page and
    ``roc-dash report --pin`` resample positives and negatives: the same point had two sets
    of intervals. Now one computation (the same seed and replicates: equal numbers)."""
    from roc_dash.cli import main

    rng = np.random.default_rng(5)
    y = rng.random(600) < 0.3
    s = np.round(1 / (1 + np.exp(-np.where(y, rng.normal(1.5, 1, 600),
                                           rng.normal(0, 1, 600)))), 6)
    path = tmp_path / "third.csv"
    pd.DataFrame({"label": np.where(y, "yes", "no"), "score": s}).to_csv(path, index=False)
    rec, rep = tmp_path / "d.json", tmp_path / "r.json"
    common = ["--cost-fn", "3", "--prior", "0.3"]
    assert main(["decide", str(path), "--threshold", "0.5", *common, "-o", str(rec)]) == 0
    assert main(["report", str(path), "--pin", "third", "0.5", *common, "-o", str(rep)]) == 0
    capsys.readouterr()
    got = json.loads(rec.read_text())["intervals"]
    pin = json.loads(rep.read_text())["models"][0]["pins"][0]["uncertainty"]["intervals"]
    for k in ("tpr", "fpr", "precision", "expected_cost"):
        assert got[k] == [pin[k]["low"], pin[k]["high"]], k
    assert "positives and negatives resampled" in got["what"]
