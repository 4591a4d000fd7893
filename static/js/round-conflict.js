// Card Table Companion: what the round entry (js/round-entry.js) shows when another phone saved the round
// being typed or sent, loaded the first time it is needed (the game page opens without it; a 409 or a live
// update that brings it needs the network anyway). The sentence of issue 24, section 1: what is stored beside
// what was typed, with one tap to keep the typed values as a correction (version-checked) or to drop them.
// `note(area, item)`: a queued entry that met a 409; `stale(form)`: a draft whose round was saved meanwhile.
"use strict";

(function () {
  var api = window.CardTableApi; // js/api-call.js
  var drafts = window.CardTableDrafts; // js/drafts.js
  var roundEntry = window.CardTableRoundEntry; // js/round-entry.js: its outbox and its readings of the form
  var box = roundEntry.box;
  var body = roundEntry.body;
  var word = roundEntry.word;
  var verbOf = roundEntry.verbOf;
  var playersOf = roundEntry.playersOf;
  var correctionUrl = roundEntry.correctionUrl;

  function Word() { var w = word(); return w.charAt(0).toUpperCase() + w.slice(1); }

  function said(wentOut, scores, players, verb) {
    return (wentOut || "nobody") + " " + verb + "; " + players.map(function (name) {
      var points = Object.prototype.hasOwnProperty.call(scores, name) ? scores[name] : "";
      return name + " " + (points === "" ? "?" : points);
    }).join(", ");
  }

  // The sentence of section 1: what is stored beside what was typed.
  function clash(number, stored, typed, players, verb) {
    var w = word();
    var what = stored ? "Another phone saved " + w + " " + number + " meanwhile: " +
      said(stored.went_out, stored.scores, players, verb) + "." :
      Word() + " " + number + " was not saved: the game changed meanwhile and " + w + " " + number + " is not the next " + w + " any more.";
    return what + " You typed " + said(typed.went_out, typed.scores, players, verb) + ".";
  }

  function keep(item) {
    box.update(item.key, function (list, index, entry) {
      entry.method = "PUT";
      entry.url = entry.correct;
      entry.body.version = entry.now;
      entry.key = api.newKey(); // another write than the one refused
      entry.conflict = false;
      entry.after = false;
      entry.fix = true;
    });
    box.flush();
  }

  function note(area, item) {
    var note = document.createElement("div");
    note.className = "draft-note alert";
    note.id = "conflict-note";
    note.setAttribute("role", "alert");
    var text = document.createElement("p");
    text.textContent = clash(item.round, item.stored, item.body, item.players, item.verb);
    note.appendChild(text);
    drafts.button(note, "Keep mine as the correction of " + word() + " " + item.round, function () { keep(item); });
    drafts.button(note, "Drop mine", function () { box.forget(item); box.flush(); });
    area.appendChild(note);
  }

  // A draft whose round another phone saved: js/drafts.js keeps the form as typed.
  function stale(form) {
    var number = parseInt(form.getAttribute("data-round"), 10);
    var typed = body(form);
    var submit = form.querySelector("button[type=submit]");
    if (submit) { submit.hidden = true; }
    function offer(state) {
      var stored = state && state.rounds.filter(function (round) { return round.round === number; })[0];
      var players = state ? state.players : playersOf(form);
      var note = drafts.notice(form, clash(number, stored, typed, players, verbOf(form)));
      if (stored) {
        drafts.button(note, "Keep mine as the correction of " + word() + " " + number, function () {
          typed = body(form); // as it reads now
          typed.version = state.version;
          var list = box.read();
          list.push({
            key: api.newKey(), round: number, method: "PUT", url: correctionUrl(form, number), edit: form.getAttribute("data-key"),
            body: typed, values: drafts.values(form), why: "", multiplier: 1, players: players, verb: verbOf(form),
            correct: correctionUrl(form, number), fix: true, after: false
          });
          box.write(list);
          drafts.drop(form);
          form.parentNode.removeChild(form);
          roundEntry.landing(list[list.length - 1].key);
          box.flush();
          api.refresh(roundEntry.render, false).catch(roundEntry.render);
        });
      }
      drafts.button(note, "Drop mine", function () {
        drafts.drop(form);
        api.refresh(roundEntry.render, false);
      });
    }
    fetch(form.getAttribute("data-state"), { credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .catch(function () { return null; })
      .then(offer);
  }

  window.CardTableRoundConflict = { note: note, stale: stale };
})();
