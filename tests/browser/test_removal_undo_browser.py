"""What a dataset's removal moves and *Undo* puts back, by real clicks in headless Chromium
(rmu001): the deployment prior's source (and so the prior), the dataset's place among the
Monitor's windows (the link's ``mwin=``), the pins in their letters' order, the dataset's
models ticked as they were; then, on the
same page, the capacity table saying, in the summary strip's words, that no threshold meets a
capacity and a floor together."""

from __future__ import annotations

from roc_dash.app import ids
from roc_dash.app.state import display
from roc_dash.text.rounding import sig

from .gestures import open_tab, type_into, wait_idle, wait_until
from .test_monitor_browser import _tick
from .test_state_browser import (
    dataset_id,
    pins_in_link,
    predictions,
    remove_dataset,
    search,
    summary,
    two_files_pinned,
)
from .test_trust_browser import value


def _prevalence(seed: int, groups: bool = False) -> float:
    return float(predictions(seed=seed, groups=groups)["label"].mean())  # the files' own


def _ticked(driver) -> dict[str, bool]:
    """bc_sex.csv's LogReg and RandomForest in the model list: ticked or not."""
    return driver.execute_script("""
      const out = {};
      document.querySelectorAll('#' + arguments[0] + ' label').forEach(l => {
        const name = l.textContent.trim();
        if (name === 'LogReg (bc_sex.csv)' || name === 'RandomForest (bc_sex.csv)') {
          out[name] = l.querySelector('input').checked; }
      });
      return out;""", ids.MODELS)


def test_rmu001_undo_puts_back_the_prior_source_window_and_pin_order(dash_duo, app, tmp_path,
                                                                     shot):
    two_files_pinned(dash_duo, app, tmp_path)  # pin A on bc_sex.csv, B on bc.csv
    d = dash_duo.driver
    sex = dataset_id(app, "bc_sex.csv")
    p_bc, p_sex = _prevalence(1), _prevalence(2, groups=True)
    # the prior follows bc_sex.csv's prevalence, and bc_sex.csv is a Monitor window
    dash_duo.select_dcc_dropdown(f"#{ids.PRIOR_SOURCE}", f"bc_sex.csv ({sig(p_sex)})")
    wait_until(lambda: value(dash_duo, ids.PRIOR) == display(p_sex), message="p(+) of bc_sex")
    open_tab(dash_duo, "monitor")
    _tick(dash_duo, ids.MON_WINDOWS, "bc_sex.csv")
    wait_until(lambda: f"mwin={sex}" in search(d), message="the window in the link")
    open_tab(dash_duo, "decide")
    # one of bc_sex.csv's models unticked before the removal: Undo keeps it unticked
    _tick(dash_duo, ids.MODELS, "RandomForest (bc_sex.csv)")
    wait_until(lambda: _ticked(d) == {"LogReg (bc_sex.csv)": True, "RandomForest (bc_sex.csv)":
                                      False}, message="RandomForest (bc_sex.csv) unticked")
    wait_idle(dash_duo)

    remove_dataset(dash_duo, "bc_sex.csv")
    said = dash_duo.find_element(f"#{ids.REMOVAL}").text
    assert "The deployment prior is now the prevalence of bc.csv." in said
    wait_until(lambda: value(dash_duo, ids.PRIOR) == display(p_bc), message="p(+) of bc.csv")
    wait_until(lambda: sex not in search(d), message="no link parameter names bc_sex.csv")
    shot("rmu001_removed")

    dash_duo.find_element(f"#{ids.REMOVAL} button").click()  # Undo
    wait_until(lambda: "A: LogReg (bc_sex.csv) at score ≥" in summary(dash_duo),
               message="pin A back")
    wait_until(lambda: value(dash_duo, ids.PRIOR) == display(p_sex),
               message="the prior back on bc_sex.csv's prevalence")
    said = dash_duo.find_element(f"#{ids.REMOVAL}").text
    assert "The deployment prior is its prevalence again" in said
    assert "It is a window of the Monitor tab again." in said
    wait_until(lambda: _ticked(d) == {"LogReg (bc_sex.csv)": True, "RandomForest (bc_sex.csv)":
                                      False}, message="bc_sex.csv's models ticked as before")
    wait_until(lambda: [p[0] for p in pins_in_link(d)] == ["A", "B"], message="A before B")
    pinned = summary(dash_duo).split("Pinned", 1)[-1]
    assert pinned.index("A: ") < pinned.index("B: ")
    wait_until(lambda: f"mwin={sex}" in search(d) and f"psrc={sex}" in search(d),
               message="the window and the source back in the link")
    wait_idle(dash_duo)
    shot("rmu001_undone")

    # a capacity of 5% cannot reach a recall of 0.8 at a prior above 6%: flagged ≥ p·TPR
    assert p_sex > 0.05 / 0.8
    type_into(dash_duo.find_element(f"#{ids.DCT_CAPACITY}"), "5%")
    type_into(dash_duo.find_element(f"#{ids.DCT_FLOORS}"), "recall >= 0.8")
    words = "No threshold meets the constraints: "
    wait_until(lambda: words in dash_duo.find_element(f"#{ids.DCT_SUMMARY}").text,
               message="the table says none meets both")
    wait_until(lambda: words in summary(dash_duo), message="the strip says it")
    table = dash_duo.find_element(f"#{ids.DCT_SUMMARY} .dct-unmet").text
    assert table in summary(dash_duo)  # the same words
    dash_duo.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})",
                                   dash_duo.find_element(f"#{ids.DCT_SUMMARY}"))
    wait_idle(dash_duo)
    shot("rmu001_capacity_table_unmet")
