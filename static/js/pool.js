// Card Table Companion: pool rummy without a page load (templates/pool/pool.html). A deal (the cut tapped on
// the grid, a tap or a count for each player still in), a rejoin and a split go to the JSON API through the
// outbox (js/outbox.js: POST data-api with the edit key, the version the page shows and an Idempotency-Key;
// kept in the phone's storage and sent again when the connection returns). Then the fresh page is swapped
// into <main> and the eye lands on what comes next: the rejoin offers, else the next deal. Undo is sent at
// once as DELETE with the version. A refused entry goes back into its form with the server's sentence; a
// deal being typed stays as typed through live updates (js/drafts.js). Without this file the forms post.
"use strict";

(function () {
  var api = window.CardTableApi; // js/api-call.js
  var drafts = window.CardTableDrafts; // js/drafts.js
  var outbox = window.CardTableOutbox; // js/outbox.js
  var each = api.each;
  var COUNT = /^\d{1,4}$/;
  var MONEY = /^\s*[$€£₹]?\s*(\d{1,3}(?:,\d{3})+|\d{1,9})(?:\.(\d{1,2}))?\s*$/;

  function say(text) {
    var box = document.getElementById("page-error");
    if (!box) { return; }
    box.textContent = text;
    box.hidden = false;
    box.scrollIntoView({ block: "center" });
  }

  function quiet() {
    var box = document.getElementById("page-error");
    if (box) { box.hidden = true; }
  }

  // After a save: the rejoin offers when a player was put out, else the next deal, else the result.
  function land(main) {
    var target = main.querySelector("#offers-h") || main.querySelector("#deal-h") || main.querySelector("#result-h");
    if (!target) { return; }
    target.scrollIntoView({ block: "start" });
    target.focus({ preventScroll: true });
  }

  outbox.on("landed", function (main) { quiet(); land(main); });
  outbox.on("refused", function (sentence) { say("Not saved: " + sentence); });

  // --- one deal ------------------------------------------------------------------------------------

  function rows(form) { return form.querySelectorAll(".player-result"); }

  // Each player's result: the tap, or the count typed; what is missing or not a count, by name.
  function dealBody(form) {
    var entry = { results: Object.create(null), version: parseInt(form.elements.version.value, 10) };
    var missing = [];
    var wrong = [];
    each(rows(form), function (row) {
      var name = row.getAttribute("data-player");
      var tapped = row.querySelector("input[type=radio]:checked");
      var count = row.querySelector("input.count").value.trim();
      if (tapped) {
        entry.results[name] = tapped.value;
      } else if (COUNT.test(count)) {
        entry.results[name] = parseInt(count, 10);
      } else if (count) {
        wrong.push(name);
      } else {
        missing.push(name);
      }
    });
    var cut = form.querySelector("input[name=cut]:checked");
    if (cut) {
      if (cut.value === "JK") { entry.cut = "JK"; } else { entry.wild = cut.value; }
    }
    return { entry: entry, missing: missing, wrong: wrong };
  }

  function missingLine(form) {
    var line = form.querySelector("#deal-missing");
    var typed = dealBody(form);
    var parts = [];
    if (typed.missing.length) { parts.push("a result for " + typed.missing.join(", ")); }
    if (typed.wrong.length) { parts.push("a count in whole points for " + typed.wrong.join(", ")); }
    if (line) { line.textContent = parts.length ? "Missing: " + parts.join("; ") : ""; }
    return parts;
  }

  // A tap clears the player's count and a count clears the tap: one result each.
  function changed(event) {
    var field = event.target;
    var form = field.form;
    if (!form || form.id !== "deal-entry") { return; }
    var row = field.closest(".player-result");
    if (row && field.type === "radio") {
      var count = row.querySelector("input.count");
      if (count.value) { count.value = ""; }
    } else if (row && field.classList.contains("count") && field.value) {
      each(row.querySelectorAll("input[type=radio]"), function (radio) { radio.checked = false; });
    }
    missingLine(form);
  }
  document.addEventListener("input", changed);
  document.addEventListener("change", changed);

  function saveDeal(form) {
    var typed = dealBody(form);
    if (missingLine(form).length) {
      form.querySelector("#deal-missing").scrollIntoView({ block: "center" });
      return;
    }
    var draft = drafts.get(form) || {};
    outbox.add({
      method: "POST", url: form.getAttribute("data-api"), edit: form.getAttribute("data-key"), body: typed.entry,
      what: "Deal " + form.getAttribute("data-deal"), form: form.getAttribute("data-draft"), values: drafts.values(form),
      key: draft.key
    });
    drafts.drop(form);
    form.reset();
    missingLine(form);
  }

  // --- the split -----------------------------------------------------------------------------------

  function cents(text) {
    var found = MONEY.exec(text || "0");
    if (!found) { return null; }
    var fraction = (found[2] || "").concat("00").slice(0, 2);
    return parseInt(found[1].replace(/,/g, ""), 10) * 100 + parseInt(fraction, 10);
  }

  function money(amount) {
    return "$" + Math.floor(amount / 100) + "." + String(amount % 100 + 100).slice(1);
  }

  // The typed amounts in cents by name, or a sentence saying what is wrong with them.
  function shares(form) {
    var typed = Object.create(null);
    var sum = 0;
    var bad = "";
    each(form.querySelectorAll(".shares input"), function (input) {
      var name = form.querySelector('label[for="' + input.id + '"]').textContent.trim();
      var amount = cents(input.value.trim() || "0");
      if (amount === null) { bad = bad || name + ': an amount of money such as 5.00, not "' + input.value.trim() + '"'; return; }
      typed[name] = amount;
      sum += amount;
    });
    var pot = parseInt(form.getAttribute("data-pot"), 10);
    if (!bad && sum !== pot) {
      bad = "the amounts typed add up to " + money(sum) + ", not the pot of " + money(pot) + ": " +
        money(Math.abs(pot - sum)) + (sum < pot ? " left over" : " too much");
    }
    return { shares: typed, problem: bad, sum: sum, pot: pot };
  }

  function sumLine(form) {
    var line = form.querySelector("#shares-sum");
    var typed = shares(form);
    if (line) {
      line.textContent = "Typed " + money(typed.sum) + " of the pot of " + money(typed.pot) +
        (typed.sum === typed.pot ? ": it adds up." : ".");
    }
  }
  document.addEventListener("input", function (event) {
    var form = event.target.form;
    if (form && form.id === "split-form" && event.target.closest(".shares")) {
      var amounts = form.querySelector("input[name=split][value=amounts]");
      if (amounts) { amounts.checked = true; }
      sumLine(form);
    }
  });

  function saveSplit(form) {
    var chosen = form.querySelector("input[name=split]:checked");
    if (!chosen) { say("Not saved: choose how to split the pot."); return; }
    var body = { split: chosen.value, version: parseInt(form.elements.version.value, 10) };
    if (chosen.value === "amounts") {
      var typed = shares(form);
      if (typed.problem) { say("Not saved: " + api.fullStop(typed.problem)); return; }
      body.shares = typed.shares;
    }
    outbox.add({ method: "POST", url: form.getAttribute("data-api"), edit: form.getAttribute("data-key"), body: body, what: "Split the pot" });
  }

  // --- the forms -----------------------------------------------------------------------------------

  var undoing = false;

  function undo(form) {
    if (undoing || outbox.busy()) { return; }
    undoing = true;
    var address = form.getAttribute("data-api") + "?version=" + encodeURIComponent(form.elements.version.value);
    api.tap("DELETE", address, form.getAttribute("data-key"), null).then(function (result) {
      if (result.status === 200) { return api.refresh(function (main) { quiet(); land(main); }, true); }
      if (result.status === 409) {
        return api.refresh(function () { say("Not undone: another phone changed this game first. Check the page and undo again."); }, true);
      }
      say("Not undone: " + api.fullStop(result.answer.error || "the server refused it"));
      return null;
    }, function () {
      say("Not undone: the server did not answer. Check the connection and tap again.");
    }).then(function () { undoing = false; });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form || event.defaultPrevented || !window.fetch || !window.DOMParser) { return; }
    if (!form.getAttribute("data-api") || !form.getAttribute("data-key")) { return; }
    event.preventDefault();
    if (form.id === "deal-entry") {
      saveDeal(form);
    } else if (form.id === "split-form") {
      saveSplit(form);
    } else if (form.id === "undo-form") {
      undo(form);
    } else if (form.classList.contains("rejoin-form")) {
      if (outbox.busy()) { return; } // a second tap while the first is on its way
      var player = form.elements.player.value;
      outbox.add({
        method: "POST", url: form.getAttribute("data-api"), edit: form.getAttribute("data-key"),
        body: { player: player, version: parseInt(form.elements.version.value, 10) }, what: player + " rejoins"
      });
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    window.setTimeout(function () { // after js/drafts.js filled in the drafts
      var form = document.getElementById("deal-entry");
      if (form) { missingLine(form); }
    }, 0);
  });

  // A page brought back from the browser's memory (Back) may show a game changed meanwhile: reload it.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted && document.getElementById("deal-entry")) { window.location.reload(); }
  });
})();
