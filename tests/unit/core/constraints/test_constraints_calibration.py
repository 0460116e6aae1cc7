"""Calibration with its uncertainty (cln001-cln010): slope and intercept with their Wald
intervals against statsmodels' GLM Binomial, Wilson and Clopper–Pearson bands against
statsmodels' proportion_confint, Spiegelhalter's z against its formula row by row, the
recalibrations against statsmodels and scikit-learn's IsotonicRegression, and a
recalibration stored in the decision record and applied by the classifier it gives."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import statsmodels.api as sm
from scipy.stats import norm
from sklearn.datasets import load_breast_cancer
from sklearn.isotonic import IsotonicRegression
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import FixedThresholdClassifier, train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from statsmodels.stats.proportion import proportion_confint

from roc_dash import decision
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import analyse
from roc_dash.core.constraints import (
    Recalibration,
    calibration_fit,
    calibration_uncertainty,
    fit_recalibration,
    reliability_bands,
    spiegelhalter_test,
)
from roc_dash.core.inference.calibration import calibration_from_curve
from roc_dash.core.roc.curves import roc_curve
from roc_dash.decision.estimators import Recalibrated
from roc_dash.notebook import predictions_table


def _probabilities(n=1500, seed=0, a=-0.5, b=1.4):
    """Labels drawn from σ(a + b·logit p): miscalibrated scores p of known slope 1/b."""
    rng = np.random.default_rng(seed)
    p = np.round(rng.beta(2, 3, n), 3)  # ties: fewer distinct scores than rows
    p = np.clip(p, 0.001, 0.999)
    x = np.log(p / (1 - p))
    y = rng.random(n) < 1 / (1 + np.exp(-(a + b * x)))
    return y, p


def _glm(y, x, *, offset=None, freq=None):
    X = sm.add_constant(x) if x is not None else np.ones((y.size, 1))
    return sm.GLM(y.astype(float), X, family=sm.families.Binomial(), offset=offset,
                  freq_weights=freq).fit()


def test_cln001_slope_and_intercept_are_statsmodels_glm():
    y, p = _probabilities()
    fit = calibration_fit(roc_curve(y, p), level=0.9)
    x = np.log(p / (1 - p))
    ref = _glm(y, x)
    assert (fit.intercept, fit.slope) == pytest.approx(tuple(ref.params), abs=1e-8)
    assert (fit.intercept_se, fit.slope_se) == pytest.approx(tuple(ref.bse), rel=1e-6)
    ci = ref.conf_int(alpha=0.1)
    assert (fit.intercept_low, fit.intercept_high) == pytest.approx(tuple(ci[0]), rel=1e-6)
    assert (fit.slope_low, fit.slope_high) == pytest.approx(tuple(ci[1]), rel=1e-6)
    large = _glm(y, None, offset=x)
    assert fit.in_the_large == pytest.approx(large.params[0], abs=1e-8)
    assert (fit.in_the_large_low, fit.in_the_large_high) == pytest.approx(
        tuple(large.conf_int(alpha=0.1)[0]), rel=1e-6)
    assert fit.converged and fit.n_clipped == 0


def test_cln002_whole_weights_are_repeated_rows():
    y, p = _probabilities(n=400, seed=1)
    w = np.random.default_rng(2).integers(1, 5, 400)
    fit = calibration_fit(roc_curve(y, p, weights=w))
    ref = _glm(y, np.log(p / (1 - p)), freq=w.astype(float))
    assert (fit.intercept, fit.slope) == pytest.approx(tuple(ref.params), abs=1e-6)
    assert (fit.intercept_se, fit.slope_se) == pytest.approx(tuple(ref.bse), rel=1e-5)
    rep = np.repeat(np.arange(400), w)
    z = spiegelhalter_test(roc_curve(y[rep], p[rep]))
    assert spiegelhalter_test(roc_curve(y, p, weights=w)).z == pytest.approx(z.z)


@pytest.mark.parametrize(("method", "sm_method"), [("wilson", "wilson"),
                                                   ("clopper-pearson", "beta")])
def test_cln003_bands_per_bin_are_statsmodels_intervals(method, sm_method):
    y, p = _probabilities(n=800, seed=3)
    cal = calibration_from_curve(roc_curve(y, p), n_bins=10)
    bands = reliability_bands(cal, level=0.9, method=method)
    for k in range(cal.count.size):
        n = int(round(cal.count[k]))
        x = int(round(cal.fraction_positive[k] * n))
        lo, hi = proportion_confint(x, n, alpha=0.1, method=sm_method)
        assert (bands.low[k], bands.high[k]) == pytest.approx((lo, hi), abs=1e-12)
    np.testing.assert_array_equal(bands.covers, (bands.low <= cal.mean_predicted)
                                  & (cal.mean_predicted <= bands.high))


def test_cln004_spiegelhalter_z_row_by_row():
    y, p = _probabilities(n=600, seed=4, a=0.0, b=1.0)  # calibrated
    z = spiegelhalter_test(roc_curve(y, p))
    yy = y.astype(float)
    num = np.sum((yy - p) * (1 - 2 * p))
    den = math.sqrt(np.sum((1 - 2 * p) ** 2 * p * (1 - p)))
    assert z.z == pytest.approx(num / den, rel=1e-12)
    assert z.p_value == pytest.approx(2 * norm.sf(abs(num / den)), rel=1e-10)
    bad = spiegelhalter_test(roc_curve(*_probabilities(n=3000, seed=5, a=1.0, b=2.0)))
    assert bad.p_value < 1e-6


def test_cln005_calibration_uncertainty_together_and_not_for_scores():
    y, p = _probabilities(n=3000, seed=6, a=1.0, b=2.0)
    cu = calibration_uncertainty(roc_curve(y, p))
    assert cu.fit.slope > 1.5 and cu.spiegelhalter.p_value < 0.05
    assert any("Spiegelhalter's test rejects" in n for n in cu.notes)
    scores = np.random.default_rng(7).normal(size=200)
    other = calibration_uncertainty(roc_curve(np.arange(200) % 3 == 0, scores))
    assert other.fit is None and other.bands is None
    assert "not probabilities" in other.notes[0]
    with pytest.raises(ValueError, match="calibration slope, intercept and Spiegelhalter's "
                                         "test need probabilities"):
        calibration_fit(roc_curve(np.arange(200) % 3 == 0, scores))


def test_cln009_scores_that_separate_the_classes_give_a_note_not_an_error():
    """Probabilities that separate the classes perfectly (a model of AUC 1 on its data,
    some scores at 0 and 1): the logistic recalibration has no maximum, its information
    matrix becomes singular; the fit says it did not converge, with no standard errors,
    instead of failing the views and the decision under constraints that use it."""
    rng = np.random.default_rng(3)
    y = np.repeat([False, True], 60)
    p = np.where(y, rng.uniform(0.9, 1.0, 120), rng.uniform(0.0, 0.1, 120))
    p[:5], p[-5:] = 0.0, 1.0
    cu = calibration_uncertainty(roc_curve(y, p))
    assert not cu.fit.converged
    assert math.isnan(cu.fit.slope_se) or math.isinf(cu.fit.slope_se) or cu.fit.slope_se > 10
    assert any("did not converge" in n for n in cu.notes)


def test_cln006_recalibrations_against_statsmodels_and_sklearn():
    y, p = _probabilities(n=1000, seed=8)
    curve = roc_curve(y, p)
    logistic = fit_recalibration(curve, "logistic")
    ref = _glm(y, np.log(p / (1 - p)))
    assert (logistic.intercept, logistic.slope) == pytest.approx(tuple(ref.params), abs=1e-8)
    np.testing.assert_allclose(logistic.apply(p), ref.predict(), rtol=1e-7)
    platt = fit_recalibration(curve, "platt")
    ref = _glm(y, p)
    assert (platt.intercept, platt.slope) == pytest.approx(tuple(ref.params), abs=1e-7)
    iso = fit_recalibration(curve, "isotonic")
    sk = IsotonicRegression(out_of_bounds="clip").fit(p, y.astype(float))
    np.testing.assert_allclose(iso.apply(p), sk.predict(p), atol=1e-12)
    for r in (logistic, platt, iso):  # non-decreasing: a threshold keeps its decisions
        grid = np.linspace(-0.5, 1.5, 401)
        assert (np.diff(r.apply(grid)) >= 0).all()
        assert Recalibration.from_dict(json.loads(json.dumps(r.to_dict()))).to_dict() == \
            r.to_dict()
    with pytest.raises(ValueError, match="logistic recalibration needs probabilities"):
        fit_recalibration(roc_curve(y, p * 3 - 1), "logistic")


@pytest.fixture(scope="module")
def _fitted():
    """A fitted classifier and its test rows. The features are standardised first: on the raw
    features lbfgs needed ~1,900 iterations (8 s of CPU, 35 s on a busy machine), scaled ~20."""
    X, y = load_breast_cancer(return_X_y=True)
    X_fit, X_test, y_fit, y_test = train_test_split(X, y, test_size=0.5, random_state=0)
    est = make_pipeline(StandardScaler(), LogisticRegression(max_iter=5000)).fit(X_fit, y_fit)
    return est, X_test, y_test


def test_cln007_recalibration_in_the_record_and_its_classifier(tmp_path, _fitted):
    est, X, y = _fitted
    s = est.predict_proba(X)[:, 1]
    table = predictions_table(y, s)
    analysis = analyse(table, Conditions(cost_fp=1.0, cost_fn=3.0))
    record = decision.build_decision(analysis, table, replicates=0, recalibration="platt")
    doc = record.to_dict()
    assert doc["schema_version"] == 2 and doc["recalibration"]["method"] == "platt"
    assert doc["recalibration"]["threshold_probability"] == pytest.approx(
        float(record.recalibration.apply(record.threshold)))
    back = decision.load(decision.save(record, tmp_path / "d.json"))
    assert back.recalibration.to_dict() == record.recalibration.to_dict()
    clf = back.classifier(est)
    assert isinstance(clf, FixedThresholdClassifier)
    assert isinstance(clf.estimator, Recalibrated)
    np.testing.assert_array_equal(clf.predict(X), (s >= record.threshold).astype(int))
    np.testing.assert_allclose(clf.predict_proba(X)[:, 1], record.recalibration.apply(s))
    m = record.metrics
    pred = clf.predict(X)
    assert (int(((pred == 1) & (y == 1)).sum()), int(((pred == 1) & (y == 0)).sum())) == \
        (m.tp, m.fp)


def test_cln008_old_records_are_unchanged(tmp_path, _fitted):
    est, X, y = _fitted
    s = est.predict_proba(X)[:, 1]
    table = predictions_table(y, s)
    record = decision.build_decision(analyse(table, Conditions()), table, replicates=0)
    doc = record.to_dict()
    assert doc["schema_version"] == 1 and "recalibration" not in doc
    clf = decision.load(decision.save(record, tmp_path / "d.json")).classifier(est)
    assert clf.estimator is est and clf.response_method == "predict_proba"
    np.testing.assert_allclose(clf.predict_proba(X), est.predict_proba(X))


def test_cln009_recalibration_with_the_negative_class_first(_fitted):
    est, X, y = _fitted
    s = est.predict_proba(X)[:, 0]  # the record's positive class is sklearn's classes_[0]
    rec = Recalibration("platt", intercept=-1.0, slope=3.0)
    wrapped = Recalibrated(est, recalibration=rec, pos_label=0)
    clf = FixedThresholdClassifier(wrapped, threshold=0.4, pos_label=0,
                                   response_method="decision_function")
    np.testing.assert_array_equal(clf.predict(X), np.where(s >= 0.4, 0, 1))
    np.testing.assert_allclose(clf.predict_proba(X)[:, 0], rec.apply(s))


def test_cln010_bad_recalibrations_in_a_record_are_named(tmp_path, _fitted):
    est, X, y = _fitted
    table = predictions_table(y, est.predict_proba(X)[:, 1])
    record = decision.build_decision(analyse(table, Conditions()), table, replicates=0,
                                     recalibration="logistic")
    doc = record.to_dict()
    doc["recalibration"]["slope"] = -2.0
    path = tmp_path / "d.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(decision.DecisionFileError, match="'recalibration' is not a valid "
                                                         "recalibration .*slope >= 0"):
        decision.load(path)
