// Card Table Companion: drafts that nothing overwrites (issue 24). What a person types or chooses in a
// form marked data-draft="<name>" (with data-game) is kept in the phone's storage per game and form, so a
// reload, a locked screen or a closed tab brings it back. When the page's <main> is swapped for a fresh
// copy (js/live.js, js/api-call.js), `keep` puts the typed values into the fresh form of the same name;
// a form whose name is gone (its round was saved elsewhere, the hand ended) stays as typed, marked
// data-stale, and a "ctc:stale" event lets its page say what happened (js/round-entry.js); otherwise a
// plain notice offers to drop it. A draft is removed when it is saved or dropped. A form the server
// answers (a correction, quick mode, a purchase) marks its draft as sent: when the page comes back with
// another version the draft was saved and is removed; with the same version it is filled in again.
"use strict";

(function () {
  if (window.CardTableDrafts) { return; }
  var PREFIX = "ctc:draft:";
  var preparers = [];

  function each(list, fn) { Array.prototype.forEach.call(list, fn); }

  function storage() {
    try { return window.localStorage; } catch (error) { return null; }
  }

  function idOf(form) {
    return PREFIX + (form.getAttribute("data-game") || "") + ":" + form.getAttribute("data-draft");
  }

  function load(id) {
    var box = storage();
    try { return box ? JSON.parse(box.getItem(id) || "null") : null; } catch (error) { return null; }
  }

  function put(id, draft) {
    var box = storage();
    try { if (box) { box.setItem(id, JSON.stringify(draft)); } } catch (error) { /* storage full: the form still holds it */ }
  }

  function remove(id) {
    var box = storage();
    if (box) { box.removeItem(id); }
  }

  function fields(form) {
    return Array.prototype.filter.call(form.elements, function (field) {
      return field.name && !/^(hidden|submit|button|reset)$/.test(field.type);
    });
  }

  function values(form) {
    var typed = Object.create(null); // a field or a choice may be called __proto__
    fields(form).forEach(function (field) {
      if (field.type === "radio") {
        if (field.checked || !(field.name in typed)) { typed[field.name] = field.checked ? field.value : ""; }
      } else if (field.type === "checkbox") {
        typed[field.name] = field.checked;
      } else {
        typed[field.name] = field.value;
      }
    });
    return typed;
  }

  function fill(form, typed) {
    var changed = [];
    fields(form).forEach(function (field) {
      if (!Object.prototype.hasOwnProperty.call(typed, field.name)) { return; }
      var value = typed[field.name];
      if (field.type === "radio") {
        field.checked = field.value === value;
      } else if (field.type === "checkbox") {
        field.checked = !!value;
      } else if (field.value !== value) {
        field.value = value;
        changed.push(field);
      }
    });
    touch(form, changed);
  }

  // The page's own helpers follow the values filled in (app.js's sums and missing line, the card
  // picker); these are no changes typed, so no draft is saved.
  var quiet = false;
  function touch(form, changed) {
    var first = form.querySelector("input[data-player]");
    var told = (changed || []).concat(first && (changed || []).indexOf(first) < 0 ? [first] : []);
    quiet = true;
    try {
      told.forEach(function (field) { field.dispatchEvent(new Event("input", { bubbles: true })); });
    } finally { quiet = false; }
  }

  function versionOf(form) {
    return form.elements.version ? form.elements.version.value : "";
  }

  function save(form) {
    var id = idOf(form);
    var draft = load(id) || { key: window.CardTableApi ? window.CardTableApi.newKey() : "", started: Date.now() };
    draft.values = values(form);
    draft.version = versionOf(form);
    draft.sent = false;
    put(id, draft);
  }

  function get(form) { return load(idOf(form)); }

  function drop(form) { remove(idOf(form)); }

  // A field changed on this page before its scripts ran (a slow phone, a quick finger): its value is
  // not the one the server wrote into the page.
  function changedHere(field) {
    if (field.type === "radio" || field.type === "checkbox") { return field.checked !== field.defaultChecked; }
    if (field.options) {
      return Array.prototype.some.call(field.options, function (option) { return option.selected !== option.defaultSelected; });
    }
    return field.value !== field.defaultValue;
  }

  // On load: a sent draft whose form now shows another version was saved; any other is filled in again.
  // At the page's first load (`atLoad`), what the person already typed on this page is newer than the
  // draft and is kept (the draft then follows it).
  function restore(form, atLoad) {
    var draft = get(form);
    if (!draft || !draft.values) { return; }
    if (form.method === "get" && window.location.search) { return; } // the address names what to show
    if (draft.sent && draft.version !== versionOf(form)) { drop(form); return; }
    var typed = Object.create(null);
    if (atLoad) { fields(form).forEach(function (field) { if (changedHere(field)) { typed[field.name] = true; } }); }
    var older = Object.create(null);
    Object.keys(draft.values).forEach(function (name) { if (!typed[name]) { older[name] = draft.values[name]; } });
    fill(form, older);
    if (Object.keys(typed).length) { save(form); }
  }

  function named(root, name) {
    return root.querySelector('form[data-draft="' + CSS.escape(name) + '"]');
  }

  // Where a form that no longer fits stays: in place of the fresh form with its id, else in the section
  // that held it, else first in <main>.
  function place(form, fresh) {
    var slot = form.id ? fresh.querySelector("#" + CSS.escape(form.id)) : null;
    if (slot && !slot.hasAttribute("data-draft")) { slot = null; }
    if (slot) { slot.parentNode.replaceChild(form, slot); return; }
    var holder = form.parentNode && form.parentNode.closest("[id]");
    var twin = holder ? fresh.querySelector("#" + CSS.escape(holder.id)) : null;
    if (twin) { twin.appendChild(form); } else { fresh.insertBefore(form, fresh.firstChild); }
  }

  function plainNotice(form) {
    var note = notice(form, "The game changed meanwhile, so this form no longer fits; what you typed is kept here.");
    button(note, "Drop what I typed", function () {
      drop(form);
      window.location.reload(); // the form as it is now
    });
  }

  // A one-sentence notice at the top of a form, with room for its buttons.
  function notice(form, sentence) {
    var note = form.querySelector(".draft-note");
    if (!note) {
      note = document.createElement("div");
      note.className = "draft-note alert";
      note.setAttribute("role", "alert");
      form.insertBefore(note, form.firstChild);
    }
    note.textContent = "";
    var text = document.createElement("p");
    text.textContent = sentence;
    note.appendChild(text);
    return note;
  }

  function button(note, label, action) {
    var element = document.createElement("button");
    element.type = "button";
    element.className = "button";
    element.textContent = label;
    element.addEventListener("click", action);
    note.appendChild(element);
    return element;
  }

  // A form's fields by name and kind: a fresh form with the same ones can be kept as it is on the page.
  function shape(form) {
    return fields(form).map(function (field) { return field.name + field.type + (field.type === "radio" ? field.value : ""); }).join();
  }

  // Before <main> is swapped: typed values go into the fresh forms; forms that no longer fit stay. The
  // form being typed in, when the fresh one has the same fields, is kept itself with the fresh hidden
  // values (the version): returned as {kept, twin} for js/live.js to put in place of its twin.
  function keep(current, fresh) {
    preparers.forEach(function (prepare) { prepare(fresh); });
    var stale = [];
    var held = null;
    each(current.querySelectorAll("form[data-draft]"), function (form) {
      var twin = named(fresh, form.getAttribute("data-draft"));
      if (twin && form.contains(document.activeElement) && shape(twin) === shape(form)) {
        each(twin.querySelectorAll("input[type=hidden][name]"), function (input) {
          var mine = form.querySelector('input[type=hidden][name="' + CSS.escape(input.name) + '"]');
          if (mine) { mine.value = input.value; }
        });
        held = { kept: form, twin: twin };
        return;
      }
      var draft = get(form);
      if (!draft || !draft.values || draft.sent) { return; }
      if (twin) { fill(twin, draft.values); return; } // still fits: the fresh version, the typed values
      form.setAttribute("data-stale", "");
      place(form, fresh);
      stale.push(form);
    });
    window.setTimeout(function () { // after the swap
      stale.forEach(function (form) {
        var event = new CustomEvent("ctc:stale", { cancelable: true, detail: { form: form, draft: get(form) } });
        if (document.dispatchEvent(event)) { plainNotice(form); }
      });
    }, 0);
    return held;
  }

  function typedIn(event) {
    var form = event.target && event.target.form;
    if (form && !quiet && form.hasAttribute("data-draft")) { save(form); }
  }

  document.addEventListener("input", typedIn);
  document.addEventListener("change", typedIn);
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form || !form.hasAttribute("data-draft") || form.hasAttribute("data-api")) { return; }
    if (!form.elements.version) { drop(form); return; } // a check, not a write of the game: answered with its values
    var draft = get(form); // if the submit is cancelled, the same version fills it in again on load
    if (draft) { draft.sent = true; draft.version = versionOf(form); put(idOf(form), draft); }
  });

  document.addEventListener("DOMContentLoaded", function () {
    each(document.querySelectorAll("form[data-draft]"), function (form) { restore(form, true); });
  });

  window.CardTableDrafts = {
    save: save, get: get, touch: touch, drop: drop, fill: fill, keep: keep, values: values, notice: notice, button: button,
    restore: function (form) { restore(form, false); }, store: function (form, draft) { put(idOf(form), draft); },
    beforeSwap: function (prepare) { preparers.push(prepare); }
  };
})();
