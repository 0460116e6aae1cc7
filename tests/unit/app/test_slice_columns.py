"""Slices chosen in the page (issue 18): the candidate columns an upload keeps, the groups made
from one column or two crossed (against pandas on the file's own columns), the refusals, the
link's slice and constraint, and the card's numbers under a chosen slice (against the core
called on pandas' grouping)."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

from roc_dash.app.features.slices import CHOOSE, column_choice, slices_outputs
from roc_dash.app.state import parse_query
from roc_dash.core.subgroups.group_thresholds import CONSTRAINTS, group_thresholds
from roc_dash.core.subgroups.slices import slice_analysis
from roc_dash.io import load_predictions
from roc_dash.io.canonical import ReadOptions
from roc_dash.io.errors import InputError
from roc_dash.io.groups import MAX_GROUPS, MISSING_GROUP
from roc_dash.io.slice_columns import (
    MAX_SLICE_COLUMNS,
    MAX_SLICE_VALUES,
    SLICE_PREFIX,
    slice_choices,
    slice_groups,
)
from tests.rings import ring_centre
from tools.slices_example import loan_predictions, loan_predictions_wide

KEEP = ReadOptions(keep_slice_columns=True)
STATE = {"cost_fp": 1.0, "cost_fn": 5.0, "prior": 0.2}


def _load(frame: pd.DataFrame, name: str = "loans.csv", options=KEEP):
    return load_predictions([(name, frame.to_csv(index=False).encode())], options=options)


@pytest.fixture(scope="module")
def wide():
    frame = loan_predictions_wide(n=1200, seed=5)
    return frame, _load(frame)


def test_scp001_upload_keeps_the_categorical_columns_and_lists_the_numeric(wide):
    frame, result = wide
    choices = slice_choices(result.table)
    assert choices.default is None  # no column named group
    assert choices.categorical == ("region", "product", "applicant", "online")
    assert choices.numeric == ("income",)
    table = result.table
    for column in ("region", "product", "applicant"):  # row by row, as pandas reads the file
        assert table[SLICE_PREFIX + column].astype(str).tolist() == frame[column].tolist()
    assert (table[SLICE_PREFIX + "online"].astype(str)
            == frame["online"].map({True: "true", False: "false"})).all()


def test_scp002_crossed_groups_are_pandas_pairs(wide):
    frame, result = wide
    groups, notes = slice_groups(result.table, ["region", "product"])
    expected = frame["region"] + " × " + frame["product"]
    assert groups.tolist() == expected.tolist() and notes == ()
    one, _ = slice_groups(result.table, ["applicant"])
    assert one.value_counts().to_dict() == frame["applicant"].value_counts().to_dict()


def test_scp003_numbers_unknown_and_three_columns_are_refused_with_advice(wide):
    _, result = wide
    with pytest.raises(InputError, match=r"'income'.*holds numbers.*Bin it.*pandas\.cut"):
        slice_groups(result.table, ["income"])
    with pytest.raises(InputError, match=r"No column 'height'.*choose one of.*'region'"):
        slice_groups(result.table, ["height"])
    with pytest.raises(InputError, match="at most 2 can be crossed"):
        slice_groups(result.table, ["region", "product", "applicant"])
    with pytest.raises(InputError, match="no group column; choose a column"):
        slice_groups(result.table, [])


def test_scp004_without_the_option_nothing_more_is_kept_and_group_is_the_default():
    frame = loan_predictions(n=400, seed=1).assign(product="card")
    plain = _load(frame, options=ReadOptions())
    assert not [c for c in plain.table.columns if str(c).startswith(SLICE_PREFIX)]
    kept = _load(frame)
    choices = slice_choices(kept.table)
    assert choices.default == "group" and choices.categorical == ("product",)
    groups, _ = slice_groups(kept.table, None)
    assert groups.tolist() == frame["group"].tolist()


def test_scp005_bounds_many_values_and_many_columns_are_noted():
    rng = np.random.default_rng(0)
    n = MAX_SLICE_VALUES + 50
    frame = pd.DataFrame({"label": rng.integers(0, 2, n), "score": rng.random(n),
                          "code": [f"c{i}" for i in range(n)]})
    for k in range(MAX_SLICE_COLUMNS):
        frame[f"extra{k}"] = rng.choice(["a", "b"], n)
    result = _load(frame)
    choices = slice_choices(result.table)
    assert "code" not in choices.names  # an identifier, not a grouping
    assert len(choices.categorical) == MAX_SLICE_COLUMNS - 1
    assert any("'code' cannot be chosen as slices" in n for n in result.notes)
    assert any(f"only the first {MAX_SLICE_COLUMNS} other columns" in n and "'extra11'" in n
               for n in result.notes)


def test_scp006_files_without_the_column_are_missing_and_parquet_keeps_it(tmp_path):
    a = loan_predictions(n=300, seed=2).rename(columns={"group": "region"})
    b = loan_predictions(n=200, seed=3).drop(columns=["group", "id"])
    buffer = io.BytesIO()
    b.to_parquet(buffer, index=False)
    result = load_predictions([("a.csv", a.to_csv(index=False).encode()),
                               ("b.parquet", buffer.getvalue())], options=KEEP)
    groups, _ = slice_groups(result.table, ["region"])
    assert groups.tolist() == a["region"].tolist() + [MISSING_GROUP] * len(b)
    path = tmp_path / "t.parquet"  # as the page's store keeps it
    result.table.to_parquet(path, index=False)
    again = pd.read_parquet(path)
    assert slice_choices(again) == slice_choices(result.table)
    assert slice_groups(again, ["region"])[0].tolist() == groups.tolist()


def test_scp007_a_cross_of_many_groups_is_pooled_with_a_note():
    rng = np.random.default_rng(4)
    n = 4000
    frame = pd.DataFrame({"label": rng.integers(0, 2, n), "score": rng.random(n),
                          "a": rng.choice([f"a{i}" for i in range(10)], n),
                          "b": rng.choice([f"b{i}" for i in range(10)], n)})
    groups, notes = slice_groups(_load(frame).table, ["a", "b"])
    assert groups.nunique() == MAX_GROUPS and "other" in set(groups)
    pairs = (frame["a"] + " × " + frame["b"]).value_counts()
    kept = set(groups) - {"other"}
    assert kept <= set(pairs.index)
    assert pairs[list(kept)].min() >= pairs.drop(list(kept)).max()  # the largest kept
    assert notes and "pooled" in notes[0]


def test_scp008_link_carries_slice_and_constraint():
    q = parse_query("?slc=region&slx=product&sct=equalized_odds")
    assert q["slice_columns"] == ["region", "product"]
    assert q["slice_constraint"] == "equalized_odds"
    assert parse_query("?slc=age%20band")["slice_columns"] == ["age band"]
    bad = parse_query("?slx=product&sct=nonsense&slc=" + "x" * 201)
    assert "slice_columns" not in bad and "slice_constraint" not in bad
    assert parse_query("?slc=a&slx=a")["slice_columns"] == ["a"]
    for constraint in CONSTRAINTS:
        assert parse_query(f"?sct={constraint}")["slice_constraint"] == constraint


def test_scp009_selector_keeps_the_choice_else_the_link_else_group(wide):
    _, result = wide
    choices = slice_choices(result.table)
    options, value, cross_options, cross = column_choice(choices, None, None,
                                                         ["product", "region"])
    assert (value, cross) == ("product", "region")
    assert "product" not in [o["value"] for o in cross_options]
    assert [o["label"] for o in options if o["value"] == "income"] == [
        "income (numbers: bin first)"]
    assert column_choice(choices, "applicant", "online", ["product"])[1::2] == (
        "applicant", "online")
    assert column_choice(choices, None, None, ["nothing"])[1] is None  # no group column
    grouped = slice_choices(_load(loan_predictions(n=300, seed=1)).table)
    assert column_choice(grouped, None, None, None)[1] == "group"


@pytest.mark.parametrize("constraint", ["group_optima", "equalized_odds"])
def test_scp010_card_under_a_crossed_slice_is_the_core_on_pandas_groups(wide, constraint):
    frame, result = wide
    rows = frame[frame["model"] == "gradient boosting"]
    groups = (rows["region"] + " × " + rows["applicant"]).to_numpy()
    expected = group_thresholds(slice_analysis(
        rows["label"].to_numpy(bool), rows["score"].to_numpy(float), groups,
        cost_fp=1.0, cost_fn=5.0, prior_pos=0.2)).solution(constraint)
    source, _, total, _, _ = slices_outputs(result.table, "gradient boosting", STATE,
                                            constraint, columns=["region", "applicant"])
    assert source.startswith("Groups from the column region × applicant (8 groups)")
    assert float(total.children[1].children) == pytest.approx(expected.expected_cost,
                                                              rel=1e-5)
    assert slices_outputs(result.table, "gradient boosting", STATE, constraint)[0] == CHOOSE
    refused = slices_outputs(result.table, "gradient boosting", STATE, constraint,
                             columns=["income"])[0]
    assert "holds numbers" in refused and "Bin it" in refused


# -- the Curves and Table CSV with a group column (the page's slice) ----------------------
def _csvs(table, columns, constraint="equal_opportunity"):
    from roc_dash.app.features.exports import curves_csv, sliced, table_csv
    from roc_dash.core.assembly.analysis import analyse

    analysis = analyse(table)
    slices = sliced(table, [m.name for m in analysis.models], STATE, columns, constraint)
    read = [pd.read_csv(io.StringIO(text), keep_default_na=False, na_values=[""])
            for text in (curves_csv(analysis, slices), table_csv(analysis, slices),
                         curves_csv(analysis), table_csv(analysis))]
    return read


def test_scp011_curves_csv_gains_each_groups_curve_as_sklearn(wide):
    from sklearn.metrics import roc_auc_score, roc_curve

    frame, result = wide
    curves, _, plain, _ = _csvs(result.table, ["region", "product"])
    assert list(curves.columns[:3]) == ["model", "group", "fold"]
    overall = curves[curves["group"].isna()].drop(columns="group").reset_index(drop=True)
    pd.testing.assert_frame_equal(overall, plain[overall.columns])  # unchanged
    for (model, group), rows in frame.assign(
            g=frame["region"] + " × " + frame["product"]).groupby(["model", "g"]):
        got = curves[(curves["model"] == model) & (curves["group"] == group)]
        fpr, tpr, _ = roc_curve(rows["label"], rows["score"], drop_intermediate=False)
        points = set(zip(np.round(fpr, 12), np.round(tpr, 12), strict=True))
        assert set(zip(got["fpr"].round(12), got["tpr"].round(12), strict=True)) <= points
        assert np.trapezoid(got["tpr"], got["fpr"]) == pytest.approx(
            roc_auc_score(rows["label"], rows["score"]), abs=1e-12)


def test_scp012_table_csv_gains_each_groups_row_as_pandas_counts(wide):
    from sklearn.metrics import roc_auc_score

    frame, result = wide
    _, table, _, plain = _csvs(result.table, ["applicant"], "demographic_parity")
    overall = table[table["group"].isna()]
    assert len(overall) == len(plain) and list(overall["model"]) == list(plain["model"])
    groups = table[table["group"].notna()]
    assert set(groups["constraint"]) == {"demographic_parity"}
    for (model, group), rows in frame.groupby(["model", "applicant"]):
        row = groups[(groups["model"] == model) & (groups["group"] == group)].iloc[0]
        assert row["rows"] == len(rows) and row["positives"] == rows["label"].sum()
        assert row["prevalence"] == pytest.approx(rows["label"].mean())
        assert row["auc"] == pytest.approx(roc_auc_score(rows["label"], rows["score"]))
    flagged = groups.groupby("model")["constrained_flagged"]
    assert (flagged.max() - flagged.min()).max() < 1e-9  # parity: one share flagged


def test_scp013_without_a_slice_the_csvs_are_unchanged():
    table = _load(loan_predictions(n=300, seed=2).drop(columns=["group"])).table
    curves, models, plain_curves, plain_models = _csvs(table, [])
    assert "group" not in curves.columns and "group" not in models.columns
    pd.testing.assert_frame_equal(curves, plain_curves)
    pd.testing.assert_frame_equal(models, plain_models)


def test_scp014_a_dragged_ring_moves_its_group_and_the_others_follow(wide):
    from roc_dash.core.subgroups.group_thresholds import follow_constraint

    frame, result = wide
    columns = ["region"]
    rows = frame[frame["model"] == "logistic regression"]
    analysis = slice_analysis(rows["label"].to_numpy(bool), rows["score"].to_numpy(float),
                              rows["region"].to_numpy(), cost_fp=1.0, cost_fn=5.0,
                              prior_pos=0.2)
    drag = {"group": "north", "fpr": 0.3, "tpr": 0.9, "stamp": 1}
    expected = follow_constraint(analysis, "equal_opportunity", "north", 0.3, 0.9)
    _, fig, total, summary, _ = slices_outputs(
        result.table, "logistic regression", STATE, "equal_opportunity", columns=columns,
        drag=drag)
    assert float(total.children[1].children) == pytest.approx(expected.expected_cost,
                                                              rel=1e-5)
    assert "north moved by hand" in summary[0].children
    shapes = fig.layout.shapes
    assert sorted(s.name for s in shapes) == sorted(r.group for r in expected.rules)
    for shape in shapes:  # each ring centred on its group's point
        rule = expected.rule(shape.name)
        assert ring_centre(shape) == pytest.approx((rule.fpr, rule.tpr))
    for bad in ({"group": "nowhere", "fpr": 0.1, "tpr": 0.2}, {"group": "north"}, "x"):
        _, _, total, _, _ = slices_outputs(result.table, "logistic regression", STATE,
                                           "equal_opportunity", columns=columns, drag=bad)
        optimum = group_thresholds(analysis).solution("equal_opportunity").expected_cost
        assert float(total.children[1].children) == pytest.approx(optimum, rel=1e-5)


def test_scp015_a_prior_per_group_is_the_cores_and_bad_entries_are_named(wide):
    from roc_dash.app.state import group_priors

    frame, result = wide
    rows = frame[frame["model"] == "gradient boosting"]
    expected = group_thresholds(slice_analysis(
        rows["label"].to_numpy(bool), rows["score"].to_numpy(float), rows["region"].to_numpy(),
        cost_fp=1.0, cost_fn=5.0, prior_pos=0.2, group_priors={"north": 0.3, "west": 0.05})
    ).solution("demographic_parity")
    text = "north=0.3, west = 5%, nowhere=0.2, south=2, junk"
    _, _, total, summary, _ = slices_outputs(result.table, "gradient boosting", STATE,
                                             "demographic_parity", columns=["region"],
                                             priors_text=text)
    assert float(total.children[1].children) == pytest.approx(expected.expected_cost,
                                                              rel=1e-5)
    note = summary[-1].children
    assert "north 0.3, west 0.05" in note
    assert "'nowhere=0.2' (no group 'nowhere')" in note and "'south=2'" in note
    assert "'junk' (write group=value)" in note
    assert group_priors("", ["a"]) == ({}, [])
    assert group_priors(None, ["a"]) == ({}, [])


def test_scp016_the_html_reports_slices_follow_the_cards_slice(wide):
    from roc_dash.app.features.exports import slices_for_report
    from roc_dash.app.state import conditions_from_state

    frame, result = wide
    sections = slices_for_report(result.table, ["gradient boosting"],
                                 conditions_from_state(STATE), ["region", "applicant"])
    assert sections["slices"]["group_columns"] == ["region", "applicant"]
    (model,) = sections["group_thresholds"]["models"]
    rows = frame[frame["model"] == "gradient boosting"]
    expected = group_thresholds(slice_analysis(
        rows["label"].to_numpy(bool), rows["score"].to_numpy(float),
        (rows["region"] + " × " + rows["applicant"]).to_numpy(), cost_fp=1.0, cost_fn=5.0,
        prior_pos=0.2))
    for got, want in zip(model["solutions"], expected.solutions, strict=True):
        assert got["expected_cost"] == pytest.approx(want.expected_cost, rel=1e-12)
    assert slices_for_report(result.table, ["gradient boosting"],
                             conditions_from_state(STATE)) is None  # no slice chosen
