/* roc-dash clientside callbacks: what must not wait for the server.
 *
 * - moveIsoLine: while a cost or prior slider is dragged, move the iso-performance line
 *   (ROC layout.shapes[0]), the optimum's star and the ring at the optimal hull vertex (ROC
 *   annotations viz.optimum_note[0] and viz.ring_note: never draggable shapes) and the PC(+)
 *   marker, read-off and star of the cost view (shapes[0], annotations[1],
 *   viz.optimum_note[2]) -- layout only, no trace redrawn, no network request.
 * - linkHover: a point hovered in one view is marked (annotations[0]) in the other views.
 * - writeUrl: the page's link (written by the server from its state) into the address bar.
 * - copyLink, presentation, pickTab/showTab (the page's tabs): small UI glue.
 * Uploads, saved views, retries, keyboard help and the caret fix are in roc_dash_page.js.
 * The optimum is assets/optimum.js's (the one rule, shared with the standalone report); the
 * line mirrors roc_dash/figures/roc.py (iso_line_endpoints); tests compare them with core.
 */
(function () {
    "use strict";

    function noUpdate(n) {
        var out = [];
        for (var i = 0; i < n; i++) { out.push(window.dash_clientside.no_update); }
        return out;
    }

    function triggeredProp() {
        var t = window.dash_clientside.callback_context.triggered;
        return t && t.length ? t[0].prop_id : "";
    }

    /* The optimal hull vertex for slope m: the one rule (assets/optimum.js, loaded before this
     * file), with core's tie tolerance sent in the viz store. */
    function optimalVertex(hull, m, rtol) {
        return window.rocDashOptimum.optimalIndex(hull, m, rtol).index;
    }

    function isoLine(f, t, m) {
        if (!isFinite(m)) { return [f, 0, f, 1]; }
        var xlo = m > 0 ? f - t / m : 0, xhi = m > 0 ? f + (1 - t) / m : 1;
        var x0 = Math.max(0, xlo), x1 = Math.min(1, xhi);
        return [x0, t + m * (x0 - f), x1, t + m * (x1 - f)];
    }

    /* The iso line as drawn on a log FPR axis (roc_dash/figures/roc_axes.py iso_curve):
     * n FPRs spaced geometrically from the floor to 1, plus where the line leaves the unit
     * square; only the points inside it. */
    function isoCurve(f, t, m, floor, n) {
        if (!isFinite(m)) { return [[f, f], [0, 1]]; }
        var xs = [], lo = Math.log(floor), i;
        for (i = 0; i < n; i++) { xs.push(Math.exp(lo + (0 - lo) * i / (n - 1))); }
        xs[0] = floor;
        xs[n - 1] = 1;
        if (m > 0) {
            [f - t / m, f + (1 - t) / m].forEach(function (e) {
                if (e > floor && e < 1) { xs.push(e); }
            });
            xs.sort(function (a, b) { return a - b; });
        }
        var x = [], y = [];
        xs.forEach(function (v, i) {
            if (i > 0 && v - xs[i - 1] <= 1e-12 * v) { return; }  /* an end on a sample */
            var w = t + m * (v - f);
            if (w >= -1e-12 && w <= 1 + 1e-12) { x.push(v); y.push(Math.min(1, Math.max(0, w))); }
        });
        return [x, y];
    }

    /* Inverse of the standard normal CDF (Acklam's rational approximation). */
    function probit(p) {
        if (p <= 0) { return -Infinity; }
        if (p >= 1) { return Infinity; }
        var a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.3577518672690,
                 -30.66479806614716, 2.506628274631000];
        var b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972,
                 -13.28068155288572];
        var c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838,
                 -2.549732539343734, 4.374664141464968, 2.938163982698783];
        var d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
        var q, r;
        if (p < 0.02425) {
            q = Math.sqrt(-2 * Math.log(p));
            return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
                ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
        }
        if (p > 1 - 0.02425) { return -probit(1 - p); }
        q = p - 0.5;
        r = q * q;
        return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
            (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
    }

    /* customdata rows arrive as arrays, typed arrays or {"0": .., "1": ..} objects (Plotly
     * decodes numpy arrays into typed arrays); make them plain arrays. */
    function row(data) {
        if (!data || typeof data !== "object") { return null; }
        if (Array.isArray(data)) { return data; }
        if (typeof data.length === "number") { return Array.prototype.slice.call(data); }
        return Object.keys(data).sort(function (a, b) { return a - b; })
            .map(function (k) { return data[k]; });
    }

    function fmtThreshold(t) {
        if (t === null || t === undefined || isNaN(t)) { return "+∞"; }
        return Number(t).toPrecision(6).replace(/\.?0+$/, "").replace(/\.?0+e/, "e");
    }

    /* Where the cost view's read-off box sits relative to the optimum (px): below it, clear
     * of the pins above it; beside it near the bottom. roc_dash/figures/cost.py
     * read_off_offset. */
    function readOffOffset(pc, cost) {
        var side = pc <= 0.7 ? 1 : -1;
        return cost >= 0.15 ? [side * 60, 50] : [side * 115, -22];
    }

    /* The decision curve in the cost card (roc_dash/figures/decision_curve.py): the marker
     * at p_t = c(FP) / (c(FP) + c(FN)) (shapes[0]), the star (viz.optimum_trace[2]) and the
     * read-off (annotations[1]) at the joint hull's net benefit there, p·TPR − (1 − p)·FPR·
     * p_t / (1 − p_t) at the hull vertex (f, t) optimal for these costs (the same slope m). */
    function moveDecisionMarker(cfp, cfn, p, f, t, viz) {
        var pt = cfp / (cfp + cfn);
        var patch = new window.dash_clientside.Patch()
            .assign(["layout", "shapes", 0, "x0"], pt)
            .assign(["layout", "shapes", 0, "x1"], pt)
            .assign(["layout", "meta", "p_t"], pt);
        if (!(pt < 1)) { return patch.build(); }
        var nb = p * t - (1 - p) * f * pt / (1 - pt);
        var star = viz.optimum_trace && viz.optimum_trace[2];
        if (typeof star === "number") {
            patch = patch.assign(["data", star, "x"], [pt]).assign(["data", star, "y"], [nb]);
        }
        return patch.assign(["layout", "annotations", 1, "x"], pt)
            .assign(["layout", "annotations", 1, "y"], nb)
            .assign(["layout", "annotations", 1, "ax"], pt <= 0.7 ? 60 : -60)
            .assign(["layout", "annotations", 1, "text"],
                "p<sub>t</sub> = " + fmtThreshold(pt) + "<br>net benefit " + fmtThreshold(nb))
            .assign(["layout", "meta", "net_benefit"], nb)
            .build();
    }

    /* The ROC's star and ring (annotations, roc_dash/figures/marks.py) to (x, y). */
    function moveMarks(patch, viz, x, y) {
        [viz.optimum_note && viz.optimum_note[0], viz.ring_note].forEach(function (k) {
            if (typeof k === "number") {
                patch = patch.assign(["layout", "annotations", k, "x"], x)
                    .assign(["layout", "annotations", k, "y"], y);
            }
        });
        return patch;
    }

    /* roc_dash/figures/roc_axes.py ISO_SAMPLES */
    var ISO_SAMPLES = 241;

    /* Sliders being dragged (their drag_value has left their value). */
    var dragging = {};

    function moveIsoLine(fpLog, fnLog, prior, viz, rocFigure, fpValue, fnValue, priorValue) {
        if (!viz || !viz.hull) { return noUpdate(2); }
        var prop = triggeredProp();
        var slider = prop.split(".")[0];
        var pair = {"cost-fp-slider": [fpLog, fpValue], "cost-fn-slider": [fnLog, fnValue],
                    "prior-slider": [prior, priorValue]}[slider];
        /* The slider follows a value set by the server (a stepper, a typed number, a link):
           the views update is already on its way; redrawing two plots here would only delay
           it. A drag back to where it started still moves the line back. */
        if (pair && arguments.length > 5) {
            var settled = pair[0] === pair[1];
            if (settled && !dragging[slider]) { return noUpdate(2); }
            dragging[slider] = !settled;
        }
        var cfp = viz.cost_fp, cfn = viz.cost_fn, p = viz.prior;
        if (prop.indexOf("cost-fp-slider") === 0 && fpLog !== null && fpLog !== undefined) {
            cfp = Math.pow(10, fpLog);
        } else if (prop.indexOf("cost-fn-slider") === 0 && fnLog !== null && fnLog !== undefined) {
            cfn = Math.pow(10, fnLog);
        } else if (prop.indexOf("prior-slider") === 0 && prior !== null && prior !== undefined) {
            p = prior;
        } else {
            return noUpdate(2);
        }
        var m = window.rocDashOptimum.isoSlope(cfp, cfn, p);
        var pc = 1 / (1 + m);
        var k = optimalVertex(viz.hull, m, viz.tie_rtol);
        var f = viz.hull.fpr[k], t = viz.hull.tpr[k];
        var out = [window.dash_clientside.no_update];
        var isDet = rocFigure && rocFigure.layout && rocFigure.layout.meta &&
            rocFigure.layout.meta.det;
        var meta = (rocFigure && rocFigure.layout && rocFigure.layout.meta) || {};
        if (!isDet && typeof meta.xlog === "number") {
            /* log FPR axis: the iso line is a trace (viz.iso_trace), FPR = 0 at the floor */
            var curve = isoCurve(f, t, m, meta.xlog, ISO_SAMPLES);
            var xf = Math.max(f, meta.xlog);
            var logPatch = new window.dash_clientside.Patch()
                .assign(["layout", "meta", "slope"], m);
            if (typeof viz.iso_trace === "number") {
                logPatch = logPatch.assign(["data", viz.iso_trace, "x"], curve[0])
                    .assign(["data", viz.iso_trace, "y"], curve[1]);
            }
            /* annotations on a log axis are placed by log10 of the value */
            out[0] = moveMarks(logPatch, viz, Math.log10(xf), t).build();
        } else if (!isDet) {
            var line = isoLine(f, t, m);
            var patch = new window.dash_clientside.Patch()
                .assign(["layout", "shapes", 0, "x0"], line[0])
                .assign(["layout", "shapes", 0, "y0"], line[1])
                .assign(["layout", "shapes", 0, "x1"], line[2])
                .assign(["layout", "shapes", 0, "y1"], line[3])
                .assign(["layout", "meta", "slope"], m);
            out[0] = moveMarks(patch, viz, f, t).build();
        }
        if (viz.cost_mode === "decision") {
            out.push(moveDecisionMarker(cfp, cfn, p, f, t, viz));
            return out;
        }
        var cost = (1 - t) * pc + f * (1 - pc);
        var offset = readOffOffset(pc, cost);
        var costPatch = new window.dash_clientside.Patch();
        var costStar = viz.optimum_note && viz.optimum_note[2];
        if (typeof costStar === "number") {
            costPatch = costPatch.assign(["layout", "annotations", costStar, "x"], pc)
                .assign(["layout", "annotations", costStar, "y"], cost);
        }
        out.push(costPatch
            .assign(["layout", "shapes", 0, "x0"], pc)
            .assign(["layout", "shapes", 0, "x1"], pc)
            .assign(["layout", "annotations", 1, "x"], pc)
            .assign(["layout", "annotations", 1, "y"], cost)
            .assign(["layout", "annotations", 1, "ax"], offset[0])
            .assign(["layout", "annotations", 1, "ay"], offset[1])
            .assign(["layout", "annotations", 1, "text"],
                "PC(+) = " + fmtThreshold(pc) + "<br>cost " + fmtThreshold(cost))
            .assign(["layout", "meta", "pc_pos"], pc)
            .build());
        return out;
    }

    /* A name someone supplied, as plotly must draw it: as text (plotly reads <a href>, <b>,
     * <br> in the strings it draws; roc_dash.figures.style.plain does the same server-side). */
    function plainText(text) {
        return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
    }

    /* Index of the annotation reserved for the hover marker (named "hover"). */
    function hoverIndex(figure) {
        var notes = figure && figure.layout && figure.layout.annotations;
        if (!notes) { return -1; }
        for (var i = 0; i < notes.length; i++) {
            if (notes[i] && notes[i].name === "hover") { return i; }
        }
        return -1;
    }

    function hideHover(k) {
        if (k < 0) { return window.dash_clientside.no_update; }
        return new window.dash_clientside.Patch()
            .assign(["layout", "annotations", k, "visible"], false).build();
    }

    function showHover(k, x, y, text) {
        if (k < 0) { return window.dash_clientside.no_update; }
        return new window.dash_clientside.Patch()
            .assign(["layout", "annotations", k, "visible"], true)
            .assign(["layout", "annotations", k, "x"], x)
            .assign(["layout", "annotations", k, "y"], y)
            .assign(["layout", "annotations", k, "text"], text).build();
    }

    function linkHover(rocHover, prHover, costHover, thrHover, viz, det, rocFig, prFig, costFig,
                       thrFig) {
        var index = {"roc-graph": hoverIndex(rocFig), "pr-graph": hoverIndex(prFig),
                     "cost-graph": hoverIndex(costFig), "threshold-graph": hoverIndex(thrFig)};
        var prop = triggeredProp();
        var source = prop.split(".")[0];
        var hover = {"roc-graph": rocHover, "pr-graph": prHover, "cost-graph": costHover,
                     "threshold-graph": thrHover}[source];
        /* the first point carrying customdata (with hover unified along x, the threshold
           view reports every line at that x and only its cost line carries it) */
        var point = hover && hover.points && (hover.points.find(function (p) {
            return p && p.customdata !== undefined && p.customdata !== null;
        }) || hover.points[0]);
        var data = row(point && point.customdata);
        var views = ["roc-graph", "pr-graph", "cost-graph", "threshold-graph"];
        if (!viz || !data || data.length < 4 || data[2] === null || data[3] === null) {
            return views.map(function (v) {
                return v === source ? window.dash_clientside.no_update : hideHover(index[v]);
            });
        }
        var f = data[2], t = data[3], pi = viz.prior;
        var m = viz.cost_fp * (1 - pi) / (viz.cost_fn * pi), pc = 1 / (1 + m);
        var name = (viz.models && viz.models[data[0]]) || "trivial classifier";
        /* data[4]: the threshold as the page writes it (toPrecision could round it up) */
        var text = "<b>" + plainText(name) + "</b><br>score ≥ " +
            fmtThreshold(data.length > 4 ? data[4] : data[1]);
        return views.map(function (v) {
            var k = index[v];
            if (v === source) { return window.dash_clientside.no_update; }
            if (v === "roc-graph") {
                if (det && det.length) {
                    if (f <= 0 || f >= 1 || t <= 0 || t >= 1) { return hideHover(k); }
                    return showHover(k, probit(f), probit(1 - t), text);
                }
                var rm = (rocFig && rocFig.layout && rocFig.layout.meta) || {};
                if (typeof rm.xlog === "number") {  /* plotly places notes in decades there */
                    return showHover(k, Math.log10(Math.max(f, rm.xlog)), t, text);
                }
                return showHover(k, f, t, text);
            }
            if (v === "threshold-graph") {
                /* the hovered point's threshold (or share flagged) on this model's axis */
                var tm = (thrFig && thrFig.layout && thrFig.layout.meta) || {};
                if (tm.model !== name) { return hideHover(k); }
                var x = tm.axis === "flagged" ? pi * t + (1 - pi) * f : data[1];
                if (x === null || x === undefined || !isFinite(x)) { return hideHover(k); }
                return showHover(k, x, 0, text);
            }
            if (v === "pr-graph") {
                var meta = (prFig && prFig.layout && prFig.layout.meta) || {};
                if (meta.prg) {  /* recall gain and precision gain */
                    if (t <= 0 || t < pi) { return hideHover(k); }
                    return showHover(k, (t - pi) / ((1 - pi) * t), 1 - f / t, text);
                }
                var d = pi * t + (1 - pi) * f;
                return showHover(k, t, d > 0 ? pi * t / d : 1, text);
            }
            /* the decision curve has no single point for an operating point: no marker */
            if (viz.cost_mode === "decision") { return hideHover(k); }
            return showHover(k, pc, (1 - t) * pc + f * (1 - pc), text);
        });
    }

    /* The page's link, written by the server from the page's state (app/page_state.py,
     * PageState.to_query), into the address bar: no reload, no new history entry. */
    function writeUrl(search) {
        if (typeof search !== "string" || search.charAt(0) !== "?") {
            return window.dash_clientside.no_update;
        }
        if (window.location.search !== search) {
            window.history.replaceState(null, "", window.location.pathname + search);
        }
        return search;
    }

    /* Pass on a relayout of the ROC plot only when it moved the iso line (shapes[0]); a
     * zoom or pan stays in the browser. Each drag gets a fresh stamp so that the same
     * drag twice still reaches the server. */
    function lineDrag(relayout) {
        if (!relayout) { return window.dash_clientside.no_update; }
        /* log FPR and DET axes have no straight line to drag (roc_dash/figures/roc_axes.py):
           a relayout of shapes[0] there comes from a stale handle of the line drawn before */
        var gd = document.querySelector("#roc-graph .js-plotly-plot");
        var meta = (gd && gd.layout && gd.layout.meta) || {};
        if (typeof meta.xlog === "number" || meta.det) {
            return window.dash_clientside.no_update;
        }
        var keys = {}, any = false;
        Object.keys(relayout).forEach(function (k) {
            if (k.indexOf("shapes[0].") === 0) { keys[k] = relayout[k]; any = true; }
        });
        if (!any) { return window.dash_clientside.no_update; }
        keys.stamp = Date.now();
        return keys;
    }

    /* The Slices card: a drag of a group's handle (a circle shape around its operating
     * point) goes to the server as the group (the shape's name) and where it was dropped
     * (the circle's centre); a zoom, a pan or a resize stays in the browser. */
    function slicesDrag(relayout, figure) {
        var none = window.dash_clientside.no_update;
        if (!relayout) { return none; }
        var shapes = ((figure || {}).layout || {}).shapes || [];
        for (var k = 0; k < shapes.length; k++) {
            var p = "shapes[" + k + "].";
            /* a ring is a path (figures/slices.py ring_path): its centre is the middle of
               its coordinates' ranges, x and y alternating */
            if (typeof relayout[p + "path"] === "string") {
                var nums = (relayout[p + "path"].match(/-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?/gi) || [])
                    .map(Number);
                var xs = nums.filter(function (v, i) { return i % 2 === 0; });
                var ys = nums.filter(function (v, i) { return i % 2 === 1; });
                if (!xs.length || xs.length !== ys.length) { continue; }
                return {group: shapes[k].name,
                        fpr: (Math.min.apply(null, xs) + Math.max.apply(null, xs)) / 2,
                        tpr: (Math.min.apply(null, ys) + Math.max.apply(null, ys)) / 2,
                        stamp: Date.now()};
            }
            if ([p + "x0", p + "x1", p + "y0", p + "y1"].every(function (key) {
                return typeof relayout[key] === "number";
            })) {
                return {group: shapes[k].name,
                        fpr: (relayout[p + "x0"] + relayout[p + "x1"]) / 2,
                        tpr: (relayout[p + "y0"] + relayout[p + "y1"]) / 2,
                        stamp: Date.now()};
            }
        }
        return none;
    }

    /* Remember each view's zoom (from its relayout events) so that the server draws the
     * next figure with the same axis ranges: a zoom or pan survives every update.
     * A double-click (autorange) forgets it. */
    function axisRange(relayout, axis) {
        if (relayout[axis + ".autorange"]) { return null; }
        var r = relayout[axis + ".range"];
        if (r && r.length === 2) { return [r[0], r[1]]; }
        var a = relayout[axis + ".range[0]"], b = relayout[axis + ".range[1]"];
        if (a !== undefined && b !== undefined) { return [a, b]; }
        return undefined;
    }

    function keepZoom(rocRelayout, prRelayout, costRelayout, linked, zoom, det) {
        var prop = triggeredProp();
        /* a link's zoom (read by the server: app/page_state.py), until the user zooms */
        if (prop === "zoom-link.data") {
            return linked && !zoom ? linked : window.dash_clientside.no_update;
        }
        var view = {"roc-graph.relayoutData": "roc", "pr-graph.relayoutData": "pr",
                    "cost-graph.relayoutData": "cost"}[prop];
        var relayout = {"roc": rocRelayout, "pr": prRelayout, "cost": costRelayout}[view];
        if (!view || !relayout) { return window.dash_clientside.no_update; }
        /* the cost card's decision curve (roc_dash/app/render.py decision_view) keeps its own
           zoom: its axes are not the cost curves' */
        var gd = document.querySelector("#cost-graph .js-plotly-plot");
        if (view === "cost" && gd && gd.layout && gd.layout.meta &&
                gd.layout.meta.view === "decision") { view = "decision"; }
        var x = axisRange(relayout, "xaxis"), y = axisRange(relayout, "yaxis");
        if (x === undefined && y === undefined) { return window.dash_clientside.no_update; }
        /* a zoom on the log FPR axis is in decades: kept only for that axis */
        var rocGd = document.querySelector("#roc-graph .js-plotly-plot");
        var xlog = view === "roc" && !!(rocGd && rocGd.layout && rocGd.layout.meta &&
            typeof rocGd.layout.meta.xlog === "number");
        var out = Object.assign({}, zoom || {});
        var old = out[view] || {};
        var entry = {x: x === undefined ? old.x || null : x, y: y === undefined ? old.y || null : y,
                     det: view === "roc" && !!(det && det.length)};
        if (xlog) { entry.xlog = true; }
        out[view] = (entry.x || entry.y) ? entry : null;
        return out;
    }

    /* Copy the page's link (it holds the whole view) and say so next to the button; where
     * the clipboard is not available the link is selected in a box for a manual copy. */
    function copyLink(clicks) {
        var href = window.location.href;
        var status = document.getElementById("copy-status");
        function say(text) {
            if (status) {
                status.textContent = text;
                clearTimeout(status._timer);
                status._timer = setTimeout(function () { status.textContent = ""; }, 4000);
            }
        }
        if (!clicks) { return window.dash_clientside.no_update; }
        try {
            navigator.clipboard.writeText(href).then(function () {
                say("Link copied ✓");
            }, function () { say("Copy this link: " + href); });
        } catch (err) {
            say("Copy this link: " + href);
        }
        window._rocCopied = href;
        return "Link copied ✓";
    }

    /* A click on a view pins its point, unless it is the first click of a double click
     * (which resets the zoom): wait out plotly's double-click delay (300 ms), then pass the
     * click on only if no double click came meanwhile. */
    var lastDoubleClick = 0;

    function deferClick(roc, pr, cost, thr) {
        var prop = triggeredProp();
        var source = prop.split(".")[0];
        var click = {"roc-graph": roc, "pr-graph": pr, "cost-graph": cost,
                     "threshold-graph": thr}[source];
        if (!click) { return window.dash_clientside.no_update; }
        var at = Date.now();
        return new Promise(function (resolve) {
            setTimeout(function () {
                /* the callback may run a little after the click itself: a double click
                   up to 400 ms before it counts too */
                resolve(lastDoubleClick >= at - 400 ? window.dash_clientside.no_update :
                        {source: source, click: click, stamp: at});
            }, 360);
        });
    }

    /* A double click restores the view's full axes (layout.meta.home, set by the server),
     * not the zoomed ranges the figure was last drawn with. Listened for on the document
     * (plotly's own listeners go when a figure is redrawn from scratch). */
    document.addEventListener("dblclick", function (e) {
        var gd = e.target.closest && e.target.closest(".js-plotly-plot");
        if (!gd) { return; }
        lastDoubleClick = Date.now();
        var home = gd.layout && gd.layout.meta && gd.layout.meta.home;
        if (home && home.x && home.y && window.Plotly) {
            setTimeout(function () {
                window.Plotly.relayout(gd, {"xaxis.range": home.x.slice(),
                                            "yaxis.range": home.y.slice()});
            }, 30);
        }
    }, true);

    function presentation(value) {
        var root = document.getElementById("app-root");
        var open = root && root.classList.contains("show-sidebar");
        return value && value.length ? "app presenting" + (open ? " show-sidebar" : "") : "app";
    }

    /* The page's tabs (roc_dash/app/features/tabs.py). A click on a tab's button names the
     * tab (its id is "tab-button-" + the tab). */
    function pickTab() {
        var id = triggeredProp().split(".")[0];
        var prefix = "tab-button-";
        if (id.indexOf(prefix) !== 0) { return window.dash_clientside.no_update; }
        return id.slice(prefix.length);
    }

    /* Plotly sizes a graph drawn in a hidden panel by its defaults: once the panel shows,
     * its graphs take the panel's width. */
    function resizeShown(panelId, frames) {
        var panel = document.getElementById(panelId);
        if (!panel || !window.Plotly) { return; }
        if (panel.hidden || !panel.offsetWidth) {  /* Dash has not shown it yet */
            if (frames > 0) {
                window.requestAnimationFrame(function () { resizeShown(panelId, frames - 1); });
            }
            return;
        }
        panel.querySelectorAll(".js-plotly-plot").forEach(function (gd) {
            if (gd.offsetWidth) { window.Plotly.Plots.resize(gd); }
        });
    }

    /* Show the tab's panel and mark its button; the outputs are the panels' "hidden", then
     * the buttons' class and aria-selected (ids "tab-panel-" / "tab-button-" + the tab). */
    function showTab(tab) {
        var outputs = window.dash_clientside.callback_context.outputs_list || [];
        var names = outputs.filter(function (o) { return o.property === "hidden"; })
            .map(function (o) { return o.id.slice("tab-panel-".length); });
        if (names.indexOf(tab) < 0) { tab = names[0]; }
        resizeShown("tab-panel-" + tab, 120);
        return outputs.map(function (o) {
            var name = o.id.replace(/^tab-(panel|button)-/, "");
            if (o.property === "hidden") { return name !== tab; }
            if (o.property === "className") { return name === tab ? "page-tab selected" : "page-tab"; }
            return name === tab ? "true" : "false";
        });
    }

    /* The exact boxes of the costs and the prior: what the user typed since the last Enter
     * or blur (a value the server puts back is not typed), so that Enter or leaving a box
     * that holds a valid value the user typed takes the box's message away, also when the
     * value is the one already in use (no change, so no request: stranger review 11,
     * item 14). */
    var EXACT_BOXES = {"cost-fp": [1e-6, 1e6], "cost-fn": [1e-6, 1e6], "prior": [0, 1]};
    document.addEventListener("input", function (e) {
        var el = e.target;
        if (el && EXACT_BOXES[el.id]) { el.dataset.typed = "1"; }
    }, true);

    function typedValid(id, value) {
        var el = document.getElementById(id);
        var typed = el && el.dataset.typed === "1";
        if (el) { delete el.dataset.typed; }
        if (!typed || typeof value !== "string") { return false; }
        var text = value.trim().replace(",", ".");
        var percent = id === "prior" && text.slice(-1) === "%";
        var v = Number(percent ? text.slice(0, -1) : text);
        if (!text || !isFinite(v)) { return false; }
        if (percent) { v = v / 100; }
        var range = EXACT_BOXES[id];
        return id === "prior" ? v > range[0] && v < range[1] : v >= range[0] && v <= range[1];
    }

    function clearControlMessage() {
        /* inputs: n_submit and n_blur of each box; states: the boxes' values, the message */
        var args = Array.prototype.slice.call(arguments);
        var message = args[args.length - 1];
        var values = {"cost-fp": args[6], "cost-fn": args[7], "prior": args[8]};
        var id = triggeredProp().split(".")[0];
        /* the typed mark is taken on every Enter or blur, message or not */
        var valid = id in values && typedValid(id, values[id]);
        if (!message || !valid) {
            return window.dash_clientside.no_update;
        }
        return "";
    }

    /* merged with what roc_dash_page.js registers (openView, uploadDone), whichever runs first */
    window.dash_clientside = Object.assign({}, window.dash_clientside);
    window.dash_clientside.rocDash = Object.assign({}, window.dash_clientside.rocDash, {
        moveIsoLine: moveIsoLine,
        linkHover: linkHover,
        lineDrag: lineDrag,
        slicesDrag: slicesDrag,
        keepZoom: keepZoom,
        writeUrl: writeUrl,
        copyLink: copyLink,
        presentation: presentation,
        pickTab: pickTab,
        showTab: showTab,
        deferClick: deferClick,
        clearControlMessage: clearControlMessage,
        _optimalVertex: optimalVertex,
        _plainText: plainText,
        _isoLine: isoLine,
        _isoCurve: isoCurve,
        _probit: probit
    });
}());
