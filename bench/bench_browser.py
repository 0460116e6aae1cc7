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

Run: ``python bench/bench_browser.py [--root PATH] [--reps 8] [--detail]`` (needs Debian's
chromium and chromium-driver, as the browser tests do).
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
ARGS = _ap.parse_args()
ROOT = Path(ARGS.root).resolve()
sys.path.insert(0, str(ROOT))

from roc_dash.app import create_app, ids  # noqa: E402

logging.getLogger("werkzeug").setLevel(logging.ERROR)

GRAPHS = (ids.ROC_GRAPH, ids.PR_GRAPH, ids.COST_GRAPH, ids.THRESHOLD_GRAPH)

ARM = """
window._rocDone = {}; window._rocStart = performance.now(); window._rocClicked = false;
performance.clearResourceTimings();
if (!window._rocClickHook) {
  window._rocClickHook = true;
  document.addEventListener('click', () => {
    if (!window._rocClicked) { window._rocClicked = true; window._rocStart = performance.now(); }
  }, true);
}
for (const id of arguments[0]) {
  const gd = document.querySelector('#' + id + ' .js-plotly-plot');
  if (!gd._rocHooked) {
    gd._rocHooked = true;
    gd.on('plotly_afterplot', () => { if (window._rocDone) window._rocDone[id] = performance.now(); });
  }
}
"""


def main() -> None:
    from tools.harness import dash_session

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
            if ARGS.detail:
                print(driver.execute_script(
                    "const s = window._rocStart, r = performance.getEntriesByType('resource')"
                    ".filter(e => e.name.includes('update-component'));"
                    "return [Object.fromEntries(Object.entries(window._rocDone).map(([k, v]) =>"
                    " [k, Math.round(v - s)])), r.map(e => [Math.round(e.startTime - s),"
                    " Math.round(e.responseStart - s), Math.round(e.responseEnd - s),"
                    " e.transferSize])];"))
            total, server = driver.execute_script(
                "const d = Object.values(window._rocDone); const r = performance"
                ".getEntriesByType('resource').filter(e => e.name.includes('update-component'));"
                "return [Math.max(...d) - window._rocStart,"
                " r.reduce((a, e) => a + (e.responseStart - e.requestStart), 0)];")
            time.sleep(0.3)
            return total, server

        cases = [("cost of a FP (+ / −)", [ids.COST_FP_UP, ids.COST_FP_DOWN], GRAPHS),
                 ("prior (+ / −)", [ids.PRIOR_UP, ids.PRIOR_DOWN], GRAPHS)]
        print(f"click -> all four views redrawn, in Chromium, demo data ({ROOT})")
        for name, buttons, graphs in cases:
            totals, servers = [], []
            for k in range(ARGS.reps):
                t, s = measure(buttons[k % 2], graphs)
                totals.append(t)
                servers.append(s)
            print(f"  {name:<22} median {statistics.median(totals):6.0f} ms "
                  f"(max {max(totals):6.0f}); server share median "
                  f"{statistics.median(servers):5.0f} ms")


if __name__ == "__main__":
    main()
