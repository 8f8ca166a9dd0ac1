"""How a 三公 player's bet leans against the cards it could see when betting, for the integrity
signals (docs/INTEGRITY.md "What the stored signals measure"; docs/RULES.md section 3,
"`banker_bid` 搶莊": two cards face up, then bids, then bets, then the third card).

A player who bets without looking at its face-up cards (or bets more on stronger ones) leans 0
or above; one who puts its largest bet on weak face-up cards and its smallest on strong ones
leans below 0 in every such hand, which is how chips are passed to a banker by betting.
"""

from __future__ import annotations

from fractions import Fraction

from games.engine.cards import parse_cards
from games.engine.protocol import Record
from games.engine.samgong.hands import card_points
from games.engine.samgong.rules import resolve_rules

#: The middle of the face-up points (0–9): cards above it are strong, below it weak.
MIDDLE_POINTS = Fraction(9, 2)


def bet_lean(rec: Record, seat: int) -> int | None:
    """``base × (bet − the mean of the table's bet multipliers) × (face-up points − 4.5)``, in
    minor units rounded toward zero, for a player (not the banker) of a ``banker_bid`` hand that
    bet; None otherwise (other modes bet before any card is seen, or not at all; docs/RULES.md
    section 3 "Modes").

    >>> rec = {"mode": "banker_bid", "base": 100, "banker": 0, "rules": {"bet_multipliers": [1, 2, 3, 4, 5]},
    ...        "seats": [{"cards": ["Ks", "Qh", "2c"]}, {"cards": ["2s", "Ah", "9c"], "bet": 5},
    ...                  {"cards": ["9s", "8h", "Tc"], "bet": 1}, {"cards": ["9d", "8d", "Td"], "bet": 5}]}
    >>> [bet_lean(rec, s) for s in range(4)]
    [None, -300, -500, 500]
    """
    if rec.get("mode") != "banker_bid" or rec.get("banker") in (None, seat):
        return None
    entry = rec["seats"][seat]
    if entry.get("bet") is None or len(entry.get("cards") or []) < 2:
        return None
    bets = (rec.get("rules") or {}).get("bet_multipliers") or resolve_rules({"mode": "banker_bid"})["bet_multipliers"]
    mean_bet = Fraction(sum(bets), len(bets))
    points = sum(card_points(c) for c in parse_cards(entry["cards"][:2])) % 10
    return int(int(rec["base"]) * (int(entry["bet"]) - mean_bet) * (points - MIDDLE_POINTS))
