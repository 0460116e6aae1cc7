"""``roc-dash report --engine duckdb|spark --group COL`` (issue 18): the engine counts rows per
(model, fold, group, score, label) in the database, and the report's ``slices`` and
``group_thresholds`` sections equal those of the in-memory reader on the same file (every
number within 1e-9, every name, flag and count exactly), for one group column, two crossed,
empty cells, weights and more groups than are kept; refusals as in memory."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from roc_dash.cli import main
from roc_dash.core.analysis_types import Conditions
from roc_dash.io import ReadOptions, load_predictions
from roc_dash.io.engines import aggregate_predictions
from roc_dash.report.slices import slices_sections
from tests.unit.io.test_engines import SPARK_NEEDS, _java_17


def _frame(seed=0, n=3000, groups=("north", "south", "east", "west")):
    """Groups differing in size, prevalence and separation; two models; tied scores."""
    rng = np.random.default_rng(seed)
    k = len(groups)
    code = rng.choice(k, n, p=np.arange(k, 0, -1) / (k * (k + 1) / 2))
    y = rng.random(n) < rng.uniform(0.15, 0.5, k)[code]
    frames = []
    for model in ("gbm", "logit"):
        sep = rng.uniform(0.5, 2.0, k)[code]
        frames.append(pd.DataFrame({
            "model": model, "label": y.astype(int),
            "score": np.round(rng.normal(size=n) + sep * y, 2),
            "region": np.asarray(groups, dtype=object)[code],
            "channel": rng.choice(["web", "shop"], n), "age": rng.integers(18, 90, n),
            "w": rng.choice([1.0, 2.0, 0.5], n)}))
    return pd.concat(frames, ignore_index=True)


def _same(a, b, path="$"):
    """``a == b`` with numbers within 1e-9 (relative to 1), anything else exactly."""
    if isinstance(a, dict):
        assert isinstance(b, dict) and list(a) == list(b), (path, list(a), list(b))
        for key in a:
            _same(a[key], b[key], f"{path}.{key}")
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), (path, len(a), len(b))
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _same(x, y, f"{path}[{i}]")
    elif isinstance(a, float) and not isinstance(b, bool) and isinstance(b, int | float):
        assert math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9), (path, a, b)
    else:
        assert a == b, (path, a, b)


def _report(tmp_path, capsys, path, *args):
    capsys.readouterr()
    code = main(["report", str(path), "--replicates", "0", *args])
    out = capsys.readouterr()
    assert code == 0, out.err
    doc = json.loads(out.out)
    return {k: doc[k] for k in ("slices", "group_thresholds")}


@pytest.mark.parametrize(("kind", "args"), [
    ("csv", ["--group", "region"]),
    ("parquet", ["--group", "region", "--group", "channel"]),
    ("csv", ["--group", "region", "--weight", "w", "--cost-fn", "4", "--prior", "0.3"]),
])
def test_seg001_duckdb_report_slices_equal_the_in_memory_report(tmp_path, capsys, kind, args):
    frame = _frame()
    frame.loc[frame.index % 97 == 0, "region"] = None  # empty cells: the group "(missing)"
    path = tmp_path / f"preds.{kind}"
    frame.to_csv(path, index=False) if kind == "csv" else frame.to_parquet(path)
    memory = _report(tmp_path, capsys, path, *args)
    engine = _report(tmp_path, capsys, path, *args, "--engine", "duckdb")
    assert memory["slices"]["models"] and memory["group_thresholds"]["models"]
    _same(engine, memory)
    groups = {g["name"]: g for g in engine["slices"]["models"][0]["groups"]}
    rows = frame[frame["model"] == "gbm"]
    if len(args) == 2:  # rows are input rows, not aggregated groups
        assert groups["(missing)"]["rows"] == int(rows["region"].isna().sum())


def test_seg002_more_groups_than_kept_are_pooled_by_input_rows(tmp_path):
    names = tuple(f"r{k:02d}" for k in range(60))
    frame = _frame(seed=2, n=6000, groups=names)
    frame["score"] = np.round(frame["score"], 1)  # few distinct scores: many rows per count
    path = tmp_path / "preds.parquet"
    frame.to_parquet(path)
    options = ReadOptions(group_columns=("region",))
    agg = aggregate_predictions([str(path)], options=options, engine="duckdb")
    mem = load_predictions([str(path)], options=options)
    assert len(agg.table) < len(mem.table)
    assert "distinct (model, fold, group, score, label) groups" in agg.notes[0]
    pooled = [n for n in agg.notes if "pooled" in n]
    assert pooled == [n for n in mem.notes if "pooled" in n] and pooled
    conditions = Conditions(cost_fn=3.0)
    _same(slices_sections(agg.table, conditions, group_columns=agg.group_columns),
          slices_sections(mem.table, conditions, group_columns=mem.group_columns))


def test_seg003_engine_refuses_a_numeric_group_column_as_in_memory(tmp_path, capsys):
    path = tmp_path / "preds.parquet"
    _frame(seed=3).to_parquet(path)
    capsys.readouterr()
    code = main(["report", str(path), "--group", "age", "--engine", "duckdb"])
    out = capsys.readouterr()
    assert code == 2 and out.out == ""
    assert out.err.startswith("roc-dash: ") and "Traceback" not in out.err
    assert "age" in out.err and "Bin it" in out.err


@pytest.mark.spark
def test_seg004_spark_counts_per_group_as_duckdb_and_memory(tmp_path):
    pytest.importorskip("pyspark", reason=SPARK_NEEDS)
    if not _java_17():
        pytest.skip(SPARK_NEEDS)
    frame = _frame(seed=4, n=1500)
    frame.loc[frame.index % 89 == 0, "channel"] = None
    ds = tmp_path / "ds"
    ds.mkdir()
    for k, lo in enumerate(range(0, len(frame), 1000)):
        frame.iloc[lo:lo + 1000].to_parquet(ds / f"part-{k}.parquet")
    options = ReadOptions(group_columns=("region", "channel"), weight="w")
    spark = aggregate_predictions([str(ds)], options=options, engine="spark")
    duck = aggregate_predictions([str(ds)], options=options, engine="duckdb")
    pd.testing.assert_frame_equal(spark.table, duck.table)
    assert spark.group_columns == ("region", "channel")
    mem = load_predictions([("ds.parquet", frame.to_parquet())], options=options)
    conditions = Conditions(cost_fp=2.0, prior_pos=0.25)
    _same(slices_sections(spark.table, conditions, group_columns=spark.group_columns),
          slices_sections(mem.table, conditions, group_columns=mem.group_columns))
