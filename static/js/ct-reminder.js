// The session reminder on the table page: shown once the seconds the server counted are over.
(function () {
  "use strict";
  var box = document.querySelector("[data-testid=session-reminder]");
  if (!box) return;
  var dueIn = parseInt(box.getAttribute("data-due-in") || "0", 10);
  window.setTimeout(function () { box.hidden = false; }, Math.max(0, dueIn) * 1000);
})();
