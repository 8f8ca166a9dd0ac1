/* 十三张 and 三人十三支: arrange cards into the front, middle and back rows (tap, drag or keys
 * 1/2/3), sort, live row labels and foul warning, suggestions, 报到, and a showdown revealed
 * row by row (ct-showdown.js: three steps, one per row). */
(function (root) {
  "use strict";
  var t = CT.t, E = root.CTEval;
  var ROWS = ["front", "middle", "back"];
  var SIZE = { front: 3, middle: 5, back: 5 };

  /* The rows being placed live in localStorage, keyed by table and hand, so closing the tab (or
   * the browser) mid-arrangement keeps them; they are removed once the hand is no longer in play. */
  var PREFIX = "ct-board-";
  function storageKey(table, handId) { return PREFIX + table + "-" + handId; }
  function store() { try { return root.localStorage; } catch (e) { return null; } }  // private mode
  function forgetBoards(table, keep) {
    var s = store();
    if (!s) return;
    var mine = PREFIX + table + "-";
    for (var i = s.length - 1; i >= 0; i--) {
      var key = s.key(i);
      if (key && key.indexOf(mine) === 0 && key !== keep) s.removeItem(key);
    }
  }

  function thirteenPart(config) {
    var trio = config.game === "thirteen_trio";
    return {
      board: { hand: [], front: [], middle: [], back: [] },
      boardHand: null,
      selected: [],
      sortMode: "rank",
      hints: [],
      hintIndex: -1,
      trio: trio,
      rowNames: ROWS,
      /* What winning every row against one hand is called: the trio's 打枪 pays extra; 十三张's
       * 大获全胜 pays its rows only (docs/RULES.md). */
      scoopKind: trio ? "shoot" : "sweep",

      /* --- frames ----------------------------------------------------------------------- */
      onFrame: function (previous, hand) {
        if (!hand) return;
        var mine = this.mine;
        if (hand.status === "active" && mine && mine.cards && hand.id !== this.boardHand) {
          this.loadBoard(hand.id, mine.cards);
        }
        if (hand.status !== "active" || !this.dealtIn) forgetBoards(config.table, null);
      },
      loadBoard: function (handId, cards) {
        this.boardHand = handId;
        this.selected = [];
        this.hints = [];
        this.hintIndex = -1;
        var saved = null;
        forgetBoards(config.table, storageKey(config.table, handId));  // an earlier hand's rows
        var s = store();
        try { saved = s ? JSON.parse(s.getItem(storageKey(config.table, handId)) || "null") : null; } catch (e) { saved = null; }
        var all = cards.slice().sort(E.byRank).join();
        if (saved && saved.hand.concat(saved.front, saved.middle, saved.back).sort(E.byRank).join() === all) {
          this.board = saved;
        } else {
          this.board = { hand: cards.slice(), front: [], middle: [], back: [] };
        }
        this.sortHand();
      },
      saveBoard: function () {
        var s = store();
        try { if (s) s.setItem(storageKey(config.table, this.boardHand), JSON.stringify(this.board)); } catch (e) { /* full, or private mode */ }
      },

      /* --- my seat ---------------------------------------------------------------------- */
      get submitted() {
        var mine = this.mine;
        return !!mine && (trio ? mine.arranged : mine.submitted);
      },
      get arranging() {
        return this.active && this.phase === "arrange" && this.dealtIn && !this.submitted && !!this.mine && !!this.mine.cards &&
          !this.leftHand;
      },
      submittedRows: function () {
        var mine = this.mine;
        if (!mine) return null;
        if (trio) return mine.rows;
        return mine.submission && mine.submission.front ? mine.submission : null;
      },
      get natural() {
        if (trio || !this.view) return null;
        var declare = (this.view.legal_actions || []).find(function (a) { return a.type === "declare"; });
        return declare ? declare.natural : null;
      },

      /* --- moving cards ----------------------------------------------------------------- */
      where: function (card) {
        var board = this.board;
        return ["hand"].concat(ROWS).find(function (row) { return board[row].indexOf(card) >= 0; });
      },
      isSelected: function (card) { return this.selected.indexOf(card) >= 0; },
      clickCard: function (card) {
        if (!this.arranging) return;
        var from = this.where(card);
        if (from === "hand") {
          this.toggle(card);
          return;
        }
        var picked = this.selected.filter(function (c) { return c !== card; });
        if (picked.length) { // swap the first selected card into this card's place
          this.move(picked[0], from, card);
          this.selected = picked.slice(1);
        } else {
          this.move(card, "hand");
          this.selected = [];
        }
      },
      toggle: function (card) {
        if (this.isSelected(card)) this.selected = this.selected.filter(function (c) { return c !== card; });
        else this.selected = this.selected.concat([card]);
      },
      placeSelected: function (row) {
        if (!this.arranging) return;
        var self = this;
        var free = row === "hand" ? 99 : SIZE[row] - this.board[row].length;
        var picked = this.selected.filter(function (c) { return self.where(c) !== row; }).slice(0, free);
        picked.forEach(function (card) { self.move(card, row); });
        this.selected = this.selected.filter(function (c) { return picked.indexOf(c) < 0; });
        this.autoFill();
      },
      /* Move `card` to `row`; with `replacing`, that card goes where `card` came from. */
      move: function (card, row, replacing) {
        var from = this.where(card);
        if (!from || from === row) return;
        if (!replacing && row !== "hand" && this.board[row].length >= SIZE[row]) return;
        var board = Object.assign({}, this.board);
        board[from] = board[from].filter(function (c) { return c !== card; });
        if (replacing) {
          board[row] = board[row].map(function (c) { return c === replacing ? card : c; });
          board[from] = board[from].concat([replacing]);
        } else {
          board[row] = board[row].concat([card]);
        }
        ROWS.forEach(function (r) { board[r] = board[r].slice().sort(E.byRank); });
        this.board = board;
        this.sortHand();
        this.saveBoard();
      },
      /* 十三张: once two rows are full, the last cards go to the third row by themselves. */
      autoFill: function () {
        if (trio) return;
        var self = this;
        var open = ROWS.filter(function (r) { return self.board[r].length < SIZE[r]; });
        if (open.length === 1 && this.board.hand.length === SIZE[open[0]] - this.board[open[0]].length) {
          this.board.hand.slice().forEach(function (c) { self.move(c, open[0]); });
        }
      },
      clearRows: function () {
        var cards = this.board.hand.concat(this.board.front, this.board.middle, this.board.back);
        this.board = { hand: cards, front: [], middle: [], back: [] };
        this.selected = [];
        this.sortHand();
        this.saveBoard();
      },
      setSort: function (mode) { this.sortMode = mode; this.sortHand(); },
      sortHand: function () {
        this.board.hand = this.board.hand.slice().sort(this.sortMode === "suit" ? E.bySuit : E.byRank);
      },
      onKey: function (event) {
        if (!this.arranging || event.target.tagName === "INPUT") return;
        var index = ["1", "2", "3"].indexOf(event.key);
        if (index >= 0) { this.placeSelected(ROWS[index]); event.preventDefault(); }
        if (event.key === "0" || event.key === "Backspace") { this.placeSelected("hand"); event.preventDefault(); }
      },

      /* Drag and drop (SortableJS): put the dragged node back where it was, then move the card
       * in the data, so Alpine alone keeps rendering the lists. */
      initDrag: function (el, row) {
        if (!root.Sortable) return;
        var self = this;
        root.Sortable.create(el, {
          group: "cards", sort: false, animation: 120, draggable: ".card-btn",
          filter: ".locked", delayOnTouchOnly: true, delay: 80,
          onStart: function (evt) { evt.item._ctNext = evt.item.nextSibling; evt.item._ctFrom = evt.from; },
          onEnd: function (evt) {
            var item = evt.item, card = item.dataset.card, to = evt.to.dataset.row;
            item._ctFrom.insertBefore(item, item._ctNext);
            if (!self.arranging || !to || to === row) return;
            if (to !== "hand" && self.board[to].length >= SIZE[to]) {
              var target = self.board[to][Math.min(evt.newIndex, SIZE[to] - 1)];
              self.move(card, to, target);
            } else {
              self.move(card, to);
            }
            self.selected = [];
            self.autoFill();
          }
        });
      },

      /* --- labels ----------------------------------------------------------------------- */
      rowKey: function (cards) { return E.rankRow(cards, !trio); },
      rowLabel: function (cards, row) {
        if (!cards || cards.length !== SIZE[row]) return "";
        var key = this.rowKey(cards);
        return E.isRoyal(key) ? t("royal") : t("cat_" + E.category(key));
      },
      rowBonus: function (cards, row) {
        if (trio || !cards || cards.length !== SIZE[row]) return 0;
        var value = E.rowValue(row, this.rowKey(cards));
        return value > 1 ? value : 0;
      },
      get complete() { var b = this.board; return ROWS.every(function (r) { return b[r].length === SIZE[r]; }); },
      get fouled() { return this.complete && E.isFoul(this.board, !trio); },
      rowCount: function (row) { return this.board[row].length + "/" + SIZE[row]; },
      slotsFree: function (row) { return Math.max(0, SIZE[row] - this.board[row].length); },

      /* --- submitting ------------------------------------------------------------------- */
      submit: function () {
        if (!this.complete) { this.toast(t("rows_incomplete"), "warn"); return; }
        var self = this;
        if (this.fouled) { this.confirm(t("foul_confirm"), t("submit_anyway"), function () { self.sendRows(); }); return; }
        this.sendRows();
      },
      rowsPayload: function () {
        return { front: this.board.front.slice(), middle: this.board.middle.slice(), back: this.board.back.slice() };
      },
      sendRows: function () {
        var self = this;
        this.act(Object.assign({ type: "arrange" }, this.rowsPayload())).then(function () {
          self.selected = [];
        }, function () {});
      },
      declare: function () {
        var self = this;
        var name = t("nat_" + this.natural);
        this.confirm(t("declare_confirm", { name: name }), t("declare"), function () {
          var action = { type: "declare" };
          if (self.complete) Object.assign(action, self.rowsPayload());
          self.act(action).catch(function () {});
        });
      },
      hint: function () {
        var self = this;
        if (this.hints.length) { this.applyHint((this.hintIndex + 1) % this.hints.length); return; }
        this.request({ type: "hint" }).then(function (ack) {
          self.hints = (ack.hints || []).filter(function (h) { return h.front; });
          if (self.hints.length) self.applyHint(0);
        }, function () {});
      },
      applyHint: function (index) {
        var h = this.hints[index];
        this.hintIndex = index;
        var used = h.front.concat(h.middle, h.back);
        var cards = this.board.hand.concat(this.board.front, this.board.middle, this.board.back);
        this.board = {
          hand: cards.filter(function (c) { return used.indexOf(c) < 0; }),
          front: h.front.slice().sort(E.byRank), middle: h.middle.slice().sort(E.byRank), back: h.back.slice().sort(E.byRank)
        };
        this.selected = [];
        this.sortHand();
        this.saveBoard();
      },
      hintLabel: function () {
        return this.hints.length > 1 ? t("hint_n", { i: this.hintIndex + 1, n: this.hints.length }) : t("hint");
      },

      /* --- seats and showdown ------------------------------------------------------------ */
      gameBadges: function (slot) {
        var i = slot.hand, badges = [];
        if (i === null || !this.view) return badges;
        var s = this.view.seats[i];
        if (trio && s.role) badges.push({ text: this.roleLabel(s.role), kind: s.role === "頭" ? "gold" : "plain" });
        if (!trio && this.view.dealer === i) badges.push({ text: t("dealer"), kind: "gold" });
        if (this.active) {
          var done = trio ? s.arranged : s.submitted;
          badges.push(done ? { text: t("ready"), kind: "ok" } : { text: t("thinking"), kind: "plain" });
        }
        return badges;
      },
      playedRows: function (i) {
        var v = this.view;
        if (!v) return null;
        if (trio) return v.seats[i].rows || (v.result && v.result.rows ? v.result.rows[i] : null);
        var h = v.result && v.result.hands ? v.result.hands[i] : null;
        return h && h.front ? h : null;
      },
      showdown: function () {
        var v = this.view, self = this;
        if (!v || !v.result || this.active) return [];
        var r = v.result;
        var scoops = this.scoops();
        return v.seats.map(function (s, i) {
          var hand = !trio && r.hands ? r.hands[i] : null;
          return {
            i: i, name: self.playerName(i), me: self.isMe(i), rows: self.playedRows(i),
            cards: s.cards || [],  /* a natural declared without rows is shown as its 13 cards */
            fouled: r.fouled ? r.fouled[i] : false,
            natural: hand && hand.natural ? t("nat_" + hand.natural) : "",
            auto: trio ? s.auto : !!(s.submission && s.submission.auto),
            coins: r.coins[i], units: r.units[i], balance: s.stack + r.coins[i],
            commission: r.commissions ? r.commissions[i] : 0,
            scooped: scoops.filter(function (p) { return p[0] === i; }).map(function (p) { return self.playerName(p[1]); }),
            homeRun: self.homeRun() === i,
            specials: trio ? (r.specials || []).filter(function (sp) { return sp.seat === i; }) : [],
            penalty: trio && r.penalty ? r.penalty.coins[i] : 0,
            penaltyLabel: self.penaltyLabel()
          };
        });
      },
      /* [winner, loser] pairs where the winner took every row (打枪; a foul is shot too). */
      scoops: function () {
        var r = this.view && this.view.result;
        if (!r) return [];
        if (trio) return r.shoots || [];
        return (r.pairs || []).map(function (p) {
          var rows = p.rows;
          if (p.kind === "foul" && p.units) return p.units > 0 ? p.seats : [p.seats[1], p.seats[0]];
          if (p.kind !== "rows" || !rows) return null;
          if (rows.every(function (x) { return x > 0; })) return p.seats;
          if (rows.every(function (x) { return x < 0; })) return [p.seats[1], p.seats[0]];
          return null;
        }).filter(Boolean);
      },
      homeRun: function () {
        var r = this.view && this.view.result;
        if (!r) return null;
        if (trio) return r.home_run;
        var n = this.view.seats.length, scoops = this.scoops();
        if (n < 3) return null;
        for (var i = 0; i < n; i++) {
          if (scoops.filter(function (p) { return p[0] === i; }).length === n - 1) return i;
        }
        return null;
      },
      /* The 打枪 (the trio; its units doubled by a home run) or 大获全胜 (十三张) between `me` and
       * `other` in the view's highlights, or null. */
      shootBetween: function (me, other) {
        var kind = this.scoopKind;
        return ((this.view && this.view.highlights) || []).find(function (h) {
          return h.kind === kind && ((h.seat === me && h.from === other) || (h.seat === other && h.from === me));
        }) || null;
      },
      specialLabel: function (sp) { return t("sp_" + sp.kind) + " · " + t(sp.row); },
      unitsLabel: function (n) { return t(trio ? "dun" : "units", { n: (n > 0 ? "+" : "") + n }); }
    };
  }

  root.CT.thirteenPart = thirteenPart;
  document.addEventListener("alpine:init", function () {
    root.Alpine.data("table", function () {
      var config = CT.readJson("ct-config");
      return CT.mix(CT.tableCore(config), thirteenPart(config), CT.pairsPart(config), CT.showdownPart(config, 3));
    });
  });
})(window);
