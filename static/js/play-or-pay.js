// Card Table Companion: Play or Pay, one tap per event on the hand page, without a page load.
// A tap on "Played", "Paid" or a card of the grid (templates/play_or_pay/hand.html) is sent to the JSON API
// (POST data-hand-api with the edit key and the version the page shows); "Undo" is sent as DELETE with the
// version. Then the fresh hand page is fetched and its <main> swapped in: whose turn, the card needed, the cards
// held, the pot and the chips. On 409 (another phone recorded first) nothing is sent again: the page shows
// the hand as stored now and says so. Quick mode midway asks before it replaces the cards and chips recorded.
// Without this file every form posts to the server (post-redirect-get).
"use strict";

(function () {
  var api = window.CardTableApi; // js/api-call.js
  var fullStop = api.fullStop;
  var each = api.each;

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
      return;
    }
    var add = form.getAttribute("data-hand-api");
    var undo = form.getAttribute("data-undo-api");
    if (!(add || undo) || !form.getAttribute("data-key")) { return; }
    event.preventDefault();
    if (busy) { return; }
    if (add) {
      send(form, "POST", add, body(form, event.submitter));
    } else { // confirmed already by the form's own listener (app.js, or refresh above)
      send(form, "DELETE", undo + "?version=" + encodeURIComponent(form.elements.version.value), null);
    }
  });

  // A page brought back from the browser's memory (Back) may show a hand changed meanwhile: reload it.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted && document.getElementById("hand")) { window.location.reload(); }
  });
})();
