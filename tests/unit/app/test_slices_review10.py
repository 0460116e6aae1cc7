"""review10's findings on the Slices card and a dataset's removal, below the browser: the
table's weighted counts headed as such (srv001), the removal question's grammar and the
Monitor window it names (srv002), the Slices card's choice kept by the removal's record and
put back by *Undo* (srv003)."""

from __future__ import annotations

import numpy as np

from roc_dash.app.components import plain_text
from roc_dash.app.features.slices import slices_outputs
from roc_dash.app.removal import confirm_box, remove, slices_back, undo
from roc_dash.io import load_predictions
from tools.slices_example import loan_predictions

from .test_removal_settings import OWNER, three  # noqa: F401 - the fixture

STATE = {"cost_fp": 1.0, "cost_fn": 5.0, "prior": 0.2}


def _cells(table) -> tuple[list[str], list[list[str]]]:
    head = [plain_text(th).replace("\xad", "") for th in table.children[-2].children.children]
    rows = [[plain_text(td) for td in tr.children] for tr in table.children[-1].children]
    return head, rows


def test_srv001_weighted_rows_the_table_heads_every_count_by_what_it_counts():
    frame = loan_predictions(n=1500, seed=3)
    frame["weight"] = np.where(np.random.default_rng(1).random(len(frame)) < 0.2, 2.0, 1.0)
    table = load_predictions([("loans.csv", frame.to_csv(index=False).encode())]).table
    out = slices_outputs(table, "gradient boosting", STATE, "group_optima")
    head, rows = _cells(out[4])
    assert head[:5] == ["group", "rows", "weighted cases", "weighted positives",
                        "prevalence (weighted)"]
    assert "Weighted:" in plain_text(out[4])
    # the oracle: pandas on the file's own rows
    own = frame[frame["model"] == "gradient boosting"]
    for row in rows:
        part = own[own["group"] == row[0].removesuffix(" ⚠ small")]
        w, pos = part["weight"], part["weight"] * part["label"]
        assert row[1:5] == [f"{len(part):,}", f"{w.sum():,.0f}", f"{pos.sum():,.0f}",
                            f"{pos.sum() / w.sum():.1%}"]
    # unweighted: rows, positives, prevalence as before
    plain = load_predictions([("loans.csv", frame.drop(columns="weight").to_csv(
        index=False).encode())]).table
    head, _ = _cells(slices_outputs(plain, "gradient boosting", STATE, "group_optima")[4])
    assert head[:4] == ["group", "rows", "positives", "prevalence"]


def _one_model(store, name="solo.csv"):
    from roc_dash.app.features.data import apply_upload
    from tests.conftest import make_predictions

    raw = make_predictions(120, seed=3, model="lr").to_csv(index=False).encode()
    return apply_upload(store, [(name, raw)], []).dataset_ids[0]


def test_srv002_the_question_says_leaves_and_names_the_monitor_window(three):  # noqa: F811
    store, a, b, c = three
    solo = _one_model(store)
    said = plain_text(confirm_box(store, [a, solo], solo, [], OWNER))
    assert "its model lr leaves the page" in said
    said = plain_text(confirm_box(store, [a, b], b, [], OWNER, {"windows": [a, b]}))
    assert "its models rf, lr and its place among the Monitor's windows leave the page" in said
    new, record, box = remove(store, [a, b], b, [], OWNER, {"windows": [a, b]})
    assert "its place among the Monitor's windows" in plain_text(box)


def test_srv003_undo_puts_the_slices_cards_model_and_columns_back(three):  # noqa: F811
    store, a, b, c = three
    slices = {"model": f"{b}/lr", "column": "sex", "cross": "region"}
    settings = {"source": None, "windows": [], "slices": slices}
    card = "the Slices card's model lr (sliced by sex × region)"
    assert card in plain_text(confirm_box(store, [a, b, c], b, [], OWNER, settings))
    new, record, box = remove(store, [a, b, c], b, [], OWNER, settings)
    assert card in plain_text(box) and record["slices"] == slices
    assert slices_back(record) is None  # removed: the card follows the datasets left
    back, undone, box = undo(store, new, record, [], record["after"])
    assert back == [a, b, c]
    assert slices_back(undone) == slices
    assert "The Slices card is back on lr (sliced by sex × region)." in plain_text(box)
    # another dataset's model on the card: the removal leaves it, Undo says nothing of it
    _, record, box = remove(store, back, c, [], OWNER, settings)
    assert "Slices" not in plain_text(box) and "slices" not in record


def test_srv004_an_expired_links_banner_names_the_slices_columns(three):  # noqa: F811
    from roc_dash.app.link_report import unrestored

    store, a, b, c = three
    link = f"?v=2&data={a},{b}&slm={b}/rf&slc=sex&slx=region"
    assert unrestored(store, link) == []
    store.delete(b, why="expired")
    assert "the Slices card's model rf of b.csv (sliced by sex × region)" in \
        unrestored(store, link)
