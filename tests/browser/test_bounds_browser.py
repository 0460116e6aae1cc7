"""The page under a busy worker: 503 + Retry-After is retried with a visible countdown."""

from __future__ import annotations

from roc_dash.app import ids, limits

from ..conftest import make_predictions
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
