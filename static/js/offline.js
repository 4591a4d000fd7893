// Card Table Companion: offline reloads and a screen that stays on, where the browser allows it (issue 24).
// On a secure origin (HTTPS, localhost) the service worker at data-sw (static/sw.js) keeps the pages this
// phone opened; a page it answers from its copy, or any page while the phone has no connection, shows
// "Offline — standings as of 21:04". On a page whose <body> has data-wake (the game page and the Play or
// Pay hand page, for the phone holding the edit key) the Screen Wake Lock keeps the screen on, taken again
// when the page is visible again, with a switch to turn it off. Where an API is missing nothing is shown.
"use strict";

(function () {
  var script = document.currentScript;
  var WAKE = "ctc:wake";
  var loaded = new Date();

  function register() {
    var address = script && script.getAttribute("data-sw");
    if (!address || !window.isSecureContext || !navigator.serviceWorker) { return; }
    navigator.serviceWorker.register(address, { scope: "/" }).catch(function () { /* the page works without it */ });
  }

  function clock(when) {
    return when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  }

  function banner() {
    var line = document.getElementById("offline-banner");
    var copied = document.body.getAttribute("data-offline");
    var offline = copied !== null || navigator.onLine === false;
    if (!offline) { if (line) { line.hidden = true; } return; }
    if (!line) {
      line = document.createElement("p");
      line.id = "offline-banner";
      line.className = "offline-banner";
      line.setAttribute("role", "status");
      var header = document.querySelector("header");
      document.body.insertBefore(line, header ? header.nextSibling : document.body.firstChild);
    }
    var when = copied ? new Date(copied) : loaded;
    line.textContent = "Offline — standings as of " + clock(isNaN(when.getTime()) ? loaded : when);
    line.hidden = false;
  }

  function online() {
    document.body.removeAttribute("data-offline");
    loaded = new Date();
    banner();
  }

  // --- the screen stays on ------------------------------------------------------------------------
  var lock = null;

  function wanted() {
    try { return window.localStorage.getItem(WAKE) !== "off"; } catch (error) { return true; }
  }

  function acquire() {
    if (lock || !wanted() || document.hidden) { return; }
    navigator.wakeLock.request("screen").then(function (sentinel) {
      lock = sentinel;
      sentinel.addEventListener("release", function () { lock = null; });
    }).catch(function () { /* refused (battery saver, no permission): the screen dims as usual */ });
  }

  function release() {
    if (lock) { lock.release(); lock = null; }
  }

  function wakeSwitch() {
    if (!document.body.hasAttribute("data-wake") || !("wakeLock" in navigator)) { return; }
    var label = document.createElement("label");
    label.className = "check wake-switch wrap";
    var box = document.createElement("input");
    box.type = "checkbox";
    box.id = "wake-switch";
    box.checked = wanted();
    label.appendChild(box);
    label.appendChild(document.createTextNode(" Keep this screen on"));
    var footer = document.querySelector("footer");
    document.body.insertBefore(label, footer);
    box.addEventListener("change", function () {
      try { window.localStorage.setItem(WAKE, box.checked ? "on" : "off"); } catch (error) { /* kept for this page */ }
      if (box.checked) { acquire(); } else { release(); }
    });
    document.addEventListener("visibilitychange", function () { if (!document.hidden) { acquire(); } });
    acquire();
  }

  register();
  document.addEventListener("DOMContentLoaded", function () {
    banner();
    wakeSwitch();
  });
  window.addEventListener("offline", banner);
  window.addEventListener("online", online);
})();
