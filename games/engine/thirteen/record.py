"""十三张's part of the hand record (docs/HAND_HISTORY.md; docs/RULES.md section 1): the score
request's fields of a settled hand, and the re-deal and re-score ``python -m games verify``
checks it by. Every card is revealed at showdown, so a player's copy hides nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.cards import card_str
from games.engine.record import ROWS, compare_hands, differs, pick
from games.engine.thirteen.hands import deal
from games.engine.thirteen.requests import score_request


def _text(cards: Sequence[int | str]) -> list[str]:
    """Cards as the record writes them (``"As"``), whether the state holds ints or strings."""
    return [c if isinstance(c, str) else card_str(c) for c in cards]


def record_part(state: Mapping[str, Any]) -> dict[str, Any]:
    """The score request's seats (cards, rows, declare), dealer, unit, stacks, commission."""
    seats = []
    for s in state["seats"]:
        sub = s.get("submission") or {}
        seat: dict[str, Any] = {"cards": _text(s["cards"]), "declare": bool(sub.get("declare", False))}
        seat.update({row: _text(sub[row]) for row in ROWS if sub.get(row)})
        seats.append(seat)
    rules = state["rules"]
    return {
        "seats": seats, "dealer": state["dealer"], "unit": rules["unit"],
        "stacks": [s["stack"] for s in state["seats"]], "commission": rules["commission_percent"],
    }


def redact(body: dict[str, Any], seat: int) -> list[str]:
    """Nothing is hidden: every hand is revealed at showdown."""
    return []


def check_deal(rec: dict[str, Any]) -> list[tuple[str, str]]:
    """The seed's deck dealt from the dealer's left must give every seat's recorded 13 cards."""
    fair = rec["fairness"]
    hands = deal(fair["server_seed"], fair["client_seeds"], len(rec["seats"]), rec["dealer"])
    return compare_hands(hands, rec["seats"])


def check_score(rec: dict[str, Any]) -> list[tuple[str, str]]:
    """``score_request`` on the recorded rows must give the recorded units, coins and commission."""
    req = pick(rec, ("game", "dealer", "unit", "stacks", "commission"))
    req["seats"] = [pick(s, ("cards", "front", "middle", "back", "declare")) for s in rec["seats"]]
    out, result = score_request(req), rec["result"]
    return differs(("result.units", result["units"], out["units"]), ("result.coins", result["coins"], out["coins"]),
                   ("result.commission", result["commission"], out["commission"]))
