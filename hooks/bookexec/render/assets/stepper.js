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
      if (moved && hits.length) {
        var still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
        hits[0].scrollIntoView({ block: "nearest", inline: "nearest", behavior: still ? "auto" : "smooth" });
      }
    }

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
