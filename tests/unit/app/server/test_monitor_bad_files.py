"""Bad window files in the Monitor tab and in ``roc-dash monitor`` (fix13, stranger review
11, items 1 and 5): a file whose times cannot be cut is refused on upload naming its rows and
values, the windows loaded before kept; found only once the cut is chosen, it is left out
and named while the other windows are shown; the window readers' messages are the main
upload's for the same files; the status says what became of the last upload's files only."""

from __future__ import annotations

import base64

import pytest
from dash import no_update

from roc_dash.app.analysis import AnalysisCache
from roc_dash.app.features import monitor as feature
from roc_dash.app.monitoring import page_monitor
from roc_dash.app.page_state import MonitorState, PageState
from roc_dash.app.server.store import DatasetStore
from roc_dash.app.state import ControlState
from roc_dash.cli import main
from roc_dash.io import InputError, load_predictions
from roc_dash.io.windows import read_windows
from tests.monitoring_example import frame, put_file

CONDITIONS = ControlState(cost_fp=1.0, cost_fn=3.0, prior=0.3, prior_mode="manual")


def _url(data: bytes) -> str:
    return "data:text/csv;base64," + base64.b64encode(data).decode()


@pytest.fixture
def setup(tmp_path):
    """The reference (a dataset), a good window file of two months with a time column and
    one of bad dates."""
    store = DatasetStore(tmp_path / "store")
    files = tmp_path / "files"
    files.mkdir()
    ref_id = put_file(store, files, "ref.csv", frame(3000, 0.3, seed=1))
    good = frame(2000, 0.3, seed=2)
    good["time"] = ["2026-07-15"] * 1000 + ["2026-08-15"] * 1000
    good.to_csv(files / "good.csv", index=False)
    (files / "bad_dates.csv").write_text(
        "model,label,score,time\nrf,0,0.3,notadate\nrf,1,0.4,2026-13-45\n")
    return AnalysisCache(store), ref_id, files


def _upload(cache, files, names, before=(), windows=(), **kw):
    return feature.upload_window_files(
        cache.store, [_url((files / n).read_bytes()) for n in names], list(names),
        list(before), list(windows), **kw)


def _texts(status) -> list[str]:
    return [d.children for d in status]


def test_fxm001_a_window_file_of_bad_dates_is_refused_on_upload_naming_rows_and_values(
        setup, tmp_path):
    cache, ref_id, files = setup
    first = _upload(cache, files, ["good.csv"], time="time", every="month")
    kept = first["files"]
    assert len(kept) == 1
    got = _upload(cache, files, ["bad_dates.csv"], kept, kept, time="time", every="month",
                  seen=first["seen"])
    assert got["files"] is no_update and got["windows"] is no_update  # not ticked, not added
    said = " ".join(_texts(got["status"]))
    assert ("bad_dates.csv: column 'time' has 2 values that are not a date or time "
            "(rows 2, 3): '2026-13-45', 'notadate'") in said, said
    assert str(tmp_path) not in said
    # the windows loaded before stay: the tab still shows them
    page = PageState(datasets=(ref_id,), conditions=CONDITIONS,
                     monitor=MonitorState(windows=tuple(kept), time="time", every="month"))
    out = page_monitor(cache, page)
    assert [w.name for w in out.report.result.windows] == ["2026-07", "2026-08"]


def test_fxm002_bad_dates_found_only_at_the_cut_leave_that_file_out_and_show_the_rest(setup):
    cache, ref_id, files = setup
    good = _upload(cache, files, ["good.csv"])
    # no cut chosen yet: it reads, one window
    bad = _upload(cache, files, ["bad_dates.csv"], good["files"], good["windows"])
    assert len(bad["windows"]) == 2
    page = PageState(datasets=(ref_id,), conditions=CONDITIONS,
                     monitor=MonitorState(windows=tuple(bad["windows"]), time="time",
                                          every="month"))
    out = page_monitor(cache, page)
    assert out.report is not None, out.message
    assert [w.name for w in out.report.result.windows] == ["2026-07", "2026-08"]
    said = " ".join(out.report.notes)
    assert "bad_dates.csv is left out" in said and "(rows 2, 3)" in said, said
    status = feature.monitor_outputs(cache, page, None)["status"]
    assert "bad_dates.csv is left out" in str(status)
    assert "banner warn" in str(status)  # said as a warning, not a muted note
    # only the bad file: the tab says why, naming it
    alone = PageState(datasets=(ref_id,), conditions=CONDITIONS,
                      monitor=MonitorState(windows=(bad["windows"][1],), time="time",
                                           every="month"))
    out = page_monitor(cache, alone)
    assert out.report is None and "bad_dates.csv" in out.message and "'notadate'" in \
        out.message, out.message


@pytest.mark.parametrize(("name", "data", "words"), [
    ("w_badscore.csv", b"model,label,score\nrf,0,0.3\nrf,1,abc\nrf,1,0.8\n",
     "column 'score' has 1 non-numeric value (row 3): 'abc'"),
    ("w_empty.csv", b"", "the file is empty"),
    ("w_binary.csv", bytes(range(256)) * 4, "it is not a text, gzip or Parquet file"),
])
def test_fxm003_window_files_are_refused_in_the_main_uploads_words(tmp_path, capsys, name,
                                                                   data, words):
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(InputError) as main_upload:
        load_predictions([(name, data)])
    assert words in str(main_upload.value)  # the main upload's words...
    with pytest.raises(InputError) as window:
        read_windows([str(path)])
    assert words in str(window.value) and "DuckDB" not in str(window.value)  # ...the same
    columns, said = feature.read_window_upload(name, data)
    assert columns is None and said.startswith(f"{name}: ") and words in said, said
    record = tmp_path / "rec.json"
    ref = tmp_path / "ref.csv"
    frame(1000, 0.3, seed=1).to_csv(ref, index=False)
    assert main(["decide", str(ref), "--replicates", "20", "-o", str(record)]) == 0
    capsys.readouterr()
    assert main(["monitor", str(record), str(path)]) == 2
    err = capsys.readouterr().err
    assert words in err and "DuckDB" not in err, err


def test_fxm004_the_status_says_only_the_last_uploads_files(setup):
    """A picker that sends the earlier files again with a new one (it adds to its list):
    only the new one is read and said; a bad file's red box goes when a later upload
    succeeds."""
    cache, ref_id, files = setup
    (files / "noscore.csv").write_text("id,when\n1,a\n")
    bad = _upload(cache, files, ["noscore.csv"])
    assert "noscore.csv" in " ".join(_texts(bad["status"]))
    good = _upload(cache, files, ["noscore.csv", "good.csv"], seen=bad["seen"])
    assert _texts(good["status"]) == ["Window file: good.csv"]
    assert [d.className for d in good["status"]] == ["monitor-file"]
    # the same good file chosen again alone: said loaded, no red box
    again = _upload(cache, files, ["good.csv"], good["files"], good["windows"],
                    seen=good["seen"])
    assert _texts(again["status"]) == ["Window file: good.csv (already loaded)"]
    # the bad one chosen again alone (a retry): refused again, said again
    retry = _upload(cache, files, ["noscore.csv"], good["files"], good["windows"],
                    seen=again["seen"])
    assert "noscore.csv" in " ".join(_texts(retry["status"]))
    # a window file of the cut named on upload (item 1): the monitor on it works
    page = PageState(datasets=(ref_id,), conditions=CONDITIONS,
                     monitor=MonitorState(windows=tuple(good["files"])))
    assert page_monitor(cache, page).report is not None


def test_fxm005_a_file_that_is_no_json_is_refused_as_a_record_and_the_loaded_one_said_kept(
        setup):
    """Review 11 item 6: binary.csv chosen as the record was dropped without a word (the
    upload's filter) and the line before stayed."""
    from roc_dash.app import create_app, ids
    from tools.dash_requests import call_flat

    cache, _, files = setup
    app = create_app(store=cache.store)
    upload = next(cb for key, cb in app.callback_map.items()
                  if key.strip(".").startswith(f"{ids.MON_RECORD}.data"))
    record = next(c for part in feature.panel() for c in _walk(part) if getattr(c, "id", None) == ids.MON_UPLOAD)
    assert not getattr(record, "accept", None)  # every file reaches the server, and is said
    kept = {"name": "good.json", "text": "{}"}
    csv = "data:text/csv;base64," + base64.b64encode((files / "ref.csv").read_bytes()).decode()
    out = call_flat(upload, [csv, "binary.csv", kept, None])
    said = str(out["name"])
    assert out["record"] is no_update and out["record_id"] is no_update
    assert "binary.csv: not JSON, so not a decision record" in said, said
    assert "Expecting value" not in said and "char 0" not in said  # not the parser's words
    assert "The record loaded before, good.json, is still the one checked." in said
    out = call_flat(upload, [csv, "binary.csv", None, None])  # none before: nothing said of it
    assert "loaded before" not in str(out["name"])


def _walk(component):
    yield component
    children = getattr(component, "children", None)
    for child in children if isinstance(children, list | tuple) else (
            [children] if children is not None and not isinstance(children, str) else []):
        yield from _walk(child)


def test_fxm006_score_shift_on_estimated_priors_has_one_hint(setup):
    """Review 11 item 16: with the labels set aside, Score shift is judged against each
    window's estimated prior; one line says what that assumes (monitoring.md, Limits)."""
    cache, ref_id, files = setup
    good = _upload(cache, files, ["good.csv"])
    page = PageState(datasets=(ref_id,), conditions=CONDITIONS,
                     monitor=MonitorState(windows=tuple(good["files"]), hide_labels=True))
    status = str(feature.monitor_outputs(cache, page, None)["status"])
    assert status.count("Without labels, Score shift and the shares of positives are "
                        "estimates") == 1, status
    labelled = PageState(datasets=(ref_id,), conditions=CONDITIONS,
                         monitor=MonitorState(windows=tuple(good["files"])))
    assert "Without labels" not in str(feature.monitor_outputs(cache, labelled, None)["status"])


def test_fxm007_a_window_file_of_more_rows_than_the_in_memory_limit_still_reads(
        tmp_path, monkeypatch):
    """The main reader's checks before the columns are looked at, not its row limit: a
    window file's rows are counted per distinct score, not held."""
    monkeypatch.setenv("ROC_DASH_MAX_ROWS", "1000")
    path = tmp_path / "big.csv"
    frame(3000, 0.3, seed=7, labels=False).round(2).to_csv(path, index=False)
    read = read_windows([str(path)])
    assert read.input_rows == 3000
