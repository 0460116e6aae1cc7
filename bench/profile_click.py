"""Where the time of a cost or prior click goes in the browser: a CPU profile and a log.

Starts the app as ``bench/bench_browser.py`` does (dev server, demo data, headless Chromium),
then, for ``--reps`` clicks of a control (``--case cost`` or ``prior``):

- records a CPU profile of the page through the DevTools protocol (``Profiler.start`` /
  ``Profiler.stop``, sampling every ``--interval`` µs) from just before the click until the
  views have settled, and sums each function's self time and total time (a function counted
  once per sample however deep it recurses) over the clicks; prints the top ``--top`` by self
  time and the self time per source (plotly.js, dash's renderer, react-dom, our assets, ...);
- logs in the page, in ms after the click: each ``_dash-update-component`` request (its
  outputs, when it left and when its answer had been read), each ``Plotly.react`` call (which
  view, when, and how long its synchronous part took), each ``plotly_afterplot`` emission
  (how long its handlers took), each clientside callback run (namespace.function, how long),
  and the long tasks (> 50 ms) the browser reported.

Run: ``ROC_DASH_TEST_PORT=8401 python bench/profile_click.py [--case cost|prior] [--reps 4]
[--top 15] [--interval 200]``.
"""

from __future__ import annotations

import argparse
import collections
import itertools
import logging
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

_ap = argparse.ArgumentParser()
_ap.add_argument("--case", choices=("cost", "prior"), default="cost")
_ap.add_argument("--reps", type=int, default=4)
_ap.add_argument("--top", type=int, default=15)
_ap.add_argument("--interval", type=int, default=200)
_ap.add_argument("--quiet", type=float, default=1.5)
_ap.add_argument("--no-profile", action="store_true", help="the log alone (no profiler's cost)")
_ap.add_argument("--dev-bundles", action="store_true",
                 help="dash's unminified bundles, so that its functions have their names")
ARGS = _ap.parse_args()
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from roc_dash.app import create_app, ids  # noqa: E402

logging.getLogger("werkzeug").setLevel(logging.ERROR)
GRAPHS = (ids.ROC_GRAPH, ids.PR_GRAPH, ids.COST_GRAPH, ids.THRESHOLD_GRAPH)

# Installed once: wrappers that log into window._prof (times relative to window._profStart).
HOOKS = """
if (window._profHooked) return;
// busy marks (3 ms) that the profile shows: its window is from the click to the four views drawn
window.rocMarkStart = function rocMarkStart() { const t = performance.now();
  while (performance.now() - t < 3) { /* a mark in the profile */ } };
const rocMarkEnd = function rocMarkEnd() { const t = performance.now();
  while (performance.now() - t < 3) { /* a mark in the profile */ } };
window._profHooked = true;
const log = (e) => { if (window._prof) window._prof.push(e); };
const now = () => performance.now() - window._profStart;
const owner = (gd) => { const p = gd && gd.closest && gd.closest('[id]');
  return p ? p.id : '?'; };
const react = window.Plotly.react;
window.Plotly.react = function (gd) {
  const t0 = now(); const out = react.apply(this, arguments);
  log({kind: 'react', view: owner(gd), at: t0, ms: now() - t0});
  return out;
};
const origFetch = window.fetch;
window.fetch = function (url, opts) {
  const t0 = now(); let outs = '';
  try { const b = JSON.parse(opts.body); outs = b.output; } catch (e) { /* not dash's */ }
  return origFetch.apply(this, arguments).then((r) => {
    const c = r.clone(); c.text().then((t) => log({kind: 'request', outputs: outs, at: t0,
      answered: now(), bytes: t.length}));
    return r;
  });
};
const dc = window.dash_clientside || {};
for (const ns of Object.keys(dc)) {
  if (typeof dc[ns] !== 'object' || dc[ns] === null) continue;
  for (const fn of Object.keys(dc[ns])) {
    const f = dc[ns][fn];
    if (typeof f !== 'function') continue;
    dc[ns][fn] = function () {
      const t0 = now(); const out = f.apply(this, arguments);
      log({kind: 'clientside', name: ns + '.' + fn, at: t0, ms: now() - t0});
      return out;
    };
  }
}
for (const id of arguments[0]) {
  const gd = document.querySelector('#' + id + ' .js-plotly-plot');
  const emit = gd.emit;
  gd.emit = function (name) {
    const t0 = now(); const out = emit.apply(this, arguments);
    if (name === 'plotly_afterplot') log({kind: 'afterplot', view: id, at: t0, ms: now() - t0});
    return out;
  };
  gd.on('plotly_afterplot', () => {
    if (!window._profDone) return;
    window._profDone[id] = now();
    if (!window._profMarked && Object.keys(window._profDone).length === arguments[0].length) {
      window._profMarked = true; rocMarkEnd();
    }
  });
}
new PerformanceObserver((l) => { for (const e of l.getEntries()) log({kind: 'longtask',
  at: e.startTime - window._profStart, ms: e.duration}); }).observe({entryTypes: ['longtask']});
"""

ARM = """
window._prof = []; window._profDone = {}; window._profStart = performance.now();
window._profClicked = false; window._profMarked = false;
if (!window._profClickHook) {
  window._profClickHook = true;
  document.addEventListener('click', () => { if (!window._profClicked) {
    window._profClicked = true; window._profStart = performance.now(); rocMarkStart(); } },
    true);
}
"""


def source(url: str) -> str:
    """A short name for where a function comes from."""
    if not url:
        return "(native / program)"
    for key, name in (("plotly", "plotly.js"), ("dash_renderer", "dash renderer"),
                      ("react-dom", "react-dom"), ("react@", "react"),
                      ("dcc/", "dash core components"), ("/assets/", "our assets")):
        if key in url:
            return name
    return url.rsplit("/", 1)[-1].split("?")[0][:40]


def attribute(profile: dict, self_t: collections.Counter, total_t: collections.Counter,
              by_source: collections.Counter) -> float:
    """Add one profile's self and total time (ms) per function; returns its busy time (ms)."""
    nodes = {n["id"]: n for n in profile["nodes"]}
    parent = {c: n["id"] for n in profile["nodes"] for c in n.get("children", [])}

    def key(node):
        f = node["callFrame"]
        return (f"{f['functionName'] or '(anonymous)'}  {source(f['url'])}"
                f":{f['lineNumber'] + 1}:{f['columnNumber'] + 1}" if f["url"] else f["functionName"])

    busy = 0.0
    deltas = profile["timeDeltas"][1:] + [0]
    stamps = list(itertools.accumulate(profile["timeDeltas"]))
    marks = {}
    for sample, stamp in zip(profile["samples"], stamps, strict=True):
        n = sample
        while n is not None:
            name = nodes[n]["callFrame"]["functionName"]
            if name in ("rocMarkStart", "rocMarkEnd"):
                marks.setdefault(name, stamp)
            n = parent.get(n)
    lo, hi = marks.get("rocMarkStart", 0), marks.get("rocMarkEnd", stamps[-1])
    for sample, dt, stamp in zip(profile["samples"], deltas, stamps, strict=True):
        ms = dt / 1000
        node = nodes[sample]
        name = key(node)
        if name in ("(idle)", "(root)") or not lo <= stamp <= hi:
            continue
        busy += ms
        self_t[name] += ms
        by_source[source(node["callFrame"]["url"]) if node["callFrame"]["url"] else name] += ms
        seen, n = set(), sample
        while n is not None:
            k = key(nodes[n])
            if k not in seen and k != "(root)":
                seen.add(k)
                total_t[k] += ms
            n = parent.get(n)
    return busy


def main() -> None:
    from dash.testing.application_runners import BaseDashRunner

    from tools.harness import dash_session

    BaseDashRunner._next_port = int(os.environ.get("ROC_DASH_TEST_PORT",
                                                   BaseDashRunner._next_port))
    buttons = {"cost": (ids.COST_FP_UP, ids.COST_FP_DOWN),
               "prior": (ids.PRIOR_UP, ids.PRIOR_DOWN)}[ARGS.case]
    self_t, total_t, by_source = (collections.Counter() for _ in range(3))
    busy, logs = [], []
    app = create_app(data_dir=tempfile.mkdtemp())
    if ARGS.dev_bundles:
        app.enable_dev_tools(debug=False, dev_tools_serve_dev_bundles=True, dev_tools_ui=False,
                             dev_tools_props_check=False, dev_tools_hot_reload=False)
    with dash_session(app, size=(1500, 1300)) as duo:
        driver = duo.driver
        duo.wait_for_element(f"#{ids.OPERATING} table", timeout=60)
        time.sleep(6)
        driver.execute_script(HOOKS, list(GRAPHS))
        driver.execute_cdp_cmd("Profiler.enable", {})
        driver.execute_cdp_cmd("Profiler.setSamplingInterval", {"interval": ARGS.interval})
        for k in range(ARGS.reps):
            button = driver.find_element("id", buttons[k % 2])
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
            time.sleep(0.5)
            driver.execute_script(ARM)
            if not ARGS.no_profile:
                driver.execute_cdp_cmd("Profiler.start", {})
            button.click()
            end = time.monotonic() + 20
            while time.monotonic() < end and len(
                    driver.execute_script("return window._profDone;")) < len(GRAPHS):
                time.sleep(0.02)
            while time.monotonic() < end and driver.execute_script(
                    "return performance.now() - window._profStart"
                    " - Math.max(...Object.values(window._profDone));") < ARGS.quiet * 1000:
                time.sleep(0.05)
            if not ARGS.no_profile:
                profile = driver.execute_cdp_cmd("Profiler.stop", {})["profile"]
                busy.append(attribute(profile, self_t, total_t, by_source))
            logs.append(driver.execute_script("return window._prof;"))
    report(self_t, total_t, by_source, busy, logs)


def report(self_t, total_t, by_source, busy, logs) -> None:
    n = max(len(logs), 1)
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}; {' '.join(sys.argv)}")
    print(f"{ARGS.case} click, {n} clicks; busy CPU in the page per click (ms): "
          + ", ".join(f"{b:.0f}" for b in busy) + " (from the click to the four views drawn)")
    print("\nself time per source (ms per click, mean)")
    for name, ms in by_source.most_common(12):
        print(f"  {ms / n:7.1f}  {name}")
    print(f"\ntop {ARGS.top} functions by self time (ms per click, mean): self / total")
    for name, ms in self_t.most_common(ARGS.top):
        print(f"  {ms / n:7.1f} / {total_t[name] / n:7.1f}  {name}")
    print(f"\ntop {ARGS.top} functions by total time (ms per click, mean)")
    for name, ms in total_t.most_common(ARGS.top):
        print(f"  {ms / n:7.1f}  {name}")
    print("\nper click, in ms after the click:")
    for k, entries in enumerate(logs):
        print(f" click {k + 1}")
        for e in sorted(entries, key=lambda e: e["at"]):
            if e["kind"] == "request":
                outs = e["outputs"] if len(e["outputs"]) < 90 else e["outputs"][:87] + "..."
                print(f"   +{e['at']:6.0f} request -> answer read +{e['answered']:.0f} "
                      f"({e['bytes']} B): {outs}")
            elif e["kind"] == "clientside":
                print(f"   +{e['at']:6.0f} clientside {e['name']} {e['ms']:.1f} ms")
            else:
                print(f"   +{e['at']:6.0f} {e['kind']} {e.get('view', '')} {e['ms']:.1f} ms")
    reacts = collections.Counter(e["view"] for entries in logs for e in entries
                                 if e["kind"] == "react")
    print("\nPlotly.react calls per click, per view: " + ", ".join(
        f"{v} {c / n:.1f}" for v, c in reacts.items()))
    per_view = collections.defaultdict(list)
    for entries in logs:
        for e in entries:
            if e["kind"] == "react":
                per_view[e["view"]].append(e["ms"])
    print("Plotly.react synchronous time per call, median (ms): " + ", ".join(
        f"{v} {statistics.median(t):.0f}" for v, t in per_view.items()))


if __name__ == "__main__":
    main()
