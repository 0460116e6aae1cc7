/* roc-dash page behaviour that is not a clientside callback's computation (split from
 * roc_dash.js, which Dash loads first: assets load in name order):
 * - openView, uploadDone, removeRequest, keepSource: clientside callbacks of the notes and data features;
 * - gateTabs: the later tabs' cards take a cost or prior only while their tab shows;
 * - a failed update retried, then reported (updateNotice); uploads streamed to /upload with
 *   progress, Cancel and retries on 503 (sendFiles, initUpload; a refusal such as 429, the
 *   sender's share of uploads waiting is full, is shown and not retried, and the drop's
 *   files already sent are cancelled); the owner header on every request (withOwner);
 * - keyboard help for dropdowns and the tab bar; the views' "download as SVG" button;
 * - the caret of Dash's text boxes stays where the user typed.
 */
(function () {
    "use strict";

    /* Open a saved view: its query string holds the datasets, controls and pins. */
    function openView(clicks, views) {
        var t = window.dash_clientside.callback_context.triggered;
        if (!t || !t.length || !t[0].value) { return window.dash_clientside.no_update; }
        var id = JSON.parse(t[0].prop_id.split(".")[0]);
        var view = (views || []).filter(function (v) { return v.name === id.index; })[0];
        if (!view) { return "That view is gone."; }
        window.location.search = view.query || "";
        return "Opening " + view.name + "…";
    }

    /* A × of the dataset list clicked: which dataset (the datasets callback removes it).
     * The buttons appearing (n_clicks 0) send nothing to the server. */
    function removeRequest() {
        var t = window.dash_clientside.callback_context.triggered || [];
        var hit = t.filter(function (x) { return x.value; })[0];
        if (!hit) { return window.dash_clientside.no_update; }
        var id = JSON.parse(hit.prop_id.slice(0, hit.prop_id.lastIndexOf(".")));
        return {index: id.index, clicks: hit.value, at: Date.now()};
    }

    /* The prior's source chosen, kept in the tab's session store (a bare URL opens the
     * session's datasets with it); none chosen yet: nothing written. */
    function keepSource(value) {
        return value ? value : window.dash_clientside.no_update;
    }

    /* A failed update (a worker killed mid-request, a restart, a dropped connection) is
     * retried twice; if it still fails, the page says so above the views and greys them out
     * as stale until an update succeeds. Never silently stale figures. */
    function updateNotice(state) {
        var box = document.getElementById("update-failed");
        var views = document.querySelector(".views");
        if (!box) { return; }
        if (state === "ok") {
            box.hidden = true;
            if (views) { views.classList.remove("stale"); }
            return;
        }
        box.hidden = false;
        box.textContent = state === "retrying" ?
            "An update did not reach the server; retrying…" :
            "An update failed (the server may be restarting): the views may be out of date. " +
            "Change any control to try again, or reload the page.";
        if (views) { views.classList.toggle("stale", state === "failed"); }
    }

    /* 503 with Retry-After (a worker reading another upload, or receiving too many): the
     * seconds to wait, else null. The page says so and counts down, then sends it again. */
    var MAX_BUSY_RETRIES = 40;

    function retryAfter(response) {
        if (response.status !== 503) { return null; }
        var header = response.headers && response.headers.get ?
            response.headers.get("Retry-After") : null;
        var seconds = parseInt(header, 10);
        return isFinite(seconds) && seconds >= 0 ? Math.min(Math.max(seconds, 1), 60) : null;
    }

    function busyCountdown(seconds, what) {
        var box = document.getElementById("update-failed");
        var left = seconds;
        function show() {
            if (!box) { return; }
            box.hidden = false;
            box.textContent = what + ", retrying in " + left + " s…";
        }
        show();
        return new Promise(function (resolve) {
            var timer = setInterval(function () {
                left -= 1;
                if (left <= 0) { clearInterval(timer); resolve(); return; }
                show();
            }, 1000);
        });
    }

    /* This browser's own key (random, made once, kept in localStorage): sent with every
     * request as X-Roc-Dash-Owner, it makes this browser the owner of what it uploads
     * (without sign-in): only the owner's × deletes a dataset or changes its note. */
    var OWNER_HEADER = "X-Roc-Dash-Owner";
    var ownerKey = (function () {
        var key = null;
        try { key = window.localStorage.getItem("roc-dash-owner"); } catch (err) { key = null; }
        if (!key || !/^[A-Za-z0-9_-]{20,64}$/.test(key)) {
            var bytes = new Uint8Array(24);
            window.crypto.getRandomValues(bytes);
            key = btoa(String.fromCharCode.apply(null, bytes))
                .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
            try { window.localStorage.setItem("roc-dash-owner", key); } catch (err) { /* this page only */ }
        }
        return key;
    }());

    function withOwner(init) {
        var headers = new Headers((init && init.headers) || {});
        headers.set(OWNER_HEADER, ownerKey);
        return Object.assign({}, init || {}, {headers: headers});
    }

    (function wrapFetch() {
        if (!window.fetch || window.fetch._rocDash) { return; }
        var plain = window.fetch;
        var wrapped = function (input, init) {
            var url = typeof input === "string" ? input : (input && input.url) || "";
            if (url.indexOf("_dash-update-component") === -1) {
                return plain.apply(this, arguments);
            }
            init = withOwner(init);
            var attempt = 0, busy = 0;
            function again() {
                attempt += 1;
                updateNotice("retrying");
                return new Promise(function (r) { setTimeout(r, 700 * attempt); }).then(once);
            }
            function later(seconds) {  /* 503 + Retry-After: this worker is busy */
                busy += 1;
                return busyCountdown(seconds, "The server is busy").then(once);
            }
            function once() {
                return plain(input, init).then(function (response) {
                    var wait = retryAfter(response);
                    if (wait !== null && busy < MAX_BUSY_RETRIES) { return later(wait); }
                    if (response.status >= 500 && attempt < 2) { return again(); }
                    updateNotice(response.status >= 500 ? "failed" : "ok");
                    return response;
                }, function (error) {
                    if (attempt < 2) { return again(); }
                    updateNotice("failed");
                    throw error;
                });
            }
            return once();
        };
        wrapped._rocDash = true;
        window.fetch = wrapped;
    }());

    /* Streaming upload: the drop zone (#upload) sends each file of a drop as the raw body of
     * POST /upload (see roc_dash/app/server/upload_route.py) with a progress bar and a Cancel
     * button, then hands the batch token to the server through the streamed-upload store.
     * Errors (413 too large, a failed request) are shown in the page's error box. */
    function token() {
        var bytes = new Uint8Array(24);
        window.crypto.getRandomValues(bytes);
        return btoa(String.fromCharCode.apply(null, bytes))
            .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    }

    function setProps(id, props) {
        if (window.dash_clientside && window.dash_clientside.set_props) {
            window.dash_clientside.set_props(id, props);
        }
    }

    var current = null;  /* the drop being sent: {batch, xhr, cancelled} */

    /* The upload route under the app's URL prefix (ROC_DASH_URL_PREFIX, e.g. /roc/ behind a
     * proxy): Dash's requests_pathname_prefix from its config, not a path relative to the
     * page's, which a link to a deeper path would change. */
    function uploadUrl(query) {
        var prefix = "/";
        try {
            var config = document.getElementById("_dash-config");
            prefix = JSON.parse(config.textContent).requests_pathname_prefix || "/";
        } catch (err) { prefix = "/"; }
        return prefix + "upload?" + query;
    }

    function showProgress(fraction, text) {
        var box = document.getElementById("upload-progress");
        if (!box) { return; }
        box.hidden = fraction === null;
        var bar = box.querySelector("progress"), label = box.querySelector(".progress-text");
        if (bar && fraction !== null) { bar.value = fraction; }
        if (label) { label.textContent = text || ""; }
    }

    function failUpload(message) {
        current = null;
        showProgress(null);
        setProps("upload-status", {children: ""});
        setProps("upload-error", {children: message});
    }

    function sendFiles(files) {
        files = Array.prototype.slice.call(files || []);
        if (!files.length) { return; }
        if (current) { cancelUpload(); }
        var drop = {batch: token(), xhr: null, cancelled: false};
        current = drop;
        var total = files.reduce(function (a, f) { return a + f.size; }, 0) || 1;
        var done = 0, busy = 0;
        setProps("upload-error", {children: ""});
        var names = files.map(function (f) { return f.name; }).join(", ");
        /* the drop failed: its files already sent would wait on the server, unread, and
         * count against this browser's share of uploads waiting until they expire */
        function giveUp(message) {
            deleteBatch(drop.batch);
            failUpload(message);
        }
        function next(i) {
            if (drop.cancelled) { return; }
            if (i >= files.length) {
                showProgress(1, "Reading " + names + " …");
                current = null;
                setProps("streamed-upload", {data: {batch: drop.batch, stamp: Date.now()}});
                return;
            }
            var file = files[i];
            var xhr = new XMLHttpRequest();
            drop.xhr = xhr;
            xhr.open("POST", uploadUrl("batch=" + drop.batch + "&index=" + i + "&name=" +
                                       encodeURIComponent(file.name)));
            xhr.setRequestHeader("Content-Type", "application/octet-stream");
            xhr.setRequestHeader(OWNER_HEADER, ownerKey);
            xhr.upload.onprogress = function (e) {
                var f = (done + e.loaded) / total;
                showProgress(f, "Uploading " + file.name + ": " + Math.round(100 * f) + "%");
            };
            xhr.onload = function () {
                if (drop.cancelled) { return; }
                var body = {};
                try { body = JSON.parse(xhr.responseText); } catch (err) { body = {}; }
                var wait = parseInt(xhr.getResponseHeader("Retry-After"), 10);
                if (xhr.status === 503 && isFinite(wait) && busy < MAX_BUSY_RETRIES) {
                    busy += 1;  /* the server receives other uploads: send it again */
                    var left = Math.min(Math.max(wait, 1), 60);
                    var tick = function () {
                        if (drop.cancelled) { return; }
                        if (left <= 0) { next(i); return; }
                        showProgress(done / total, "Server busy, retrying " + file.name +
                                     " in " + left + " s…");
                        left -= 1;
                        setTimeout(tick, 1000);
                    };
                    tick();
                    return;
                }
                if (xhr.status !== 200 || !body.ok) {
                    giveUp(body.error || (file.name + ": the upload failed (HTTP " +
                        xhr.status + "). Nothing was changed."));
                    return;
                }
                done += file.size;
                next(i + 1);
            };
            xhr.onerror = function () {
                if (!drop.cancelled) {
                    giveUp(file.name + ": the upload failed (the connection was lost). " +
                               "Nothing was changed; try again.");
                }
            };
            xhr.send(file);
        }
        showProgress(0, "Uploading " + names + ": 0%");
        next(0);
    }

    /* The server has answered a drop (status or error box written): the "Reading …" row
     * and its Cancel button go away, unless another drop is being sent meanwhile. */
    function uploadDone() {
        if (!current) { showProgress(null); }
        return window.dash_clientside.no_update;
    }

    function deleteBatch(batch) {
        var xhr = new XMLHttpRequest();
        xhr.open("DELETE", uploadUrl("batch=" + batch));
        xhr.setRequestHeader(OWNER_HEADER, ownerKey);
        xhr.send();
    }

    function cancelUpload() {
        var drop = current;
        if (!drop) { return; }
        drop.cancelled = true;
        if (drop.xhr) { drop.xhr.abort(); }
        deleteBatch(drop.batch);
        current = null;
        showProgress(null);
        setProps("upload-status", {children: "Upload cancelled; nothing was changed."});
    }

    function initUpload() {
        var zone = document.getElementById("upload");
        var cancel = document.getElementById("upload-cancel");
        if (!zone || zone.querySelector("input[type=file]")) { return; }
        /* the file chooser (Dash has no file input component) */
        var input = document.createElement("input");
        input.type = "file";
        input.multiple = true;
        input.id = "upload-input";
        input.className = "file-input";
        input.tabIndex = -1;
        input.accept = zone.getAttribute("data-accept") || "";
        zone.appendChild(input);
        zone.addEventListener("click", function (e) {
            if (e.target !== input) { input.click(); }
        });
        zone.addEventListener("keydown", function (e) {
            if (e.key === "Enter" || e.key === " ") { e.preventDefault(); input.click(); }
        });
        zone.addEventListener("dragover", function (e) {
            e.preventDefault();
            zone.classList.add("dragging");
        });
        zone.addEventListener("dragleave", function () { zone.classList.remove("dragging"); });
        zone.addEventListener("drop", function (e) {
            e.preventDefault();
            zone.classList.remove("dragging");
            sendFiles(e.dataTransfer && e.dataTransfer.files);
        });
        input.addEventListener("change", function () {
            var files = input.files;
            sendFiles(files);
            input.value = "";  /* the same file again fires again */
        });
        if (cancel) { cancel.addEventListener("click", cancelUpload); }
    }
    setInterval(initUpload, 300);

    /* Dropdowns by keyboard. When a list that already has a value opens, Dash focuses the
     * selected option, so typed letters went nowhere and Enter kept the previous value
     * ("gradient" + Enter in the pin row kept naive Bayes and pinned it): a letter typed
     * while an option has the focus goes to the list's search box instead. In the pin row,
     * Enter then picks the match and moves on to the threshold box (its text selected):
     * choosing a model never pins; a threshold is pinned only when confirmed there (Enter)
     * or with the Pin button. */
    document.addEventListener("keydown", function (e) {
        var content = e.target.closest && e.target.closest(".dash-dropdown-content");
        if (!content) { return; }
        var search = content.querySelector("input.dash-dropdown-search");
        if (search && e.target !== search && e.key && e.key.length === 1 &&
                !e.ctrlKey && !e.metaKey && !e.altKey) {
            search.focus();  /* the key's character lands in the search box */
            return;
        }
        if (e.key === "Enter" && document.querySelector("#pin-model[aria-expanded='true']")) {
            setTimeout(function () {  /* after the dropdown has taken the match */
                var box = document.getElementById("pin-threshold");
                if (box) { box.focus(); box.select(); }
            }, 80);
        }
    }, true);

    /* The tab bar by keyboard (a tab list's usual keys): Left/Right, Home/End open the
     * neighbouring, first or last tab and move the focus to it. */
    document.addEventListener("keydown", function (e) {
        var tab = e.target.closest && e.target.closest("#tab-bar [role=tab]");
        if (!tab) { return; }
        var tabs = Array.prototype.slice.call(tab.parentNode.querySelectorAll("[role=tab]"));
        var k = tabs.indexOf(tab), n = tabs.length;
        var next = {ArrowRight: (k + 1) % n, ArrowLeft: (k + n - 1) % n, Home: 0,
                    End: n - 1}[e.key];
        if (next === undefined) { return; }
        e.preventDefault();
        tabs[next].focus();
        tabs[next].click();
    });

    /* In presentation mode the sidebar folds away; this button shows it again. */
    document.addEventListener("click", function (e) {
        var button = e.target.closest && e.target.closest("#sidebar-toggle");
        if (!button) { return; }
        var root = document.getElementById("app-root");
        if (root) {
            root.classList.toggle("show-sidebar");
            button.setAttribute("aria-expanded", root.classList.contains("show-sidebar"));
            setTimeout(function () { window.dispatchEvent(new Event("resize")); }, 50);
        }
    });

    /* Exported images: one file name per view (roc-dash-roc.png, -pr, -cost) and a title
     * line with the conditions they were drawn under. */
    var VIEW_TITLES = {"roc-graph": "ROC", "pr-graph": "Precision-recall",
                       "cost-graph": "Cost curves"};

    function downloadView(gd, format) {
        var host = gd.closest ? gd.closest("[id$='-graph']") : null;
        var id = host ? host.id : "roc-graph";
        var meta = (gd.layout && gd.layout.meta) || {};
        var full = gd._fullLayout || {};
        var size = (full.font && full.font.size) || 14;
        var small = Math.max(Math.round(size * 0.8), 10);
        /* the title sits above the plot and plotly grows the top margin to hold both of its
           lines (automargin); a fixed position cut the first line off */
        var name = meta.view === "decision" ? "Decision curve" : (VIEW_TITLES[id] || id);
        var title = "<b>roc-dash · " + name + "</b>" +
            (meta.conditions ? "<br><span style='font-size:" + small + "px'>" +
             meta.conditions + "</span>" : "");
        var layout = Object.assign({}, gd.layout, {
            title: {text: title, x: 0, xref: "paper", xanchor: "left", y: 1, yref: "paper",
                    yanchor: "bottom", automargin: true, pad: {b: Math.round(size * 0.8)},
                    font: {size: size}}
        });
        return window.Plotly.downloadImage({data: gd.data, layout: layout}, {
            format: format, scale: 2,
            filename: "roc-dash-" + (meta.view === "decision" ? "decision-curve"
                                     : id.replace(/-graph$/, "")),
            width: full.width || 800, height: (full.height || 560) + 3 * size + 20
        });
    }

    function addSvgButton() {
        if (!window.Plotly || !window.Plotly.setPlotConfig) { return false; }
        window.Plotly.setPlotConfig({
            modeBarButtonsToRemove: ["toImage", "lasso2d", "select2d"],
            modeBarButtonsToAdd: [{
                name: "downloadPng",
                title: "Download plot as PNG (with the conditions)",
                icon: window.Plotly.Icons.camera,
                click: function (gd) { downloadView(gd, "png"); }
            }, {
                name: "downloadSvg",
                title: "Download plot as SVG (with the conditions)",
                icon: window.Plotly.Icons.disk,
                click: function (gd) { downloadView(gd, "svg"); }
            }]
        });
        return true;
    }
    if (!addSvgButton()) {
        var tries = 0, timer = setInterval(function () {
            if (addSvgButton() || ++tries > 200) { clearInterval(timer); }
        }, 50);
    }

    /* dcc.Input with debounce puts the caret back after each keystroke with a timer, at the
     * position it read before the timer ran (dash 4.4, Input.tsx). A key handled in between,
     * as when the page is busy drawing the views, is followed by a jump back, and the next key
     * lands at the old caret: "7.5" became "75.". While a Dash text box has the focus, the
     * caret is already where the user typed: such a collapsed move is dropped. */
    var setSelection = HTMLInputElement.prototype.setSelectionRange;
    HTMLInputElement.prototype.setSelectionRange = function (start, end, direction) {
        if (start === end && document.activeElement === this &&
                this.classList.contains("dash-input-element")) {
            return undefined;
        }
        return setSelection.call(this, start, end, direction);
    };

    /* The gate of each later tab's cards (roc_dash/app/features/tabs.py): its store (id
     * "tab-gate-" + the tab) takes the tab shown when the tab changes, and again on a new
     * cost, prior or view data while its tab is shown; otherwise it is left alone, so the
     * cards of a hidden tab (the store their input) send no request on a cost or prior
     * click. A first tab unknown is the first tab, as the page starts. */
    function gateTabs(tab) {
        var ctx = window.dash_clientside.callback_context;
        var byTab = (ctx.triggered || []).some(function (t) { return t.prop_id === "tab.data"; });
        var tabs = (ctx.outputs_list || []).map(function (o) { return o.id.slice("tab-gate-".length); });
        var shown = tabs.indexOf(tab) < 0 ? null : tab;
        return tabs.map(function (name) {
            return byTab || name === shown ? tab : window.dash_clientside.no_update;
        });
    }

    window.dash_clientside = Object.assign({}, window.dash_clientside);
    window.dash_clientside.rocDash = Object.assign({}, window.dash_clientside.rocDash, {
        gateTabs: gateTabs,
        openView: openView,
        uploadDone: uploadDone,
        removeRequest: removeRequest,
        keepSource: keepSource
    });
}());
