"""The Slices card's priors per group in the page's link (``sgp``): what the box holds comes
back from the link as the same priors (the query string written as the browser's
``URLSearchParams`` does, by :func:`urllib.parse.urlencode`), and a link's malformed parts
are left out without an error."""

from urllib.parse import urlencode

import numpy as np
import pytest

from roc_dash.app.features.slices import slices_outputs
from roc_dash.app.state import group_priors, parse_query
from tools.slices_example import loan_predictions

GROUPS = {"north", "south", "east", "west", "a × b", "x=y"}


@pytest.mark.parametrize("typed", [
    "north=0.12, west=0.3",
    " south = 0.5 ,east=25% ",
    "a × b=0.0001,north=0.999999",
    "x=y=0.2",  # a name holding "=": the value is after the last one
])
def test_sfk009_priors_per_group_round_trip_through_the_link(typed):
    want, refused = group_priors(typed, GROUPS)
    assert want and not refused
    back = parse_query("?" + urlencode({"cfp": "1", "sgp": typed.strip(), "sct": "equalized_odds"}))
    assert back["slice_constraint"] == "equalized_odds"
    got, refused = group_priors(back["slice_priors"], GROUPS)
    assert not refused and got.keys() == want.keys()
    assert all(got[k] == pytest.approx(want[k], rel=1e-11) for k in want)


@pytest.mark.parametrize("link, kept", [
    ("north=2,x,=0.5,south=abc,west=0.3,east=0,east=1", {"west": 0.3}),
    ("north=nan,south=inf,west=-0.1", None),
    ("north\x00=0.2,west=0.4", {"west": 0.4}),
    ("north=0.1," * 400, None),  # over 2,000 characters: all of it left out
    ("", None),
])
def test_sfk010_bad_priors_in_the_link_left_out(link, kept):
    q = parse_query("?" + urlencode({"sgp": link}))
    if kept is None:
        assert "slice_priors" not in q
    else:
        assert group_priors(q["slice_priors"], GROUPS) == (kept, [])


def test_sfk011_link_priors_of_unknown_groups_said_not_used():
    """A link made for other data: its groups are not these; the card says so, no error."""
    frame = loan_predictions(n=600, seed=1)
    table = frame.assign(weight=1.0, fold="0", dataset="d", model=frame["model"].astype(str))
    model = str(table["model"].iloc[0])
    priors = parse_query("?sgp=" + "nowhere%3D0.2%2C" + "north%3D0.3")["slice_priors"]
    out = slices_outputs(table, model, {"cost_fp": 1.0, "cost_fn": 5.0, "prior": 0.2},
                         "group_optima", priors_text=priors)
    text = str(out[3])
    assert "Not used" in text and "nowhere" in text
    assert np.isfinite(out[1].data[1].x).all()  # the figure drawn
