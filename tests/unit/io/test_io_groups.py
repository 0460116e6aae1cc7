"""The group column (issue 18): read from CSV and Parquet into the canonical table, checked
against pandas reading the same file; refusals and notes; and the JSON sections built on it
(against the core functions called on the rows pandas reads)."""

from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from roc_dash.core.analysis_types import Conditions
from roc_dash.core.subgroups.group_thresholds import CONSTRAINTS, group_thresholds
from roc_dash.core.subgroups.slices import slice_analysis
from roc_dash.io import (
    CANONICAL_COLUMNS,
    GROUP_COLUMN,
    MAX_GROUPS,
    InputError,
    LoadResult,
    ReadOptions,
    load_predictions,
)
from roc_dash.report.slices import slices_sections


def _frame(seed=0, n=400, groups=("north", "south", "east")):
    rng = np.random.default_rng(seed)
    g = rng.choice(np.array(groups), n)
    y = rng.random(n) < 0.35
    return pd.DataFrame({
        "label": y.astype(int),
        "score": np.round(rng.normal(size=n) + y, 3),
        "group": g,
        "region": rng.choice(["r1", "r2"], n),
        "age": rng.integers(18, 90, n),
    })


def _csv(frame: pd.DataFrame) -> bytes:
    return frame.to_csv(index=False).encode()


def _parquet(frame: pd.DataFrame) -> bytes:
    buf = io.BytesIO()
    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), buf)
    return buf.getvalue()


def load(data: bytes, name: str = "preds.csv", **options) -> LoadResult:
    return load_predictions([(name, data)], options=ReadOptions(**options))


def load_error(data: bytes, name: str = "preds.csv", **options) -> InputError:
    with pytest.raises(InputError) as info:
        load(data, name, **options)
    return info.value


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_grp001_a_group_column_is_kept_by_default(fmt):
    frame = _frame(1)
    data, name = (_csv(frame), "p.csv") if fmt == "csv" else (_parquet(frame), "p.parquet")
    result = load(data, name)
    table = result.table
    assert list(table.columns) == [*CANONICAL_COLUMNS, GROUP_COLUMN]
    assert table[GROUP_COLUMN].tolist() == frame["group"].tolist()
    assert table["score"].tolist() == frame["score"].tolist()
    assert result.group_columns == ("group",)
    assert any("grouped by column 'group'" in n for n in result.notes)


def test_grp002_without_a_group_column_nothing_changes():
    frame = _frame(2).drop(columns=["group"])
    result = load(_csv(frame))
    assert list(result.table.columns) == list(CANONICAL_COLUMNS)
    assert result.group_columns == ()
    assert not any("group" in n for n in result.notes)
    # and an explicit "no group" leaves a group column unused
    off = load(_csv(_frame(2)), group_columns=())
    assert list(off.table.columns) == list(CANONICAL_COLUMNS)
    assert off.table.drop(columns=[]).equals(result.table)


def test_grp003_choose_a_column_or_cross_two():
    frame = _frame(3)
    one = load(_csv(frame), group_columns="REGION ").table  # names compared ignoring case
    assert one[GROUP_COLUMN].tolist() == frame["region"].tolist()
    two = load(_csv(frame), group_columns=("region", "group"))
    expected = (frame["region"] + " × " + frame["group"]).tolist()
    assert two.table[GROUP_COLUMN].tolist() == expected
    assert two.group_columns == ("region", "group")
    assert any("'region' × 'group'" in n for n in two.notes)


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_grp004_a_numeric_group_column_is_refused_with_advice_to_bin(fmt):
    frame = _frame(4)
    data, name = (_csv(frame), "p.csv") if fmt == "csv" else (_parquet(frame), "p.parquet")
    error = load_error(data, name, group_columns="age")
    assert error.file == name and error.column == "age"
    text = str(error)
    assert text.startswith(f"{name}: column 'age' holds numbers")
    assert "Bin it" in text and "pandas.cut" in text


def test_grp005_a_default_group_column_of_numbers_is_left_unused():
    frame = _frame(5).assign(group=lambda f: f["age"] % 3)
    result = load(_csv(frame))
    assert GROUP_COLUMN not in result.table.columns
    assert any("holds numbers, so it is not used as the group column" in n
               for n in result.notes)


def test_grp006_more_than_fifty_groups_pool_the_smallest_as_other():
    rng = np.random.default_rng(6)
    sizes = rng.integers(5, 40, 60)
    names = np.repeat([f"shop {k:02d}" for k in range(60)], sizes)
    frame = pd.DataFrame({"label": rng.integers(0, 2, names.size),
                          "score": rng.random(names.size), "group": names})
    result = load(_csv(frame))
    counts = frame["group"].value_counts()
    order = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    kept = {k for k, _ in order[:MAX_GROUPS - 1]}
    expected = frame["group"].where(frame["group"].isin(kept), "other")
    assert result.table[GROUP_COLUMN].tolist() == expected.tolist()
    assert result.table[GROUP_COLUMN].nunique() == MAX_GROUPS
    pooled = sum(c for _, c in order[MAX_GROUPS - 1:])
    assert any(f"the other 11 ({pooled} rows) are pooled as 'other'" in n
               for n in result.notes)


def test_grp007_empty_cells_and_files_without_the_column_are_missing():
    frame = _frame(7, n=60)
    frame.loc[[3, 10], "group"] = ""
    other = pd.DataFrame({"label": [1, 0, 1, 0], "score": [0.9, 0.1, 0.7, 0.3]})
    result = load_predictions([("a.csv", _csv(frame)), ("b.csv", _csv(other))])
    table = result.table
    assert table.loc[[3, 10], GROUP_COLUMN].tolist() == ["(missing)", "(missing)"]
    assert (table.loc[table["model"] == "b", GROUP_COLUMN] == "(missing)").all()
    assert any("a.csv: 2 rows with an empty 'group' cell are in the group '(missing)'" in n
               for n in result.notes)
    assert any(n.startswith("b.csv: has no group column") for n in result.notes)


@pytest.mark.parametrize("options, message", [
    ({"group_columns": "label"}, "cannot be both the label and a group column"),
    ({"group_columns": "nowhere"}, "there is no column 'nowhere' (chosen as the group column)"),
    ({"group_columns": ("region", "group", "age")}, "at most 2 can be crossed"),
    ({"group_columns": ("region", "Region")}, "chosen twice as a group column"),
])
def test_grp008_bad_choices_are_refused_naming_the_file(options, message):
    error = load_error(_csv(_frame(8)), "shops.csv", **options)
    assert str(error).startswith("shops.csv: ")
    assert message in str(error)


def test_grp009_wide_form_and_dropped_rows_keep_each_rows_group():
    frame = _frame(9, n=50)
    frame = frame.rename(columns={"score": "m1"}).assign(m2=lambda f: 1 - f["m1"])
    frame.loc[[4, 7], "m2"] = np.nan
    result = load(_csv(frame.drop(columns=["age"])), drop_nonfinite=True)
    table = result.table
    m1, m2 = table[table["model"] == "m1"], table[table["model"] == "m2"]
    assert m1[GROUP_COLUMN].tolist() == frame["group"].tolist()
    assert m2[GROUP_COLUMN].tolist() == frame["group"].drop(index=[4, 7]).tolist()


def test_grp010_multiclass_and_soft_label_files_keep_the_group():
    rng = np.random.default_rng(10)
    n = 30
    mc = pd.DataFrame({"class": rng.choice(["a", "b", "c"], n),
                       "score_a": rng.random(n), "score_b": rng.random(n),
                       "score_c": rng.random(n), "group": rng.choice(["x", "y"], n)})
    table = load(_csv(mc), class_column="class").table
    assert table[GROUP_COLUMN].tolist() == mc["group"].tolist()
    soft = pd.DataFrame({"label_prob": [0.2, 1.0, 0.7, 0.0], "score": [0.1, 0.9, 0.6, 0.2],
                         "group": ["x", "y", "x", "y"]})
    table = load(_csv(soft)).table  # each instance: a positive and a negative row
    assert table[GROUP_COLUMN].tolist() == ["x", "x", "y", "x", "x", "y"]


def test_grp011_json_sections_equal_the_core_on_the_same_rows():
    frame = _frame(11, n=900)
    frame["model"] = np.where(np.arange(len(frame)) % 2 == 0, "rf", "lr")
    result = load(_csv(frame.drop(columns=["age"])))
    conditions = Conditions(cost_fp=1.0, cost_fn=4.0, prior_pos=0.3)
    doc = slices_sections(result.table, conditions, group_columns=result.group_columns,
                          group_priors={"north": 0.5})
    json.dumps(doc, allow_nan=False)  # JSON-safe
    assert doc["slices"]["group_columns"] == ["group"]
    assert [m["model"] for m in doc["slices"]["models"]] == ["rf", "lr"]
    for entry, thresholds in zip(doc["slices"]["models"], doc["group_thresholds"]["models"],
                                 strict=True):
        rows = frame[frame["model"] == entry["model"]]
        core = slice_analysis(rows["label"].to_numpy() == 1, rows["score"].to_numpy(),
                              rows["group"].to_numpy(), cost_fn=4.0, prior_pos=0.3,
                              group_priors={"north": 0.5})
        assert entry["expected_cost"] == pytest.approx(core.expected_cost)
        for group, roc in zip(entry["groups"], core.rocs, strict=True):
            assert group["name"] == roc.name and group["auc"] == pytest.approx(roc.auc)
            assert group["optimal"]["threshold"] == core.optimum(roc.name).optimum.threshold
        solved = group_thresholds(core)
        assert [s["constraint"] for s in thresholds["solutions"]] == list(CONSTRAINTS)
        for s in thresholds["solutions"]:
            assert s["expected_cost"] == pytest.approx(
                solved.solution(s["constraint"]).expected_cost)
    assert doc["slices"]["models"][0]["groups"][0]["roc"]["threshold"][0] is None  # +inf


def test_grp012_json_sections_without_groups_or_with_one_class_models():
    table = load(_csv(_frame(12).drop(columns=["group"]))).table
    assert slices_sections(table, Conditions()) == {"slices": None, "group_thresholds": None}
    frame = _frame(12, n=200)
    frame["model"] = "a"
    lone = frame.assign(model="b", label=1)
    lone.loc[0, "label"] = 0
    lone.loc[0, "group"] = "elsewhere"
    table = load_predictions([("a.csv", _csv(frame)), ("b.csv", _csv(lone))]).table
    doc = slices_sections(table, Conditions())
    assert [m["model"] for m in doc["slices"]["models"]] == ["a"]
    assert doc["slices"]["skipped"][0]["model"] == "b"
    assert "no group has both" in doc["slices"]["skipped"][0]["reason"]
