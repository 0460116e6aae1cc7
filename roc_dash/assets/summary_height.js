/* The summary strip's height as the CSS variable --summary-h on <html>: in presentation mode
 * its lines wrap instead of being cut (style_presenting.css), so the views' height follows
 * what the strip takes and the ROC's axis stays above the fold at 1280x720. */
(function () {
    "use strict";
    var seen = null;
    function watch() {
        var strip = document.getElementById("decision-summary");
        if (!strip || strip === seen || typeof ResizeObserver === "undefined") { return; }
        seen = strip;
        new ResizeObserver(function () {
            document.documentElement.style.setProperty(
                "--summary-h", Math.ceil(strip.getBoundingClientRect().height) + "px");
        }).observe(strip);
    }
    new MutationObserver(watch).observe(document.documentElement, {childList: true, subtree: true});
    watch();
}());
