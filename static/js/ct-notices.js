/* A signed-in player's notices on every page (templates/_site_notices.html): an invitation to a
   private room (docs/PROTOCOL.md "Private rooms"), with its link and a way to dismiss it. It
   comes as the document event "ct-invite" from a page's own socket (the table page's), or, on a
   page without one, over the lobby socket opened for notices only (/ws/lobby/?notices=1), which
   reconnects with capped backoff. The lobby page lists invitations itself. */
(function () {
  "use strict";
  var MAX_SHOWN = 3, RETRY_FIRST_MS = 1000, RETRY_CAP_MS = 30000, CLOSE_LOGGED_OUT = 4401;

  function fill(text, values) {
    return text.replace(/\{(\w+)\}/g, function (whole, key) { return key in values ? values[key] : whole; });
  }

  function show(box, invite) {
    if (!invite || typeof invite.table !== "number") return;
    var url = box.getAttribute("data-table-url").replace(/0\/$/, invite.table + "/");
    if (window.location.pathname === url) return; // in the room already
    var old = box.querySelector('[data-table="' + invite.table + '"]');
    if (old) old.remove();
    var notice = document.createElement("p");
    notice.className = "site-notice";
    notice.setAttribute("role", "status");
    notice.setAttribute("data-table", String(invite.table));
    notice.setAttribute("data-testid", "site-invite");
    var text = document.createElement("span");
    text.textContent = fill(box.getAttribute("data-invite-from"), { name: invite.inviter, stake: invite.stake_name });
    var link = document.createElement("a");
    link.className = "button small-btn";
    link.href = url;
    link.textContent = box.getAttribute("data-open");
    link.setAttribute("data-testid", "site-invite-open");
    var dismiss = document.createElement("button");
    dismiss.type = "button";
    dismiss.className = "notice-x";
    dismiss.textContent = "×";
    dismiss.setAttribute("aria-label", box.getAttribute("data-dismiss"));
    dismiss.setAttribute("data-testid", "site-invite-dismiss");
    dismiss.addEventListener("click", function () { notice.remove(); });
    notice.append(text, link, dismiss);
    box.prepend(notice);
    while (box.children.length > MAX_SHOWN) box.lastElementChild.remove();
  }

  function listen(box, path) {
    var attempt = 0;
    function open() {
      var ws = new WebSocket((window.location.protocol === "https:" ? "wss://" : "ws://") + window.location.host + path);
      ws.onopen = function () { attempt = 0; };
      ws.onmessage = function (event) {
        var frame;
        try { frame = JSON.parse(event.data); } catch (e) { return; }
        if (frame && frame.type === "invite") show(box, frame.invite);
      };
      ws.onclose = function (event) {
        if (event.code === CLOSE_LOGGED_OUT) return; // signed out: no more notices for this page
        attempt += 1;
        var delay = Math.min(RETRY_CAP_MS, RETRY_FIRST_MS * Math.pow(2, attempt - 1)) * (0.6 + 0.4 * Math.random());
        window.setTimeout(open, delay);
      };
    }
    open();
  }

  function start() {
    var box = document.querySelector("[data-site-notices]");
    if (!box) return;
    document.addEventListener("ct-invite", function (event) { show(box, event.detail); });
    var path = box.getAttribute("data-ws");
    if (path) listen(box, path);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})();
