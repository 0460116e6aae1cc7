"""Upload errors on the page name what the page can do, not command-line options."""

from __future__ import annotations

import re

import numpy as np
import pytest
from dash import no_update

from roc_dash.app.features.data import apply_upload, for_the_browser
from roc_dash.app.server.store import DEMO_ID
from roc_dash.io import InputError, load_predictions
from tests.conftest import make_predictions


def _frames():
    base = make_predictions(60, seed=5)
    no_label = base.rename(columns={"label": "truth_value"})
    two_labels = base.assign(LABEL=base["label"])
    missing = base.assign(score=base["score"].where(base.index != 7, np.nan))
    multiclass = base.assign(label=np.arange(len(base)) % 3).drop(columns=["score"]).assign(
        score_0=0.2, score_1=0.3)
    return {"no_label.csv": no_label, "two_labels.csv": two_labels,
            "missing.csv": missing, "multiclass.csv": multiclass}


@pytest.mark.parametrize("name", sorted(_frames()))
def test_pgw001_upload_errors_carry_no_command_line_flags(store, name):
    payload = _frames()[name].to_csv(index=False).encode()
    with pytest.raises(InputError) as err:  # the reader's own message names the flag ...
        load_predictions([(name, payload)])
    assert "--" in str(err.value)
    out = apply_upload(store, [(name, payload)], [DEMO_ID])  # ... the page's does not
    assert out.dataset_ids is no_update and name in out.error
    assert "--" not in out.error and "command line" not in out.error
    assert out.error.rstrip().endswith(".") and "  " not in out.error
    assert not re.search(r"\s[.,;](\s|$)", out.error)  # nothing left dangling where advice was


def test_pgw002_the_page_keeps_what_it_can_do():
    message = ("f.csv: several columns could be the label column: 'y', 'label' (names are "
               "compared ignoring case and spaces). Rename all but one, or choose one "
               "explicitly (--label COLUMN on the command line).")
    assert for_the_browser(message).endswith("Rename all but one.")
    message = ("f.csv: column 'score' has 1 missing or infinite score (1 missing; row 9). Every "
               "row needs a finite score: fix or remove these rows, or choose to drop them "
               "(--drop-nonfinite).")
    assert for_the_browser(message).endswith("fix or remove these rows.")
    assert "Positive label box" in for_the_browser("Choose one of these (--positive CLASS).")
