"""roc_dash.text.rounding.percent: the summary strip's rates and the capacity's floor in one
style, never "100%" for a rate below 1 nor "0%" for a rate above 0 (review9)."""

import pytest

from roc_dash.text.rounding import percent


@pytest.mark.parametrize("v", [1 - 1e-16, 1 - 1e-12, 0.99999, 0.9995, 0.999])
def test_pct001_below_one_is_never_100_percent(v):
    assert v < 1 and percent(v) != "100%" and percent(v).startswith("99.")


@pytest.mark.parametrize("v", [5e-324, 1e-12, 1e-9, 4e-5, 0.00049])
def test_pct002_above_zero_is_never_0_percent_nor_in_exponent_notation(v):
    s = percent(v)
    assert s not in ("0%", "0.0%") and "e" not in s, s


def test_pct003_plain_values():
    assert [percent(v) for v in (0, 1, 0.43, 0.0035, 0.996, float("nan"), None)] == \
        ["0%", "100%", "43%", "0.35%", "99.6%", "—", "—"]
    assert percent(1e-9) == "<0.01%"
