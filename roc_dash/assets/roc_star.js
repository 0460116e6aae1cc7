/* The ROC's star says the optimum's words while the pointer rests on it.
 *
 * The iso-performance line is an editable shape tangent at the optimum; plotly lays an
 * invisible drag handle over it (a 10 px wide stroke, a group marked "drag-helper"), so
 * over the star, where the line runs, plotly's own hover never fires. The star itself must
 * not catch the mouse either: a drag of the line that starts on it must move the line (on
 * near-perfect data the whole line is a stub under the star). So the star's annotation
 * carries its hover text without catching events (roc_dash/figures/roc.py roc_star,
 * figures/marks.py star_note with captures=False), and this file shows that text, as plotly
 * shows an annotation's hover (Plotly.Fx.loneHover, the same label as the PR star's), when
 * the pointer moves over the line's handle within the star without a button pressed. A
 * press goes on to plotly untouched (the drag) and takes the label away. Off the handle
 * the pointer is plotly's: its hover of the hull vertex under the star (the same point).
 */
(function () {
    "use strict";

    var GRAPH = "roc-graph";
    var STAR = "optimum";   /* figures/marks.py STAR_NOTE */
    /* the star's glyph is about 0.8 of its font size across (figures/marks.py _STAR_FONT) */
    var REACH = 0.4;
    var shown = null;       /* {gd, text}: the label this file drew */

    function starOf(gd) {
        var fl = gd && gd._fullLayout;
        var notes = (fl && fl.annotations) || [];
        for (var k = 0; k < notes.length; k++) {
            var a = notes[k];
            if (a && a.name === STAR && a.visible !== false && a.hovertext) { return a; }
        }
        return null;
    }

    /* The star's centre in the plot div's pixels and its reach, or null. */
    function where(gd, a) {
        var fl = gd._fullLayout, xa = fl.xaxis, ya = fl.yaxis;
        if (!xa || !ya || typeof xa.l2p !== "function") { return null; }
        /* an annotation on a log axis is placed by log10 of the value: plotly's linear one */
        var x = xa._offset + xa.l2p(a.x), y = ya._offset + ya.l2p(a.y);
        if (!isFinite(x) || !isFinite(y)) { return null; }
        return {x: x, y: y, r: Math.max(4, REACH * ((a.font && a.font.size) || 19.5))};
    }

    function hide() {
        if (!shown) { return; }
        var fl = shown.gd._fullLayout;
        if (fl && fl._hoverlayer && window.Plotly && window.Plotly.Fx) {
            window.Plotly.Fx.loneUnhover(fl._hoverlayer.node());
        }
        shown = null;
    }

    function show(gd, a, at) {
        var fl = gd._fullLayout, label = a.hoverlabel || {}, font = label.font || {};
        if (shown && shown.gd === gd && shown.text === a.hovertext &&
                fl._hoverlayer.node().querySelector("g.hovertext")) { return; }
        window.Plotly.Fx.loneHover({
            x0: at.x - at.r, x1: at.x + at.r, y: at.y, text: a.hovertext,
            color: label.bgcolor, borderColor: label.bordercolor, fontFamily: font.family,
            fontSize: font.size, fontColor: font.color, fontWeight: font.weight,
            fontStyle: font.style, fontVariant: font.variant
        }, {container: fl._hoverlayer.node(), outerContainer: fl._paper.node(), gd: gd});
        shown = {gd: gd, text: a.hovertext};
    }

    /* The star under the pointer of this move, on the line's handle, or null. */
    function starUnder(e) {
        var target = e.target;
        if (e.buttons || !target || !target.closest || !window.Plotly || !window.Plotly.Fx) {
            return null;
        }
        var gd = target.closest("#" + GRAPH + " .js-plotly-plot");
        if (!gd || !target.closest("g[drag-helper]")) { return null; }
        var a = starOf(gd), at = a && where(gd, a);
        if (!at) { return null; }
        var box = gd.getBoundingClientRect();
        var dx = e.clientX - box.left - at.x, dy = e.clientY - box.top - at.y;
        return dx * dx + dy * dy <= at.r * at.r ? {gd: gd, a: a, at: at} : null;
    }

    /* in the capture phase: before plotly's own handlers of the same event */
    document.addEventListener("mousemove", function (e) {
        var hit = starUnder(e);
        if (hit) {
            show(hit.gd, hit.a, hit.at);
        } else {
            hide();
        }
    }, true);
    document.addEventListener("mousedown", hide, true);
    window.addEventListener("blur", hide);
}());
