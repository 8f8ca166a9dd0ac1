/* 十三张 and 三人十三支: "Your comparisons", every line that makes up my coins of the hand, then
 * the total, so that the lines add up to it; and the trio's penalty, named for what its payer
 * did (left the table, or lost the connection). Mixed into the table of ct-thirteen.js. */
(function (root) {
  "use strict";
  var t = CT.t;

  function pairsPart(config) {
    var trio = config.game === "thirteen_trio";
    return {
      /* The trio's penalty, named for what the player who pays it did: left or lost the connection. */
      penaltyLabel: function () {
        var r = this.view && this.view.result;
        return t(r && r.penalty && r.penalty.left ? "penalty_left" : "penalty");
      },
      /* Every line that makes up my coins of the hand, so that they add up to the total (myTotal):
       * 十三张 each comparison row by row, the trio each shoot and each special (mine from each
       * other seat, theirs from me) and the penalty; then the commission I paid. A 打枪 or
       * 大获全胜 says so, with what it paid. */
      myPairs: function () {
        var r = this.view && this.view.result, me = this.handSeat, self = this;
        if (!r || me === null || me === undefined) return [];
        var lines = trio ? this.trioLines(r, me) : (r.pairs || []).filter(function (p) { return p.seats.indexOf(me) >= 0; }).map(function (p) {
          var flip = p.seats[0] === me ? 1 : -1;
          var other = p.seats[0] === me ? p.seats[1] : p.seats[0];
          var shot = self.shootBetween(me, other);
          return {
            key: "pair" + other, name: self.playerName(other), units: p.units * flip, coins: (p.coins || 0) * flip,
            rows: p.rows ? p.rows.map(function (x) { return x * flip; }) : null, kind: p.kind,
            shoot: !!shot, doubled: !!(shot && shot.doubled)
          };
        });
        var commission = this.myCommission(r, me);
        if (commission) lines.push({ key: "commission", label: t("commission_line"), coins: -commission, kind: "commission" });
        return lines;
      },
      trioLines: function (r, me) {
        var self = this, base = this.view.base;
        var lines = (this.view.highlights || []).filter(function (h) {
          return h.kind === "shoot" && (h.seat === me || h.from === me);
        }).map(function (h) {
          var flip = h.seat === me ? 1 : -1;
          return { key: "shoot" + h.seat + "-" + h.from, name: self.playerName(flip > 0 ? h.from : h.seat),
            units: h.units * flip, coins: h.coins * flip, rows: null, kind: "shoot", shoot: true, doubled: h.doubled };
        });
        (r.specials || []).forEach(function (sp, k) {
          var mine = sp.seat === me, units = mine ? self.view.seats.length - 1 : -1;
          lines.push({ key: "special" + k, label: (mine ? "" : self.playerName(sp.seat) + " · ") + self.specialLabel(sp),
            units: units, coins: units * base, kind: "special" });
        });
        var penalty = r.penalty ? r.penalty.coins[me] : 0;
        if (penalty) lines.push({ key: "penalty", label: this.penaltyLabel(), coins: penalty, kind: "penalty" });
        return lines;
      },
      /* The commission I paid: the result's per seat (十三张), or what my units earned less what I
       * was paid before the penalty (the trio, whose result gives the total only). */
      myCommission: function (r, me) {
        if (r.commissions) return r.commissions[me] || 0;
        if (!trio) return 0;
        var penalty = r.penalty ? r.penalty.coins[me] : 0;
        return r.units[me] * this.view.base - (r.coins[me] - penalty);
      },
      myTotal: function () {
        var r = this.view && this.view.result, me = this.handSeat;
        return r && r.coins && me !== null && me !== undefined ? r.coins[me] : null;
      }
    };
  }

  root.CT.pairsPart = pairsPart;
})(window);
