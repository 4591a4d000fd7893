// Money at the table: +/- steppers for second discards. The number inputs work without this file.
// One click listener on the document serves every stepper, also those of a round form swapped in
// after a round is saved in place (js/round-entry.js, js/live.js). The page may include this file
// more than once (pot summary and round form): only the first copy listens.
"use strict";

(function () {
  if (window.CardTableSteppers) { return; }
  window.CardTableSteppers = true;

  function step(button) {
    var row = button.closest("[data-stepper]");
    var input = row && row.querySelector("input.step-value");
    if (!input) { return; }
    var value = parseInt(input.value || "0", 10);
    if (isNaN(value)) { value = 0; }
    var next = Math.max(0, Math.min(99, value + parseInt(button.getAttribute("data-step"), 10)));
    input.value = String(next);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  document.addEventListener("click", function (event) {
    var button = event.target instanceof Element ? event.target.closest("[data-stepper] button[data-step]") : null;
    if (button) { step(button); }
  });
})();
