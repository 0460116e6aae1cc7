"""The HTML report under the Decide tab's capacity in a real headless Chromium (crb101): a
capacity typed, *HTML report* and *Download decision* clicked, the report's Decision headline
read from the file is the summary strip's on the page, and names the record's model and
threshold."""

import html
import json
import re
from pathlib import Path

from roc_dash.app import ids
from roc_dash.figures.style import format_threshold

from . import gestures
from .gestures import type_into, wait_file, wait_until
from .test_views_browser import start


def _click_for(dash_duo, button_id, pattern):
    """Click a top-bar export button and return the text of the file it saves."""
    folder = Path(dash_duo.download_path)
    for old in folder.glob(pattern):
        old.unlink()
    dash_duo.find_element(f"#{button_id}").click()
    return wait_file(folder, pattern)[0].read_text()


def capacity_typed(dash_duo, app, value: str = "5%") -> None:
    """The demo page with a capacity typed in the Decide tab's box, once the summary
    strip headlines the choice under it."""
    start(dash_duo, app)
    capacity = dash_duo.find_element(f"#{ids.DCT_CAPACITY}")
    gestures.scroll_into_view(dash_duo.driver, capacity)
    type_into(capacity, value)
    wait_until(lambda: f"under the capacity of {value} cases:" in dash_duo.find_element(
        f"#{ids.SUMMARY} .summary-main").text, message="the constrained headline")


def test_crb101_report_headline_is_the_strips_under_a_capacity(dash_duo, app):
    capacity_typed(dash_duo, app)
    strip = dash_duo.find_element(f"#{ids.SUMMARY} .summary-main").text
    report = _click_for(dash_duo, ids.EXPORT_HTML, "roc-dash-report*.html")
    found = re.search(r'<h2>Decision</h2><p class="summary">(.*?)</p>', report, re.S)
    summary = html.unescape(found.group(1))
    assert " ".join(summary.split()).startswith(" ".join(strip.split()))
    doc = json.loads(_click_for(dash_duo, ids.EXPORT_DECISION, "roc-dash-decision*.json"))
    assert doc["rule"]["how_chosen"] == "capacity"
    assert summary.startswith(f"Use {doc['model']} at score ≥ "
                              f"{format_threshold(doc['rule']['threshold'])} under the "
                              "capacity of 5% cases:")
    assert ("least expected cost under the capacity of 5% cases" in report)
