"""Refresh the README's notebook screenshot (docs/notebook-plot-roc.png): the figure
``roc_dash.plot_roc`` returns for the demo data, as a notebook shows it, rendered by
headless Chromium (Debian's ``chromium``, as the browser tests use) from a self-contained
HTML file. Run: ``python scripts/notebook_screenshot.py``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from importlib.resources import files
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

OUT = ROOT / "docs" / "notebook-plot-roc.png"
SIZE = (900, 640)


def main() -> None:
    import pandas as pd

    import roc_dash

    demo = pd.read_csv(files("roc_dash.data") / "demo_predictions.csv")
    fig = roc_dash.plot_roc(data=demo, y_true="label", y_score="score", model="model",
                            fold="fold", pos_label="pos", cost_fp=1, cost_fn=5, prior=0.1)
    fig.update_layout(width=SIZE[0], height=SIZE[1])
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        sys.exit("needs Chromium: `make browser-deps` installs Debian's chromium")
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "plot_roc.html"
        fig.write_html(page, include_plotlyjs=True, full_html=True,
                       config={"displayModeBar": False})
        subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                        "--disable-background-networking", "--disable-component-update",
                        "--no-first-run", f"--user-data-dir={tmp}/profile",
                        "--hide-scrollbars", f"--window-size={SIZE[0] + 16},{SIZE[1] + 16}",
                        "--virtual-time-budget=5000", f"--screenshot={OUT}", page.as_uri()],
                       check=True, capture_output=True, timeout=120)
    print("wrote", OUT)


if __name__ == "__main__":
    main()
