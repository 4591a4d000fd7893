// Card Table Companion: a round's scores entered on the game page without a page load.
// The form (templates/games/_round_entry.html) is sent to the JSON API (POST data-api with the edit
// key and the version the page shows). On success the fresh game page is fetched and its <main>
// swapped in, and the standings come into view with the next round's dealer and wild cards below.
// On 409 (another phone saved first) nothing is sent again: the page shows what is stored now and,
// when the other phone saved this very round, what this phone had typed. Without this file the
// form posts to the server like any other (post-redirect-get).
"use strict";

(function () {
  var api = window.CardTableApi; // js/api-call.js
  var fullStop = api.fullStop;
  var each = api.each;

  var busy = false;

  function body(form) {
    var entry = { went_out: "", scores: {}, version: parseInt(form.elements.version.value, 10) };
    var chosen = form.querySelector("input[name=went_out]:checked");
    if (chosen) { entry.went_out = chosen.value; }
    each(form.querySelectorAll("input[data-player]"), function (input) {
      entry.scores[input.getAttribute("data-player")] = input.value.trim();
    });
    var cut = form.querySelector("input[name=exact_cut]:checked"); // Contract Rummy's exact cut
    if (cut && cut.value) { entry.exact_cut = cut.value; }
    var pickups = form.querySelectorAll(".pickups input.step-value");
    if (pickups.length) {
      entry.second_discards = {};
      each(pickups, function (input, index) {
        var name = form.querySelectorAll("input[data-player]")[index].getAttribute("data-player");
        entry.second_discards[name] = parseInt(input.value || "0", 10) || 0;
      });
    }
    return entry;
  }

  function words(round, players, verb) {
    return round.went_out + " " + verb + "; " + players.map(function (name) {
      return name + " " + round.scores[name];
    }).join(", ");
  }

  function typed(entry, players, verb) {
    return (entry.went_out || "nobody") + " " + verb + "; " + players.map(function (name) {
      return name + " " + (entry.scores[name] || "?");
    }).join(", ");
  }

  // The game page as it is now, swapped into <main>; then `place` puts the eye where it belongs.
  function refresh(place) { return api.refresh(place, false); }

  function land(target) {
    if (!target) { return; }
    target.scrollIntoView({ block: "start" });
    target.focus({ preventScroll: true });
  }

  function showError(text) {
    var box = document.getElementById("entry-error");
    if (!box) { return; }
    box.textContent = text;
    box.hidden = false;
    box.scrollIntoView({ block: "center" });
  }

  function saved() {
    return refresh(function (main) {
      land(main.querySelector("#result-h") || main.querySelector("#standings-h"));
    });
  }

  function conflict(form, entry, answer) {
    var number = parseInt(form.getAttribute("data-round"), 10);
    var verb = form.getAttribute("data-out-verb") || "went out";
    var now = answer.current;
    if (!now) { showError("Not saved: " + fullStop(answer.error)); return null; }
    var theirs = now.rounds.filter(function (round) { return round.round === number; })[0];
    if (!theirs) {
      // Another change (a correction, an undo): this phone's entries stay, with the version now stored.
      form.elements.version.value = String(now.version);
      showError("Not saved: another phone changed this game meanwhile. Check your entries and save again.");
      return null;
    }
    var message = "Not saved: another phone saved round " + number + " first. Round " + number + " now reads: " +
      words(theirs, now.players, verb) + ". Your entries were: " + typed(entry, now.players, verb) +
      ". If round " + number + " is wrong, correct it in the score sheet.";
    return refresh(function (main) {
      var note = document.createElement("p");
      note.className = "alert";
      note.id = "conflict-note";
      note.setAttribute("role", "alert");
      note.textContent = message;
      var standings = main.querySelector("#standings");
      standings.parentNode.insertBefore(note, standings);
      note.scrollIntoView({ block: "start" });
    });
  }

  function send(form) {
    var entry = body(form);
    var button = form.querySelector("button[type=submit]");
    busy = true;
    button.disabled = true;
    return api.call("POST", form.getAttribute("data-api"), form.getAttribute("data-key"), entry)
      .then(function (result) {
        if (result.status === 201) { return saved(); }
        if (result.status === 409) { return conflict(form, entry, result.answer); }
        var text = result.answer.error || "the round was not saved";
        showError("Not saved: " + fullStop(text));
        return null;
      })
      .catch(function () {
        showError("Not saved: the server did not answer. Check the connection and save again.");
      })
      .then(function () {
        busy = false;
        if (document.body.contains(button)) { button.disabled = false; }
      });
  }

  // Forms swapped in later (here or by js/live.js) get the same help as at load (app.js).
  function enhance(root) {
    each(root.querySelectorAll("form.round-form:not([data-ready])"), function (form) {
      form.setAttribute("data-ready", "");
      if (window.CardTable && window.CardTable.setUpRoundForm) { window.CardTable.setUpRoundForm(form); }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var main = document.querySelector("main");
    each(document.querySelectorAll("form.round-form"), function (form) { form.setAttribute("data-ready", ""); });
    if (main && window.MutationObserver) {
      new MutationObserver(function () { enhance(main); }).observe(main, { childList: true });
    }
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form || form.id !== "round-entry" || !window.fetch || !window.DOMParser) { return; }
    if (!form.getAttribute("data-key")) { return; } // the server's form answers instead
    event.preventDefault();
    if (!busy) { send(form); }
  });

  // A page brought back from the browser's memory (Back) may show a form saved meanwhile: reload it.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted && document.getElementById("round-entry")) { window.location.reload(); }
  });
})();
