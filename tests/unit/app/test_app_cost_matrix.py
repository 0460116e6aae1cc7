"""Several classes with a cost matrix on the Beyond binary tab
(roc_dash.app.features.cost_matrix): the typed matrix and prior read (bad input says what),
the rules' costs checked against numpy and scikit-learn's confusion matrix, the record
loaded back and applied by scikit-learn, the link and the HTML report."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from dash import no_update
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import confusion_matrix

from roc_dash.app import create_app, ids
from roc_dash.app.analysis import AnalysisCache
from roc_dash.app.class_costs import page_cost_matrix_html, parse_matrix, parse_prior
from roc_dash.app.components import plain_text
from roc_dash.app.features.cost_matrix import card_outputs, decision_file
from roc_dash.app.page_state import PageState, parse_link
from roc_dash.app.server.store import DatasetStore
from roc_dash.decision import multiclass
from roc_dash.text.rounding import sig

DATA = Path(__file__).resolve().parents[3] / "roc_dash" / "data" / "multiclass_demo.csv"
MC = "demo-multiclass"
MODEL = "logistic regression"
KEY = f"{MC}/{MODEL}"
CLASSES = ["class_0", "class_1", "class_2"]
C = np.array([[0.0, 1.0, 5.0], [2.0, 0.0, 1.0], [10.0, 1.0, 0.0]])
TEXT = "0 1 5; 2 0 1; 10 1 0"


@pytest.fixture
def cache(tmp_path):
    return AnalysisCache(DatasetStore(tmp_path))


def _rows():
    rows = pd.read_csv(DATA)
    rows = rows[rows["model"] == MODEL]
    return rows["class"].astype(str).to_numpy(), rows[[f"score_{c}" for c in CLASSES]
                                                      ].to_numpy(float)


def _cost(labels, decided, prior):
    """Expected cost per case at ``prior`` of the decisions (scikit-learn's confusion)."""
    m = confusion_matrix(labels, np.asarray(CLASSES)[decided], labels=CLASSES)
    return float(np.sum(prior[:, None] * m / m.sum(axis=1, keepdims=True) * C))


def test_cmx001_matrix_and_prior_read_and_bad_input_says_what():
    m, msg = parse_matrix("", CLASSES)
    assert msg == "" and np.array_equal(m, 1 - np.eye(3))
    m, msg = parse_matrix("0,1,5\n2 0 1; 10, 1, 0", CLASSES)
    assert msg == "" and np.array_equal(m, C)
    m, msg = parse_matrix("0 1; 1 0", CLASSES)
    assert m is None and "2 row(s)" in msg and "3 rows of 3 costs" in msg
    assert "class_0, class_1, class_2" in msg
    m, msg = parse_matrix("0 1 1; 1 0 -2; 1 1 0", CLASSES)
    assert m is None and "negative" in msg and "true class_1, decided class_2: -2" in msg
    m, msg = parse_matrix("0 1 1; 1 0 x; 1 1 0", CLASSES)
    assert m is None and "'x' is not a number" in msg
    p, msg, note = parse_prior("1, 1, 2", CLASSES)
    assert msg == "" and np.allclose(p, [0.25, 0.25, 0.5]) and "normalised" in note
    p, msg, note = parse_prior("20% 30% 50%", CLASSES)
    assert np.allclose(p, [0.2, 0.3, 0.5]) and not msg and not note
    p, msg, _ = parse_prior("0.5 0.5", CLASSES)
    assert p is None and "2 share(s)" in msg
    p, msg, _ = parse_prior("0.5 -0.5 1", CLASSES)
    assert p is None and "non-negative" in msg


def test_cmx002_rules_costs_are_numpys_and_sklearns(cache):
    out = card_outputs(cache, KEY, TEXT, "0.2 0.3 0.5")
    labels, p = _rows()
    prior = np.array([0.2, 0.3, 0.5])
    data = np.array([(labels == c).mean() for c in CLASSES])
    # the Bayes rule by hand: argmin_j sum_i (prior_i / data_i) p_i C_ij
    bayes = np.argmin((p * (prior / data)) @ C, axis=1)
    argmax = np.argmax(p, axis=1)
    text = plain_text(out["result"])
    assert sig(_cost(labels, bayes, prior)) in text
    assert sig(_cost(labels, argmax, prior)) in text
    assert "prior" in plain_text(out["table"]) and "class_2" in plain_text(out["table"])
    assert out["figure"]["data"][0]["type"] == "heatmap"
    assert out["msg"] == ""
    # bad input: the message, the rest as it was
    bad = card_outputs(cache, KEY, "0 1; 1 0", "")
    assert "Cost matrix not used" in bad["msg"]
    assert bad["table"] is no_update and bad["result"] is no_update
    noted = card_outputs(cache, KEY, TEXT, "1 1 2")
    assert "normalised" in noted["msg"]


def test_cmx003_download_loads_and_sklearn_applies_it(cache, tmp_path):
    page = PageState(cost_matrix=TEXT, class_prior="0.2 0.3 0.5")
    file, status = decision_file(cache, KEY, page)
    doc = json.loads(file["content"])
    record = multiclass.from_dict(doc)
    assert record.model == MODEL and list(record.classes) == CLASSES
    assert np.array_equal(np.array(record.cost_matrix), C)
    assert "Downloaded the decision of logistic regression" in status
    labels, p = _rows()
    decided = np.argmin((p * np.array(record.class_weights)) @ C, axis=1)
    assert record.expected_cost == pytest.approx(_cost(labels, decided,
                                                       np.array([0.2, 0.3, 0.5])), abs=1e-12)
    # scikit-learn applies it: a fitted estimator's probabilities, decided as the record says
    rng = np.random.default_rng(0)
    x = rng.normal(size=(300, 2))
    y = np.asarray(CLASSES)[np.argmax(x @ rng.normal(size=(2, 3)), axis=1)]
    lr = LogisticRegression().fit(x, y)
    clf = record.classifier(lr)
    want = np.asarray(CLASSES)[np.argmin(
        (lr.predict_proba(x) * np.array(record.class_weights)) @ C, axis=1)]
    assert np.array_equal(clf.predict(x), want)
    file, status = decision_file(cache, KEY, PageState(cost_matrix="0 -1 1; 1 0 1; 1 1 0"))
    assert file is no_update and "negative" in status


def test_cmx004_link_report_and_lazy_card(cache, tmp_path):
    state = PageState(cost_matrix=TEXT, class_prior="0.2 0.3 0.5")
    link, given = parse_link(state.to_query())
    assert {"cost_matrix", "class_prior"} <= given
    assert (link.cost_matrix, link.class_prior) == (TEXT, "0.2 0.3 0.5")
    html_text = page_cost_matrix_html(cache, state, [KEY])
    assert "Decisions among classes under the cost matrix" in html_text
    assert page_cost_matrix_html(cache, PageState(), [KEY]) == ""
    app = create_app(store=DatasetStore(tmp_path))
    restore = app.callback_map[f"{ids.CMX_MATRIX}.value"]["callback"].__wrapped__
    assert restore(state.to_query()) == TEXT
