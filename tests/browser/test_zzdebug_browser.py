from roc_dash.app import ids
from .gestures import wait_idle, wait_until
from .test_trust_browser import start

ANC = """
let e = document.getElementById('tab-button-decide'); const out = [];
while (e) { const c = getComputedStyle(e);
  out.push([e.tagName, e.id, e.className && e.className.baseVal === undefined ? e.className : '', c.position, c.zIndex, c.opacity, c.transform, c.filter, c.willChange, c.contain, c.isolation]);
  e = e.parentElement; }
const r = document.getElementById('tab-button-decide').getBoundingClientRect();
const hit = document.elementFromPoint(r.left + r.width/2, r.top + r.height/2);
return [out, hit && (hit.tagName + '#' + hit.id + '.' + hit.className), window.innerWidth, window.innerHeight];
"""

def test_dbg(dash_duo, app):
    start(dash_duo, app, size=(1280, 720))
    dash_duo.find_element(f"#{ids.PRESENTATION} input").click()
    wait_until(lambda: "presenting" in dash_duo.find_element(f"#{ids.APP}").get_attribute("class"), message="p")
    wait_idle(dash_duo, quiet=1.0)
    d = dash_duo.driver
    d.execute_script("window.scrollTo(0, 900)")
    wait_idle(dash_duo, quiet=0.3)
    for row in d.execute_script(ANC)[0]:
        print(row)
    print(d.execute_script(ANC)[1:])
    assert 0
