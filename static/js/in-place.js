// Card Table Companion (issue 27): a round corrected or undone on the game page without a page load. A
// round's number puts the server's correction form (/rounds/N/edit) under the sheet; it and Undo post their
// forms and the fresh page is swapped in (js/api-call.js). A refusal shows the server's answer; with no answer
// a correction goes into the round entry's outbox (js/api-call.js, js/round-entry.js) and is sent by itself
// when the connection returns, like a new round; an undo says nothing was changed. app.js loads this file
// at the first such tap (without a connection it says why the form cannot come, and the page stays).
"use strict";

(function () {
  var api = window.CardTableApi;
  var drafts = window.CardTableDrafts;

  function page(address, options) {
    return fetch(address, options || { credentials: "same-origin", cache: "no-store" }).then(function (response) {
      return response.text().then(function (html) {
        return {
          done: response.ok && response.redirected, unanswered: api.unanswered(response.status),
          doc: new DOMParser().parseFromString(html, "text/html")
        };
      });
    });
  }

  // The correction form of an edit page under the sheet, its ids apart from the entry form's.
  function showForm(doc, address, number) {
    var form = doc.querySelector("form.round-form");
    if (!form) { return false; }
    var box = document.createElement("section");
    var title = document.createElement("h2");
    box.id = "correction";
    box.className = "card";
    box.setAttribute("data-number", number);
    box.setAttribute("aria-labelledby", "correction-h");
    title.id = "correction-h";
    title.tabIndex = -1;
    title.append.apply(title, Array.prototype.slice.call(document.adoptNode(doc.querySelector("h1")).childNodes));
    var error = doc.getElementById("form-error"); // a refusal's sentence
    box.append(title);
    if (error) { box.append(document.adoptNode(error)); }
    box.append(document.adoptNode(form));
    form.setAttribute("action", address);
    api.each(form.querySelectorAll("[id], [for], [aria-describedby]"), function (element) {
      ["id", "for", "aria-describedby"].forEach(function (name) {
        if (element.hasAttribute(name)) { element.setAttribute(name, "fix-" + element.getAttribute(name)); }
      });
    });
    var old = document.getElementById("correction");
    if (old) { old.replaceWith(box); } else { document.querySelector("#sheet .scroll").after(box); }
    window.CardTable.setUpRoundForm(form);
    drafts.restore(form);
    title.scrollIntoView();
    title.focus({ preventScroll: true });
    return true;
  }

  function open(link) {
    var box = link.closest("#correction");
    if (box) { drafts.drop(box.querySelector("form")); box.remove(); return; } // Cancel
    var number = /(\d+)\/edit$/.exec(link.pathname)[1];
    page(link.href).then(function (answer) {
      if (!showForm(answer.doc, link.pathname, number)) { window.location.href = link.href; }
    }, function () {
      if (navigator.onLine !== false) { window.location.href = link.href; return; }
      var note = document.getElementById("correction-offline") || document.createElement("p");
      note.id = "correction-offline";
      note.className = "alert";
      note.setAttribute("role", "alert");
      note.textContent = "No connection: the correction form of round " + number + " comes when the connection is back.";
      document.querySelector("#sheet .scroll").after(note);
    });
  }

  // A correction that got no answer, as a round entry's outbox keeps it: a version-checked PUT of the API,
  // sent again with the same Idempotency-Key until the server answers. False without a round entry here.
  function queue(form, box) {
    var entry = window.CardTableRoundEntry;
    var entryForm = document.getElementById("round-entry");
    if (!box || !entry || !entryForm || !entryForm.getAttribute("data-key")) { return false; }
    var number = parseInt(box.getAttribute("data-number"), 10);
    var url = entry.correctionUrl(entryForm, number);
    entry.box.push({
      key: api.newKey(), round: number, method: "PUT", url: url, made: Date.now(), edit: entryForm.getAttribute("data-key"),
      body: entry.body(form), values: drafts.values(form), why: "", players: entry.playersOf(form), verb: entry.verbOf(form),
      multiplier: parseInt(form.getAttribute("data-multiplier") || "1", 10), correct: url, fix: true
    });
    drafts.drop(form);
    box.remove();
    entry.box.flush();
    return true;
  }

  function send(form) {
    var box = form.closest("#correction");
    page(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin" }).then(function (answer) {
      if (answer.unanswered && queue(form, box)) { return; }
      if (answer.done) {
        api.refresh(function (main) {
          var target = main.querySelector(box ? "#round-" + box.getAttribute("data-number") : "#round-h");
          if (target) { target.scrollIntoView({ block: "center" }); }
          if (!box) { window.CardTable.reach(); }
        }, true);
      } else if (!box) {
        form.submit(); // an undo refused: the server's page says why (nothing was undone)
      } else if (!showForm(answer.doc, form.getAttribute("action"), box.getAttribute("data-number"))) {
        drafts.notice(form, "Not saved: the server refused it.");
      }
    }, function () {
      if (queue(form, box)) { return; }
      drafts.notice(form, "No connection: nothing was changed" + (box ? "; what you typed is kept. Tap Save again." : "."));
    });
  }

  window.CardTableInPlace = { click: open, submit: send }; // called by app.js, which loads this file at the first tap
})();
