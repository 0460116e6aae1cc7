"""The Slices card and a dataset's removal, by real clicks in headless Chromium (review10):
the removal says it takes the card's model and column, and *Undo* puts them back (slr001);
with the files in the other order, the card starts on a model whose file has a column to
slice by, and its empty figure says to choose one (slr002); the page opened again at its bare
address keeps the prior's source it had (slr003); opening a saved view says which dataset
loaded in the tab it leaves out (slr004)."""

from __future__ import annotations

from urllib.parse import parse_qs

from roc_dash.app import ids
from roc_dash.app.state import display
from roc_dash.text.rounding import sig

from .gestures import js_graph, open_tab, type_into, wait_idle, wait_until
from .test_slices_browser import _choose
from .test_state_browser import dataset_id, load, predictions, remove_dataset, search
from .test_trust_browser import start, value


def _card(dash_duo) -> str:
    return dash_duo.find_element(f"#{ids.SLC_MODEL}").text


def _column(dash_duo) -> str:
    return dash_duo.find_element(f"#{ids.SLC_COLUMN}").text


def test_slr001_undo_puts_the_slices_model_and_column_back(dash_duo, app, tmp_path, shot):
    first, second = tmp_path / "bc.csv", tmp_path / "bc_sex.csv"
    predictions(seed=1).to_csv(first, index=False)  # no column to slice by
    predictions(seed=2, groups=True).to_csv(second, index=False)  # group and sex
    start(dash_duo, app)
    d = dash_duo.driver
    load(dash_duo, first, 1)
    load(dash_duo, second, 2)
    open_tab(dash_duo, "compare")
    dash_duo.select_dcc_dropdown(f"#{ids.SLC_COLUMN}", "sex")
    dash_duo.wait_for_contains_text(f"#{ids.SLC_SOURCE}", "Groups from the column sex")
    _choose(dash_duo, "equal_opportunity")  # the removal leaves it: the link keeps it
    dash_duo.wait_for_contains_text(f"#{ids.SLC_TOTAL}", "equal opportunity")
    chosen = _card(dash_duo)
    assert chosen.endswith("(bc_sex.csv)")
    name = chosen.removesuffix(" (bc_sex.csv)")
    sex = dataset_id(app, "bc_sex.csv")
    wait_until(lambda: parse_qs(search(d).lstrip("?")).get("slc") == ["sex"],
               message="slc=sex in the link")
    wait_idle(dash_duo)

    question = remove_dataset(dash_duo, "bc_sex.csv")
    card = f"the Slices card's model {name} (sliced by sex)"
    assert card in question
    assert card in dash_duo.find_element(f"#{ids.REMOVAL}").text
    wait_until(lambda: sex not in search(d), message="no link parameter names bc_sex.csv")
    shot("slr001_removed")

    dash_duo.find_element(f"#{ids.REMOVAL} button").click()  # Undo
    dash_duo.wait_for_contains_text(f"#{ids.REMOVAL}", "bc_sex.csv is back")
    assert f"The Slices card is back on {name} (sliced by sex)." in \
        dash_duo.find_element(f"#{ids.REMOVAL}").text
    wait_until(lambda: _card(dash_duo) == chosen and _column(dash_duo) == "sex",
               message="the card's model and column back")
    dash_duo.wait_for_contains_text(f"#{ids.SLC_SOURCE}", "Groups from the column sex")
    dash_duo.wait_for_contains_text(f"#{ids.SLC_TOTAL}", "equal opportunity")
    wait_until(lambda: parse_qs(search(d).lstrip("?")).get("slc") == ["sex"]
               and parse_qs(search(d).lstrip("?")).get("slm", [""])[0].startswith(f"{sex}/"),
               message="slm and slc back in the link")
    wait_idle(dash_duo)
    shot("slr001_undone")


def test_slr002_the_card_starts_on_a_model_with_a_column_to_slice(dash_duo, app, tmp_path,
                                                                  shot):
    first, second = tmp_path / "synth.csv", tmp_path / "bc_sex.csv"
    predictions(seed=1).to_csv(first, index=False)  # no column to slice by, loaded first
    predictions(seed=2, groups=True).drop(columns="group").to_csv(second, index=False)
    start(dash_duo, app)
    load(dash_duo, first, 1)
    load(dash_duo, second, 2)
    open_tab(dash_duo, "compare")
    wait_until(lambda: _card(dash_duo).endswith("(bc_sex.csv)"),
               message="the card on a model of the file with a column (sex)")
    dash_duo.wait_for_contains_text(f"#{ids.SLC_SOURCE}", "Choose a column to slice by")
    d = dash_duo.driver
    wait_until(lambda: js_graph(d, ids.SLC_GRAPH, "gd.layout.annotations[0].text")
               == "No column chosen: choose one under Slice by, above.",
               message="the figure says to choose a column")
    wait_idle(dash_duo)
    shot("slr002_swapped_order")


def test_slr003_the_bare_address_keeps_the_priors_source(dash_duo, app, tmp_path):
    first, second = tmp_path / "bc.csv", tmp_path / "bc_sex.csv"
    predictions(seed=1).to_csv(first, index=False)
    predictions(seed=2, groups=True).to_csv(second, index=False)
    p_bc = float(predictions(seed=1)["label"].mean())
    start(dash_duo, app)
    d = dash_duo.driver
    load(dash_duo, first, 1)
    load(dash_duo, second, 2)  # the last loaded: the default source
    bc = dataset_id(app, "bc.csv")
    dash_duo.select_dcc_dropdown(f"#{ids.PRIOR_SOURCE}", f"bc.csv ({sig(p_bc)})")
    wait_until(lambda: value(dash_duo, ids.PRIOR) == display(p_bc), message="p(+) of bc.csv")
    wait_until(lambda: f"psrc={bc}" in search(d), message="psrc in the link")
    wait_idle(dash_duo)
    d.get(dash_duo.server_url + "/")  # the bare address, in the same tab
    wait_until(lambda: len(dash_duo.find_elements(f"#{ids.DATASET_LIST} li.dataset")) == 2,
               message="the tab's two datasets back")
    wait_until(lambda: f"psrc={bc}" in search(d), message="the same source in the link")
    wait_until(lambda: value(dash_duo, ids.PRIOR) == display(p_bc),
               message="the same prior as before")


def test_slr004_opening_a_saved_view_says_which_loaded_dataset_it_left_out(dash_duo, app,
                                                                           tmp_path):
    first, second, third = (tmp_path / n for n in ("bc.csv", "bc_sex.csv", "later.csv"))
    predictions(seed=1).to_csv(first, index=False)
    predictions(seed=2, groups=True).to_csv(second, index=False)
    predictions(seed=3).to_csv(third, index=False)
    start(dash_duo, app)
    load(dash_duo, first, 1)
    load(dash_duo, second, 2)
    type_into(dash_duo.find_element(f"#{ids.VIEW_NAME}"), "both")
    dash_duo.wait_for_contains_text(f"#{ids.VIEW_LIST}", "both")
    remove_dataset(dash_duo, "bc_sex.csv")
    load(dash_duo, third, 2)  # loaded now: not in the view
    dash_duo.find_element(f"#{ids.VIEW_LIST} button.link-button").click()  # the view "both"
    wait_until(lambda: "bc_sex.csv" in dash_duo.find_element(f"#{ids.DATASET_LIST}").text,
               message="the view's datasets")
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_STATUS}", "Opening this left out "
                                    "later.csv, loaded before")
    assert "later.csv" not in dash_duo.find_element(f"#{ids.DATASET_LIST}").text
