"""Polish after the review meeting, driven by real pointer and keyboard input."""

from pathlib import Path

import numpy as np

from roc_dash.app import ids

from .gestures import (
    centre,
    click,
    double_click,
    drag,
    js_graph,
    rest_on,
    scroll_into_view,
    scroll_to,
    to_screen,
    wait_file,
    wait_idle,
    wait_layout_steady,
    wait_steady,
    wait_until,
)
from .test_meeting_browser import _vertex, names
from .test_trust_browser import start

RECT = ("const r = arguments[0].getBoundingClientRect();"
        "return [r.left, r.top, r.right, r.bottom];")


def viewport(dash_duo, width, height):
    """Make the page's viewport (not the window) ``width`` × ``height`` CSS px."""
    d = dash_duo.driver
    d.set_window_size(width, height)
    inner = d.execute_script("return [window.innerWidth, window.innerHeight]")
    d.set_window_size(2 * width - inner[0], 2 * height - inner[1])
    wait_until(lambda: d.execute_script("return [window.innerWidth, window.innerHeight]")
               == [width, height], message=f"a {width} × {height} viewport")
    wait_idle(dash_duo)  # the views redrawn for the new size


def pin_three(dash_duo, app):
    """Pin A, B and C by clicking points of the ROC."""
    d = dash_duo.driver
    for letter, (model, k) in zip("ABC", (("decision tree", 5), ("naive Bayes", 395),
                                           ("gradient boosting", 200)), strict=True):
        fpr, tpr, _ = _vertex(app, model, k)
        click(d, to_screen(d, ids.ROC_GRAPH, fpr, tpr))
        wait_until(lambda x=letter: any(n.startswith(f"pinned {x}")
                                        for n in names(d, ids.ROC_GRAPH)),
                   message=f"pin {letter}")
        wait_idle(dash_duo)


def present(dash_duo):
    d = dash_duo.driver
    label = dash_duo.find_element(f"#{ids.PRESENTATION} label")
    d.execute_script("arguments[0].scrollIntoView({block: 'center'})", label)
    click(d, centre(d, label))
    wait_until(lambda: "presenting" in dash_duo.find_element(f"#{ids.APP}").get_attribute(
        "class"), message="presentation mode")
    wait_until(lambda: js_graph(d, ids.ROC_GRAPH, "gd.layout.font.size") == 20)
    wait_idle(dash_duo)


def present_at(dash_duo, width, height):
    """Presentation mode in a ``width`` × ``height`` viewport, scrolled to the top, the ROC
    view laid out and drawn: the driver."""
    present(dash_duo)
    viewport(dash_duo, width, height)
    d = dash_duo.driver
    scroll_to(d, 0)
    wait_layout_steady(d, dash_duo.find_element(f"#{ids.ROC_GRAPH}"))
    wait_steady(d, ids.ROC_GRAPH)
    return d
    scroll_to(d, 0)
    wait_layout_steady(d, dash_duo.find_element(f"#{ids.ROC_GRAPH}"))


def test_pol001_presentation_mode_at_1280x720_fits_and_is_legible(dash_duo, app, shot):
    start(dash_duo, app, size=(1280, 720))
    pin_three(dash_duo, app)
    d = present_at(dash_duo, 1280, 720)
    shot("pol001_presentation_1280x720")
    box = ("const e = document.querySelector(arguments[0]); if (!e) return null;"
           "const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom];")
    graph = d.execute_script(box, f"#{ids.ROC_GRAPH}")
    plot = js_graph(d, ids.ROC_GRAPH,
                    "(() => { const r = gd.getBoundingClientRect(), x = gd._fullLayout.xaxis;"
                    " return [r.left + x._offset, 0, r.left + x._offset + x._length, 0]; })()")
    legend = d.execute_script(box, f"#{ids.ROC_GRAPH} .legend .scrollbox")
    xtitle = d.execute_script(box, f"#{ids.ROC_GRAPH} .xtitle")
    # the ROC and its legend: beside each other, inside the figure, above the fold
    assert legend[0] >= plot[2] - 1, "the legend does not cover the plot"
    assert legend[2] <= graph[2] + 1 and legend[3] <= graph[3] + 1, "legend inside the frame"
    assert xtitle[3] <= 720, "the x-axis title is above the fold"
    assert js_graph(d, ids.ROC_GRAPH, "gd._fullLayout.legend.font.size") >= 15
    legend_names = names(d, ids.ROC_GRAPH)
    assert "pinned A" in legend_names and all(len(n) < 45 for n in legend_names)
    # the comparison: beside the ROC, its last row above the fold, no wrapped number
    table = d.execute_script(box, f"#{ids.OPERATING} table.compare")
    assert table[0] >= graph[2] and table[3] <= 720, "the whole comparison above the fold"
    assert d.execute_script(
        "const w = document.querySelector('#' + arguments[0] + ' .table-scroll');"
        "return w.scrollWidth <= w.clientWidth + 1", ids.OPERATING), "the comparison fits its card"
    heights = d.execute_script(
        "const rows = [...document.querySelectorAll('#' + arguments[0] + ' table.compare tbody tr')];"
        "const t = rows.find(r => r.textContent.startsWith('Threshold'));"
        "return [...t.querySelectorAll('td')].map(c => [c.getBoundingClientRect().height,"
        " parseFloat(getComputedStyle(c).fontSize)]);", ids.OPERATING)
    assert all(h < 2 * f for h, f in heights), f"threshold cells wrap: {heights}"
    assert "-0.0 " not in dash_duo.find_element(f"#{ids.OPERATING}").text
    # the controls open as a drawer over the views: the ROC keeps its size
    click(d, centre(d, dash_duo.find_element(f"#{ids.SIDEBAR_TOGGLE}")))
    wait_until(lambda: dash_duo.find_element(".sidebar").is_displayed(), message="sidebar")
    wait_layout_steady(d, dash_duo.find_element(".sidebar"))  # the drawer has slid in
    wait_idle(dash_duo)
    scroll_to(d, 0)
    wait_layout_steady(d, dash_duo.find_element(f"#{ids.ROC_GRAPH}"))
    shot("pol001_presentation_controls_1280x720")
    assert d.execute_script(box, f"#{ids.ROC_GRAPH}") == graph
    assert d.execute_script(box, f"#{ids.ROC_GRAPH} .xtitle")[3] <= 720


def png_grey(path):
    """The grey levels of an 8-bit RGB(A) PNG (no imaging library needed)."""
    import struct
    import zlib

    data = Path(path).read_bytes()
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6)
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = np.frombuffer(zlib.decompress(idat), dtype=np.uint8).reshape(height, -1)
    out = np.zeros((height, width * bpp), dtype=np.int32)
    for y in range(height):
        f, line = raw[y, 0], raw[y, 1:].astype(np.int32)
        prev = out[y - 1] if y else np.zeros_like(line)
        if f == 0:
            cur = line
        elif f == 2:
            cur = (line + prev) % 256
        else:  # sub, average, Paeth: byte by byte
            cur = np.zeros_like(line)
            for i in range(line.size):
                a = cur[i - bpp] if i >= bpp else 0
                b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
                if f == 1:
                    pred = a
                elif f == 3:
                    pred = (a + b) // 2
                else:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                cur[i] = (line[i] + pred) % 256
        out[y] = cur
    px = out.reshape(height, width, bpp)
    return px[..., :3].mean(axis=2)


def download_png(dash_duo, graph, name):
    d = dash_duo.driver
    folder = Path(dash_duo.download_path)
    for old in folder.glob(f"roc-dash-{name}*.png"):
        old.unlink()
    scroll_into_view(d, dash_duo.find_element(f"#{graph}"))
    hover_at = d.execute_script(RECT, dash_duo.find_element(f"#{graph}"))
    from .gestures import hover

    hover(d, (hover_at[0] + 30, hover_at[1] + 30))  # the mode bar shows on hover
    button = dash_duo.find_element(f"#{graph} .modebar-btn[data-title^='Download plot as PNG']")
    click(d, centre(d, button))
    return wait_file(folder, f"roc-dash-{name}.png")[0]


def test_pol002_exported_roc_png_shows_the_title_and_every_pin(dash_duo, app, shot):
    start(dash_duo, app)
    pin_three(dash_duo, app)
    path = download_png(dash_duo, ids.ROC_GRAPH, "roc")
    img = png_grey(path)
    ink = np.flatnonzero((img < 128).any(axis=1))
    # the title's first line is whole: a white band above it, nothing cut at the top
    assert ink[0] >= 8, f"something is drawn from the very top row ({ink[0]})"
    # the letter of the pin at TPR 0.99 (B) is drawn above the frame, not clipped
    b = js_graph(dash_duo.driver, ids.ROC_GRAPH,
                 "gd.data.find(t => (t.name || '').startsWith('pinned B')).cliponaxis")
    assert b is False


def test_pol003_double_click_resets_the_zoom_and_pins_nothing(dash_duo, app, shot):
    start(dash_duo, app)
    d = dash_duo.driver
    fpr, tpr, _ = _vertex(app, "decision tree", 5)
    point = to_screen(d, ids.ROC_GRAPH, fpr, tpr)
    rest_on(d, point)  # the pointer comes to rest on a point, as a person's does
    double_click(d, point)
    wait_idle(dash_duo)  # the deferred click has been dropped (or would have pinned)
    assert not any(n.startswith("pinned") for n in names(d, ids.ROC_GRAPH)), "nothing pinned"
    assert "pin=" not in d.execute_script("return location.search")
    # box-zoom, then a double click restores the full square
    drag(d, to_screen(d, ids.ROC_GRAPH, 0.45, 0.99), to_screen(d, ids.ROC_GRAPH, 0.75, 0.7))
    wait_until(lambda: js_graph(d, ids.ROC_GRAPH, "gd._fullLayout.xaxis.range[1]") < 0.8,
               message="zoomed")
    wait_idle(dash_duo)
    double_click(d, to_screen(d, ids.ROC_GRAPH, 0.6, 0.8))
    wait_until(lambda: js_graph(d, ids.ROC_GRAPH, "gd._fullLayout.xaxis.range[1]") > 1.0,
               message="full square again")
    wait_idle(dash_duo)
    wait_steady(d, ids.ROC_GRAPH)
    x = js_graph(d, ids.ROC_GRAPH, "gd._fullLayout.xaxis.range")
    y = js_graph(d, ids.ROC_GRAPH, "gd._fullLayout.yaxis.range")
    assert x[0] <= 0 and x[1] >= 1 and y[0] <= 0 and y[1] >= 1
    # a single click still pins
    click(d, to_screen(d, ids.ROC_GRAPH, fpr, tpr))
    wait_until(lambda: any(n.startswith("pinned A") for n in names(d, ids.ROC_GRAPH)),
               message="a click pins")
