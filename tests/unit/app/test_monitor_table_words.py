"""The Monitor tab's words (mtw001-mtw002): the empty tab's first step is a neutral hint,
not an error; the table's share of positives has one pair of parentheses and its cost
columns say at which prior they are (the window's own: the staying cost of a labelled
window is its confusion matrix's cost per case, by brute force)."""

from __future__ import annotations

import numpy as np

from roc_dash.app.analysis import AnalysisCache
from roc_dash.app.components import plain_text
from roc_dash.app.features.monitor import monitor_outputs
from roc_dash.app.monitoring import page_monitor
from roc_dash.app.page_state import MonitorState, PageState
from roc_dash.app.server.store import DatasetStore
from roc_dash.app.state import ControlState
from roc_dash.text.rounding import sig
from tests.monitoring_example import frame, put_file

CONDITIONS = ControlState(cost_fp=1.0, cost_fn=3.0, prior=0.3, prior_mode="manual")


def test_mtw001_the_empty_tabs_first_step_is_a_hint(tmp_path):
    files = tmp_path / "files"
    files.mkdir()
    store = DatasetStore(tmp_path / "store")
    ref = put_file(store, files, "ref.csv", frame(1000, 0.3, seed=1))
    out = monitor_outputs(AnalysisCache(store), PageState(
        datasets=(ref,), conditions=CONDITIONS), None)
    status = out["status"]
    assert plain_text(status).startswith("Tick the datasets that are windows")
    assert status.className == "hint"


def test_mtw002_the_table_names_its_prior_once_and_the_cost_columns_prior(tmp_path):
    files = tmp_path / "files"
    files.mkdir()
    store = DatasetStore(tmp_path / "store")
    frames = {"ref": frame(3000, 0.3, seed=1), "feb": frame(3000, 0.1, seed=3)}
    ids_ = {n: put_file(store, files, f"{n}.csv", f) for n, f in frames.items()}
    cache = AnalysisCache(store)
    page = PageState(datasets=(ids_["ref"], ids_["feb"]), conditions=CONDITIONS,
                     monitor=MonitorState(windows=(ids_["feb"],)))
    table = monitor_outputs(cache, page, None)["table"]
    heads = [plain_text(th) for th in table.children[0].children.children]
    cells = [plain_text(td) for td in table.children[1].children[0].children]
    row = dict(zip(heads, cells, strict=True))
    assert "((" not in row["Share of positives"] and "))" not in row["Share of positives"]
    assert "counted from labels" in row["Share of positives"]
    stay = next(h for h in heads if h.startswith("Cost") and "staying" in h)
    assert "own p(+)" in stay
    # staying at the window's own mix: the cost per case of its confusion matrix
    t = page_monitor(cache, page).report.record.threshold
    f = frames["feb"]
    y, s = f["label"].to_numpy() == 1, f["score"].to_numpy(float)
    fn, fp = np.sum(y & (s < t)), np.sum(~y & (s >= t))
    assert row[stay].startswith(sig((3.0 * fn + 1.0 * fp) / len(f)))
