"""Item 4 of issue 14 against the real gunicorn: a link grants viewing, never deletion; notes
and views are their owner's; the user header is believed only from the trusted proxy; /health
says ok / not ok to strangers."""

from __future__ import annotations

import json
import secrets

from .conftest import Page, unharmed


def _csv(seed: int) -> bytes:
    rows = "".join(f"{i % 2},{((i * 7919 + seed) % 1000) / 1000:.3f}\n" for i in range(400))
    return ("label,score\n" + rows).encode()


def test_hst010_without_sign_in_a_link_never_deletes(open_server):
    s = open_server
    ana = Page(s, secrets.token_urlsafe(24))
    ben, stranger = Page(s, secrets.token_urlsafe(24)), Page(s)
    with unharmed(s):
        ana.upload("anas.csv", _csv(1))
        dataset = ana.datasets[-1]
        ana.notes("note.n_blur", **{"note.n_blur": 1, "note.value": "Ana decided"})
        for other in (ben, stranger):  # the link, then ×
            other.datasets = [dataset]
            assert other.notes()["note"]["value"] == "Ana decided"
            out = other.notes("note.n_blur", **{"note.n_blur": 1, "note.value": "defaced"})
            assert "Only the uploader" in out["note-status"]["children"]
            other.remove(dataset)
            assert other.datasets == []
        ana_view = ana.notes()
        assert ana_view["note"]["value"] == "Ana decided"  # nothing of Ana's is lost
        assert ana_view["note"]["readOnly"] is False
        assert (s.data_dir / "datasets" / f"{dataset}.parquet").exists()
        # the demo's note: one per browser, none global; a request without a key writes none
        stranger.datasets = ["demo"]
        out = stranger.notes("note.n_blur", **{"note.n_blur": 1, "note.value": "global?"})
        assert "Only the uploader" in out["note-status"]["children"]
        health = s.request("GET", "/health")
        assert health.status == 200 and health.json() == {"status": "ok"}
        ana.remove(dataset)  # the owner's × deletes, once the undo window has passed
        pending = s.data_dir / "removals" / f"{dataset}.json"
        assert pending.exists() and (s.data_dir / "datasets" / f"{dataset}.parquet").exists()
        pending.write_text(json.dumps({"due": 0, "user": json.loads(pending.read_text())
                                       ["user"]}))  # as if the window had passed
        ana.notes()  # any worker's next request of the datasets callback deletes it
        ana.upload("other.csv", _csv(3))
        assert not (s.data_dir / "datasets" / f"{dataset}.parquet").exists()


def test_hst011_sign_in_header_only_from_the_proxy(signed_in_server):
    s = signed_in_server
    direct = s.raw("GET / HTTP/1.1\r\nHost: x\r\nX-Forwarded-User: ana\r\nConnection: close",
                   [], source="127.0.0.2", deadline=30)
    assert direct.status == 401 and "Sign in first" in direct.json()["error"]
    health = s.raw("GET /health HTTP/1.1\r\nHost: x\r\nX-Forwarded-User: ops\r\n"
                   "Connection: close", [], source="127.0.0.2", deadline=30)
    assert health.status == 200 and health.json() == {"status": "ok"}
    assert s.request("GET", "/", headers={"X-Forwarded-User": "ana"}).status == 200
    details = s.request("GET", "/health", headers={"X-Forwarded-User": "ops"}).json()
    assert {"used_mb", "quota_mb", "datasets"} <= set(details)
    ana = Page(s, headers={"X-Forwarded-User": "ana"})
    ben = Page(s, headers={"X-Forwarded-User": "ben"})
    with unharmed(s):
        ana.upload("anas.csv", _csv(2))
        dataset = ana.datasets[-1]
        ana.notes("note.n_blur", **{"note.n_blur": 1, "note.value": "Ana's note"})
        ana.notes("save-view.n_clicks", **{"save-view.n_clicks": 1, "view-name.value": "v1",
                                           "url.search": "?cfn=3"})
        ben.datasets = [dataset]
        out = ben.notes("note.n_blur", **{"note.n_blur": 1, "note.value": "Ben's overwrite"})
        assert "Only the uploader" in out["note-status"]["children"]
        from roc_dash.app import ids
        from tools.dash_requests import wildcard_id

        ben.notes(wildcard_id(ids.DELETE_VIEW, "v1") + ".n_clicks",
                  **{"delete-view.n_clicks": [("v1", 1)]})
        ben.remove(dataset)
        kept = ana.notes()
        assert kept["note"]["value"] == "Ana's note"
        assert [v["name"] for v in kept["views-data"]["data"]] == ["v1"]
        assert (s.data_dir / "datasets" / f"{dataset}.parquet").exists()
