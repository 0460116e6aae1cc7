"""The decision record's intervals (roc_dash.decision): at a pinned threshold, of the fixed
threshold; at the optimum, of the procedure "pick the optimum on this data", corrected for
the choice, in ``choice_intervals`` and (the rates, precision, share flagged and cost)
``intervals``. They equal the page's "How sure?" optimum column (features/intervals.py)
and a naive stratified bootstrap of the choice written here; the record reads back
unchanged."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from roc_dash import decision
from roc_dash.app.analysis import AnalysisCache, model_names
from roc_dash.app.features import intervals as feature
from roc_dash.app.features.exports import decision_json
from roc_dash.app.page_state import ModelRef, PageState, Pin
from roc_dash.app.server.store import DEMO_ID, DatasetStore
from roc_dash.app.state import ControlState, conditions_from_state, economics_from_state
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import analyse
from roc_dash.decision.record import (
    CHOICE_METRICS,
    CHOICE_WHAT,
    CHOSEN_THRESHOLD_WHAT,
    FIXED_THRESHOLD_WHAT,
)
from roc_dash.io import load_predictions


def _page(state, pins=()):
    """The page's state: the demo, every model shown, the conditions ``state`` and the pins
    (``{"model", "threshold", "label"}`` of the demo's models)."""
    return PageState(conditions=ControlState.from_store(state), pins=tuple(
        Pin(p["label"], ModelRef(DEMO_ID, p["model"]), p["threshold"]) for p in pins))


def _table(tmp_path, n=120, seed=0):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(int)
    s = np.round(rng.normal(size=n) + 1.3 * y, 2)
    path = tmp_path / "p.csv"
    pd.DataFrame({"label": y, "score": s}).to_csv(path, index=False)
    return load_predictions([path]).table, y == 1, s


def _limits(pair):
    return [None if not math.isfinite(v) else v for v in pair]


def test_pci010_page_and_downloaded_record_agree_on_the_choice(tmp_path):
    cache = AnalysisCache(DatasetStore(tmp_path))
    models = model_names(cache, [DEMO_ID])
    state = ControlState(cost_fp=1.0, cost_fn=3.0, prior=0.3, prior_mode="manual").to_store()
    chosen = feature.chosen_intervals(cache, _page(state, []), seconds=600)
    label, op, page = chosen[0]
    assert label == "Optimum" and page.n_boot_used == feature.N_BOOT
    reference = ControlState.from_store(state).reference_class
    analysis = cache.analysis([DEMO_ID], models, conditions_from_state(state), reference)
    doc = json.loads(decision_json(analysis, cache.table([DEMO_ID], reference), [],
                                   economics_from_state(state)))
    got = doc["choice_intervals"]
    assert doc["model"] == op.model and got["what"] == CHOICE_WHAT
    assert doc["intervals"]["what"] == CHOSEN_THRESHOLD_WHAT  # the same, corrected
    for k in ("tpr", "fpr", "precision", "expected_cost"):
        assert doc["intervals"][k] == got[k], k
    assert (got["replicates"], got["seed"], got["method"]) == (feature.N_BOOT, feature.SEED,
                                                               page.method)
    for k in CHOICE_METRICS:
        iv = getattr(page, k)
        assert got[k] == _limits((iv.low, iv.high)), k
        assert got["interval"][k] == iv.interval
    assert got["out_of_bag_cost"] == pytest.approx(page.optimism.out_of_bag, abs=0)
    assert doc["rule"]["threshold"] == page.threshold.estimate


def _naive_choice(y, s, p, c_fp, c_fn, n_boot, seed):
    """The documented replicates: positives then negatives drawn with replacement from
    ``default_rng(SeedSequence(seed).spawn(n_boot)[i])``, the cheapest threshold of each
    replicate by brute force (ties: the highest threshold), then its percentiles."""
    pos, neg = s[y], s[~y]
    out = []
    for ss in np.random.SeedSequence(seed).spawn(n_boot):
        g = np.random.default_rng(ss)
        bp = pos[g.integers(0, pos.size, pos.size)]
        bn = neg[g.integers(0, neg.size, neg.size)]
        best = (math.inf, None)
        for t in np.r_[np.inf, np.unique(np.r_[bp, bn])[::-1]]:
            cost = p * (1 - (bp >= t).mean()) * c_fn + (1 - p) * (bn >= t).mean() * c_fp
            if cost < best[0] - 1e-12:
                best = (cost, t)
        out.append(best[1])
    return np.quantile(np.array(out), [0.025, 0.975])


def test_pci011_record_choice_threshold_equals_a_naive_bootstrap_and_reads_back(tmp_path):
    table, y, s = _table(tmp_path)
    conditions = Conditions(cost_fp=1.0, cost_fn=2.0, prior_pos=0.3)
    record = decision.build_decision(analyse(table, conditions), table, replicates=60,
                                     seed=4)
    c = record.choice_intervals
    assert record.how_chosen == "optimum" and c.replicates_used == 60
    assert c.threshold == pytest.approx(tuple(_naive_choice(y, s, 0.3, 1.0, 2.0, 60, 4)))
    path = decision.save(record, tmp_path / "d.json")
    back = decision.load(path)
    assert back.choice_intervals == c
    assert back.intervals == record.intervals


def test_pci012_pinned_record_has_no_choice_intervals_and_old_records_load(tmp_path):
    table, _, _ = _table(tmp_path, seed=2)
    record = decision.build_decision(analyse(table, Conditions()), table,
                                     pinned={"model": "p", "threshold": 0.5})
    assert record.how_chosen == "pinned" and record.choice_intervals is None
    doc = record.to_dict()
    assert doc["choice_intervals"] is None and doc["intervals"]["what"] == FIXED_THRESHOLD_WHAT
    optimum = decision.build_decision(analyse(table, Conditions()), table, replicates=20)
    old = optimum.to_dict()
    del old["choice_intervals"]  # a record written before the key existed
    assert decision.from_dict(old).choice_intervals is None
    bad = optimum.to_dict()
    bad["choice_intervals"]["tpr"] = [0.1]
    with pytest.raises(decision.DecisionFileError, match=r"choice_intervals\.tpr"):
        decision.from_dict(bad)
    no_boot = decision.build_decision(analyse(table, Conditions()), table, replicates=0)
    assert no_boot.choice_intervals is None and no_boot.intervals is None


@pytest.mark.slow
def test_pci013_decide_cli_writes_both_and_says_the_choice_interval(tmp_path):
    _table(tmp_path, seed=3)
    target = tmp_path / "d.json"
    out = subprocess.run([sys.executable, "-m", "roc_dash.cli", "decide", str(tmp_path / "p.csv"),
                          "--replicates", "40", "-o", str(target)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    doc = json.loads(target.read_text())
    assert doc["choice_intervals"]["replicates"] == 40 and doc["intervals"]["replicates"] == 40
    low, high = doc["choice_intervals"]["threshold"]
    assert f"[{low:.6g}, {high:.6g}]" in out.stderr
    assert "Traceback" not in out.stderr
