// Card Table Companion: the outbox of the taps and small forms (issue 24): Play or Pay's taps, quick mode
// and chip purchases (js/play-or-pay.js), Contract Rummy's buys (js/buys.js). `add` keeps a write in the
// phone's storage with its Idempotency-Key and sends it; with no answer (no connection, a timeout, 502, 503,
// 504) it stays, the page says so, and it is sent again by itself, in the order made, when the connection
// returns (online, the page visible again, a backoff timer; never before a 503's Retry-After). A write made
// while another waits is typed against the version that one makes. On success the fresh page is swapped in.
// A 409 on a resend is kept with the choice to send it again on the game as it is now or to drop it; any
// other refusal is shown with the server's sentence, and a form's entry goes back into its form. The round
// entries have their own outbox (js/round-entry.js); the two wait for each other's older entries.
"use strict";

(function () {
  var api = window.CardTableApi; // js/api-call.js
  var drafts = window.CardTableDrafts; // js/drafts.js
  var MAX_WAIT_MS = 10000;
  var MAX_HOLD_S = 600;
  var sending = false;
  var loading = false; // the page after a write is on its way
  var timer = null;
  var tries = 0;
  var holdUntil = 0;
  var hooks = { landed: null, refused: null };

  function gameId() {
    var found = /\/games\/([^/]+)\/version/.exec(document.body.getAttribute("data-live") || "");
    return found ? found[1] : "";
  }

  function boxId() { return "ctc:taps:" + gameId(); }

  function read(id) {
    try { return JSON.parse(window.localStorage.getItem(id) || "[]"); } catch (error) { return []; }
  }

  function write(list) {
    try {
      if (list.length) { window.localStorage.setItem(boxId(), JSON.stringify(list)); } else { window.localStorage.removeItem(boxId()); }
    } catch (error) { /* storage refused: the write is still on the page */ }
  }

  function update(key, change) {
    var list = read(boxId());
    var index = list.map(function (item) { return item.key; }).indexOf(key);
    if (index >= 0) { change(list, index, list[index]); }
    write(list);
    return list;
  }

  // item: { method, url, body (with its version), what (words for the page), form (a draft's name), values }
  function add(item) {
    var list = read(boxId());
    item.key = item.key || api.newKey();
    item.made = Date.now();
    item.why = "";
    item.after = list.length > 0;
    item.edit = item.edit || "";
    list.push(item);
    write(list);
    flush();
  }

  // A round entry made earlier goes first (js/round-entry.js keeps those).
  function olderRound(item) {
    return read("ctc:outbox:" + gameId()).some(function (entry) {
      return !entry.conflict && !entry.refused && (entry.made || 0) < item.made;
    });
  }

  function later(seconds) {
    window.clearTimeout(timer);
    tries += 1;
    var wait = seconds === null ? Math.min(MAX_WAIT_MS, 1000 * Math.pow(2, tries - 1)) : Math.min(MAX_HOLD_S, seconds) * 1000;
    holdUntil = seconds === null ? 0 : Date.now() + wait;
    timer = window.setTimeout(function () { holdUntil = 0; flush(); }, wait);
  }

  function flush() {
    if (Date.now() < holdUntil) { render(); return; }
    window.clearTimeout(timer);
    timer = null;
    var item = read(boxId())[0];
    if (sending || !item || item.conflict || item.refused || item.after || olderRound(item)) { render(); return; }
    sending = true;
    render();
    api.resend(item, {
      settled: function () { sending = false; },
      waiting: function (why, seconds) { waiting(item, why, seconds); },
      landed: function (state) { landed(item, state); },
      conflicted: function (stored) { conflicted(item, stored); },
      refused: function (sentence) { refused(item, api.fullStop(sentence)); }
    });
  }

  function waiting(item, why, seconds) {
    update(item.key, function (list, index, stored) { stored.why = why; stored.tried = true; });
    render();
    later(seconds);
  }

  function landed(item, state) {
    tries = 0;
    var list = update(item.key, function (entries, index) {
      entries.splice(index, 1);
      var next = entries[index];
      if (next && next.after) { next.after = false; next.body.version = state.version; }
    });
    if (state && state.version !== undefined) { // a tap before the fresh page comes is typed against it
      Array.prototype.forEach.call(document.querySelectorAll("main input[name=version]"), function (input) {
        input.value = String(state.version);
      });
    }
    document.dispatchEvent(new Event("ctc:sent")); // a round entry waiting behind this one goes now
    if (list.length && !list[0].conflict && !list[0].refused) { flush(); return; }
    loading = true;
    window.CardTableLive.load(function (main) {
      loading = false;
      render();
      if (hooks.landed) { hooks.landed(main, item); }
    }).catch(function () { loading = false; render(); });
  }

  // Removed from the outbox: the write after it was typed against what this one was typed against.
  function forget(item) {
    update(item.key, function (list, index) {
      list.splice(index, 1);
      var next = list[index];
      if (next && next.after) { next.after = item.after; next.body.version = item.body.version; }
    });
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
    update(item.key, function (list, index, stored) {
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
    update(item.key, function (list, index, stored) {
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
      text.textContent = item.what + ": " + (sending && first ? "sending…" : "waiting to send — " + (item.after ? "after the one above" : item.why || "not sent yet"));
      row.appendChild(text);
    }
    area.appendChild(row);
  }

  function render() {
    var main = document.querySelector("main");
    if (!main) { return; }
    var list = read(boxId());
    var area = document.getElementById("tap-outbox");
    if (!list.length) { if (area) { area.parentNode.removeChild(area); } return; }
    if (!area) {
      area = document.createElement("div");
      area.id = "tap-outbox";
      area.className = "outbox";
      area.setAttribute("aria-live", "polite");
    }
    var anchor = main.querySelector("#hand, #buys, #buy, #quick") || main.firstChild;
    if (area.nextSibling !== anchor) { anchor.parentNode.insertBefore(area, anchor); }
    area.textContent = "";
    list.forEach(function (item, index) { line(area, item, index === 0); });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var main = document.querySelector("main");
    if (main && window.MutationObserver) { new MutationObserver(render).observe(main, { childList: true }); }
    window.setTimeout(flush, 0);
  });
  window.addEventListener("online", flush);
  document.addEventListener("ctc:sent", flush);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { flush(); } });

  window.CardTableOutbox = {
    add: add,
    busy: function () { return sending || loading; },
    on: function (name, fn) { hooks[name] = fn; }
  };
})();
