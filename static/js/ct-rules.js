/* What the table says about its rules and its waits, shared by every game: the set's progress
 * and what leaving mid-set costs (the frame's `set` and `leave`), what the table waits for
 * between hands (`waiting`), the payouts on a house table's betting spots (the engine's rule
 * sheet, config.rules), and a countdown that turns urgent only in its last seconds.
 * Every figure comes from the server; nothing here knows a game or a mode. */
(function (root) {
  "use strict";
  var t = CT.t;

  /* The last seconds of a phase of `total` seconds shown as urgent: a quarter of it, 3 to 10 s. */
  function urgentFrom(total) {
    return Math.max(3, Math.min(10, Math.ceil(total / 4)));
  }

  function rulesPart(config) {
    var figures = config.rules || {};
    return {
      rulesFigures: figures,

      /* --- set and waiting ------------------------------------------------------------- */
      setLabel: function () {
        var set = this.frame ? this.frame.set : null;
        if (!set) return "";
        return t(set.in_play ? "set_game" : "set_next", { n: set.game, m: set.size });
      },
      waitingLabel: function () {
        var w = this.frame ? this.frame.waiting : null;
        if (!w) return "";
        if (w.reason === "closed") return t("waiting_closed");
        if (w.reason === "connected") return t("waiting_connected");
        if (w.reason !== "players") return "";
        var text = t("waiting_need", { k: w.need, n: w.min });
        return w.sitting_out ? text + " · " + t("waiting_sitting_out", { s: w.sitting_out }) : text;
      },
      /* "Next hand in 7 s" while the showdown pause runs (`waiting.at`), then "soon". */
      nextHandLabel: function () {
        void this.now;  // a tick of the page's clock renders the next second
        var w = this.frame ? this.frame.waiting : null;
        var left = w && w.reason === "next_hand" && w.at ? this.socket.secondsLeft(w.at) : null;
        return left ? t("next_hand_in", { s: left }) : t("next_hand");
      },
      phaseLabel: function () {
        if (!this.frame) return t("conn_connecting");
        if (!this.hand) {
          var w = this.frame.waiting;
          return w && w.reason === "next_hand" ? this.nextHandLabel() : t("waiting_players");
        }
        if (this.hand.status === "voided") return t("hand_voided");  // the platform voided it
        if (!this.active) return this.phase === "void" ? t("phase_void") : t("phase_settled");
        return t("phase_" + this.phase);
      },
      /* What the rules say about the phase in play (搶莊's face-up cards), from the rule sheet. */
      phaseNote: function () {
        var notes = figures.phase_notes || {};
        return this.active && this.phase && notes[this.phase] ? notes[this.phase] : "";
      },
      playersLabel: function (players) {
        if (!players) return "";
        return players[0] === players[1] ? t("players_exactly", { n: players[0] })
          : t("players_range", { lo: players[0], hi: players[1] });
      },

      /* --- timer ----------------------------------------------------------------------- */
      timerUrgent: function () {
        var left = this.secondsLeft();
        return left !== null && left <= urgentFrom(this.deadlineTotal || left);
      },

      /* --- leaving --------------------------------------------------------------------- */
      leaveTerms: function () { return this.frame ? this.frame.leave || null : null; },
      leave: function () {
        var terms = this.leaveTerms();
        if (!terms || !this.me || this.me.status === "leaving") { this.leaveNow(); return; }
        var self = this;
        var params = { n: terms.games_left, m: terms.size, x: CT.money(terms.penalty) };
        this.modal = {
          title: t("leave_title"),
          text: t(terms.penalty ? "leave_set_penalty" : "leave_set", params),
          ok: t("leave_anyway"), cancel: t("stay"), kind: "leave",
          onOk: function () { self.leaveNow(); }
        };
        setTimeout(function () {
          var button = document.querySelector("[data-modal-cancel]");
          if (button && self.modal) button.focus();
        }, 30);
      },
      leaveNow: function () {
        var self = this;
        var money = this.me ? this.me.table_money : 0;
        this.request({ type: "leave" }).then(function (ack) {
          if (ack.left && self.wallet !== null) self.wallet += money;
          // one message per leave: a seat left at once is told by the server's `left` notice,
          // which says where the table money went; a later leave is told now, and by that notice
          if (!ack.left) self.toast(self.leavingLabel(), "ok");
        }, function () {});
      },
      leavingLabel: function () {
        var terms = this.leaveTerms();
        return terms ? t("leave_after_set", { n: terms.games_left }) : t("leave_after");
      },

      /* --- house table spots ----------------------------------------------------------- */
      payoutLabel: function (spot) {
        var pays = figures.payouts ? figures.payouts[spot] : null;
        if (!pays) return "";
        var p = pays.join("/");
        var half = figures.half_pay;
        return half && half.spots.indexOf(spot) >= 0 ? t("pays_half", { p: p, n: half.points }) : t("pays", { p: p });
      }
    };
  }

  root.CT.rulesPart = rulesPart;
  root.CT.urgentFrom = urgentFrom;
})(window);
