/* roc-dash's one optimum rule in the browser: window.rocDashOptimum.
 *
 * Used by the page (assets/roc_dash.js: the iso line and ring moved while a slider is dragged)
 * and by the standalone report (report_assets/standalone.js; roc_dash/report/html_interactive.py
 * inlines this file before it). Each function repeats, with the same double operations in the
 * same order, a function of the Python core, so that the browser names the optimum the server
 * names, ties included:
 *   isoSlope      roc_dash/core/roc/iso_performance.py  iso_performance_slope
 *   isoGaps       roc_dash/core/roc/hull.py             iso_gaps
 *   optimalIndex  roc_dash/core/roc/hull.py             optimal_point (index, on_segment end)
 * The tie tolerance is not written here: it is core's TIE_RTOL, sent by the server with the
 * hull (the page's viz store, the report's embedded data) and passed in as `rtol`.
 * tests/fixtures/optimum_cases.json is the one table of cases both are checked on.
 */
(function () {
    "use strict";
    var TINY = 2.2250738585072014e-308;          /* np.finfo(float64).tiny */
    var LOG_MAX = Math.log(Number.MAX_VALUE);

    function normal(v) { return TINY <= v && v < Infinity; }

    /* iso_performance_slope: m = c(FP)·p(−) / (c(FN)·p(+)), through logarithms when a
     * product leaves the normal range (an overflowing slope is +inf, an underflowing one 0) */
    function isoSlope(cfp, cfn, p) {
        var n = cfp * (1.0 - p), d = cfn * p;
        if (normal(n) && normal(d)) { return n / d; }
        var logM = (Math.log(cfp) + Math.log1p(-p)) - (Math.log(cfn) + Math.log(p));
        return logM > LOG_MAX ? Infinity : Math.exp(logM);
    }

    /* iso_gaps for segment k (vertex k to k + 1): how far it rises above the iso line of
     * slope m through vertex k, and the tolerance within which that is a tie */
    function isoGap(f, t, k, m, rtol) {
        if (m <= 1.0) {
            return [(t[k + 1] - t[k]) - m * (f[k + 1] - f[k]),
                    rtol * ((t[k] + t[k + 1]) + m * (f[k] + f[k + 1]))];
        }
        return [(t[k + 1] - t[k]) / m - (f[k + 1] - f[k]),
                rtol * ((t[k] + t[k + 1]) / m + (f[k] + f[k + 1]))];
    }

    /* optimal_point: walking the hull {fpr, tpr} from (0, 0), the first vertex whose outgoing
     * segment does not rise above the iso line through it (gap <= tol), else the last; when
     * that segment lies on the line (gap >= -tol) the whole segment is optimal: `index` is its
     * conservative end (fewer cases flagged) and `end` the other, else `end` is null. */
    function optimalIndex(hull, m, rtol) {
        if (!(typeof rtol === "number" && rtol >= 0)) {
            throw new Error("rocDashOptimum.optimalIndex: rtol (core's TIE_RTOL) is required");
        }
        var f = hull.fpr, t = hull.tpr, last = f.length - 1;
        for (var k = 0; k < last; k++) {
            var g = isoGap(f, t, k, m, rtol);
            if (g[0] <= g[1]) { return {index: k, end: g[0] >= -g[1] ? k + 1 : null}; }
        }
        return {index: last, end: null};
    }

    window.rocDashOptimum = {isoSlope: isoSlope, isoGap: isoGap, optimalIndex: optimalIndex};
}());
