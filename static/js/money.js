// Money at the table: +/- steppers for second discards. The number inputs work without this file.
"use strict";

(function () {
  function setUpStepper(row) {
    var input = row.querySelector("input.step-value");
    if (!input) { return; }
    Array.prototype.forEach.call(row.querySelectorAll("button[data-step]"), function (button) {
      button.addEventListener("click", function () {
        var value = parseInt(input.value || "0", 10);
        if (isNaN(value)) { value = 0; }
        var next = Math.max(0, Math.min(99, value + parseInt(button.getAttribute("data-step"), 10)));
        input.value = String(next);
        input.dispatchEvent(new Event("input", { bubbles: true }));
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    Array.prototype.forEach.call(document.querySelectorAll("[data-stepper]"), function (row) {
      if (row.getAttribute("data-stepper-ready")) { return; }
      row.setAttribute("data-stepper-ready", "1");
      setUpStepper(row);
    });
  });
})();
