/* Private rooms and watching (docs/RULES.md "Private rooms", docs/PROTOCOL.md "Watchers").
 * The table page: the room panel (code, link, start, remove, close, invite) mixed into the
 * table component (CT.roomPart), and the count of watchers. The lobby: invitations, live from
 * the lobby socket (the event "ct-invite" ct-lobby.js fires) and from the page's load. */
(function (root) {
  "use strict";
  var t = CT.t;

  function roomPart(config) {
    return {
      watchers: null, // how many connections watch this table (the `watchers` frame)
      inviteName: "",

      get room() { return this.frame ? this.frame.room || null : null; },
      roomOwner: function () { return !!this.room && config.user !== null && this.room.owner === config.user; },
      roomMayInvite: function () { return !!this.room && !this.closed && (this.roomOwner() || this.seated); },
      roomOthers: function () {
        var owner = this.room ? this.room.owner : null;
        return this.frame ? this.frame.seats.filter(function (s) { return s.user !== owner; }) : [];
      },
      roomWaitingLabel: function () {
        var w = this.frame ? this.frame.waiting : null;
        if (!w || w.reason !== "room_start") return "";
        return t("room_waiting_start", { n: w.ready, m: w.min });
      },
      roomCanStart: function () {
        var w = this.frame ? this.frame.waiting : null;
        return !!w && w.reason === "room_start" && w.ready >= w.min;
      },
      watchersLabel: function () { return this.watchers === null ? "" : t("watchers", { n: this.watchers }); },

      roomStart: function () { this.request({ type: "room_start" }).catch(function () {}); },
      roomClose: function () {
        var self = this;
        this.confirm(t("room_close_confirm"), t("room_close"), function () {
          self.request({ type: "room_close" }).catch(function () {});
        });
      },
      roomRemove: function (seat) {
        var self = this;
        this.confirm(t("room_remove_confirm", { name: seat.name }), t("room_remove"), function () {
          self.request({ type: "room_remove", seat: seat.index }).then(function () {
            self.toast(t("room_removed_done", { name: seat.name }), "ok");
          }, function () {});
        });
      },
      roomInvite: function () {
        var name = this.inviteName.trim(), self = this;
        if (!name) return;
        this.request({ type: "room_invite", name: name }).then(function (ack) {
          self.inviteName = "";
          self.toast(t("room_invited", { name: ack.invited }), "ok");
        }, function () {});
      },
      /* The heading's copy button: the clipboard's API, or, where the page may not use it (not a
         secure origin, or refused), the link's field selected and copied the old way. */
      copyRoomLink: function () {
        var self = this, link = config.room_link;
        function copied() { self.toast(t("room_copied"), "ok"); }
        function byField() {
          var field = document.getElementById("room-link");
          if (!field) return;
          field.focus();
          field.select();
          try { if (document.execCommand("copy")) copied(); } catch (e) { /* left selected for the player */ }
        }
        if (!link) return;
        if (root.navigator.clipboard) root.navigator.clipboard.writeText(link).then(copied, byField); else byField();
      }
    };
  }

  /* The lobby's invitations: those on the page when it loaded, then each the socket brings. */
  function roomInvites() {
    var data = CT.readJson("ct-lobby");
    return {
      invites: data.invites || [],
      t: t,
      init: function () {
        var self = this;
        document.addEventListener("ct-invite", function (event) {
          var invite = event.detail;
          invite.url = data.table_url.replace(/0\/$/, invite.table + "/");
          self.invites = [invite].concat(self.invites.filter(function (i) { return i.table !== invite.table; }));
        });
      },
      inviteLabel: function (invite) { return t("invite_from", { name: invite.inviter, stake: invite.stake_name }); }
    };
  }

  root.CT.roomPart = roomPart;
  document.addEventListener("alpine:init", function () { root.Alpine.data("roomInvites", roomInvites); });
})(window);
