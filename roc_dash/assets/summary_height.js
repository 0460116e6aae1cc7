/* The summary strip's height as the CSS variable --summary-h on <html>: in presentation mode
 * its lines wrap instead of being cut (style_presenting.css), so the views' height follows
 * what the strip takes and the ROC's axis stays above the fold at 1280x720. */
(function () {
    "use strict";
    var seen = null;
    function watch() {
        var strip = document.getElementById("decision-summary");
        if (!strip || strip === seen) { return; }
        seen = strip;
        /* aria-busy while Dash recomputes it (data-dash-is-loading; dimmed in style.css) */
        new MutationObserver(function () {
            var busy = strip.getAttribute("data-dash-is-loading") === "true";
            if ((strip.getAttribute("aria-busy") === "true") !== busy) {
                if (busy) { strip.setAttribute("aria-busy", "true"); }
                else { strip.removeAttribute("aria-busy"); }
            }
        }).observe(strip, {attributes: true, attributeFilter: ["data-dash-is-loading"]});
        if (typeof ResizeObserver === "undefined") { return; }
        new ResizeObserver(function () {
            document.documentElement.style.setProperty(
                "--summary-h", Math.ceil(strip.getBoundingClientRect().height) + "px");
        }).observe(strip);
    }
    new MutationObserver(watch).observe(document.documentElement, {childList: true, subtree: true});
    watch();
}());
