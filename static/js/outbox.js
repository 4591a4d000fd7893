// Card Table Companion: the outbox of the taps and small forms (issue 24): Play or Pay's taps, quick mode
// and chip purchases (js/play-or-pay.js), Contract Rummy's buys (js/buys.js), pool rummy's deals, rejoins and split
// (js/pool.js). `add` keeps a write in the
// phone's storage with its Idempotency-Key and sends it; with no answer (no connection, a timeout, 502, 503,
// 504) it stays, the page says so, and it is sent again by itself, in the order made, when the connection
// returns (online, the page visible again, a backoff timer; never before a 503's Retry-After). A write made
// while another waits is typed against the version that one makes. On success the fresh page is swapped in.
// A 409 on a resend is kept with the choice to send it again on the game as it is now or to drop it; any
// other refusal is shown with the server's sentence, and a form's entry goes back into its form. The round
// entries have their own outbox (js/round-entry.js); the two wait for each other's older entries (the
// storage and the sending are js/api-call.js's `outbox`).
"use strict";

(function () {
  var api = window.CardTableApi; // js/api-call.js
  var drafts = window.CardTableDrafts; // js/drafts.js
  var loading = false; // the page after a write is on its way
  var hooks = { landed: null, refused: null };
  var box = api.outbox("ctc:taps:", { render: render, landed: landed, conflicted: conflicted, refused: refused });
  var flush = box.flush;
  var forget = box.forget;

  // item: { method, url, body (with its version), what (words for the page), form (a draft's name), values }
  function add(item) {
    item.key = item.key || api.newKey();
    item.made = Date.now();
    item.why = "";
    item.edit = item.edit || "";
    box.push(item);
    flush();
  }

  function landed(item) {
    loading = true;
    window.CardTableLive.load(function (main) {
      loading = false;
      render();
      if (hooks.landed) { hooks.landed(main, item); }
    }).catch(function () { loading = false; render(); });
  }

  // A tap refused at once (not a resend) is shown and not kept: the person sees the game as it is now.
  function conflicted(item, current) {
    var resent = item.tried;
    var sentence = "another phone changed this game first. The page now shows the game as it is kept; " +
      (item.form ? "check what you entered and send it again." : "check it and tap again if needed.");
    if (!resent || item.form) {
      forget(item);
      giveBack(item, sentence);
      return;
    }
    box.update(item.key, function (list, index, stored) {
      stored.conflict = true;
      stored.now = current ? current.version : null;
    });
    window.CardTableLive.load(render).catch(render);
  }

  function refused(item, sentence) {
    forget(item);
    giveBack(item, sentence);
  }

  // The entry goes back into its form (kept as a draft); the page says the sentence (hooks.refused).
  function giveBack(item, sentence) {
    window.CardTableLive.load(function (main) {
      var form = item.form ? main.querySelector('form[data-draft="' + CSS.escape(item.form) + '"]') : null;
      if (form && item.values) {
        drafts.fill(form, item.values);
        drafts.save(form);
      }
      render();
      if (hooks.refused) { hooks.refused(sentence, form, item); }
      flush();
    }).catch(function () {
      render();
      if (hooks.refused) { hooks.refused(sentence, null, item); }
    });
  }

  function resend(item) {
    box.update(item.key, function (list, index, stored) {
      stored.conflict = false;
      stored.after = false;
      stored.key = api.newKey(); // another write than the one refused
      if (stored.now !== null) { stored.body.version = stored.now; }
      if (/\?version=/.test(stored.url)) { stored.url = stored.url.replace(/\?version=\d*/, "?version=" + stored.now); }
    });
    flush();
  }

  function line(area, item, first) {
    var row = document.createElement("div");
    row.className = item.conflict ? "draft-note alert" : "outbox-line";
    var text = document.createElement("p");
    text.className = "outbox-what";
    if (item.conflict) {
      text.textContent = item.what + ": not recorded, another phone changed this game first.";
      row.appendChild(text);
      drafts.button(row, "Send it again", function () { resend(item); });
      drafts.button(row, "Drop it", function () { forget(item); flush(); });
    } else {
      text.textContent = item.what + ": " + (box.sending() && first ? "sending…" : "waiting to send — " + (item.after ? "after the one above" : item.why || "not sent yet"));
      row.appendChild(text);
    }
    area.appendChild(row);
  }

  function render() {
    var main = document.querySelector("main");
    if (!main) { return; }
    var list = box.read();
    var area = document.getElementById("tap-outbox");
    if (!list.length) { if (area) { area.parentNode.removeChild(area); } return; }
    if (!area) {
      area = document.createElement("div");
      area.id = "tap-outbox";
      area.className = "outbox";
      area.setAttribute("aria-live", "polite");
    }
    var anchor = main.querySelector("#hand, #buys, #buy, #quick, #offers, #deal-entry, #split") || main.firstChild;
    if (area.nextSibling !== anchor) { anchor.parentNode.insertBefore(area, anchor); }
    area.textContent = "";
    list.forEach(function (item, index) { line(area, item, index === 0); });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var main = document.querySelector("main");
    if (main && window.MutationObserver) { new MutationObserver(render).observe(main, { childList: true }); }
    window.setTimeout(flush, 0);
  });
  window.CardTableOutbox = {
    add: add,
    busy: function () { return box.sending() || loading; },
    on: function (name, fn) { hooks[name] = fn; }
  };
})();
