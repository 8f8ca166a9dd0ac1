/* The connection's strength, in the lower left of the table page (docs/PROTOCOL.md "Connection
 * strength"): Good / Fair / Poor / No connection, from the round trip of the socket's pings and
 * the frames it missed, with the figures in its title. It follows the network within one ping:
 * the level is the last round trip's, and a ping still unanswered counts as a round trip of its
 * age so far, so a slow network drops the level before the pong comes; a socket that is not open,
 * or a browser that says it is offline, is No connection at once.
 *
 * The page's ping interval is the server's (`data-ping-ms`, GAMES_PING_EVERY): it is set on the
 * sockets here, before any connects. */
(function (root) {
  "use strict";
  /* Milliseconds: a round trip under `good` is Good, under `fair` Fair, else Poor; a ping
   * unanswered for `lost` is No connection. Version gaps and resyncs (frames missed) noticed in
   * the last `window`: one or more make it at most Fair, `missedPoor` or more Poor. */
  var LINK = { good: 300, fair: 1000, lost: 5000, window: 60000, missedPoor: 3 };
  var SAMPLES = 10;  // the round trips the average is taken over
  var LEVELS = ["good", "fair", "poor", "none"];

  var el = document.querySelector("[data-ping-ms]");
  var every = el ? parseInt(el.getAttribute("data-ping-ms"), 10) : NaN;
  if (every > 0) CT.Socket.PING_MS = every;

  function linkPart() {
    var strings = CT.readJson("ct-talk").strings || {};
    function say(key, params) {
      var text = strings[key] === undefined ? key : strings[key];
      Object.keys(params || {}).forEach(function (name) { text = text.split("{" + name + "}").join(String(params[name])); });
      return text;
    }

    return {
      linkSent: [],       // when each unanswered ping of this connection went, oldest first
      linkRtts: [],       // the last SAMPLES round trips, ms
      linkVersion: -1,    // the newest state version seen (over reconnects: a gap is frames missed)
      linkMissed: 0,      // frames missed since the page opened (state versions skipped)
      linkMisses: [],     // when each version gap or resync was noticed (for the level's window)
      linkOnline: root.navigator.onLine !== false,

      /* Watch the table's socket (ct-table.js calls this once, before it connects). */
      linkWatch: function (socket) {
        var self = this;
        var ping = socket.ping, send = socket.send, handlers = socket.handlers;
        var status = handlers.status, state = handlers.state;
        socket.ping = function () { self.linkSent.push(Date.now()); return ping.apply(socket, arguments); };
        socket.send = function (payload) {
          var sent = send.apply(socket, arguments);
          if (sent && payload && payload.type === "sync") self.linkMiss(0); // a resync: frames went missing
          return sent;
        };
        handlers.pong = function () { self.linkPong(); };
        handlers.status = function (value, s) {
          if (value !== "online") self.linkSent = [];
          if (status) status(value, s);
        };
        handlers.state = function (frame, s) {
          self.linkFrame(frame);
          if (state) state(frame, s);
        };
        root.addEventListener("online", function () { self.linkOnline = true; });
        root.addEventListener("offline", function () { self.linkOnline = false; });
      },
      linkPong: function () {
        var sent = this.linkSent.shift();
        if (sent === undefined) return;
        this.linkRtts = this.linkRtts.concat([Date.now() - sent]).slice(-SAMPLES);
      },
      linkFrame: function (frame) {
        if (typeof frame.version !== "number") return;
        if (this.linkVersion >= 0 && frame.version > this.linkVersion + 1) this.linkMiss(frame.version - this.linkVersion - 1);
        this.linkVersion = Math.max(this.linkVersion, frame.version);
      },
      linkMiss: function (n) {
        var now = Date.now();
        this.linkMissed += n;
        this.linkMisses = this.linkMisses.filter(function (at) { return now - at < LINK.window; }).concat([now]);
      },

      /* The level: good, fair, poor or none (the page's clock, `now`, moves it along). */
      linkLevel: function () {
        var now = this.now;
        if (this.status !== "online" || !this.linkOnline) return "none";
        var waiting = this.linkSent.length ? now - this.linkSent[0] : 0;
        if (waiting >= LINK.lost) return "none";
        var last = this.linkRtts.length ? this.linkRtts[this.linkRtts.length - 1] : 0;
        var rtt = Math.max(last, waiting);
        var level = rtt < LINK.good ? 0 : rtt < LINK.fair ? 1 : 2;
        var recent = this.linkMisses.filter(function (at) { return now - at < LINK.window; }).length;
        if (recent >= LINK.missedPoor) level = 2; else if (recent > 0) level = Math.max(level, 1);
        return LEVELS[level];
      },
      linkLabel: function () { return say("link_" + this.linkLevel()); },
      linkTitle: function () {
        var rtts = this.linkRtts;
        if (!rtts.length) return say("link_no_figures");
        var sum = rtts.reduce(function (a, b) { return a + b; }, 0);
        return say("link_figures", { last: rtts[rtts.length - 1], avg: Math.round(sum / rtts.length), missed: this.linkMissed });
      },
      linkAria: function () { return say("link") + ": " + this.linkLabel() + ". " + this.linkTitle(); }
    };
  }

  root.CT.linkPart = linkPart;
})(window);
