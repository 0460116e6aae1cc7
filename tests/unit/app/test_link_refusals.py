"""A link's values the page does not use are said, once, with what it uses instead
(lrf001-lrf006; stranger review 11, item 7: ``prior=abc``, ``cfp=-1``, ``n=abc``, ``avg=foo``,
``level=2``, ``tab=zzz``, ``class=zzz``, ``mtime=nocol``, ``mevery=fortnight`` were dropped
without a word)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from roc_dash.app.analysis import loaded_infos
from roc_dash.app.components import missing_banner
from roc_dash.app.link_report import link_refused
from roc_dash.app.monitor_state import monitor_refusals
from roc_dash.app.page_state import link_refusals, parse_link
from roc_dash.app.state import query_refusals

from .uploads import upload_frames


def test_lrf001_settings_refused_are_named_with_what_is_kept():
    said = link_refusals("?v=2&prior=abc&cfp=-1&n=abc&avg=foo&level=2&tab=zzz")
    assert said == [
        "cfp '-1' is not a cost from 1e-06 to 1e+06 (kept 1)",
        "prior 'abc' is not a number (kept the data's prevalence)",
        "avg 'foo' is not one of none, pooled, vertical, threshold (kept pooled)",
        "level '2' is not one of 0.8, 0.9, 0.95, 0.99 (kept 0.95)",
        "n 'abc' is not a whole number from 5 to 1001 (kept 51)",
        "tab 'zzz' is not a tab (kept decide)",
    ]
    # what is refused is indeed not used: the state keeps the defaults said
    link, given = parse_link("?v=2&prior=abc&cfp=-1&n=abc&avg=foo&level=2&tab=zzz")
    assert (link.averaging, link.level, link.samples, link.tab) == ("pooled", 0.95, 51,
                                                                    "decide")


def test_lrf002_valid_links_say_nothing():
    # every field changed, as the page writes its own link: nothing refused
    from roc_dash.app.page_state import PageState

    from .test_page_state import CHANGED

    assert link_refusals(PageState(**CHANGED).to_query()) == []
    assert link_refusals(PageState().to_query()) == []
    for search in ("", "?v=2", "?v=2&cfp=2&cfn=0.5&prior=0.3&avg=vertical&level=0.9&n=101"
                   "&tab=monitor&band=simultaneous&prm=prg&cm=decision&cview=lift"
                   "&recal=platt&btp=1&btn=0&pop=1200&class=cat",
                   "?v=2&mref=A&mtime=time&mevery=month&mest=pacc&mnolab=1", None, 5):
        assert link_refusals(search) == [], search


def test_lrf003_other_settings_and_bounded_echo():
    said = query_refusals("?cfn=0&prior=1.5&band=x&prm=y&cm=z&cview=w&recal=v&btp=-1"
                          "&pop=0&class=" + "c" * 300)
    assert said[0] == "cfn '0' is not a cost from 1e-06 to 1e+06 (kept 1)"
    assert said[1] == "prior '1.5' is not a prior between 0 and 1 (kept the data's prevalence)"
    assert any(s.startswith("band 'x' is not one of pointwise, simultaneous") for s in said)
    assert any(s.startswith("recal 'v' is not one of logistic, platt, isotonic") for s in said)
    assert "btp '-1' is not an amount from 0 to 1e+06 (kept 0)" in said
    assert "pop '0' is not a positive number of cases (kept none)" in said
    long = next(s for s in said if s.startswith("class"))
    assert "(300 characters)" in long and len(long) < 120  # never echoed in full
    assert query_refusals("?cfp=1e400") == ["cfp '1e400' is too large (kept 1)"]


def test_lrf004_monitor_settings_refused():
    assert monitor_refusals("?mtime=time&mevery=fortnight&mest=x&mref=zz") == [
        "mref 'zz' is not a decision to check (optimum, upload or a pin's letter; "
        "kept optimum)",
        "mevery 'fortnight' is not one of day, week, month, quarter, year "
        "(kept each value as a window)",
        "mest 'x' is not one of em, pacc, acc (kept em)",
    ]
    assert monitor_refusals("?mtime=" + "t" * 5000)[0].startswith("mtime 'tttt")


def _frames():
    rng = np.random.default_rng(3)
    n = 80
    binary = pd.DataFrame({"label": rng.integers(0, 2, n), "score": rng.random(n),
                           "time": np.repeat(["2026-07-01", "2026-08-01"], n // 2),
                           "sex": np.tile(["f", "m"], n // 2)})
    classes = rng.choice(["cat", "dog", "owl"], n)
    scores = rng.dirichlet(np.ones(3), n)
    multi = pd.DataFrame({"label": classes, **{f"score_{c}": scores[:, i]
                                               for i, c in enumerate(["cat", "dog", "owl"])}})
    return binary, multi


def test_lrf005_class_and_time_column_judged_on_the_data(store, monkeypatch):
    binary, multi = _frames()
    (b,) = upload_frames(store, {"b.csv": binary}, monkeypatch)
    infos, _ = loaded_infos(store, [b])
    assert link_refused(f"?v=2&data={b}&class=zzz", infos, []) == [
        "class 'zzz' is not used: no multi-class data is loaded"]
    assert link_refused(f"?v=2&data={b}&mtime=nocol&mevery=fortnight", infos,
                        ["time", "sex"]) == [
        "mevery 'fortnight' is not one of day, week, month, quarter, year "
        "(kept each value as a window)",
        "mtime 'nocol' is not a column of the windows (their columns: time, sex; not used)"]
    assert link_refused(f"?v=2&data={b}&mtime=time", infos, ["time", "sex"]) == []
    # the columns not known yet (window files): nothing said of mtime
    assert link_refused(f"?v=2&data={b}&mtime=nocol", infos, None) == []
    # the page's glue: the windows' columns (the upload's kept category columns), said while
    # the page shows the link's datasets and not after another upload
    from roc_dash.app.link_report import link_words
    from roc_dash.app.monitoring import window_columns

    search = f"?v=2&data={b}&mtime=nocol&mwin={b}"
    said = link_words(search, infos, [], lambda d: window_columns(store, d))
    assert said[-1].startswith("mtime 'nocol' is not a column of the windows (their "
                               "columns: time, sex"), said
    assert link_words(search, infos, ["x" * 24], lambda d: window_columns(store, d)) == []
    (m,) = upload_frames(store, {"m.csv": multi}, monkeypatch)
    infos, _ = loaded_infos(store, [m])
    said = link_refused(f"?v=2&data={m}&class=zzz", infos, [])
    assert len(said) == 1 and said[0].startswith("class 'zzz' is not a class of the data "
                                                 "(kept ")
    assert link_refused(f"?v=2&data={m}&class=dog", infos, []) == []


def test_lrf006_the_banner_says_it_in_one_line_with_or_without_missing_data():
    def text(node):
        if node is None:
            return ""
        if isinstance(node, str):
            return node
        if isinstance(node, list | tuple):
            return "".join(text(c) for c in node)
        return text(getattr(node, "children", None))

    refused = ["prior 'abc' is not a number (kept the data's prevalence)",
               "tab 'zzz' is not a tab (kept decide)"]
    alone = text(missing_banner([], {}, (), refused))
    assert alone == ("From the link: prior 'abc' is not a number (kept the data's "
                     "prevalence); tab 'zzz' is not a tab (kept decide).")
    assert missing_banner([], {}, (), []) is None
    both = text(missing_banner(["a" * 24], {}, (), refused))
    assert "no longer on the server" in both and both.endswith(alone)
