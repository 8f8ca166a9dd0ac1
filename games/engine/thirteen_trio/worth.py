"""What a 三人十三支 seat's own 17 cards were worth in a recorded hand (docs/INTEGRITY.md "Play
above or below the cards"; docs/RULES.md section 2 "Scoring", "Money"): every seat's coins had
the seat played the solver's best 13 cards and rows, the others as they played.
"""

from __future__ import annotations

from typing import Any

from games.engine.cards import cards_str, parse_card, parse_cards
from games.engine.protocol import Record
from games.engine.record import ROWS, pick
from games.engine.thirteen_trio.requests import score_request


def seat_worth(rec: Record, seat: int) -> list[int] | None:
    """The re-scored coins with ``seat``'s rows replaced by the solver's best; None for a void
    game, a game with a disconnection penalty (its coins are not the rows' alone) or a record
    without every seat's cards and rows."""
    # The solver loads its tables on first use; imported here as the engine's hint does.
    from games.engine.solver import solve_trio

    result = rec["result"]
    if result.get("void") or result.get("penalty"):
        return None
    seats: list[dict[str, Any]] = [pick(s, ("cards", *ROWS)) for s in rec["seats"]]
    if any(not s.get("cards") or not all(r in s for r in ROWS) for s in seats):
        return None
    best = solve_trio(parse_cards(seats[seat]["cards"]), parse_card(rec["jackpot"]), 1)[0]
    seats[seat] = {"cards": seats[seat]["cards"], **{row: cards_str(best[row]) for row in ROWS}}
    req = {**pick(rec, ("game", "jackpot", "base", "commission_percent")), "seats": seats}
    return [int(c) for c in score_request(req)["coins"]]
