// Card Table Companion: the games and groups this phone started, joined or opened, remembered in
// the phone's own storage (localStorage), never on the server (app.js remembers the #remember element
// of a game or group page: templates/_remember.html). The home page (section[data-my-games])
// lists what is remembered, the most recently played first, finished games folded under
// "Earlier games", each removable from this phone's list.
"use strict";

(function () {
  var mine = window.CardTable.mine; // app.js remembers the game or group a page shows
  var load = mine.load;
  var store = mine.store;
  var same = mine.same;

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

  document.addEventListener("DOMContentLoaded", render);
})();
