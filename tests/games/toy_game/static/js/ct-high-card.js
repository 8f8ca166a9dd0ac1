/* High card tables (the contract's example game): show your card; every card once settled. */
(function (root) {
  "use strict";

  function highCardPart() {
    return {
      canShow: function () {
        var v = this.view;
        return !!v && this.active && (v.legal_actions || []).some(function (a) { return a.type === "show"; });
      },
      show: function () { this.act({ type: "show" }).catch(function () {}); },
      seatCard: function (slot) {
        var v = this.view;
        return slot.hand === null || !v || !v.seats[slot.hand] || slot.index === this.you ? null : v.seats[slot.hand].card;
      }
    };
  }

  document.addEventListener("alpine:init", function () {
    root.Alpine.data("table", function () {
      var config = CT.readJson("ct-config");
      return CT.mix(CT.tableCore(config), highCardPart(config));
    });
  });
})(window);
