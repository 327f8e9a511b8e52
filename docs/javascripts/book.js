// Code boxes: each line of a box becomes a box of its own, so that a line too long for the
// column wraps under its own indentation, past a marker (book.css), instead of starting again
// at the left edge, where it would read as a new, dedented statement. The text is unchanged:
// what the copy button copies and what a reader selects are the same characters.
(function () {
  "use strict";

  var BOXES = ".md-typeset pre > code, .md-content .jupyter-wrapper pre";

  // The nodes of `node`, split at its newlines: one list of nodes a line, an element split
  // across lines cloned (without children) into each.
  function split(node) {
    if (node.nodeType === Node.TEXT_NODE) {
      return node.data.split("\n").map(function (part) {
        return part ? [document.createTextNode(part)] : [];
      });
    }
    if (node.nodeType !== Node.ELEMENT_NODE) return [[node.cloneNode(true)]];
    var lines = [[]];
    Array.prototype.forEach.call(node.childNodes, function (child) {
      split(child).forEach(function (nodes, i) {
        if (i > 0) lines.push([]);
        Array.prototype.push.apply(lines[lines.length - 1], nodes);
      });
    });
    return lines.map(function (nodes) {
      if (!nodes.length) return [];
      var shell = node.cloneNode(false);
      shell.removeAttribute("id");  // an anchor id stays on its first part only
      nodes.forEach(function (n) { shell.appendChild(n); });
      return [shell];
    });
  }

  function lineify(box) {
    if (box.dataset.bookLines || !box.textContent.trim()) return;
    box.dataset.bookLines = "";
    var lines = [[]];
    Array.prototype.forEach.call(box.childNodes, function (child) {
      split(child).forEach(function (nodes, i) {
        if (i > 0) lines.push([]);
        Array.prototype.push.apply(lines[lines.length - 1], nodes);
      });
    });
    var done = document.createDocumentFragment();
    lines.forEach(function (nodes, i) {
      if (i > 0) done.appendChild(document.createTextNode("\n"));
      if (!nodes.length && i === lines.length - 1) return;
      var line = document.createElement("span");
      line.className = "book-line";
      nodes.forEach(function (n) { line.appendChild(n); });
      var indent = /^[ \t]*/.exec(line.textContent)[0].length;
      if (indent) line.style.setProperty("--book-indent", String(indent));
      done.appendChild(line);
    });
    box.replaceChildren(done);
  }

  function start() {
    document.querySelectorAll(BOXES).forEach(lineify);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
