// Hover definitions (issue 40): hovering, focusing or tapping a marked term shows its card
// (the span after it, rendered from the glossary at build time); Escape or a tap elsewhere
// closes it. Without this script the term is a plain link to its glossary entry.
(function () {
  "use strict";
  var open = null;
  var closing = null;
  var quiet = false; // focus given back by Escape does not open the card again

  function cardOf(term) {
    return document.getElementById(term.getAttribute("aria-describedby"));
  }

  function place(term, card) {
    var box = term.getBoundingClientRect();
    var width = card.offsetWidth;
    var left = Math.max(8, Math.min(box.left, window.innerWidth - width - 8));
    card.style.left = left + "px";
    var below = box.bottom + 6;
    var height = card.offsetHeight;
    var top = below + height > window.innerHeight && box.top - height - 6 > 0
      ? box.top - height - 6 : below;
    card.style.top = top + "px";
  }

  function show(term) {
    clearTimeout(closing);
    var card = cardOf(term);
    if (!card) return;
    if (open && open.card !== card) hide();
    card.hidden = false;
    term.setAttribute("aria-expanded", "true");
    place(term, card);
    open = { term: term, card: card };
  }

  function hide() {
    clearTimeout(closing);
    if (!open) return;
    open.card.hidden = true;
    open.term.setAttribute("aria-expanded", "false");
    open = null;
  }

  function hideSoon() {
    clearTimeout(closing);
    closing = setTimeout(hide, 200);
  }

  function within(node) {
    return open && (open.term.contains(node) || open.card.contains(node));
  }

  document.querySelectorAll("a.executed-book-term").forEach(function (term) {
    var card = cardOf(term);
    if (!card) return;
    term.setAttribute("aria-expanded", "false");
    term.addEventListener("mouseenter", function () { show(term); });
    term.addEventListener("mouseleave", hideSoon);
    term.addEventListener("focus", function () {
      if (!quiet) show(term);
      quiet = false;
    });
    term.addEventListener("blur", function (event) {
      if (!card.contains(event.relatedTarget)) hideSoon();
    });
    // A touch screen has no hover: the first tap shows the card, a second follows the link.
    // (A tap also sends mouseenter, which opens the card before the click: what counts is
    // whether it was open when the finger came down.)
    var touched = false;
    var wasOpen = false;
    term.addEventListener("pointerdown", function (event) {
      touched = event.pointerType === "touch" || event.pointerType === "pen";
      wasOpen = open !== null && open.term === term;
    });
    term.addEventListener("click", function (event) {
      var touch = touched || window.matchMedia("(hover: none)").matches;
      if (touch && !wasOpen) {
        event.preventDefault();
        show(term);
      }
    });
    card.addEventListener("mouseenter", function () { clearTimeout(closing); });
    card.addEventListener("mouseleave", hideSoon);
    card.addEventListener("focusout", function (event) {
      if (!within(event.relatedTarget)) hideSoon();
    });
  });

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && open) {
      var term = open.term;
      var inside = open.card.contains(document.activeElement);
      hide();
      if (inside) {
        quiet = true;
        term.focus({ preventScroll: true });
      }
    }
  });
  document.addEventListener("click", function (event) {
    if (open && !within(event.target)) hide();
  });
  window.addEventListener("scroll", function () {
    if (open) place(open.term, open.card);
  }, { passive: true });
})();
