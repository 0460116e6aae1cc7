"""Thresholds pinned per window in the Monitor tab (mtb020-mtb022): the core's point and
cost against a brute force over scikit-learn's confusion matrix (labelled windows) and the
reference's ROC (unlabelled ones); the page's figures, table, link and HTML report carry the
pins; a pin left empty takes the window's re-derived threshold."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from sklearn.metrics import confusion_matrix

from roc_dash.app.analysis import AnalysisCache
from roc_dash.app.features import monitor as feature
from roc_dash.app.monitoring import page_monitor
from roc_dash.app.page_state import MonitorState, PageState, monitor_pins, parse_link
from roc_dash.app.server.store import DatasetStore
from roc_dash.app.state import ControlState
from tests.monitoring_example import frame, put_file

CONDITIONS = ControlState(cost_fp=1.0, cost_fn=3.0, prior=0.3, prior_mode="manual")


@pytest.fixture
def loaded(tmp_path):
    store = DatasetStore(tmp_path / "store")
    frames = {"ref": frame(3000, 0.3, seed=1), "jan": frame(3000, 0.3, seed=2),
              "feb": frame(3000, 0.1, seed=3)}
    ids_ = {k: put_file(store, tmp_path, f"{k}.csv", f) for k, f in frames.items()}
    page = PageState(datasets=tuple(ids_.values()), conditions=CONDITIONS,
                     monitor=MonitorState(windows=(ids_["jan"], ids_["feb"])))
    return AnalysisCache(store), page, frames


def _brute(y, s, t, prior, c_fp=1.0, c_fn=3.0):
    tn, fp, fn, tp = confusion_matrix(y, s >= t, labels=[0, 1]).ravel()
    fpr, tpr = fp / (fp + tn), tp / (tp + fn)
    return fpr, tpr, c_fp * (1 - prior) * fpr + c_fn * prior * (1 - tpr)


def test_mtb020_a_pinned_threshold_is_the_windows_point_and_cost(loaded):
    cache, page, frames = loaded
    t = 0.6
    pinned = dataclasses.replace(page, monitor=dataclasses.replace(
        page.monitor, pins=(("feb", t), ("nowhere", 0.5))))
    out = page_monitor(cache, pinned)
    (pin,) = out.pins
    feb = frames["feb"]
    fpr, tpr, cost = _brute(feb["label"], feb["score"], t, feb["label"].mean())
    assert pin.rates == "labels"
    assert (pin.fpr, pin.tpr) == pytest.approx((fpr, tpr), abs=1e-12)
    assert pin.expected_cost == pytest.approx(cost, abs=1e-12)
    assert any("'nowhere'" in n for n in out.report.notes)
    # labels set aside: the reference's rates, the cost at the estimated prior
    hidden = dataclasses.replace(pinned, monitor=dataclasses.replace(
        pinned.monitor, hide_labels=True))
    out = page_monitor(cache, hidden)
    (pin,) = out.pins
    ref = frames["ref"]
    prior = out.report.result.windows[1].prior.value
    fpr, tpr, cost = _brute(ref["label"], ref["score"], t, prior)
    assert pin.rates == "reference" and pin.prior_pos == prior
    assert (pin.fpr, pin.tpr) == pytest.approx((fpr, tpr), abs=1e-12)
    assert pin.expected_cost == pytest.approx(cost, abs=1e-12)


def test_mtb021_pins_reach_the_figures_the_table_the_link_and_the_report(loaded):
    from roc_dash.app.features.exports import monitor_section

    cache, page, _ = loaded
    pinned = dataclasses.replace(page, tab="monitor", monitor=dataclasses.replace(
        page.monitor, pins=(("jan", 0.7),)))
    views = feature.monitor_outputs(cache, pinned, None)
    roc = next(t for t in views["roc"]["data"] if t.get("name") == "pinned thresholds")
    pin = page_monitor(cache, pinned).pins[0]
    assert list(roc["x"]) == [pin.fpr] and list(roc["y"]) == [pin.tpr]
    assert any(t.get("name") == "pinned threshold" for t in views["time"]["data"])
    assert "≥ 0.7: cost" in str(views["table"])
    assert [o["value"] for o in views["pin_windows"]] == ["jan", "feb"]
    state, _ = parse_link(pinned.to_query())
    assert state.monitor.pins == (("jan", 0.7),)
    section = monitor_section(cache, pinned)
    assert "Thresholds pinned per window" in section and "jan: score ≥ 0.7" in section
    assert section.count("pinned thresholds") >= 1  # the ROC figure's trace
    # the store's values cleaned
    assert monitor_pins([["a", 0.5], ["a", 0.6], ["b", float("nan")], ["c", True], 3]) == \
        (("a", 0.6),)


def test_mtb022_pin_with_no_threshold_takes_the_re_derived_one_and_clear_empties(loaded):
    cache, page, _ = loaded
    doc = page_monitor(cache, page).report.to_dict()
    feb = next(r for r in feature.window_rows(doc) if r["window"] == "feb")
    got = feature.pinned(cache, page, None, [["jan", 0.5]], "feb", None, clear=False)
    assert got == [["jan", 0.5], ["feb", feb["threshold"]]]
    again = feature.pinned(cache, page, None, got, "jan", 0.25, clear=False)
    assert again == [["feb", feb["threshold"]], ["jan", 0.25]]
    assert feature.pinned(cache, page, None, again, None, None, clear=True) == []
    assert np.isfinite(feb["threshold"])
