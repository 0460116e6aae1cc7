"""The optimum can be hovered on the ROC (sth001). Review of 2026-11-29: the iso line is an
editable shape tangent at the optimum, and its drag handle lay over the hull vertex there,
so a real pointer on the ★ got no hover at all (``.hoverlayer`` empty): the one point whose
threshold a user most wants to read. The star now carries the optimum's hover text."""

from __future__ import annotations

from roc_dash.app import ids

from .gestures import hover_label_text, js_graph, to_screen, wait_idle, wait_steady
from .test_trust_browser import start


def test_sth001_a_pointer_on_the_roc_star_reads_the_optimum(dash_duo, app, shot):
    start(dash_duo, app, size=(1400, 1000))
    wait_idle(dash_duo)
    wait_steady(dash_duo.driver, ids.ROC_GRAPH)
    star = js_graph(dash_duo.driver, ids.ROC_GRAPH,
                    "gd.layout.annotations.filter(a => a.name === 'optimum')"
                    ".map(a => [a.x, a.y])[0]")
    summary = dash_duo.find_element(f"#{ids.ROC_GRAPH}").get_attribute("outerHTML")
    assert star, summary[:200]
    x, y = to_screen(dash_duo.driver, ids.ROC_GRAPH, star[0], star[1])
    text = hover_label_text(dash_duo, ids.ROC_GRAPH, x, y, lambda t: "optimum" in t,
                       "the optimum's hover on the ROC star")
    shot("sth001_star_hover")
    assert "threshold ≥" in text and "FPR" in text and "TPR" in text, text
