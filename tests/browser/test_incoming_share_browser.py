"""The page when its browser's share of uploads waiting is full (429): the message is shown,
the file is not sent again, and the drop's files already sent are cancelled."""

from __future__ import annotations

from flask import request

from roc_dash.app import ids

from .gestures import wait_until
from .test_upload_browser import upload, wait_for_legend


def test_ish101_a_full_share_is_shown_not_retried_and_the_drop_cancelled(
        dash_duo, app, tmp_path, shot, monkeypatch):
    monkeypatch.setenv("ROC_DASH_MAX_INCOMING_PER_OWNER_MB", "0.01")  # 10 KiB per browser
    seen = []

    @app.server.after_request
    def _record(response):
        if request.path.endswith("/upload"):
            seen.append((request.method, response.status_code))
        return response

    rows = "".join(f"{i % 2},0.{i:04d}\n" for i in range(700))
    files = []
    for name in ("first.csv", "second.csv"):  # 6 KiB each: one fits the share, two do not
        path = tmp_path / name
        path.write_text("label,score\n" + rows[:6 * 1024 - 12])
        files.append(path)
    dash_duo.driver.set_window_size(1280, 900)
    dash_duo.start_server(app)
    wait_for_legend(dash_duo, lambda n: sum("(AUC" in x for x in n) >= 4)
    upload(dash_duo, *files)
    dash_duo.wait_for_contains_text(f"#{ids.UPLOAD_ERROR}",
                                    "ROC_DASH_MAX_INCOMING_PER_OWNER_MB")
    error = dash_duo.find_element(f"#{ids.UPLOAD_ERROR}").text
    assert "second.csv was not accepted" in error and "cancel them" in error
    assert "share of 0.01 MB" in error
    incoming = app.store.root / "incoming"
    wait_until(lambda: ("DELETE", 200) in seen and not any(incoming.iterdir()),
               message="the drop's first file cancelled")
    assert [s for m, s in seen if m == "POST"] == [200, 429]  # the refused file: not resent
    assert not dash_duo.find_element("#upload-progress").is_displayed()
    shot("ish101_share_full")
