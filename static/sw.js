// Card Table Companion's service worker (issue 24), served at /sw.js on a secure origin (HTTPS, or
// localhost). It keeps a copy of every page and asset this phone opened: the network answers first;
// without a connection the last copy does, and a page from the copy carries data-offline="<when>" on its
// <body> (js/offline.js shows "Offline — standings as of 21:04"). The JSON API and every write always go
// to the network (the page's outbox, js/round-entry.js, keeps unsent rounds).
"use strict";

var CACHE = "ctc-pages-v1";

// The JSON API goes straight to the network, without waking this worker (where the browser can).
function direct(event) {
  if (!event.addRoutes || typeof URLPattern === "undefined") { return Promise.resolve(); }
  var api = new URLPattern({ pathname: "/api/*" });
  return Promise.resolve(event.addRoutes([{ condition: { urlPattern: api }, source: "network" }]))
    .catch(function () { /* not supported here: the fetch handler lets them through */ });
}

self.addEventListener("install", function (event) {
  event.waitUntil(direct(event));
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return name !== CACHE; }).map(function (name) {
      return caches.delete(name);
    }));
  }).then(function () { return self.clients.claim(); }));
});

function marked(cached) {
  return cached.text().then(function (html) {
    var when = cached.headers.get("Date") || "";
    var body = html.replace(/<body/i, '<body data-offline="' + when.replace(/"/g, "") + '"');
    return new Response(body, { status: 200, headers: cached.headers });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || url.pathname.indexOf("/api/") === 0) {
    return;
  }
  event.respondWith(fetch(request).then(function (response) {
    if (response.ok && response.type === "basic") {
      var copy = response.clone();
      event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.put(url.href.split("#")[0], copy); }));
    }
    return response;
  }).catch(function (error) {
    return caches.match(url.href.split("#")[0], { ignoreVary: true, ignoreSearch: false }).then(function (cached) {
      if (!cached) { throw error; }
      return request.mode === "navigate" ? marked(cached) : cached;
    });
  }));
});
