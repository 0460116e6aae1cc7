"""examples/tour.ipynb runs (issue 19 §2): executed with nbclient in a kernel of this
interpreter (ipykernel), it raises nothing, shows its four figures and its decision, and its
own scikit-learn checks pass. The figures it shows are checked here too, against
scikit-learn on the demo's rows."""

from __future__ import annotations

import os
import re
from importlib.resources import files
from pathlib import Path

import nbclient
import nbformat
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

from tools.processes import free_port

NOTEBOOK = Path(__file__).resolve().parents[3] / "examples" / "tour.ipynb"
PLOTLY = "application/vnd.plotly.v1+json"
#: The tour runs in a Jupyter kernel: the slow tier (make test-all).
pytestmark = pytest.mark.kernel


def _execute(nb, folder: Path):
    """Execute ``nb`` in ``folder``; Jupyter's and IPython's files go there too, and figures
    come out as Plotly's JSON (no copy of plotly.js per output)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PLOTLY_RENDERER", "plotly_mimetype")
        mp.setenv("JUPYTER_RUNTIME_DIR", str(folder / "runtime"))
        mp.setenv("JUPYTER_DATA_DIR", str(folder / "data"))
        mp.setenv("IPYTHONDIR", str(folder / "ipython"))
        mp.setenv("MPLCONFIGDIR", str(folder / "mpl"))
        # kernel "python3" is ipykernel's own spec: jupyter_client runs it with this
        # interpreter (sys.executable), so the kernel sees this checkout's roc_dash
        nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                resources={"metadata": {"path": str(folder)}}).execute()
    return nb


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    return _execute(nbformat.read(NOTEBOOK, as_version=4), tmp_path_factory.mktemp("tour"))


def _outputs(nb):
    return [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]


def test_nbe001_the_tour_runs_without_errors(executed):
    errors = [o for o in _outputs(executed) if o.output_type == "error"]
    assert errors == []
    text = "".join(o.get("text", "") for o in _outputs(executed) if o.output_type == "stream")
    assert "checked against scikit-learn: " in text  # its own asserts passed
    assert re.search(r"deploy '[\w ]+': flag a case when its score >= [\d.]+", text)


def test_nbe002_its_figures_show_the_demos_aucs(executed):
    figures = [o.data[PLOTLY] for o in _outputs(executed) if PLOTLY in o.get("data", {})]
    assert len(figures) == 4  # ROC pooled, ROC vertical average, PR, cost
    demo = pd.read_csv(files("roc_dash.data") / "demo_predictions.csv")
    y = demo["label"] == "pos"
    legends = [t.get("name", "") for t in figures[0]["data"]]
    for model, rows in demo.groupby("model").groups.items():
        auc = roc_auc_score(y[rows], demo["score"][rows])
        assert f"{model} (AUC {auc:.6g} pooled)" in legends
    assert figures[2]["layout"]["yaxis"]["title"]["text"] == "Precision at p(+) = 0.1"
    pc = 0.1 * 5 / (0.1 * 5 + 0.9 * 1)  # PC(+) of the notebook's costs and prior
    assert figures[3]["layout"]["meta"]["pc_pos"] == pytest.approx(pc)


def test_nbe003_show_runs_the_dashboard_inline_in_a_kernel(tmp_path):
    """In a Jupyter kernel, ``roc_dash.show`` displays the page in an iframe (Dash's
    ``jupyter_mode="inline"``) whose address serves the data's link; ``stop()`` frees it."""
    port = os.environ.get("ROC_DASH_TEST_PORT") or free_port()
    setup = ("import pandas as pd, requests, roc_dash\n"
             "df = pd.DataFrame({'label': [0, 1, 0, 1, 1], 'score': [.1, .8, .3, .4, .9]})\n"
             f"d = roc_dash.show(df, port={int(port)}, data_dir='shown', cost_fn=4)")
    check = ("r = requests.get(d.url, timeout=30)\n"
             "print(r.status_code, r.url == d.link, 'cfn=4' in r.url)\n"
             "d.stop()\n"
             "try:\n    requests.get(d.url, timeout=5)\n"
             "except requests.ConnectionError:\n    print('stopped')")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(setup),
                                         nbformat.v4.new_code_cell(check)])
    _execute(nb, tmp_path)
    frame = nb.cells[0].outputs[0]["data"]["text/html"]
    assert f'src="http://127.0.0.1:{port}/"' in frame and "<iframe" in frame
    printed = "".join(o.get("text", "") for o in nb.cells[1].outputs)
    assert printed.split() == ["200", "True", "True", "stopped"], nb.cells[1].outputs
