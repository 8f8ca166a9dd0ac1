/* 三公's squeeze (眯牌): while a hand is being played, your own last card lies face down over its
 * face, and you drag its back away to peek at it, slowly or at once, as the 三公 apps do; a tap
 * or the keyboard turns it over too. Only your own view: the server sent you the card already,
 * and what the others see changes only when you reveal (亮牌). With reduced motion, and once the
 * hand is settled or your cards are revealed, the card is simply shown. */
(function (root) {
  "use strict";
  var PEEKED_AT = 0.55;  // of the card's height: a drag this far turns the card over

  function reducedMotion() {
    return !!(root.matchMedia && root.matchMedia("(prefers-reduced-motion: reduce)").matches);
  }

  function squeezePart() {
    return {
      peekedHand: null,

      /* The card still to squeeze (your last one), or null when every card shows plainly. */
      squeezeCard: function () {
        var mine = this.mine;
        if (!this.active || !mine || mine.revealed || reducedMotion()) return null;
        var cards = this.myCards();
        if (cards.length !== 3 || this.peekedHand === this.hand.id) return null;
        return cards[2];
      },
      squeezing: function (card) { return card !== null && card === this.squeezeCard(); },
      peek: function () { if (this.hand) this.peekedHand = this.hand.id; },

      /* The back follows the finger (or the mouse); let go past PEEKED_AT of the card and it
       * is turned over, short of it and it settles back. */
      initSqueeze: function (el) {
        var self = this, start = null, moved = false;
        function place(dx, dy) { el.style.transform = "translate(" + dx + "px," + dy + "px) rotate(" + (dx / 12) + "deg)"; }
        el.addEventListener("pointerdown", function (event) {
          start = { x: event.clientX, y: event.clientY, h: el.getBoundingClientRect().height };
          moved = false;
          el.classList.add("dragging");
          if (el.setPointerCapture) el.setPointerCapture(event.pointerId);
          event.preventDefault();
        });
        el.addEventListener("pointermove", function (event) {
          if (!start) return;
          var dx = event.clientX - start.x, dy = event.clientY - start.y;
          if (Math.abs(dx) + Math.abs(dy) > 4) moved = true;
          place(dx, dy);
          if (Math.max(Math.abs(dx), Math.abs(dy)) > start.h * PEEKED_AT) { start = null; self.peek(); }
        });
        function release() {
          if (!start) return;
          start = null;
          el.classList.remove("dragging");
          place(0, 0);
        }
        el.addEventListener("pointerup", release);
        el.addEventListener("pointercancel", release);
        el.addEventListener("click", function () { if (!moved) self.peek(); });
      }
    };
  }

  root.CT.squeezePart = squeezePart;
})(window);
