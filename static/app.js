// Card Table Companion: small enhancements; every page also works without this file.
"use strict";

(function () {
  var SUM = /^\s*\d{1,5}(\s*\+\s*\d{1,5})*\s*$/;

  function total(text) {
    return text.split("+").reduce(function (sum, part) { return sum + parseInt(part, 10); }, 0);
  }

  // Round form: the declarer's points become 0, sums are added up, missing entries are counted.
  function setUpRoundForm(form) {
    var multiplier = parseInt(form.getAttribute("data-multiplier") || "1", 10);
    var inputs = Array.prototype.slice.call(form.querySelectorAll("input[data-player]"));
    var radios = Array.prototype.slice.call(form.querySelectorAll("input[type=radio][name=went_out]"));
    var missing = form.querySelector("#missing");

    function refresh() {
      var empty = 0;
      inputs.forEach(function (input) {
        var out = document.getElementById(input.id + "-sum");
        var text = input.value;
        if (!text.trim()) { empty += 1; }
        if (!out) { return; }
        if (SUM.test(text) && (text.indexOf("+") >= 0 || multiplier > 1)) {
          var points = total(text);
          out.textContent = "= " + points + (multiplier > 1 ? " × " + multiplier + " = " + points * multiplier : "");
        } else if (text.trim() && !SUM.test(text)) {
          out.textContent = "Not a number of points";
        } else {
          out.textContent = "";
        }
      });
      var chosen = radios.some(function (radio) { return radio.checked; });
      var parts = [];
      if (!chosen) { parts.push("who " + (form.getAttribute("data-out-verb") || "went out")); }
      if (empty) { parts.push(empty + (empty === 1 ? " score" : " scores")); }
      if (missing) { missing.textContent = parts.length ? "Missing: " + parts.join(" and ") : ""; }
    }

    radios.forEach(function (radio) {
      radio.addEventListener("change", function () {
        var input = form.querySelector('input[data-player="' + CSS.escape(radio.value) + '"]');
        if (input && !input.value.trim()) { input.value = "0"; }
        refresh();
      });
    });
    inputs.forEach(function (input) { input.addEventListener("input", refresh); });
    refresh();
  }

  // The games and groups this phone opened, for its home page (js/my-games.js lists them).
  var MINE = "card-table-companion.mine";
  function same(a, b) { return a.kind === b.kind && a.id === b.id; }
  function load() {
    try {
      var list = JSON.parse(window.localStorage.getItem(MINE) || "[]");
      return Array.isArray(list) ? list.filter(function (entry) { return entry && entry.id && entry.url; }) : [];
    } catch (error) { return []; }
  }
  function store(list) {
    try { window.localStorage.setItem(MINE, JSON.stringify(list.slice(0, 100))); } catch (error) { /* private mode */ }
  }
  function remember() {
    var mark = document.getElementById("remember");
    if (!mark) { return; }
    var entry = { playedAt: mark.getAttribute("data-played-at") || new Date().toISOString() };
    ["kind", "id", "name", "url", "players"].forEach(function (key) { entry[key] = mark.getAttribute("data-" + key); });
    entry.finished = mark.getAttribute("data-finished") === "true";
    store([entry].concat(load().filter(function (other) { return !same(other, entry); })));
  }
  // A game page follows the table (js/live.js swaps its content): remember how it was left.
  window.addEventListener("pagehide", remember);

  window.CardTable = { setUpRoundForm: setUpRoundForm, mine: { load: load, store: store, same: same } };

  // Buttons that ask first, also in a page swapped in later (js/live.js). Registered before the pages'
  // own submit listeners, which skip a submit cancelled here.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.hasAttribute("data-confirm") && !window.confirm(form.getAttribute("data-confirm"))) { event.preventDefault(); }
  });

  document.addEventListener("DOMContentLoaded", function () {
    remember();
    Array.prototype.forEach.call(document.querySelectorAll("form.round-form"), setUpRoundForm);
    var refresh = parseInt(document.body.getAttribute("data-refresh") || "0", 10);
    if (refresh > 0) {
      setInterval(function () { if (!document.hidden) { window.location.reload(); } }, refresh * 1000);
    }
  });
})();
