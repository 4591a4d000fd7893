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

    function scoresZero(radio) {
      var input = form.querySelector('input[data-player="' + CSS.escape(radio.value) + '"]');
      if (radio.checked && input && !input.value.trim()) { input.value = "0"; }
    }

    radios.forEach(function (radio) {
      radio.addEventListener("change", function () { scoresZero(radio); refresh(); });
      scoresZero(radio); // chosen before this script came (a quick tap on a slow connection)
    });
    inputs.forEach(function (input) { input.addEventListener("input", refresh); });
    form.addEventListener("focusin", function (event) { // a typed field, not a tapped one: a tap must not move the page
      if (event.target.type === "text") { event.target.scrollIntoView({ block: "nearest" }); }
    });
    refresh();
  }

  // Issue 27: the first "Who went out?" choice in view, above the sticky Save, on opening and after a save.
  function reach() {
    var choice = document.querySelector("#round-entry .radio");
    var below = choice ? choice.getBoundingClientRect().bottom + 64 - window.innerHeight : 0;
    if (below > 0) { window.scrollBy(0, below); }
  }

  // A keyboard over the page: Save rises above it (--kb); the focused field stays in view.
  function keyboard() {
    var view = window.visualViewport;
    var field = document.activeElement;
    document.documentElement.style.setProperty("--kb", (view ? Math.max(0, innerHeight - view.height - view.offsetTop) : 0) + "px");
    if (field && field.form && field.form.id === "round-entry") { field.scrollIntoView({ block: "nearest" }); }
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

  // Buttons that ask first, also in a page swapped in later (js/live.js). Registered before the pages'
  // own submit listeners, which skip a submit cancelled here.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.hasAttribute("data-confirm") && !window.confirm(form.getAttribute("data-confirm"))) { event.preventDefault(); }
  });

  // A correction or an undo on the game page: js/in-place.js, loaded at the first such tap (rare).
  function inPlace(event) {
    var source = document.body.getAttribute("data-in-place");
    var click = event.type === "click";
    var target = source && !event.defaultPrevented && event.target.closest(
      click ? "#sheet th a[href$='/edit'], #correction a.button" : "#correction form, form[action$='/undo']");
    if (!target || !window.fetch) { return; }
    event.preventDefault();
    var script = window.CardTableInPlace || document.createElement("script");
    script.onload = function () { window.CardTableInPlace[event.type](target); };
    script.onerror = function () {
      if (navigator.onLine === false) { return noConnection(target); }
      if (click) { location.href = target.href; } else { target.submit(); }
    };
    if (script.src === undefined) { script.onload(); } else { script.src = source; document.head.appendChild(script); }
  }
  // Without a connection the in-place code cannot come either: say so and stay, rather than leave the
  // game page for the browser's error page.
  function noConnection(target) {
    var note = document.getElementById("correction-offline") || document.createElement("p");
    note.id = "correction-offline";
    note.className = "alert";
    note.setAttribute("role", "alert");
    note.textContent = "No connection: nothing was changed. Try again when it is back.";
    (target.closest("section") || document.body).append(note);
  }
  document.addEventListener("click", inPlace);
  document.addEventListener("submit", inPlace);

  // A panel whose forms come when it opens (the game page's Players panel, data-panel): the page with the
  // panel open is fetched and its panel taken in; if that fails, the panel's link still leads there.
  function fillPanel(panel) {
    var address = panel.open && panel.getAttribute("data-panel");
    if (!address || !window.fetch || !window.DOMParser) { return; }
    panel.removeAttribute("data-panel");
    fetch(address, { credentials: "same-origin", cache: "no-store", headers: { Accept: "text/html" } })
      .then(function (response) { return response.ok ? response.text() : Promise.reject(response.status); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById(panel.id);
        if (!fresh || !panel.isConnected) { return; }
        panel.textContent = "";
        Array.prototype.slice.call(fresh.childNodes).forEach(function (node) { panel.appendChild(document.adoptNode(node)); });
      })
      .catch(function () { panel.setAttribute("data-panel", address); });
  }
  function openPanels() { Array.prototype.forEach.call(document.querySelectorAll("details[open][data-panel]"), fillPanel); }
  document.addEventListener("toggle", function (event) { if (event.target.tagName === "DETAILS") { fillPanel(event.target); } }, true);

  window.CardTable = { // for js/round-entry.js, js/in-place.js, js/my-games.js
    setUpRoundForm: setUpRoundForm, reach: reach, mine: { load: load, store: store, same: same }
  };
  (window.visualViewport || window).addEventListener("resize", keyboard);

  document.addEventListener("DOMContentLoaded", function () {
    var main = document.querySelector("main");
    if (main && window.MutationObserver) { new MutationObserver(openPanels).observe(main, { childList: true }); }
    remember();
    Array.prototype.forEach.call(document.querySelectorAll("form.round-form"), setUpRoundForm);
    if (!window.location.hash) { reach(); }
    var refresh = parseInt(document.body.getAttribute("data-refresh") || "0", 10);
    if (refresh > 0) {
      setInterval(function () { if (!document.hidden) { window.location.reload(); } }, refresh * 1000);
    }
  });
})();
