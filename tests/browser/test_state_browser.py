"""A meeting's pins, notes, views and decisions survive datasets coming and going
(sta001-sta011), driven by real clicks and keys in headless Chromium: two datasets, one
added, one removed (and brought back), the link copied into a fresh browser, the page
reloaded; the decision file against what the page shows.

The data: three models (GaussianNB, LogReg, RandomForest) scored on 5 folds, as
out-of-fold predictions of a classifier comparison, then a second file of the same models
on other cases with ``group`` and ``sex`` columns.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import parse_qs

import numpy as np
import pandas as pd

from roc_dash.app import ids
from roc_dash.core.analysis_types import Conditions
from roc_dash.text.rounding import sig

from .gestures import (
    click,
    js_graph,
    open_tab,
    scroll_into_view,
    to_screen,
    type_into,
    wait_file,
    wait_idle,
    wait_until,
)
from .test_trust_browser import start
from .test_upload_browser import upload

MODELS = ("GaussianNB", "LogReg", "RandomForest")


def predictions(n=240, seed=0, groups=False) -> pd.DataFrame:
    """Out-of-fold predictions of the three models on ``n`` cases (5 folds); with
    ``groups``, a ``group`` and a ``sex`` column (categories the Slices card offers)."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.37).astype(int)
    fold = rng.integers(1, 6, n)
    frames = []
    for k, (model, sep) in enumerate(zip(MODELS, (1.6, 2.2, 2.0), strict=True)):
        raw = rng.normal(size=n) + sep * y + 0.1 * k
        score = 1 / (1 + np.exp(-raw))
        if model == "RandomForest":  # a forest's votes: many ties
            score = np.round(score * 50) / 50
        frame = pd.DataFrame({"model": model, "fold": fold, "label": y,
                              "score": np.round(score, 6)})
        if groups:
            frame["group"] = np.where(rng.random(n) < 0.5, "north", "south")
            frame["sex"] = np.where(np.arange(n) % 2 == 0, "F", "M")
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def files(tmp_path) -> tuple[Path, Path]:
    first, second = tmp_path / "bc.csv", tmp_path / "bc_sex.csv"
    predictions(seed=1).to_csv(first, index=False)
    predictions(seed=2, groups=True).to_csv(second, index=False)
    return first, second


def load(dash_duo, path, n_datasets):
    """Drop ``path`` on the page; wait until it is the ``n_datasets``-th dataset listed."""
    upload(dash_duo, path)
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_STATUS}", f"Loaded {path.name}")
    wait_until(lambda: len(dash_duo.find_elements(f"#{ids.DATASET_LIST} li.dataset"))
               == n_datasets, message=f"{n_datasets} dataset(s) listed")
    wait_idle(dash_duo)


def dataset_id(app, name) -> str:
    return next(p.stem for p in app.store.dir.glob("*.json")
                if app.store.info(p.stem).label == name)


def search(driver) -> str:
    return driver.execute_script("return location.search")


def pins_in_link(driver) -> list[str]:
    return parse_qs(search(driver).lstrip("?")).get("pin", [])


def summary(dash_duo) -> str:
    return dash_duo.find_element(f"#{ids.SUMMARY}").text


def pin_typed(dash_duo, label, threshold, letter):
    """Pin a model (chosen by its label in the pin row) at a typed threshold (Enter)."""
    dash_duo.select_dcc_dropdown(f"#{ids.PIN_MODEL}", label)
    type_into(dash_duo.find_element(f"#{ids.PIN_THRESHOLD}"), str(threshold))
    wait_until(lambda: f"{letter}: {label} at score ≥" in summary(dash_duo),
               message=f"pin {letter} on {label}")


def pin_vertex(dash_duo, app, datasets, model, k, letter):
    """Click the ``k``-th vertex of ``model`` (its shown name) on the ROC: pin ``letter``."""
    analysis = app.analysis_cache.analysis(datasets, [model], Conditions(prior_pos=0.4))
    curve = analysis.model(model).curve
    d = dash_duo.driver
    click(d, to_screen(d, ids.ROC_GRAPH, float(curve.fpr[k]), float(curve.tpr[k])))
    wait_until(lambda: f"{letter}: {model} at score ≥" in summary(dash_duo),
               message=f"pin {letter} by a click on {model}")


def open_fresh(dash_duo, query):
    """Open the page's link as a colleague would: another browser profile (no session or
    local storage: another owner), the link pasted in."""
    d = dash_duo.driver
    d.execute_script("sessionStorage.clear(); localStorage.clear();")
    d.get(dash_duo.server_url + "/" + query)
    wait_until(lambda: js_graph(d, ids.ROC_GRAPH, "gd.data.length"),  # on any tab
               message="the views of the link")
    wait_idle(dash_duo)


def two_files_pinned(dash_duo, app, tmp_path):
    """Both files loaded; pin A on LogReg of the second, pin B on GaussianNB of the first."""
    first, second = files(tmp_path)
    start(dash_duo, app)
    load(dash_duo, first, 1)
    load(dash_duo, second, 2)
    pin_typed(dash_duo, "LogReg (bc_sex.csv)", 0.3, "A")
    pin_typed(dash_duo, "GaussianNB (bc.csv)", 0.6, "B")


def remove_dataset(dash_duo, label):
    """The dataset's × in the list, then *Remove* in the question it asks."""
    dash_duo.find_element(f"#{ids.DATASET_LIST} button[aria-label='Remove {label}']").click()
    dash_duo.wait_for_contains_text(f"#{ids.REMOVAL}", f"Remove {label}?")
    question = dash_duo.find_element(f"#{ids.REMOVAL}").text
    dash_duo.find_element(f"#{ids.REMOVAL} button.danger").click()
    dash_duo.wait_for_contains_text(f"#{ids.REMOVAL}", f"Removed {label}")
    wait_idle(dash_duo)
    return question


# -- 1. pins stay on their (dataset, model) when a second file is added ------------------------
def test_sta001_pins_survive_a_second_file_and_the_link(dash_duo, app, tmp_path, shot):
    first, second = files(tmp_path)
    start(dash_duo, app)
    d = dash_duo.driver
    load(dash_duo, first, 1)
    bc = dataset_id(app, "bc.csv")
    pin_vertex(dash_duo, app, [bc], "GaussianNB", 40, "A")
    pin_typed(dash_duo, "RandomForest", 0.5, "B")
    load(dash_duo, second, 2)  # every model now shown as "… (bc.csv)" or "… (bc_sex.csv)"
    wait_until(lambda: "A: GaussianNB (bc.csv) at score ≥" in summary(dash_duo)
               and "B: RandomForest (bc.csv) at score ≥ " in summary(dash_duo),
               message="both pins, on the first file's models")
    names = js_graph(d, ids.ROC_GRAPH, "gd.data.map(t => t.name)")
    assert {"pinned A", "pinned B"} <= {(n or "")[:8] for n in names}
    assert [p.split("|")[0] for p in pins_in_link(d)] == [f"A:{bc}/GaussianNB",
                                                          f"B:{bc}/RandomForest"]
    shot("sta001_pins_after_a_second_file")
    text = summary(dash_duo)
    open_fresh(dash_duo, search(d))  # the link, in another browser
    wait_until(lambda: "A: GaussianNB (bc.csv)" in summary(dash_duo), message="pins of the link")
    assert re.findall(r"[AB]: [^;.]*", summary(dash_duo)) == re.findall(r"[AB]: [^;.]*", text)
    d.refresh()
    wait_until(lambda: "B: RandomForest (bc.csv)" in summary(dash_duo), message="after a reload")
    assert len(dash_duo.find_elements(f"#{ids.DATASET_LIST} li.dataset")) == 2


# -- 2. × on the other dataset keeps what belongs to the one that stays; Undo --------------------
def test_sta002_removing_a_dataset_keeps_the_others_pins_note_and_view(dash_duo, app,
                                                                      tmp_path, shot):
    two_files_pinned(dash_duo, app, tmp_path)
    d = dash_duo.driver
    pin_typed(dash_duo, "RandomForest (bc.csv)", 0.5, "C")
    note = dash_duo.find_element(f"#{ids.NOTE}")
    note.click()
    note.send_keys("Ship GaussianNB at 0.6 unless the sex slices disagree.")
    dash_duo.find_element(f"#{ids.VIEW_NAME}").click()  # leaving the box saves the note
    dash_duo.wait_for_contains_text(f"#{ids.NOTE_STATUS}", "Note saved")
    type_into(dash_duo.find_element(f"#{ids.VIEW_NAME}"), "meeting")
    dash_duo.wait_for_contains_text(f"#{ids.VIEW_LIST}", "meeting")

    # pin A was typed as 0.3: the question names it where the page shows it, at its vertex
    shown = re.search(r"A: LogReg \(bc_sex\.csv\) at score ≥ ([0-9.e+-]+)", summary(dash_duo))
    assert shown and shown.group(1) != "0.3", summary(dash_duo)
    question = remove_dataset(dash_duo, "bc_sex.csv")
    assert f"pin A (LogReg at score ≥ {shown.group(1)})" in question
    assert "unless you undo" in question
    said = dash_duo.find_element(f"#{ids.REMOVAL}").text
    assert f"pin A (LogReg at score ≥ {shown.group(1)})" in said and "Undo" in said
    listed = dash_duo.find_element(f"#{ids.DATASET_LIST}").text
    assert "bc.csv" in listed and "bc_sex.csv" not in listed
    wait_until(lambda: "B: GaussianNB at score ≥" in summary(dash_duo)
               and "C: RandomForest at score ≥" in summary(dash_duo), message="B and C kept")
    assert "A: " not in summary(dash_duo).split("Pinned", 1)[-1]
    assert "Ship GaussianNB" in dash_duo.find_element(f"#{ids.NOTE}").get_attribute("value")
    assert "meeting" in dash_duo.find_element(f"#{ids.VIEW_LIST}").text
    sex = dataset_id(app, "bc_sex.csv")
    assert app.store.removal_due(sex) is not None  # still on the server: undoable
    shot("sta002_removed_with_undo")

    link = search(d)
    assert len(pins_in_link(d)) == 2 and sex not in link
    open_fresh(dash_duo, link)  # the copied link: B and C, nothing missing
    wait_until(lambda: "C: RandomForest" in summary(dash_duo), message="the link's pins")
    assert "B: GaussianNB" in summary(dash_duo)
    assert not dash_duo.find_element(f"#{ids.MISSING}").text
    assert dash_duo.find_element(f"#{ids.UNPIN}").is_displayed()  # Clear pins: with pins

    d.refresh()
    wait_until(lambda: "C: RandomForest" in summary(dash_duo), message="after a reload")
    assert "B: GaussianNB" in summary(dash_duo)


def test_sta007_undo_brings_the_removed_datasets_pins_back(dash_duo, app, tmp_path):
    two_files_pinned(dash_duo, app, tmp_path)
    remove_dataset(dash_duo, "bc_sex.csv")
    wait_until(lambda: "A: " not in summary(dash_duo).split("Pinned", 1)[-1],
               message="pin A gone with its dataset")
    dash_duo.find_element(f"#{ids.REMOVAL} button").click()  # Undo
    wait_until(lambda: "A: LogReg (bc_sex.csv) at score ≥" in summary(dash_duo)
               and "B: GaussianNB (bc.csv)" in summary(dash_duo), message="pin A back")
    assert "with pin A" in dash_duo.find_element(f"#{ids.REMOVAL}").text
    assert app.store.removal_due(dataset_id(app, "bc_sex.csv")) is None


def test_sta012_a_saved_view_that_brings_a_removed_dataset_back_calls_its_deletion_off(
        dash_duo, app, tmp_path):
    """A view saved with both datasets, one of them then removed (its deletion put off), and
    the view opened before the window passes: the dataset is back on the page, so its
    deletion is called off as Undo would (else the server deletes it under the page)."""
    two_files_pinned(dash_duo, app, tmp_path)
    type_into(dash_duo.find_element(f"#{ids.VIEW_NAME}"), "both")
    dash_duo.wait_for_contains_text(f"#{ids.VIEW_LIST}", "both")
    remove_dataset(dash_duo, "bc_sex.csv")
    sex = dataset_id(app, "bc_sex.csv")
    assert app.store.removal_due(sex) is not None
    dash_duo.find_element(f"#{ids.VIEW_LIST} button.link-button").click()  # the view "both"
    wait_until(lambda: "bc_sex.csv" in dash_duo.find_element(f"#{ids.DATASET_LIST}").text,
               message="the view's datasets")
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_STATUS}", "deletion from the server is "
                                    "called off")
    assert app.store.removal_due(sex) is None
    assert not dash_duo.find_element(f"#{ids.REMOVAL}").text  # no Undo left to press
    wait_until(lambda: "A: LogReg (bc_sex.csv) at score ≥" in summary(dash_duo),
               message="the view's pin on the dataset brought back")


# -- 3. Slices follows the loaded data ---------------------------------------------------------
def test_sta003_slices_offers_the_second_files_columns_and_its_model(dash_duo, app, tmp_path,
                                                                     shot):
    first, second = files(tmp_path)
    start(dash_duo, app)
    d = dash_duo.driver
    load(dash_duo, first, 1)  # no categories
    load(dash_duo, second, 2)  # group and sex
    open_tab(dash_duo, "compare")
    dash_duo.wait_for_contains_text(f"#{ids.SLC_SOURCE}", "Groups from the column group")
    assert "(bc_sex.csv)" in dash_duo.find_element(f"#{ids.SLC_MODEL}").text
    dash_duo.select_dcc_dropdown(f"#{ids.SLC_COLUMN}", "sex")
    dash_duo.wait_for_contains_text(f"#{ids.SLC_SOURCE}", "Groups from the column sex")
    scroll_into_view(d, dash_duo.find_element(f"#{ids.SLC_TABLE}"))
    wait_until(lambda: "F" in dash_duo.find_element(f"#{ids.SLC_TABLE}").text,
               message="the groups of sex")
    shot("sta003_slices_of_the_second_file")
    q = parse_qs(search(d).lstrip("?"))
    sex = dataset_id(app, "bc_sex.csv")
    assert q["slc"] == ["sex"] and q["slm"][0].startswith(f"{sex}/")
    chosen = dash_duo.find_element(f"#{ids.SLC_MODEL}").text
    open_fresh(dash_duo, search(d))
    dash_duo.wait_for_contains_text(f"#{ids.SLC_SOURCE}", "Groups from the column sex")
    assert dash_duo.find_element(f"#{ids.SLC_MODEL}").text == chosen
    d.refresh()
    dash_duo.wait_for_contains_text(f"#{ids.SLC_SOURCE}", "Groups from the column sex")


# -- 4. Download decision: the headline; a pin only by its own button ------------------------------
def _download(dash_duo, button):
    folder = Path(dash_duo.download_path)
    for old in folder.glob("roc-dash-decision*.json"):
        old.unlink()
    scroll_into_view(dash_duo.driver, button)
    button.click()
    return json.loads(wait_file(folder, "roc-dash-decision*.json")[0].read_text())


def test_sta004_download_decision_is_the_headline_and_a_pin_is_chosen(dash_duo, app,
                                                                      tmp_path, shot):
    first, _ = files(tmp_path)
    start(dash_duo, app)
    load(dash_duo, first, 1)
    headline = re.search(r"Use (\S+) at score ≥ ([\d.e+-]+)", summary(dash_duo))
    pin_typed(dash_duo, "GaussianNB", 0.9, "A")
    doc = _download(dash_duo, dash_duo.find_element(f"#{ids.EXPORT_DECISION}"))
    assert doc["rule"]["how_chosen"] == "optimum"
    assert (doc["model"], sig(doc["rule"]["threshold"])) == headline.groups()
    dash_duo.wait_for_contains_text(f"#{ids.EXPORT_STATUS}", "the recommendation")
    # the pin only by its own button, in the operating card, which names the point
    button = dash_duo.find_element(f"#{ids.OPERATING} button.decision-point[aria-label$=' A']")
    shown = re.search(r"score ≥ ([\d.e+-]+)", button.get_attribute("title")).group(1)
    pinned = _download(dash_duo, button)
    assert pinned["rule"]["how_chosen"] == "pinned" and pinned["model"] == "GaussianNB"
    assert sig(pinned["rule"]["threshold"]) == shown  # the vertex the page shows
    dash_duo.wait_for_contains_text(f"#{ids.EXPORT_STATUS}", "pin A: GaussianNB")
    shot("sta004_decision_of_pin_a")


# -- 5. the pin row pins only a confirmed threshold ------------------------------------------------
def test_sta005_choosing_another_model_in_the_pin_row_does_not_pin(dash_duo, app, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    first, _ = files(tmp_path)
    start(dash_duo, app)
    d = dash_duo.driver
    load(dash_duo, first, 1)
    pin_typed(dash_duo, "GaussianNB", 0.5, "A")  # 0.5 stays in the box
    dash_duo.find_element(f"#{ids.PIN_MODEL}").click()
    ActionChains(d).send_keys("Random").perform()
    wait_until(lambda: [e.text for e in d.find_elements(
        "css selector", ".dash-dropdown-option")] == ["RandomForest"], message="filtered")
    ActionChains(d).send_keys(Keys.ENTER).perform()
    wait_idle(dash_duo)
    assert "B:" not in summary(dash_duo) and len(pins_in_link(d)) == 1  # nothing pinned
    wait_until(lambda: d.switch_to.active_element.get_attribute("id") == ids.PIN_THRESHOLD,
               message="the threshold box, to confirm")
    ActionChains(d).send_keys(Keys.ENTER).perform()  # confirmed
    wait_until(lambda: "B: RandomForest at score ≥" in summary(dash_duo), message="pin B")


# -- 8. page and file: the same intervals for the same point ---------------------------------------
def _cells(dash_duo, label):
    """The intervals table's column ``label``: ``{row name: cell text}``."""
    table = dash_duo.find_element(f"#{ids.POINT_INTERVALS} table")
    head = [c.text.split("\n")[0] for c in table.find_elements("css selector", "thead th")]
    k = head.index(label)
    return {r.find_element("css selector", "th").text: r.find_elements("css selector", "td")[
        k - 1].text for r in table.find_elements("css selector", "tbody tr")}


def test_sta008_page_and_file_give_the_same_intervals_for_a_pin(dash_duo, app, tmp_path, shot):
    first, _ = files(tmp_path)
    start(dash_duo, app)
    load(dash_duo, first, 1)
    pin_typed(dash_duo, "GaussianNB", 0.5, "A")
    wait_until(lambda: "A" in [c.text.split("\n")[0] for c in dash_duo.find_elements(
        f"#{ids.POINT_INTERVALS} thead th")], message="the pin's intervals")
    wait_idle(dash_duo)
    cells = _cells(dash_duo, "A")
    button = dash_duo.find_element(f"#{ids.OPERATING} button.decision-point[aria-label$=' A']")
    doc = _download(dash_duo, button)
    iv = doc["intervals"]
    for row, key in (("TPR (recall)", "tpr"), ("FPR", "fpr"),
                     ("Expected cost per case", "expected_cost")):
        low, high = iv[key]
        assert cells[row].endswith(f"[{sig(low)}–{sig(high)}]"), (row, cells[row], iv[key])
    assert (iv["replicates"], iv["seed"]) == (200, 0)
    assert sig(doc["rule"]["threshold"]) == cells["Threshold"]  # the vertex, not 0.5
    assert doc["rule"]["threshold"] > 0.5
    # the intervals' notes say for which point
    notes = [e.get_attribute("textContent") for e in dash_duo.find_elements(
        f"#{ids.POINT_INTERVALS} .interval-notes li")]
    assert notes and all(re.match(r"(Optimum|Pins? [A-C])", n) for n in notes), notes
    assert any(n.startswith("Pin A: ") for n in notes)
    shot("sta008_intervals_page_and_file")


def test_sta009_an_infinite_lr_note_names_its_point(dash_duo, app, tmp_path):
    first, _ = files(tmp_path)
    start(dash_duo, app)
    load(dash_duo, first, 1)
    # a threshold so high that some replicates hold no false positive: LR+ infinite there
    pin_typed(dash_duo, "LogReg", 0.97, "A")
    wait_until(lambda: any("LR+ is infinite" in (e.get_attribute("textContent") or "")
                           for e in dash_duo.find_elements(
                               f"#{ids.POINT_INTERVALS} .interval-notes li")),
               message="the note on LR+")
    notes = [e.get_attribute("textContent") for e in dash_duo.find_elements(
        f"#{ids.POINT_INTERVALS} .interval-notes li")]
    lr = [n for n in notes if "LR+ is infinite" in n]
    assert lr and all(re.match(r"(Optimum|Pin A|Optimum and pin A): LR\+", n) for n in lr)


# -- links of before, and links whose dataset is gone ---------------------------------------------
def test_sta010_an_old_link_with_shown_names_opens_on_the_right_models(dash_duo, app,
                                                                       tmp_path):
    first, second = files(tmp_path)
    start(dash_duo, app)
    load(dash_duo, first, 1)
    load(dash_duo, second, 2)
    bc, sex = dataset_id(app, "bc.csv"), dataset_id(app, "bc_sex.csv")
    # the page's link before models were named by dataset: pins and models by shown name
    old = (f"?data={bc},{sex}&cfn=2&pin=A:RandomForest (bc_sex.csv)|0.5"
           "&pin=B:GaussianNB (bc.csv)|0.3&models=RandomForest (bc_sex.csv)|GaussianNB (bc.csv)")
    open_fresh(dash_duo, old)
    wait_until(lambda: "A: RandomForest (bc_sex.csv) at score ≥" in summary(dash_duo)
               and "B: GaussianNB (bc.csv) at score ≥" in summary(dash_duo),
               message="the old link's pins on their models")
    shown = [e.get_attribute("value") for e in dash_duo.find_elements(
        f"#{ids.MODELS} input:checked")]
    assert sorted(shown) == sorted([f"{sex}/RandomForest", f"{bc}/GaussianNB"])
    q = parse_qs(search(dash_duo.driver).lstrip("?"))  # written again, by dataset
    assert q["v"] == ["2"] and q["cfn"] == ["2"]
    assert [p.split("|")[0] for p in q["pin"]] == [f"A:{sex}/RandomForest", f"B:{bc}/GaussianNB"]


def test_sta011_a_link_whose_dataset_is_gone_says_what_it_could_not_restore(dash_duo, app,
                                                                           tmp_path, shot):
    two_files_pinned(dash_duo, app, tmp_path)
    d = dash_duo.driver
    type_into(dash_duo.find_element(f"#{ids.COST_FN}"), "3")
    wait_until(lambda: "cfn=3" in search(d), message="the costs in the link")
    link = search(d)
    sex = dataset_id(app, "bc_sex.csv")
    app.store.delete(sex, why="expired")  # gone from the server meanwhile
    open_fresh(dash_duo, link)
    dash_duo.wait_for_contains_text(f"#{ids.MISSING}", "Not restored")
    banner = dash_duo.find_element(f"#{ids.MISSING}").text
    assert "bc_sex.csv (expired" in banner
    # pin A was typed as 0.3: pinned (and linked) at its vertex, the next score up
    lost = re.search(r"pin A \(LogReg of bc_sex\.csv at score ≥ ([0-9.e-]+)\)", banner)
    assert lost and float(lost.group(1)) >= 0.3, banner
    assert "Everything else of the link is restored" in banner
    wait_until(lambda: "B: GaussianNB at score ≥" in summary(dash_duo), message="pin B restored")
    assert dash_duo.find_element(f"#{ids.COST_FN}").get_attribute("value") == "3"
    shot("sta011_link_with_a_dataset_gone")
