// Card Table Companion: the new game pages' first dealer (templates/games/_first_dealer.html); the
// form works without this file.
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
})();
