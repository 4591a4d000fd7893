// The join link carries the edit key in its fragment (#key=...), which browsers never send to
// the server. Take it out of the address bar at once, put it into the join form and send the
// form (POST, with its CSRF token); the server stores the key in this phone's cookie.
(function () {
  "use strict";
  function join() {
    var form = document.querySelector("[data-join-form]");
    if (!form) return;
    var key = new URLSearchParams(window.location.hash.slice(1)).get("key");
    if (!key) return;
    history.replaceState(null, "", window.location.pathname);
    form.querySelector("input[name=key]").value = key;
    var wait = document.querySelector("[data-join-wait]");
    if (wait) wait.hidden = false;
    form.hidden = true;
    form.submit();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", join);
  else join();
})();
