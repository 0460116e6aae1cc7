"""Test helper: CSV frames uploaded as the page uploads them, one dataset each."""

from __future__ import annotations


def upload_frames(store, frames: dict, monkeypatch) -> list[str]:
    """The dataset ids of ``frames`` (``{file name: DataFrame}``) uploaded in order into
    ``store`` through :func:`roc_dash.app.features.data.apply_upload`, by one owner."""
    import roc_dash.app.features.data as data
    from roc_dash.app.features.data import apply_upload

    monkeypatch.setattr(data, "current_owner", lambda: "key:ana")
    ids_: list[str] = []
    for name, frame in frames.items():
        ids_ = apply_upload(store, [(name, frame.to_csv(index=False).encode())], ids_
                            ).dataset_ids
    return ids_
