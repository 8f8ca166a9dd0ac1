"""Presence from heartbeats, kept in Redis (games/presence.py): a consumer's disconnect handler is not
guaranteed to run, so a seat counts as connected while its heartbeats keep arriving.

A heartbeat is one Redis round trip (in the distributed mode), never a database write: the
database hears only of the changes that matter, a seat going away (the sweeper, after
``GAMES_PRESENCE_TIMEOUT`` of silence) or coming back (its next heartbeat). A seat with no
heartbeat on record (a cache that lost its keys, a seat never heard from) starts its window
when the sweeper first finds it so: a lost cache marks nobody away.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.frames import snapshot_from, snapshot_rows
from games.presence import Also, presence_beat, presence_beat_async, presence_closed, presence_read
from games.services.hand_presence import hand_player_back, hand_player_left
from games.services.hands import hand_start_after_commit
from games.services.store import table_lock, table_touch
from kernel.db_threads import in_db_thread
from tables.models import Seat

log = logging.getLogger(__name__)


def seat_heartbeat(*, table_id: int, user: User, away: bool = False) -> int | None:
    """Record a heartbeat; the table's last broadcast version (for the pong). The database is
    read only when something may have changed: the first heartbeat on record (the seat shows
    online) and, when the connection's last frame showed its seat away (``away``), the seat
    coming back."""
    first, version = presence_beat(table_id, user.pk)
    if first or away:
        _changed(table_id, user, first)
    return version


async def seat_heartbeat_async(
    *, table_id: int, user: User, away: bool = False, also: Also | None = None
) -> tuple[int | None, list[Any] | None]:
    """:func:`seat_heartbeat` from an event loop: the Redis round trip on the loop, a thread only
    for the database, when something may have changed. ``also``: more commands for the same
    round trip (``games.presence.presence_beat_async``); their replies come second."""
    first, version, more = await presence_beat_async(table_id, user.pk, also)
    if first or away:
        await in_db_thread(_changed, table_id, user, first)
    return version, more


async def seat_opened_async(*, table_id: int, user: User) -> dict[str, Any]:
    """A signed-in player's connection opens: its heartbeat, and the snapshot it starts from
    (:func:`_opened`) in one database call."""
    first, _version, _more = await presence_beat_async(table_id, user.pk, None)
    return await in_db_thread(_opened, table_id, user, first)


async def seat_closed_async(*, table_id: int, user_id: int) -> None:
    """A player's connection to the table closed: the seat counts as gone until it beats again,
    so a hand that ends with it auto-played sits it out (docs/RULES.md "Away players"). Never
    fails the close: without the mark the seat is found gone once its window passes."""
    try:
        await presence_closed(table_id, user_id)
    except Exception as exc:  # noqa: BLE001 - the window still finds the seat gone
        log.warning("could not mark table %s user %s gone: %s", table_id, user_id, exc)


def _opened(table_id: int, user: User, first: bool) -> dict[str, Any]:
    """The snapshot, once the seat's presence is settled as a heartbeat settles it
    (:func:`_settle`): a seat marked away comes back, a seat first heard from shows online to
    the others. The snapshot's rows show whether either is due, so when neither is (a spectator,
    a player not seated yet, a connection that dropped a moment ago) they are read once."""
    rows = snapshot_rows(table_id)
    seat = next((s for s in rows[1] if s.user_id == user.pk), None)
    if seat is not None and _settle(table_id, user, first, seat.disconnected, seat.status):
        rows = snapshot_rows(table_id)
    return snapshot_from(*rows, user.pk)


def _changed(table_id: int, user: User, first: bool) -> None:
    seat = Seat.objects.filter(table_id=table_id, user=user).values("disconnected", "status").first()
    if seat is not None:
        _settle(table_id, user, first, seat["disconnected"], seat["status"])


def _settle(table_id: int, user: User, first: bool, disconnected: bool, status: str) -> bool:
    """Settle a heartbeat of a seat in this state: a seat marked away plays for itself again,
    a seat first heard from shows online to the others; whether the table changed."""
    if disconnected and status != Seat.Status.LEAVING:
        seat_reconnect(table_id=table_id, user=user)
    elif first:
        _touch(table_id)
    else:
        return False
    return True


@transaction.atomic
def _touch(table_id: int) -> None:
    table_touch(table_lock(table_id))


@transaction.atomic
def seat_reconnect(*, table_id: int, user: User) -> bool:
    """A seat marked away is heard from again: it plays for itself again."""
    change = table_lock(table_id)
    table = change.table
    updated = Seat.objects.filter(table=table, user=user, disconnected=True).exclude(status=Seat.Status.LEAVING)
    if not updated.update(disconnected=False, last_seen=timezone.now()):
        return False
    hand_player_back(change=change, user=user)
    table_touch(change)
    hand_start_after_commit(table.pk, hands_played=table.hands_played)  # two connected players may deal now
    return True


@transaction.atomic
def seat_disconnected(*, table_id: int, user_id: int, before: datetime) -> bool:
    """Mark a seat whose last heartbeat is older than ``before`` as disconnected (auto-played,
    shown to the others); an engine whose rules depend on presence is told (the trio's penalty).
    A seat with no heartbeat on record is not marked (the sweeper starts its window)."""
    change = table_lock(table_id)
    table = change.table
    seat = Seat.objects.select_for_update().filter(table=table, user_id=user_id).select_related("user").first()
    if seat is None or seat.disconnected:
        return False
    last = presence_read([(table_id, user_id)]).get((table_id, user_id))
    if last is None or last >= before.timestamp():
        return False
    seat.disconnected = True
    seat.save(update_fields=["disconnected"])
    hand_player_left(change=change, user=seat.user)
    table_touch(change)
    return True
