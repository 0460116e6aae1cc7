"""Review 11 item 11: with a capacity set, the "Cost against threshold" card kept saying "★
its optimum is the overall optimum of the shown models" and starred the optimum without the
capacity while the strip headlined another threshold. Now, under a capacity or floors, the
card's words say the ★ is the optimum without them, name the choice, and a ◆ marks the choice
on the cost line (at the brute force's threshold and cost); cleared, the view's own words
come back."""

import numpy as np
import pandas as pd

from roc_dash.app import create_app, ids
from roc_dash.app.server.store import DatasetStore
from roc_dash.figures.style import format_threshold
from roc_dash.figures.threshold import CHOSEN_NOTE

from .test_app_constrained_strip import _brute, _ops, page_of  # noqa: F401 (fixture)
from .test_app_constraints import DEMO


def _marks(out):
    ops = _ops(out["threshold"])
    return ops[("layout", "title", "subtitle", "text")], ops[("layout", "annotations", 1)]


def test_tvc001_the_threshold_view_names_and_marks_the_capacitys_choice(page_of):  # noqa: F811
    from roc_dash.app.features.constrained_strip import strip_update

    cost, model, t = _brute(lambda tpr, fpr, flagged: flagged <= 0.1 + 1e-12)
    opt_cost, opt_model, opt_t = _brute(lambda *_: True)
    assert t != opt_t  # the capacity binds: the choice is not the optimum
    cache, _, page = page_of(capacity="10%")
    out = strip_update(cache, page, ids.VIZ_DATA, (model, "threshold"))
    subtitle, note = _marks(out)
    assert subtitle == ("★ optimum without the constraints; ◆ chosen under them (score ≥ "
                        f"{format_threshold(t)})")
    assert note["name"] == CHOSEN_NOTE and note["visible"] and note["x"] == t
    assert np.isclose(note["y"], cost)  # on the cost line, at the brute force's cost
    # the view of another model says which model the choice is of, with no ◆
    other = next(m for m in pd.read_csv(DEMO)["model"].unique() if m != model)
    subtitle, note = _marks(strip_update(cache, page, ids.VIZ_DATA, (other, "threshold")))
    assert subtitle.endswith(f"; chosen: {model}, score ≥ {format_threshold(t)}")
    assert not note["visible"]
    # cleared: the view's own words again, the ◆ hidden
    _, _, plain = page_of()
    subtitle, note = _marks(strip_update(cache, plain, ids.DCT_CAPACITY, (model, "threshold")))
    assert subtitle.startswith("★ its optimum is") and not note["visible"]
    assert "constraints" not in subtitle


def test_tvc002_the_callback_writes_the_threshold_view(tmp_path):
    app = create_app(store=DatasetStore(tmp_path))
    key = next(k for k in app.callback_map if ids.SUMMARY in k and ids.OPERATING in k)
    assert f"{ids.THRESHOLD_GRAPH}.figure" in key
