"""What a state frame says about the table beyond its seats and hand (docs/PROTOCOL.md "The
`state` frame"): what the table waits for between hands, where it is in its set, and what
leaving now would cost a player. Every figure comes from the game's engine through
:mod:`games.adapters`; nothing here knows a game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from django.conf import settings

from games.adapters import leave_terms, player_limits, set_progress, set_running
from games.models import Hand
from tables.models import Seat, Table


class SeatLike(Protocol):
    """A seat as the frames read it: its player and its status."""

    @property
    def user_id(self) -> int: ...

    @property
    def status(self) -> str: ...

    @property
    def disconnected(self) -> bool: ...


def _dealt_next(table: Table, seat: SeatLike) -> bool:
    """Whether a seat would be dealt the next hand: playing, or a leaver still bound to a set
    (as ``games.services.hands`` deals)."""
    if seat.status == Seat.Status.PLAYING:
        return True
    return seat.status == Seat.Status.LEAVING and set_running(table.stake_level.game, table.carry, seat.user_id)


def waiting_part(table: Table, seats: Sequence[SeatLike], hand: Hand | None) -> dict[str, Any] | None:
    """What the table waits for while no hand is in play, or None during a hand:
    ``{"reason": "players", "ready", "min", "need", "sitting_out"}`` (too few players may be
    dealt in), ``{"reason": "room_start", "ready", "min"}`` (a private room its owner has not
    started), ``{"reason": "closed"}`` or ``{"reason": "next_hand", "at"}`` (the deal is due:
    ``at``, after a hand, is when its showdown pause ends, epoch seconds)."""
    if hand is not None and hand.status == Hand.Status.ACTIVE:
        return None
    if table.status != Table.Status.OPEN:
        return {"reason": "closed"}
    low, _high = player_limits(table.stake_level)
    ready = sum(1 for s in seats if _dealt_next(table, s))
    if table.is_room and table.room_started_at is None:  # docs/RULES.md "Private rooms"
        return {"reason": "room_start", "ready": ready, "min": low}
    if ready < low:
        out = sum(1 for s in seats if s.status in (Seat.Status.SITTING_OUT, Seat.Status.AWAY))
        return {"reason": "players", "ready": ready, "min": low, "need": low - ready, "sitting_out": out}
    dealt = [s for s in seats if _dealt_next(table, s)]
    bound = all(set_running(table.stake_level.game, table.carry, s.user_id) for s in dealt)
    if not bound and sum(1 for s in dealt if not s.disconnected) < min(2, low):
        return {"reason": "connected"}  # docs/RULES.md "Away players": two connected players deal
    if hand is not None and hand.finished_at is not None:
        return {"reason": "next_hand", "at": hand.finished_at.timestamp() + settings.GAMES_NEXT_HAND_DELAY}
    return {"reason": "next_hand"}


def set_part(table: Table, hand: Hand | None) -> dict[str, Any] | None:
    """The set's progress (``{"game", "size", "in_play"}``), or None for games without sets."""
    return set_progress(table.stake_level, table.carry, hand.state if hand is not None else None)


def leave_part(table: Table, hand: Hand | None, user_id: int | None) -> dict[str, Any] | None:
    """What leaving now binds the player to beyond the hand in play (``{"games_left",
    "game", "size", "penalty"}``, the penalty in minor units), or None."""
    if user_id is None:
        return None
    state = hand.state if hand is not None and hand.status == Hand.Status.ACTIVE else None
    return leave_terms(table.stake_level, table.carry, state, user_id)


def room_part(table: Table) -> dict[str, Any] | None:
    """A private room's code, owner and whether it has started (docs/RULES.md "Private rooms");
    None at a public table. Only the room's pass holders ever get its frames."""
    if not table.is_room:
        return None
    return {"code": table.room_code, "owner": table.room_owner_id, "started": table.room_started_at is not None}
