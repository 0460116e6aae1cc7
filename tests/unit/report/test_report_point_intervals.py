"""Intervals at the chosen point in ``roc-dash report`` (issue 17 item 2): the report's numbers
are the core's (:func:`roc_dash.core.decisions.point_intervals.point_intervals` called directly on the
model's rows, same seed), its estimates the analysis' optimum, and bad options exit 2."""

import json
import math

import numpy as np
import pandas as pd
import pytest

from roc_dash.cli import main
from roc_dash.core.decisions.economics import Economics
from roc_dash.core.decisions.point_intervals import point_intervals

KEYS = ("threshold", "tpr", "fpr", "precision", "npv", "lr_plus", "lr_minus", "expected_cost")
ATTR = {"lr_plus": "lr_pos", "lr_minus": "lr_neg"}


def _data(tmp_path):
    rng = np.random.default_rng(7)
    y = rng.random(300) < 0.3
    rows = [pd.DataFrame({"label": y.astype(int), "model": name,
                          "score": np.round(y * shift + rng.normal(size=300), 3)})
            for name, shift in (("a", 1.2), ("b", 0.6))]
    path = tmp_path / "preds.csv"
    pd.concat(rows).to_csv(path, index=False)
    return path, pd.concat(rows)


def _run(capsys, *args):
    code = main(["report", *map(str, args)])
    out = capsys.readouterr()
    return code, out


def _same(report_value, core_value):
    if report_value is None:
        assert not math.isfinite(core_value)
    else:
        assert report_value == pytest.approx(core_value, rel=1e-12, abs=1e-15)


def test_rpi001_report_equals_core_at_optimum_and_pin(tmp_path, capsys):
    path, df = _data(tmp_path)
    code, out = _run(capsys, path, "--cost-fn", 3, "--prior", 0.2, "--replicates", 60,
                     "--seed", 5, "--pin", "b", 0.4)
    assert code == 0, out.err
    doc = json.loads(out.out)
    e = Economics(cost_fp=1.0, cost_fn=3.0)
    for m in doc["models"]:
        rows = df[df["model"] == m["name"]]
        pins = (0.4,) if m["name"] == "b" else ()
        core = point_intervals(rows["label"].to_numpy() == 1, rows["score"].to_numpy(), 0.2,
                               e, pins=pins, n_boot=60, seed=5)
        u = m["optimal"]["uncertainty"]
        assert u["n_boot_used"] == 60 and u["level"] == 0.95
        assert u["method"] == core.optimum.method
        for key in KEYS:
            iv = getattr(core.optimum, ATTR.get(key, key))
            got = u["intervals"][key]
            _same(got["estimate"], iv.estimate)
            _same(got["low"], iv.low)
            _same(got["high"], iv.high)
            assert got["interval"] == iv.interval
        # the estimates are the analysis' own optimum (hull vertex), not a second choice
        for key in ("threshold", "fpr", "tpr", "expected_cost"):
            assert u["intervals"][key]["estimate"] == pytest.approx(m["optimal"][key])
        opt = core.optimum.optimism
        _same(u["optimism"]["out_of_bag"], opt.out_of_bag)
        _same(u["optimism"]["in_bag"], opt.in_bag)
        _same(u["optimism"]["optimism"], opt.out_of_bag - opt.in_bag)
        assert len(m["pins"]) == len(pins)
        for got, want in zip(m["pins"], core.pins, strict=True):
            assert got["uncertainty"]["intervals"]["threshold"]["interval"] == "fixed"
            _same(got["uncertainty"]["intervals"]["tpr"]["low"], want.tpr.low)
            _same(got["uncertainty"]["intervals"]["expected_cost"]["high"],
                  want.expected_cost.high)
            assert got["uncertainty"]["optimism"] is None


def test_rpi002_intervals_bracket_estimates_and_are_json(tmp_path, capsys):
    path, _ = _data(tmp_path)
    code, out = _run(capsys, path, "--replicates", 40)
    assert code == 0
    doc = json.loads(out.out)  # strict JSON: no NaN or Infinity
    for m in doc["models"]:
        for key in ("tpr", "fpr", "precision", "npv"):
            iv = m["optimal"]["uncertainty"]["intervals"][key]
            assert 0.0 <= iv["low"] <= iv["high"] <= 1.0


def test_rpi003_no_replicates_no_intervals(tmp_path, capsys):
    path, _ = _data(tmp_path)
    code, out = _run(capsys, path, "--replicates", 0)
    assert code == 0
    doc = json.loads(out.out)
    assert all("uncertainty" not in m["optimal"] and "pins" not in m for m in doc["models"])


@pytest.mark.parametrize("args, words", [
    (("--replicates", "-3"), "replicates must be a whole number"),
    (("--pin", "zzz", "0.5"), "--pin: model 'zzz' is not in the data"),
    (("--pin", "a", "abc"), "--pin: the threshold must be a number"),
    (("--seed", "-1"), "the seed must be a whole number >= 0"),
])
def test_rpi004_bad_options_exit_2_with_message(tmp_path, capsys, args, words):
    path, _ = _data(tmp_path)
    try:
        code, out = _run(capsys, path, *args)
    except SystemExit as exc:  # argparse's own errors
        code, out = exc.code, capsys.readouterr()
    assert code == 2
    assert words in out.err
    assert "Traceback" not in out.err


def test_rpi005_html_report_shows_the_optimums_intervals_with_the_pages_words(tmp_path, capsys):
    from roc_dash.report import fmt

    path, df = _data(tmp_path)
    out_path = tmp_path / "r.html"
    code, out = _run(capsys, path, "--format", "html", "--replicates", 30, "--seed", 2,
                     "-o", out_path)
    assert code == 0, out.err
    text = out_path.read_text(encoding="utf-8")
    assert "How sure is the chosen point?" in text
    prior = float((df[df["model"] == "a"]["label"] == 1).mean())
    rows = df[df["model"] == "a"]
    core = point_intervals(rows["label"].to_numpy() == 1, rows["score"].to_numpy(), prior,
                           Economics(cost_fp=1.0, cost_fn=1.0), n_boot=30, seed=2).optimum
    for iv in (core.tpr, core.fpr, core.expected_cost):
        assert f"{fmt(iv.estimate)} [{fmt(iv.low)}–{fmt(iv.high)}]" in text
    assert fmt(core.optimism.out_of_bag) in text
    # rpi007 (stranger review 10): the words match the corrected interval shown, as the
    # page's caption says them (no "undercovers")
    assert "undercovers" not in text
    assert "corrected for choosing it on these data" in text


def test_rpi006_rows_the_bootstrap_cannot_use_leave_a_note_not_a_failure(tmp_path, capsys,
                                                                           monkeypatch):
    import roc_dash.report as report

    def refuse(*args, **kwargs):
        raise ValueError("both classes must be present with positive weight")

    monkeypatch.setattr(report, "point_intervals", refuse)
    path, _ = _data(tmp_path)
    code, out = _run(capsys, path, "--replicates", 10)
    assert code == 0
    assert "note: no bootstrap intervals at the chosen point: both classes" in out.err
    assert all("uncertainty" not in m["optimal"] for m in json.loads(out.out)["models"])
