"""Dashboard responsiveness, measured on the server side (no browser needed).

1. On the bundled demo data, the server time of the callback that redraws every view (ROC,
   PR, cost curves, operating point, model table) after a change of costs, of the prior and of
   the averaging mode -- each change is new to the analysis cache, so this is the full work.
2. The largest number of vertices any trace carries, for the demo data and for a synthetic
   dataset of 10^6 rows with distinct scores (display thinning keeps each curve near 2,000).

Run: ``python bench/bench_app.py``. Target (issue "Linked dashboard views"): every update
under 300 ms of server time; no curve above ~2,000 vertices.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

# this checkout, not whichever roc_dash is installed
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from roc_dash.app.analysis import AnalysisCache, model_names  # noqa: E402
from roc_dash.app.render import render_views  # noqa: E402
from roc_dash.app.server.store import DEMO_ID, DatasetStore  # noqa: E402
from roc_dash.core.analysis_types import Conditions


def timed(fn, *args, **kw):
    t0 = time.perf_counter()
    out = fn(*args, **kw)
    return time.perf_counter() - t0, out


def max_vertices(figures) -> int:
    return max((len(t.x) for f in figures for t in f.data if t.x is not None), default=0)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = DatasetStore(tmp)
        cache = AnalysisCache(store)
        models = model_names(cache, [DEMO_ID])
        render_views(cache, [DEMO_ID], models, Conditions(prior_pos=0.27))  # warm imports

        changes = {
            "cost of a FP": [Conditions(cost_fp=c, prior_pos=0.27) for c in (1.5, 2, 3, 5, 8)],
            "cost of a FN": [Conditions(cost_fn=c, prior_pos=0.27) for c in (1.5, 2, 3, 5, 8)],
            "prior": [Conditions(prior_pos=p) for p in (0.05, 0.1, 0.2, 0.4, 0.6)],
        }
        print("server time of one full update on the demo data (4 models x 10 folds, 1,768 rows)")
        for name, conds in changes.items():
            times = [timed(render_views, cache, [DEMO_ID], models, c)[0] for c in conds]
            print(f"  {name:<14} median {statistics.median(times) * 1000:6.1f} ms,"
                  f" max {max(times) * 1000:6.1f} ms")
        for averaging in ("none", "pooled", "vertical", "threshold"):
            cond = Conditions(prior_pos=0.27, n_samples=51)
            cache = AnalysisCache(store)  # cold: the averages are recomputed
            t, views = timed(render_views, cache, [DEMO_ID], models, cond, averaging=averaging)
            print(f"  averaging={averaging:<10} {t * 1000:6.1f} ms (cold cache), "
                  f"max vertices per trace {max_vertices(views[:3])}")

        rng = np.random.default_rng(0)
        n = 10**6
        y = rng.random(n) < 0.3
        big = pd.DataFrame({"label": y, "score": rng.normal(y * 1.0, 1.0), "model": "big",
                            "fold": rng.integers(1, 6, n).astype(str), "weight": 1.0})
        info = store.put(big, files=["big.csv"])
        cache = AnalysisCache(store)
        t, views = timed(render_views, cache, [info.id], ["big"], Conditions(prior_pos=0.3),
                         averaging="none")
        print(f"\n10^6 rows, 5 folds, distinct scores: first full update {t:.2f} s, "
              f"max vertices per trace {max_vertices(views[:3])} (target ~2,000)")
        t2, _ = timed(render_views, cache, [info.id], ["big"],
                      Conditions(prior_pos=0.3, cost_fp=2), averaging="none")
        print(f"  next update (new costs): {t2:.2f} s")

        # issue "Self-hosted for a team": a 10^6-row CSV upload -> every view, server time
        # (parse, validate, store as Parquet, analyse, draw), and 10^7 rows as Parquet accepted
        import io

        from roc_dash.app.features.data import apply_upload

        csv = io.BytesIO()
        big.assign(label=big["label"].astype(int), score=big["score"].round(6)).drop(
            columns=["weight", "model"]).to_csv(csv, index=False)  # named after the file
        data = csv.getvalue()
        cache = AnalysisCache(store)
        t0 = time.perf_counter()
        out = apply_upload(store, [("million.csv", data)], [])
        t_up = time.perf_counter() - t0
        assert not out.error, out.error
        t_views, views = timed(render_views, cache, out.dataset_ids, ["million"],
                               Conditions(prior_pos=0.3), averaging="pooled")
        assert max_vertices(views[:3]) > 100, "the views are empty"
        print(f"\n10^6-row CSV ({len(data) / 2**20:.0f} MB) upload -> all views: "
              f"{t_up:.2f} s read and stored + {t_views:.2f} s views = "
              f"{t_up + t_views:.2f} s of server time (target < 3 s)")
        n7 = 10**7
        y7 = rng.random(n7) < 0.3
        pq = io.BytesIO()
        pd.DataFrame({"label": y7.astype(np.int8),
                      "score": rng.normal(y7 * 1.0, 1.0).astype(np.float32)}).to_parquet(pq)
        t0 = time.perf_counter()
        out = apply_upload(store, [("ten-million.parquet", pq.getvalue())], [])
        t_pq = time.perf_counter() - t0
        print(f"10^7-row Parquet ({len(pq.getvalue()) / 2**20:.0f} MB): "
              f"{'accepted' if not out.error else 'REFUSED: ' + out.error} in {t_pq:.2f} s")


if __name__ == "__main__":
    main()
