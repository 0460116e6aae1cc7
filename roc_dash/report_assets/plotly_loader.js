/* roc-dash standalone report: unpack the embedded plotly.js, then draw the figures.
 *
 * Inlined by roc_dash/report/html_plotly.py after the figures. plotly.js is in the page gzip-
 * compressed and base64-encoded (#rr-plotly, 1.96 MB instead of 4.8 MB: the demo's file
 * stays under 5 MB); each figure is JSON in a script element of class rr-figure whose
 * data-target attribute names the div to draw it in.
 * Nothing is fetched: the browser's DecompressionStream (Chrome and Edge 80, Firefox 113,
 * Safari 16.4 and later) unpacks it in memory, the text runs as a script, the figures are
 * drawn in page order. Without DecompressionStream the page says so where the figures go.
 *
 * window.rocFigures: a promise of true once every figure is drawn, false if they cannot be
 * (the report's controls, standalone.js, start after it); document.body's data-figures
 * attribute says "drawn" or "failed" too.
 */
(function () {
    "use strict";
    var MISSING = "This browser cannot unpack the embedded plotting library, so the figures " +
        "are not drawn (the tables are complete). Open the file in a current Chrome, Edge, " +
        "Firefox or Safari (Chrome or Edge 80, Firefox 113, Safari 16.4 or later).";

    function decode(b64) {
        var raw = atob(b64), out = new Uint8Array(raw.length);
        for (var i = 0; i < raw.length; i++) { out[i] = raw.charCodeAt(i); }
        return out;
    }

    /* the text of plotly.js: gunzip the bytes of #rr-plotly */
    function unpack() {
        var packed = decode(document.getElementById("rr-plotly").textContent.trim());
        var stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream("gzip"));
        return new Response(stream).text();
    }

    /* run plotly.js as the page's own script would (it defines window.Plotly) */
    function run(code) {
        window.PlotlyConfig = {MathJaxConfig: "local"};   /* as plotly.py's to_html */
        var script = document.createElement("script");
        script.text = code;
        document.head.appendChild(script);
        if (!window.Plotly) { throw new Error("plotly.js did not start"); }
    }

    function draw() {
        var specs = document.querySelectorAll("script.rr-figure");
        return Promise.all(Array.prototype.map.call(specs, function (el) {
            var spec = JSON.parse(el.textContent);
            return window.Plotly.newPlot(el.getAttribute("data-target"), spec.data,
                                         spec.layout, spec.config);
        }));
    }

    /* the reason, once at the top of the page and in each figure's place */
    function fail(error) {
        var text = typeof DecompressionStream === "undefined" ? MISSING :
            "The figures could not be drawn: " + error + ".";
        var banner = document.createElement("p");
        banner.className = "summary";
        banner.id = "rr-figures-missing";
        banner.setAttribute("role", "alert");
        banner.textContent = text;
        var h1 = document.querySelector("h1");
        document.body.insertBefore(banner, h1 ? h1.nextSibling : document.body.firstChild);
        document.querySelectorAll("script.rr-figure").forEach(function (el) {
            var box = document.getElementById(el.getAttribute("data-target"));
            if (box) {
                box.textContent = text;
                box.className = "summary";
                box.style.height = "auto";
            }
        });
        document.body.setAttribute("data-figures", "failed");
        return false;
    }

    var start = typeof DecompressionStream === "undefined" ?
        Promise.reject(new Error("no DecompressionStream")) : unpack();
    window.rocFigures = start.then(run).then(draw).then(function () {
        document.body.setAttribute("data-figures", "drawn");
        return true;
    }).catch(fail);
}());
