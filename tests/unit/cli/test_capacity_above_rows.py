"""Review 11 item 2: a capacity above the data's cases. The page refused it ("Capacity not
used: 5,000 cases is more than the 1,600 cases of model …") while ``roc-dash decide
--capacity 5000`` wrote a record "Chosen under share flagged ≤ 100%". Now the CLI refuses in
the page's words, exits non-zero and writes nothing."""

from roc_dash.app import create_app, ids
from roc_dash.app.analysis import AnalysisCache, model_refs
from roc_dash.app.server.store import DEMO_ID, DatasetStore
from roc_dash.cli import main
from tests.unit.app.test_app_constraints import DEMO, _callback, _page


def _page_says(tmp_path, **kw):
    app = create_app(store=DatasetStore(tmp_path / "app"))
    keys = list(model_refs(AnalysisCache(DatasetStore(tmp_path / "app")), [DEMO_ID]))
    view = _callback(app, ids.DCT_SUMMARY).__wrapped__
    return view(viz={"key": "x"}, page=_page(keys, **kw))["capacity_msg"]


def test_cab001_decide_refuses_a_capacity_above_the_cases_in_the_pages_words(tmp_path, capsys):
    page = _page_says(tmp_path, capacity="100000")
    assert page.startswith("Capacity not used: 100,000 cases is more than the ")
    out = tmp_path / "x.json"
    assert main(["decide", str(DEMO), "--capacity", "100000", "-o", str(out)]) != 0
    err = capsys.readouterr().err
    assert page in err and not out.exists()


def test_cab002_decide_refuses_a_capacity_above_its_volume_in_the_pages_words(tmp_path, capsys):
    page = _page_says(tmp_path, capacity="800", volume="700")
    assert page.startswith("Capacity not used: 800 cases is more than the volume of 700")
    out = tmp_path / "x.json"
    assert main(["decide", str(DEMO), "--capacity", "800", "--volume", "700", "-o",
                 str(out)]) != 0
    assert page in capsys.readouterr().err and not out.exists()
    # within the cases it still decides
    assert main(["decide", str(DEMO), "--capacity", "50", "-o", str(out)]) == 0 and out.exists()
