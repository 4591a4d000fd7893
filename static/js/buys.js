// Card Table Companion: Contract Rummy's buy counter without a page load (issue 15).
// Each +1 / -1 button of templates/games/_buys.html is sent to the JSON API (POST data-api with the
// edit key and the version the page shows). The answer is the game state: the counts and the version
// are updated in place (every form of the page gets the new version, so the round entry stays valid).
// A refusal (a buy past the limit, nothing to take back) shows the server's sentence; on 409 the
// counts of the stored game are shown. Without this file each button posts its form (post-redirect-get).
"use strict";

(function () {
  var api = window.CardTableApi; // js/api-call.js
  var fullStop = api.fullStop;
  var each = api.each;

  var busy = false;

  function showError(section, text) {
    var box = section.querySelector("#buy-error");
    if (!box) { return; }
    box.textContent = text;
    box.hidden = !text;
  }

  function apply(section, state) {
    if (!state || !state.buys) { return; }
    var limit = state.buy_limit;
    each(section.querySelectorAll(".buy-row"), function (row) {
      var count = row.querySelector(".buy-count");
      var player = row.getAttribute("data-player"); // may be __proto__: only the answer's own keys count
      var used = Object.prototype.hasOwnProperty.call(state.buys, player) ? state.buys[player] : 0;
      count.innerHTML = "";
      var strong = document.createElement("b");
      strong.textContent = String(used);
      count.appendChild(strong);
      count.appendChild(document.createTextNode(" of " + limit));
    });
    var version = String(state.version);
    each(document.querySelectorAll("main input[name=version]"), function (input) { input.value = version; });
    document.body.setAttribute("data-live-version", version); // js/live.js: nothing new to fetch
  }

  function send(section, form, change) {
    var player = form.elements.player.value;
    var body = { player: player, change: change, version: parseInt(form.elements.version.value, 10) };
    busy = true;
    return api.tap("POST", section.getAttribute("data-api"), section.getAttribute("data-key"), body)
      .then(function (result) {
        if (result.status === 200) {
          showError(section, "");
          apply(section, result.answer);
        } else if (result.status === 409) {
          apply(section, result.answer.current);
          showError(section, "Not counted: another phone changed this game meanwhile. The counts show what is " +
            "stored now; tap again if the buy is still to count.");
        } else {
          showError(section, "Not counted: " + fullStop(result.answer.error || "the server refused it"));
        }
      })
      .catch(function () { showError(section, "Not counted: the companion did not answer; check the connection and tap again."); })
      .then(function () { busy = false; });
  }

  function start() {
    var section = document.getElementById("buys");
    if (!section || !window.fetch || !section.getAttribute("data-key")) { return; }
    section.addEventListener("click", function (event) {
      var button = event.target.closest ? event.target.closest("button[name=change]") : null;
      if (!button || !section.contains(button)) { return; }
      event.preventDefault();
      if (busy) { return; }
      send(section, button.form, parseInt(button.value, 10));
    });
  }

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
