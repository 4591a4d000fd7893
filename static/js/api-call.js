// Card Table Companion: what the pages that talk to the JSON API share (js/round-entry.js, js/buys.js,
// js/play-or-pay.js; load this file before them). `call` sends a request with the page's edit key and
// answers { status, answer } (the parsed JSON, e.g. the stored state under `current` on 409); `refresh`
// fetches the page again and swaps its <main> in; `fullStop` ends a server sentence with a full stop.
"use strict";

(function () {
  if (window.CardTableApi) { return; }

  function each(list, fn) { Array.prototype.forEach.call(list, fn); }

  // A server refusal as the end of a sentence: it closes with a full stop (the API's sentences have none).
  function fullStop(text) {
    text = String(text).trim();
    return /[.!?]$/.test(text) ? text : text + ".";
  }

  function call(method, address, key, payload) {
    var options = {
      method: method,
      credentials: "same-origin",
      cache: "no-store",
      headers: { Accept: "application/json", "X-Edit-Key": key || "" }
    };
    if (payload) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(payload);
    }
    return fetch(address, options).then(function (response) {
      return response.json().then(function (answer) { return { status: response.status, answer: answer }; });
    });
  }

  // The page as it is now, swapped into <main>; then `after(main)`. With `keepOpen` the <details id=…>
  // open before stay open.
  function refresh(after, keepOpen) {
    var address = window.location.href.split("#")[0];
    return fetch(address, { credentials: "same-origin", cache: "no-store", headers: { Accept: "text/html" } })
      .then(function (response) { return response.ok ? response.text() : Promise.reject(response.status); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.querySelector("main");
        var current = document.querySelector("main");
        if (keepOpen) {
          each(current.querySelectorAll("details[id]"), function (element) {
            var twin = fresh.querySelector("details#" + element.id);
            if (twin) { twin.open = element.open; }
          });
        }
        var nodes = Array.prototype.slice.call(fresh.childNodes).map(function (node) {
          return document.adoptNode(node);
        });
        current.replaceChildren.apply(current, nodes);
        document.title = doc.title;
        document.body.setAttribute("data-live-version", doc.body.getAttribute("data-live-version") || "");
        each(current.querySelectorAll("form[data-confirm]"), function (form) {
          form.addEventListener("submit", function (event) {
            if (!window.confirm(form.getAttribute("data-confirm"))) { event.preventDefault(); }
          });
        });
        if (after) { after(current); }
      });
  }

  window.CardTableApi = { call: call, refresh: refresh, fullStop: fullStop, each: each };
})();
