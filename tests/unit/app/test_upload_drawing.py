"""The status after an upload says the views are being drawn until they are (review9: a
10^6-row upload said "Loaded …" while the views were recomputed for ~5 s, the strip only
dimmed): :func:`roc_dash.app.features.data.drawing_status` and the browser's
:data:`~roc_dash.app.features.data.VIEWS_DRAWN` (in node) that takes the words out."""

from __future__ import annotations

import shutil

import pytest

from roc_dash.app.features.data import (
    DRAWING,
    VIEWS_DRAWN,
    UploadOutcome,
    apply_upload,
    drawing_status,
)
from roc_dash.app.server.store import DEMO_ID, DatasetStore
from tests.node_cases import run_cases


def _upload(tmp_path, name="model.csv", rows=40):
    lines = ["label,score"] + [f"{i % 2},{(i * 7 % rows) / rows}" for i in range(rows)]
    return apply_upload(DatasetStore(tmp_path), [(name, ("\n".join(lines) + "\n").encode())],
                        [DEMO_ID])


def test_vwd001_an_upload_says_it_draws_the_views_after_its_first_sentence(tmp_path):
    out = _upload(tmp_path)
    assert out.lead == "Loaded model.csv: 40 rows, model(s) model.", out
    said = drawing_status(out)
    assert said.startswith(out.lead + " " + DRAWING), said
    assert said.replace(" " + DRAWING, "") == out.status  # what stays once drawn
    assert "replaces the demo" in said  # the rest follows


def test_vwd002_other_outcomes_say_no_drawing():
    for out in (UploadOutcome(None, "Already loaded: a.csv. Nothing was changed.", ""),
                UploadOutcome(None, "", "a.csv: column 'score' …")):
        assert drawing_status(out) == out.status


DRIVER = """
const fs = require("fs");
globalThis.window = {dash_clientside: {no_update: "NO_UPDATE"}};
const f = eval("(" + fs.readFileSync(process.argv[2], "utf8") + ")");
const cases = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
console.log(JSON.stringify(cases.map(c => f(c[0], c[1], c[2]))));
"""


@pytest.mark.slow  # needs node, which the quick tier does not install
def test_vwd003_the_browser_takes_the_words_out_once_the_views_show_the_dataset(tmp_path):
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:  # `make test-all` installs it (node-deps)
        pytest.fail("node is not installed: `make node-deps` (Debian's nodejs) runs this test")
    said = f"Loaded b.csv: 9 rows, model(s) m. {DRAWING} It replaces the demo data."
    final = "Loaded b.csv: 9 rows, model(s) m. It replaces the demo data."
    cases = [
        [{"keys": ["a/m"]}, said, ["a", "b"]],  # an earlier render answering: still drawing
        [{"keys": ["a/m", "b/m"]}, said, ["a", "b"]],  # the new dataset drawn
        [None, said, ["a", "b"]],  # nothing to draw (the banner says why)
        [{"keys": [f"a/{i}" for i in range(50)]}, said, ["a", "b"]],  # the most it shows
        [{"keys": ["b/m"]}, final, ["b"]],  # a click later: nothing to take out
        [{"keys": ["b/m"]}, ["a component"], ["b"]],
    ]
    assert run_cases(tmp_path, node, VIEWS_DRAWN, DRIVER, cases) == ["NO_UPDATE", final, final, final, "NO_UPDATE",
                                       "NO_UPDATE"]
