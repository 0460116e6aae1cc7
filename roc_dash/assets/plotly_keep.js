/* Plotly.react keeps the traces that did not change.
 *
 * plotly.py sends numpy arrays as base64 ({dtype, bdata}); plotly.js decodes them into NEW
 * typed arrays each time it reads a figure, and Plotly.react, seeing a data array of a new
 * identity, recomputes every trace of the view (tens of ms a view) even when a cost click's
 * patch changed its layout alone. Setting layout.datarevision does not help by itself: the
 * diff skips unchanged-revision arrays only when they are plain Arrays, and a typed array of
 * a new identity still sets the calc flag.
 *
 * So, before every Plotly.react: each {dtype, bdata} is decoded once and the same typed array
 * is handed on while its content (dtype, shape, bdata) is the same; a changed content gets a
 * new array, which plotly recomputes. And layout.datarevision is set to a digest of the
 * traces' data (unless the figure sets its own), so that plain-array data (lists of strings,
 * short lists) of a new identity but the same content is not recomputed either, while any
 * change of content changes the digest. The layout's template keeps its identity too (see
 * sameTemplate), and so does its meta while plotly draws (see keep). Nothing here depends on which path changed the
 * figure (full figure, patch, clientside callback): the digest is of what is drawn.
 * dash's own copy of the figure (the graph's `figure` prop) is not modified. */
(function () {
    "use strict";
    var current = new Map(), previous = new Map(), LIMIT = 4000;

    function isSpec(v) {
        return v !== null && typeof v === "object" && !Array.isArray(v) &&
            typeof v.dtype === "string" && typeof v.bdata === "string";
    }

    var TYPES = {i1: window.Int8Array, u1: window.Uint8Array, u1c: window.Uint8ClampedArray,
                 i2: window.Int16Array, u2: window.Uint16Array, i4: window.Int32Array,
                 u4: window.Uint32Array, f4: window.Float32Array, f8: window.Float64Array};

    /* a spec decoded as plotly.js decodes it (lib/array.js decodeTypedArraySpec: 1, 2 or 3
     * dimensions, the last the fastest); undefined for what this does not know */
    function decode(spec) {
        var Type = TYPES[spec.dtype], text, bytes, k;
        if (!Type) { return undefined; }
        text = window.atob(spec.bdata);
        bytes = new Uint8Array(text.length);
        for (k = 0; k < text.length; k += 1) { bytes[k] = text.charCodeAt(k); }
        var buffer = bytes.buffer, size = Type.BYTES_PER_ELEMENT;
        var shape = spec.shape === undefined ? [buffer.byteLength / size]
            : String(spec.shape).split(",").map(Number);
        var out, offset = 0, i, j;
        if (shape.length === 1) {
            out = new Type(buffer);
        } else if (shape.length === 2) {
            out = [];
            for (i = 0; i < shape[0]; i += 1) {
                out.push(new Type(buffer, offset, shape[1]));
                offset += size * shape[1];
            }
        } else if (shape.length === 3) {
            out = [];
            for (i = 0; i < shape[0]; i += 1) {
                out.push([]);
                for (j = 0; j < shape[1]; j += 1) {
                    out[i].push(new Type(buffer, offset, shape[2]));
                    offset += size * shape[2];
                }
            }
        } else {
            return undefined;
        }
        out.bdata = spec.bdata;
        out.dtype = spec.dtype;
        out.shape = shape.join(",");
        return out;
    }

    /* the decoded array for a spec: the same object while the content is the same */
    function decoded(spec) {
        var key = spec.dtype + "|" + (spec.shape === undefined ? "" : String(spec.shape)) +
            "|" + spec.bdata;
        var hit = current.get(key);
        if (hit === undefined) {
            hit = previous.get(key);
            if (hit === undefined) {
                hit = decode(spec);
                if (hit === undefined) { return spec; }
            }
            if (current.size >= LIMIT) { previous = current; current = new Map(); }
            current.set(key, hit);
        }
        return hit;
    }

    /* a copy of `value` with its specs replaced (copied only along the paths to a spec;
     * an array whose first item is not an object holds no spec and is not walked) */
    function convert(value) {
        if (isSpec(value)) { return decoded(value); }
        var out = value, k, item, next;
        if (Array.isArray(value)) {
            if (!value.length || value[0] === null || typeof value[0] !== "object") {
                return value;
            }
            for (k = 0; k < value.length; k += 1) {
                item = value[k];
                if (item !== null && typeof item === "object") {
                    next = convert(item);
                    if (next !== item) {
                        if (out === value) { out = value.slice(); }
                        out[k] = next;
                    }
                }
            }
            return out;
        }
        if (value !== null && typeof value === "object") {
            for (k in value) {
                if (!Object.prototype.hasOwnProperty.call(value, k)) { continue; }
                item = value[k];
                if (item !== null && typeof item === "object") {
                    next = convert(item);
                    if (next !== item) {
                        if (out === value) { out = Object.assign({}, value); }
                        out[k] = next;
                    }
                }
            }
        }
        return out;
    }

    /* cyrb53: a 53-bit string hash (public domain, bryc) */
    function digest(text) {
        var h1 = 0xdeadbeef, h2 = 0x41c6ce57, i, ch;
        for (i = 0; i < text.length; i += 1) {
            ch = text.charCodeAt(i);
            h1 = Math.imul(h1 ^ ch, 2654435761);
            h2 = Math.imul(h2 ^ ch, 1597334677);
        }
        h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
        h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
        return "d" + text.length + "-" + (4294967296 * (2097151 & h2) + (h1 >>> 0));
    }

    /* the same template object while its content is the same: dcc.Graph hands plotly a copy
     * of the layout on each draw, and a template of a new identity (an editType "calc"
     * attribute of valType "any", compared by identity) recomputes every trace */
    var templates = new Map();
    function sameTemplate(template) {
        var key = JSON.stringify(template), hit = templates.get(key);
        if (hit === undefined) {
            if (templates.size >= 16) { templates.clear(); }
            templates.set(key, template);
            hit = template;
        }
        return [hit, key];
    }

    /* Whether a trace reads layout.meta, by the digest of the traces' data as sent: a
     * trace's text reads it only when the trace has no meta of its own (see readsLayoutMeta);
     * a view's traces are the same across most draws (a click moves the layout), so each
     * content is read once, not stringified trace by trace on each draw. */
    var dataReads = new Map();
    function dataReadsMeta(data, text, key) {
        var hit = dataReads.get(key), k;
        if (hit !== undefined) { return hit; }
        hit = text.indexOf("layout.meta") >= 0;
        if (!hit && text.indexOf("%{meta") >= 0) {
            for (k = 0; k < data.length && !hit; k += 1) {
                hit = Boolean(data[k] && !data[k].meta &&
                              JSON.stringify(data[k]).indexOf("%{meta") >= 0);
            }
        }
        if (dataReads.size >= 64) { dataReads.clear(); }
        dataReads.set(key, hit);
        return hit;
    }

    /* Whether a text drawn reads layout.meta: a trace's "%{meta}" reads the trace's own meta
     * when it has one (plotly.js, plots.js: a trace's _meta is its own meta, the layout's
     * only for a trace without one); a layout text's "%{meta}" and any "layout.meta" read
     * the layout's. `text` is JSON.stringify(data), `key` its digest, `templateText` the
     * template's JSON (already made by sameTemplate: not stringified twice). */
    function readsLayoutMeta(data, text, key, layout, templateText) {
        var rest;
        if (dataReadsMeta(data, text, key)) { return true; }
        rest = Object.assign({}, layout);
        delete rest.meta;
        delete rest.template;
        text = JSON.stringify(rest) + (templateText || "");
        return text.indexOf("%{meta") >= 0 || text.indexOf("layout.meta") >= 0;
    }

    /* JSON.stringify(data) and its digest, made once per data array: dash hands dcc.Graph
     * the same `data` array after a patch of the layout alone (a cost or prior click's
     * ROC and cost views), so its 10-100 KB are not stringified and hashed again. */
    var texts = new WeakMap();
    function dataText(data) {
        var hit = data && typeof data === "object" ? texts.get(data) : undefined, text;
        if (hit === undefined) {
            text = JSON.stringify(data || []);
            hit = [text, digest(text)];
            if (data && typeof data === "object") { texts.set(data, hit); }
        }
        return hit;
    }

    /* `layout` with the digest of `data`, the template kept, and, when nothing drawn reads
     * it (see readsLayoutMeta), the meta object plotly drew last: layout.meta
     * (editType "plot", where the app keeps the slope and conditions for its scripts) of a
     * new identity redraws every trace, even with nothing to compute. The new meta is put
     * back by `restore` once plotly has read the layout. */
    function keep(gd, data, layout) {
        var out = convert(data || []), later;
        if (layout && typeof layout === "object") {
            var extra = {}, made = dataText(data), text = made[0], key = made[1], template;
            if (layout.datarevision === undefined) { extra.datarevision = key; }
            if (layout.template && typeof layout.template === "object") {
                template = sameTemplate(layout.template);
                extra.template = template[0];
            }
            var drawn = gd && gd.layout;
            if (drawn && drawn.meta !== undefined && layout.meta !== undefined &&
                    layout.meta !== drawn.meta &&
                    !readsLayoutMeta(data || [], text, key, layout, template && template[1])) {
                later = layout.meta;
                extra.meta = drawn.meta;
            }
            layout = Object.assign({}, layout, extra);
        }
        return [out, layout, later];
    }

    function restore(gd, meta) {
        if (meta === undefined || !gd) { return; }
        if (gd.layout) { gd.layout.meta = meta; }
        if (gd._fullLayout) { gd._fullLayout.meta = meta; }
    }

    function wrap(Plotly) {
        if (!Plotly || typeof Plotly.react !== "function" || Plotly.react._rocKeeps) { return; }
        var react = Plotly.react;
        var wrapped = function (gd, data, layout, config) {
            var kept = [], done;
            try {
                if (data && typeof data === "object" && !Array.isArray(data)) {
                    kept = keep(gd, data.data, data.layout);
                    data = Object.assign({}, data, {data: kept[0], layout: kept[1]});
                } else if (Array.isArray(data)) {
                    kept = keep(gd, data, layout || {});
                    data = kept[0];
                    layout = kept[1];
                }
            } catch (err) {  // never in the way of a drawing: plotly then decodes as before
                kept = [];
                if (window.console) { window.console.warn("plotly_keep:", err); }
            }
            done = react.call(this, gd, data, layout, config);
            restore(gd, kept[2]);
            return done;
        };
        wrapped._rocKeeps = true;
        Plotly.react = wrapped;
    }

    window.rocDashPlotlyKeep = {wrap: wrap, digest: digest, readsLayoutMeta: readsLayoutMeta};
    if (window.Plotly) {
        wrap(window.Plotly);
    } else {
        var held;
        try {
            Object.defineProperty(window, "Plotly", {
                configurable: true,
                enumerable: true,
                get: function () { return held; },
                set: function (value) { held = value; wrap(value); }
            });
        } catch (err) {
            var poll = window.setInterval(function () {
                if (window.Plotly) { window.clearInterval(poll); wrap(window.Plotly); }
            }, 20);
        }
    }
}());
