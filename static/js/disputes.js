// Dispute pages: the best score of each hand appears as the cards are entered (POST /api/best).
// Every page also works without this file: the "Work out the scores" button asks the server.
"use strict";

(function () {
  // A server refusal as a sentence of its own: a capital first, a full stop last (as the pages show errors).
  function sentence(text) {
    text = String(text).trim();
    return text.charAt(0).toUpperCase() + text.slice(1) + (/[.!?]$/.test(text) ? "" : ".");
  }

  var SUITS = { S: "♠", H: "♥", D: "♦", C: "♣", R: "★" };

  // "10H" → "10♥", "JK" → "🃏": the cards as the pages show them.
  function symbols(tokens) {
    return tokens.map(function (token) {
      return token === "JK" ? "🃏" : token.slice(0, -1) + (SUITS[token.slice(-1)] || token.slice(-1));
    }).join(" ");
  }

  function declarerMelds(form) {
    return Array.prototype.slice.call(form.querySelectorAll("input[data-declarer-meld]"))
      .map(function (input) { return input.value.trim(); })
      .filter(Boolean);
  }

  function wentOut(form) {
    var chosen = form.querySelector("input[name=went_out]:checked");
    return chosen ? chosen.value : null;
  }

  function setUpCardsForm(form) {
    var url = form.getAttribute("data-best-url");
    var base = {
      variant: form.getAttribute("data-variant"),
      round: parseInt(form.getAttribute("data-round"), 10),
      players: parseInt(form.getAttribute("data-players"), 10),
      options: JSON.parse(form.getAttribute("data-options") || "{}"),
    };
    var hands = Array.prototype.slice.call(form.querySelectorAll("input[data-hand]"));
    var timers = new Map();
    var asked = new Map();

    function show(input, text, warn) {
      var out = document.getElementById(input.getAttribute("data-best"));
      if (!out) { return; }
      out.textContent = text;
      out.classList.toggle("dp-warn", Boolean(warn));
    }

    function describe(answer) {
      var parts = answer.melds.map(symbols);
      (answer.layoffs || []).forEach(function (item) { parts.push("on meld " + item.meld + ": " + symbols(item.cards)); });
      if (answer.unmelded.length) { parts.push("left: " + symbols(answer.unmelded)); }
      return parts.join(" · ") || "nothing left";
    }

    function ask(input) {
      var hand = input.value.trim();
      var points = document.getElementById(input.getAttribute("data-points"));
      var seat = input.getAttribute("data-best");
      var player = input.closest("[data-player-seat]");
      var name = player ? player.querySelector(".dp-player-name").textContent : "";
      if (!hand) { show(input, ""); if (points) { points.placeholder = "from cards"; } return; }
      if (name && name === wentOut(form)) { show(input, "Went out: the cards are checked when the round is saved."); return; }
      var body = Object.assign({}, base, { hand: hand, declarer: declarerMelds(form) });
      var ticket = (asked.get(seat) || 0) + 1;
      asked.set(seat, ticket);
      fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
        .then(function (response) { return response.json(); })
        .then(function (answer) {
          if (asked.get(seat) !== ticket) { return; }
          if (answer.error) { show(input, sentence(answer.error), true); return; }
          var multiplier = parseInt(form.getAttribute("data-multiplier") || "1", 10);
          var best = Math.round(answer.penalty / multiplier);
          if (points) { points.placeholder = String(best); }
          var typed = points && /^\s*\d+(\s*\+\s*\d+)*\s*$/.test(points.value)
            ? points.value.split("+").reduce(function (sum, part) { return sum + parseInt(part, 10); }, 0)
            : null;
          if (typed !== null && typed > best) {
            show(input, "These cards can score " + best + ": " + describe(answer), true);
          } else {
            show(input, "Best: " + best + " — " + describe(answer), false);
          }
        })
        .catch(function () { show(input, ""); });
    }

    function later(input) {
      clearTimeout(timers.get(input));
      timers.set(input, setTimeout(function () { ask(input); }, 150));
    }

    hands.forEach(function (input) {
      input.addEventListener("input", function () { later(input); });
      var points = document.getElementById(input.getAttribute("data-points"));
      if (points) { points.addEventListener("input", function () { later(input); }); }
      if (input.value.trim()) { later(input); }
    });
    form.addEventListener("input", function (event) {
      if (event.target.hasAttribute("data-declarer-meld") || event.target.name === "went_out") {
        hands.forEach(later);
      }
    });
    form.addEventListener("change", function (event) {
      if (event.target.name === "went_out") { hands.forEach(later); }
    });
  }

  // Meld fields: show the ones filled in and one empty one; "Add a meld" shows the next.
  function setUpMeldRows(box) {
    var rows = Array.prototype.slice.call(box.querySelectorAll(".dp-meld-row"));
    if (rows.length < 2) { return; }
    var shown = 0;
    rows.forEach(function (row, index) {
      var input = row.querySelector("input");
      if (input && input.value.trim()) { shown = index + 1; }
    });
    shown = Math.max(shown, 1);
    rows.forEach(function (row, index) { row.hidden = index >= shown; });
    var more = document.createElement("button");
    more.type = "button";
    more.className = "button wide dp-more";
    more.textContent = "Add a meld";
    more.hidden = shown >= rows.length;
    more.addEventListener("click", function () {
      var next = rows.filter(function (row) { return row.hidden; })[0];
      if (next) {
        next.hidden = false;
        var input = next.querySelector("input");
        if (input) { input.focus(); }
      }
      more.hidden = !rows.some(function (row) { return row.hidden; });
    });
    rows[rows.length - 1].after(more);
  }

  // The standalone checker: a new game or round takes effect at once. The server's page for it
  // says the wild ranks, the card limits and the round line; they are copied onto this page.
  var PICKER_ATTRIBUTES = ["data-decks", "data-jokers", "data-max-cards", "data-wild-ranks", "data-suits", "data-ranks"];

  function setUpChecker(form) {
    var variant = form.querySelector("#variant");
    var round = form.querySelector("#round");
    if (!variant) { return; }
    if (!round) {  // pool rummy's checker has no round: another game is another page
      variant.addEventListener("change", function () {
        window.location.assign(form.action + "?variant=" + encodeURIComponent(variant.value));
      });
      return;
    }
    function follow() {
      if (!round.checkValidity() || !window.fetch || !window.DOMParser) { return; }
      var address = form.action + "?variant=" + encodeURIComponent(variant.value) +
        "&round=" + encodeURIComponent(round.value.trim());
      fetch(address, { credentials: "same-origin", headers: { Accept: "text/html" } })
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (html) {
          if (!html) { return; }
          var fresh = new DOMParser().parseFromString(html, "text/html");
          // A game played in contracts has a checker of its own (going down, lay-offs): load it.
          var twinForm = fresh.getElementById("checker");
          if (twinForm && twinForm.getAttribute("data-mode") !== form.getAttribute("data-mode")) {
            window.location.assign(address);
            return;
          }
          form.querySelectorAll("[data-card-picker]").forEach(function (input) {
            var twin = fresh.getElementById(input.id);
            if (!twin) { return; }
            PICKER_ATTRIBUTES.forEach(function (name) { input.setAttribute(name, twin.getAttribute(name) || ""); });
            input.dispatchEvent(new Event("input", { bubbles: true }));
          });
          ["checker-hint", "checker-rules"].forEach(function (id) {
            var here = document.getElementById(id);
            var there = fresh.getElementById(id);
            if (here && there) { here.replaceWith(document.adoptNode(there)); }
          });
        })
        .catch(function () { /* the Check button still sends the new round */ });
    }
    variant.addEventListener("change", follow);
    round.addEventListener("change", follow);
  }

  // Pool rummy: the cut typed (7H, 7, JK) makes its rank wild, so the pickers mark those cards wild.
  var JOKER_WORDS = ["JK", "JOKER", "PRINTED JOKER", "*", "🃏"];

  function cutRank(text, acesOnJoker) {
    var typed = text.trim().toUpperCase();
    if (!typed || typed === "NONE") { return ""; }
    if (JOKER_WORDS.indexOf(typed) >= 0) { return acesOnJoker ? "A" : ""; }
    var match = typed.match(/^(10|[2-9AJQKT])([SHDC♠♥♦♣])?$/);
    if (!match) { return null; }
    return match[1] === "T" ? "10" : match[1];
  }

  function setUpCut(input) {
    input.addEventListener("change", function () {
      var rank = cutRank(input.value, input.getAttribute("data-aces-on-joker") === "true");
      if (rank === null) { return; }
      document.querySelectorAll("[data-card-picker]").forEach(function (picker) {
        picker.setAttribute("data-wild-ranks", rank);
        picker.dispatchEvent(new Event("input", { bubbles: true }));
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var cut = document.getElementById("cut");
    if (cut) { setUpCut(cut); }
    Array.prototype.forEach.call(document.querySelectorAll(".dp-melds"), setUpMeldRows);
    var form = document.getElementById("cards-form");
    if (form) { setUpCardsForm(form); }
    var checker = document.getElementById("checker");
    if (checker) { setUpChecker(checker); }
  });
})();
