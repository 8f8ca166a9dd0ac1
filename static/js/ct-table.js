/* The table page, shared by every game: the live state from ws/tables/<id>/, seats around the
 * felt, seating controls, timer, connection status, messages. The game parts (ct-thirteen.js,
 * ct-samgong.js) add their boards through the hooks onFrame(previousHand, hand). */
(function (root) {
  "use strict";
  var t = CT.t;
  var ROLE_KEYS = { "頭": "role_head", "對": "role_opposite", "尾": "role_tail" };
  /* The felt's grid cell [row, column] of each other seat, clockwise from yours (ct-layout.css):
   * rows top 1, middle 2, bottom 3; columns left 1, middle 2–4, right 5. A narrow screen puts
   * them above the middle, a wide one at its sides; yours is at the bottom, the middle is free. */
  var MID = "2 / 5", ME = [3, MID];
  var NARROW = {
    2: [[1, MID]], 3: [[1, 1], [1, 5]], 4: [[2, 1], [1, MID], [2, 5]],
    5: [[2, 1], [1, 1], [1, 5], [2, 5]], 6: [[2, 1], [1, 1], [1, MID], [1, 5], [2, 5]]
  };
  var WIDE = {
    2: [[1, MID]], 3: [[2, 1], [2, 5]], 4: [[2, 1], [1, MID], [2, 5]],
    5: [[3, 1], [1, 1], [1, 5], [3, 5]], 6: [[3, 1], [1, 1], [1, MID], [1, 5], [3, 5]]
  };

  function tableCore(config) {
    return {
      config: config,
      frame: null,
      status: "connecting",
      retryIn: 0,
      now: Date.now(),
      toasts: [],
      stopped: "", // why the player may no longer play, as the server said it (a ban, a log-out, a break)
      modal: null,
      // never more than the wallet holds: a short wallet shows what it has, and says so
      buyIn: CT.coinsInput(config.wallet === null ? config.min_buy_in : Math.min(config.min_buy_in, config.wallet)),
      topUpAmount: "",
      wallet: config.wallet,
      busy: false,
      deadlineSeen: null,
      deadlineTotal: 0,
      t: t,
      money: CT.money,
      signed: CT.signed,
      cardLabel: CT.cardLabel,

      init: function () {
        var self = this;
        this.socket = new CT.Socket(config.ws, {
          status: function (status, socket) { self.status = status; self.retryAt = socket.retryAt; },
          state: function (frame) { self.onState(frame); },
          notice: function (m) { self.onNotice(m); },
          removed: function (m) { self.onNotice(m); },
          watchers: function (m) { self.watchers = m.count; }, // ct-room.js
          invite: function (m) { document.dispatchEvent(new CustomEvent("ct-invite", { detail: m.invite })); }, // ct-notices.js
          error: function (m) { self.showError(m); }
        });
        this.talkWatch(this.socket);
        this.linkWatch(this.socket);
        this.socket.connect();
        setInterval(function () { self.now = Date.now(); self.tick(); }, 250);
        root.addEventListener("beforeunload", function () { self.leaving = true; });
      },

      /* --- state ------------------------------------------------------------------------ */
      onState: function (frame) {
        if (this.frame && frame.version < this.frame.version) return; // an older snapshot
        var before = this.frame, previous = before ? before.hand : null;
        this.frame = frame;
        if (this.onFrame) this.onFrame(previous, frame.hand);
        if (this.onShowdown) this.onShowdown(before, frame); // ct-showdown.js
        if (this.onTurn) this.onTurn(); // ct-turn.js
      },
      get hand() { return this.frame ? this.frame.hand : null; },
      get view() { return this.hand ? this.hand.view : null; },
      get phase() { return this.view ? this.view.phase : null; },
      get active() { return !!this.hand && this.hand.status === "active"; },
      get you() { return this.frame ? this.frame.you : null; },
      get seated() { return this.you !== null && this.you !== undefined; },
      /* A closed table offers no seat: the page (before its first frame) and every frame say so. */
      get closed() { return this.frame ? !!this.frame.closed : !!config.closed; },
      get handSeat() { return this.hand ? this.hand.seat : null; },
      get dealtIn() { return this.handSeat !== null && this.handSeat !== undefined; },
      get mine() { return this.dealtIn && this.view ? this.view.seats[this.handSeat] : null; },
      get me() {
        var you = this.you;
        return this.frame ? this.frame.seats.find(function (s) { return s.index === you; }) || null : null;
      },
      get loggedIn() { return config.user !== null; },
      /* I asked to leave while dealt into the hand in play: the server plays my seat (nobody waits
       * for a leaver), so the page offers no move and shows no clock of mine. */
      get leftHand() { var me = this.me; return this.active && this.dealtIn && !!me && me.status === "leaving"; },

      /* Hand seat of a table seat in the current hand, or null. */
      handIndexOf: function (tableSeat) {
        if (!this.hand) return null;
        var i = this.hand.players.findIndex(function (p) { return p.seat === tableSeat; });
        return i < 0 ? null : i;
      },
      playerName: function (handIndex) {
        return this.hand && this.hand.players[handIndex] ? this.hand.players[handIndex].name : "";
      },
      isMe: function (handIndex) { return handIndex !== null && handIndex === this.handSeat; },

      /* Every table seat (taken or free) placed around the felt, yours at the bottom. */
      seatSlots: function () {
        if (!this.frame) return [];
        var n = this.frame.stake.seats;
        var bottom = this.seated ? this.you : 0;
        var bySeat = {};
        (this.shownSeats ? this.shownSeats() : this.frame.seats).forEach(function (s) { bySeat[s.index] = s; });
        var slots = [];
        for (var k = 0; k < n; k++) {
          var index = (bottom + k) % n;
          var narrow = k ? NARROW[n][k - 1] : ME, wide = k ? WIDE[n][k - 1] : ME;
          slots.push({
            index: index, seat: bySeat[index] || null, hand: this.handIndexOf(index),
            style: "--row:" + narrow[0] + ";--col:" + narrow[1] + ";--wrow:" + wide[0] + ";--wcol:" + wide[1]
          });
        }
        return slots;
      },
      seatBadges: function (slot) {
        var s = slot.seat, badges = [];
        if (!s) return badges;
        if (s.status === "sitting_out") badges.push({ text: t("sitting_out"), kind: "muted" });
        if (s.status === "away") badges.push({ text: t("away_seat"), kind: "muted" });
        if (s.status === "leaving") badges.push({ text: t("leaving"), kind: "muted" });
        if (s.auto) badges.push({ text: t("auto_seat"), kind: "warn" });
        else if (!s.connected) badges.push({ text: t("offline"), kind: "warn" });
        return badges.concat(this.gameBadges ? this.gameBadges(slot) : []);
      },
      roleLabel: function (role) { return ROLE_KEYS[role] ? t(ROLE_KEYS[role]) : role; },

      /* --- timer ------------------------------------------------------------------------ */
      tick: function () {
        var deadline = this.view && this.active ? this.view.deadline : null;
        if (deadline !== this.deadlineSeen) {
          this.deadlineSeen = deadline;
          this.deadlineTotal = deadline ? Math.max(1, this.socket.secondsLeft(deadline)) : 0;
        }
        if (this.status === "reconnecting" && this.retryAt) {
          this.retryIn = Math.max(0, Math.ceil((this.retryAt - Date.now()) / 1000));
        }
        if (this.onTick) this.onTick();
        if (this.feelTick) this.feelTick();
      },
      secondsLeft: function () {
        void this.now;
        return this.view && this.active && !this.leftHand ? this.socket.secondsLeft(this.view.deadline) : null;
      },
      timerPercent: function () {
        var left = this.secondsLeft();
        return left === null || !this.deadlineTotal ? 0 : Math.min(100, 100 * left / this.deadlineTotal);
      },
      statusLabel: function () {
        if (this.status === "online") return t("conn_online");
        if (this.status === "refused") return t("conn_refused");
        if (this.status === "reconnecting" && this.retryIn > 0) return t("conn_retry", { s: this.retryIn });
        return t(this.status === "reconnecting" ? "conn_reconnecting" : "conn_connecting");
      },
      phaseLabel: function () {
        if (!this.frame) return t("conn_connecting");
        if (!this.hand) return t("waiting_players");
        if (this.hand.status === "voided") return t("hand_voided");  // the platform voided it
        if (!this.active) return this.phase === "void" ? t("phase_void") : t("phase_settled");
        return t("phase_" + this.phase);
      },

      /* --- requests --------------------------------------------------------------------- */
      request: function (payload) {
        var self = this;
        this.busy = true;
        return this.socket.request(payload).then(function (ack) {
          self.busy = false;
          return ack;
        }, function (error) {
          self.busy = false;
          self.showError(error);
          throw error;
        });
      },
      act: function (action) {
        if (this.noteMove) this.noteMove();
        return this.request({ type: "action", action: action });
      },

      join: function (seat) {
        var amount = CT.parseCoins(this.buyIn);
        if (amount === null) { this.toast(t("err_amount"), "error"); return; }
        var payload = { type: "join", buy_in: amount };
        if (seat !== undefined && seat !== null) payload.seat = seat;
        var self = this;
        this.request(payload).then(function () {
          if (self.wallet !== null) self.wallet -= amount;
          self.toast(t("joined", { x: CT.money(amount) }), "ok");
        }, function () {});
      },
      topUp: function () {
        var amount = CT.parseCoins(this.topUpAmount);
        if (amount === null) { this.toast(t("err_amount"), "error"); return; }
        var self = this;
        this.request({ type: "top_up", amount: amount }).then(function (ack) {
          if (self.wallet !== null) self.wallet -= amount;
          self.topUpAmount = "";
          self.toast(t("topped_up", { x: CT.money(ack.table_money) }), "ok");
        }, function () {});
      },
      sitOut: function (out) { this.request({ type: "sit_out", out: out }).catch(function () {}); },

      /* --- messages --------------------------------------------------------------------- */
      /* One message per refusal: the server's, which is in the player's language and names the
       * amounts (docs/PROTOCOL.md "Errors"), or, for what the page found itself (no answer,
       * no connection), the page's own for the code. */
      showError: function (error) {
        if (CT.STOPS[error.code]) this.stopped = error.message;
        var key = "err_" + (error.code || "refused");
        var text = error.message || (t(key) === key ? t("err_refused") : t(key));
        this.toast(text, "error");
      },
      onNotice: function (notice) {
        var key = "notice_" + notice.reason;
        if (notice.reason === "left" || t(key) !== key) {
          this.toast(t(key) === key ? t("left") : t(key), notice.reason === "left" ? "ok" : "warn");
        }
      },
      toast: function (text, kind) {
        var self = this;
        var id = CT.uid();
        this.toasts.push({ id: id, text: text, kind: kind || "info", open: false });
        if (this.toasts.length > 4) this.toasts.shift();
        setTimeout(function () { self.dismiss(id); }, kind === "error" ? 8000 : 5000);
      },
      dismiss: function (id) { this.toasts = this.toasts.filter(function (x) { return x.id !== id; }); },
      toastClass: function (m) { return "toast-" + m.kind + (m.open ? " open" : ""); },
      /* A message longer than its two lines, shown whole (ct-layout.css), or again in two. */
      unfold: function (id) { this.toasts.forEach(function (x) { if (x.id === id) x.open = !x.open; }); },
      confirm: function (text, okLabel, onOk) {
        this.modal = { text: text, ok: okLabel, onOk: onOk };
        var self = this;
        setTimeout(function () {
          var button = document.querySelector("[data-modal-ok]");
          if (button && self.modal) button.focus();
        }, 30);
      },
      modalOk: function () { var m = this.modal; this.modal = null; if (m) m.onOk(); },

      cardUrl: function (card) { return config.cards[card]; },
      coinsLabel: function () {
        return t(config.stake_word, { x: CT.money(this.frame ? this.frame.stake.unit : 0) });
      }
    };
  }

  /* The shared table with its rules, waits, set and leave confirmation (ct-rules.js), its talk
   * (ct-talk.js), its connection strength (ct-link.js), rooms and watchers (ct-room.js), and the
   * note of a turn the server played (ct-turn.js). */
  root.CT.tableCore = function (config) {
    return CT.mix(tableCore(config), CT.rulesPart(config), CT.talkPart(config), CT.linkPart(config),
                  CT.roomPart(config), CT.turnPart());
  };
})(window);
