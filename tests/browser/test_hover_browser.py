"""The hover tells the threshold (issue 17 item 8), with a real mouse: vertical averaging
chosen by a click on the page's control, then the pointer moved (selenium ActionChains) onto
a point of a model's vertically averaged curve; the hover label must give the folds' score
thresholds at that FPR, checked against the demo's folds read with the core's fold curves
and by brute force on their rows; before that, the pointer on the origin of the pooled
curves reads "+∞", not the 0 plotly makes of a missing threshold (hvb001)."""

import re

import numpy as np

from roc_dash.app import ids
from roc_dash.app.server.store import load_demo
from roc_dash.core.roc.averaging import fold_curves
from roc_dash.core.roc.fold_thresholds import thresholds_at_fpr
from roc_dash.text.rounding import sig

from .gestures import hover_label_text, js_graph, to_screen, wait_idle, wait_until
from .shots import SHOTS
from .test_trust_browser import start

MODEL = "naive Bayes"

#: The point of trace ``arguments[1]`` farthest (in px) from every point of the other
#: hoverable traces, among FPRs in [0.15, 0.85]: a point the pointer can rest on alone.
_LONELY_POINT = """
const gd = document.querySelector('#' + arguments[0] + ' .js-plotly-plot');
const fl = gd._fullLayout, t = arguments[1];
const px = (tr, j) => [fl.xaxis.l2p(tr.x[j]), fl.yaxis.l2p(tr.y[j])];
let best = -1, far = -1;
const me = gd._fullData[t];
for (let j = 0; j < me.x.length; j++) {
  if (me.x[j] < 0.15 || me.x[j] > 0.85) continue;
  const [a, b] = px(me, j);
  let near = Infinity;
  gd._fullData.forEach((tr, k) => {
    if (k === t || tr.hoverinfo === 'skip' || !tr.x) return;
    for (let i = 0; i < tr.x.length; i++) {
      const [c, d] = px(tr, i);
      near = Math.min(near, Math.hypot(a - c, b - d));
    }
  });
  if (near > far) { far = near; best = j; }
}
return [best, me.x[best], me.y[best], far];
"""


def _vertical_trace(dash_duo):
    return js_graph(dash_duo.driver, ids.ROC_GRAPH,
                    "gd.data.findIndex(t => (t.meta || '').startsWith("
                    f"'<b>{MODEL}</b> vertical average'))")


def test_hvb001_mouse_over_a_vertical_average_reads_the_folds_thresholds(dash_duo, app):
    start(dash_duo, app, size=(1280, 1000))
    # the origin, where every pooled curve starts: its threshold is +inf (nothing flagged),
    # not the 0 plotly makes of a missing number
    x0, y0 = to_screen(dash_duo.driver, ids.ROC_GRAPH, 0, 0)
    origin = hover_label_text(dash_duo, ids.ROC_GRAPH, x0, y0, lambda t: "threshold" in t, "hover at the origin")
    assert "+∞" in origin and "≥ 0F" not in origin.replace("\n", ""), origin
    radio = next(e for e in dash_duo.find_elements(f"#{ids.AVERAGING} label")
                 if e.text.strip() == "vertical")
    radio.click()
    wait_until(lambda: (_vertical_trace(dash_duo) or -1) >= 0, message="vertical averages")
    wait_idle(dash_duo)
    t = _vertical_trace(dash_duo)
    j, fpr, tpr, room = dash_duo.driver.execute_script(_LONELY_POINT, ids.ROC_GRAPH, t)
    assert j >= 0 and room > 8, (j, room)
    x, y = to_screen(dash_duo.driver, ids.ROC_GRAPH, fpr, tpr)
    # a real pointer move onto the point (re-sent while plotly is still drawing)
    text = hover_label_text(dash_duo, ids.ROC_GRAPH, x, y, lambda t: "folds' mean" in t,
                       "hover label on the vertical average")
    SHOTS.mkdir(parents=True, exist_ok=True)
    dash_duo.driver.save_screenshot(str(SHOTS / "hover.png"))
    dash_duo.find_element(f"#{ids.ROC_GRAPH}").screenshot(str(SHOTS / "hover_roc.png"))
    assert f"{MODEL} vertical average" in text and "cross-validated AUC" in text
    got = re.search(r"threshold: folds' mean (\S+) \(range (\S+) to (\S+)\)", text)
    assert got, text
    # independently: the demo's folds of the model, read at the FPR of the hovered point
    table = load_demo().table
    rows = table[table["model"] == MODEL]
    curves = fold_curves(rows["label"].to_numpy(dtype=bool), rows["score"].to_numpy(),
                         rows["fold"].to_numpy())
    ft = thresholds_at_fpr(curves, [fpr])
    assert got.groups() == (sig(ft.mean[0]), sig(ft.low[0]), sig(ft.high[0]))
    # and by brute force on the rows of each fold: the lowest score whose rule keeps the
    # fold's FPR at or below the hovered FPR
    folds = rows["fold"].to_numpy()
    y_all, s_all = rows["label"].to_numpy(dtype=bool), rows["score"].to_numpy()
    lowest = []
    for f in np.unique(folds):
        yy, ss = y_all[folds == f], s_all[folds == f]
        lowest.append(min((c for c in np.unique(ss) if np.mean(ss[~yy] >= c) <= fpr),
                          default=np.inf))
    assert got.group(2) == sig(min(lowest)) and got.group(3) == sig(max(lowest))
