// Card Table Companion (issue 27): a round corrected or undone on the game page without a page load. A
// round's number puts the server's correction form (/rounds/N/edit) under the sheet; it and Undo post their
// forms and the fresh page is swapped in (js/api-call.js). A refusal shows the server's answer; with no answer
// what was typed stays, with a sentence. app.js loads this file at the first such tap (body data-in-place).
"use strict";

(function () {
  var api = window.CardTableApi;
  var drafts = window.CardTableDrafts;

  function page(address, options) {
    return fetch(address, options || { credentials: "same-origin", cache: "no-store" }).then(function (response) {
      return response.text().then(function (html) {
        return { done: response.ok && response.redirected, doc: new DOMParser().parseFromString(html, "text/html") };
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
    }, function () { window.location.href = link.href; });
  }

  function send(form) {
    var box = form.closest("#correction");
    page(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin" }).then(function (answer) {
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
      drafts.notice(form, "No connection: nothing was changed" + (box ? "; what you typed is kept. Tap Save again." : "."));
    });
  }

  window.CardTableInPlace = { click: open, submit: send }; // called by app.js, which loads this file at the first tap
})();
