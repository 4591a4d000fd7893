// Card Table Companion: the games and groups this phone started, joined or opened, remembered in
// the phone's own storage (localStorage), never on the server. A game or group page carries a
// hidden #remember element (templates/_remember.html); the home page (section[data-my-games])
// lists what is remembered, the most recently played first, finished games folded under
// "Earlier games", each removable from this phone's list.
"use strict";

(function () {
  var KEY = "card-table-companion.mine";
  var MOST = 100; // the oldest are forgotten past this many

  function load() {
    try {
      var list = JSON.parse(window.localStorage.getItem(KEY) || "[]");
      return Array.isArray(list) ? list.filter(function (entry) { return entry && entry.id && entry.url; }) : [];
    } catch (error) {
      return [];
    }
  }

  function store(list) {
    try { window.localStorage.setItem(KEY, JSON.stringify(list.slice(0, MOST))); } catch (error) { /* private mode */ }
  }

  function same(a, b) { return a.kind === b.kind && a.id === b.id; }

  function remember() {
    var mark = document.getElementById("remember");
    if (!mark) { return; }
    var entry = {
      kind: mark.getAttribute("data-kind"),
      id: mark.getAttribute("data-id"),
      name: mark.getAttribute("data-name"),
      url: mark.getAttribute("data-url"),
      players: mark.getAttribute("data-players"),
      finished: mark.getAttribute("data-finished") === "true",
      playedAt: mark.getAttribute("data-played-at") || new Date().toISOString()
    };
    store([entry].concat(load().filter(function (other) { return !same(other, entry); })));
  }

  function forget(entry) {
    store(load().filter(function (other) { return !same(other, entry); }));
    render();
  }

  function item(entry) {
    var li = document.createElement("li");
    var link = document.createElement("a");
    link.href = entry.url;
    var name = document.createElement("strong");
    name.textContent = entry.name || "Game";
    link.appendChild(name);
    if (entry.players) {
      var who = document.createElement("span");
      who.className = "muted";
      who.textContent = " " + entry.players;
      link.appendChild(who);
    }
    var remove = document.createElement("button");
    remove.type = "button";
    remove.className = "button forget";
    remove.textContent = "Remove";
    remove.setAttribute("aria-label", "Remove " + (entry.name || "this game") + " from this phone's list");
    remove.addEventListener("click", function () { forget(entry); });
    li.appendChild(link);
    li.appendChild(remove);
    return li;
  }

  function fill(list, entries) {
    while (list.firstChild) { list.removeChild(list.firstChild); }
    entries.forEach(function (entry) { list.appendChild(item(entry)); });
    list.hidden = entries.length === 0;
  }

  function render() {
    var section = document.querySelector("[data-my-games]");
    if (!section) { return; }
    var entries = load().sort(function (a, b) { return String(b.playedAt).localeCompare(String(a.playedAt)); });
    var groups = entries.filter(function (entry) { return entry.kind === "group"; });
    var games = entries.filter(function (entry) { return entry.kind !== "group"; });
    fill(document.getElementById("my-groups"), groups);
    fill(document.getElementById("my-games"), games.filter(function (entry) { return !entry.finished; }));
    var earlier = games.filter(function (entry) { return entry.finished; });
    fill(document.getElementById("my-earlier-games"), earlier);
    document.getElementById("earlier-games").hidden = earlier.length === 0;
    document.getElementById("mine-empty").hidden = entries.length > 0;
  }

  document.addEventListener("DOMContentLoaded", function () {
    remember();
    render();
  });
  // A game page follows the table (js/live.js swaps its content): remember how it was left.
  window.addEventListener("pagehide", remember);
})();
