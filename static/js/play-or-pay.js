// Card Table Companion: Play or Pay, one tap per event on the hand page, without a page load.
// A tap on "Played", "Paid" or a card of the grid (templates/play_or_pay/hand.html), a hand in quick mode
// and a chip purchase are sent to the JSON API through the outbox (js/outbox.js: POST data-hand-api with the
// edit key, the version the page shows and an Idempotency-Key; kept and sent again without a connection);
// "Undo" is sent at once as DELETE with the version. Then the fresh hand page is swapped into <main>: whose
// turn, the card needed, the cards held, the pot and the chips. On 409 (another phone recorded first) a tap
// is not sent again: the page shows the hand as stored now and says so. Quick mode midway asks before it
// replaces the cards and chips recorded.
// Without this file every form posts to the server (post-redirect-get).
"use strict";

(function () {
  var api = window.CardTableApi; // js/api-call.js
  var fullStop = api.fullStop;
  var each = api.each;
  var drafts = window.CardTableDrafts; // js/drafts.js

  var busy = false;

  function refresh(after) { return api.refresh(after, true); } // open <details> stay open

  function say(text) {
    var box = document.getElementById("tap-error") || document.getElementById("hand-error");
    if (!box) { window.alert(text); return; }
    box.textContent = text;
    box.hidden = false;
    box.scrollIntoView({ block: "center" });
  }

  // A status line outside <main> (which is swapped): screen readers hear whose turn it is after each tap.
  function announce(main) {
    var line = document.getElementById("hand-said");
    if (!line) {
      line = document.createElement("p");
      line.id = "hand-said";
      line.className = "sr-only";
      line.setAttribute("role", "status");
      document.body.appendChild(line);
    }
    var turn = main.querySelector("#turn") || main.querySelector(".settled");
    line.textContent = turn ? turn.textContent.replace(/\s+/g, " ").trim() : "";
  }

  // After a tap the next tap is where the finger is: the played button, or the card grid.
  function ready(main) {
    var next = main.querySelector("#played") || main.querySelector(".card-grid button");
    if (next) { next.focus({ preventScroll: true }); }
    announce(main);
  }

  // The tap was answered but the fresh page did not come: what the page shows is out of date.
  function stale() {
    say("The page could not be brought up to date; reload it before the next tap.");
  }

  function body(form, submitter) {
    var fields = form.elements;
    var type = fields.type.value;
    var event = { type: type === "lead" ? "play" : type, player: fields.player.value };
    event.version = parseInt(fields.version.value, 10);
    if (submitter && submitter.name === "card") {
      event.card = submitter.value;
    } else if (fields.card && fields.card.value) {
      event.card = fields.card.value;
    }
    return event;
  }

  function send(form, method, address, payload) {
    var buttons = form.querySelectorAll("button");
    busy = true;
    each(buttons, function (button) { button.disabled = true; });
    return api.tap(method, address, form.getAttribute("data-key"), payload)
      .then(function (result) {
        if (result.status === 200 || result.status === 201) { return refresh(ready).catch(stale); }
        if (result.status === 409) {
          return refresh(function (main) {
            ready(main);
            say("Not recorded: another phone changed this game first. The page now shows the hand as it is " +
              "kept; check whose turn it is and tap again if needed.");
          }).catch(stale);
        }
        say("Not recorded: " + fullStop(result.answer.error || "the server refused it"));
        return null;
      })
      .catch(function () {
        say("Not recorded: the server did not answer. Check the connection and tap again.");
      })
      .then(function () {
        busy = false;
        each(buttons, function (button) { if (document.body.contains(button)) { button.disabled = false; } });
      });
  }

  // Taps, quick mode and purchases go through the outbox (js/outbox.js): kept and sent again without a
  // connection. Undo is sent at once: it takes back what the page shows.
  var outbox = window.CardTableOutbox;
  outbox.on("landed", ready);
  outbox.on("refused", function (sentence) { say("Not recorded: " + sentence); });

  function tapWords(event, submitter) {
    var label = submitter ? submitter.textContent.trim() : "";
    if (event.type === "pay") { return event.player + " paid a chip"; }
    return event.player + (submitter && submitter.name === "card" ? " led " + label : " " + label.replace(/^Played/, "played"));
  }

  function whole(text) { return /^\s*\d{1,6}\s*$/.test(text) ? parseInt(text, 10) : null; }

  // Quick mode's result as the API's settle event; null when something is missing or not a number
  // (the form then posts, and the server names what is wrong).
  function settle(form) {
    var chosen = form.querySelector("input[name=winner]:checked");
    if (!chosen) { return null; }
    var event = { type: "settle", winner: chosen.value, cards_left: {}, paid: {}, version: parseInt(form.elements.version.value, 10) };
    var complete = true;
    each(form.querySelectorAll("input[data-player]"), function (input) {
      var name = input.getAttribute("data-player");
      var held = whole(input.value.trim() || (name === event.winner ? "0" : ""));
      var paid = whole(form.elements[input.name.replace("cards_left", "paid")].value.trim() || "0");
      if (held === null || paid === null) { complete = false; return; }
      event.cards_left[name] = held;
      event.paid[name] = paid;
    });
    var box = form.querySelector("#replace");
    if (box && box.checked) { event.replaces = parseInt(box.value, 10); }
    return complete ? event : null;
  }

  function purchase(form) {
    var chips = whole(form.elements.chips.value);
    var max = parseInt(form.elements.chips.getAttribute("max") || "0", 10);
    if (chips === null || chips < 1 || (max && chips > max)) { return null; }
    return { type: "purchase", player: form.elements.player.value, chips: chips, version: parseInt(form.elements.version.value, 10) };
  }

  function queueForm(form, event, what) {
    var draft = drafts.get(form) || {};
    outbox.add({
      method: "POST", url: form.getAttribute("data-hand-api"), edit: form.getAttribute("data-key"), body: event,
      what: what, form: form.getAttribute("data-draft"), values: drafts.values(form), key: draft.key
    });
    drafts.drop(form);
    form.reset();
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form || event.defaultPrevented || !window.fetch || !window.DOMParser) { return; }
    if (form.id === "quick-form") {
      var box = form.querySelector("#replace");
      if (box && !box.checked) {
        var count = form.getAttribute("data-recorded");
        var hand = form.getAttribute("data-hand");
        var what = count === "1" ? "the card or chip" : "the " + count + " cards and chips";
        if (!window.confirm("Replace " + what + " recorded so far in hand " + hand + " with this result? " +
            "Undo brings them back.")) {
          event.preventDefault();
          return;
        }
        box.checked = true; // the form then posts as without JavaScript
      }
      var result = form.getAttribute("data-key") ? settle(form) : null;
      if (result) {
        event.preventDefault();
        queueForm(form, result, "Hand " + form.getAttribute("data-hand") + " in quick mode");
      }
      return;
    }
    if (form.id === "buy-form") {
      var bought = form.getAttribute("data-key") ? purchase(form) : null;
      if (bought) {
        event.preventDefault();
        queueForm(form, bought, "Chips bought: " + bought.player + " " + bought.chips);
      }
      return;
    }
    var add = form.getAttribute("data-hand-api");
    var undo = form.getAttribute("data-undo-api");
    if (!(add || undo) || !form.getAttribute("data-key")) { return; }
    event.preventDefault();
    if (busy || outbox.busy()) { return; } // a second tap while the first is on its way
    if (add) {
      var tap = body(form, event.submitter);
      outbox.add({ method: "POST", url: add, edit: form.getAttribute("data-key"), body: tap, what: tapWords(tap, event.submitter) });
    } else { // confirmed already (app.js)
      send(form, "DELETE", undo + "?version=" + encodeURIComponent(form.elements.version.value), null);
    }
  });

  // A page brought back from the browser's memory (Back) may show a hand changed meanwhile: reload it.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted && document.getElementById("hand")) { window.location.reload(); }
  });
})();
