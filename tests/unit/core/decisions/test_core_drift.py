"""The drift test of a fixed threshold's expected cost (roc_dash.core.decisions.drift) and its use by
``roc-dash check --decision``: the statistic written out by hand (scipy's normal
distribution, binomial variances of adjusted rates), the reference of a threshold chosen on
its own data corrected for that choice (the bootstrap of ``point_intervals``), old records
without the correction, and the CLI's false-alarm option. The false-alarm rate itself is
measured by ``bench/simulate_statistics.py``, not here."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

from roc_dash import decision
from roc_dash.cli import main
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import analyse
from roc_dash.core.decisions.drift import (
    CHOICE_METHOD,
    COUNTS_METHOD,
    cost_drift_test,
    cost_drift_test_of_sample,
    reference_from_counts,
    reference_from_sample,
)
from roc_dash.core.decisions.economics import Economics
from roc_dash.core.decisions.point_intervals import point_intervals
from roc_dash.decision.gate import recheck_decision
from roc_dash.io import load_predictions

E = Economics(cost_fp=1.0, cost_fn=4.0, benefit_tp=0.5)


def _by_hand_variance(tp, fp, fn, tn, p, e):
    """(p·c'(FN))²·r̃(1−r̃)/P + ((1−p)·c'(FP))²·r̃(1−r̃)/N, r̃ = (x + 1/2)/(n + 1)."""
    n_pos, n_neg = tp + fn, fp + tn
    t, f = (tp + 0.5) / (n_pos + 1), (fp + 0.5) / (n_neg + 1)
    return ((p * (e.cost_fn + e.benefit_tp)) ** 2 * t * (1 - t) / n_pos
            + ((1 - p) * (e.cost_fp + e.benefit_tn)) ** 2 * f * (1 - f) / n_neg)


def _cost(tp, fp, fn, tn, p, e):
    tpr, fpr = tp / (tp + fn), fp / (fp + tn)
    return (p * (1 - tpr) * e.cost_fn + (1 - p) * fpr * e.cost_fp
            - p * tpr * e.benefit_tp - (1 - p) * (1 - fpr) * e.benefit_tn)


@pytest.mark.parametrize("alpha", [0.05, 0.01, 0.2])
def test_dft001_the_statistic_equals_a_hand_computation(alpha):
    p = 0.25
    ref = reference_from_counts(0.4, 70, 40, 30, 260, prior_pos=p, economics=E)
    assert ref.method == COUNTS_METHOD and not ref.chosen and ref.optimism == 0
    assert ref.cost == pytest.approx(_cost(70, 40, 30, 260, p, E), rel=1e-12)
    assert ref.variance == pytest.approx(_by_hand_variance(70, 40, 30, 260, p, E), rel=1e-12)
    t = cost_drift_test(ref, 60, 55, 40, 245, alpha=alpha)
    new = _cost(60, 55, 40, 245, p, E)
    # the rates pooled over both samples under no change: 130 of 200 positives flagged,
    # 95 of 600 negatives; each sample's share of the variance
    pooled_t, pooled_f = (130 + 0.5) / (200 + 1), (95 + 0.5) / (600 + 1)
    se = math.sqrt((p * 4.5) ** 2 * pooled_t * (1 - pooled_t) * (1 / 100 + 1 / 100)
                   + ((1 - p) * 1.0) ** 2 * pooled_f * (1 - pooled_f) * (1 / 300 + 1 / 300))
    assert t.cost == pytest.approx(new, rel=1e-12)
    assert t.std_error == pytest.approx(se, rel=1e-12)
    assert t.z == pytest.approx((new - ref.cost) / se, rel=1e-12)
    assert t.p_value == pytest.approx(norm.sf((new - ref.cost) / se), rel=1e-10)
    assert t.tolerance == pytest.approx(norm.ppf(1 - alpha) * se, rel=1e-10)
    assert t.limit == pytest.approx(ref.cost + t.tolerance, rel=1e-12)
    assert t.drifted == (t.p_value < alpha) == (t.cost > t.limit)


def test_dft002_a_chosen_threshold_is_corrected_by_the_bootstrap_of_its_choice():
    rng = np.random.default_rng(1)
    y = rng.random(400) < 0.3
    s = np.round(rng.normal(size=400) + 1.2 * y, 3)
    ref = reference_from_sample(y, s, prior_pos=0.3, economics=E, n_boot=80, seed=2)
    opt = point_intervals(y, s, 0.3, E, n_boot=80, seed=2).optimum
    c = opt.expected_cost.correction
    assert ref.threshold == opt.threshold.estimate and ref.method == CHOICE_METHOD
    assert ref.chosen and ref.corrected and ref.notes == ()
    assert ref.apparent_cost == pytest.approx(opt.expected_cost.estimate, rel=1e-12)
    assert ref.cost == pytest.approx(c.estimate + c.optimism, rel=1e-12)
    assert ref.variance == pytest.approx(c.std_error ** 2, rel=1e-12)
    assert ref.optimism > 0  # the threshold looks better on the data that chose it
    # the same rows again: no drift; a fixed threshold: the counts' binomial variance
    assert not cost_drift_test_of_sample(ref, y, s).drifted
    fixed = reference_from_sample(y, s, prior_pos=0.3, economics=E, threshold=0.6)
    tp = int((s[y] >= 0.6).sum())
    fp = int((s[~y] >= 0.6).sum())
    assert fixed.variance == pytest.approx(
        _by_hand_variance(tp, fp, y.sum() - tp, (~y).sum() - fp, 0.3, E), rel=1e-12)
    uncorrected = reference_from_counts(ref.threshold, 1, 1, 1, 1, prior_pos=0.3,
                                        economics=E, chosen=True)
    assert not uncorrected.corrected and "more often than its level" in uncorrected.notes[0]


@pytest.mark.parametrize("bad", [dict(alpha=0.5), dict(alpha=0.0), dict(tp=-1),
                                 dict(tp=0, fn=0)])
def test_dft003_bad_arguments_are_refused(bad):
    ref = reference_from_counts(0.0, 5, 5, 5, 5, prior_pos=0.5, economics=E)
    args = {"tp": 5, "fp": 5, "fn": 5, "tn": 5, "alpha": 0.05} | bad
    with pytest.raises(ValueError):
        cost_drift_test(ref, **args)


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    folder = tmp_path_factory.mktemp("drift")
    rng = np.random.default_rng(7)
    y = rng.random(600) < 0.25
    path = folder / "old.csv"
    pd.DataFrame({"label": y.astype(int), "score": np.round(rng.normal(size=600) + 1.4 * y,
                                                           3)}).to_csv(path, index=False)
    table = load_predictions([path]).table
    conditions = Conditions(cost_fp=1.0, cost_fn=3.0, prior_pos=0.25)
    record = decision.build_decision(analyse(table, conditions), table, replicates=100)
    return folder, path, table, record


def test_dft004_the_check_tests_against_the_corrected_reference(recorded):
    _, _, table, record = recorded
    d = record.drift_reference
    assert d.method == CHOICE_METHOD and d.optimism > 0
    m = record.metrics
    ref = reference_from_counts(record.threshold, m.tp, m.fp, m.fn, m.tn,
                                prior_pos=record.prior_pos, economics=record.economics,
                                chosen=True, correction=(d.optimism, d.std_error))
    same = recheck_decision(record, table)[0]
    assert same.status == "PASS"  # the record's own data
    want = cost_drift_test(ref, m.tp, m.fp, m.fn, m.tn)
    assert same.limit == f"<= {want.limit:.6g}"
    assert f"corrected by {d.optimism:.6g} for choosing its threshold" in same.message
    assert "5% false alarms under no change" in same.message


def test_dft005_an_old_record_still_checks_and_says_what_it_cannot_account_for(
        recorded, tmp_path, capsys):
    folder, path, table, record = recorded
    doc = record.to_dict()
    del doc["drift_reference"]  # written before the key existed
    old = tmp_path / "old.json"
    old.write_text(json.dumps(doc))
    assert main(["check", str(path), "--decision", str(old)]) == 0
    out = capsys.readouterr().out
    assert "not corrected for choosing its threshold on its own data" in out
    assert "false alarms are more frequent than 5%" in out
    pinned = decision.build_decision(analyse(table, Conditions(cost_fn=3.0, prior_pos=0.25)),
                                     table, pinned={"model": record.model, "threshold": 0.7})
    doc = pinned.to_dict()
    del doc["drift_reference"]
    old.write_text(json.dumps(doc))
    assert main(["check", str(path), "--decision", str(old)]) == 0
    out = capsys.readouterr().out
    assert "(a pinned threshold)" in out and "more frequent" not in out


def test_dft006_the_false_alarm_rate_option(recorded, tmp_path, capsys):
    folder, path, _, record = recorded
    target = tmp_path / "d.json"
    decision.save(record, target)
    assert main(["check", str(path), "--decision", str(target), "--decision-alpha",
                 "0.01"]) == 0
    assert "1% false alarms under no change" in capsys.readouterr().out
    with pytest.raises(SystemExit) as stop:  # argparse: exit 2 with the usage
        main(["check", str(path), "--decision", str(target), "--decision-alpha", "0.6"])
    assert stop.value.code == 2 and "between 0 and 0.5" in capsys.readouterr().err
    assert main(["check", str(path), "--min-auc", "0.5", "--decision-alpha", "0.1"]) == 2
    assert "--decision-alpha belongs to --decision" in capsys.readouterr().err
    assert main(["check", str(path), "--decision", str(target), "--cost-tolerance",
                 "0.001"]) in (0, 1)
    assert "no false-alarm rate is claimed" in capsys.readouterr().out


def test_dft007_a_threshold_chosen_under_a_capacity_is_not_called_pinned(recorded, tmp_path,
                                                                         capsys):
    _, path, _, _ = recorded
    target = tmp_path / "capacity.json"
    assert main(["decide", str(path), "--capacity", "20%", "--cost-fn", "3",
                 "-o", str(target)]) == 0
    assert json.loads(target.read_text())["rule"]["how_chosen"] == "capacity"
    capsys.readouterr()
    assert main(["check", str(path), "--decision", str(target)]) == 0
    out = capsys.readouterr().out
    assert "a pinned threshold" not in out
    assert "chosen under its capacity, for which no correction is made" in out
