// Card Table Companion: a round corrected or undone on the game page without a page load (issue 27).
// Tapping a round's number puts the server's correction form (/rounds/N/edit) under the sheet; Save and
// Undo post their forms and the fresh page is swapped in (js/api-call.js). A refusal shows the server's
// form or sentence; with no answer what was typed stays, with a sentence. Without this file they load pages.
"use strict";

(function () {
  var api = window.CardTableApi;
  var drafts = window.CardTableDrafts;

  function get(address) {
    return fetch(address, { method: "GET", credentials: "same-origin", cache: "no-store" });
  }

  function parse(html) { return new DOMParser().parseFromString(html, "text/html"); }

  // The correction form of `doc` (an edit page) under the sheet, posting to `address`.
  function showForm(doc, address, number) {
    var form = doc.querySelector("form.round-form");
    if (!form) { return false; }
    var box = document.createElement("section");
    box.id = "correction";
    box.className = "card";
    box.setAttribute("data-number", number);
    box.setAttribute("aria-labelledby", "correction-h");
    var heading = document.adoptNode(doc.querySelector("h1"));
    var title = document.createElement("h2");
    title.id = "correction-h";
    title.tabIndex = -1;
    title.append.apply(title, Array.prototype.slice.call(heading.childNodes));
    box.append(title);
    var error = doc.getElementById("form-error");
    if (error) { box.append(document.adoptNode(error)); }
    form = document.adoptNode(form);
    form.setAttribute("action", address);
    Array.prototype.forEach.call(form.querySelectorAll("[id], [for], [aria-describedby]"), function (element) {
      ["id", "for", "aria-describedby"].forEach(function (name) { // unique beside the entry form's fields
        if (element.hasAttribute(name)) { element.setAttribute(name, "fix-" + element.getAttribute(name)); }
      });
    });
    box.append(form);
    var old = document.getElementById("correction");
    if (old) { old.replaceWith(box); } else { document.querySelector("#sheet .scroll").after(box); }
    window.CardTable.setUpRoundForm(form);
    drafts.restore(form);
    title.scrollIntoView({ block: "start" });
    title.focus({ preventScroll: true });
    return true;
  }

  function swapIn(anchor) {
    return api.refresh(function (main) {
      var target = main.querySelector(anchor);
      if (target) { target.scrollIntoView({ block: "center" }); }
      if (anchor === "#round") { window.CardTable.reach(); }
    }, true);
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("#sheet th a[href$='/edit'], #correction a.button");
    if (!link || !window.fetch || !window.DOMParser) { return; }
    event.preventDefault();
    var box = link.closest("#correction");
    if (box) { drafts.drop(box.querySelector("form")); box.remove(); return; } // Cancel
    var number = /\/rounds\/(\d+)\/edit$/.exec(link.pathname)[1];
    get(link.href).then(function (response) { return response.text(); }).then(function (html) {
      if (!showForm(parse(html), link.pathname, number)) { window.location.href = link.href; }
    }, function () { window.location.href = link.href; });
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var box = form.closest("#correction");
    var undo = /\/rounds\/last\/undo$/.test(form.getAttribute("action") || "");
    if ((!box && !undo) || event.defaultPrevented || !window.fetch) { return; }
    event.preventDefault();
    fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        return response.text().then(function (html) {
          if (response.ok && response.redirected) { return swapIn(box ? "#round-" + box.getAttribute("data-number") : "#round"); }
          if (!box) { form.submit(); return; } // an undo refused: the server's page says why (nothing undone)
          var doc = parse(html);
          if (box && showForm(doc, form.getAttribute("action"), box.getAttribute("data-number"))) { return; }
          var said = doc.querySelector("main .alert");
          drafts.notice(form, "Not done: " + api.fullStop(said ? said.textContent : "the server refused it"));
        });
      }, function () {
        drafts.notice(form, "No connection: nothing was changed" + (box ? ", and what you typed is kept here. Tap Save again." : "."));
      });
  });
})();
