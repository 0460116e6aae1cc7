"""Server CPU of one cost change, in process (issue 14: "20 users: cost-change p95 < 800 ms").

A cost change is what ``bench/load_test.py`` sends for one click on a cost or prior stepper:
the controls callback (which returns the views for the new conditions in the same response),
then the views callback the new conditions trigger (204: drawn already). Here both requests go
through the Flask test client of ``roc_dash.app.create_app`` on the demo data, with the exact
bodies the load test builds from the app's callback map, after a first load (the controls'
first call, then the views) as the page does it. Printed per checkout: the process CPU time
per cost change, median of ``--rounds`` rounds of ``--clicks`` clicks (the client's own JSON
work, building and encoding the bodies and decoding the answers, is measured and left out),
and the mean size of each response. With ``--compare DIR`` (another checkout, e.g. ``git
archive 6f6b8d2 | tar -x -C DIR``) the same child runs with that checkout's ``roc_dash``,
side by side, the rounds alternating. ``--profile`` prints this checkout's cProfile of the
clicks instead.

Run: ``python bench/bench_cost_change.py [--clicks 100] [--rounds 5] [--compare DIR]
[--profile]``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]

#: The child: one checkout's app (first on ``PYTHONPATH``), a first load, then the clicks.
CHILD = r'''
import json, random, sys, tempfile, time
from roc_dash.app import create_app, ids
from tools.dash_requests import callback_specs

clicks, profile = int(sys.argv[1]), sys.argv[2] == "1"
app = create_app(data_dir=tempfile.mkdtemp(prefix="roc-dash-bench-"))
client = app.server.test_client()
specs = callback_specs(app)


client_cpu = [0.0]  # the client's own work (bodies built, encoded, answers decoded)


def call(first_output, values, changed):
    t0 = time.process_time()
    spec = next(s for k, s in specs.items() if first_output in k.split("...")[0])
    def filled(items):
        return [dict(i, value=values[f"{i['id']}.{i['property']}"])
                if f"{i['id']}.{i['property']}" in values else dict(i) for i in items]
    body = json.dumps({"output": spec["output"], "outputs": spec["outputs"],
                       "inputs": filled(spec["inputs"]), "state": filled(spec["state"]),
                       "changedPropIds": changed})
    t1 = time.process_time()
    r = client.post("/_dash-update-component", data=body, content_type="application/json")
    t2 = time.process_time()
    out = r.status_code, (json.loads(r.data) if r.status_code == 200 else None), len(r.data)
    client_cpu[0] += (t1 - t0) + (time.process_time() - t2)
    return out


page = {"datasets.data": ["demo"], "models.value": ["demo/logistic regression",
        "demo/naive Bayes", "demo/decision tree", "demo/gradient boosting"],  # keys
        "conditions.data": None,
        "averaging.value": "pooled", "level.value": 0.95, "band.value": "pointwise",
        "samples.value": 51, "det.value": [], "presentation.value": [], "pinned.data": [],
        "roc-ties.value": [], "pr-mode.value": "pr", "zoom.data": None,
        "threshold-model.value": None, "threshold-axis.value": "threshold",
        "combine.data": None, "viz-data.data": None, "url.search": ""}


def keep(body):
    viz = (body or {}).get("response", {}).get("viz-data", {}).get("data")
    if isinstance(viz, dict):
        page["viz-data.data"] = viz


# the views callback's first call: the link's conditions and the views drawn for them
status, body, _ = call("cost-fp-slider.value", page, ["url.search"])
page["conditions.data"] = body["response"]["conditions"]["data"]
keep(body)
rng = random.Random(0)
choices = [ids.COST_FP_UP, ids.COST_FN_UP, ids.COST_FP_DOWN, ids.PRIOR_UP, ids.PRIOR_DOWN]


def click(n):
    which = rng.choice(choices)
    status, body, size1 = call("cost-fp-slider.value", {**page, f"{which}.n_clicks": n},
                               [f"{which}.n_clicks"])
    assert status == 200, status
    page["conditions.data"] = body["response"]["conditions"]["data"]
    keep(body)
    return size1, 0, status  # one response: the conditions and the views (no second call)


for n in range(1, 6):  # warm: imports, the analysis cached
    click(n)
if profile:
    import cProfile, pstats
    pr = cProfile.Profile()
    pr.enable()
    for n in range(6, 6 + clicks):
        click(n)
    pr.disable()
    pstats.Stats(pr).sort_stats("cumulative").print_stats(45)
    pstats.Stats(pr).sort_stats("tottime").print_stats(30)
    sys.exit(0)
sizes, statuses = [], set()
client_cpu[0] = 0.0
t0 = time.process_time()
for n in range(6, 6 + clicks):
    s1, s2, st = click(n)
    sizes.append((s1, s2))
    statuses.add(st)
cpu = (time.process_time() - t0 - client_cpu[0]) / clicks
print(json.dumps({"cpu_ms": cpu * 1000, "controls_bytes": sum(s[0] for s in sizes) / clicks,
                  "views_bytes": sum(s[1] for s in sizes) / clicks,
                  "views_status": sorted(statuses)}))
'''


def run(checkout: Path, clicks: int, profile: bool = False) -> dict | str:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    done = subprocess.run([sys.executable, "-c", CHILD, str(clicks), "1" if profile else "0"],
                          capture_output=True, text=True, env=env, cwd=tempfile.gettempdir(),
                          timeout=1800)
    if profile:
        return done.stdout + done.stderr[-3000:]
    if done.returncode != 0:
        return {"error": (done.stderr.strip().splitlines() or ["?"])[-1][:120]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--clicks", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--compare", type=Path, help="another checkout, measured side by side")
    ap.add_argument("--profile", action="store_true", help="cProfile of this checkout")
    args = ap.parse_args()
    print("$ " + " ".join([Path(sys.executable).name, *sys.argv]))
    print(f"  {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M:%S} UTC, {os.cpu_count()} "
          "CPUs, load average " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    if args.profile:
        print(run(HERE, args.clicks, profile=True))
        return
    checkouts = [HERE] + ([args.compare] if args.compare else [])
    results: dict[Path, list[dict]] = {c: [] for c in checkouts}
    for _ in range(args.rounds):
        for c in checkouts:
            results[c].append(run(c, args.clicks))
    print(f"  CPU per cost change (the views callback: new conditions and views in one "
          f"response), demo data, "
          f"{args.clicks} clicks x {args.rounds} rounds; median [min-max] over the rounds")
    for c in checkouts:
        ok = [r for r in results[c] if "error" not in r]
        name = "this checkout" if c == HERE else str(c)
        if not ok:
            print(f"  {name:<30} failed: {results[c][0]['error']}")
            continue
        ms = sorted(r["cpu_ms"] for r in ok)
        print(f"  {name:<30} {ms[len(ms) // 2]:6.1f} ms [{ms[0]:.1f}-{ms[-1]:.1f}]  "
              f"response {ok[0]['controls_bytes'] / 1024:6.1f} KiB (status "
              f"{ok[0]['views_status']})")
    print("  load average after " + " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
