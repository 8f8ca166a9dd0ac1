"""State frames (docs/PROTOCOL.md): what each connection at a table is sent.

A frame holds the table (stake level, seats, presence), the table's ``version`` and the current
hand (or the last finished one) as the engine's ``view`` for that seat. Hidden information is
decided by the engine's ``view`` alone: a seat's frame is built with its own hand seat, a
spectator's with ``None``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from games.adapters import engine
from games.models import Hand
from games.presence import SeatKey, presence_online
from games.services.sql import FRAME_SEATS
from games.table_facts import leave_part, room_part, set_part, waiting_part
from tables.models import Table

PROTOCOL_VERSION = 1


@dataclass(frozen=True, slots=True)
class SeatRow:
    """What a frame shows of a seat: the seat, its player's name and its table money."""

    index: int
    user_id: int
    table_id: int
    status: str
    disconnected: bool
    display_name: str
    username: str
    table_money: int

    @property
    def name(self) -> str:
        return self.display_name or self.username  # accounts.User.shown_name


def _presence(seat: SeatRow, online: set[SeatKey]) -> dict[str, Any]:
    return {
        "index": seat.index,
        "user": seat.user_id,
        "name": seat.name,
        "status": seat.status,
        "connected": (seat.table_id, seat.user_id) in online and not seat.disconnected,
        "auto": seat.disconnected,
        "table_money": seat.table_money,
    }


def _seats(table: Table, rows: Sequence[tuple[Any, ...]] | None = None) -> list[SeatRow]:
    """The table's seats with their players' names and table money: ``rows``, as the change
    that held the table left them (``games.services.change.TableChange.seat_rows``), or read in
    one query."""
    if rows is None:
        rows = FRAME_SEATS.rows(table_id=table.pk, table_ref=table.wallet_ref)
    return [SeatRow(*row) for row in rows]


def _hand_part(hand: Hand | None, user_id: int | None) -> dict[str, Any] | None:
    if hand is None:
        return None
    seat = hand.seat_of(user_id) if user_id is not None else None
    return {
        "id": hand.pk,
        "number": hand.number,
        "status": hand.status,
        "seat": seat,
        "players": [{"user": p["user"], "seat": p["seat"], "name": p["name"]} for p in hand.players],
        "view": engine(hand.game).view(hand.state, seat),
    }


def _base(table: Table, seats: list[SeatRow]) -> dict[str, Any]:
    level = table.stake_level
    # Redis (where it does not know already), not the database
    online = presence_online(((s.table_id, s.user_id) for s in seats), time.time(), settings.GAMES_PRESENCE_TIMEOUT)
    return {
        "type": "state",
        "protocol": PROTOCOL_VERSION,
        "table": table.pk,
        "version": table.version,
        "game": level.game,
        "mode": level.mode,
        "stake": {
            "unit": level.unit,
            "commission_percent": level.commission_percent,
            "min_buy_in": level.min_buy_in,
            "min_table_money": level.min_table_money,
            "seats": level.seats,
        },
        "seats": [_presence(s, online) for s in seats],
        "closed": table.status != Table.Status.OPEN,
        "waiting": waiting_part(table, seats, table.current_hand),
        "set": set_part(table, table.current_hand),
        "room": room_part(table),
    }


def snapshot_rows(table_id: int) -> tuple[Table, list[SeatRow], Hand | None]:
    """What a snapshot shows, read: the table with its stake level and current hand, and its
    seats (two statements)."""
    table = Table.objects.select_related("stake_level", "current_hand").get(pk=table_id)
    return table, _seats(table), table.current_hand


def frame_for(table_id: int, user_id: int | None) -> dict[str, Any]:
    """The full snapshot for one connection (a seated player, or a spectator)."""
    return snapshot_from(*snapshot_rows(table_id), user_id)


def snapshot_from(table: Table, seats: list[SeatRow], hand: Hand | None, user_id: int | None) -> dict[str, Any]:
    """:func:`frame_for` from rows read already (:func:`snapshot_rows`)."""
    frame = _base(table, seats)
    seated = next((s for s in seats if s.user_id == user_id), None)
    frame["you"] = seated.index if seated else None
    frame["hand"] = _hand_part(hand, user_id)  # the seat's view if dealt in, else the public one
    frame["leave"] = leave_part(table, hand, user_id) if seated else None
    return frame


def table_frames(
    table_id: int, held: Table | None = None, seat_rows: Sequence[tuple[Any, ...]] | None = None
) -> tuple[dict[int, dict[str, Any]], dict[str, Any]]:
    """Private frames per seated (or dealt-in) user, and the public frame. ``held``: the table
    as the change that just committed left it (locked, with its stake level and current hand
    in memory), so only the seats and their table money are read, unless the change gives them
    (``seat_rows``)."""
    if held is None:
        table, seats, hand = snapshot_rows(table_id)
    else:
        table, seats, hand = held, _seats(held, seat_rows), held.current_hand
    base = _base(table, seats)
    users: dict[int, int | None] = {s.user_id: s.index for s in seats}  # None: dealt in, no longer seated
    if hand is not None and hand.status == Hand.Status.ACTIVE:
        for p in hand.players:
            users.setdefault(p["user"], None)
    private = {
        user_id: {**base, "you": index, "hand": _hand_part(hand, user_id),
                  "leave": leave_part(table, hand, user_id) if index is not None else None}
        for user_id, index in users.items()
    }
    public = {**base, "you": None, "hand": _hand_part(hand, None), "leave": None}
    return private, public
