/* The lobby: games, stake levels and open tables, kept live by ws/lobby/. */
(function () {
  "use strict";
  var t = CT.t;

  function lobby() {
    var data = CT.readJson("ct-lobby");
    return {
      levels: data.levels,
      tables: data.tables,
      games: data.games,
      glyphs: data.glyphs,
      game: data.game,
      wallet: data.wallet,
      status: "connecting",
      stopped: "", // why the player may no longer play, as the server said it
      t: t,
      money: CT.money,

      init: function () {
        var self = this;
        this.socket = new CT.Socket(data.ws, {
          status: function (status) { self.status = status; },
          lobby: function (m) { self.tables = m.tables; },
          error: function (m) { if (CT.STOPS[m.code]) self.stopped = m.message; },
          invite: function (m) { document.dispatchEvent(new CustomEvent("ct-invite", { detail: m.invite })); },
          tables: function (m) { m.tables.forEach(function (table) { self.upsert(table); }); },
          friend_invite: function (m) { document.dispatchEvent(new CustomEvent("ct:friend-invite", { detail: m })); }
        });
        this.socket.connect();
      },

      upsert: function (table) {
        var i = this.tables.findIndex(function (x) { return x.id === table.id; });
        if (i >= 0) this.tables.splice(i, 1, table); else this.tables.push(table);
      },

      shownGames: function () {
        var game = this.game;
        return this.games.filter(function (g) { return !game || g === game; });
      },

      modes: function (game) {
        var seen = [];
        this.levels.forEach(function (l) { if (l.game === game && seen.indexOf(l.mode) < 0) seen.push(l.mode); });
        return seen;
      },

      levelsOf: function (game, mode) {
        return this.levels.filter(function (l) { return l.game === game && l.mode === mode; });
      },

      tablesOf: function (level) {
        return this.tables.filter(function (tb) { return tb.stake_level === level.id; })
          .sort(function (a, b) { return b.players.length - a.players.length || a.id - b.id; });
      },

      seated: function (game) {
        return this.tables.filter(function (tb) { return tb.game === game; })
          .reduce(function (n, tb) { return n + tb.players.length; }, 0);
      },

      playerNames: function (table) {
        return table.players.map(function (p) { return p.name; }).join(t("list_sep")) || "–";
      },

      tableUrl: function (table) { return data.table_url.replace(/0\/$/, table.id + "/"); },
      stakeLabel: function (level) {
        return t(level.stake_word, { x: CT.money(level.unit) });
      },
      /* How many players a hand at this stake level needs (the engine's player limits). */
      playersLabel: function (players) {
        return players[0] === players[1] ? t("players_exactly", { n: players[0] })
          : t("players_range", { lo: players[0], hi: players[1] });
      },
      statusLabel: function () { return t("conn_" + (this.status === "online" ? "online" : this.status)); }
    };
  }

  document.addEventListener("alpine:init", function () { window.Alpine.data("lobby", lobby); });
})();
