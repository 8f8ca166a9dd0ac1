"""What each seat may see of a ``thirteen`` hand (games/engine/protocol.py ``view``; docs/RULES.md
section 1): its own 13 cards and submission while the hand is arranged, everyone's once it is
settled, and the server seed only then. Spectators (``seat=None``) see no card before that.
"""

from __future__ import annotations

from typing import Any

from games.engine.cards import cards_str
from games.engine.jsondata import json_copy
from games.engine.protocol import State
from games.engine.thirteen.engine import GAME, ROWS, deadline, legal_actions
from games.engine.thirteen.highlights import highlights


def _shown(submission: dict[str, Any] | None) -> dict[str, Any] | None:
    """A submission as views show it: its rows as card strings."""
    if submission is None:
        return None
    return {k: cards_str(v) if k in ROWS else v for k, v in submission.items()}


def view(state: State, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may see: its own cards and submission; everyone's once settled."""
    settled = state["phase"] == "settled"
    seats = []
    for i, s in enumerate(state["seats"]):
        visible = settled or i == seat
        seats.append(
            {
                "player": s["player"],
                "stack": s["stack"],
                "submitted": s["submission"] is not None,
                "cards": cards_str(s["cards"]) if visible else None,
                "submission": _shown(s["submission"]) if visible else None,
            }
        )
    return {
        "game": GAME,
        "phase": state["phase"],
        "phase_seq": state["phase_seq"],
        "deadline": deadline(state),
        "dealer": state["dealer"],
        "unit": state["rules"]["unit"],
        "commitment": state["commitment"],
        "server_seed": state["server_seed"] if settled else None,
        "client_seeds": list(state["client_seeds"]),
        "you": seat,
        "seats": seats,
        "legal_actions": legal_actions(state, seat) if seat is not None else [],
        "result": json_copy(state["result"]),
        "highlights": highlights(state["result"]),
    }
