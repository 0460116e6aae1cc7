"""Ownership (issue 14 item 4): an upload has an owner; a link grants viewing, never deletion;
notes and saved views are written by their owner only; the user header is believed only from
trusted proxies; /health tells strangers ok / not ok and nothing more.

Through Flask's test client with callback requests as the page sends them."""

from __future__ import annotations

import secrets

import pytest

from roc_dash.app import ids
from roc_dash.app.server.auth import OWNER_HEADER, owner_of_key
from roc_dash.app.server.store import DEMO_ID, DatasetNotFound, NotAllowed
from tools.dash_requests import callback_body, callback_specs, wildcard_id

CALLBACK = "/_dash-update-component"
CSV = b"label,score\n" + b"".join(f"{i % 2},{(i * 37 % 100) / 100:.2f}\n".encode()
                                  for i in range(60))


class Browser:
    """One browser: its own key (as the page keeps in localStorage), its page's datasets."""

    def __init__(self, app, key: str | None = None, headers: dict | None = None):
        self.app, self.client = app, app.server.test_client()
        self.specs = callback_specs(app)
        self.headers = dict(headers or {})
        if key is not None:
            self.headers[OWNER_HEADER] = key
        self.datasets = [DEMO_ID]
        self.client.get("/", headers=self.headers)

    def call(self, first_output, values, changed):
        body = callback_body(self.specs, first_output, values, changed)
        r = self.client.post(CALLBACK, json=body, headers=self.headers)
        assert r.status_code in (200, 204), r.get_data(as_text=True)[:500]
        return r.get_json()["response"] if r.status_code == 200 else {}

    def upload(self, name="mine.csv", data=None) -> str:
        data = data if data is not None else CSV + f"1,0.{secrets.randbelow(10**6):06d}\n".encode()
        batch = secrets.token_urlsafe(24)
        r = self.client.post(f"/upload?batch={batch}&index=0&name={name}", data=data,
                             headers=self.headers)
        assert r.status_code == 200
        out = self.call("datasets.data", {"streamed-upload.data": {"batch": batch, "stamp": 1},
                                          "datasets.data": self.datasets},
                        ["streamed-upload.data"])
        self.datasets = out["datasets"]["data"]
        return self.datasets[-1]

    def remove(self, dataset_id):
        """The dataset's × (the page asks first), then *Remove*."""
        out = self.call("datasets.data", {"datasets.data": self.datasets,
                                          "remove-request.data": {"index": dataset_id,
                                                                  "clicks": 1}},
                        ["remove-request.data"])
        assert "Remove" in str(out["removal"]["children"]) and "datasets" not in out
        yes = wildcard_id(ids.REMOVE_YES, dataset_id)
        out = self.call("datasets.data", {"datasets.data": self.datasets,
                                          f"{ids.REMOVE_YES}.n_clicks": [(dataset_id, 1)]},
                        [f"{yes}.n_clicks"])
        self.datasets = out["datasets"]["data"]

    def notes(self, trigger="datasets.data", **values):
        base = {"datasets.data": self.datasets}
        base.update(values)
        return self.call("view-list.children", base, [trigger])


def test_own001_a_link_grants_viewing_never_deletion(app):
    ana, ben, nobody = Browser(app, "A" * 32), Browser(app, "B" * 32), Browser(app)
    dataset = ana.upload()
    info = app.store.info(dataset)
    assert info.owner == owner_of_key("A" * 32) and "A" * 32 not in info.owner  # hashed
    for other in (ben, nobody):  # they open Ana's link, then press ×
        other.datasets = [dataset]
        other.remove(dataset)
        assert other.datasets == []  # off their page ...
        assert app.store.info(dataset).owner == info.owner  # ... still on the server
        assert (app.store.dir / f"{dataset}.parquet").exists()
    ana.remove(dataset)  # the owner's × deletes it, once the removal can no longer be undone
    assert ana.datasets == []
    assert app.store.removal_due(dataset) is not None and app.store.info(dataset)
    app.store.run_due_removals(now=app.store.removal_due(dataset) + 1)
    with pytest.raises(DatasetNotFound):
        app.store.info(dataset)
    # the page says what × does, per dataset
    ben.datasets = [ben.upload("bens.csv"), ana.upload("anas.csv")]
    out = ben.call("dataset-list.children", {"datasets.data": ben.datasets}, ["datasets.data"])
    titles = [b["props"]["title"] for b in _find(out["dataset-list"]["children"], "Button")]
    assert "deleted from the server" in titles[0] and "only its uploader" in titles[1]


def _find(tree, kind):
    """The components of type ``kind`` in a layout as Dash sends it (JSON)."""
    if isinstance(tree, list):
        for item in tree:
            yield from _find(item, kind)
    elif isinstance(tree, dict):
        if tree.get("type") == kind:
            yield tree
        for value in (tree.get("props") or {}).values():
            yield from _find(value, kind)


def test_own002_notes_and_views_are_written_by_their_owner_only(app):
    ana, ben = Browser(app, "A" * 32), Browser(app, "B" * 32)
    ana.datasets = [ana.upload()]
    out = ana.notes("note.n_blur", **{"note.n_blur": 1, "note.value": "Ana's decision"})
    assert out["note-status"]["children"] == "Note saved."
    assert out["note"]["readOnly"] is False
    ana.notes("save-view.n_clicks", **{"save-view.n_clicks": 1, "view-name.value": "cheap",
                                       "url.search": "?cfn=2"})
    # Ben opens Ana's link: he reads her note and views, cannot change them
    ben.datasets = list(ana.datasets)
    out = ben.notes()
    assert out["note"]["value"] == "Ana's decision"
    assert [v["name"] for v in out["views-data"]["data"]] == ["cheap"]
    assert out["note"]["readOnly"] is True and out["save-view"]["disabled"] is True
    assert "Only the uploader" in out["note-status"]["children"]
    assert not list(_find(out["view-list"]["children"], "Button"))[1:]  # no × on views
    out = ben.notes("note.n_blur", **{"note.n_blur": 1, "note.value": "Ben was here"})
    assert "Only the uploader" in out["note-status"]["children"]
    assert out["note"]["value"] == "Ana's decision"  # his text is replaced by hers
    ben.notes(wildcard_id(ids.DELETE_VIEW, "cheap") + ".n_clicks",
              **{"delete-view.n_clicks": [("cheap", 1)]})
    ben.notes("save-view.n_clicks", **{"save-view.n_clicks": 1, "view-name.value": "cheap",
                                       "url.search": "?cfn=99"})
    kept = app.store.notes(ana.datasets)
    assert kept["note"] == "Ana's decision"
    assert [(v["name"], v["query"]) for v in kept["views"]] == [("cheap", "?cfn=2")]
    # with a dataset of his own beside hers, Ben keeps notes of his own (another set)
    ben.datasets = [*ana.datasets, ben.upload("bens.csv")]
    out = ben.notes("note.n_blur", **{"note.n_blur": 1, "note.value": "Ben's comparison"})
    assert out["note-status"]["children"] == "Note saved."
    assert app.store.notes(ana.datasets)["note"] == "Ana's decision"


def test_own003_nobody_writes_a_global_note_on_the_demo(app):
    ana, ben, nobody = Browser(app, "A" * 32), Browser(app, "B" * 32), Browser(app)
    out = ana.notes("note.n_blur", **{"note.n_blur": 1, "note.value": "my demo note"})
    assert out["note-status"]["children"] == "Note saved."
    assert ben.notes()["note"]["value"] == ""  # Ana's note on the demo is hers
    out = nobody.notes("note.n_blur", **{"note.n_blur": 1, "note.value": "defaced"})
    assert "Only the uploader" in out["note-status"]["children"]
    assert out["note"]["readOnly"] is True
    assert ana.notes()["note"]["value"] == "my demo note"
    assert app.store.notes([DEMO_ID]) == {"note": "", "views": []}  # no global one


def test_own004_notes_only_for_datasets_the_server_holds(app):
    store, me = app.store, "key:me"
    ghost = "G" * 32
    for write in (lambda: store.save_note([ghost], "x", owner=me),
                  lambda: store.save_view([DEMO_ID, ghost], "v", "?", owner=me)):
        with pytest.raises(DatasetNotFound):
            write()
    assert not list((store.root / "views").glob("*.json"))
    with pytest.raises(NotAllowed):
        store.save_note([DEMO_ID], "x", owner=None)


def test_own005_user_header_only_from_trusted_proxies(app, monkeypatch):
    monkeypatch.setenv("ROC_DASH_USER_HEADER", "X-Forwarded-User")
    client = app.server.test_client()

    def status(addr, **headers):
        return client.get("/", headers=headers, environ_base={"REMOTE_ADDR": addr}).status_code

    ana = {"X-Forwarded-User": "ana"}
    assert status("127.0.0.1", **ana) == 200  # default: loopback (a proxy on the same host)
    assert status("::1", **ana) == 200
    assert status("203.0.113.9", **ana) == 401  # a client reaching the app directly
    assert status("127.0.0.1") == 401
    monkeypatch.setenv("ROC_DASH_TRUSTED_PROXIES", "10.0.0.0/8, 192.0.2.7")
    assert status("10.1.2.3", **ana) == 200 and status("192.0.2.7", **ana) == 200
    assert status("::ffff:10.1.2.3", **ana) == 200
    assert status("127.0.0.1", **ana) == 401 and status("192.0.2.8", **ana) == 401
    monkeypatch.setenv("ROC_DASH_TRUSTED_PROXIES", "not an address")
    assert status("127.0.0.1", **ana) == 401
    # an upload belongs to the believed user
    monkeypatch.setenv("ROC_DASH_TRUSTED_PROXIES", "127.0.0.1")
    user = Browser(app, headers=ana)
    dataset = user.upload()
    assert app.store.info(dataset).owner == "ana"


def test_own006_health_tells_strangers_ok_or_not_and_nothing_more(app, monkeypatch):
    client = app.server.test_client()
    assert client.get("/health").get_json() == {"status": "ok"}
    monkeypatch.setenv("ROC_DASH_USER_HEADER", "X-Forwarded-User")
    forged = client.get("/health", headers={"X-Forwarded-User": "ops"},
                        environ_base={"REMOTE_ADDR": "203.0.113.9"})
    assert forged.status_code == 200 and forged.get_json() == {"status": "ok"}
    signed_in = client.get("/health", headers={"X-Forwarded-User": "ops"}).get_json()
    assert {"used_mb", "quota_mb", "datasets", "disk_free_mb"} <= set(signed_in)
