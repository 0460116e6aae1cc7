/* roc-dash standalone report: cost and prior controls with no server.
 *
 * Inlined by roc_dash/report/html_interactive.py after the embedded JSON (#rr-data): the exact
 * convex hulls, each vertex with its threshold and the counts of the operating point it
 * stands for. Every number below is computed with the same floating-point operations, in
 * the same order, as the Python core, so that the page names the same optimum:
 *   slope     roc_dash/core/roc/iso_performance.py  pc_pos (the slope: assets/optimum.js)
 *   optimum   assets/optimum.js (window.rocDashOptimum, inlined before this script): the
 *             page's and the report's one copy of iso_gaps and optimal_point's tie rule
 *   the point roc_dash/core/decisions/operating.py        summarise_operating_point, expected_cost
 * Entry point for tests and scripts: window.rocReport.set({cost_fp, cost_fn, prior_pos})
 * returns what the page shows (see pointAt); it is defined once the figures are drawn (or
 * known not to be: plotly_loader.js's window.rocFigures).
 */
(function () {
    "use strict";
    var DATA = JSON.parse(document.getElementById("rr-data").textContent);
    var TINY = 2.2250738585072014e-308;          /* np.finfo(float64).tiny */

    /* JSON has no infinities: the report writes them (and NaN) as strings */
    function num(v) {
        if (v === "inf") { return Infinity; }
        if (v === "-inf") { return -Infinity; }
        if (v === "nan") { return NaN; }
        return v;
    }
    function normal(v) { return TINY <= v && v < Infinity; }

    /* the slope and the optimum: the one rule shared with the page (assets/optimum.js,
       inlined before this script), with core's tie tolerance from the embedded data */
    var OPTIMUM = window.rocDashOptimum;
    var isoSlope = OPTIMUM.isoSlope;
    function optimalIndex(h, m) { return OPTIMUM.optimalIndex(h, m, DATA.tie_rtol); }

    /* pc_pos: PC(+) = p(+)c(FN) / (p(+)c(FN) + p(−)c(FP)), else 1 / (1 + m) */
    function pcPos(cfp, cfn, p) {
        var n = p * cfn, other = (1.0 - p) * cfp;
        if (normal(n) && normal(other) && normal(n + other)) { return n / (n + other); }
        var m = isoSlope(cfp, cfn, p);
        return m === Infinity ? 0.0 : 1.0 / (1.0 + m);
    }

    /* expected_cost: p(+)·(1−TPR)·c(FN) + p(−)·FPR·c(FP), less the benefits per case */
    function expectedCost(f, t, c) {
        var cost = c.prior_pos * (1.0 - t) * c.cost_fn + (1.0 - c.prior_pos) * f * c.cost_fp;
        var b = (c.benefit_tp || c.benefit_tn) ?
            c.prior_pos * c.benefit_tp + (1 - c.prior_pos) * c.benefit_tn : 0.0;
        return cost - b;
    }

    /* The operating point of hull vertex k (summarise_operating_point on its model's
       curve) under conditions c */
    function pointAt(h, k, end, c) {
        var f = h.point_fpr[k], t = h.point_tpr[k], p = c.prior_pos;
        var denom = p * t + (1 - p) * f, pc = pcPos(c.cost_fp, c.cost_fn, p);
        return {
            index: k, model: h.model[k], threshold: num(h.point_threshold[k]),
            hull_fpr: h.fpr[k], hull_tpr: h.tpr[k], fpr: f, tpr: t,
            precision: denom > 0 ? p * t / denom : NaN,
            expected_cost: expectedCost(f, t, c),
            normalized_expected_cost: (1.0 - t) * pc + f * (1.0 - pc),
            tp: h.tp[k], fp: h.fp[k], fn: h.fn[k], tn: h.tn[k],
            per_1000: [1000 * p * t, 1000 * (1 - p) * f, 1000 * p * (1 - t),
                       1000 * (1 - p) * (1 - f)],
            flagged: p * t + (1 - p) * f,
            tie: end === null ? null : {model: h.model[end],
                                        threshold: num(h.point_threshold[end])}
        };
    }

    function solve(c) {
        var m = isoSlope(c.cost_fp, c.cost_fn, c.prior_pos);
        var o = optimalIndex(DATA.joint, m);
        var out = pointAt(DATA.joint, o.index, o.end, c);
        out.slope = m;
        out.pc_pos = pcPos(c.cost_fp, c.cost_fn, c.prior_pos);
        out.conditions = c;
        out.models = DATA.models.map(function (md) {
            var mo = optimalIndex(md.hull, m);
            var k = mo.index, h = md.hull;
            /* a model's own optimum as the model table has it (_operating): the hull vertex */
            return {name: md.name, threshold: num(h.threshold[k]), fpr: h.fpr[k],
                    tpr: h.tpr[k], expected_cost: expectedCost(h.fpr[k], h.tpr[k], c)};
        });
        return out;
    }

    /* ---- text ---- */
    function fmtG(v, digits) {            /* Python's f"{v:.6g}" */
        if (v !== v) { return "n/a"; }
        if (!isFinite(v)) { return v > 0 ? "+∞" : "−∞"; }
        if (v === 0) { return "0"; }
        var e = Math.floor(Math.log10(Math.abs(v)));
        var s = (e < -4 || e >= digits) ? v.toExponential(digits - 1) : v.toPrecision(digits);
        if (s.indexOf("e") >= 0) {
            var parts = s.split("e"), mant = parts[0], ex = parseInt(parts[1], 10);
            if (mant.indexOf(".") >= 0) { mant = mant.replace(/0+$/, "").replace(/\.$/, ""); }
            return mant + "e" + (ex < 0 ? "-" : "+") + (Math.abs(ex) < 10 ? "0" : "") +
                Math.abs(ex);
        }
        if (s.indexOf(".") >= 0) { s = s.replace(/0+$/, "").replace(/\.$/, ""); }
        return s;
    }
    function fix(v, d) { return v !== v ? "n/a" : v.toFixed(d); }
    function esc(s) {
        return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
    }
    function group(v, d) {
        return v.toLocaleString("en-US", {minimumFractionDigits: d, maximumFractionDigits: d});
    }

    function sentence(s) {
        var c = s.conditions;
        var text = "At c(FP) = " + fmtG(c.cost_fp, 4) + ", c(FN) = " + fmtG(c.cost_fn, 4) +
            " and p(+) = " + fmtG(c.prior_pos, 4) + " (iso slope " + fmtG(s.slope, 4) +
            ", PC(+) = " + fmtG(s.pc_pos, 6) + "), the cheapest choice is " + s.model +
            " at score ≥ " + fmtG(s.threshold, 6) + ": it flags " +
            fix(100 * s.flagged, 1) + "% of cases, TPR " + fmtG(s.tpr, 6) + ", FPR " +
            fmtG(s.fpr, 6) + ", precision " + fmtG(s.precision, 6) +
            " at the prior; expected cost " + fmtG(s.expected_cost, 6) + " per case (" +
            group(1000 * s.expected_cost, 1) + " per 1,000 cases).";
        if (s.tie) {
            text += " Tied with " + s.tie.model + " at score ≥ " + fmtG(s.tie.threshold, 6) +
                ": any mix of the two costs the same.";
        }
        return text;
    }

    function matrix(id, a, d) {
        document.getElementById(id).innerHTML =
            "<thead><tr><th></th><th>flagged</th><th>not flagged</th></tr></thead><tbody>" +
            "<tr><th>actual positive</th><td class=\"num\">" + group(a[0], d) + " (TP)</td>" +
            "<td class=\"num\">" + group(a[2], d) + " (FN)</td></tr>" +
            "<tr><th>actual negative</th><td class=\"num\">" + group(a[1], d) + " (FP)</td>" +
            "<td class=\"num\">" + group(a[3], d) + " (TN)</td></tr></tbody>";
    }

    function modelTable(s) {
        document.getElementById("rr-models").innerHTML =
            "<thead><tr><th>Model</th><th>Optimal threshold</th><th>TPR</th><th>FPR</th>" +
            "<th>Expected cost</th></tr></thead><tbody>" + s.models.map(function (r) {
                return "<tr><td>" + esc(r.name) + "</td><td class=\"num\">≥ " +
                    fmtG(r.threshold, 6) + "</td><td class=\"num\">" + fmtG(r.tpr, 6) +
                    "</td><td class=\"num\">" + fmtG(r.fpr, 6) + "</td><td class=\"num\">" +
                    fmtG(r.expected_cost, 6) + "</td></tr>";
            }).join("") + "</tbody>";
    }

    /* ---- figures (found by id; traces and annotations by name, as the figure modules make them) */
    function graph(id) {                 /* null where the figure is not drawn */
        var gd = document.getElementById(id);
        return window.Plotly && gd && gd.data ? gd : null;
    }
    /* Move the annotations named `name` (figures/marks.py: the optimum's star "optimum" and
       ring "optimum ring") to (x, y), with `more` ({hovertext: ..}) */
    function moveNote(gd, name, x, y, more) {
        var upd = {};
        ((gd.layout && gd.layout.annotations) || []).forEach(function (a, k) {
            if (a.name !== name) { return; }
            upd["annotations[" + k + "].x"] = x;
            upd["annotations[" + k + "].y"] = y;
            Object.keys(more || {}).forEach(function (key) {
                upd["annotations[" + k + "]." + key] = more[key];
            });
        });
        if (Object.keys(upd).length) { Plotly.relayout(gd, upd); }
    }

    /* figures/roc.py iso_line_endpoints: the line of slope m through (f, t) in the square */
    function isoLine(f, t, m) {
        if (!isFinite(m)) { return [f, 0.0, f, 1.0]; }
        var lo = m > 0 ? f - t / m : 0.0, hi = m > 0 ? f + (1 - t) / m : 1.0;
        var x0 = Math.max(0.0, lo), x1 = Math.min(1.0, hi);
        return [x0, t + m * (x0 - f), x1, t + m * (x1 - f)];
    }

    function drawRoc(s) {
        var gd = graph("rr-roc");
        if (!gd) { return; }
        var e = isoLine(s.hull_fpr, s.hull_tpr, s.slope);
        Plotly.relayout(gd, {"shapes[0].x0": e[0], "shapes[0].y0": e[1],
                             "shapes[0].x1": e[2], "shapes[0].y1": e[3]});
        moveNote(gd, "optimum ring", s.hull_fpr, s.hull_tpr);
        moveNote(gd, "optimum", s.hull_fpr, s.hull_tpr);
    }

    /* Precision at another prior, from precision at the exported one: the odds scale by
       [p'(1−p)] / [(1−p')p] (precision = p·TPR / (p·TPR + (1−p)·FPR)) */
    function reprior(y, p0, p1) {
        var k = ((1 - p1) * p0) / (p1 * (1 - p0));
        return y.map(function (v) {
            return (v === null || v <= 0 || v >= 1) ? v : 1 / (1 + (1 / v - 1) * k);
        });
    }

    /* A trace's numbers as an array: plotly.py sends numpy arrays as {dtype, bdata}
       (base64 of the little-endian buffer), which plotly.js may keep in gd.data */
    var TYPED = {f8: Float64Array, f4: Float32Array, i4: Int32Array, u4: Uint32Array,
                 i2: Int16Array, u2: Uint16Array, i1: Int8Array, u1: Uint8Array};
    function values(a) {
        if (a && a.bdata !== undefined && TYPED[a.dtype]) {
            var raw = atob(a.bdata), bytes = new Uint8Array(raw.length);
            for (var i = 0; i < raw.length; i++) { bytes[i] = raw.charCodeAt(i); }
            return Array.from(new TYPED[a.dtype](bytes.buffer));
        }
        return Array.from(a || []);
    }

    /* the optimum star's hover text (figures/cost.py optimum_text) */
    function optimumText(s) {
        return "optimum: <b>" + esc(s.model) + "</b><br>threshold ≥ " + fmtG(s.threshold, 6);
    }

    var ORIGINAL = {};
    function drawPr(s) {
        var gd = graph("rr-pr");
        if (!gd) { return; }
        var p0 = DATA.conditions.prior_pos, p1 = s.conditions.prior_pos;
        if (!ORIGINAL.pr) {
            ORIGINAL.pr = gd.data.map(function (t) { return values(t.y); });
        }
        var idx = [], ys = [], names = [];
        gd.data.forEach(function (t, i) {
            if (t.uid === "optimum") { return; }
            if (t.customdata || /^pinned/.test(t.name || "")) {
                idx.push(i); ys.push(reprior(ORIGINAL.pr[i], p0, p1)); names.push(t.name);
            } else if (/^baseline/.test(t.name || "")) {
                idx.push(i); ys.push([p1, p1]);
                names.push("baseline (precision = π = " + fmtG(p1, 3) + ")");
            }
        });
        if (idx.length) { Plotly.restyle(gd, {y: ys, name: names}, idx); }
        var d = p1 * s.hull_tpr + (1 - p1) * s.hull_fpr;
        var prec = d > 0 ? p1 * s.hull_tpr / d : 1.0;
        moveNote(gd, "optimum", s.hull_tpr, prec, {hovertext: optimumText(s) + "<br>recall " +
                 fmtG(s.hull_tpr, 4) + "<br>precision " + fmtG(prec, 4)});
        Plotly.relayout(gd, {"yaxis.title.text": "Precision at p(+) = " + fmtG(p1, 3)});
    }

    /* figures/cost.py read_off_offset */
    function readOffOffset(pc, cost) {
        var side = pc <= 0.7 ? 1 : -1;
        return cost >= 0.15 ? [side * 60, 50] : [side * 115, -22];
    }

    function drawCost(s) {
        var gd = graph("rr-cost");
        if (!gd) { return; }
        var pc = s.pc_pos, y = s.normalized_expected_cost, off = readOffOffset(pc, y);
        Plotly.relayout(gd, {
            "shapes[0].x0": pc, "shapes[0].x1": pc,
            "annotations[1].x": pc, "annotations[1].y": y, "annotations[1].ax": off[0],
            "annotations[1].ay": off[1],
            "annotations[1].text": "PC(+) = " + fmtG(pc, 6) + "<br>cost " + fmtG(y, 6)});
        moveNote(gd, "optimum", pc, y, {hovertext: optimumText(s) + "<br>normalised cost " +
                 fmtG(y, 4)});
        var idx = [], xs = [], ys = [];
        gd.data.forEach(function (t, i) {
            /* a pin's marker follows its cost line (the trace before it) to PC(+) */
            var prev = gd.data[i - 1];
            if (/^pinned/.test(t.name || "") && t.mode === "markers+text" && prev &&
                    /cost line$/.test(prev.name || "")) {
                idx.push(i); xs.push([pc]); var py = values(prev.y);
                ys.push([py[0] + (py[1] - py[0]) * pc]);
            }
        });
        if (idx.length) { Plotly.restyle(gd, {x: xs, y: ys}, idx); }
    }

    /* ---- controls ---- */
    var KEYS = ["cost_fp", "cost_fn", "prior_pos"];
    var LOG = {cost_fp: true, cost_fn: true, prior_pos: false};
    var current = Object.assign({}, DATA.conditions);

    function valid(key, v) {
        return isFinite(v) && v > 0 && (key !== "prior_pos" || v < 1);
    }

    /* The text at once; the figures once per animation frame, with the latest setting (a
       slider drag or a script sets many in a frame: plotly redraws only the last) */
    var pending = null;
    function show(s) {
        document.getElementById("rr-sentence").textContent = sentence(s);
        matrix("rr-confusion", [s.tp, s.fp, s.fn, s.tn], 0);
        matrix("rr-per1000", s.per_1000, 1);
        modelTable(s);
        if (pending === null) {
            window.requestAnimationFrame(function () {
                var last = pending;
                pending = null;
                drawRoc(last);
                drawPr(last);
                drawCost(last);
            });
        }
        pending = s;
    }

    function syncInputs(skip) {
        KEYS.forEach(function (key) {
            var v = current[key];
            /* six significant digits shown; the setting itself is exact (current) */
            if (key !== skip) { document.getElementById("rr-" + key).value = fmtG(v, 6); }
            document.getElementById("rr-" + key + "-slider").value =
                String(LOG[key] ? Math.log10(v) : v);
        });
    }

    /* Set any of cost_fp, cost_fn, prior_pos; returns the optimum and what is shown */
    function set(values, skip) {
        var next = Object.assign({}, current);
        KEYS.forEach(function (key) {
            if (values && values[key] !== undefined) { next[key] = Number(values[key]); }
        });
        var bad = KEYS.filter(function (k) { return !valid(k, next[k]); });
        if (bad.length) {
            throw new Error(bad.join(", ") + ": costs must be positive numbers and the " +
                            "prior lie strictly between 0 and 1");
        }
        current = next;
        var s = solve(current);
        syncInputs(skip);
        show(s);
        return Object.assign({}, s);  /* the caller's copy: the figures draw from `s` */
    }

    /* wire up once the figures are drawn (plotly_loader.js, after this script in the page:
       window.rocFigures); where they cannot be, the sentence and the tables still follow */
    function init() {
        KEYS.forEach(function (key) {
            var slider = document.getElementById("rr-" + key + "-slider");
            var box = document.getElementById("rr-" + key);
            slider.addEventListener("input", function () {
                var v = Number(slider.value), val = {};
                val[key] = LOG[key] ? Math.pow(10, v) : v;
                set(val);
            });
            box.addEventListener("input", function () {
                var v = Number(box.value), val = {};
                if (box.value === "" || !valid(key, v)) {
                    box.setCustomValidity(key === "prior_pos" ? "a prior strictly between 0 and 1"
                                          : "a positive cost");
                    box.reportValidity();
                    return;
                }
                box.setCustomValidity("");
                val[key] = v;
                set(val, key);
            });
        });
        document.getElementById("rr-reset").addEventListener("click", function () {
            set(DATA.conditions);
        });

        window.rocReport = {set: set, solve: solve, state: function () { return solve(current); }};
        set(DATA.conditions);
    }
    function start() { (window.rocFigures || Promise.resolve(false)).then(init); }
    if (document.readyState === "loading") {
        document.addEventListener("DOMContentLoaded", start);
    } else {
        start();
    }
}());
