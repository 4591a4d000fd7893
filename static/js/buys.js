// Card Table Companion: Contract Rummy's buy counter without a page load (issue 15).
// Each +1 / -1 button of templates/games/_buys.html is sent to the JSON API through the outbox
// (js/outbox.js: POST data-api with the edit key, the version the page shows and an Idempotency-Key;
// kept and sent again without a connection); then the fresh page is swapped in (a round being typed
// stays as typed). A refusal (a buy past the limit, nothing to take back) shows the server's sentence;
// on 409 the counts of the stored game are shown. Without this file each button posts its form (post-redirect-get).
"use strict";

(function () {
  function showError(section, text) {
    var box = section.querySelector("#buy-error");
    if (!box) { return; }
    box.textContent = text;
    box.hidden = !text;
  }

  // Through the outbox (js/outbox.js): a buy tapped without a connection is kept and sent again.
  function send(section, form, change) {
    var player = form.elements.player.value;
    var body = { player: player, change: change, version: parseInt(form.elements.version.value, 10) };
    showError(section, "");
    window.CardTableOutbox.add({
      method: "POST", url: section.getAttribute("data-api"), edit: section.getAttribute("data-key"), body: body,
      what: (change > 0 ? "One buy more for " : "One buy less for ") + player
    });
  }

  function start() {
    var section = document.getElementById("buys");
    if (!section || !window.fetch || !section.getAttribute("data-key")) { return; }
    section.addEventListener("click", function (event) {
      var button = event.target.closest ? event.target.closest("button[name=change]") : null;
      if (!button || !section.contains(button)) { return; }
      event.preventDefault();
      send(section, button.form, parseInt(button.value, 10));
    });
  }

  window.CardTableOutbox.on("refused", function (sentence) {
    var section = document.getElementById("buys");
    if (section) { showError(section, "Not counted: " + sentence); }
  });

  // The live update (js/live.js) and the round entry (js/round-entry.js) swap <main>: bind again.
  var bound = null;
  function watch() {
    start();
    bound = document.getElementById("buys");
    var main = document.querySelector("main");
    if (!main || !window.MutationObserver) { return; }
    new window.MutationObserver(function () {
      var now = document.getElementById("buys");
      if (now && now !== bound) { bound = now; start(); }
    }).observe(main, { childList: true });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", watch);
  } else {
    watch();
  }
})();
