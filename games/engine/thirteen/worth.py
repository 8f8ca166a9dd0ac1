"""What a 十三张 seat's own cards were worth in a recorded hand (docs/INTEGRITY.md "Play above or
below the cards"; docs/RULES.md section 1 "Scoring", "Money"): every seat's coins had the seat
played the solver's best arrangement of its 13 cards, the others as they played.
"""

from __future__ import annotations

from typing import Any

from games.engine.cards import cards_str, parse_cards
from games.engine.protocol import Record
from games.engine.record import ROWS, pick
from games.engine.thirteen.requests import score_request


def seat_worth(rec: Record, seat: int) -> list[int] | None:
    """The re-scored coins with ``seat``'s rows replaced by the solver's best (declaring a natural
    where the solver would); None for a record without every seat's rows."""
    # The solver loads its tables on first use; imported here as the engine's hint does.
    from games.engine.solver import solve_thirteen

    seats: list[dict[str, Any]] = [pick(s, ("cards", "front", "middle", "back", "declare")) for s in rec["seats"]]
    if any(not s.get("cards") or not all(r in s for r in ROWS) for s in seats):
        return None
    best = solve_thirteen(parse_cards(seats[seat]["cards"]), 1)[0]
    seats[seat] = {"cards": seats[seat]["cards"], "declare": best["declare"],
                   **{row: cards_str(best[row]) for row in ROWS}}
    req = {**pick(rec, ("game", "dealer", "unit", "stacks", "commission")), "seats": seats}
    return [int(c) for c in score_request(req)["coins"]]
