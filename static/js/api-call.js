// Card Table Companion: what the pages that talk to the JSON API share (js/round-entry.js, js/buys.js,
// js/play-or-pay.js; load this file before them). `call` sends a request with the page's edit key and
// answers { status, answer, retryAfter } (the parsed JSON, e.g. the stored state under `current` on
// 409; the seconds of a Retry-After header), with the
// entry's Idempotency-Key when given (`newKey`: every retry of one entry carries the same key); `refresh`
// fetches the page again and swaps its <main> in (js/live.js); `fullStop` ends a
// server sentence with a full stop. `unanswered` tells a write with no answer (network, 502, 503, 504);
// `resend` sends an outbox's entry again; `outbox(prefix, on)` keeps and sends a page part's writes.
"use strict";

(function () {
  if (window.CardTableApi) { return; }

  function each(list, fn) { Array.prototype.forEach.call(list, fn); }

  // A server refusal as the end of a sentence: it closes with a full stop (the API's sentences have none).
  function fullStop(text) {
    text = String(text).trim();
    return /[.!?]$/.test(text) ? text : text + ".";
  }

  // crypto.randomUUID is missing on plain http (not a secure context); getRandomValues is not.
  function newKey() {
    var crypto = window.crypto;
    if (crypto.randomUUID) { return crypto.randomUUID(); }
    var bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.prototype.map.call(bytes, function (byte) { return (byte + 256).toString(16).slice(1); }).join("");
  }

  var TIMEOUT_MS = 15000;

  // A Retry-After header (seconds, or an HTTP date) as whole seconds from now; null without one.
  function waitSeconds(header) {
    if (!header) { return null; }
    var seconds = /^\s*\d+\s*$/.test(header) ? parseInt(header, 10) : (Date.parse(header) - Date.now()) / 1000;
    return isNaN(seconds) ? null : Math.max(0, Math.ceil(seconds));
  }

  function call(method, address, key, payload, idempotencyKey) {
    var options = {
      method: method,
      credentials: "same-origin",
      cache: "no-store",
      headers: { Accept: "application/json", "X-Edit-Key": key || "" }
    };
    if (idempotencyKey) { options.headers["Idempotency-Key"] = idempotencyKey; }
    if (payload) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(payload);
    }
    var timer = null;
    if (window.AbortController) {
      var abort = new AbortController();
      options.signal = abort.signal;
      timer = window.setTimeout(function () { abort.abort(); }, TIMEOUT_MS);
    }
    return fetch(address, options).then(function (response) {
      window.clearTimeout(timer);
      return response.json().catch(function () { return {}; }).then(function (answer) {
        return { status: response.status, answer: answer || {}, retryAfter: waitSeconds(response.headers.get("Retry-After")) };
      });
    }, function (error) { window.clearTimeout(timer); throw error; });
  }

  // A tap sent again after no answer is the same write: it carries the same Idempotency-Key.
  var unansweredTap = { what: "", key: "" };
  function tap(method, address, key, payload) {
    var what = method + " " + address + " " + JSON.stringify(payload);
    if (unansweredTap.what !== what) { unansweredTap = { what: what, key: newKey() }; }
    var sent = unansweredTap;
    return call(method, address, key, payload, sent.key).then(function (result) {
      if (!unanswered(result.status) && unansweredTap === sent) { unansweredTap = { what: "", key: "" }; }
      return result;
    });
  }

  function unanswered(status) { return status === 502 || status === 503 || status === 504; }

  // An outbox's entry sent again (js/round-entry.js, js/outbox.js), its answer sorted into what the
  // outbox does next: `on.settled()` first, then one of waiting(why, seconds or null), landed(state),
  // conflicted(stored state), refused(sentence). A 503's Retry-After is held to at most 10 minutes.
  var MAX_HOLD_S = 600;
  function resend(item, on) {
    return call(item.method, item.url, item.edit, item.body, item.key).then(function (result) {
      on.settled();
      if (unanswered(result.status)) {
        var busy = result.status === 503 ? "the server is busy" : "the server did not answer";
        var pause = result.retryAfter === null ? null : Math.min(MAX_HOLD_S, result.retryAfter);
        on.waiting(pause === null ? busy : busy + "; trying again in " + pause + " s", pause);
      } else if (result.status < 300) {
        on.landed(result.answer);
      } else if (result.status === 409) {
        on.conflicted(result.answer.current);
      } else {
        on.refused(result.answer.error || "the server refused it");
      }
    }, function () {
      on.settled();
      on.waiting(navigator.onLine === false ? "no connection" : "the server did not answer", null);
    });
  }

  // --- the outbox: writes kept in the phone's storage until the server answers ----------------------
  // One per page part, under a prefix and the game's id: "ctc:outbox:" (the round entries, js/round-entry.js)
  // and "ctc:taps:" (taps and small forms, js/outbox.js); the names are those phones already hold. Entries
  // are sent in the order made, across both (an older entry of the other one goes first), with their own
  // Idempotency-Key, again by themselves on `online`, the page visible again, the end of a write
  // (ctc:sent) and a backoff timer of 1, 2, 4… s (at most 10 s), never before a 503's Retry-After.
  // `on`: render(), landed(item) when nothing sendable follows, conflicted(item, stored state),
  // refused(item, sentence).
  var BOXES = ["ctc:outbox:", "ctc:taps:"];
  var MAX_WAIT_MS = 10000;

  function gameId() {
    var found = /\/games\/([^/]+)\/version/.exec(document.body.getAttribute("data-live") || "");
    return found ? found[1] : "";
  }

  function readBox(id) {
    try { return JSON.parse(window.localStorage.getItem(id) || "[]"); } catch (error) { return []; }
  }

  function ahead(entry, item) { return !entry.conflict && !entry.refused && (entry.made || 0) < (item.made || 0); }

  // Until the fresh page comes, what is typed next is typed against the version this write made, not the
  // one the page was rendered with (which would meet a 409 of its own making).
  function typedAgainst(version) {
    if (typeof version !== "number") { return; }
    each(document.querySelectorAll("main input[name=version]"), function (input) {
      if (!(parseInt(input.value, 10) >= version)) { input.value = String(version); }
    });
  }

  function outbox(prefix, on) {
    var sending = false;
    var timer = null;
    var tries = 0;
    var holdUntil = 0; // no resend before this time (a 503's Retry-After)

    function id() { return prefix + gameId(); }
    function read() { return readBox(id()); }

    function write(list) {
      try {
        if (list.length) { window.localStorage.setItem(id(), JSON.stringify(list)); } else { window.localStorage.removeItem(id()); }
      } catch (error) { /* storage refused: the entry is still on the page */ }
    }

    // Change the stored entry with this key (the list may have changed while it was being sent).
    function update(key, change) {
      var list = read();
      var index = list.map(function (item) { return item.key; }).indexOf(key);
      if (index >= 0) { change(list, index, list[index]); }
      write(list);
      return list;
    }

    // At the end; typed against the version its predecessor makes when one waits.
    function push(item) {
      var list = read();
      item.after = list.length > 0;
      list.push(item);
      write(list);
      return list;
    }

    function older(item) {
      return BOXES.some(function (other) {
        return other !== prefix && readBox(other + gameId()).some(function (entry) { return ahead(entry, item); });
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
      if (Date.now() < holdUntil) { on.render(); return; } // the server asked for a pause
      window.clearTimeout(timer);
      timer = null;
      var item = read()[0];
      if (sending || !item || item.conflict || item.refused || item.after || older(item)) { on.render(); return; }
      sending = true;
      on.render();
      resend(item, {
        settled: function () { sending = false; },
        waiting: function (why, seconds) {
          update(item.key, function (list, index, stored) { stored.why = why; stored.tried = true; });
          on.render();
          later(seconds);
        },
        landed: function (state) { landed(item, state); },
        conflicted: function (stored) { on.conflicted(item, stored); },
        refused: function (sentence) { on.refused(item, fullStop(sentence)); }
      });
    }

    function landed(item, state) {
      tries = 0;
      var version = state ? state.version : undefined;
      var list = update(item.key, function (entries, index) {
        entries.splice(index, 1);
        var next = entries[index];
        if (next && next.after) { next.after = false; next.body.version = version; }
      });
      typedAgainst(version);
      document.dispatchEvent(new Event("ctc:sent")); // an entry of the other outbox waiting behind this one goes now
      if (list.length && !list[0].conflict && !list[0].refused) { flush(); return; }
      on.landed(item);
    }

    // Dropped or kept elsewhere: the entry after it was typed against what this one was typed against.
    function forget(item) {
      update(item.key, function (list, index) {
        list.splice(index, 1);
        var next = list[index];
        if (next && next.after) { next.after = item.after; next.body.version = item.body.version; }
      });
    }

    window.addEventListener("online", flush);
    document.addEventListener("ctc:sent", flush);
    document.addEventListener("visibilitychange", function () { if (!document.hidden) { flush(); } });

    return {
      read: read, write: write, update: update, push: push, flush: flush, forget: forget,
      sending: function () { return sending; }
    };
  }

  // The page as it is now, swapped into <main> (js/live.js); then `after(main)`.
  function refresh(after) { return window.CardTableLive.load(after); }

  window.CardTableApi = {
    call: call, tap: tap, refresh: refresh, fullStop: fullStop, each: each, newKey: newKey, unanswered: unanswered,
    resend: resend, outbox: outbox
  };
})();
