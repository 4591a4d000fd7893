// Card Table Companion: Back from a game just started goes home, never to an empty New game form (issue 27).
// Choosing a game replaces this page's history entry; starting one marks it, and this page, shown again by
// Back with the mark, gives way to the home page. Without this file Back shows the form again.
"use strict";

(function () {
  var MARK = "ctc:started";

  document.addEventListener("click", function (event) {
    var link = event.target.closest("a.variant");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey) { return; }
    event.preventDefault();
    window.location.replace(link.href);
  });

  document.addEventListener("submit", function (event) {
    if (event.target.hasAttribute("data-start")) { window.sessionStorage.setItem(MARK, "1"); }
  });

  window.addEventListener("pageshow", function (event) {
    var how = window.performance.getEntriesByType("navigation")[0];
    var back = event.persisted || (how && how.type === "back_forward");
    if (back && window.sessionStorage.getItem(MARK)) {
      window.location.replace(document.body.getAttribute("data-home"));
    }
    window.sessionStorage.removeItem(MARK);
  });
})();
