/* Shared helpers of the lobby and table pages: translated strings, money, cards, and a
 * WebSocket that reconnects with backoff, keeps a heartbeat and asks for a snapshot when the
 * table has gone quiet (docs/PROTOCOL.md "Client obligations"). */
(function (root) {
  "use strict";

  function readJson(id) {
    var el = document.getElementById(id);
    return el ? JSON.parse(el.textContent) : {};
  }

  var STRINGS = null;

  /* A translated string with {name} placeholders filled in. */
  function t(key, params) {
    if (STRINGS === null) STRINGS = readJson("ct-strings");
    var text = STRINGS[key];
    if (text === undefined) return key;
    if (params) {
      Object.keys(params).forEach(function (name) {
        text = text.split("{" + name + "}").join(String(params[name]));
      });
    }
    return text;
  }

  /* Minor units (int) as coins with two decimals, not grouped ("-1234.05"); exact integer
   * arithmetic, no floats. */
  function plainMoney(minor) {
    var abs = Math.abs(minor), cents = abs % 100;
    return (minor < 0 ? "-" : "") + Math.floor(abs / 100) + "." + (cents < 10 ? "0" : "") + cents;
  }

  /* Minor units to "1,234.50", "30.00": two decimals always, thousands grouped, as the site's
   * pages write coins (wallet/money.py format_coins with grouping). */
  function money(minor) {
    if (minor === null || minor === undefined) return "–";
    var text = plainMoney(minor), dot = text.indexOf(".");
    return text.slice(0, dot).replace(/\B(?=(\d{3})+$)/g, ",") + text.slice(dot);
  }

  function signed(minor) { return (minor > 0 ? "+" : "") + money(minor); }

  /* "12.5" / "30" (coins) to minor units, or null when it is not a positive amount. */
  function parseCoins(text) {
    var m = /^\s*(\d{1,12})(?:[.,](\d{1,2}))?\s*$/.exec(String(text));
    if (!m) return null;
    var minor = parseInt(m[1], 10) * 100 + (m[2] ? parseInt((m[2] + "0").slice(0, 2), 10) : 0);
    return minor > 0 ? minor : null;
  }

  /* An amount field's value: coins with two decimals, not grouped ("3000.00"; parseCoins reads it). */
  function coinsInput(minor) { return plainMoney(minor); }

  var SUIT_SYMBOL = { s: "♠", h: "♥", c: "♣", d: "♦" };
  function cardLabel(card) {
    if (!card) return "?";
    return (card[0] === "T" ? "10" : card[0]) + SUIT_SYMBOL[card[1]];
  }

  function uid() {
    if (root.crypto && root.crypto.randomUUID) return root.crypto.randomUUID().replace(/-/g, "");
    return Date.now().toString(36) + Math.random().toString(36).slice(2);
  }

  var REFUSED = { 4401: true, 4403: true, 4404: true, 4429: true }; // 4403: a private room, no pass
  /* The error codes that say the player may no longer play (docs/PROTOCOL.md "Stopping play"). */
  var STOPS = { banned: true, logged_out: true, self_excluded: true, cooling_off: true };

  /* When a live connection asks for a snapshot (`sync`, docs/PROTOCOL.md "Client obligations"):
   * pongs prove the socket is alive, not that every broadcast arrived. `overdue`: the hand's
   * deadline passed this long ago with no newer state; `silent`: no state at all this long
   * while seated; `every`: at most one sync this often. Milliseconds. */
  var RESYNC = { overdue: 3000, silent: 30000, every: 10000, behind: 2000, behindEvery: 3000 };

  /* One WebSocket with automatic reconnect (exponential backoff with jitter, capped at 15 s),
   * a ping every 5 s, a watchdog that reconnects when nothing arrives for 15 s, a `sync` when
   * the state frames stop (RESYNC), and request/response matching by id. */
  function Socket(path, handlers) {
    this.path = path;
    this.handlers = handlers;
    this.attempts = 0;
    this.pending = {};
    this.status = "connecting";
    this.retryAt = null;
    this.clockOffset = 0; // server time - local time, ms
    this.lastHeard = 0;
    this.lastState = 0; // when the last state frame came (0: none on this connection yet)
    this.stateDeadline = null; // its hand's deadline (epoch seconds), while the hand is in play
    this.stateSeated = false;
    this.stateVersion = -1; // the newest state frame's version
    this.pongVersion = -1; // the newest version a pong said was broadcast, and when it said so
    this.pongAt = 0;
    this.pongAsked = -1; // the pong version a sync was last sent for
    this.lastSync = 0;
    var self = this;
    root.addEventListener("online", function () { self.reconnectNow(); });
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible" && self.status !== "online") self.reconnectNow();
    });
  }

  Socket.prototype.url = function () {
    var scheme = root.location.protocol === "https:" ? "wss://" : "ws://";
    return scheme + root.location.host + this.path;
  };

  Socket.prototype.setStatus = function (status) {
    this.status = status;
    if (this.handlers.status) this.handlers.status(status, this);
  };

  Socket.prototype.connect = function () {
    var self = this;
    clearTimeout(this.retryTimer);
    this.retryAt = null;
    this.setStatus(this.attempts ? "reconnecting" : "connecting");
    var ws;
    try { ws = new WebSocket(this.url()); } catch (e) { this.scheduleRetry(); return; }
    this.ws = ws;
    ws.onopen = function () {
      self.attempts = 0;
      self.lastHeard = Date.now();
      self.lastState = 0; // the server sends a snapshot on connect
      self.setStatus("online");
      self.startHeartbeat();
    };
    ws.onmessage = function (event) {
      self.lastHeard = Date.now();
      var message;
      try { message = JSON.parse(event.data); } catch (e) { return; }
      self.dispatch(message);
    };
    ws.onclose = function (event) {
      if (self.ws !== ws) return;
      self.stopHeartbeat();
      self.failPending();
      // The server refused this socket for good (no such table, too many connections of this
      // user: docs/PROTOCOL.md "Close codes"): its error frame said why; retrying would only be
      // refused again. Coming back to the page (visible, online) tries once more.
      if (REFUSED[event.code]) { self.setStatus("refused"); return; }
      self.scheduleRetry();
    };
    ws.onerror = function () { try { ws.close(); } catch (e) { /* already closed */ } };
  };

  Socket.prototype.scheduleRetry = function () {
    var self = this;
    this.attempts += 1;
    var base = Math.min(15000, 500 * Math.pow(2, this.attempts - 1));
    var delay = Math.round(base * (0.6 + Math.random() * 0.4));
    this.retryAt = Date.now() + delay;
    this.setStatus("reconnecting");
    this.retryTimer = setTimeout(function () { self.connect(); }, delay);
  };

  Socket.prototype.reconnectNow = function () {
    if (this.ws && this.ws.readyState <= 1 && this.status === "online") return;
    if (this.ws) { this.ws.onclose = null; try { this.ws.close(); } catch (e) { /* ignore */ } }
    this.connect();
  };

  Socket.prototype.startHeartbeat = function () {
    var self = this;
    this.stopHeartbeat();
    this.ping();
    this.heartbeat = setInterval(function () {
      if (Date.now() - self.lastHeard > 15000) { // silent connection: drop it and reconnect
        try { self.ws.close(); } catch (e) { /* ignore */ }
        return;
      }
      self.ping();
    }, Socket.PING_MS);
    this.stateWatch = setInterval(function () { self.resyncIfQuiet(); }, 1000);
  };

  Socket.prototype.stopHeartbeat = function () {
    clearInterval(this.heartbeat);
    clearInterval(this.stateWatch);
  };

  Socket.prototype.noteState = function (frame) {
    var hand = frame.hand;
    this.lastState = Date.now();
    if (typeof frame.version === "number") this.stateVersion = Math.max(this.stateVersion, frame.version);
    this.stateDeadline = hand && hand.status === "active" && hand.view ? hand.view.deadline || null : null;
    this.stateSeated = frame.you !== null && frame.you !== undefined;
  };

  /* A broadcast may be lost while the connection stays up: ask for the snapshot when a pong
   * says the table has gone further than the frames we got, when the hand should have moved
   * on by now, or when a seated player has heard no state for long. */
  Socket.prototype.resyncDue = function (now) {
    if (!this.lastState) return false;
    // a pong said the table has gone past the last frame we got, and it has not come since
    // (once asked for a version, not again: a record ahead of a restored database stays ahead)
    var behind = this.pongVersion > this.stateVersion && this.pongVersion > this.pongAsked &&
      now - this.pongAt > RESYNC.behind;
    if (behind && now - this.lastSync >= RESYNC.behindEvery) {
      this.pongAsked = this.pongVersion;
      return true;
    }
    if (now - this.lastSync < RESYNC.every) return false;
    var overdue = this.stateDeadline !== null && now + this.clockOffset > this.stateDeadline * 1000 + RESYNC.overdue;
    var silent = this.stateSeated && now - this.lastState > RESYNC.silent;
    return overdue || silent;
  };

  Socket.prototype.resyncIfQuiet = function () {
    var now = Date.now();
    if (this.resyncDue(now) && this.send({ type: "sync" })) this.lastSync = now;
  };

  Socket.prototype.ping = function () {
    this.pingSent = Date.now();
    this.send({ type: "ping" });
  };

  Socket.prototype.send = function (payload) {
    if (!this.ws || this.ws.readyState !== 1) return false;
    this.ws.send(JSON.stringify(payload));
    return true;
  };

  /* Send a request with an id; resolves with its ack, rejects with its error frame. */
  Socket.prototype.request = function (payload) {
    var self = this;
    var id = payload.id || uid();
    var message = Object.assign({}, payload, { id: id });
    return new Promise(function (resolve, reject) {
      if (!self.send(message)) {
        reject({ type: "error", code: "timeout", message: "" });  // the page says it in its own words
        return;
      }
      var timer = setTimeout(function () {
        delete self.pending[id];
        reject({ type: "error", code: "timeout", message: "" });
      }, 10000);
      self.pending[id] = { resolve: resolve, reject: reject, timer: timer };
    });
  };

  Socket.prototype.failPending = function () {
    var pending = this.pending;
    this.pending = {};
    Object.keys(pending).forEach(function (id) {
      clearTimeout(pending[id].timer);
      pending[id].reject({ type: "error", code: "timeout", message: "" });
    });
  };

  Socket.prototype.dispatch = function (message) {
    if (message.type === "state") this.noteState(message);
    if (message.type === "pong" && typeof message.t === "number" && this.pingSent) {
      var now = Date.now();
      this.clockOffset = message.t * 1000 - (this.pingSent + now) / 2;
      if (typeof message.version === "number" && message.version > this.pongVersion) {
        this.pongVersion = message.version;
        this.pongAt = now;
      }
    }
    var waiting = message.id ? this.pending[message.id] : null;
    if (waiting && (message.type === "ack" || message.type === "error")) {
      delete this.pending[message.id];
      clearTimeout(waiting.timer);
      if (message.type === "ack") waiting.resolve(message); else waiting.reject(message);
      return;
    }
    var handler = this.handlers[message.type];
    if (handler) handler(message, this);
  };

  /* Seconds left until `deadline` (epoch seconds from the server), using the clock offset. */
  Socket.prototype.secondsLeft = function (deadline) {
    if (!deadline) return null;
    return Math.max(0, Math.ceil((deadline * 1000 - (Date.now() + this.clockOffset)) / 1000));
  };

  /* Copy properties with their getters (Object.assign would call them). */
  function mix() {
    var target = {};
    for (var i = 0; i < arguments.length; i++) {
      Object.defineProperties(target, Object.getOwnPropertyDescriptors(arguments[i]));
    }
    return target;
  }

  Socket.RESYNC = RESYNC;
  /* How often a socket pings: the table page sets its page's figure (ct-link.js). */
  Socket.PING_MS = 5000;

  root.CT = {
    readJson: readJson, t: t, money: money, signed: signed, parseCoins: parseCoins,
    coinsInput: coinsInput, cardLabel: cardLabel, uid: uid, Socket: Socket, mix: mix, STOPS: STOPS
  };
})(window);
