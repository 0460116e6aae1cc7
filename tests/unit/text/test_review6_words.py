"""What a newcomer read wrong (a stranger's review): a rule's threshold rounded up past the
scores, a percentage refused by the prior box, nested parentheses in a message, arrays called a
file."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from roc_dash.app.features.data import for_the_browser
from roc_dash.app.gestures import parse_prior
from roc_dash.io import InputError, load_predictions
from roc_dash.text.rounding import rule_threshold, sig


@pytest.mark.parametrize("t", [0.9999999994643758, 0.5927136, 0.1234565, 1e-9 + 0.3,
                               0.999999999999, 2.0000004999])
def test_rvs001_rule_threshold_never_rounds_above_the_threshold(t):
    text = rule_threshold(t)
    assert float(text) <= t  # score >= text flags every case score >= t flags
    # 6 digits where they do not round up, else 6 digits rounded down (the next lower
    # 6-digit number: one unit of the 6th digit below what sig shows)
    if float(sig(t)) <= t:
        assert text == sig(t)
    else:
        unit = 10.0 ** (math.floor(math.log10(t)) - 5)
        assert len(text.replace("0.", "").lstrip("0").replace(".", "")) <= 6
        assert float(text) == pytest.approx(float(sig(t)) - unit, rel=1e-12)


@pytest.mark.parametrize("t, below, shown", [
    (0.46702173079081316, None, "0.467021"),      # 6 digits rounded down, not up
    (0.46702173079081316, 0.4670211, "0.4670217"),  # a 7th digit keeps the case below out
    (0.5000001, 0.5, "0.5000001"),                # sig's "0.5" would let the 0.5 case in
    (0.25, 0.1, "0.25"),
])
def test_rvs008_rule_threshold_stays_between_the_score_below_and_the_threshold(t, below, shown):
    text = rule_threshold(t, below=below)
    assert text == shown
    assert float(text) <= t and (below is None or float(text) > below)


def test_rvs002_decide_prints_a_rule_that_flags_the_cases(tmp_path, capsys):
    from roc_dash.cli import main

    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 400)
    s = np.where(y == 1, 1 - 1e-9 * rng.random(400), rng.random(400) * 0.9)
    path = tmp_path / "p.csv"
    pd.DataFrame({"label": y, "score": s}).to_csv(path, index=False)
    code = main(["decide", str(path), "--capacity", "3%", "-o", str(tmp_path / "d.json")])
    assert code == 0
    err = capsys.readouterr().err
    printed = err.split("flag iff score >= ")[1].split(" ")[0]
    import json
    threshold = json.loads((tmp_path / "d.json").read_text())["rule"]["threshold"]
    assert float(printed) <= threshold
    assert float(sig(threshold)) > threshold  # the case the review met: 6 digits round up
    assert ((s >= float(printed)) == (s >= threshold)).all()


@pytest.mark.parametrize("typed, expected", [("30%", 0.3), (" 4.5 % ", 0.045), ("0.2", 0.2)])
def test_rvs003_prior_box_takes_a_percentage(typed, expected):
    value, message = parse_prior(typed, 0.1)
    assert value == pytest.approx(expected) and message == ""


def test_rvs004_prior_box_percentage_out_of_range_is_said():
    value, message = parse_prior("150%", 0.1)
    assert value == 0.999 and "strictly between 0 and 1" in message


def test_rvs005_missing_score_column_message_has_balanced_parentheses(tmp_path):
    path = tmp_path / "wrongcol.csv"
    path.write_text("label,name\n0,a\n1,b\n")
    with pytest.raises(InputError) as err:
        load_predictions(path)
    text = str(err.value)
    assert text.count("(") == text.count(")") and "((" not in text and "))" not in text
    page = for_the_browser(text)
    assert page.count("(") == page.count(")") and "--" not in page
    assert page.rstrip().endswith("(any case).")


def test_rvs006_empty_file_message_does_not_say_upload(tmp_path):
    path = tmp_path / "empty.csv"
    path.write_text("")
    with pytest.raises(InputError) as err:
        load_predictions(path)
    assert "empty" in str(err.value) and "Upload" not in str(err.value)


def test_rvs007_arrays_are_not_called_a_file():
    from roc_dash import plot_roc

    with pytest.raises(Exception) as err:
        plot_roc(np.ones(10), np.linspace(0, 1, 10))
    assert "only positive labels" in str(err.value)
    assert "file" not in str(err.value) and "rows given" in str(err.value)
