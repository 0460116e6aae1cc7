/* Accessibility of the page's components (WCAG 2.1 AA; see docs/accessibility.md).
 *
 * Dash 4's components render some parts whose attributes no Python property reaches: the
 * slider thumbs (role=slider, unnamed), the option lists of RadioItems and Checklist
 * (role=listbox around radio inputs, so interactive controls nest in options), the
 * dropdowns' hidden focus target (tabindex=0 under aria-hidden) and Plotly's mode bar (eight
 * Tab stops per graph). This script repairs them where they are drawn, and again whenever
 * React draws them anew (a MutationObserver), and gives every graph a name and a short live
 * text summary with a link to the table that holds its numbers.
 */
(function () {
  "use strict";

  /* The visible label of a control: the nearest .control-label, label or heading found
   * walking up from the element (at most five levels), or the title of a wrapper. */
  function visibleLabel(el) {
    var node = el;
    for (var depth = 0; node && depth < 6; depth++, node = node.parentElement) {
      if (node.id) {
        var lab = document.querySelector('label[for="' + node.id + '"]');
        if (lab && lab.textContent.trim()) { return lab.textContent.trim(); }
      }
      var own = node.querySelector(":scope > .control-label, :scope > .label-row > .control-label," +
                                   " :scope > label.control-label");
      if (own && own.textContent.trim()) { return own.textContent.trim(); }
    }
    node = el;
    for (depth = 0; node && depth < 4; depth++, node = node.parentElement) {
      var said = node.getAttribute &&
                 (node.getAttribute("title") || node.getAttribute("data-help"));
      if (said) { return said.split(/[.:(]/)[0].trim(); }
    }
    return "";
  }

  function nameSliders(root) {
    root.querySelectorAll('[role="slider"]').forEach(function (thumb) {
      if (thumb.getAttribute("aria-label") || thumb.getAttribute("aria-labelledby")) { return; }
      var slider = thumb.closest(".dash-slider-wrapper");
      var host = slider ? slider.parentElement : thumb.parentElement;
      var name = visibleLabel(host) || "Slider";
      var thumbs = host.querySelectorAll('[role="slider"]');
      if (thumbs.length > 1) {
        var k = Array.prototype.indexOf.call(thumbs, thumb);
        name += k === 0 ? " (lower end)" : " (upper end)";
      }
      thumb.setAttribute("aria-label", name);
    });
  }

  /* RadioItems and Checklist: a radio group (or a group of check boxes) named by its
   * visible label; the options are plain labels around their inputs. */
  function groupOptions(root) {
    root.querySelectorAll(".dash-options-list").forEach(function (list) {
      var radios = list.querySelector('input[type="radio"]') !== null;
      var role = radios ? "radiogroup" : "group";
      if (list.getAttribute("role") !== role) { list.setAttribute("role", role); }
      if (!list.getAttribute("aria-label")) {
        var name = visibleLabel(list);
        if (name) { list.setAttribute("aria-label", name); }
      }
      list.querySelectorAll(":scope > [role='option'], :scope > [aria-selected]").forEach(
        function (option) {
          option.removeAttribute("role");
          option.removeAttribute("aria-selected");
        });
    });
  }

  /* A dropdown's trigger button takes the Tab stop itself (the hidden focus target that
   * passes focus on to it leaves the tab order), named by the control's label. */
  function dropdownFocus(root) {
    root.querySelectorAll("input.dash-dropdown-focus-target").forEach(function (target) {
      if (target.tabIndex !== -1) { target.tabIndex = -1; }
      var wrapper = target.parentElement;
      var trigger = wrapper && wrapper.querySelector("button");
      if (trigger && trigger.tabIndex !== 0 && !trigger.disabled) { trigger.tabIndex = 0; }
      if (trigger && !trigger.getAttribute("aria-label")) {
        var name = visibleLabel(wrapper);
        if (name) {
          trigger.setAttribute("aria-label", name + ": " + trigger.textContent.trim());
        }
      }
    });
  }

  /* A dropdown's search box (drawn in the open list, outside the control) has a placeholder
   * at most: named after the open dropdown's label ("Search model"). */
  function nameDropdownSearch(root) {
    root.querySelectorAll("input.dash-dropdown-search").forEach(function (box) {
      if (box.getAttribute("aria-label")) { return; }
      var open = document.querySelector("button[aria-expanded='true']");
      var name = open ? (open.getAttribute("aria-label") || "").split(":")[0].trim() : "";
      if (!name && open) { name = visibleLabel(open.parentElement || open); }
      box.setAttribute("aria-label", name ? "Search " + name : "Search the options");
    });
  }

  /* Plotly's mode bar: out of the Tab order (the export buttons of the top bar and the
   * sliders are the keyboard's way to the same results). */
  function quietModebars(root) {
    root.querySelectorAll(".modebar-btn").forEach(function (b) {
      if (b.getAttribute("tabindex") !== "-1") { b.setAttribute("tabindex", "-1"); }
    });
  }

  /* File inputs of upload areas (a decision record's, ...): named by what their area shows. */
  function nameFileInputs(root) {
    root.querySelectorAll('input[type="file"]').forEach(function (input) {
      if (input.getAttribute("aria-label") || (input.labels && input.labels.length)) { return; }
      var area = input.parentElement;
      var text = area ? area.textContent.trim() : "";
      input.setAttribute("aria-label", text || "Choose a file");
    });
  }

  /* A table that scrolls (a narrow window, a long list) takes a Tab stop, as a named region,
   * so that a keyboard can scroll it; one that fits takes none. */
  function scrollableTables(root) {
    root.querySelectorAll(".table-scroll").forEach(function (box) {
      var scrolls = box.scrollWidth > box.clientWidth + 1 ||
                    box.scrollHeight > box.clientHeight + 1;
      var marked = box.getAttribute("data-a11y-scroll") === "1";
      if (scrolls && !marked) {
        var card = box.closest(".card");
        var head = card && card.querySelector("h2, h3");
        box.setAttribute("tabindex", "0");
        box.setAttribute("role", "region");
        box.setAttribute("aria-label", "Table" + (head ? ": " + head.textContent.trim() : ""));
        box.setAttribute("data-a11y-scroll", "1");
      } else if (!scrolls && marked) {
        box.removeAttribute("tabindex");
        box.removeAttribute("role");
        box.removeAttribute("aria-label");
        box.removeAttribute("data-a11y-scroll");
      }
    });
  }

  /* Help by keyboard and touch: a help text that is only the title of an element that takes
   * no focus (a label, a heading, a table header, a wrapper) becomes a toggletip, a "?"
   * button after the element: Enter, Space, a click or a tap shows the text (announced, a
   * polite live region that the button's aria-describedby names), Escape or leaving the
   * button hides it; the pointer's hover shows it too. The element keeps its title (the
   * mouse's tooltip) and notes the text it has a toggletip for as data-help. */
  var FOCUSABLE = "a[href], button, input, select, textarea, summary, [tabindex], " +
                  "[contenteditable], [role='tab'], [role='button'], [role='slider'], option";
  var WIDGETS = "[role='combobox'], [role='listbox'], [role='menu'], [role='grid'], " +
                "[role='tree'], .dash-dropdown, .dash-dropdown-wrapper";
  var tipCount = 0;
  var openTip = null;

  function helpName(el) {
    var own = el.cloneNode(true);
    own.querySelectorAll(".help-toggletip, input, select, .dash-options-list").forEach(
      function (n) { n.remove(); });
    var words = own.textContent.replace(/\s+/g, " ").trim();
    return words.length > 0 && words.length <= 60 ? words : "";
  }

  function showTip(tip, on) {
    var button = tip.querySelector(".help-tip");
    var bubble = tip.querySelector(".help-bubble");
    if (on && openTip && openTip !== tip) { showTip(openTip, false); }
    button.setAttribute("aria-expanded", on ? "true" : "false");
    bubble.textContent = on ? tip.getAttribute("data-text") : "";  // said when it appears
    bubble.hidden = !on;
    bubble.style.left = "";
    bubble.style.right = "";
    if (on) {  // kept inside the window: anchored at its right end near the right edge
      var r = bubble.getBoundingClientRect();
      if (r.right > document.documentElement.clientWidth - 4) {
        bubble.style.left = "auto";
        bubble.style.right = "-0.5em";
      }
    }
    if (!on) { tip.removeAttribute("data-pinned"); }
    openTip = on ? tip : (openTip === tip ? null : openTip);
  }

  function makeTip(el, text) {
    var id = "help-tip-" + (++tipCount);
    var tip = document.createElement("span");
    tip.className = "help-toggletip";
    tip.setAttribute("data-text", text);
    var button = document.createElement("button");
    button.type = "button";
    button.className = "help-tip";
    // the "?" is drawn by the style sheet: the text around it reads as before
    var name = helpName(el) || text.split(/[.:(;]/)[0].trim().slice(0, 60);
    button.setAttribute("aria-label", name ? "Help: " + name : "Help");
    button.setAttribute("aria-expanded", "false");
    button.setAttribute("aria-describedby", id);
    var bubble = document.createElement("span");
    bubble.id = id;
    bubble.className = "help-bubble";
    bubble.setAttribute("role", "status");
    bubble.hidden = true;
    tip.appendChild(button);
    tip.appendChild(bubble);
    button.addEventListener("click", function (e) {
      e.preventDefault();
      e.stopPropagation();  // not the label's control, not a sort of the table
      // a click (Enter, Space, a tap) keeps the help shown until the next one; shown by
      // the pointer's hover only, the click keeps it
      var pinned = tip.getAttribute("data-pinned") === "1";
      showTip(tip, !pinned);
      if (!pinned) { tip.setAttribute("data-pinned", "1"); }
    });
    button.addEventListener("keydown", function (e) {
      if (e.key === "Escape" && button.getAttribute("aria-expanded") === "true") {
        e.preventDefault();
        e.stopPropagation();
        showTip(tip, false);
      }
    });
    button.addEventListener("blur", function () { showTip(tip, false); });
    button.addEventListener("mouseenter", function () {
      if (button.getAttribute("aria-expanded") !== "true") { showTip(tip, true); }
    });
    button.addEventListener("mouseleave", function () {
      if (tip.getAttribute("data-pinned") !== "1") { showTip(tip, false); }
    });
    return tip;
  }

  function toggletips(root) {
    root.querySelectorAll("[title]").forEach(function (el) {
      var text = (el.getAttribute("title") || "").trim();
      if (!text || el.matches(FOCUSABLE) || el.closest(".js-plotly-plot, svg, .help-toggletip") ||
          el.closest("[aria-hidden='true']") || el === document.body) { return; }
      if (el.getAttribute("data-help") === text) { return; }  // done already
      el.setAttribute("data-help", text);
      var next = el.nextElementSibling;
      var tip = el.querySelector(":scope > .help-toggletip") ||
                (next && next.classList.contains("help-toggletip") ? next : null);
      if (tip) { tip.setAttribute("data-text", text); return; }
      // a title repeating words the element shows adds nothing, unless they are cut ("…")
      var words = el.textContent.replace(/\s+/g, " ").trim();
      if (words.indexOf(text) >= 0 && el.scrollWidth <= el.clientWidth + 1) { return; }
      if (el.matches("td")) {
        // a data cell's title (a matrix's p-values) is read with the cell (its description),
        // not a "?" in every cell: the table keeps its width and its Tab stops
        el.setAttribute("aria-description", text);
        return;
      }
      tip = makeTip(el, text);
      var display = window.getComputedStyle(el).display;
      var widget = el.closest(WIDGETS);
      if (widget) {
        widget.insertAdjacentElement("afterend", tip);  // never inside a control
      } else if (el.matches("h1, h2, h3, h4, h5, th, td, li, p, label")) {
        // at the end of its text, which stays whole; a label's control keeps its own words
        // as its name (not the help button's)
        var control = el.htmlFor && document.getElementById(el.htmlFor);
        var own = helpName(el);
        if (control && own && !control.getAttribute("aria-label") &&
            !control.getAttribute("aria-labelledby")) {
          control.setAttribute("aria-label", own);
        }
        el.appendChild(tip);
      } else if (display.indexOf("inline") === 0 || display === "contents") {
        el.insertAdjacentElement("afterend", tip);  // a label's name stays its own words
      } else {
        el.setAttribute("data-help-corner", "");  // a block: at its top right corner
        // placed against the block, which keeps its own position (the summary strip: sticky)
        if (display && window.getComputedStyle(el).position === "static") {
          el.style.position = "relative";
        }
        el.appendChild(tip);
      }
    });
  }

  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && openTip) { showTip(openTip, false); }
  });

  /* Where each graph's numbers are as a table. */
  var TABLES = {
    "roc-graph": "operating-panel", "pr-graph": "operating-panel",
    "cost-graph": "operating-panel", "threshold-graph": "operating-panel"
  };

  function traceWords(gd) {
    var names = [];
    (gd.data || []).forEach(function (t) {
      if (t.name && t.showlegend !== false && t.visible !== "legendonly" &&
          names.indexOf(t.name) < 0) { names.push(t.name); }
    });
    return names;
  }

  function titleOf(gd) {
    var t = gd.layout && gd.layout.title;
    var text = t && (typeof t === "string" ? t : t.text);
    if (text) { return String(text).replace(/<[^>]+>/g, ""); }
    var meta = gd.layout && gd.layout.meta;  // a name given for this graph of a card of several
    if (meta && typeof meta.title === "string") { return meta.title; }
    var card = gd.closest(".card");
    var head = card && card.querySelector("h2, h3");
    return head ? head.textContent.trim() : "Graph";
  }

  function axisTitle(ax) {
    var t = ax && ax.title;
    return t ? String(typeof t === "string" ? t : (t.text || "")).replace(/<[^>]+>/g, "") : "";
  }

  /* A graph's name and its short summary: what it shows and the chosen point. */
  function describeGraph(gd) {
    // dcc.Graph: the plotly div inside the component's div, which carries the id
    var host = gd.id ? gd : (gd.parentElement && gd.parentElement.closest("[id]"));
    if (!host || !host.id) { return; }
    var sid = host.id + "-a11y-summary";
    var summary = document.getElementById(sid);
    if (!summary) {
      summary = document.createElement("div");
      summary.id = sid;
      summary.className = "sr-summary";
      summary.setAttribute("aria-live", "polite");
      var text = document.createElement("span");
      text.className = "sr-summary-text";
      summary.appendChild(text);
      var table = document.getElementById(TABLES[host.id] || "model-table") ||
                  document.getElementById("operating-panel");
      if (table) {
        var link = document.createElement("a");
        link.href = "#" + table.id;
        link.className = "sr-summary-link";
        link.textContent = "The numbers as a table";
        summary.appendChild(document.createTextNode(" "));
        summary.appendChild(link);
      }
      host.parentElement.insertBefore(summary, host.nextSibling);
    }
    var title = titleOf(gd);
    var layout = gd.layout || {};
    var x = axisTitle(layout.xaxis), y = axisTitle(layout.yaxis);
    var names = traceWords(gd);
    var versus = /^against /.test(x) ? " " : " against ";  // "class i" / "against class j"
    var words = title + (x && y ? ": " + y + versus + x : "") + ". " +
      (names.length ? "Shows " + names.join("; ") + "." : "Nothing drawn yet.");
    var op = document.getElementById("operating-panel");
    var kind = op && op.querySelector(".op-kind");
    var model = op && op.querySelector("table.metrics td");
    if (TABLES[host.id] && kind && model) {
      words += " Chosen point: " + model.textContent.trim() + ", " + kind.textContent.trim() + ".";
    }
    var span = summary.querySelector(".sr-summary-text");
    if (span.textContent !== words) { span.textContent = words; }
    if (host.getAttribute("role") !== "figure") { host.setAttribute("role", "figure"); }
    if (host.getAttribute("aria-label") !== title) { host.setAttribute("aria-label", title); }
    if (host.getAttribute("aria-describedby") !== sid) {
      host.setAttribute("aria-describedby", sid);
    }
  }

  function describeGraphs(root) {
    root.querySelectorAll(".js-plotly-plot").forEach(function (gd) {
      if (!gd.__a11yHooked && gd.on) {
        gd.__a11yHooked = true;
        gd.on("plotly_afterplot", function () { describeGraph(gd); quietModebars(gd); });
      }
      describeGraph(gd);
    });
  }

  /* After a removal, focus goes to the dataset list (not the page's body, where the removed
   * confirm button left it); the removal box, a live region, announces what went. */
  var lastRemoval = null;
  function focusAfterRemoval(root) {
    var done = root.querySelector("#removal .removal.done");
    if (!done || done === lastRemoval) { return; }
    lastRemoval = done;
    var list = document.getElementById("dataset-list");
    if (!list) { return; }
    if (!list.hasAttribute("tabindex")) { list.setAttribute("tabindex", "-1"); }
    var active = document.activeElement;
    if (!active || active === document.body || !document.body.contains(active)) {
      list.focus();
    }
  }

  function repair() {
    var root = document.body;
    if (!root) { return; }
    nameSliders(root);
    groupOptions(root);
    dropdownFocus(root);
    nameDropdownSearch(root);
    quietModebars(root);
    nameFileInputs(root);
    scrollableTables(root);
    toggletips(root);
    describeGraphs(root);
    focusAfterRemoval(root);
  }

  var pending = false;
  function schedule() {
    if (pending) { return; }
    pending = true;
    window.requestAnimationFrame(function () { pending = false; repair(); });
  }

  function start() {
    repair();
    new MutationObserver(schedule).observe(document.body, {
      childList: true, subtree: true, attributes: true,
      attributeFilter: ["role", "aria-selected", "tabindex", "title"]
    });
  }

  window.rocDashA11y = { repair: repair };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
