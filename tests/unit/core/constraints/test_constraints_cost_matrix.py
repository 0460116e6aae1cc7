"""Several classes with a cost matrix (cmx001-cmx012): the Bayes decision against a loop over
rows, the fitted class weights against an exhaustive search of every decision vector (each
checked reachable by a linear program), confusion matrices against scikit-learn's,
one-vs-rest thresholds against a brute force over thresholds, and the multi-class decision
record with its scikit-learn estimator (sklearn's estimator checks, pickling, the record's
confusion matrix reproduced)."""

from __future__ import annotations

import itertools
import json
import pickle

import numpy as np
import pytest
from scipy.optimize import linprog
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import confusion_matrix
from sklearn.utils.estimator_checks import check_estimator

from roc_dash.core.constraints.cost_matrix import (
    bayes_decisions,
    cost_matrix_decision,
    fit_class_weights,
    one_vs_rest_thresholds,
)
from roc_dash.decision import DecisionFileError
from roc_dash.decision import load as load_binary
from roc_dash.decision.estimators import CostWeightedClassifier
from roc_dash.decision.multiclass import (
    build_multiclass_decision,
    from_dict,
    load,
    read_cost_matrix,
    save,
)
from roc_dash.io import load_predictions

DEMO = "roc_dash/data/multiclass_demo.csv"


def _data(n, k=3, seed=0, sharp=1.5):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    logits = rng.normal(size=(n, k))
    logits[np.arange(n), y] += sharp
    p = np.exp(logits)
    return y, p / p.sum(axis=1, keepdims=True)


def _costs(k, seed):
    c = np.random.default_rng(seed).uniform(0.5, 5.0, (k, k))
    np.fill_diagonal(c, 0.0)
    return c


def test_cmx001_bayes_decision_is_the_least_weighted_risk_row_by_row():
    y, p = _data(200, k=4, seed=1)
    c, w = _costs(4, 2), np.array([0.5, 2.0, 1.0, 3.0])
    got = bayes_decisions(p, c, class_weights=w)
    for r in range(200):
        risks = [sum(w[i] * p[r, i] * c[i, j] for i in range(4)) for j in range(4)]
        assert got[r] == int(np.argmin(risks))


def _reachable(p, c, d) -> bool:
    """Is there w >= 0 with decision vector d strictly optimal in every row? (an LP)"""
    n, k = p.shape
    rows = [list(p[r] * (c[:, d[r]] - c[:, j])) + [1.0]
            for r in range(n) for j in range(k) if j != d[r]]
    res = linprog(c=[0] * k + [-1], A_ub=rows, b_ub=[0] * len(rows),
                  A_eq=[[1] * k + [0]], b_eq=[1], bounds=[(0, None)] * k + [(None, 1)])
    return res.status == 0 and -res.fun > 1e-9


@pytest.mark.parametrize("seed", range(6))
def test_cmx002_fitted_weights_are_exact_on_small_data(seed):
    n, k = 5, 3
    y, p = _data(n, k=k, seed=10 + seed, sharp=0.5)
    if len(set(y.tolist())) < k:
        y[:k] = np.arange(k)
    c = _costs(k, seed)
    w, cost, method = fit_class_weights(p, y, c)
    assert method == "exact"
    share = np.bincount(y, minlength=k) / n
    rw = (share / np.bincount(y, minlength=k))[y]
    best = np.inf
    for d in itertools.product(range(k), repeat=n):  # every decision vector
        d = np.array(d)
        v = float(np.sum(rw * c[y, d]))
        if v < best - 1e-12 and _reachable(p, c, d):
            best = v
    assert cost == pytest.approx(best, abs=1e-12)
    decided = bayes_decisions(p, c, class_weights=w)
    assert float(np.sum(rw * c[y, decided])) == pytest.approx(best, abs=1e-12)


def test_cmx003_descent_is_optimal_along_every_weight_and_beats_bayes():
    y, p = _data(3000, k=4, seed=3, sharp=1.0)
    p = p ** 1.6  # miscalibrated: sharper than the truth
    p /= p.sum(axis=1, keepdims=True)
    c = _costs(4, 4)
    w, cost, method = fit_class_weights(p, y, c)
    assert method.startswith("coordinate descent")
    share = np.bincount(y) / y.size
    rw = (share / np.bincount(y))[y]

    def cost_of(weights):
        return float(np.sum(rw * c[y, bayes_decisions(p, c, class_weights=weights)]))

    assert cost_of(w) == pytest.approx(cost)
    assert cost <= cost_of(np.ones(4)) + 1e-12
    for i in range(4):  # no single weight on a fine grid does better
        for v in np.exp(np.linspace(-6, 6, 241)):
            trial = w.copy()
            trial[i] = v
            assert cost_of(trial) >= cost - 1e-12


def test_cmx004_confusion_and_expected_cost_at_the_prior():
    y, p = _data(500, k=3, seed=5)
    sw = np.random.default_rng(6).integers(1, 4, 500).astype(float)
    c = _costs(3, 7)
    prior = np.array([0.6, 0.3, 0.1])
    d = cost_matrix_decision(p, y, c, prior=prior, sample_weight=sw)
    cm = confusion_matrix(y, d.decided, labels=[0, 1, 2], sample_weight=sw)
    np.testing.assert_allclose(d.confusion, cm)
    rates = cm / cm.sum(axis=1, keepdims=True)
    want = sum(prior[i] * rates[i, j] * c[i, j] for i in range(3) for j in range(3))
    assert d.expected_cost == pytest.approx(want)
    data = np.bincount(y, weights=sw) / sw.sum()
    np.testing.assert_allclose(d.bayes_weights, prior / data)
    bayes = bayes_decisions(p, c, class_weights=prior / data)
    np.testing.assert_allclose(d.bayes_confusion,
                               confusion_matrix(y, bayes, labels=[0, 1, 2], sample_weight=sw))
    assert d.expected_cost <= d.bayes_cost + 1e-12  # fitted weights start from Bayes'


def test_cmx005_zero_one_costs_at_the_data_prior_is_the_argmax():
    y, p = _data(400, k=3, seed=8)
    d = cost_matrix_decision(p, y, 1.0 - np.eye(3))
    np.testing.assert_array_equal(bayes_decisions(p, 1.0 - np.eye(3)), np.argmax(p, axis=1))
    np.testing.assert_allclose(d.bayes_confusion, d.argmax_confusion)


def test_cmx006_one_vs_rest_thresholds_by_brute_force():
    y, p = _data(300, k=3, seed=9)
    c = _costs(3, 10)
    t = one_vs_rest_thresholds(p, y, c)
    pi = np.bincount(y) / y.size
    for j in range(3):
        others = [i for i in range(3) if i != j]
        miss = np.mean([c[j, i] for i in others])
        alarm = sum(pi[i] * c[i, j] for i in others) / sum(pi[i] for i in others)
        pos = y == j
        best, best_t = np.inf, None
        for cand in [np.inf, *sorted(set(p[:, j].tolist()), reverse=True)]:
            flag = p[:, j] >= cand
            cost = pi[j] * (1 - flag[pos].mean()) * miss + (1 - pi[j]) * flag[~pos].mean() * alarm
            if cost < best - 1e-12:
                best, best_t = cost, cand
        assert t[j] == best_t


@pytest.mark.slow  # minutes on a busy machine: the full tier (make test-all) runs it
def test_cmx007_estimator_passes_sklearns_checks():
    results = check_estimator(CostWeightedClassifier(LogisticRegression()), on_fail=None)
    failed = [(r["check_name"], str(r["exception"])[:200]) for r in results
              if r["status"] == "failed"]
    assert failed == []
    assert sum(r["status"] == "passed" for r in results) > 40


def test_cmx008_estimator_applies_the_rule_in_any_class_order_and_pickles():
    rng = np.random.default_rng(11)
    X = rng.normal(size=(400, 4))
    y = np.array(["a", "b", "c"])[np.argmax(X[:, :3] + rng.normal(size=(400, 3)), axis=1)]
    est = LogisticRegression().fit(X, y)
    c = _costs(3, 12)
    w = np.array([1.0, 2.0, 0.5])
    clf = CostWeightedClassifier(est, cost_matrix=c, class_weights=w, classes=["a", "b", "c"])
    want = est.classes_[bayes_decisions(est.predict_proba(X), c, class_weights=w)]
    np.testing.assert_array_equal(clf.predict(X), want)
    order = [2, 0, 1]  # the same rule stated in another class order
    other = CostWeightedClassifier(est, cost_matrix=c[np.ix_(order, order)],
                                   class_weights=w[order], classes=["c", "a", "b"])
    np.testing.assert_array_equal(other.predict(X), want)
    again = pickle.loads(pickle.dumps(clf))
    np.testing.assert_array_equal(again.predict(X), want)
    with pytest.raises(ValueError, match="class 'a' is not among classes"):
        CostWeightedClassifier(est, classes=["x", "y", "z"]).predict(X)


def _demo_table():
    return load_predictions([DEMO]).table


def test_cmx009_record_round_trips_and_its_classifier_reproduces_the_confusion(tmp_path):
    table = _demo_table()
    classes = ["class_0", "class_1", "class_2"]
    c = np.array([[0, 1, 4], [2, 0, 1], [8, 2, 0]], dtype=float)
    model = "logistic regression"
    record, d = build_multiclass_decision(table, c, model=model, note="triage")
    path = save(record, tmp_path / "d.json")
    back = load(path)
    assert back == record
    doc = json.loads(path.read_text())
    assert doc["schema"] == "roc-dash multiclass decision" and doc["classes"] == classes

    class Given(ClassifierMixin, BaseEstimator):  # the model's own probabilities by row
        def __init__(self, p=None):
            self.p = p

        def fit(self, X, y):
            return self

        def predict_proba(self, X):
            return self.p[np.asarray(X, dtype=int)[:, 0]]

        def __sklearn_is_fitted__(self):
            return True

        classes_ = np.array(classes)

    rows = table[table["model"] == model]
    p = rows[[f"score_{k}" for k in classes]].to_numpy()
    clf = back.classifier(Given(p=p))
    pred = clf.predict(np.arange(len(rows))[:, None])
    cm = confusion_matrix(rows["class"].astype(str), pred, labels=classes)
    np.testing.assert_allclose(cm, np.array(record.confusion_matrix))


def test_cmx010_bayes_rule_record_and_a_prior():
    table = _demo_table()
    c = 1.0 - np.eye(3)
    record, d = build_multiclass_decision(table, c, model="logistic regression",
                                          prior=[0.2, 0.3, 0.5], rule="bayes")
    np.testing.assert_allclose(record.class_weights, d.bayes_weights)
    assert record.expected_cost == d.bayes_cost and record.weights_method == "prior / data prior"
    np.testing.assert_allclose(record.prior, [0.2, 0.3, 0.5])


def test_cmx011_cost_matrix_files(tmp_path):
    classes = ["a", "b", "c"]
    named = tmp_path / "named.csv"
    named.write_text(",c,a,b\nb,1,2,0\na,5,0,1\nc,0,3,4\n")
    np.testing.assert_allclose(read_cost_matrix(named, classes),
                               [[0, 1, 5], [2, 0, 1], [3, 4, 0]])
    bare = tmp_path / "bare.csv"
    bare.write_text("0,1,5\n2,0,1\n3,4,0\n")
    np.testing.assert_allclose(read_cost_matrix(bare, classes),
                               [[0, 1, 5], [2, 0, 1], [3, 4, 0]])
    bad = tmp_path / "bad.csv"
    bad.write_text("0,1\n2,0\n")
    with pytest.raises(ValueError, match="bad.csv: the cost matrix has 2 rows and 2 columns; "
                                         "the 3 classes \\(a, b, c\\) need 3 x 3"):
        read_cost_matrix(bad, classes)
    words = tmp_path / "words.csv"
    words.write_text("0,1,x\n2,0,1\n3,4,0\n")
    with pytest.raises(ValueError, match="every cost must be a number"):
        read_cost_matrix(words, classes)


def test_cmx012_bad_records_and_inputs_are_named(tmp_path):
    table = _demo_table()
    record, _ = build_multiclass_decision(table, 1.0 - np.eye(3), model="logistic regression")
    doc = record.to_dict()
    doc["conditions"]["cost_matrix"] = [[0, 1], [1, 0]]
    with pytest.raises(DecisionFileError, match="'conditions.cost_matrix' must be a 3 x 3"):
        from_dict(doc, source="d.json")
    path = save(record, tmp_path / "m.json")
    with pytest.raises(DecisionFileError, match="a decision among several classes"):
        load_binary(path)
    y, p = _data(30, k=3)
    with pytest.raises(ValueError, match="cost matrix has shape \\(2, 2\\), but the 3 classes"):
        cost_matrix_decision(p, y, np.zeros((2, 2)))
    with pytest.raises(ValueError, match="every decision costs the same"):
        cost_matrix_decision(p, y, np.ones((3, 3)))
    with pytest.raises(ValueError, match="labels '7' are not among the classes"):
        cost_matrix_decision(p, np.where(y == 0, 7, y), 1.0 - np.eye(3), classes=[0, 1, 2])


@pytest.mark.slow  # minutes on a busy machine: the full tier (make test-all) runs it
def test_cmx013_weights_fitted_on_a_subset_never_cost_more_than_bayes(monkeypatch):
    from roc_dash.core.constraints import cost_matrix as cm

    monkeypatch.setattr(cm, "FIT_ROWS", 60)  # a small subset: its fit follows its noise
    kept = 0
    for seed in range(8):
        rng = np.random.default_rng(seed)
        p = rng.dirichlet(np.ones(3), 3000)  # calibrated: the Bayes rule is optimal
        y = np.array([rng.choice(3, p=row) for row in p])
        d = cost_matrix_decision(p, y, _costs(3, seed))
        assert d.expected_cost <= d.bayes_cost + 1e-12
        if d.method == "Bayes weights kept":
            kept += 1
            np.testing.assert_allclose(d.weights, d.bayes_weights)
            np.testing.assert_allclose(d.confusion, d.bayes_confusion)
    assert kept >= 1


def test_cmx014_an_estimator_without_sklearn_tags_is_wrapped_too():
    from sklearn.utils import get_tags

    class Plain:  # fitted, with predict_proba and classes_, but no scikit-learn base class
        classes_ = np.array([0, 1, 2])

        def fit(self, X, y):
            return self

        def predict_proba(self, X):
            return np.asarray(X, dtype=float)

        def __sklearn_is_fitted__(self):
            return True

    clf = CostWeightedClassifier(Plain(), cost_matrix=_costs(3, 1))
    assert get_tags(clf).estimator_type == "classifier"
    p = np.random.default_rng(0).dirichlet(np.ones(3), 20)
    np.testing.assert_array_equal(clf.predict(p), bayes_decisions(p, _costs(3, 1)))
