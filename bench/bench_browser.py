"""Update time as a person sees it: from a click on a control to every view redrawn, in Chromium.

Starts the app on a free loopback port (dev server, demo data), opens it in headless Chromium
and, for each kind of change, clicks the control with a real mouse event and measures in the
page the time until all four figures have been redrawn (plotly's ``plotly_afterplot`` on the
ROC, PR, cost and threshold views, after the click) -- request, server work, transfer, JSON
parsing and drawing together. Prints the median and maximum of several repetitions, side by
side with the server's own share (the callback requests' durations from the Resource Timing
API). Target (issue "The review meeting"): under 300 ms after a slider release on the demo.

The clock starts at the click event in the page (a capture-phase listener), so the
WebDriver round trip of the click command is not counted. ``--root PATH`` measures another
checkout (e.g. the main branch) with the same method, for a side-by-side comparison;
``--detail`` prints each click's requests (start, time to first byte, end, bytes transferred,
all in ms after the click) and when each view finished redrawing.

"Settled" is the last redraw: after all four views have drawn, the page is watched until no
view has redrawn for ``--quiet`` seconds (default 1.5), so a chained callback that redraws a
view again later (the ROC's interval boxes did, ~400 ms after the click) is counted. Target
(issue "one state with stable names"): click -> last view settled, median under 150 ms.

``--compare OLD_ROOT`` measures OLD_ROOT (e.g. a worktree of the parent commit) and this
checkout in one run, one after the other in fresh processes, and prints them side by side
with the date, the command and the load average.

Each click is also taken apart: when the views' request left (after the click), when its
answer had arrived, and when the first and the last view had drawn it (medians, ms after
the click), and when each view had drawn it; and how many of the four views plotly
recomputed (a marker set on each graph's ``gd.calcdata`` before the click is gone when
``Plotly.react`` computed its traces anew), a count that a loaded machine does not change. ``--floor`` adds what one view costs plotly to redraw on this page, measured in
place: a change of one trace's data (``Plotly.restyle`` of the last trace's ``x``, what a
patch moving a marker trace costs: plotly recomputes and redraws every trace) against a
change of the layout alone (``Plotly.relayout`` of one shape), per view, median of
``--reps``. It bounds what a click can cost once the answer is in.

It also counts, per click, the actions dispatched to dash's store and how many of them reset
a component (dash resets every component a response replaces, with all under it), from the
click until the page is quiet: every action is a pass of dash's renderer over every mounted
component, so these counts say what the renderer does, whatever the machine's load.

Run: ``python bench/bench_browser.py [--root PATH] [--compare OLD_ROOT] [--reps 8]
[--detail] [--floor]`` (needs Debian's chromium and chromium-driver, as the browser tests do;
``ROC_DASH_TEST_PORT`` picks the server's port).
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path

_ap = argparse.ArgumentParser()
_ap.add_argument("--root", default=str(Path(__file__).resolve().parents[1]))
_ap.add_argument("--reps", type=int, default=8)
_ap.add_argument("--detail", action="store_true")
_ap.add_argument("--quiet", type=float, default=1.5)
_ap.add_argument("--compare", default=None)
_ap.add_argument("--json", action="store_true")
_ap.add_argument("--floor", action="store_true")
ARGS = _ap.parse_args()
ROOT = Path(ARGS.root).resolve()
sys.path.insert(0, str(ROOT))

import json  # noqa: E402
import os  # noqa: E402
import subprocess  # noqa: E402

from roc_dash.app import create_app, ids  # noqa: E402

logging.getLogger("werkzeug").setLevel(logging.ERROR)

GRAPHS = (ids.ROC_GRAPH, ids.PR_GRAPH, ids.COST_GRAPH, ids.THRESHOLD_GRAPH)

ARM = """
window._rocDone = {}; window._rocCount = {}; window._rocStart = performance.now();
window._rocClicked = false;
window._rocActions = [0, 0];  // dash's store actions, and its components reset, since the click
if (window.store && !window.store._rocCounted) {
  window.store._rocCounted = true;
  const dispatch = window.store.dispatch;
  window.store.dispatch = function (action) {
    if (window._rocActions && window._rocClicked) {
      window._rocActions[0] += 1;
      if (action && action.type === 'RESET_COMPONENT_STATE') window._rocActions[1] += 1;
    }
    return dispatch.apply(this, arguments);
  };
}
performance.clearResourceTimings();
if (!window._rocClickHook) {
  window._rocClickHook = true;
  document.addEventListener('click', () => {
    if (!window._rocClicked) { window._rocClicked = true; window._rocStart = performance.now(); }
  }, true);
}
for (const id of arguments[0]) {
  const gd = document.querySelector('#' + id + ' .js-plotly-plot');
  if (gd.calcdata) gd.calcdata._rocKept = true;  // gone when plotly recomputes the traces
  if (!gd._rocHooked) {
    gd._rocHooked = true;
    gd.on('plotly_afterplot', () => {
      if (window._rocDone) window._rocDone[id] = performance.now();
      if (window._rocCount) window._rocCount[id] = (window._rocCount[id] || 0) + 1;
    });
  }
}
"""


def main() -> None:
    from dash.testing.application_runners import BaseDashRunner

    from tools.harness import dash_session

    BaseDashRunner._next_port = int(os.environ.get("ROC_DASH_TEST_PORT",
                                                   BaseDashRunner._next_port))
    results = {}
    with dash_session(create_app(data_dir=tempfile.mkdtemp()), size=(1500, 1300)) as duo:
        driver = duo.driver
        duo.wait_for_element(f"#{ids.OPERATING} table", timeout=60)  # the first views drawn
        time.sleep(6)

        def measure(button_id, graphs):
            driver.execute_script(ARM, list(graphs))
            button = driver.find_element("id", button_id)
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
            button.click()
            end = time.monotonic() + 20
            while time.monotonic() < end:
                done = driver.execute_script("return window._rocDone;")
                if all(g in done for g in graphs):
                    break
                time.sleep(0.02)
            # settled: no view redrawn for ARGS.quiet seconds (a later redraw counts)
            while time.monotonic() < end and driver.execute_script(
                    "return performance.now() - Math.max(...Object.values(window._rocDone));"
            ) < ARGS.quiet * 1000:
                time.sleep(0.05)
            if ARGS.detail:
                print(driver.execute_script(
                    "const s = window._rocStart, r = performance.getEntriesByType('resource')"
                    ".filter(e => e.name.includes('update-component'));"
                    "return [Object.fromEntries(Object.entries(window._rocDone).map(([k, v]) =>"
                    " [k, Math.round(v - s)])), r.map(e => [Math.round(e.startTime - s),"
                    " Math.round(e.responseStart - s), Math.round(e.responseEnd - s),"
                    " e.transferSize])];"))
            parts = driver.execute_script(
                "const s = window._rocStart, d = Object.values(window._rocDone), r = performance"
                ".getEntriesByType('resource').filter(e => e.name.includes('update-component'));"
                "if (!r.length) return null;"
                "return [r[0].startTime - s, r[0].responseEnd - s, Math.min(...d) - s,"
                " Math.max(...d) - s, ...arguments[0].map(g => window._rocDone[g] - s)];",
                list(graphs))
            total, server = driver.execute_script(
                "const d = Object.values(window._rocDone); const r = performance"
                ".getEntriesByType('resource').filter(e => e.name.includes('update-component'));"
                "return [Math.max(...d) - window._rocStart,"
                " r.reduce((a, e) => a + (e.responseStart - e.requestStart), 0)];")
            redraws = max(driver.execute_script("return Object.values(window._rocCount);"))
            recomputed = driver.execute_script(
                "return arguments[0].filter(id => { const gd = document.querySelector("
                "'#' + id + ' .js-plotly-plot'); return !(gd.calcdata && gd.calcdata._rocKept);"
                " }).length;", list(graphs))
            size = driver.execute_script(
                "const r = performance.getEntriesByType('resource').filter(e =>"
                " e.name.includes('update-component'));"
                "return r.length ? r[0].decodedBodySize : null;")
            time.sleep(0.3)
            actions = driver.execute_script("return window._rocActions;")
            return (total, server, (redraws, recomputed), parts and [*parts, size or 0],
                    actions)

        cases = [("cost of a FP (+ / −)", [ids.COST_FP_UP, ids.COST_FP_DOWN], GRAPHS),
                 ("prior (+ / −)", [ids.PRIOR_UP, ids.PRIOR_DOWN], GRAPHS)]
        if not ARGS.json:
            print(f"click -> last view settled, in Chromium, demo data ({ROOT})")
        for name, buttons, graphs in cases:
            totals, servers, redraws, recomputed, parts, actions = [], [], [], [], [], []
            for k in range(ARGS.reps):
                t, s, (r, c), p, a = measure(buttons[k % 2], graphs)
                actions.append(a)
                totals.append(t)
                servers.append(s)
                redraws.append(r)
                recomputed.append(c)
                if p:
                    parts.append(p)
            results[name] = {"median": statistics.median(totals), "max": max(totals),
                             "server": statistics.median(servers),
                             "redraws": statistics.median(redraws),
                             "recomputed": statistics.median(recomputed),
                             # dash's store actions and components reset per click (until
                             # settled): what the renderer does, whatever the machine's load
                             "actions": [statistics.median(a[k] for a in actions)
                                         for k in (0, 1)]}
            if parts:  # answer in, first and last view drawn (ms after the click), answer KB
                results[name]["phases"] = [statistics.median(p[k] for p in parts)
                                           for k in (1, 2, 3, -1)]
            if not ARGS.json:
                print(f"  {name:<22} median {statistics.median(totals):6.0f} ms "
                      f"(max {max(totals):6.0f}); server share median "
                      f"{statistics.median(servers):5.0f} ms; redraws of the most redrawn "
                      f"view median {statistics.median(redraws):.0f}; views whose traces "
                      f"plotly recomputed median {statistics.median(recomputed):.0f} of "
                      f"{len(graphs)}; dash's store actions / components reset per click "
                      f"{results[name]['actions'][0]:.0f} / {results[name]['actions'][1]:.0f}")
                if parts:
                    sent, answered, first, last, *each, size = (
                        statistics.median(c) for c in zip(*parts, strict=True))
                    print(f"  {'':<22} request sent +{sent:.0f}, answer in +{answered:.0f} "
                          f"({size / 1000:.0f} KB), views drawn +{first:.0f} (first) to "
                          f"+{last:.0f} (last)")
                    print(f"  {'':<22} each view drawn: " + ", ".join(
                        f"{g.removesuffix('-graph')} +{t:.0f}"
                        for g, t in zip(graphs, each, strict=True)))
        if ARGS.floor and not ARGS.json:
            floor(driver)
    if ARGS.json:
        print("RESULTS " + json.dumps(results))


FLOOR = """
const gd = document.querySelector('#' + arguments[0] + ' .js-plotly-plot');
const n = gd.data.length - 1, tr = gd.data[n], shapes = (gd.layout.shapes || []).slice();
let t0 = performance.now();
window.Plotly.restyle(gd, {x: [Array.isArray(tr.x) ? tr.x.slice() : tr.x]}, [n]);
const data = performance.now() - t0;
t0 = performance.now();
window.Plotly.relayout(gd, {shapes: shapes.concat([{type: 'line', x0: 0, x1: 0.5, y0: 0,
                                                     y1: 0.5, xref: 'x', yref: 'y'}])});
const layout = performance.now() - t0;
window.Plotly.relayout(gd, {shapes: shapes});
return [data, layout, gd.data.length];
"""


def floor(driver) -> None:
    """Per view: one redraw for a change of data against one for a change of layout (ms)."""
    print(f"one redraw per view (median of {ARGS.reps}; ms): a trace's data changed / a shape"
          " changed")
    for graph in GRAPHS:
        runs = []
        for _ in range(ARGS.reps):
            runs.append(driver.execute_script(FLOOR, graph))
            time.sleep(0.2)
        data, layout = (statistics.median(c) for c in list(zip(*runs, strict=True))[:2])
        print(f"  {graph:<22} {data:6.0f} / {layout:4.0f}   ({runs[0][2]} traces)")


def compare(old_root: str) -> None:
    """OLD_ROOT then this checkout, each in a fresh process, printed side by side."""
    runs = {}
    for label, root in (("old", old_root), ("new", str(ROOT))):
        out = subprocess.run(
            [sys.executable, __file__, "--root", root, "--reps", str(ARGS.reps),
             "--quiet", str(ARGS.quiet), "--json"], capture_output=True, text=True,
            check=True).stdout
        runs[label] = json.loads(out.split("RESULTS ", 1)[1])
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}; {' '.join(sys.argv)}")
    print(f"click -> last view settled (ms; {ARGS.reps} clicks each, quiet {ARGS.quiet} s)")
    print(f"  old: {old_root}\n  new: {ROOT}")
    print(f"  {'':<22} {'old median':>10} {'(max)':>7} {'new median':>10} {'(max)':>7} "
          f"{'new/old':>7}  redraws of a view / views recomputed, old → new (median)")
    for name in runs["new"]:
        o, n = runs["old"][name], runs["new"][name]
        print(f"  {name:<22} {o['median']:10.0f} {o['max']:7.0f} {n['median']:10.0f} "
              f"{n['max']:7.0f} {n['median'] / o['median']:7.2f}  "
              f"{o['redraws']:.0f} → {n['redraws']:.0f} / "
              f"{o.get('recomputed', float('nan')):.0f} → {n['recomputed']:.0f}")
    print("  dash's store actions / components reset per click (median, from the click until quiet)")
    for name in runs["new"]:
        o, n = (runs[k][name].get("actions") for k in ("old", "new"))
        if o and n:
            print(f"  {name:<22} old {o[0]:4.0f} / {o[1]:4.0f}   new {n[0]:4.0f} / {n[1]:4.0f}")
    print("  each click taken apart (medians, ms after the click): answer in / first view drawn"
          " / last view drawn; the views' answer (KB, decoded)")
    for name in runs["new"]:
        o, n = (runs[k][name].get("phases") for k in ("old", "new"))
        if o and n:
            print(f"  {name:<22} old {o[0]:4.0f} / {o[1]:4.0f} / {o[2]:4.0f}, {o[3] / 1000:4.0f} KB"
                  f"   new {n[0]:4.0f} / {n[1]:4.0f} / {n[2]:4.0f}, {n[3] / 1000:4.0f} KB")


if __name__ == "__main__":
    if ARGS.compare:
        compare(ARGS.compare)
    else:
        main()
