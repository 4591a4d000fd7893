// Card Table Companion: a round's scores entered on the game page without a page load, through an outbox.
// Saving puts the entry (the form's values, its Idempotency-Key, the version it was typed against) into
// the outbox in the phone's storage, then sends it (POST data-api with the edit key). On success the fresh
// game page is swapped into <main>. With no answer (no connection, a timeout, 502, 503, 504) the entry
// stays in the outbox, the page says so and counts it in the standings as "not yet sent", the form moves
// on to the next round, and the entries are sent again in the order made, with the same keys, when the
// connection returns (online, the page visible again, a backoff timer; never before a 503's Retry-After).
// An entry queued behind another is typed against the version its predecessor makes. A 409 because another phone saved the same round
// keeps the entry and offers to keep it as a correction or to drop it; any other refusal puts the entry
// back into the form with the server's sentence. A draft being typed when another phone saves its round
// stays as typed with the same offer (js/drafts.js). Without this file the form posts to the server.
"use strict";

(function () {
  var api = window.CardTableApi; // js/api-call.js
  var drafts = window.CardTableDrafts; // js/drafts.js
  var fullStop = api.fullStop;
  var each = api.each;
  var SUM = /^\s*\d{1,5}(\s*\+\s*\d{1,5})*\s*$/;
  var MAX_WAIT_MS = 10000;
  var MAX_HOLD_S = 600;

  var sending = false;
  var timer = null;
  var tries = 0;
  var holdUntil = 0; // no resend before this time (a 503's Retry-After)
  var landing = null; // the key of the entry just saved by a tap: the eye goes to the standings after it

  function entryForm() { return document.getElementById("round-entry"); }

  function gameId() {
    var found = /\/games\/([^/]+)\/version/.exec(document.body.getAttribute("data-live") || "");
    return found ? found[1] : "";
  }

  function boxId() { return "ctc:outbox:" + gameId(); }

  function readBox() {
    try { return JSON.parse(window.localStorage.getItem(boxId()) || "[]"); } catch (error) { return []; }
  }

  function writeBox(list) {
    try {
      if (list.length) { window.localStorage.setItem(boxId(), JSON.stringify(list)); } else { window.localStorage.removeItem(boxId()); }
    } catch (error) { /* storage refused: the entry is still on the page */ }
  }

  // Change the stored entry with this key (the list may have changed while it was being sent).
  function update(key, change) {
    var list = readBox();
    var index = list.map(function (item) { return item.key; }).indexOf(key);
    if (index >= 0) { change(list, index, list[index]); }
    writeBox(list);
    return list;
  }

  // Players are keys of objects without a prototype: a player may be called __proto__.
  function body(form) {
    var entry = { went_out: "", scores: Object.create(null), version: parseInt(form.elements.version.value, 10) };
    var chosen = form.querySelector("input[name=went_out]:checked");
    if (chosen) { entry.went_out = chosen.value; }
    var inputs = form.querySelectorAll("input[data-player]");
    each(inputs, function (input) { entry.scores[input.getAttribute("data-player")] = input.value.trim(); });
    var cut = form.querySelector("input[name=exact_cut]:checked"); // Contract Rummy's exact cut
    if (cut && cut.value) { entry.exact_cut = cut.value; }
    var pickups = form.querySelectorAll(".pickups input.step-value");
    if (pickups.length) {
      entry.second_discards = Object.create(null);
      each(pickups, function (input, index) {
        entry.second_discards[inputs[index].getAttribute("data-player")] = parseInt(input.value || "0", 10) || 0;
      });
    }
    return entry;
  }

  function said(wentOut, scores, players, verb) {
    return (wentOut || "nobody") + " " + verb + "; " + players.map(function (name) {
      var points = Object.prototype.hasOwnProperty.call(scores, name) ? scores[name] : "";
      return name + " " + (points === "" ? "?" : points);
    }).join(", ");
  }

  function verbOf(form) { return (form && form.getAttribute("data-out-verb")) || "went out"; }

  function playersOf(form) {
    return Array.prototype.map.call(form.querySelectorAll("input[data-player]"), function (input) {
      return input.getAttribute("data-player");
    });
  }

  // "round", or "deal" in Contract Rummy (the entry form's data-word).
  function word() {
    var form = entryForm();
    return (form && form.getAttribute("data-word")) || "round";
  }
  function Word() { var w = word(); return w.charAt(0).toUpperCase() + w.slice(1); }

  // The sentence of section 1: what is stored beside what was typed.
  function clash(number, stored, typed, players, verb) {
    var w = word();
    var what = stored ? "Another phone saved " + w + " " + number + " meanwhile: " +
      said(stored.went_out, stored.scores, players, verb) + "." :
      Word() + " " + number + " was not saved: the game changed meanwhile and " + w + " " + number + " is not the next " + w + " any more.";
    return what + " You typed " + said(typed.went_out, typed.scores, players, verb) + ".";
  }

  function correctionUrl(form, number) {
    return form.getAttribute("data-correct").replace(/\/0$/, "/" + number);
  }

  // --- the outbox ---------------------------------------------------------------------------------

  function enqueue(form) {
    var list = readBox();
    var draft = drafts.get(form) || {};
    var number = parseInt(form.getAttribute("data-round"), 10);
    var item = {
      key: draft.key || api.newKey(), round: number, method: "POST", url: form.getAttribute("data-api"), made: Date.now(),
      edit: form.getAttribute("data-key"), body: body(form), values: drafts.values(form), why: "",
      multiplier: parseInt(form.getAttribute("data-multiplier") || "1", 10), players: playersOf(form),
      verb: verbOf(form), correct: correctionUrl(form, number)
    };
    var refused = list.map(function (entry) { return entry.refused && entry.round === number; }).indexOf(true);
    if (refused >= 0) {
      list[refused] = item; // in its place: the entries made after it stay after it
    } else {
      item.after = list.length > 0; // typed against the version its predecessor makes
      list.push(item);
    }
    writeBox(list);
    drafts.drop(form);
    landing = item.key;
    flush();
  }

  // The next try: after the server's Retry-After (nothing is sent before it, whatever wakes the page),
  // else after a backoff of 1, 2, 4… seconds, at most MAX_WAIT_MS.
  function later(seconds) {
    window.clearTimeout(timer);
    tries += 1;
    var wait = seconds === null ? Math.min(MAX_WAIT_MS, 1000 * Math.pow(2, tries - 1)) : Math.min(MAX_HOLD_S, seconds) * 1000;
    holdUntil = seconds === null ? 0 : Date.now() + wait;
    timer = window.setTimeout(function () { holdUntil = 0; flush(); }, wait);
  }

  function flush() {
    if (Date.now() < holdUntil) { render(); return; } // the server asked for a pause
    window.clearTimeout(timer);
    timer = null;
    var item = readBox()[0];
    if (sending || !item || item.conflict || item.refused || item.after || olderTap(item)) { render(); return; }
    sending = true;
    render();
    api.resend(item, {
      settled: function () { sending = false; },
      waiting: function (why, seconds) { waiting(item, why, seconds); },
      landed: function (state) { landed(item, state); },
      conflicted: function (stored) { conflicted(item, stored); },
      refused: function (sentence) { putBack(item, sentence, null); }
    });
  }

  // A tap made earlier (a buy, js/outbox.js) goes first.
  function olderTap(item) {
    try {
      return JSON.parse(window.localStorage.getItem("ctc:taps:" + gameId()) || "[]").some(function (tap) {
        return !tap.conflict && tap.made < (item.made || 0);
      });
    } catch (error) { return false; }
  }

  function waiting(item, why, seconds) {
    update(item.key, function (list, index, stored) { stored.why = why; });
    render();
    later(seconds === undefined ? null : seconds);
  }

  function landed(item, state) {
    tries = 0;
    var list = update(item.key, function (entries, index) {
      entries.splice(index, 1);
      var next = entries[index];
      if (next && next.after) { next.after = false; next.body.version = state.version; }
    });
    typedAgainst(state.version);
    document.dispatchEvent(new Event("ctc:sent")); // a tap waiting behind this one goes now
    if (list.length && !list[0].conflict && !list[0].refused) { flush(); return; }
    var tapped = landing === item.key;
    api.refresh(function (main) {
      render();
      if (tapped) { land(main.querySelector("#result-h") || main.querySelector("#standings-h")); }
    }, false).catch(render);
  }

  // Until the fresh page comes, the next round is typed against the version this write made, not the one
  // the page was rendered with (which would meet a 409 of its own making).
  function typedAgainst(version) {
    if (typeof version !== "number") { return; }
    each(document.querySelectorAll("main input[name=version]"), function (input) {
      if (parseInt(input.value, 10) < version) { input.value = String(version); }
    });
  }

  // Dropped or kept elsewhere: the entry after it was typed against what this one was typed against.
  function forget(item) {
    update(item.key, function (list, index) {
      list.splice(index, 1);
      var next = list[index];
      if (next && next.after) { next.after = item.after; next.body.version = item.body.version; }
    });
  }

  function conflicted(item, current) {
    var stored = current && current.rounds.filter(function (round) { return round.round === item.round; })[0];
    if (!stored) {
      putBack(item, "another phone changed this game meanwhile. Check your entries and save again",
        current ? current.version : null);
      return;
    }
    update(item.key, function (list, index, entry) {
      entry.conflict = true;
      entry.stored = { went_out: stored.went_out, scores: stored.scores };
      entry.now = current.version;
    });
    api.refresh(render, false).catch(render);
  }

  function putBack(item, sentence, version) {
    update(item.key, function (list, index, entry) {
      entry.refused = sentence;
      if (version !== null) { entry.body.version = version; }
    });
    render();
  }

  function keep(item) {
    update(item.key, function (list, index, entry) {
      entry.method = "PUT";
      entry.url = entry.correct;
      entry.body.version = entry.now;
      entry.key = api.newKey(); // another write than the one refused
      entry.conflict = false;
      entry.after = false;
      entry.fix = true;
    });
    flush();
  }

  // --- what the page shows ------------------------------------------------------------------------

  function land(target) {
    if (!target) { return; }
    target.scrollIntoView({ block: "start" });
    target.focus({ preventScroll: true });
    if (window.CardTable) { window.CardTable.reach(); } // app.js: the next round's first choice in view
  }

  function points(text, multiplier) {
    if (!SUM.test(String(text))) { return 0; }
    return String(text).split("+").reduce(function (sum, part) { return sum + parseInt(part, 10); }, 0) * multiplier;
  }

  function describe(item, first) {
    var what = (item.fix ? "Correction of " + word() + " " : Word() + " ") + item.round;
    if (sending && first) { return what + ": sending…"; }
    if (item.after) { return what + ": waiting to send after " + word() + " " + (item.round - 1); }
    return what + ": waiting to send — " + (item.why || "not sent yet");
  }

  function outboxArea(main) {
    var area = document.getElementById("outbox");
    if (!area) {
      area = document.createElement("div");
      area.id = "outbox";
      area.className = "outbox";
      area.setAttribute("aria-live", "polite");
    }
    var standings = main.querySelector("#standings");
    if (standings && area.nextSibling !== standings) { standings.parentNode.insertBefore(area, standings); }
    return area;
  }

  function conflictNote(area, item) {
    var note = document.createElement("div");
    note.className = "draft-note alert";
    note.id = "conflict-note";
    note.setAttribute("role", "alert");
    var text = document.createElement("p");
    text.textContent = clash(item.round, item.stored, item.body, item.players, item.verb);
    note.appendChild(text);
    drafts.button(note, "Keep mine as the correction of " + word() + " " + item.round, function () { keep(item); });
    drafts.button(note, "Drop mine", function () { forget(item); flush(); });
    area.appendChild(note);
  }

  function pendingPoints(main, list) {
    var totals = Object.create(null);
    list.forEach(function (item) {
      if (item.fix || item.conflict || item.refused) { return; }
      Object.keys(item.body.scores).forEach(function (name) {
        totals[name] = (totals[name] || 0) + points(item.body.scores[name], item.multiplier);
      });
    });
    each(main.querySelectorAll(".standings li"), function (row) {
      var mark = row.querySelector(".pending-points");
      if (mark) { row.removeChild(mark); }
      var name = row.querySelector(".name");
      var player = name && name.firstChild ? name.firstChild.textContent.trim() : "";
      if (!(player in totals)) { return; }
      mark = document.createElement("span");
      mark.className = "pending-points";
      mark.textContent = "+" + totals[player] + " not yet sent";
      row.appendChild(mark);
    });
  }

  // The form shows the round after the queued ones, or an entry refused, filled in again.
  function moveForm(form, list) {
    if (!form || form.hasAttribute("data-stale")) { return; }
    var refused = list.filter(function (item) { return item.refused; })[0];
    var queued = list.filter(function (item) { return !item.fix; });
    var number = parseInt(form.getAttribute("data-round"), 10);
    var target = refused ? refused.round : queued.length ? queued[queued.length - 1].round + 1 : number;
    if (target !== number && (refused || target > number)) { renumber(form, target); }
    var error = form.querySelector("#entry-error");
    if (refused && form.getAttribute("data-filled") !== refused.key) {
      form.setAttribute("data-filled", refused.key);
      drafts.fill(form, refused.values);
      if (refused.body.version !== null) { form.elements.version.value = String(refused.body.version); }
      drafts.restore(form); // changes typed since
      error.textContent = "Not saved: " + fullStop(refused.refused);
      error.hidden = false;
    } else if (!refused && form.hasAttribute("data-filled")) {
      form.removeAttribute("data-filled");
      error.hidden = true;
    }
  }

  function renumber(form, number) {
    form.setAttribute("data-round", String(number));
    form.setAttribute("data-draft", "round-" + number);
    form.reset();
    var word = form.getAttribute("data-word") || "round"; // Contract Rummy says "deal"
    form.querySelector("#entry-h").textContent = "Enter " + word + " " + number + " scores";
    form.querySelector("button[type=submit]").textContent = "Save " + word + " " + number;
    drafts.touch(form);
    drafts.restore(form);
  }

  function render() {
    var main = document.querySelector("main");
    var form = entryForm();
    var list = readBox();
    if (!main || (!form && !list.length)) { return; }
    var area = outboxArea(main);
    area.textContent = "";
    list.forEach(function (item, index) {
      if (item.refused) { return; } // shown in the form
      if (item.conflict) { conflictNote(area, item); return; }
      var line = document.createElement("p");
      line.className = "outbox-line";
      line.textContent = describe(item, index === 0);
      area.appendChild(line);
    });
    pendingPoints(main, list);
    if (!form) { return; }
    moveForm(form, list);
    var button = form.querySelector("button[type=submit]");
    if (button) { button.disabled = sending && landing === (list[0] || {}).key; }
  }

  // A fresh page swapped in: its form moves past the queued rounds before the typed values go in.
  drafts.beforeSwap(function (fresh) {
    var form = fresh.querySelector("#round-entry");
    if (form) { moveForm(form, readBox()); }
  });

  // --- a draft whose round another phone saved (js/drafts.js keeps the form as typed) -----------

  function staleDraft(form) {
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
          var list = readBox();
          typed = body(form); // as it reads now
          typed.version = state.version;
          list.push({
            key: api.newKey(), round: number, method: "PUT", url: correctionUrl(form, number), edit: form.getAttribute("data-key"),
            body: typed, values: drafts.values(form), why: "", multiplier: 1, players: players, verb: verbOf(form),
            correct: correctionUrl(form, number), fix: true, after: false
          });
          writeBox(list);
          drafts.drop(form);
          form.parentNode.removeChild(form);
          landing = list[list.length - 1].key;
          flush();
          api.refresh(render, false).catch(render);
        });
      }
      drafts.button(note, "Drop mine", function () {
        drafts.drop(form);
        api.refresh(render, false);
      });
    }
    fetch(form.getAttribute("data-state"), { credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .catch(function () { return null; })
      .then(offer);
  }

  document.addEventListener("ctc:stale", function (event) {
    var form = event.detail.form;
    if (form.id !== "round-entry") { return; }
    event.preventDefault();
    staleDraft(form);
  });

  // Forms swapped in later (here or by js/live.js) get the same help as at load (app.js).
  function enhance(root) {
    each(root.querySelectorAll("form.round-form:not([data-ready])"), function (form) {
      form.setAttribute("data-ready", "");
      if (window.CardTable && window.CardTable.setUpRoundForm) { window.CardTable.setUpRoundForm(form); }
    });
    render();
  }

  document.addEventListener("DOMContentLoaded", function () {
    var main = document.querySelector("main");
    each(document.querySelectorAll("form.round-form"), function (form) { form.setAttribute("data-ready", ""); });
    if (main && window.MutationObserver) {
      new MutationObserver(function () { enhance(main); }).observe(main, { childList: true });
    }
    window.setTimeout(function () { render(); flush(); }, 0); // after js/drafts.js filled in the drafts
  });

  window.addEventListener("online", flush);
  document.addEventListener("ctc:sent", flush);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { flush(); } });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form || form.id !== "round-entry" || !window.fetch || !window.DOMParser) { return; }
    if (!form.getAttribute("data-key")) { return; } // the server's form answers instead
    event.preventDefault();
    if (!sending || landing !== (readBox()[0] || {}).key) { enqueue(form); }
  });

  // A page brought back from the browser's memory (Back) may show a form saved meanwhile: reload it.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted && document.getElementById("round-entry")) { window.location.reload(); }
  });
})();
