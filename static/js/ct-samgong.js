/* 三公 tables, every mode: bank bids and offers, bet multipliers, reveal (by hand or
 * automatically), the banker marker, results with hand names and multipliers, and the house
 * table's bet spots. */
(function (root) {
  "use strict";
  var t = CT.t;
  var FACE = "JQK";
  var SPOTS = ["player", "banker", "tie", "sangong", "side"];

  function points(cards) {
    return cards.reduce(function (sum, c) {
      var r = c[0];
      if (r === "A") return sum + 1;
      if ("23456789".indexOf(r) >= 0) return sum + parseInt(r, 10);
      return sum;
    }, 0) % 10;
  }

  /* The hand name id of three cards (games/engine/samgong/hands.py names). */
  function handName(cards, ranking) {
    var ranks = cards.map(function (c) { return c[0]; });
    var trips = ranks[0] === ranks[1] && ranks[1] === ranks[2];
    var faces = ranks.every(function (r) { return FACE.indexOf(r) >= 0; });
    if (ranking === "classic") {
      if (trips && ranks[0] === "3") return "zhizun";
      if (trips) return "da_sangong";
      if (faces) return "sangong";
    } else {
      if (trips && FACE.indexOf(ranks[0]) >= 0) return "da_sangong";
      if (trips) return "xiao_sangong";
      if (faces) return "hun_sangong";
    }
    return "point_" + points(cards);
  }

  function handLabel(name) {
    if (!name) return "";
    if (name.indexOf("point_") === 0) return t("hand_point", { n: name.slice(6) });
    return t("hand_" + name);
  }

  function samgongPart(config) {
    var store = root.localStorage;
    return {
      autoReveal: store && store.getItem("ct-auto-reveal") === "1",
      revealSent: null,
      chip: 0,
      bets: {},
      betsHand: null,
      spots: SPOTS,
      handLabel: handLabel,

      onFrame: function (previous, hand) {
        if (hand && hand.id !== this.betsHand) { this.betsHand = hand.id; this.bets = {}; }
      },
      onTick: function () {
        if (!this.autoReveal || !this.legal("reveal") || this.busy) return;
        var mark = this.hand.id + ":" + this.view.phase_seq;
        if (this.revealSent === mark) return;
        this.revealSent = mark;
        this.reveal();
      },
      toggleAutoReveal: function () {
        this.autoReveal = !this.autoReveal;
        if (store) store.setItem("ct-auto-reveal", this.autoReveal ? "1" : "0");
      },

      legal: function (type) {
        var v = this.view;
        if (!v || !this.active || this.leftHand) return null;
        return (v.legal_actions || []).find(function (a) { return a.type === type; }) || null;
      },
      multipliers: function () {
        var v = this.view;
        if (!v || !this.active || this.leftHand || v.mode === "house") return [];
        return (v.legal_actions || []).filter(function (a) { return a.type === "bet"; }).map(function (a) { return a.multiplier; });
      },
      bet: function (x) { this.act({ type: "bet", multiplier: x }).catch(function () {}); },
      simple: function (type) { this.act({ type: type }).catch(function () {}); },
      reveal: function () { this.act({ type: "reveal" }).catch(function () {}); },

      /* --- house table ------------------------------------------------------------------ */
      get houseBet() { return this.view && this.view.mode === "house" ? this.legal("bet") : null; },
      chipValues: function () {
        var base = this.view ? this.view.base : 100;
        return [base, base * 5, base * 25];
      },
      addChip: function (spot) {
        var value = this.chipValues()[this.chip];
        var next = Object.assign({}, this.bets);
        next[spot] = (next[spot] || 0) + value;
        if (this.betTotal(next) > this.houseBet.max_total) return;
        this.bets = next;
      },
      betTotal: function (bets) {
        bets = bets || this.bets;
        return Object.keys(bets).reduce(function (sum, k) { return sum + bets[k]; }, 0);
      },
      placeBets: function () { this.act({ type: "bet", bets: Object.assign({}, this.bets) }).catch(function () {}); },
      noBet: function () { this.bets = {}; this.act({ type: "bet", bets: {} }).catch(function () {}); },

      /* --- seats ------------------------------------------------------------------------ */
      seatView: function (slot) {
        var v = this.shownView();
        return slot.hand === null || !v || !v.seats[slot.hand] ? null : v.seats[slot.hand];
      },
      gameBadges: function (slot) {
        var i = slot.hand, v = this.view, badges = [];
        if (i === null || !v) return badges;
        var s = v.seats[i];
        if (v.banker === i) badges.push({ text: t("banker"), kind: "gold" });
        if (v.offer === i && this.active) badges.push({ text: t("phase_offer"), kind: "plain" });
        if (s.bid === true) badges.push({ text: t("bid_yes"), kind: "ok" });
        if (s.bet) badges.push({ text: t("bet_x", { x: s.bet }), kind: "plain" });
        if (s.auto) badges.push({ text: t("auto_played"), kind: "warn" });
        if (this.active && ["bid", "bet", "offer", "reveal"].indexOf(v.phase) >= 0 && v.banker !== i) {
          badges.push(s.acted ? { text: t("ready"), kind: "ok" } : { text: t("thinking"), kind: "plain" });
        }
        return badges;
      },
      myCards: function () { return this.mine ? this.mine.cards.filter(Boolean) : []; },
      myHandLabel: function () {
        var cards = this.myCards();
        return cards.length === 3 ? handLabel(handName(cards, this.view.ranking)) : "";
      },
      results: function () {
        var v = this.view, self = this;
        if (!v || !v.result || this.active || v.mode === "house") return [];
        var r = v.result;
        return v.seats.map(function (s, i) {
          return {
            i: i, name: self.playerName(i), me: self.isMe(i), cards: r.cards[i], hand: handLabel(r.hands[i]),
            mult: r.multipliers[i], bet: r.bets[i], coins: r.coins[i], banker: r.banker === i,
            winner: r.winner === i, balance: s.stack + r.coins[i], commission: r.commissions ? r.commissions[i] : 0
          };
        });
      },
      houseResults: function () {
        var v = this.view, self = this;
        if (!v || !v.result || this.active || v.mode !== "house") return [];
        return v.seats.map(function (s, i) {
          var bets = v.result.bets[i] || {};
          return { i: i, name: self.playerName(i), me: self.isMe(i), bets: bets, coins: v.result.coins[i], balance: s.stack + v.result.coins[i] };
        });
      },
      offerName: function () {
        var v = this.view;
        return v && v.offer !== null && v.offer !== undefined ? this.playerName(v.offer) : "";
      },
      /* A house seat's bets, each with whether it won, lost or was pushed (docs/RULES.md
       * "house": 閒贏 and 閒輸 push on a tie; 三公 bets on the 閒 hand being one; the side bet
       * wins when the 閒 hand is a 3-card poker hand). */
      betMarks: function (bets) {
        var r = this.view && this.view.result;
        if (!r || !bets) return [];
        var outcome = { player: r.outcome === "player" ? "won" : r.outcome === "tie" ? "push" : "lost",
          banker: r.outcome === "banker" ? "won" : r.outcome === "tie" ? "push" : "lost",
          tie: r.outcome === "tie" ? "won" : "lost",
          sangong: r.player_hand && r.player_hand.indexOf("point_") !== 0 ? "won" : "lost",
          side: r.side ? "won" : "lost" };
        return SPOTS.filter(function (k) { return bets[k]; }).map(function (k) {
          return { spot: k, outcome: outcome[k],
            text: t("spot_" + k) + " " + CT.money(bets[k]) + " " + t("bet_" + outcome[k]) };
        });
      }
    };
  }

  root.CT.samgongPart = samgongPart;
  root.CT.samgongHandName = handName;
  document.addEventListener("alpine:init", function () {
    root.Alpine.data("table", function () {
      var config = CT.readJson("ct-config");
      return CT.mix(CT.tableCore(config), samgongPart(config), CT.showdownPart(config, 1), CT.squeezePart());
    });
  });
})(window);
