/* The lobby's friends panel: who is online and at which table, refreshed every 15 s, and the
   invitations friends send (the lobby socket's `friend_invite` frames, handed over by ct-lobby.js
   as the document event `ct:friend-invite`). */
(function () {
  "use strict";
  var REFRESH_MS = 15000;

  function refresh(panel) {
    if (document.hidden) return;
    fetch(panel.getAttribute("data-panel-url"), { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (html === null) return;
        var body = panel.querySelector(".friends-body");
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector(".friend-list");
        if (body && fresh) body.replaceChildren(document.adoptNode(fresh));
      })
      .catch(function () { /* offline: the next refresh tries again */ });
  }

  function showInvite(panel, frame) {
    var box = panel.querySelector(".friend-notices");
    if (!box || typeof frame.url !== "string" || frame.url.charAt(0) !== "/") return;
    var notice = document.createElement("p");
    notice.className = "friend-notice";
    notice.setAttribute("role", "status");
    notice.setAttribute("data-testid", "friend-invite-notice");
    var text = document.createElement("span");
    text.textContent = frame.message;
    var link = document.createElement("a");
    link.className = "button small gold";
    link.href = frame.url;
    link.textContent = frame.join;
    link.setAttribute("data-testid", "friend-invite-join");
    notice.append(text, link);
    box.prepend(notice);
    while (box.children.length > 3) box.lastElementChild.remove();
  }

  function start() {
    var panel = document.querySelector("[data-testid=friends-panel]");
    if (!panel) return;
    setInterval(function () { refresh(panel); }, REFRESH_MS);
    document.addEventListener("visibilitychange", function () { refresh(panel); });
    document.addEventListener("ct:friend-invite", function (event) { showInvite(panel, event.detail || {}); });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
