"""The page under a busy worker: 503 + Retry-After is retried with a visible countdown."""

from __future__ import annotations

from roc_dash.app import ids
from roc_dash.app.server import limits

from ..conftest import make_predictions
from .gestures import wait_until
from .test_upload_browser import upload, wait_for_legend


def test_bnd101_busy_worker_page_says_so_and_retries(dash_duo, app, tmp_path, shot,
                                                     monkeypatch):
    """While another request of the worker holds its one heavy parse, an upload's callback
    gets 503 + Retry-After: the page says "busy, retrying in N s", counts down and sends it
    again; once the parse is free the upload goes through."""
    monkeypatch.setattr(limits, "BUSY_WAIT", 0.1)
    dash_duo.driver.set_window_size(1400, 950)
    path = tmp_path / "patient.csv"
    make_predictions(300, seed=3).to_csv(path, index=False)
    dash_duo.start_server(app)
    wait_for_legend(dash_duo, lambda n: sum("(AUC" in x for x in n) >= 4)
    limits._parse_lock.acquire()  # another upload is being read in this (the only) worker
    try:
        upload(dash_duo, path)
        dash_duo.wait_for_contains_text("#update-failed", "The server is busy, retrying in")
        assert dash_duo.find_element("#update-failed").is_displayed()
        shot("bnd101_busy_notice")
    finally:
        limits._parse_lock.release()
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_STATUS}", "Loaded patient.csv")
    wait_for_legend(dash_duo, lambda n: any(x.startswith("patient (AUC") for x in n))
    assert not dash_duo.find_element("#update-failed").is_displayed()


def test_own101_the_uploading_browser_owns_a_link_only_shows(dash_duo, app, tmp_path):
    """The page's own key (localStorage) makes this browser the owner of its upload; another
    browser (another key) opening the link sees the data and its note, cannot change the
    note, and its × only takes the dataset off its page."""
    from roc_dash.app.server.auth import owner_of_key

    d = dash_duo.driver
    d.set_window_size(1400, 950)
    path = tmp_path / "owned.csv"
    make_predictions(300, seed=5).to_csv(path, index=False)
    dash_duo.start_server(app)
    wait_for_legend(dash_duo, lambda n: sum("(AUC" in x for x in n) >= 4)
    upload(dash_duo, path)
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_STATUS}", "Loaded owned.csv")
    key = d.execute_script("return localStorage.getItem('roc-dash-owner')")
    dataset = next(p.stem for p in app.store.dir.glob("*.parquet"))
    assert app.store.info(dataset).owner == owner_of_key(key)
    app.store.save_note([dataset], "the owner's note", owner=owner_of_key(key))
    # another browser: another key, the same link
    d.execute_script("localStorage.setItem('roc-dash-owner', arguments[0])", "Z" * 32)
    d.get(f"{dash_duo.server_url}/?data={dataset}")
    wait_for_legend(dash_duo, lambda n: any(x.startswith("owned (AUC") for x in n))
    wait_until(lambda: "owner's note" in (dash_duo.find_element(f"#{ids.NOTE}")
                                          .get_attribute("value") or ""),
               message="the owner's note, read-only")
    assert dash_duo.find_element(f"#{ids.NOTE}").get_attribute("readonly") is not None
    dash_duo.wait_for_contains_text(f"#{ids.NOTE_STATUS}", "Only the uploader")
    remove = dash_duo.find_element(f"#{ids.DATASET_LIST} button.remove")
    assert "only its uploader can delete it" in remove.get_attribute("title")
    remove.click()
    dash_duo.wait_for_contains_text(f"#{ids.REMOVAL}", "only its uploader can delete it")
    dash_duo.wait_for_element(f"#{ids.REMOVAL} .confirm button.danger").click()  # "Remove"
    dash_duo.wait_for_contains_text(f"#{ids.DATASET_LIST}", "Nothing loaded")
    assert (app.store.dir / f"{dataset}.parquet").exists()  # still there for its owner
    assert app.store.notes([dataset])["note"] == "the owner's note"


def test_esc101_a_model_named_like_a_link_is_text_in_the_page(dash_duo, app, tmp_path):
    """A model named ``<a href="http://x.test">m</a>``: the legend shows those characters,
    no view holds a link, and the page's own hover text escapes it too."""
    evil = '<a href="http://x.test">m</a>'
    d = dash_duo.driver
    d.set_window_size(1400, 950)
    path = tmp_path / "evil.csv"
    make_predictions(300, seed=9, model=evil).to_csv(path, index=False)
    dash_duo.start_server(app)
    wait_for_legend(dash_duo, lambda n: sum("(AUC" in x for x in n) >= 4)
    upload(dash_duo, path)
    names = wait_for_legend(dash_duo, lambda n: any(x.startswith(evil) for x in n))
    assert f"{evil} (AUC" in " ".join(names)
    links = d.execute_script(
        "return [...document.querySelectorAll('.js-plotly-plot svg a')].map(a => a.outerHTML)")
    assert links == []
    assert d.execute_script(
        "return window.dash_clientside.rocDash._plainText(arguments[0])", evil) == \
        '&lt;a href="http://x.test"&gt;m&lt;/a&gt;'
