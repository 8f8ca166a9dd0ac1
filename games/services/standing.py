"""Stopping play: a player banned, logged out, self-excluded or cooling off leaves every seat at
once and every open socket of theirs is told (docs/RESPONSIBLE_PLAY.md "Stopping play").

The player's standing itself is read fresh wherever it matters: sitting down and topping up
(``seating``), and every deal (``hands.hand_start_if_ready`` deals no barred player in), so a
ban or a break holds even where this service did not run.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from accounts.models import User
from accounts.sockets import STOP_MESSAGES
from games.broadcast import notify_stop
from games.services.errors import NotSeated
from games.services.seating import seat_leave
from tables.models import Seat


def player_stop(*, user: User, reason: str) -> list[dict[str, Any]]:
    """Stop the player's play for ``reason`` (a key of ``accounts.sockets.STOP_MESSAGES``).

    1. Leave every seat through ``seat_leave``, one table at a time under its lock: a seat not
       dealt into the hand in play is cashed out at once; one dealt in is played out as a
       leaver's and cashed out at the hand's end (a barred player's seat is never dealt in
       again, in the trio's set neither).
    2. Once that commits, every open socket of the player hears why, on every server.

    Returns each table's outcome: ``{"table": id, "cashed_out": whether at once}``."""
    if reason not in STOP_MESSAGES:
        raise ValueError(f"unknown stop reason {reason!r}")
    left: list[dict[str, Any]] = []
    tables = Seat.objects.filter(user=user).exclude(status=Seat.Status.LEAVING).values_list("table_id", flat=True)
    for table_id in list(tables):
        try:
            left.append({"table": table_id, "cashed_out": seat_leave(table_id=table_id, user=user)})
        except NotSeated:  # left in the meantime
            continue
    user_id = user.pk
    transaction.on_commit(lambda: notify_stop(user_id, reason), robust=True)
    return left
