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
// stays as typed with the same offer (js/drafts.js). Without this file the form posts to the server. The
// outbox's storage and sending are js/api-call.js's `outbox`, shared with the taps (js/outbox.js).
"use strict";

(function () {
  var api = window.CardTableApi; // js/api-call.js
  var drafts = window.CardTableDrafts; // js/drafts.js
  var fullStop = api.fullStop;
  var each = api.each;
  var SUM = /^\s*\d{1,5}(\s*\+\s*\d{1,5})*\s*$/;
  var box = api.outbox("ctc:outbox:", { render: render, landed: landed, conflicted: conflicted, refused: refused });
  var flush = box.flush;
  var forget = box.forget;
  var landing = null; // the key of the entry just saved by a tap (its Save stays disabled while it is sent)

  function entryForm() { return document.getElementById("round-entry"); }

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

  function correctionUrl(form, number) {
    return form.getAttribute("data-correct").replace(/\/0$/, "/" + number);
  }

  // --- the outbox ---------------------------------------------------------------------------------

  function enqueue(form) {
    var list = box.read();
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
    box.write(list);
    drafts.drop(form);
    landing = item.key;
    flush();
    land(document.getElementById("standings-h")); // now, not when the answer comes: the page moves only at a tap
  }

  function landed(item) {
    var tapped = landing === item.key;
    api.refresh(function (main) {
      render();
      if (tapped) { land(main.querySelector("#result-h")); } // the game is over
    }, false).catch(render);
  }

  function refused(item, sentence) { putBack(item, sentence, null); }

  function conflicted(item, current) {
    var stored = current && current.rounds.filter(function (round) { return round.round === item.round; })[0];
    if (!stored) {
      putBack(item, "another phone changed this game meanwhile. Check your entries and save again",
        current ? current.version : null);
      return;
    }
    box.update(item.key, function (list, index, entry) {
      entry.conflict = true;
      entry.stored = { went_out: stored.went_out, scores: stored.scores };
      entry.now = current.version;
    });
    api.refresh(render, false).catch(render);
  }

  function putBack(item, sentence, version) {
    box.update(item.key, function (list, index, entry) {
      entry.refused = sentence;
      if (version !== null) { entry.body.version = version; }
    });
    render();
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
    if (box.sending() && first) { return what + ": sending…"; }
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

  // --- another phone saved the same round: js/round-conflict.js, loaded the first time it is needed ----

  var CONFLICT_JS = (document.currentScript && document.currentScript.src || "").replace(/round-entry\.js.*$/, "round-conflict.js");
  var conflictLoading = [];

  function withConflict(then) {
    if (window.CardTableRoundConflict) { then(window.CardTableRoundConflict); return; }
    conflictLoading.push(then);
    if (conflictLoading.length > 1) { return; }
    var script = document.createElement("script");
    script.src = CONFLICT_JS;
    script.onload = function () {
      var waiting = conflictLoading;
      conflictLoading = [];
      waiting.forEach(function (fn) { fn(window.CardTableRoundConflict); });
    };
    script.onerror = function () { conflictLoading = []; document.head.removeChild(script); };
    document.head.appendChild(script);
  }

  // Until the code comes (or when it cannot), a line that keeps the entry in view.
  function conflictNote(area, item) {
    if (window.CardTableRoundConflict) { window.CardTableRoundConflict.note(area, item); return; }
    var line = document.createElement("p");
    line.className = "outbox-line";
    line.textContent = Word() + " " + item.round + ": not recorded, another phone saved it first.";
    area.appendChild(line);
    withConflict(render);
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

  function render() { window.CardTableLive.steady(show); } // a line come or gone above the form moves it not

  function show() {
    var main = document.querySelector("main");
    var form = entryForm();
    var list = box.read();
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
    if (button) { button.disabled = box.sending() && landing === (list[0] || {}).key; }
  }

  // A fresh page swapped in: its form moves past the queued rounds before the typed values go in.
  drafts.beforeSwap(function (fresh) {
    var form = fresh.querySelector("#round-entry");
    if (form) { moveForm(form, box.read()); }
  });

  document.addEventListener("ctc:stale", function (event) {
    var form = event.detail.form;
    if (form.id !== "round-entry") { return; }
    event.preventDefault();
    withConflict(function (conflict) { conflict.stale(form); });
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

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form || form.id !== "round-entry" || !window.fetch || !window.DOMParser) { return; }
    if (!form.getAttribute("data-key")) { return; } // the server's form answers instead
    event.preventDefault();
    if (!box.sending() || landing !== (box.read()[0] || {}).key) { enqueue(form); }
  });

  window.CardTableRoundEntry = {
    box: box, body: body, word: word, verbOf: verbOf, playersOf: playersOf, correctionUrl: correctionUrl, render: render,
    landing: function (key) { landing = key; }
  };

  // A page brought back from the browser's memory (Back) may show a form saved meanwhile: reload it.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted && document.getElementById("round-entry")) { window.location.reload(); }
  });
})();
