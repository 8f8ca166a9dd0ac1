"""Presence from heartbeats: a consumer's disconnect handler is not guaranteed to run, so a
seat counts as connected while its heartbeats keep arriving."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.services.hands import hand_player_back, hand_player_left
from games.services.store import table_lock, table_touch
from tables.models import Seat

HEARTBEAT_WRITE_EVERY = timedelta(seconds=2)


def seat_heartbeat(*, table_id: int, user: User) -> bool:
    """Record a heartbeat; a seat that was marked disconnected comes back. Returns whether
    the user is seated here."""
    now = timezone.now()
    seat = Seat.objects.filter(table_id=table_id, user=user).values("last_seen", "disconnected", "status").first()
    if seat is None:
        return False
    if seat["disconnected"] and seat["status"] != Seat.Status.LEAVING:
        _reconnect(table_id=table_id, user=user)
    elif seat["last_seen"] is None or now - seat["last_seen"] >= HEARTBEAT_WRITE_EVERY:
        first = seat["last_seen"] is None
        Seat.objects.filter(table_id=table_id, user=user).update(last_seen=now)
        if first:
            _touch(table_id)
    return True


@transaction.atomic
def _touch(table_id: int) -> None:
    table_touch(table_lock(table_id))


@transaction.atomic
def _reconnect(*, table_id: int, user: User) -> None:
    table = table_lock(table_id)
    updated = Seat.objects.filter(table=table, user=user, disconnected=True).update(
        disconnected=False, last_seen=timezone.now()
    )
    if updated:
        hand_player_back(table=table, user=user)
        table_touch(table)


@transaction.atomic
def seat_disconnected(*, table_id: int, user_id: int, before: datetime) -> bool:
    """Mark a seat whose last heartbeat is older than ``before`` as disconnected (auto-played,
    shown to the others); an engine whose rules depend on presence is told (the trio's penalty)."""
    table = table_lock(table_id)
    seat = Seat.objects.select_for_update().filter(table=table, user_id=user_id).select_related("user").first()
    if seat is None or seat.disconnected or seat.last_seen is None or seat.last_seen >= before:
        return False
    seat.disconnected = True
    seat.save(update_fields=["disconnected"])
    hand_player_left(table=table, user=seat.user)
    table_touch(table)
    return True
