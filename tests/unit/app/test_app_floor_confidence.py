"""A capacity out of a volume, and floors chosen on exact bounds, on the page (the Decide tab's "Floors hold with
confidence"): the card, the summary strip and the decision download choose the threshold
``roc-dash decide --floor-confidence`` chooses, whose recall's exact one-sided
Clopper-Pearson bound (scipy) meets the floor."""

import json
from dataclasses import replace

from scipy.stats import beta

from roc_dash.app import create_app, ids
from roc_dash.app.analysis import AnalysisCache, model_refs
from roc_dash.app.components import plain_text
from roc_dash.app.constrained import parse_confidence
from roc_dash.app.features.constrained_strip import strip_update
from roc_dash.app.page_state import PageState, parse_link
from roc_dash.app.server.store import DEMO_ID, DatasetStore
from roc_dash.core.constraints.floors import parse_floor
from roc_dash.figures.style import format_threshold

from .test_app_constrained_strip import _ops
from .test_app_constraints import MODELS, PRIOR, _callback, _export_page, _page, _rows

FLOOR = "recall >= 0.97"


def _lower(y, s, t, confidence):
    """Clopper-Pearson one-sided lower bound of the recall of ``s >= t`` (scipy)."""
    k, n = int((s[y] >= t).sum()), int(y.sum())
    return 0.0 if k == 0 else float(beta.ppf(1 - confidence, k, n - k + 1))


def test_fcf001_confidence_read_and_bad_input_says_what():
    assert parse_confidence("95%") == (0.95, "") and parse_confidence(" 0.9 ") == (0.9, "")
    assert parse_confidence("") == (None, "")
    for bad in ("2", "abc", "40%"):
        value, msg = parse_confidence(bad)
        assert value is None and "between 50% and 100%" in msg and bad in msg


def test_fcf002_card_strip_and_download_choose_on_the_exact_bound(tmp_path, monkeypatch):
    exports, store, cache, page, analysis = _export_page(
        tmp_path, monkeypatch, floors=FLOOR, floor_confidence="95%")
    doc = json.loads(exports.decision_download(cache, store, page, analysis)[0]["content"])
    plain = json.loads(exports.decision_download(
        cache, store, replace(page, floor_confidence=""), analysis)[0]["content"])
    y, s = _rows(doc["model"])
    t = doc["rule"]["threshold"]
    assert _lower(y, s, t, 0.95) >= 0.97 - 1e-12  # the floor holds on the exact bound
    y0, s0 = _rows(plain["model"])
    assert _lower(y0, s0, plain["rule"]["threshold"], 0.95) < 0.97  # without it, it may not
    assert (s[y] >= t).mean() >= 0.97
    # the strip's headline and the card: the same threshold, the confidence named
    strip = strip_update(cache, PageState(datasets=(DEMO_ID,), conditions=page.conditions,
                                          floors=FLOOR, floor_confidence="95%"), ids.VIZ_DATA)
    headline = plain_text(_ops(strip["summary"])[(0,)])
    floor = parse_floor(FLOOR).text
    assert headline.startswith(f"Use {doc['model']} at score ≥ {format_threshold(t)} under the "
                               f"floor {floor} (held with 95% confidence):")
    app = create_app(store=DatasetStore(tmp_path / "app"))
    keys = list(model_refs(AnalysisCache(DatasetStore(tmp_path / "app")), [DEMO_ID]))
    view = _callback(app, ids.DCT_SUMMARY).__wrapped__
    out = view(viz={"key": "x"}, page={**_page(keys, floors=FLOOR), "floor_confidence": "95%"})
    assert format_threshold(t) in plain_text(out["summary"]) and out["floors_msg"] == ""
    bad = view(viz={"key": "x"}, page={**_page(keys, floors=FLOOR), "floor_confidence": "2"})
    assert "Confidence not used" in bad["floors_msg"]
    assert format_threshold(plain["rule"]["threshold"]) in plain_text(bad["summary"])


def test_fcf003_confidence_in_the_link(tmp_path):
    app = create_app(store=DatasetStore(tmp_path))
    query = PageState(floors=FLOOR, floor_confidence="95%").to_query()
    assert parse_link(query)[0].floor_confidence == "95%"
    restore = app.callback_map[f"{ids.DCT_FLOOR_CONF}.value"]["callback"].__wrapped__
    assert restore(query) == "95%"


def test_fcf004_capacity_out_of_a_volume_is_the_share_by_brute_force(tmp_path, monkeypatch):
    """800 cases out of 4,000 is 20%: the card, the strip and the download choose the
    brute force's threshold flagging at most 20% (the data's 442 cases per model would make
    800 more than there are)."""
    from .test_app_constraints import _brute

    exports, store, cache, page, analysis = _export_page(
        tmp_path, monkeypatch, capacity="800", volume="4000")
    best = min((b[4], m, b[0]) for m in MODELS for b in _brute(m)
               if PRIOR * b[2] + (1 - PRIOR) * b[3] <= 0.2 + 1e-12)
    doc = json.loads(exports.decision_download(cache, store, page, analysis)[0]["content"])
    assert (doc["model"], doc["rule"]["threshold"]) == (best[1], best[2])
    strip = strip_update(cache, PageState(datasets=(DEMO_ID,), conditions=page.conditions,
                                          capacity="800", volume="4000"), ids.VIZ_DATA)
    assert plain_text(_ops(strip["summary"])[(0,)]).startswith(
        f"Use {best[1]} at score ≥ {format_threshold(best[2])} under the capacity of 800 "
        "cases out of 4,000:")
    app = create_app(store=DatasetStore(tmp_path / "app"))
    keys = list(model_refs(AnalysisCache(DatasetStore(tmp_path / "app")), [DEMO_ID]))
    view = _callback(app, ids.DCT_SUMMARY).__wrapped__
    out = view(viz={"key": "x"}, page={**_page(keys, capacity="800"), "volume": "4000"})
    assert out["capacity_msg"] == "" and "20%" in plain_text(out["summary"])
    alone = view(viz={"key": "x"}, page=_page(keys, capacity="800"))
    assert "more than the" in alone["capacity_msg"]  # without the volume: too many
    bad = view(viz={"key": "x"}, page={**_page(keys, capacity="800"), "volume": "lots"})
    assert "Volume not used" in bad["capacity_msg"]
    small = view(viz={"key": "x"}, page={**_page(keys, capacity="800"), "volume": "500"})
    assert "more than the volume of 500" in small["capacity_msg"]
    restore = app.callback_map[f"{ids.DCT_VOLUME}.value"]["callback"].__wrapped__
    assert restore(PageState(capacity="800", volume="4000").to_query()) == "4000"
