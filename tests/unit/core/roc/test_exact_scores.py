"""Integer scores beyond 2**53 are ranked exactly, or refused -- never merged into ties
(issue 15 §3). float64 rounds 2**62 + 1 and 2**62 to one value; scikit-learn ranks the int64
values themselves and is the oracle here."""

from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score
from sklearn.metrics import roc_curve as sk_roc_curve

from roc_dash.core._validation import merged_integers
from roc_dash.core.combining import concavity_repair, logical_combining
from roc_dash.core.decisions import uncertainty
from roc_dash.core.decisions.economics import Economics
from roc_dash.core.inference import statistics
from roc_dash.core.kinds import multiclass, soft_labels
from roc_dash.core.roc import curves
from roc_dash.core.roc.averaging import fold_curves
from roc_dash.core.roc.precision_recall import average_precision, pr_curve
from roc_dash.io import InputError, ReadOptions, load_predictions
from roc_dash.io.engines import aggregate_predictions

BIG = 2**62


def close_integers(n: int, seed: int):
    """Labels and int64 scores near 2**62 whose neighbours float64 cannot tell apart."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    y[:2] = (0, 1)
    scores = BIG + rng.integers(0, 40, n) + 3 * y  # spacing of float64 here is 1024
    return y, scores.astype(np.int64)


def dense_ranks(scores) -> np.ndarray:
    """The exact order of the scores as small float64 numbers (an order-only oracle)."""
    return np.unique(np.asarray(scores), return_inverse=True)[1].astype(np.float64)


def test_int001_the_issue_s_example_gives_scikit_learn_s_auc():
    scores = np.array([BIG + 1, BIG])
    assert float(BIG + 1) == float(BIG)  # the trap: one float64 for both
    assert roc_auc_score([1, 0], scores) == 1.0
    assert curves.roc_auc([1, 0], scores) == 1.0
    assert curves.roc_auc([1, 0], [BIG + 1, BIG]) == 1.0  # a plain list of Python ints
    assert curves.roc_auc([1, 0], [2**64 + 1, 2**64]) == 1.0  # beyond int64 (object array)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("weighted", [False, True])
def test_int002_roc_curve_and_auc_equal_scikit_learn_on_close_int64_scores(seed, weighted):
    y, scores = close_integers(300, seed)
    w = np.random.default_rng(seed).uniform(0.5, 2, y.size) if weighted else None
    assert merged_integers(scores) is not None
    curve = curves.roc_curve(y, scores, weights=w)
    fpr, tpr, thresholds = sk_roc_curve(y, scores, sample_weight=w, drop_intermediate=False)
    assert np.allclose(curve.fpr, fpr, rtol=0, atol=1e-12)
    assert np.allclose(curve.tpr, tpr, rtol=0, atol=1e-12)
    assert np.array_equal(curve.thresholds, thresholds)  # both the rounded floats
    assert curves.roc_auc(y, scores, weights=w) == pytest.approx(
        roc_auc_score(y, scores, sample_weight=w), abs=1e-12)
    assert curves.roc_auc(y, scores, weights=w) != pytest.approx(
        curves.roc_auc(y, scores.astype(np.float64), weights=w), abs=1e-6)  # merging differs


@pytest.mark.parametrize("seed", range(4))
def test_int003_order_only_statistics_rank_the_integers_exactly(seed):
    y, scores = close_integers(250, seed)
    ranks = dense_ranks(scores)
    assert average_precision(y, scores) == pytest.approx(average_precision_score(y, scores),
                                                         abs=1e-12)
    assert np.allclose(pr_curve(y, scores).precision, pr_curve(y, ranks).precision)
    for fn in (statistics.delong_variance, statistics.auc_test_vs_chance,
               statistics.auc_confidence_interval):
        assert fn(y, scores) == fn(y, ranks)
    assert statistics.partial_auc(y, scores, max_fpr=0.3) == statistics.partial_auc(
        y, ranks, max_fpr=0.3)
    other = scores[::-1].copy()
    assert statistics.delong_paired_test(y, scores, other) == statistics.delong_paired_test(
        y, ranks, dense_ranks(other))
    folds = np.arange(y.size) % 2
    a, b = fold_curves(y, scores, folds), fold_curves(y, ranks, folds)
    for k in a:
        assert np.array_equal(a[k].fpr, b[k].fpr) and np.array_equal(a[k].tpr, b[k].tpr)
    # beyond int64 too: Python ints, ranked exactly by the DeLong placements
    huge = [int(v) + 2**64 for v in scores]
    assert statistics.delong_variance(y, huge) == statistics.delong_variance(y, ranks)


def test_int004_threshold_comparisons_refuse_to_merge_with_a_clear_message():
    y, scores = close_integers(60, 1)
    e = Economics(cost_fp=1.0, cost_fn=1.0)
    calls = {
        "accuracy_at_threshold": lambda: curves.accuracy_at_threshold(y, scores, BIG + 10),
        "combine_thresholded": lambda: logical_combining.combine_thresholded(
            y, scores, scores, BIG + 10, BIG + 20),
        "flach_wu_decisions": lambda: concavity_repair.flach_wu_decisions(scores, 3.0, 2.0, 1.0),
        "uncertainty_from_bootstrap": lambda: uncertainty.uncertainty_from_bootstrap(
            y, scores, float(BIG), 0.5, e, n_boot=5),
        "soft_roc_auc": lambda: soft_labels.soft_roc_auc(y.astype(float), scores),
        "multiclass_auc": lambda: multiclass.multiclass_auc(
            y, np.column_stack([scores, -scores])),
    }
    for name, call in calls.items():
        with pytest.raises(ValueError) as info:
            call()
        message = str(info.value)
        pair = re.search(r"scores (-?\d+) and (-?\d+) are different integers", message)
        assert pair, (name, message)
        a, b = (int(v) for v in pair.groups())
        assert a != b and float(a) == float(b), name  # really two scores float64 would merge
        assert {a, b} <= {int(v) for v in scores} | {-int(v) for v in scores}, name
        assert "2**53" in message and "Rescale" in message, name


def test_int005_integers_that_float64_holds_are_read_as_before():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 200)
    y[:2] = (0, 1)
    for scores in (rng.integers(-1000, 1000, 200),                  # small int64
                   rng.integers(-1000, 1000, 200).astype(np.int32),
                   (BIG + 1024 * rng.integers(0, 50, 200)).astype(np.int64)):  # exact floats
        assert merged_integers(scores) is None
        assert curves.accuracy_at_threshold(y, scores, float(np.median(scores))) is not None
        assert curves.roc_auc(y, scores) == pytest.approx(roc_auc_score(y, scores), abs=1e-12)
        assert np.array_equal(curves.roc_curve(y, scores).thresholds,
                              curves.roc_curve(y, scores.astype(np.float64)).thresholds)


def _csv(path, y, scores):
    pd.DataFrame({"label": y, "score": scores}).to_csv(path, index=False)
    return path


@pytest.mark.parametrize("engine", ["memory", "duckdb"])
@pytest.mark.slow
def test_int006_files_with_merging_integer_scores_are_refused_naming_them(tmp_path, engine):
    path = _csv(tmp_path / "ids.csv", [1, 0, 1], [BIG + 1, BIG, 7])
    with pytest.raises(InputError) as info:
        if engine == "memory":
            load_predictions([path], options=ReadOptions())
        else:
            aggregate_predictions([path], engine="duckdb")
    e = info.value
    assert e.file.endswith("ids.csv") and e.column == "score"
    assert f"{BIG + 1}" in e.message and f"{BIG}" in e.message and "Rescale" in e.message
    if engine == "memory":
        assert "(row 2)" in e.message and "(row 3)" in e.message
    # a parquet int64 column and a ';' file (read as text) too
    frame = pd.DataFrame({"label": [1, 0], "score": np.array([BIG + 1, BIG], dtype=np.int64)})
    frame.to_parquet(tmp_path / "ids.parquet")
    (tmp_path / "semi.csv").write_text(f"label;score\n1;{BIG + 1}\n0;{BIG}\n")
    for other in ("ids.parquet", "semi.csv"):
        with pytest.raises(InputError, match="too large to tell apart"):
            if engine == "memory":
                load_predictions([tmp_path / other], options=ReadOptions())
            else:
                aggregate_predictions([tmp_path / other], engine="duckdb")


@pytest.mark.parametrize("engine", ["memory", "duckdb"])
def test_int006_integer_scores_float64_holds_still_load(tmp_path, engine):
    y, scores = [1, 0, 1, 0], [BIG + 4096, BIG, BIG + 2048, 5]
    path = _csv(tmp_path / "fine.csv", y, scores)
    if engine == "memory":
        table = load_predictions([path], options=ReadOptions()).table
    else:
        table = aggregate_predictions([path], engine="duckdb").table
    assert sorted(table["score"].unique()) == sorted(float(s) for s in scores)


@pytest.mark.slow
def test_int007_the_cli_exits_2_with_the_message_instead_of_a_wrong_auc(tmp_path):
    path = _csv(tmp_path / "big.csv", [1, 0], [BIG + 1, BIG])
    out = subprocess.run([sys.executable, "-m", "roc_dash.cli", "report", str(path)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and out.stdout == ""
    assert "big.csv" in out.stderr and "too large to tell apart" in out.stderr
    assert "Traceback" not in out.stderr
