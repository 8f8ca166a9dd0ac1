/* Row evaluation in the browser, for live labels and the foul warning.
 *
 * A port of games/engine/poker.py (docs/RULES.md section 1 "5-card categories", "Ties inside a
 * category"; section 2 "No suits are compared"): rank5 / rank3 return an integer key in ONE key
 * space, so a hand is fouled exactly when !(front <= middle <= back). The server stays the
 * judge; the browser tests compare these keys with the engine's on random rows.
 *
 * Cards are strings such as "As", "Td"; rank 0 = deuce .. 12 = ace, suit 0 = d, 1 = c, 2 = h, 3 = s.
 */
(function (root) {
  "use strict";
  var RANKS = "23456789TJQKA";
  var SUITS = "dchs";
  var HIGH_CARD = 0, PAIR = 1, TWO_PAIR = 2, TRIPS = 3, STRAIGHT = 4, FLUSH = 5,
    FULL_HOUSE = 6, QUADS = 7, STRAIGHT_FLUSH = 8;
  var CAT_SHIFT = 22;
  var NIBBLES = [18, 14, 10, 6, 2];
  var ACE = 12, FIVE = 3;

  function rankOf(card) { return RANKS.indexOf(card[0]); }
  function suitOf(card) { return SUITS.indexOf(card[1]); }

  function pack(cat, ranks) {
    var key = cat * (1 << CAT_SHIFT);
    for (var i = 0; i < ranks.length && i < 5; i++) key += ranks[i] * (1 << NIBBLES[i]);
    return key;
  }

  /* Ranks for comparison: by multiplicity, then rank, each rank once (poker._grouped). */
  function grouped(ranks) {
    var counts = {};
    ranks.forEach(function (r) { counts[r] = (counts[r] || 0) + 1; });
    return Object.keys(counts).map(Number).sort(function (a, b) {
      return counts[b] - counts[a] || b - a;
    });
  }

  function straightTop(desc) {
    if (desc.length !== 5) return null;
    if (desc[0] - desc[4] === 4) return desc[0];
    if (desc.join(",") === [ACE, 3, 2, 1, 0].join(",")) return FIVE;
    return null;
  }

  var SHAPES = { "4,1": QUADS, "3,2": FULL_HOUSE, "3,1,1": TRIPS, "3": TRIPS, "2,2,1": TWO_PAIR,
    "2,1,1,1": PAIR, "2,1": PAIR };

  function plainKey(ranks) {
    var order = grouped(ranks);
    var shape = order.map(function (r) {
      return ranks.filter(function (x) { return x === r; }).length;
    }).sort(function (a, b) { return b - a; });
    var top = ranks.length === 5 ? straightTop(order) : null;
    if (top !== null) return { key: pack(STRAIGHT, [top]), straight: true };
    var cat = SHAPES[shape.join(",")];
    return { key: pack(cat === undefined ? HIGH_CARD : cat, order), straight: false };
  }

  /* Key of a 5-card row; suits=true (thirteen) breaks flush and straight ties by suit. */
  function rank5(cards, suits) {
    var ranks = cards.map(rankOf);
    var s = suitOf(cards[0]);
    var flush = cards.every(function (c) { return suitOf(c) === s; });
    if (flush) {
      var desc = ranks.slice().sort(function (a, b) { return b - a; });
      var top = straightTop(desc);
      var key = top !== null ? pack(STRAIGHT_FLUSH, [top]) : pack(FLUSH, desc);
      return suits ? key + s : key;
    }
    var plain = plainKey(ranks);
    if (plain.straight && suits) {
      var topRank = Math.floor(plain.key / (1 << 18)) & 15;
      for (var i = 0; i < cards.length; i++) {
        if (rankOf(cards[i]) === topRank) return plain.key + suitOf(cards[i]);
      }
    }
    return plain.key;
  }

  /* Key of a 3-card front: only high card, pair or trips; suits never matter. */
  function rank3(cards) { return plainKey(cards.map(rankOf)).key; }

  function rankRow(cards, suits) { return cards.length === 3 ? rank3(cards) : rank5(cards, suits); }
  function category(key) { return Math.floor(key / (1 << CAT_SHIFT)); }
  function topRank(key) { return Math.floor(key / (1 << 18)) & 15; }
  function isRoyal(key) { return category(key) === STRAIGHT_FLUSH && topRank(key) === ACE; }

  /* Whether rows {front, middle, back} are fouled (docs/RULES.md: back >= middle >= front). */
  function isFoul(rows, suits) {
    var f = rank3(rows.front), m = rank5(rows.middle, suits), b = rank5(rows.back, suits);
    return !(f <= m && m <= b);
  }

  /* thirteen's bonus-row value of winning `row` with `key` (scoring.row_value). */
  function rowValue(row, key) {
    var cat = category(key);
    if (row === "front") return cat === TRIPS ? 3 : 1;
    if (cat === STRAIGHT_FLUSH) {
      if (isRoyal(key)) return row === "middle" ? 14 : 7;
      return row === "middle" ? 10 : 5;
    }
    if (cat === QUADS) return row === "middle" ? 8 : 4;
    if (cat === FULL_HOUSE && row === "middle") return 2;
    return 1;
  }

  /* Sorting helpers: by rank (high first, suit breaking ties) or by suit, then rank. */
  function byRank(a, b) { return rankOf(b) - rankOf(a) || suitOf(b) - suitOf(a); }
  function bySuit(a, b) { return suitOf(b) - suitOf(a) || rankOf(b) - rankOf(a); }

  root.CTEval = {
    RANKS: RANKS, SUITS: SUITS, rankOf: rankOf, suitOf: suitOf, rank5: rank5, rank3: rank3,
    rankRow: rankRow, category: category, isRoyal: isRoyal, isFoul: isFoul, rowValue: rowValue,
    byRank: byRank, bySuit: bySuit,
    TRIPS: TRIPS, QUADS: QUADS, STRAIGHT_FLUSH: STRAIGHT_FLUSH, FULL_HOUSE: FULL_HOUSE
  };
})(window);
