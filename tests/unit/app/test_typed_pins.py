"""A typed pin threshold lands on the vertex the views show, and says so (tpn001); the
thresholds shown never rounds up past the rule's (tpn003)."""

from __future__ import annotations

import numpy as np

from roc_dash.app.features.pins import on_vertex
from roc_dash.app.page_state import PageState, pins_of
from roc_dash.app.server.store import DEMO_ID
from roc_dash.text.rounding import sig


def test_tpn001_typed_pin_moves_to_the_vertex_and_says_so(demo, demo_cache):
    model = str(demo["model"].iloc[0])
    scores = np.sort(np.unique(demo.loc[demo["model"] == model, "score"].to_numpy()))
    # a threshold strictly between two distinct scores: brute force, the next one up
    t = float((scores[10] + scores[11]) / 2)
    pin, said = on_vertex(demo_cache, {"dataset": DEMO_ID, "model": model, "threshold": t})
    assert pin["threshold"] == scores[11]
    assert said == (f"{sig(t)} flags the same cases as ≥ {sig(scores[11])}, the lowest score "
                    "at or above it: pinned there.")
    # the link (and so the decision download, which reads the pinned point) carries the
    # vertex the page shows, not the typed number
    link = PageState(datasets=(DEMO_ID,), pins=pins_of([{**pin, "label": "A"}])).to_query()
    assert f"%7C{float(scores[11])!r}" in link and f"%7C{t!r}" not in link
    # a vertex typed exactly: nothing said; above every score: +inf
    assert on_vertex(demo_cache, {"dataset": DEMO_ID, "model": model,
                                  "threshold": float(scores[11])}) == (
        {"dataset": DEMO_ID, "model": model, "threshold": float(scores[11])}, "")
    top, said = on_vertex(demo_cache, {"dataset": DEMO_ID, "model": model,
                                       "threshold": float(scores[-1]) + 1})
    assert top["threshold"] is None and "above every score" in said


def test_tpn003_every_threshold_shown_never_rounds_up_past_the_rule():
    from roc_dash.app.page_state import ModelRef, Pin
    from roc_dash.app.removal import pin_words
    from roc_dash.figures.style import format_threshold

    t = 0.9999999994643758  # 6 digits give "1": "flag iff score >= 1" flags nothing
    shown = format_threshold(t)
    assert float(shown) <= t and shown != sig(t)
    assert format_threshold(0.5927136) == "0.592713"  # "0.592714" would be above it
    for plain in (0.5927134, 0.25, 1e-3):  # 6 digits when they do not round up
        assert format_threshold(plain) == sig(plain) and float(sig(plain)) <= plain
    assert format_threshold(None) == sig(None) and format_threshold(np.inf) == "+∞"
    words = pin_words([Pin("A", ModelRef("d", "rf"), t)])
    assert words == f"pin A (rf at score ≥ {shown})"
