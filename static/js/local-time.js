// Card Table Companion: times in the phone's own time zone. The server writes
// <time datetime="…Z" data-local="time|day">…UTC</time>; this swaps in the local reading
// (and again for pages swapped in later by js/live.js or js/round-entry.js).
"use strict";

(function () {
  var FORMATS = {
    time: { hour: "2-digit", minute: "2-digit" },
    day: { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" },
    date: { day: "numeric", month: "short", year: "numeric" }
  };

  function localise(root) {
    Array.prototype.forEach.call(root.querySelectorAll("time[data-local]:not([data-localised])"), function (element) {
      var when = new Date(element.getAttribute("datetime"));
      var format = FORMATS[element.getAttribute("data-local")] || FORMATS.time;
      if (isNaN(when.getTime())) { return; }
      element.textContent = when.toLocaleString([], format);
      element.title = when.toISOString().replace("T", " ").slice(0, 16) + " UTC";
      element.setAttribute("data-localised", "");
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var main = document.querySelector("main");
    if (!main) { return; }
    localise(main);
    if (window.MutationObserver) {
      new MutationObserver(function () { localise(main); }).observe(main, { childList: true, subtree: true });
    }
  });
})();
