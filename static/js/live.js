// Card Table Companion: live standings. A game page (body[data-live]) asks the server every few
// seconds, while the tab is visible, whether the game changed: GET data-live with If-None-Match
// "v<version>" answers 304 while nothing changed. When the version moves on, the page's fresh HTML
// is fetched and its <main> swapped in (open <details> stay open), so every phone at the table sees
// a new or corrected round without reloading. What a person typed in a form not yet saved stays as
// typed (js/drafts.js). Without this file the page still works (reload).
"use strict";

(function () {
  function each(list, fn) { Array.prototype.forEach.call(list, fn); }

  function detailsKey(element, index) {
    var summary = element.querySelector("summary");
    return element.id || (summary ? summary.textContent.trim() : "details-" + index);
  }

  function swap(current, fresh) {
    var open = {};
    each(current.querySelectorAll("details"), function (element, index) {
      open[detailsKey(element, index)] = element.open;
    });
    each(fresh.querySelectorAll("details"), function (element, index) {
      var key = detailsKey(element, index);
      if (Object.prototype.hasOwnProperty.call(open, key)) { element.open = open[key]; }
    });
    var active = document.activeElement;
    var held = window.CardTableDrafts && window.CardTableDrafts.keep(current, fresh); // typed values stay
    if (!held || !graft(current, fresh, held.kept, held.twin)) {
      while (current.firstChild) { current.removeChild(current.firstChild); }
      while (fresh.firstChild) { current.appendChild(document.adoptNode(fresh.firstChild)); }
    }
    var again = active && active.id && document.getElementById(active.id);
    if (again && again !== document.activeElement) { again.focus({ preventScroll: true }); }
  }

  // `change()` made to the page while the form the eye is on (the one being typed in, else the first in
  // view) stays where it is on the screen, so a tap aimed at it in that moment lands where it was aimed.
  function steady(change) {
    var active = document.activeElement;
    var found = null;
    each(document.querySelectorAll("main form[id]"), function (form) {
      var box = form.getBoundingClientRect();
      if (form.contains(active) || (!found && box.bottom > 0 && box.top < window.innerHeight)) { found = form; }
    });
    var top = found && found.getBoundingClientRect().top;
    change();
    var now = found && document.getElementById(found.id);
    if (now) { window.scrollBy(0, now.getBoundingClientRect().top - top); }
  }

  // The form being typed in stays in the document where its fresh twin goes, so its field keeps the
  // focus, the caret and the phone's keyboard; everything around it is the fresh page's.
  function graft(current, fresh, kept, twin) {
    var mine = [kept];
    var theirs = [twin];
    while (mine[0] !== current) { mine.unshift(mine[0].parentNode); }
    while (theirs[0] !== fresh) { theirs.unshift(theirs[0].parentNode); }
    if (mine.length !== theirs.length) { return false; }
    for (var level = 0; level < mine.length - 1; level += 1) {
      var here = mine[level];
      var there = theirs[level];
      var stay = mine[level + 1];
      while (here.firstChild !== stay) { here.removeChild(here.firstChild); }
      while (stay.nextSibling) { here.removeChild(stay.nextSibling); }
      while (there.firstChild !== theirs[level + 1]) { here.insertBefore(document.adoptNode(there.firstChild), stay); }
      there.removeChild(there.firstChild);
      while (there.firstChild) { here.appendChild(document.adoptNode(there.firstChild)); }
      if (level) { each(there.attributes, function (attribute) { here.setAttribute(attribute.name, attribute.value); }); }
    }
    return true;
  }

  // Answers may come back out of order (two writes in quick succession, a poll beside a write): a page
  // of an older version than the one shown is never swapped in, or the next write would be refused (409).
  function older(fetched, shown) {
    var got = parseInt(fetched.getAttribute("data-live-version") || "", 10);
    var now = parseInt(shown.getAttribute("data-live-version") || "", 10);
    return got < now;
  }

  // A finger (or a mouse button) is down: the page changes after it is lifted (or after 2 s, should the
  // lifting never be heard), or a tap that began on the page as it was would end on a page that has
  // replaced it, and be lost.
  var pressed = false;
  var lifted = [];
  document.addEventListener("pointerdown", function () { pressed = true; }, true);
  ["pointerup", "pointercancel"].forEach(function (type) {
    document.addEventListener(type, function () {
      pressed = false;
      window.setTimeout(function () { lifted.splice(0).forEach(function (then) { then(); }); }, 0); // after its click
    }, true);
  });
  function untouched() {
    return new Promise(function (resolve) {
      if (!pressed) { resolve(); return; }
      lifted.push(resolve);
      window.setTimeout(resolve, 2000);
    });
  }

  // The page as it is now, fetched and swapped into <main> (also after a write: js/api-call.js); then
  // `after(main)`. Open <details> stay open; what is typed in a form not yet saved stays (js/drafts.js).
  function load(after) {
    var address = window.location.href.split("#")[0];
    return fetch(address, { credentials: "same-origin", cache: "no-store", headers: { Accept: "text/html" } })
      .then(function (response) {
        if (response.status === 404) { window.location.reload(); return null; }
        return response.ok ? response.text() : Promise.reject(response.status);
      })
      .then(function (html) { return untouched().then(function () { return html; }); })
      .then(function (html) {
        if (!html) { return false; }
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.querySelector("main");
        var current = document.querySelector("main");
        if (!fresh || !current) { return false; }
        if (!older(doc.body, document.body)) { // else overtaken by a newer page (two taps, a poll): that one stays
          steady(function () { swap(current, fresh); });
          document.body.setAttribute("data-live-version", doc.body.getAttribute("data-live-version") || "");
          document.title = doc.title;
        }
        if (after) { after(current); } // the page's own moves (a landing) are its to make
        return true;
      });
  }
  window.CardTableLive = { load: load, steady: steady };

  // Someone is typing in the page: wait with the swap until they are done.
  function editing() {
    var active = document.activeElement;
    return !!(active && active.closest && active.closest("main") &&
      /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName) && active.type !== "hidden");
  }

  function start() {
    var body = document.body;
    var url = body.getAttribute("data-live");
    if (!url || !window.fetch || !window.DOMParser) { return; }
    var version = body.getAttribute("data-live-version") || "";
    var interval = Math.max(1000, parseInt(body.getAttribute("data-live-interval") || "2500", 10) || 2500);
    var timer = null;
    var busy = false;

    function later() {
      window.clearTimeout(timer);
      timer = window.setTimeout(poll, interval);
    }

    function poll() {
      timer = null;
      if (document.hidden) { return; } // resumes on visibilitychange
      if (busy) { later(); return; }
      busy = true;
      version = body.getAttribute("data-live-version") || version; // js/round-entry.js swaps the page too
      fetch(url, {
        credentials: "same-origin",
        cache: "no-store",
        headers: { Accept: "application/json", "If-None-Match": '"v' + version + '"' }
      })
        .then(function (response) {
          if (response.status === 304) { return null; }
          if (response.status === 404) { window.location.reload(); return null; }
          return response.ok ? response.json() : null;
        })
        .then(function (data) {
          if (data && String(data.version) !== version && !editing()) {
            return load().then(function () { version = body.getAttribute("data-live-version") || version; });
          }
          return null;
        })
        .catch(function () { /* offline for a moment: ask again later */ })
        .then(function () {
          busy = false;
          later();
        });
    }

    document.addEventListener("visibilitychange", function () {
      if (!document.hidden && timer === null && !busy) { poll(); }
    });
    later();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
