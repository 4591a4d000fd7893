// Card Table Companion: what the pages that talk to the JSON API share (js/round-entry.js, js/buys.js,
// js/play-or-pay.js; load this file before them). `call` sends a request with the page's edit key and
// answers { status, answer, retryAfter } (the parsed JSON, e.g. the stored state under `current` on
// 409; the seconds of a Retry-After header), with the
// entry's Idempotency-Key when given (`newKey`: every retry of one entry carries the same key); `refresh`
// fetches the page again and swaps its <main> in (js/live.js); `fullStop` ends a
// server sentence with a full stop. `unanswered` tells a write with no answer (network, 502, 503, 504);
// `resend` sends an outbox's entry again.
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

  // The page as it is now, swapped into <main> (js/live.js); then `after(main)`.
  function refresh(after) { return window.CardTableLive.load(after); }

  window.CardTableApi = {
    call: call, tap: tap, refresh: refresh, fullStop: fullStop, each: each, newKey: newKey, unanswered: unanswered,
    resend: resend
  };
})();
