/* "Your time ran out": when a phase that waited on me ends without my move, past its deadline,
 * the server played for me (docs/RULES.md: a timed-out seat is played automatically), and the
 * page says so once. A phase the server only extended (the trio's +30 s) still waits on me. */
(function (root) {
  "use strict";
  var t = CT.t;

  function turnPart() {
    return {
      turnWatch: null, // the phase that waits on me: {hand, key, deadline, acted}

      phaseKey: function () {
        var hand = this.hand;
        return hand && hand.status === "active" && hand.view ? hand.id + ":" + hand.view.phase_seq : null;
      },
      /* Called after each state frame (ct-table.js onState). */
      onTurn: function () {
        var w = this.turnWatch, hand = this.hand, mine = this.myTurn;
        if (w && !mine && !w.acted && hand && hand.id === w.hand && this.socket.secondsLeft(w.deadline) <= 1) {
          this.toast(t("timed_out"), "warn");
        }
        if (!mine) { this.turnWatch = null; return; }
        var key = this.phaseKey();
        this.turnWatch = { hand: hand.id, key: key, deadline: this.view.deadline, acted: !!(w && w.key === key && w.acted) };
      },
      /* A move of mine went out in this phase: whatever follows is not a timeout. */
      noteMove: function () { if (this.turnWatch) this.turnWatch.acted = true; }
    };
  }

  root.CT.turnPart = turnPart;
})(window);
