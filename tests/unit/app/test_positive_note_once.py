"""review8 item 5f: once the Positive label box's value (typed for an earlier file) has been
said not to apply to a drop, later drops read as usual do not repeat it."""

import numpy as np

from roc_dash.app.features.data import apply_upload, upload_with_label
from tests.conftest import make_predictions


def _csv(frame):
    return frame.to_csv(index=False).encode()


def test_pln001_the_note_is_said_once_not_with_every_later_upload(store):
    frame = make_predictions(60, seed=5)
    frame["label"] = np.where(frame["label"] == 1, "malignant", "benign")
    first = apply_upload(store, [("malben.csv", _csv(frame))], [], positive="malignant")
    assert first.error == ""
    ids_ = first.dataset_ids
    notes = []
    for k in range(3):
        plain = make_predictions(60, seed=10 + k, model=f"m{k}")
        out = upload_with_label(store, [(f"p{k}.csv", _csv(plain))], ids_, "malignant")
        assert out.error == "" and f"Loaded p{k}.csv" in out.status
        notes.append("does not apply" in out.status)
        ids_ = out.dataset_ids
    assert notes == [True, False, False]
    # a file of the box's labels again, then a 0/1 file: said again (a new switch)
    again = upload_with_label(store, [("mb2.csv", _csv(frame.assign(model="mb2")))], ids_,
                              "malignant")
    assert again.error == "" and "does not apply" not in again.status
    last = upload_with_label(store, [("p9.csv", _csv(make_predictions(60, seed=19,
                                                                       model="m9")))],
                             again.dataset_ids, "malignant")
    assert "does not apply" in last.status
