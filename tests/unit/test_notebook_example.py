"""examples/tour.ipynb runs (issue 19 §2): executed with nbclient in a kernel of this
interpreter (ipykernel), it raises nothing, shows its four figures and its decision, and its
own scikit-learn checks pass. The figures it shows are checked here too, against
scikit-learn on the demo's rows."""

from __future__ import annotations

import re
from importlib.resources import files
from pathlib import Path

import nbclient
import nbformat
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

NOTEBOOK = Path(__file__).resolve().parents[2] / "examples" / "tour.ipynb"
PLOTLY = "application/vnd.plotly.v1+json"


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    """The notebook, executed in a scratch folder; Jupyter's and IPython's files go there
    too, and figures come out as Plotly's JSON (no copy of plotly.js per output)."""
    tmp = tmp_path_factory.mktemp("tour")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PLOTLY_RENDERER", "plotly_mimetype")
        mp.setenv("JUPYTER_RUNTIME_DIR", str(tmp / "runtime"))
        mp.setenv("JUPYTER_DATA_DIR", str(tmp / "data"))
        mp.setenv("IPYTHONDIR", str(tmp / "ipython"))
        mp.setenv("MPLCONFIGDIR", str(tmp / "mpl"))
        nb = nbformat.read(NOTEBOOK, as_version=4)
        # kernel "python3" is ipykernel's own spec: jupyter_client runs it with this
        # interpreter (sys.executable), so the kernel sees this checkout's roc_dash
        nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                resources={"metadata": {"path": str(tmp)}}).execute()
    return nb


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
        assert f"{model} (AUC {auc:.3f} pooled)" in legends
    assert figures[2]["layout"]["yaxis"]["title"]["text"] == "Precision at p(+) = 0.1"
    pc = 0.1 * 5 / (0.1 * 5 + 0.9 * 1)  # PC(+) of the notebook's costs and prior
    assert figures[3]["layout"]["meta"]["pc_pos"] == pytest.approx(pc)
