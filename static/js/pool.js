// Card Table Companion: pool rummy without a page load (templates/pool/pool.html). A deal (the cut tapped on
// the grid, a tap or a count for each player still in), a rejoin and a split go to the JSON API through the
// outbox (js/outbox.js: POST data-api with the edit key, the version the page shows and an Idempotency-Key;
// kept in the phone's storage and sent again when the connection returns). Then the fresh page is swapped
// into <main> and the eye lands on what comes next: the rejoin offers, else the next deal. Undo is sent at
// once as DELETE with the version. A refused entry goes back into its form with the server's sentence; what
// is typed in the deal or the split stays through live updates (js/drafts.js). Without this file the forms post.
"use strict";

(function () {
  var api = window.CardTableApi; // js/api-call.js
  var drafts = window.CardTableDrafts; // js/drafts.js
  var outbox = window.CardTableOutbox; // js/outbox.js
  var each = api.each;
  var MONEY = /^\s*[$€£₹]?\s*(\d{1,3}(?:,\d{3})+|\d{1,9})(?:\.(\d{1,2}))?\s*$/;

  function say(text) {
    var box = document.getElementById("page-error");
    box.textContent = text;
    box.hidden = !text;
    if (text) { box.scrollIntoView({ block: "center" }); }
  }

  // After a save: the rejoin offers when a player was put out, else the next deal, else the result.
  function land(main) {
    var target = main.querySelector("#offers-h, #deal-h, #result-h");
    if (target) {
      target.scrollIntoView({ block: "start" });
      target.focus({ preventScroll: true });
    }
  }

  outbox.on("landed", function (main) { say(""); land(main); });
  // A refused deal goes back into the deal form, also when the page now shows another deal's form (a deal
  // queued without a connection, refused once the one before it was saved): what was typed is never lost.
  outbox.on("refused", function (sentence, form, item) {
    var entry = document.getElementById("deal-entry");
    if (!form && entry && item.values && /^deal-/.test(item.form || "")) {
      drafts.fill(entry, item.values);
      drafts.save(entry);
    }
    say("Not saved: " + sentence);
  });

  function version(form) { return parseInt(form.elements.version.value, 10); }

  // Each player's result (the tap, or the count typed) and the cut; `missing` names who has none.
  function dealBody(form) {
    var entry = { results: Object.create(null), version: version(form) };
    var missing = [];
    each(form.querySelectorAll(".player-result"), function (row) {
      var name = row.getAttribute("data-player");
      var tapped = row.querySelector(":checked");
      var count = row.querySelector(".count").value.trim();
      if (tapped) {
        entry.results[name] = tapped.value;
      } else if (/^\d{1,4}$/.test(count)) {
        entry.results[name] = parseInt(count, 10);
      } else {
        missing.push(name);
      }
    });
    var cut = form.querySelector("[name=cut]:checked");
    if (cut) { entry[cut.value === "JK" ? "cut" : "wild"] = cut.value; }
    var line = form.querySelector("#deal-missing");
    line.textContent = missing.length ? "Missing: a result or a count for " + missing.join(", ") : "";
    return missing.length ? null : entry;
  }

  // A tap clears the player's count and a count clears the tap: one result each.
  function changed(event) {
    var field = event.target;
    var row = field.closest && field.closest("#deal-entry .player-result");
    if (!row) { return; }
    if (field.type === "radio") {
      row.querySelector(".count").value = "";
    } else if (field.value) {
      each(row.querySelectorAll(":checked"), function (radio) { radio.checked = false; });
    }
    dealBody(field.form);
  }
  document.addEventListener("input", changed);
  document.addEventListener("change", changed);

  function cents(text) {
    var found = MONEY.exec(text || "0");
    return found ? parseInt(found[1].replace(/,/g, ""), 10) * 100 + parseInt((found[2] || "").concat("00").slice(0, 2), 10) : null;
  }

  function money(amount) { return "$" + Math.floor(amount / 100) + "." + String(amount % 100 + 100).slice(1); }

  // The split as the API takes it; a sentence when the typed amounts are not money or miss the pot.
  function splitBody(form) {
    var chosen = form.querySelector("[name=split]:checked");
    if (!chosen) { return "choose how to split the pot."; }
    var body = { split: chosen.value, version: version(form) };
    if (chosen.value !== "amounts") { return body; }
    var sum = 0;
    var bad = "";
    body.shares = {};
    each(form.querySelectorAll(".shares input"), function (input) {
      var name = form.querySelector('label[for="' + input.id + '"]').textContent;
      var amount = cents(input.value.trim());
      if (amount === null) { bad = bad || name + ': an amount of money such as 5.00, not "' + input.value.trim() + '".'; }
      body.shares[name] = amount;
      sum += amount;
    });
    var pot = parseInt(form.getAttribute("data-pot"), 10);
    if (!bad && sum !== pot) {
      bad = "the amounts typed add up to " + money(sum) + ", not the pot of " + money(pot) + ": " +
        money(Math.abs(pot - sum)) + (sum < pot ? " left over." : " too much.");
    }
    return bad || body;
  }

  // A form's write into the outbox; a form with a draft gives it up (it comes back on a refusal).
  function send(form, body, what) {
    var name = form.getAttribute("data-draft");
    outbox.add({
      method: "POST", url: form.getAttribute("data-api"), edit: form.getAttribute("data-key"), body: body, what: what,
      form: name, values: name ? drafts.values(form) : null, key: name ? (drafts.get(form) || {}).key : null
    });
    if (name) {
      drafts.drop(form);
      form.reset();
    }
    if (form.id === "deal-entry") { // the form moves on to the next deal, as the outbox may wait
      var next = parseInt(name.slice(5), 10) + 1;
      form.setAttribute("data-draft", "deal-" + next);
      form.querySelector("#deal-h").textContent = "Deal " + next;
      form.querySelector(".save").textContent = "Save deal " + next;
    }
  }

  var undoing = false;

  function undo(form) {
    if (undoing || outbox.busy()) { return; }
    undoing = true;
    var address = form.getAttribute("data-api") + "?version=" + version(form);
    api.tap("DELETE", address, form.getAttribute("data-key"), null).then(function (result) {
      if (result.status === 200) { return api.refresh(function (main) { say(""); land(main); }, true); }
      var why = result.status === 409 ? "another phone changed this game first. Check the page and undo again." :
        api.fullStop(result.answer.error || "the server refused it");
      return api.refresh(function () { say("Not undone: " + why); }, true);
    }, function () {
      say("Not undone: the server did not answer. Check the connection and tap again.");
    }).then(function () { undoing = false; });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (event.defaultPrevented || !window.fetch || !form.getAttribute("data-api") || !form.getAttribute("data-key")) { return; }
    event.preventDefault();
    if (form.id === "deal-entry") {
      var deal = dealBody(form);
      if (deal) { send(form, deal, "Deal " + form.getAttribute("data-draft").slice(5)); }
    } else if (form.id === "split-form") {
      var split = splitBody(form);
      if (typeof split === "string") { say("Not saved: " + split); } else { send(form, split, "Split the pot"); }
    } else if (form.id === "undo-form") {
      undo(form);
    } else if (!outbox.busy()) { // a rejoin; a second tap while the first is on its way does nothing
      send(form, { player: form.elements.player.value, version: version(form) }, form.elements.player.value + " rejoins");
    }
  });

  // A page brought back from the browser's memory (Back) may show a game changed meanwhile: reload it.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted && document.getElementById("deal-entry")) { window.location.reload(); }
  });
})();
