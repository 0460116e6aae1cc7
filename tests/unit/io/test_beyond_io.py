"""Issue 9, input side: multi-class, soft-label, example-specific cost and leaf files read,
analysed and reported (mcio, soft, cst, lvs, rep codes)."""

from __future__ import annotations

import json
from importlib import resources
from itertools import combinations

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

from roc_dash.cli import main
from roc_dash.core.assembly.analysis import analyse
from roc_dash.core.kinds.canonical_kinds import class_view
from roc_dash.core.roc.curves import auc, roc_curve
from roc_dash.io import InputError, ReadOptions, load_predictions
from roc_dash.report import build_report


def _data(name: str) -> bytes:
    return (resources.files("roc_dash.data") / name).read_bytes()


def _load(text: str | bytes, name: str = "preds.csv", **options):
    data = text.encode() if isinstance(text, str) else text
    return load_predictions([(name, data)], options=ReadOptions(**options))


def _error(text: str, name: str = "preds.csv", **options) -> InputError:
    with pytest.raises(InputError) as info:
        _load(text, name, **options)
    return info.value


def _report(tmp_path, frame_or_path, *args, capsys):
    if isinstance(frame_or_path, pd.DataFrame):
        path = tmp_path / "in.csv"
        frame_or_path.to_csv(path, index=False)
    else:
        path = frame_or_path
    capsys.readouterr()
    code = main(["report", str(path), *args])
    out = capsys.readouterr()
    return code, out.out, out.err


# ----------------------------------------------------------------------------- multi-class


def test_mcio001_demo_read_as_multiclass_with_a_note():
    result = load_predictions([("multiclass_demo.csv", _data("multiclass_demo.csv"))])
    raw = pd.read_csv(resources.files("roc_dash.data") / "multiclass_demo.csv")
    t = result.table
    assert result.kind.kind == "multiclass"
    assert result.kind.classes == ("class_0", "class_1", "class_2")
    assert any("multi-class" in n and "3 classes" in n for n in result.notes)
    assert len(t) == len(raw)
    assert (t["class"].to_numpy() == raw["class"].to_numpy()).all()
    for c in result.kind.classes:
        np.testing.assert_array_equal(t[f"score_{c}"].to_numpy(), raw[f"score_{c}"].to_numpy())
    # the stored label/score are the class reference view of the first class
    np.testing.assert_array_equal(t["label"].to_numpy(), (raw["class"] == "class_0").to_numpy())
    np.testing.assert_array_equal(t["score"].to_numpy(), raw["score_class_0"].to_numpy())


def test_mcio002_wide_class_columns_numeric_classes_and_reference_class():
    text = "y,1,2,3\n1,0.7,0.2,0.1\n2,0.1,0.8,0.1\n3,0.2,0.2,0.6\n1,0.5,0.3,0.2\n2,0.3,0.3,0.4\n"
    result = _load(text, positive="2")
    assert result.kind.classes == ("1", "2", "3") and result.kind.reference_class == "2"
    t = result.table
    np.testing.assert_array_equal(t["label"].to_numpy(), [False, True, False, False, True])
    np.testing.assert_array_equal(t["score"].to_numpy(), [0.2, 0.8, 0.2, 0.3, 0.3])
    view = class_view(t, "3")
    np.testing.assert_array_equal(view["label"].to_numpy(), [False, False, True, False, False])


def test_mcio003_binary_files_are_read_as_before():
    # two labels with score_<x> columns stay wide form (one model per column)
    text = "label,score_a,score_b\n0,0.1,0.2\n1,0.9,0.7\n0,0.3,0.1\n1,0.6,0.8\n"
    result = _load(text)
    assert result.kind.kind == "binary"
    assert sorted(result.table["model"].unique()) == ["score_a", "score_b"]
    assert list(result.table.columns) == ["label", "score", "model", "fold", "weight"]


@pytest.mark.slow
def test_mcio004_multiclass_errors_name_file_column_and_class():
    err = _error("class,score_a,score_b\na,0.5,0.5\nb,0.4,0.6\nc,0.3,0.7\n")
    assert "preds.csv" in str(err) and "'c'" in str(err) and "score_c" in str(err)
    assert err.column == "class"
    err = _error("class,score_a,score_b,score_c\na,0.5,0.5,0.1\nb,0.4,0.6,0.2\nc,0.3,0.7,\n")
    assert "'score_c'" in str(err) and "row 4" in str(err)
    err = _error("class,score_a,score_b,score_c\na,0.5,0.5,0.1\nb,0.4,0.6,0.2\nb,0.3,0.7,.1\n"
                 "c,1,1,1\n", class_column="class", positive="d")
    assert "reference class 'd'" in str(err)
    # three labels with a plain score column: the binary message, pointing at score_<class>
    msg = str(_error("label,score\ncat,0.1\ndog,0.2\nbird,0.3\n"))
    assert "two classes" in msg and "Multi-class" in msg


def test_mcio005_report_matches_scikit_learn_and_a_direct_pairwise_count(tmp_path, capsys):
    code, out, _ = _report(tmp_path, resources.files("roc_dash.data") / "multiclass_demo.csv",
                           capsys=capsys)
    assert code == 0
    doc = json.loads(out)
    raw = pd.read_csv(resources.files("roc_dash.data") / "multiclass_demo.csv")
    classes = ["class_0", "class_1", "class_2"]
    assert doc["multiclass"]["classes"] == classes
    for m in doc["multiclass"]["models"]:
        frame = raw[raw["model"] == m["name"]]
        y = frame["class"].to_numpy()
        s = frame[[f"score_{c}" for c in classes]].to_numpy()
        probs = s / s.sum(axis=1, keepdims=True)  # sklearn wants rows summing to one
        assert m["hand_till_m"] == pytest.approx(
            roc_auc_score(y, probs, multi_class="ovo", labels=classes, average="macro"))
        assert m["auc_weighted"] == pytest.approx(
            roc_auc_score(y, probs, multi_class="ovr", labels=classes, average="weighted"))
        assert m["auc_macro"] == pytest.approx(
            roc_auc_score(y, probs, multi_class="ovr", labels=classes, average="macro"))
        for k, c in enumerate(classes):
            assert m["auc_per_class"][k] == pytest.approx(roc_auc_score(y == c, s[:, k]))
        for i, j in combinations(range(3), 2):
            for a, b in ((i, j), (j, i)):  # Â(a|b): P(score_a of an a-row > of a b-row)
                pa_, pb_ = s[y == classes[a], a], s[y == classes[b], a]
                diff = pa_[:, None] - pb_[None, :]
                direct = ((diff > 0) + 0.5 * (diff == 0)).mean()
                assert m["pairwise_auc"][a][b] == pytest.approx(direct)
        assert m["pairwise_auc"][0][0] is None  # NaN diagonal -> null
    # the binary keys are the class reference view of class_0
    first = doc["models"][0]
    frame = raw[raw["model"] == first["name"]]
    assert first["auc"] == pytest.approx(
        roc_auc_score(frame["class"] == "class_0", frame["score_class_0"]))


# ----------------------------------------------------------------------------- soft labels


def test_soft022_demo_read_as_soft_labels_split_by_qin_eq8():
    result = load_predictions([("soft_labels_demo.csv", _data("soft_labels_demo.csv"))])
    raw = pd.read_csv(resources.files("roc_dash.data") / "soft_labels_demo.csv")
    t = result.table
    assert result.kind.kind == "soft" and result.kind.source_column == "label_prob"
    assert any("soft labels" in n for n in result.notes)
    for model, frame in raw.groupby("model"):
        rows = t[t["model"] == model]
        p = frame["label_prob"].to_numpy()
        assert rows.loc[rows["label"], "weight"].sum() == pytest.approx(p.sum())
        assert rows.loc[~rows["label"], "weight"].sum() == pytest.approx((1 - p).sum())
        assert len(rows) == (p > 0).sum() + (p < 1).sum()


def test_soft023_qin_table2_through_the_report(tmp_path, capsys):
    # Qin's Table 2: labels 0.8, 0.6, 0.4, 0.2, 0 ranked; exchanges lower the AUC
    p = [0.8, 0.6, 0.4, 0.2, 0.0]
    rankings = {"perfect": [5, 4, 3, 2, 1], "swap45": [5, 4, 3, 1, 2],
                "swap34": [5, 4, 2, 3, 1], "swap23": [5, 3, 4, 2, 1]}
    frame = pd.concat([pd.DataFrame({"model": k, "id": range(5), "label_prob": p,
                                     "score": v}) for k, v in rankings.items()])
    code, out, _ = _report(tmp_path, frame, capsys=capsys)
    assert code == 0
    doc = json.loads(out)
    # by hand: n+ = 2, n- = 3; AUC = (sum p(1-p) + 2C) / (2 n+ n-)
    expected = {}
    for k, v in rankings.items():
        order = np.argsort(-np.asarray(v))
        q = np.asarray(p)[order]
        c = sum(q[j] * (1 - q[i]) for i in range(5) for j in range(i))
        expected[k] = ((q * (1 - q)).sum() + 2 * c) / (2 * 2.0 * 3.0)
    assert expected["perfect"] == pytest.approx(5 / 6)
    soft = {m["name"]: m for m in doc["soft_labels"]["models"]}
    binary = {m["name"]: m for m in doc["models"]}
    for k in rankings:
        assert soft[k]["auc"] == pytest.approx(expected[k])
        assert binary[k]["auc"] == pytest.approx(expected[k])  # the split rows agree
        assert soft[k]["n_instances"] == 5 and binary[k]["n_rows"] == 5
        assert soft[k]["n_pos"] == pytest.approx(2.0) and soft[k]["n_neg"] == pytest.approx(3.0)
        assert soft[k]["hard_labels"] is False
        assert binary[k]["auc_ci"]["method"] == "soft_delong"
    assert doc["comparisons"] == []  # no DeLong test on split rows
    assert any("soft labels" in n for n in doc["notes"])


def test_soft024_hard_labels_through_the_soft_path_equal_binary_bit_for_bit(tmp_path):
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 300)
    s = np.round(rng.normal(y, 1.0), 2)
    w = rng.integers(1, 4, 300).astype(float)
    hard = pd.DataFrame({"label": y, "score": s, "weight": w})
    soft = pd.DataFrame({"label_prob": y.astype(float), "score": s, "weight": w})
    a = analyse(_load(hard.to_csv(index=False), "m.csv").table)
    b_result = _load(soft.to_csv(index=False), "m.csv")
    assert b_result.kind.kind == "soft"
    b = analyse(b_result.table)
    ra, rb = build_report(a), build_report(b)
    for key in ("models", "hull", "optimal"):
        ma, mb = json.dumps(ra[key]), json.dumps(rb[key])
        assert ma == mb


def test_soft025_bad_soft_labels_name_rows_and_the_flag_picks_a_column():
    err = _error("label_prob,score\n0.2,1\n1.5,2\n-0.1,3\n0.4,4\n")
    assert "2 invalid soft labels" in str(err) and "rows 3, 4" in str(err)
    assert "1.5" in str(err) and err.column == "label_prob" and err.file == "preds.csv"
    err = _error("label_prob,score\n0,1\n0,2\n")
    assert "no positive mass" in str(err)
    result = _load("label,p_true,score\n1,0.9,0.8\n0,0.2,0.1\n1,0.6,0.5\n",
                   soft_labels="p_true")
    assert result.kind.kind == "soft" and result.kind.source_column == "p_true"
    # without the flag the hard label column wins
    assert _load("label,label_prob,score\n1,0.9,0.8\n0,0.2,0.1\n").kind.kind == "binary"


# ----------------------------------------------------------------------------- costs


def test_cst005_cost_column_equals_replicated_rows(tmp_path, capsys):
    rng = np.random.default_rng(5)
    n = 120
    y = rng.integers(0, 2, n)
    s = np.round(rng.normal(y, 1.0), 1)
    cost = rng.integers(1, 5, n)
    frame = pd.DataFrame({"label": y, "score": s, "cost": cost})
    result = _load(frame.to_csv(index=False))
    assert result.kind.kind == "costs" and result.kind.weights_are_costs
    replicated = frame.loc[frame.index.repeat(cost), ["label", "score"]]
    curve = roc_curve(replicated["label"].to_numpy(), replicated["score"].to_numpy())
    code, out, _ = _report(tmp_path, frame, capsys=capsys)
    assert code == 0
    doc = json.loads(out)
    ic = doc["instance_costs"]
    assert ic["x_axis"] == "fraction of negative cost"
    assert ic["y_axis"] == "fraction of positive benefit"
    m = ic["models"][0]
    np.testing.assert_allclose(m["roc"]["fpr"], curve.fpr)
    np.testing.assert_allclose(m["roc"]["tpr"], curve.tpr)
    assert m["auc"] == pytest.approx(auc(curve))
    assert m["total_negative_cost"] == cost[y == 0].sum()
    assert m["total_positive_benefit"] == cost[y == 1].sum()


@pytest.mark.slow
def test_cst006_costs_must_be_positive_and_finite():
    err = _error("label,score,cost\n1,0.9,2\n0,0.1,0\n1,0.5,-3\n0,0.4,1\n")
    msg = str(err)
    assert "2 invalid costs" in msg and "rows 3, 4" in msg and "positive" in msg
    assert err.column == "cost" and err.rows == (3, 4)
    err = _error("label,score,price\n1,0.9,2\n0,0.1,1\n", cost="cost")
    assert "no column 'cost'" in str(err)
    err = _error("label,score,cost,weight\n1,0.9,2,1\n0,0.1,1,1\n")
    assert "both a cost column" in str(err)
    assert _load("label,score,price\n1,0.9,2\n0,0.1,1\n", cost="price").kind.kind == "costs"


# ----------------------------------------------------------------------------- leaves


def test_lvs011_leaf_table_flach_example(tmp_path, capsys):
    result = load_predictions([("tree_leaves_demo.csv", _data("tree_leaves_demo.csv"))])
    assert result.kind.kind == "leaves"
    code, out, _ = _report(tmp_path, resources.files("roc_dash.data") / "tree_leaves_demo.csv",
                           "--all-labelings", capsys=capsys)
    assert code == 0
    doc = json.loads(out)
    lv = doc["leaves"]
    points = [(lab["fpr"], lab["tpr"]) for lab in lv["labelings"]]
    expected = [(0, 0), (1 / 8, 5 / 12), (3 / 8, 3 / 4), (1, 1)]
    for (f, t), (ef, et) in zip(points, expected, strict=True):
        assert f == pytest.approx(ef) and t == pytest.approx(et)
    assert lv["labelings"][1]["positive_leaves"] == ["leaf_2"]
    assert len(lv["all_labelings"]["fpr"]) == 8
    # the binary curve of the leaf rows is the hull chain S_0..S_3 (AUC by trapezoids)
    fpr, tpr = np.array(expected).T
    assert doc["models"][0]["auc"] == pytest.approx(np.trapezoid(tpr, fpr))


def test_lvs012_per_row_leaf_assignments_and_bad_leaf_tables():
    rows = "leaf,label\n" + "a,1\n" * 5 + "a,0\n" + "b,1\n" * 4 + "b,0\n" * 2 + \
        "c,1\n" * 3 + "c,0\n" * 5
    result = _load(rows, leaves=True)
    assert result.kind.kind == "leaves"
    table = _load("leaf,pos,neg\na,5,1\nb,4,2\nc,3,5\n").table
    cols = ["label", "score", "weight", "leaf"]
    pd.testing.assert_frame_equal(result.table[cols], table[cols])
    err = _error("leaf,pos,neg\na,5,1\nb,-4,2\n", "tree.csv")
    assert "tree.csv" in str(err) and "'pos'" in str(err) and "'b'" in str(err)


# ----------------------------------------------------------------------------- report, CLI


def _coil(tmp_path):
    """The CoIL example of Fawcett 2004 s7.4.1: 4,000 clients, 6% responders, discrete
    classifiers A (.1, .2) and B (.25, .6)."""
    n_pos, n_neg = 240, 3760
    parts = []
    for name, (fp, tp) in {"A": (376, 48), "B": (940, 144)}.items():
        y = np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]
        s = np.r_[np.arange(n_pos) < tp, np.arange(n_neg) < fp].astype(int)
        parts.append(pd.DataFrame({"model": name, "id": range(4000), "label": y, "score": s}))
    path = tmp_path / "coil.csv"
    pd.concat(parts).to_csv(path, index=False)
    return path


def test_rep010_coil_budget_through_the_cli(tmp_path, capsys):
    code, out, err = _report(tmp_path, _coil(tmp_path), "--budget", "800", "--budget-pair",
                             "A", "B", capsys=capsys)
    assert code == 0, err
    b = json.loads(out)["combining"]["budget"]
    assert b["n_total"] == 4000 and b["prior_pos"] == pytest.approx(0.06)
    pair = b["pair"]
    assert pair["k"] == pytest.approx(94 / 165)
    assert pair["fpr"] == pytest.approx(0.1 + 94 / 165 * 0.15)  # ≈ 0.1855
    assert pair["tpr"] == pytest.approx(0.2 + 94 / 165 * 0.4)   # ≈ 0.4279
    assert round(pair["fpr"], 4) == 0.1855 and round(pair["tpr"], 4) == 0.4279
    assert (pair["vertex_a"]["model"], pair["vertex_b"]["model"]) == ("A", "B")
    assert pair["expected_cases"] == pytest.approx(800)
    # on the joint hull A lies below (0,0)-B: mix the all-negative classifier with B
    assert b["best"]["k"] == pytest.approx(200 / 271)
    assert b["line"]["fpr"][0] == pytest.approx(560 / 3760)  # where TPR = 1 on the line
    code, out, _ = _report(tmp_path, _coil(tmp_path), "--budget", "20%", capsys=capsys)
    assert json.loads(out)["combining"]["budget"]["budget_cases"] == pytest.approx(800)


def test_rep011_logical_lc_and_concavities(tmp_path, capsys):
    code, out, err = _report(tmp_path, _coil(tmp_path), "--logical", "A", "1", "B", "1",
                             "--lc-pair", "A", "B", "--lc-ratio", "1", "2", "4",
                             "--concavities", capsys=capsys)
    assert code == 0, err
    doc = json.loads(out)
    lc = doc["logical_combinations"]
    assert lc["expected"]["and"]["fpr"] == pytest.approx(0.1 * 0.25)
    assert lc["expected"]["or"]["tpr"] == pytest.approx(1 - 0.8 * 0.4)
    # A's positives are B's first positives (nested): AND = A, OR = B, counted on rows
    assert lc["paired_by"] == "id"
    assert (lc["actual"]["and"]["fpr"], lc["actual"]["and"]["tpr"]) == pytest.approx((0.1, 0.2))
    assert (lc["actual"]["or"]["fpr"], lc["actual"]["or"]["tpr"]) == pytest.approx((0.25, 0.6))
    sup = doc["superiority"]
    assert -1 <= sup["lc"] <= 1
    assert sup["lc"] == pytest.approx(sup["prob_a_better"] - sup["prob_b_better"])
    assert doc["concavity_repair"] == [] or all(r["concavities"] for r in
                                                doc["concavity_repair"])


def test_rep012_binary_report_unchanged_without_options(tmp_path, capsys):
    path = resources.files("roc_dash.data") / "demo_predictions.csv"
    code, out, _ = _report(tmp_path, path, capsys=capsys)
    doc = json.loads(out)
    table = load_predictions([("demo_predictions.csv", _data("demo_predictions.csv"))]).table
    assert list(doc) == ["roc_dash_version", "schema_version", "conditions", "models", "hull",
                         "optimal", "comparisons", "comparison", "optimal_ranges", "notes",
                         "decision_curve"]
    for m in doc["models"]:
        frame = table[table["model"] == m["name"]]
        curve = roc_curve(frame["label"].to_numpy(), frame["score"].to_numpy())
        np.testing.assert_array_equal(m["roc"]["fpr"], curve.fpr)
        assert m["auc"] == auc(curve)
        assert m["n_rows"] == len(frame)


def test_rep013_bad_requests_exit_2_without_traceback(tmp_path, capsys):
    path = _coil(tmp_path)
    for args in (["--lc-pair", "A", "Z"], ["--budget-pair", "A", "nope", "--budget", "800"],
                 ["--logical", "A", "x", "B", "1"], ["--budget", "0.5"]):
        code, _, err = _report(tmp_path, path, *args, capsys=capsys)
        assert code == 2, args
        assert "Traceback" not in err and err.startswith("roc-dash: ")
    with pytest.raises(SystemExit) as info:
        main(["report", str(path), "--budget", "lots"])
    assert info.value.code == 2


def test_rep014_html_has_a_section_per_kind(tmp_path, capsys):
    for name, heading in (("multiclass_demo.csv", "Multi-class"),
                          ("soft_labels_demo.csv", "Soft labels"),
                          ("tree_leaves_demo.csv", "Decision-tree leaves")):
        out = tmp_path / "r.html"
        code, _, err = _report(tmp_path, resources.files("roc_dash.data") / name, "--format",
                               "html", "-o", str(out), capsys=capsys)
        assert code == 0, err
        assert f"<h2>{heading}" in out.read_text()
