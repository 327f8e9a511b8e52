// The trace stepper's steps: the engine's own script, added to every page by the plugin.
// Without it the stepper is whole and static; with it, Previous/Next and the arrow keys move
// through the function's lines, marking the line, the equations it recorded and its prints.
(function () {
  "use strict";

  function setUp(figure) {
    var sources = Array.prototype.slice.call(figure.querySelectorAll("li.eb-src"));
    if (!sources.length || figure.classList.contains("eb-live")) return;
    var lines = sources.map(function (li) { return Number(li.dataset.line); });
    var title = figure.querySelector(".eb-head code");
    var controls = document.createElement("div");
    controls.className = "eb-controls";
    var prev = button("Previous line", "eb-prev");
    var next = button("Next line", "eb-next");
    var status = document.createElement("p");
    status.className = "eb-status";
    status.setAttribute("aria-live", "polite");
    controls.appendChild(prev);
    controls.appendChild(next);
    controls.appendChild(status);
    figure.insertBefore(controls, figure.firstChild);
    var list = figure.querySelector("ol.eb-source");
    list.tabIndex = 0;
    list.setAttribute("aria-label", "The function's lines: the arrow keys step through them");
    figure.classList.add("eb-live");
    figure.querySelectorAll("li > code, .eb-code code").forEach(function (code) {
      var indent = /^ */.exec(code.textContent)[0].length;
      if (indent) code.style.setProperty("--eb-indent", String(indent));
    });
    var at = 0;

    function show(index, moved) {
      at = Math.max(0, Math.min(lines.length - 1, index));
      var line = lines[at];
      sources.forEach(function (li, i) {
        li.classList.toggle("eb-current", i === at);
        if (i === at) li.setAttribute("aria-current", "step");
        else li.removeAttribute("aria-current");
      });
      var hits = [];
      figure.querySelectorAll(".eb-jaxpr li, .eb-prints li").forEach(function (li) {
        var own = li.dataset.line ? Number(li.dataset.line) : null;
        var hit = own === line;
        li.classList.toggle("eb-hit", hit);
        // What a later line records has not been traced yet at this step.
        li.classList.toggle("eb-later", own !== null && lines.indexOf(own) > at);
        if (hit && li.classList.contains("eb-eqn")) hits.push(li);
      });
      var what = sources[at].querySelector(".eb-what").textContent;
      var code = sources[at].querySelector("code").textContent.trim();
      status.textContent = "Step " + (at + 1) + " of " + lines.length + ", line " + line +
        (code ? " (" + code + ")" : "") + ": " + what + ".";
      prev.disabled = at === 0;
      next.disabled = at === lines.length - 1;
      if (moved) bringIntoView(sources[at], hits);
    }

    // The buttons, the current line and the equations it recorded, in view together: each
    // list scrolled to its part (a list scrolls in its own box when the panes are stacked),
    // then the page, as little as it takes.
    function bringIntoView(current, hits) {
      layout();  // the description above may have taken another row
      var stacked = figure.classList.contains("eb-stacked");
      scrollWithin(list, [current]);
      if (hits.length) scrollWithin(hits[0].parentNode, hits);
      var parts = [controls, current].concat(hits.slice(0, stacked ? hits.length : 1));
      var top = Math.min.apply(null, parts.map(function (el) { return el.getBoundingClientRect().top; }));
      var bottom = Math.max.apply(null, parts.map(function (el) { return el.getBoundingClientRect().bottom; }));
      var header = document.querySelector(".md-header");
      var above = header ? header.getBoundingClientRect().bottom : 0;
      var room = window.innerHeight - above;
      var by = 0;
      if (bottom - top > room || top < above) by = top - above - 8;
      else if (bottom > window.innerHeight) by = bottom - window.innerHeight + 8;
      if (by) window.scrollBy({ top: by, behavior: still() ? "auto" : "smooth" });
    }

    // Scroll a list that scrolls in its own box so that its `items` show, the first at least.
    function scrollWithin(box, items) {
      if (box.scrollHeight <= box.clientHeight) return;
      var frame = box.getBoundingClientRect();
      var first = items[0].getBoundingClientRect();
      var last = items[items.length - 1].getBoundingClientRect();
      if (first.top >= frame.top && last.bottom <= frame.bottom) return;
      var span = Math.min(last.bottom - first.top, box.clientHeight);
      box.scrollTop += first.top - frame.top - (box.clientHeight - span) / 2;
    }

    function still() {
      return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    }

    // The panes sit one above the other when the figure is narrow: the program's list then
    // takes the height left in the window under the buttons and the function's lines.
    function layout() {
      var panes = figure.querySelectorAll(".eb-pane");
      var stacked = panes.length > 1 && panes[1].offsetTop > panes[0].offsetTop;
      figure.classList.toggle("eb-stacked", stacked);
      var program = figure.querySelector("ol.eb-jaxpr");
      if (!program) return;
      program.style.maxHeight = "";
      if (!stacked) return;
      var header = document.querySelector(".md-header");
      var above = program.getBoundingClientRect().top - controls.getBoundingClientRect().top;
      var room = window.innerHeight - (header ? header.offsetHeight : 0) - above - 24;
      program.style.maxHeight = Math.max(room, 160) + "px";
    }

    sources.forEach(function (li, i) {
      li.addEventListener("click", function () { show(i, true); });
    });
    prev.addEventListener("click", function () { show(at - 1, true); });
    next.addEventListener("click", function () { show(at + 1, true); });
    figure.addEventListener("keydown", function (event) {
      var moves = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 };
      if (event.key in moves) show(at + moves[event.key], true);
      else if (event.key === "Home") show(0, true);
      else if (event.key === "End") show(lines.length - 1, true);
      else return;
      event.preventDefault();
    });
    layout();
    window.addEventListener("resize", layout);
    show(0, false);
    if (title) figure.setAttribute("aria-label", "Trace stepper of " + title.textContent);
  }

  function button(text, name) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "eb-button " + name;
    b.textContent = text;
    return b;
  }

  function start() {
    document.querySelectorAll("figure.executed-book-stepper").forEach(setUp);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
