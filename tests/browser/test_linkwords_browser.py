"""What the page does not take from a link or a box is said, and goes when a valid value is
entered (stranger review 11, items 7 and 14), in Chromium with real keys."""

from roc_dash.app import ids

from .gestures import type_into, wait_idle, wait_until
from .test_trust_browser import start


def test_lnw001_a_links_refused_values_are_said_once_in_the_link_banner(dash_duo, app, shot):
    start(dash_duo, app, "/?v=2&prior=abc&cfp=-1&n=abc&avg=foo&level=2&tab=zzz")
    dash_duo.wait_for_contains_text(f"#{ids.MISSING}", "From the link:")
    said = dash_duo.find_element(f"#{ids.MISSING}").text
    assert said.startswith("From the link: cfp '-1' is not a cost from 1e-06 to 1e+06 "
                           "(kept 1); prior 'abc' is not a number (kept the data's "
                           "prevalence)"), said
    for words in ("avg 'foo' is not one of none, pooled, vertical, threshold (kept pooled)",
                  "level '2' is not one of 0.8, 0.9, 0.95, 0.99 (kept 0.95)",
                  "n 'abc' is not a whole number from 5 to 1001 (kept 51)",
                  "tab 'zzz' is not a tab"):
        assert words in said, said
    assert said.count("From the link") == 1
    shot("lnw001_link_refused")
    # a valid link says nothing
    dash_duo.driver.get(dash_duo.server_url + "/?v=2&prior=0.3&avg=vertical&tab=compare")
    wait_until(lambda: dash_duo.find_element(f"#{ids.COST_FP}").get_attribute("value"),
               message="the page again")
    wait_idle(dash_duo)
    assert dash_duo.find_element(f"#{ids.MISSING}").text == ""


def test_lnw002_a_cost_too_large_is_said_so_and_goes_on_a_valid_value(dash_duo, app, shot):
    start(dash_duo, app)
    box = dash_duo.find_element(f"#{ids.COST_FP}")
    message = f"#{ids.CONTROL_MSG}"
    type_into(box, "1e400")
    dash_duo.wait_for_text_to_equal(
        message, "Cost of a false positive: '1e400' is too large; kept 1.")
    shot("lnw002_too_large")
    type_into(box, "1")  # the value in use: no change, no request; Enter takes the words
    wait_until(lambda: dash_duo.find_element(message).text == "",
               message="the message gone after 1 + Enter")
    # leaving the box (blur) with a valid value typed does the same
    type_into(box, "abc")
    dash_duo.wait_for_contains_text(message, "'abc' is not a number; kept 1.")
    type_into(box, "1", enter=False)
    dash_duo.find_element(f"#{ids.COST_FN}").click()
    wait_until(lambda: dash_duo.find_element(message).text == "",
               message="the message gone after 1 and a blur")
    # Tabbing through the box without typing leaves a message as it is
    type_into(dash_duo.find_element(f"#{ids.COST_FN}"), "xyz")
    dash_duo.wait_for_contains_text(message, "'xyz' is not a number")
    box.click()
    dash_duo.find_element(f"#{ids.COST_FN}").click()
    wait_idle(dash_duo)
    assert "'xyz' is not a number" in dash_duo.find_element(message).text
