// Card Table Companion: the New game page leaves no entry in the history (issue 27), so Back from the
// game it starts goes to the page before it (the home page), never to an empty New game form. Choosing a
// game replaces the entry; starting one replaces it with the game's page. Without this file the form posts.
"use strict";

(function () {
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a.variant");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey) { return; }
    event.preventDefault();
    window.location.replace(link.href);
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form.getAttribute("action") !== form.getAttribute("data-start") || !window.fetch) { return; }
    event.preventDefault();
    var alert = document.getElementById("start-error");
    fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin" }).then(function (response) {
      if (response.redirected && response.ok) { window.location.replace(response.url); return; }
      form.submit(); // refused: the server's page says why (nothing was stored)
    }, function () {
      alert.textContent = "No connection: the game was not started. Tap Start the game again.";
      alert.hidden = false;
    });
  });
})();
