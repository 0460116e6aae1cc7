"""The optimum can be hovered on the ROC, and the iso line still be dragged from it (sth002,
sth003).

Review of 2026-11-29: the iso line is an editable shape tangent at the optimum; plotly's drag
handle of it lay over the hull vertex there, so a real pointer on the ★ got no hover at all
(``.hoverlayer`` empty): the one point whose threshold a user most wants to read. A star that
caught the mouse for its own hover was taken back: it caught every drag of the line started
near the optimum (isd001, isd002). Now the star holds the optimum's words without catching
the mouse and the page shows them while the pointer rests on it (``assets/roc_star.js``);
a press there still drags the line. Real pointer events only (:mod:`.gestures`).
"""

from __future__ import annotations

import math

from roc_dash.app import ids
from roc_dash.app.server.store import DEMO_ID
from roc_dash.core.analysis_types import Conditions
from roc_dash.figures.style import format_threshold
from roc_dash.text.rounding import sig

from .gestures import (
    drag,
    hover_label_text,
    js_graph,
    to_screen,
    wait_idle,
    wait_steady,
    wait_until,
)
from .test_trust_browser import conditions, start, value

DEMO_MODELS = ["logistic regression", "naive Bayes", "decision tree", "gradient boosting"]
_STAR = ("(a => [a.x, a.y, a.hovertext])(gd.layout.annotations.find("
         "a => a.name === 'optimum'))")
_UNDER = """
const e = document.elementFromPoint(arguments[0], arguments[1]);
return e ? [e.tagName, !!e.closest('g[drag-helper]')] : null;
"""


def _words(app, dash_duo):
    """The optimum's words as core has them for the page's conditions."""
    cfp, cfn, prior = conditions(dash_duo)
    opt = app.analysis_cache.analysis(
        [DEMO_ID], DEMO_MODELS, Conditions(prior_pos=prior, cost_fp=cfp, cost_fn=cfn)).optimal
    return ["optimum:", opt.model, f"threshold ≥ {format_threshold(opt.threshold)}",
            f"FPR {sig(opt.fpr)}", f"TPR {sig(opt.tpr)}"]


def _read_star(dash_duo, app):
    d = dash_duo.driver
    x, y, _ = js_graph(d, ids.ROC_GRAPH, _STAR)
    px, py = to_screen(d, ids.ROC_GRAPH, x, y)
    text = hover_label_text(dash_duo, ids.ROC_GRAPH, px, py, lambda t: "optimum" in t,
                            "the optimum's hover on the ROC star")
    return (px, py), text


def test_sth002_a_pointer_resting_on_the_roc_star_reads_the_optimum(dash_duo, app, shot):
    start(dash_duo, app, size=(1400, 1000))
    d = dash_duo.driver
    wait_steady(d, ids.ROC_GRAPH)
    x, y, _ = js_graph(d, ids.ROC_GRAPH, _STAR)
    px, py = to_screen(d, ids.ROC_GRAPH, x, y)
    # under the star's centre lies the line's drag handle (what took plotly's hover)
    assert d.execute_script(_UNDER, px, py)[1], d.execute_script(_UNDER, px, py)
    (px, py), text = _read_star(dash_duo, app)
    shot("sth002_star_hover")
    for part in _words(app, dash_duo):
        assert part in text, (part, text)


def test_sth003_a_press_on_the_star_still_drags_the_line_and_the_words_follow(dash_duo, app,
                                                                             shot):
    start(dash_duo, app, size=(1400, 1000))
    d = dash_duo.driver
    wait_steady(d, ids.ROC_GRAPH)
    (px, py), first = _read_star(dash_duo, app)
    before = value(dash_duo, ids.COST_FP)
    seg = js_graph(d, ids.ROC_GRAPH, "(s => [s.x0, s.y0, s.x1, s.y1])(gd.layout.shapes[0])")
    # a press on the star's centre, then a pull of 60 px across the line, upwards
    (ax, ay), (bx, by) = (to_screen(d, ids.ROC_GRAPH, *seg[:2]),
                          to_screen(d, ids.ROC_GRAPH, *seg[2:]))
    norm = math.hypot(bx - ax, by - ay)
    nx, ny = (by - ay) / norm, -(bx - ax) / norm
    if ny > 0:
        nx, ny = -nx, -ny
    drag(d, (px, py), (px + 60 * nx, py + 60 * ny), steps=10)
    wait_until(lambda: value(dash_duo, ids.COST_FP) != before, message="c(FP) follows the drag")
    wait_idle(dash_duo)
    wait_steady(d, ids.ROC_GRAPH)
    # the star moved with the new optimum, and its words are the new optimum's
    _, text = _read_star(dash_duo, app)
    shot("sth003_after_drag")
    for part in _words(app, dash_duo):
        assert part in text, (part, text, first)
    assert text != first, text
