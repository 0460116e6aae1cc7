"""Refresh the README's screenshots (docs/*.png) from the running app, in headless Chromium.

Starts the app on a free loopback port with a temporary data folder (demo data and the
bundled examples), opens each state by its shareable link (the same query string "Copy link"
gives) and saves a PNG per state. Run: ``python scripts/screenshots.py`` (needs Debian's
chromium and chromium-driver, as the browser tests do).
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from roc_dash.app import create_app  # noqa: E402

DOCS = ROOT / "docs"

#: (file, window size, query string, element to scroll to the top or None)
SHOTS = [
    ("screenshot.png", (1500, 1300), "", None),
    ("pins.png", (1500, 1300),
     "?pin=A:decision tree|0.916667&pin=B:naive Bayes|0.982204", None),
    ("vertical-average.png", (1500, 1300), "?avg=vertical", None),
    ("presentation.png", (1280, 720), "?pres=1&pin=A:naive Bayes|0.982204", None),
    ("threshold.png", (1500, 1000), "?pin=A:naive Bayes|0.982204", "threshold-graph"),
    ("multiclass.png", (1500, 1300), "?data=demo-multiclass", "mc-card"),
    ("leaves.png", (1500, 1100), "?data=demo-leaves", None),
]


def main() -> None:
    from tools.harness import dash_session

    with dash_session(create_app(data_dir=tempfile.mkdtemp())) as duo:
        driver, url = duo.driver, duo.server_url.rstrip("/")
        for name, size, query, anchor in SHOTS:
            driver.set_window_size(*size)
            driver.get(f"{url}/{query}")
            end = time.monotonic() + 30
            while time.monotonic() < end:  # every view drawn
                if driver.execute_script(
                        "return [...document.querySelectorAll('.js-plotly-plot')]"
                        ".every(g => g.data && g.data.length);"):
                    break
                time.sleep(0.2)
            time.sleep(2.5)  # the last callbacks settle
            if anchor:
                driver.execute_script(
                    "const e = document.getElementById(arguments[0]);"
                    "if (e) { (e.closest('.card') || e).scrollIntoView({block: 'center'}); }",
                    anchor)
                time.sleep(0.8)
            driver.save_screenshot(str(DOCS / name))
            print("wrote", DOCS / name)


if __name__ == "__main__":
    main()
