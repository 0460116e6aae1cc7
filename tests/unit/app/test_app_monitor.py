"""The Monitor tab's glue (mtb001-mtb009): the page's decision (or an uploaded record)
checked on loaded datasets as windows gives the numbers of ``roc-dash monitor`` on the same
files and of :mod:`roc_dash.core.monitoring` on the same rows; the windows cut by a time
column; the labels set aside; bad records refused with a message, the record loaded before
kept; the page's costs moving the decision; the settings from a link."""

from __future__ import annotations

import base64
import dataclasses
import json

import numpy as np
import pandas as pd
import pytest
from dash import no_update
from dash.exceptions import PreventUpdate
from sklearn.metrics import roc_curve

from roc_dash.app import create_app, ids
from roc_dash.app.analysis import AnalysisCache
from roc_dash.app.features import monitor as feature
from roc_dash.app.monitoring import page_monitor, read_record
from roc_dash.app.page_state import MonitorState, PageState, parse_link
from roc_dash.app.server.store import DatasetStore
from roc_dash.app.state import ControlState
from roc_dash.cli import main
from roc_dash.core.monitoring import MonitorSettings, window_from_rows
from roc_dash.core.monitoring import monitor as core_monitor
from roc_dash.decision.monitoring import reference_of
from roc_dash.io import load_predictions
from tests.card_inputs import call_card
from tests.monitoring_example import frame, put_file
from tools.dash_requests import call_flat

CONDITIONS = ControlState(cost_fp=1.0, cost_fn=3.0, prior=0.3, prior_mode="manual")


@pytest.fixture
def loaded(tmp_path):
    """A reference (prior 0.3) and two months: one like it, one with fewer positives."""
    store = DatasetStore(tmp_path / "store")
    files = tmp_path / "files"
    files.mkdir()
    ids_ = {name: put_file(store, files, f"{name}.csv", f) for name, f in (
        ("ref", frame(3000, 0.3, seed=1)), ("jan", frame(3000, 0.3, seed=2)),
        ("feb", frame(3000, 0.1, seed=3)))}
    return AnalysisCache(store), ids_, files


def _page(ids_, **monitor):
    return PageState(datasets=(ids_["ref"], ids_["jan"], ids_["feb"]), conditions=CONDITIONS,
                     monitor=MonitorState(windows=(ids_["jan"], ids_["feb"]), **monitor))


def _cli(tmp_path, record, *args):
    rec = tmp_path / "rec.json"
    rec.write_text(json.dumps(record.to_dict()))
    out = tmp_path / "out.json"
    status = main(["monitor", str(rec), *map(str, args), "-o", str(out)])
    return status, json.loads(out.read_text())


def _same_numbers(page_doc, cli_doc):
    """The documents agree but for when they were made and the windows' first/last times
    (the page's datasets keep no times)."""
    def strip(doc):
        return {**{k: v for k, v in doc.items() if k not in ("created_utc", "notes",
                                                               "roc_dash_version")},
                "windows": [{k: v for k, v in w.items() if k not in ("start", "end")}
                            for w in doc["windows"]]}
    assert strip(page_doc) == strip(cli_doc)


def _brute_optimum(y, s, prior, c_fp, c_fn):
    """The threshold of least expected cost by brute force over scikit-learn's ROC."""
    fpr, tpr, thr = roc_curve(y, s)
    cost = c_fp * (1 - prior) * fpr + c_fn * prior * (1 - tpr)
    return float(thr[int(np.argmin(cost))])


def test_mtb001_page_decision_on_dataset_windows_equals_the_command_line(loaded, tmp_path):
    cache, ids_, files = loaded
    out = page_monitor(cache, _page(ids_))
    assert out.message == "" and out.report is not None
    record = out.report.record
    ref = pd.read_csv(files / "ref.csv")
    assert record.model == "rf"
    assert record.threshold == _brute_optimum(ref["label"], ref["score"], 0.3, 1.0, 3.0)
    status, cli = _cli(tmp_path, record, files / "jan.csv", files / "feb.csv",
                       "--reference", files / "ref.csv")
    page_doc = out.report.to_dict()
    _same_numbers(page_doc, cli)
    assert status == out.report.exit_status == 1  # february's choice fails
    rows = {r["window"]: r for r in feature.window_rows(page_doc)}
    assert list(rows) == ["jan", "feb"]
    assert rows["jan"]["status"] == "held" and rows["feb"]["flags"]["choice"] == "FAIL"
    # the counted share of positives is the file's
    feb = pd.read_csv(files / "feb.csv")
    assert rows["feb"]["prior"]["value"] == pytest.approx(feb["label"].mean(), abs=1e-12)


def test_mtb002_labels_set_aside_give_the_cores_estimates_and_the_cli_on_unlabelled_files(
        loaded, tmp_path):
    cache, ids_, files = loaded
    out = page_monitor(cache, _page(ids_, hide_labels=True, estimator="pacc"))
    record = out.report.record
    for name in ("jan", "feb"):
        pd.read_csv(files / f"{name}.csv").drop(columns="label").to_csv(
            tmp_path / f"{name}.csv", index=False)
    _, cli = _cli(tmp_path, record, tmp_path / "jan.csv", tmp_path / "feb.csv",
                  "--reference", files / "ref.csv", "--estimator", "pacc")
    _same_numbers(out.report.to_dict(), cli)
    # the core on the rows, directly
    ref_rows = load_predictions([str(files / "ref.csv")]).table
    reference, same = reference_of(record, ref_rows)
    assert same is True
    windows = [window_from_rows(n, pd.read_csv(files / f"{n}.csv")["score"].to_numpy())
               for n in ("jan", "feb")]
    core = core_monitor(reference, windows, MonitorSettings(estimator="pacc"))
    for page_w, core_w in zip(out.report.result.windows, core.windows, strict=True):
        assert page_w.labelled is None
        for method in ("em", "pacc", "acc"):
            assert page_w.estimate(method).value == core_w.estimate(method).value
        assert page_w.rederived.choice.threshold == core_w.rederived.choice.threshold
    feb = out.report.result.windows[1]
    assert feb.prior.method == "pacc" and feb.rederived.differs


def test_mtb003_a_time_column_cut_by_month_equals_the_command_lines_windows(tmp_path):
    store = DatasetStore(tmp_path / "store")
    days = pd.date_range("2024-01-01", "2024-03-31", freq="D").strftime("%Y-%m-%d")
    rng = np.random.default_rng(7)
    prod = pd.concat([frame(1500, p, seed=10 + k) for k, p in enumerate((0.3, 0.3, 0.1))],
                     ignore_index=True)
    month = np.repeat([1, 2, 3], 1500)
    prod["day"] = [rng.choice([d for d in days if int(d[5:7]) == m]) for m in month]
    ref_id = put_file(store, tmp_path, "ref.csv", frame(3000, 0.3, seed=1))
    prod_id = put_file(store, tmp_path, "prod.csv", prod)
    cache = AnalysisCache(store)
    page = PageState(datasets=(ref_id, prod_id), conditions=CONDITIONS, monitor=MonitorState(
        windows=(prod_id,), time="day", every="month"))
    out = page_monitor(cache, page)
    assert [w.name for w in out.report.result.windows] == ["2024-01", "2024-02", "2024-03"]
    _, cli = _cli(tmp_path, out.report.record, tmp_path / "prod.csv", "--time", "day",
                  "--every", "month", "--reference", tmp_path / "ref.csv")
    _same_numbers(out.report.to_dict(), cli)
    # each value a window: 91 days
    daily = page_monitor(cache, dataclasses.replace(page, monitor=MonitorState(
        windows=(prod_id,), time="day", hide_labels=True)))
    assert [w.name for w in daily.report.result.windows] == sorted(set(prod["day"]))


def test_mtb004_bad_records_are_refused_with_a_message_and_the_loaded_one_kept(loaded):
    cache, ids_, _ = loaded
    good = page_monitor(cache, _page(ids_)).report.record
    text = json.dumps(good.to_dict())
    assert read_record(text)[0] == good
    for bad, words in (("{not json", "not JSON"), ("[1, 2]", "decision record"),
                       (json.dumps({**good.to_dict(), "schema_version": 999}), "newer")):
        record, message = read_record(bad, "rec.json")
        assert record is None and "rec.json" in message and words in message, message
    app = create_app(store=cache.store)
    upload = next(cb for key, cb in app.callback_map.items()
                  if key.strip(".").startswith(f"{ids.MON_RECORD}.data"))
    kept = {"name": "good.json", "text": text}

    def send(content: bytes, name: str):
        url = "data:application/json;base64," + base64.b64encode(content).decode()
        return call_flat(upload, [url, name, kept, None])

    out = send(b"\xff\xfe binary", "x.bin")
    assert out["record"] is no_update  # the record loaded before stays
    assert "x.bin" in str(out["name"]) and "not a text file" in str(out["name"])
    out = send(b"{not json", "bad.json")
    assert out["record"] is no_update and "bad.json: not JSON" in str(out["name"])
    out = send(text.encode(), "good.json")
    assert out["record"] == kept and out["reference"] == "upload"


def test_mtb005_an_uploaded_record_is_checked_on_its_own_conditions(loaded, tmp_path):
    cache, ids_, files = loaded
    page = _page(ids_)
    record = page_monitor(cache, page).report.record
    # a record decided under other costs (cost_fn 9): the page's costs do not change it
    ref = pd.read_csv(files / "ref.csv")
    other = dataclasses.replace(record, threshold=_brute_optimum(
        ref["label"], ref["score"], 0.3, 1.0, 9.0))
    uploaded = {"name": "other.json", "text": json.dumps(other.to_dict())}
    out = page_monitor(cache, dataclasses.replace(
        page, monitor=dataclasses.replace(page.monitor, reference="upload")), uploaded)
    assert out.report.record.threshold == other.threshold != record.threshold
    assert "other.json" in out.reference_label and "ref.csv" in out.reference_label
    missing = page_monitor(cache, dataclasses.replace(
        page, monitor=dataclasses.replace(page.monitor, reference="upload")), None)
    assert missing.report is None and "Upload the decision record" in missing.message


def test_mtb006_the_pages_costs_move_the_decision_and_its_iso_line(loaded):
    cache, ids_, files = loaded
    page = _page(ids_)
    before = page_monitor(cache, page).report
    costly = dataclasses.replace(page, conditions=dataclasses.replace(CONDITIONS,
                                                                      cost_fn=9.0))
    after = page_monitor(cache, costly).report
    ref = pd.read_csv(files / "ref.csv")
    assert after.record.threshold == _brute_optimum(ref["label"], ref["score"], 0.3, 1, 9)
    assert after.record.threshold < before.record.threshold
    views = feature.monitor_outputs(cache, costly, None)
    iso = next(t for t in views["roc"]["data"] if t.get("name", "").startswith("iso line"))
    slope = (iso["y"][1] - iso["y"][0]) / (iso["x"][1] - iso["x"][0])
    assert slope == pytest.approx(1.0 * 0.7 / (9.0 * 0.3))


def test_mtb007_messages_when_nothing_can_be_checked(loaded):
    cache, ids_, _ = loaded
    page = _page(ids_)
    none = page_monitor(cache, dataclasses.replace(page, monitor=MonitorState()))
    assert none.report is None and "Tick the datasets that are windows" in none.message
    every = page_monitor(cache, dataclasses.replace(page, monitor=MonitorState(
        windows=page.datasets)))
    assert "Every dataset loaded is a window" in every.message
    no_pin = page_monitor(cache, dataclasses.replace(
        page, monitor=dataclasses.replace(page.monitor, reference="C")))
    assert "Pin C" in no_pin.message
    views = feature.monitor_outputs(cache, dataclasses.replace(page, monitor=MonitorState()),
                                    None)
    assert "Tick the datasets" in str(views["status"]) and views["table"] is None


def test_mtb008_the_tab_computes_only_while_shown_and_reads_its_settings_from_a_link(
        loaded):
    cache, ids_, _ = loaded
    app = create_app(store=cache.store)
    page = _page(ids_)
    loaded = [f"{d}/rf" for d in page.datasets]
    # the tab as the Monitor tab's gate gives it (tab-gate-monitor.data)
    with pytest.raises(PreventUpdate):
        call_card(app, f"{ids.MON_STATUS}.children", dataclasses.replace(page, tab="decide"),
                  loaded=loaded)
    shown = call_card(app, f"{ids.MON_STATUS}.children",
                      dataclasses.replace(page, tab="monitor"), loaded=loaded)
    assert "Drift" in str(shown["status"]) and "feb" in str(shown["table"])
    link = dataclasses.replace(page, tab="monitor").to_query()
    state, given = parse_link(link)
    assert "monitor" in given and state.monitor == page.monitor and state.tab == "monitor"
    restore = next(cb for key, cb in app.callback_map.items()
                   if key.strip(".").startswith(f"{ids.MON_REFERENCE}.value"))
    restored = call_flat(restore, [link])
    assert restored["reference"] == "optimum"
    assert restored["windows"] == [ids_["jan"], ids_["feb"]]


def test_mtb009_the_pages_html_report_has_the_monitor_section(loaded):
    import re

    from roc_dash.app.analysis import shown_analysis
    from roc_dash.app.features.exports import html_download, monitor_section

    cache, ids_, _ = loaded
    page = _page(ids_)
    report = page_monitor(cache, page).report
    analysis = shown_analysis(cache, page)
    table = cache.table(list(page.datasets))
    file = html_download(cache, cache.store, page, analysis, table, None, "auc")
    text = file["content"]
    assert "Monitor: the page&#x27;s recommendation: rf" in text
    assert 'id="monitor-roc"' in text and 'id="monitor-time"' in text
    # the windows' table of the section: one row per window, the status of each
    section = text[text.index('<section class="monitor-section">'):]
    section = section[:section.index("</section>")]
    assert re.search(r"<td[^>]*>jan</td>", section) and re.search(r"<td[^>]*>feb</td>",
                                                                   section)
    assert report.status == "drift" and "Drift" in section
    assert monitor_section(cache, dataclasses.replace(page, monitor=MonitorState())) == ""
    refused = monitor_section(cache, dataclasses.replace(
        page, monitor=dataclasses.replace(page.monitor, reference="upload")), None)
    assert "Upload the decision record" in refused


def test_mtb030_the_pages_recommendation_under_a_capacity_is_the_point_it_chooses(loaded,
                                                                                  tmp_path):
    """With a capacity typed on the Decide tab, "the page's recommendation" checked is the
    summary strip's constrained headline (the point Download decision writes), not the
    optimum without it: by brute force, the least expected cost among the reference's
    thresholds flagging at most 10 % of cases at the prior."""
    cache, ids_, files = loaded
    page = dataclasses.replace(_page(ids_), capacity="10%")
    out = page_monitor(cache, page)
    ref = pd.read_csv(files / "ref.csv")
    fpr, tpr, thr = roc_curve(ref["label"], ref["score"])
    flagged = 0.3 * tpr + 0.7 * fpr
    cost = 1.0 * 0.7 * fpr + 3.0 * 0.3 * (1 - tpr)
    ok = flagged <= 0.1 + 1e-12
    best = float(thr[ok][int(np.argmin(cost[ok]))])
    assert best != _brute_optimum(ref["label"], ref["score"], 0.3, 1, 3)  # the cap binds
    assert out.report.record.threshold == best
    assert out.report.record.how_chosen == "capacity"
    assert "under the capacity" in out.reference_label
    # the capacity dropped: the optimum again (another cache entry, not the one above)
    free = page_monitor(cache, _page(ids_)).report.record
    assert free.threshold == _brute_optimum(ref["label"], ref["score"], 0.3, 1, 3)


def test_mtb031_the_tab_checks_the_point_the_pages_capacity_and_floors_choose(loaded):
    """The tab's callback reads the Decide tab's capacity and floors (they once did not reach
    it, so that it checked the optimum while the strip recommended the constrained point)."""
    cache, ids_, _ = loaded
    app = create_app(store=cache.store)
    page = dataclasses.replace(_page(ids_), capacity="10%", floors="recall >= 0.2")
    shown = call_card(app, f"{ids.MON_STATUS}.children",
                      dataclasses.replace(page, tab="monitor"),
                      loaded=[f"{d}/rf" for d in page.datasets])
    chosen = page_monitor(cache, page).report.record
    assert chosen.how_chosen in ("capacity", "floors")
    assert "under the capacity" in str(shown["status"]) or "under the floors" in str(
        shown["status"])
    assert f"{chosen.threshold:.6g}" in str(shown["status"]) + str(shown["table"])


def test_mtb040_windows_of_another_model_are_not_checked_against_the_decision(tmp_path):
    """Stranger review 10: the windows' LogReg rows were checked against GradBoost's decision
    (a window dataset of one model was read as the decision's model whatever its name);
    now a message says no loaded decision matches, and the model is named with its dataset.
    A window file without a model column (its model named after it) is still read as the
    decision's model."""
    store = DatasetStore(tmp_path / "store")
    files = tmp_path / "files"
    files.mkdir()
    ref = put_file(store, files, "synth.csv", frame(3000, 0.3, seed=1, model="GradBoost"))
    later = put_file(store, files, "later.csv", frame(2000, 0.3, seed=2, model="LogReg"))
    bare = put_file(store, files, "bare.csv",
                    frame(2000, 0.3, seed=3).drop(columns="model"))
    cache = AnalysisCache(store)
    page = PageState(datasets=(ref, later), conditions=CONDITIONS,
                     monitor=MonitorState(windows=(later,)))
    out = page_monitor(cache, page)
    assert out.report is None
    assert "No decision loaded matches the windows' models" in out.message
    assert "later.csv holds LogReg" in out.message and "GradBoost (synth.csv)" in out.message
    ok = page_monitor(cache, dataclasses.replace(page, datasets=(ref, bare),
                                                 monitor=MonitorState(windows=(bare,))))
    assert ok.report is not None and ok.message == ""
    assert ok.reference_label == "the page's recommendation: GradBoost (synth.csv)"
    assert ok.report.record.model == "GradBoost"


def test_mtb041_the_tab_says_its_recommendation_leaves_the_windows_out(loaded):
    """Stranger review 10: the strip's recommendation took a window's dataset while the tab's
    did not, silently; the tab now says so (docs/monitoring.md), not for an uploaded record."""
    cache, ids_, _ = loaded
    out = page_monitor(cache, _page(ids_))
    note = next(n for n in out.report.notes if "taken on the datasets that are not windows"
                in n)
    assert "jan.csv, feb.csv" in note and "Download decision" in note
    views = feature.monitor_outputs(cache, _page(ids_), None)
    assert "not windows" in str(views["status"])
