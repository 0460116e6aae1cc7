"""The command line's shared argument types and options (:mod:`roc_dash.cli.args`)."""

import argparse

import pytest

from roc_dash.cli.args import add_bootstrap, open_unit, whole_number


def test_arg001_whole_number_accepts_the_range_and_says_what_was_given():
    assert whole_number("20", 20, 5000, "replicates must be 20 to 5000") == 20
    assert whole_number("5000", 20, 5000, "replicates must be 20 to 5000") == 5000
    for bad in ("19", "5001", "2.5", "many", ""):
        with pytest.raises(argparse.ArgumentTypeError) as err:
            whole_number(bad, 20, 5000, "replicates must be 20 to 5000")
        assert str(err.value) == f"replicates must be 20 to 5000, got {bad!r}"


def test_arg002_open_unit_below_a_bound_other_than_one():
    assert open_unit("0.49", below=0.5) == pytest.approx(0.49)
    with pytest.raises(argparse.ArgumentTypeError, match=r"strictly between 0 and 0\.5, got 0\.5"):
        open_unit("0.5", below=0.5)
    with pytest.raises(argparse.ArgumentTypeError, match="strictly between 0 and 1, got 1"):
        open_unit("1")


def test_arg003_add_bootstrap_gives_replicates_and_seed_with_their_checks(capsys):
    parser = argparse.ArgumentParser(prog="x")
    add_bootstrap(parser, "replicates", replicates=lambda t: whole_number(t, 20, 50, "20 to 50"))
    args = parser.parse_args([])
    assert (args.replicates, args.seed) == (200, 0)
    args = parser.parse_args(["--replicates", "30", "--seed", "7"])
    assert (args.replicates, args.seed) == (30, 7)
    with pytest.raises(SystemExit):
        parser.parse_args(["--seed", "-1"])
    assert "the seed must be a whole number >= 0, got '-1'" in capsys.readouterr().err
