"""The Monitor tab's window files (mtb010-mtb012): label-less windows uploaded on the page,
kept on the server by id, read as ``roc-dash monitor`` reads them (the page's JSON is the
command line's on the same files); bad files refused with a message naming them, the files
loaded before kept; a link naming a file that is gone says so."""

from __future__ import annotations

import base64
import dataclasses
import json

import pandas as pd
import pytest
from dash import no_update

from roc_dash.app.analysis import AnalysisCache
from roc_dash.app.features import monitor as feature
from roc_dash.app.monitoring import page_monitor
from roc_dash.app.page_state import MonitorState, PageState, parse_link
from roc_dash.app.server.monitor_files import get_file
from roc_dash.app.server.store import DatasetStore
from roc_dash.app.state import ControlState
from roc_dash.cli import main
from tests.monitoring_example import frame, put_file

CONDITIONS = ControlState(cost_fp=1.0, cost_fn=3.0, prior=0.3, prior_mode="manual")


def _url(data: bytes) -> str:
    return "data:text/csv;base64," + base64.b64encode(data).decode()


@pytest.fixture
def reference(tmp_path):
    """A store holding the reference predictions (prior 0.3), and label-less months."""
    store = DatasetStore(tmp_path / "store")
    files = tmp_path / "files"
    files.mkdir()
    ref_id = put_file(store, files, "ref.csv", frame(3000, 0.3, seed=1))
    for name, prior, seed in (("jan", 0.3, 2), ("feb", 0.1, 3)):
        frame(3000, prior, seed=seed, labels=False).to_csv(files / f"{name}.csv", index=False)
    return AnalysisCache(store), ref_id, files


def _upload(cache, files, names, before=(), windows=()):
    return feature.upload_window_files(
        cache.store, [_url((files / n).read_bytes()) for n in names], list(names),
        list(before), list(windows))


def test_mtb010_label_less_window_files_give_the_command_lines_json(reference, tmp_path):
    cache, ref_id, files = reference
    got = _upload(cache, files, ["jan.csv", "feb.csv"])
    file_ids = got["files"]
    assert len(file_ids) == 2 and got["windows"] == file_ids
    assert [get_file(cache.store.root, i).name for i in file_ids] == ["jan.csv", "feb.csv"]
    page = PageState(datasets=(ref_id,), conditions=CONDITIONS,
                     monitor=MonitorState(windows=tuple(file_ids)))
    out = page_monitor(cache, page)
    assert out.message == "" and out.report is not None, out.message
    windows = out.report.result.windows
    assert [w.name for w in windows] == ["jan", "feb"]
    assert all(w.labelled is None for w in windows)  # no labels: the prior estimated
    rec = tmp_path / "rec.json"
    rec.write_text(json.dumps(out.report.record.to_dict()))
    out_json = tmp_path / "cli.json"
    status = main(["monitor", str(rec), str(files / "jan.csv"), str(files / "feb.csv"),
                   "--reference", str(files / "ref.csv"), "-o", str(out_json)])
    cli = json.loads(out_json.read_text())
    page_doc = out.report.to_dict()
    drop = ("created_utc", "notes", "roc_dash_version")
    assert {k: v for k, v in page_doc.items() if k not in drop} == \
        {k: v for k, v in cli.items() if k not in drop}
    assert status == out.report.exit_status
    feb = windows[1]
    assert feb.prior.method == "em" and feb.prior.value < windows[0].prior.value
    assert feb.rederived.differs  # fewer positives: the choice re-derived moves
    # the tab's table and its choices name the files
    rows = feature.window_rows(page_doc)
    assert [r["window"] for r in rows] == ["jan", "feb"] and rows[1]["prior_method"] == "em"
    offered = [f.name for f in feature.window_files(cache.store, page, [])]
    assert offered == ["jan.csv", "feb.csv"]
    # the link carries the files' ids; opened again, the same windows
    state, _ = parse_link(dataclasses.replace(page, tab="monitor").to_query())
    assert state.monitor.windows == tuple(file_ids)


def test_mtb011_bad_window_files_are_refused_naming_the_file_and_the_loaded_ones_kept(
        reference, tmp_path):
    cache, ref_id, files = reference
    first = _upload(cache, files, ["jan.csv"])
    kept = first["files"]
    pd.DataFrame({"prediction_id": [1, 2], "when": ["a", "b"]}).to_csv(
        files / "noscore.csv", index=False)
    frame(500, 0.3, seed=4, labels=False).assign(score="high").to_csv(
        files / "text.csv", index=False)
    for name, words in (("noscore.csv", "score"),
                        ("text.csv", "500 non-numeric values (rows 2, 3, 4, 5, 6, … (500 in "
                                     "all)): 'high'")):
        got = _upload(cache, files, [name], kept, kept)
        assert got["files"] is no_update and got["windows"] is no_update
        said = str(got["status"])
        assert name in said and words in said and str(tmp_path) not in said, said
    bad = feature.upload_window_files(cache.store, ["not a data url"], ["x.csv"], kept, kept)
    assert bad["files"] is no_update and "x.csv" in str(bad["status"])
    # a file of another model: the decision's model is not in it (said when checked)
    frame(800, 0.3, seed=5, labels=False, model="gbm").to_csv(files / "gbm.csv",
                                                              index=False)
    other = _upload(cache, files, ["gbm.csv"], kept, kept)
    assert other["files"] == kept + other["files"][1:] and len(other["files"]) == 2
    page = PageState(datasets=(ref_id,), conditions=CONDITIONS,
                     monitor=MonitorState(windows=tuple(other["files"])))
    out = page_monitor(cache, page)  # gbm.csv left out, named, and jan.csv checked
    assert [w.name for w in out.report.result.windows] == ["jan"]
    said = " ".join(out.report.notes)
    assert "gbm.csv is left out" in said and "'rf'" in said, said
    assert str(cache.store.root) not in said
    # the one loaded before still checks alone
    assert page_monitor(cache, dataclasses.replace(
        page, monitor=MonitorState(windows=tuple(kept)))).report is not None


def test_mtb012_a_link_whose_window_file_is_gone_says_so_and_checks_the_rest(reference):
    cache, ref_id, files = reference
    kept = _upload(cache, files, ["jan.csv"])["files"]
    gone = "x" * 32
    page = PageState(datasets=(ref_id,), conditions=CONDITIONS,
                     monitor=MonitorState(windows=(*kept, gone)))
    out = page_monitor(cache, page)
    assert [w.name for w in out.report.result.windows] == ["jan"]
    assert any("1 window file of this link is gone" in n for n in out.report.notes)
    alone = page_monitor(cache, dataclasses.replace(page, monitor=MonitorState(
        windows=(gone,))))
    assert alone.report is None and "is gone" in alone.message


def test_mtb013_the_same_window_file_uploaded_again_is_one_window(reference):
    cache, ref_id, files = reference
    first = _upload(cache, files, ["jan.csv"])
    again = _upload(cache, files, ["jan.csv", "feb.csv"], first["files"], first["windows"])
    assert len(again["files"]) == 2 and again["files"][0] == first["files"][0]
    assert again["windows"] == again["files"]
    same = _upload(cache, files, ["jan.csv"], again["files"], again["windows"])
    assert same["files"] is no_update and same["windows"] is no_update


def _record_callbacks(cache):
    from roc_dash.app import create_app, ids

    app = create_app(store=cache.store)
    found = {}
    for key, cb in app.callback_map.items():
        first = key.strip(".").split("...")[0]
        if first.startswith(f"{ids.MON_RECORD}.data"):
            found["upload"] = cb
        if first.startswith(f"{ids.MON_REFERENCE}.value") and "search" in str(cb["inputs"]):
            found["restore"] = cb
    return found


def test_mtb014_an_uploaded_record_is_kept_by_id_carried_by_the_link_and_gone_said(
        reference, tmp_path):
    from tools.dash_requests import call_flat

    cache, ref_id, files = reference
    windows = tuple(_upload(cache, files, ["jan.csv", "feb.csv"])["files"])
    page = PageState(datasets=(ref_id,), conditions=CONDITIONS,
                     monitor=MonitorState(windows=windows))
    decided = page_monitor(cache, page).report.record
    other = dataclasses.replace(decided, threshold=0.5)  # another record than the page's
    text = json.dumps(other.to_dict())
    cbs = _record_callbacks(cache)
    url = "data:application/json;base64," + base64.b64encode(text.encode()).decode()
    got = call_flat(cbs["upload"], [url, "other.json", None, None])
    record_id = got["record_id"]
    assert got["reference"] == "upload" and get_file(cache.store.root, record_id).kind == \
        "record"
    linked = dataclasses.replace(page, tab="monitor", monitor=dataclasses.replace(
        page.monitor, reference="upload", record=record_id))
    link = linked.to_query()
    assert f"mrec={record_id}" in link
    state, _ = parse_link(link)
    assert state.monitor == linked.monitor
    # opened afresh: no record in the page, the one kept by id is checked
    out = page_monitor(cache, state, None)
    assert out.report is not None and out.report.record.threshold == 0.5
    assert "other.json" in out.reference_label
    restored = call_flat(cbs["restore"], [link])
    assert restored["record"] == record_id and "other.json" in str(restored["name"])
    assert restored["windows"] == list(windows) and restored["reference"] == "upload"
    # the record gone from the server: said, the rest of the link restored
    gone = link.replace(record_id, "y" * 32)
    restored = call_flat(cbs["restore"], [gone])
    assert restored["record"] is None and "is gone from the server" in str(restored["name"])
    assert restored["windows"] == list(windows) and restored["estimator"] == "em"
    state, _ = parse_link(gone)
    out = page_monitor(cache, state, None)
    assert out.report is None and "record of this link is gone" in out.message
