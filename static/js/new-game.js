// Card Table Companion: the new game pages (templates/games/new_game.html, _first_dealer.html); the
// form works without this file.
// Back from a game just started goes home (or to its group's page), never to an empty New game form
// (issue 27): choosing a game replaces this page's history entry; starting one marks it, and this page,
// shown again by Back with the mark, gives way to body[data-home].
"use strict";

(function () {
  // New game: name the first-dealer choices after the players typed.
  function setUpDealerSelect(select) {
    var area = document.getElementById(select.getAttribute("data-dealer-select"));
    if (!area) { return; }
    function refresh() {
      var names = area.value.split("\n").map(function (n) { return n.trim(); }).filter(Boolean);
      Array.prototype.forEach.call(select.options, function (option) {
        if (option.value === "random") { return; }
        var seat = parseInt(option.value, 10);
        option.hidden = names.length > 0 && seat >= names.length;
        option.textContent = names[seat] ? names[seat] : "Player " + (seat + 1) + " in the list";
      });
    }
    area.addEventListener("input", refresh);
    refresh();
  }

  // New game: one control for the first dealer. The player select shows only for the ways that need it.
  function setUpDealerWays(fieldset) {
    var picks = fieldset.querySelectorAll("[data-for-ways]");
    function refresh() {
      var checked = fieldset.querySelector("input[name=first_dealer_method]:checked");
      var way = checked ? checked.value : "";
      Array.prototype.forEach.call(picks, function (pick) {
        pick.hidden = pick.getAttribute("data-for-ways").split(" ").indexOf(way) < 0;
      });
    }
    fieldset.addEventListener("change", refresh);
    refresh();
  }

  document.addEventListener("DOMContentLoaded", function () {
    Array.prototype.forEach.call(document.querySelectorAll("select[data-dealer-select]"), setUpDealerSelect);
    Array.prototype.forEach.call(document.querySelectorAll("fieldset.dealer-ways"), setUpDealerWays);
  });

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
