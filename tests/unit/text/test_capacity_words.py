"""roc_dash.text.capacity_words: a capacity below one case (a share written as a count) is
refused in one sentence by the page and by the report layer (``roc-dash decide``); before,
the report said "the capacity 0.5 looks like a share: write 50% or give cases" while the
page said "0.5 cases is less than one case: write 50% …" (review9)."""

from importlib import resources

import pytest

from roc_dash.app.constrained import capacity_too_big
from roc_dash.app.core_words import less_than_one_case as page_words
from roc_dash.cli import main
from roc_dash.core.analysis_types import Conditions
from roc_dash.core.assembly.analysis import analyse
from roc_dash.core.constraints.assembly import ConstraintSettings
from roc_dash.io import load_predictions
from roc_dash.report.constrained_choice import capacity_share, choose_point
from roc_dash.text.capacity_words import less_than_one_case

DEMO = str(resources.files("roc_dash.data") / "demo_predictions.csv")


@pytest.fixture(scope="module")
def demo():
    return analyse(load_predictions([DEMO]).table, Conditions(cost_fp=1.0, cost_fn=2.0))


def test_cpw001_the_sentence():
    assert less_than_one_case(0.25, 4000) == (
        "0.25 cases is less than one case: write 25% for that share of the 4,000 cases, "
        "or give a number of cases (800)")
    assert less_than_one_case(0.5, 442, "--capacity").startswith(
        "--capacity 0.5 is less than one case: write 50% for that share of the 442 cases")
    assert page_words is less_than_one_case  # the page's name for it is this helper


def test_cpw002_report_layer_and_page_say_one_sentence(demo):
    """The report layer's refusal (what ``decide`` and the page's strip reach) is the
    sentence the page writes under the capacity's box."""
    m = demo.models[0]
    n = m.n_pos + m.n_neg
    with pytest.raises(ValueError) as report:
        capacity_share(demo, ConstraintSettings(capacity=0.5), model=m)
    page = capacity_too_big((0.5, None), demo)
    assert page == f"Capacity not used: {report.value}."
    assert str(report.value) == less_than_one_case(0.5, n)
    with pytest.raises(ValueError) as chosen:  # the strip's choice, as the page calls it
        choose_point(demo, ConstraintSettings(capacity=0.5), None)
    assert str(chosen.value) == str(report.value)


def test_cpw003_decide_says_it_with_the_option_named(capsys, tmp_path):
    capsys.readouterr()
    code = main(["decide", DEMO, "--capacity", "0.5", "--replicates", "0",
                 "-o", str(tmp_path / "d.json")])
    err = capsys.readouterr().err
    assert code == 2
    assert ("--capacity 0.5 is less than one case: write 50% for that share of the 442 "
            "cases, or give a number of cases (800)") in err, err
    assert "looks like" not in err and "Traceback" not in err
