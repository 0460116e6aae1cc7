"""A hover never rounds a threshold up (hrd001): a real pointer on the ROC vertex at a score of
0.46702173 reads "≥ 0.467021" (the page's rule), not plotly's ``.6~g`` "0.467022", a rule that
would leave out the point shown. The vertex lies under the hull, so the model's curve (its
threshold read from customdata) answers the hover, not the hull (a text of its own)."""

from __future__ import annotations

import pandas as pd

from roc_dash.app import ids

from .gestures import hover_label_text, js_graph, to_screen, wait_idle, wait_steady, wait_until
from .test_trust_browser import start
from .test_upload_browser import upload


def test_hrd001_roc_hover_says_the_pages_threshold_never_rounded_up(dash_duo, app, tmp_path,
                                                                    shot):
    start(dash_duo, app, size=(1400, 1000))
    # descending: P N N P N P, so the vertex at 0.46702173 is (2/3, 2/3), a corner under
    # the hull
    frame = pd.DataFrame({"model": "m", "label": [1, 0, 0, 1, 0, 1],
                          "score": [0.91234567, 0.81234567, 0.71234567, 0.46702173,
                                    0.31234567, 0.21234567]})
    path = tmp_path / "digits.csv"
    frame.to_csv(path, index=False)
    upload(dash_duo, path)
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_STATUS}", "replaces the demo")
    wait_idle(dash_duo)
    wait_steady(dash_duo.driver, ids.ROC_GRAPH)
    wait_until(lambda: "m (AUC" in str(js_graph(dash_duo.driver, ids.ROC_GRAPH,
                                                 "gd.data.map(t => t.name)")),
               message="the uploaded model drawn")
    wait_steady(dash_duo.driver, ids.ROC_GRAPH)
    x, y = to_screen(dash_duo.driver, ids.ROC_GRAPH, 2 / 3, 2 / 3)
    shot("hrd001_before")
    text = hover_label_text(dash_duo, ids.ROC_GRAPH, x, y, lambda t: "threshold" in t,
                       "the hover on the vertex (2/3, 2/3)")
    shot("hrd001_roc_hover")
    assert "≥ 0.467021" in text and "0.467022" not in text, text
