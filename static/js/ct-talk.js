/* Table talk (docs/PROTOCOL.md "Table talk"): a seated player picks a quick phrase or an emote
 * from a fixed list; the server sends its id to everyone at the table, and each page shows it in
 * its own reader's language, in a bubble by the seat, for BUBBLE_MS. The talk button (lower right)
 * opens the list, and its mute switch hides everyone's bubbles; the switch is kept per browser
 * in localStorage ("ct-talk-muted"). A refusal (too fast, not seated) is a toast with the
 * server's message, in the player's language. */
(function (root) {
  "use strict";
  var KEY = "ct-talk-muted";
  var BUBBLE_MS = 4000;

  function storage() {
    try { return root.localStorage; } catch (e) { return null; } // blocked storage: never muted
  }

  function muted() {
    var store = storage();
    return !!store && store.getItem(KEY) === "1";
  }

  function setMuted(value) {
    var store = storage();
    if (store) {
      try { store.setItem(KEY, value ? "1" : "0"); } catch (e) { /* full or private mode */ }
    }
  }

  function talkPart() {
    var data = CT.readJson("ct-talk");
    var strings = data.strings || {};
    var phrases = {}, emotes = {};
    (data.phrases || []).forEach(function (p) { phrases[p[0]] = p[1]; });
    (data.emotes || []).forEach(function (e) { emotes[e[0]] = e; });
    var serial = 0;

    return {
      talkOpen: false,
      talkMuted: muted(),
      talkPhrases: data.phrases || [],
      talkEmotes: data.emotes || [],
      talkBubbles: {},  // table seat -> {n, say}: the seat's saying shown now

      talkT: function (key) { return strings[key] === undefined ? key : strings[key]; },

      /* Hear the table's talk on the table's socket (ct-table.js calls this once). */
      talkWatch: function (socket) {
        var self = this;
        socket.handlers.talk = function (message) { self.talkHeard(message); };
      },
      talkHeard: function (message) {
        if (this.talkMuted || typeof message.seat !== "number" || !(message.say in phrases || message.say in emotes)) return;
        var self = this, seat = message.seat, n = ++serial;
        var bubbles = Object.assign({}, this.talkBubbles);
        bubbles[seat] = { n: n, say: message.say };
        this.talkBubbles = bubbles;
        setTimeout(function () {
          if (!self.talkBubbles[seat] || self.talkBubbles[seat].n !== n) return; // a newer one replaced it
          var left = Object.assign({}, self.talkBubbles);
          delete left[seat];
          self.talkBubbles = left;
        }, BUBBLE_MS);
      },
      talkSay: function (say) {
        var self = this;
        this.talkOpen = false;
        this.socket.request({ type: "talk", say: say }).catch(function (error) { self.showError(error); });
      },
      talkToggleMute: function () {
        this.talkMuted = !this.talkMuted;
        setMuted(this.talkMuted);
        if (this.talkMuted) this.talkBubbles = {};
      },

      talkBubble: function (seat) { return this.talkBubbles[seat] || null; },
      talkBubbleSay: function (seat) { var b = this.talkBubble(seat); return b ? b.say : ""; },
      talkBubbleEmote: function (seat) { var b = this.talkBubble(seat); return !!b && b.say in emotes; },
      talkBubbleLabel: function (seat) {
        var b = this.talkBubble(seat);
        if (!b) return "";
        return b.say in emotes ? emotes[b.say][2] : phrases[b.say];
      },
      talkBubbleText: function (seat) {
        var b = this.talkBubble(seat);
        if (!b) return "";
        return b.say in emotes ? emotes[b.say][1] : phrases[b.say];
      }
    };
  }

  root.CT.talkPart = talkPart;
})(window);
