/* The showdown in order, on every table page: when a hand the page watched being played is
 * settled, the cards are revealed first (`revealSteps` steps: the rows of 十三张, the hands of
 * 三公) while the seats keep the stacks and boxes they had; then the coins move (each stack
 * counts to its new amount, its change shown beside it); then the summary (results, pairs and
 * the banner of the hand's special events, `hand.view.highlights`). Also the table's sounds
 * (ct-sound.js): the deal, your turn, the last 5 seconds of your time, a win, and the mute
 * switch. A hand already over when the page opened shows at once. */
(function (root) {
  "use strict";
  var t = CT.t;
  var STEP_MS = 900;   // between two reveal steps, and from the last one to the coins
  var COIN_MS = 900;   // the coins moving, then the summary
  var TURN_AFTER_DEAL_MS = 350;
  var CLOCK_FROM = 5;  // seconds left when the clock starts ticking

  function reducedMotion() {
    return !!(root.matchMedia && root.matchMedia("(prefers-reduced-motion: reduce)").matches);
  }

  function showdownPart(config, revealSteps) {
    var COINS = revealSteps + 1, SUMMARY = revealSteps + 2;
    return {
      stage: SUMMARY,
      revealSteps: revealSteps,
      showdownHand: null,
      heldFrame: null,     // the last frame before the result: its seats and view, shown until the coins move
      coinFrom: {},        // table seat -> its table money before the hand, while the coins move
      coinT: 1,
      showdownTimers: [],
      muted: CT.sound.muted(),
      turnKey: null,
      clockKey: null,

      /* --- the showdown in order ---------------------------------------------------------- */
      onShowdown: function (before, frame) {
        var hand = frame.hand, prev = before ? before.hand : null;
        if (!hand) return;
        if (hand.status === "active") {
          if (this.showdownHand !== null && this.showdownHand !== hand.id) this.endShowdown();
          this.listenForTurn(before, prev, hand);
          return;
        }
        if (this.showdownHand === hand.id) return;
        this.endShowdown();
        this.showdownHand = hand.id;
        if (hand.status === "voided") return;  // no result to show: the phase line says voided
        var live = prev && prev.id === hand.id && prev.status === "active";
        if (live && hand.view && hand.view.result) this.playShowdown(before); else this.stage = SUMMARY;
      },
      playShowdown: function (before) {
        var self = this;
        this.heldFrame = before;
        this.stage = 0;
        for (var step = 1; step <= revealSteps; step++) this.later(step * STEP_MS, this.setStage.bind(this, step));
        this.later(COINS * STEP_MS, function () { self.moveCoins(); });
        this.later(COINS * STEP_MS + COIN_MS, function () { self.showSummary(); });
      },
      later: function (ms, fn) { this.showdownTimers.push(setTimeout(fn, ms)); },
      setStage: function (step) { this.stage = Math.max(this.stage, step); },
      moveCoins: function () {
        var self = this, from = {};
        (this.heldFrame ? this.heldFrame.seats : []).forEach(function (s) { from[s.index] = s.table_money; });
        this.coinFrom = from;
        this.heldFrame = null;
        this.setStage(COINS);
        if (reducedMotion()) { this.coinT = 1; return; }
        var start = null;
        this.coinT = 0;
        function frame(now) {
          if (self.stage !== COINS) { self.coinT = 1; return; }
          if (start === null) start = now;
          self.coinT = Math.min(1, (now - start) / (COIN_MS * 0.8));
          if (self.coinT < 1) root.requestAnimationFrame(frame);
        }
        root.requestAnimationFrame(frame);
      },
      showSummary: function () {
        this.coinT = 1;
        this.setStage(SUMMARY);
        var r = this.view && this.view.result;
        if (r && r.coins && this.dealtIn && r.coins[this.handSeat] > 0) CT.sound.play("win");
      },
      endShowdown: function () {
        this.showdownTimers.forEach(clearTimeout);
        this.showdownTimers = [];
        this.heldFrame = null;
        this.coinT = 1;
        this.stage = SUMMARY;
      },
      revealDone: function () { return this.stage >= revealSteps; },
      coinsMoved: function () { return this.stage >= COINS; },
      summaryShown: function () { return this.stage >= SUMMARY; },
      stageName: function () {
        if (this.stage >= SUMMARY) return "summary";
        return this.stage >= COINS ? "coins" : "reveal-" + this.stage;
      },

      /* --- seats as the showdown shows them --------------------------------------------------- */
      shownSeats: function () {
        var frame = this.heldFrame || this.frame;
        return frame ? frame.seats : [];
      },
      /* The hand's view as the showdown shows it: the last one before the result until the reveal. */
      shownView: function () {
        return this.heldFrame && !this.revealDone() && this.heldFrame.hand ? this.heldFrame.hand.view : this.view;
      },
      shownMoney: function (seat) {
        if (!seat) return null;
        var held = this.heldFrame ? this.heldFrame.seats.find(function (s) { return s.index === seat.index; }) : null;
        if (held) return held.table_money;
        var from = this.coinFrom[seat.index];
        if (this.coinT >= 1 || from === undefined) return seat.table_money;
        var eased = 1 - Math.pow(1 - this.coinT, 3);
        return from + Math.round((seat.table_money - from) * eased);
      },
      /* A seat's change of this hand, shown beside its stack from the moment the coins move. */
      seatDelta: function (slot) {
        var r = this.view && this.view.result;
        if (this.active || !r || !r.coins || slot.hand === null || !this.coinsMoved()) return null;
        var coins = r.coins[slot.hand];
        return typeof coins === "number" && coins !== 0 ? coins : null;
      },

      /* --- the banner of special events ---------------------------------------------------- */
      highlightLines: function () {
        var v = this.view, self = this;
        if (!v || this.active || !v.highlights || !this.summaryShown()) return [];
        return v.highlights.map(function (h, k) {
          var name = self.playerName(h.seat);
          var parts = [h.from !== undefined ? t("hl_collects_from", { name: name, from: self.playerName(h.from), x: CT.money(h.coins) })
            : t("hl_collects", { name: name, x: CT.money(h.coins) })];
          if (h.units !== undefined && self.unitsLabel) parts.push(self.unitsLabel(h.units));
          if (h.doubled) parts.push(t("hl_doubled"));
          if (h.natural) parts.unshift(t("nat_" + h.natural));
          if (h.hand) parts.unshift(self.handLabel ? self.handLabel(h.hand) + " " + t("mult", { m: h.multiplier }) : h.hand);
          return { key: k, kind: h.kind, title: t("hl_" + h.kind), text: parts.join(" · "), me: self.isMe(h.seat) };
        });
      },

      /* --- sounds --------------------------------------------------------------------------- */
      toggleMute: function () {
        this.muted = !this.muted;
        CT.sound.setMuted(this.muted);
      },
      muteLabel: function () { return this.muted ? t("sound_off") : t("sound_on"); },
      get myTurn() {
        var v = this.view;
        if (!this.active || !this.dealtIn || !v || this.leftHand) return false;
        return (v.legal_actions || []).length > 0 || this.arranging === true;
      },
      listenForTurn: function (before, prev, hand) {
        if (!before) { // the page's first frame: what is already under way makes no sound
          this.turnKey = this.myTurn ? hand.id + ":" + this.view.phase_seq : null;
          return;
        }
        var dealt = this.dealtIn && (!prev || prev.id !== hand.id);
        if (dealt) CT.sound.play("deal");
        this.feelTick(dealt ? TURN_AFTER_DEAL_MS : 0);
      },
      /* Called every tick of the table page and on each frame: "your turn" once per phase that
       * waits on you, then the clock each of its last seconds. */
      feelTick: function (delay) {
        if (!this.myTurn) return;
        var key = this.hand.id + ":" + this.view.phase_seq;
        if (this.turnKey !== key) {
          this.turnKey = key;
          if (delay) setTimeout(function () { CT.sound.play("turn"); }, delay); else CT.sound.play("turn");
        }
        var left = this.secondsLeft();
        if (left !== null && left > 0 && left <= CLOCK_FROM && this.clockKey !== key + ":" + left) {
          this.clockKey = key + ":" + left;
          CT.sound.play("clock");
        }
      }
    };
  }

  root.CT.showdownPart = showdownPart;
})(window);
