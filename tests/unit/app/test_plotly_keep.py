"""``assets/plotly_keep.js``, run in Node on the views the app builds for the demo (kpt002).

Before each ``Plotly.react`` the script decodes plotly.py's base64 arrays once per content
(the same typed array while the content is the same), keeps the layout's template by
content, and sets ``layout.datarevision`` to a digest of the traces' data: the same for the
same data (whatever the layout), another when any data changed. The decoded arrays are
checked against the figures' own numpy arrays. Needs ``node`` (Debian's nodejs).
"""

from __future__ import annotations

import base64
import copy
import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from plotly.io.json import to_json_plotly

from roc_dash.app.analysis import AnalysisCache, data_prior, model_names
from roc_dash.app.page_state import PageState
from roc_dash.app.render import update_views
from roc_dash.app.server.store import DEMO_ID, DatasetStore
from roc_dash.app.state import ControlState

ASSET = Path(__file__).resolve().parents[3] / "roc_dash" / "assets" / "plotly_keep.js"
VIEWS = ("roc", "pr", "cost", "threshold")

#: The Node drivers' start: a window for plotly_keep.js, a Plotly.react that returns the
#: figure, the asset loaded (argv[2]).
PREAMBLE = """
const fs = require('fs');
global.window = {atob: s => Buffer.from(s, 'base64').toString('binary'), console,
  Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array,
  Uint32Array, Float32Array, Float64Array};
window.Plotly = {react: (gd, fig) => fig};
eval(fs.readFileSync(process.argv[2], 'utf8'));
"""

DRIVER = PREAMBLE + """
const input = JSON.parse(fs.readFileSync(process.argv[3], 'utf8'));
const plain = v => (v && typeof v === 'object' && typeof v.length === 'number')
  ? Array.from(v, plain) : v;
const out = {};
for (const [name, text] of Object.entries(input)) {
  const a = window.Plotly.react({}, JSON.parse(text));  // the same JSON twice, as dash
  const b = window.Plotly.react({}, JSON.parse(text));  // hands on a figure it received
  const typed = [];
  a.data.forEach((t, i) => ['x', 'y'].forEach(k => {
    if (ArrayBuffer.isView(t[k])) typed.push(t[k] === b.data[i][k]);
  }));
  out[name] = {rev: a.layout.datarevision, rev_again: b.layout.datarevision,
               typed: typed, template_kept: a.layout.template === b.layout.template,
               xy: a.data.map(t => [plain(t.x), plain(t.y)])};
}
process.stdout.write(JSON.stringify(out));
"""


def _run_node(tmp_path, given, driver_text: str = DRIVER):
    """What ``driver_text`` (a Node script given the asset and a JSON file) prints for
    ``given``, read back as JSON."""
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:  # `make test-all` installs it (node-deps)
        pytest.fail("node is not installed: `make node-deps` (Debian's nodejs) runs this test")
    driver, data = tmp_path / "driver.js", tmp_path / "given.json"
    driver.write_text(driver_text)
    data.write_text(json.dumps(given))
    done = subprocess.run([node, str(driver), str(ASSET), str(data)], capture_output=True,
                          text=True, timeout=60, check=True)
    return json.loads(done.stdout)


def _views(tmp_path, **conditions) -> dict:
    """The views the app draws for the demo (full figures), as dash sends them."""
    store = DatasetStore(tmp_path / "store")
    cache = AnalysisCache(store)
    assert model_names(cache, [DEMO_ID])
    state = {**ControlState(prior=data_prior(store, [DEMO_ID], None)).to_store(), **conditions}
    page = PageState.from_dash({"datasets": [DEMO_ID], "conditions": state})
    out = update_views(cache, page, {}, None, None, conditions_changed=False)
    return {k: json.loads(to_json_plotly(out[k])) for k in VIEWS}


def _arrays(fig: dict) -> list:
    """Each trace's x and y as numpy arrays (base64 decoded here with numpy)."""
    def one(v):
        if isinstance(v, dict) and "bdata" in v:
            a = np.frombuffer(base64.b64decode(v["bdata"]), dtype=np.dtype(v["dtype"]))
            return a.reshape([int(s) for s in str(v["shape"]).split(",")]) if v.get(
                "shape") else a
        return None if v is None else np.asarray(v, dtype=object)
    return [[one(t.get("x")), one(t.get("y"))] for t in fig["data"]]


@pytest.mark.slow  # needs node, which the quick tier does not install
def test_kpt002_views_carry_a_data_digest_that_follows_the_data_not_the_layout(tmp_path):
    base = _views(tmp_path)
    other_prior = _views(tmp_path, prior=0.4, prior_mode="manual")
    moved = {}
    for name, fig in base.items():  # a change of layout alone: title, an annotation, a range
        m = copy.deepcopy(fig)
        m["layout"]["title"] = {"text": "another title"}
        m["layout"].setdefault("annotations", []).append({"x": 0.3, "y": 0.3, "text": "★"})
        m["layout"]["xaxis"] = {**m["layout"].get("xaxis", {}), "range": [0.1, 0.6]}
        moved[name] = m
    one_value = copy.deepcopy(base["roc"])  # one trace's y changed by one value
    trace = next(t for t in one_value["data"] if isinstance(t.get("y"), list))
    trace["y"] = [*trace["y"][:-1], 0.5 if trace["y"][-1] != 0.5 else 0.25]
    figures = {**{f"base {k}": json.dumps(v) for k, v in base.items()},
               **{f"moved {k}": json.dumps(v) for k, v in moved.items()},
               **{f"prior {k}": json.dumps(v) for k, v in other_prior.items()},
               "one value roc": json.dumps(one_value)}
    got = _run_node(tmp_path, figures)
    for name in VIEWS:
        b = got[f"base {name}"]
        assert isinstance(b["rev"], str) and b["rev"], name  # every view carries one
        assert b["rev"] == b["rev_again"], name  # the same data twice: the same digest
        assert b["typed"] and all(b["typed"]), name  # ... and the same decoded arrays
        assert b["template_kept"], name
        assert got[f"moved {name}"]["rev"] == b["rev"], name  # layout only: unchanged
        # the arrays handed to plotly are the figure's (decoded independently with numpy)
        for (x, y), (jx, jy) in zip(_arrays(base[name]), b["xy"], strict=True):
            for ours, theirs in ((x, jx), (y, jy)):
                if ours is not None and ours.dtype != object:
                    np.testing.assert_array_equal(np.asarray(theirs, dtype=float), ours)
    # data changed: the PR and threshold views' curves under another prior, one ROC value
    assert got["prior pr"]["rev"] != got["base pr"]["rev"]
    assert got["prior threshold"]["rev"] != got["base threshold"]["rev"]
    assert got["one value roc"]["rev"] != got["base roc"]["rev"]


READS_DRIVER = """
const fs = require('fs');
global.window = {atob: s => Buffer.from(s, 'base64').toString('binary'), console};
window.Plotly = {react: (gd, fig) => fig};
eval(fs.readFileSync(process.argv[2], 'utf8'));
const keep = window.rocDashPlotlyKeep;
const out = JSON.parse(fs.readFileSync(process.argv[3], 'utf8')).map(([data, layout]) => {
  const text = JSON.stringify(data), key = keep.digest(text);
  const template = layout.template ? JSON.stringify(layout.template) : undefined;
  return [0, 1].map(() => keep.readsLayoutMeta(data, text, key, layout, template));
});
process.stdout.write(JSON.stringify(out));
"""


def _reads_layout_meta(data: list, layout: dict) -> bool:
    """Independent: a trace without its own meta whose texts hold ``%{meta``, or
    ``layout.meta`` anywhere, or ``%{meta`` in the layout outside its meta."""
    traces = any("meta" not in t and "%{meta" in json.dumps(t) for t in data)
    rest = json.dumps({k: v for k, v in layout.items() if k != "meta"})
    return traces or "layout.meta" in json.dumps(data) or "%{meta" in rest \
        or "layout.meta" in rest


@pytest.mark.slow  # needs node, which the quick tier does not install
def test_kpt004_reads_layout_meta_cached_per_data_as_plotly_reads_it(tmp_path):
    """Whether a view's texts read layout.meta (plotly_keep.js keeps the drawn meta only
    when none does), read once per data content and the template's text reused: the same
    answer on a second draw, and the answer of a direct reading for the demo's views and
    variants (a trace with or without its own meta, a layout text, the template)."""
    views = _views(tmp_path)
    cases = []
    for fig in views.values():
        data, layout = fig["data"], {**fig["layout"], "meta": {"slope": 1}}
        bare = [{k: v for k, v in t.items() if k != "meta"} for t in data]
        own = [{**t, "meta": ["m"]} for t in data]
        cases += [(data, layout), (bare, layout), (own, layout),
                  (own, {**layout, "annotations": [{"text": "%{meta.slope}"}]}),
                  (own, {**layout, "template": {"layout": {"title": {"text": "%{meta}"}}}})]
    cases.append(([{"x": [1], "hovertemplate": "%{meta}"}], {"meta": 1}))
    cases.append(([{"x": [1], "hovertemplate": "%{meta}", "meta": 2}], {"meta": 1}))
    got = _run_node(tmp_path, cases, READS_DRIVER)
    expected = [_reads_layout_meta(d, lay) for d, lay in cases]
    assert [first for first, _ in got] == expected
    assert [again for _, again in got] == expected
    assert True in expected and False in expected


SAME_DATA_DRIVER = PREAMBLE + """
const stringify = JSON.stringify, out = {};
for (const [name, text] of Object.entries(JSON.parse(fs.readFileSync(process.argv[3], 'utf8')))) {
  const fig = JSON.parse(text), data = fig.data;
  let made = 0;
  JSON.stringify = (v, ...rest) => { if (v === data) { made += 1; } return stringify(v, ...rest); };
  const a = window.Plotly.react({}, fig);
  // a patch of the layout alone, as dash applies it: the same data array, a new layout
  const b = window.Plotly.react({}, {data: data, layout: {...fig.layout, title: {text: 'x'}}});
  JSON.stringify = stringify;
  const changed = JSON.parse(text);  // another data array with one value changed
  const t = changed.data.find(t => Array.isArray(t.y) && t.y.length);
  t.y[0] = t.y[0] === 0.123 ? 0.456 : 0.123;
  const c = window.Plotly.react({}, changed);
  out[name] = {made: made, same: a.layout.datarevision === b.layout.datarevision,
               changed: c.layout.datarevision !== a.layout.datarevision};
}
process.stdout.write(stringify(out));
"""


@pytest.mark.slow  # needs node, which the quick tier does not install
def test_kpt005_same_data_array_not_stringified_again(tmp_path):
    """A cost or prior click's patch of a view's layout alone hands dcc.Graph the same
    ``data`` array: its text and digest (10-100 KB a view) are made once, not on each draw;
    another data array, with a value changed, gets another digest."""
    views = _views(tmp_path)
    got = _run_node(tmp_path, {k: json.dumps(v) for k, v in views.items()}, SAME_DATA_DRIVER)
    changed = [name for name, g in got.items() if g["changed"]]
    for name, g in got.items():
        assert g["made"] == 1 and g["same"], (name, g)
    assert changed, got  # at least one view has a plain list of y values to change
